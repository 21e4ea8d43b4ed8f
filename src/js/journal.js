// The undo journal of writes to shared state (see `instrument/writes.rs`). The instrumented code calls
// `__fc$jv(get, set, name)` before a write to a binding that outlives a call (`count++`, `leaked = 1`)
// and `__fc$jm(object, key)` before a write to a property (`Cls.total += 1`, `delete cache[k]`), which
// answers the object and leaves the key in `__fc$jk` for a computed member, `__fc$jp(object, get, set)`
// before a write to a private field (`Stack.#constructing = true`), which answers the object, and
// `__fc$jc(collection, method)` before a mutating method's call (`log.push(x)`, `seen.set(k, v)`), which
// answers the collection. Each records how to put back what is there now, and sets the flag `__fc$sw[0]`
// to 1; a write it cannot put back exactly (through a setter, to a DataView or a typed array's property
// that is no element, a journal grown too long) sets it to 2, as every other marked write does, and the
// sandbox then builds a new context. After a test whose flag is 1 the engine calls `__fc$undo()`, which
// undoes the journal in reverse order and answers whether every step worked. Every built-in it uses comes
// from the primordials or is read here, before code under test runs.
(function () {
  // Built-ins as they were before user code ran (see `js/primordials.js` for the rules).
  var {
    descriptor: getOwn, defineProperty: define, getProto, isArray, deleteProperty, isView, typedArrayLength,
    is: sameValue, String: toString, hasOwn,
    apply, ArrayProto, MapProto, SetProto, Set: SetCtor, mapIteratorNext: iteratorNext, setIteratorNext, ownKeys,
    setProto, ObjectProto,
  } = globalThis.__fc$P;
  var mapEntries = [MapProto.entries, MapProto.clear, MapProto.set];
  var setValues = [SetProto.values, SetProto.clear, SetProto.add];
  var setHas = SetProto.has;
  var setAdd = SetProto.add;
  var copied = new SetCtor();
  var g = globalThis;
  var flag = __fc$sw;
  var LONGEST = 10000;
  var journal = [];
  var undoable = function () {
    if (flag[0] === 2) return false;
    if (journal.length >= LONGEST) {
      flag[0] = 2;
      return false;
    }
    flag[0] = 1;
    return true;
  };
  // The setter of an accessor may write anything, anywhere: no own data property is enough to undo it.
  var accessorOnChain = function (object, key) {
    for (var o = object; o !== null; o = getProto(o)) {
      var d = getOwn(o, key);
      if (d !== undefined) return d.get !== undefined || d.set !== undefined;
    }
    return false;
  };
  // A write by key `k` to a typed array: an element in range is journalled with its value (a module's
  // scratch buffer, `f64[0] = x` to read a float's bits, is written by every call); an index out of range
  // is a write the array ignores. Answers false for anything else (a DataView, a key that is no index,
  // which names an ordinary property), which the sandbox cannot undo.
  var element = function (object, k) {
    var length;
    try {
      length = typedArrayLength(object);
    } catch (e) {
      return false;
    }
    if (typeof k !== 'string') return false;
    // '-0' is a canonical number that is no index.
    if (k === '-0') return true;
    var n = +k;
    if (toString(n) !== k) return false;
    if (n === (n | 0) && n >= 0 && n < length) {
      var entry = { __proto__: null, binding: false, element: true, object: object, key: n, old: object[n] };
      journal[journal.length] = entry;
    }
    return true;
  };
  define(g, '__fc$jk', { value: undefined, writable: true, enumerable: false, configurable: false });
  var hide = { writable: false, enumerable: false, configurable: false };
  hide.value = function (get, set, name) {
    if (!undoable()) return;
    var entry = { __proto__: null, binding: true, set: set, name: name, existed: true, old: undefined };
    try {
      entry.old = get();
    } catch (e) {
      // An implicit global not created yet: undoing deletes it.
      entry.existed = false;
    }
    journal[journal.length] = entry;
  };
  define(g, '__fc$jv', hide);
  // `__fc$jp(object, get, set)` before a write to a private field of `object` (`Stack.#constructing =
  // true`): `get` and `set`, made in the class where the name is in scope, read and write that field of
  // the object they are given. Writing the old value back is exact: a private field cannot be deleted,
  // and stays writable on a frozen object. An object without the field has nothing to undo (the write
  // throws, as reading it did).
  hide.value = function (object, get, set) {
    var old;
    try {
      old = get(object);
    } catch (e) {
      return object;
    }
    if (!undoable()) return object;
    var put = function (value) { set(object, value); };
    journal[journal.length] = { __proto__: null, binding: true, set: put, name: '', existed: true, old: old };
    return object;
  };
  define(g, '__fc$jp', hide);
  // Whether a prototype has a setter a write by key could run (`__proto__` aside: a copy of the whole
  // object puts its prototype back). Asked of the engine, which reads the properties without making a
  // descriptor object for each (`sandbox/engine/props.rs`).
  // Its second argument leaves `Object.prototype`'s `__proto__` out.
  var hasSetter = g.__fc$hasSetter;
  delete g.__fc$hasSetter;
  // A copy of a whole object or array (its own keys in order, their descriptors, its prototype), taken
  // before its first write in a test that no single key can undo: a key that is an object (a recording
  // proxy into a module's dictionary, `cache[key] = v`) is converted by the write itself, after the value,
  // and an array keeps a length besides its elements. Only plain objects and arrays whose own properties
  // are configurable data: putting those back is exact, key order included.
  var copyWhole = function (object) {
    if (apply(setHas, copied, [object])) return true;
    var proto = getProto(object);
    var array = isArray(object);
    if (proto !== null && proto !== ObjectProto && !(array && proto === ArrayProto)) return false;
    if (hasSetter(ObjectProto, true) || array && hasSetter(ArrayProto, false)) return false;
    var keys = ownKeys(object);
    if (keys.length >= LONGEST) return false;
    var descriptors = [];
    for (var i = 0; i < keys.length; i++) {
      var d = getOwn(object, keys[i]);
      if (d.get !== undefined || d.set !== undefined) return false;
      if (!d.configurable && !(array && keys[i] === 'length')) return false;
      descriptors[i] = d;
    }
    apply(setAdd, copied, [object]);
    journal[journal.length] = {
      __proto__: null, binding: false, collection: object, whole: true, keys: keys, descriptors: descriptors, proto: proto,
    };
    return true;
  };
  hide.value = function (object, key) {
    var type = typeof key;
    var byObject = type === 'object' && key !== null || type === 'function';
    var k = byObject || type === 'symbol' ? key : toString(key);
    g.__fc$jk = k;
    var kind = typeof object;
    if (object === null || kind !== 'object' && kind !== 'function') return object;
    if (!undoable()) return object;
    if (byObject || isArray(object)) {
      if (!copyWhole(object)) flag[0] = 2;
      return object;
    }
    if (isView(object)) {
      if (!element(object, k)) flag[0] = 2;
      return object;
    }
    if (accessorOnChain(object, k)) {
      flag[0] = 2;
      return object;
    }
    journal[journal.length] = { __proto__: null, binding: false, object: object, key: k, old: getOwn(object, k) };
    return object;
  };
  define(g, '__fc$jm', hide);
  // A snapshot of a collection's contents, taken before its first change in a test: a Map's entries, a
  // Set's values, in order (an array is copied whole, see `copyWhole`). Only collections of the built-in
  // classes, whose mutating methods change nothing else: a subclass's own `set` could write anywhere.
  var readAll = function (collection, how, next) {
    var out = [];
    var it = apply(how[0], collection, []);
    for (var step = apply(next, it, []); !step.done; step = apply(next, it, [])) out[out.length] = step.value;
    return out;
  };
  hide.value = function (collection, method) {
    if (collection === null || typeof collection !== 'object' || apply(setHas, copied, [collection])) return collection;
    if (!undoable()) return collection;
    if (hasOwn(collection, method)) {
      // Its own method could do anything.
      flag[0] = 2;
      return collection;
    }
    if (isArray(collection)) {
      if (!copyWhole(collection)) flag[0] = 2;
      return collection;
    }
    var proto = getProto(collection);
    var entry = { __proto__: null, binding: false, collection: collection, whole: false, map: true, items: [] };
    if (proto === MapProto) {
      entry.items = readAll(collection, mapEntries, iteratorNext);
    } else if (proto === SetProto) {
      entry.map = false;
      entry.items = readAll(collection, setValues, setIteratorNext);
    } else {
      flag[0] = 2;
      return collection;
    }
    apply(setAdd, copied, [collection]);
    journal[journal.length] = entry;
    return collection;
  };
  define(g, '__fc$jc', hide);
  // Puts a copied object or collection back; false when it cannot be (the test froze the object).
  var restore = function (e) {
    var c = e.collection;
    if (e.whole) {
      if (getProto(c) !== e.proto && !setProto(c, e.proto)) return false;
      var array = isArray(c);
      if (array) c.length = 0;
      var now = ownKeys(c);
      for (var i = 0; i < now.length; i++) {
        if (!(array && now[i] === 'length') && !deleteProperty(c, now[i])) return false;
      }
      for (var k = 0; k < e.keys.length; k++) define(c, e.keys[k], e.descriptors[k]);
      return true;
    }
    var how = e.map ? mapEntries : setValues;
    apply(how[1], c, []);
    for (var j = 0; j < e.items.length; j++) apply(how[2], c, e.map ? [e.items[j][0], e.items[j][1]] : [e.items[j]]);
    return true;
  };
  hide.value = function () {
    var entries = journal;
    journal = [];
    copied = new SetCtor();
    try {
      for (var i = entries.length - 1; i >= 0; i--) {
        var e = entries[i];
        if (e.collection !== undefined) {
          if (!restore(e)) return false;
        } else if (e.element) {
          // A buffer detached or shrunk since cannot take the value back.
          e.object[e.key] = e.old;
          if (!sameValue(e.object[e.key], e.old)) return false;
        } else if (e.binding) {
          if (e.existed) e.set(e.old);
          else if (!deleteProperty(g, e.name)) return false;
        } else if (e.old !== undefined) {
          define(e.object, e.key, e.old);
        } else if (!deleteProperty(e.object, e.key)) {
          return false;
        }
      }
    } catch (e) {
      return false;
    }
    flag[0] = 0;
    return true;
  };
  define(g, '__fc$undo', hide);
  hide.value = function () {
    journal = [];
    copied = new SetCtor();
    flag[0] = 0;
  };
  define(g, '__fc$forget', hide);
})();
