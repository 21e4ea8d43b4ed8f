//! The declared signatures of a class's constructor and methods: found by the class's name (a default
//! export, or inside a namespace, too), inherited along `extends` with the base's type arguments, and
//! overloads merged.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use swc_common::Spanned;
use swc_ecma_ast::{
    Accessibility, Class, ClassMember, Expr, Lit, MethodKind, ParamOrTsParamProp, Pat, PropName, TsEntityName,
    TsParamPropParam, TsType, TsTypeParamDecl, UnaryOp,
};

use super::resolve::{Ctx, EnumMembers, Files, Named, Place, entity};
use super::types::{DeclaredParam, DeclaredType, Literal, Signature};

/// Classes followed along `extends` before giving up (a cycle, or a very deep hierarchy).
const MAX_BASES: usize = 16;

/// A class's declaration with the context its members are read in.
pub(super) struct Found {
    class: Rc<Class>,
    ctx: Ctx,
}

/// The class `names` (its name and alias, and `default` for a default export, tried in order) in the file
/// `top`: declared there, exported under the name, or in a namespace.
pub(super) fn find(files: &mut Files, top: &Place, names: &[&str]) -> Option<Found> {
    let named = names
        .iter()
        .find_map(|n| files.exported(top, n, 0).filter(|f| matches!(f, Named::Class(..))))
        .or_else(|| names.iter().find_map(|n| in_namespaces(top, n)))?;
    let Named::Class(place, name, class) = named else { return None };
    let ctx = Ctx { place, env: Rc::new(HashMap::new()), this_class: Some(name), depth: 0 };
    let ctx = ctx.with_own_params(files, class.type_params.as_deref());
    Some(Found { class, ctx })
}

/// The class `name` declared in a namespace of `place`, at any depth.
fn in_namespaces(place: &Place, name: &str) -> Option<Named> {
    let scope = place.file.scope(&place.path)?;
    for (namespace, inner) in &scope.namespaces {
        let mut path = place.path.clone();
        path.push(namespace.clone());
        let here = Place { file: place.file.clone(), path };
        if let Some(class) = inner.classes.get(name) {
            return Some(Named::Class(here, name.to_string(), class.clone()));
        }
        if let Some(found) = in_namespaces(&here, name) {
            return Some(found);
        }
    }
    None
}

/// The declared signature of `function` (`constructor` or a method; a static method when `statics`) of
/// `found`, or of the nearest base class that declares it (static methods are inherited too). A class
/// with no constructor anywhere along its bases has TypeScript's implicit one, of no parameter; with a
/// suite's needs.
pub(super) fn member(files: &mut Files, found: Found, function: &str, statics: bool) -> Option<DeclaredMember> {
    let constructor = function == "constructor" && !statics;
    // An abstract class is not constructed as declared (TS2511).
    let constructible = !(constructor && found.class.is_abstract);
    // A construction is given the type parameters of the class it names, wherever its constructor is.
    let class_generics = found.class.type_params.as_ref().map_or(0, |p| p.params.len());
    let mut current = found;
    for _ in 0..MAX_BASES {
        if let Some(mut member) = own_member(files, &current, function, statics) {
            member.callable &= constructible;
            member.public &= constructible;
            if constructor {
                member.generics = class_generics;
            }
            return Some(member);
        }
        // Without a base, the implicit constructor; a base that cannot be read says nothing.
        if constructor && current.class.super_class.is_none() {
            let signature = Signature::default();
            let generics = class_generics;
            let (callable, public, enums) = (constructible, constructible, Vec::new());
            return Some(DeclaredMember { signature, callable, public, enums, generics });
        }
        current = base(files, &current)?;
    }
    None
}

/// The instance members (static ones when `statics`) `found` and its bases declare `private` or
/// `protected` (properties, methods, accessors, parameter properties): what TypeScript keeps from the
/// class's users.
pub(super) fn hidden_members(files: &mut Files, found: Found, statics: bool) -> Vec<String> {
    let hidden = |a: &Option<Accessibility>| matches!(a, Some(Accessibility::Private | Accessibility::Protected));
    let mut names: Vec<String> = Vec::new();
    let mut current = Some(found);
    for _ in 0..MAX_BASES {
        let Some(found) = current else { break };
        for member in &found.class.body {
            let name = match member {
                ClassMember::ClassProp(p) if p.is_static == statics && hidden(&p.accessibility) => prop_name(&p.key),
                ClassMember::Method(m) if m.is_static == statics && hidden(&m.accessibility) => prop_name(&m.key),
                ClassMember::Constructor(c) if !statics => {
                    for param in &c.params {
                        if let ParamOrTsParamProp::TsParamProp(p) = param
                            && hidden(&p.accessibility)
                        {
                            let id = match &p.param {
                                TsParamPropParam::Ident(id) => Some(&id.id),
                                TsParamPropParam::Assign(a) => a.left.as_ident().map(|b| &b.id),
                            };
                            names.extend(id.map(|id| id.sym.to_string()));
                        }
                    }
                    None
                }
                _ => None,
            };
            names.extend(name);
        }
        current = base(files, &found);
    }
    names.sort();
    names.dedup();
    names
}

