// ES modules are imported afresh for each test: isolateModulesAsync gives each load a new module registry, so
// modules they import start afresh too. Jest loads ES modules only under NODE_OPTIONS=--experimental-vm-modules.
const moduleUrls = [
FILES].map((file) => pathToFileURL(path.resolve(__dirname, file)).href);
async function importFresh() {
  let imported;
  await jest.isolateModulesAsync(async () => {
    imported = await Promise.all(moduleUrls.map((url) => import(url)));
  });
  return imported;
}
