//! Declared types resolved to [`DeclaredType`]s: names looked up in their scope (namespaces outward,
//! then imports, followed into the files they name), interfaces and aliases expanded with their type
//! arguments, enums turned into their values, generics into their bounds.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use swc_ecma_ast::{
    Class, Expr, Lit, TsEntityName, TsFnOrConstructorType, TsFnParam, TsInterfaceDecl, TsKeywordTypeKind, TsLit,
    TsTplLitType, TsType, TsTypeAliasDecl, TsTypeElement, TsTypeOperatorOp, TsTypeParamDecl, TsTypeParamInstantiation,
    TsTypeQueryExpr, TsUnionOrIntersectionType,
};

use super::builtins::built_in;
use super::functions::FunctionDecl;
use super::locate::module_file;
use super::scope::{FileScope, Import, Imported, Scope};
use super::types::{DeclaredType, Literal, Member, Orders};

/// Names followed, one inside another, before a type counts as unbuildable: recursive types
/// (`parent: TreeNode`) end there.
const MAX_DEPTH: usize = 8;

/// Type nodes read for one parameter (or one class's type parameters) before the rest counts as
/// unbuildable. Depth alone does not bound the work: interfaces whose members name other interfaces
/// (a parse tree's nodes, cursors and buffers) expand to as many members as the depth allows, to the
/// power of the members each one has, and resolving them ran out of memory.
const MAX_TYPES_READ: usize = 4_000;

/// Where a declaration is: its file, and the namespaces around it.
#[derive(Clone)]
pub(super) struct Place {
    pub file: Rc<FileScope>,
    pub path: Vec<String>,
}

impl Place {
    fn scope(&self) -> &Scope {
        self.file.scope(&self.path).unwrap_or(&self.file.top)
    }
}

/// An enum's members: their names and values, in order.
pub(super) type EnumMembers = Vec<(String, Literal)>;

/// What a name stands for.
pub(super) enum Named {
    Class(Place, String, Rc<Class>),
    Interface(Place, Vec<Rc<TsInterfaceDecl>>),
    Alias(Place, Rc<TsTypeAliasDecl>),
    /// An enum: where it is declared, its name there, and its members' values.
    Enum(Place, String, EnumMembers),
    Namespace(Place),
    /// A function: where it is declared, and each of its declarations.
    Function(Place, Vec<Rc<FunctionDecl>>),
    /// A variable declared with a type (`declare const Queue: { new (): Queue }`): where, and the type.
    Value(Place, Rc<TsType>),
}

/// Which of TypeScript's two spaces of names a name is looked up in: an interface and a `const` may
/// share a name (`interface Queue` for the instances, `const Queue: { new (): Queue }` for the
/// constructor), a type naming the one and an expression the other. Among values, only what `new` may
/// be applied to is looked up: classes and typed variables.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Space {
    Types,
    Values,
}

/// The context a type is read in: where, the type parameters in force, the class `this` is (none inside
/// an interface), and how many names deep.
#[derive(Clone)]
pub(super) struct Ctx {
    pub place: Place,
    pub env: Rc<HashMap<String, DeclaredType>>,
    pub this_class: Option<String>,
    pub depth: usize,
}

impl Ctx {
    /// A context at `place` with the type parameters of `params` bound to `args` (read in `outer`), their
    /// defaults or bounds otherwise.
    pub(super) fn with_params(
        &self,
        files: &mut Files,
        place: Place,
        params: Option<&TsTypeParamDecl>,
        args: &[DeclaredType],
    ) -> Ctx {
        let mut inner =
            Ctx { place, env: self.env.clone(), this_class: self.this_class.clone(), depth: self.depth + 1 };
        let mut env = (*self.env).clone();
        for (i, param) in params.map(|p| p.params.as_slice()).unwrap_or_default().iter().enumerate() {
            let ty = match (args.get(i), &param.default, &param.constraint) {
                (Some(arg), _, _) => arg.clone(),
                (None, Some(default), _) => files.resolve(default, &inner),
                (None, None, Some(bound)) => bound_of(files.resolve(bound, &inner)),
                (None, None, None) => DeclaredType::Any,
            };
            env.insert(param.name.sym.to_string(), ty);
            inner.env = Rc::new(env.clone());
        }
        inner
    }

