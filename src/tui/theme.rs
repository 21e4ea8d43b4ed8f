//! Colours and text attributes of the terminal UI, read from JSON theme files.
//!
//! Three themes are bundled into the binary: `dark` (the default), `light` and `high-contrast` (no
//! red/green distinction, for colour-blind people); `--theme` may also name a JSON file of one's own.
//!
//! # Theme files
//!
//! A theme is one JSON object with a key per style of [`Theme`] (every key is required, unknown keys are
//! refused so that a typo does not go unnoticed). Each style is an object with three optional keys:
//!
//! ```json
//! {
//!   "base":           { "fg": "#d0d0d0", "bg": "reset" },
//!   "focused_border": { "fg": "#4fc1ff", "modifiers": ["bold"] },
//!   "selection":      { "fg": "black", "bg": "#4fc1ff" },
//!   "...": {}
//! }
//! ```
//!
//! - `fg`, `bg`: a colour, `"#rrggbb"`, a name (`reset`, `black`, `red`, `green`, `yellow`, `blue`,
//!   `magenta`, `cyan`, `gray`, `dark-gray`, `light-red`, `light-green`, `light-yellow`, `light-blue`,
//!   `light-magenta`, `light-cyan`, `white`) or a number 0–255 for the terminal's palette. Left out, the
//!   colour underneath shows through.
//! - `modifiers`: any of `bold`, `dim`, `italic`, `underlined`, `reversed`, `crossed-out`.
//!
//! `themes/dark.json` in the source tree lists every key.

use std::path::Path;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use serde::de::{self, Deserializer};

use crate::error::Error;

/// The bundled themes: name and JSON text. The first is the default.
const BUNDLED: [(&str, &str); 3] = [
    ("dark", include_str!("../../themes/dark.json")),
    ("light", include_str!("../../themes/light.json")),
    ("high-contrast", include_str!("../../themes/high-contrast.json")),
];

/// Every style the view draws with. The field names are the keys of a theme file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Theme {
    /// Text and background of everything, the other styles are laid over it.
    #[serde(deserialize_with = "style")]
    pub(crate) base: Style,
    /// Borders of panes without focus.
    #[serde(deserialize_with = "style")]
    pub(crate) border: Style,
    /// Border and title of the pane with focus, and of dialogs.
    #[serde(deserialize_with = "style")]
    pub(crate) focused_border: Style,
    /// Pane titles and class names.
    #[serde(deserialize_with = "style")]
    pub(crate) title: Style,
    /// The selected row of a list, the active tab, the field being edited.
    #[serde(deserialize_with = "style")]
    pub(crate) selection: Style,
    /// The `▶` of the method being worked on, in the tree.
    #[serde(deserialize_with = "style")]
    pub(crate) current: Style,
    /// Covered statements, lines and branches.
    #[serde(deserialize_with = "style")]
    pub(crate) covered: Style,
    /// Statements, lines and branches no test reached.
    #[serde(deserialize_with = "style")]
    pub(crate) uncovered: Style,
    /// Lines where only some statements ran.
    #[serde(deserialize_with = "style")]
    pub(crate) partial: Style,
    /// Parameters of unknown type: `<?name>` and `Unknown`.
    #[serde(deserialize_with = "style")]
    pub(crate) unknown: Style,
    /// Candidate lines calling the method under test.
    #[serde(deserialize_with = "style")]
    pub(crate) under_test: Style,
    /// Outcome: the candidate covered new statements.
    #[serde(deserialize_with = "style")]
    pub(crate) new_coverage: Style,
    /// Outcome: valid, nothing new.
    #[serde(deserialize_with = "style")]
    pub(crate) no_new_coverage: Style,
    /// Outcome: the candidate threw or hit a limit.
    #[serde(deserialize_with = "style")]
    pub(crate) threw: Style,
    /// Outcome: unknown parameters were left.
    #[serde(deserialize_with = "style")]
    pub(crate) invalid: Style,
    /// Warnings, leaps of faith, unexported tests.
    #[serde(deserialize_with = "style")]
    pub(crate) warning: Style,
    /// Errors: failed actions, invalid form fields, failing tests.
    #[serde(deserialize_with = "style")]
    pub(crate) error: Style,
    /// The status line.
    #[serde(deserialize_with = "style")]
    pub(crate) status: Style,
    /// Secondary text: line numbers, hints, placeholders.
    #[serde(deserialize_with = "style")]
    pub(crate) dim: Style,
}

