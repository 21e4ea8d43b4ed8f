// The one encoder of observed values, in the format Rust reads as `Observed` (src/model/observed.rs):
// the harness describes the results of the method under test with it, the recorder (record mode) the
// arguments, fields and results of recorded calls. Installed before both, on a hidden global; each
// makes its own describer with its bounds and its way of naming known objects.
(function (g) {
  'use strict';
  // Built-ins as they were before user code ran (see `js/primordials.js` for the rules).
  const P = g.__fc$P;
  const { getProto, descriptor, isArray, ObjectProto, getTime, indexOf, push, pop, hasOwn, String, apply } = P;
  const ownKeys = P.keys;
  const objectIs = P.is;
  const ErrorCtor = P.Error;
  const RegExpCtor = P.RegExp;
  const DateCtor = P.Date;
  const DateProto = P.DateProto;

  // `options`:
  // - classes: the class table (index = class id);
  // - known(v, depth): a description naming `v` when it is an object the caller knows (a variable of
  //   the test, a recorded object), else null;
  // - maxDepth, maxItems: deeper values are `deep`, longer arrays `arrlen`, further fields left out;
  // - maxNodes: objects described per value at most (the rest are `deep`);
  // - cycles: a value met again inside itself is a `cycle` (else only the bounds stop a cycle);
  // - complete: mark what a literal would get wrong (`extra` array properties, left-out members as
  //   `cut`, dictionaries as `bare`), so that Rust asserts such values field by field;
  // - exactDates: only objects whose prototype is Date.prototype are dates (else any `instanceof Date`).
  const describer = (options) => {
    const classes = options.classes;
    const classOf = (proto) => {
      for (let i = 0; i < classes.length; i++) {
        const c = classes[i];
        if (c && c.prototype === proto) return i;
      }
      return -1;
    };
    let nodes = 0;
    // Own data fields, without `__proto__` (it cannot be written back as a literal key or read as
    // `x.__proto__`) and without functions and accessors (`partial` says one was left out).
    const fieldsOf = (v, depth, seen) => {
      // Keys are the code's: no prototype whose setters an assignment could run.
      const fields = { __proto__: null };
      let count = 0;
      let partial = false;
      const names = ownKeys(v);
      for (let i = 0; i < names.length; i++) {
        const k = names[i];
        if (k === '__proto__') continue;
        const d = descriptor(v, k);
        if (!d || !hasOwn(d, 'value') || typeof d.value === 'function') {
          partial = true;
          continue;
        }
        if (++count > options.maxItems) break;
        fields[k] = describe(d.value, depth + 1, seen);
      }
      // Enumerable symbol keys count for deep equality, and a literal cannot say them.
      const symbols = P.symbols(v);
      for (let i = 0; i < symbols.length && !partial; i++) {
        if (descriptor(v, symbols[i]).enumerable) partial = true;
      }
      return { fields, cut: count > options.maxItems || partial };
    };
    const describe = (v, depth, seen) => {
      switch (typeof v) {
        case 'undefined': return { t: 'u' };
        case 'boolean': return { t: 'b', v };
        case 'number': return { t: 'n', v: objectIs(v, -0) ? '-0' : String(v) };
        case 'string': return { t: 's', v };
        case 'bigint': return { t: 'big', v: String(v) };
        case 'symbol': return { t: 'sym' };
        default: break;
      }
      if (v === null) return { t: 'null' };
      const named = options.known(v, depth);
      if (named !== null) return named;
      if (typeof v === 'function') {
        const c = indexOf(classes, v);
        return c >= 0 ? { t: 'cls', i: c } : { t: 'fn' };
      }
      if (options.cycles && indexOf(seen, v) >= 0) return { t: 'cycle' };
      if (depth >= options.maxDepth || ++nodes > options.maxNodes) return { t: 'deep' };
      push(seen, v);
      try {
        if (isArray(v)) {
          if (v.length > options.maxItems) return { t: 'arrlen', n: v.length };
          const items = [];
          // Holes are not `undefined` to assert.deepStrictEqual: they are kept as holes.
          for (let i = 0; i < v.length; i++) push(items, i in v ? describe(v[i], depth + 1, seen) : { t: 'hole' });
          if (!options.complete) return { t: 'arr', items };
          // Other own properties (`a['1.5'] = x`) count for deep equality too: no literal then.
          let indexes = 0;
          for (let i = 0; i < items.length; i++) if (items[i].t !== 'hole') indexes++;
          return ownKeys(v).length === indexes ? { t: 'arr', items } : { t: 'arr', items, extra: true };
        }
        const proto = getProto(v);
        if (options.exactDates ? proto === DateProto : v instanceof DateCtor) return { t: 'date', v: getTime(v) };
        if (v instanceof RegExpCtor) return { t: 're', v: P.regexpText(v) };
        if (v instanceof ErrorCtor) return { t: 'err', name: String(v.name), message: String(v.message) };
        const { fields, cut } = fieldsOf(v, depth, seen);
        if (!options.complete && (proto === ObjectProto || proto === null)) return { t: 'obj', fields };
        // A cut description is asserted field by field, never as a whole literal.
        if (proto === ObjectProto) return cut ? { t: 'obj', fields, cut } : { t: 'obj', fields };
        // `Object.create(null)` (a dictionary): deep equality tells it from `{}`, so the literal says so.
        if (proto === null) return cut ? { t: 'obj', fields, cut, bare: true } : { t: 'obj', fields, bare: true };
        const c = classOf(proto);
        if (c >= 0) return { t: 'inst', c, fields };
        const ctor = proto && descriptor(proto, 'constructor');
        return { t: 'other', name: ctor && typeof ctor.value === 'function' ? String(ctor.value.name) : '' };
      } catch (_) {
        return { t: 'unreadable' };
      } finally {
        pop(seen);
      }
    };
    return {
      classOf,
      // One value, `depth` levels down already.
      value: (v, depth) => {
        nodes = 0;
        return describe(v, depth || 0, []);
      },
      // The own data fields of an object (`{}` for anything else).
      fields: (o) => {
        nodes = 0;
        return o !== null && typeof o === 'object' ? fieldsOf(o, 0, []).fields : {};
      },
    };
  };
  P.defineProperty(g, '__fc$describer', { __proto__: null, value: describer, enumerable: false });
})(globalThis);
