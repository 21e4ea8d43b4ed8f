//! Patterns learnt at run time: the regular expressions a parameter's values met in the code under
//! test (see `js/patterns.js`), kept on the parameter's record as generators of strings that match.
//!
//! Mined literals only show the patterns written in the method's own code; a version string is often
//! validated by a pattern assembled from pieces in another module (`new RegExp(src[FULL])`), which only
//! a run shows. A split argument (`hand.split(/\s+/)`) is a list: its record keeps what joins the
//! items, and a pattern met by one of its pieces (each card tested) is the pattern of the items, with
//! the number of items the argument had: the argument is then several samples joined.

use rand::{Rng, RngExt};

use super::TypeTable;
use crate::js::regex::RegexGenerator;
use crate::model::test::{TestCase, Value};
use crate::sandbox::PatternNote;

/// Most patterns kept per parameter: the first ones met (validation comes first).
const MOST_PATTERNS: usize = 8;
/// Most pieces joined for a split argument.
const MOST_PIECES: usize = 8;
/// Chance that the pieces of a list are made from one another at all: code that compares the items of a
/// list (a pair or four of a kind in a hand of cards, a flush, a repeated identifier) needs items that
/// share something, which independent draws of a pattern rarely give; code that needs them all
/// different (a straight) needs independent draws, which the other lists keep.
const RELATED_LIST: f64 = 0.5;
/// In such a list, the chance that a piece after the first is made from an earlier one.
const RELATED: f64 = 0.5;
/// Chance that a piece made from an earlier one takes one character from a fresh draw (`AS` and `7H`
/// give `AH`, the same rank, or `7S`, the same suit), rather than being the same piece again.
const CROSSED: f64 = 0.8;

/// A pattern a parameter's values met, as a generator.
#[derive(Debug, Clone)]
pub struct LearntPattern {
    /// The pattern as the run showed it: `/source/flags`.
    pub literal: String,
    generator: RegexGenerator,
    /// For a pattern of the pieces of a split argument, what joins them (as it did in a run).
    joiner: Option<String>,
    /// How many pieces the arguments whose pieces met it had: validation that counts them comes first.
    counts: Vec<usize>,
}

impl LearntPattern {
    /// A pattern from a note, when the generator can sample it (not one with lookarounds or
    /// back-references, say).
    fn new(note: &PatternNote) -> Option<LearntPattern> {
        let literal = format!("/{}/{}", note.source, note.flags);
        let generator = RegexGenerator::parse(&literal).ok()?;
        let counts = note.pieces.filter(|_| note.separator.is_some()).into_iter().collect();
        Some(LearntPattern { literal, generator, joiner: note.separator.clone(), counts })
    }

    /// A string the pattern matches; for a pattern of pieces, mostly as many of them joined as an
    /// argument whose pieces met it had, else `pieces`.
    pub fn sample<R: Rng + ?Sized>(&self, pieces: usize, rng: &mut R) -> String {
        let Some(joiner) = &self.joiner else { return self.generator.sample(rng) };
        if rng.random_bool(0.2) {
            return self.generator.sample(rng);
        }
        let count = if !self.counts.is_empty() && rng.random_bool(0.8) {
            self.counts[rng.random_range(0..self.counts.len())]
        } else {
            pieces
        };
        let related = rng.random_bool(RELATED_LIST);
        let mut samples: Vec<String> = Vec::new();
        for _ in 0..count.clamp(1, MOST_PIECES) {
            let piece = if related { self.piece(&samples, rng) } else { self.generator.sample(rng) };
            samples.push(piece);
        }
        samples.join(joiner)
    }

    /// A piece for a list of related pieces whose others are `others`: drawn afresh, or (see [`RELATED`]) made from
    /// one of them, the same again or with one character taken from a fresh draw at the same place,
    /// counted from the start or from the end (`10S` and `AH` give `10H`).
    fn piece<R: Rng + ?Sized>(&self, others: &[String], rng: &mut R) -> String {
        let fresh = self.generator.sample(rng);
        if others.is_empty() || !rng.random_bool(RELATED) {
            return fresh;
        }
        let mut piece: Vec<char> = others[rng.random_range(0..others.len())].chars().collect();
        let fresh: Vec<char> = fresh.chars().collect();
        let shortest = piece.len().min(fresh.len());
        if shortest > 0 && rng.random_bool(CROSSED) {
            let k = rng.random_range(0..shortest);
            if rng.random_bool(0.5) {
                piece[k] = fresh[k];
            } else {
                let (at, from) = (piece.len() - 1 - k, fresh.len() - 1 - k);
                piece[at] = fresh[from];
            }
        }
        piece.into_iter().collect()
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
        let others: Vec<String> = pieces.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, p)| p.clone()).collect();
        pieces[at] = if rng.random_bool(RELATED_LIST) { self.piece(&others, rng) } else { self.generator.sample(rng) };
        Some(pieces.join(joiner))
    }
}