impl Theme {
    /// The names of the bundled themes, the default first.
    pub(crate) fn bundled_names() -> impl Iterator<Item = &'static str> {
        BUNDLED.iter().map(|(name, _)| *name)
    }

    /// Loads a bundled theme by name, or else a theme file by path.
    ///
    /// A file that cannot be read or does not describe a theme is an [`Error::Usage`] naming the file, the
    /// line and column of the fault when there is one, and what to fix.
    pub(crate) fn load(name_or_path: &str) -> Result<Theme, Error> {
        if let Some((name, text)) = BUNDLED.iter().find(|(name, _)| *name == name_or_path) {
            return parse(&format!("bundled theme '{name}'"), text);
        }
        let path = Path::new(name_or_path);
        // A bare word that is no file is most likely a misspelt theme name, not a missing file.
        let looks_like_path = path.exists() || path.extension().is_some() || path.components().count() > 1;
        if !looks_like_path {
            let names: Vec<&str> = Theme::bundled_names().collect();
            return Err(Error::Usage(format!(
                "unknown theme '{name_or_path}': use one of {} or the path of a JSON theme file",
                names.join(", ")
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::Usage(format!("{}: cannot read the theme file: {e}; check the path", path.display()))
        })?;
        parse(&path.display().to_string(), &text)
    }

    /// A theme without any colour, only bold, dim, reversed and underlined text: what `NO_COLOR` asks for.
    pub(crate) fn monochrome() -> Theme {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        Theme {
            base: plain,
            border: plain,
            focused_border: bold,
            title: bold,
            selection: Style::new().add_modifier(Modifier::REVERSED),
            current: bold,
            covered: plain,
            uncovered: bold,
            partial: Style::new().add_modifier(Modifier::UNDERLINED),
            unknown: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            under_test: bold,
            new_coverage: bold,
            no_new_coverage: plain,
            threw: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            invalid: Style::new().add_modifier(Modifier::UNDERLINED),
            warning: bold,
            error: Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            status: Style::new().add_modifier(Modifier::REVERSED),
            dim: Style::new().add_modifier(Modifier::DIM),
        }
    }
}

/// Parses a theme's JSON, naming `origin` in errors.
fn parse(origin: &str, text: &str) -> Result<Theme, Error> {
    serde_json::from_str(text).map_err(|e| {
        let fix = match e.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => "fix the JSON syntax",
            _ => "see the theme format in themes/dark.json",
        };
        // serde_json appends " at line L column C" to its message; the position goes up front instead,
        // as `file:line:column` like compiler messages, so editors can jump to it.
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        if e.line() == 0 {
            Error::Usage(format!("{origin}: invalid theme: {message}; {fix}"))
        } else {
            Error::Usage(format!("{origin}:{}:{}: invalid theme: {message}; {fix}", e.line(), e.column()))
        }
    })
}

/// One style as written in a theme file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<ColorSpec>,
    bg: Option<ColorSpec>,
    #[serde(default)]
    modifiers: Vec<ModifierSpec>,
}

fn style<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Style, D::Error> {
    let spec = StyleSpec::deserialize(deserializer)?;
    let mut style = Style::new().add_modifier(spec.modifiers.iter().fold(Modifier::empty(), |all, m| all | m.0));
    if let Some(ColorSpec(fg)) = spec.fg {
        style = style.fg(fg);
    }
    if let Some(ColorSpec(bg)) = spec.bg {
        style = style.bg(bg);
    }
    Ok(style)
}

/// A colour, checked while deserializing so that serde_json reports where a bad one is.
struct ColorSpec(Color);

impl<'de> Deserialize<'de> for ColorSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map(ColorSpec).map_err(|_| {
            de::Error::custom(format_args!(
                "unknown colour '{text}' (write \"#rrggbb\" or a name such as reset, black, red, green, yellow, \
                 blue, magenta, cyan, gray, white)"
            ))
        })
    }
}

/// A text attribute, by name.
struct ModifierSpec(Modifier);

impl ModifierSpec {
    const NAMES: [(&str, Modifier); 6] = [
        ("bold", Modifier::BOLD),
        ("dim", Modifier::DIM),
        ("italic", Modifier::ITALIC),
        ("underlined", Modifier::UNDERLINED),
        ("reversed", Modifier::REVERSED),
        ("crossed-out", Modifier::CROSSED_OUT),
    ];
}

