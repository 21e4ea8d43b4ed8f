(function (g) {
  const print = g.__fc$print;
  delete g.__fc$print;
  const show = (v) => {
    if (typeof v === 'string') return v;
    try {
      const json = JSON.stringify(v);
      return json === undefined ? String(v) : json;
    } catch (_) {
      return String(v);
    }
  };
  const silent = () => {};
  const line = print ? (...values) => print(values.map(show).join(' ')) : silent;
  const console = {};
  for (const name of ['log', 'info', 'warn', 'error', 'debug']) console[name] = line;
  for (const name of ['trace', 'dir', 'dirxml', 'table', 'time', 'timeEnd', 'timeLog', 'timeStamp', 'assert',
    'count', 'countReset', 'group', 'groupCollapsed', 'groupEnd', 'clear', 'profile', 'profileEnd']) {
    console[name] = silent;
  }
  g.console = console;
})(globalThis);