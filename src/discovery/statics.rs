//! The static members of classes: each class's own static methods are functions under test called on
//! the class (`Point.parse(text)`), gathered in a module of functions of their own, `Point (static)`
//! ([`ClassInfo::statics_of`]). Those whose calls make instances of the class, and the static getters
//! and fields whose value is one (`Point.ORIGIN`), are other ways to make an instance than `new`: a
//! constructor that takes an internal representation is got past through the factories users call.

use std::collections::BTreeSet;

use super::{Syntax, method_info, outermost_functions, unique_alias};
use crate::js::literal;
use crate::model::program::{Access, ClassId, ClassInfo, MethodInfo, ModuleFunction, Origin};
use crate::sandbox::{CodeBase, FoundClass, FoundStatic};

/// The units of the static members of `classes` (the program's classes so far, `found` being what
/// discovery saw of each, in the same order): one per class made by `new` that has static functions of
/// the code under test, or static properties that make its instances (a unit of properties alone has no
/// method under test: it only makes instances). `names` and `aliases` are those
/// taken so far, which the units' must differ from.
pub(super) fn static_units(
    code: &CodeBase,
    syntax: &Syntax,
    classes: &[ClassInfo],
    found: &[FoundClass],
    names: &mut BTreeSet<String>,
    aliases: &mut BTreeSet<String>,
) -> Vec<ClassInfo> {
    let mut units = Vec::new();
    for (id, (class, seen)) in classes.iter().zip(found).enumerate() {
        if class.factory.is_some() || class.is_module() {
            continue;
        }
        let members = members(code, syntax, class, &seen.info.statics);
        if !members.is_empty() {
            units.push(unit(class, id, members, names, aliases));
        }
    }
    units
}

/// The static members of `class` tests may use, with what each is among a unit's methods: its functions
/// located in the code under test, the public ones only when the class offers anything public (a private
/// helper is tested through what calls it), and the properties that make its instances.
fn members(
    code: &CodeBase,
    syntax: &Syntax,
    class: &ClassInfo,
    statics: &[FoundStatic],
) -> Vec<(MethodInfo, ModuleFunction)> {
    let located = |s: &FoundStatic| {
        outermost_functions(code, &s.probes).first().copied().filter(|(file, _)| !code.files[*file].entry.builtin)
    };
    let public = |s: &&FoundStatic| !class.is_private(&s.name);
    let anything_public = statics.iter().filter(|s| !s.property && located(s).is_some()).any(|s| public(&s))
        || class.methods.iter().any(|m| !class.is_private(&m.name));
    statics
        .iter()
        .filter(
            |s| if s.property { s.made && public(s) } else { located(s).is_some() && (public(s) || !anything_public) },
        )
        .map(|s| {
            // A property is no method under test: it is among the methods as inherited ones are, callable only.
            let info = match s.property {
                true => MethodInfo::bare(&s.name, Vec::new(), Origin::Inherited),
                false => method_info(syntax, &s.name, located(s), s.length, Origin::Prototype),
            };
            let function = ModuleFunction {
                method: s.name.clone(),
                alias: member_text(&class.alias, &s.name),
                access: member_access(&class.access, &s.name),
                property: s.property,
                makes: s.made,
            };
            (info, function)
        })
        .collect()
}

/// The unit of the static members of `class` (class `id`).
fn unit(
    class: &ClassInfo,
    id: ClassId,
    members: Vec<(MethodInfo, ModuleFunction)>,
    names: &mut BTreeSet<String>,
    aliases: &mut BTreeSet<String>,
) -> ClassInfo {
    let base = format!("{} (static)", class.name);
    let mut name = base.clone();
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base}{n}");
        n += 1;
    }
    let (methods, functions) = members.into_iter().unzip();
    ClassInfo {
        name,
        alias: unique_alias(&format!("{}Static", class.alias), aliases),
        file: class.file,
        access: class.access.clone(),
        superclass: None,
        constructor: MethodInfo::bare("constructor", Vec::new(), Origin::Prototype),
        methods,
        fields: Vec::new(),
        under_test: class.under_test,
        factory: None,
        functions: Some(functions),
        statics_of: Some(id),
        concrete: Vec::new(),
        declared_private: Vec::new(),
    }
}

/// How a test writes member `name` of the class bound as `alias`: `Point.parse`, or `Point["from-hex"]`.
fn member_text(alias: &str, name: &str) -> String {
    if literal::is_identifier_name(name) {
        format!("{alias}.{name}")
    } else {
        format!("{alias}[{}]", literal::string(name))
    }
}

/// How tests reach member `name` of what `access` reaches.
fn member_access(access: &Access, name: &str) -> Access {
    match access {
        Access::Script { expression } => Access::Script { expression: member_text(expression, name) },
        Access::CommonJs { file, path } => {
            Access::CommonJs { file: *file, path: path.iter().cloned().chain([name.to_string()]).collect() }
        }
        Access::EsModule { file, export, path } => Access::EsModule {
            file: *file,
            export: export.clone(),
            path: path.iter().cloned().chain([name.to_string()]).collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_member_is_written_and_reached_below_its_class() {
        assert_eq!(member_text("Point", "parse"), "Point.parse");
        assert_eq!(member_text("Point", "from-hex"), "Point[\"from-hex\"]");
        let script = Access::Script { expression: "Geo.Point".into() };
        assert_eq!(member_access(&script, "parse"), Access::Script { expression: "Geo.Point.parse".into() });
        let module = Access::EsModule { file: 1, export: "Point".into(), path: Vec::new() };
        let reached = Access::EsModule { file: 1, export: "Point".into(), path: vec!["ORIGIN".into()] };
        assert_eq!(member_access(&module, "ORIGIN"), reached);
    }
}
