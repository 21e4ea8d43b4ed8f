//! The terminal UI's logic, scripted: key events go through the update function to a real session
//! thread, and the session's snapshots and exported files are checked.

use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use flycatcher::app::Opening;
use flycatcher::app::project::Project;
use flycatcher::export::Format;
use flycatcher::model::settings::{Settings, SettingsOrigin};
use flycatcher::session::SessionOptions;
use flycatcher::tui::snapshot::{CandidateOutcome, MethodStatus, Snapshot};
use flycatcher::tui::state::{App, Mode, Pane};
use flycatcher::tui::update::update;
use flycatcher::tui::view::Areas;
use flycatcher::tui::worker::{Event as WorkerEvent, Worker, WorkerOptions};

struct Ui {
    app: App,
    worker: Worker,
}

impl Ui {
    fn open(file: &str, out: PathBuf, project_path: PathBuf) -> Ui {
        Ui::open_with(file, out, project_path, Project::default())
    }

    fn open_with(file: &str, out: PathBuf, project_path: PathBuf, project: Project) -> Ui {
        Ui::open_path(common::sample(file), out, project_path, project)
    }

    fn open_path(file: PathBuf, out: PathBuf, project_path: PathBuf, project: Project) -> Ui {
        Ui::open_updating(file, out, project_path, project, None)
    }

    fn open_updating(
        file: PathBuf,
        out: PathBuf,
        project_path: PathBuf,
        project: Project,
        update: Option<flycatcher::app::update::Update>,
    ) -> Ui {
        // As the command line opens a run: the project file's settings over the defaults.
        let mut settings = Settings { seed: 3, ..Settings::default() };
        project.settings.apply(&mut settings, SettingsOrigin::ProjectFile).expect("valid project settings");
        let options = WorkerOptions {
            opening: Opening {
                options: SessionOptions { files: vec![file], ..Default::default() },
                settings,
                project,
                seed_from: None,
            },
            project_path,
            out_dir: out.clone(),
            format: Format::NodeTest,
            command: "flycatcher explore (test)".into(),
            update,
        };
        let (worker, snapshot) = Worker::start(options).expect("the sample loads");
        Ui { app: App::new(snapshot, out, Format::NodeTest), worker }
    }

    /// Presses a key and waits until the session has answered every command it caused (the session
    /// thread sends a snapshot after each command it obeys).
    fn press(&mut self, code: KeyCode) {
        let commands = update(&mut self.app, Event::Key(KeyEvent::new(code, KeyModifiers::NONE)), &Areas::default());
        for command in commands {
            self.worker.send(command);
            self.next_snapshot();
        }
    }

    /// Takes in the session's events up to and including its next snapshot (or document: a command
    /// that asks for one is answered with it alone).
    fn next_snapshot(&mut self) {
        loop {
            match self.worker.events.recv_timeout(Duration::from_secs(30)).expect("the session answers") {
                WorkerEvent::Snapshot(s) => {
                    self.app.update_snapshot(*s);
                    return;
                }
                WorkerEvent::Note { text, error } => self.app.note(text, error),
                WorkerEvent::Document(document) => {
                    self.app.show(*document);
                    return;
                }
                WorkerEvent::Finished => return,
            }
        }
    }

    /// Types `text` into the field being edited.
    fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    /// Steps until `done` holds, failing after `limit` steps.
    fn step_until(&mut self, limit: usize, what: &str, done: impl Fn(&Ui) -> bool) {
        for _ in 0..limit {
            if done(self) {
                return;
            }
            self.press(KeyCode::Char('n'));
        }
        assert!(done(self), "{what}: not after {limit} steps");
    }

    /// Runs continuously until every method has stopped, then takes in what the run left queued.
    fn run_to_end(&mut self) {
        self.press(KeyCode::Char('r'));
        let started = Instant::now();
        while self.snapshot().methods.iter().any(|m| !matches!(m.status, MethodStatus::Stopped(_))) {
            assert!(started.elapsed() < Duration::from_secs(120), "run did not finish");
            self.next_snapshot();
        }
        self.settle();
    }

    /// The text of the last note.
    fn note(&self) -> String {
        self.app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default()
    }

