// Node's `assert` module, host-free: the same checks (`==`, `Object.is`, Node's deep equality, loose and
// strict, with prototypes, Maps, Sets, dates, boxed primitives and cycles), the same `AssertionError`
// (name, code ERR_ASSERTION, actual, expected, operator, generatedMessage) and the same rules for the
// `message` argument (an `Error` given as message is thrown as it is). Generated messages are simpler than
// Node's diffs: the sandbox never asserts the message of an error thrown inside a built-in module.
'use strict';

const { inspect } = require('util');

class AssertionError extends Error {
  constructor(options) {
    const { message, actual, expected, operator } = options;
    super(message !== undefined ? String(message) : defaultMessage(actual, expected, operator));
    this.generatedMessage = message === undefined;
    Object.defineProperty(this, 'name', { value: 'AssertionError', enumerable: false, writable: true, configurable: true });
    this.code = 'ERR_ASSERTION';
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
  }
}

const TITLES = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  deepEqual: 'Expected values to be loosely deep-equal:',
  equal: 'Expected values to be loosely equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notEqual: 'Expected "actual" to be loosely unequal to:',
};
function defaultMessage(actual, expected, operator) {
  if (operator === '==') return inspect(actual) + ' == ' + inspect(expected);
  if (operator === '!=') return inspect(actual) + ' != ' + inspect(expected);
  const title = TITLES[operator];
  if (title === undefined) return inspect(actual) + ' ' + operator + ' ' + inspect(expected);
  if (operator.startsWith('not')) return title + '\n\n' + inspect(actual) + '\n';
  return title + '\n\n' + inspect(actual) + ' !== ' + inspect(expected) + '\n';
}

const { coded, invalidArgType } = globalThis.__fc$nodeErrors;

// Fails with `message` (thrown as it is when it is an Error) or a generated one.
const fail = (actual, expected, message, operator, stackStartFn) => {
  if (message instanceof Error) throw message;
  throw new AssertionError({ actual, expected, message, operator, stackStartFn });
};

// Deep equality as Node's `isDeepStrictEqual` (strict) and `assert.deepEqual` (loose).
const toTag = (v) => Object.prototype.toString.call(v);
const isObject = (v) => typeof v === 'object' && v !== null;
function isDeepEqual(a, b, strict, memos) {
  if (a === b) return a !== 0 || Object.is(a, b) || !strict;
  if (strict) {
    if (typeof a !== 'object') return typeof a === 'number' && Number.isNaN(a) && Number.isNaN(b);
    if (typeof b !== 'object' || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== 'object') {
      if (b === null || typeof b !== 'object') return a == b || (Number.isNaN(a) && Number.isNaN(b));
      return false;
    }
    if (b === null || typeof b !== 'object') return false;
  }
  if (toTag(a) !== toTag(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
  } else if (a instanceof Date) {
    if (!(b instanceof Date) || a.getTime() !== b.getTime()) return false;
  } else if (a instanceof RegExp) {
    if (!(b instanceof RegExp) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (a instanceof Error) {
    if (!(b instanceof Error) || a.message !== b.message || a.name !== b.name) return false;
  } else if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (strict ? !Object.is(a[i], b[i]) : a[i] != b[i]) return false;
    }
  } else if (a instanceof Number || a instanceof String || a instanceof Boolean) {
    if (!Object.is(a.valueOf(), b.valueOf())) return false;
  }
  memos = memos || { a: new Map(), b: new Map(), position: 0 };
  const seenA = memos.a.get(a);
  if (seenA !== undefined) {
    const seenB = memos.b.get(b);
    if (seenB !== undefined) return seenA === seenB;
  }
  memos.position++;
  memos.a.set(a, memos.position);
  memos.b.set(b, memos.position);
  const equal = objectsEqual(a, b, strict, memos);
  memos.a.delete(a);
  memos.b.delete(b);
  return equal;
}

const ownKeys = (o, strict) => {
  const keys = Object.keys(o);
  if (strict) {
    for (const s of Object.getOwnPropertySymbols(o)) {
      if (Object.prototype.propertyIsEnumerable.call(o, s)) keys.push(s);
    }
  }
  return keys;
};

function objectsEqual(a, b, strict, memos) {
  const keysA = ownKeys(a, strict);
  const keysB = ownKeys(b, strict);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.prototype.propertyIsEnumerable.call(b, key)) return false;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    const rest = Array.from(b);
    for (const [key, value] of a) {
      const at = b.has(key) && isDeepEqual(value, b.get(key), strict, memos)
        ? rest.findIndex(([k]) => Object.is(k, key))
        : rest.findIndex(([k, v]) => isDeepEqual(key, k, strict, memos) && isDeepEqual(value, v, strict, memos));
      if (at < 0) return false;
      rest.splice(at, 1);
    }
  } else if (a instanceof Set) {
    if (!(b instanceof Set) || a.size !== b.size) return false;
    const rest = Array.from(b);
    for (const value of a) {
      const at = b.has(value) ? rest.findIndex((v) => Object.is(v, value)) : rest.findIndex((v) => isDeepEqual(value, v, strict, memos));
      if (at < 0) return false;
      rest.splice(at, 1);
    }
  }
  for (const key of keysA) {
    if (!isDeepEqual(a[key], b[key], strict, memos)) return false;
  }
  return true;
}

