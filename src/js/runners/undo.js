const realRandom = Math.random;
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
}
