// The globals Node gives every module that need no host: `Buffer`, `TextEncoder`, `TextDecoder` and `Blob`
// (each made the first time it is read, from `encoding.js`, which the engine reads in then, since a fresh
// context per test must stay cheap, then kept as a plain global), events, `AbortController` and
// `structuredClone` (from `web.js`, the same way), `URL`, `URLSearchParams` (`url.js`) and `Headers`
// (`headers.js`), and timers. Code that checks `typeof Buffer`, decodes bytes or schedules work then takes the
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
  // What reaches the host: the harness learns of it (`__fc$hostAccess`, read at each use since the harness
  // installs it after these globals), so the test never becomes a regression test; the error to throw.
  const hostAccess = (what) => {
    const report = g.__fc$hostAccess;
    return typeof report === 'function' ? report(what) : new Error('no host access in the sandbox: ' + what);
  };
  const nodeErrors = Object.freeze({
    coded,
    received,
    hostAccess,
    missingArgs: (...names) => {
      const listed = names.map((n) => '"' + n + '"');
      const message = listed.length === 1 ? listed[0] + ' argument' : listed.join(' and ') + ' arguments';
      return coded(TypeError, 'ERR_MISSING_ARGS', 'The ' + message + ' must be specified');
    },
    invalidThis: (type) => coded(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type ' + type),
    invalidArgType: (name, expected, value) =>
      coded(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + name + '" argument must be ' + expected + '.' + received(value)),
  });
  Object.defineProperty(g, '__fc$nodeErrors', { value: nodeErrors });
  // Node's iterators of name/value lists (`URLSearchParams`', `Headers`'), for `url.js` and `headers.js`:
  // a prototype under %IteratorPrototype% with the tag `tag`, whose `next` reads the list (`listOf` its
  // target) afresh at each step, so an iterator sees what changes while it runs, and throws `notThis()`
  // on another receiver. Answers the maker of an iterator of a target's keys, values or entries.
  const pairIterators = (tag, listOf, notThis) => {
    const prototype = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
    const states = new WeakMap();
    Object.defineProperty(prototype, 'next', {
      value: function next() {
        const state = (typeof this === 'object' && this !== null) || typeof this === 'function' ? states.get(this) : undefined;
        if (state === undefined) throw notThis();
        const list = listOf(state.target);
        if (state.index >= list.length) return { value: undefined, done: true };
        const [name, value] = list[state.index++];
        return { value: state.kind === 'key' ? name : state.kind === 'value' ? value : [name, value], done: false };
      },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    Object.defineProperty(prototype, Symbol.toStringTag, { value: tag, configurable: true });
    return (target, kind) => {
      const iterator = Object.create(prototype);
      states.set(iterator, { target, kind, index: 0 });
      return iterator;
    };
  };
  Object.defineProperty(g, '__fc$pairIterators', { value: pairIterators });
  // Memory Node leaves uninitialised (`Buffer.allocUnsafe`'s, `node/encoding.js`) holds whatever was there
  // before, which differs from one run of a suite to the next. A run here leaves it zero (as a fresh page
  // is), so that generation stays reproducible from the seed; the runs that check what a test asserts
  // (the stability check, a test run twice) give it a salt and fill it with bytes drawn from the salt,
  // so that what the code did not write differs between them and is never asserted.
  let memorySalt = 0;
  let allocations = 0;
  Object.defineProperty(g, '__fc$uninitialized', {
    value: Object.freeze({
      // Before each test (the harness's `begin`).
      reset(salt) {
        memorySalt = salt >>> 0;
        allocations = 0;
      },
      fill(bytes) {
        allocations++;
        if (memorySalt === 0) return;
        let state = ((memorySalt * 0x9e3779b1) ^ (allocations * 0x85ebca6b)) >>> 0 || 1;
        for (let i = 0; i < bytes.length; i++) {
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
          bytes[i] = state;
        }
      },
    }),
  });
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
  //
  // Node waits for its timers in real time, and a refed timer still pending holds its process (`node
  // --test` runs a file until its loop is empty): a test that waits on the virtual clock further than
  // `REAL_WAIT_MS` past its start, or ends with a refed timer due further than that or a refed interval,
  // would hang its suite or time it out under Node, so it is reported as host access (the real clock) and
  // never becomes a regression test. A second keeps tests of short delays (debounces, timeouts) while a
  // suite of them still runs in moments under mocha's 2 s and jest's 5 s per test.
  const REAL_WAIT_MS = 1000;
  const report = (what) => {
    hostAccess(what + ', which Node would wait for in real time');
  };
  const makeTimers = () => {
    let now = 0;
    // The virtual time the running test started at.
    let start = 0;
    let nextId = 1;
    let pending = [];
    // The first error a timer's callback threw in the running test (or after it, see `nextLeft`): Node
    // reports it as uncaught and fails the test.
    const NONE = {};
    let uncaught = NONE;
    const kId = Symbol('asyncId');
    // Whether a timer may be left that `nextLeft` would fire: set whenever one is scheduled or refed,
    // cleared once `nextLeft` finds none. Rust reads it after every test before it calls `nextLeft`,
    // which most tests would call for nothing (a property store, unlike an element store, is no
    // counted work).
    const left = { __proto__: null, maybe: false };
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
        left.maybe = true;
        return this;
      }
      ref() {
        this[kId].refed = true;
        left.maybe = true;
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
    // Fires pending timer `index`: the clock moves to its time, and what its callback throws is uncaught.
    const fire = (index) => {
      const timer = pending[index];
      const state = timer[kId];
      pending.splice(index, 1);
      now = Math.max(now, state.at);
      if (state.repeat) timer.refresh();
      try {
        Reflect.apply(state.callback, timer, state.args);
      } catch (e) {
        if (uncaught === NONE) uncaught = e;
      }
    };
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
          start = now;
          uncaught = NONE;
          if (pending.length !== 0) pending = [];
          left.maybe = false;
        },
        // At the end of a test: reports a refed timer that would hold Node's process past the wait Node's
        // runners allow (see `REAL_WAIT_MS`).
        held() {
          // Most tests leave none: no iterator is made for them.
          if (pending.length === 0) return;
          for (const timer of pending) {
            const state = timer[kId];
            if (!state.refed || state.immediate) continue;
            if (state.repeat) return report('an interval of ' + state.delay + ' ms left running');
            if (state.at - start > REAL_WAIT_MS) return report('a timer due ' + (state.at - start) + ' ms after the test started left pending');
          }
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
          if (state.at - start > REAL_WAIT_MS) {
            report('awaiting a timer due ' + (state.at - start) + ' ms after the test started');
            return false;
          }
          fire(first);
          return true;
        },
        // Once a test has ended: fires the timer Node would still fire after it, due first (a refed
        // timeout or immediate due within `REAL_WAIT_MS` of the test's start: a debounce the test left);
        // false when none is left. Intervals and later timers were reported by `held`, and Node may never
        // fire an unrefed one.
        nextLeft() {
          let first = -1;
          for (let i = 0; i < pending.length; i++) {
            const a = pending[i][kId];
            if (!a.refed || a.repeat || (!a.immediate && a.at - start > REAL_WAIT_MS)) continue;
            const b = first < 0 ? null : pending[first][kId];
            if (b === null || (a.immediate !== b.immediate ? a.immediate : a.at < b.at)) first = i;
          }
          if (first < 0) {
            left.maybe = false;
            return false;
          }
          fire(first);
          return true;
        },
        // Read by Rust (see `left` above).
        left,
        // The first error a timer's callback threw in the last test, or `none` if none did.
        uncaught(none) {
          return uncaught === NONE ? none : uncaught;
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
  // The makers of the globals below are read in by the engine on first use (`__fc$loadNode`, given
  // the script's name: `node/encoding.js`, `web.js`, `url.js`, `headers.js`), each once per context.
  const loadNode = g.__fc$loadNode;
  delete g.__fc$loadNode;
  const scripts = Object.create(null);
  const script = (name) => (scripts[name] ??= loadNode(name));
  const maker = (name) => () => script('encoding')[name]();
  lazy('Buffer', maker('makeBuffer'));
  lazy('TextEncoder', maker('makeTextEncoder'));
  lazy('TextDecoder', maker('makeTextDecoder'));
  lazy('Blob', maker('makeBlob'));

  // Events, cancellation and cloning (`node/web.js`). The event classes are made together (a signal
  // is an event target that dispatches events).
  let events = null;
  const event = (name) => () => (events ??= script('web').makeEvents())[name];
  for (const name of ['Event', 'CustomEvent', 'EventTarget', 'AbortSignal', 'AbortController']) lazy(name, event(name));
  lazy('structuredClone', () => script('web').makeStructuredClone());

  // `URL` and `URLSearchParams` (`node/url.js`), made together (a URL's `searchParams` is one), and
  // `Headers` (`node/headers.js`).
  let urls = null;
  for (const name of ['URL', 'URLSearchParams']) lazy(name, () => (urls ??= script('url').makeUrl())[name]);
  lazy('Headers', () => script('headers').makeHeaders());

  // `global`, Node's name of the global object.
  plain('global', g);

  // `process` without the host: what a library reads to choose its path or calls at run time answers as
  // under a fixed Node 20 on Linux with an empty environment (`env`, `argv`, `platform`, `version`,
  // `versions`...; read in a test, those naming the host are host access), `nextTick` queues its
  // callback as a job, and `emitWarning`, which only prints on the host's stderr, checks its argument
  // and prints nothing. `hrtime` is the fixed clock `js/determinism.js`
  // installs, in the sandbox and in exported suites alike. The standard streams are as a test file has
  // them under `node --test`, where exported suites run: pipes to the runner (`fd` 0, 1 and 2; no
  // `isTTY`, `columns` nor `rows`, as `tty.isatty` answers), so code choosing its output by them
  // (debug's `tty.isatty(process.stderr.fd)`) takes Node's path. What reaches the host (`exit`, `kill`,
  // `chdir`, `cwd`, reading, writing or listening to the streams, the process's events, its id and usage)
  // is host access.
  const makeProcess = () => {
    const processAccess = (what) => hostAccess('process.' + what);
    // Functions `names` of `object` (`path` its name) that reach the host.
    const hostMethods = (object, path, names) => {
      for (const name of names) {
        object[name] = function () {
          throw processAccess(path + name + '()');
        };
      }
      return object;
    };
    const stream = (fd, name) => hostMethods({ fd }, name + '.', ['write', 'end', 'read', 'on', 'once', 'off',
      'addListener', 'prependListener', 'removeListener', 'removeAllListeners', 'emit', 'pipe', 'unpipe',
      'setEncoding', 'pause', 'resume', 'cork', 'uncork', 'destroy']);
    const then = Promise.prototype.then;
    const resolved = Promise.resolve();
    const apply = Reflect.apply;
    const process = {
      title: 'node',
      version: 'v20.19.0',
      versions: { node: '20.19.0', v8: '11.3.244.8-node.30', uv: '1.46.0', zlib: '1.3.0.1-motley', modules: '115' },
      release: { name: 'node', lts: 'Iron' },
      platform: 'linux',
      arch: 'x64',
      argv: ['/usr/local/bin/node', '/flycatcher/test.js'],
      argv0: 'node',
      execArgv: [],
      execPath: '/usr/local/bin/node',
      env: {},
      stdin: stream(0, 'stdin'),
      stdout: stream(1, 'stdout'),
      stderr: stream(2, 'stderr'),
      exitCode: undefined,
      // No domain is entered (Node's own answer until the `domain` module is used), so code checking that
      // domains exist (`typeof process.domain`) takes Node's path.
      domain: null,
      nextTick(callback, ...args) {
        if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
        apply(then, resolved, [() => apply(callback, undefined, args)]);
      },
      emitWarning(warning) {
        if (typeof warning !== 'string' && !(warning instanceof Error)) {
          throw invalidArgType('warning', 'of type string or an instance of Error', warning);
        }
      },
      hrtime() {
        throw processAccess('hrtime, the host\'s clock');
      },
      [Symbol.toStringTag]: 'process',
    };
    process.hrtime.bigint = process.hrtime;
    // What names the host a suite runs on (another platform, another Node, its command line) answers as
    // the fixed Node 20 on Linux above, so the code takes one path whatever the machine; read in a test it
    // is host access, for a regression test asserting it would fail on another machine. Reads while the
    // program loads are not a test's.
    for (const name of ['platform', 'arch', 'version', 'versions', 'release', 'title', 'argv', 'argv0',
      'execArgv', 'execPath']) {
      const value = process[name];
      Object.defineProperty(process, name, {
        get() {
          processAccess(name + ', which names the host');
          return value;
        },
        enumerable: true,
        configurable: true,
      });
    }
    hostMethods(process, '', ['exit', 'reallyExit', 'abort', 'kill', 'chdir', 'cwd', 'umask', 'uptime',
      'memoryUsage', 'cpuUsage', 'resourceUsage', 'on', 'once', 'off', 'addListener', 'prependListener',
      'removeListener', 'removeAllListeners', 'emit', 'listeners', 'send', 'disconnect', 'binding', 'dlopen']);
    for (const name of ['pid', 'ppid', 'connected', 'channel', 'mainModule']) {
      Object.defineProperty(process, name, {
        get() {
          processAccess(name);
          return undefined;
        },
        enumerable: true,
        configurable: true,
      });
    }
    return process;
  };
  lazy('process', makeProcess);

  // `crypto`, Node's Web Crypto object: its random values (`getRandomValues`, `randomUUID`) are the
  // test's seeded ones, installed by `deterministic` as in exported suites (see `determinism.js`). Its
  // `subtle` (digests, keys: native and asynchronous in Node) is host access.
  lazy('crypto', () => {
    const webCrypto = {};
    Object.defineProperty(webCrypto, 'subtle', {
      get() {
        hostAccess('crypto.subtle, which Node has and the sandbox does not');
        return undefined;
      },
      enumerable: false,
      configurable: true,
    });
    return webCrypto;
  });

  // Globals Node has and the sandbox does not: `Intl`, `fetch`,
  // `WebAssembly`, web streams, ... A test that reads one cannot run as under Node, whatever it does next
  // (`new Intl.DateTimeFormat()` throwing, `typeof URL` choosing a fallback), so reading one is reported
  // as host access (`__fc$hostAccess`: the test never becomes a regression test) and answers undefined,
  // as before. Assigning one (a polyfill) makes it a plain global. Reads while the program loads are not
  // tests'.
  const absent = ['Intl', 'fetch', 'FormData', 'Request', 'Response', 'File',
    'WebAssembly', 'Crypto', 'CryptoKey', 'SubtleCrypto', 'BroadcastChannel', 'MessageChannel',
    'MessagePort', 'MessageEvent', 'ReadableStream', 'WritableStream', 'TransformStream', 'TextEncoderStream',
    'TextDecoderStream', 'CompressionStream', 'DecompressionStream', 'Performance', 'PerformanceEntry',
    'PerformanceMark', 'PerformanceMeasure', 'PerformanceObserver'];
  // The names read (from loading on: Rust reads them once the program has loaded, to name the globals a
  // library read while loading, a fallback path its every test then takes), as own keys.
  const missing = Object.create(null);
  Object.defineProperty(g, '__fc$missingGlobals', { value: missing });
  for (const name of absent) {
    if (name in g) continue;
    Object.defineProperty(g, name, {
      get() {
        missing[name] = true;
        hostAccess(name + ', which Node has and the sandbox does not');
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
