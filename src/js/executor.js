// QuickJS's `Promise` constructor runs its executor in C and turns whatever the executor throws into
// a rejection, the end of a test's time limit (an uncatchable interrupt) included: a loop around
// `new Promise(executor)` whose work is in the executor (a compiled `async` function's `__awaiter` runs
// its body so) never sees its interrupt, and ran for over half an hour on a mutant of heap-js. Here
// the constructor is a JavaScript function that makes the native promise with an executor of its own
// and then runs the given executor in JavaScript, where an interrupt goes on up to the test; anything
// else it throws rejects the promise, as the native constructor does. The statics, `prototype` and
// `Symbol.species` are the native ones, so subclasses, `instanceof` and `Promise.resolve` work as
// before; a promise's `constructor` stays the native one, which tells the harness that the prototype
// is a built-in's (a prototype whose constructor is not native is walked as the program's class).
// Installed after the programs of Flycatcher's own (which keep the native one) and before any user
// code.
(function (g) {
  'use strict';
  const Native = g.Promise;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const ownKeys = Reflect.ownKeys;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const Promise = function Promise(executor) {
    // Without `new`, or without a function, the native constructor throws its own error.
    if (new.target === undefined) return apply(Native, undefined, [executor]);
    if (typeof executor !== 'function') return construct(Native, [executor], new.target);
    let resolve;
    let reject;
    const promise = construct(
      Native,
      [
        (yes, no) => {
          resolve = yes;
          reject = no;
        },
      ],
      new.target,
    );
    try {
      executor(resolve, reject);
    } catch (error) {
      reject(error);
    }
    return promise;
  };
  const keys = ownKeys(Native);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'length' || key === 'name') continue;
    defineProperty(Promise, key, getOwnPropertyDescriptor(Native, key));
  }
  defineProperty(g, 'Promise', { value: Promise, writable: true, enumerable: false, configurable: true });
})(globalThis);
