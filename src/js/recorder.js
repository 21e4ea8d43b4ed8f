// Flycatcher's recorder (record mode only): wraps the program's classes so that every construction and
// method call the entry script makes is logged with its arguments, the receiver's fields before and
// after, and its result or thrown value. Calls made from inside a recorded call are the code's own
// business and are not logged: only the outermost calls are what a replay test repeats. Objects a call
// receives that have methods of their own (and are not recorded instances) are watched while the call
// runs: their answers become the stubs of replay tests.
(function (g) {
  'use strict';
  const classes = g.__fc$C;
  // Built-ins as they were before user code ran (see `js/primordials.js` for the rules): the recorder
  // is installed after the program loaded, which may have patched them already.
  const P = g.__fc$P;
  const { getProto, descriptor, defineProperty, isArray, apply, construct, ObjectProto, indexOf, push, map } = P;
  const stringify = P.json;
  // The clock is fixed by the harness, but dates built by the entry are real dates all the same.
  const DateProto = P.DateProto;

  const events = [];
  const ids = new P.WeakMap();
  let objects = 0;
  let depth = 0;
  let limit = Infinity;
  const counts = new P.Map();
  const skipped = new P.WeakSet();
  const has = (v) => P.weakMapHas(ids, v);

  // Values in the harness's description format, made by Rust (`sandbox/engine/describe/`) and
  // handed over as JSON, with `ref` for recorded instances; deep or huge structures are cut rather
  // than copied whole. A value Rust cannot hold (a lone surrogate) is unreadable.
  const D = g.__fc$describe;
  const encoder = D.make({
    __proto__: null,
    classes,
    recorded: (v) => (has(v) ? P.weakMapGet(ids, v) : -1),
    maxDepth: 4,
    maxItems: 100,
    maxNodes: 2000,
    cycles: false,
    complete: false,
    exactDates: true,
  });
  const classOf = (proto) => D.classOf(encoder, proto);
  const value = (v) => {
    const json = D.json(encoder, v);
    return json === undefined ? { t: 'unreadable' } : P.parse(json);
  };
  const state = (o) => P.parse(D.fields(encoder, o));
  const thrown = (e) => {
    try {
      if (e !== null && typeof e === 'object') {
        const name = e.name;
        const message = e.message;
        if (typeof name === 'string' && typeof message === 'string') return { error: true, name, message };
      }
    } catch (_) {
      // An exception whose name cannot be read is described as a value.
    }
    return { error: false, value: value(e) };
  };

  // Whether an object talks back: it (or a prototype below Object.prototype) has a method.
  const hasMethods = (o) => {
    for (let p = o; p !== null && p !== ObjectProto; p = getProto(p)) {
      const names = P.names(p);
      for (let i = 0; i < names.length; i++) {
        const k = names[i];
        if (k === 'constructor') continue;
        const d = descriptor(p, k);
        if (d && typeof d.value === 'function') return true;
      }
    }
    return false;
  };
  // Watches an argument that the call may talk to: a callback, or an object with methods that is not a
  // recorded instance (those are rebuilt by replay instead).
  const watched = (argument, index, stubs) => {
    if (argument === null || (typeof argument !== 'object' && typeof argument !== 'function')) return argument;
    if (has(argument)) return argument;
    if (typeof argument === 'function') {
      if (indexOf(classes, argument) >= 0) return argument;
      const answers = [];
      push(stubs, { argument: index, answers });
      return function (...args) {
        const result = apply(argument, this, args);
        push(answers, value(result));
        return result;
      };
    }
    if (isArray(argument) || getProto(argument) === DateProto || !hasMethods(argument)) return argument;
    const calls = [];
    push(stubs, { argument: index, fields: state(argument), calls });
    return new P.Proxy(argument, {
      __proto__: null,
      get(target, key) {
        const member = target[key];
        if (typeof member !== 'function' || typeof key === 'symbol') return member;
        return function (...args) {
          const result = apply(member, target, args);
          push(calls, [key, value(result)]);
          return result;
        };
      },
    });
  };

  const counted = (c, name) => {
    const key = c + '\n' + name;
    const n = P.mapGet(counts, key) || 0;
    if (n >= limit) return false;
    P.mapSet(counts, key, n + 1);
    return true;
  };

  const wrapMethod = (c, name, original) => {
    const wrapper = function (...args) {
      if (depth > 0 || this === null || (typeof this !== 'object' && typeof this !== 'function')) {
        return apply(original, this, args);
      }
      const object = has(this) ? P.weakMapGet(ids, this) : -1;
      if (!counted(c, name)) {
        // A later replay of this object would miss what this call did to it (said once per object).
        if (object >= 0 && !P.weakSetHas(skipped, this)) {
          P.weakSetAdd(skipped, this);
          push(events, { k: 'skip', object });
        }
        return apply(original, this, args);
      }
      // The class that defines the method: an inherited method is that class's method under test.
      // Prototype-less: fields are added below, and no setter of `Object.prototype` may see them.
      const event = {
        __proto__: null, k: 'call', object, class: c, method: name,
        args: map(args, value), before: state(this), stubs: [],
      };
      // The receiver's own class: a replay may rebuild it from its fields.
      const own = classOf(getProto(this));
      if (own >= 0) event.receiver = own;
      const passed = map(args, (a, i) => watched(a, i, event.stubs));
      depth++;
      try {
        const result = apply(original, this, passed);
        depth--;
        event.returned = value(result);
        event.after = state(this);
        push(events, event);
        return result;
      } catch (e) {
        depth--;
        event.threw = thrown(e);
        event.after = state(this);
        push(events, event);
        throw e;
      }
    };
    defineProperty(wrapper, 'name', { __proto__: null, value: original.name });
    defineProperty(wrapper, 'length', { __proto__: null, value: original.length });
    return wrapper;
  };

  const wrapMembers = (target, c, names) => {
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const d = descriptor(target, name);
      if (!d || typeof d.value !== 'function' || (!d.writable && !d.configurable)) continue;
      const wrapped = wrapMethod(c, name, d.value);
      if (d.configurable) {
        defineProperty(target, name, {
          __proto__: null, value: wrapped, writable: d.writable, enumerable: d.enumerable, configurable: true,
        });
      } else {
        target[name] = wrapped;
      }
    }
  };

  // Constructors are replaced by proxies wherever the program binds them (see Rust's `bind`): `new`
  // through a proxy is recorded; `instanceof`, statics and `prototype` pass through.
  const ownMethods = [];
  const constructors = [];
  const constructorFor = (c) => {
    if (constructors[c]) return constructors[c];
    const target = classes[c];
    constructors[c] = new P.Proxy(target, {
      __proto__: null,
      construct(t, args, newTarget) {
        const outer = depth === 0;
        if (!outer) return construct(t, args, newTarget === constructors[c] ? t : newTarget);
        const event = { __proto__: null, k: 'new', object: -1, class: c, args: map(args, value), stubs: [] };
        const passed = map(args, (a, i) => watched(a, i, event.stubs));
        depth++;
        let instance;
        try {
          instance = construct(t, passed, newTarget === constructors[c] ? t : newTarget);
        } catch (e) {
          depth--;
          event.threw = thrown(e);
          push(events, event);
          throw e;
        }
        depth--;
        if (instance !== null && typeof instance === 'object') {
          event.object = objects++;
          P.weakMapSet(ids, instance, event.object);
          if (ownMethods[c]) wrapMembers(instance, c, ownMethods[c]);
          event.after = state(instance);
        }
        push(events, event);
        return instance;
      },
    });
    return constructors[c];
  };

  const api = {
    // Wraps the prototype methods of every class; `own` lists, per class, the methods its constructor
    // defines on instances (wrapped on each recorded instance).
    install(config) {
      limit = config.limit;
      for (let c = 0; c < classes.length; c++) {
        ownMethods[c] = config.own[c] || [];
        if (classes[c] && classes[c].prototype) wrapMembers(classes[c].prototype, c, config.methods[c] || []);
      }
    },
    constructorFor,
    // What an ES module's recording view exports instead of `value`.
    exported(value) {
      const c = typeof value === 'function' ? indexOf(classes, value) : -1;
      return c >= 0 ? constructorFor(c) : value;
    },
    take() {
      return stringify(events);
    },
  };
  defineProperty(g, '__fc$recorder', { __proto__: null, value: api, enumerable: false });
})(globalThis);
