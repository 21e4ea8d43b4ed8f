//! `ProgramInfo`: what the analyser found in the code under test.
//!
//! Classes are found by loading the code in the sandbox and walking what it defines (the globals of
//! scripts, the exports of modules, an optional namespace object), so methods added at run time count
//! as much as those written in a `class` body. Each method is tied to the instrumented function that
//! implements it, which gives the statement and branch ranges its coverage is measured on.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// How a file's code is loaded, both in the sandbox and in an exported suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ModuleKind {
    /// A plain script: top-level declarations are globals shared by every script file.
    Script,
    /// A CommonJS module (`module.exports`, `exports.X`, `require`).
    CommonJs,
    /// An ECMAScript module (`import`/`export`).
    EsModule,
}

impl ModuleKind {
    /// A short lower-case name, as shown to users.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ModuleKind::Script => "script",
            ModuleKind::CommonJs => "commonjs",
            ModuleKind::EsModule => "module",
        }
    }
}

/// Index of a class in [`ProgramInfo::classes`].
pub(crate) type ClassId = usize;

/// Index of a file in [`ProgramInfo::files`].
pub(crate) type FileId = usize;

/// A source file loaded into the sandbox.
#[derive(Debug, Clone)]
pub struct FileInfo {
    /// Absolute path.
    pub path: PathBuf,
    /// The path as the user named it (or as a `require`/`import` reached it).
    pub display: String,
    /// How it is loaded.
    pub kind: ModuleKind,
    /// Whether the user named it: only classes of named files are under test by default.
    pub given: bool,
    /// The re-exports of types written without `type` in it and in the files it loads, directly or not:
    /// Node cannot link the ES modules a tool compiling one file at a time makes of them.
    pub type_reexports: Vec<TypeReexport>,
}

/// A re-export of a type written without `type` (`export { Shape } from './shapes'`, `Shape` an
/// interface there): `tsc`, seeing every file, drops it; tsx, esbuild, swc and Node's type stripping keep
/// it, and the ES module they make asks `./shapes` for an export it does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeReexport {
    /// The file, as the user named it (or as an import reached it).
    pub file: String,
    /// The 1-based line of the re-export in the file's own text.
    pub line: usize,
    /// The name exported (`default` for `export default Shape`).
    pub name: String,
}

/// Whether `path` is a TypeScript source (`.ts`, `.mts`, `.cts`; not a declaration file).
pub fn is_typescript(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let declaration = [".d.ts", ".d.mts", ".d.cts"].iter().any(|ext| name.ends_with(ext));
    !declaration && path.extension().is_some_and(|e| e == "ts" || e == "mts" || e == "cts")
}

/// How generated code reaches a class after the files are loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// An expression in the scripts' global scope, e.g. `LinkedList` or `Geo.Shapes.Rect`.
    Script {
        /// The expression.
        expression: String,
    },
    /// `module.exports` of a CommonJS file, then a property path (empty: the exports object itself).
    CommonJs {
        /// The file.
        file: FileId,
        /// Properties below `module.exports`.
        path: Vec<String>,
    },
    /// An export of an ES module, then a property path for namespace objects.
    EsModule {
        /// The file.
        file: FileId,
        /// `default` or a named export.
        export: String,
        /// Properties below the export.
        path: Vec<String>,
    },
}

/// Where a function's coverage is counted: its probes in the instrumented code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionRef {
    /// The file that defines it.
    pub file: FileId,
    /// 1-based line of the definition.
    pub line: u32,
    /// The name it is declared by (its declaration's, or the variable or property it is assigned to):
    /// a function a module exports under another name (`schnorr.sign`, bound to `signSchnorr`) is
    /// declared by this one.
    pub name: Option<String>,
    /// Global statement ids of the function, nested functions included.
    pub statements: Range<u32>,
    /// Global branch ids of the function, nested functions included.
    pub branches: Range<u32>,
}

/// Where a method was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// On the class's own prototype (or in its `class` body).
    Prototype,
    /// Assigned to `this` by the constructor.
    Constructor,
    /// On a prototype further up the chain.
    Inherited,
}