function ok(...args) {
  if (args.length === 0) {
    fail(undefined, true, 'No value argument passed to `assert.ok()`', '==');
  }
  if (!args[0]) fail(args[0], true, args.length > 1 ? args[1] : 'The expression evaluated to a falsy value', '==');
}

const checkArgs = (count) => {
  if (count < 2) throw coded(TypeError, 'ERR_MISSING_ARGS', 'The "actual" and "expected" arguments must be specified');
};

const comparisons = {
  equal: (a, b) => a == b || (Number.isNaN(a) && Number.isNaN(b)),
  notEqual: (a, b) => !(a == b || (Number.isNaN(a) && Number.isNaN(b))),
  strictEqual: (a, b) => Object.is(a, b),
  notStrictEqual: (a, b) => !Object.is(a, b),
  deepEqual: (a, b) => isDeepEqual(a, b, false),
  notDeepEqual: (a, b) => !isDeepEqual(a, b, false),
  deepStrictEqual: (a, b) => isDeepEqual(a, b, true),
  notDeepStrictEqual: (a, b) => !isDeepEqual(a, b, true),
};
const operators = { equal: '==', notEqual: '!=' };
const STRICT_FORMS = {
  equal: 'strictEqual',
  notEqual: 'notStrictEqual',
  deepEqual: 'deepStrictEqual',
  notDeepEqual: 'notDeepStrictEqual',
};

// What a thrown value must match: a class, a validation function, a RegExp or an object of properties.
function expectedException(actual, expected, message, fn) {
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && actual instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      const got = actual && actual.constructor && actual.constructor.name;
      fail(actual, expected, message !== undefined ? message
        : 'The error is expected to be an instance of "' + expected.name + '". Received "' + got + '"\n\nError message:\n\n' +
          (actual && actual.message), fn.name);
    }
    const result = Reflect.apply(expected, {}, [actual]);
    if (result !== true) {
      fail(actual, expected, message !== undefined ? message
        : 'The ' + (expected.name ? '"' + expected.name + '" validation function' : 'validation function') +
          ' is expected to return "true". Received ' + inspect(result), fn.name);
    }
    return;
  }
  if (expected instanceof RegExp) {
    if (!expected.test(String(actual))) {
      fail(actual, expected, message !== undefined ? message
        : 'The input did not match the regular expression ' + inspect(expected) + '. Input:\n\n' + inspect(String(actual)) + '\n', fn.name);
    }
    return;
  }
  if (typeof expected !== 'object' || expected === null) {
    throw invalidArgType('expected', 'of type function or an instance of Error, RegExp, or Object', expected);
  }
  const keys = Object.keys(expected);
  if (expected instanceof Error) keys.push('name', 'message');
  else if (keys.length === 0) {
    throw coded(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'error' may not be an empty object. Received {}");
  }
  for (const key of keys) {
    const want = expected[key];
    const got = actual === null || actual === undefined ? undefined : actual[key];
    const matches = typeof got === 'string' && want instanceof RegExp ? want.test(got) : isDeepEqual(got, want, true);
    if (!matches) fail(actual, expected, message !== undefined ? message : defaultMessage(got, want, 'deepStrictEqual'), fn.name);
  }
}

