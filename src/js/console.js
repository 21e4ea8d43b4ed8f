(function (g) {
  // Built-ins as they were before user code ran (see `js/primordials.js`): printing a value must neither
  // fail nor run a patched `JSON.stringify`.
  const P = g.__fc$P;
  const print = g.__fc$print;
  delete g.__fc$print;
  const show = (v) => {
    if (typeof v === 'string') return v;
    try {
      const json = P.quote(v);
      return json === undefined ? P.String(v) : json;
    } catch (_) {
      try {
        return P.String(v);
      } catch (_) {
        return '[value that cannot be printed]';
      }
    }
  };
  const silent = () => {};
  const line = print ? (...values) => print(P.join(P.map(values, show), ' ')) : silent;
  const console = {};
  const loud = ['log', 'info', 'warn', 'error', 'debug'];
  for (let i = 0; i < loud.length; i++) console[loud[i]] = line;
  const quiet = ['trace', 'dir', 'dirxml', 'table', 'time', 'timeEnd', 'timeLog', 'timeStamp', 'assert', 'count',
    'countReset', 'group', 'groupCollapsed', 'groupEnd', 'clear', 'profile', 'profileEnd'];
  for (let i = 0; i < quiet.length; i++) console[quiet[i]] = silent;
  g.console = console;
})(globalThis);