/// The name a class's constructor goes by where functions of a class are named: the records of its
/// parameters, the goal of a constructor under test (see `session/setup.rs`), the mutation analysis's
/// requests. No method is named so: `constructor` on a prototype is the class itself.
pub(crate) const CONSTRUCTOR: &str = "constructor";

/// A method of a class.
#[derive(Debug, Clone)]
pub struct MethodInfo {
    /// Property name.
    pub name: String,
    /// Parameter names (from the source; `arg0`.. when it cannot be read).
    pub params: Vec<String>,
    /// The instrumented function, when it could be located (not for native or bound functions).
    pub function: Option<FunctionRef>,
    /// Where it was found.
    pub origin: Origin,
    /// The method it is another name of (the same function object), if any.
    pub alias_of: Option<String>,
    /// Whether a call of it returned a promise while testing: tests await its calls.
    pub asynchronous: bool,
    /// Whether a call of a function one of its calls returned (see [`crate::model::test::CALL_ITSELF`])
    /// gave a promise while testing: tests await those calls, as the sandbox did.
    pub returned_asynchronous: bool,
    /// Whether a test awaiting a call of it stalled: its promise was pending with no job or timer left
    /// to settle it (`once(name)` waiting for an event). Tests then sometimes defer its calls (see
    /// [`crate::model::test::Statement::Call`]), so that later calls can settle it.
    pub stalls: bool,
    /// Index of the first parameter that calls may leave out, with every one after it: the function
    /// reads `arguments`, or those parameters have default values or are compared with `undefined`
    /// (see `analysis::arity`).
    pub optional_from: Option<usize>,
    /// Whether it reads `arguments`, so that calls with more arguments than parameters matter.
    pub variadic: bool,
}

impl MethodInfo {
    /// A method known by its name and parameters alone: no function located in the code, not an alias,
    /// synchronous, every parameter required.
    pub fn bare(name: &str, params: Vec<String>, origin: Origin) -> MethodInfo {
        MethodInfo {
            name: name.into(),
            params,
            function: None,
            origin,
            alias_of: None,
            asynchronous: false,
            returned_asynchronous: false,
            stalls: false,
            optional_from: None,
            variadic: false,
        }
    }
}

/// A unit of state under test: a class (a constructor function, ES5 or `class`, with methods), or a
/// module of functions ([`ClassInfo::functions`]): a unit with no constructor, whose methods are the
/// functions a module (or a namespace object) exports, called without a receiver.
#[derive(Debug, Clone)]
pub struct ClassInfo {
    /// The name users know it by, namespace included: `Geo.Point`.
    pub name: String,
    /// A unique JavaScript identifier that tests use for it: `Point`.
    pub alias: String,
    /// The file whose code defines or exports it.
    pub file: FileId,
    /// How tests reach it.
    pub access: Access,
    /// The class it extends, when that class is known too.
    pub superclass: Option<ClassId>,
    /// The constructor's parameters and code.
    pub constructor: MethodInfo,
    /// Every method callable on an instance: own first, then inherited.
    pub methods: Vec<MethodInfo>,
    /// Data properties of an instance and accessor properties of its prototypes.
    pub fields: Vec<String>,
    /// Whether its methods are tested (otherwise it only serves as a parameter type).
    pub under_test: bool,
    /// Set for a class the module never exports, whose instances an exported function makes
    /// (`createTree(compare)`), or for the plain objects of closures a function makes ([`Factory::plain`]):
    /// [`ClassInfo::access`] then reaches that function, tests call it instead of `new`, and
    /// [`ClassInfo::constructor`] holds its parameters.
    pub factory: Option<Factory>,
    /// Set for a module of functions: where tests reach each of its methods, which are plain functions
    /// called without a receiver (`parse(text)`). Such a unit has no constructor, no fields and no
    /// instances: a test's variable of it stands for the module itself, made by no statement of the
    /// exported suite, which binds the functions instead (see [`ClassInfo::function`]).
    pub functions: Option<Vec<ModuleFunction>>,
    /// Set for the module of functions that holds the static methods of a class (named `Point (static)`):
    /// that class, on which tests call them (`Point.parse(text)`), and which a suite binds instead of the
    /// functions.
    pub statics_of: Option<ClassId>,
    /// For an abstract base (a class whose constructor refuses direct use, by `new.target` or "abstract"
    /// errors, or whose methods use members only its subclasses define): the concrete subclasses its
    /// methods are tested on, the preferred first; tests build one of them wherever they need the base.
    pub concrete: Vec<ClassId>,
    /// The members its TypeScript declarations mark `private` or `protected` (in a `.ts` source or the
    /// `.d.ts` a JavaScript file ships, along its bases): private like `_x` names ([`ClassInfo::is_private`]).
    pub declared_private: Vec<String>,
}

