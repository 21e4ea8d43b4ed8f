// `URL` and `URLSearchParams` as Node 20 has them as globals: the WHATWG URL standard's basic URL parser
// (as Ada implements it for Node), its serialisers, setters on every component, and the
// application/x-www-form-urlencoded list a URL's `searchParams` shares with its query, with Node's
// getters, property order, errors (codes, messages, `input` and `base`) and iterators. Read into a
// context when one is first used (see `globals.js`), as `web.js` is. Host names beyond ASCII need
// Unicode's IDNA mapping, data the sandbox does not carry: a test that parses one is host access rather
// than a test that would answer differently under Node. Answers the maker of both classes.
(function (g) {
  'use strict';
  const { coded, invalidArgType, invalidThis , hostAccess, missingArgs } = g.__fc$nodeErrors;
  // Where Node's parser (Ada) answers otherwise than the standard in a way not worth copying, a test is
  // reported as host access: it must not pass here and fail under Node.
  const unlike = (what) => hostAccess(what + ", where Node's URL parser answers otherwise than the URL standard");
  const invalidUrl = (input, base) => {
    const error = coded(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
    error.input = input;
    if (base !== undefined) error.base = base;
    return error;
  };

  // WebIDL's USVString: a string with each lone surrogate replaced by U+FFFD.
  const usv = (value) => {
    if (typeof value === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
    const s = `${value}`;
    let out = null;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0xd800 || c > 0xdfff) continue;
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      if (out === null) out = s.split('');
      out[i] = '\ufffd';
    }
    return out === null ? s : out.join('');
  };

  // UTF-8 bytes of a string without lone surrogates.
  const utf8 = (s) => {
    const bytes = [];
    for (const ch of s) {
      const c = ch.codePointAt(0);
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return bytes;
  };
  // The WHATWG UTF-8 decoder: each maximal ill-formed subpart is one U+FFFD.
  const decodeUtf8 = (bytes) => {
    let out = '';
    for (let i = 0; i < bytes.length; ) {
      const b = bytes[i];
      if (b < 0x80) {
        out += String.fromCharCode(b);
        i++;
        continue;
      }
      let need = 0;
      let code = 0;
      let lower = 0x80;
      let upper = 0xbf;
      if (b >= 0xc2 && b <= 0xdf) {
        need = 1;
        code = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        code = b & 0xf;
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        code = b & 0x7;
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
      } else {
        out += '\ufffd';
        i++;
        continue;
      }
      let j = i + 1;
      let ok = true;
      for (let k = 0; k < need; k++, j++) {
        const c = bytes[j];
        if (c === undefined || c < lower || c > upper) {
          ok = false;
          break;
        }
        lower = 0x80;
        upper = 0xbf;
        code = (code << 6) | (c & 0x3f);
      }
      out += ok ? String.fromCodePoint(code) : '\ufffd';
      i = j;
    }
    return out;
  };
  const HEX = '0123456789ABCDEF';
  const isHex = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
  const hexValue = (c) => (c <= 57 ? c - 48 : (c | 0x20) - 87);
  // The bytes of `s` (UTF-8) with each `%XX` decoded.
  const percentDecode = (s) => {
    const bytes = utf8(s);
    const out = [];
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === 37 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
        out.push(hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]));
        i += 2;
      } else {
        out.push(b);
      }
    }
    return out;
  };

  // The percent-encode sets, as predicates on a code point.
  const c0 = (c) => c < 0x20 || c > 0x7e;
  const fragmentSet = (c) => c0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
  const querySet = (c) => c0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
  const specialQuerySet = (c) => querySet(c) || c === 0x27;
  const pathSet = (c) => querySet(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
  const userinfoSet = (c) =>
    pathSet(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 || (c >= 0x5b && c <= 0x5e) || c === 0x7c;
  const encode = (ch, set) => {
    const c = ch.codePointAt(0);
    if (!set(c)) return ch;
    let out = '';
    for (const b of utf8(ch)) out += '%' + HEX[b >> 4] + HEX[b & 15];
    return out;
  };
  const encodeAll = (s, set) => {
    let out = '';
    for (const ch of s) out += encode(ch, set);
    return out;
  };

  const SPECIAL = { __proto__: null, 'ftp:': 21, 'file:': null, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };
  const isSpecial = (scheme) => scheme + ':' in SPECIAL;
  const defaultPort = (scheme) => SPECIAL[scheme + ':'] ?? null;
  const isAlpha = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const isDigit = (c) => c >= 48 && c <= 57;
  const isWindowsLetter = (s, normalized) =>
    s.length === 2 && isAlpha(s.charCodeAt(0)) && (s[1] === ':' || (!normalized && s[1] === '|'));
  const startsWithWindowsLetter = (cps, i) =>
    cps.length - i >= 2 &&
    isAlpha(cps[i]) &&
    (cps[i + 1] === 0x3a || cps[i + 1] === 0x7c) &&
    (cps.length - i === 2 || [0x2f, 0x5c, 0x3f, 0x23].includes(cps[i + 2]));
  const isSingleDot = (s) => s === '.' || s.toLowerCase() === '%2e';
  const isDoubleDot = (s) => {
    const l = s.toLowerCase();
    return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e';
  };
  const shortenPath = (url) => {
    const path = url.path;
    if (url.scheme === 'file' && path.length === 1 && isWindowsLetter(path[0], true)) return;
    path.pop();
  };

  // Hosts. A host is kept serialised: a domain, an opaque host, `a.b.c.d` or `[v6]`.
  const forbiddenHost = (c) =>
    c === 0 || c === 9 || c === 0xa || c === 0xd || c === 0x20 || c === 0x23 || c === 0x2f || c === 0x3a ||
    c === 0x3c || c === 0x3e || c === 0x3f || c === 0x40 || c === 0x5b || c === 0x5c || c === 0x5d ||
    c === 0x5e || c === 0x7c;
  const forbiddenDomain = (c) => forbiddenHost(c) || c <= 0x1f || c === 0x25 || c === 0x7f;
  const FAILURE = null;

  const parseIPv4Number = (s) => {
    if (s === '') return NaN;
    let radix = 10;
    if (s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) {
      s = s.slice(2);
      radix = 16;
    } else if (s.length >= 2 && s[0] === '0') {
      s = s.slice(1);
      radix = 8;
    }
    if (s === '') return 0;
    const valid = radix === 10 ? /^[0-9]+$/ : radix === 16 ? /^[0-9a-fA-F]+$/ : /^[0-7]+$/;
    if (!valid.test(s)) return NaN;
    return parseInt(s, radix);
  };
  const endsInNumber = (s) => {
    const parts = s.split('.');
    if (parts[parts.length - 1] === '') {
      if (parts.length === 1) return false;
      parts.pop();
    }
    const last = parts[parts.length - 1];
    if (last !== '' && /^[0-9]+$/.test(last)) return true;
    return !Number.isNaN(parseIPv4Number(last));
  };
  const parseIPv4 = (s) => {
    const parts = s.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    if (parts.length > 4) return FAILURE;
    const numbers = [];
    for (const part of parts) {
      const n = parseIPv4Number(part);
      if (Number.isNaN(n)) return FAILURE;
      numbers.push(n);
    }
    for (let i = 0; i < numbers.length - 1; i++) if (numbers[i] > 255) return FAILURE;
    if (numbers[numbers.length - 1] >= 256 ** (5 - numbers.length)) return FAILURE;
    let ipv4 = numbers[numbers.length - 1];
    for (let i = 0; i < numbers.length - 1; i++) ipv4 += numbers[i] * 256 ** (3 - i);
    const out = [];
    for (let i = 0; i < 4; i++) {
      out.unshift(String(ipv4 % 256));
      ipv4 = Math.floor(ipv4 / 256);
    }
    return out.join('.');
  };
  const parseIPv6 = (input) => {
    const cps = Array.from(input, (ch) => ch.codePointAt(0));
    const address = [0, 0, 0, 0, 0, 0, 0, 0];
    let piece = 0;
    let compress = null;
    let p = 0;
    if (cps[p] === 0x3a) {
      if (cps[p + 1] !== 0x3a) return FAILURE;
      p += 2;
      piece++;
      compress = piece;
    }
    while (p < cps.length) {
      if (piece === 8) return FAILURE;
      if (cps[p] === 0x3a) {
        if (compress !== null) return FAILURE;
        p++;
        piece++;
        compress = piece;
        continue;
      }
      let value = 0;
      let length = 0;
      while (length < 4 && p < cps.length && isHex(cps[p])) {
        value = value * 16 + hexValue(cps[p]);
        p++;
        length++;
      }
      if (cps[p] === 0x2e) {
        if (length === 0) return FAILURE;
        p -= length;
        if (piece > 6) return FAILURE;
        let seen = 0;
        while (p < cps.length) {
          let v4 = null;
          if (seen > 0) {
            if (cps[p] === 0x2e && seen < 4) p++;
            else return FAILURE;
          }
          if (!isDigit(cps[p] ?? -1)) return FAILURE;
          while (isDigit(cps[p] ?? -1)) {
            const n = cps[p] - 48;
            if (v4 === null) v4 = n;
            else if (v4 === 0) return FAILURE;
            else v4 = v4 * 10 + n;
            if (v4 > 255) return FAILURE;
            p++;
          }
          address[piece] = address[piece] * 0x100 + v4;
          seen++;
          if (seen === 2 || seen === 4) piece++;
        }
        if (seen !== 4) return FAILURE;
        break;
      } else if (cps[p] === 0x3a) {
        p++;
        if (p >= cps.length) return FAILURE;
      } else if (p < cps.length) {
        return FAILURE;
      }
      address[piece] = value;
      piece++;
    }
    if (compress !== null) {
      let swaps = piece - compress;
      piece = 7;
      while (piece !== 0 && swaps > 0) {
        const t = address[piece];
        address[piece] = address[compress + swaps - 1];
        address[compress + swaps - 1] = t;
        piece--;
        swaps--;
      }
    } else if (piece !== 8) {
      return FAILURE;
    }
    return address;
  };
  const serializeIPv6 = (address) => {
    let best = -1;
    let bestLength = 1;
    for (let i = 0; i < 8; ) {
      if (address[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && address[j] === 0) j++;
      if (j - i > bestLength) {
        best = i;
        bestLength = j - i;
      }
      i = j;
    }
    let out = '';
    let ignore0 = false;
    for (let i = 0; i < 8; i++) {
      if (ignore0 && address[i] === 0) continue;
      ignore0 = false;
      if (best === i) {
        out += i === 0 ? '::' : ':';
        ignore0 = true;
        continue;
      }
      out += address[i].toString(16);
      if (i !== 7) out += ':';
    }
    return '[' + out + ']';
  };

  // Punycode (RFC 3492) decoding of one label's part after `xn--`; null when it is not valid Punycode.
  const punycodeDecode = (input) => {
    const base = 36;
    const delimiter = input.lastIndexOf('-');
    const output = [];
    for (let i = 0; i < Math.max(delimiter, 0); i++) {
      const c = input.charCodeAt(i);
      if (c >= 0x80) return null;
      output.push(c);
    }
    let n = 128;
    let bias = 72;
    let i = 0;
    for (let p = delimiter > 0 ? delimiter + 1 : 0; p < input.length; ) {
      const old = i;
      for (let w = 1, k = base; ; k += base) {
        if (p >= input.length) return null;
        const c = input.charCodeAt(p++);
        const digit = c >= 48 && c <= 57 ? c - 22 : c >= 97 && c <= 122 ? c - 97 : c >= 65 && c <= 90 ? c - 65 : base;
        if (digit >= base || digit > Math.floor((0x7fffffff - i) / w)) return null;
        i += digit * w;
        const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (digit < t) break;
        w *= base - t;
      }
      const length = output.length + 1;
      let delta = old === 0 ? Math.floor((i - old) / 700) : (i - old) >> 1;
      delta += Math.floor(delta / length);
      let k = 0;
      while (delta > 455) {
        delta = Math.floor(delta / 35);
        k += base;
      }
      bias = k + Math.floor((36 * delta) / (delta + 38));
      n += Math.floor(i / length);
      if (n > 0x10ffff) return null;
      i %= length;
      output.splice(i++, 0, n);
    }
    return String.fromCodePoint(...output);
  };
  // Code points a Punycode label may decode to that UTS 46 surely leaves as they are (lower-case
  // letters of the cased scripts, and Han, kana and Hangul): a label holding others needs Unicode data.
  const plainLabel = (label) =>
    /^[\p{Ll}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}0-9-]+$/u.test(label) &&
    label.normalize('NFKC') === label &&
    label.toLowerCase() === label;
  // Domain to ASCII for an ASCII domain: lower-cased, with each `xn--` label valid Punycode.
  const domainToAscii = (domain) => {
    const ascii = domain.toLowerCase();
    for (const label of ascii.split('.')) {
      if (!label.startsWith('xn--')) continue;
      const decoded = punycodeDecode(label.slice(4));
      if (decoded === null || decoded === '') return FAILURE;
      if (!/^[\x00-\x7f]*$/.test(decoded) && !plainLabel(decoded)) {
        throw hostAccess('the URL host ' + JSON.stringify(domain) + ', whose Punycode label needs Unicode data');
      }
    }
    return ascii;
  };
  const parseHost = (input, notSpecial) => {
    if (input.startsWith('[')) {
      if (!input.endsWith(']')) return FAILURE;
      const address = parseIPv6(input.slice(1, -1));
      return address === FAILURE ? FAILURE : serializeIPv6(address);
    }
    if (notSpecial) {
      for (const ch of input) if (forbiddenHost(ch.codePointAt(0))) return FAILURE;
      return encodeAll(input, c0);
    }
    const bytes = percentDecode(input);
    if (bytes.some((b) => b >= 0x80)) {
      throw hostAccess('the URL host ' + JSON.stringify(input) + ', which needs Unicode\'s IDNA mapping');
    }
    const domain = String.fromCharCode(...bytes);
    const ascii = domainToAscii(domain);
    if (ascii === FAILURE || ascii === '') return FAILURE;
    for (let i = 0; i < ascii.length; i++) if (forbiddenDomain(ascii.charCodeAt(i))) return FAILURE;
    if (endsInNumber(ascii)) return parseIPv4(ascii);
    return ascii;
  };

  // The URL record: `path` is an array of segments, or a string for an opaque path.
  const newRecord = () => ({ scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null });
  const copyRecord = (r) => ({ ...r, path: typeof r.path === 'string' ? r.path : r.path.slice() });
  const includesCredentials = (r) => r.username !== '' || r.password !== '';
  const cannotHaveCredentials = (r) => r.host === null || r.host === '' || r.scheme === 'file';

  // The basic URL parser. With `override` (a setter's state), it changes `url` in place and answers
  // FAILURE or undefined; else it answers a new record or FAILURE.
  const parse = (input, base = null, url = null, override = null) => {
    if (url === null) {
      url = newRecord();
      input = input.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
    }
    input = input.replace(/[\t\n\r]/g, '');
    const cps = Array.from(input, (ch) => ch.codePointAt(0));
    let state = override ?? 'schemeStart';
    let buffer = '';
    let atSignSeen = false;
    let insideBrackets = false;
    let passwordTokenSeen = false;
    const EOF = -1;
    for (let p = 0; ; p++) {
      const c = p < cps.length ? cps[p] : EOF;
      const ch = c === EOF ? '' : String.fromCodePoint(c);
      const remaining = (n) => cps[p + n] ?? EOF;
      switch (state) {
        case 'schemeStart':
          if (isAlpha(c)) {
            buffer += ch.toLowerCase();
            state = 'scheme';
          } else if (override === null) {
            state = 'noScheme';
            p--;
          } else {
            return FAILURE;
          }
          break;
        case 'scheme':
          if (isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e) {
            buffer += ch.toLowerCase();
          } else if (c === 0x3a) {
            if (override !== null) {
              if (isSpecial(url.scheme) !== isSpecial(buffer)) return undefined;
              if ((includesCredentials(url) || url.port !== null) && buffer === 'file') return undefined;
              if (url.scheme === 'file' && url.host === '') return undefined;
            }
            url.scheme = buffer;
            if (override !== null) {
              if (url.port === defaultPort(url.scheme)) url.port = null;
              return undefined;
            }
            buffer = '';
            if (url.scheme === 'file') {
              state = 'file';
            } else if (isSpecial(url.scheme) && base !== null && base.scheme === url.scheme) {
              state = 'specialRelativeOrAuthority';
            } else if (isSpecial(url.scheme)) {
              state = 'specialAuthoritySlashes';
            } else if (remaining(1) === 0x2f) {
              state = 'pathOrAuthority';
              p++;
            } else {
              url.path = '';
              state = 'opaquePath';
            }
          } else if (override === null) {
            buffer = '';
            state = 'noScheme';
            p = -1;
          } else {
            return FAILURE;
          }
          break;
        case 'noScheme':
          if (base === null) return FAILURE;
          if (typeof base.path === 'string' && c !== 0x23) {
            if (cps.includes(0x23)) throw unlike('a relative URL with a fragment against a base with an opaque path');
            return FAILURE;
          }
          if (typeof base.path === 'string' && c === 0x23) {
            url.scheme = base.scheme;
            url.path = base.path;
            url.query = base.query;
            url.fragment = '';
            state = 'fragment';
          } else if (base.scheme !== 'file') {
            state = 'relative';
            p--;
          } else {
            state = 'file';
            p--;
          }
          break;
        case 'specialRelativeOrAuthority':
          if (c === 0x2f && remaining(1) === 0x2f) {
            state = 'specialAuthorityIgnoreSlashes';
            p++;
          } else {
            state = 'relative';
            p--;
          }
          break;
        case 'pathOrAuthority':
          if (c === 0x2f) {
            state = 'authority';
          } else {
            state = 'path';
            p--;
          }
          break;
        case 'relative':
          url.scheme = base.scheme;
          if (c === 0x2f) {
            state = 'relativeSlash';
          } else if (isSpecial(url.scheme) && c === 0x5c) {
            state = 'relativeSlash';
          } else {
            url.username = base.username;
            url.password = base.password;
            url.host = base.host;
            url.port = base.port;
            url.path = base.path.slice();
            url.query = base.query;
            if (c === 0x3f) {
              url.query = '';
              state = 'query';
            } else if (c === 0x23) {
              url.fragment = '';
              state = 'fragment';
            } else if (c !== EOF) {
              url.query = null;
              shortenPath(url);
              state = 'path';
              p--;
            }
          }
          break;
        case 'relativeSlash':
          if (isSpecial(url.scheme) && (c === 0x2f || c === 0x5c)) {
            state = 'specialAuthorityIgnoreSlashes';
          } else if (c === 0x2f) {
            state = 'authority';
          } else {
            url.username = base.username;
            url.password = base.password;
            url.host = base.host;
            url.port = base.port;
            state = 'path';
            p--;
          }
          break;
        case 'specialAuthoritySlashes':
          if (c === 0x2f && remaining(1) === 0x2f) {
            state = 'specialAuthorityIgnoreSlashes';
            p++;
          } else {
            state = 'specialAuthorityIgnoreSlashes';
            p--;
          }
          break;
        case 'specialAuthorityIgnoreSlashes':
          if (c !== 0x2f && c !== 0x5c) {
            state = 'authority';
            p--;
          }
          break;
        case 'authority':
          if (c === 0x40) {
            if (atSignSeen) buffer = '%40' + buffer;
            atSignSeen = true;
            for (const b of buffer) {
              if (b === ':' && !passwordTokenSeen) {
                passwordTokenSeen = true;
                continue;
              }
              const encoded = encode(b, userinfoSet);
              if (passwordTokenSeen) url.password += encoded;
              else url.username += encoded;
            }
            buffer = '';
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url.scheme) && c === 0x5c)) {
            if (atSignSeen && buffer === '') return FAILURE;
            p -= Array.from(buffer).length + 1;
            buffer = '';
            state = 'host';
          } else {
            buffer += ch;
          }
          break;
        case 'host':
        case 'hostname':
          if (override !== null && url.scheme === 'file') {
            p--;
            state = 'fileHost';
          } else if (c === 0x3a && !insideBrackets) {
            if (buffer === '') return FAILURE;
            if (override === 'hostname') return undefined;
            const host = parseHost(buffer, !isSpecial(url.scheme));
            if (host === FAILURE) return FAILURE;
            url.host = host;
            buffer = '';
            state = 'port';
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url.scheme) && c === 0x5c)) {
            p--;
            if (isSpecial(url.scheme) && buffer === '') return FAILURE;
            if (override !== null && buffer === '' && (includesCredentials(url) || url.port !== null)) return undefined;
            const host = parseHost(buffer, !isSpecial(url.scheme));
            if (host === FAILURE) return FAILURE;
            url.host = host;
            buffer = '';
            state = 'pathStart';
            if (override !== null) return undefined;
          } else {
            if (c === 0x5b) insideBrackets = true;
            if (c === 0x5d) insideBrackets = false;
            buffer += ch;
          }
          break;
        case 'port':
          if (isDigit(c)) {
            buffer += ch;
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url.scheme) && c === 0x5c) || override !== null) {
            if (buffer !== '') {
              const port = parseInt(buffer, 10);
              if (port > 65535) return FAILURE;
              url.port = port === defaultPort(url.scheme) ? null : port;
              buffer = '';
              if (override !== null) return undefined;
            }
            if (override !== null) return FAILURE;
            state = 'pathStart';
            p--;
          } else {
            return FAILURE;
          }
          break;
        case 'file':
          url.scheme = 'file';
          url.host = '';
          if (c === 0x2f || c === 0x5c) {
            state = 'fileSlash';
          } else if (base !== null && base.scheme === 'file') {
            url.host = base.host;
            url.path = base.path.slice();
            url.query = base.query;
            if (c === 0x3f) {
              url.query = '';
              state = 'query';
            } else if (c === 0x23) {
              url.fragment = '';
              state = 'fragment';
            } else if (c !== EOF) {
              url.query = null;
              if (!startsWithWindowsLetter(cps, p)) shortenPath(url);
              else url.path = [];
              state = 'path';
              p--;
            }
          } else {
            state = 'path';
            p--;
          }
          break;
        case 'fileSlash':
          if (c === 0x2f || c === 0x5c) {
            state = 'fileHost';
          } else {
            if (base !== null && base.scheme === 'file') {
              url.host = base.host;
              if (!startsWithWindowsLetter(cps, p) && typeof base.path !== 'string' && isWindowsLetter(base.path[0] ?? '', true)) {
                url.path.push(base.path[0]);
              }
            }
            state = 'path';
            p--;
          }
          break;
        case 'fileHost':
          if (c === EOF || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) {
            p--;
            if (override === null && isWindowsLetter(buffer, false)) {
              state = 'path';
            } else if (buffer === '') {
              url.host = '';
              if (override !== null) return undefined;
              state = 'pathStart';
            } else {
              let host = parseHost(buffer, false);
              if (host === FAILURE) return FAILURE;
              if (host === 'localhost') host = '';
              url.host = host;
              if (override !== null) return undefined;
              buffer = '';
              state = 'pathStart';
            }
          } else {
            buffer += ch;
          }
          break;
        case 'pathStart':
          if (isSpecial(url.scheme)) {
            state = 'path';
            if (c !== 0x2f && c !== 0x5c) p--;
          } else if (override === null && c === 0x3f) {
            url.query = '';
            state = 'query';
          } else if (override === null && c === 0x23) {
            url.fragment = '';
            state = 'fragment';
          } else if (c !== EOF) {
            state = 'path';
            if (c !== 0x2f) p--;
          } else if (override !== null && url.host === null) {
            url.path.push('');
          }
          break;
        case 'path': {
          const end = c === EOF || c === 0x2f || (isSpecial(url.scheme) && c === 0x5c);
          if (end || (override === null && (c === 0x3f || c === 0x23))) {
            const slash = c === 0x2f || (isSpecial(url.scheme) && c === 0x5c);
            if (isDoubleDot(buffer)) {
              // Node's parser (Ada) leaves the path of a URL of another scheme empty where `..` ends it
              // with nothing left to remove (`foo://h/..` is `foo://h`), where the standard has `/`.
              const nothingLeft = url.path.length === 0 && !isSpecial(url.scheme);
              shortenPath(url);
              if (!slash && !nothingLeft) url.path.push('');
            } else if (isSingleDot(buffer) && !slash) {
              url.path.push('');
            } else if (!isSingleDot(buffer)) {
              if (url.scheme === 'file' && url.path.length === 0 && isWindowsLetter(buffer, false)) {
                buffer = buffer[0] + ':';
              }
              url.path.push(buffer);
            }
            buffer = '';
            if (c === 0x3f) {
              url.query = '';
              state = 'query';
            }
            if (c === 0x23) {
              url.fragment = '';
              state = 'fragment';
            }
          } else {
            buffer += encode(ch, pathSet);
          }
          break;
        }
        case 'opaquePath':
          if (c === 0x3f) {
            url.query = '';
            state = 'query';
          } else if (c === 0x23) {
            url.fragment = '';
            state = 'fragment';
          } else if (c !== EOF) {
            url.path += encode(ch, c0);
          }
          break;
        case 'query':
          if ((override === null && c === 0x23) || c === EOF) {
            url.query += encodeAll(buffer, isSpecial(url.scheme) ? specialQuerySet : querySet);
            buffer = '';
            if (c === 0x23) {
              url.fragment = '';
              state = 'fragment';
            }
          } else {
            buffer += ch;
          }
          break;
        case 'fragment':
          if (c !== EOF) url.fragment += encode(ch, fragmentSet);
          break;
      }
      if (p >= cps.length) break;
    }
    return override === null ? url : undefined;
  };

  const serializePath = (r) => (typeof r.path === 'string' ? r.path : r.path.map((s) => '/' + s).join(''));
  const serialize = (r, excludeFragment = false) => {
    let out = r.scheme + ':';
    if (r.host !== null) {
      out += '//';
      if (includesCredentials(r)) {
        out += r.username;
        if (r.password !== '') out += ':' + r.password;
        out += '@';
      }
      out += r.host;
      if (r.port !== null) out += ':' + r.port;
    }
    if (r.host === null && typeof r.path !== 'string' && r.path.length > 1 && r.path[0] === '') out += '/.';
    out += serializePath(r);
    if (r.query !== null) out += '?' + r.query;
    if (!excludeFragment && r.fragment !== null) out += '#' + r.fragment;
    return out;
  };
  const origin = (r) => {
    if (r.scheme === 'blob') {
      const inner = typeof r.path === 'string' ? parse(r.path) : FAILURE;
      if (inner !== FAILURE && (inner.scheme === 'http' || inner.scheme === 'https')) return origin(inner);
      return 'null';
    }
    if (r.scheme in { ftp: 1, http: 1, https: 1, ws: 1, wss: 1 }) {
      return r.scheme + '://' + r.host + (r.port === null ? '' : ':' + r.port);
    }
    return 'null';
  };
  // An opaque path loses its trailing spaces once nothing follows it.
  const stripTrailingSpaces = (r) => {
    if (typeof r.path !== 'string' || r.fragment !== null || r.query !== null) return;
    r.path = r.path.replace(/ +$/, '');
  };

  // application/x-www-form-urlencoded.
  const parseForm = (input) => {
    const list = [];
    for (const sequence of input.split('&')) {
      if (sequence === '') continue;
      const at = sequence.indexOf('=');
      const name = at < 0 ? sequence : sequence.slice(0, at);
      const value = at < 0 ? '' : sequence.slice(at + 1);
      list.push([decodeUtf8(percentDecode(name.replace(/\+/g, ' '))), decodeUtf8(percentDecode(value.replace(/\+/g, ' ')))]);
    }
    return list;
  };
  const formByte = (b) =>
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f;
  const serializeFormPart = (s) => {
    let out = '';
    for (const b of utf8(s)) {
      if (b === 0x20) out += '+';
      else if (formByte(b)) out += String.fromCharCode(b);
      else out += '%' + HEX[b >> 4] + HEX[b & 15];
    }
    return out;
  };
  const serializeForm = (list) => list.map(([n, v]) => serializeFormPart(n) + '=' + serializeFormPart(v)).join('&');

  // The value of a host setter. Node sets an empty host with a port on a URL of another scheme
  // (`foo://h` with host `:80`), and on one without a host ignores a port or an empty value.
  const hostValue = (record, value, setter) => {
    if (isSpecial(record.scheme)) return value;
    const bare = value.replace(/[\t\n\r]/g, '');
    if (bare.startsWith(':') || ((record.host === null || record.host === '') && (bare === '' || bare.includes(':')))) {
      throw unlike('setting the ' + setter + ' of a URL of scheme ' + record.scheme + ' to ' + JSON.stringify(value));
    }
    return value;
  };

  const makeUrl = () => {
    let paramsBrand = null;
    let setList = null;
    let listOf = null;
    let makeParams = null;
    let urlBrand = null;
    let recordOf = null;
    let setRecord = null;

    // V8's errors for a receiver that is no URL: Node's methods and some getters check it, the other
    // accessors read a private field.
    const notUrl = () => new TypeError('Receiver must be an instance of class URL');
    const notMember = (field = '#context') =>
      new TypeError(`Cannot read private member ${field} from an object whose class did not declare it`);
    class URL {
      #record;
      #searchParams = null;
      constructor(input, base = undefined) {
        if (arguments.length === 0) throw missingArgs('url');
        input = usv(input);
        let parsedBase = null;
        if (base !== undefined) {
          base = usv(base);
          parsedBase = parse(base);
          if (parsedBase === FAILURE) throw invalidUrl(input, base);
        }
        const record = parse(input, parsedBase);
        if (record === FAILURE) throw invalidUrl(input, base);
        this.#record = record;
      }
      static {
        urlBrand = (v) => typeof v === 'object' && v !== null && #record in v;
        recordOf = (url) => url.#record;
        setRecord = (url, record) => {
          url.#record = record;
        };
      }
      #update(record) {
        this.#record = record;
        if (this.#searchParams !== null) setList(this.#searchParams, parseForm(record.query ?? ''));
      }
      // Parses a setter's value into the record from the setter's state. As the standard has it, what
      // the parser changed before it failed stays changed (`host = 'example.com:99999'` sets the host).
      #set(value, state, prepare) {
        const record = copyRecord(this.#record);
        if (prepare) prepare(record);
        parse(value, null, record, state);
        this.#update(record);
      }
      toString() {
        if (!urlBrand(this)) throw notUrl();
        return serialize(this.#record);
      }
      get href() {
        if (!urlBrand(this)) throw notUrl();
        return serialize(this.#record);
      }
      set href(value) {
        if (!urlBrand(this)) throw notMember();
        value = usv(value);
        const record = parse(value);
        if (record === FAILURE) {
          const error = coded(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
          error.input = value;
          throw error;
        }
        this.#update(record);
      }
      get origin() {
        if (!urlBrand(this)) throw notMember();
        return origin(this.#record);
      }
      get protocol() {
        if (!urlBrand(this)) throw notMember();
        return this.#record.scheme + ':';
      }
      set protocol(value) {
        if (!urlBrand(this)) throw notMember();
        this.#set(usv(value) + ':', 'schemeStart');
      }
      get username() {
        if (!urlBrand(this)) throw notMember();
        return this.#record.username;
      }
      set username(value) {
        if (!urlBrand(this)) throw notMember();
        if (cannotHaveCredentials(this.#record)) return;
        const record = copyRecord(this.#record);
        record.username = encodeAll(usv(value), userinfoSet);
        this.#update(record);
      }
      get password() {
        if (!urlBrand(this)) throw notMember();
        return this.#record.password;
      }
      set password(value) {
        if (!urlBrand(this)) throw notMember();
        if (cannotHaveCredentials(this.#record)) return;
        const record = copyRecord(this.#record);
        record.password = encodeAll(usv(value), userinfoSet);
        this.#update(record);
      }
      get host() {
        if (!urlBrand(this)) throw notMember();
        const r = this.#record;
        if (r.host === null) return '';
        return r.port === null ? r.host : r.host + ':' + r.port;
      }
      set host(value) {
        if (!urlBrand(this)) throw notMember();
        if (typeof this.#record.path === 'string') return;
        this.#set(hostValue(this.#record, usv(value), 'host'), 'host');
      }
      get hostname() {
        if (!urlBrand(this)) throw notMember();
        return this.#record.host ?? '';
      }
      set hostname(value) {
        if (!urlBrand(this)) throw notMember();
        if (typeof this.#record.path === 'string') return;
        this.#set(hostValue(this.#record, usv(value), 'hostname'), 'hostname');
      }
      get port() {
        if (!urlBrand(this)) throw notMember();
        return this.#record.port === null ? '' : String(this.#record.port);
      }
      set port(value) {
        if (!urlBrand(this)) throw notMember();
        const r = this.#record;
        if (cannotHaveCredentials(r)) return;
        value = usv(value);
        if (value === '') {
          const record = copyRecord(r);
          record.port = null;
          this.#update(record);
          return;
        }
        this.#set(value, 'port');
      }
      get pathname() {
        if (!urlBrand(this)) throw notMember();
        return serializePath(this.#record);
      }
      set pathname(value) {
        if (!urlBrand(this)) throw notMember();
        if (typeof this.#record.path === 'string') return;
        this.#set(usv(value), 'pathStart', (record) => {
          record.path = [];
        });
      }
      get search() {
        if (!urlBrand(this)) throw notUrl();
        const query = this.#record.query;
        return query === null || query === '' ? '' : '?' + query;
      }
      set search(value) {
        if (!urlBrand(this)) throw notMember();
        value = usv(value);
        const record = copyRecord(this.#record);
        if (value === '') {
          record.query = null;
          stripTrailingSpaces(record);
          this.#update(record);
          return;
        }
        record.query = '';
        parse(value[0] === '?' ? value.slice(1) : value, null, record, 'query');
        this.#update(record);
      }
      get searchParams() {
        if (!urlBrand(this)) throw notMember('#searchParams');
        if (this.#searchParams === null) this.#searchParams = makeParams(this);
        return this.#searchParams;
      }
      get hash() {
        if (!urlBrand(this)) throw notMember();
        const fragment = this.#record.fragment;
        return fragment === null || fragment === '' ? '' : '#' + fragment;
      }
      set hash(value) {
        if (!urlBrand(this)) throw notMember();
        value = usv(value);
        const record = copyRecord(this.#record);
        if (value === '') {
          record.fragment = null;
          stripTrailingSpaces(record);
          this.#update(record);
          return;
        }
        record.fragment = '';
        parse(value[0] === '#' ? value.slice(1) : value, null, record, 'fragment');
        this.#update(record);
      }
      toJSON() {
        if (!urlBrand(this)) throw notUrl();
        return serialize(this.#record);
      }
      static canParse(input, base = undefined) {
        if (arguments.length === 0) throw missingArgs('url');
        input = usv(input);
        let parsedBase = null;
        if (base !== undefined) {
          parsedBase = parse(usv(base));
          if (parsedBase === FAILURE) return false;
        }
        return parse(input, parsedBase) !== FAILURE;
      }
      static parse(input, base = undefined) {
        if (arguments.length === 0) throw missingArgs('url');
        try {
          return new URL(input, base);
        } catch (e) {
          if (e && e.code === 'ERR_INVALID_URL') return null;
          throw e;
        }
      }
      static createObjectURL(obj) {
        if (!(obj instanceof g.Blob)) throw invalidArgType('obj', 'an instance of Blob', obj);
        throw hostAccess('URL.createObjectURL, whose blob store Node keeps outside the code');
      }
      static revokeObjectURL(url) {
        if (arguments.length === 0) throw missingArgs('url');
        throw hostAccess('URL.revokeObjectURL, whose blob store Node keeps outside the code');
      }
    }
    // The query a URL's `searchParams` changed: serialised back into the URL (Node's update steps).
    const writeQuery = (url, list) => {
      const record = copyRecord(recordOf(url));
      const query = serializeForm(list);
      record.query = query === '' ? null : query;
      if (query === '') stripTrailingSpaces(record);
      setRecord(url, record);
    };
    enumerable(URL.prototype, ['toString', 'href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname',
      'port', 'pathname', 'search', 'searchParams', 'hash', 'toJSON']);
    enumerable(URL, ['parse', 'canParse', 'createObjectURL', 'revokeObjectURL']);
    Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });

    const notParams = () => invalidThis('URLSearchParams');
    class URLSearchParams {
      #list = [];
      #url = null;
      constructor(init = undefined) {
        if (init === undefined || init === null) return;
        if (typeof init === 'object' || typeof init === 'function') {
          const method = init[Symbol.iterator];
          if (method === this[Symbol.iterator] && paramsBrand(init)) {
            this.#list = init.#list.map((pair) => pair.slice());
          } else if (method !== undefined && method !== null) {
            if (typeof method !== 'function') throw coded(TypeError, 'ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable');
            // As Node does: every pair is read before any is checked for its length.
            const pairs = [];
            for (const pair of init) {
              if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function') || typeof pair[Symbol.iterator] !== 'function') {
                throw invalidTuple();
              }
              pairs.push(Array.from(pair));
            }
            for (const pair of pairs) {
              if (pair.length !== 2) throw invalidTuple();
              this.#list.push([usv(pair[0]), usv(pair[1])]);
            }
          } else {
            const seen = new Map();
            for (const key of Reflect.ownKeys(init)) {
              const descriptor = Reflect.getOwnPropertyDescriptor(init, key);
              if (descriptor === undefined || !descriptor.enumerable) continue;
              const name = usv(key);
              const value = usv(init[key]);
              if (seen.has(name)) this.#list[seen.get(name)][1] = value;
              else {
                seen.set(name, this.#list.length);
                this.#list.push([name, value]);
              }
            }
          }
        } else {
          init = usv(init);
          this.#list = parseForm(init[0] === '?' ? init.slice(1) : init);
        }
      }
      static {
        paramsBrand = (v) => typeof v === 'object' && v !== null && #list in v;
        setList = (params, list) => {
          params.#list = list;
        };
        listOf = (params) => params.#list;
        makeParams = (url) => {
          const params = new URLSearchParams();
          params.#list = parseForm(recordOf(url).query ?? '');
          params.#url = url;
          return params;
        };
      }
      #changed() {
        if (this.#url !== null) writeQuery(this.#url, this.#list);
      }
      get size() {
        if (!paramsBrand(this)) throw notParams();
        return this.#list.length;
      }
      append(name, value) {
        if (!paramsBrand(this)) throw notParams();
        if (arguments.length < 2) throw missingArgs('name', 'value');
        this.#list.push([usv(name), usv(value)]);
        this.#changed();
      }
      delete(name, value = undefined) {
        if (!paramsBrand(this)) throw notParams();
        if (arguments.length < 1) throw missingArgs('name');
        name = usv(name);
        if (value !== undefined) {
          value = usv(value);
          this.#list = this.#list.filter(([n, v]) => n !== name || v !== value);
        } else {
          this.#list = this.#list.filter(([n]) => n !== name);
        }
        this.#changed();
      }
      get(name) {
        if (!paramsBrand(this)) throw notParams();
        if (arguments.length < 1) throw missingArgs('name');
        name = usv(name);
        const pair = this.#list.find(([n]) => n === name);
        return pair === undefined ? null : pair[1];
      }
      getAll(name) {
        if (!paramsBrand(this)) throw notParams();
        if (arguments.length < 1) throw missingArgs('name');
        name = usv(name);
        return this.#list.filter(([n]) => n === name).map(([, v]) => v);
      }
      has(name, value = undefined) {
        if (!paramsBrand(this)) throw notParams();
        if (arguments.length < 1) throw missingArgs('name');
        name = usv(name);
        if (value !== undefined) {
          value = usv(value);
          return this.#list.some(([n, v]) => n === name && v === value);
        }
        return this.#list.some(([n]) => n === name);
      }
      set(name, value) {
        if (!paramsBrand(this)) throw notParams();
        if (arguments.length < 2) throw missingArgs('name', 'value');
        name = usv(name);
        value = usv(value);
        const first = this.#list.findIndex(([n]) => n === name);
        if (first < 0) this.#list.push([name, value]);
        else {
          this.#list[first][1] = value;
          this.#list = this.#list.filter(([n], i) => i <= first || n !== name);
        }
        this.#changed();
      }
      sort() {
        if (!paramsBrand(this)) throw notParams();
        // Stable, by UTF-16 code units.
        this.#list = this.#list
          .map((pair, i) => [pair, i])
          .sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
          .map(([pair]) => pair);
        this.#changed();
      }
      entries() {
        if (!paramsBrand(this)) throw notParams();
        return newParamsIterator(this, 'key+value');
      }
      forEach(callback, thisArg = undefined) {
        if (!paramsBrand(this)) throw notParams();
        if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
        for (let i = 0; i < this.#list.length; i++) {
          const [name, value] = this.#list[i];
          Reflect.apply(callback, thisArg, [value, name, this]);
        }
      }
      keys() {
        if (!paramsBrand(this)) throw notParams();
        return newParamsIterator(this, 'key');
      }
      values() {
        if (!paramsBrand(this)) throw notParams();
        return newParamsIterator(this, 'value');
      }
      toString() {
        if (!paramsBrand(this)) throw notParams();
        return serializeForm(this.#list);
      }
    }
    const invalidTuple = () => coded(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
    enumerable(URLSearchParams.prototype, ['size', 'append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'entries',
      'forEach', 'keys', 'values', 'toString']);
    Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });
    Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, {
      value: URLSearchParams.prototype.entries,
      writable: true,
      configurable: true,
    });

    const newParamsIterator = g.__fc$pairIterators('URLSearchParams Iterator', listOf, () =>
      invalidThis('URLSearchParamsIterator'));
    return { URL, URLSearchParams };
  };
  // Node's properties of these classes are enumerable, unlike a class's methods and accessors.
  const enumerable = (target, names) => {
    for (const name of names) Object.defineProperty(target, name, { enumerable: true });
  };

  return { makeUrl };
})(globalThis)
