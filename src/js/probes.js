(function () {
  var hide = { writable: false, enumerable: false, configurable: true };
  hide.value = function (id, v) { __fc$b[v ? id : id + 1] = 1; return v; };
  Object.defineProperty(globalThis, "__fc$c", hide);
  hide.value = function (id, v) { __fc$b[v == null ? id : id + 1] = 1; return v; };
  Object.defineProperty(globalThis, "__fc$n", hide);
})();