const NO_EXCEPTION = {};
const getActual = (fn) => {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  try {
    fn();
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
};
const waitActual = async (promiseFn) => {
  let promise;
  if (typeof promiseFn === 'function') {
    promise = promiseFn();
  } else if (promiseFn !== null && typeof promiseFn === 'object' && typeof promiseFn.then === 'function') {
    promise = promiseFn;
  } else {
    throw invalidArgType('promiseFn', 'of type function or an instance of Promise', promiseFn);
  }
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
};

function expectsError(fn, actual, error, message) {
  if (typeof error === 'string') {
    message = error;
    error = undefined;
  }
  if (actual === NO_EXCEPTION) {
    let details = error && error.name ? ' (' + error.name + ')' : '';
    details += message ? ': ' + message : '.';
    const what = fn === rejects ? 'rejection' : 'exception';
    fail(undefined, error, 'Missing expected ' + what + details, fn.name);
  }
  if (error !== undefined) expectedException(actual, error, message, fn);
}
function expectsNoError(fn, actual, error, message) {
  if (actual === NO_EXCEPTION) return;
  if (typeof error === 'string') {
    message = error;
    error = undefined;
  }
  if (error === undefined || (typeof error === 'function' && actual instanceof error) ||
    (error instanceof RegExp && error.test(String(actual)))) {
    const details = message ? ': ' + message : '.';
    const what = fn === doesNotReject ? 'rejection' : 'exception';
    fail(actual, error, 'Got unwanted ' + what + details + '\nActual message: "' + (actual && actual.message) + '"', fn.name);
  }
  throw actual;
}

function throws(fn, ...args) {
  expectsError(throws, getActual(fn), ...args);
}
async function rejects(promiseFn, ...args) {
  expectsError(rejects, await waitActual(promiseFn), ...args);
}
function doesNotThrow(fn, ...args) {
  expectsNoError(doesNotThrow, getActual(fn), ...args);
}
async function doesNotReject(fn, ...args) {
  expectsNoError(doesNotReject, await waitActual(fn), ...args);
}

function match(string, regexp, message, negated) {
  if (!(regexp instanceof RegExp)) throw invalidArgType('regexp', 'an instance of RegExp', regexp);
  if (typeof string !== 'string' || regexp.test(string) === negated) {
    const name = negated ? 'doesNotMatch' : 'match';
    fail(string, regexp, message !== undefined ? message
      : typeof string !== 'string' ? 'The "string" argument must be of type string. Received type ' + typeof string + ' (' + inspect(string) + ')'
        : (negated ? 'The input was expected to not match the regular expression ' : 'The input did not match the regular expression ') +
          inspect(regexp) + '. Input:\n\n' + inspect(string) + '\n', name);
  }
}

function build(strict) {
  const assert = function ok_(...args) {
    return ok(...args);
  };
  Object.defineProperty(assert, 'name', { value: 'ok' });
  assert.ok = assert;
  for (const name of Object.keys(comparisons)) {
    // `assert.strict` compares strictly under the loose names too.
    const used = strict && STRICT_FORMS[name] ? STRICT_FORMS[name] : name;
    const check = comparisons[used];
    const operator = operators[used] || used;
    assert[name] = { [name](actual, expected, message) {
      checkArgs(arguments.length);
      if (!check(actual, expected)) fail(actual, expected, message, operator);
    } }[name];
  }
  assert.throws = throws;
  assert.rejects = rejects;
  assert.doesNotThrow = doesNotThrow;
  assert.doesNotReject = doesNotReject;
  assert.fail = function fail_(message = 'Failed') {
    if (message instanceof Error) throw message;
    throw new AssertionError({ message, operator: 'fail' });
  };
  assert.ifError = function ifError(err) {
    if (err !== null && err !== undefined) {
      let message = 'ifError got unwanted exception: ';
      message += typeof err === 'object' && typeof err.message === 'string'
        ? (err.message.length === 0 && err.constructor ? err.constructor.name : err.message)
        : inspect(err);
      throw new AssertionError({ actual: err, expected: null, operator: 'ifError', message });
    }
  };
  assert.match = (string, regexp, message) => match(string, regexp, message, false);
  assert.doesNotMatch = (string, regexp, message) => match(string, regexp, message, true);
  assert.AssertionError = AssertionError;
  Object.defineProperty(assert, Symbol.for('flycatcher.isDeepEqual'), { value: (a, b, s) => isDeepEqual(a, b, s) });
  return assert;
}

const assert = build(false);
assert.strict = build(true);
assert.strict.strict = assert.strict;
module.exports = assert;