/// Whether a member is private by convention: named with a leading underscore (`_root`, `_size`), or a
/// `#private` name (never described, but never asserted either). Dunder names of the language
/// (`__proto__`) are not members of the class. A getter's inspector name (`@_size`) counts as its member.
pub(crate) fn private_member(name: &str) -> bool {
    let name = name.strip_prefix('@').unwrap_or(name);
    name.starts_with('#') || (name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__")))
}

/// A function of a module of functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleFunction {
    /// The method it is among the unit's methods: the name the module exports it under.
    pub method: String,
    /// The JavaScript identifier tests call it by (unique among aliases): `parse`.
    pub alias: String,
    /// How tests reach it.
    pub access: Access,
    /// For a static member: whether it is a getter or a data field, read rather than called
    /// (`Point.ORIGIN`); such a member is no method under test, only a way to make an instance.
    pub property: bool,
    /// For a static member: whether its calls (or its value) were seen, or are declared, to make
    /// instances of its class: another way to make one than the constructor.
    pub makes: bool,
}

/// The exported function that makes a class's instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factory {
    /// The JavaScript identifier tests call it by (unique among aliases and factories): `createTree`.
    pub alias: String,
    /// Which of discovery's argument lists made a first instance; the sandbox makes one the same way to
    /// learn the prototype of what the factory returns.
    pub sample: usize,
    /// Whether it makes plain objects of closures rather than instances of a class: the unit is then what
    /// it makes (`createGraph()`'s graph), whose methods are the object's function members, and no
    /// value is told to be one by its prototype.
    pub plain: bool,
}

impl ClassInfo {
    /// The identifier tests make instances with, and under which a suite binds what [`ClassInfo::access`]
    /// reaches: the factory's for a class made by one, else the class's alias.
    pub(crate) fn binding(&self) -> &str {
        self.factory.as_ref().map_or(&self.alias, |f| &f.alias)
    }

    /// The expression that makes an instance from `arguments` (their text, comma-separated):
    /// `new Tree(a, b)`, or `createTree(a, b)` for a class made by a factory.
    pub(crate) fn making(&self, arguments: &str) -> String {
        match &self.factory {
            Some(factory) => format!("{}({arguments})", factory.alias),
            None => format!("new {}({arguments})", self.alias),
        }
    }

    /// Whether this unit is a module of functions rather than a class.
    pub(crate) fn is_module(&self) -> bool {
        self.functions.is_some()
    }

    /// Whether this unit is a class its tests construct with `new`: no factory's product, module of
    /// functions or class's statics, so that its binding in a suite is the class itself.
    pub(crate) fn is_class(&self) -> bool {
        self.factory.is_none() && self.functions.is_none() && self.statics_of.is_none()
    }

    /// The function of a module of functions that is its method `method`.
    pub(crate) fn function(&self, method: &str) -> Option<&ModuleFunction> {
        self.functions.as_ref()?.iter().find(|f| f.method == method)
    }

    /// The methods this class itself defines: the candidates for methods under test.
    pub(crate) fn own_methods(&self) -> impl Iterator<Item = &MethodInfo> {
        self.methods.iter().filter(|m| m.origin != Origin::Inherited)
    }

    /// Whether `member` (a field, a method, or an inspector's `@getter`) is private: by convention
    /// ([`private_member`]) or declared so. A refactoring may rename it without changing behaviour, so
    /// suites neither call nor assert it where the class offers anything public.
    pub(crate) fn is_private(&self, member: &str) -> bool {
        let bare = member.strip_prefix('@').unwrap_or(member);
        private_member(bare) || self.declared_private.iter().any(|p| p == bare)
    }

