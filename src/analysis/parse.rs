//! Parsing JavaScript and TypeScript files with swc, and telling their module format. TypeScript is
//! parsed as TypeScript and made JavaScript at once (see [`typescript`](crate::analysis::typescript)):
//! the tree is always JavaScript, while the text and every span stay those of the file as written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use swc_common::sync::Lrc;
use swc_common::{BytePos, FileName, SourceFile, SourceMap, Spanned};
use swc_ecma_ast::{
    CallExpr, Callee, Constructor, EsVersion, Expr, Lit, MemberExpr, MemberProp, ParamOrTsParamProp, Pat, Program,
    PropName,
};
use swc_ecma_parser::{EsSyntax, Syntax, TsSyntax, parse_file_as_program};
use swc_ecma_visit::{Visit, VisitWith};

use crate::analysis::elision::exported_names;
use crate::analysis::package::is_es_module_file;
use crate::analysis::tsconfig;
use crate::analysis::typescript::{self, Language};
use crate::error::ParseError;
use crate::model::program::ModuleKind;

/// The name a property key gives its member, when the syntax says it (`a`, `'a'`, `1`, `['a']`).
pub(crate) fn prop_name(key: &PropName) -> Option<String> {
    match key {
        PropName::Ident(i) => Some(i.sym.to_string()),
        PropName::Str(s) => Some(s.value.to_atom_lossy().to_string()),
        PropName::Num(n) => Some(n.value.to_string()),
        PropName::BigInt(b) => Some(b.value.to_string()),
        PropName::Computed(c) => match &*c.expr {
            Expr::Lit(Lit::Str(s)) => Some(s.value.to_atom_lossy().to_string()),
            _ => None,
        },
    }
}

/// The name of a member (`.y`, `['y']`).
pub(crate) fn member_name(prop: &MemberProp) -> Option<String> {
    match prop {
        MemberProp::Ident(name) => Some(name.sym.to_string()),
        MemberProp::Computed(c) => match &*c.expr {
            Expr::Lit(Lit::Str(s)) => Some(s.value.to_atom_lossy().to_string()),
            _ => None,
        },
        MemberProp::PrivateName(_) => None,
    }
}

/// A constructor's parameters, less TypeScript's parameter properties (`constructor(private x)`).
pub(crate) fn constructor_params(node: &Constructor) -> impl Iterator<Item = &Pat> {
    node.params.iter().filter_map(|p| match p {
        ParamOrTsParamProp::Param(p) => Some(&p.pat),
        ParamOrTsParamProp::TsParamProp(_) => None,
    })
}

/// One parsed source file.
pub struct ParsedFile {
    /// Absolute, canonical path: the identity of the file.
    pub path: PathBuf,
    /// The path as the user wrote it (or as a `require` reached it), for messages.
    pub display: String,
    /// The file's text, as written (TypeScript stays TypeScript: positions are read in it).
    pub source: Lrc<SourceFile>,
    /// The source map owning `source`; one per file, so byte offsets are `pos - source.start_pos`.
    pub cm: Lrc<SourceMap>,
    /// The syntax tree, always JavaScript: a TypeScript file's without its types, its nodes keeping their
    /// spans in `source`.
    pub program: Program,
    /// How the file is loaded.
    pub kind: ModuleKind,
    /// The language the file is written in.
    pub(crate) language: Language,
    /// The names a TypeScript file exports only as types (stripping removed them): see
    /// [`elision`](crate::analysis::elision).
    pub(crate) type_exports: BTreeSet<String>,
    /// Whether it is TypeScript its tools run as CommonJS (a `.cts`, or a `.ts` outside a `"type":
    /// "module"` package): tsc's CommonJS output, tsx, ts-node and ts-jest all compile its `import x
    /// from` to `require` with the interop that gives a module marked `__esModule` (TypeScript's or
    /// Babel's CommonJS output) its `default`, where Node's own ES modules would give `module.exports`.
    pub(crate) commonjs_interop: bool,
}

impl ParsedFile {
    /// Byte offset of `pos` from the start of the file's text.
    pub(crate) fn offset(&self, pos: BytePos) -> u32 {
        pos.0.saturating_sub(self.source.start_pos.0)
    }

    /// 1-based line and column (in characters) of a byte position.
    pub(crate) fn line_col(&self, pos: BytePos) -> (usize, usize) {
        line_col(&self.cm, pos)
    }

