//! `flycatcher record`: run an entry script (a demo, an example, a smoke script) in the sandbox with the
//! program's classes wrapped, and record how it really uses them.
//!
//! The files the entry uses load first (plain scripts named after it, modules it requires or imports),
//! the analyser finds their classes, and `recorder.js` wraps them: prototype methods in place,
//! constructors by replacing their binding (a script global, a namespace property, a CommonJS export)
//! with a proxy, or an ES-module entry's imports by a view of the module. Then the entry runs. The
//! program's `console` prints (in generated tests it is silent; the rest of the host stays unreachable).
//! The [`format::Recording`] it leaves feeds generation ([`seed`]) and replay
//! tests ([`replay`]).

pub(crate) mod format;
pub(crate) mod replay;
pub(crate) mod seed;

use std::path::PathBuf;
use std::time::{Duration, Instant};

pub(crate) use format::Recording;
pub use seed::SeedFrom;

use crate::analysis::files::SourceSet;
use crate::discovery::{analyse, sandbox_expression};
use crate::error::{Error, Result};
use crate::js::{PRIMORDIALS, RECORDER, RECORDER_JS, SET_EXPORTS};
use crate::model::program::ModuleKind;
use crate::model::program::{Access, Origin, ProgramInfo};
use crate::model::settings::Limits;
use crate::sandbox::{CodeBase, Sandbox, with_bare_context};

/// What to record.
#[derive(Debug, Clone)]
pub struct RecordOptions {
    /// The entry script.
    pub entry: PathBuf,
    /// Plain scripts loaded before it, in order (modules it requires or imports are found by
    /// themselves).
    pub scripts: Vec<PathBuf>,
    /// Calls recorded per method at most; later ones run unrecorded.
    pub max_calls_per_method: usize,
    /// Time the entry may run.
    pub timeout: Duration,
    /// Whether the entry's `console` output is printed.
    pub echo: bool,
}

/// What a recording run produced.
pub struct Recorded {
    /// The recording (also when the entry failed part way: it holds what happened before).
    pub(crate) recording: Recording,
    /// The program's files (the entry excluded), as absolute paths: what replay tests load.
    pub(crate) files: Vec<PathBuf>,
    /// Classes whose constructions could not be recorded, and why.
    pub(crate) warnings: Vec<String>,
    /// How the entry failed, if it did.
    pub(crate) failure: Option<Error>,
}

/// The loaded program with the entry held back.
struct Prepared {
    code: CodeBase,
    sandbox: Sandbox,
    program: ProgramInfo,
    entry: usize,
}

fn prepare(options: &RecordOptions) -> Result<Prepared> {
    let mut paths = options.scripts.clone();
    paths.push(options.entry.clone());
    let mut sources = SourceSet::load(&paths)?;
    let entry_path =
        std::fs::canonicalize(&options.entry).map_err(|source| Error::Read { file: options.entry.clone(), source })?;
    let entry = sources.entries.iter().position(|e| e.parsed.path == entry_path).expect("the entry was loaded");
    if sources.entries.len() == 1 {
        return Err(Error::Usage(format!(
            "{}: the entry script uses no other file: name the plain scripts it uses after it (`flycatcher record \
             {} LIBRARY.js`), or require/import them",
            options.entry.display(),
            options.entry.display()
        )));
    }
    // Everything but the entry loads now (and is searched for classes, Node's built-ins aside: a host
    // module's stand-in throws when looked at); the entry runs once they are wrapped.
    for (index, source) in sources.entries.iter_mut().enumerate() {
        source.given = index != entry && !source.builtin;
    }
    let code = CodeBase::new(sources, false);
    let mut sandbox = Sandbox::for_recording(&code, Limits::default(), entry, options.echo)?;
    let program = analyse(&code, &mut sandbox, None)?;
    Ok(Prepared { code, sandbox, program, entry })
}