    /// Takes in every event the session has already sent, and any it sends within a moment: after a
    /// continuous run, snapshots of its last steps may still be queued, and `press` would take one of
    /// them for the answer to its command.
    fn settle(&mut self) {
        while let Ok(event) = self.worker.events.recv_timeout(Duration::from_millis(200)) {
            match event {
                WorkerEvent::Snapshot(s) => self.app.update_snapshot(*s),
                WorkerEvent::Note { text, error } => self.app.note(text, error),
                WorkerEvent::Document(document) => self.app.show(*document),
                WorkerEvent::Finished => return,
            }
        }
    }

    fn snapshot(&self) -> &Snapshot {
        &self.app.snapshot
    }
}

#[test]
fn step_override_export_and_quit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("suite");
    let mut ui = Ui::open("linked-list.js", out.clone(), dir.path().join("flycatcher.json"));
    assert_eq!(ui.snapshot().iteration, 0);

    // Step: the iteration counter, the candidate and the parameters' uses change.
    ui.press(KeyCode::Char('n'));
    assert_eq!(ui.snapshot().iteration, 1);
    assert!(ui.snapshot().candidate().is_some());
    ui.press(KeyCode::Char(' '));
    assert_eq!(ui.snapshot().iteration, 2);

    // Work on `add`, whose parameter is a Node, and override that Unknown parameter with Node.
    let add = ui.app.method_order().iter().position(|m| ui.snapshot().methods[*m].name == "add").unwrap();
    ui.app.method_cursor = add;
    ui.press(KeyCode::Enter);
    ui.press(KeyCode::Char('n'));
    ui.app.focus = Pane::Params;
    let node_param = ui.snapshot().params.iter().position(|p| p.function == "add").expect("add's parameter is listed");
    assert_eq!(ui.snapshot().params[node_param].ty, "Unknown");
    ui.app.param_cursor = node_param;
    ui.press(KeyCode::Char('o'));
    let Mode::Override(picker) = &ui.app.mode else { panic!("the type picker opens") };
    let node_choice = picker.choices.iter().position(|c| c == "Node").unwrap();
    for _ in 0..node_choice {
        ui.press(KeyCode::Down);
    }
    ui.press(KeyCode::Enter);
    assert_eq!(ui.snapshot().params[node_param].ty, "Node");
    assert_eq!(ui.snapshot().params[node_param].source, Some("overridden"));
    // `add` compares its parameter with null, so a candidate passes `null` now and then.
    let mut calls = Vec::new();
    for _ in 0..5 {
        ui.press(KeyCode::Char('n'));
        let candidate = ui.snapshot().candidate().unwrap();
        let call = candidate.lines.iter().rev().find(|l| l.under_test).expect("the method under test is called");
        calls.push(call.text.clone());
    }
    assert!(calls.iter().any(|c| c.contains(".add(node")), "the next candidates pass a Node: {calls:?}");

    // Run until everything stops, then export.
    ui.press(KeyCode::Char('r'));
    let started = Instant::now();
    while ui.snapshot().methods.iter().any(|m| !matches!(m.status, flycatcher::tui::snapshot::MethodStatus::Stopped(_)))
    {
        assert!(started.elapsed() < Duration::from_secs(60), "run did not finish");
        ui.next_snapshot();
    }
    ui.settle();
    assert!(ui.snapshot().unexported > 0);
    ui.press(KeyCode::Char('x'));
    assert!(matches!(ui.app.mode, Mode::Export(_)));
    ui.press(KeyCode::Enter);
    assert_eq!(ui.snapshot().unexported, 0, "{:?}", ui.app.message);
    common::node_test_passes(&common::suites(&out));

    // Save the project: the overridden type is kept for the next run.
    ui.press(KeyCode::Char('s'));
    let project = Project::load(&dir.path().join("flycatcher.json")).unwrap();
    assert!(project.types.iter().any(|t| t.function == "add" && t.ty == "Node"), "{project:?}");

    ui.press(KeyCode::Char('q'));
    assert!(ui.app.quit);
}

#[test]
fn ctrl_c_writes_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("suite");
    let mut ui = Ui::open("circle.js", out.clone(), dir.path().join("flycatcher.json"));
    for _ in 0..200 {
        ui.press(KeyCode::Char('n'));
    }
    assert!(ui.snapshot().unexported > 0, "some tests were elected");
    let commands =
        update(&mut ui.app, Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), &Areas::default());
    for command in commands {
        ui.worker.send(command);
        ui.next_snapshot();
    }
    assert!(ui.app.quit);
    assert!(out.join("Circle.test.js").exists(), "Ctrl-C wrote the suite");
}

