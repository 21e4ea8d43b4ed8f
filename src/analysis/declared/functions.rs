//! The declared signatures of a module's functions: `function` declarations (overloads merged as a
//! class's methods' are), `const` bindings of arrow functions and function expressions in a `.ts` source,
//! and `declare const f: (a: A) => B`, which is how `tsc` declares those in a `.d.ts`. A function is
//! found by the path a module exports it under (`vec2.add` through an exported namespace, `vrf.sign`
//! through a variable bound to an object of functions, which callers reach as a namespace's).

use std::collections::HashMap;
use std::rc::Rc;

use swc_ecma_ast::{
    ArrowExpr, Expr, Function, Pat, Prop, PropOrSpread, TsEntityName, TsFnOrConstructorType, TsFnParam, TsFnType,
    TsType, TsTypeAnn, TsTypeElement, TsTypeParamDecl, TsTypeRef, VarDeclarator,
};

use super::classes::{DeclaredMember, Overloads};
use super::resolve::{Ctx, Files, Named, Place, type_args};
use crate::analysis::parse::prop_name;

/// One declaration of a function: its parameters and type parameters, whether it is an overload
/// signature (no body) rather than an implementation, and its return type annotation.
#[derive(Debug)]
pub(super) struct FunctionDecl {
    params: Vec<Pat>,
    pub(super) type_params: Option<Box<TsTypeParamDecl>>,
    bodyless: bool,
    pub(super) returns: Option<Box<TsType>>,
    /// The binding's annotation when it names a type (`const count: AggregationFn<any> = (id, rows) =>
    /// ...`): callers see that type's parameters when it is a function type, not the initialiser's.
    annotation: Option<Box<TsTypeRef>>,
}

impl FunctionDecl {
    pub(super) fn of_function(f: &Function) -> FunctionDecl {
        FunctionDecl {
            params: f.params.iter().map(|p| p.pat.clone()).collect(),
            type_params: f.type_params.clone(),
            bodyless: f.body.is_none(),
            returns: f.return_type.as_ref().map(|t| t.type_ann.clone()),
            annotation: None,
        }
    }

    fn of_arrow(a: &ArrowExpr) -> FunctionDecl {
        FunctionDecl {
            params: a.params.clone(),
            type_params: a.type_params.clone(),
            bodyless: false,
            returns: a.return_type.as_ref().map(|t| t.type_ann.clone()),
            annotation: None,
        }
    }