    /// This context with type parameters of a function or class as declared: a constrained one stands for
    /// its bound, any other for any value.
    pub(super) fn with_own_params(&self, files: &mut Files, params: Option<&TsTypeParamDecl>) -> Ctx {
        let mut inner = self.clone();
        for param in params.map(|p| p.params.as_slice()).unwrap_or_default() {
            let ty = match &param.constraint {
                Some(bound) => bound_of(files.resolve(bound, &inner)),
                None => DeclaredType::Any,
            };
            let mut env = (*inner.env).clone();
            env.insert(param.name.sym.to_string(), ty);
            inner.env = Rc::new(env);
        }
        inner
    }
}

/// What a generic's bound lets through: a bound that says nothing (`{}`, `object`, `unknown`) lets
/// anything through.
fn bound_of(bound: DeclaredType) -> DeclaredType {
    match bound {
        DeclaredType::Object(members) if members.is_empty() => DeclaredType::Any,
        other => other,
    }
}

/// The declaration files read so far, by path (`None`: unreadable).
#[derive(Default)]
pub(super) struct Files {
    files: HashMap<PathBuf, Option<Rc<FileScope>>>,
    /// Why files could not be read, for warnings.
    pub errors: Vec<String>,
    /// Type nodes read since the last [`Files::fresh_budget`], against [`MAX_TYPES_READ`].
    read: usize,
    /// The values of the enum members types resolved so far stood for: a literal type may be one of
    /// them, which TypeScript accepts only written as the member (`Color.Red`, not `'red'`).
    pub enum_values: Vec<Literal>,
    /// The interfaces and aliases being expanded, one inside another (by address): a type met again
    /// inside itself is not built, which also keeps an interface whose members return it (`clone():
    /// Shape`) from expanding as many times as it has such members, to the power of `MAX_DEPTH`.
    expanding: Vec<usize>,
}

impl Files {
    /// Starts a new allowance of [`MAX_TYPES_READ`] type nodes: each parameter gets its own.
    pub(super) fn fresh_budget(&mut self) {
        self.read = 0;
    }

    /// The declarations of the file at `path`, read once.
    pub(super) fn load(&mut self, path: &Path) -> Option<Rc<FileScope>> {
        if let Some(known) = self.files.get(path) {
            return known.clone();
        }
        let read = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
        let scope = match read.and_then(|text| FileScope::parse(path, text)) {
            Ok(scope) => Some(Rc::new(scope)),
            Err(error) => {
                self.errors.push(error);
                None
            }
        };
        self.files.insert(path.to_path_buf(), scope.clone());
        scope
    }

    fn note_enum_values(&mut self, values: &[(String, Literal)]) {
        for (_, value) in values {
            if !self.enum_values.contains(value) {
                self.enum_values.push(value.clone());
            }
        }
    }

    /// What `name` stands for, seen from `place`: declared in its namespace or one around it, or imported.
    pub(super) fn lookup(&mut self, place: &Place, name: &str, depth: usize) -> Option<Named> {
        for end in (0..=place.path.len()).rev() {
            let here = Place { file: place.file.clone(), path: place.path[..end].to_vec() };
            if let Some(found) = Self::local(&here, name, Space::Types) {
                return Some(found);
            }
            if let Some(import) = here.scope().imports.get(name).cloned() {
                return self.imported(&here.file, &import, depth + 1, Space::Types);
            }
        }
        None
    }

    /// What `name` is declared as in the scope of `place` itself, among the names of `space`.
    fn local(place: &Place, name: &str, space: Space) -> Option<Named> {
        let scope = place.scope();
        if let Some(class) = scope.classes.get(name) {
            return Some(Named::Class(place.clone(), name.to_string(), class.clone()));
        }
        if space == Space::Values {
            return scope.values.get(name).map(|ty| Named::Value(place.clone(), ty.clone()));
        }
        if let Some(interfaces) = scope.interfaces.get(name) {
            return Some(Named::Interface(place.clone(), interfaces.clone()));
        }
        if let Some(alias) = scope.aliases.get(name) {
            return Some(Named::Alias(place.clone(), alias.clone()));
        }
        if let Some(values) = scope.enums.get(name) {
            return Some(Named::Enum(place.clone(), name.to_string(), values.clone()));
        }
        if scope.namespaces.contains_key(name) {
            let mut path = place.path.clone();
            path.push(name.to_string());
            return Some(Named::Namespace(Place { file: place.file.clone(), path }));
        }
        scope.functions.get(name).map(|decls| Named::Function(place.clone(), decls.clone()))
    }

