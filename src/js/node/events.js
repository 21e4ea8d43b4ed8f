// Node's `events` module, host-free: `EventEmitter` with the same observable state as Node's (`_events`
// without a prototype, a lone listener kept as a function and several as an array, `_eventsCount`,
// `_maxListeners`), the same order of calls, the `newListener` and `removeListener` events, `once`
// wrappers that remember their listener, and the same errors (`emit('error')` without a listener throws
// the error given, or `Unhandled error.` with code ERR_UNHANDLED_ERROR). The leak warning Node prints goes
// nowhere: the sandbox has no process to warn on.
'use strict';

const kCapture = Symbol('kCapture');
const kShapeMode = Symbol('shapeMode');
const errorMonitor = Symbol('events.errorMonitor');
const captureRejectionSymbol = Symbol.for('nodejs.rejection');
let defaultMaxListeners = 10;

const { coded, invalidArgType } = globalThis.__fc$nodeErrors;
const checkListener = (listener) => {
  if (typeof listener !== 'function') throw invalidArgType('listener', 'of type function', listener);
};
const checkCount = (n, name) => {
  if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
    throw coded(RangeError, 'ERR_OUT_OF_RANGE',
      'The value of "' + name + '" is out of range. It must be a non-negative number. Received ' + String(n));
  }
};

function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;
EventEmitter.prototype[kCapture] = false;

EventEmitter.init = function (opts) {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
    this[kShapeMode] = false;
  } else {
    this[kShapeMode] = true;
  }
  this._maxListeners = this._maxListeners || undefined;
  this[kCapture] = opts && opts.captureRejections ? Boolean(opts.captureRejections) : EventEmitter.prototype[kCapture];
};

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
    throw coded(RangeError, 'ERR_OUT_OF_RANGE',
      'The value of "setMaxListeners" is out of range. It must be >= 0. Received ' + String(n));
  }
  this._maxListeners = n;
  return this;
};

const maxListenersOf = (emitter) =>
  emitter._maxListeners === undefined ? EventEmitter.defaultMaxListeners : emitter._maxListeners;

EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
  return maxListenersOf(this);
};

EventEmitter.prototype.emit = function emit(type, ...args) {
  let doError = type === 'error';
  const events = this._events;
  if (events !== undefined) {
    if (doError && events[errorMonitor] !== undefined) this.emit(errorMonitor, ...args);
    doError = doError && events.error === undefined;
  } else if (!doError) {
    return false;
  }
  if (doError) {
    const er = args.length > 0 ? args[0] : undefined;
    if (er instanceof Error) throw er;
    let shown;
    try {
      shown = require('util').inspect(er);
    } catch (_) {
      shown = String(er);
    }
    const err = coded(Error, 'ERR_UNHANDLED_ERROR', 'Unhandled error. (' + shown + ')');
    err.context = er;
    throw err;
  }
  const handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    Reflect.apply(handler, this, args);
  } else {
    const listeners = handler.slice();
    for (let i = 0; i < listeners.length; ++i) Reflect.apply(listeners[i], this, args);
  }
  return true;
};

const add = (target, type, listener, prepend) => {
  checkListener(listener);
  let events = target._events;
  let existing;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  } else {
    if (events.newListener !== undefined) {
      target.emit('newListener', type, listener.listener ? listener.listener : listener);
      events = target._events;
    }
    existing = events[type];
  }
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else {
    if (typeof existing === 'function') {
      existing = events[type] = prepend ? [listener, existing] : [existing, listener];
    } else if (prepend) {
      existing.unshift(listener);
    } else {
      existing.push(listener);
    }
    // Node warns once about a possible leak past the maximum; there is no process to warn on here.
    const m = maxListenersOf(target);
    if (m > 0 && existing.length > m && !existing.warned) existing.warned = true;
  }
  return target;
};

EventEmitter.prototype.addListener = function addListener(type, listener) {
  return add(this, type, listener, false);
};
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function prependListener(type, listener) {
  return add(this, type, listener, true);
};

function onceWrapper(...args) {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return Reflect.apply(this.listener, this.target, args);
  }
  return undefined;
}
const onceWrap = (target, type, listener) => {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = onceWrapper.bind(state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
};

EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};
EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    this._eventsCount -= 1;
    if (this[kShapeMode]) {
      events[type] = undefined;
    } else if (this._eventsCount === 0) {
      this._events = Object.create(null);
    } else {
      delete events[type];
      if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
    }
  } else if (typeof list !== 'function') {
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) {
        position = i;
        break;
      }
    }
    if (position < 0) return this;
    if (position === 0) list.shift();
    else list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    this[kShapeMode] = false;
    return this;
  }
  if (arguments.length === 0) {
    for (const key of Reflect.ownKeys(events)) {
      if (key === 'removeListener') continue;
      this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = Object.create(null);
    this._eventsCount = 0;
    this[kShapeMode] = false;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === 'function') {
    this.removeListener(type, listeners);
  } else if (listeners !== undefined) {
    for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  }
  return this;
};

const listenersOf = (target, type, unwrap) => {
  const events = target._events;
  if (events === undefined) return [];
  const listener = events[type];
  if (listener === undefined) return [];
  if (typeof listener === 'function') return unwrap ? [listener.listener || listener] : [listener];
  return unwrap ? listener.map((l) => l.listener || l) : listener.slice();
};
EventEmitter.prototype.listeners = function listeners(type) {
  return listenersOf(this, type, true);
};
EventEmitter.prototype.rawListeners = function rawListeners(type) {
  return listenersOf(this, type, false);
};

function listenerCount(type, listener) {
  const events = this._events;
  if (events === undefined) return 0;
  const found = events[type];
  if (typeof found === 'function') {
    return listener != null ? (listener === found || listener === found.listener ? 1 : 0) : 1;
  }
  if (found === undefined) return 0;
  if (listener == null) return found.length;
  return found.filter((l) => l === listener || l.listener === listener).length;
}
EventEmitter.prototype.listenerCount = listenerCount;
EventEmitter.listenerCount = (emitter, type) =>
  typeof emitter.listenerCount === 'function' ? emitter.listenerCount(type) : Reflect.apply(listenerCount, emitter, [type]);

EventEmitter.prototype.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get: () => defaultMaxListeners,
  set: (n) => {
    checkCount(n, 'defaultMaxListeners');
    defaultMaxListeners = n;
  },
});
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
EventEmitter.captureRejectionSymbol = captureRejectionSymbol;
EventEmitter.errorMonitor = errorMonitor;
Object.defineProperty(EventEmitter, 'captureRejections', {
  enumerable: true,
  get: () => EventEmitter.prototype[kCapture],
  set: (value) => {
    EventEmitter.prototype[kCapture] = Boolean(value);
  },
});
EventEmitter.setMaxListeners = (n = defaultMaxListeners, ...targets) => {
  checkCount(n, 'n');
  if (targets.length === 0) defaultMaxListeners = n;
  for (const target of targets) target.setMaxListeners(n);
};
EventEmitter.getMaxListeners = (emitter) => emitter.getMaxListeners();
EventEmitter.getEventListeners = (emitter, type) => emitter.listeners(type);
EventEmitter.once = (emitter, name) =>
  new Promise((resolve, reject) => {
    const onError = (err) => {
      emitter.removeListener(name, resolver);
      reject(err);
    };
    const resolver = (...args) => {
      if (name !== 'error') emitter.removeListener('error', onError);
      resolve(args);
    };
    emitter.once(name, resolver);
    if (name !== 'error') emitter.once('error', onError);
  });

module.exports = EventEmitter;
