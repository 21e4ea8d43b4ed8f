// Where QuickJS departs from the language's specification and V8 does not, corrected before any user
// code runs: a test observes in the sandbox what its exported copy observes under Node, and an exported
// regression test never fails on the code it came from because of the engine it was generated in.
//
// - Date setters given NaN (`setDate(NaN)`, `setMonth(1, NaN)`, `setUTCHours(NaN)`...) return NaN but
//   leave the date's time value unchanged in quickjs-ng; the specification makes the date invalid (its
//   time value the NaN returned). dayjs's `year(2)` on an invalid date depends on it.
(function (g) {
  'use strict';
  const apply = Reflect.apply;
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
