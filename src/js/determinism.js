function deterministic(g, seed) {
  // Called before every test: building the stand-ins again each time cost more than many tests. While
  // everything installed last time in this global scope is still in place (`intact`), reseeding is
  // enough; once anything was replaced (the code under test assigned `Math.random`, a suite put the
  // real clock back), all of it is installed again.
  const last = deterministic.installed;
  if (last !== undefined && last.g === g && last.intact()) {
    last.reseed(seed);
    return;
  }
  // Node's `process.hrtime`, or null (the sandbox makes its `process` after this first runs).
  const hrtimeOf = (g) => {
    const p = g.process;
    return p !== null && typeof p === 'object' && typeof p.hrtime === 'function' ? p.hrtime : null;
  };
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
  // An expression, not a declaration: a declaration is made (with a prototype object of its own) at
  // every call, before the check above.
  const FixedDate = function FixedDate(...args) {
    if (!new.target) return new RealDate(now).toString();
    return construct(RealDate, args.length ? args : [now], new.target);
  };
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
  // And Web Crypto's random values (`crypto.getRandomValues`, `crypto.randomUUID`: ids, nonces, keys),
  // drawn from the same stream as Math.random. Node's own are replaced on its `crypto` object, so that a
  // suite fills the bytes the sandbox filled, and refuses what the sandbox refused.
  const webCrypto = g.crypto;
  let getRandomValues = null;
  if (webCrypto !== null && typeof webCrypto === 'object') {
    getRandomValues = function getRandomValues(array) {
      const integers = ArrayBuffer.isView(array) && !(array instanceof DataView) &&
        !(array instanceof Float32Array) && !(array instanceof Float64Array);
      if (!integers) throw new TypeError('The data argument must be an integer-type TypedArray');
      if (array.byteLength > 65536) {
        throw new RangeError("The ArrayBufferView's byte length (" + array.byteLength +
          ') exceeds the number of bytes of entropy available via this API (65536)');
      }
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (random() * 256) | 0;
      return array;
    };
    const randomUUID = function randomUUID() {
      const b = getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      let hex = '';
      for (let i = 0; i < 16; i++) hex += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + (b[i] + 256).toString(16).slice(1);
      return hex;
    };
    const method = (value) => ({ value, writable: true, enumerable: false, configurable: true });
    Object.defineProperty(webCrypto, 'getRandomValues', method(getRandomValues));
    Object.defineProperty(webCrypto, 'randomUUID', method(randomUUID));
  }
  const fixedDateNow = FixedDate.now;
  const installedPerformance = g.performance;
  deterministic.installed = {
    g,
    // Whether all of it is still in place. It reads what it compares with from this scope, not from
    // properties of this object, and makes no closure: it runs before every test.
    intact: () => {
      const p = g.process;
      const hrtime = p !== null && typeof p === 'object' && typeof p.hrtime === 'function' ? p.hrtime : null;
      return g.Math.random === random && g.Date === FixedDate && FixedDate.now === fixedDateNow &&
        FixedDate.parse === RealDate.parse && FixedDate.UTC === RealDate.UTC &&
        FixedDate.prototype === RealDate.prototype && g.performance === installedPerformance &&
        (fixedNow === null || installedPerformance.now === fixedNow) && hrtime === fixedHrtime &&
        g.crypto === webCrypto && (getRandomValues === null || webCrypto.getRandomValues === getRandomValues);
    },
    reseed: (next) => { state = next >>> 0 || 1; },
  };
}
