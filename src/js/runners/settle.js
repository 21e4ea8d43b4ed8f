// Runs one test and calls back once, with its error or null.
function settle(body, callback) {
  new Promise((resolve) => resolve(withSubjects(body))).then(
    () => callback(null),
    // Runners read a falsy error as success, but a test that throws `undefined` has failed.
    (error) => callback(error || new Error(`the test threw ${String(error)}`)),
  );
}