/// A list of `count` strings from `sample`, joined by `joiner`: an argument the code splits (a hand
/// of cards) before it validates the pieces.
pub fn list<R: Rng + ?Sized>(
    joiner: &str,
    count: usize,
    rng: &mut R,
    mut sample: impl FnMut(&mut R) -> String,
) -> String {
    let items: Vec<String> = (0..count.clamp(1, MOST_PIECES)).map(|_| sample(rng)).collect();
    items.join(joiner)
}

impl TypeTable {
    /// Keeps the patterns the run of `test` met on the records of the parameters they came from: a
    /// proxy's, or those the test gave the string arguments the value met came from (see
    /// [`PatternNote::came_from`]); others met values of the code's own. A `split` keeps what joins the
    /// items of the list on the record.
    pub fn learn_patterns(&mut self, test: &TestCase, notes: &[PatternNote]) {
        if notes.is_empty() {
            return;
        }
        let strings: Vec<(u32, String)> = self
            .given(test)
            .into_iter()
            .filter_map(|g| match g.value {
                Value::String(s) => Some((g.record, s.clone())),
                _ => None,
            })
            .collect();
        for note in notes {
            let records: Vec<u32> = match note.key {
                Some(key) => vec![key],
                None => strings.iter().filter(|(_, s)| note.came_from(s)).map(|(record, _)| *record).collect(),
            };
            for id in records {
                let Some(record) = self.records.get_mut(id as usize) else { continue };
                if note.method == "split" {
                    if !record.joiners.contains(&note.source) && record.joiners.len() < MOST_PATTERNS {
                        record.joiners.push(note.source.clone());
                    }
                    continue;
                }
                let literal = format!("/{}/{}", note.source, note.flags);
                let room = record.patterns.len() < MOST_PATTERNS;
                match record.patterns.iter_mut().find(|p| p.literal == literal) {
                    Some(known) => {
                        // Seen as a pattern of pieces now, or with another count of them.
                        if known.joiner.is_none() {
                            known.joiner = note.separator.clone();
                        }
                        if let Some(count) =
                            note.pieces.filter(|c| note.separator.is_some() && !known.counts.contains(c))
                        {
                            known.counts.push(count);
                        }
                    }
                    None if room => {
                        record.patterns.extend(LearntPattern::new(note));
                    }
                    None => {}
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

    fn note(source: &str, separator: Option<&str>) -> PatternNote {
        PatternNote {
            key: None,
            subject: Some("x".into()),
            method: "test".into(),
            source: source.into(),
            flags: String::new(),
            separator: separator.map(str::to_string),
            pieces: None,
        }
    }

    #[test]
    fn one_piece_is_drawn_again() {
        let card = LearntPattern::new(&note("^[2-9][SH]$", Some(" "))).unwrap();
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
        let mut five = note("^[2-9][SH]$", Some(" "));
        five.pieces = Some(5);
        let card = LearntPattern::new(&five).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let hands: Vec<String> = (0..200).map(|_| card.sample(2, &mut rng)).collect();
        let is_card = |c: &str| c.len() == 2 && c.as_bytes()[0].is_ascii_digit() && "SH".contains(&c[1..]);
        assert!(hands.iter().all(|h| h.split(' ').all(is_card)), "{hands:?}");
        // Five pieces in about 64 % of the hands (the count seen, 80 % of the time, when not a single piece).
        assert!(hands.iter().filter(|h| h.split(' ').count() == 5).count() > 100, "{hands:?}");
        assert!(LearntPattern::new(&note("(?=a)b", None)).is_none(), "a lookahead cannot be sampled");
    }

    #[test]
    fn pieces_of_a_list_often_share_a_character() {
        // 8 ranks and 4 suits: independent draws give five cards of one suit in 1 hand of 256, and four
        // of one rank in about 1 of 200; a pair of identical cards in a third of the hands.
        let mut five = note("^[2-9][SHDC]$", Some(" "));
        five.pieces = Some(5);
        let card = LearntPattern::new(&five).unwrap();
        let mut rng = StdRng::seed_from_u64(5);
        let hands: Vec<Vec<String>> =
            (0..2000).map(|_| card.sample(5, &mut rng).split(' ').map(str::to_string).collect()).collect();
        let fives: Vec<&Vec<String>> = hands.iter().filter(|h| h.len() == 5).collect();
        let flushes = fives.iter().filter(|h| h.iter().all(|c| c[1..] == h[0][1..])).count();
        let fours =
            fives.iter().filter(|h| h.iter().any(|a| h.iter().filter(|b| b[..1] == a[..1]).count() >= 4)).count();
        assert!(
            flushes * 50 > fives.len() && fours * 50 > fives.len(),
            "{flushes} flushes, {fours} fours of {}",
            fives.len()
        );
    }
}
