(function () {
  var hide = { writable: false, enumerable: false, configurable: true };
  hide.value = function (id, v) { __fc$b[v ? id : id + 1] = 1; return v; };
  Object.defineProperty(globalThis, "__fc$c", hide);
  hide.value = function (id, v) { __fc$b[v == null ? id : id + 1] = 1; return v; };
  Object.defineProperty(globalThis, "__fc$n", hide);
  // An object spread's operand (`instrument/parity.rs`): a string as a String object, whose characters
  // QuickJS copies by index, as the specification copies a string's.
  var toObject = Object;
  hide.value = function (v) { return typeof v === "string" ? toObject(v) : v; };
  Object.defineProperty(globalThis, "__fc$sp", hide);
})();
