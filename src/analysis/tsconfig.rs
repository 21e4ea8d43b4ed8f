//! The `tsconfig.json` that governs a TypeScript file, as far as it changes what the file does when it
//! runs or what its imports name: decorators (`experimentalDecorators`, `emitDecoratorMetadata`), class
//! fields (`useDefineForClassFields`, whose default follows `target`), and `paths` with `baseUrl`. The
//! nearest `tsconfig.json` above the file is read, with the configurations it `extends` under it.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The options of one `tsconfig.json` that Flycatcher honours, merged with those it extends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TsConfig {
    /// The file read (for messages).
    pub(crate) file: PathBuf,
    /// `experimentalDecorators`: decorators are TypeScript's legacy ones rather than the standard ones.
    pub(crate) experimental_decorators: bool,
    /// `emitDecoratorMetadata`: legacy decorators also record the design types.
    pub(crate) emit_decorator_metadata: bool,
    /// `useDefineForClassFields`, or its default: true for a `target` of ES2022 or later (and when no
    /// target is set, as `tsx` and Node's type stripping run the code), false for older targets. swc
    /// follows it where parameter properties and legacy decorators meet fields; plain fields stay
    /// JavaScript fields (defined, not assigned) either way.
    pub(crate) define_class_fields: bool,
    /// `paths`, in the order written: a pattern (at most one `*`) and the locations it maps to.
    pub(crate) paths: Vec<(String, Vec<String>)>,
    /// The folder `paths`' locations are relative to: `baseUrl` when set, else the folder of the
    /// configuration that set `paths`.
    pub(crate) paths_base: Option<PathBuf>,
    /// `baseUrl`, resolved: bare specifiers are also looked up under it.
    pub(crate) base_url: Option<PathBuf>,
    /// What the chain `extends` that is not there, as messages naming the configuration: a package is
    /// often published with a `tsconfig.json` extending its repository's base, which is not shipped.
    /// TypeScript reports it (TS5083) and goes on with the options it could read; so does Flycatcher.
    pub(crate) unread: Vec<String>,
}

/// The options as they are without any configuration file.
impl Default for TsConfig {
    fn default() -> TsConfig {
        TsConfig {
            file: PathBuf::new(),
            experimental_decorators: false,
            emit_decorator_metadata: false,
            define_class_fields: true,
            paths: Vec::new(),
            paths_base: None,
            base_url: None,
            unread: Vec::new(),
        }
    }
}

/// How deep `extends` may chain before the chain is taken for a loop.
const MAX_EXTENDS: usize = 16;

/// The configuration of the nearest `tsconfig.json` above `file`; the defaults when there is none. A
/// configuration that cannot be read or parsed is an error naming it, since the code would otherwise
/// run under options its author did not choose.
pub(crate) fn for_file(file: &Path) -> Result<TsConfig, String> {
    let Some(found) = file.ancestors().skip(1).map(|dir| dir.join("tsconfig.json")).find(|p| p.is_file()) else {
        return Ok(TsConfig::default());
    };
    let mut options = Options::default();
    read(&found, &mut options, 0)?;
    let target_is_modern = options.target.as_deref().is_none_or(|t| {
        let t = t.to_ascii_lowercase();
        t == "esnext" || t.strip_prefix("es").and_then(|y| y.parse::<u32>().ok()).is_some_and(|y| y >= 2022)
    });
    Ok(TsConfig {
        file: found,
        experimental_decorators: options.experimental_decorators.unwrap_or(false),
        emit_decorator_metadata: options.emit_decorator_metadata.unwrap_or(false),
        define_class_fields: options.use_define_for_class_fields.unwrap_or(target_is_modern),
        paths_base: options.base_url.clone().or(options.paths_dir),
        paths: options.paths.unwrap_or_default(),
        base_url: options.base_url,
        unread: options.unread,
    })
}

