// Flycatcher's recorder (record mode only): wraps the program's classes so that every construction and
// method call the entry script makes is logged with its arguments, the receiver's fields before and
// after, and its result or thrown value. Calls made from inside a recorded call are the code's own
// business and are not logged: only the outermost calls are what a replay test repeats. Objects a call
// receives that have methods of their own (and are not recorded instances) are watched while the call
// runs: their answers become the stubs of replay tests.
(function (g) {
  'use strict';
  const classes = g.__fc$C;
  const stringify = JSON.stringify;
  const getProto = Object.getPrototypeOf;
  const descriptor = Object.getOwnPropertyDescriptor;
  const defineProperty = Object.defineProperty;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const reflectGet = Reflect.get;
  const ObjectProto = Object.prototype;
  // The clock is fixed by the harness, but dates built by the entry are real dates all the same.
  const DateProto = Date.prototype;

  const events = [];
  const ids = new WeakMap();
  let objects = 0;
  let depth = 0;
  let limit = Infinity;
  const counts = new Map();
  const skipped = new WeakSet();

  const indexOf = (list, value) => {
    for (let i = 0; i < list.length; i++) if (list[i] === value) return i;
    return -1;
  };

  // Values in the harness's description format (see `js/describe.js`), with `ref` for recorded
  // instances; deep or huge structures are cut rather than copied whole.
  const encoder = g.__fc$describer({
    classes,
    known: (v) => (ids.has(v) ? { t: 'ref', i: ids.get(v) } : null),
    maxDepth: 4,
    maxItems: 100,
    maxNodes: 2000,
    cycles: false,
    complete: false,
    exactDates: true,
  });
  const classOf = encoder.classOf;
  const value = (v) => encoder.value(v, 0);
  const state = encoder.fields;
  const thrown = (e) => {
    try {
      if (e !== null && typeof e === 'object' && typeof e.name === 'string' && typeof e.message === 'string') {
        return { error: true, name: e.name, message: e.message };
      }
    } catch (_) {
      // An exception whose name cannot be read is described as a value.
    }
    return { error: false, value: value(e) };
  };

  // Whether an object talks back: it (or a prototype below Object.prototype) has a method.
  const hasMethods = (o) => {
    for (let p = o; p !== null && p !== ObjectProto; p = getProto(p)) {
      for (const k of Object.getOwnPropertyNames(p)) {
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
    if (ids.has(argument)) return argument;
    if (typeof argument === 'function') {
      if (indexOf(classes, argument) >= 0) return argument;
      const answers = [];
      stubs.push({ argument: index, answers });
      return function (...args) {
        const result = apply(argument, this, args);
        answers.push(value(result));
        return result;
      };
    }
    if (isArray(argument) || getProto(argument) === DateProto || !hasMethods(argument)) return argument;
    const calls = [];
    stubs.push({ argument: index, fields: state(argument), calls });
    return new Proxy(argument, {
      get(target, key) {
        const member = reflectGet(target, key);
        if (typeof member !== 'function' || typeof key === 'symbol') return member;
        return function (...args) {
          const result = apply(member, target, args);
          calls.push([key, value(result)]);
          return result;
        };
      },
    });
  };

  const counted = (c, name) => {
    const key = c + '\n' + name;
    const n = counts.get(key) || 0;
    if (n >= limit) return false;
    counts.set(key, n + 1);
    return true;
  };

  const wrapMethod = (c, name, original) => {
    const wrapper = function (...args) {
      if (depth > 0 || this === null || (typeof this !== 'object' && typeof this !== 'function')) {
        return apply(original, this, args);
      }
      const object = ids.has(this) ? ids.get(this) : -1;
      if (!counted(c, name)) {
        // A later replay of this object would miss what this call did to it (said once per object).
        if (object >= 0 && !skipped.has(this)) {
          skipped.add(this);
          events.push({ k: 'skip', object });
        }
        return apply(original, this, args);
      }
      // The class that defines the method: an inherited method is that class's method under test.
      const event = {
        k: 'call', object, class: c, method: name,
        args: args.map(value), before: state(this), stubs: [],
      };
      // The receiver's own class: a replay may rebuild it from its fields.
      const own = classOf(getProto(this));
      if (own >= 0) event.receiver = own;
      const passed = args.map((a, i) => watched(a, i, event.stubs));
      depth++;
      try {
        const result = apply(original, this, passed);
        depth--;
        event.returned = value(result);
        event.after = state(this);
        events.push(event);
        return result;
      } catch (e) {
        depth--;
        event.threw = thrown(e);
        event.after = state(this);
        events.push(event);
        throw e;
      }
    };
    defineProperty(wrapper, 'name', { value: original.name });
    defineProperty(wrapper, 'length', { value: original.length });
    return wrapper;
  };

  const wrapMembers = (target, c, names) => {
    for (const name of names) {
      const d = descriptor(target, name);
      if (!d || typeof d.value !== 'function' || (!d.writable && !d.configurable)) continue;
      const wrapped = wrapMethod(c, name, d.value);
      if (d.configurable) defineProperty(target, name, { value: wrapped, writable: d.writable, enumerable: d.enumerable, configurable: true });
      else target[name] = wrapped;
    }
  };

  // Constructors are replaced by proxies wherever the program binds them (see Rust's `bind`): `new`
  // through a proxy is recorded; `instanceof`, statics and `prototype` pass through.
  const ownMethods = [];
  const constructors = [];
  const constructorFor = (c) => {
    if (constructors[c]) return constructors[c];
    const target = classes[c];
    constructors[c] = new Proxy(target, {
      construct(t, args, newTarget) {
        const outer = depth === 0;
        if (!outer) return construct(t, args, newTarget === constructors[c] ? t : newTarget);
        const event = { k: 'new', object: -1, class: c, args: args.map(value), stubs: [] };
        const passed = args.map((a, i) => watched(a, i, event.stubs));
        depth++;
        let instance;
        try {
          instance = construct(t, passed, newTarget === constructors[c] ? t : newTarget);
        } catch (e) {
          depth--;
          event.threw = thrown(e);
          events.push(event);
          throw e;
        }
        depth--;
        if (instance !== null && typeof instance === 'object') {
          event.object = objects++;
          ids.set(instance, event.object);
          if (ownMethods[c]) wrapMembers(instance, c, ownMethods[c]);
          event.after = state(instance);
        }
        events.push(event);
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
  defineProperty(g, '__fc$recorder', { value: api, enumerable: false });
})(globalThis);