#[test]
fn a_vanished_ui_still_gets_its_suite_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("suite");
    let mut ui = Ui::open("circle.js", out.clone(), dir.path().join("flycatcher.json"));
    for _ in 0..200 {
        ui.press(KeyCode::Char('n'));
    }
    assert!(ui.snapshot().unexported > 0);
    // As when the UI thread panics: the worker is dropped without a Quit command.
    drop(ui);
    assert!(out.join("Circle.test.js").exists(), "the suite was rescued");
}

#[test]
fn element_and_result_records_are_listed_under_their_parameter_and_fixed_by_the_project_file() {
    let dir = tempfile::tempdir().unwrap();
    let entry = |function: &str, parameter: &str, ty: &str| flycatcher::app::project::TypeEntry {
        class: "Cart".into(),
        function: function.into(),
        parameter: parameter.into(),
        ty: ty.into(),
    };
    let project = Project { types: vec![entry("addAll", "items[i]", "Item")], ..Project::default() };
    let mut ui = Ui::open_with("cart.js", dir.path().join("suite"), dir.path().join("flycatcher.json"), project);
    let position = |ui: &Ui, function: &str, name: &str| {
        ui.snapshot().params.iter().position(|p| p.function == function && p.name == name)
    };
    let items = position(&ui, "addAll", "items").expect("addAll's parameter is listed");
    assert_eq!(position(&ui, "addAll", "items[i]"), Some(items + 1), "{:?}", ui.snapshot().params);
    let element = &ui.snapshot().params[items + 1];
    assert_eq!((element.ty.as_str(), element.source), ("Item", Some("project file")));
    assert_eq!(position(&ui, "lines", "label()"), None, "no row before label is known to be a callback");

    ui.press(KeyCode::Char('r'));
    let started = Instant::now();
    while position(&ui, "lines", "label()").is_none_or(|row| ui.snapshot().params[row].unknown) {
        assert!(started.elapsed() < Duration::from_secs(60), "label's result was never typed");
        ui.next_snapshot();
    }
    let label = position(&ui, "lines", "label").unwrap();
    assert_eq!(ui.snapshot().params[label].ty, "function");
    let result = &ui.snapshot().params[label + 1];
    assert_eq!(result.name, "label()");
    assert!(result.uses > 0 && !result.evidence.is_empty(), "{result:?}");

    // Saved and loaded again, a derived record keeps its type. The run is paused first, so that the
    // answer to `s` is not taken for a snapshot the run left queued.
    if ui.snapshot().running {
        ui.press(KeyCode::Char('r'));
    }
    ui.settle();
    ui.press(KeyCode::Char('s'));
    let project = Project::load(&dir.path().join("flycatcher.json")).unwrap();
    assert!(project.types.contains(&entry("addAll", "items[i]", "Item")), "{project:?}");
}

/// The folder field of the export dialog emptied and set to `folder`, then Enter.
fn export_to(ui: &mut Ui, folder: &std::path::Path) {
    ui.press(KeyCode::Char('x'));
    ui.press(KeyCode::Tab);
    let Mode::Export(form) = &ui.app.mode else { panic!("the export dialog opens") };
    for _ in 0..form.folder.chars().count() {
        ui.press(KeyCode::Backspace);
    }
    ui.type_text(&folder.display().to_string());
    ui.press(KeyCode::Enter);
}

#[test]
fn quitting_writes_the_suite_where_the_export_dialog_said() {
    let dir = tempfile::tempdir().unwrap();
    let (out, myout) = (dir.path().join("flycatcher-out"), dir.path().join("myout"));
    let mut ui = Ui::open("linked-list.js", out.clone(), dir.path().join("flycatcher.json"));
    ui.step_until(2000, "a test elected", |ui| ui.snapshot().unexported > 0);
    export_to(&mut ui, &myout);
    assert_eq!(ui.snapshot().unexported, 0, "{}", ui.note());
    ui.step_until(5000, "another test elected", |ui| ui.snapshot().unexported > 0);
    let elected = ui.snapshot().suite.elected.len();
    ui.press(KeyCode::Char('q'));
    assert_eq!(ui.app.mode, Mode::ConfirmQuit);
    ui.press(KeyCode::Char('y'));
    assert!(ui.app.quit);
    assert!(!out.exists(), "nothing went to the default folder");
    let written = std::fs::read_to_string(myout.join("LinkedList.test.js")).unwrap();
    assert!(elected > 1 && written.matches("test(").count() > 1, "the second export went to myout:\n{written}");
    assert!(ui.app.farewell.iter().any(|m| m.text.contains("myout")), "{:?}", ui.app.farewell);
}

