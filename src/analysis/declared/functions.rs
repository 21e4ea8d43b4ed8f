//! The declared signatures of a module's functions: `function` declarations (overloads merged as a
//! class's methods' are), `const` bindings of arrow functions and function expressions in a `.ts` source,
//! and `declare const f: (a: A) => B`, which is how `tsc` declares those in a `.d.ts`. A function is
//! found by the path a module exports it under (`vec2.add` through an exported namespace).

use std::collections::HashMap;
use std::rc::Rc;

use swc_ecma_ast::{
    ArrowExpr, Expr, Function, Pat, TsFnOrConstructorType, TsFnParam, TsType, TsTypeParamDecl, VarDeclarator,
};

use super::classes::{DeclaredMember, Overloads};
use super::resolve::{Ctx, Files, Named, Place};

/// One declaration of a function: its parameters and type parameters, whether it is an overload
/// signature (no body) rather than an implementation, and its return type annotation.
#[derive(Debug)]
pub(super) struct FunctionDecl {
    params: Vec<Pat>,
    pub(super) type_params: Option<Box<TsTypeParamDecl>>,
    bodyless: bool,
    pub(super) returns: Option<Box<TsType>>,
}

impl FunctionDecl {
    pub(super) fn of_function(f: &Function) -> FunctionDecl {
        FunctionDecl {
            params: f.params.iter().map(|p| p.pat.clone()).collect(),
            type_params: f.type_params.clone(),
            bodyless: f.body.is_none(),
            returns: f.return_type.as_ref().map(|t| t.type_ann.clone()),
        }
    }

    fn of_arrow(a: &ArrowExpr) -> FunctionDecl {
        FunctionDecl {
            params: a.params.clone(),
            type_params: a.type_params.clone(),
            bodyless: false,
            returns: a.return_type.as_ref().map(|t| t.type_ann.clone()),
        }
    }

    /// What a `const` binding declares a function: its annotation's when that is a function type (a
    /// `.d.ts`'s `declare const f: (a: A) => B`, or `const f: <T>(a: T) => B = general`: callers see the
    /// annotation, whatever the initialiser declares), else its initialiser's.
    pub(super) fn of_binding(declarator: &VarDeclarator) -> Option<(String, FunctionDecl)> {
        let Pat::Ident(id) = &declarator.name else { return None };
        let decl = match (id.type_ann.as_deref().map(|a| &*a.type_ann), declarator.init.as_deref().map(unparenthesised))
        {
            (Some(TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f))), _) => FunctionDecl {
                params: f.params.iter().map(pat_of).collect(),
                type_params: f.type_params.clone(),
                bodyless: true,
                returns: Some(f.type_ann.type_ann.clone()),
            },
            (_, Some(Expr::Arrow(a))) => FunctionDecl::of_arrow(a),
            (_, Some(Expr::Fn(f))) => FunctionDecl::of_function(&f.function),
            _ => return None,
        };
        Some((id.id.sym.to_string(), decl))
    }
}

fn unparenthesised(expr: &Expr) -> &Expr {
    match expr {
        Expr::Paren(p) => unparenthesised(&p.expr),
        Expr::TsAs(a) => unparenthesised(&a.expr),
        Expr::TsSatisfies(s) => unparenthesised(&s.expr),
        other => other,
    }
}

pub(super) fn pat_of(param: &TsFnParam) -> Pat {
    match param {
        TsFnParam::Ident(id) => Pat::Ident(id.clone()),
        TsFnParam::Array(a) => Pat::Array(a.clone()),
        TsFnParam::Rest(r) => Pat::Rest(r.clone()),
        TsFnParam::Object(o) => Pat::Object(o.clone()),
    }
}

/// The declared signature of the function a module exports under `path` (empty: the module itself, its
/// default export or `export =`), in the file `top`.
pub(super) fn find(files: &mut Files, top: &Place, path: &[&str]) -> Option<DeclaredMember> {
    let (last, namespaces) = match path.split_last() {
        Some((last, namespaces)) => (*last, namespaces),
        None => ("default", &[][..]),
    };
    let (place, decls) = exported_function(files, top, namespaces, last)?;
    let ctx = Ctx { place, env: Rc::new(HashMap::new()), this_class: None, depth: 0 };
    let mut read = Overloads::default();
    for decl in decls.iter() {
        let inner = ctx.with_own_params(files, decl.type_params.as_deref());
        read.add(files, &decl.params, &inner, decl.bodyless, decl.type_params.as_deref());
    }
    read.member(true)
}

/// The declarations of the function `top` exports as `last` under the namespaces `namespaces`, and where
/// they are.
pub(super) fn exported_function(
    files: &mut Files,
    top: &Place,
    namespaces: &[&str],
    last: &str,
) -> Option<(Place, Vec<Rc<FunctionDecl>>)> {
    let mut place = top.clone();
    for namespace in namespaces {
        let Named::Namespace(inner) = files.exported(&place, namespace, 0)? else { return None };
        place = inner;
    }
    let Named::Function(place, decls) = files.exported(&place, last, 0)? else { return None };
    Some((place, decls))
}
