// Where QuickJS departs from the language's specification and V8 does not, corrected before any user
// code runs: a test observes in the sandbox what its exported copy observes under Node, and an exported
// regression test never fails on the code it came from because of the engine it was generated in.
//
// - Date setters given NaN (`setDate(NaN)`, `setMonth(1, NaN)`, `setUTCHours(NaN)`...) return NaN but
//   leave the date's time value unchanged in quickjs-ng; the specification makes the date invalid (its
//   time value the NaN returned). dayjs's `year(2)` on an invalid date depends on it.
// - A typed array's key "NaN" is a canonical numeric string: reading it gives undefined and writing it
//   does nothing, as for "1.5" or "-0". quickjs-ng misses that one key ("should test NaN, but the tests
//   do not check it") and keeps it as an ordinary property; mnemonist's Vector, whose length became NaN,
//   read back at `array[NaN]` what it wrote there, and its suite failed under Node. An accessor on
//   %TypedArray%.prototype catches what an ordinary property lookup would find: the typed arrays' own
//   key never gets created. Only `'NaN' in typedArray` still answers true (found on the prototype).
(function (g) {
  'use strict';
  const apply = Reflect.apply;
  const typedArrayProto = Object.getPrototypeOf(g.Uint8Array.prototype);
  // Answers undefined for anything but a typed array: a brand check no user code can fake.
  const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
  const defineOwn = Object.defineProperty;
  Object.defineProperty(typedArrayProto, 'NaN', {
    get: function () { return undefined; },
    set: function (value) {
      // Another object that inherits from a typed array's prototype gets its own property, as it would.
      if (apply(typedArrayTag, this, []) === undefined) {
        defineOwn(this, 'NaN', { value, writable: true, enumerable: true, configurable: true });
      }
    },
    enumerable: false,
    configurable: true,
  });
  const proto = g.Date.prototype;
  const setTime = proto.setTime;
  const SETTERS = ['setDate', 'setMonth', 'setFullYear', 'setHours', 'setMinutes', 'setSeconds',
    'setMilliseconds', 'setUTCDate', 'setUTCMonth', 'setUTCFullYear', 'setUTCHours', 'setUTCMinutes',
    'setUTCSeconds', 'setUTCMilliseconds', 'setYear'];
  for (const name of SETTERS) {
    const f = proto[name];
    if (typeof f !== 'function') continue;
    // A method like the built-in: no prototype, not constructible, the same name and length.
    const fixed = {
      [name](...args) {
        const time = apply(f, this, args);
        if (time !== time) apply(setTime, this, [NaN]);
        return time;
      },
    }[name];
    Object.defineProperty(fixed, 'length', { value: f.length });
    Object.defineProperty(proto, name, { value: fixed, writable: true, enumerable: false, configurable: true });
  }
})(globalThis);
