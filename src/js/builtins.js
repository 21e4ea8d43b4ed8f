// The roots of the built-ins a test could change, for the sandbox's check that none did (Rust's
// `sandbox/engine/guard.rs` lists the rest from them and snapshots and compares their own
// properties): what only JavaScript reads simply. Rust walks the global object, the built-ins it held
// before the program loaded, their prototypes and what those inherit from; a listing made here cost
// more than the snapshot itself (a descriptor object and a set lookup per global).
(function (g) {
  'use strict';
  const P = g.__fc$P;
  const { getProto } = P;
  // [Object.prototype, Math, performance, the real Date, the lazily made globals' names, and the hidden
  // iterator prototypes with what they inherit from, in pairs]. The clocks and `Math.random` are the
  // determinism shim's, set again before every test; Node's globals made on first read
  // (`js/node/globals.js`) change from getter to value then.
  const roots = () => {
    const iterators = [[][P.iterator](), new P.Map()[P.iterator](), new P.Set()[P.iterator](), ''[P.iterator]()];
    const prototypes = [];
    for (let i = 0; i < iterators.length; i++) {
      const prototype = getProto(iterators[i]);
      prototypes[prototypes.length] = prototype;
      prototypes[prototypes.length] = getProto(prototype);
    }
    return [P.ObjectProto, g.Math, g.performance, P.Date, g.__fc$lazyGlobals || [], prototypes];
  };
  P.defineProperty(g, '__fc$builtins', { __proto__: null, value: roots });
})(globalThis);
