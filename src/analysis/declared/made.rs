//! What a factory's declared return type says of the methods of what it makes: `createTally(config):
//! Tally` returns an object whose `add` the interface `Tally` declares as `add(amount: number): number`.
//! A unit a factory of plain objects makes has no class to declare its methods, so they are read from
//! the interface, object type or alias of one that the factory's return annotation names.

use std::collections::HashMap;
use std::rc::Rc;

use swc_ecma_ast::{TsEntityName, TsFnOrConstructorType, TsFnParam, TsType, TsTypeElement, TsTypeParamDecl};

use super::classes::{DeclaredMember, Overloads};
use super::functions::{exported_function, pat_of};
use super::resolve::{Ctx, Files, Named, Place, entity, key_name};

/// How many interfaces, bases and aliases deep a return type is followed.
const MAX_DEPTH: usize = 8;

/// The declared signature of method `method` of what the function `top` exports under `path` returns.
pub(super) fn made_member(files: &mut Files, top: &Place, path: &[&str], method: &str) -> Option<DeclaredMember> {
    let (last, namespaces) = path.split_last()?;
    let (place, decls) = exported_function(files, top, namespaces, last)?;
    let returns = decls.iter().find_map(|d| d.returns.clone())?;
    let ctx = Ctx { place, env: Rc::new(HashMap::new()), this_class: None, depth: 0 };
    let mut read = Overloads::default();
    signatures(files, &returns, &ctx, method, &mut read, 0);
    read.member(true)
}

/// Reads into `read` every signature of `method` that type `ty` (read in `ctx`) declares.
fn signatures(files: &mut Files, ty: &TsType, ctx: &Ctx, method: &str, read: &mut Overloads, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match ty {
        TsType::TsParenthesizedType(p) => signatures(files, &p.type_ann, ctx, method, read, depth),
        TsType::TsTypeLit(literal) => elements(files, &literal.members, ctx, method, read),
        TsType::TsTypeRef(reference) => {
            let TsEntityName::Ident(name) = &reference.type_name else { return };
            let found = files.lookup(&ctx.place, &name.sym, 0);
            named(files, found, method, read, depth)
        }
        _ => {}
    }
}

/// Reads the signatures of `method` that a named interface (with its bases) or alias declares.
fn named(files: &mut Files, found: Option<Named>, method: &str, read: &mut Overloads, depth: usize) {
    let at = |place: Place| Ctx { place, env: Rc::new(HashMap::new()), this_class: None, depth: 0 };
    match found {
        Some(Named::Interface(place, declarations)) => {
            let ctx = at(place);
            for declaration in &declarations {
                elements(files, &declaration.body.body, &ctx, method, read);
                for base in &declaration.extends {
                    if let Some(TsEntityName::Ident(name)) = entity(&base.expr) {
                        let found = files.lookup(&ctx.place, &name.sym, 0);
                        named(files, found, method, read, depth + 1);
                    }
                }
            }
        }
        Some(Named::Alias(place, alias)) => signatures(files, &alias.type_ann, &at(place), method, read, depth + 1),
        _ => {}
    }
}

/// Reads the signatures of `method` among an object type's members: methods, and properties of a
/// function type.
fn elements(files: &mut Files, elements: &[TsTypeElement], ctx: &Ctx, method: &str, read: &mut Overloads) {
    for element in elements {
        match element {
            TsTypeElement::TsMethodSignature(m) if !m.computed && key_name(&m.key).as_deref() == Some(method) => {
                let inner = ctx.with_own_params(files, m.type_params.as_deref());
                add(files, &m.params, &inner, read, m.type_params.as_deref());
            }
            TsTypeElement::TsPropertySignature(p) if !p.computed && key_name(&p.key).as_deref() == Some(method) => {
                if let Some(TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f))) =
                    p.type_ann.as_deref().map(|a| &*a.type_ann)
                {
                    let inner = ctx.with_own_params(files, f.type_params.as_deref());
                    add(files, &f.params, &inner, read, f.type_params.as_deref());
                }
            }
            _ => {}
        }
    }
}

/// Reads one signature: a declaration without a body, as an overload is.
fn add(files: &mut Files, params: &[TsFnParam], ctx: &Ctx, read: &mut Overloads, generics: Option<&TsTypeParamDecl>) {
    let pats: Vec<_> = params.iter().map(pat_of).collect();
    read.add(files, &pats, ctx, true, generics);
}
