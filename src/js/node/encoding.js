// What `Buffer`, `TextEncoder`, `TextDecoder` and `Blob` are made of (see `globals.js`): read into a context
// only when one of them is first used, since most code under test never does, and a context built for
// every test must stay cheap (this is most of Node's globals' code). Answers the four makers.
(function (g) {
  'use strict';
  const { coded, invalidArgType, invalidThis, hostAccess } = g.__fc$nodeErrors;
  const uninitialized = g.__fc$uninitialized;

  // UTF-8 as the WHATWG Encoding Standard (and Node) decode it: each maximal invalid subpart becomes one
  // U+FFFD.
  const decodeUtf8 = (bytes, start, end, fatal) => {
    let out = '';
    let chunk = [];
    const flush = () => {
      out += String.fromCharCode.apply(null, chunk);
      chunk = [];
    };
    let i = start;
    while (i < end) {
      const b = bytes[i++];
      let cp = 0xfffd;
      if (b < 0x80) {
        cp = b;
      } else if (b >= 0xc2 && b <= 0xf4) {
        const need = b < 0xe0 ? 1 : b < 0xf0 ? 2 : 3;
        let value = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
        const lower = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
        const upper = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
        let seen = 0;
        for (; seen < need && i < end; seen++) {
          const c = bytes[i];
          if (c < (seen === 0 ? lower : 0x80) || c > (seen === 0 ? upper : 0xbf)) break;
          value = (value << 6) | (c & 0x3f);
          i++;
        }
        if (seen === need) cp = value;
      }
      if (fatal && cp === 0xfffd && !(b === 0xef && bytes[i - 2] === 0xbf && bytes[i - 1] === 0xbd)) {
        throw coded(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', 'The encoded data was not valid for encoding utf-8');
      }
      if (cp > 0xffff) {
        cp -= 0x10000;
        chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else {
        chunk.push(cp);
      }
      if (chunk.length > 8192) flush();
    }
    flush();
    return out;
  };
  const encodeUtf8 = (string) => {
    const bytes = [];
    for (let i = 0; i < string.length; i++) {
      let cp = string.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < string.length) {
        const next = string.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
          i++;
        }
      }
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      if (cp < 0x80) bytes.push(cp);
      else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
      else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
      else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    }
    return bytes;
  };

  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const BASE64_URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const encodeBase64 = (bytes, start, end, alphabet, pad) => {
    let out = '';
    for (let i = start; i < end; i += 3) {
      const n = (bytes[i] << 16) | ((i + 1 < end ? bytes[i + 1] : 0) << 8) | (i + 2 < end ? bytes[i + 2] : 0);
      out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63];
      out += i + 1 < end ? alphabet[(n >> 6) & 63] : pad ? '=' : '';
      out += i + 2 < end ? alphabet[n & 63] : pad ? '=' : '';
    }
    return out;
  };
  // Node's base64 decoder takes both alphabets, skips what is not in them and stops at `=`.
  const decodeBase64 = (string) => {
    const bytes = [];
    let bits = 0;
    let value = 0;
    for (const ch of string) {
      if (ch === '=') break;
      let index = BASE64.indexOf(ch);
      if (index < 0) index = ch === '-' ? 62 : ch === '_' ? 63 : -1;
      if (index < 0) continue;
      value = (value << 6) | index;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes.push((value >> bits) & 0xff);
      }
    }
    return bytes;
  };

  const ENCODINGS = {
    utf8: 'utf8', 'utf-8': 'utf8', hex: 'hex', base64: 'base64', base64url: 'base64url', latin1: 'latin1',
    binary: 'latin1', ascii: 'ascii', ucs2: 'utf16le', 'ucs-2': 'utf16le', utf16le: 'utf16le', 'utf-16le': 'utf16le',
  };
  const encodingOf = (encoding) => {
    if (encoding === undefined || encoding === null || encoding === '') return 'utf8';
    const found = ENCODINGS[String(encoding).toLowerCase()];
    if (found === undefined) throw coded(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding);
    return found;
  };
  const bytesOf = (string, encoding) => {
    switch (encodingOf(encoding)) {
      case 'utf8':
        return encodeUtf8(string);
      case 'hex': {
        const bytes = [];
        for (let i = 0; i + 1 < string.length; i += 2) {
          const byte = parseInt(string.slice(i, i + 2), 16);
          if (Number.isNaN(byte) || !/^[0-9a-fA-F]{2}$/.test(string.slice(i, i + 2))) break;
          bytes.push(byte);
        }
        return bytes;
      }
      case 'base64':
      case 'base64url':
        return decodeBase64(string);
      case 'utf16le': {
        const bytes = [];
        for (let i = 0; i < string.length; i++) {
          const c = string.charCodeAt(i);
          bytes.push(c & 0xff, c >> 8);
        }
        return bytes;
      }
      default:
        return Array.from({ length: string.length }, (_, i) => string.charCodeAt(i) & 0xff);
    }
  };
  const textOf = (bytes, encoding, start, end) => {
    switch (encodingOf(encoding)) {
      case 'utf8':
        return decodeUtf8(bytes, start, end);
      case 'hex': {
        let out = '';
        for (let i = start; i < end; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
        return out;
      }
      case 'base64':
        return encodeBase64(bytes, start, end, BASE64, true);
      case 'base64url':
        return encodeBase64(bytes, start, end, BASE64_URL, false);
      case 'utf16le': {
        let out = '';
        for (let i = start; i + 1 < end; i += 2) out += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
        return out;
      }
      case 'ascii': {
        let out = '';
        for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i] & 0x7f);
        return out;
      }
      default: {
        let out = '';
        for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]);
        return out;
      }
    }
  };

  const makeBuffer = () => {
    const checkSize = (size) => {
      if (typeof size !== 'number') throw invalidArgType('size', 'of type number', size);
      if (!(size >= 0 && size <= 4294967296)) {
        throw coded(RangeError, 'ERR_OUT_OF_RANGE',
          'The value of "size" is out of range. It must be >= 0 && <= 4294967296. Received ' + String(size));
      }
    };
    class FastBuffer extends Uint8Array {}
    function Buffer(arg, encodingOrOffset, length) {
      if (typeof arg === 'number') {
        if (typeof encodingOrOffset === 'string') throw invalidArgType('string', 'of type string', arg);
        return Buffer.alloc(arg);
      }
      return Buffer.from(arg, encodingOrOffset, length);
    }
    Object.defineProperty(FastBuffer.prototype, 'constructor', { value: Buffer, writable: true, configurable: true });
    Buffer.prototype = FastBuffer.prototype;
    Object.setPrototypeOf(Buffer, Uint8Array);
    const proto = FastBuffer.prototype;
    const wrap = (bytes) => {
      const buffer = new FastBuffer(bytes.length);
      buffer.set(bytes);
      return buffer;
    };
    Buffer.poolSize = 8192;
    Buffer.from = function from(value, encodingOrOffset, length) {
      if (typeof value === 'string') return wrap(bytesOf(value, encodingOrOffset));
      if (value instanceof ArrayBuffer) {
        const offset = encodingOrOffset === undefined ? 0 : +encodingOrOffset;
        return new FastBuffer(value, offset, length === undefined ? value.byteLength - offset : +length);
      }
      if (ArrayBuffer.isView(value)) return wrap(new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice());
      if (value !== null && typeof value === 'object') {
        if (Array.isArray(value)) return wrap(value.map((v) => v & 0xff));
        const primitive = value.valueOf && value.valueOf();
        if (primitive !== null && primitive !== undefined && primitive !== value) return Buffer.from(primitive, encodingOrOffset, length);
        if (value.type === 'Buffer' && Array.isArray(value.data)) return wrap(value.data.map((v) => v & 0xff));
        if (typeof value.length === 'number') return wrap(Array.from({ length: value.length }, (_, i) => value[i] & 0xff));
      }
      throw invalidArgType('first', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object', value);
    };
    Buffer.alloc = function alloc(size, fill, encoding) {
      checkSize(size);
      const buffer = new FastBuffer(size);
      if (fill !== undefined && fill !== 0 && size > 0) buffer.fill(fill, 0, size, encoding);
      return buffer;
    };
    Buffer.allocUnsafe = function allocUnsafe(size) {
      checkSize(size);
      const buffer = new FastBuffer(size);
      uninitialized.fill(buffer);
      return buffer;
    };
    Buffer.allocUnsafeSlow = Buffer.allocUnsafe;
    Buffer.isBuffer = function isBuffer(b) {
      return b instanceof Buffer;
    };
    Buffer.isEncoding = function isEncoding(encoding) {
      return typeof encoding === 'string' && encoding.length !== 0 && ENCODINGS[encoding.toLowerCase()] !== undefined;
    };
    Buffer.byteLength = function byteLength(string, encoding) {
      if (typeof string !== 'string') {
        if (ArrayBuffer.isView(string) || string instanceof ArrayBuffer) return string.byteLength;
        throw invalidArgType('string', 'of type string or an instance of Buffer or ArrayBuffer', string);
      }
      return bytesOf(string, encoding).length;
    };
    // Node's `types.isUint8Array`: a `Uint8Array` or an instance of a subclass (a `Buffer`), by the
    // typed array's own tag, which an array-like or another kind of typed array does not have.
    const tagOf = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
    const isUint8Array = (value) => ArrayBuffer.isView(value) && Reflect.apply(tagOf, value, []) === 'Uint8Array';
    const bytesOnly = (name, value) => {
      if (!isUint8Array(value)) throw invalidArgType(name, 'an instance of Buffer or Uint8Array', value);
    };
    const compareBytes = (a, b) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
      return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
    };
    // As Node's, which refuses what is not bytes (a string compared as characters would answer a number
    // where Node throws).
    Buffer.compare = function compare(buf1, buf2) {
      bytesOnly('buf1', buf1);
      bytesOnly('buf2', buf2);
      return compareBytes(buf1, buf2);
    };
    // As Node's, in its order: an empty list answers an empty buffer before `totalLength` is checked (a
    // negative length computed from an empty slice is no error there).
    Buffer.concat = function concat(list, totalLength) {
      if (!Array.isArray(list)) throw invalidArgType('list', 'an instance of Array', list);
      if (list.length === 0) return new FastBuffer(0);
      let length = totalLength;
      if (length === undefined) {
        length = 0;
        for (const item of list) if (item.length) length += item.length;
      } else {
        if (typeof length !== 'number') throw invalidArgType('length', 'of type number', length);
        const range = !Number.isInteger(length) ? 'an integer' : length < 0 || length > 4294967296 ? '>= 0 && <= 4294967296' : '';
        if (range) {
          throw coded(RangeError, 'ERR_OUT_OF_RANGE',
            'The value of "length" is out of range. It must be ' + range + '. Received ' + String(length));
        }
      }
      const buffer = new FastBuffer(length);
      let at = 0;
      list.forEach((item, index) => {
        if (!(item instanceof Uint8Array)) throw invalidArgType('list[' + index + ']', 'an instance of Buffer or Uint8Array', item);
        for (let i = 0; i < item.length && at < length; i++) buffer[at++] = item[i];
      });
      return buffer;
    };
    proto.toString = function toString(encoding, start, end) {
      if (arguments.length === 0) return decodeUtf8(this, 0, this.length);
      start = start === undefined || start < 0 ? 0 : Math.min(start | 0, this.length);
      end = end === undefined || end > this.length ? this.length : end | 0;
      return end <= start ? '' : textOf(this, encoding, start, end);
    };
    proto.toLocaleString = proto.toString;
    proto.toJSON = function toJSON() {
      return { type: 'Buffer', data: Array.from(this) };
    };
    proto.equals = function equals(other) {
      bytesOnly('otherBuffer', other);
      return compareBytes(this, other) === 0;
    };
    proto.compare = function compare(target) {
      bytesOnly('target', target);
      return compareBytes(this, target);
    };
    proto.write = function write(string, offset, length, encoding) {
      if (typeof offset === 'string') {
        encoding = offset;
        offset = 0;
      } else if (typeof length === 'string') {
        encoding = length;
        length = undefined;
      }
      offset = offset === undefined ? 0 : offset;
      const bytes = bytesOf(string, encoding);
      const n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
      for (let i = 0; i < n; i++) this[offset + i] = bytes[i];
      return Math.max(n, 0);
    };
    proto.copy = function copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
      let n = 0;
      for (let i = sourceStart; i < sourceEnd && targetStart + n < target.length; i++) target[targetStart + n++] = this[i];
      return n;
    };
    const fill = Uint8Array.prototype.fill;
    proto.fill = function fill_(value, offset, end, encoding) {
      if (typeof offset === 'string') {
        encoding = offset;
        offset = 0;
        end = this.length;
      }
      offset = offset === undefined ? 0 : offset;
      end = end === undefined ? this.length : end;
      if (typeof value === 'string') {
        const bytes = bytesOf(value, encoding);
        if (bytes.length === 0) return Reflect.apply(fill, this, [0, offset, end]);
        for (let i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
        return this;
      }
      return Reflect.apply(fill, this, [typeof value === 'number' ? value & 255 : value ? 1 : 0, offset, end]);
    };
    Object.defineProperty(proto.fill, 'name', { value: 'fill' });
    proto.slice = function slice(start, end) {
      const view = Uint8Array.prototype.subarray.call(this, start, end);
      return new FastBuffer(view.buffer, view.byteOffset, view.length);
    };
    proto.subarray = proto.slice;
    const search = (self, value, byteOffset, encoding, last) => {
      const needle = typeof value === 'number' ? [value & 255] : typeof value === 'string' ? bytesOf(value, encoding) : Array.from(value);
      const length = self.length;
      let from = byteOffset === undefined ? (last ? length - needle.length : 0) : byteOffset < 0 ? length + byteOffset : byteOffset;
      const matches = (at) => needle.every((b, k) => self[at + k] === b);
      if (last) {
        for (let i = Math.min(from, length - needle.length); i >= 0; i--) if (matches(i)) return i;
      } else {
        for (let i = Math.max(from, 0); i + needle.length <= length; i++) if (matches(i)) return i;
      }
      return -1;
    };
    proto.indexOf = function indexOf(value, byteOffset, encoding) {
      return search(this, value, byteOffset, encoding, false);
    };
    proto.lastIndexOf = function lastIndexOf(value, byteOffset, encoding) {
      return search(this, value, byteOffset, encoding, true);
    };
    proto.includes = function includes(value, byteOffset, encoding) {
      return search(this, value, byteOffset, encoding, false) !== -1;
    };
    const view = (self) => new DataView(self.buffer, self.byteOffset, self.byteLength);
    const checkOffset = (self, offset, size) => {
      if (offset === undefined) offset = 0;
      if (typeof offset !== 'number') throw invalidArgType('offset', 'of type number', offset);
      if (self.length < size) {
        throw coded(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
      }
      if (!Number.isInteger(offset) || offset < 0 || offset + size > self.length) {
        throw coded(RangeError, 'ERR_OUT_OF_RANGE',
          'The value of "offset" is out of range. It must be >= 0 and <= ' + (self.length - size) + '. Received ' + offset);
      }
      return offset;
    };
    const NUMBERS = [['UInt8', 'Uint8', 1], ['Int8', 'Int8', 1], ['UInt16', 'Uint16', 2], ['Int16', 'Int16', 2],
      ['UInt32', 'Uint32', 4], ['Int32', 'Int32', 4], ['Float', 'Float32', 4], ['Double', 'Float64', 8],
      ['BigUInt64', 'BigUint64', 8], ['BigInt64', 'BigInt64', 8]];
    for (const [name, type, size] of NUMBERS) {
      for (const [suffix, little] of size === 1 ? [['', false]] : [['LE', true], ['BE', false]]) {
        proto['read' + name + suffix] = function (offset) {
          return view(this)['get' + type](checkOffset(this, offset, size), little);
        };
        proto['write' + name + suffix] = function (value, offset) {
          const at = checkOffset(this, offset, size);
          view(this)['set' + type](at, value, little);
          return at + size;
        };
        if (name.startsWith('UInt') || name.startsWith('BigUInt')) {
          const alias = name.replace('UInt', 'Uint');
          proto['read' + alias + suffix] = proto['read' + name + suffix];
          proto['write' + alias + suffix] = proto['write' + name + suffix];
        }
      }
    }
    return Buffer;
  };

  const makeTextEncoder = () =>
    class TextEncoder {
      get encoding() {
        return 'utf-8';
      }
      encode(input = '') {
        return new Uint8Array(encodeUtf8(String(input)));
      }
      encodeInto(source, destination) {
        const bytes = encodeUtf8(String(source));
        let written = 0;
        let read = 0;
        let i = 0;
        for (const ch of String(source)) {
          const size = encodeUtf8(ch).length;
          if (written + size > destination.length) break;
          for (let k = 0; k < size; k++) destination[written + k] = bytes[i + k];
          written += size;
          i += size;
          read += ch.length;
        }
        return { read, written };
      }
    };

  const makeTextDecoder = () => {
    const LABELS = { 'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16': 'utf-16le', latin1: 'windows-1252', 'iso-8859-1': 'windows-1252', ascii: 'windows-1252', 'windows-1252': 'windows-1252' };
    return class TextDecoder {
      #encoding;
      #fatal;
      #ignoreBOM;
      #pending = [];
      constructor(label = 'utf-8', options = {}) {
        const encoding = LABELS[String(label).trim().toLowerCase()];
        if (encoding === undefined) {
          throw coded(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', 'The "' + label + '" encoding is not supported');
        }
        this.#encoding = encoding;
        this.#fatal = Boolean(options && options.fatal);
        this.#ignoreBOM = Boolean(options && options.ignoreBOM);
      }
      get encoding() {
        return this.#encoding;
      }
      get fatal() {
        return this.#fatal;
      }
      get ignoreBOM() {
        return this.#ignoreBOM;
      }
      decode(input, options = {}) {
        let bytes;
        if (input === undefined) bytes = [];
        else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
        else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
        else throw invalidArgType('input', 'an instance of ArrayBuffer or ArrayBufferView', input);
        const all = this.#pending.concat(Array.from(bytes));
        let end = all.length;
        if (options && options.stream && this.#encoding === 'utf-8') {
          // Keep an incomplete sequence at the end for the next call.
          for (let back = 1; back <= Math.min(3, all.length); back++) {
            const b = all[all.length - back];
            if ((b & 0xc0) === 0x80) continue;
            const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
            if (need > back) end = all.length - back;
            break;
          }
        }
        this.#pending = options && options.stream ? all.slice(end) : [];
        let start = 0;
        let text;
        if (this.#encoding === 'utf-8') {
          if (!this.#ignoreBOM && all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf) start = 3;
          text = decodeUtf8(all, start, end, this.#fatal);
        } else if (this.#encoding === 'utf-16le') {
          if (!this.#ignoreBOM && all[0] === 0xff && all[1] === 0xfe) start = 2;
          text = textOf(all, 'utf16le', start, end);
        } else {
          text = textOf(all, 'latin1', 0, end);
        }
        return text;
      }
    };
  };

  // `Blob` as Node 20 has it: immutable bytes in memory with a media type. Sources are blobs, array
  // buffers and their views, or strings (UTF-8, line endings as they are or made `\n`); anything else
  // becomes its string. Its reads answer promises, as Node's do.
  const makeBlob = () => {
    let bytesOf = null;
    const disallowedType = /[^\u{0020}-\u{007E}]/u;
    const typeOf = (type) => (disallowedType.test(type) ? '' : type.toLowerCase());
    class Blob {
      #bytes;
      #type;
      static {
        bytesOf = (v) => (typeof v === 'object' && v !== null && #bytes in v ? v.#bytes : null);
      }
      constructor(sources = [], options = undefined) {
        if (sources === null || typeof sources[Symbol.iterator] !== 'function' || typeof sources === 'string') {
          throw invalidArgType('sources', 'a sequence', sources);
        }
        if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
          throw invalidArgType('options', 'a dictionary', options);
        }
        const { endings = 'transparent', type = '' } = options ?? {};
        if (endings !== 'transparent' && endings !== 'native') {
          throw coded(TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.endings' is invalid. Received " +
            (typeof endings === 'string' ? "'" + endings + "'" : String(endings)));
        }
        const parts = [];
        let length = 0;
        for (const source of sources) {
          let bytes = bytesOf(source);
          if (bytes === null && source instanceof ArrayBuffer) bytes = new Uint8Array(source.slice(0));
          else if (bytes === null && ArrayBuffer.isView(source)) {
            bytes = new Uint8Array(source.buffer.slice(source.byteOffset, source.byteOffset + source.byteLength));
          } else if (bytes === null) {
            let text = `${source}`;
            if (endings === 'native') text = text.replace(/\r?\n/g, '\n');
            bytes = new Uint8Array(encodeUtf8(text));
          }
          parts.push(bytes);
          length += bytes.length;
        }
        const all = new Uint8Array(length);
        let at = 0;
        for (const part of parts) {
          all.set(part, at);
          at += part.length;
        }
        this.#bytes = all;
        this.#type = typeOf(`${type}`);
      }
      get size() {
        if (bytesOf(this) === null) throw invalidThis('Blob');
        return this.#bytes.length;
      }
      get type() {
        if (bytesOf(this) === null) throw invalidThis('Blob');
        return this.#type;
      }
      slice(start = 0, end = undefined, contentType = '') {
        if (bytesOf(this) === null) throw invalidThis('Blob');
        const length = this.#bytes.length;
        if (end === undefined) end = length;
        if (start < 0) start = Math.max(length + start, 0);
        else start = Math.min(start, length);
        if (end < 0) end = Math.max(length + end, 0);
        else end = Math.min(end, length);
        const span = Math.max(end - start, 0);
        return new Blob([this.#bytes.subarray(start, start + span)], { type: `${contentType}` });
      }
      arrayBuffer() {
        const bytes = bytesOf(this);
        if (bytes === null) return Promise.reject(invalidThis('Blob'));
        return Promise.resolve(bytes.slice().buffer);
      }
      text() {
        const bytes = bytesOf(this);
        if (bytes === null) return Promise.reject(invalidThis('Blob'));
        return Promise.resolve(decodeUtf8(bytes, 0, bytes.length, false));
      }
      bytes() {
        const bytes = bytesOf(this);
        if (bytes === null) return Promise.reject(invalidThis('Blob'));
        return Promise.resolve(bytes.slice());
      }
      // A web stream: the sandbox has none.
      stream() {
        throw hostAccess('Blob.stream(), a ReadableStream, which Node has and the sandbox does not');
      }
    }
    Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });
    return Blob;
  };

  return { makeBuffer, makeTextEncoder, makeTextDecoder, makeBlob };
})(globalThis)