impl<'de> Deserialize<'de> for ModifierSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        match ModifierSpec::NAMES.iter().find(|(name, _)| *name == text) {
            Some((_, modifier)) => Ok(ModifierSpec(*modifier)),
            None => {
                let names: Vec<&str> = ModifierSpec::NAMES.iter().map(|(name, _)| *name).collect();
                Err(de::Error::custom(format_args!("unknown modifier '{text}' (use {})", names.join(", "))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(result: Result<Theme, Error>) -> String {
        match result {
            Err(Error::Usage(message)) => message,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn every_bundled_theme_parses_and_differs() {
        let themes: Vec<Theme> = Theme::bundled_names().map(|name| Theme::load(name).unwrap()).collect();
        assert_eq!(themes.len(), 3);
        assert_ne!(themes[0], themes[1]);
        assert_ne!(themes[1], themes[2]);
    }

    #[test]
    fn high_contrast_avoids_red_and_green() {
        let theme = Theme::load("high-contrast").unwrap();
        let reddish_or_greenish = |c: Option<Color>| match c {
            Some(Color::Red | Color::LightRed | Color::Green | Color::LightGreen) => true,
            // Strong reds and greens are the pair red-green colour-blind people confuse.
            Some(Color::Rgb(r, g, b)) => (r > 160 && g < 100 && b < 100) || (g > 160 && r < 100 && b < 100),
            _ => false,
        };
        for style in [theme.covered, theme.uncovered, theme.new_coverage, theme.threw, theme.error, theme.partial] {
            assert!(!reddish_or_greenish(style.fg), "{style:?}");
            assert!(!reddish_or_greenish(style.bg), "{style:?}");
        }
        assert!(
            theme.covered.add_modifier.contains(Modifier::BOLD)
                || theme.uncovered.add_modifier.contains(Modifier::BOLD)
        );
    }

    #[test]
    fn monochrome_has_no_colour() {
        // Destructured field by field so a new style cannot slip past this test.
        let Theme {
            base,
            border,
            focused_border,
            title,
            selection,
            current,
            covered,
            uncovered,
            partial,
            unknown,
            under_test,
            new_coverage,
            no_new_coverage,
            threw,
            invalid,
            warning,
            error,
            status,
            dim,
        } = Theme::monochrome();
        let styles = [
            base,
            border,
            focused_border,
            title,
            selection,
            current,
            covered,
            uncovered,
            partial,
            unknown,
            under_test,
            new_coverage,
            no_new_coverage,
            threw,
            invalid,
            warning,
            error,
            status,
            dim,
        ];
        for style in styles {
            assert_eq!((style.fg, style.bg, style.underline_color), (None, None, None), "{style:?}");
        }
        assert_eq!(selection, Style::new().add_modifier(Modifier::REVERSED));
        assert_ne!(covered, uncovered);
    }

    #[test]
    fn unknown_name_lists_the_bundled_ones() {
        let message = usage(Theme::load("drak"));
        assert_eq!(
            message,
            "unknown theme 'drak': use one of dark, light, high-contrast or the path of a JSON theme file"
        );
    }

    #[test]
    fn broken_files_name_file_position_and_fix() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path.display().to_string()
        };
        let dark = BUNDLED[0].1;

        let path = write("colour.json", &dark.replacen("\"#", "\"gren\", \"x\": \"#", 1));
        let message = usage(Theme::load(&path));
        assert!(message.starts_with(&format!("{path}:")), "{message}");
        assert!(message.contains("unknown colour 'gren'"), "{message}");
        assert!(message.contains("#rrggbb"), "{message}");

        let path = write("bad.json", "{\n  \"base\": {\"fg\": \"nope\"}\n}\n");
        let message = usage(Theme::load(&path));
        assert!(message.starts_with(&format!("{path}:2:")), "{message}");
        assert!(message.contains("unknown colour 'nope'"), "{message}");
        assert!(!message.contains('\n'));

        let path = write("syntax.json", "{\n  \"base\": {\"fg\": \"red\",,}\n}");
        let message = usage(Theme::load(&path));
        assert!(message.starts_with(&format!("{path}:2:")), "{message}");
        assert!(message.ends_with("fix the JSON syntax"), "{message}");

        let path = write("typo.json", &dark.replacen("\"dim\":", "\"dimmed\":", 1));
        let message = usage(Theme::load(&path));
        assert!(message.contains("unknown field `dimmed`"), "{message}");

        let path = write("modifier.json", &dark.replacen("\"bold\"", "\"blod\"", 1));
        let message = usage(Theme::load(&path));
        assert!(message.contains("unknown modifier 'blod' (use bold, dim,"), "{message}");

        let path = write("short.json", "{ \"base\": {} }");
        let message = usage(Theme::load(&path));
        assert!(message.contains("missing field `border`"), "{message}");
        assert!(message.starts_with(&format!("{path}:1:")), "{message}");

        let message = usage(Theme::load("/no/such/theme.json"));
        assert!(message.starts_with("/no/such/theme.json: cannot read the theme file:"), "{message}");
    }
}