#[test]
fn settings_and_types_changed_live_are_offered_for_saving_and_named_in_the_suite_header() {
    let dir = tempfile::tempdir().unwrap();
    let (out, project) = (dir.path().join("suite"), dir.path().join("flycatcher.json"));
    let mut ui = Ui::open("linked-list.js", out.clone(), project.clone());
    // Esc never quits.
    ui.press(KeyCode::Esc);
    assert!(!ui.app.quit);
    // The delay, changed in the settings dialog.
    ui.press(KeyCode::Char('t'));
    ui.press(KeyCode::Backspace);
    ui.press(KeyCode::Backspace);
    ui.type_text("7");
    ui.press(KeyCode::Enter);
    assert_eq!(ui.note(), "settings changed: --delay 7");
    // A type, overridden: the note names its class and function (three parameters are called `node`).
    let add = ui.snapshot().params.iter().position(|p| p.function == "add").unwrap();
    ui.app.param_cursor = add;
    ui.press(KeyCode::Char('o'));
    let Mode::Override(picker) = &ui.app.mode else { panic!("the type picker opens") };
    let node = picker.choices.iter().position(|c| c == "Node").unwrap();
    for _ in 0..node {
        ui.press(KeyCode::Down);
    }
    ui.press(KeyCode::Enter);
    assert_eq!(ui.note(), "LinkedList.add(node) is now Node (i gives it back to inference)");
    assert_eq!(ui.snapshot().unsaved, ["--delay 7", "LinkedList.add(node): Node, overridden"]);
    ui.step_until(2000, "a test elected", |ui| ui.snapshot().unexported > 0);
    ui.press(KeyCode::Char('x'));
    ui.press(KeyCode::Enter);
    let header = std::fs::read_to_string(out.join("LinkedList.test.js")).unwrap();
    assert!(header.contains("Changed in explore after step 0: --delay 7"), "{header}");
    assert!(header.contains("Changed in explore after step 0: LinkedList.add(node): Node, overridden"), "{header}");
    // Nothing unexported, but the changes are not saved: quitting asks, and yes saves them.
    ui.press(KeyCode::Char('q'));
    assert_eq!(ui.app.mode, Mode::ConfirmQuit);
    ui.press(KeyCode::Char('y'));
    let saved = Project::load(&project).unwrap();
    assert_eq!(saved.settings.delay, Some(7));
    assert!(saved.types.iter().any(|t| t.function == "add" && t.ty == "Node"), "{saved:?}");
    let farewell: Vec<&str> = ui.app.farewell.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(farewell, [format!("saved {}", project.display())], "only what quitting did is printed on exit");
}

#[test]
fn a_failure_names_the_call_that_threw_and_marks_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut ui = Ui::open("linked-list.js", dir.path().join("suite"), dir.path().join("flycatcher.json"));
    let by_other_call = |ui: &Ui| {
        ui.snapshot()
            .suite
            .failing
            .iter()
            .any(|f| f.culprit.as_ref().is_some_and(|c| !f.method.ends_with(&format!(".{c}"))))
    };
    ui.press(KeyCode::Char('r'));
    let started = Instant::now();
    while !by_other_call(&ui) {
        assert!(started.elapsed() < Duration::from_secs(60), "no failure of another call than the method under test");
        ui.next_snapshot();
    }
    ui.press(KeyCode::Char('r'));
    ui.settle();
    let failing = ui.snapshot().suite.failing.iter().find(|f| f.culprit.is_some()).unwrap();
    assert!(!failing.message.starts_with(&failing.method), "{failing:?}");
    // In the history, a failed candidate marks the line that failed and names what it called.
    let failed =
        ui.snapshot().history.iter().find(|c| matches!(c.outcome, CandidateOutcome::Failed { culprit: Some(_), .. }));
    if let Some(candidate) = failed {
        let CandidateOutcome::Failed { culprit: Some(culprit), message } = &candidate.outcome else { unreachable!() };
        let line = &candidate.lines[candidate.failed_at.expect("where it failed is known")].text;
        assert!(line.contains(culprit.trim_start_matches("new ")), "{line} does not call {culprit}");
        assert!(!candidate.outcome.describe().contains("threw: threw"), "{message}");
    }
}

