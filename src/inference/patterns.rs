//! Patterns learnt at run time: the regular expressions a parameter's values met in the code under
//! test (see `js/patterns.js`), kept on the parameter's record as generators of strings that match.
//!
//! Mined literals only show the patterns written in the method's own code; a version string is often
//! validated by a pattern assembled from pieces in another module (`new RegExp(src[FULL])`), which only
//! a run shows. A pattern met by a piece of a split argument (`hand.split(' ')`, then each card tested)
//! is the pattern of the pieces: the argument is then several samples joined by the separator.

use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};

use super::TypeTable;
use crate::js::regex::RegexGenerator;
use crate::model::test::{TestCase, Value};
use crate::sandbox::{PatternNote, Separator};

/// Most patterns kept per parameter: the first ones met (validation comes first).
const MOST_PATTERNS: usize = 8;
/// Most pieces joined for a split argument.
const MOST_PIECES: usize = 8;

/// A pattern a parameter's values met, as a generator.
#[derive(Debug, Clone)]
pub struct LearntPattern {
    /// The pattern as the run showed it: `/source/flags`.
    pub literal: String,
    generator: RegexGenerator,
    /// For a pattern of the pieces of a split argument, what joins them: the separator, or one string
    /// its pattern matches (the shortest of a few drawn, so that pieces can be found again).
    joiner: Option<String>,
}

impl LearntPattern {
    /// A pattern from a note, when the generator can sample it (not one with lookarounds or
    /// back-references, say).
    fn new(note: &PatternNote) -> Option<LearntPattern> {
        let literal = format!("/{}/{}", note.source, note.flags);
        let generator = RegexGenerator::parse(&literal).ok()?;
        let joiner = match &note.separator {
            None => None,
            Some(Separator::Text(text)) => Some(text.clone()),
            Some(Separator::Pattern { source, flags }) => {
                let separator = RegexGenerator::parse(&format!("/{source}/{flags}")).ok()?;
                let mut rng = StdRng::seed_from_u64(0);
                (0..16).map(|_| separator.sample(&mut rng)).filter(|s| !s.is_empty()).min_by_key(String::len)
            }
        };
        Some(LearntPattern { literal, generator, joiner })
    }

    /// A string the pattern matches; for a pattern of pieces, mostly `pieces` of them joined.
    pub fn sample<R: Rng + ?Sized>(&self, pieces: usize, rng: &mut R) -> String {
        let Some(joiner) = &self.joiner else { return self.generator.sample(rng) };
        if rng.random_bool(0.2) {
            return self.generator.sample(rng);
        }
        let samples: Vec<String> = (0..pieces.clamp(1, MOST_PIECES)).map(|_| self.generator.sample(rng)).collect();
        samples.join(joiner)
    }

    /// `text` with one of its pieces drawn again, when this is a pattern of pieces and `text` has
    /// several: a move that keeps the rest of a hand of cards.
    pub fn redraw_piece<R: Rng + ?Sized>(&self, text: &str, rng: &mut R) -> Option<String> {
        let joiner = self.joiner.as_deref()?;
        let mut pieces: Vec<String> = text.split(joiner).map(str::to_string).collect();
        if pieces.len() < 2 {
            return None;
        }
        let at = rng.random_range(0..pieces.len());
        pieces[at] = self.generator.sample(rng);
        Some(pieces.join(joiner))
    }
}

impl TypeTable {
    /// Keeps the patterns the run of `test` met on the records of the parameters they came from: a
    /// proxy's, or those the test gave the string argument the value came from.
    pub fn learn_patterns(&mut self, test: &TestCase, notes: &[PatternNote]) {
        for note in notes {
            let records: Vec<u32> = match (&note.key, &note.argument) {
                (Some(key), _) => vec![*key],
                (None, Some(argument)) => self
                    .given(test)
                    .into_iter()
                    .filter(|g| matches!(g.value, Value::String(s) if s == argument))
                    .map(|g| g.record)
                    .collect(),
                (None, None) => continue,
            };
            for id in records {
                let Some(record) = self.records.get_mut(id as usize) else { continue };
                let literal = format!("/{}/{}", note.source, note.flags);
                let known = record.patterns.iter().any(|p| p.literal == literal);
                if known || record.patterns.len() >= MOST_PATTERNS {
                    continue;
                }
                if let Some(pattern) = LearntPattern::new(note) {
                    record.patterns.push(pattern);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn note(source: &str, separator: Option<Separator>) -> PatternNote {
        PatternNote {
            key: None,
            argument: Some("x".into()),
            method: "test".into(),
            source: source.into(),
            flags: String::new(),
            separator,
        }
    }

    #[test]
    fn one_piece_is_drawn_again() {
        let card = LearntPattern::new(&note(
            "^[2-9][SH]$",
            Some(Separator::Pattern { source: " +".into(), flags: "".into() }),
        ));
        let card = card.unwrap();
        let mut rng = StdRng::seed_from_u64(4);
        let hand = "2S 3S 4S 5S 6S";
        let moved: Vec<String> = (0..20).filter_map(|_| card.redraw_piece(hand, &mut rng)).collect();
        assert_eq!(moved.len(), 20);
        for other in &moved {
            let changed = other.split(' ').zip(hand.split(' ')).filter(|(a, b)| a != b).count();
            assert!(changed <= 1 && other.split(' ').count() == 5, "{other}");
        }
        assert!(card.redraw_piece("2S", &mut rng).is_none());
    }

    #[test]
    fn a_pattern_of_pieces_joins_samples() {
        let card = LearntPattern::new(&note("^[2-9][SH]$", Some(Separator::Text(" ".into())))).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let hands: Vec<String> = (0..50).map(|_| card.sample(5, &mut rng)).collect();
        let is_card = |c: &str| c.len() == 2 && c.as_bytes()[0].is_ascii_digit() && "SH".contains(&c[1..]);
        assert!(hands.iter().all(|h| h.split(' ').all(is_card)), "{hands:?}");
        assert!(hands.iter().filter(|h| h.split(' ').count() == 5).count() > 30, "{hands:?}");
        let spaced =
            LearntPattern::new(&note("\\d", Some(Separator::Pattern { source: "\\s+".into(), flags: "".into() })));
        let spaced = spaced.unwrap();
        assert!((0..20).any(|_| spaced.sample(3, &mut rng).chars().any(char::is_whitespace)));
        assert!(LearntPattern::new(&note("(?=a)b", None)).is_none(), "a lookahead cannot be sampled");
    }
}
