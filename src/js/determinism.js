function deterministic(g, seed) {
  // Node's `process.hrtime`, or null (the sandbox makes its `process` after this first runs).
  const hrtimeOf = (g) => {
    const p = g.process;
    return p !== null && typeof p === 'object' && typeof p.hrtime === 'function' ? p.hrtime : null;
  };
  // Called before every test: building the stand-ins again each time cost more than many tests. While
  // everything installed last time in this global scope is still in place, reseeding is enough; once
  // anything was replaced (the code under test assigned `Math.random`, a suite put the real clock back),
  // all of it is installed again.
  const last = deterministic.installed;
  const fixed = last === undefined ? null : last.FixedDate;
  if (fixed !== null && last.g === g && g.Math.random === last.random && g.Date === fixed &&
      fixed.now === last.now && fixed.parse === last.RealDate.parse && fixed.UTC === last.RealDate.UTC &&
      fixed.prototype === last.RealDate.prototype && g.performance === last.performance &&
      (last.fixedNow === null || last.performance.now === last.fixedNow) &&
      hrtimeOf(g) === last.fixedHrtime) {
    last.reseed(seed);
    return;
  }
  let state = seed >>> 0 || 1;
  const random = function random() {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  g.Math.random = random;
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
  let fixedNow = null;
  if (perf !== null && typeof perf === 'object' && typeof perf.now === 'function') {
    fixedNow = function now() { return 1000; };
    fixedNow.flycatcherRealNow = perf.now.flycatcherRealNow || perf.now;
    const own = Object.getOwnPropertyDescriptor(perf, 'now');
    if (own === undefined || own.writable) {
      perf.now = fixedNow;
    } else {
      // QuickJS's `now` cannot be replaced: a stand-in inherits the rest of the object.
      g.performance = { __proto__: perf, now: fixedNow };
    }
  }
  // And `process.hrtime`, Node's nanosecond clock: the same second.
  const proc = g.process;
  let fixedHrtime = null;
  if (hrtimeOf(g) !== null) {
    fixedHrtime = function hrtime(previous) {
      if (previous === undefined) return [1, 0];
      let seconds = 1 - previous[0];
      let nanoseconds = 0 - previous[1];
      if (nanoseconds < 0) {
        seconds -= 1;
        nanoseconds += 1e9;
      }
      return [seconds, nanoseconds];
    };
    fixedHrtime.bigint = function bigint() { return BigInt(1e9); };
    fixedHrtime.flycatcherRealHrtime = proc.hrtime.flycatcherRealHrtime || proc.hrtime;
    proc.hrtime = fixedHrtime;
  }
  deterministic.installed = {
    g, random, RealDate, FixedDate, now: FixedDate.now, performance: g.performance, fixedNow, fixedHrtime,
    reseed: (next) => { state = next >>> 0 || 1; },
  };
}