    /// What an import names, in the file it comes from, among the names of `space`.
    fn imported(&mut self, from: &FileScope, import: &Import, depth: usize, space: Space) -> Option<Named> {
        if depth > MAX_DEPTH {
            return None;
        }
        let file = self.load(&module_file(&from.path, &import.from)?)?;
        let top = Place { file, path: Vec::new() };
        match &import.what {
            Imported::Namespace => Some(Named::Namespace(top)),
            Imported::Default => self.exported_in(&top, "default", depth, space),
            Imported::Named(name) => self.exported_in(&top, name, depth, space),
        }
    }

    /// What a file exports as `name`: declared there (under that name or another), or re-exported.
    pub(super) fn exported(&mut self, top: &Place, name: &str, depth: usize) -> Option<Named> {
        self.exported_in(top, name, depth, Space::Types)
    }

    /// What a file exports as `name` among the names of `space` (see [`Files::exported`]).
    pub(super) fn exported_in(&mut self, top: &Place, name: &str, depth: usize, space: Space) -> Option<Named> {
        let scope = top.scope();
        let local = scope.exported_as.get(name).cloned().unwrap_or_else(|| name.to_string());
        if let Some(found) = Self::local(top, &local, space) {
            return Some(found);
        }
        if let Some(import) = scope.imports.get(&local).or_else(|| scope.reexports.get(name)).cloned() {
            return self.imported(&top.file, &import, depth + 1, space);
        }
        for star in scope.star_exports.clone() {
            let import = Import { from: star, what: Imported::Named(name.to_string()) };
            if let Some(found) = self.imported(&top.file, &import, depth + 1, space) {
                return Some(found);
            }
        }
        None
    }

