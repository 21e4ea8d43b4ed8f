//! TypeScript sources (`.ts`, `.mts`, `.cts`) made the JavaScript the sandbox runs, by swc's own
//! transforms rather than by hand: type-only syntax goes, and what has a run-time meaning (enums,
//! `namespace`, parameter properties, `import x = require()`, `export =`, decorators, `accessor` fields)
//! becomes the code TypeScript would emit for it.
//!
//! Positions are kept: the tree keeps the spans of the `.ts` text for every node the transforms kept,
//! so everything read from spans (probes, coercion sites, mutants, messages) names lines and columns
//! of the `.ts` file. Nodes the transforms wrote have no place in that text (dummy spans): statements
//! written inside a function of the file are given the position of what they stand for (a parameter
//! property's assignment, the parameter) or else of their function's start, and functions written whole
//! (swc's helpers, the accessors of `accessor` fields) are no code of the user's (see
//! `instrument::probes`).

use std::path::Path;

use rustc_hash::FxHashMap;
use swc_common::{BytePos, DUMMY_SP, GLOBALS, Globals, Mark, Span, Spanned};
use swc_ecma_ast::{
    AssignTarget, ClassMember, Constructor, Decl, Expr, ImportDecl, ImportDefaultSpecifier, ImportPhase,
    ImportSpecifier, MemberProp, ModuleDecl, ModuleItem, ParamOrTsParamProp, Program, Stmt, Str, TsImportEqualsDecl,
    TsModuleRef, TsParamPropParam,
};
use swc_ecma_transforms_base::fixer::fixer;
use swc_ecma_transforms_base::helpers::{HELPERS, Helpers, inject_helpers};
use swc_ecma_transforms_base::hygiene::hygiene;
use swc_ecma_transforms_base::resolver;
use swc_ecma_transforms_proposal::decorator_2023_11::decorator_2023_11;
use swc_ecma_transforms_proposal::decorators;
use swc_ecma_transforms_typescript::{Config, TsImportExportAssignConfig, typescript};
use swc_ecma_visit::{Visit, VisitMut, VisitMutWith, VisitWith};

use crate::analysis::tsconfig::TsConfig;

/// The language a source file is written in, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    /// `.js`, `.mjs`, `.cjs` (and anything else: JSON modules, built-ins).
    JavaScript,
    /// `.ts`, `.mts`, `.cts`.
    TypeScript,
}

impl Language {
    /// The language of `path`, or why Flycatcher does not load it: `.tsx` needs a JSX runtime, and a
    /// declaration file (`.d.ts`, `.d.mts`, `.d.cts`) has no code.
    pub(crate) fn of(path: &Path) -> Result<Language, String> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if [".d.ts", ".d.mts", ".d.cts"].iter().any(|d| name.ends_with(d)) {
            return Err("a TypeScript declaration file holds types only, no code to test: give the .ts or .js \
                        file it describes"
                .into());
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("ts" | "mts" | "cts") => Ok(Language::TypeScript),
            Some("tsx") => Err("TSX is not supported (JSX needs a JSX runtime): test the classes of a \
                                        .ts or .js file instead, or move them out of the .tsx file"
                .into()),
            _ => Ok(Language::JavaScript),
        }
    }

    /// The name used in messages ("cannot parse TypeScript").
    pub(crate) fn name(self) -> &'static str {
        match self {
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
        }
    }
}

