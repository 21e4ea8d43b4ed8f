// Patterns that values meet in the code under test. Instrumented code calls `__fc$o(x).test(__fc$a(s, 0))`
// where it wrote `x.test(s)` (and likewise `exec`, `match`, `matchAll`, `search`, `replace`,
// `replaceAll`, `split`, `indexOf`, `lastIndexOf`, `includes`): `__fc$o` keeps the receiver and `__fc$a` pairs it with the first argument.
// When the subject (the argument of a RegExp method, the receiver of a String method) is a string or a
// recording proxy, the pattern (its source and flags, whatever built it) is logged for the harness's
// reader with the subject; Rust keeps those whose subject came from the test's arguments (a part of one,
// or what is left of it after characters were taken out). A `split` is logged too, with what joins its
// pieces (a string separator, or a usual separator the RegExp matches), and a subject that is one of
// those pieces is logged with that joiner and how many pieces there were: its argument is a list of
// things the pattern matches. A search of a string for a separator (one or two characters, none a
// letter or a digit: `str.indexOf(';', at)`) is logged as a split by it: code that walks its input by
// hand parses the same lists as code that splits it.
//
// Nothing here converts a value or reads a property through the code's own built-ins: the pattern's
// source and flags are read through the getters captured now, so code under test sees the same
// values, in the same order, as without it.
(function (g) {
  'use strict';
  var hide = { writable: false, enumerable: false, configurable: true };
  var bind = Function.prototype.bind;
  var call = Function.prototype.call;
  var method = function (f) { return bind.call(call, f); };
  var indexOf = method(String.prototype.indexOf);
  var slice = method(String.prototype.slice);
  var exec = method(RegExp.prototype.exec);
  var mapGet = method(Map.prototype.get), mapSet = method(Map.prototype.set), mapClear = method(Map.prototype.clear);
  var setHas = method(Set.prototype.has), setAdd = method(Set.prototype.add), setClear = method(Set.prototype.clear);
  var weakGet = method(WeakMap.prototype.get), weakSet = method(WeakMap.prototype.set);
  var RealRegExp = RegExp;
  var proto = RegExp.prototype;
  var getter = function (name) {
    var d = Object.getOwnPropertyDescriptor(proto, name);
    return d && typeof d.get === 'function' ? method(d.get) : null;
  };
  var source = getter('source');
  var FLAGS = [['hasIndices', 'd'], ['global', 'g'], ['ignoreCase', 'i'], ['multiline', 'm'], ['dotAll', 's'],
    ['unicode', 'u'], ['unicodeSets', 'v'], ['sticky', 'y']];
  var flagGetters = [];
  for (var f = 0; f < FLAGS.length; f++) {
    var get = getter(FLAGS[f][0]);
    if (get !== null) flagGetters[flagGetters.length] = [get, FLAGS[f][1]];
  }
  // Notes a test may make: a loop testing every character of a text stops paying here.
  var BUDGET = 64;
  var LONGEST = 1000;
  var MOST_PIECES = 64;
  // Separators tried against a RegExp separator, most readable first.
  var JOINERS = [' ', ',', ', ', ';', '|', '-', '.', ':', '/', '\t', '\n'];
  // What a separator searched for is (see the header).
  var SEPARATOR = /^[^A-Za-z0-9]{1,2}$/;

  var proxies = new Map();
  var splits = [];
  var seen = new Set();
  // Whether `proxies` or `seen` holds anything since the last reset: most tests leave both empty, and
  // clearing them costs a call each before every test.
  var noted = false;
  var receivers = [];
  var budget = BUDGET;
  var sink = null;

  // [source, flags, split] of a RegExp, kept by the RegExp: most patterns are made once (a module's
  // constant) and met by test after test, and the flags' eight getters, called through the built-ins
  // captured above, were most of what noting a pattern cost. Kept while the source reads the same,
  // which `compile` (legacy) changes but for a call with the same source and other flags. `split` is
  // what a split by it needs (see `splitterOf`), made at its first split. Null for anything but a
  // RegExp.
  var described = new WeakMap();
  // `regExpOf` of the RegExps a literal makes, by the literal's text (Rust's `instrument/patterns.rs`
  // passes it): every evaluation of a literal makes a new RegExp of the same source and flags, met in a
  // loop or a callback once per element, so each was read anew. Read from the first one met.
  var literals = new Map();
  var literalOf = function (v, text) {
    var known = mapGet(literals, text);
    if (known === undefined) {
      known = regExpOf(v);
      if (known !== null) mapSet(literals, text, known);
    }
    return known;
  };
  var regExpOf = function (v) {
    if (v === proto || v === null || typeof v !== 'object') return null;
    var text;
    try {
      text = source(v);
    } catch (_) {
      return null;
    }
    var known = weakGet(described, v);
    if (known === undefined || known[0] !== text) {
      known = [text, flagsOf(v), null];
      weakSet(described, v, known);
    }
    return known;
  };
  // What a split by a RegExp separator (`known`, its `regExpOf`) needs, of the separator alone: the
  // usual separator it matches in full (or null), the RegExp that finds a joiner in a text when none
  // does, and the global RegExp that cuts the pieces (its `lastIndex` set to 0 before each use). Made
  // once per separator: compiling them again at every split cost more than the split.
  var splitterOf = function (separator, known) {
    if (known[2] === null) {
      var flags = flagsOf(separator, 'gy');
      var whole = new RealRegExp('^(?:' + known[0] + ')$', flags);
      var usual = null;
      for (var i = 0; i < JOINERS.length && usual === null; i++) if (exec(whole, JOINERS[i]) !== null) usual = JOINERS[i];
      known[2] = [usual, usual === null ? new RealRegExp(known[0], flags) : null, new RealRegExp(known[0], 'g' + flags)];
    }
    return known[2];
  };
  // The flags of `r`, but those in `except`.
  var flagsOf = function (r, except) {
    var out = '';
    for (var i = 0; i < flagGetters.length; i++) {
      var letter = flagGetters[i][1];
      if (flagGetters[i][0](r) && !(except && indexOf(except, letter) >= 0)) out += letter;
    }
    return out;
  };
  // What joins pieces split by `separator`: a string itself; for a RegExp (`splitter`, its
  // `splitterOf`), the first of the usual separators it matches in full, else the first text it
  // matches in `text`.
  var joinerOf = function (separator, splitter, text) {
    if (typeof separator === 'string') return separator.length > 0 ? separator : null;
    if (splitter[0] !== null) return splitter[0];
    var m = exec(splitter[1], text);
    return m !== null && m[0].length > 0 ? m[0] : null;
  };
  // The pieces of `text` between the matches of `separator` (a string, or a RegExp of `splitter`), as
  // split gives them.
  var pieces = function (text, separator, splitter) {
    var out = [], at = 0, next, m, re;
    if (typeof separator === 'string') {
      while (out.length < MOST_PIECES && (next = indexOf(text, separator, at)) >= 0) {
        out[out.length] = slice(text, at, next);
        at = next + separator.length;
      }
    } else {
      re = splitter[2];
      re.lastIndex = 0;
      while (out.length < MOST_PIECES && (m = exec(re, text)) !== null) {
        if (m[0].length === 0) { re.lastIndex++; continue; }
        out[out.length] = slice(text, at, m.index);
        at = m.index + m[0].length;
      }
    }
    out[out.length] = slice(text, at);
    return out;
  };
  // The earlier split of this test that `subject` is a piece of, if any.
  var pieceOf = function (subject) {
    for (var i = 0; i < splits.length; i++) {
      var parts = splits[i][0];
      for (var j = 0; j < parts.length; j++) if (parts[j] === subject) return splits[i];
    }
    return null;
  };
  // A note, as the text the log carries and by which a test notes a pattern once (see Rust's
  // `sandbox/events.rs`): the method's number, the count of pieces (or null), the flags, the source
  // after its length, what joins the pieces after its length when there are, then ` s` and the subject
  // text, or ` p` for a recording proxy (whose key the log's triple holds: it is part of what is noted
  // once, so that two parameters checked alike both learn the pattern). Lengths count UTF-16 units. A
  // text, not an array: encoding the log as JSON walked each note's array, and it cost more than
  // reading the patterns met.
  var note = function (key, subject, kind, text, flags, joiner, count) {
    var id = kind + ' ' + count + ' ' + flags + ' ' + text.length + ' ' + text;
    if (joiner !== null) id += ' ' + joiner.length + ' ' + joiner;
    id += key < 0 ? ' s' + subject : ' p';
    var once = key < 0 ? id : key + ' ' + id;
    if (setHas(seen, once)) return;
    setAdd(seen, once);
    noted = true;
    budget--;
    sink(key, 6, id);
  };
  var observe = function (receiver, argument, kind, literal) {
    var subject = kind < 2 ? argument : receiver;
    var pattern = kind < 2 ? receiver : argument;
    var key = -1;
    if (typeof subject !== 'string') {
      if (subject === null || (typeof subject !== 'object' && typeof subject !== 'function')) return;
      key = mapGet(proxies, subject);
      if (key === undefined) return;
    } else if (subject.length === 0 || subject.length > LONGEST) {
      return;
    }
    if (kind > 7) {
      if (key < 0 && typeof pattern === 'string' && exec(SEPARATOR, pattern) !== null) {
        note(key, subject, 7, pattern, '', null, pieces(subject, pattern).length);
      }
      return;
    }
    var regexp = literal === undefined ? regExpOf(pattern) : literalOf(pattern, literal);
    if (kind === 7) {
      if (key < 0 && (regexp !== null || (typeof pattern === 'string' && pattern.length > 0))) {
        var splitter = regexp === null ? null : splitterOf(pattern, regexp);
        var joiner = joinerOf(pattern, splitter, subject);
        var parts = pieces(subject, pattern, splitter);
        splits[splits.length] = [parts, joiner];
        if (joiner !== null) note(key, subject, kind, joiner, '', null, parts.length);
      }
      return;
    }
    var text, flags;
    if (regexp !== null) {
      text = regexp[0];
      flags = regexp[1];
    } else if (typeof pattern === 'string' && kind >= 2 && kind <= 4) {
      // `match`, `matchAll` and `search` make a RegExp of a string.
      text = pattern;
      flags = kind === 3 ? 'g' : '';
    } else {
      return;
    }
    // A replacement is a validation only when anchored; others clean text up.
    if ((kind === 5 || kind === 6) && indexOf(text, '^') !== 0) return;
    var split = key < 0 ? pieceOf(subject) : null;
    if (split !== null && split[1] !== null) note(key, subject, kind, text, flags, split[1], split[0].length);
    else note(key, subject, kind, text, flags, null, null);
  };

  hide.value = function (receiver) {
    receivers[receivers.length] = receiver;
    return receiver;
  };
  Object.defineProperty(g, '__fc$o', hide);
  hide.value = function (argument, kind, literal) {
    var n = receivers.length;
    if (n === 0) return argument;
    var receiver = receivers[n - 1];
    receivers.length = n - 1;
    if (budget > 0 && sink !== null) observe(receiver, argument, kind, literal);
    return argument;
  };
  Object.defineProperty(g, '__fc$a', hide);
  // What the harness tells: a new test, its recording proxies, and where notes go.
  hide.value = {
    reset: function () {
      if (splits.length !== 0) splits.length = 0;
      if (receivers.length !== 0) receivers.length = 0;
      if (noted) {
        mapClear(proxies);
        setClear(seen);
        noted = false;
      }
      budget = BUDGET;
    },
    proxy: function (p, key) {
      mapSet(proxies, p, key);
      noted = true;
    },
    attach: function (write) { sink = write; },
  };
  Object.defineProperty(g, '__fc$observe', hide);
})(globalThis);
