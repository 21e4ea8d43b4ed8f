const realRandom = Math.random;
function undo(g) {
  g.Math.random = realRandom;
  g.Date = g.Date.flycatcherRealDate || g.Date;
}
