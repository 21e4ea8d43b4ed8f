// The built-ins a test could change, for the sandbox's check that none did (see Rust's
// `sandbox/engine/guard.rs`, which snapshots and compares their own properties): the global object,
// the built-ins it held before the program loaded, their prototypes, what those inherit from, and the
// hidden iterator prototypes. `Object.prototype` comes first: every value inherits from it, so it is
// checked after every test.
(function (g) {
  'use strict';
  const P = g.__fc$P;
  const { descriptor, ownKeys, getProto, hasOwn } = P;
  // `Set.prototype.has` and `add` as they were before the program loaded. A listing's `seen` set holds
  // them as own properties: nothing the program put on `Set.prototype` runs, and a check is a direct
  // call rather than an uncurried one (a tenth of a listing's time). `__fc$baseline` has its own `has`
  // from the engine likewise.
  const method = (f) => ({ __proto__: null, value: f });
  const SET_HAS = method(P.SetProto.has);
  const SET_ADD = method(P.SetProto.add);
  // Flycatcher's own globals (`__fc$...`) hold its state, which changes with every test. A comparison
  // of strings tells the prefix without calling anything: every key from '__fc$' up to '__fc%' has it.
  const ours = (key) => key >= '__fc$' && key < '__fc%';

  // [object, name, keys whose values the harness itself replaces for every test, and for the global
  // object the keys that are not built-ins] entries.
  const builtins = () => {
    const found = [];
    const seen = new P.Set();
    P.defineProperty(seen, 'has', SET_HAS);
    P.defineProperty(seen, 'add', SET_ADD);
    const add = (object, name, replaced, ignored) => {
      if (object === null || (typeof object !== 'object' && typeof object !== 'function')) return;
      if (seen.has(object)) return;
      seen.add(object);
      found[found.length] = ignored ? [object, name, replaced || [], ignored] : [object, name, replaced || []];
    };
    add(P.ObjectProto, 'Object.prototype');
    // The clocks and `Math.random` are the determinism shim's, set again before every test.
    const baseline = g.__fc$baseline;
    const globals = ownKeys(g);
    // The program's own globals (`var issued = 0` of a script) and ours are state, not built-ins.
    const ignored = [];
    for (let i = 0; i < globals.length; i++) {
      const key = globals[i];
      if (typeof key === 'string' && (!baseline.has(key) || ours(key))) ignored[ignored.length] = key;
    }
    // Node's globals made on first read (`js/node/globals.js`) change from getter to value then.
    const replaced = ['Date'];
    const lazy = g.__fc$lazyGlobals || [];
    for (let i = 0; i < lazy.length; i++) replaced[replaced.length] = lazy[i];
    add(g, 'globalThis', replaced, ignored);
    add(g.Math, 'Math', ['random']);
    add(g.performance, 'performance', ['now']);
    add(P.Date, 'Date');
    for (let i = 0; i < globals.length; i++) {
      const key = globals[i];
      if (typeof key !== 'string' || !baseline.has(key) || key === 'Date' || ours(key)) continue;
      const d = descriptor(g, key);
      if (hasOwn(d, 'value')) add(d.value, key);
    }
    for (let i = 0; i < found.length; i++) {
      const object = found[i][0];
      const name = found[i][1];
      const prototype = typeof object === 'function' ? descriptor(object, 'prototype') : undefined;
      if (prototype && hasOwn(prototype, 'value')) add(prototype.value, name + '.prototype');
      add(getProto(object), 'the prototype of ' + name);
    }
    const iterators = [[][P.iterator](), new P.Map()[P.iterator](), new P.Set()[P.iterator](), ''[P.iterator]()];
    for (let i = 0; i < iterators.length; i++) {
      const prototype = getProto(iterators[i]);
      add(prototype, 'an iterator prototype');
      add(getProto(prototype), 'Iterator.prototype');
    }
    return found;
  };
  P.defineProperty(g, '__fc$builtins', { __proto__: null, value: builtins });
})(globalThis);
