// Runs the tests one after another: a TAP line for each, then a count line. The exit code stays 1 unless every
// test passed, even if the process ends before the last test does.
process.exitCode = 1;
(async () => {
  let passed = 0;
  console.log(`1..${tests.length}`);
  for (const [index, [title, body]] of tests.entries()) {
    if (skipping) {
      console.log(`ok ${index + 1} - ${title} # SKIP ${skipping}`);
      continue;
    }
    try {
      await withSubjects(body);
      passed += 1;
      console.log(`ok ${index + 1} - ${title}`);
    } catch (error) {
      console.log(`not ok ${index + 1} - ${title}`);
      console.log(inspect(error).replace(/^/gm, '  # '));
    }
  }
  const skipped = skipping ? tests.length : 0;
  const failed = tests.length - passed - skipped;
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed === 0 ? 0 : 1;
})();