    /// The methods a test calls to reach a state: the public ones, or all of them when none is public
    /// (then the class has nothing else to be tested by).
    /// Each with its place among [`ClassInfo::methods`], in that order, without allocating: a draw of a
    /// method to call walks them for every call it adds, and a library's class has hundreds.
    pub(crate) fn methods_to_call(&self) -> impl Iterator<Item = (usize, &MethodInfo)> + Clone {
        let all = self.methods.iter().all(|m| self.is_private(&m.name));
        self.methods.iter().enumerate().filter(move |(_, m)| all || !self.is_private(&m.name))
    }

    /// The methods a test calls to look at an instance it has just built: the public ones that take no
    /// argument (`toString`, `valueOf`, `size`), else every public one. What they answer shows what the
    /// constructor made of its arguments, asserted without reading private state.
    pub(crate) fn observers(&self) -> Vec<&str> {
        let methods: Vec<&MethodInfo> = self.methods_to_call().map(|(_, m)| m).collect();
        let quiet: Vec<&str> = methods.iter().filter(|m| m.params.is_empty()).map(|m| m.name.as_str()).collect();
        if quiet.is_empty() { methods.iter().map(|m| m.name.as_str()).collect() } else { quiet }
    }

    /// Looks a method up by name.
    pub(crate) fn method(&self, name: &str) -> Option<&MethodInfo> {
        self.methods.iter().find(|m| m.name == name)
    }

    /// Whether an instance answers to `member` (a method, a field or an accessor).
    pub(crate) fn has_member(&self, member: &str) -> bool {
        self.methods.iter().any(|m| m.name == member) || self.fields.iter().any(|f| f == member)
    }

    /// Number of members an instance has.
    pub(crate) fn member_count(&self) -> usize {
        self.methods.len() + self.fields.len()
    }
}

#[cfg(test)]
impl ClassInfo {
    /// A class of a script (`name` reached as a global), under test, with an argument-less constructor and
    /// nothing else: what unit tests start from, setting the members they need with struct update syntax.
    pub(crate) fn script(name: &str) -> ClassInfo {
        ClassInfo {
            name: name.into(),
            alias: name.into(),
            file: 0,
            access: Access::Script { expression: name.into() },
            superclass: None,
            constructor: MethodInfo::bare("constructor", Vec::new(), Origin::Prototype),
            methods: Vec::new(),
            fields: Vec::new(),
            under_test: true,
            factory: None,
            functions: None,
            statics_of: None,
            concrete: Vec::new(),
            declared_private: Vec::new(),
        }
    }
}

/// Everything the analyser knows about the code under test.
#[derive(Debug, Clone, Default)]
pub struct ProgramInfo {
    /// Loaded files, the user's first, in load order.
    pub files: Vec<FileInfo>,
    /// Classes found, in discovery order.
    pub classes: Vec<ClassInfo>,
    /// The globals Node has and the sandbox lacks that the code read while it loaded: it took the path
    /// it takes without them, which exported suites make it take under Node too.
    pub absent_at_load: Vec<String>,
}

impl ProgramInfo {
    /// Looks a class up by its name or alias.
    pub fn class_named(&self, name: &str) -> Option<ClassId> {
        self.named(name, |_| true)
    }

    /// The class a declared type names (`item: Item`), by name then alias: a module of functions, even
    /// one imported as a namespace of the type's name (`import * as Maybe`), is no type of a value.
    pub(crate) fn type_named(&self, name: &str) -> Option<ClassId> {
        self.named(name, |c| !c.is_module())
    }

    /// The first class `keep` takes named `name`, else the first it takes aliased so.
    fn named(&self, name: &str, keep: impl Fn(&ClassInfo) -> bool) -> Option<ClassId> {
        let find = |by: fn(&ClassInfo) -> &str| self.classes.iter().position(|c| keep(c) && by(c) == name);
        find(|c| &c.name).or_else(|| find(|c| &c.alias))
    }

    /// Whether `sub` is `class` or extends it, directly or not.
    pub(crate) fn is_subclass(&self, sub: ClassId, class: ClassId) -> bool {
        let mut current = Some(sub);
        while let Some(c) = current {
            if c == class {
                return true;
            }
            current = self.classes[c].superclass;
        }
        false
    }
}
