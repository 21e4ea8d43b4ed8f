// Node's `timers/promises` module, host-free: `setTimeout` and `setImmediate` resolve with their value on
// the sandbox's virtual clock (the global timers, `node/globals.js`), as Node's resolve on its event loop,
// with Node's checks of their arguments (rejections, not throws), an `AbortSignal` that rejects with
// `AbortError` (its `cause` the signal's reason), and `ref: false`; `scheduler.wait` and
// `scheduler.yield` are those two. The async iterator `setInterval` is not offered: a stand-in. Follows
// `node/host.js`, whose `standIn` it uses.
const { coded, received, invalidArgType, invalidThis } = globalThis.__fc$nodeErrors;
const timers = { setTimeout: globalThis.setTimeout, setImmediate: globalThis.setImmediate };

class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
  }
}

const property = (name, expected, value) =>
  coded(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + name + '" property must be ' + expected + '.' + received(value));

// Node's checks of `options` (an object, not an array; `signal` an AbortSignal, `ref` a boolean).
const checkOptions = (options) => {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidArgType('options', 'of type object', options);
  }
  const { signal, ref } = options;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw property('options.signal', 'an instance of AbortSignal', signal);
  }
  if (ref !== undefined && typeof ref !== 'boolean') throw property('options.ref', 'of type boolean', ref);
};

// A promise of `value` once `arm(resolve)`'s timer fires, which `signal`'s abort clears.
const settle = (arm, value, options) => {
  const { signal, ref = true } = options;
  if (signal !== undefined && signal.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
  let cancel;
  const promise = new Promise((resolve, reject) => {
    const timer = arm(() => resolve(value));
    if (!ref) timer.unref();
    if (signal !== undefined) {
      cancel = () => {
        timer.close();
        reject(new AbortError(undefined, { cause: signal.reason }));
      };
      signal.addEventListener('abort', cancel);
    }
  });
  return cancel === undefined ? promise : promise.finally(() => signal.removeEventListener('abort', cancel));
};

function setTimeout(after, value, options = {}) {
  try {
    if (after !== undefined && typeof after !== 'number') throw invalidArgType('delay', 'of type number', after);
    checkOptions(options);
  } catch (e) {
    return Promise.reject(e);
  }
  return settle((fire) => timers.setTimeout(fire, after), value, options);
}

function setImmediate(value, options = {}) {
  try {
    checkOptions(options);
  } catch (e) {
    return Promise.reject(e);
  }
  return settle((fire) => timers.setImmediate(fire), value, options);
}

// Node's scheduler: its methods refuse another receiver.
let isScheduler;
class Scheduler {
  #brand;

  static {
    isScheduler = (value) => typeof value === 'object' && value !== null && #brand in value;
  }

  wait(delay, options) {
    if (!isScheduler(this)) throw invalidThis('Scheduler');
    return setTimeout(delay, undefined, options);
  }

  yield() {
    if (!isScheduler(this)) throw invalidThis('Scheduler');
    return setImmediate();
  }
}

module.exports = {
  setTimeout,
  setImmediate,
  setInterval: standIn('timers/promises.setInterval'),
  scheduler: new Scheduler(),
};
