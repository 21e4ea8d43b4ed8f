// expresso starts every test at once and calls what a test gave `beforeExit` when the process is
// about to exit: that checks the test's outcome.
function settled(body) {
  let failure = new Error('the test did not finish');
  settle(body, (error) => {
    failure = error;
  });
  return () => {
    if (failure) throw failure;
  };
}
