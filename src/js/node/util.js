// Node's `util` module, host-free: `inherits`, `format`, `inspect` (Node's layout: quotes, class prefixes,
// the depth of 2, one line up to 80 columns and arrays of more than 6 items in columns), `deprecate` (the
// warning goes nowhere: there is no process to warn on), `types`, `promisify`, `callbackify`,
// `isDeepStrictEqual` and the old `is*` checks. Written so that what the code under test computes with
// them is what Node computes; an error's stack is the one part `inspect` cannot reproduce, since the
// engines write stacks differently.
'use strict';

const customInspect = Symbol.for('nodejs.util.inspect.custom');
const customPromisify = Symbol.for('nodejs.util.promisify.custom');
const getProto = Object.getPrototypeOf;
const toTag = (v) => Object.prototype.toString.call(v);
const brand = (method, v) => {
  try {
    method.call(v);
    return true;
  } catch (_) {
    return false;
  }
};
const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
const typedArrayTag = getter(getProto(Uint8Array.prototype), Symbol.toStringTag);

// util.types: brand checks through built-in methods that throw on anything else.
const isObjectLike = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
const types = {
  isDate: (v) => isObjectLike(v) && brand(Date.prototype.getTime, v),
  isRegExp: (v) => isObjectLike(v) && v !== RegExp.prototype && brand(getter(RegExp.prototype, 'source'), v),
  isMap: (v) => isObjectLike(v) && brand(getter(Map.prototype, 'size'), v),
  isSet: (v) => isObjectLike(v) && brand(getter(Set.prototype, 'size'), v),
  isWeakMap: (v) => isObjectLike(v) && brand(function () { WeakMap.prototype.has.call(this, {}); }, v),
  isWeakSet: (v) => isObjectLike(v) && brand(function () { WeakSet.prototype.has.call(this, {}); }, v),
  isPromise: (v) => isObjectLike(v) && toTag(v) === '[object Promise]' && v instanceof Promise,
  isTypedArray: (v) => isObjectLike(v) && typedArrayTag.call(v) !== undefined,
  isArrayBuffer: (v) => isObjectLike(v) && brand(getter(ArrayBuffer.prototype, 'byteLength'), v),
  isSharedArrayBuffer: () => false,
  isDataView: (v) => isObjectLike(v) && brand(getter(DataView.prototype, 'byteLength'), v),
  isAsyncFunction: (v) => typeof v === 'function' && /^Async/.test(toTag(v).slice(8, -1)),
  isGeneratorFunction: (v) => typeof v === 'function' && /GeneratorFunction\]$/.test(toTag(v)),
  isGeneratorObject: (v) => isObjectLike(v) && toTag(v) === '[object Generator]',
  isNumberObject: (v) => typeof v === 'object' && v !== null && brand(Number.prototype.valueOf, v),
  isStringObject: (v) => typeof v === 'object' && v !== null && brand(String.prototype.valueOf, v),
  isBooleanObject: (v) => typeof v === 'object' && v !== null && brand(Boolean.prototype.valueOf, v),
  isBigIntObject: (v) => typeof v === 'object' && v !== null && brand(BigInt.prototype.valueOf, v),
  isSymbolObject: (v) => typeof v === 'object' && v !== null && brand(Symbol.prototype.valueOf, v),
  isNativeError: (v) => isObjectLike(v) && toTag(v) === '[object Error]' && v instanceof Error,
  isMapIterator: (v) => isObjectLike(v) && toTag(v) === '[object Map Iterator]',
  isSetIterator: (v) => isObjectLike(v) && toTag(v) === '[object Set Iterator]',
  isArgumentsObject: (v) => isObjectLike(v) && toTag(v) === '[object Arguments]',
  isProxy: () => false,
  isExternal: () => false,
  isModuleNamespaceObject: (v) => isObjectLike(v) && toTag(v) === '[object Module]',
};
types.isBoxedPrimitive = (v) =>
  types.isNumberObject(v) || types.isStringObject(v) || types.isBooleanObject(v) || types.isBigIntObject(v) ||
  types.isSymbolObject(v);
