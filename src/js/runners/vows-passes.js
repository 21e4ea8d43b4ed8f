// Each topic runs one test and hands its error to this vow. Taking two parameters makes vows pass the
// error in rather than report it by itself, so that a failed assertion counts as broken, not errored.
function passes(error, result) {
  if (error) throw error;
}