#[test]
fn helper_classes_constructor_parameters_are_listed_with_the_class() {
    let dir = tempfile::tempdir().unwrap();
    let mut ui = Ui::open("linked-list.js", dir.path().join("suite"), dir.path().join("flycatcher.json"));
    let add = ui.app.method_order().iter().position(|m| ui.snapshot().methods[*m].name == "add").unwrap();
    ui.app.method_cursor = add;
    ui.press(KeyCode::Enter);
    ui.step_until(500, "a candidate builds a Node", |ui| {
        ui.snapshot().candidate().is_some_and(|c| c.lines.iter().any(|l| l.text.contains("new Node")))
    });
    assert_eq!(ui.snapshot().class.as_deref(), Some("LinkedList"));
    let data = ui
        .snapshot()
        .params
        .iter()
        .find(|p| p.helper.as_deref() == Some("Node"))
        .expect("Node's constructor is listed");
    assert_eq!(data.label(), "new Node(data)");
    // Listed, it can be fixed like any other.
    let (id, cursor) = (data.id, ui.snapshot().params.iter().position(|p| p.id == data.id).unwrap());
    ui.app.param_cursor = cursor;
    ui.press(KeyCode::Char('o'));
    ui.press(KeyCode::Enter);
    let row = ui.snapshot().params.iter().find(|p| p.id == id).unwrap();
    assert_eq!((row.ty.as_str(), row.source), ("number", Some("overridden")));
    assert!(ui.note().starts_with("Node.constructor(data) is now number"), "{}", ui.note());
}

#[test]
fn the_export_says_how_many_tests_minimisation_left_and_a_covered_method_can_be_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("suite");
    let mut ui = Ui::open("linked-list.js", out.clone(), dir.path().join("flycatcher.json"));
    ui.run_to_end();
    assert!(ui.app.message.as_ref().is_none_or(|m| !m.text.contains("stopped")), "{:?}", ui.app.message);
    let before = ui.snapshot().suite.elected.len();
    ui.press(KeyCode::Char('x'));
    ui.press(KeyCode::Enter);
    let after = ui.snapshot().suite.elected.len();
    let expected = match before == after {
        true => format!("{after} elected · wrote"),
        false => format!("{before} elected → {after} after minimisation · wrote"),
    };
    assert!(ui.note().starts_with(&expected), "{} (expected {expected})", ui.note());
    let written = std::fs::read_to_string(out.join("LinkedList.test.js")).unwrap();
    let tests = ui.snapshot().suite.elected.iter().filter(|e| e.method == "LinkedList").count();
    assert_eq!(written.matches("test(").count(), tests, "the pane counts what the file has");

    let covered = ui
        .app
        .method_order()
        .iter()
        .position(|m| {
            ui.snapshot().methods[*m].status == MethodStatus::Stopped(flycatcher::session::StopReason::Covered)
        })
        .expect("a method is covered");
    ui.app.method_cursor = covered;
    ui.press(KeyCode::Enter);
    assert!(ui.note().contains("reopened"), "{}", ui.note());
    let method = ui.app.selected_method().unwrap();
    assert_eq!(ui.snapshot().methods[method].status, MethodStatus::Running);
}

#[test]
fn the_rate_is_that_of_continuous_stepping_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut ui = Ui::open("circle.js", dir.path().join("suite"), dir.path().join("flycatcher.json"));
    ui.press(KeyCode::Char('n'));
    // The rate is measured over half a second: steps taken by hand on either side of it are no speed.
    std::thread::sleep(Duration::from_millis(600));
    ui.press(KeyCode::Char('n'));
    ui.press(KeyCode::Char('n'));
    assert_eq!(ui.snapshot().rate, 0.0);
}

