// ES modules are imported afresh for each test: vitest's module registry is emptied first, so modules they
// import start afresh too.
const moduleUrls = [
FILES].map((file) => pathToFileURL(path.resolve(__dirname, file)).href);
async function importFresh() {
  vi.resetModules();
  return Promise.all(moduleUrls.map((url) => import(url)));
}
