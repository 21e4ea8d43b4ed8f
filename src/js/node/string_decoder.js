// Node's `string_decoder` module, host-free: `StringDecoder` turns chunks of bytes into text without
// splitting a character across chunks (UTF-8, UTF-16LE, base64), as Node's does: an incomplete character
// waits for the next `write`, and `end` turns what is left into U+FFFD (UTF-8) or its text.
'use strict';

const { Buffer } = require('buffer');

// Like Node's, an instance's only own string-keyed property is `encoding`.
const kPending = Symbol('kNativeDecoder');
const ENCODINGS = {
  utf8: 'utf8', 'utf-8': 'utf8', ucs2: 'utf16le', 'ucs-2': 'utf16le', utf16le: 'utf16le', 'utf-16le': 'utf16le',
  latin1: 'latin1', binary: 'latin1', base64: 'base64', base64url: 'base64url', ascii: 'ascii', hex: 'hex',
};

// How many bytes at the end of `bytes` start a character that needs more bytes than there are.
const incompleteTail = (bytes, encoding) => {
  if (encoding === 'utf8') {
    for (let back = 1; back <= Math.min(3, bytes.length); back++) {
      const b = bytes[bytes.length - back];
      if ((b & 0xc0) === 0x80) continue;
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back ? back : 0;
    }
    return 0;
  }
  if (encoding === 'utf16le') {
    if (bytes.length % 2 === 1) return 1;
    const last = bytes.length >= 2 ? bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8) : 0;
    return last >= 0xd800 && last <= 0xdbff ? 2 : 0;
  }
  if (encoding === 'base64' || encoding === 'base64url') return bytes.length % 3;
  return 0;
};

function StringDecoder(encoding) {
  const normalized = ENCODINGS[String(encoding === undefined ? 'utf8' : encoding).toLowerCase()];
  if (normalized === undefined) throw globalThis.__fc$nodeErrors.coded(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding);
  this.encoding = normalized;
  this[kPending] = Buffer.alloc(0);
}

StringDecoder.prototype.write = function write(buf) {
  if (typeof buf === 'string') return buf;
  const all = Buffer.concat([this[kPending], Buffer.from(buf)]);
  const tail = incompleteTail(all, this.encoding);
  this[kPending] = all.slice(all.length - tail);
  return all.toString(this.encoding, 0, all.length - tail);
};

StringDecoder.prototype.end = function end(buf) {
  let text = buf === undefined ? '' : this.write(buf);
  if (this[kPending].length > 0) {
    text += this.encoding === 'utf8' ? '\ufffd' : this[kPending].toString(this.encoding);
  }
  this[kPending] = Buffer.alloc(0);
  return text;
};

StringDecoder.prototype.text = function text(buf, offset) {
  return this.write(buf.slice(offset));
};

module.exports = { StringDecoder };