types.isAnyArrayBuffer = types.isArrayBuffer;
for (const name of ['Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'Int8Array', 'Int16Array',
  'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
  types['is' + name] = (v) => types.isTypedArray(v) && typedArrayTag.call(v) === name;
}

// inspect: quoting as Node does.
const META = ['\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07', '\\b', '\\t', '\\n', '\\x0B',
  '\\f', '\\r', '\\x0E', '\\x0F', '\\x10', '\\x11', '\\x12', '\\x13', '\\x14', '\\x15', '\\x16', '\\x17', '\\x18',
  '\\x19', '\\x1A', '\\x1B', '\\x1C', '\\x1D', '\\x1E', '\\x1F'];
const strEscape = (str) => {
  let quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes('`') && !str.includes('${')) quote = '`';
  }
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    const ch = str[i];
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (c < 32) out += META[c];
    else if (c === 0x7f) out += '\\x7F';
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = str.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += ch + str[i + 1];
        i++;
      } else {
        out += '\\u' + c.toString(16).toUpperCase();
      }
    } else out += ch;
  }
  return quote + out + quote;
};
const IDENTIFIER = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const formatKey = (key) => {
  if (typeof key === 'symbol') return '[' + key.toString() + ']';
  return IDENTIFIER.test(key) ? key : strEscape(key);
};
const formatNumber = (n) => (Object.is(n, -0) ? '-0' : String(n));
const BREAK_LENGTH = 80;
const COMPACT = 3;
const MIN_LINE_WIDTH = 16;

const functionBase = (fn, constructorName) => {
  let source = '';
  try {
    source = Function.prototype.toString.call(fn);
  } catch (_) {
    source = '';
  }
  if (source.startsWith('class') && /^class(\s|\{)/.test(source)) {
    let base = '[class ' + (fn.name || '(anonymous)');
    if (constructorName !== 'Function' && constructorName !== null) base += ' [' + constructorName + ']';
    const parent = getProto(fn);
    if (parent && parent !== Function.prototype && parent.name) base += ' extends ' + parent.name;
    return base + ']';
  }
  const type = toTag(fn).slice(8, -1) || 'Function';
  let base = '[' + (type === 'Object' ? 'Function' : type);
  if (constructorName === null) base += ' (null prototype)';
  base += fn.name === '' || typeof fn.name !== 'string' ? ' (anonymous)' : ': ' + fn.name;
  return base + ']';
};

const constructorNameOf = (value) => {
  let proto = value;
  while (proto !== null && proto !== undefined) {
    const d = Object.getOwnPropertyDescriptor(proto, 'constructor');
    if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') return d.value.name;
    proto = getProto(proto);
  }
  return null;
};

const groupArrayElements = (ctx, output, value) => {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.extraItems) outputLength--;
  const separatorSpace = 2;
  const dataLen = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = output[i].length;
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < BREAK_LENGTH && (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((BREAK_LENGTH - ctx.indentationLvl) / actualMax),
      COMPACT * 4,
      15,
    );
    if (columns <= 1) return output;
    const tmp = [];
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j];
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = '';
      let j = i;
      for (; j < max - 1; j++) {
        const cell = output[j] + ', ';
        str += padStart ? cell.padStart(maxLineLength[j - i], ' ') : cell.padEnd(maxLineLength[j - i], ' ');
      }
      str += padStart ? output[j].padStart(maxLineLength[j - i] - separatorSpace, ' ') : output[j];
      tmp.push(str);
    }
    if (ctx.extraItems) tmp.push(output[outputLength]);
    return tmp;
  }
  return output;
};

const isBelowBreakLength = (ctx, output, start, base) => {
  let totalLength = output.length + start;
  if (totalLength + output.length > BREAK_LENGTH) return false;
  for (const entry of output) {
    totalLength += entry.length;
    if (totalLength > BREAK_LENGTH) return false;
  }
  return base === '' || !base.includes('\n');
};

const reduceToSingleString = (ctx, output, base, braces, isArrayLike, recurseTimes, value) => {
  const entries = output.length;
  if (isArrayLike && entries > 6) output = groupArrayElements(ctx, output, value);
  if (ctx.currentDepth - recurseTimes < COMPACT && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
    if (isBelowBreakLength(ctx, output, start, base)) {
      const joined = output.join(', ');
      if (!joined.includes('\n')) return (base ? base + ' ' : '') + braces[0] + ' ' + joined + ' ' + braces[1];
    }
  }
  const indentation = '\n' + ' '.repeat(ctx.indentationLvl);
  return (base ? base + ' ' : '') + braces[0] + indentation + '  ' + output.join(',' + indentation + '  ') +
    indentation + braces[1];
};