#[test]
fn history_full_views_and_type_control() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Project::default();
    settings.settings.delay = Some(1000);
    let mut ui =
        Ui::open_with("linked-list.js", dir.path().join("suite"), dir.path().join("flycatcher.json"), settings);
    ui.settle();
    assert!(ui.note().starts_with("read "), "a loaded project file is announced: {}", ui.note());
    assert!(ui.note().contains("1 setting and 0 parameter types"), "{}", ui.note());
    let add = ui.app.method_order().iter().position(|m| ui.snapshot().methods[*m].name == "add").unwrap();
    ui.app.method_cursor = add;
    ui.press(KeyCode::Enter);
    let param = ui.snapshot().params.iter().position(|p| p.function == "add").unwrap();
    ui.app.param_cursor = param;
    ui.step_until(1000, "a leading guess", |ui| ui.snapshot().params[param].guess.is_some());
    let row = &ui.snapshot().params[param];
    assert!(row.unknown && row.uses < 1000, "before the delay");
    assert_eq!(row.guess.as_ref().map(|g| g.0.as_str()), Some("Node"));
    ui.app.focus = Pane::Params;
    ui.press(KeyCode::Char('a'));
    assert_eq!(ui.note(), "LinkedList.add(node) stays Node (accepted its leading guess)");
    let row = &ui.snapshot().params[param];
    assert!(row.evidence.contains("Node") && row.fixed, "the evidence stays visible: {row:?}");
    ui.press(KeyCode::Char('i'));
    assert!(ui.note().contains("back to inference"), "{}", ui.note());
    assert!(ui.snapshot().params[param].unknown);

    // The history: step back to an earlier candidate and read it full screen, coverage diff included.
    ui.app.focus = Pane::Candidate;
    let latest = ui.snapshot().candidate().unwrap().step;
    ui.press(KeyCode::Char('k'));
    let viewed = ui.app.viewed_candidate().unwrap().step;
    assert_eq!(viewed, latest - 1);
    ui.press(KeyCode::Enter);
    let Mode::Full(view) = &ui.app.mode else { panic!("a full view opens: {:?}", ui.app.message) };
    assert_eq!(view.document.title, format!("Candidate of step {viewed} · LinkedList.add"));
    let text: Vec<&str> = view.document.lines.iter().map(|(_, l)| l.as_str()).collect();
    assert!(text.iter().any(|l| l.starts_with("Coverage of LinkedList.add:")), "{text:#?}");
    assert!(text.iter().any(|l| l.contains("LinkedList.prototype.add")), "the method's source: {text:#?}");
    ui.press(KeyCode::Esc);

    // The suite as it would be written.
    ui.step_until(3000, "a test elected", |ui| !ui.snapshot().suite.elected.is_empty());
    ui.press(KeyCode::Char('v'));
    let Mode::Full(view) = &ui.app.mode else { panic!("the suite opens full screen") };
    assert!(view.document.lines.iter().any(|(_, l)| l.contains("LinkedList.test.js")), "{:?}", view.document);
    assert!(view.document.lines.iter().any(|(_, l)| l.contains("test(")), "{:?}", view.document);
}

#[test]
fn a_slow_load_reports_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let options = WorkerOptions {
        opening: Opening {
            options: SessionOptions {
                files: vec![common::root().join("tests/fixtures/slow-load.js")],
                ..Default::default()
            },
            settings: Settings { seed: 1, ..Settings::default() },
            project: Project::default(),
            seed_from: None,
        },
        project_path: dir.path().join("flycatcher.json"),
        out_dir: dir.path().join("suite"),
        format: Format::NodeTest,
        command: "flycatcher explore (test)".into(),
        update: None,
    };
    let mut reports = Vec::new();
    let (_worker, snapshot) = Worker::start_watching(options, |elapsed| reports.push(elapsed)).unwrap();
    assert_eq!(snapshot.classes[0].name, "Counter");
    assert!(!reports.is_empty(), "loading took a while and said so");
    assert!(reports.windows(2).all(|w| w[0] <= w[1]));
}

