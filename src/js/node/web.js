// Web platform objects Node has as globals and that need no host: events (`Event`, `CustomEvent`,
// `EventTarget`), cancellation (`AbortController`, `AbortSignal`) and `structuredClone`. Read into a
// context when one is first used (see `globals.js`), as `encoding.js` is, and written after Node 20's
// own (`lib/internal/event_target.js`, `abort_controller.js`): the same state behind the same getters,
// the same order of listeners, the same errors with their codes and messages, so a test asserts under
// Node what it saw here. Their state is in private fields: like Node's symbols, it is no own key a test
// would assert. Answers their makers.
(function (g) {
  'use strict';
  const { coded, invalidArgType, invalidThis, received , hostAccess, missingArgs } = g.__fc$nodeErrors;
  const isObjectLike = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
  const abortError = () => new g.DOMException('This operation was aborted', 'AbortError');

  const makeEvents = () => {
    // Node's `kTrustEvent`: the events Node makes itself (an abort) are trusted, and `isTrusted` says so.
    // Set just before such an event is made, taken by its constructor.
    let trusted = false;
    let brand = null;
    let dispatching = null;
    let stopped = null;
    let markPassive = null;

    class Event {
      #type;
      #bubbles;
      #cancelable;
      #composed;
      #defaultPrevented = false;
      #propagationStopped = false;
      #stop = false;
      #target = null;
      #dispatching = false;
      #passive = false;
      #trusted;

      constructor(type, options = undefined) {
        if (arguments.length === 0) throw missingArgs('type');
        if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
          throw invalidArgType('options', 'of type object', options);
        }
        const { bubbles, cancelable, composed } = { ...options };
        this.#cancelable = !!cancelable;
        this.#bubbles = !!bubbles;
        this.#composed = !!composed;
        this.#type = `${type}`;
        this.#trusted = trusted;
        trusted = false;
      }
      static {
        brand = (v) => isObjectLike(v) && #type in v;
        dispatching = (event, on, target) => {
          if (on) event.#target = target;
          event.#dispatching = on;
          event.#passive = false;
        };
        stopped = (event) => event.#stop;
        markPassive = (event, passive) => {
          event.#passive = passive;
        };
      }
      initEvent(type, bubbles = false, cancelable = false) {
        if (!brand(this)) throw invalidThis('Event');
        if (arguments.length === 0) throw missingArgs('type');
        if (this.#dispatching) return;
        this.#type = `${type}`;
        this.#bubbles = !!bubbles;
        this.#cancelable = !!cancelable;
      }
      stopImmediatePropagation() {
        if (!brand(this)) throw invalidThis('Event');
        this.#propagationStopped = true;
        this.#stop = true;
      }
      preventDefault() {
        if (!brand(this)) throw invalidThis('Event');
        if (!this.#passive) this.#defaultPrevented = true;
      }
      get target() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#target;
      }
      get currentTarget() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#dispatching ? this.#target : null;
      }
      get srcElement() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#target;
      }
      get type() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#type;
      }
      get cancelable() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#cancelable;
      }
      get defaultPrevented() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#cancelable && this.#defaultPrevented;
      }
      // Node reads its own clock, which the suites' fixed clock does not reach: an assertion on it would
      // fail on the next run.
      get timeStamp() {
        if (!brand(this)) throw invalidThis('Event');
        throw hostAccess("Event's timeStamp, the host's clock");
      }
      composedPath() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#dispatching ? [this.#target] : [];
      }
      get returnValue() {
        if (!brand(this)) throw invalidThis('Event');
        return !(this.#cancelable && this.#defaultPrevented);
      }
      get bubbles() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#bubbles;
      }
      get composed() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#composed;
      }
      get eventPhase() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#dispatching ? 2 : 0;
      }
      get cancelBubble() {
        if (!brand(this)) throw invalidThis('Event');
        return this.#propagationStopped;
      }
      set cancelBubble(value) {
        if (!brand(this)) throw invalidThis('Event');
        if (value) this.#propagationStopped = true;
      }
      stopPropagation() {
        if (!brand(this)) throw invalidThis('Event');
        this.#propagationStopped = true;
      }
      get isTrusted() {
        return brand(this) && this.#trusted;
      }
    }
    const phases = { NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 };
    for (const name of Object.keys(phases)) {
      Object.defineProperty(Event, name, { value: phases[name], writable: false, enumerable: true, configurable: false });
    }
    Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

    class CustomEvent extends Event {
      #detail;
      constructor(type, options = undefined) {
        if (arguments.length === 0) throw missingArgs('type');
        super(type, options);
        this.#detail = options?.detail ?? null;
      }
      get detail() {
        if (!(isObjectLike(this) && #detail in this)) throw invalidThis('CustomEvent');
        return this.#detail;
      }
    }
    Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

    // A listener in Node's linked list: the dispatch takes the next one before calling this one, so a
    // listener added while the last one runs is not called, and one removed before its turn is skipped.
    const validListener = (listener) => {
      if (typeof listener === 'function' || (typeof listener === 'object' && listener !== null)) return true;
      if (listener == null) return false;
      throw invalidArgType('listener', 'an instance of EventListener', listener);
    };
    let targetBrand = null;
    let signalBrand = null;

    class EventTarget {
      #listeners = new Map();
      static {
        targetBrand = (v) => isObjectLike(v) && #listeners in v;
      }
      addEventListener(type, listener, options = undefined) {
        if (!targetBrand(this)) throw invalidThis('EventTarget');
        if (arguments.length < 2) throw missingArgs('type', 'listener');
        const { once, capture, passive, signal } = flags(options);
        // Node warns (on the host's stderr) and adds nothing.
        if (!validListener(listener)) return;
        type = `${type}`;
        if (signal !== undefined && signal.aborted) return;
        let root = this.#listeners.get(type);
        if (root === undefined) {
          root = { next: undefined, last: null };
          root.last = root;
          this.#listeners.set(type, root);
        }
        for (let h = root.next; h !== undefined; h = h.next) {
          if (h.listener === listener && h.capture === capture) return;
        }
        const handler = { listener, capture, once, passive, removed: false, next: undefined, previous: root.last };
        root.last.next = handler;
        root.last = handler;
        if (signal !== undefined) {
          signal.addEventListener('abort', () => this.removeEventListener(type, listener, options), { once: true });
        }
      }
      removeEventListener(type, listener, options = undefined) {
        if (!targetBrand(this)) throw invalidThis('EventTarget');
        if (arguments.length < 2) throw missingArgs('type', 'listener');
        if (!validListener(listener)) return;
        const capture = typeof options === 'boolean' ? options : !!options?.capture;
        const root = this.#listeners.get(`${type}`);
        if (root === undefined) return;
        for (let h = root.next; h !== undefined; h = h.next) {
          if (h.listener === listener && h.capture === capture) {
            unlink(root, h);
            return;
          }
        }
      }
      dispatchEvent(event) {
        if (!targetBrand(this)) throw invalidThis('EventTarget');
        if (arguments.length < 1) throw missingArgs('event');
        if (!brand(event)) throw invalidArgType('event', 'an instance of Event', event);
        if (event.eventPhase === 2) {
          throw coded(Error, 'ERR_EVENT_RECURSION', `The event "${event.type}" is already being dispatched`);
        }
        dispatching(event, true, this);
        const root = this.#listeners.get(event.type);
        let handler = root?.next;
        while (handler !== undefined && (handler.passive || !stopped(event))) {
          const next = handler.next;
          if (handler.removed) {
            handler = next;
            continue;
          }
          if (handler.once) unlink(root, handler);
          markPassive(event, handler.passive);
          const listener = handler.listener;
          try {
            const result =
              typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent?.(event);
            if (result !== undefined && result !== null && typeof result.then === 'function') {
              result.then(undefined, (e) => uncaught(e));
            }
          } catch (e) {
            uncaught(e);
          }
          // As Node does: once a listener has run, the event no longer counts as being dispatched, so the
          // listeners after the first see no current target and phase 0.
          dispatching(event, false);
          handler = next;
        }
        dispatching(event, false);
        return event.defaultPrevented !== true;
      }
    }
    Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

    const unlink = (root, handler) => {
      handler.removed = true;
      handler.previous.next = handler.next;
      if (handler.next !== undefined) handler.next.previous = handler.previous;
      if (root.last === handler) root.last = handler.previous;
    };
    // Node rethrows a listener's error on the next tick, as an uncaught exception that fails the test.
    const uncaught = (e) => {
      throw hostAccess('an exception a listener threw (' + String(e && e.message) + "), which Node reports as uncaught");
    };
    const flags = (options) => {
      if (typeof options === 'boolean') return { capture: options, once: false, passive: false, signal: undefined };
      if (options == null) return { capture: false, once: false, passive: false, signal: undefined };
      const { signal } = options;
      if (signal !== undefined && !signalBrand(signal)) {
        throw coded(TypeError, 'ERR_INVALID_ARG_TYPE',
          'The "options.signal" property must be an instance of AbortSignal.' + received(signal));
      }
      return { capture: !!options.capture, once: !!options.once, passive: !!options.passive, signal };
    };

    // Signals: made only by their controllers and statics (`new AbortSignal()` is an illegal constructor).
    let making = false;
    let abortSignal = null;
    class AbortSignal extends EventTarget {
      #aborted = false;
      #reason = undefined;
      #dependents = [];
      #onabort = null;
      constructor() {
        if (!making) throw coded(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
        making = false;
        super();
      }
      static {
        signalBrand = (v) => isObjectLike(v) && #aborted in v;
        abortSignal = (signal, reason) => {
          if (signal.#aborted) return;
          signal.#aborted = true;
          signal.#reason = reason;
          trusted = true;
          signal.dispatchEvent(new Event('abort'));
          for (const dependent of signal.#dependents) abortSignal(dependent, reason);
          signal.#dependents = [];
        };
      }
      get aborted() {
        if (!signalBrand(this)) throw invalidThis('AbortSignal');
        return this.#aborted;
      }
      get reason() {
        if (!signalBrand(this)) throw invalidThis('AbortSignal');
        return this.#reason;
      }
      throwIfAborted() {
        if (!signalBrand(this)) throw invalidThis('AbortSignal');
        if (this.#aborted) throw this.#reason;
      }
      get onabort() {
        if (!signalBrand(this)) throw invalidThis('AbortSignal');
        return this.#onabort === null ? null : this.#onabort.handler;
      }
      set onabort(value) {
        if (!signalBrand(this)) throw invalidThis('AbortSignal');
        if (this.#onabort !== null) this.removeEventListener('abort', this.#onabort.listener);
        if (typeof value === 'function' || (typeof value === 'object' && value !== null)) {
          const wrapper = { handler: value, listener: (event) => (typeof value === 'function' ? value.call(this, event) : undefined) };
          this.#onabort = wrapper;
          this.addEventListener('abort', wrapper.listener);
        } else {
          this.#onabort = null;
        }
      }
      static abort(reason = abortError()) {
        const signal = newSignal();
        abortSignal(signal, reason);
        return signal;
      }
      static timeout(delay) {
        if (typeof delay !== 'number') throw invalidArgType('delay', 'of type number', delay);
        if (!Number.isInteger(delay)) {
          throw coded(RangeError, 'ERR_OUT_OF_RANGE',
            'The value of "delay" is out of range. It must be an integer. Received ' + String(delay));
        }
        if (delay < 0 || delay > 4294967295) {
          throw coded(RangeError, 'ERR_OUT_OF_RANGE',
            'The value of "delay" is out of range. It must be >= 0 && <= 4294967295. Received ' + String(delay));
        }
        const signal = newSignal();
        const reason = () => new g.DOMException('The operation was aborted due to timeout', 'TimeoutError');
        g.setTimeout(() => abortSignal(signal, reason()), delay).unref();
        return signal;
      }
      static any(signals) {
        if (!Array.isArray(signals)) throw invalidArgType('signals', 'an instance of Array', signals);
        signals.forEach((s, i) => {
          if (!signalBrand(s)) throw invalidArgType('signals[' + i + ']', 'an instance of AbortSignal', s);
        });
        const signal = newSignal();
        const aborted = signals.find((s) => s.#aborted);
        if (aborted !== undefined) {
          signal.#aborted = true;
          signal.#reason = aborted.#reason;
          return signal;
        }
        for (const s of signals) s.#dependents.push(signal);
        return signal;
      }
    }
    Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });
    const newSignal = () => {
      making = true;
      return new AbortSignal();
    };

    class AbortController {
      #signal = newSignal();
      get signal() {
        if (!(isObjectLike(this) && #signal in this)) throw invalidThis('AbortController');
        return this.#signal;
      }
      abort(reason = abortError()) {
        if (!(isObjectLike(this) && #signal in this)) throw invalidThis('AbortController');
        abortSignal(this.#signal, reason);
      }
    }
    Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });
    return { Event, CustomEvent, EventTarget, AbortSignal, AbortController };
  };

  // `structuredClone` as V8's serializer clones (Node 20): primitives, wrappers, dates, regular
  // expressions (without `lastIndex`), array buffers and their views, maps, sets, errors (by their
  // `name`, with `message`, `stack` and `cause`), arrays (holes and extra properties kept) and other
  // objects as plain objects of their own enumerable string keys (getters read), cycles kept. What V8
  // cannot clone throws its DataCloneError.
  const makeStructuredClone = () => {
    const tag = (v) => Object.prototype.toString.call(v).slice(8, -1);
    const notCloned = (text) => new g.DOMException(text + ' could not be cloned.', 'DataCloneError');
    const errors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
    const clone = (value, seen) => {
      if (typeof value === 'symbol') throw notCloned(String(value));
      if (typeof value === 'function') throw notCloned(Function.prototype.toString.call(value));
      if (typeof value !== 'object' || value === null) return value;
      if (seen.has(value)) return seen.get(value);
      const keep = (copy) => {
        seen.set(value, copy);
        return copy;
      };
      const kind = tag(value);
      const fill = (copy) => {
        for (const key of Object.keys(value)) copy[key] = clone(value[key], seen);
        return copy;
      };
      if (Array.isArray(value)) {
        const copy = keep(new Array(value.length));
        return fill(copy);
      }
      if (value instanceof Date) return keep(new Date(value.getTime()));
      if (value instanceof RegExp) return keep(new RegExp(value.source, value.flags));
      if (value instanceof ArrayBuffer) return keep(value.slice(0));
      if (ArrayBuffer.isView(value)) {
        const buffer = clone(value.buffer, seen);
        const View = value.constructor;
        const length = value instanceof DataView ? value.byteLength : value.length;
        return keep(new View(buffer, value.byteOffset, length));
      }
      if (value instanceof Map) {
        const copy = keep(new Map());
        for (const [k, v] of value) copy.set(clone(k, seen), clone(v, seen));
        return copy;
      }
      if (value instanceof Set) {
        const copy = keep(new Set());
        for (const v of value) copy.add(clone(v, seen));
        return copy;
      }
      if (value instanceof Error) {
        const name = value.name;
        const Kind = Object.prototype.hasOwnProperty.call(errors, name) ? errors[name] : Error;
        const copy = keep(Object.create(Kind.prototype));
        const own = (key, v) => Object.defineProperty(copy, key, { value: v, writable: true, enumerable: false, configurable: true });
        if (Object.prototype.hasOwnProperty.call(value, 'message')) own('message', String(value.message));
        if (typeof value.stack === 'string') own('stack', value.stack);
        if (Object.prototype.hasOwnProperty.call(value, 'cause')) own('cause', clone(value.cause, seen));
        return copy;
      }
      if (kind === 'Number' || kind === 'String' || kind === 'Boolean' || kind === 'BigInt') {
        return keep(Object(value.valueOf()));
      }
      if (['Promise', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Symbol'].includes(kind)) {
        throw notCloned('#<' + kind + '>');
      }
      return fill(keep({}));
    };
    return function structuredClone(value, options = undefined) {
      if (arguments.length === 0) throw coded(TypeError, 'ERR_MISSING_ARGS', 'The value argument must be specified');
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw coded(TypeError, 'ERR_INVALID_ARG_TYPE', 'The options argument must be either an object or undefined');
      }
      const transfer = options?.transfer;
      if (transfer !== undefined && transfer !== null) {
        if (typeof transfer[Symbol.iterator] !== 'function') {
          throw coded(TypeError, 'ERR_INVALID_ARG_TYPE', 'Optional transferList argument must be an iterable');
        }
        if ([...transfer].length > 0) throw hostAccess('structuredClone with a transfer list');
      }
      return clone(value, new Map());
    };
  };

  return { makeEvents, makeStructuredClone };
})(globalThis)
