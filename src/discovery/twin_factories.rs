//! Factories that make the same objects: a function that only forwards to a factory of plain objects
//! (`legacy_createStore(...)` returning `createStore(...)`) makes objects whose methods are the very closures
//! of the first. One unit tests them, the one of the factory that defines the closures; the forwarding
//! function stays a function of its module.

use std::collections::BTreeMap;

use crate::model::program::ClassInfo;

/// Takes out of `classes` each unit of a factory of plain objects whose methods are the functions of
/// another such unit's, keeping the indices of superclasses right, and answers them.
pub(super) fn take_twins(classes: &mut Vec<ClassInfo>) -> Vec<ClassInfo> {
    // The unit kept for each set of closures: the first whose factory's code holds them, else the first.
    let mut kept_for: BTreeMap<Vec<(u32, u32)>, (usize, bool)> = BTreeMap::new();
    let mut codes = Vec::with_capacity(classes.len());
    for (index, class) in classes.iter().enumerate() {
        let code = closures(class);
        if let Some(code) = &code {
            let defines = class.constructor.function.as_ref().is_some_and(|factory| {
                code.iter().all(|(start, end)| factory.statements.start <= *start && *end <= factory.statements.end)
            });
            let kept = kept_for.entry(code.clone()).or_insert((index, defines));
            if defines && !kept.1 {
                *kept = (index, true);
            }
        }
        codes.push(code);
    }
    let keep: Vec<bool> =
        codes.iter().enumerate().map(|(index, code)| code.as_ref().is_none_or(|c| kept_for[c].0 == index)).collect();
    let mut moved = Vec::with_capacity(keep.len());
    let mut next = 0;
    for kept in &keep {
        moved.push(kept.then_some(next));
        next += usize::from(*kept);
    }
    let mut twins = Vec::new();
    for (kept, class) in keep.into_iter().zip(std::mem::take(classes)) {
        if kept { classes.push(class) } else { twins.push(class) }
    }
    for class in classes.iter_mut() {
        class.superclass = class.superclass.and_then(|s| moved[s]);
    }
    twins
}

/// The statements of the methods of what a factory of plain objects makes, in order; none for other units.
fn closures(class: &ClassInfo) -> Option<Vec<(u32, u32)>> {
    if !class.factory.as_ref().is_some_and(|f| f.plain) {
        return None;
    }
    let mut code: Vec<(u32, u32)> = class
        .methods
        .iter()
        .filter_map(|m| m.function.as_ref().map(|f| (f.statements.start, f.statements.end)))
        .collect();
    code.sort_unstable();
    Some(code).filter(|c| !c.is_empty())
}
