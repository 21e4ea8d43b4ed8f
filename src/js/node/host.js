// A stand-in for a Node built-in module that reaches the host (the file system, the network, processes,
// the operating system, threads) or that the sandbox does not offer. Loading it works, so the rest of a
// library stays testable; every function reached through it throws "no host access in the sandbox" when
// called, constructing one throws too, and so does using any of its values as a primitive. The harness
// learns of the use (`__fc$hostAccess`): the test then fails as host access, whatever the code did with
// the error, and never becomes a regression test. `js/node.rs` writes the module's exports after this
// text: the whole module as one stand-in, or a host-free module (`tty.js`, `cluster.js`...) whose parts
// that reach the host are stand-ins (`standIn('tty.WriteStream')`).
'use strict';
const denied = (what) => {
  throw globalThis.__fc$nodeErrors.hostAccess(what);
};
const standIn = (path) => {
  const members = new Map();
  const proxy = new Proxy(function () {}, {
    get(target, key) {
      // Not a thenable, not an ES module, not convertible without a call.
      if (typeof key === 'symbol' || key === 'then' || key === '__esModule') return undefined;
      if (key === 'prototype') return target.prototype;
      if (!members.has(key)) members.set(key, standIn(path + '.' + key));
      return members.get(key);
    },
    set() { denied(path + ' (changed)'); return false; },
    apply() { return denied(path + '()'); },
    construct() { return denied('new ' + path + '()'); },
  });
  return proxy;
};