    /// The text of the file.
    pub(crate) fn text(&self) -> &str {
        self.source.src.as_str()
    }

    /// The JavaScript that runs the file without instrumentation: its text, or a TypeScript file's
    /// program printed.
    pub(crate) fn plain_code(&self) -> String {
        match self.language {
            Language::JavaScript => self.text().to_string(),
            Language::TypeScript => {
                let mut buf = Vec::new();
                let mut emitter = swc_ecma_codegen::Emitter {
                    cfg: swc_ecma_codegen::Config::default().with_target(EsVersion::latest()),
                    cm: self.cm.clone(),
                    comments: None,
                    wr: swc_ecma_codegen::text_writer::JsWriter::new(self.cm.clone(), "\n", &mut buf, None),
                };
                // Writing to a Vec cannot fail.
                emitter.emit_program(&self.program).expect("codegen into memory");
                String::from_utf8_lossy(&buf).into_owned()
            }
        }
    }
}

/// 1-based line and column (in characters) of a byte position of `cm`.
pub(crate) fn line_col(cm: &SourceMap, pos: BytePos) -> (usize, usize) {
    let loc = cm.lookup_char_pos(pos);
    (loc.line, loc.col_display + 1)
}

/// Parses `text` as the file at `path`, as JavaScript or, for `.ts`, `.mts` and `.cts`, as TypeScript
/// whose types are then stripped (under the options of its `tsconfig.json`).
///
/// The module format comes from the extension (`.mjs`, `.cjs`, `.mts`, `.cts`), then from TypeScript's
/// CommonJS syntax (`import x = require()`, `export =`), then from the nearest `package.json`'s
/// `"type"`, then from the code itself: `import`/`export` make a module, a use of `module.exports`,
/// `exports` or `require` makes CommonJS, anything else is a plain script.
pub fn parse_source(path: &Path, display: &str, text: String) -> Result<ParsedFile, ParseError> {
    let refused = |message: String| ParseError { file: display.to_string(), line: 1, column: 1, message };
    let language = Language::of(path).map_err(refused)?;
    if text.starts_with("\u{feff}#!") {
        // Node strips the mark, then refuses the `#!` line that is no longer first: its tests would fail.
        let message =
            "cannot parse JavaScript: a `#!` line after a byte-order mark, which Node refuses too: remove one \
                       of them"
                .to_string();
        return Err(refused(message));
    }
    let config = match language {
        Language::TypeScript => Some(tsconfig::for_file(path).map_err(refused)?),
        Language::JavaScript => None,
    };
    let cm: Lrc<SourceMap> = Default::default();
    let source = cm.new_source_file(FileName::Real(path.to_path_buf()).into(), text);
    let syntax = match language {
        Language::JavaScript => Syntax::Es(EsSyntax { allow_return_outside_function: true, ..Default::default() }),
        Language::TypeScript => Syntax::Typescript(TsSyntax { decorators: true, ..Default::default() }),
    };
    let mut recovered = Vec::new();
    let located = |pos: BytePos, message: String| {
        let (line, column) = line_col(&cm, pos);
        let message = format!("cannot parse {}: {message}", language.name());
        ParseError { file: display.to_string(), line, column, message }
    };
    let program = parse_file_as_program(&source, syntax, EsVersion::latest(), None, &mut recovered)
        .map_err(|e| located(e.span().lo, e.kind().msg().into_owned()))?;
    // Recovered errors are still errors for us: QuickJS would reject the file.
    if let Some(e) = recovered.first() {
        return Err(located(e.span().lo, e.kind().msg().into_owned()));
    }
    let (kind, program, type_exports) = match config {
        Some(config) => {
            let mut program = program;
            let commonjs = typescript::commonjs_syntax(&mut program);
            let declared = exported_names(&program);
            let program = typescript::strip(program, &config);
            let kind = match module_kind(path, &program) {
                ModuleKind::EsModule if commonjs && !has_extension(path, "mts") => ModuleKind::CommonJs,
                kind => kind,
            };
            let type_exports = declared.difference(&exported_names(&program)).cloned().collect();
            (kind, program, type_exports)
        }
        None => (module_kind(path, &program), program, BTreeSet::new()),
    };
    let mut program = match (kind, program) {
        // A file with no import/export parses as a script; a declared module still is one.
        (ModuleKind::EsModule, Program::Script(script)) => Program::Module(swc_ecma_ast::Module {
            span: script.span,
            body: script.body.into_iter().map(swc_ecma_ast::ModuleItem::Stmt).collect(),
            shebang: None,
        }),
        // TypeScript's CommonJS syntax parses as a module; once stripped, it is statements only.
        (ModuleKind::CommonJs | ModuleKind::Script, Program::Module(module))
            if language == Language::TypeScript && module.body.iter().all(|item| item.is_stmt()) =>
        {
            Program::Script(swc_ecma_ast::Script {
                span: module.span,
                body: module.body.into_iter().filter_map(|item| item.stmt()).collect(),
                shebang: module.shebang,
            })
        }
        (_, program) => program,
    };
    // A `#!` line is only allowed at the very start of a text, and the sandbox evaluates CommonJS files
    // wrapped in a function: the code it runs (written from this tree) goes without it. Positions do not
    // move, since they are read back through the code's source map; the user's file keeps its line for
    // Node.
    match &mut program {
        Program::Script(script) => script.shebang = None,
        Program::Module(module) => module.shebang = None,
    }
    let commonjs_interop = language == Language::TypeScript
        && (has_extension(path, "ts") || has_extension(path, "cts"))
        && !is_es_module_file(path);
    let (path, display) = (path.to_path_buf(), display.to_string());
    Ok(ParsedFile { path, display, source, cm, program, kind, language, type_exports, commonjs_interop })
}

fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension().is_some_and(|e| e == extension)
}

fn module_kind(path: &Path, program: &Program) -> ModuleKind {
    match path.extension().and_then(|e| e.to_str()) {
        Some("mjs" | "mts") => return ModuleKind::EsModule,
        Some("cjs" | "cts") => return ModuleKind::CommonJs,
        _ => {}
    }
    if matches!(program, Program::Module(m) if m.body.iter().any(|i| i.is_module_decl())) {
        return ModuleKind::EsModule;
    }
    if package_type_is_module(path) {
        return ModuleKind::EsModule;
    }
    if uses_commonjs(program) { ModuleKind::CommonJs } else { ModuleKind::Script }
}

/// Whether the code uses CommonJS: `module.exports`, `exports.x` or a `require('...')` call. Looking at
/// the syntax tree, not the text, keeps scripts that merely mention these words in comments or strings
/// plain scripts.
fn uses_commonjs(program: &Program) -> bool {
    let mut finder = CommonJsFinder::default();
    program.visit_with(&mut finder);
    finder.found
}

#[derive(Default)]
struct CommonJsFinder {
    found: bool,
}

impl Visit for CommonJsFinder {
    fn visit_member_expr(&mut self, node: &MemberExpr) {
        let on = |name: &str| matches!(&*node.obj, Expr::Ident(i) if &*i.sym == name);
        let property = |name: &str| match &node.prop {
            MemberProp::Ident(p) => &*p.sym == name,
            MemberProp::Computed(c) => matches!(&*c.expr, Expr::Lit(Lit::Str(s)) if *s.value.to_atom_lossy() == *name),
            MemberProp::PrivateName(_) => false,
        };
        if (on("module") && property("exports")) || on("exports") {
            self.found = true;
        }
        node.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, node: &CallExpr) {
        if let Callee::Expr(callee) = &node.callee
            && matches!(&**callee, Expr::Ident(i) if &*i.sym == "require")
            && matches!(node.args.first().map(|a| &*a.expr), Some(Expr::Lit(Lit::Str(_))))
        {
            self.found = true;
        }
        node.visit_children_with(self);
    }
}

