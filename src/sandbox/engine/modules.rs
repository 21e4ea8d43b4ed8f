//! ES modules: resolving an import to a file of the program by its table of dependencies, and loading
//! it (or, in record mode, a view of it that exports the recorder's constructors; for a CommonJS file or a
//! built-in module, a view of its `module.exports`).

use std::collections::HashMap;
use std::sync::Arc;

use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::{Ctx, Module};

use super::Sources;
use super::script::declare_module;
use crate::js::{NAMESPACES, PRIMORDIALS, RECORDER, REQUIRE, VIEW_EXPORT, VIEW_MODULE};
use crate::model::program::ModuleKind;

/// Suffix of the recording view of an ES module: a module that re-exports it with every export that is a
/// class replaced by the recorder's constructor proxy (an ES module's own bindings cannot be replaced).
pub(super) const RECORDING_VIEW: &str = "?flycatcher-record";

/// Suffix of the view of a CommonJS module that an importer with TypeScript's CommonJS interop gets (see
/// `SourceCode::interop`): its default export is the module's `default` when it is marked `__esModule`.
pub(super) const INTEROP_VIEW: &str = "?flycatcher-interop";

/// Resolves `import` specifiers through the table built from the sources (never the file system).
pub(super) struct TableResolver {
    /// (importer engine name, specifier) → imported engine name.
    pub(super) table: HashMap<(String, String), String>,
    pub(super) known: Vec<String>,
    /// Record mode: the importer that gets recording views, and the modules that have one.
    pub(super) recorded_importer: Option<String>,
    pub(super) es_modules: std::collections::HashSet<String>,
    /// Importers with TypeScript's CommonJS interop, and the CommonJS modules they get its view of.
    pub(super) interop_importers: std::collections::HashSet<String>,
    pub(super) commonjs: std::collections::HashSet<String>,
}

impl Resolver for TableResolver {
    fn resolve<'js>(
        &mut self,
        _: &Ctx<'js>,
        base: &str,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        if name.ends_with(RECORDING_VIEW) || name.ends_with(INTEROP_VIEW) {
            return Ok(name.to_string());
        }
        let target = if self.known.iter().any(|k| k == name) {
            name.to_string()
        } else {
            self.table.get(&(base.to_string(), name.to_string())).cloned().ok_or_else(|| {
                rquickjs::Error::new_resolving_message(base, name, "not a file of the program under test")
            })?
        };
        if self.recorded_importer.as_deref() == Some(base) && self.es_modules.contains(&target) {
            return Ok(format!("{target}{RECORDING_VIEW}"));
        }
        if self.interop_importers.contains(base) && self.commonjs.contains(&target) {
            return Ok(format!("{target}{INTEROP_VIEW}"));
        }
        Ok(target)
    }
}

/// Hands the instrumented code of ES modules to QuickJS.
pub(super) struct TableLoader {
    /// The program: its modules' code, and the cache of their bytecode.
    pub(super) sources: Arc<Sources>,
    /// File index by engine name.
    pub(super) index: HashMap<String, usize>,
    /// Engine name → the names ES modules import from that file by name.
    pub(super) imported_names: HashMap<String, Vec<String>>,
}

impl Loader for TableLoader {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<Module<'js>> {
        if let Some(original) = name.strip_suffix(RECORDING_VIEW) {
            // The original is loaded already (it is a file of the program): its exports are known.
            let keys: String = ctx.eval(format!(
                "{PRIMORDIALS}.json({PRIMORDIALS}.keys({NAMESPACES}[{}] || {{}}))",
                self.index.get(original).copied().unwrap_or(usize::MAX)
            ))?;
            let keys: Vec<String> = serde_json::from_str(&keys).unwrap_or_default();
            let quoted = serde_json::Value::String(original.to_string());
            let mut view = format!("import * as {VIEW_MODULE} from {quoted};\nexport * from {quoted};\n");
            for (n, key) in keys.into_iter().enumerate() {
                let key_text = serde_json::Value::String(key.clone());
                let value = format!("globalThis.{RECORDER}.exported({VIEW_MODULE}[{key_text}])");
                if key == "default" {
                    view.push_str(&format!("export default {value};\n"));
                } else {
                    view.push_str(&format!(
                        "const {VIEW_EXPORT}{n} = {value};\nexport {{ {VIEW_EXPORT}{n} as {key_text} }};\n"
                    ));
                }
            }
            return Module::declare(ctx.clone(), name, view);
        }
        let (original, interop) = match name.strip_suffix(INTEROP_VIEW) {
            Some(original) => (original, true),
            None => (name, false),
        };
        let index =
            self.index.get(original).ok_or_else(|| rquickjs::Error::new_loading_message(name, "unknown module"))?;
        let file = &self.sources.files[*index];
        if file.kind == ModuleKind::EsModule {
            return declare_module(ctx, &self.sources.scripts, name, &file.code);
        }
        let imported = self.imported_names.get(original).map(Vec::as_slice).unwrap_or_default();
        Module::declare(ctx.clone(), name, commonjs_view(ctx, *index, imported, interop)?)
    }
}

/// An ES module view of CommonJS file `index`, as Node gives `import` of a CommonJS file (or of a built-in
/// module): `module.exports` as the default export, and each of its properties named like an identifier
/// as a named export, read once it has run, with the names `imported` from it besides (a stand-in's
/// members exist only when asked for). With `interop`, the default export is the module's `default` when
/// it is marked `__esModule`, as TypeScript's CommonJS output reads it.
fn commonjs_view(ctx: &Ctx, index: usize, imported: &[String], interop: bool) -> rquickjs::Result<String> {
    let keys: String = ctx.eval(format!(
        "JSON.stringify(Object.keys(Object({REQUIRE}({index}))).filter((k) => /^[A-Za-z_$][\\w$]*$/.test(k)))"
    ))?;
    let mut keys: Vec<String> = serde_json::from_str(&keys).unwrap_or_default();
    keys.extend(imported.iter().cloned());
    keys.sort();
    keys.dedup();
    keys.retain(|k| k != "default");
    let default = if interop {
        format!("{VIEW_MODULE} && {VIEW_MODULE}.__esModule ? {VIEW_MODULE}.default : {VIEW_MODULE}")
    } else {
        VIEW_MODULE.to_string()
    };
    let mut view = format!("const {VIEW_MODULE} = globalThis.{REQUIRE}({index});\nexport default {default};\n");
    for (n, key) in keys.into_iter().enumerate() {
        let key_text = serde_json::Value::String(key).to_string();
        view.push_str(&format!(
            "const {VIEW_EXPORT}{n} = {VIEW_MODULE}[{key_text}];\nexport {{ {VIEW_EXPORT}{n} as {key_text} }};\n"
        ));
    }
    Ok(view)
}
