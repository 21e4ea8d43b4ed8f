// ES modules stay cached by URL for the life of the process, so each test imports them with a new query, and a
// resolve hook hands that query on to their relative imports (not to packages in node_modules): modules they
// import start afresh too. Runners may load several suites into one process: they share one hook and counter.
const moduleUrls = [
FILES].map((file) => pathToFileURL(path.resolve(__dirname, file)).href);
const freshModules = (globalThis[Symbol.for('flycatcher.freshModules')] ??= { loads: 0, hooked: false });
if (!freshModules.hooked) {
  freshModules.hooked = true;
  register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const load = context.parentURL === undefined ? null : new URL(context.parentURL).searchParams.get('flycatcher-load');
  if (load === null || !resolved.url.startsWith('file:') || resolved.url.includes('/node_modules/')) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set('flycatcher-load', load);
  return { ...resolved, url: url.href };
}`));
}
function importFresh() {
  const load = ++freshModules.loads;
  return Promise.all(moduleUrls.map((url) => import(`${url}?flycatcher-load=${load}`)));
}
