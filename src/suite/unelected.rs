//! What a run that elected no test writes, so that no run ends with nothing to read: per class under
//! test, a suite whose one test asserts nothing and whose title and header say why there is no other
//! (every method's outcome: coverage, candidates, stop reason, why it was given up), and the failing
//! log with the same lines above the tests that failed. The suite passes under every runner, as an
//! empty suite would not under all of them (jest and vitest refuse a file without tests).

use std::path::{Path, PathBuf};

use super::write::{failing_log, typescript_of, write_rendered};
use crate::error::{Error, Result};
use crate::export::{self, ExportSuite, ExportTest, Format};
use crate::model::program::{ClassId, ProgramInfo};
use crate::suite::{FailingTest, Suite};

impl Suite {
    /// Writes, for each class of `outcomes` (a class and one line per method under test saying how it
    /// ended), `<Class>.test.js` with a single test that says no test was elected, and
    /// `<Class>.failing.log` with the outcomes; returns the files written.
    pub(crate) fn write_unelected(
        &self,
        program: &ProgramInfo,
        format: Format,
        out_dir: &Path,
        header: &[String],
        outcomes: &[(ClassId, Vec<String>)],
    ) -> Result<Vec<PathBuf>> {
        std::fs::create_dir_all(out_dir).map_err(|source| Error::Write { path: out_dir.to_path_buf(), source })?;
        let mut written = Vec::new();
        for (class, lines) in outcomes {
            let name = &program.classes[*class].name;
            let stem = export::suite_stem(program, *class);
            let mut why = header.to_vec();
            why.push(format!("No regression test of {name} was elected. How each method under test ended:"));
            why.extend(lines.iter().map(|line| format!("  {line}")));
            let test = ExportTest {
                group: String::new(),
                title: format!("no test was elected for {name}: see this file's header and {stem}.failing.log"),
                lines: Vec::new(),
                seed: 1,
            };
            let suite = ExportSuite {
                class_name: name.clone(),
                stem: stem.clone(),
                describe: name.clone(),
                header: why.clone(),
                files: Vec::new(),
                bindings: Vec::new(),
                absent_at_load: Vec::new(),
                tests: vec![test],
                failing: false,
                typescript: typescript_of(program, *class).map(|(typescript, _)| typescript),
            };
            write_rendered(&suite, format, out_dir, &mut written)?;
            let failing: Vec<&FailingTest> = self.failing.iter().filter(|f| f.test.class == *class).collect();
            let path = out_dir.join(format!("{stem}.failing.log"));
            std::fs::write(&path, failing_log(program, *class, &failing, &why))
                .map_err(|source| Error::Write { path: path.clone(), source })?;
            written.push(path);
        }
        Ok(written)
    }
}
