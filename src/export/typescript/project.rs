//! What a TypeScript project's `tsconfig.json` asks of the runners a suite runs under: the decorators its
//! code is written with and the `paths` (and `baseUrl`) its imports go through. tsx and tsc read the
//! `tsconfig.json` themselves; jest reads none, so its configuration says it all ([`jest_config`]); vitest
//! reads `paths` when told to, and needs the options inline when the chain of `extends` is broken
//! ([`vitest_notes`]).

use std::path::PathBuf;

/// The options of the project's `tsconfig.json` that its code needs to run, as plain data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Project {
    /// `experimentalDecorators`: TypeScript's legacy decorators rather than the standard ones.
    pub legacy_decorators: bool,
    /// `emitDecoratorMetadata`: legacy decorators also record the design types.
    pub decorator_metadata: bool,
    /// `paths`, in the order written: a pattern (at most one `*`) and the absolute locations it maps to.
    pub paths: Vec<(String, Vec<PathBuf>)>,
    /// `baseUrl`, absolute: bare specifiers are also looked up under it.
    pub base_url: Option<PathBuf>,
    /// `useDefineForClassFields`, or its default (see `analysis::tsconfig::TsConfig`).
    pub define_class_fields: bool,
    /// Whether the chain of `extends` names a configuration that is not there (a package published with
    /// a `tsconfig.json` extending its repository's base, which it does not ship).
    pub broken_chain: bool,
}

