// The globals Node gives every module that need no host: `Buffer`, `TextEncoder` and `TextDecoder` (each
// made the first time it is read, from `encoding.js`, which the engine reads in then, since a fresh
// context per test must stay cheap, then kept as a plain global), and timers. Code that checks `typeof Buffer`, decodes bytes or schedules work then takes the
// path it takes under Node. Timers run on a virtual clock (`__fc$timers`): a test that awaits a promise
// has them fire in order of their time once no job is left, as Node's event loop would, and a test starts
// with none pending.
(function (g) {
  'use strict';
  // Node's errors that carry a `code` (ERR_INVALID_ARG_TYPE, ERR_OUT_OF_RANGE...), worded as Node words
  // them, for the globals here and for the built-in modules (`js/node/*.js`), as `__fc$nodeErrors`.
  const received = (value) => {
    if (value === null || value === undefined) return ' Received ' + value;
    if (typeof value === 'function' && value.name) return ' Received function ' + value.name;
    if (typeof value === 'object') {
      const name = value.constructor && value.constructor.name;
      return name ? ' Received an instance of ' + name : ' Received ' + String(value);
    }
    let shown = typeof value === 'string' ? "'" + value + "'" : typeof value === 'bigint' ? value + 'n' : String(value);
    if (shown.length > 25) shown = shown.slice(0, 25) + '...';
    return ' Received type ' + typeof value + ' (' + shown + ')';
  };
  const coded = (Base, code, message) => {
    const error = new Base(message);
    Object.defineProperty(error, 'code', { value: code, writable: true, enumerable: true, configurable: true });
    return error;
  };
  const nodeErrors = Object.freeze({
    coded,
    invalidArgType: (name, expected, value) =>
      coded(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + name + '" argument must be ' + expected + '.' + received(value)),
  });
  Object.defineProperty(g, '__fc$nodeErrors', { value: nodeErrors });
  const { invalidArgType } = nodeErrors;

  // The names made lazily, for the built-ins' check (`js/builtins.js`): their first read replaces the
  // getter with the value, which is no change a test made.
  const lazyNames = [];
  Object.defineProperty(g, '__fc$lazyGlobals', { value: lazyNames });
  // A global as Node's own are: a plain value, writable, not enumerable.
  const plain = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });
  const lazy = (name, make) => {
    lazyNames.push(name);
    const keep = (value) => plain(name, value);
    Object.defineProperty(g, name, {
      get() {
        const value = make();
        keep(value);
        return value;
      },
      set: keep,
      enumerable: false,
      configurable: true,
    });
  };

  // Timers: `setTimeout`, `setInterval` and `setImmediate` as Node has them (objects with `ref`, `unref`,
  // `hasRef`, `refresh`, `close`, and a number as primitive), queued on a virtual clock.
  const makeTimers = () => {
    let now = 0;
    let nextId = 1;
    let pending = [];
    const kId = Symbol('asyncId');
    class Timer {
      constructor(callback, delay, args, repeat, immediate) {
        if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
        delay = Number(delay);
        this[kId] = { id: nextId++, callback, args, immediate, delay: delay >= 1 && delay <= 2147483647 ? Math.trunc(delay) : 1, repeat, refed: true, at: 0 };
        this.refresh();
      }
      refresh() {
        const state = this[kId];
        pending = pending.filter((t) => t !== this);
        state.at = state.immediate ? now : now + state.delay;
        pending.push(this);
        return this;
      }
      ref() {
        this[kId].refed = true;
        return this;
      }
      unref() {
        this[kId].refed = false;
        return this;
      }
      hasRef() {
        return this[kId].refed;
      }
      close() {
        pending = pending.filter((t) => t !== this);
        return this;
      }
      [Symbol.toPrimitive]() {
        return this[kId].id;
      }
    }
    class Timeout extends Timer {}
    class Immediate extends Timer {}
    const clear = (timer) => {
      if (timer instanceof Timer) timer.close();
      else if (typeof timer === 'number' || typeof timer === 'string') pending = pending.filter((t) => t[kId].id !== +timer);
    };
    Object.defineProperty(g, '__fc$timers', {
      value: Object.freeze({
        // Before each test: nothing left from another (most tests leave nothing).
        clear() {
          if (pending.length !== 0) pending = [];
        },
        // Fires the timer due first (immediates before timers); false when none is pending.
        next() {
          if (pending.length === 0) return false;
          let first = 0;
          for (let i = 1; i < pending.length; i++) {
            const a = pending[i][kId];
            const b = pending[first][kId];
            if (a.immediate !== b.immediate ? a.immediate : a.at < b.at) first = i;
          }
          const timer = pending[first];
          const state = timer[kId];
          pending.splice(first, 1);
          now = Math.max(now, state.at);
          if (state.repeat) timer.refresh();
          try {
            Reflect.apply(state.callback, timer, state.args);
          } catch (_) {
            // Node would report it as uncaught; the test then never settles here either.
          }
          return true;
        },
      }),
    });
    const timers = {
      setTimeout: (callback, delay, ...args) => new Timeout(callback, delay, args, false, false),
      setInterval: (callback, delay, ...args) => new Timeout(callback, delay, args, true, false),
      setImmediate: (callback, ...args) => new Immediate(callback, 0, args, false, true),
      clearTimeout: clear,
      clearInterval: clear,
      clearImmediate: clear,
    };
    for (const name of Object.keys(timers)) {
      Object.defineProperty(g, name, { value: timers[name], writable: true, enumerable: true, configurable: true });
    }
  };

  makeTimers();
  // The makers of the encoding globals (`node/encoding.js`), read in by the engine on first use.
  const loadEncoding = g.__fc$loadEncoding;
  delete g.__fc$loadEncoding;
  let encoding = null;
  const maker = (name) => () => {
    if (encoding === null) encoding = loadEncoding();
    return encoding[name]();
  };
  lazy('Buffer', maker('makeBuffer'));
  lazy('TextEncoder', maker('makeTextEncoder'));
  lazy('TextDecoder', maker('makeTextDecoder'));

  // `global`, Node's name of the global object.
  plain('global', g);

  // Globals Node has and the sandbox does not: `process` (the host's), `Intl`, `URL`, `fetch`,
  // `WebAssembly`, web streams, ... A test that reads one cannot run as under Node, whatever it does next
  // (`new Intl.DateTimeFormat()` throwing, `typeof URL` choosing a fallback), so reading one is reported
  // as host access (`__fc$hostAccess`: the test never becomes a regression test) and answers undefined,
  // as before. Assigning one (a polyfill) makes it a plain global. Reads while the program loads are not
  // tests'.
  const absent = ['process', 'Intl', 'URL', 'URLSearchParams', 'AbortController', 'AbortSignal', 'Event', 'EventTarget',
    'CustomEvent', 'structuredClone', 'fetch', 'FormData', 'Headers', 'Request', 'Response', 'Blob', 'File',
    'WebAssembly', 'crypto', 'Crypto', 'CryptoKey', 'SubtleCrypto', 'BroadcastChannel', 'MessageChannel',
    'MessagePort', 'MessageEvent', 'ReadableStream', 'WritableStream', 'TransformStream', 'TextEncoderStream',
    'TextDecoderStream', 'CompressionStream', 'DecompressionStream', 'Performance', 'PerformanceEntry',
    'PerformanceMark', 'PerformanceMeasure', 'PerformanceObserver'];
  for (const name of absent) {
    if (name in g) continue;
    Object.defineProperty(g, name, {
      get() {
        const report = g.__fc$hostAccess;
        if (typeof report === 'function') report(name + ', which Node has and the sandbox does not');
        return undefined;
      },
      set(value) {
        plain(name, value);
      },
      enumerable: false,
      configurable: true,
    });
  }
})(globalThis);
