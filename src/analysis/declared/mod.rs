//! Declared types: what TypeScript says the parameters of a class's constructor and methods are, read
//! from a `.ts` source itself or from the declarations a JavaScript file ships (see `locate.rs`). The
//! file is parsed here, with TypeScript's syntax, apart from the parse that loads the code: a second
//! parse is cheap and keeps the two independent.
//!
//! Files: `types.rs` (the [`DeclaredType`] language), `scope.rs` (what a file declares, by name),
//! `resolve.rs` (names looked up and expanded, across the files imports name), `builtins.rs` (the standard
//! library's types it builds), `classes.rs` (a class's
//! signatures, along `extends`, overloads merged), `constructed.rs` (a class declared as a variable whose
//! type constructs it), `locate.rs` (where a file's declarations are), `made.rs` (the methods of what a
//! factory makes, as its declared return type says).

mod builtins;
mod classes;
mod constructed;
mod functions;
mod locate;
mod made;
mod resolve;
mod scope;
mod types;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use crate::model::program::{Access, ClassInfo, FileId, FunctionRef, ProgramInfo};

pub(crate) use classes::{DeclaredEnum, DeclaredMember};
pub(crate) use locate::declarations_of;
pub(crate) use types::{DeclaredParam, DeclaredType, Literal, Member, Orders, Signature};

use resolve::{Files, Place};

/// The declarations read for a program: each file once, whatever asks for it.
#[derive(Default)]
pub(crate) struct Declarations {
    files: Files,
}

impl Declarations {
    /// The declared signature of `function` (`constructor` or a method name; a static method's when
    /// `statics`) of the class known by one of `names` (tried in order) in the declarations file `file`,
    /// inherited from a base class when the class does not declare it, with what a suite calling the
    /// member needs to know of it. A file declaring no class by the names may declare a variable whose
    /// type constructs it (see `constructed.rs`).
    pub(crate) fn member(
        &mut self,
        file: &Path,
        names: &[&str],
        function: &str,
        statics: bool,
    ) -> Option<DeclaredMember> {
        let top = Place { file: self.files.load(file)?, path: Vec::new() };
        self.files.fresh_budget();
        if let Some(found) = classes::find(&mut self.files, &top, names) {
            return classes::member(&mut self.files, found, function, statics);
        }
        let found = constructed::find(&mut self.files, &top, names)?;
        constructed::member(&mut self.files, &found, function, statics)
    }

    /// What the declarations say of unit `info`'s `function` (`constructor` or a method's name): for a
    /// module of functions, the function the module exports under the method's path, looked up in the
    /// declarations of the unit's file (by the path), then of the file defining it (by its own name, then
    /// its last name); for
    /// the constructor of what a factory makes, the factory, looked up the same way (a test builds one by
    /// calling the factory); for a class, its member, as [`Declarations::member`] finds it by [`lookup_of`],
    /// and for what a factory makes that no class declares, the member of the factory's return type.
    pub(crate) fn member_of(
        &mut self,
        program: &ProgramInfo,
        info: &ClassInfo,
        function: &str,
    ) -> Option<DeclaredMember> {
        let made = function == "constructor" && info.factory.is_some() && info.statics_of.is_none();
        let (access, defining) = match info.functions.as_ref().filter(|_| info.statics_of.is_none()) {
            _ if made => (&info.access, info.constructor.function.as_ref()),
            Some(exported) => (
                &exported.iter().find(|f| f.method == function)?.access,
                info.methods.iter().find(|m| m.name == function).and_then(|m| m.function.as_ref()),
            ),
            None => {
                let (files, names) = lookup_of(program, info);
                let statics = info.statics_of.is_some();
                let member = files.iter().find_map(|file| self.member(file, &names, function, statics));
                if member.is_some() || info.factory.is_none() || info.statics_of.is_some() {
                    return member;
                }
                let (path, defining) = (access_path(&info.access), info.constructor.function.as_ref());
                return tries(program, info, defining, &path)
                    .find_map(|(declarations, path)| self.made_member(&declarations, &path, function));
            }
        };
        let path = access_path(access);
        tries(program, info, defining, &path).find_map(|(declarations, path)| self.function(&declarations, &path))
    }

    /// The declared signature of method `method` of what the function the declarations file `file`
    /// exports under `path` returns (see `made.rs`).
    pub(crate) fn made_member(&mut self, file: &Path, path: &[&str], method: &str) -> Option<DeclaredMember> {
        let top = Place { file: self.files.load(file)?, path: Vec::new() };
        self.files.fresh_budget();
        made::made_member(&mut self.files, &top, path, method)
    }

    /// The declared signature of the function the declarations file `file` exports under `path` (names
    /// of namespaces, then the function's; empty for the module itself).
    pub(crate) fn function(&mut self, file: &Path, path: &[&str]) -> Option<DeclaredMember> {
        let top = Place { file: self.files.load(file)?, path: Vec::new() };
        self.files.fresh_budget();
        functions::find(&mut self.files, &top, path)
    }