/// Whether a TypeScript program is CommonJS by its own syntax: `export =`, or `import x = require('y')`
/// in a file without `import` or `export` of values. Where such an import meets the ES-module syntax
/// TypeScript also accepts beside it (compiling both to CommonJS), it becomes `import x from 'y'`, which
/// gives the same value (a CommonJS module's `module.exports`), and the file stays an ES module.
pub(crate) fn commonjs_syntax(program: &mut Program) -> bool {
    let Program::Module(module) = program else { return false };
    let mut export_assignment = false;
    let mut requires = false;
    let mut es_module = false;
    for item in &module.body {
        match item {
            ModuleItem::ModuleDecl(ModuleDecl::TsExportAssignment(_)) => export_assignment = true,
            ModuleItem::ModuleDecl(ModuleDecl::TsImportEquals(import)) => requires |= required(import).is_some(),
            ModuleItem::ModuleDecl(decl) => es_module |= carries_values(decl),
            ModuleItem::Stmt(_) => {}
        }
    }
    if export_assignment || !requires {
        return export_assignment || requires;
    }
    if !es_module {
        return true;
    }
    for item in &mut module.body {
        if let ModuleItem::ModuleDecl(ModuleDecl::TsImportEquals(import)) = item
            && let Some(src) = required(import)
        {
            let local = import.id.clone();
            *item = ModuleItem::ModuleDecl(ModuleDecl::Import(ImportDecl {
                span: import.span,
                specifiers: vec![ImportSpecifier::Default(ImportDefaultSpecifier { span: local.span, local })],
                src: Box::new(src.clone()),
                type_only: false,
                with: None,
                phase: ImportPhase::default(),
            }));
        }
    }
    false
}

/// The module an `import x = require('y')` of a value loads (not `import type`, not `export import`).
fn required(import: &TsImportEqualsDecl) -> Option<&Str> {
    match &import.module_ref {
        TsModuleRef::TsExternalModuleRef(external) if !import.is_type_only && !import.is_export => Some(&external.expr),
        _ => None,
    }
}

/// Whether an `import` or `export` is there at run time: not `import type`, `export type`, an exported
/// interface or type alias, or `export as namespace`.
fn carries_values(decl: &ModuleDecl) -> bool {
    match decl {
        ModuleDecl::Import(import) => !import.type_only,
        ModuleDecl::ExportNamed(export) => !export.type_only,
        ModuleDecl::ExportDecl(export) => !matches!(export.decl, Decl::TsInterface(_) | Decl::TsTypeAlias(_)),
        ModuleDecl::ExportDefaultExpr(_) | ModuleDecl::ExportDefaultDecl(_) | ModuleDecl::ExportAll(_) => true,
        _ => false,
    }
}

/// The JavaScript of a parsed TypeScript `program`, under the options of `config`, its nodes keeping
/// their spans in the `.ts` text.
pub(crate) fn strip(program: Program, config: &TsConfig) -> Program {
    let properties = parameter_properties(&program);
    let mut program = GLOBALS.set(&Globals::new(), || {
        HELPERS.set(&Helpers::new(false), || {
            let unresolved = Mark::new();
            let top_level = Mark::new();
            let mut program = program.apply(resolver(unresolved, top_level, true));
            // Decorators first, as swc orders them: the legacy transform reads the type annotations.
            if config.experimental_decorators {
                program = program.apply(decorators(decorators::Config {
                    legacy: true,
                    emit_metadata: config.emit_decorator_metadata,
                    use_define_for_class_fields: config.define_class_fields,
                }));
            }
            // The standard decorators, and `accessor` fields (which QuickJS does not parse) with or
            // without them: after the legacy transform, only the accessors are left to it.
            program = program.apply(decorator_2023_11());
            if !config.define_class_fields {
                program.visit_mut_with(&mut UninitialisedFields);
            }
            let options = Config {
                native_class_properties: config.define_class_fields,
                import_export_assign_config: TsImportExportAssignConfig::Classic,
                ..Config::default()
            };
            program = program.apply(typescript(options, unresolved, top_level));
            // The names the transforms wrote (the keys of computed members, `_Symbol_iterator`) are told
            // apart by their marks only: two classes of one scope would declare the same name twice.
            program.apply((inject_helpers(unresolved), hygiene(), fixer(None)))
        })
    });
    program.visit_mut_with(&mut Placer { properties, function: None });
    program
}

/// Removes the class fields declared without a value (`x?: number`, `y!: string`, `static z: T`), as
/// TypeScript emits nothing for them when fields are assigned rather than defined
/// (`useDefineForClassFields` false, an ES2021 or older `target`), and as `tsx` and vitest run such code:
/// swc's transform keeps them, defining own properties set to `undefined` that shadow the prototype's (a
/// field `['constructor']!: new () => this` hid the class from `new this.constructor()`).
struct UninitialisedFields;