    /// What a `const` binding declares a function: its annotation's when that is a function type (a
    /// `.d.ts`'s `declare const f: (a: A) => B`, or `const f: <T>(a: T) => B = general`: callers see the
    /// annotation, whatever the initialiser declares), else its initialiser's.
    pub(super) fn of_binding(declarator: &VarDeclarator) -> Option<(String, FunctionDecl)> {
        let Pat::Ident(id) = &declarator.name else { return None };
        let decl = match (id.type_ann.as_deref().map(|a| &*a.type_ann), declarator.init.as_deref().map(unparenthesised))
        {
            (Some(TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f))), _) => FunctionDecl::of_type(f),
            (annotation, Some(init)) => {
                let mut decl = FunctionDecl::of_value(init)?;
                if let Some(TsType::TsTypeRef(named)) = annotation {
                    decl.annotation = Some(Box::new(named.clone()));
                }
                decl
            }
            _ => return None,
        };
        Some((id.id.sym.to_string(), decl))
    }

    /// What a `const` binding of an object declares its functions: by member name, its annotation's
    /// methods and function-typed properties when it is an object type (`const vrf: { sign(msg:
    /// Uint8Array, ctx: Uint8Array): Uint8Array } = { sign(msg, ctx = EMPTY) {...} }`: callers see the
    /// annotation, which may require what the implementation defaults), else, unannotated, the object
    /// literal's methods and members bound to functions. None when it holds no function.
    pub(super) fn of_object(declarator: &VarDeclarator) -> Option<(String, Vec<(String, FunctionDecl)>)> {
        let Pat::Ident(id) = &declarator.name else { return None };
        let mut functions = Vec::new();
        match (id.type_ann.as_deref().map(|a| &*a.type_ann), declarator.init.as_deref().map(unparenthesised)) {
            (Some(TsType::TsTypeLit(annotation)), _) => {
                for element in &annotation.members {
                    let (key, decl) = match element {
                        TsTypeElement::TsMethodSignature(m) if !m.computed => {
                            (&m.key, FunctionDecl::of_signature(&m.params, &m.type_params, m.type_ann.as_deref()))
                        }
                        TsTypeElement::TsPropertySignature(p) if !p.computed => match p.type_ann.as_deref() {
                            Some(ann) => match &*ann.type_ann {
                                TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f)) => {
                                    (&p.key, FunctionDecl::of_type(f))
                                }
                                _ => continue,
                            },
                            None => continue,
                        },
                        _ => continue,
                    };
                    if let Some(name) = super::resolve::key_name(key) {
                        functions.push((name, decl));
                    }
                }
            }
            (None, Some(Expr::Object(object))) => {
                for prop in &object.props {
                    let PropOrSpread::Prop(prop) = prop else { continue };
                    let (key, decl) = match &**prop {
                        Prop::Method(m) => (&m.key, FunctionDecl::of_function(&m.function)),
                        Prop::KeyValue(kv) => match FunctionDecl::of_value(unparenthesised(&kv.value)) {
                            Some(decl) => (&kv.key, decl),
                            None => continue,
                        },
                        _ => continue,
                    };
                    if let Some(name) = prop_name(key) {
                        functions.push((name, decl));
                    }
                }
            }
            _ => return None,
        }
        (!functions.is_empty()).then(|| (id.id.sym.to_string(), functions))
    }

    fn of_type(f: &TsFnType) -> FunctionDecl {
        FunctionDecl::of_signature(&f.params, &f.type_params, Some(&f.type_ann))
    }

    /// A signature without a body: a function type's, an object type's method's, an interface's call
    /// signature's.
    fn of_signature(
        params: &[TsFnParam],
        type_params: &Option<Box<TsTypeParamDecl>>,
        returns: Option<&TsTypeAnn>,
    ) -> FunctionDecl {
        FunctionDecl {
            params: params.iter().map(pat_of).collect(),
            type_params: type_params.clone(),
            bodyless: true,
            returns: returns.map(|t| t.type_ann.clone()),
            annotation: None,
        }
    }

    /// The declaration of a function expression or an arrow; None for another expression.
    fn of_value(expr: &Expr) -> Option<FunctionDecl> {
        match expr {
            Expr::Arrow(a) => Some(FunctionDecl::of_arrow(a)),
            Expr::Fn(f) => Some(FunctionDecl::of_function(&f.function)),
            _ => None,
        }
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
        if let Some((aliased, inner)) = decl.annotation.as_deref().and_then(|named| aliased(files, named, &ctx)) {
            read.add(files, &aliased.params, &inner, true, aliased.type_params.as_deref());
            continue;
        }
        let inner = ctx.with_own_params(files, decl.type_params.as_deref());
        read.add(files, &decl.params, &inner, decl.bodyless, decl.type_params.as_deref());
    }
    read.member(true)
}

/// The function type a binding's annotation `named` names: a type alias of one (`type AggregationFn<T>
/// = (columnId: string, leafRows: Row<T>[], childRows: Row<T>[]) => any`), or an interface's first call
/// signature (`interface FilterFn<T> { (row: Row<T>, columnId: string, ...): boolean; autoRemove?: ... }`),
/// with the context its parameters are read in (the declaration's place, its type parameters bound to
/// the annotation's arguments).
fn aliased(files: &mut Files, named: &TsTypeRef, ctx: &Ctx) -> Option<(FunctionDecl, Ctx)> {
    let TsEntityName::Ident(name) = &named.type_name else { return None };
    let args = type_args(files, named.type_params.as_deref(), ctx);
    let (place, type_params, decl) = match files.lookup(&ctx.place, name.sym.as_str(), 0)? {
        Named::Alias(place, alias) => match unparenthesised_type(&alias.type_ann) {
            TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f)) => {
                (place, alias.type_params.clone(), FunctionDecl::of_type(f))
            }
            _ => return None,
        },
        Named::Interface(place, declarations) => {
            let (interface, call) = declarations.iter().find_map(|i| {
                i.body.body.iter().find_map(|m| match m {
                    TsTypeElement::TsCallSignatureDecl(call) => Some((i, call)),
                    _ => None,
                })
            })?;
            let decl = FunctionDecl::of_signature(&call.params, &call.type_params, call.type_ann.as_deref());
            (place, interface.type_params.clone(), decl)
        }
        _ => return None,
    };
    let inner = ctx.with_params(files, place, type_params.as_deref(), &args);
    let inner = inner.with_own_params(files, decl.type_params.as_deref());
    Some((decl, inner))
}

fn unparenthesised_type(ty: &TsType) -> &TsType {
    match ty {
        TsType::TsParenthesizedType(p) => unparenthesised_type(&p.type_ann),
        other => other,
    }
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