    /// The type `ty` declares, read in `ctx`.
    pub(super) fn resolve(&mut self, ty: &TsType, ctx: &Ctx) -> DeclaredType {
        if ctx.depth > MAX_DEPTH || self.read >= MAX_TYPES_READ {
            return DeclaredType::Opaque;
        }
        self.read += 1;
        match ty {
            TsType::TsKeywordType(k) => keyword(k.kind),
            // Inside an interface `this` is whatever implements it, which no class names: any value.
            TsType::TsThisType(_) => ctx.this_class.clone().map_or(DeclaredType::Any, DeclaredType::Class),
            TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsFnType(f)) => {
                let inner = ctx.with_own_params(self, f.type_params.as_deref());
                let returns = self.resolve(&f.type_ann.type_ann, &inner);
                self.function(&f.params, returns, &inner)
            }
            TsType::TsFnOrConstructorType(TsFnOrConstructorType::TsConstructorType(c)) => {
                let inner = ctx.with_own_params(self, c.type_params.as_deref());
                DeclaredType::Constructs(Box::new(self.resolve(&c.type_ann.type_ann, &inner)))
            }
            // A class's own type (`typeof Queue`) constructs its instances.
            TsType::TsTypeQuery(query) => match &query.expr_name {
                TsTypeQueryExpr::TsEntityName(TsEntityName::Ident(id)) => match self.lookup(&ctx.place, &id.sym, 0) {
                    Some(Named::Class(_, name, _)) => DeclaredType::Constructs(Box::new(DeclaredType::Class(name))),
                    _ => DeclaredType::Opaque,
                },
                _ => DeclaredType::Opaque,
            },
            TsType::TsTypeRef(r) => {
                let args: Vec<DeclaredType> = r
                    .type_params
                    .as_deref()
                    .map(|p| p.params.iter().map(|a| self.resolve(a, ctx)).collect())
                    .unwrap_or_default();
                self.reference(&r.type_name, &args, ctx)
            }
            TsType::TsTypeLit(lit) => self.object(&lit.members, ctx),
            TsType::TsArrayType(a) => DeclaredType::Array(Box::new(self.resolve(&a.elem_type, ctx))),
            TsType::TsTupleType(t) => {
                let items: Vec<DeclaredType> = t.elem_types.iter().map(|e| self.resolve(&e.ty, ctx)).collect();
                // Optional and rest elements make a tuple of several lengths: not built.
                let plain =
                    t.elem_types.iter().all(|e| !matches!(*e.ty, TsType::TsOptionalType(_) | TsType::TsRestType(_)));
                if plain { DeclaredType::Tuple(items) } else { DeclaredType::Opaque }
            }
            // A member the declarations compute (`T | (T extends ... ? ... : ...)`, `T | { [K in keyof T]: ... }`)
            // is a variant of the others written beside it: values of those are values of the union, and
            // the computed ones are not built.
            TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsUnionType(u)) => {
                let plain: Vec<&TsType> = u.types.iter().map(|t| &**t).filter(|t| !computed(t)).collect();
                let members = if plain.is_empty() { u.types.iter().map(|t| &**t).collect() } else { plain };
                DeclaredType::union(members.into_iter().map(|t| self.resolve(t, ctx)).collect())
            }
            TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsIntersectionType(i)) => {
                intersection(i.types.iter().map(|t| self.resolve(t, ctx)).collect())
            }
            TsType::TsParenthesizedType(p) => self.resolve(&p.type_ann, ctx),
            TsType::TsOptionalType(o) => self.resolve(&o.type_ann, ctx),
            // The values of a const object used as an enum: `(typeof Mode)[keyof typeof Mode]`.
            TsType::TsIndexedAccessType(access) => {
                match (self.typeof_object(&access.obj_type, ctx), &*access.index_type) {
                    (Some((name, values)), TsType::TsTypeOperator(op))
                        if op.op == TsTypeOperatorOp::KeyOf
                            && self.typeof_object(&op.type_ann, ctx).is_some_and(|(keyed, _)| keyed == name) =>
                    {
                        DeclaredType::union(values.into_iter().map(|(_, v)| DeclaredType::Literal(v)).collect())
                    }
                    _ => DeclaredType::Opaque,
                }
            }
            TsType::TsTypeOperator(op)
                if op.op == TsTypeOperatorOp::KeyOf && self.typeof_object(&op.type_ann, ctx).is_some() =>
            {
                let (_, values) = self.typeof_object(&op.type_ann, ctx).unwrap_or_default();
                DeclaredType::union(
                    values.into_iter().map(|(k, _)| DeclaredType::Literal(Literal::String(k))).collect(),
                )
            }
            TsType::TsTypeOperator(op) => match op.op {
                TsTypeOperatorOp::ReadOnly => self.resolve(&op.type_ann, ctx),
                TsTypeOperatorOp::KeyOf => match self.resolve(&op.type_ann, ctx) {
                    DeclaredType::Object(members) if !members.is_empty() => DeclaredType::union(
                        members.into_iter().map(|m| DeclaredType::Literal(Literal::String(m.name))).collect(),
                    ),
                    _ => DeclaredType::Opaque,
                },
                _ => DeclaredType::Opaque,
            },
            TsType::TsLitType(lit) => match &lit.lit {
                TsLit::Number(n) => DeclaredType::Literal(Literal::Number(n.value)),
                TsLit::Str(s) => DeclaredType::Literal(Literal::String(s.value.to_atom_lossy().to_string())),
                TsLit::Bool(b) => DeclaredType::Literal(Literal::Boolean(b.value)),
                TsLit::BigInt(b) => b
                    .value
                    .to_string()
                    .parse()
                    .map_or(DeclaredType::Opaque, |n| DeclaredType::Literal(Literal::BigInt(n))),
                // A template without holes is one string.
                TsLit::Tpl(t) if t.types.is_empty() && t.quasis.len() == 1 => {
                    t.quasis[0].cooked.as_ref().map_or(DeclaredType::Opaque, |c| {
                        DeclaredType::Literal(Literal::String(c.to_atom_lossy().to_string()))
                    })
                }
                TsLit::Tpl(t) => self.template(t, ctx),
            },
            _ => DeclaredType::Opaque,
        }
    }

    /// A template literal type with holes (`0x${string}`): its text and its holes' types, when each hole is
    /// a primitive a string can show (`string`, `number`, `bigint`, `boolean`, literals and unions of them).
    fn template(&mut self, t: &TsTplLitType, ctx: &Ctx) -> DeclaredType {
        let Some(quasis) = t.quasis.iter().map(|q| q.cooked.as_ref().map(|c| c.to_atom_lossy().to_string())).collect()
        else {
            return DeclaredType::Opaque;
        };
        let holes: Vec<DeclaredType> = t.types.iter().map(|h| self.resolve(h, ctx)).collect();
        fn shown(ty: &DeclaredType) -> bool {
            match ty {
                DeclaredType::String
                | DeclaredType::Number
                | DeclaredType::BigInt
                | DeclaredType::Boolean
                | DeclaredType::Literal(_) => true,
                DeclaredType::Union(members) => members.iter().all(shown),
                _ => false,
            }
        }
        if holes.iter().all(shown) { DeclaredType::Template(quasis, holes) } else { DeclaredType::Opaque }
    }

    /// The type a name (`Options`, `LRUCache.Options`, `Color.Red`) stands for, with type arguments
    /// `args`.
    fn reference(&mut self, name: &TsEntityName, args: &[DeclaredType], ctx: &Ctx) -> DeclaredType {
        let named = match name {
            TsEntityName::Ident(id) => {
                let name = id.sym.as_str();
                if let Some(bound) = ctx.env.get(name) {
                    return bound.clone();
                }
                match self.lookup(&ctx.place, name, ctx.depth) {
                    Some(named) => named,
                    None => return built_in(name, args),
                }
            }
            TsEntityName::TsQualifiedName(q) => {
                let right = q.right.sym.as_str();
                match self.qualifier(&q.left, ctx) {
                    Some(Named::Namespace(place)) => match Self::local(&place, right, Space::Types) {
                        Some(named) => named,
                        None => return DeclaredType::Opaque,
                    },
                    Some(Named::Enum(_, _, values)) => {
                        self.note_enum_values(&values);
                        return values
                            .into_iter()
                            .find(|(member, _)| member == right)
                            .map_or(DeclaredType::Opaque, |(_, v)| DeclaredType::Literal(v));
                    }
                    _ => return DeclaredType::Opaque,
                }
            }
        };
        let key = match &named {
            Named::Interface(_, declarations) => declarations.first().map(|d| Rc::as_ptr(d) as usize),
            Named::Alias(_, alias) => Some(Rc::as_ptr(alias) as usize),
            _ => None,
        };
        let Some(key) = key else { return self.named(named, args, ctx) };
        if self.expanding.contains(&key) {
            return DeclaredType::Opaque;
        }
        self.expanding.push(key);
        let ty = self.named(named, args, ctx);
        self.expanding.pop();
        ty
    }

    /// The const object of literals (see `scope.rs`, `const_object`) that `typeof Name` names, possibly in
    /// parentheses: its name and members.
    fn typeof_object(&mut self, ty: &TsType, ctx: &Ctx) -> Option<(String, EnumMembers)> {
        match ty {
            TsType::TsParenthesizedType(p) => self.typeof_object(&p.type_ann, ctx),
            TsType::TsTypeQuery(query) => match &query.expr_name {
                TsTypeQueryExpr::TsEntityName(TsEntityName::Ident(id)) if query.type_args.is_none() => {
                    let name = id.sym.as_str();
                    self.const_object(&ctx.place, name, ctx.depth).map(|values| (name.to_string(), values))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The members of the const object of literals `name` where `place` sees it: beside a type of the same
    /// name (`type Mode = ...` next to `const Mode = {...}`), the name finds the type first.
    fn const_object(&mut self, place: &Place, name: &str, depth: usize) -> Option<EnumMembers> {
        match self.lookup(place, name, depth)? {
            Named::Enum(_, _, values) => Some(values),
            Named::Alias(at, _) => at.scope().enums.get(name).cloned(),
            _ => None,
        }
    }

    /// The enums a parameter annotated `ty` takes the members of, where `ty` names them itself: `Color`,
    /// `Color.Red`, or a union with them (`Color | null`). Each as where it is declared, its name there and
    /// its members.
    pub(super) fn enums(&mut self, ty: &TsType, ctx: &Ctx) -> Vec<(Place, String, EnumMembers)> {
        match ty {
            TsType::TsParenthesizedType(p) => self.enums(&p.type_ann, ctx),
            TsType::TsUnionOrIntersectionType(TsUnionOrIntersectionType::TsUnionType(u)) => {
                u.types.iter().flat_map(|t| self.enums(t, ctx)).collect()
            }
            TsType::TsTypeRef(r) if r.type_params.is_none() => {
                let named = match &r.type_name {
                    TsEntityName::Ident(id) if !ctx.env.contains_key(id.sym.as_str()) => {
                        self.lookup(&ctx.place, id.sym.as_str(), ctx.depth)
                    }
                    // An enum in a namespace (`Shapes.Kind`), or an enum's member (`Color.Red`).
                    TsEntityName::TsQualifiedName(q) => match self.qualifier(&q.left, ctx) {
                        Some(Named::Namespace(place)) => Self::local(&place, q.right.sym.as_str(), Space::Types),
                        other => other,
                    },
                    TsEntityName::Ident(_) => None,
                };
                match named {
                    Some(Named::Enum(place, name, values)) => vec![(place, name, values)],
                    // A const object of literals and the type of its values, one name for both.
                    Some(Named::Alias(place, alias)) => {
                        let name = alias.id.sym.to_string();
                        let values = place.scope().enums.get(&name).cloned();
                        values.map(|values| vec![(place, name, values)]).unwrap_or_default()
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// What the left part of a qualified name stands for: a namespace or an enum.
    fn qualifier(&mut self, name: &TsEntityName, ctx: &Ctx) -> Option<Named> {
        match name {
            TsEntityName::Ident(id) => {
                // A class and a namespace may share a name (`LRUCache` and `LRUCache.Options`).
                for end in (0..=ctx.place.path.len()).rev() {
                    let here = Place { file: ctx.place.file.clone(), path: ctx.place.path[..end].to_vec() };
                    let scope = here.scope();
                    if scope.namespaces.contains_key(id.sym.as_str()) || scope.enums.contains_key(id.sym.as_str()) {
                        return self.local_namespace_first(&here, id.sym.as_str());
                    }
                }
                self.lookup(&ctx.place, id.sym.as_str(), ctx.depth)
            }
            TsEntityName::TsQualifiedName(q) => match self.qualifier(&q.left, ctx)? {
                Named::Namespace(place) => self.local_namespace_first(&place, q.right.sym.as_str()),
                _ => None,
            },
        }
    }

    fn local_namespace_first(&self, place: &Place, name: &str) -> Option<Named> {
        let scope = place.scope();
        if scope.namespaces.contains_key(name) {
            let mut path = place.path.clone();
            path.push(name.to_string());
            return Some(Named::Namespace(Place { file: place.file.clone(), path }));
        }
        Self::local(place, name, Space::Types)
    }

    /// The type a declaration stands for, given type arguments.
    fn named(&mut self, named: Named, args: &[DeclaredType], ctx: &Ctx) -> DeclaredType {
        match named {
            Named::Class(_, name, _) => DeclaredType::Class(name),
            Named::Enum(_, _, values) => {
                self.note_enum_values(&values);
                DeclaredType::union(values.into_iter().map(|(_, v)| DeclaredType::Literal(v)).collect())
            }
            // A function's or a variable's name is no type (`typeof f` is not read).
            Named::Namespace(_) | Named::Function(..) | Named::Value(..) => DeclaredType::Opaque,
            Named::Alias(place, alias) => {
                let inner = ctx.with_params(self, place, alias.type_params.as_deref(), args);
                self.resolve(&alias.type_ann, &inner)
            }
            Named::Interface(place, declarations) => {
                let mut members: Vec<Member> = Vec::new();
                for declaration in &declarations {
                    let mut inner = ctx.with_params(self, place.clone(), declaration.type_params.as_deref(), args);
                    // `this` in an interface is the implementing type, not the class whose member names it.
                    inner.this_class = None;
                    for base in &declaration.extends {
                        let args = type_args(self, base.type_args.as_deref(), &inner);
                        let base = match entity(&base.expr) {
                            Some(name) => self.reference(&name, &args, &inner),
                            None => DeclaredType::Opaque,
                        };
                        match base {
                            DeclaredType::Object(inherited) => merge(&mut members, inherited),
                            _ => return DeclaredType::Opaque,
                        }
                    }
                    match self.object(&declaration.body.body, &inner) {
                        DeclaredType::Object(own) => merge(&mut members, own),
                        other => return other,
                    }
                }
                DeclaredType::Object(members)
            }
        }
    }

    /// A function type of `params` returning `returns`, read in `ctx`: a comparator when it returns a
    /// number from two required parameters of one type it can order (see [`Orders`]), however it is
    /// written (`(a: number, b: number) => number`, a generic alias `Comparator<T>`, an interface's call
    /// signature). Both required: a comparator's body subtracts them, which an optional one (`number |
    /// undefined`) may not be under `strict` (TS18048).
    fn function(&mut self, params: &[TsFnParam], returns: DeclaredType, ctx: &Ctx) -> DeclaredType {
        let params = passed(params);
        let arity = params.iter().take_while(|p| !matches!(p, TsFnParam::Rest(_))).count();
        let mut compares = None;
        if arity == 2 && returns == DeclaredType::Number {
            let types: Vec<Option<DeclaredType>> = params
                .iter()
                .map(|p| match p {
                    TsFnParam::Ident(id) if !id.optional => {
                        id.type_ann.as_ref().map(|t| self.resolve(&t.type_ann, ctx))
                    }
                    _ => None,
                })
                .collect();
            compares = match &types[..] {
                [Some(a), Some(b)] if a == b => Orders::of(a),
                _ => None,
            };
        }
        DeclaredType::Function { arity, returns: Box::new(returns), compares }
    }

    /// An object type from its members; one with only a call signature is a function type, one with only
    /// construct signatures constructs what the first one returns.
    fn object(&mut self, elements: &[TsTypeElement], ctx: &Ctx) -> DeclaredType {
        let mut members = Vec::new();
        let (mut call, mut index, mut construct) = (None, None, None);
        for element in elements {
            match element {
                // A member whose key is not read (a bigint) is left out when optional; a required one
                // makes the type one no value is proved to have (below).
                TsTypeElement::TsPropertySignature(p) if !p.computed && (p.optional || key_name(&p.key).is_some()) => {
                    let Some(name) = key_name(&p.key) else { continue };
                    let ty = p.type_ann.as_ref().map_or(DeclaredType::Any, |t| self.resolve(&t.type_ann, ctx));
                    members.push(Member { name, ty, optional: p.optional });
                }
                TsTypeElement::TsMethodSignature(m) if !m.computed && (m.optional || key_name(&m.key).is_some()) => {
                    let Some(name) = key_name(&m.key) else { continue };
                    let inner = ctx.with_own_params(self, m.type_params.as_deref());
                    let returns = match m.type_ann.as_deref().map(|t| &*t.type_ann) {
                        // An interface's method returning `this` returns its receiver.
                        Some(TsType::TsThisType(_)) if ctx.this_class.is_none() => DeclaredType::This,
                        returned => returned.map_or(DeclaredType::Any, |t| self.resolve(t, &inner)),
                    };
                    let ty = self.function(&m.params, returns, &inner);
                    members.push(Member { name, ty, optional: m.optional });
                }
                TsTypeElement::TsGetterSignature(g) if !g.computed && key_name(&g.key).is_some() => {
                    let Some(name) = key_name(&g.key) else { continue };
                    let ty = g.type_ann.as_ref().map_or(DeclaredType::Any, |t| self.resolve(&t.type_ann, ctx));
                    members.push(Member { name, ty, optional: false });
                }
                TsTypeElement::TsCallSignatureDecl(c) => {
                    let inner = ctx.with_own_params(self, c.type_params.as_deref());
                    let returns = c.type_ann.as_ref().map_or(DeclaredType::Any, |t| self.resolve(&t.type_ann, &inner));
                    call = Some(self.function(&c.params, returns, &inner));
                }
                // An index signature allows more members: with no other member, it is a dictionary.
                TsTypeElement::TsIndexSignature(signature) => {
                    let keyed_by_string = signature.params.first().is_some_and(|key| match key {
                        TsFnParam::Ident(id) => id.type_ann.as_ref().is_some_and(|t| {
                            matches!(&*t.type_ann, TsType::TsKeywordType(k) if k.kind == TsKeywordTypeKind::TsStringKeyword)
                        }),
                        _ => false,
                    });
                    if keyed_by_string {
                        let value =
                            signature.type_ann.as_ref().map_or(DeclaredType::Any, |t| self.resolve(&t.type_ann, ctx));
                        index = Some(value);
                    }
                }
                // Overloads construct the same instances.
                TsTypeElement::TsConstructSignatureDecl(c) if construct.is_none() => {
                    let inner = ctx.with_own_params(self, c.type_params.as_deref());
                    construct =
                        Some(c.type_ann.as_ref().map_or(DeclaredType::Any, |t| self.resolve(&t.type_ann, &inner)));
                }
                TsTypeElement::TsConstructSignatureDecl(_) => {}
                // A required member of a key not read: none a value is proved to be.
                _ => return DeclaredType::Opaque,
            }
        }
        match (call, index, construct) {
            // A constructor with members of its own (statics) is no plain class.
            (None, None, Some(made)) if members.is_empty() => DeclaredType::Constructs(Box::new(made)),
            (_, _, Some(_)) => DeclaredType::Opaque,
            (Some(function), _, None) if members.is_empty() => function,
            (Some(_), _, None) => DeclaredType::Opaque,
            (None, Some(value), None) if members.is_empty() => DeclaredType::Dictionary(Box::new(value)),
            (None, _, None) => DeclaredType::Object(members),
        }
    }
}

/// Type arguments as written (`<T, string>`: of an `extends` clause, of a named type), read in `ctx`.
pub(super) fn type_args(files: &mut Files, args: Option<&TsTypeParamInstantiation>, ctx: &Ctx) -> Vec<DeclaredType> {
    args.map(|p| p.params.iter().map(|a| files.resolve(a, ctx)).collect()).unwrap_or_default()
}

/// The name an expression of an `extends` clause is (`Base`, `ns.Base`).
pub(super) fn entity(expr: &Expr) -> Option<TsEntityName> {
    match expr {
        Expr::Ident(id) => Some(TsEntityName::Ident(id.clone())),
        Expr::Member(m) => {
            let left = entity(&m.obj)?;
            let right = m.prop.as_ident()?.clone();
            Some(TsEntityName::TsQualifiedName(Box::new(swc_ecma_ast::TsQualifiedName { span: m.span, left, right })))
        }
        _ => None,
    }
}

/// Members of `more` added to `members`, a member declared again replacing the first.
fn merge(members: &mut Vec<Member>, more: Vec<Member>) {
    for member in more {
        members.retain(|m| m.name != member.name);
        members.push(member);
    }
}

/// An intersection: objects merge; `any` parts add nothing; anything else cannot be built.
fn intersection(parts: Vec<DeclaredType>) -> DeclaredType {
    let mut members = Vec::new();
    let mut object = false;
    for part in parts {
        match part {
            DeclaredType::Object(more) => {
                object = true;
                merge(&mut members, more);
            }
            DeclaredType::Any => {}
            _ => return DeclaredType::Opaque,
        }
    }
    if object { DeclaredType::Object(members) } else { DeclaredType::Any }
}

/// The name of a member key: an identifier, a string, or a number (`0: number` names the property
/// `"0"`, as JavaScript converts the number).
pub(super) fn key_name(key: &Expr) -> Option<String> {
    match key {
        Expr::Ident(id) => Some(id.sym.to_string()),
        Expr::Lit(Lit::Str(s)) => Some(s.value.to_atom_lossy().to_string()),
        Expr::Lit(Lit::Num(n)) => Some(crate::js::literal::number(n.value)),
        _ => None,
    }
}

/// The parameters callers pass: a `this` parameter (`(this: Headers, value: string) => void`) only types
/// the receiver, and a callback written with it counted would take one parameter more than the type, which
/// TypeScript refuses.
fn passed(params: &[TsFnParam]) -> Vec<&TsFnParam> {
    params.iter().filter(|p| !matches!(p, TsFnParam::Ident(id) if id.id.sym == "this")).collect()
}

fn keyword(kind: TsKeywordTypeKind) -> DeclaredType {
    match kind {
        TsKeywordTypeKind::TsNumberKeyword => DeclaredType::Number,
        TsKeywordTypeKind::TsStringKeyword => DeclaredType::String,
        TsKeywordTypeKind::TsBooleanKeyword => DeclaredType::Boolean,
        TsKeywordTypeKind::TsBigIntKeyword => DeclaredType::BigInt,
        TsKeywordTypeKind::TsNullKeyword => DeclaredType::Null,
        TsKeywordTypeKind::TsUndefinedKeyword | TsKeywordTypeKind::TsVoidKeyword => DeclaredType::Undefined,
        TsKeywordTypeKind::TsAnyKeyword | TsKeywordTypeKind::TsUnknownKeyword => DeclaredType::Any,
        // `object` is any object: an empty one is one.
        TsKeywordTypeKind::TsObjectKeyword => DeclaredType::Object(Vec::new()),
        _ => DeclaredType::Opaque,
    }
}

/// Whether a type is computed from others by the declarations: a conditional or a mapped type.
fn computed(ty: &TsType) -> bool {
    match ty {
        TsType::TsParenthesizedType(p) => computed(&p.type_ann),
        TsType::TsConditionalType(_) | TsType::TsMappedType(_) => true,
        _ => false,
    }
}