    /// Whether the class known by one of `names` in `file` declares its static method `function` to return
    /// an instance of itself.
    pub(crate) fn static_factory(&mut self, file: &Path, names: &[&str], function: &str) -> bool {
        let Some(loaded) = self.files.load(file) else { return false };
        let top = Place { file: loaded, path: Vec::new() };
        self.files.fresh_budget();
        classes::find(&mut self.files, &top, names).is_some_and(|found| classes::static_makes_own(&found, function))
    }

    /// The instance members (static ones when `statics`) the class known by one of `names` in `file` (and
    /// its bases) declares `private` or `protected`; empty when the file does not declare the class.
    pub(crate) fn hidden_members(&mut self, file: &Path, names: &[&str], statics: bool) -> Vec<String> {
        let Some(loaded) = self.files.load(file) else { return Vec::new() };
        let top = Place { file: loaded, path: Vec::new() };
        self.files.fresh_budget();
        classes::find(&mut self.files, &top, names)
            .map_or_else(Vec::new, |found| classes::hidden_members(&mut self.files, found, statics))
    }

    /// The values of the enum members that the types read so far stood for: a literal type with one
    /// of these values may be an enum member, which TypeScript accepts only written as the member.
    pub(crate) fn enum_values(&self) -> &[Literal] {
        &self.files.enum_values
    }

    /// Why declaration files could not be read, each naming the file and the place.
    pub(crate) fn errors(&self) -> &[String] {
        &self.files.errors
    }
}

/// The names `access` reads below its file: the export, then the properties below it.
fn access_path(access: &Access) -> Vec<&str> {
    match access {
        Access::CommonJs { path, .. } => path.iter().map(String::as_str).collect(),
        Access::EsModule { export, path, .. } => std::iter::once(export).chain(path).map(String::as_str).collect(),
        Access::Script { expression } => expression.split('.').collect(),
    }
}

/// Where a function of unit `info` reached by `path` is looked up: the declarations of the unit's file by
/// the whole path (what the module exports there is what callers see: a binding's annotation may narrow
/// the function it holds), then those of the file defining it (`defining`) by the name it is declared by
/// there, then by its last name (a `.d.ts` declares it by the name it is exported as). Its own name comes
/// before its last name: the last name may be another function's in the defining file (`schnorr.sign`,
/// bound to `signSchnorr` beside an ECDSA `sign`).
fn tries<'a>(
    program: &'a ProgramInfo,
    info: &'a ClassInfo,
    defining: Option<&'a FunctionRef>,
    path: &[&'a str],
) -> impl Iterator<Item = (PathBuf, Vec<&'a str>)> + 'a {
    let own = defining.and_then(|f| Some((f.file, f.name.as_deref().filter(|n| path.last() != Some(n))?)));
    // The export first: `export const f: <T>(a: T) => void = general` declares what callers see.
    [(info.file, path.to_vec())]
        .into_iter()
        .chain(own.map(|(file, name)| (file, vec![name])))
        .chain(defining.map(|f| (f.file, path.last().copied().into_iter().collect())))
        .filter_map(|(file, path)| Some((declarations_of(&program.files[file].path)?, path)))
}

/// Where the declarations of class `info` are looked for (the file defining it, then the one exporting
/// it, each its `.d.ts` or itself when TypeScript) and the names it may go by there (its own, its
/// export alias, and `default` when it is the file's default export): how the engine and the suites find
/// the same declarations. A class the declarations do not name is not declared: another class's
/// signatures (the default export's) would be taken for its own.
pub(crate) fn lookup_of<'a>(program: &'a ProgramInfo, info: &'a ClassInfo) -> (Vec<PathBuf>, Vec<&'a str>) {
    // The static members of a class are declared by the class.
    let info = info.statics_of.map_or(info, |of| &program.classes[of]);
    let defining = info.constructor.function.as_ref().map(|f| f.file);
    let exporting = match &info.access {
        Access::CommonJs { file, .. } | Access::EsModule { file, .. } => Some(*file),
        Access::Script { .. } => None,
    };
    let mut files: Vec<FileId> = Vec::new();
    for file in defining.into_iter().chain([info.file]).chain(exporting) {
        if !files.contains(&file) {
            files.push(file);
        }
    }
    let files = files.into_iter().filter_map(|f| declarations_of(&program.files[f].path)).collect();
    let short = info.name.rsplit('.').next().unwrap_or(&info.name);
    let mut names = vec![short, info.alias.as_str()];
    let default = match &info.access {
        Access::CommonJs { path, .. } => path.is_empty() || path == &["default"],
        Access::EsModule { export, path, .. } => export == "default" && path.is_empty(),
        Access::Script { .. } => false,
    };
    if default {
        names.push("default");
    }
    (files, names)
}
