//! What a factory's declared return type says of the methods of what it makes: `createTally(config):
//! Tally` returns an object whose `add` the interface `Tally` declares as `add(amount: number): number`.
//! A unit a factory of plain objects makes has no class to declare its methods, so they are read from
//! the interface, object type or alias of one that the factory's return annotation names. The same reading
//! serves what a constructor declared by a type makes (see `constructed.rs`).

use std::collections::HashMap;
use std::rc::Rc;

use swc_ecma_ast::{TsEntityName, TsFnOrConstructorType, TsFnParam, TsType, TsTypeElement, TsTypeParamDecl};

use super::classes::{DeclaredMember, Overloads};
use super::functions::{exported_function, pat_of};
use super::resolve::{Ctx, Files, Named, Place, entity, key_name, type_args};
use super::types::DeclaredType;

/// How many interfaces, bases and aliases deep a return type is followed.
const MAX_DEPTH: usize = 8;

/// The declared signature of method `method` of what the function `top` exports under `path` returns.
pub(super) fn made_member(files: &mut Files, top: &Place, path: &[&str], method: &str) -> Option<DeclaredMember> {
    let (last, namespaces) = path.split_last()?;
    let (place, decls) = exported_function(files, top, namespaces, last)?;
    let returns = decls.iter().find_map(|d| d.returns.clone())?;
    let ctx = Ctx { place, env: Rc::new(HashMap::new()), this_class: None, depth: 0 };
    let mut read = Overloads::default();
    signatures(files, &returns, &ctx, Wanted::Method(method), &mut read);
    read.member(true)
}

/// What of an object type's signatures is read: a method's, or the construct signatures (`new (...)`).
#[derive(Clone, Copy)]
pub(super) enum Wanted<'a> {
    Method(&'a str),
    Construct,
}

/// Reads into `read` every signature `wanted` names that type `ty` (read in `ctx`) declares.
pub(super) fn signatures(files: &mut Files, ty: &TsType, ctx: &Ctx, wanted: Wanted, read: &mut Overloads) {
    each_element(files, ty, ctx, 0, &mut |files: &mut Files, element: &TsTypeElement, ctx: &Ctx| match element {
        TsTypeElement::TsMethodSignature(m) if !m.computed && named_by(wanted, &m.key) => {
            let inner = ctx.with_own_params(files, m.type_params.as_deref());
            add(files, &m.params, &inner, read, m.type_params.as_deref());
        }
        TsTypeElement::TsPropertySignature(p) if !p.computed && named_by(wanted, &p.key) => {
            if let Some(TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f))) =
                p.type_ann.as_deref().map(|a| &*a.type_ann)
            {
                let inner = ctx.with_own_params(files, f.type_params.as_deref());
                add(files, &f.params, &inner, read, f.type_params.as_deref());
            }
        }
        TsTypeElement::TsConstructSignatureDecl(c) if matches!(wanted, Wanted::Construct) => {
            let inner = ctx.with_own_params(files, c.type_params.as_deref());
            add(files, &c.params, &inner, read, c.type_params.as_deref());
        }
        _ => {}
    });
}

/// What the first construct signature of type `ty` (read in `ctx`) makes: its return type, and the
/// context it is read in (the signature's own type parameters standing for their bounds).
pub(super) fn constructs(files: &mut Files, ty: &TsType, ctx: &Ctx) -> Option<(TsType, Ctx)> {
    let mut first = None;
    each_element(files, ty, ctx, 0, &mut |files: &mut Files, element: &TsTypeElement, ctx: &Ctx| {
        if let TsTypeElement::TsConstructSignatureDecl(c) = element
            && first.is_none()
        {
            let inner = ctx.with_own_params(files, c.type_params.as_deref());
            first = c.type_ann.as_ref().map(|t| ((*t.type_ann).clone(), inner));
        }
    });
    first
}

fn named_by(wanted: Wanted, key: &swc_ecma_ast::Expr) -> bool {
    matches!(wanted, Wanted::Method(method) if key_name(key).as_deref() == Some(method))
}

/// Calls `visit` on each member of object type `ty` (read in `ctx`): of a type literal, or of the
/// interface (with its bases) or alias it names, their type parameters bound to the arguments given.
fn each_element(
    files: &mut Files,
    ty: &TsType,
    ctx: &Ctx,
    depth: usize,
    visit: &mut dyn FnMut(&mut Files, &TsTypeElement, &Ctx),
) {
    if depth > MAX_DEPTH {
        return;
    }
    match ty {
        TsType::TsParenthesizedType(p) => each_element(files, &p.type_ann, ctx, depth, visit),
        TsType::TsTypeLit(literal) => literal.members.iter().for_each(|element| visit(files, element, ctx)),
        TsType::TsTypeRef(reference) => {
            let TsEntityName::Ident(name) = &reference.type_name else { return };
            let args = type_args(files, reference.type_params.as_deref(), ctx);
            let found = files.lookup(&ctx.place, &name.sym, 0);
            named(files, found, &args, ctx, depth, visit)
        }
        _ => {}
    }
}

/// Calls `visit` on each member a named interface (with its bases) or alias declares, given `args`.
fn named(
    files: &mut Files,
    found: Option<Named>,
    args: &[DeclaredType],
    ctx: &Ctx,
    depth: usize,
    visit: &mut dyn FnMut(&mut Files, &TsTypeElement, &Ctx),
) {
    match found {
        Some(Named::Interface(place, declarations)) => {
            for declaration in &declarations {
                let mut inner = ctx.with_params(files, place.clone(), declaration.type_params.as_deref(), args);
                // `this` in an interface is the implementing type.
                inner.this_class = None;
                declaration.body.body.iter().for_each(|element| visit(files, element, &inner));
                for base in &declaration.extends {
                    if let Some(TsEntityName::Ident(name)) = entity(&base.expr) {
                        let args = type_args(files, base.type_args.as_deref(), &inner);
                        let found = files.lookup(&inner.place, &name.sym, 0);
                        named(files, found, &args, &inner, depth + 1, visit);
                    }
                }
            }
        }
        Some(Named::Alias(place, alias)) => {
            let inner = ctx.with_params(files, place, alias.type_params.as_deref(), args);
            each_element(files, &alias.type_ann, &inner, depth + 1, visit)
        }
        _ => {}
    }
}

/// Reads one signature: a declaration without a body, as an overload is.
fn add(files: &mut Files, params: &[TsFnParam], ctx: &Ctx, read: &mut Overloads, generics: Option<&TsTypeParamDecl>) {
    let pats: Vec<_> = params.iter().map(pat_of).collect();
    read.add(files, &pats, ctx, true, generics);
}
