//! Errors a user can act on. Each names the file (and line) and what to do; the CLI prints it on one
//! line and exits with status 2.

use std::fmt;
use std::path::PathBuf;

/// A file that could not be parsed: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The file, as the user named it.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong: the parser's message after "cannot parse JavaScript:" (or TypeScript), or why the
    /// file is not loaded at all.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why a run could not start or go on.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read.
    Read {
        /// The file as named.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not valid JavaScript.
    Parse(ParseError),
    /// `require` or `import` names something that cannot be found or is not available in the sandbox.
    Resolve {
        /// The importing file and line, as `file:line`.
        at: String,
        /// The module specifier.
        specifier: String,
        /// Why it cannot be loaded.
        reason: String,
    },
    /// The code under test threw, looped or ran out of memory while loading.
    Load {
        /// The file being loaded.
        file: String,
        /// What went wrong, with the JavaScript error when there is one.
        message: String,
    },
    /// No class was found where classes were looked for.
    NoClass {
        /// What was looked at, and what was found instead.
        message: String,
    },
    /// `--class` or `--method` names nothing known.
    Unknown {
        /// "class" or "method".
        what: &'static str,
        /// The name given.
        name: String,
        /// The names that exist.
        candidates: Vec<String>,
    },
    /// A command-line value is invalid (a regular expression, a namespace, a number out of range...).
    Usage(String),
    /// Writing results failed.
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The JavaScript engine failed in a way that is not the code under test's fault.
    Engine(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read { file, source } => write!(f, "{}: cannot read: {source}", file.display()),
            Error::Parse(e) => e.fmt(f),
            Error::Resolve { at, specifier, reason } => write!(f, "{at}: cannot load '{specifier}': {reason}"),
            Error::Load { file, message } => write!(f, "{file}: the code failed while loading: {message}"),
            Error::NoClass { message } => write!(f, "no class found: {message}"),
            Error::Unknown { what, name, candidates } if candidates.len() > LISTED => write!(
                f,
                "unknown {what} '{name}'; known (the {LISTED} closest of {}): {}",
                candidates.len(),
                closest(name, candidates).join(", ")
            ),
            Error::Unknown { what, name, candidates } => {
                write!(f, "unknown {what} '{name}'; known: {}", candidates.join(", "))
            }
            Error::Usage(message) => f.write_str(message),
            Error::Write { path, source } => write!(f, "{}: cannot write: {source}", path.display()),
            Error::Engine(message) => write!(f, "JavaScript engine error: {message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

/// Names an unknown-name error lists at most: a library of hundreds of methods made a line no one reads.
const LISTED: usize = 12;

/// The [`LISTED`] names of `candidates` closest to `name`: those containing it (or contained in it)
/// first, then by edit distance, ignoring case and, for `Class.method` names, the class; ties keep the
/// program's order.
fn closest<'a>(name: &str, candidates: &'a [String]) -> Vec<&'a str> {
    let wanted = name.to_lowercase();
    let mut ranked: Vec<(bool, usize, usize, &str)> = candidates
        .iter()
        .enumerate()
        .map(|(index, candidate)| {
            let own = candidate.rsplit('.').next().unwrap_or(candidate).to_lowercase();
            let related = own.contains(&wanted) || wanted.contains(&own);
            (!related, strsim::levenshtein(&wanted, &own), index, candidate.as_str())
        })
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().take(LISTED).map(|(.., candidate)| candidate).collect()
}

/// Shorthand for results of this crate.
pub(crate) type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_names_shows_the_closest_first() {
        let mut candidates: Vec<String> = (0..300).map(|i| format!("Measure.toUnit{i}")).collect();
        candidates.extend(["Measure.isArea", "Measure.largestAreaUnit", "Day.year"].map(String::from));
        let error = Error::Unknown { what: "method", name: "area".into(), candidates };
        let text = error.to_string();
        assert!(
            text.starts_with(
                "unknown method 'area'; known (the 12 closest of 303): Measure.isArea, Measure.largestAreaUnit, "
            ),
            "{text}"
        );
        assert_eq!(text.matches(", ").count(), 11, "{text}");
        // A short list is given whole, in the program's order.
        let error =
            Error::Unknown { what: "class", name: "Lst".into(), candidates: vec!["Node".into(), "List".into()] };
        assert_eq!(error.to_string(), "unknown class 'Lst'; known: Node, List");
    }
}
