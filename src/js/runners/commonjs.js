// CommonJS modules are required afresh for each test: first they, and the files they required outside
// node_modules (whose packages are shared as usual), are dropped from require's cache.
const commonJsFiles = [
FILES].map((file) => path.resolve(__dirname, file));
function forget(file) {
  const cached = require.cache[file];
  // Native addons cannot be loaded twice.
  if (cached === undefined || /[\\/]node_modules[\\/]|\.node$/.test(file)) return;
  delete require.cache[file];
  for (const child of cached.children) forget(child.filename);
}
function requireFresh() {
  commonJsFiles.forEach(forget);
  return commonJsFiles.map((file) => require(file));
}
