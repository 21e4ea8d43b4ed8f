// CommonJS modules are required afresh for each test: jest keeps modules in a registry of its own, and
// isolateModules gives each load a new one (packages in node_modules are loaded afresh too).
const commonJsFiles = [
FILES].map((file) => path.resolve(__dirname, file));
function requireFresh() {
  let required;
  jest.isolateModules(() => {
    required = commonJsFiles.map((file) => require(file));
  });
  return required;
}