/// Every file in `out`, by name, as text.
fn suite_files(out: &std::path::Path) -> std::collections::BTreeMap<String, String> {
    std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// Quits, confirming when the explorer asks (something is unexported), which exports to the out folder.
fn quit_exporting(ui: &mut Ui) {
    ui.press(KeyCode::Char('q'));
    if ui.app.mode == Mode::ConfirmQuit {
        ui.press(KeyCode::Char('y'));
    }
    assert!(ui.app.quit);
}

/// `explore --update` on a folder holding a suite `generate` wrote: the suite's tests are run and kept
/// when the session opens, the first note says so, and quitting writes nothing while the code is
/// unchanged; after an edit of one method, the tests whose behaviour changed are owed to an export
/// (quitting asks), and the export sets them aside in `<Class>.changed.log` as `generate --update` does.
#[test]
fn an_update_keeps_the_suite_in_the_folder_and_sets_aside_what_an_edit_changed() {
    let fixtures = common::root().join("tests/fixtures/update");
    let dir = tempfile::tempdir().unwrap();
    let (code, out) = (dir.path().join("shelf.js"), dir.path().join("out"));
    std::fs::copy(fixtures.join("shelf.js"), &code).unwrap();
    let budget = ["--budget", "3000", "--timeout", "600", "--seed", "1"];
    let (code_arg, out_arg) = (code.display().to_string(), out.display().to_string());
    let mut args = vec!["generate", code_arg.as_str(), "--out", out_arg.as_str()];
    args.extend(budget);
    let output = common::flycatcher(&args);
    assert!(output.status.success(), "{}", common::text(&output));
    let written = suite_files(&out);
    let update = Some(flycatcher::app::update::Update { accept_changes: false });
    let project = dir.path().join("flycatcher.json");

    let mut ui = Ui::open_updating(code.clone(), out.clone(), project.clone(), Project::default(), update);
    ui.settle();
    let note = ui.note();
    assert!(note.contains("updating the suite in") && note.contains(" 0 changed"), "{note}");
    let kept: usize = note.split(": ").nth(1).and_then(|n| n.split(' ').next()?.parse().ok()).unwrap_or(0);
    assert!(kept > 0, "the suite's tests are kept: {note}");
    ui.run_to_end();
    quit_exporting(&mut ui);
    drop(ui);
    assert_eq!(suite_files(&out), written, "an update of unchanged code writes nothing new");

    std::fs::copy(fixtures.join("shelf-edited.js"), &code).unwrap();
    let mut ui = Ui::open_updating(code, out.clone(), project, Project::default(), update);
    ui.settle();
    let note = ui.note();
    assert!(note.contains("updating the suite in") && !note.contains(" 0 changed"), "{note}");
    assert!(ui.snapshot().unexported > 0, "the changed tests are owed to an export");
    ui.run_to_end();
    quit_exporting(&mut ui);
    drop(ui);
    let after = suite_files(&out);
    let log = after.get("Shelf.changed.log").expect("the changed tests are logged");
    assert!(log.contains("label"), "{log}");
    assert_ne!(after.get("Shelf.test.js"), written.get("Shelf.test.js"), "the changed tests left the suite");
}

/// Classes with nothing but fields and getters (see `goals.rs`): the explorer steps their constructors'
/// goals, shows the construction as what is under test, and exports the suites `generate` writes.
#[test]
fn a_class_with_nothing_to_call_is_explored_through_its_construction() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("suite");
    let file = common::fixture("goals/records.cjs");
    let mut ui = Ui::open_path(file, out.clone(), dir.path().join("flycatcher.json"), Project::default());
    let names: Vec<&str> = ui.snapshot().methods.iter().map(|m| m.name.as_str()).collect();
    // After `Meter`'s method, first `Temperature`'s: its candidates end by building one, the statement
    // under test.
    assert_eq!(names, ["add", "constructor", "constructor", "constructor", "constructor"]);
    let first = ui.app.method_order().iter().position(|m| *m == 1).unwrap();
    ui.app.method_cursor = first;
    ui.press(KeyCode::Enter);
    ui.press(KeyCode::Char('n'));
    let candidate = ui.snapshot().candidate().unwrap();
    let tested = candidate.lines.iter().rev().find(|l| l.under_test).expect("the construction is under test");
    assert!(tested.text.contains("new Temperature("), "{:?}", candidate.lines);
    ui.run_to_end();
    quit_exporting(&mut ui);
    let written = suite_files(&out);
    assert!(written["Temperature.test.js"].contains("test(\"builds an instance when unit"), "{written:?}");
    assert!(written["Options.test.js"].contains("assert.strictEqual(options.retries, 3);"), "{written:?}");
    common::node_test_passes(&common::suites(&out));
}
