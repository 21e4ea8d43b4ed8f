// Plain scripts share one global scope: each test runs them, in order, in a new vm context. They are compiled
// once under their real paths, so that stack traces and coverage tools (c8, istanbul) name the user's files.
const scripts = [
FILES].map((file) => {
  const filename = path.resolve(__dirname, file);
  return new vm.Script(fs.readFileSync(filename, 'utf8'), { filename });
});

// What Node gives scripts besides the language's built-ins, and the sandbox gives them too: timers, `Buffer`,
// the text codecs and the high-resolution clock (a context's own, which the determinism shim may fix
// without fixing the runner's).
function hostGlobals() {
  const { setTimeout, setInterval, setImmediate, clearTimeout, clearInterval, clearImmediate } = globalThis;
  const clock = performance;
  const own = { __proto__: clock, now: () => clock.now(), timeOrigin: clock.timeOrigin };
  return {
    setTimeout, setInterval, setImmediate, clearTimeout, clearInterval, clearImmediate,
    Buffer, TextEncoder, TextDecoder, performance: own,
    // Node's Web Crypto, whose random values each context's `deterministic` replaces on a copy of its own.
    crypto: { __proto__: crypto },
  };
}

// Test bodies are compiled again inside the test's context, so that their literals, arrays and errors come from
// the same realm as the scripts' own (assert.deepStrictEqual compares prototypes, instanceof compares
// constructors). A body can use its parameters, assert and the scripts' globals, and nothing else of this file.
const ownSource = fs.readFileSync(__filename, 'utf8');
function inContext(body, context) {
  const source = String(body);
  // Compiled under this file's name at the body's own line, stack traces point at the test as written here.
  const at = ownSource.indexOf(source);
  const lineOffset = at < 0 ? 0 : ownSource.slice(0, at).split('\n').length - 1;
  const wrapper = `(function (assert) { return (${source}); })`;
  return vm.runInContext(wrapper, context, { filename: __filename, lineOffset })(assert);
}
