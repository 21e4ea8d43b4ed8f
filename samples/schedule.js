// Exercises: parameters that are arrays (push, forEach, length), callbacks (called with arguments) and dates (getDay, getTime), which the report's generator could not pass.

/**
 * A schedule of numbered events: points in time kept as milliseconds since the epoch.
 */
function Schedule(name) {
  this.name = name;
  this.times = [];
}

/** Adds every time in `times` (an array of milliseconds); returns how many were new. */
Schedule.prototype.addAll = function (times) {
  var added = 0;
  var self = this;
  times.forEach(function (time) {
    if (self.times.indexOf(time) < 0) {
      self.times.push(time);
      added++;
    }
  });
  return added;
};

/** Calls `visit(time, index)` for each time in order; returns how many visits returned true. */
Schedule.prototype.each = function (visit) {
  if (this.times.length === 0) {
    return 0;
  }
  var accepted = 0;
  for (var i = 0; i < this.times.length; i++) {
    if (visit(this.times[i], i)) {
      accepted++;
    }
  }
  return accepted;
};

/** Whether `date` falls on a weekend, in UTC. */
Schedule.prototype.isWeekend = function (date) {
  var day = date.getUTCDay();
  return day === 0 || day === 6;
};

/** How many times lie between two dates, inclusive; throws when they are the wrong way round. */
Schedule.prototype.countBetween = function (from, to) {
  var start = from.getTime();
  var end = to.getTime();
  if (start > end) {
    throw new RangeError('the range ends before it starts');
  }
  return this.times.filter(function (time) {
    return time >= start && time <= end;
  }).length;
};
