// Results another engine may round differently. The transcendental functions of `Math` (and `Math.pow`)
// are not correctly rounded: QuickJS and V8 can disagree in the last bit of `Math.asinh(3)`. Each is
// wrapped here so the harness knows whether a test used one (or whether the program did while loading,
// for constants computed once); the numbers described for such a test are then asserted within the
// tolerance of `export/line.rs` instead of exactly. `+ - * /`, `Math.sqrt` and conversions are exact in
// every engine and keep strict equality. Installed before the harness, which reads `__fc$inexact`.
//
// Each wrapper computes with V8's own functions (`__fc$ieee754`, made in Rust: `sandbox/ieee754/`),
// not QuickJS's, so that a number a test builds is Node's to the bit and a string made from it (a
// complex number's `toString`) is asserted as Node prints it. Arguments are converted here, in order,
// as `Math` converts them (`+x` throws for a BigInt or a Symbol as `Math.cos` does).
(function (g) {
  'use strict';
  const V8 = g.__fc$ieee754;
  delete g.__fc$ieee754;
  const INEXACT = ['acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'atan2', 'cbrt', 'cos', 'cosh', 'exp',
    'expm1', 'hypot', 'log', 'log1p', 'log10', 'log2', 'pow', 'sin', 'sinh', 'tan', 'tanh'];
  const apply = Reflect.apply;
  // `Math.hypot`'s arguments as numbers, each converted in turn (in place: an own index is written
  // without a setter the program may have put on `Array.prototype`).
  const numbers = (args) => {
    for (let i = 0; i < args.length; i++) args[i] = +args[i];
    return args;
  };
  let used = false;
  let always = false;
  for (const name of INEXACT) {
    const length = g.Math[name].length;
    const f = V8[name];
    // Methods like the built-ins: no prototype, not constructible, the same name and length. `hypot`
    // takes any number of arguments, though its length is 2.
    const wrapped =
      name === 'hypot' ? { [name](...args) { used = true; return apply(f, undefined, numbers(args)); } }[name]
        : length === 1 ? { [name](x) { used = true; return f(+x); } }[name]
          : { [name](x, y) { used = true; return f(+x, +y); } }[name];
    Object.defineProperty(wrapped, 'length', { value: length });
    Object.defineProperty(g.Math, name, { value: wrapped, writable: true, enumerable: false, configurable: true });
  }
  Object.defineProperty(g, '__fc$inexact', {
    value: Object.freeze({
      // Before each test.
      reset() { used = false; },
      // Whether the running test's numbers may differ in their last bits under another engine.
      used() { return used || always; },
      // Once the program has loaded: what it computed then, with `**` (which no wrapper sees) where
      // its code has the operator, may differ everywhere.
      loaded(power) { always = always || used || power; },
    }),
  });
})(globalThis);
