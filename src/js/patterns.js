// Patterns that values from the test's arguments meet. Instrumented code calls `__fc$o(x).test(__fc$a(s, 0))`
// where it wrote `x.test(s)` (and likewise `exec`, `match`, `matchAll`, `search`, `replace`,
// `replaceAll`, `split`): `__fc$o` keeps the receiver and `__fc$a` pairs it with the first argument.
// When the subject (the argument of a RegExp method, the receiver of a String method) is a recording
// proxy, or a string drawn from one of the test's string arguments (a part of it, or what is left after
// characters were taken out, case aside), the pattern (its source and flags, whatever built it) is
// logged for the harness's reader, with the argument it came from. A subject that is one of the pieces
// an earlier `split` of that argument gave is logged with the separator: the argument is a list.
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
  var code = method(String.prototype.charCodeAt);
  var indexOf = method(String.prototype.indexOf);
  var slice = method(String.prototype.slice);
  var exec = method(RegExp.prototype.exec);
  var mapGet = method(Map.prototype.get), mapSet = method(Map.prototype.set), mapClear = method(Map.prototype.clear);
  var setHas = method(Set.prototype.has), setAdd = method(Set.prototype.add), setClear = method(Set.prototype.clear);
  var stringify = JSON.stringify;
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
  // Observations a test may make: a loop testing every character of an argument stops paying here.
  var BUDGET = 64;
  var LONGEST = 1000;
  var MOST_PIECES = 64;

  var strings = [];
  var proxies = new Map();
  var splits = [];
  var seen = new Set();
  var receivers = [];
  var budget = BUDGET;
  var sink = null;

  var isRegExp = function (v) {
    if (v === proto || v === null || typeof v !== 'object') return false;
    try {
      source(v);
      return true;
    } catch (_) {
      return false;
    }
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
  var fold = function (c) { return c >= 65 && c <= 90 ? c + 32 : c; };
  // Whether `v` is `s` with characters taken out (a slice, a trimmed or cleaned copy), case aside.
  var derived = function (v, s) {
    if (v.length > s.length) return false;
    if (indexOf(s, v) >= 0) return true;
    for (var i = 0, j = 0; j < s.length; j++) {
      if (fold(code(v, i)) === fold(code(s, j)) && ++i === v.length) return true;
    }
    return false;
  };
  // The argument text a subject comes from, the parameter key of a proxy, or null.
  var origin = function (v) {
    if (typeof v === 'string') {
      if (v.length === 0 || v.length > LONGEST) return null;
      for (var i = 0; i < strings.length; i++) if (derived(v, strings[i])) return strings[i];
      return null;
    }
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return null;
    var key = mapGet(proxies, v);
    return key === undefined ? null : key;
  };
  // The pieces of `text` between the matches of `separator` (a string or a RegExp), as split gives them.
  var pieces = function (text, separator) {
    var out = [], at = 0, next, m, re;
    if (typeof separator === 'string') {
      if (separator.length === 0) return out;
      while (out.length < MOST_PIECES && (next = indexOf(text, separator, at)) >= 0) {
        out[out.length] = slice(text, at, next);
        at = next + separator.length;
      }
    } else {
      re = new RealRegExp(source(separator), 'g' + flagsOf(separator, 'gy'));
      while (out.length < MOST_PIECES && (m = exec(re, text)) !== null) {
        if (m[0].length === 0) { re.lastIndex++; continue; }
        out[out.length] = slice(text, at, m.index);
        at = m.index + m[0].length;
      }
    }
    out[out.length] = slice(text, at);
    return out;
  };
  // The separator a subject was split from, if it is a piece of an earlier split of `from`.
  var pieceOf = function (from, subject) {
    for (var i = 0; i < splits.length; i++) {
      var split = splits[i];
      if (split[0] !== from) continue;
      for (var j = 0; j < split[1].length; j++) if (split[1][j] === subject) return split[2];
    }
    return null;
  };
  var observe = function (receiver, argument, kind) {
    var subject = kind < 2 ? argument : receiver;
    var pattern = kind < 2 ? receiver : argument;
    var from = origin(subject);
    if (from === null) return;
    budget--;
    var regexp = isRegExp(pattern);
    if (kind === 7) {
      if (typeof subject === 'string' && (regexp || typeof pattern === 'string')) {
        var parts = pieces(subject, pattern);
        var separator = regexp ? [source(pattern), flagsOf(pattern), 1] : [pattern, '', 0];
        if (parts.length > 1) splits[splits.length] = [from, parts, separator];
      }
      return;
    }
    var text, flags;
    if (regexp) {
      text = source(pattern);
      flags = flagsOf(pattern);
    } else if (typeof pattern === 'string' && kind >= 2 && kind <= 4) {
      // `match`, `matchAll` and `search` make a RegExp of a string.
      text = pattern;
      flags = kind === 3 ? 'g' : '';
    } else {
      return;
    }
    // A replacement is a validation only when anchored; others clean text up.
    if ((kind === 5 || kind === 6) && code(text, 0) !== 94) return;
    var piece = typeof subject === 'string' ? pieceOf(from, subject) : null;
    var detail = stringify([kind, text, flags, typeof from === 'string' ? from : null, piece]);
    if (setHas(seen, detail)) return;
    setAdd(seen, detail);
    sink(typeof from === 'string' ? -1 : from, 6, detail);
  };

  hide.value = function (receiver) {
    receivers[receivers.length] = receiver;
    return receiver;
  };
  Object.defineProperty(g, '__fc$o', hide);
  hide.value = function (argument, kind) {
    var n = receivers.length;
    if (n === 0) return argument;
    var receiver = receivers[n - 1];
    receivers.length = n - 1;
    if (budget > 0 && sink !== null) observe(receiver, argument, kind);
    return argument;
  };
  Object.defineProperty(g, '__fc$a', hide);
  // What the harness tells: a new test, its string arguments and proxies, and where notes go.
  hide.value = {
    reset: function () {
      strings.length = 0;
      splits.length = 0;
      receivers.length = 0;
      mapClear(proxies);
      setClear(seen);
      budget = BUDGET;
    },
    string: function (s) {
      if (s.length <= LONGEST) strings[strings.length] = s;
    },
    proxy: function (p, key) { mapSet(proxies, p, key); },
    attach: function (write) { sink = write; },
  };
  Object.defineProperty(g, '__fc$observe', hide);
})(globalThis);
