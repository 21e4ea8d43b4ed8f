// Node's `crypto` module, its host-free part. `webcrypto` is the global Web Crypto object, as in Node
// (`globalThis.crypto`), whose random values are the test's seeded ones in the sandbox and in exported
// suites alike (`js/determinism.js`); `getRandomValues` reads that object's at each call, as Node's does,
// so a suite's seeded values reach it too (noble's hashes draw their random bytes through `webcrypto`).
// The rest reaches native code or the host (hashes, ciphers, keys, primes) or draws its values apart from
// the Web Crypto object (`randomBytes`, `randomInt`, `randomUUID`): stand-ins, as is `subtle`. Follows
// `node/host.js`, whose `standIn` it uses.
const HOST = ['checkPrime', 'checkPrimeSync', 'createCipheriv', 'createDecipheriv', 'createDiffieHellman',
  'createDiffieHellmanGroup', 'createECDH', 'createHash', 'createHmac', 'createPrivateKey', 'createPublicKey',
  'createSecretKey', 'createSign', 'createVerify', 'diffieHellman', 'generatePrime', 'generatePrimeSync',
  'getCiphers', 'getCipherInfo', 'getCurves', 'getDiffieHellman', 'getHashes', 'hkdf', 'hkdfSync', 'pbkdf2',
  'pbkdf2Sync', 'generateKeyPair', 'generateKeyPairSync', 'generateKey', 'generateKeySync', 'privateDecrypt',
  'privateEncrypt', 'publicDecrypt', 'publicEncrypt', 'randomBytes', 'randomFill', 'randomFillSync',
  'randomInt', 'randomUUID', 'scrypt', 'scryptSync', 'sign', 'setEngine', 'timingSafeEqual', 'getFips',
  'setFips', 'verify', 'hash', 'Certificate', 'Cipher', 'Cipheriv', 'Decipher', 'Decipheriv', 'DiffieHellman',
  'DiffieHellmanGroup', 'ECDH', 'Hash', 'Hmac', 'KeyObject', 'Sign', 'Verify', 'X509Certificate',
  'secureHeapUsed', 'constants', 'subtle'];
for (const name of HOST) module.exports[name] = standIn('crypto.' + name);
module.exports.webcrypto = globalThis.crypto;
module.exports.getRandomValues = function getRandomValues(array) {
  return globalThis.crypto.getRandomValues(array);
};