/// Installs the recorder and wraps every class; returns the classes whose constructions cannot be
/// recorded.
fn install(prepared: &mut Prepared, max_calls_per_method: usize) -> Result<Vec<String>> {
    let program = &prepared.program;
    let names = |origin: Origin| -> Vec<Vec<String>> {
        program
            .classes
            .iter()
            .map(|c| c.methods.iter().filter(|m| m.origin == origin).map(|m| m.name.clone()).collect())
            .collect()
    };
    let config = serde_json::json!({
        "limit": max_calls_per_method,
        "methods": names(Origin::Prototype),
        "own": names(Origin::Constructor),
    });
    prepared
        .sandbox
        .evaluate(&format!("{RECORDER_JS}; {RECORDER}.install({config}); ''"), "installing the recorder")?;
    let mut script = String::from("(function () { var failed = [];\n");
    let mut warnings = Vec::new();
    // A class made by a factory keeps its factory: calls on its instances are recorded, not replayed.
    // Modules of functions are not recorded.
    for (index, class) in program.classes.iter().enumerate().filter(|(_, c)| c.factory.is_none() && !c.is_module()) {
        let target = match &class.access {
            Access::Script { expression } => expression.clone(),
            Access::CommonJs { file, path } if path.is_empty() => {
                script.push_str(&format!("{SET_EXPORTS}({file}, {RECORDER}.constructorFor({index}));\n"));
                continue;
            }
            Access::CommonJs { .. } => sandbox_expression(&class.access),
            // An export itself cannot be replaced: the entry imports a view of the module instead (see
            // `Sandbox::for_recording`); only an ES-module entry can import it.
            Access::EsModule { path, .. } if path.is_empty() => {
                if prepared.code.files[prepared.entry].entry.parsed.kind != ModuleKind::EsModule {
                    warnings.push(format!(
                        "constructions of {} are not recorded (only an ES-module entry imports its module): its \
                         calls are recorded, but not replayed",
                        class.name
                    ));
                }
                continue;
            }
            Access::EsModule { .. } => sandbox_expression(&class.access),
        };
        script.push_str(&format!(
            "try {{ {target} = {RECORDER}.constructorFor({index}); }} catch (e) {{ failed[failed.length] = [{index}, {PRIMORDIALS}.String(e)]; }}\n"
        ));
    }
    script.push_str(&format!("return {PRIMORDIALS}.json(failed); }})()"));
    let failed = prepared.sandbox.evaluate(&script, "wrapping the constructors")?;
    let failed: Vec<(usize, String)> = serde_json::from_str(&failed).unwrap_or_default();
    for (index, why) in failed {
        warnings.push(format!(
            "constructions of {} are not recorded ({why}): its calls are recorded, but not replayed",
            program.classes[index].name
        ));
    }
    Ok(warnings)
}

/// Runs the entry script with every class wrapped and returns the recording.
pub(crate) fn record(options: &RecordOptions) -> Result<Recorded> {
    let mut prepared = prepare(options)?;
    let warnings = install(&mut prepared, options.max_calls_per_method)?;
    let failure = prepared.sandbox.run_file(prepared.entry, options.timeout).err();
    let events = prepared.sandbox.evaluate(&format!("{RECORDER}.take()"), "reading the recording")?;
    let events = serde_json::from_str(&events).map_err(|e| Error::Engine(format!("reading the recording: {e}")))?;
    // The files replay tests load: all but the entry and Node's built-ins, which load by name.
    let others = || prepared.code.files.iter().filter(|f| f.entry.given);
    let recording = Recording {
        version: format::VERSION,
        entry: prepared.code.files[prepared.entry].entry.parsed.display.clone(),
        files: others().map(|f| f.entry.parsed.display.clone()).collect(),
        classes: prepared.program.classes.iter().map(|c| c.name.clone()).collect(),
        events,
    };
    let files = others().map(|f| f.entry.parsed.path.clone()).collect();
    Ok(Recorded { recording, files, warnings, failure })
}

/// Measures what recording costs: the entry's run time with recording (wrapping included, loading
/// excluded) against a plain run of the same uninstrumented scripts in a bare QuickJS context, the
/// median of `runs` runs each. Plain scripts only: the bare side has no module loader.
pub fn overhead(options: &RecordOptions, runs: usize) -> Result<String> {
    let mut files = options.scripts.clone();
    files.push(options.entry.clone());
    let mut sources = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).map_err(|source| Error::Read { file: file.clone(), source })?;
        sources.push(text);
    }
    let probe = SourceSet::load(&files)?;
    if probe.entries.iter().any(|e| e.parsed.kind != ModuleKind::Script) {
        return Err(Error::Usage(
            "bench --record measures plain-script entries only (the bare side has no module loader)".into(),
        ));
    }
    let quiet = RecordOptions { echo: false, ..options.clone() };
    let runs = runs.max(1);
    let mut plain = Vec::new();
    let mut recorded = Vec::new();
    let mut calls = 0;
    for _ in 0..runs {
        plain.push(bare_run(&sources)?);
        let mut prepared = prepare(&quiet)?;
        let started = Instant::now();
        install(&mut prepared, quiet.max_calls_per_method)?;
        prepared.sandbox.run_file(prepared.entry, quiet.timeout)?;
        let events = prepared.sandbox.evaluate(&format!("{RECORDER}.take()"), "reading the recording")?;
        recorded.push(started.elapsed());
        calls = serde_json::from_str::<Vec<serde_json::Value>>(&events).map_or(0, |e| e.len());
    }
    let (plain, recorded) = (median(plain), median(recorded));
    Ok(format!(
        "entry: {}\nevents recorded: {calls}\nplain run (bare QuickJS, uninstrumented): {:.3} ms\n\
         recording run (instrumented, wrapped, recorded, read back): {:.3} ms\nratio recording/plain: {:.1}x \
         (median of {runs} runs each)\n",
        options.entry.display(),
        plain.as_secs_f64() * 1e3,
        recorded.as_secs_f64() * 1e3,
        recorded.as_secs_f64() / plain.as_secs_f64().max(1e-9)
    ))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// The entry's plain run time: every script but the last evaluated first, then the last one timed.
fn bare_run(sources: &[String]) -> Result<Duration> {
    with_bare_context(|eval| {
        eval(crate::js::CONSOLE_JS)?;
        let (entry, libraries) = sources.split_last().expect("the entry is among the sources");
        for library in libraries {
            eval(library)?;
        }
        let started = Instant::now();
        eval(entry)?;
        Ok(started.elapsed())
    })
}
