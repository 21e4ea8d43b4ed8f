// The code read globals Node has and the sandbox lacks while it loaded there, and took the path it takes
// without them (a library builds a WebAssembly helper only when it can): they are hidden (read as
// undefined, as in the sandbox) while it loads here, and given back once it has loaded, for the test. The
// runner's own code still reads them (vitest's module runner makes `URL`s while it imports). What the code
// itself assigns to one meanwhile (a polyfill) stays, as it did in the sandbox.
const runnerFiles = /[\\/]node_modules[\\/](?:vite|vitest|@vitest|jest[^\\/]*|@jest|mocha|tsx)[\\/]/;
function withoutGlobals(g, names, load) {
  const hidden = [];
  for (const name of names) {
    const own = Object.getOwnPropertyDescriptor(g, name);
    if (own !== undefined && !own.configurable) continue;
    const real = g[name];
    const get = function () {
      // The stack's lines: the message, this getter, then the code that read the global.
      const reader = String(new Error().stack).split('\n')[2];
      return reader !== undefined && runnerFiles.test(reader) ? real : undefined;
    };
    const set = function (value) {
      Object.defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });
    };
    Object.defineProperty(g, name, { get, set, enumerable: false, configurable: true });
    hidden.push([name, own, get]);
  }
  const restore = () => {
    for (const [name, own, get] of hidden) {
      const now = Object.getOwnPropertyDescriptor(g, name);
      if (now === undefined || now.get !== get) continue;
      if (own === undefined) delete g[name];
      else Object.defineProperty(g, name, own);
    }
  };
  let loaded;
  try {
    loaded = load();
  } catch (error) {
    restore();
    throw error;
  }
  // ES modules load asynchronously: the globals stay hidden until they have.
  if (loaded instanceof Promise) return loaded.finally(restore);
  restore();
  return loaded;
}
