//! The terminal UI's logic, scripted: key events go through the update function to a real session
//! thread, and the session's snapshots and exported files are checked.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use flycatcher::app::Opening;
use flycatcher::app::project::Project;
use flycatcher::export::Format;
use flycatcher::model::settings::Settings;
use flycatcher::session::SessionOptions;
use flycatcher::tui::snapshot::Snapshot;
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
        let options = WorkerOptions {
            opening: Opening {
                options: SessionOptions { files: vec![common::sample(file)], ..Default::default() },
                settings: Settings { seed: 3, ..Settings::default() },
                project,
                seed_from: None,
            },
            project_path,
            out_dir: out.clone(),
            format: Format::NodeTest,
            command: "flycatcher explore (test)".into(),
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

    /// Takes in the session's events up to and including its next snapshot.
    fn next_snapshot(&mut self) {
        loop {
            match self.worker.events.recv_timeout(Duration::from_secs(30)).expect("the session answers") {
                WorkerEvent::Snapshot(s) => {
                    self.app.update_snapshot(*s);
                    return;
                }
                WorkerEvent::Note { text, error } => self.app.note(text, error),
                WorkerEvent::Document(document) => self.app.show(*document),
                WorkerEvent::Finished => return,
            }
        }
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

    // Saved and loaded again, a derived record keeps its type.
    ui.press(KeyCode::Char('s'));
    let project = Project::load(&dir.path().join("flycatcher.json")).unwrap();
    assert!(project.types.contains(&entry("addAll", "items[i]", "Item")), "{project:?}");
}
