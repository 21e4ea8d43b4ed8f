(function () {
  var hide = { writable: false, enumerable: false, configurable: true };
  // Pairs of distances (to true, to false) of the operands of conditions being evaluated; element 0 is
  // the depth. Beyond 4096 pairs (recursion inside conditions) pushes are only counted and read unknown.
  // Every helper is one call: in QuickJS a call costs more than the rest of a helper.
  var stack = new Float64Array(2 * 4096 + 1), size = stack.length, slot = [undefined];
  var code = Function.prototype.call.bind(String.prototype.charCodeAt);
  var slice = Function.prototype.call.bind(String.prototype.slice);
  var includes = Function.prototype.call.bind(String.prototype.includes);
  var getter = function (name) { return Function.prototype.call.bind(Object.getOwnPropertyDescriptor(RegExp.prototype, name).get); };
  var source = getter("source"), global = getter("global"), sticky = getter("sticky");
  var exec = Function.prototype.call.bind(RegExp.prototype.exec);
  // How far apart two strings are: over the first 64 characters, each code's distance normalised,
  // plus the difference in length.
  function text(a, b) {
    var n = a.length < b.length ? a.length : b.length, d = a.length - b.length, i, c;
    if (d < 0) d = -d;
    if (n > 64) { if (a !== b) d += 1; n = 64; }
    for (i = 0; i < n; i++) { c = code(a, i) - code(b, i); if (c) { if (c < 0) c = -c; d += c / (c + 1); } }
    return d;
  }
  // How far `a` is from starting with (kind 0), ending with (1) or including (2) `b`: 0 when it does.
  // Inclusion takes the closest window, over the first 256.
  function affix(a, b, kind) {
    var n = b.length, i, last, d, best;
    if (a.length < n) return text(a, b);
    if (kind === 0) return text(slice(a, 0, n), b);
    if (kind === 1) return text(slice(a, a.length - n), b);
    if (includes(a, b)) return 0;
    last = a.length - n;
    if (last > 255) last = 255;
    for (i = 0, best = Infinity; i <= last; i++) { d = text(slice(a, i, i + n), b); if (d < best) best = d; }
    return best;
  }
  // The comparisons measured conditions made that came out unequal, and the bounds characters met
  // (input-to-state correspondence: which constant a character or substring of the input met), as
  // equalities, the last 128 of a run in a ring:
  // element 0 counts those made, and each takes four slots from 1: the branch id (-1 inside a tree),
  // the two operands and the relation (0 equal, 1 starts with, 2 ends with, 3 includes). Filled ahead
  // so that every write is to an own element; the engine zeroes the count before a measuring run.
  // A regular expression's failed `test` of a string is noted too (relation 4, with the pattern's
  // source), and a `switch` (relation 5, with its list of `case` constants, see `__fc$sc`).
  var seen = [0], ring = 128, at, i;
  for (i = 1; i <= 4 * ring; i++) seen[i] = 0;
  function note(id, a, b, kind) {
    at = 1 + 4 * (seen[0] % ring);
    seen[0]++;
    seen[at] = id >= 0 ? id : -1; seen[at + 1] = a; seen[at + 2] = b; seen[at + 3] = kind;
  }
  // Operands worth noting: a character code (or NaN, read past the end) against a character's code,
  // or two strings of at most 256 characters. Codes below a tab are left out: they are mostly counters
  // and positions (`pos === start`), which no string holds.
  function notable(a, b) {
    if (typeof a === "number") return typeof b === "number" && (a !== a || (a >= 9 && a <= 0x10ffff && a % 1 === 0)) && b >= 9 && b <= 0x10ffff && b % 1 === 0;
    return typeof a === "string" && typeof b === "string" && a.length <= 256 && b.length <= 256;
  }
  function define(name, value) { hide.value = value; Object.defineProperty(globalThis, name, hide); }
  define("__fc$k", stack);
  define("__fc$cl", seen);
  define("__fc$r", slot);
  // Element 0: whether measured conditions take their measuring form: conditions are instrumented both
  // ways, and the sandbox sets it before each run (only runs whose distances are read pay for them). An
  // array that never changes, not a writable global: a CommonJS file reaches it as a closure variable
  // (`sandbox/engine/sources.rs`), where a global is looked up by name in every condition of a loop. A
  // literal, not a typed array: a constructor's call here would shift every later work count.
  Object.defineProperty(globalThis, "__fc$on", { value: [false], writable: false, enumerable: false, configurable: false });
  // A pair of normalised distances (to true, to false; NaN unknown) to branch outcomes id and id + 1
  // when the measured operation is a whole condition, else pushed on the stack.
  function put(t, f, id) {
    var d, n;
    if (id >= 0) {
      if (t === t) { d = __fc$d; if (t < d[id]) d[id] = t; if (f < d[id + 1]) d[id + 1] = f; }
    } else {
      n = stack[0] + 2;
      stack[0] = n;
      if (n < size) { stack[n - 1] = t; stack[n] = f; }
    }
  }
  // `a op b` (op: 0 <, 1 <=, 2 >, 3 >=, 4 ==, 5 ===, 6 !=, 7 !==; 8 more when an operand is a length,
  // which no character of a string holds, so the comparison is not noted): keeps b for the comparison
  // to read and returns a. Its normalised distances (NaN, unknown, unless both operands are numbers, or
  // strings for equality) go to branch outcomes id and id + 1 when it is a whole condition, else on
  // the stack.
  define("__fc$q", function (a, b, op, id) {
    var t = NaN, f = NaN, s, count = op >= 8;
    slot[0] = b;
    if (count) op -= 8;
    if (typeof a === "number" && typeof b === "number") {
      switch (op) {
        case 0: if (a < b) { t = 0; f = b - a; } else { t = a - b + 1; f = 0; } break;
        case 1: if (a <= b) { t = 0; f = b - a + 1; } else { t = a - b; f = 0; } break;
        case 2: if (a > b) { t = 0; f = a - b; } else { t = b - a + 1; f = 0; } break;
        case 3: if (a >= b) { t = 0; f = a - b + 1; } else { t = b - a; f = 0; } break;
        default: if (a === b) { t = 0; f = 1; } else { t = a < b ? b - a : a - b; f = 0; }
      }
    } else if (typeof a === "string" && typeof b === "string" && op >= 4) {
      if (a === b) { t = 0; f = 1; } else { t = text(a, b); f = 0; }
    }
    if (count) {}
    else if (op >= 4) { if (a !== b && notable(a, b)) note(id, a, b, 0); }
    // A bound (`c >= 48 && c <= 57`, a character class): noted as the code just past it, on the side
    // the comparison did not take.
    else if (t === t && notable(a, b)) note(id, a, t === 0 ? (op === 1 ? b + 1 : op === 3 ? b - 1 : b) : (op === 0 ? b - 1 : op === 2 ? b + 1 : b), 0);
    if (t === t || f === f) {
      if (op >= 6) { s = t; t = f; f = s; }
      // NaN operands and infinite gaps: as far as can be.
      t = t === t && t !== Infinity ? t / (t + 1) : 1;
      f = f === f && f !== Infinity ? f / (f + 1) : 1;
    }
    put(t, f, id);
    return a;
  });
  // `a.startsWith(b)` (kind 0), `a.endsWith(b)` (1), `a.includes(b)` (2) in a measured condition, also
  // written `a.indexOf(b) === 0` and the like (`swap` 1 for the negated forms, `=== -1`), or `a.test(b)`
  // (3): keeps b for the call to read and returns a, the call itself still runs in the code under test.
  // Distances only when both are strings; a regular expression's test is only noted. Its source is read
  // by the built-in getter, which refuses anything but a regular expression (a recording proxy too)
  // without running a trap.
  define("__fc$w", function (a, b, kind, swap, id) {
    var t = NaN, f = NaN, s;
    slot[0] = b;
    if (kind === 3) {
      if (typeof a === "object" && a !== null && typeof b === "string" && b.length <= 256) {
        try { s = source(a); } catch (e) { s = undefined; }
        // Only a failed test is worth a note; it is run here only when that changes nothing (a global
        // or sticky pattern moves its `lastIndex`).
        if (typeof s === "string" && !global(a) && !sticky(a) && exec(a, b) === null) note(id, b, s, 4);
      }
      // What the plain form's call tells the pattern observer (`patterns.js`): the receiver, then the
      // subject, as `__fc$o(a).test(__fc$a(b, 0))` would.
      __fc$o(a);
      __fc$a(b, 0);
    } else if (typeof a === "string" && typeof b === "string") {
      t = affix(a, b, kind);
      f = t === 0 ? 1 : 0;
      if (t !== 0 && notable(a, b)) note(id, a, b, kind + 1);
      if (swap) { s = t; t = f; f = s; }
      t = t / (t + 1);
      f = f / (f + 1);
    }
    put(t, f, id);
    return a;
  });
  // A `switch`'s discriminant v against the constants of its `case` clauses, which `cases()` lists each
  // followed by its clause's branch outcome (a function: a binding not yet initialised throws, and then
  // nothing is measured). Each constant's distance goes to its outcome: how far apart, between numbers;
  // else 1 (unknown) unless equal. The switch is noted once, with the list (relation 5), for the
  // engine to read every constant unequal to v as a comparison: a clause after the one taken is a
  // target too, and one note per switch keeps a tokenizer's loop from filling the ring. Returns v.
  define("__fc$sc", function (v, cases) {
    var list, i, c, t, d = __fc$d, number = typeof v === "number";
    try { list = cases(); } catch (e) { return v; }
    for (i = 0; i + 1 < list.length; i += 2) {
      c = list[i];
      t = c === v ? 0 : number && typeof c === "number" ? (v < c ? c - v : v - c) : 1;
      if (t === t) { t = t === Infinity ? 1 : t / (t + 1); c = list[i + 1]; if (t < d[c]) d[c] = t; }
    }
    if (number || (typeof v === "string" && v.length <= 256)) note(-1, v, list, 5);
    return v;
  });
  // The branch point of outcomes id (true) and id + 1 (false) of a measured condition whose value is
  // v: marks the outcome, resolves the condition's pair (unknown: 0 taken, 1 not) and keeps the
  // smallest distances. The pair is popped, unless this is the left operand of `&&` (or 0) or `||`
  // (or 1): then it stays for `__fc$j`, or counts the right operand as 1 when that is skipped.
  define("__fc$t", function (id, v, or) {
    var n = stack[0], top = n >= 2 && n < size, t = top ? stack[n - 1] : NaN, f = top ? stack[n] : NaN;
    var d = __fc$d;
    if (v) { t = 0; if (f !== f) f = 1; __fc$b[id] = 1; } else { f = 0; if (t !== t) t = 1; __fc$b[id + 1] = 1; }
    if (t < d[id]) d[id] = t;
    if (f < d[id + 1]) d[id + 1] = f;
    if (!(or >= 0)) { if (n >= 2) stack[0] = n - 2; }
    else if (top) { if (or) { if (v) f += 1; } else if (!v) t += 1; stack[n - 1] = t; stack[n] = f; }
    return v;
  });
  // The right operand, of value v, of `&&` (or 0) or `||` (or 1) in a measured condition: its pair and
  // the left operand's become one, `&&` adding the distances to true and keeping the smaller to false,
  // `||` the other way round.
  define("__fc$j", function (v, or) {
    var n = stack[0], t, f, lt, lf;
    if (n >= 4 && n < size) {
      t = stack[n - 1]; f = stack[n]; lt = stack[n - 3]; lf = stack[n - 2];
      if (v) { t = 0; if (f !== f) f = 1; } else { f = 0; if (t !== t) t = 1; }
      stack[n - 3] = or ? (t < lt ? t : lt) : t + lt;
      stack[n - 2] = or ? f + lf : (f < lf ? f : lf);
    }
    if (n >= 2) stack[0] = n - 2;
    return v;
  });
  // `!`, of value v: its operand's pair, resolved and swapped.
  define("__fc$x", function (v) {
    var n = stack[0], t, f;
    if (n >= 2 && n < size) {
      t = stack[n - 1]; f = stack[n];
      if (v) { f = 0; if (t !== t) t = 1; } else { t = 0; if (f !== f) f = 1; }
      stack[n - 1] = f; stack[n] = t;
    }
    return v;
  });
  // Any other operand of a measured condition: 0 to the outcome it took, 1 to the other.
  define("__fc$v", function (v) {
    var n = stack[0] + 2;
    stack[0] = n;
    if (n < size) { stack[n - 1] = v ? 0 : 1; stack[n] = v ? 1 : 0; }
    return v;
  });
})();
