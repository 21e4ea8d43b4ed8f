// Exercises: RegExp parameters (test, source, flags, global), which the report's generator could not pass.

/**
 * Lines of text, filtered and counted by regular expressions.
 */
function LineFilter() {
  this.lines = [];
}

/** Keeps a line; returns how many there are. */
LineFilter.prototype.add = function (line) {
  this.lines.push(String(line));
  return this.lines.length;
};

/** The lines `pattern` matches. A global pattern is refused: its `lastIndex` would skip lines. */
LineFilter.prototype.matching = function (pattern) {
  if (pattern.global) {
    throw new TypeError('a global pattern keeps its lastIndex between lines: pass it without the g flag');
  }
  var kept = [];
  for (var i = 0; i < this.lines.length; i++) {
    if (pattern.test(this.lines[i])) {
      kept.push(this.lines[i]);
    }
  }
  return kept;
};

/** How `pattern` reads to people: its source, and whether case matters. */
LineFilter.prototype.describe = function (pattern) {
  if (pattern.source === '(?:)') {
    return 'every line';
  }
  var text = '/' + pattern.source + '/';
  return pattern.flags.indexOf('i') >= 0 ? text + ' ignoring case' : text;
};
