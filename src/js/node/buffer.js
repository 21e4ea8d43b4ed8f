// Node's `buffer` module: the global `Buffer` (host-free, from `js/node/globals.js`) and its limits.
'use strict';
module.exports = {
  Buffer: globalThis.Buffer,
  kMaxLength: 4294967296,
  kStringMaxLength: 536870888,
  constants: { MAX_LENGTH: 4294967296, MAX_STRING_LENGTH: 536870888 },
  INSPECT_MAX_BYTES: 50,
};