/// Whether `found` itself declares its static method `function` to return an instance of the class
/// (`static parse(text: string): Point`, or `this`): a factory, another way to make one than `new`.
pub(super) fn static_makes_own(found: &Found, function: &str) -> bool {
    let Some(name) = found.ctx.this_class.as_deref() else { return false };
    found.class.body.iter().any(|member| match member {
        ClassMember::Method(m)
            if m.is_static && m.kind == MethodKind::Method && prop_name(&m.key).as_deref() == Some(function) =>
        {
            m.function.return_type.as_deref().is_some_and(|t| names_class(&t.type_ann, name))
        }
        _ => false,
    })
}

/// Whether `ty` is the class `name` (with type arguments or not, `ns.Name` too) or `this`.
fn names_class(ty: &TsType, name: &str) -> bool {
    match ty {
        TsType::TsTypeRef(r) => match &r.type_name {
            TsEntityName::Ident(id) => id.sym == name,
            TsEntityName::TsQualifiedName(q) => q.right.sym == name,
        },
        TsType::TsThisType(_) => true,
        TsType::TsParenthesizedType(p) => names_class(&p.type_ann, name),
        _ => false,
    }
}

/// The class `found` extends, its type parameters bound to the arguments `extends` gives them.
fn base(files: &mut Files, found: &Found) -> Option<Found> {
    let name = entity(found.class.super_class.as_deref()?)?;
    let args: Vec<DeclaredType> = found
        .class
        .super_type_params
        .as_deref()
        .map(|p| p.params.iter().map(|a| files.resolve(a, &found.ctx)).collect())
        .unwrap_or_default();
    let named = match &name {
        swc_ecma_ast::TsEntityName::Ident(id) => files.lookup(&found.ctx.place, id.sym.as_str(), 0)?,
        swc_ecma_ast::TsEntityName::TsQualifiedName(_) => return None,
    };
    let Named::Class(place, _, class) = named else { return None };
    // `this` stays the class the method is called on.
    let mut ctx = found.ctx.with_params(files, place, class.type_params.as_deref(), &args);
    ctx.depth = 0;
    Some(Found { class, ctx })
}

/// The member `found` itself declares as `function`: its overloads merged when it has several (in a
/// `.ts` file the implementation's signature is not part of the contract then), else its one
/// declaration.
fn own_member(files: &mut Files, found: &Found, function: &str, statics: bool) -> Option<DeclaredMember> {
    let mut read = Overloads::default();
    let mut public = true;
    for member in &found.class.body {
        let accessibility = match member {
            ClassMember::Constructor(c) if function == "constructor" && !statics => {
                let pats: Vec<Pat> = c
                    .params
                    .iter()
                    .map(|p| match p {
                        ParamOrTsParamProp::Param(p) => p.pat.clone(),
                        ParamOrTsParamProp::TsParamProp(p) => match &p.param {
                            TsParamPropParam::Ident(id) => Pat::Ident(id.clone()),
                            TsParamPropParam::Assign(a) => Pat::Assign(a.clone()),
                        },
                    })
                    .collect();
                read.add(files, &pats, &found.ctx, c.body.is_none(), None);
                c.accessibility
            }
            ClassMember::Method(m)
                if m.is_static == statics
                    && m.kind == MethodKind::Method
                    && prop_name(&m.key).as_deref() == Some(function) =>
            {
                let ctx = found.ctx.with_own_params(files, m.function.type_params.as_deref());
                let pats: Vec<Pat> = m.function.params.iter().map(|p| p.pat.clone()).collect();
                read.add(files, &pats, &ctx, m.function.body.is_none(), m.function.type_params.as_deref());
                m.accessibility
            }
            _ => continue,
        };
        public &= matches!(accessibility, None | Some(Accessibility::Public));
    }
    read.member(public)
}

