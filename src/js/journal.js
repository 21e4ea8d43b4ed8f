// The undo journal of writes to shared state (see `instrument/writes.rs`). The instrumented code calls
// `__fc$jv(get, set, name)` before a write to a binding that outlives a call (`count++`, `leaked = 1`)
// and `__fc$jm(object, key)` before a write to a property (`Cls.total += 1`, `delete cache[k]`), which
// answers the object and leaves the key in `__fc$jk` for a computed member, and `__fc$jc(collection,
// method)` before a mutating method's call (`log.push(x)`, `seen.set(k, v)`), which answers the collection. Each records how to put
// back what is there now, and sets the flag `__fc$sw[0]` to 1; a write it cannot put back exactly (an
// accessor, an array, an object used as a key, a journal grown too long) sets it to 2, as every other
// marked write does, and the sandbox then builds a new context. After a test whose flag is 1 the
// engine calls `__fc$undo()`, which undoes the journal in reverse order and answers whether every step
// worked. Every built-in it uses comes from the primordials or is read here, before code under test runs.
(function () {
  // Built-ins as they were before user code ran (see `js/primordials.js` for the rules).
  var {
    descriptor: getOwn, defineProperty: define, getProto, isArray, deleteProperty, isView, String: toString, hasOwn,
    apply, ArrayProto, MapProto, SetProto, Set: SetCtor, mapIteratorNext: iteratorNext, setIteratorNext,
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
  hide.value = function (object, key) {
    var type = typeof key;
    var k = type === 'object' && key !== null || type === 'function' || type === 'symbol' ? key : toString(key);
    g.__fc$jk = k;
    var kind = typeof object;
    if (object === null || kind !== 'object' && kind !== 'function') return object;
    if (!undoable()) return object;
    if (type === 'object' && key !== null || type === 'function' || isArray(object) || isView(object) ||
        accessorOnChain(object, k)) {
      // A key converted here would run its `toString` before the value, and arrays keep a length.
      flag[0] = 2;
      return object;
    }
    journal[journal.length] = { __proto__: null, binding: false, object: object, key: k, old: getOwn(object, k) };
    return object;
  };
  define(g, '__fc$jm', hide);
  // A snapshot of a collection's contents, taken before its first change in a test: an array's elements
  // and length, a Map's entries, a Set's values, in order. Only collections of the built-in classes, whose
  // mutating methods change nothing else: a subclass's own `set` could write anywhere.
  var readAll = function (collection, how, next) {
    var out = [];
    var it = apply(how[0], collection, []);
    for (var step = apply(next, it, []); !step.done; step = apply(next, it, [])) out[out.length] = step.value;
    return out;
  };
  hide.value = function (collection, method) {
    if (collection === null || typeof collection !== 'object' || apply(setHas, copied, [collection])) return collection;
    if (!undoable()) return collection;
    var proto = getProto(collection);
    var entry = { __proto__: null, binding: false, collection: collection, kind: 0, items: [], length: 0 };
    if (proto === ArrayProto && isArray(collection)) {
      entry.length = collection.length;
      for (var i = 0; i < entry.length; i++) entry.items[i] = hasOwn(collection, i) ? getOwn(collection, i) : undefined;
    } else if (proto === MapProto) {
      entry.kind = 1;
      entry.items = readAll(collection, mapEntries, iteratorNext);
    } else if (proto === SetProto) {
      entry.kind = 2;
      entry.items = readAll(collection, setValues, setIteratorNext);
    } else {
      flag[0] = 2;
      return collection;
    }
    if (hasOwn(collection, method)) {
      // Its own method could do anything.
      flag[0] = 2;
      return collection;
    }
    apply(setAdd, copied, [collection]);
    journal[journal.length] = entry;
    return collection;
  };
  define(g, '__fc$jc', hide);
  var restore = function (e) {
    var c = e.collection;
    if (e.kind === 0) {
      c.length = 0;
      for (var i = 0; i < e.length; i++) if (e.items[i] !== undefined) define(c, i, e.items[i]);
      c.length = e.length;
    } else {
      var how = e.kind === 1 ? mapEntries : setValues;
      apply(how[1], c, []);
      for (var j = 0; j < e.items.length; j++) {
        apply(how[2], c, e.kind === 1 ? [e.items[j][0], e.items[j][1]] : [e.items[j]]);
      }
    }
  };
  hide.value = function () {
    var entries = journal;
    journal = [];
    copied = new SetCtor();
    try {
      for (var i = entries.length - 1; i >= 0; i--) {
        var e = entries[i];
        if (e.collection !== undefined) {
          restore(e);
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
