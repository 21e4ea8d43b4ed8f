// Results another engine may round differently. The transcendental functions of `Math` (and `Math.pow`)
// are not correctly rounded: QuickJS and V8 can disagree in the last bit of `Math.asinh(3)`. Each is
// wrapped here so the harness knows whether a test used one (or whether the program did while loading,
// for constants computed once); the numbers described for such a test are then asserted within a few
// units in the last place instead of exactly. `+ - * /`, `Math.sqrt` and conversions are exact in every
// engine and keep strict equality. Installed before the harness, which reads `__fc$inexact`.
(function (g) {
  'use strict';
  const INEXACT = ['acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'atan2', 'cbrt', 'cos', 'cosh', 'exp',
    'expm1', 'hypot', 'log', 'log1p', 'log10', 'log2', 'pow', 'sin', 'sinh', 'tan', 'tanh'];
  const apply = Reflect.apply;
  let used = false;
  let always = false;
  for (const name of INEXACT) {
    const f = g.Math[name];
    // Methods like the built-ins: no prototype, not constructible, the same name and length.
    const wrapped =
      f.length === 1 ? { [name](x) { used = true; return f(x); } }[name]
        : f.length === 2 ? { [name](x, y) { used = true; return f(x, y); } }[name]
          : { [name](...args) { used = true; return apply(f, undefined, args); } }[name];
    Object.defineProperty(wrapped, 'length', { value: f.length });
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