/// The declarations of one member or function read in turn (overloads, then maybe an implementation),
/// and the one signature they make.
#[derive(Default)]
pub(super) struct Overloads {
    overloads: Vec<Vec<DeclaredParam>>,
    implementation: Option<Vec<DeclaredParam>>,
    /// Whether a signature read ends in a rest parameter: calls may then pass more arguments than listed.
    open: bool,
    rest: Option<DeclaredParam>,
    /// The enums of the one signature a suite's calls are checked against (see `DeclaredMember`).
    enums: Vec<Vec<DeclaredEnum>>,
    /// The type parameters of the last declaration read (see `DeclaredMember::generics`).
    generics: usize,
}

impl Overloads {
    /// Reads one declaration's parameters, in `ctx`; `bodyless` for an overload signature, `type_params`
    /// its own type parameters.
    pub(super) fn add(
        &mut self,
        files: &mut Files,
        pats: &[Pat],
        ctx: &Ctx,
        bodyless: bool,
        type_params: Option<&TsTypeParamDecl>,
    ) {
        self.generics = type_params.map_or(0, |p| p.params.len());
        self.rest = pats.iter().find_map(|pat| rest_of(files, pat, ctx)).or(self.rest.take());
        let params = pats.iter().map(|pat| param_of(files, pat, ctx));
        let (params, enums): (Vec<DeclaredParam>, Vec<Vec<DeclaredEnum>>) =
            until_rest(params, &mut self.open).into_iter().unzip();
        if bodyless {
            self.overloads.push(params);
        } else {
            self.implementation = Some(params);
        }
        self.enums = enums;
    }

    /// The signature read, `None` when nothing was; callable when `public` and not overloaded.
    pub(super) fn member(mut self, public: bool) -> Option<DeclaredMember> {
        let overloaded = self.overloads.len() > 1;
        let params = match (self.overloads.len(), self.implementation) {
            (0, None) => return None,
            (0, Some(params)) => params,
            (1, _) => self.overloads.pop().expect("one overload"),
            _ => merge_overloads(self.overloads),
        };
        let signature = Signature { params, open: self.open, rest: self.rest };
        let callable = public && !overloaded;
        Some(DeclaredMember { signature, callable, public, enums: self.enums, generics: self.generics })
    }
}

/// Parameters up to the first rest parameter (`None`); `open` is set when there is one.
fn until_rest<T>(params: impl Iterator<Item = Option<T>>, open: &mut bool) -> Vec<T> {
    let all: Vec<Option<T>> = params.collect();
    *open |= all.iter().any(Option::is_none);
    all.into_iter().map_while(|p| p).collect()
}

/// What rest parameter `pat` declares each argument from it on to be: the element of its array type
/// (`...items: Item[]` takes `Item`s, `...tags: Array<'a' | 'b'>` takes `'a'` or `'b'`, `...args` any
/// value); `None` for any other parameter, or a rest of another type (a tuple, a generic).
fn rest_of(files: &mut Files, pat: &Pat, ctx: &Ctx) -> Option<DeclaredParam> {
    let Pat::Rest(rest) = pat else { return None };
    let Pat::Ident(id) = &*rest.arg else { return None };
    let name = id.id.sym.to_string();
    // Unannotated, it is an `any[]`: any argument, as many as given.
    let Some(annotation) = rest.type_ann.as_deref().or(id.type_ann.as_deref()) else {
        return Some(DeclaredParam { name, ty: DeclaredType::Any, text: "any".to_string(), optional: true });
    };
    files.fresh_budget();
    let DeclaredType::Array(element) = files.resolve(&annotation.type_ann, ctx) else { return None };
    let written = match &*annotation.type_ann {
        TsType::TsArrayType(array) => array.elem_type.span(),
        TsType::TsTypeRef(r) => match r.type_params.as_deref().map(|p| p.params.as_slice()) {
            Some([element]) => element.span(),
            _ => annotation.type_ann.span(),
        },
        other => other.span(),
    };
    let text = ctx.place.file.text(written);
    Some(DeclaredParam { name, ty: *element, text, optional: true })
}

/// One signature for several overloads: each position takes the union of their types there, and is
/// optional where one of them leaves it out or marks it optional.
fn merge_overloads(overloads: Vec<Vec<DeclaredParam>>) -> Vec<DeclaredParam> {
    let longest = overloads.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .map(|i| {
            let at: Vec<&DeclaredParam> = overloads.iter().filter_map(|o| o.get(i)).collect();
            let mut texts: Vec<&str> = Vec::new();
            for p in &at {
                if !texts.contains(&p.text.as_str()) {
                    texts.push(&p.text);
                }
            }
            DeclaredParam {
                name: at[0].name.clone(),
                ty: DeclaredType::union(at.iter().map(|p| p.ty.clone()).collect()),
                text: texts.join(" | "),
                optional: at.len() < overloads.len() || at.iter().any(|p| p.optional),
            }
        })
        .collect()
}

