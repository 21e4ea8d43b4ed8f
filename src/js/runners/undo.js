const realRandom = Math.random;
// The environment as the suite found it: what a test's code sets there (debug's `save` writes `DEBUG`)
// goes with the test, since every test starts from the same environment in the sandbox, and a module
// loaded afresh by a later test would read it.
const realEnv = typeof process === 'object' && process !== null && process.env ? { ...process.env } : null;
function undo(g) {
  g.Math.random = realRandom;
  g.Date = g.Date.flycatcherRealDate || g.Date;
  const perf = g.performance;
  if (perf && typeof perf.now === 'function' && perf.now.flycatcherRealNow) {
    const real = perf.now.flycatcherRealNow;
    delete perf.now;
    if (perf.now !== real) perf.now = real;
  }
  const proc = g.process;
  if (proc && typeof proc.hrtime === 'function' && proc.hrtime.flycatcherRealHrtime) {
    proc.hrtime = proc.hrtime.flycatcherRealHrtime;
  }
  if (realEnv !== null && proc && proc.env) {
    for (const key of Object.keys(proc.env)) {
      if (!Object.prototype.hasOwnProperty.call(realEnv, key)) delete proc.env[key];
    }
    for (const key of Object.keys(realEnv)) {
      if (proc.env[key] !== realEnv[key]) proc.env[key] = realEnv[key];
    }
  }
}