const formatPrimitive = (ctx, value) => {
  switch (typeof value) {
    case 'string': {
      if (value.length > MIN_LINE_WIDTH && value.length > BREAK_LENGTH - ctx.indentationLvl - 4) {
        return value.split(/(?<=\n)/).map(strEscape).join(' +\n' + ' '.repeat(ctx.indentationLvl + 2));
      }
      return strEscape(value);
    }
    case 'number':
      return formatNumber(value);
    case 'bigint':
      return String(value) + 'n';
    case 'boolean':
    case 'undefined':
      return String(value);
    default:
      return value.toString();
  }
};

// `key: value`, or the value alone for an array's item.
const formatProperty = (ctx, value, recurseTimes, key, item) => {
  const desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  let shown;
  if (desc.value !== undefined || !('get' in desc || 'set' in desc)) {
    ctx.indentationLvl += 2;
    shown = formatValue(ctx, desc.value, recurseTimes);
    ctx.indentationLvl -= 2;
  } else if (desc.get !== undefined) {
    shown = desc.set !== undefined ? '[Getter/Setter]' : '[Getter]';
  } else {
    shown = desc.set !== undefined ? '[Setter]' : 'undefined';
  }
  return item ? shown : formatKey(key) + ': ' + shown;
};

const ownKeys = (value, skipIndexes) => {
  const keys = Object.keys(value).filter((k) => !(skipIndexes && /^(0|[1-9][0-9]*)$/.test(k) && +k < 4294967295));
  for (const s of Object.getOwnPropertySymbols(value)) {
    const d = Object.getOwnPropertyDescriptor(value, s);
    if (d && d.enumerable) keys.push(s);
  }
  return keys;
};

const formatArrayItems = (ctx, value, recurseTimes) => {
  const output = [];
  const length = value.length;
  const shown = Math.min(100, length);
  let holes = 0;
  let i = 0;
  for (; i < length && output.length < shown; i++) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) {
      holes++;
      continue;
    }
    if (holes > 0) {
      output.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
      holes = 0;
      if (output.length >= shown) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, String(i), true));
  }
  if (holes > 0 && output.length < shown) {
    output.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
    i = length;
  }
  const remaining = length - i;
  ctx.extraItems = remaining > 0;
  if (remaining > 0) output.push('... ' + remaining + ' more item' + (remaining > 1 ? 's' : ''));
  return output;
};

