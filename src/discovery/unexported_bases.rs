//! Bases no unit stands for: a module that exports `class AnyOf extends Group` but not `Group` leaves
//! `Group`'s methods to no suite, since a class's inherited methods are tested on the class that defines
//! them. Such a method is tested on one class that inherits it instead: the first (in discovery order)
//! that is no abstract base itself, so that its instances can exist, else the first at all.

use std::collections::BTreeSet;

use crate::model::program::{FileId, Origin, ProgramInfo};

/// Makes each inherited method of a given file that no unit defines a method of one class inheriting it.
pub(super) fn adopt_their_methods(program: &mut ProgramInfo) {
    let mut tested: BTreeSet<(FileId, u32)> = program
        .classes
        .iter()
        .flat_map(|c| c.own_methods())
        .filter_map(|m| m.function.as_ref().map(|f| (f.file, f.statements.start)))
        .collect();
    // Classes that are no abstract base first (`concrete` lists an abstract base's subclasses).
    let mut order: Vec<usize> = (0..program.classes.len()).collect();
    order.sort_by_key(|c| !program.classes[*c].concrete.is_empty());
    for class in order {
        let info = &mut program.classes[class];
        if info.is_module() || info.statics_of.is_some() {
            continue;
        }
        for method in info.methods.iter_mut().filter(|m| m.origin == Origin::Inherited) {
            let Some(function) = &method.function else { continue };
            if program.files[function.file].given && tested.insert((function.file, function.statements.start)) {
                method.origin = Origin::Prototype;
            }
        }
    }
}