impl VisitMut for UninitialisedFields {
    fn visit_mut_class_members(&mut self, members: &mut Vec<ClassMember>) {
        members.retain(|member| !matches!(member, ClassMember::ClassProp(prop) if prop.value.is_none()));
        members.visit_mut_children_with(self);
    }
}

/// Parameter properties (`constructor(private x: number)`) by the start of their constructor: the
/// property's name and the parameter's span, which the assignment `this.x = x` written for it takes.
fn parameter_properties(program: &Program) -> FxHashMap<BytePos, Vec<(String, Span)>> {
    #[derive(Default)]
    struct Finder(FxHashMap<BytePos, Vec<(String, Span)>>);
    impl Visit for Finder {
        fn visit_constructor(&mut self, node: &Constructor) {
            for param in &node.params {
                if let ParamOrTsParamProp::TsParamProp(prop) = param {
                    let name = match &prop.param {
                        TsParamPropParam::Ident(ident) => ident.sym.to_string(),
                        TsParamPropParam::Assign(assign) => match assign.left.as_ident() {
                            Some(ident) => ident.sym.to_string(),
                            None => continue,
                        },
                    };
                    self.0.entry(node.span.lo).or_default().push((name, prop.span));
                }
            }
            node.visit_children_with(self);
        }
    }
    let mut finder = Finder::default();
    program.visit_with(&mut finder);
    finder.0
}

/// Gives the statements the transforms wrote inside the file's functions a position (see the module's
/// documentation).
struct Placer {
    properties: FxHashMap<BytePos, Vec<(String, Span)>>,
    /// The innermost function-like node with a position, and the parameter properties of its
    /// constructor.
    function: Option<(Span, Vec<(String, Span)>)>,
}

impl Placer {
    fn within<N: VisitMutWith<Self>>(&mut self, span: Span, node: &mut N) {
        if span.is_dummy() {
            node.visit_mut_children_with(self);
            return;
        }
        let properties = self.properties.get(&span.lo).cloned().unwrap_or_default();
        let outer = self.function.replace((span, properties));
        node.visit_mut_children_with(self);
        self.function = outer;
    }
}

impl VisitMut for Placer {
    fn visit_mut_function(&mut self, node: &mut swc_ecma_ast::Function) {
        self.within(node.span, node);
    }

    fn visit_mut_arrow_expr(&mut self, node: &mut swc_ecma_ast::ArrowExpr) {
        self.within(node.span, node);
    }

    fn visit_mut_constructor(&mut self, node: &mut Constructor) {
        self.within(node.span, node);
    }

    fn visit_mut_stmt(&mut self, stmt: &mut Stmt) {
        stmt.visit_mut_children_with(self);
        let Some((function, properties)) = &self.function else { return };
        if !stmt.span().is_dummy() {
            return;
        }
        let place = assigned_this_property(stmt)
            .and_then(|name| properties.iter().find(|(p, _)| *p == name).map(|(_, span)| *span))
            .unwrap_or_else(|| Span::new(function.lo, function.lo));
        set_span(stmt, place);
    }
}

/// The name `x` of a statement `this.x = ...`.
fn assigned_this_property(stmt: &Stmt) -> Option<String> {
    let Stmt::Expr(expr) = stmt else { return None };
    let Expr::Assign(assign) = &*expr.expr else { return None };
    let AssignTarget::Simple(target) = &assign.left else { return None };
    let member = target.as_member()?;
    match (&*member.obj, &member.prop) {
        (Expr::This(_), MemberProp::Ident(name)) => Some(name.sym.to_string()),
        _ => None,
    }
}

/// Sets the span of a statement (and of an expression statement's expression, which QuickJS's stack
/// positions point into).
fn set_span(stmt: &mut Stmt, span: Span) {
    match stmt {
        Stmt::Expr(expr) => {
            expr.span = span;
            if let Expr::Assign(assign) = &mut *expr.expr
                && assign.span == DUMMY_SP
            {
                assign.span = span;
            }
        }
        Stmt::Decl(swc_ecma_ast::Decl::Var(var)) => var.span = span,
        Stmt::Return(ret) => ret.span = span,
        Stmt::Block(block) => block.span = span,
        Stmt::If(s) => s.span = span,
        _ => {}
    }
}