/// `compilerOptions` as the chain of `extends` sets them; `None` is unset.
#[derive(Default)]
struct Options {
    experimental_decorators: Option<bool>,
    emit_decorator_metadata: Option<bool>,
    use_define_for_class_fields: Option<bool>,
    target: Option<String>,
    paths: Option<Vec<(String, Vec<String>)>>,
    /// The folder of the configuration that set `paths`.
    paths_dir: Option<PathBuf>,
    base_url: Option<PathBuf>,
    unread: Vec<String>,
}

/// Reads `path` into `options`: what it extends first, then its own options over them.
fn read(path: &Path, options: &mut Options, depth: usize) -> Result<(), String> {
    if depth > MAX_EXTENDS {
        return Err(format!("{}: `extends` chains more than {MAX_EXTENDS} deep (a loop?)", path.display()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read it: {e}", path.display()))?;
    let json: Value = serde_json::from_str(&without_comments(&text)).map_err(|e| {
        format!("{}:{}:{}: not valid JSON: {e} (fix the file, or remove it)", path.display(), e.line(), e.column())
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let extends = match json.get("extends") {
        Some(Value::String(one)) => vec![one.clone()],
        Some(Value::Array(many)) => many.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    };
    for base in extends {
        match extended(dir, &base) {
            Some(base_path) => read(&base_path, options, depth + 1)?,
            None => options.unread.push(format!(
                "{}: extends '{base}', which is neither a file nor a package with a tsconfig: its options are taken \
                 as unset (decorators, class fields, paths), as TypeScript goes on without them; vite, which \
                 reads the whole chain, refuses the file unless given the options inline, as vitest suites' headers say",
                path.display()
            )),
        }
    }
    let Some(compiler) = json.get("compilerOptions") else { return Ok(()) };
    let flag = |name: &str| compiler.get(name).and_then(Value::as_bool);
    options.experimental_decorators = flag("experimentalDecorators").or(options.experimental_decorators);
    options.emit_decorator_metadata = flag("emitDecoratorMetadata").or(options.emit_decorator_metadata);
    options.use_define_for_class_fields = flag("useDefineForClassFields").or(options.use_define_for_class_fields);
    if let Some(target) = compiler.get("target").and_then(Value::as_str) {
        options.target = Some(target.to_string());
    }
    if let Some(base_url) = compiler.get("baseUrl").and_then(Value::as_str) {
        // Collecting the components drops the `.` of `"baseUrl": "."` from the paths messages show.
        options.base_url = Some(dir.join(base_url).components().collect());
    }
    if let Some(Value::Object(paths)) = compiler.get("paths") {
        let mapped = paths
            .iter()
            .map(|(pattern, targets)| {
                let targets = match targets {
                    Value::Array(all) => all.iter().filter_map(|t| t.as_str().map(str::to_string)).collect(),
                    Value::String(one) => vec![one.clone()],
                    _ => Vec::new(),
                };
                (pattern.clone(), targets)
            })
            .collect();
        options.paths = Some(mapped);
        options.paths_dir = Some(dir.to_path_buf());
    }
    Ok(())
}

/// The configuration file `extends` names from `dir`: a path (`.json` optional), or a package's
/// `tsconfig.json` (or a file in it) found in a `node_modules` folder above.
fn extended(dir: &Path, name: &str) -> Option<PathBuf> {
    let with_json = |p: PathBuf| {
        if p.is_file() {
            Some(p)
        } else {
            let json = crate::analysis::package::with_suffix(&p, ".json");
            json.is_file().then_some(json)
        }
    };
    if name.starts_with("./") || name.starts_with("../") || Path::new(name).is_absolute() {
        return with_json(dir.join(name));
    }
    dir.ancestors()
        .map(|d| d.join("node_modules").join(name))
        .find_map(|p| if p.is_dir() { Some(p.join("tsconfig.json")).filter(|t| t.is_file()) } else { with_json(p) })
}

/// JSON with comments and trailing commas, as `tsconfig.json` allows, made plain JSON: comments become
/// spaces (keeping lines and columns for messages), then a comma before `}` or `]` is dropped.
fn without_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('"', _) => i = string_end(&chars, i, &mut out),
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    out.push(' ');
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                let end = (i + 2..chars.len()).find(|&j| chars[j] == '*' && chars.get(j + 1) == Some(&'/'));
                let end = end.map_or(chars.len(), |j| j + 2);
                out.extend(chars[i..end].iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
                i = end;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    let mut plain: Vec<char> = Vec::with_capacity(out.len());
    let mut i = 0;
    while i < out.len() {
        match out[i] {
            '"' => i = string_end(&out, i, &mut plain),
            ',' if out[i + 1..].iter().find(|c| !c.is_whitespace()).is_some_and(|c| matches!(c, '}' | ']')) => {
                plain.push(' ');
                i += 1;
            }
            c => {
                plain.push(c);
                i += 1;
            }
        }
    }
    plain.into_iter().collect()
}

/// Copies the string literal starting at `chars[start]` to `out`; returns the index past it.
fn string_end(chars: &[char], start: usize, out: &mut Vec<char>) -> usize {
    let mut i = start + 1;
    while i < chars.len() && chars[i] != '"' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    let end = (i + 1).min(chars.len());
    out.extend_from_slice(&chars[start..end]);
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::package::tests::package as project;

    #[test]
    fn comments_and_trailing_commas_are_allowed() {
        let text = "{\n  // a comment\n  \"a\": \"x // not a comment\", /* b */\n  \"b\": [1, 2,],\n}";
        let json: Value = serde_json::from_str(&without_comments(text)).unwrap();
        assert_eq!(json["a"], "x // not a comment");
        assert_eq!(json["b"], serde_json::json!([1, 2]));
    }

    #[test]
    fn options_come_through_extends_and_the_target_decides_class_fields() {
        let dir = project(&[
            (
                "base/tsconfig.base.json",
                r#"{ "compilerOptions": { "experimentalDecorators": true, "baseUrl": "..", "target": "ES2020" } }"#,
            ),
            (
                "app/tsconfig.json",
                "{ \"extends\": \"../base/tsconfig.base\", // the base\n \"compilerOptions\": { \"paths\": { \"@lib/*\": [\"lib/*\"] } } }",
            ),
            ("app/src/a.ts", ""),
        ]);
        let config = for_file(&dir.path().join("app/src/a.ts")).unwrap();
        assert!(config.experimental_decorators);
        assert!(!config.define_class_fields, "ES2020 assigns fields in the constructor");
        assert_eq!(config.paths, vec![("@lib/*".to_string(), vec!["lib/*".to_string()])]);
        let base_url = std::fs::canonicalize(config.base_url.as_ref().unwrap()).unwrap();
        assert_eq!(base_url, std::fs::canonicalize(dir.path()).unwrap(), "relative to the file that set it");
        assert_eq!(config.paths_base, config.base_url);
        let none = project(&[("a.ts", "")]);
        assert_eq!(
            for_file(&none.path().join("a.ts")).unwrap().define_class_fields,
            TsConfig::default().define_class_fields
        );
    }

    #[test]
    fn a_broken_configuration_is_named() {
        let dir = project(&[("tsconfig.json", "{ \"compilerOptions\": { ]"), ("a.ts", "")]);
        let err = for_file(&dir.path().join("a.ts")).unwrap_err();
        assert!(err.contains("tsconfig.json:1:") && err.contains("not valid JSON"), "{err}");
        let looped = project(&[("tsconfig.json", r#"{ "extends": "./tsconfig.json" }"#), ("a.ts", "")]);
        assert!(for_file(&looped.path().join("a.ts")).unwrap_err().contains("loop"));
    }

    #[test]
    fn a_base_that_is_not_there_is_named_and_the_rest_is_read() {
        // A published package whose configuration extends its repository's base, which is not shipped.
        let dir = project(&[
            (
                "tsconfig.json",
                r#"{ "extends": "../../configs/tsconfig.json", "compilerOptions": { "experimentalDecorators": true } }"#,
            ),
            ("a.ts", ""),
        ]);
        let config = for_file(&dir.path().join("a.ts")).unwrap();
        assert!(config.experimental_decorators, "its own options still count");
        assert_eq!(config.unread.len(), 1);
        assert!(config.unread[0].contains("extends '../../configs/tsconfig.json'"), "{:?}", config.unread);
    }
}