/// Whether the nearest `package.json` above `path` declares `"type": "module"` (so Node loads `.js`
/// files there as ES modules).
pub(crate) fn package_type_is_module(path: &Path) -> bool {
    path.ancestors().skip(1).find_map(|dir| std::fs::read_to_string(dir.join("package.json")).ok()).is_some_and(
        |json| {
            serde_json::from_str::<serde_json::Value>(&json)
                .ok()
                .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(|t| t == "module"))
                .unwrap_or(false)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, text: &str) -> Result<ParsedFile, ParseError> {
        parse_source(Path::new(&format!("/nonexistent/{name}")), name, text.to_string())
    }

    #[test]
    fn tells_module_formats_apart() {
        assert_eq!(parse("a.js", "function A() {}").unwrap().kind, ModuleKind::Script);
        assert_eq!(parse("a.js", "module.exports = class A {}").unwrap().kind, ModuleKind::CommonJs);
        assert_eq!(parse("a.js", "export class A {}").unwrap().kind, ModuleKind::EsModule);
        assert_eq!(parse("a.mjs", "class A {}").unwrap().kind, ModuleKind::EsModule);
        assert!(matches!(parse("a.mjs", "class A {}").unwrap().program, Program::Module(_)));
        assert_eq!(parse("a.cjs", "class A {}").unwrap().kind, ModuleKind::CommonJs);
        assert_eq!(parse("a.js", "var x = require('./b');").unwrap().kind, ModuleKind::CommonJs);
        assert_eq!(parse("a.js", "function P() {}\nmodule['exports'] = P;").unwrap().kind, ModuleKind::CommonJs);
        let mentions = "// works with module.exports too\nvar s = 'require(x)'; function A() {}";
        assert_eq!(parse("a.js", mentions).unwrap().kind, ModuleKind::Script);
    }

    #[test]
    fn parse_errors_name_file_line_and_column() {
        let err = parse("broken.js", "function A() {\n  return 1 +;\n}").err().unwrap();
        assert_eq!((err.file.as_str(), err.line), ("broken.js", 2));
        assert!(err.column > 1, "{err}");
        assert!(err.to_string().starts_with("broken.js:2:"), "{err}");
    }

    #[test]
    fn typescript_module_formats_follow_extension_and_syntax() {
        let ts = |name: &str, text: &str| parse(name, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ts("a.ts", "export class A { x: number = 1 }").kind, ModuleKind::EsModule);
        assert_eq!(ts("a.mts", "class A { x!: number }").kind, ModuleKind::EsModule);
        assert_eq!(ts("a.cts", "class A { private y?: string }").kind, ModuleKind::CommonJs);
        let assigned = ts(
            "a.ts",
            "import fs = require('node:fs');
class A {}
export = A;",
        );
        assert_eq!(assigned.kind, ModuleKind::CommonJs);
        assert!(matches!(assigned.program, Program::Script(_)), "stripped, it is statements only");
        // Type-only imports and exports still make a module, as TypeScript keeps it one.
        assert_eq!(
            ts(
                "a.ts",
                "import type { T } from './t';
export type U = T;
class A {}"
            )
            .kind,
            ModuleKind::EsModule
        );
        assert_eq!(
            ts(
                "a.ts",
                "interface I { x: number }
class A {}"
            )
            .kind,
            ModuleKind::Script
        );
    }

    #[test]
    fn typescript_is_stripped_and_keeps_its_positions() {
        let text = "interface Shape {\n  area(): number;\n}\nenum E { A, B }\nclass Sq implements Shape {\n  constructor(private side: number) {}\n  area(): number { return this.side ** 2 as number; }\n}";
        let parsed = parse("sq.ts", text).unwrap();
        assert_eq!(parsed.text(), text, "the text is the .ts file's");
        let plain = parsed.plain_code();
        assert!(!plain.contains("interface") && !plain.contains(": number") && !plain.contains("private"), "{plain}");
        assert!(plain.contains("this.side = side") && plain.contains("E[E[\"A\"] = 0]"), "{plain}");
        let area = text.find("area(): number {").unwrap() as u32;
        let mut found = None;
        struct Methods<'a>(&'a mut Option<u32>, &'a ParsedFile);
        impl Visit for Methods<'_> {
            fn visit_class_method(&mut self, m: &swc_ecma_ast::ClassMethod) {
                *self.0 = Some(self.1.offset(m.span.lo));
            }
        }
        parsed.program.visit_with(&mut Methods(&mut found, &parsed));
        assert_eq!(found, Some(area), "the method keeps its span in the .ts text");
        assert_eq!(parsed.line_col(BytePos(parsed.source.start_pos.0 + area)), (7, 3));
    }

    #[test]
    fn typescript_errors_and_refusals_name_the_file() {
        let err = parse("broken.ts", "interface A {\n  x: number;\n}\nlet a: = 1;").err().unwrap();
        assert!(err.to_string().starts_with("broken.ts:4:"), "{err}");
        assert!(err.to_string().contains("cannot parse TypeScript"), "{err}");
        assert!(parse("v.tsx", "export const v = 1;").err().unwrap().to_string().contains("TSX is not supported"));
        assert!(parse("v.d.ts", "export declare const v: number;").err().unwrap().to_string().contains("declaration"));
        assert!(parse("broken.js", "let a: = 1;").err().unwrap().to_string().contains("cannot parse JavaScript"));
    }
}
