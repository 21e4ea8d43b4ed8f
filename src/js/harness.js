// Flycatcher's side of the sandbox, installed in every context before the code under test.
// Everything lives on non-enumerable globals named `__fc$...` so that user code that walks the global
// object does not trip over it. Rust exchanges data with it as JSON strings, one call per test (the error
// a test ended with is read field by field: see `__fc$failure`), or performs a test's statements itself
// between calls of the steps `__fc$direct` lists.
(function (g) {
  'use strict';
  // Built-ins as they were before user code ran (see `js/primordials.js` for the rules).
  const P = g.__fc$P;
  const { floor, getProto, descriptor, isArray, ObjectProto, defineProperty, push, indexOf, map, hasOwn } = P;
  const stringify = P.json;
  const hide = (name, value, writable) =>
    defineProperty(g, name, { __proto__: null, value, writable: !!writable, enumerable: false, configurable: false });
  const { apply } = P;
  const ErrorCtor = P.Error;
  const stringSlice = String.prototype.slice;

  // The primitives that proxies answer with come from their own xorshift32, seeded like the test:
  // reproducible from the run's seed. `Math.random` and the clock of the code under test are fixed by
  // `__fc$deterministic` (`js/determinism.js`, shared with exported suites).
  const deterministic = g.__fc$deterministic;
  // Whether the running test used an operation engines round differently (`js/inexact.js`).
  const inexact = g.__fc$inexact;
  // Node's timers on a virtual clock (`js/node/globals.js`): a test starts with none pending.
  const timers = g.__fc$timers;
  // What memory Node leaves uninitialised holds (`js/node/globals.js`): set for each test.
  const uninitialized = g.__fc$uninitialized;
  const RealDate = P.Date;
  const RealRegExp = P.RegExp;
  let state = 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };

  const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
  const randomNumber = () => {
    const r = next();
    return r < 0.6 ? floor(next() * 21) - 10 : r < 0.7 ? 0 : floor(next() * 2001) - 1000;
  };
  // These strings start with a space: used as a key on a recording proxy (`data[i]` with an inert
  // `i`), they cannot pass for a member name.
  const randomString = () => {
    let n = floor(next() * 7);
    let s = ' ';
    while (n-- > 0) s += CHARS[floor(next() * CHARS.length)];
    return s;
  };
  const primitive = (hint) =>
    hint === 'string' ? randomString() : hint === 'number' ? randomNumber() : next() < 0.5 ? randomNumber() : randomString();

  // Inert proxies stand for whatever a recorded parameter's members return. They answer every use
  // without recording it; depth is bounded so `while (x.next) x = x.next` ends.
  const INERT_DEPTH = 3;
  const inertHandlers = [];
  // Discovery must tell a constructor's own methods from the inert arguments it stored.
  const inertProxies = new P.WeakSet();
  const inert = (depth) => {
    const proxy = new P.Proxy(function () {}, inertHandlers[depth]);
    P.weakSetAdd(inertProxies, proxy);
    return proxy;
  };
  for (let depth = 0; depth <= INERT_DEPTH; depth++) {
    const deeper = () => (depth < INERT_DEPTH ? inert(depth + 1) : undefined);
    push(inertHandlers, {
      __proto__: null,
      get(target, key) {
        if (key === P.toPrimitive) return primitive;
        if (typeof key === 'symbol' || key === 'then' || key === 'prototype') return undefined;
        if (key === 'toString' || key === 'toJSON') return randomString;
        if (key === 'valueOf') return randomNumber;
        if (key === 'length') return floor(next() * 4);
        return deeper();
      },
      apply: deeper,
      construct: () => deeper() || {},
      set: () => true,
      has: () => false,
      deleteProperty: () => true,
      defineProperty: () => true,
    });
  }

  // Recording proxies stand for parameters of unknown type. The log is flat triples
  // (parameter key, event, detail): 0 created, 1 get, 2 set/delete, 3 `in`, 4 called, 5 coerced, 6 a
  // pattern met (written by `js/patterns.js`, its detail a text of its own), 7 keys listed, 8 an item
  // read by index on it coerced.
  const log = [];
  const record = (key, event, detail) => { push(log, key, event, detail); };

  // ---- Patterns met by the test's values (js/patterns.js) ----
  // The observer learns each test's recording proxies, and writes to the log.
  const observer = g.__fc$observe;
  observer.attach(record);
  const observed = (key, proxy) => {
    observer.proxy(proxy, key);
    return proxy;
  };
  // ---- end of the patterns section ----
  const callKinds = (args) => {
    let kinds = '';
    for (let i = 0; i < args.length && i < 4; i++) {
      const t = typeof args[i];
      kinds += t === 'number' ? 'n' : t === 'string' ? 's' : 'o';
    }
    return kinds;
  };
  const memberName = (key) =>
    typeof key !== 'symbol' ? key : key === P.iterator ? '@@iterator' : key === P.asyncIterator ? '@@asyncIterator' : null;
  // The target is a function so that calls of a callback are recorded (`typeof` then says
  // 'function': a proxy cannot answer `typeof` for itself either way). Every recording proxy shares one
  // handler, whose traps find the parameter by the proxy's own target: a handler of seven closures per
  // proxy cost more than the rest of many tests. Weakly held: a proxy the code kept outlives its test.
  const parameters = new P.WeakMap();
  const keyOf = (target) => P.weakMapGet(parameters, target);
  const recordingHandler = {
    __proto__: null,
    // A call logs what it passed, `(` then a letter per argument (see `CallArguments` in
    // sandbox/events.rs): how the code calls a callback picks the shape of the callbacks tests pass.
    apply(target, self, args) { record(keyOf(target), 4, '(' + callKinds(args)); return inert(1); },
    construct(target) { record(keyOf(target), 4, ''); return inert(1); },
    get(target, prop) {
      const key = keyOf(target);
      if (prop === P.toPrimitive) {
        return function (hint) {
          record(key, 5, hint + '\n' + P.stack());
          return primitive(hint);
        };
      }
      const name = memberName(prop);
      if (name === null || name === 'then' || name === 'prototype') return undefined;
      record(key, 1, name);
      // Reading `Symbol.iterator` may be a check; calling it is iterating (`for...of`, a spread,
      // `Array.from`): that is recorded, and the iteration ends at once rather than throwing on an
      // iterator the code cannot use (which read as a rejection of anything but a plain object).
      if (prop === P.iterator) {
        return function () {
          record(key, 1, '@@iterated');
          return { __proto__: null, next: () => ({ __proto__: null, done: true, value: undefined }) };
        };
      }
      // Every value has a `toString`, so reading it says nothing; but calling it without an argument is a
      // conversion to a string, which code does to what it then parses or prints
      // (`parser.parse(input.toString())`): it is recorded as one, and answers a string the code can go
      // on with. With an argument, it is a number's (`n.toString(16)`) or a buffer's (`'hex'`).
      if (name === 'toString') {
        return function (...args) {
          if (args.length === 0) record(key, 5, 'string\n' + P.stack());
          else if (typeof args[0] === 'number') record(key, 5, 'number\n' + P.stack());
          return randomString();
        };
      }
      return isIndex(name) ? item(key) : inert(1);
    },
    set(target, prop) { const name = memberName(prop); if (name !== null) record(keyOf(target), 2, name); return true; },
    deleteProperty(target, prop) { const name = memberName(prop); if (name !== null) record(keyOf(target), 2, name); return true; },
    has(target, prop) { const name = memberName(prop); if (name !== null) record(keyOf(target), 3, name); return false; },
    defineProperty(target, prop) { const name = memberName(prop); if (name !== null) record(keyOf(target), 2, name); return true; },
    // `Object.keys(p)`, `for (k in p)`, `{ ...p }`: the code walks an object's own keys. The target's
    // keys answer (the proxy invariants want its non-configurable `prototype`); none is enumerable.
    ownKeys(target) { record(keyOf(target), 7, ''); return P.ownKeys(target); },
  };
  // An item read by index (`data[i]`) is inert, but its conversions are logged (8, as 5 logs the
  // parameter's own): a string's characters are rarely used as numbers, an array's items often are
  // (`data[j] - data[i]`), and without this a value read only by index passes for a string.
  // A key that is a number's text: an index, or what code computed one from (`NaN`, `-1`, `1.5`).
  const isIndex = (name) => typeof name === 'string' && name !== '' && '' + +name === name;
  const items = new P.WeakMap();
  const itemHandler = {
    __proto__: inertHandlers[1],
    get(target, prop) {
      if (prop !== P.toPrimitive) return inertHandlers[1].get(target, prop);
      const key = P.weakMapGet(items, target);
      return function (hint) {
        record(key, 8, hint + '\n' + P.stack());
        return primitive(hint);
      };
    },
  };
  const item = (key) => {
    const target = function () {};
    P.weakMapSet(items, target, key);
    const proxy = new P.Proxy(target, itemHandler);
    P.weakSetAdd(inertProxies, proxy);
    return proxy;
  };
  const recording = (key) => {
    record(key, 0, '');
    const target = function () {};
    P.weakMapSet(parameters, target, key);
    return observed(key, new P.Proxy(target, recordingHandler));
  };
  // An options object already typed keeps learning (`{o: [...], k: key}`): it is passed behind a view
  // that answers everything as the plain object does (keys, `in`, descriptors, prototype, `typeof`,
  // JSON, spreads: the traps below only watch, and every other operation goes to the object) and logs,
  // to its parameter's record, the member names the code reads, checks with `in` or asks the descriptor
  // of while the object lacks them: options read only when another is set (`if (opts.encode) use
  // opts.encoder`) are learnt once a test sets that one. Names the object or its prototype has are
  // known already, or every object's.
  const absent = (target, prop) => typeof prop === 'string' && prop !== 'then' && !P.has(target, prop);
  // The traps, shared; each view has a handler of its own (below).
  const watchGet = (target, prop, receiver) => {
    if (absent(target, prop)) record(keyOf(target), 1, prop);
    return P.get(target, prop, receiver);
  };
  const watchHas = (target, prop) => {
    if (absent(target, prop)) {
      record(keyOf(target), 3, prop);
      return false;
    }
    return P.has(target, prop);
  };
  const watchDescriptor = (target, prop) => {
    if (absent(target, prop)) record(keyOf(target), 3, prop);
    return descriptor(target, prop);
  };
  // QuickJS reads the descriptor a `getOwnPropertyDescriptor` trap answers as a data property even when it
  // is an accessor (`js_proxy_get_own_property` never marks it one): through that trap, a getter the code
  // defined on its options (`Object.defineProperties(options, { signal: { get } })`) would read as
  // `{ value: undefined }`, to the code and to the description of a result, where Node runs the getter.
  // So each view has a handler of its own, which loses that trap once the object has an accessor of its
  // own: the object then answers descriptors itself, and descriptors of absent names are no longer learnt.
  const watching = (key, object) => {
    P.weakMapSet(parameters, object, key);
    const handler = {
      __proto__: null,
      get: watchGet,
      has: watchHas,
      getOwnPropertyDescriptor: watchDescriptor,
      defineProperty(target, prop, d) {
        if (!P.tryDefine(target, prop, d)) return false;
        if (hasOwn(d, 'get') || hasOwn(d, 'set')) P.deleteProperty(handler, 'getOwnPropertyDescriptor');
        return true;
      },
    };
    return new P.Proxy(object, handler);
  };

  // Classes found by the analyser, in ProgramInfo order; tests alias them.
  const classes = [];
  hide('__fc$C', classes);
  // Variables of the running test, in order of definition: results are described by identity with them.
  const vars = [];
  // Descriptions of the results of calls to the method under test (describe mode only).
  const results = [];

  // Results are described up to three levels deep and fifty items or fields, by Rust
  // (`sandbox/engine/describe/`), which keeps each description for the test and answers its number; a
  // variable of the test met inside a result is named, not described again.
  const D = g.__fc$describe;
  P.freeze(D);
  const MAX_ITEMS = 50;
  const STATE_NODES = 60;
  const encoder = D.make({
    __proto__: null,
    classes,
    vars,
    maxDepth: 3,
    maxItems: MAX_ITEMS,
    maxNodes: Infinity,
    cycles: true,
    complete: true,
    exactDates: false,
  });
  const classOf = (proto) => D.classOf(encoder, proto);
  const describe = (v, depth) => D.value(encoder, v, depth);
  // The state of the test's variables is described after every call of the method under test, twice
  // (before and after): bounded by a count of objects too, so that a large structure costs little.
  const stateEncoder = D.make({
    __proto__: null,
    classes,
    vars,
    maxDepth: 3,
    maxItems: MAX_ITEMS,
    maxNodes: STATE_NODES,
    cycles: true,
    complete: true,
    exactDates: false,
  });
  // An iterator returned by the method under test (a generator's, `values()`'s) runs its code only when
  // consumed: the test takes its items right after the call, as the exported assertion does with
  // `Array.from`, up to one more than an array's limit. Instances of the program's classes and
  // variables of the test are left alone (they are asserted by their fields or identity), and so is
  // anything that cannot be read. An error while consuming ends it, and is what is asserted of it
  // (`threw`): the call itself returned. An async iterator is not consumed here: `ASYNC_ITERATOR` says so.
  const ASYNC_ITERATOR = {};
  const drain = (v) => {
    try {
      if (v === null || typeof v !== 'object' || isArray(v) || indexOf(vars, v) >= 0 || classOf(getProto(v)) >= 0) {
        return null;
      }
      if (typeof v.next !== 'function') return null;
      if (typeof v[P.iterator] !== 'function') return typeof v[P.asyncIterator] === 'function' ? ASYNC_ITERATOR : null;
    } catch (_) {
      return null;
    }
    const items = [];
    try {
      // As `Array.from` does: through `[Symbol.iterator]()`, which is usually the iterator itself.
      const iterator = v[P.iterator]();
      while (items.length <= MAX_ITEMS) {
        const step = iterator.next();
        if (step === null || typeof step !== 'object') return { items, done: false };
        if (step.done) return { items, done: true };
        push(items, step.value);
      }
    } catch (e) {
      return { items, done: false, threw: [e] };
    }
    return { items, done: false };
  };
  // An async iterator returned by the method under test (an async generator's: `drain` answers
  // `ASYNC_ITERATOR`) is consumed as well, as the exported assertion does with `for await`, by the same rule:
  // its items come as jobs run, so the test awaits the consumption (see `finish`), which ends once no job or
  // timer is left to give the next item (see `__fc$quiet`: a stream waiting for a `push`). A throw while
  // consuming either is what is asserted of it (`threw`). `draining` is the consumption under way (its
  // iterator, and how to end it early), `drainedAsync` the last one ended, until `finish` describes it.
  let draining = null;
  let drainedAsync = null;
  const drainAsync = (v) => new P.Promise((resolve) => {
    const items = [];
    const end = (drained) => {
      if (draining === null || draining.value !== v) return;
      draining = null;
      drainedAsync = { value: v, drained };
      resolve(v);
    };
    draining = { value: v, stop: () => end({ items, done: false }) };
    (async () => {
      try {
        const iterator = v[P.asyncIterator]();
        while (items.length <= MAX_ITEMS) {
          const step = await iterator.next();
          if (step === null || typeof step !== 'object') return end({ items, done: false });
          if (step.done) return end({ items, done: true });
          push(items, step.value);
        }
        end({ items, done: false });
      } catch (e) {
        end({ items, done: false, threw: [e] });
      }
    })();
  });
  // The items an iterator gave, as a description (see `drain`), and what it threw (`[thrown]`, or none).
  const iterated = (drained) =>
    D.iterated(encoder, drained.items, drained.done, drained.asynchronous === true, drained.threw ?? []);
  // A `URL`, `URLSearchParams` or `Headers` the method under test returned, of the globals the sandbox
  // gives (made already: a global never read made no instance, and is not made now), described by what
  // a reader checks of it (`href`, `toString()`, the entries) as Rust asserts it (`Observed::Web`); any
  // other value, or one whose reading threw, is undefined.
  const WEB_CLASSES = ['URL', 'URLSearchParams', 'Headers'];
  const webText = (name, v) => {
    if (name === 'URL') return '' + v.href;
    if (name === 'URLSearchParams') return '' + v.toString();
    const pairs = [];
    const entries = v.entries();
    for (let step = entries.next(); !step.done; step = entries.next()) push(pairs, ['' + step.value[0], '' + step.value[1]]);
    return stringify(pairs);
  };
  const webOf = (v) => {
    if (v === null || typeof v !== 'object' || D.isProxy(v)) return undefined;
    try {
      const proto = getProto(v);
      for (let i = 0; i < WEB_CLASSES.length; i++) {
        const made = descriptor(g, WEB_CLASSES[i]);
        if (made === undefined || !hasOwn(made, 'value') || typeof made.value !== 'function') continue;
        if (proto === made.value.prototype) return D.web(WEB_CLASSES[i], webText(WEB_CLASSES[i], v));
      }
    } catch (_) {
      // Described as any other object.
    }
    return undefined;
  };
  // A variable of the test as state assertions see it: the number of the description of its own data
  // fields, described one level down (other variables by identity), or undefined for a value without
  // fields.
  const stateOf = (v) => D.state(stateEncoder, v);
  const states = () => {
    const list = [];
    for (let i = 0; i < vars.length; i++) push(list, stateOf(vars[i]));
    return list;
  };
  // The fields of `now` whose descriptions differ from those in `was` (added and deleted ones included).
  const changedFields = (was, now, into, variable) => {
    const names = D.changed(was, now);
    if (names === undefined) return;
    for (let k = 0; k < names.length; k++) push(into, [variable, names[k]]);
  };
  // After a call of the method under test: its result (an iterator's items, `drained`), every variable's
  // fields after it (`state`), and which fields it changed (`changed`, against `before`, taken just
  // before the call): what state assertions pin. Answers the variables' states after the call.
  // A promise the call left pending (`pending`: see `concludeDeferred`) is described as such.
  const describeResult = (at, value, drained, before, pending) => {
    const returned = pending ? -1 : indexOf(vars, value);
    const state = [];
    const changed = [];
    const after = [];
    for (let i = 0; i < vars.length; i++) {
      const now = stateOf(vars[i]);
      push(after, now);
      if (now === undefined) continue;
      push(state, { i, d: now });
      const was = before[i];
      // What a construction returned is new: every field of it is one the construction set.
      if (was !== undefined || i === returned) changedFields(was, now, changed, i);
    }
    push(results, {
      at,
      inexact: inexact.used(),
      value: pending
        ? D.pending()
        : returned >= 0
          ? D.variable(returned)
          : drained
            ? iterated(drained)
            : (webOf(value) ?? describe(value, 0)),
      state,
      changed,
    });
    return after;
  };
  // The property `name` of `object` or of its prototypes, as a descriptor.
  const lookup = (object, name) => {
    for (let p = object; p !== null && p !== undefined; p = getProto(p)) {
      const d = descriptor(p, name);
      if (d !== undefined) return d;
    }
    return undefined;
  };
  // Inspection ([3, variable, [names]], after the last call of a test): each argument-less method named
  // is called and each getter (`@name`) read, as the exported test's state assertions do, and its answer
  // described. An inspector that changes the object's fields is impure: it is reported and the
  // inspection stops there; one that throws, or answers a promise, has no value. The answers go with
  // the description of the call before.
  const inspect = (op, at) => {
    const target = vars[op[1] | 0];
    const names = op[2];
    const answers = [];
    // The target's fields after the last inspector called (undefined: none called yet): nothing runs
    // between that and the next one, so they are its fields before (describing them twice per
    // inspector was a quarter of running a test on a mutant).
    let called = false;
    let fields;
    for (let i = 0; i < names.length; i++) {
      // `@name` names a getter only: a data field of that name is no inspector.
      const name = names[i];
      const getterOnly = name[0] === '@';
      const d = lookup(target, getterOnly ? apply(stringSlice, name, [1]) : name);
      const getter = d !== undefined && typeof d.get === 'function';
      if (getterOnly ? !getter : !getter && (d === undefined || typeof d.value !== 'function')) {
        push(answers, { n: name });
        continue;
      }
      const before = called ? fields : stateOf(target);
      const answer = { n: name, g: getter };
      try {
        const value = apply(getter ? d.get : d.value, target, []);
        if (!isPromise(value)) {
          const returned = indexOf(vars, value);
          const drained = returned >= 0 ? null : drain(value);
          answer.v = returned >= 0 ? D.variable(returned) : drained ? iterated(drained) : describe(value, 0);
        }
      } catch (_) {
        // No value: the exported test would throw here.
      }
      // Inspectors run after the call's result was described: whether the answer may differ under
      // another engine is asked again (`complex.atanh()` rounds through `Math.log`).
      if (inexact.used()) answer.inexact = true;
      push(answers, answer);
      fields = stateOf(target);
      called = true;
      if (!D.same(fields, before)) {
        answer.impure = true;
        break;
      }
    }
    const last = results[results.length - 1];
    if (last !== undefined && last.at === at - 1) last.inspected = answers;
  };

  // Where an error was made: the first frame of its stack in the code under test, so Rust can tell
  // errors the code built itself (their messages are the code's) from errors of the engine (whose
  // messages differ between engines).
  const origin = (e) => {
    try {
      const stack = e.stack;
      return typeof stack === 'string' ? stack : '';
    } catch (_) {
      return '';
    }
  };
  // How the last test that threw an error ended, read by Rust field by field (`__fc$exec` answers
  // THREW): most candidates end in an exception, and encoding it as JSON here to decode it in Rust
  // cost more than the rest of such a test.
  const failure = { __proto__: null, name: '', message: '', stack: '', at: 0 };
  hide('__fc$failure', failure);
  const THREW = '\u0002threw';
  const threw = (name, message, stack, at) => {
    failure.name = name;
    failure.message = message;
    failure.stack = stack;
    failure.at = at;
    return THREW;
  };
  // What `__fc$exec` answers for a test that threw `e` at statement `at`: THREW for an error, the JSON
  // of a description for any other value.
  const thrownAnswer = (e, at) => {
    try {
      if (e !== null && typeof e === 'object') {
        const name = e.name;
        const message = e.message;
        if (typeof name === 'string' && typeof message === 'string') return threw(name, message, origin(e), at);
      }
      // Described as JSON for Rust to read; one Rust cannot hold (a lone surrogate) is unreadable.
      const json = D.json(encoder, e);
      return '{"value":' + (json === undefined ? '{"t":"unreadable"}' : json) + ',"at":' + at + '}';
    } catch (_) {
      return threw('Error', 'an exception that cannot be read', '', at);
    }
  };

  // Runs one test, given as JSON: [0, class, args, variable] constructs a variable, [1, variable, method, args,
  // underTest] calls a method, [3, variable, [names]] inspects a variable (see `inspect`). Arguments are JSON values, or {v: variable}, {p: parameter} for a
  // recording proxy, {u: 0} for undefined, {x: "NaN" | "Infinity" | "-Infinity"}, {a: [items]} for an array,
  // {f: result} for a function returning `result`, {d: milliseconds} for a Date, {r: [source, flags]} for a
  // RegExp, {o: [[key, value]...]} for an object, {s: [answers]} for a stub function returning recorded
  // answers in order. Interpreting the test instead of compiling
  // JavaScript for it makes a test cost a JSON.parse. Exceptions user code can catch are caught here;
  // only an interrupt (time limit) or running out of memory reach Rust as an exception.
  // A function argument prints as the exported suite writes it ({t: text}), not as the harness's own
  // closure: a class that keeps `String(callback)` or names it in an error must give the same result here
  // as in the suite. Non-enumerable, so key listings and copies do not see it.
  const printed = (f, text) => {
    if (typeof text === 'string') {
      defineProperty(f, 'toString', { __proto__: null, value: () => text, writable: true, configurable: true });
    }
    return f;
  };
  const { construct, parse } = P;
  // `JSON.parse` makes every number a double, and QuickJS indexes arrays fast only by a small integer:
  // with a double, `items[i]` converts `i` to a string and looks the name up. The test's indexes are
  // made integers (`| 0`), and so are the whole numbers it passes (but -0), so that the code under test
  // runs as fast as with the literals an exported test passes it.
  const integral = (n) => ((n | 0) === n && (n !== 0 || 1 / n > 0) ? n | 0 : n);
  // Rebuilt instances (replay tests of objects the program made itself): [2, class, [[key, value]...],
  // variable] defines a variable, {i: [class, [[key, value]...]]} is a value. Made without running the
  // constructor and then assigned their fields, like the exported `Object.assign(Object.create(...))`.
  const create = P.create;
  const rebuilt = (c, members, argument) => {
    const object = create(classes[c | 0].prototype);
    for (let i = 0; i < members.length; i++) object[members[i][0]] = argument(members[i][1]);
    return object;
  };
  // The index of the test statement running, read by Rust after a time or memory limit cut the test
  // off: no JavaScript can run then to report it.
  const running = new P.Uint32Array(1);
  hide('__fc$at', running);
  // The stand-ins of Node's host modules (`js/node/host.js`) report here when used: such a test cannot run
  // as under Node, whatever the code does with the error they throw, so it ends failed, with a
  // HostAccessError at the statement that first reached the host.
  let hostAccess = null;
  hide('__fc$hostAccess', (what) => {
    if (hostAccess === null) hostAccess = { what, at: running[0] };
    return new ErrorCtor('no host access in the sandbox: ' + what);
  });
  const hostFailure = () =>
    threw('HostAccessError', 'no host access in the sandbox: ' + hostAccess.what, '', hostAccess.at);
  // What `__fc$exec` answers for a test that awaits a promise: it ends later, as jobs run.
  const ASYNC = '\u0001async';
  // Proxies of the harness wrap functions, so this never runs one of their traps; a proxy of the code
  // under test may throw from its `getPrototypeOf` trap (revoked): then it is not a promise.
  const isPromise = (value) => {
    if (value === null || typeof value !== 'object') return false;
    try {
      for (let p = getProto(value); p !== null; p = getProto(p)) if (p === P.PromiseProto) return true;
    } catch (_) {
      // Not a promise the test can await.
    }
    return false;
  };
  const awaited = [];
  let settled = null;
  // The running test: its statements, the one running, whether its results are described, and the
  // variables' states around calls of the method under test. Kept here rather than in closures made for
  // every test, which cost more than many tests.
  let ops = [];
  let at = 0;
  let describing = false;
  // Before a call of the method under test, when describing: the variables' fields, to tell what the
  // call changed. Right after another such call they are the states it left (`after`): describing
  // them again cost as much as the rest of a run of calls.
  let before = null;
  let after = null;
  // A callback of a shape (`Shape` in model/test/mod.rs, by its code): functions of as many parameters
  // as the text a suite writes, for code that reads `length`.
  const shaped = (code) => {
    switch (code) {
      case 0: return function (a, b) { return a - b; };
      case 1: return function (a, b) { return b - a; };
      case 2: return function (a, b) { return a < b ? -1 : a > b ? 1 : 0; };
      case 3: return function (a, b) { return b < a ? -1 : b > a ? 1 : 0; };
      case 4: return function (a, b) { return a + b; };
      case 5: return function (a) { return a; };
      default: return function (a) { return a > 0; };
    }
  };
  // An instance of a web class (`Value::Web`), built from the globals as the exported suite builds it
  // from Node's: what the code under test made of them is what the suite's test meets too.
  const web = (code, text) => {
    switch (code) {
      case 0: return new g.URL(text);
      case 1: return new g.URLSearchParams(text);
      case 2: {
        // Entries are lines of a name and a value apart by a tab, given as the suite's object literal.
        const init = {};
        let name = '';
        let value = '';
        let inValue = false;
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          if (c === '\n') {
            // Defined, as a literal's members are: a setter on `Object.prototype` is not run.
            defineProperty(init, name, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
            name = value = '';
            inValue = false;
          } else if (c === '\t' && !inValue) inValue = true;
          else if (inValue) value += c;
          else name += c;
        }
        return new g.Headers(init);
      }
      case 3: return new g.Blob([text]);
      case 4: return new g.AbortController().signal;
      case 5: return g.AbortSignal.abort();
      case 6: return new g.AbortController();
      case 7: return new g.EventTarget();
      case 8: return new g.TextEncoder();
      default: return new g.TextDecoder();
    }
  };
  // An async iterable of `items` (`Value::AsyncIterable`), as the suite's `(async function* () { yield* [...]; })()`
  // yields them: each on a later job, by index rather than through the array's iterator, which the code under
  // test may have replaced.
  const yieldAll = async function* (items) {
    for (let i = 0; i < items.length; i++) yield items[i];
  };
  // A function given `length` n: what code reads of a callback's or method's parameters.
  const withLength = (f, n) => defineProperty(f, 'length', { __proto__: null, value: n | 0, configurable: true });
  // A class written of members (`Value::Constructor`), as the suite's `class { ... }` expression: the data
  // members are fields each construction defines afresh, in order; the functions ({f}, {h}) are methods of
  // its prototype, of their name and length, which make their result afresh at each call as the suite's
  // `return` does. Made by an arrow function, so that it is as nameless as the suite's.
  const written = (members, argument) => {
    const fields = [];
    const made = (() => class {
      constructor() {
        for (let i = 0; i < fields.length; i++) {
          const value = argument(fields[i][1]);
          defineProperty(this, fields[i][0], { __proto__: null, value, writable: true, enumerable: true, configurable: true });
        }
      }
    })();
    for (let i = 0; i < members.length; i++) {
      const name = members[i][0];
      const m = members[i][1];
      const fluent = m !== null && typeof m === 'object' && hasOwn(m, 'h');
      if (!fluent && (m === null || typeof m !== 'object' || !hasOwn(m, 'f'))) {
        push(fields, members[i]);
        continue;
      }
      const method = fluent ? { [name]() { return this; } }[name] : { [name]() { return argument(m.f); } }[name];
      withLength(method, fluent ? m.h : m.n);
      defineProperty(made.prototype, name, { __proto__: null, value: method, writable: true, enumerable: false, configurable: true });
    }
    return made;
  };
  // An argument in the interpreter's encoding: its keys, their letters and meanings, are the table `KEYS`
  // of `model/test/interpreter.rs`, whose tests hold this function to it.
  const argument = (a) => {
    if (typeof a === 'number') return integral(a);
    if (a === null || typeof a !== 'object') return a;
    // Own members only: the code under test may have given `Object.prototype` a `v` or a `p`.
    if (hasOwn(a, 'v')) return vars[a.v | 0];
    if (hasOwn(a, 'u')) return undefined;
    if (hasOwn(a, 'p')) return recording(a.p);
    if (hasOwn(a, 'a')) return map(a.a, argument);
    const text = hasOwn(a, 't') ? a.t : undefined;
    if (hasOwn(a, 'f')) {
      // The suite writes `function () { return [1]; }`, which builds its result anew on every call: code
      // that changes what one call gave must not find the change on the next (a value of the test, `v`,
      // is the same each time there too). The first result is built now, as it always was, so that a
      // recording proxy (`p`, never written in a suite) is made once.
      const fresh = a.f !== null && typeof a.f === 'object' && !hasOwn(a.f, 'v') && !hasOwn(a.f, 'p');
      let result = argument(a.f);
      let built = true;
      const f = printed(function () {
        if (!built) result = argument(a.f);
        built = !fresh;
        return result;
      }, text);
      // A callback of a declared function type has its arity: code may read `length`.
      if (hasOwn(a, 'n')) defineProperty(f, 'length', { __proto__: null, value: a.n | 0, configurable: true });
      return f;
    }
    if (hasOwn(a, 'c')) return printed(shaped(a.c), text);
    if (hasOwn(a, 'b')) return P.BigInt(a.b);
    if (hasOwn(a, 'm')) {
      const m = new P.Map();
      for (let i = 0; i < a.m.length; i++) P.mapSet(m, argument(a.m[i][0]), argument(a.m[i][1]));
      return m;
    }
    if (hasOwn(a, 'e')) {
      const set = new P.Set();
      for (let i = 0; i < a.e.length; i++) P.setAdd(set, argument(a.e[i]));
      return set;
    }
    if (hasOwn(a, 'q')) {
      const result = argument(a.q);
      return new P.Promise((resolve) => resolve(result));
    }
    if (hasOwn(a, 'g')) return yieldAll(map(a.g, argument));
    if (hasOwn(a, 'j')) {
      // Handled as a suite writes it (`Value::Rejected`): a rejection the code never awaits is not one it
      // left unhandled.
      const rejected = new P.Promise((_, reject) => reject(new P.Error('rejected')));
      P.promiseThen(rejected, undefined, () => {});
      return rejected;
    }
    if (hasOwn(a, 'd')) return new RealDate(a.d);
    if (hasOwn(a, 'w')) return web(a.w[0] | 0, '' + a.w[1]);
    if (hasOwn(a, 'y')) return P.typedArrayFill(new P.Uint8Array(a.y[0]), a.y[1]);
    if (hasOwn(a, 'r')) return new RealRegExp(a.r[0], a.r[1]);
    if (hasOwn(a, 's')) {
      // A stub returning recorded answers in order, then the last one again.
      const answers = map(a.s, argument);
      let i = 0;
      return printed(function () { return answers[i < answers.length - 1 ? i++ : i]; }, text);
    }
    if (hasOwn(a, 'i')) return rebuilt(a.i[0], a.i[1], argument);
    if (hasOwn(a, 'o')) {
      const object = {};
      for (let i = 0; i < a.o.length; i++) object[a.o[i][0]] = argument(a.o[i][1]);
      return hasOwn(a, 'k') ? watching(a.k, object) : object;
    }
    // Read after the older keys, which then take as many steps as they always did: work is counted in
    // the engine's interrupt checks, and where a budget ends decides what is generated.
    if (hasOwn(a, 'h')) return printed(withLength(function () { return this; }, a.h), text);
    if (hasOwn(a, 'l')) return classes[a.l | 0];
    if (hasOwn(a, 'z')) return printed(written(a.z, argument), text);
    return +a.x;
  };
  // The classes of the program that calls of the last test returned new instances of, as
  // `statement:class` texts: what generation learns to bind results from (see `generate/returns.rs`).
  // JavaScript declares no return types; the first class of the program on the value's prototype chain
  // is its class. A value that is already a variable of the test (`return this`) is no new instance.
  const returned = [];
  const MAX_CHAIN = 16;
  const note = (value) => {
    if (typeof value === 'function') {
      noteFunction(value);
      return;
    }
    // A proxy's traps would see the walk (Node's test takes no such walk): never bound.
    if (value === null || typeof value !== 'object' || indexOf(vars, value) >= 0 || D.isProxy(value)) return;
    try {
      let p = getProto(value);
      for (let depth = 0; p !== null && depth < MAX_CHAIN; depth++, p = getProto(p)) {
        const c = classOf(p);
        if (c >= 0) {
          push(returned, at + ':' + c);
          return;
        }
      }
    } catch (_) {
      // A proxy's trap threw: not an instance a test can name.
    }
  };
  // A function of the code under test a call returned (an unsubscribe closure, a counter's `next`), as
  // a `statement:f<length>:<name>` text: later statements may call it, and only then does its code run.
  // Its text holds probes; the test's own callbacks, built-ins and bound functions show none, and a class
  // is no function to call. An async function's calls are awaited, here and in the suite (see
  // `MethodInfo::returned_asynchronous`); a generator's are not calls a test reads.
  const noteFunction = (f) => {
    if (indexOf(vars, f) >= 0 || D.isProxy(f)) return;
    try {
      const proto = getProto(f);
      if (proto !== P.FunctionProto && proto !== P.AsyncFunctionProto) return;
      const text = functionText(f);
      if (test(CLASS, text) || !test(PROBED, text)) return;
      // A class of the program written as a function (`function Point(x) { this.x = x; }`) is made with
      // `new`, not called.
      const prototype = dataOf(f, 'prototype');
      if (prototype !== null && typeof prototype === 'object' && classOf(prototype) >= 0) return;
      const name = dataOf(f, 'name');
      push(returned, at + ':f' + lengthOf(f) + ':' + (typeof name === 'string' ? name : ''));
    } catch (_) {
      // A proxy's trap threw: no function a test can name.
    }
  };
  // After a call: what it returned noted, and bound to the variable its statement names, if any
  // (`[1, receiver, method, args, underTest, result]`).
  const bind = (op, value) => {
    if (op[0] !== 1) return;
    note(value);
    if (op.length > 5 && op[5] >= 0) vars[op[5] | 0] = value;
  };
  // One statement; a call's result is its value.
  const perform = (op) => {
    if (op[0] === 0) {
      const instance = construct(classes[op[1] | 0], map(op[2], argument));
      vars[op[3] | 0] = instance;
      // The construction under test answers what it built, described as the variable it now is.
      if (op[4]) return instance;
    } else if (op[0] === 2) {
      vars[op[3] | 0] = rebuilt(op[1], op[2], argument);
    } else if (op[0] === 3) {
      inspect(op, at);
    } else if (op[2] === null) {
      // A function a call returned, called without a receiver (`off()`).
      return apply(vars[op[1] | 0], undefined, map(op[3], argument));
    } else {
      const receiver = vars[op[1] | 0];
      const method = receiver[op[2]];
      return apply(method, receiver, map(op[3], argument));
    }
  };
  // Whether a statement calls the method under test, or is the construction under test
  // (`[0, class, args, variable, 1]`, see `TestCase::constructed_under_test`).
  const underTest = (op) => (op[0] === 1 || op[0] === 0) && !!op[4];
  const start = (tested) => {
    const reuse = after !== null && after.length === vars.length;
    before = describing && tested ? (reuse ? after : states()) : null;
    after = null;
  };
  // After a call of the method under test: an iterator it returned is consumed (see `drain`), and
  // the result is described. An async iterator is consumed as jobs run: answers the promise of that,
  // settled with the iterator once consumed, for the test to await and then finish the call again with
  // what it gave; null otherwise (or when not to `consume`).
  const finish = (value, tested, consume = true) => {
    if (!tested) return null;
    let drained;
    if (drainedAsync !== null && drainedAsync.value === value) {
      drained = drainedAsync.drained;
      drained.asynchronous = true;
      drainedAsync = null;
    } else {
      drained = drain(value);
      if (drained === ASYNC_ITERATOR) {
        if (consume) return drainAsync(value);
        drained = null;
      }
    }
    if (describing) after = describeResult(at, value, drained, before);
    return null;
  };
  const failed = (e) => {
    timers.held();
    return hostAccess !== null ? hostFailure() : thrownAnswer(e, at);
  };
  // Calls of the method under test whose promises the test leaves un-awaited until its end (`deferred` in
  // `Statement::Call`, the call's seventh item): the exported test goes on to the calls that may settle
  // them (the `emit` a `once` waits for) and reads them at its end. Each entry: its statement, how it settled (0 pending,
  // 1 fulfilled, 2 rejected), its value, and the variables' states before the call (`before`).
  const deferred = [];
  // Whether the test ran its statements and waits for its deferred promises.
  let waiting = false;
  const isDeferred = (op) => op[0] === 1 && op.length > 6 && op[6] === 1;
  // A call the exported test awaits whatever it gives (the eighth item, see `TestCase::awaits_as_written`).
  const awaitsAsWritten = (op) => op[0] === 1 && op.length > 7 && op[7] === 1;
  // Keeps the promise of deferred statement `at`, a call of the method under test: the exported test
  // reads it at its end (see `suite/lines.rs`). Another call's promise is left alone, as the exported
  // test leaves it: its rejection is unhandled (see `__fc$unhandled`), as under Node.
  const defer = (promise) => {
    push(awaited, at);
    if (!underTest(ops[at])) return;
    const entry = { at, state: 0, value: undefined, before, read: false };
    const settle = (state) => (value) => {
      entry.state = state;
      entry.value = value;
      if (waiting) concludeDeferred(false);
    };
    P.promiseThen(promise, settle(1), settle(2));
    push(deferred, entry);
  };
  // The end of a test with deferred calls of the method under test, once every promise settled (or,
  // `quiet`, once no job or timer is left to settle the rest: see `__fc$quiet`): each is read in order,
  // as the exported test reads it at its end. A rejection ends the test at its statement; a result is
  // described, a promise still pending as pending (the state of the variables is the end's).
  const concludeDeferred = (quiet) => {
    if (settled !== null) return;
    for (let i = 0; i < deferred.length; i++) if (deferred[i].state === 0 && !quiet) return;
    waiting = false;
    try {
      for (let i = 0; i < deferred.length; i++) {
        const entry = deferred[i];
        at = entry.at;
        entry.read = true;
        if (entry.state === 2) {
          settled = failed(entry.value);
          return;
        }
        before = entry.before;
        // Its result is described as it is: the test's statements have all run.
        if (entry.state === 1) finish(entry.value, true, false);
        else if (describing) after = describeResult(at, undefined, null, before, true);
      }
      settled = ended();
    } catch (e) {
      settled = failed(e);
    }
  };
  // After the last statement: a test with deferred calls waits for them (Rust runs the jobs and the
  // timers, then asks `__fc$quiet`).
  const conclude = () => {
    if (deferred.length === 0) return ended();
    waiting = true;
    concludeDeferred(false);
    return settled === null ? ASYNC : settled;
  };
  // A call that returns a promise is awaited, as the exported test awaits it, and so is every later one
  // that returns a promise (but deferred ones); Rust runs the jobs until the test settles (or drops the
  // context).
  const awaitRest = async (pending) => {
    try {
      let value = await pending;
      let kept = false;
      for (;;) {
        if (!kept) {
          const consuming = finish(value, underTest(ops[at]));
          if (consuming !== null) finish(await consuming, true);
          bind(ops[at], value);
        }
        kept = false;
        if (++at >= ops.length) break;
        running[0] = at;
        start(underTest(ops[at]));
        value = perform(ops[at]);
        if (isPromise(value) || awaitsAsWritten(ops[at])) {
          if (isDeferred(ops[at])) {
            defer(value);
            kept = true;
          } else {
            push(awaited, at);
            value = await value;
          }
        }
      }
      const answer = conclude();
      if (answer !== ASYNC) settled = answer;
    } catch (e) {
      settled = failed(e);
    }
  };
  // Before a test: the random choices seeded, the clock, timers and logs cleared, no variable defined;
  // `salt` says what uninitialised memory holds (0 but in the runs that compare what a test asserts).
  const begin = (seed, describes, salt) => {
    state = seed >>> 0 || 1;
    uninitialized.reset(salt);
    try {
      deterministic(g, seed);
    } catch (_) {
      // The code under test made `Math.random` or `Date` unwritable; its own choice, not the test's end.
    }
    inexact.reset();
    timers.clear();
    hostAccess = null;
    // Most of these are empty already: reading a length is cheaper than setting one.
    if (log.length !== 0) log.length = 0;
    observer.reset();
    if (vars.length !== 0) vars.length = 0;
    if (results.length !== 0) results.length = 0;
    if (returned.length !== 0) returned.length = 0;
    at = 0;
    describing = describes;
    before = null;
    after = null;
    if (awaited.length !== 0) awaited.length = 0;
    if (deferred.length !== 0) deferred.length = 0;
    waiting = false;
    settled = null;
    draining = null;
    drainedAsync = null;
  };
  // What a test that ran to its end answers.
  const ended = () => {
    timers.held();
    return hostAccess === null ? '' : hostFailure();
  };
  hide('__fc$exec', (json, seed, describes, salt) => {
    begin(seed, describes, salt);
    ops = parse(json);
    try {
      for (; at < ops.length; at++) {
        running[0] = at;
        const tested = underTest(ops[at]);
        start(tested);
        const value = perform(ops[at]);
        if (isPromise(value) || awaitsAsWritten(ops[at])) {
          if (isDeferred(ops[at])) {
            defer(value);
            continue;
          }
          push(awaited, at);
          awaitRest(value);
          return ASYNC;
        }
        const consuming = finish(value, tested);
        if (consuming !== null) {
          awaitRest(consuming);
          return ASYNC;
        }
        bind(ops[at], value);
      }
      return conclude();
    } catch (e) {
      return failed(e);
    }
  });
  // The same steps for a test whose statements Rust performs itself (`sandbox/engine/direct.rs`), with
  // neither the JSON nor the interpretation of each statement here, which cost a fast test more than the
  // code under test did. `statement` is the index of the statement the step is about.
  hide('__fc$direct', P.freeze({
    __proto__: null,
    begin,
    // Before a statement of a test that describes its results, and after a call of the method under test.
    start: (statement, tested) => {
      at = statement;
      start(tested);
    },
    // Answers null, or the promise of consuming an async iterator, which the rest of the test awaits.
    finish: (value, statement) => {
      at = statement;
      return finish(value, true);
    },
    // After a call whose result is an object, or is bound: as the interpreter's `bind`, `result` the
    // variable it defines (-1: none).
    bind: (value, statement, result) => {
      at = statement;
      note(value);
      if (result >= 0) vars[result] = value;
    },
    vars,
    classes,
    recording,
    // What `flycatcher bench`'s bare loop passes where a test has a recording proxy: a value answering
    // every use as a recording proxy does (with inert values), recording nothing. Passing `{}`, the bare
    // test threw at the first use and measured less work than the candidate had done here. A member, not
    // a global of its own: defining one more global is one more call at install, which shifts the
    // interrupt counter's phase and so every later test's work count.
    standIn: () => inert(0),
    // An argument Rust does not build itself (a function, a date, an object...), in the JSON encoding.
    argument: (json) => argument(parse(json)),
    // A method of a receiver that is not an object, with the error `receiver[name]` throws for one.
    member: (receiver, name) => receiver[name],
    construct,
    apply,
    isPromise,
    ended,
    failed: (e, statement) => {
      at = statement;
      return failed(e);
    },
    // Statement `statement` returned a promise, or an async iterator whose consumption (`draining`) is under
    // way: the rest of the test (`json`, all of it) runs here.
    resume: (pending, json, statement) => {
      ops = parse(json);
      at = statement;
      if (draining === null) push(awaited, at);
      awaitRest(pending);
      return ASYNC;
    },
  }));
  // No job or timer is left while the test has not ended: a test that ran its statements and waits only
  // for deferred promises ends, those still pending read as pending (answers true); so does the
  // consumption of an async iterator waiting for an item nothing will give; any other waits for what never
  // comes (false).
  hide('__fc$quiet', () => {
    if (draining !== null) {
      draining.stop();
      return true;
    }
    if (!waiting || settled !== null) return false;
    concludeDeferred(true);
    return true;
  });
  // How an awaiting test ended ('' or an error as `__fc$exec` returns it), or null while it has not.
  // A test still pending that reached the host (a timer Node would wait for in real time) has ended.
  hide('__fc$settled', () => (settled === null && hostAccess !== null ? hostFailure() : settled));
  // Promises rejected while no handler waited on them, as the engine's rejection tracker reports them
  // (`sandbox/engine/mod.rs`): noted when one rejects with none, crossed out when a handler comes later.
  // Node fails a test that leaves one once its jobs have run (`unhandledRejection`): after such a test,
  // the engine runs the jobs and timers left and asks `__fc$unhandled()`, which answers '' or THREW with
  // the failure naming the first reason left (at the statement that ran last), and forgets them all.
  const rejections = [];
  hide('__fc$rejected', (promise, reason, handled) => {
    if (!handled) {
      push(rejections, promise, reason);
      return;
    }
    for (let i = 0; i < rejections.length; i += 2) {
      if (rejections[i] === promise) rejections[i] = rejections[i + 1] = null;
    }
  });
  // A timer's callback that threw (in the test, or firing after it: see `__fc$timers.nextLeft`) is an
  // uncaught exception under Node, which fails the test too; asked first. Asked after a test whose timers
  // may have fired.
  const noError = { __proto__: null };
  const whatOf = (reason) => {
    try {
      const name = reason !== null && typeof reason === 'object' ? reason.name : undefined;
      const message = typeof name === 'string' ? reason.message : undefined;
      if (typeof message === 'string') return name + ': ' + message;
    } catch (_) {}
    return 'a value that is no error';
  };
  hide('__fc$unhandled', () => {
    let answer = '';
    const uncaught = timers.uncaught(noError);
    if (uncaught !== noError) answer = threw('UncaughtException', whatOf(uncaught), origin(uncaught), running[0]);
    for (let i = 0; i < rejections.length && answer === ''; i += 2) {
      if (rejections[i] === null) continue;
      const reason = rejections[i + 1];
      answer = threw('UnhandledRejection', whatOf(reason), origin(reason), running[0]);
    }
    rejections.length = 0;
    // A deferred promise the test never came to read (it threw first, or read an earlier one that
    // rejected) is one the exported test leaves alone: the handler the harness gave it is not the suite's.
    for (let i = 0; i < deferred.length && answer === ''; i++) {
      const entry = deferred[i];
      if (entry.state === 2 && !entry.read) {
        answer = threw('UnhandledRejection', whatOf(entry.value), origin(entry.value), running[0]);
      }
    }
    if (answer === '') {
      // A timer fired after the test (see `nextLeft`) may have armed another past the wait Node's runners
      // allow: a timer that re-arms itself from its callback holds Node's process for ever.
      timers.held();
      if (hostAccess !== null) answer = hostFailure();
    }
    return answer;
  });
  // The statements whose promises the last test awaited, comma-separated.
  hide('__fc$awaited', () => P.join(awaited, ','));
  // The classes calls of the last test returned new instances of, `statement:class` texts: Rust reads
  // the array itself (`sandbox/engine/run.rs`), and most tests leave it empty, where calling for the
  // text joined here cost a call and a string after every test.
  hide('__fc$returned', returned);
  // The proxies' and patterns' log itself: Rust reads its array (`sandbox/engine/log.rs`).
  hide('__fc$log', log);
  // The descriptions themselves: Rust reads their objects (`sandbox/engine/results.rs`).
  hide('__fc$results', results);

  // CommonJS: factories registered by the loader, instantiated on first `require`, like Node does.
  const factories = [];
  const cache = [];
  // ES modules' namespaces, by file: the loader fills them (and an ES module CommonJS requires is
  // evaluated before any given file starts, see `load_program`).
  const namespaces = [];
  // What `require` of an ES module gives under Node: its `'module.exports'` export when it has one;
  // otherwise the namespace, seen through a facade that adds `__esModule` when there is a default export
  // (so that code compiled from TypeScript reads `.default` as it does under Node).
  const moduleTag = Symbol.toStringTag;
  const requiredNamespace = (ns) => {
    if (hasOwn(ns, 'module.exports')) return ns['module.exports'];
    if (!hasOwn(ns, 'default') || hasOwn(ns, '__esModule')) return ns;
    const facade = P.create(null);
    defineProperty(facade, '__esModule', { value: true, enumerable: true });
    const names = P.keys(ns);
    for (let k = 0; k < names.length; k++) {
      const name = names[k];
      defineProperty(facade, name, { get: () => ns[name], enumerable: true });
    }
    defineProperty(facade, moduleTag, { value: 'Module' });
    return P.freeze(facade);
  };
  const requireFile = (i) => {
    if (cache[i]) return cache[i].exports;
    const f = factories[i];
    if (f === undefined) {
      if (namespaces[i] === undefined) {
        throw new ErrorCtor('internal: the file required (#' + i + ') was loaded neither as CommonJS nor as an ES module');
      }
      cache[i] = { exports: requiredNamespace(namespaces[i]) };
      return cache[i].exports;
    }
    const module = { exports: {}, id: f.filename, filename: f.filename, loaded: false };
    cache[i] = module;
    const localRequire = (spec) => {
      const target = hasOwn(f.deps, spec) ? f.deps[spec] : undefined;
      if (typeof target !== 'number') {
        // A string says why a literal specifier resolved to nothing; code that tries an optional
        // dependency tells this error by its code, as under Node.
        const error = new ErrorCtor(typeof target === 'string' ? target : "Cannot find module '" + spec +
          "' from '" + f.filename + "': the sandbox only loads the files a literal require names");
        error.code = 'MODULE_NOT_FOUND';
        throw error;
      }
      return requireFile(target);
    };
    apply(f.factory, module.exports, [module.exports, localRequire, module, f.filename, f.dirname]);
    module.loaded = true;
    return module.exports;
  };
  hide('__fc$defineModule', (i, factory, filename, dirname, deps) => {
    factories[i] = { factory, filename, dirname, deps };
  });
  hide('__fc$require', requireFile);
  // Record mode replaces a class that is a module's whole `module.exports` by its recording wrapper.
  hide('__fc$setExports', (i, value) => {
    requireFile(i);
    cache[i].exports = value;
  });
  hide('__fc$ns', namespaces);

  // Discovery: the analyser asks what a value defines. Functions are located by the coverage probes in
  // their source text (Function.prototype.toString returns the instrumented code): Rust takes the
  // outermost function probed there, or, for a `class`, its constructor among its members.
  const PROBES = /__fc\$s\[(\d+)\]/g;
  const PROBED = /__fc\$s\[\d+\]/;
  const { exec, functionText } = P;
  const test = (pattern, text) => exec(pattern, text) !== null;
  const probesOf = (f) => {
    const found = [];
    try {
      const text = functionText(f);
      PROBES.lastIndex = 0;
      for (let m = exec(PROBES, text); m !== null; m = exec(PROBES, text)) push(found, +m[1]);
    } catch (_) {
      // Not a function with a text: no probes.
    }
    return found;
  };
  // A class is a `class`, a function with prototype methods, or a constructor without methods that
  // sets fields on `this` (like a linked list's Node): such classes matter as parameter types.
  const SETS_FIELD = /\bthis\s*\.\s*[\w$]+\s*=[^=]/;
  const CLASS = /^class[\s{]/;
  // A function of the code under test may be a proxy whose traps throw (revoked): not a class then.
  const isClassLike = (f) => {
    try {
      if (typeof f !== 'function' || !f.prototype) return false;
      const text = functionText(f);
      if (test(CLASS, text)) return true;
      const members = P.names(f.prototype);
      for (let i = 0; i < members.length; i++) if (members[i] !== 'constructor') return true;
      return test(SETS_FIELD, text);
    } catch (_) {
      return false;
    }
  };
  // A member read that runs no getter, or `undefined`.
  const dataOf = (o, key) => {
    try {
      const d = descriptor(o, key);
      return d && hasOwn(d, 'value') ? d.value : undefined;
    } catch (_) {
      return undefined;
    }
  };
  const lengthOf = (f) => {
    const length = dataOf(f, 'length');
    return typeof length === 'number' ? length : 0;
  };
  // Some constructors define their methods on `this`: build instances to see them. Constructors that
  // validate their arguments may reject inert ones, so a few kinds of arguments are tried.
  const ARGUMENT_KINDS = [() => inert(0), () => 1, () => 'a', () => inert(0), () => true];
  const constructorMethods = (f) => {
    const own = [];
    const ownNames = [];
    const fields = [];
    for (let kind = 0; kind < ARGUMENT_KINDS.length; kind++) {
      const argument = ARGUMENT_KINDS[kind];
      let instance;
      try {
        const args = [];
        const length = lengthOf(f);
        for (let i = 0; i < length; i++) push(args, argument());
        instance = construct(f, args);
      } catch (_) {
        continue;
      }
      ownMembers(instance, own, ownNames, fields);
    }
    return { own, fields };
  };
  // Adds the own members of `instance` not listed yet to its methods (`own`, named in `ownNames`) or its
  // fields; answers whether its members could be read.
  const ownMembers = (instance, own, ownNames, fields) => {
    let names;
    try {
      names = P.names(instance);
    } catch (_) {
      return false;
    }
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      if (k === 'constructor' || indexOf(ownNames, k) >= 0 || indexOf(fields, k) >= 0) continue;
      const value = dataOf(instance, k);
      if (typeof value === 'function' && !P.weakSetHas(inertProxies, value)) {
        push(ownNames, k);
        push(own, { name: k, probes: probesOf(value), length: lengthOf(value) });
      } else {
        push(fields, k);
      }
    }
    return true;
  };
  // Whether `p` is a built-in prototype (Map's, Array's): classes are walked up to the first one, since
  // its methods differ between engines and are not the code under test. A native function's text ends
  // so, which no source can: a class whose code tests for native functions (`/\[native code\]/.test(f)`,
  // as libraries' `isNative` helpers do) was taken for a built-in, and its methods were never tested.
  const NATIVE = /\(\) \{\n {4}\[native code\]\n\}$/;
  const builtIn = (p) => {
    const constructor = dataOf(p, 'constructor');
    try {
      return typeof constructor === 'function' && test(NATIVE, functionText(constructor));
    } catch (_) {
      return false;
    }
  };
  // Whether `value` is an instance of `f` (its prototype on the value's chain), a proxy being none.
  const instanceOf = (value, f) => {
    if (value === null || typeof value !== 'object' || D.isProxy(value)) return false;
    try {
      const prototype = dataOf(f, 'prototype');
      let p = getProto(value);
      for (let depth = 0; p !== null && depth < 16; depth++, p = getProto(p)) if (p === prototype) return true;
    } catch (_) {
      // A proxy's trap threw: no instance a test can name.
    }
    return false;
  };
  // Whether calls of the static method `m` of `f` make instances of `f`: called as a factory is tried
  // (no arguments, then inert values, numbers or strings), the first answer that is one tells.
  const makesInstances = (f, m) => {
    for (let kind = 0; kind < FACTORY_ARGUMENTS.length; kind++) {
      try {
        if (instanceOf(apply(m, f, factoryArguments(kind, m)), f)) return true;
      } catch (_) {
        // Arguments of another kind, maybe.
      }
    }
    return false;
  };
  // The static functions discovery found, as [class, function]: whether calls of the `i`th make
  // instances of its class is asked after the walk (`__fc$discoverStaticMade`), each call under a time
  // limit of its own, since a call may loop (lunr's lexer states loop over an inert lexer): inside the
  // walk, one such call ended the whole discovery.
  const staticTrials = [];
  // The own static members of class `f` (class statics are not enumerable, so the walk does not meet
  // them): its functions that are no class, each with the trial that tells whether its calls make
  // instances of `f` (`made`, answered later), and the getters and data fields whose value is an
  // instance of `f` (`property`), other ways to make one.
  const STATIC_SKIPPED = ['length', 'name', 'prototype', 'arguments', 'caller'];
  const staticMembers = (f) => {
    const statics = [];
    let names;
    try {
      names = P.names(f);
    } catch (_) {
      return statics;
    }
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      if (indexOf(STATIC_SKIPPED, k) >= 0) continue;
      try {
        const d = descriptor(f, k);
        if (typeof d.get === 'function') {
          if (instanceOf(apply(d.get, f, []), f)) push(statics, { name: k, probes: [], length: 0, made: true, property: true });
        } else if (typeof d.value === 'function' && !isClassLike(d.value) && !P.weakSetHas(inertProxies, d.value)) {
          push(staticTrials, [f, d.value]);
          push(statics, { name: k, probes: probesOf(d.value), length: lengthOf(d.value), made: false, trial: staticTrials.length - 1, property: false });
        } else if (instanceOf(d.value, f)) {
          push(statics, { name: k, probes: [], length: 0, made: true, property: true });
        }
      } catch (_) {
        // A member that cannot be read is none a test can use.
      }
    }
    return statics;
  };
  const describeClass = (f) => {
    const methods = [];
    const accessors = [];
    const functions = [];
    const seenNames = [];
    let proto = dataOf(f, 'prototype');
    let depth = 0;
    try {
      while (proto && proto !== ObjectProto && proto !== P.FunctionProto && !builtIn(proto)) {
        const names = P.names(proto);
        for (let i = 0; i < names.length; i++) {
          const k = names[i];
          if (k === 'constructor' || indexOf(seenNames, k) >= 0) continue;
          push(seenNames, k);
          const d = descriptor(proto, k);
          if (d.get || d.set) push(accessors, k);
          else if (typeof d.value === 'function') {
            // The same function object under a second name (`absoluteValue = abs`) is an alias.
            const first = indexOf(functions, d.value);
            push(functions, d.value);
            push(methods, {
              name: k, probes: probesOf(d.value), length: lengthOf(d.value), depth,
              alias: first >= 0 ? methods[first].name : null,
            });
          }
        }
        proto = getProto(proto);
        depth++;
      }
    } catch (_) {
      // A prototype chain that cannot be read further (a proxy of the code under test) ends here.
    }
    let parent = null;
    try {
      const prototype = dataOf(f, 'prototype');
      parent = prototype ? getProto(prototype) : null;
    } catch (_) {
      // As above.
    }
    const built = constructorMethods(f);
    const statics = staticMembers(f);
    const name = dataOf(f, 'name');
    let text = '';
    try {
      text = functionText(f);
    } catch (_) {
      // Not a function with a text.
    }
    return {
      name: typeof name === 'string' ? name : '', probes: probesOf(f),
      is_class: test(CLASS, text),
      length: lengthOf(f), methods, accessors,
      own: built.own, fields: built.fields, statics, parent: parent && parent !== ObjectProto ? parent : null,
    };
  };
  // Walks `roots` ([path, value] pairs) through plain objects (namespaces) and returns the classes found.
  // Functions met on the walk that are not classes: factories, maybe, of classes the module never exports
  // (`module.exports = createTree`), which `__fc$discoverMade` tries one by one.
  const plainFunctions = [];
  // Everything the walk met: what a function returns that is one of these is not a new object.
  let seen = new P.Set();
  // Constructors sharing one prototype are one class: jQuery's `init` pattern (`jStat()` answers
  // `new jStat._init(arguments)`, whose prototype is `jStat.prototype`) makes the same instances through
  // both. The class is kept once, under the constructor its prototype names, else the one met first (the
  // walk meets a namespace before its members), so tests never reach it by an initializer's private name.
  const oneByPrototype = (classes) => {
    const kept = [];
    const byPrototype = new P.Map();
    for (let i = 0; i < classes.length; i++) {
      const proto = dataOf(classes[i].value, 'prototype');
      const at = P.mapGet(byPrototype, proto);
      if (at === undefined) {
        P.mapSet(byPrototype, proto, kept.length);
        push(kept, classes[i]);
      } else if (dataOf(proto, 'constructor') === classes[i].value) {
        kept[at] = classes[i];
      }
    }
    return kept;
  };
  hide('__fc$discover', (roots, maxDepth) => {
    const found = [];
    const instances = [];
    seen = new P.Set();
    plainFunctions.length = 0;
    staticTrials.length = 0;
    // `inClass`: the value is a member of a class (a static method), not of a module or a namespace.
    const walk = (path, value, depth, inClass) => {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function') || P.setHas(seen, value)) return;
      P.setAdd(seen, value);
      const classLike = isClassLike(value);
      if (classLike) {
        push(found, { path, value });
      } else if (typeof value === 'function') {
        push(plainFunctions, { path, value, inClass });
      }
      if (depth >= maxDepth) return;
      let names;
      try {
        const proto = typeof value === 'object' ? getProto(value) : null;
        if (typeof value === 'object' && proto !== ObjectProto && proto !== null) {
          // An instance a module exports (`module.exports = new Jexl()`): its class, reached as
          // `.constructor`, is what users make more of (the instance's own members are its state).
          if (!builtIn(proto)) push(instances, { path, proto });
          return;
        }
        names = P.keys(value);
      } catch (_) {
        return;
      }
      if (typeof value === 'function' && !isClassLike(value) && names.length === 0) return;
      for (let i = 0; i < names.length; i++) {
        let child;
        try {
          const d = descriptor(value, names[i]);
          // Compiled modules export through getters: TypeScript's and Babel's `Object.defineProperty(exports,
          // 'X', { enumerable: true, get })`, `__exportStar`, esbuild's `__export`, webpack's `__webpack_require__.d`.
          if (d && typeof d.get === 'function') child = apply(d.get, value, []);
          else if (d && hasOwn(d, 'value')) child = d.value;
          else continue;
        } catch (_) {
          continue;
        }
        const deeper = map(path, (step) => step);
        push(deeper, names[i]);
        walk(deeper, child, depth + 1, classLike);
      }
    };
    for (let i = 0; i < roots.length; i++) walk(roots[i][0], roots[i][1], 0, false);
    // After the walk, so that a class the module also exports by name keeps that name's path.
    for (let i = 0; i < instances.length; i++) {
      const c = dataOf(instances[i].proto, 'constructor');
      if (P.setHas(seen, c) || !isClassLike(c) || dataOf(c, 'prototype') !== instances[i].proto) continue;
      P.setAdd(seen, c);
      const path = map(instances[i].path, (step) => step);
      push(path, 'constructor');
      push(found, { path, value: c });
    }
    const infos = map(oneByPrototype(found), ({ path, value }) => {
      push(classes, value);
      return { path, index: classes.length - 1, info: describeClass(value), parent: -1 };
    });
    for (let i = 0; i < infos.length; i++) {
      const c = infos[i];
      c.parent = c.info.parent ? classOf(c.info.parent) : -1;
      delete c.info.parent;
    }
    // The plain functions are the methods of modules of functions too, unless they make a class.
    const functions = map(plainFunctions, ({ path, value, inClass }) => {
      const name = dataOf(value, 'name');
      return { path, name: typeof name === 'string' ? name : '', probes: probesOf(value), length: lengthOf(value), in_class: inClass };
    });
    return stringify({ classes: infos, functions });
  });

  // Classes reached only through a factory: a plain function the walk met is called (with no arguments,
  // then with as many inert values, numbers or strings as it declares) and the prototype of what it
  // returns followed to its class. Tests then make instances by calling the factory, as users do.
  // Kinds past these give inert values to the first parameters only, one more each: a factory whose later
  // parameters are optional may refuse them given (an extension that must not come with another, as
  // `createStore(reducer, preloadedState, enhancer)` refuses two functions), and inert values are functions.
  const FACTORY_ARGUMENTS = [() => [], () => inert(0), () => 1, () => 'a'];
  const factoryArguments = (kind, f) => {
    const args = [];
    const given = kind < FACTORY_ARGUMENTS.length ? lengthOf(f) : kind - FACTORY_ARGUMENTS.length + 1;
    const value = FACTORY_ARGUMENTS[kind < FACTORY_ARGUMENTS.length ? kind : 1];
    for (let i = 0; kind > 0 && i < given; i++) push(args, value());
    return args;
  };
  const madeClass = (made) => {
    if (made === null || typeof made !== 'object') return null;
    const proto = getProto(made);
    if (proto === null || proto === ObjectProto || builtIn(proto)) return null;
    const d = descriptor(proto, 'constructor');
    const c = d && d.value;
    if (typeof c === 'function' && c.prototype === proto) return isClassLike(c) ? c : null;
    return d === undefined ? standIn(proto) : null;
  };
  // A prototype made by `Object.create(Base.prototype)` and filled member by member, with no `constructor`
  // of its own, and no constructor the module lets out (ES5 libraries whose factory picks one of several
  // hidden representations): the class is that prototype, carried by a constructor of ours that is never
  // called (tests build through the factory) and named as Node names its instances' class, after the
  // constructor the prototype inherits (a prototype object of its own, `Object.create(shape)`, by the module).
  const standIn = (proto) => {
    const names = P.names(proto);
    let methods = false;
    for (let i = 0; i < names.length; i++) if (typeof dataOf(proto, names[i]) === 'function') methods = true;
    if (!methods) return null;
    let inherited;
    for (let p = getProto(proto); p !== null && p !== ObjectProto && inherited === undefined; p = getProto(p)) inherited = dataOf(p, 'constructor');
    const name = typeof inherited === 'function' ? dataOf(inherited, 'name') : '';
    const carrier = function () {};
    P.defineProperty(carrier, 'name', { __proto__: null, value: typeof name === 'string' ? name : '' });
    P.defineProperty(carrier, 'prototype', { __proto__: null, value: proto });
    return carrier;
  };
  // An object of closures a factory makes (`createGraph()` answering `{ addNode() {...}, ... }`): a plain
  // object, new at every call (no singleton, not an object the walk met), whose function members are not
  // all functions the walk met already (an object of the module's own functions holds no state of its own).
  const madeObject = (factory, kind, made) => {
    if (made === null || typeof made !== 'object' || D.isProxy(made) || P.setHas(seen, made)) return null;
    const proto = getProto(made);
    if (proto !== ObjectProto && proto !== null) return null;
    const own = [];
    const ownNames = [];
    const fields = [];
    if (!ownMembers(made, own, ownNames, fields)) return null;
    let fresh = false;
    for (let i = 0; i < ownNames.length; i++) if (!P.setHas(seen, dataOf(made, ownNames[i]))) fresh = true;
    if (!fresh || apply(factory, undefined, factoryArguments(kind, factory)) === made) return null;
    return { name: '', probes: probesOf(factory), is_class: false, length: lengthOf(factory), methods: [], accessors: [], own, fields };
  };
  const factoryInfo = (factory, kind, plain) => {
    const name = dataOf(factory, 'name');
    return { kind, name: typeof name === 'string' ? name : '', probes: probesOf(factory), length: lengthOf(factory), plain };
  };
  // The kinds of arguments discovery calls a function with, in order. Inert arguments answer `length` at
  // random, so a factory refusing an empty list may refuse one try and accept the next: when no kind made
  // anything, inert ones are tried again; then inert values for fewer parameters than `f` declares, from
  // the first alone up.
  const DISCOVERY_KINDS = [0, 1, 2, 3, 1, 1, 1];
  const discoveryKinds = (f) => {
    const kinds = map(DISCOVERY_KINDS, (k) => k);
    for (let given = 1; given < lengthOf(f); given++) push(kinds, FACTORY_ARGUMENTS.length + given - 1);
    return kinds;
  };
  hide('__fc$discoverMade', (i) => {
    const { path, value: factory, inClass } = plainFunctions[i];
    const kinds = discoveryKinds(factory);
    for (let attempt = 0; attempt < kinds.length; attempt++) {
      const kind = kinds[attempt];
      let c;
      try {
        const made = apply(factory, undefined, factoryArguments(kind, factory));
        c = madeClass(made);
        const object = c === null && !inClass ? madeObject(factory, kind, made) : null;
        if (object !== null) {
          // The unit is what the factory makes; its entry in the class table stands for no prototype.
          push(classes, factory);
          return stringify({ path, index: classes.length - 1, info: object, parent: -1, factory: factoryInfo(factory, kind, true) });
        }
      } catch (_) {
        continue;
      }
      if (c === null) continue;
      // Known already, maybe under another constructor sharing its prototype (`dayjs.prototype = Dayjs.prototype`).
      for (let k = 0; k < classes.length; k++) {
        const known = classes[k];
        if (known === c || (known && dataOf(known, 'prototype') === dataOf(c, 'prototype'))) return '';
      }
      push(classes, c);
      const info = describeClass(c);
      const parent = info.parent ? classOf(info.parent) : -1;
      delete info.parent;
      return stringify({ path, index: classes.length - 1, info, parent, factory: factoryInfo(factory, kind, false) });
    }
    return '';
  });
  hide('__fc$discoverStaticMade', (i) => makesInstances(staticTrials[i][0], staticTrials[i][1]));
  // What a test builds a factory's class with: a function whose `prototype` is that of the factory's
  // instances (results are told apart by prototype) and whose construction calls the factory. What makes
  // plain objects (`plain`) keeps a prototype of its own, which no value has: a plain object is no
  // instance of it.
  hide('__fc$viaFactory', (factory, kind, plain) => {
    const made = function () {
      return apply(factory, undefined, arguments);
    };
    if (!plain) made.prototype = madePrototype(factory, kind);
    return made;
  });
  // The prototype of what `factory` makes, asked again in a new context. Inert arguments answer
  // `length` at random, so the kind of arguments that made an instance during discovery may throw now
  // (a factory that refuses an empty list): the discovered kind is tried first, then discovery's kinds.
  // Binding never throws: a factory that refuses everything now gets a prototype of its own, and its
  // tests build what they call through the factory itself.
  const madePrototype = (factory, kind) => {
    const kinds = discoveryKinds(factory);
    for (let attempt = -1; attempt < kinds.length; attempt++) {
      const k = attempt < 0 ? kind : kinds[attempt];
      try {
        const proto = getProto(apply(factory, undefined, factoryArguments(k, factory)));
        if (proto !== null && proto !== ObjectProto) return proto;
      } catch (_) {
        // Another kind, or the same one with other lengths.
      }
    }
    return {};
  };
  // What a module of functions is bound as: `new` of it makes the object a test calls the functions on
  // (`names[i]` being `functions[i]`), each called without a receiver, as a suite calls `parse(text)`.
  // The static members of a class (`holder`) are called on it, as a suite calls `Point.parse(text)`; one
  // that is a property (`properties[i]`: a getter or a field) is read, as `Point.ORIGIN`.
  hide('__fc$moduleFunctions', (names, functions, holder, properties) => function () {
    const module = {};
    for (let i = 0; i < names.length; i++) {
      const f = functions[i];
      const name = names[i];
      const property = properties !== undefined && properties[i];
      P.defineProperty(module, name, {
        __proto__: null,
        value: function () {
          return property ? holder[name] : apply(f, holder, arguments);
        },
        enumerable: true,
      });
    }
    return module;
  });
})(globalThis);
