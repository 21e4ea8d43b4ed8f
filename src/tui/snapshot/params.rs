//! The parameters pane's rows: every parameter of the current method's class (its constructor's, then
//! its methods'), then the constructor parameters of the other classes its tests build (a list's
//! `Node`), so that everything that can leave a candidate invalid can be seen, accepted and overridden.
//! Unknown parameters carry the leading guess from their evidence so far.

use crate::inference::ParamType;
use crate::model::program::ClassId;
use crate::model::test::{Statement, TestCase};
use crate::session::Subject;

use super::ParamRow;

/// The rows for `class`, then for the helper classes its tests build: those constructed by `latest`
/// (the last candidate of the current method) and those its parameters are typed with, transitively;
/// `delay` is the inference delay in force.
pub(super) fn param_rows(subject: &Subject, delay: u32, class: ClassId, latest: Option<&TestCase>) -> Vec<ParamRow> {
    let info = &subject.program().classes[class];
    let functions = std::iter::once("constructor").chain(info.methods.iter().map(|m| m.name.as_str()));
    let mut rows = Vec::new();
    for function in functions {
        push_param(&mut rows, (subject, delay), None, class, function);
    }
    for helper in helper_classes(subject, class, &rows, latest) {
        push_param(&mut rows, (subject, delay), Some(&subject.program().classes[helper].name), helper, "constructor");
    }
    rows
}

/// The classes other than `class` that `latest` constructs or that `rows` are typed with, then those
/// their constructors' parameters are typed with, in the order found.
fn helper_classes(subject: &Subject, class: ClassId, rows: &[ParamRow], latest: Option<&TestCase>) -> Vec<ClassId> {
    let typed_class = |id: u32| match subject.types().get(id).current_type() {
        ParamType::Class(c) => Some(c),
        _ => None,
    };
    let mut found: Vec<ClassId> = latest
        .into_iter()
        .flat_map(|t| &t.statements)
        .filter_map(|s| match s {
            Statement::Construct { class, .. } => Some(*class),
            _ => None,
        })
        .chain(rows.iter().filter_map(|r| typed_class(r.id)))
        .collect();
    let mut helpers: Vec<ClassId> = Vec::new();
    while let Some(next) = (!found.is_empty()).then(|| found.remove(0)) {
        if next == class || helpers.contains(&next) {
            continue;
        }
        helpers.push(next);
        found.extend(subject.types().params_of(next, "constructor").iter().filter_map(|id| typed_class(*id)));
    }
    helpers
}

/// Adds the rows of `function`'s parameters, each followed by the records of its elements (`items[i]`)
/// when it is an array and of its result (`label()`) when it is a callback, or when those records have
/// been used or typed already.
fn push_param(
    rows: &mut Vec<ParamRow>,
    (subject, delay): (&Subject, u32),
    helper: Option<&str>,
    class: ClassId,
    function: &str,
) {
    for &id in subject.types().params_of(class, function) {
        rows.push(param_row(subject, delay, helper, function, id));
        let ty = subject.types().get(id).current_type();
        let derived =
            [(subject.types().element_of(id), ParamType::Array), (subject.types().result_of(id), ParamType::Function)];
        for (record, of) in derived {
            let Some(record) = record else { continue };
            let used = subject.types().get(record).uses > 0 || subject.types().get(record).decision.is_some();
            if ty == of || used {
                rows.push(param_row(subject, delay, helper, function, record));
            }
        }
    }
}

fn param_row(subject: &Subject, delay: u32, helper: Option<&str>, function: &str, id: u32) -> ParamRow {
    let record = subject.types().get(id);
    let mut members: Vec<(String, u32)> = record.members.iter().map(|(n, u)| (n.clone(), u.total())).collect();
    members.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let (ty, evidence, source) = match &record.decision {
        None => ("Unknown".to_string(), String::new(), None),
        Some(d) => (d.ty.name(subject.program()), d.evidence.clone(), Some(d.source.name())),
    };
    let guess = match record.decision {
        None => subject.leading_guess(id).map(|d| (d.ty.name(subject.program()), d.evidence)),
        Some(_) => None,
    };
    ParamRow {
        id,
        helper: helper.map(str::to_string),
        function: function.to_string(),
        name: record.name.clone(),
        unknown: record.decision.is_none(),
        ty,
        uses: record.uses,
        delay,
        members,
        number: record.scores.number,
        string: record.scores.string,
        evidence,
        source,
        guess,
        fixed: record.frozen(),
    }
}
