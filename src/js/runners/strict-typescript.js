// tsx compiles a `.ts` file of a package without `"type": "module"` to CommonJS without `"use strict"`, though its
// imports and exports make it a module, which the language runs strict (as tsc's output, vitest and jest do, and as
// the tests were generated): a strict-only error (assigning a read-only property) would be thrown there and not
// here. So every `.ts` file outside node_modules that Node compiles as CommonJS in this process is compiled strict,
// but those the code has without imports or exports (scripts, CommonJS), listed here. Runners may load several
// suites into one process: they share one hook and list.
const strictTypeScript = (globalThis[Symbol.for('flycatcher.strictTypeScript')] ??= { sloppy: new Set(), hooked: false });
for (const file of [
FILES]) strictTypeScript.sloppy.add(path.resolve(__dirname, file));
if (!strictTypeScript.hooked) {
  strictTypeScript.hooked = true;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    const strict = /\.ts$/.test(filename) && !/[\\/]node_modules[\\/]/.test(filename) && !strictTypeScript.sloppy.has(filename);
    return compile.call(this, strict ? `"use strict";${content}` : content, filename);
  };
}