/// A parameter as its pattern declares it, with the enums its annotation names that a suite can reach;
/// `None` for a rest parameter. Without an annotation its type is what TypeScript infers from a default
/// value that is a literal (`force = false` is a `boolean`), else any value.
fn param_of(files: &mut Files, pat: &Pat, ctx: &Ctx) -> Option<(DeclaredParam, Vec<DeclaredEnum>)> {
    let (pat, default) = match pat {
        Pat::Assign(a) => (&*a.left, Some(&*a.right)),
        Pat::Rest(_) => return None,
        other => (other, None),
    };
    let (name, annotation, optional) = match pat {
        Pat::Ident(id) => (id.id.sym.to_string(), id.type_ann.as_deref(), id.id.optional),
        Pat::Array(a) => ("array".to_string(), a.type_ann.as_deref(), a.optional),
        Pat::Object(o) => ("options".to_string(), o.type_ann.as_deref(), o.optional),
        _ => return None,
    };
    files.fresh_budget();
    let (ty, text, enums) = match annotation {
        Some(a) => {
            let enums = files.enums(&a.type_ann, ctx).into_iter().filter_map(reachable).collect();
            (files.resolve(&a.type_ann, ctx), ctx.place.file.text(a.type_ann.span()), enums)
        }
        None => match default.map(widened) {
            Some(Some((ty, text))) => (ty, text.to_string(), Vec::new()),
            _ => (DeclaredType::Any, "any".to_string(), Vec::new()),
        },
    };
    Some((DeclaredParam { name, ty, text, optional: optional || default.is_some() }, enums))
}

/// The type TypeScript infers for a parameter from its default value, when that is a literal: the
/// literal's type widened (`false` is a `boolean`, `0` a `number`).
fn widened(default: &Expr) -> Option<(DeclaredType, &'static str)> {
    match default {
        Expr::Lit(Lit::Bool(_)) => Some((DeclaredType::Boolean, "boolean")),
        Expr::Lit(Lit::Num(_)) => Some((DeclaredType::Number, "number")),
        Expr::Lit(Lit::Str(_)) | Expr::Tpl(_) => Some((DeclaredType::String, "string")),
        Expr::Unary(u) if u.op == UnaryOp::Minus && matches!(&*u.arg, Expr::Lit(Lit::Num(_))) => {
            Some((DeclaredType::Number, "number"))
        }
        _ => None,
    }
}

/// An enum as a suite reaches it: exported under its name from the top of its file, or from namespaces
/// exported there (`Shapes.Kind`), and there at run time.
fn reachable((place, name, members): (Place, String, EnumMembers)) -> Option<DeclaredEnum> {
    let mut scope = &place.file.top;
    for namespace in &place.path {
        if !scope.exported.contains(namespace) {
            return None;
        }
        scope = scope.namespaces.get(namespace)?;
    }
    let reached = scope.exported.contains(&name) && scope.runtime_enums.contains(&name);
    reached.then(|| DeclaredEnum { name, namespaces: place.path.clone(), file: place.file.path.clone(), members })
}

/// A declared constructor or method, as far as a suite calling it needs to know.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeclaredMember {
    /// Its parameters.
    pub signature: Signature,
    /// Whether a call of it type-checks against [`DeclaredMember::signature`]: it is declared public (not
    /// `private` or `protected`) and has one signature (overloads type-check each apart; the merged
    /// signature is none of them).
    pub callable: bool,
    /// Whether its class's users may call it at all, in any of its signatures: declared public and, for a
    /// constructor, of a class that is not abstract.
    pub public: bool,
    /// Per parameter, the enums its annotation names (`Color`, `Color | null`) that a suite can reach.
    pub enums: Vec<Vec<DeclaredEnum>>,
    /// How many type parameters a call may be given (the class's, for a constructor). Where it is not
    /// zero, TypeScript infers them from the arguments, often narrower than the class or function is
    /// used with (`new Glossary({ en: { a: "x" } })` types every later key `"a"`).
    pub generics: usize,
}

/// An enum a suite can reach: its name, exported from the file that declares it, and its members.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeclaredEnum {
    /// Its name, which is also its export's (in its namespace, if any).
    pub name: String,
    /// The namespaces it is declared in, outermost first: the first is the file's export.
    pub namespaces: Vec<String>,
    /// The file declaring it.
    pub file: PathBuf,
    /// Its members' names and values, in order.
    pub members: Vec<(String, Literal)>,
}

fn prop_name(key: &PropName) -> Option<String> {
    match key {
        PropName::Ident(id) => Some(id.sym.to_string()),
        PropName::Str(s) => Some(s.value.to_atom_lossy().to_string()),
        _ => None,
    }
}
