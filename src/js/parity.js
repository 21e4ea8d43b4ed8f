// Where QuickJS departs from the language's specification and V8 does not, or where the specification
// leaves a choice to the engine and QuickJS chooses otherwise, corrected before any user code runs: a test observes in the sandbox what its exported copy observes under Node, and an exported
// regression test never fails on the code it came from because of the engine it was generated in.
//
// - Date setters given NaN (`setDate(NaN)`, `setMonth(1, NaN)`, `setUTCHours(NaN)`...) return NaN but
//   leave the date's time value unchanged in quickjs-ng; the specification makes the date invalid (its
//   time value the NaN returned). dayjs's `year(2)` on an invalid date depends on it.
// - A typed array's key "NaN" is a canonical numeric string: reading it gives undefined and writing it
//   does nothing, as for "1.5" or "-0". quickjs-ng misses that one key ("should test NaN, but the tests
//   do not check it") and keeps it as an ordinary property; mnemonist's Vector, whose length became NaN,
//   read back at `array[NaN]` what it wrote there, and its suite failed under Node. An accessor on
//   %TypedArray%.prototype catches what an ordinary property lookup would find: the typed arrays' own
//   key never gets created. Only `'NaN' in typedArray` still answers true (found on the prototype).
// - `Array.prototype.sort` and `toSorted` with a comparator: the language leaves the order an
//   inconsistent comparator gives (`() => 1`) and the comparisons made to the engine, and code observes
//   both (js-sdsl's LinkList.sort(cmp), a comparator that counts its calls). V8 sorts by TimSort; below
//   64 elements that is one run (the longest ascending or strictly descending prefix, reversed if
//   descending) extended by binary insertion, which is what runs here, with V8's handling of holes
//   and `undefined` (left out of the comparisons, written back after the values, holes last).
//   Longer arrays keep QuickJS's stable sort: every stable sort gives V8's order for a consistent
//   comparator, and only TimSort's merges, not ported, would match an inconsistent one there.
// - `Function.prototype.toString`: QuickJS prints a function's text from the code it compiled, which
//   is the instrumented copy, probes and all. A function of the user's files prints its text as the
//   user wrote it (`__fc$text`, see `instrument/texts.rs`). A native function (QuickJS's own, and
//   Flycatcher's harness, compiled without its text: see `engine/script.rs`) prints as V8 prints one,
//   `function name() { [native code] }`, on one line where QuickJS breaks it over three. Node's built-in
//   modules and globals keep their text: Node writes them in JavaScript too (`String(setTimeout)` is
//   source there), so code that tells native functions from JavaScript ones sees what it sees in Node.
// - Built-ins QuickJS has and Node 20 lacks (proposals V8 shipped later, and QuickJS's own
//   `Function.prototype.fileName`/`lineNumber`/`columnNumber`) are removed: the sandbox presents itself
//   as a fixed Node 20 (`js/node/globals.js`'s `process`), and code that tests for a built-in before
//   using it (`typeof Uint8Array.fromBase64 === 'function'`, a polyfill's `if (!Set.prototype.union)`)
//   must take the path it takes there. @scure/base's base64 coders took the built-in's path in the
//   sandbox and their own under Node, and their suite failed on the messages the two paths throw. The
//   list is what a walk of the built-ins finds in quickjs-ng and not in Node 20
//   (`tests/fixtures/parity/surface.js` asks Node); Flycatcher's own scripts use none of them. The one
//   the other way, `Atomics.waitAsync`, is there as host access.
// - Dates read from strings outside the language's date format: `dates.js`, which runs first, reads
//   them by a port of V8's parser.
// - `toLocaleLowerCase(locale)` and `toLocaleUpperCase(locale)`: QuickJS ignores the locale, Node throws
//   for a tag that is not well-formed and cases Turkish and Azeri apart. camelcase's `locale` option,
//   given a random string, made its suite fail under Node.
(function (g) {
  'use strict';
  const apply = Reflect.apply;
  const typedArrayProto = Object.getPrototypeOf(g.Uint8Array.prototype);
  // Answers undefined for anything but a typed array: a brand check no user code can fake.
  const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
  const defineOwn = Object.defineProperty;
  Object.defineProperty(typedArrayProto, 'NaN', {
    get: function () { return undefined; },
    set: function (value) {
      // Another object that inherits from a typed array's prototype gets its own property, as it would.
      if (apply(typedArrayTag, this, []) === undefined) {
        defineOwn(this, 'NaN', { value, writable: true, enumerable: true, configurable: true });
      }
    },
    enumerable: false,
    configurable: true,
  });
  const arrayProto = g.Array.prototype;
  const nativeSort = arrayProto.sort;
  const nativeToSorted = arrayProto.toSorted;
  const ObjectOf = g.Object;
  // V8's minimum run length: below this many elements the whole array is one run.
  const MIN_MERGE = 64;
  const compareWith = (comparefn) => (x, y) => {
    const v = +apply(comparefn, undefined, [x, y]);
    return v !== v ? 0 : v;
  };
  // V8's CountAndMakeRun over the whole of `work`: its length.
  const makeRun = (work, compare) => {
    const n = work.length;
    if (n < 2) return n;
    const descending = compare(work[1], work[0]) < 0;
    let run = 2;
    for (let i = 2; i < n; i++) {
      const order = compare(work[i], work[i - 1]);
      if (descending ? order >= 0 : order < 0) break;
      run++;
    }
    if (descending) {
      for (let lo = 0, hi = run - 1; lo < hi; lo++, hi--) {
        const t = work[lo];
        work[lo] = work[hi];
        work[hi] = t;
      }
    }
    return run;
  };
  // V8's BinaryInsertionSort of work[start..] into the sorted work[..start].
  const insertRest = (work, start, compare) => {
    for (let i = start; i < work.length; i++) {
      const pivot = work[i];
      let left = 0;
      let right = i;
      while (left < right) {
        const mid = left + ((right - left) >> 1);
        if (compare(pivot, work[mid]) < 0) right = mid;
        else left = mid + 1;
      }
      for (let p = i; p > left; p--) work[p] = work[p - 1];
      work[left] = pivot;
    }
  };
  const timSortShort = (work, comparefn) => {
    const compare = compareWith(comparefn);
    insertRest(work, makeRun(work, compare), compare);
  };
  const lengthOf = (o) => {
    const n = +o.length;
    return n > 0 ? (n < 9007199254740991 ? n - (n % 1) : 9007199254740991) : 0;
  };
  const fixedSort = {
    sort(comparefn) {
      if (typeof comparefn !== 'function' || this === null || this === undefined) {
        return apply(nativeSort, this, arguments);
      }
      const o = ObjectOf(this);
      const length = lengthOf(o);
      if (length >= MIN_MERGE) return apply(nativeSort, o, [comparefn]);
      if (length < 2) return o;
      const work = [];
      let undefineds = 0;
      for (let i = 0; i < length; i++) {
        if (!(i in o)) continue;
        const value = o[i];
        if (value === undefined) undefineds++;
        else defineOwn(work, work.length, { value, writable: true, enumerable: true, configurable: true });
      }
      timSortShort(work, comparefn);
      let i = 0;
      for (; i < work.length; i++) o[i] = work[i];
      for (; i < work.length + undefineds; i++) o[i] = undefined;
      for (; i < length; i++) delete o[i];
      return o;
    },
  }.sort;
  defineOwn(arrayProto, 'sort', { value: fixedSort, writable: true, enumerable: false, configurable: true });
  if (typeof nativeToSorted === 'function') {
    const fixedToSorted = {
      toSorted(comparefn) {
        if (typeof comparefn !== 'function' || this === null || this === undefined) {
          return apply(nativeToSorted, this, arguments);
        }
        // A copy with holes read as undefined, sorted like `sort` (an array, so its own length).
        const copy = apply(nativeToSorted, this, [() => 0]);
        return apply(fixedSort, copy, [comparefn]);
      },
    }.toSorted;
    defineOwn(arrayProto, 'toSorted', { value: fixedToSorted, writable: true, enumerable: false, configurable: true });
  }
  const functionProto = g.Function.prototype;
  const functionText = functionProto.toString;
  const fileNameOf = (Object.getOwnPropertyDescriptor(functionProto, 'fileName') || {}).get;
  const sourceText = g.__fc$text;
  delete g.__fc$text;
  const sliceText = g.String.prototype.slice;
  const QUICKJS_NATIVE = '() {\n    [native code]\n}';
  const V8_NATIVE = '() { [native code] }';
  const fixedToString = {
    toString() {
      const text = apply(functionText, this, []);
      const file = fileNameOf === undefined ? undefined : apply(fileNameOf, this, []);
      if (typeof file === 'string' && typeof sourceText === 'function') {
        let own;
        try {
          own = sourceText(file, text);
        } catch (_) {
          own = text;
        }
        if (typeof own === 'string') return own;
      }
      const cut = text.length - QUICKJS_NATIVE.length;
      if (cut >= 0 && apply(sliceText, text, [cut]) === QUICKJS_NATIVE) return apply(sliceText, text, [0, cut]) + V8_NATIVE;
      // A function with its text that is no file of the user's: Node's built-in modules and globals
      // (`setTimeout`, `Buffer.from`), JavaScript in Node too, whose text is JavaScript there; or code
      // the user's code compiled itself (`new Function`), whose text V8 prints as QuickJS does.
      return text;
    },
  }.toString;
  defineOwn(functionProto, 'toString', { value: fixedToString, writable: true, enumerable: false, configurable: true });
  const proto = g.Date.prototype;
  const setTime = proto.setTime;
  const SETTERS = ['setDate', 'setMonth', 'setFullYear', 'setHours', 'setMinutes', 'setSeconds',
    'setMilliseconds', 'setUTCDate', 'setUTCMonth', 'setUTCFullYear', 'setUTCHours', 'setUTCMinutes',
    'setUTCSeconds', 'setUTCMilliseconds', 'setYear'];
  for (const name of SETTERS) {
    const f = proto[name];
    if (typeof f !== 'function') continue;
    // A method like the built-in: no prototype, not constructible, the same name and length.
    const fixed = {
      [name](...args) {
        const time = apply(f, this, args);
        if (time !== time) apply(setTime, this, [NaN]);
        return time;
      },
    }[name];
    Object.defineProperty(fixed, 'length', { value: f.length });
    Object.defineProperty(proto, name, { value: fixed, writable: true, enumerable: false, configurable: true });
  }
  const iteratorProto = Object.getPrototypeOf(Object.getPrototypeOf(apply(arrayProto[Symbol.iterator], [], [])));
  const LATER = [
    [g, ['Iterator', 'DisposableStack', 'AsyncDisposableStack', 'SuppressedError', 'Float16Array', 'InternalError']],
    [g.Array, ['fromAsync']],
    [g.ArrayBuffer.prototype, ['detached', 'transfer', 'transferToFixedLength', 'immutable', 'sliceToImmutable',
      'transferToImmutable']],
    [g.Atomics, ['pause']],
    [g.DataView.prototype, ['getFloat16', 'setFloat16']],
    [g.Error, ['isError']],
    [functionProto, ['fileName', 'lineNumber', 'columnNumber']],
    [g.JSON, ['isRawJSON', 'rawJSON']],
    [g.Map, ['groupBy']],
    [g.Map.prototype, ['getOrInsert', 'getOrInsertComputed']],
    [g.WeakMap.prototype, ['getOrInsert', 'getOrInsertComputed']],
    [g.Math, ['f16round', 'sumPrecise']],
    [g.Object, ['groupBy']],
    [g.Promise, ['try', 'withResolvers']],
    [g.RegExp, ['escape']],
    [g.Set.prototype, ['difference', 'intersection', 'isDisjointFrom', 'isSubsetOf', 'isSupersetOf',
      'symmetricDifference', 'union']],
    [g.Uint8Array, ['fromBase64', 'fromHex']],
    [g.Uint8Array.prototype, ['setFromBase64', 'setFromHex', 'toBase64', 'toHex']],
  ];
  for (const [owner, names] of LATER) {
    for (const name of names) delete owner[name];
  }
  // What depends on the host's locale: Node formats `toLocaleString` and compares `localeCompare` by ICU
  // and the locale of the machine a suite runs on (`(10000.01).toLocaleString()` is "10,000.01" in one
  // place and "10.000,01" in another), QuickJS by neither. A test that asks is host access (the harness's
  // `__fc$hostAccess`: it never becomes a regression test), as reading `Intl` is. `localeCompare` of two
  // strings of digits and letters of one case orders them as every collation does, by code point.
  const reportHost = (reason) => {
    const report = g.__fc$hostAccess;
    if (typeof report === 'function') report(reason);
  };
  const hostAccess = (what) => reportHost(what + ', whose result depends on the host\'s locale');
  const localized = (proto, name, owner) => {
    const f = proto[name];
    const fixed = {
      [name](...args) {
        hostAccess(owner + '.prototype.' + name);
        return f === undefined ? apply(proto.toString, this, []) : apply(f, this, args);
      },
    }[name];
    defineOwn(fixed, 'length', { value: 0 });
    defineOwn(proto, name, { value: fixed, writable: true, enumerable: false, configurable: true });
  };
  localized(g.Number.prototype, 'toLocaleString', 'Number');
  localized(g.BigInt.prototype, 'toLocaleString', 'BigInt');
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
    localized(g.Date.prototype, name, 'Date');
  }
  const stringProto = g.String.prototype;
  const localeCompare = stringProto.localeCompare;
  const charCodeAt = stringProto.charCodeAt;
  // 1 for a string of digits and lower-case letters, 2 for digits and upper-case letters, 3 for digits
  // only, 0 for anything else.
  const kindOf = (text) => {
    let kind = 3;
    for (let i = 0; i < text.length; i += 1) {
      const c = apply(charCodeAt, text, [i]);
      if (c >= 97 && c <= 122) kind &= 1;
      else if (c >= 65 && c <= 90) kind &= 2;
      else if (!(c >= 48 && c <= 57)) return 0;
    }
    return kind;
  };
  const fixedCompare = {
    localeCompare(that) {
      const result = apply(localeCompare, this, arguments);
      if (typeof this !== 'string' || typeof that !== 'string' || (this !== that && (kindOf(this) & kindOf(that)) === 0)) {
        hostAccess('String.prototype.localeCompare');
      }
      return result;
    },
  }.localeCompare;
  defineOwn(stringProto, 'localeCompare', { value: fixedCompare, writable: true, enumerable: false, configurable: true });
  // `toLocaleLowerCase(locales)` and `toLocaleUpperCase(locales)`: QuickJS ignores the argument. Node
  // reads its first tag as ECMA-402's CanonicalizeLocaleList does (one that is not well-formed throws a
  // RangeError, an element that is neither a string nor an object a TypeError) and cases by it: Turkish and Azeri map the dotted and dotless `i` apart, Lithuanian keeps dots over accented
  // `i`s, which is not ported (host access, as other casing Node does by ICU).
  const stringOf = g.String;
  const toLower = stringProto.toLowerCase;
  const toUpper = stringProto.toUpperCase;
  const splitText = stringProto.split;
  const includes = arrayProto.includes;
  const execPattern = g.RegExp.prototype.exec;
  const TAG =
    /^(?:[a-z]{2,3}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?((?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*)((?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*)(?:-x(?:-[a-z0-9]{1,8})+)?$/;
  // Whether a variant (or, with `singletons`, an extension's singleton) repeats: not well-formed.
  const repeats = (subtags, singletons) => {
    const seen = [];
    for (const subtag of apply(splitText, subtags, ['-'])) {
      if (subtag === '' || (singletons && subtag.length !== 1)) continue;
      if (apply(includes, seen, [subtag])) return true;
      seen[seen.length] = subtag;
    }
    return false;
  };
  // The language of the first tag of `locales`, in lower case, or '' for none. V8 reads no further
  // than the first element when it cases (`['en', 5]` is no TypeError there).
  const firstLanguage = (locales) => {
    if (locales === undefined) return '';
    if (locales === null) throw new TypeError('Cannot convert undefined or null to object');
    const list = typeof locales === 'string' ? [locales] : ObjectOf(locales);
    const length = lengthOf(list);
    for (let k = 0; k < length; k += 1) {
      if (!(k in list)) continue;
      const value = list[k];
      if (typeof value !== 'string' && (typeof value !== 'object' || value === null) && typeof value !== 'function') {
        throw new TypeError('Language ID should be string or object.');
      }
      const tag = apply(toLower, stringOf(value), []);
      const parts = apply(execPattern, TAG, [tag]);
      if (parts === null) throw new RangeError('Incorrect locale information provided');
      if (repeats(parts[1], false) || repeats(parts[2], true)) throw new RangeError('Invalid language tag: ' + tag);
      return apply(splitText, tag, ['-'])[0];
    }
    return '';
  };
  // `this` as a string, thrown at as the built-in would for null, undefined and symbols.
  const textOf = (self) => (self === null || self === undefined || typeof self === 'symbol' ? apply(toLower, self, []) : stringOf(self));
  const cased = {
    toLocaleLowerCase(locales) {
      const text = textOf(this);
      const language = firstLanguage(locales);
      if (language === 'lt') reportHost('String.prototype.toLocaleLowerCase in Lithuanian, which the sandbox does not case as Node does');
      if (language !== 'tr' && language !== 'az') return apply(toLower, text, []);
      let turkish = '';
      for (let i = 0; i < text.length; i += 1) {
        const c = text[i];
        if (c === 'I' && text[i + 1] === '\u0307') {
          turkish += 'i';
          i += 1;
        } else turkish += c === 'I' ? '\u0131' : c === '\u0130' ? 'i' : c;
      }
      return apply(toLower, turkish, []);
    },
    toLocaleUpperCase(locales) {
      const text = textOf(this);
      const language = firstLanguage(locales);
      if (language === 'lt') reportHost('String.prototype.toLocaleUpperCase in Lithuanian, which the sandbox does not case as Node does');
      if (language !== 'tr' && language !== 'az') return apply(toUpper, text, []);
      let turkish = '';
      for (let i = 0; i < text.length; i += 1) turkish += text[i] === 'i' ? '\u0130' : text[i];
      return apply(toUpper, turkish, []);
    },
  };
  for (const name of ['toLocaleLowerCase', 'toLocaleUpperCase']) {
    defineOwn(cased[name], 'length', { value: 0 });
    defineOwn(stringProto, name, { value: cased[name], writable: true, enumerable: false, configurable: true });
  }
  // Built-ins Node 20 has and QuickJS lacks: `Atomics.waitAsync`. Its key is there, as in Node, for code
  // that lists or tests for it; reading it is host access (the sandbox has no other agent to wait on) and
  // answers undefined, as the globals Node has and the sandbox does not (`js/node/globals.js`).
  defineOwn(g.Atomics, 'waitAsync', {
    get() {
      const report = g.__fc$hostAccess;
      if (typeof report === 'function') report('Atomics.waitAsync, which Node has and the sandbox does not');
      return undefined;
    },
    set(value) {
      defineOwn(g.Atomics, 'waitAsync', { value, writable: true, enumerable: false, configurable: true });
    },
    enumerable: false,
    configurable: true,
  });
  // Node 20's %IteratorPrototype% holds its `[Symbol.iterator]` only: the iterator helpers came later.
  for (const key of Reflect.ownKeys(iteratorProto)) {
    if (key !== Symbol.iterator) delete iteratorProto[key];
  }
})(globalThis);
