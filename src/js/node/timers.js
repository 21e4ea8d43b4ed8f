// Node's `timers` module, host-free: the global timers (`node/globals.js`, on the sandbox's virtual clock),
// which Node's module holds too (`timers.setTimeout === setTimeout`), and `promises`, the
// `timers/promises` module. Node's deprecated `active`, `enroll`, `unenroll` and `_unrefActive` are not
// offered: stand-ins. Follows `node/host.js`, whose `standIn` it uses.
const g = globalThis;
module.exports = {
  setTimeout: g.setTimeout,
  clearTimeout: g.clearTimeout,
  setImmediate: g.setImmediate,
  clearImmediate: g.clearImmediate,
  setInterval: g.setInterval,
  clearInterval: g.clearInterval,
  _unrefActive: standIn('timers._unrefActive'),
  active: standIn('timers.active'),
  unenroll: standIn('timers.unenroll'),
  enroll: standIn('timers.enroll'),
};
// As in Node, read when first used.
Object.defineProperty(module.exports, 'promises', {
  get: () => require('timers/promises'),
  enumerable: true,
  configurable: true,
});
