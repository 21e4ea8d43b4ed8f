// The built-ins Flycatcher's own JavaScript uses, captured before any code under test runs (Node calls
// them primordials): the code under test may replace `JSON`, `Proxy` or `Reflect`, patch
// `Array.prototype.push`, add a throwing `Object.prototype.toJSON` or a getter named like a field the
// harness reads, and the harness, the recorder and the console must work the same.
// Rules for every program that uses them (`__fc$P`, frozen, on a hidden global):
// - call methods through the uncurried forms here (`push(list, x)`), never `list.push(x)`;
// - loop with indexes: `for...of`, spread and destructuring of arrays run the patchable array iterator;
// - objects handed to built-ins that read options (proxy handlers, property descriptors) and objects
//   with keys chosen by user data have no prototype (`{ __proto__: null, ... }`): an inherited `get`
//   would turn a descriptor into an accessor, an inherited trap would join a proxy handler;
// - encode JSON with `json`, which never calls `toJSON` and reads own enumerable data only.
(function (g) {
  'use strict';
  const apply = Reflect.apply;
  // `uncurry(Array.prototype.push)(list, x)` is `list.push(x)` with the push of now: `call` bound to the
  // method, as Node's primordials do. A bound native call makes no frame and no array of arguments,
  // several times faster in QuickJS than `(self, ...args) => apply(f, self, args)`.
  const call = Function.prototype.call;
  const bind = Function.prototype.bind;
  const uncurry = (f) => apply(bind, call, [f]);
  const defineProperty = Object.defineProperty;
  const keys = Object.keys;
  const isArray = Array.isArray;
  const hasOwn = Object.hasOwn;
  const quote = JSON.stringify;
  const errorProps = Object.getOwnPropertyDescriptors(Error);
  const accessor = (name) => errorProps[name] && errorProps[name].get && errorProps[name].set ? errorProps[name] : null;
  const prepareStackTrace = accessor('prepareStackTrace');
  const stackTraceLimit = accessor('stackTraceLimit');
  const ErrorCtor = Error;

  const push = uncurry(Array.prototype.push);
  // As `Array.prototype.indexOf`: holes are skipped, they are not `undefined`.
  const indexOf = (list, value) => {
    for (let i = 0; i < list.length; i++) if (list[i] === value && (value !== undefined || hasOwn(list, i))) return i;
    return -1;
  };
  const map = (list, f) => {
    const out = [];
    for (let i = 0; i < list.length; i++) out[i] = f(list[i], i);
    return out;
  };
  const join = (list, separator) => {
    let s = '';
    for (let i = 0; i < list.length; i++) s += (i > 0 ? separator : '') + list[i];
    return s;
  };

  // JSON of Flycatcher's own data (arrays, plain and prototype-less objects, primitives) as
  // `JSON.stringify` writes it, without calling any `toJSON`: code under test may have put one on
  // `Object.prototype` or `Array.prototype`. While neither prototype has one, the native encoder writes
  // the same text several times faster (it is one C call, where encoding here quotes each key with a
  // call of its own); a value it refuses (a BigInt) is encoded here.
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const json = (v) => {
    if (!hasOwn(ObjectProto, 'toJSON') && !hasOwn(ArrayProto, 'toJSON')) {
      try {
        return quote(v);
      } catch (_) {
        // Encoded below.
      }
    }
    return encode(v);
  };
  const encode = (v) => {
    switch (typeof v) {
      case 'string': return quote(v);
      case 'number': return v === v && v !== Infinity && v !== -Infinity ? '' + v : 'null';
      case 'boolean': return v ? 'true' : 'false';
      case 'object': break;
      default: return undefined;
    }
    if (v === null) return 'null';
    let s;
    if (isArray(v)) {
      s = '[';
      for (let i = 0; i < v.length; i++) {
        const item = encode(v[i]);
        s += (i > 0 ? ',' : '') + (item === undefined ? 'null' : item);
      }
      return s + ']';
    }
    s = '{';
    const names = keys(v);
    for (let i = 0; i < names.length; i++) {
      const item = encode(v[names[i]]);
      if (item !== undefined) s += (s.length > 1 ? ',' : '') + quote(names[i]) + ':' + item;
    }
    return s + '}';
  };

  // A stack trace in QuickJS's own format (`at f (file:line:column)`), whatever the code under test
  // did to `Error.prepareStackTrace` or `Error.stackTraceLimit` (both are per realm, behind accessors).
  // The harness takes one at every coercion of a recording proxy: while both are as QuickJS sets them,
  // as in most code, they are only read (setting and restoring them cost three times the trace).
  const accessors = prepareStackTrace !== null && stackTraceLimit !== null
    ? [uncurry(prepareStackTrace.get), uncurry(prepareStackTrace.set), uncurry(stackTraceLimit.get), uncurry(stackTraceLimit.set)]
    : null;
  const stack = () => {
    let saved = null;
    try {
      if (accessors !== null) {
        const prepare = accessors[0](ErrorCtor);
        const limit = accessors[2](ErrorCtor);
        if (prepare !== undefined || limit !== 10) {
          saved = [prepare, limit];
          accessors[1](ErrorCtor, undefined);
          accessors[3](ErrorCtor, 10);
        }
      }
      const text = new ErrorCtor().stack;
      return typeof text === 'string' ? text : '';
    } catch (_) {
      return '';
    } finally {
      if (saved !== null) {
        accessors[1](ErrorCtor, saved[0]);
        accessors[3](ErrorCtor, saved[1]);
      }
    }
  };

  const typedArrayFillMethod = Object.getPrototypeOf(Uint8Array.prototype).fill;
  const typedArrayLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
  const sizeOf = (proto) => uncurry(Object.getOwnPropertyDescriptor(proto, 'size').get);
  const mapForEach = uncurry(Map.prototype.forEach);
  const setForEach = uncurry(Set.prototype.forEach);

  const P = {
    __proto__: null,
    apply,
    construct: Reflect.construct,
    ownKeys: Reflect.ownKeys,
    defineProperty,
    // `Reflect.defineProperty`: false where `defineProperty` throws.
    tryDefine: Reflect.defineProperty,
    deleteProperty: Reflect.deleteProperty,
    descriptor: Object.getOwnPropertyDescriptor,
    get: Reflect.get,
    has: Reflect.has,
    getProto: Object.getPrototypeOf,
    setProto: Reflect.setPrototypeOf,
    create: Object.create,
    freeze: Object.freeze,
    keys,
    names: Object.getOwnPropertyNames,
    symbols: Object.getOwnPropertySymbols,
    hasOwn,
    is: Object.is,
    isArray,
    floor: Math.floor,
    parse: JSON.parse,
    quote,
    json,
    stack,
    push,
    pop: uncurry(Array.prototype.pop),
    indexOf,
    map,
    join,
    ObjectProto,
    ArrayProto,
    FunctionProto: Function.prototype,
    AsyncFunctionProto: Object.getPrototypeOf(async function () {}),
    Error,
    String,
    Date,
    DateProto: Date.prototype,
    Uint8Array,
    typedArrayFill: (array, value) => apply(typedArrayFillMethod, array, [value]),
    getTime: uncurry(Date.prototype.getTime),
    RegExp,
    BigInt,
    exec: uncurry(RegExp.prototype.exec),
    regexpText: uncurry(RegExp.prototype.toString),
    Proxy,
    Promise,
    PromiseProto: Promise.prototype,
    promiseThen: uncurry(Promise.prototype.then),
    Set,
    SetProto: Set.prototype,
    setIteratorNext: Object.getPrototypeOf(new Set().values()).next,
    setAdd: uncurry(Set.prototype.add),
    setHas: uncurry(Set.prototype.has),
    Map,
    MapProto: Map.prototype,
    mapIteratorNext: Object.getPrototypeOf(new Map().entries()).next,
    mapGet: uncurry(Map.prototype.get),
    mapSet: uncurry(Map.prototype.set),
    // A map's size, and its entries as `[key, value]` pairs in insertion order (what `Array.from` gives);
    // a set's size and values: how descriptions read them, whatever the code under test patched.
    mapSize: sizeOf(Map.prototype),
    mapEntries: (m) => {
      const out = [];
      mapForEach(m, (value, key) => push(out, [key, value]));
      return out;
    },
    setSize: sizeOf(Set.prototype),
    setValues: (s) => {
      const out = [];
      setForEach(s, (value) => push(out, value));
      return out;
    },
    WeakSet,
    weakSetAdd: uncurry(WeakSet.prototype.add),
    weakSetHas: uncurry(WeakSet.prototype.has),
    WeakMap,
    weakMapGet: uncurry(WeakMap.prototype.get),
    weakMapSet: uncurry(WeakMap.prototype.set),
    weakMapHas: uncurry(WeakMap.prototype.has),
    Uint32Array,
    isView: ArrayBuffer.isView,
    // The length of a typed array (not a DataView, for which it throws), through %TypedArray%'s getter.
    typedArrayLength: uncurry(typedArrayLength),
    functionText: uncurry(Function.prototype.toString),
    iterator: Symbol.iterator,
    asyncIterator: Symbol.asyncIterator,
    toPrimitive: Symbol.toPrimitive,
  };
  defineProperty(g, '__fc$P', { __proto__: null, value: Object.freeze(P) });
})(globalThis);
