function deterministic(g, seed) {
  let state = seed >>> 0 || 1;
  g.Math.random = function random() {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const RealDate = g.Date.flycatcherRealDate || g.Date;
  const construct = Reflect.construct;
  const now = 1704067200000;
  function FixedDate(...args) {
    if (!new.target) return new RealDate(now).toString();
    return construct(RealDate, args.length ? args : [now], new.target);
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = () => now;
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  FixedDate.flycatcherRealDate = RealDate;
  g.Date = FixedDate;
  // The high-resolution clock too: a second after the time origin, never 0, which code tests for truth.
  const perf = g.performance;
  if (perf !== null && typeof perf === 'object' && typeof perf.now === 'function') {
    const fixedNow = function now() { return 1000; };
    fixedNow.flycatcherRealNow = perf.now.flycatcherRealNow || perf.now;
    const own = Object.getOwnPropertyDescriptor(perf, 'now');
    if (own === undefined || own.writable) {
      perf.now = fixedNow;
    } else {
      // QuickJS's `now` cannot be replaced: a stand-in inherits the rest of the object.
      g.performance = { __proto__: perf, now: fixedNow };
    }
  }
}