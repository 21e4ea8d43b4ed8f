// The loops built-ins run in C, where QuickJS checks no interrupt. A test's time limit is checked
// between JavaScript instructions (every 10,000 calls and backward jumps), but `Array.prototype.reverse`
// loops over its array's `length` in C, and on a sparse array whose length a test set to a billion
// (`a.length = n`, `a[n] = x`, `new Array(n)` with a generated `n`) it runs for minutes without a check:
// on a real deque library, a 100 ms limit became 12 s per candidate and a 2 s method budget 37 s.
// Each array method that loops over `length` is wrapped here: before it runs, the engine's
// `__fc$charge` counts the length as work and, when the loop could not end within the test's limits,
// moves the deadline to now; the wrapper then loops, and the next check ends the test as one that ran
// to its limit (which is what it would have done, later). Only true arrays are charged (a proxy's traps
// never run for it). Installed after the programs of Flycatcher's own (which use the primordials) and
// before any user code.
(function (g) {
  'use strict';
  const charge = g.__fc$charge;
  delete g.__fc$charge;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const proto = g.Array.prototype;
  // `toString` and `toLocaleString` call `join`; `find` and its kin call their callback for every index
  // (a call is checked) unless the callback is native, as `a.find(Boolean)`.
  const LOOPING = ['concat', 'copyWithin', 'every', 'fill', 'filter', 'find', 'findIndex', 'findLast',
    'findLastIndex', 'flat', 'flatMap', 'forEach', 'includes', 'indexOf', 'join', 'lastIndexOf', 'map',
    'reduce', 'reduceRight', 'reverse', 'shift', 'slice', 'some', 'sort', 'splice', 'toReversed', 'toSorted',
    'toSpliced', 'unshift', 'with'];
  for (let i = 0; i < LOOPING.length; i++) {
    const name = LOOPING[i];
    const f = proto[name];
    if (typeof f !== 'function') continue;
    // A method like the built-in: no prototype, not constructible, the same name and length.
    const wrapped = {
      [name]() {
        if (charge(this)) for (;;);
        return apply(f, this, arguments);
      },
    }[name];
    defineProperty(wrapped, 'length', { value: f.length });
    defineProperty(proto, name, { value: wrapped, writable: true, enumerable: false, configurable: true });
  }
})(globalThis);