/// The jest configuration, as JSON on one line (for `jest --config`), that runs a suite of `project`:
/// `@swc/jest` strips types and compiles ES modules to CommonJS (which jest runs without experimental
/// flags), with the project's decorators (the legacy ones, or the standard 2022-03 ones that TypeScript 5
/// implements, whose transform also lowers `accessor` fields); `.mts` and `.cts` files resolve; a relative
/// `.js` specifier (the `NodeNext` convention) also finds the `.ts` file it names; and `paths` and
/// `baseUrl` become a `moduleNameMapper` and `modulePaths`.
pub(crate) fn jest_config(project: &Project) -> String {
    let decorators = if project.legacy_decorators {
        format!(r#"{{"legacyDecorator":true,"decoratorMetadata":{}}}"#, project.decorator_metadata)
    } else {
        r#"{"decoratorVersion":"2022-03"}"#.to_string()
    };
    let mut mapper = vec![(r"^(\.{1,2}/.*)\.[mc]?js$".to_string(), json(&["$1".to_string()]))];
    for (pattern, locations) in &project.paths {
        let (regex, star) = match pattern.split_once('*') {
            Some((before, after)) => (format!("^{}(.*){}$", escaped(before), escaped(after)), true),
            None => (format!("^{}$", escaped(pattern)), false),
        };
        let targets: Vec<String> = locations
            .iter()
            .map(|l| {
                let l = l.display().to_string();
                if star { l.replacen('*', "$1", 1) } else { l }
            })
            .collect();
        mapper.push((regex, json(&targets)));
    }
    let mapper: Vec<String> = mapper.iter().map(|(k, v)| format!("{}:{v}", string(k))).collect();
    let module_paths = project
        .base_url
        .as_ref()
        .map(|base| format!(r#","modulePaths":[{}]"#, string(&base.display().to_string())))
        .unwrap_or_default();
    format!(
        r#"{{"transform":{{"\\.[mc]?ts$":["@swc/jest",{{"jsc":{{"parser":{{"syntax":"typescript","decorators":true}},"transform":{decorators}}}}}]}},"moduleFileExtensions":["ts","mts","cts","js","mjs","cjs","json"],"moduleNameMapper":{{{}}}{module_paths}}}"#,
        mapper.join(",")
    )
}

/// The line of a vitest suite's header that gives the `oxc` option its configuration needs, the JSON
/// after it (see [`vitest_notes`]).
const VITEST_OXC_NOTE: &str = "run with this `oxc` option in the vitest configuration: ";

/// What a vitest configuration needs for a suite of `project`, as notes for the suite's header: vitest
/// resolves no `paths` unless told to; and vite's transform reads the whole chain of `extends` of the
/// code's `tsconfig.json` and stops at a configuration that is not there (TSCONFIG_ERROR), where
/// TypeScript, tsx and Flycatcher go on with the options they could read: the suite would fail on the code
/// it came from. Given the options inline (`oxc.tsconfig`), vite reads no file: those it needs to run the
/// code, as Flycatcher ran it.
pub(crate) fn vitest_notes(project: &Project) -> Vec<String> {
    let mut notes = Vec::new();
    if !project.paths.is_empty() || project.base_url.is_some() {
        notes.push(
            "The code imports through tsconfig.json `paths`: run with `resolve: { tsconfigPaths: true }` in the \
             vitest configuration."
                .to_string(),
        );
    }
    if project.broken_chain {
        let options = serde_json::json!({ "tsconfig": { "compilerOptions": {
            "experimentalDecorators": project.legacy_decorators,
            "emitDecoratorMetadata": project.decorator_metadata,
            "useDefineForClassFields": project.define_class_fields,
        } } });
        notes.push(format!(
            "The code's tsconfig.json extends a configuration that is not there, which stops vite's transform: \
             {VITEST_OXC_NOTE}{options}"
        ));
    }
    notes
}

/// A mapper's target: one location as a string, several as an array (tried in order).
fn json(targets: &[String]) -> String {
    match targets {
        [one] => string(one),
        many => format!("[{}]", many.iter().map(|t| string(t)).collect::<Vec<_>>().join(",")),
    }
}

fn string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// `text` matched literally in a regular expression.
fn escaped(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jest_configuration_follows_the_decorators_and_paths_of_the_project() {
        let standard = jest_config(&Project::default());
        let parsed: serde_json::Value = serde_json::from_str(&standard).unwrap();
        assert_eq!(parsed["transform"]["\\.[mc]?ts$"][1]["jsc"]["transform"]["decoratorVersion"], "2022-03");
        assert_eq!(parsed["moduleNameMapper"]["^(\\.{1,2}/.*)\\.[mc]?js$"], "$1");
        assert!(parsed.get("modulePaths").is_none());

        let project = Project {
            legacy_decorators: true,
            decorator_metadata: true,
            paths: vec![
                ("@lib/*".into(), vec!["/p/src/lib/*".into(), "/p/vendor/*".into()]),
                ("config".into(), vec!["/p/config.ts".into()]),
            ],
            base_url: Some("/p".into()),
            ..Project::default()
        };
        let parsed: serde_json::Value = serde_json::from_str(&jest_config(&project)).unwrap();
        let transform = &parsed["transform"]["\\.[mc]?ts$"][1]["jsc"]["transform"];
        assert_eq!(transform, &serde_json::json!({ "legacyDecorator": true, "decoratorMetadata": true }));
        let mapper = &parsed["moduleNameMapper"];
        assert_eq!(mapper["^@lib/(.*)$"], serde_json::json!(["/p/src/lib/$1", "/p/vendor/$1"]));
        assert_eq!(mapper["^config$"], "/p/config.ts");
        assert_eq!(parsed["modulePaths"], serde_json::json!(["/p"]));
        assert_eq!(vitest_notes(&project).len(), 1);
        assert!(vitest_notes(&Project::default()).is_empty());
    }

    #[test]
    fn a_broken_chain_of_extends_gives_vitest_the_options_inline() {
        let project =
            Project { legacy_decorators: true, define_class_fields: true, broken_chain: true, ..Project::default() };
        let notes = vitest_notes(&project);
        let [note] = notes.as_slice() else { panic!("{notes:?}") };
        let (_, json) = note.split_once(VITEST_OXC_NOTE).unwrap();
        let options: serde_json::Value = serde_json::from_str(json).unwrap();
        let compiler = &options["tsconfig"]["compilerOptions"];
        assert_eq!(compiler["experimentalDecorators"], true);
        assert_eq!(compiler["emitDecoratorMetadata"], false);
        assert_eq!(compiler["useDefineForClassFields"], true);
    }
}