function formatRaw(ctx, value, recurseTimes) {
  const constructorName = constructorNameOf(value);
  const prefixOf = (fallback, size) => {
    const name = constructorName === null ? '[' + fallback + ': null prototype]' : constructorName;
    const sized = size === undefined ? name : name + '(' + size + ')';
    return sized === 'Object' || sized === 'Array' ? '' : sized + ' ';
  };
  let braces;
  let base = '';
  let keys = ownKeys(value, Array.isArray(value) || types.isTypedArray(value));
  let items = null;
  let arrayLike = false;
  if (Array.isArray(value)) {
    const prefix = constructorName === 'Array' ? '' : prefixOf('Array', value.length);
    braces = [prefix + '[', ']'];
    arrayLike = true;
    if (value.length === 0 && keys.length === 0) return braces[0] + ']';
    items = () => formatArrayItems(ctx, value, recurseTimes);
  } else if (types.isTypedArray(value)) {
    braces = [prefixOf(typedArrayTag.call(value), value.length) + '[', ']'];
    arrayLike = true;
    if (value.length === 0 && keys.length === 0) return braces[0] + ']';
    items = () => {
      const out = [];
      const n = Math.min(100, value.length);
      for (let i = 0; i < n; i++) out.push(typeof value[i] === 'bigint' ? value[i] + 'n' : formatNumber(value[i]));
      ctx.extraItems = value.length > n;
      if (value.length > n) out.push('... ' + (value.length - n) + ' more item' + (value.length - n > 1 ? 's' : ''));
      return out;
    };
  } else if (types.isSet(value)) {
    const prefix = prefixOf('Set', value.size);
    if (value.size === 0 && keys.length === 0) return prefix + '{}';
    braces = [prefix + '{', '}'];
    items = () => {
      ctx.indentationLvl += 2;
      const out = Array.from(value, (v) => formatValue(ctx, v, recurseTimes));
      ctx.indentationLvl -= 2;
      return out;
    };
  } else if (types.isMap(value)) {
    const prefix = prefixOf('Map', value.size);
    if (value.size === 0 && keys.length === 0) return prefix + '{}';
    braces = [prefix + '{', '}'];
    items = () => {
      ctx.indentationLvl += 2;
      const out = Array.from(value, ([k, v]) => formatValue(ctx, k, recurseTimes) + ' => ' + formatValue(ctx, v, recurseTimes));
      ctx.indentationLvl -= 2;
      return out;
    };
  } else if (typeof value === 'function') {
    base = functionBase(value, constructorName);
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (types.isRegExp(value)) {
    base = RegExp.prototype.toString.call(value);
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (types.isDate(value)) {
    const time = Date.prototype.getTime.call(value);
    base = Number.isNaN(time) ? 'Invalid Date' : Date.prototype.toISOString.call(value);
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (types.isNativeError(value) || value instanceof Error) {
    const stack = typeof value.stack === 'string' && value.stack ? value.stack : Error.prototype.toString.call(value);
    base = stack.includes('\n    at') ? stack : '[' + stack + ']';
    keys = keys.filter((k) => k !== 'stack' && k !== 'message');
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (types.isBoxedPrimitive(value)) {
    const inner = value.valueOf();
    const type = typeof inner === 'bigint' ? 'BigInt' : typeof inner === 'symbol' ? 'Symbol'
      : typeof inner === 'number' ? 'Number' : typeof inner === 'string' ? 'String' : 'Boolean';
    base = '[' + type + ': ' + formatPrimitive({ indentationLvl: 0 }, inner) + ']';
    if (typeof inner === 'string') keys = keys.filter((k) => !/^(0|[1-9][0-9]*)$/.test(k));
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (types.isPromise(value)) {
    braces = [prefixOf('Promise') + '{', '}'];
    items = () => ['<pending>'];
  } else {
    const tag = value[Symbol.toStringTag];
    let prefix = prefixOf('Object');
    if (typeof tag === 'string' && tag !== '' && tag !== constructorName) {
      prefix = (prefix === '' ? 'Object ' : prefix) + '[' + tag + '] ';
    }
    if (keys.length === 0) return prefix + '{}';
    braces = [prefix + '{', '}'];
  }
  if (recurseTimes > ctx.depth) {
    const name = constructorName === null ? 'Object: null prototype' : constructorName || 'Object';
    return Array.isArray(value) ? '[Array]' : '[' + name + ']';
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  ctx.extraItems = false;
  const output = items === null ? [] : items();
  const extra = ctx.extraItems;
  for (const key of keys) output.push(formatProperty(ctx, value, recurseTimes, key));
  ctx.extraItems = extra;
  ctx.seen.pop();
  let result = reduceToSingleString(ctx, output, base, braces, arrayLike, recurseTimes, value);
  const reference = ctx.circular.get(value);
  if (reference !== undefined) result = '<ref *' + reference + '> ' + result;
  return result;
}

function formatValue(ctx, value, recurseTimes) {
  if (typeof value !== 'object' && typeof value !== 'function') return formatPrimitive(ctx, value);
  if (value === null) return 'null';
  const custom = value[customInspect];
  if (typeof custom === 'function' && custom !== inspect) {
    const depth = ctx.depth - recurseTimes;
    const result = custom.call(value, depth, { depth, colors: false, compact: COMPACT, breakLength: BREAK_LENGTH }, inspect);
    if (result !== value) return typeof result === 'string' ? result : formatValue(ctx, result, recurseTimes);
  }
  if (ctx.seen.includes(value)) {
    let index = ctx.circular.get(value);
    if (index === undefined) {
      index = ctx.circular.size + 1;
      ctx.circular.set(value, index);
    }
    return '[Circular *' + index + ']';
  }
  return formatRaw(ctx, value, recurseTimes);
}

function inspect(value, options) {
  let depth = 2;
  if (typeof options === 'object' && options !== null && 'depth' in options) {
    depth = options.depth === null ? Infinity : options.depth;
  } else if (arguments.length > 2 && typeof arguments[2] === 'number') {
    depth = arguments[2];
  }
  const ctx = { depth, seen: [], circular: new Map(), indentationLvl: 0, currentDepth: 0, extraItems: false };
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspect;
inspect.defaultOptions = { depth: 2, colors: false, compact: COMPACT, breakLength: BREAK_LENGTH };

const hasBuiltInToString = (value) => {
  let proto = value;
  while (proto !== null) {
    const d = Object.getOwnPropertyDescriptor(proto, 'toString');
    if (d !== undefined) {
      return typeof d.value === 'function' && /\[native code\]/.test(Function.prototype.toString.call(d.value));
    }
    proto = getProto(proto);
  }
  return true;
};

function formatWithOptions(options, ...args) {
  const first = args[0];
  let a = 0;
  let str = '';
  let join = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      const next = first.charCodeAt(++i);
      if (a + 1 !== args.length) {
        let temp;
        switch (next) {
          case 115: { // 's'
            const arg = args[++a];
            if (typeof arg === 'number') temp = formatNumber(arg);
            else if (typeof arg === 'bigint') temp = arg + 'n';
            else if (typeof arg !== 'object' || arg === null || !hasBuiltInToString(arg)) temp = String(arg);
            else temp = inspect(arg, { depth: 0 });
            break;
          }
          case 106: { // 'j'
            try {
              temp = JSON.stringify(args[++a]);
            } catch (e) {
              temp = '[Circular]';
            }
            break;
          }
          case 100: { // 'd'
            const n = args[++a];
            temp = typeof n === 'bigint' ? n + 'n' : typeof n === 'symbol' ? 'NaN' : formatNumber(Number(n));
            break;
          }
          case 79: // 'O'
            temp = inspect(args[++a]);
            break;
          case 111: // 'o'
            temp = inspect(args[++a], { depth: 4 });
            break;
          case 105: { // 'i'
            const n = args[++a];
            temp = typeof n === 'bigint' ? n + 'n' : typeof n === 'symbol' ? 'NaN' : formatNumber(parseInt(n));
            break;
          }
          case 102: { // 'f'
            const n = args[++a];
            temp = typeof n === 'symbol' ? 'NaN' : formatNumber(parseFloat(n));
            break;
          }
          case 99: // 'c'
            a += 1;
            temp = '';
            break;
          case 37: // '%'
            str += first.slice(lastPos, i);
            lastPos = i + 1;
            continue;
          default:
            continue;
        }
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
        str += temp;
        lastPos = i + 1;
      } else if (next === 37) {
        str += first.slice(lastPos, i);
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    const value = args[a];
    str += join;
    str += typeof value !== 'string' ? inspect(value, options) : value;
    join = ' ';
    a++;
  }
  return str;
}
const format = (...args) => formatWithOptions(undefined, ...args);

const { coded, invalidArgType } = globalThis.__fc$nodeErrors;

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'of type function', ctor);
  if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'of type function', superCtor);
  if (superCtor.prototype === undefined) throw invalidArgType('superCtor.prototype', 'of type object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

function deprecate(fn, msg, code) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  // Node warns once on the process; the sandbox has none, and the function behaves the same either way.
  function deprecated(...args) {
    if (new.target) return Reflect.construct(fn, args, new.target);
    return Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function promisify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  if (original[customPromisify]) {
    const fn = original[customPromisify];
    return Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [...args, (err, ...values) => (err ? reject(err) : resolve(values[0]))]);
    });
  }
  Object.setPrototypeOf(fn, getProto(original));
  Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = customPromisify;

function callbackify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  return function callbackified(...args) {
    const callback = args.pop();
    if (typeof callback !== 'function') throw invalidArgType('last argument', 'of type function', callback);
    Reflect.apply(original, this, args).then(
      (value) => callback(null, value),
      (reason) => {
        if (!reason) {
          const error = coded(Error, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with a falsy value');
          error.reason = reason;
          reason = error;
        }
        callback(reason);
      },
    );
  };
}

const debuglog = () => {
  const log = () => {};
  log.enabled = false;
  return log;
};

module.exports = {
  format,
  formatWithOptions,
  inspect,
  inherits,
  deprecate,
  promisify,
  callbackify,
  debuglog,
  debug: debuglog,
  types,
  isDeepStrictEqual: (a, b) => require('assert')[Symbol.for('flycatcher.isDeepEqual')](a, b, true),
  TextEncoder: globalThis.TextEncoder,
  TextDecoder: globalThis.TextDecoder,
  toUSVString: (s) => String(s).toWellFormed(),
  stripVTControlCharacters: (s) => String(s).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, ''),
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate: types.isDate,
  isError: (v) => types.isNativeError(v) || v instanceof Error,
  isFunction: (v) => typeof v === 'function',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  isBuffer: (v) => typeof globalThis.Buffer === 'function' && globalThis.Buffer.isBuffer(v),
};
