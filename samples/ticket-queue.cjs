// A queue numbering tickets from a counter kept on globalThis, as code shared between bundles often does: the count survives reloading the module, so results depend on the tests that ran before.
'use strict';

const registry = (globalThis.ticketRegistry = globalThis.ticketRegistry || { issued: 0 });

class TicketQueue {
  constructor() {
    this.waiting = [];
  }

  issue() {
    registry.issued += 1;
    this.waiting.push(registry.issued);
    return registry.issued;
  }

  next() {
    if (this.waiting.length === 0) {
      throw new Error('no ticket is waiting');
    }
    return this.waiting.shift();
  }

  size() {
    return this.waiting.length;
  }
}

module.exports = TicketQueue;
