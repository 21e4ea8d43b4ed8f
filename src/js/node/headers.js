// `Headers` as Node 20 has it as a global (undici's): names checked as HTTP tokens and values as header
// values, with their surrounding whitespace removed; one entry per lower-cased name, its values
// combined (`, `, `; ` for `cookie`) but each `set-cookie` kept apart; iteration over the names sorted,
// read afresh at each step; no guard (a `Headers` a program makes has none). Its errors are undici's
// (WebIDL's conversions and argument checks, worded as undici words them), `ERR_INVALID_THIS` where
// undici checks the receiver. Read into a context when first used (see `globals.js`), as `web.js` is.
// Answers its maker.
(function (g) {
  'use strict';
  const { coded } = g.__fc$nodeErrors;
  const illegal = () => coded(TypeError, 'ERR_INVALID_THIS', 'Illegal invocation');
  const argumentsRequired = (method, min, found) =>
    new TypeError(`Headers.${method}: ${min} argument${min === 1 ? '' : 's'} required, but${found ? ' only' : ''} ${found} found.`);
  // WebIDL's DOMString, then ByteString: what `argument` names in the message for a symbol.
  const byteString = (value, prefix, argument) => {
    if (typeof value === 'symbol') {
      throw new TypeError(`${prefix}: ${argument} is a symbol, which cannot be converted to a DOMString.`);
    }
    const s = `${value}`;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 255) {
        throw new TypeError(
          `Cannot convert argument to a ByteString because the character at index ${i} has a value of ${c} which is greater than 255.`);
      }
    }
    return s;
  };
  const tokenCode = (c) =>
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || "!#$%&'*+-.^_`|~".includes(String.fromCharCode(c));
  const validName = (name) => {
    if (name.length === 0) return false;
    for (let i = 0; i < name.length; i++) if (!tokenCode(name.charCodeAt(i))) return false;
    return true;
  };
  const whitespace = (c) => c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20;
  // Fetch's header value normalisation: HTTP whitespace removed at both ends.
  const normalize = (value) => {
    let i = 0;
    let j = value.length;
    while (j > i && whitespace(value.charCodeAt(j - 1))) --j;
    while (j > i && whitespace(value.charCodeAt(i))) ++i;
    return value.substring(i, j);
  };
  const validValue = (value) => !value.includes('\0') && !value.includes('\r') && !value.includes('\n');
  const invalid = (method, value, type) => new TypeError(`Headers.${method}: "${value}" is an invalid ${type}.`);
  // undici's `Stringify` of a value that is not an object, in its "is not iterable" message.
  const shown = (value) => (typeof value === 'string' ? `"${value}"` : typeof value === 'symbol' ? `Symbol(${value.description})` : `${value}`);
  const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
  const CONSTRUCTOR = 'Headers contructor';

  const makeHeaders = () => {
    let brand = null;
    let sortedOf = null;
    class Headers {
      // Lower-cased name -> { name (as first given), value }, in the order first given.
      #map = new Map();
      #cookies = null;
      #sorted = null;
      constructor(init = undefined) {
        if (init === undefined) return;
        if (!isObject(init)) {
          throw new TypeError('Headers constructor: Argument 1 could not be converted to one of: ' +
            'sequence<sequence<ByteString>>, record<ByteString, ByteString>.');
        }
        const iterator = init[Symbol.iterator];
        if (brand(init) && iterator === Headers.prototype.entries) {
          // Another `Headers`: its list is copied, each `set-cookie` value apart.
          this.#map = new Map(init.#map);
          this.#cookies = init.#cookies === null ? null : [...init.#cookies];
        } else if (typeof iterator === 'function') {
          for (const pair of sequence(init, iterator)) {
            if (pair.length !== 2) {
              throw new TypeError(`Headers constructor: expected name/value pair to be length 2, found ${pair.length}.`);
            }
            this.#append(pair[0], pair[1]);
          }
        } else {
          // undici reads every own key, enumerable or not (`Object.getOwnPropertyNames`, then symbols).
          const record = {};
          for (const key of [...Object.getOwnPropertyNames(init), ...Object.getOwnPropertySymbols(init)]) {
            const name = byteString(key, CONSTRUCTOR, 'init');
            record[name] = byteString(init[key], CONSTRUCTOR, 'init');
          }
          for (const name of Object.keys(record)) this.#append(name, record[name]);
        }
      }
      static {
        brand = (v) => isObject(v) && #map in v;
        // Fetch's "sort and combine": the names sorted, each `set-cookie` value apart.
        sortedOf = (headers) => {
          if (headers.#sorted !== null) return headers.#sorted;
          const names = [...headers.#map].map(([name, { value }]) => [name, value]);
          names.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          const cookies = headers.#cookies;
          if (cookies === null || cookies.length === 1) return (headers.#sorted = names);
          const out = [];
          for (const [name, value] of names) {
            if (name === 'set-cookie') for (const cookie of cookies) out.push([name, cookie]);
            else out.push([name, value]);
          }
          return (headers.#sorted = out);
        };
      }
      #append(name, value, method = 'append') {
        value = normalize(value);
        if (!validName(name)) throw invalid(method, name, 'header name');
        if (!validValue(value)) throw invalid(method, value, 'header value');
        this.#sorted = null;
        const lower = name.toLowerCase();
        const exists = this.#map.get(lower);
        if (exists) {
          const delimiter = lower === 'cookie' ? '; ' : ', ';
          this.#map.set(lower, { name: exists.name, value: `${exists.value}${delimiter}${value}` });
        } else {
          this.#map.set(lower, { name, value });
        }
        if (lower === 'set-cookie') (this.#cookies ??= []).push(value);
      }
      #name(method, name) {
        name = byteString(name, `Headers.${method}`, 'name');
        if (!validName(name)) throw invalid(method, name, 'header name');
        return name.toLowerCase();
      }
      append(name, value) {
        if (!brand(this)) throw illegal();
        if (arguments.length < 2) throw argumentsRequired('append', 2, arguments.length);
        name = byteString(name, 'Headers.append', 'name');
        value = byteString(value, 'Headers.append', 'value');
        this.#append(name, value);
      }
      delete(name) {
        if (!brand(this)) throw illegal();
        if (arguments.length < 1) throw argumentsRequired('delete', 1, 0);
        const lower = this.#name('delete', name);
        if (!this.#map.has(lower)) return;
        this.#sorted = null;
        if (lower === 'set-cookie') this.#cookies = null;
        this.#map.delete(lower);
      }
      get(name) {
        if (!brand(this)) throw illegal();
        if (arguments.length < 1) throw argumentsRequired('get', 1, 0);
        return this.#map.get(this.#name('get', name))?.value ?? null;
      }
      has(name) {
        if (!brand(this)) throw illegal();
        if (arguments.length < 1) throw argumentsRequired('has', 1, 0);
        return this.#map.has(this.#name('has', name));
      }
      set(name, value) {
        if (!brand(this)) throw illegal();
        if (arguments.length < 2) throw argumentsRequired('set', 2, arguments.length);
        name = byteString(name, 'Headers.set', 'name');
        value = normalize(byteString(value, 'Headers.set', 'value'));
        if (!validName(name)) throw invalid('set', name, 'header name');
        if (!validValue(value)) throw invalid('set', value, 'header value');
        this.#sorted = null;
        const lower = name.toLowerCase();
        if (lower === 'set-cookie') this.#cookies = [value];
        this.#map.set(lower, { name, value });
      }
      getSetCookie() {
        if (!brand(this)) throw illegal();
        return this.#cookies === null ? [] : [...this.#cookies];
      }
      keys() {
        if (!brand(this)) throw illegal();
        return newIterator(this, 'key');
      }
      values() {
        if (!brand(this)) throw illegal();
        return newIterator(this, 'value');
      }
      entries() {
        if (!brand(this)) throw illegal();
        return newIterator(this, 'key+value');
      }
      // undici calls the callback on the global object when no `thisArg` is given.
      forEach(callback, thisArg = g) {
        if (!brand(this)) throw illegal();
        if (arguments.length < 1) throw argumentsRequired('forEach', 1, 0);
        if (typeof callback !== 'function') {
          throw new TypeError("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.");
        }
        for (let i = 0; i < sortedOf(this).length; i++) {
          const [name, value] = sortedOf(this)[i];
          Reflect.apply(callback, thisArg, [value, name, this]);
        }
      }
    }
    // A sequence of sequences, as undici's WebIDL converter reads one.
    const sequence = (init, iterator) => {
      const out = [];
      const outer = Reflect.apply(iterator, init, []);
      if (outer === undefined || typeof outer?.next !== 'function') throw new TypeError(`${CONSTRUCTOR}: init is not iterable.`);
      for (let index = 0; ; index++) {
        const { done, value } = outer.next();
        if (done) break;
        const argument = `init[${index}]`;
        if (!isObject(value)) throw new TypeError(`${CONSTRUCTOR}: ${argument} (${shown(value)}) is not iterable.`);
        const inner = value[Symbol.iterator]?.();
        if (inner === undefined || typeof inner.next !== 'function') throw new TypeError(`${CONSTRUCTOR}: ${argument} is not iterable.`);
        const pair = [];
        for (let j = 0; ; j++) {
          const step = inner.next();
          if (step.done) break;
          pair.push(byteString(step.value, CONSTRUCTOR, `${argument}[${j}]`));
        }
        out.push(pair);
      }
      return out;
    };
    for (const name of ['append', 'delete', 'get', 'has', 'set', 'getSetCookie', 'keys', 'values', 'entries', 'forEach']) {
      Object.defineProperty(Headers.prototype, name, { enumerable: true });
    }
    Object.defineProperty(Headers.prototype, Symbol.iterator, {
      value: Headers.prototype.entries,
      writable: true,
      configurable: true,
    });
    Object.defineProperty(Headers.prototype, Symbol.toStringTag, { value: 'Headers', configurable: true });

    // undici's iterator reads the sorted list afresh at each step.
    const newIterator = g.__fc$pairIterators('Headers Iterator', sortedOf, () =>
      new TypeError("'next' called on an object that does not implement interface Headers Iterator."));
    return Headers;
  };

  return { makeHeaders };
})(globalThis)
