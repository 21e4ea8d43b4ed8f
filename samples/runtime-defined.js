// Exercises: a class only known at run time: prototype replaced whole, methods added in a loop under computed names, one behind a feature check, and one defined on `this` by the constructor.

/*
 * Durations, kept as a whole number of seconds and never negative.
 *
 *   var d = new Duration(90);
 *   d.addMinutes(2).inSeconds();   // 210
 *   d.toString();                  // '0:03:30'
 */

function Duration(seconds) {
  var initial = Math.max(0, Math.round(seconds) || 0);
  this.seconds = initial;

  // reset() needs the value given at construction, which stays private to
  // this closure, so it is defined per instance rather than on the prototype.
  var self = this;
  this.reset = function () {
    self.seconds = initial;
    return self;
  };
}

// The prototype is replaced whole, which drops the default `constructor`
// property: it is put back below.
Duration.prototype = {
  /** Adds another Duration to this one. */
  add: function (other) {
    this.seconds += other.seconds;
    return this;
  },

  /** -1, 0 or 1 as this duration is shorter than, as long as, or longer than `other`. */
  compare: function (other) {
    if (this.seconds === other.seconds) {
      return 0;
    }
    return this.seconds < other.seconds ? -1 : 1;
  },

  /** 'h:mm:ss', or 'd days, h:mm:ss' for a day or more. */
  toString: function () {
    var days = Math.floor(this.seconds / 86400);
    var rest = this.seconds % 86400;
    var hours = Math.floor(rest / 3600);
    var minutes = Math.floor(rest % 3600 / 60);
    var secs = rest % 60;
    var clock = hours + ':' + (minutes < 10 ? '0' : '') + minutes + ':' + (secs < 10 ? '0' : '') + secs;
    if (days === 0) {
      return clock;
    }
    return days + (days === 1 ? ' day, ' : ' days, ') + clock;
  }
};
Duration.prototype.constructor = Duration;

// addSeconds/inSeconds, addMinutes/inMinutes, addHours/inHours: one pair of
// methods per unit, generated rather than written out three times.
var DURATION_UNITS = [['Seconds', 1], ['Minutes', 60], ['Hours', 3600]];

DURATION_UNITS.forEach(function (unit) {
  var name = unit[0];
  var factor = unit[1];

  Duration.prototype['add' + name] = function (amount) {
    var added = Math.round(amount * factor);
    if (added === 0) {
      // Nothing to add, or less than half a second.
      return this;
    }
    this.seconds += added;
    if (this.seconds < 0) {
      // Subtracting more than there is leaves an empty duration.
      this.seconds = 0;
    }
    return this;
  };

  Duration.prototype['in' + name] = function () {
    return this.seconds / factor;
  };
});

// Older engines had no Object.freeze: frozen copies are offered only where
// the engine can make them.
if (typeof Object.freeze === 'function') {
  Duration.prototype.frozen = function () {
    return Object.freeze(new Duration(this.seconds));
  };
}
