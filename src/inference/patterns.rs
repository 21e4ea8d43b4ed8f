//! Patterns learnt at run time: the regular expressions a parameter's values met in the code under
//! test (see `js/patterns.js`), kept on the parameter's record as generators of strings that match.
//!
//! Mined literals only show the patterns written in the method's own code; a version string is often
//! validated by a pattern assembled from pieces in another module (`new RegExp(src[FULL])`), which only
//! a run shows. A split argument (`hand.split(/\s+/)`) is a list: its record keeps what joins the
//! items, and a pattern met by one of its pieces (each card tested) is the pattern of the items, with
//! the number of items the argument had: the argument is then several samples joined. The samples of
//! one list are drawn independently, or share all but one place, or step through the characters of
//! one place in order (see [`Relation`]): code compares the items of its lists.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};

use super::TypeTable;
use crate::js::regex::RegexGenerator;
use crate::model::test::{TestCase, Value};
use crate::sandbox::PatternNote;

/// Most patterns kept per parameter: the first ones met (validation comes first).
const MOST_PATTERNS: usize = 8;
/// Most pieces joined for a split argument.
const MOST_PIECES: usize = 8;
/// Chances that the pieces of one list share all but one place (see [`Relation::Shared`]), and that
/// they form a run (see [`Relation::Run`]); the other lists are independent draws. Code that compares
/// the items of a list needs items that share something (a pair or four of a kind in a hand of cards, a
/// flush, a repeated identifier) or follow one another (a straight, dates in order), which independent
/// draws of a pattern rarely give; code that needs them all different needs independent draws.
const SHARED_LIST: f64 = 0.4;
/// See [`SHARED_LIST`].
const RUN_LIST: f64 = 0.25;
/// In a list of pieces that share all but one place, the chance that a piece after the first is made
/// from an earlier one rather than drawn afresh (four of a kind needs one card that shares nothing).
const SHARED: f64 = 0.75;
/// Draws whose characters at each place make the pattern's alphabets (see [`Relation::Run`]): enough
/// that a character one draw in 24 has (a rank of `(?:[2-9]|10|[JQKA])`) is rarely missed, which
/// would make a run skip it.
const ALPHABET_DRAWS: usize = 256;
/// Places from either end that have an alphabet.
const MOST_PLACES: usize = 16;
/// In a run, the chance that a piece also takes the character at one other place from a fresh draw: a
/// run need not share everything else (a straight of mixed suits).
const LOOSE_RUN: f64 = 0.3;

/// How the pieces of one list (or a piece drawn again within its list) relate to the others.
#[derive(Debug, Clone, Copy)]
enum Relation {
    /// Drawn independently.
    Independent,
    /// Made from an earlier piece, with the character at one place from a fresh draw: the pieces
    /// share the rest (`AS` and `7H` give `AH`, the same rank, or `7S`, the same suit).
    Shared(Place),
    /// Made from the piece before, with the character at one place moved to its neighbour, in one
    /// direction, in the pattern's alphabet of that place (`5H 6H 7H`): what EvoSuite's moves on
    /// strings do to one character, here across the pieces, so that they come in order.
    Run { place: Place, up: bool },
}

/// A character's place in a piece, counted from the start or from the end: pieces differ in length
/// (`10S` and `AH`), and the place that matters can be at either end.
#[derive(Debug, Clone, Copy)]
struct Place {
    at: usize,
    from_end: bool,
}

impl Place {
    /// A place in `piece`, if it has any character.
    fn random<R: Rng + ?Sized>(piece: &str, rng: &mut R) -> Option<Place> {
        let length = piece.chars().count();
        (length > 0).then(|| Place { at: rng.random_range(0..length), from_end: rng.random_bool(0.5) })
    }

    /// The index of this place in a piece of `length` characters, if it is that long.
    fn index(self, length: usize) -> Option<usize> {
        (self.at < length).then(|| if self.from_end { length - 1 - self.at } else { self.at })
    }

    /// `piece` with the character at this place replaced by `change` of it, when the piece has that
    /// place and `change` gives a character.
    fn change(self, piece: &str, change: impl FnOnce(char) -> Option<char>) -> Option<String> {
        let mut chars: Vec<char> = piece.chars().collect();
        let at = self.index(chars.len())?;
        chars[at] = change(chars[at])?;
        Some(chars.into_iter().collect())
    }

    /// `piece` with the character at this place taken from `other` at the same place.
    fn cross(self, piece: &str, other: &str) -> Option<String> {
        let other: Vec<char> = other.chars().collect();
        let from = other.get(self.index(other.len())?).copied()?;
        self.change(piece, |_| Some(from))
    }
}

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
    /// Per place from the start, then per place from the end, the characters its strings have there,
    /// in code order (see [`alphabets`]).
    alphabets: Alphabets,
}

/// Per place from the start, then per place from the end, the characters a pattern's strings have there
/// (see [`alphabets`]).
type Alphabets = [Vec<Vec<char>>; 2];

impl LearntPattern {
    /// A pattern from a note, when the generator can sample it (not one with lookarounds or
    /// back-references, say).
    fn new(note: &PatternNote) -> Option<LearntPattern> {
        let literal = format!("/{}/{}", note.source, note.flags);
        let generator = RegexGenerator::parse(&literal).ok()?;
        let counts = note.pieces.filter(|_| note.separator.is_some()).into_iter().collect();
        let alphabets = alphabets_of(&literal, &generator);
        Some(LearntPattern { literal, generator, joiner: note.separator.clone(), counts, alphabets })
    }

    /// A string the pattern matches; for a pattern of pieces, mostly as many of them joined as an
    /// argument whose pieces met it had, else `pieces`.
    pub(crate) fn sample<R: Rng + ?Sized>(&self, pieces: usize, rng: &mut R) -> String {
        let Some(joiner) = &self.joiner else { return self.generator.sample(rng) };
        if rng.random_bool(0.2) {
            return self.generator.sample(rng);
        }
        let count = if !self.counts.is_empty() && rng.random_bool(0.8) {
            self.counts[rng.random_range(0..self.counts.len())]
        } else {
            pieces
        };
        let first = self.generator.sample(rng);
        let relation = self.relation(&first, rng);
        let mut samples = vec![first];
        while samples.len() < count.clamp(1, MOST_PIECES) {
            let piece = self.piece(&samples, relation, rng);
            samples.push(piece);
        }
        samples.join(joiner)
    }

    /// A piece for a list whose other pieces are `others`, related to them by `relation` (a run goes on
    /// from the last one); drawn afresh when the relation does not apply (a shorter piece has no such
    /// place, a step leaves the characters).
    fn piece<R: Rng + ?Sized>(&self, others: &[String], relation: Relation, rng: &mut R) -> String {
        let fresh = self.generator.sample(rng);
        let made = match relation {
            Relation::Shared(place) if !others.is_empty() && rng.random_bool(SHARED) => {
                place.cross(&others[rng.random_range(0..others.len())], &fresh)
            }
            Relation::Run { place, up } => others.last().and_then(|last| self.step(last, place, up)).map(|stepped| {
                match Place::random(&stepped, rng).filter(|_| rng.random_bool(LOOSE_RUN)) {
                    Some(other) => other.cross(&stepped, &fresh).unwrap_or(stepped),
                    None => stepped,
                }
            }),
            _ => None,
        };
        made.unwrap_or(fresh)
    }

    /// How the pieces of a list whose first piece is `first` relate to one another (see [`SHARED_LIST`]).
    fn relation<R: Rng + ?Sized>(&self, first: &str, rng: &mut R) -> Relation {
        let Some(place) = Place::random(first, rng) else { return Relation::Independent };
        let draw: f64 = rng.random_range(0.0..1.0);
        if draw < SHARED_LIST {
            return Relation::Shared(place);
        }
        if draw >= SHARED_LIST + RUN_LIST {
            return Relation::Independent;
        }
        Relation::Run { place, up: rng.random_bool(0.5) }
    }

    /// `piece` with the character at `place` moved to its neighbour in the pattern's alphabet of that
    /// place, up or down.
    fn step(&self, piece: &str, place: Place, up: bool) -> Option<String> {
        let alphabet = self.alphabets[usize::from(place.from_end)].get(place.at)?;
        place.change(piece, |c| {
            let at = alphabet.binary_search(&c).ok()?;
            if up { alphabet.get(at + 1).copied() } else { at.checked_sub(1).map(|below| alphabet[below]) }
        })
    }

    /// `text` with one of its pieces drawn again, when this is a pattern of pieces and `text` has
    /// several: a move that keeps the rest of a hand of cards. The new piece is related to a random
    /// other one as pieces of a list are (the fifth card of a straight flush is a step from one of the
    /// four others).
    pub(crate) fn redraw_piece<R: Rng + ?Sized>(&self, text: &str, rng: &mut R) -> Option<String> {
        let joiner = self.joiner.as_deref()?;
        let mut pieces: Vec<String> = text.split(joiner).map(str::to_string).collect();
        if pieces.len() < 2 {
            return None;
        }
        let at = rng.random_range(0..pieces.len());
        let mut others: Vec<String> =
            pieces.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, p)| p.clone()).collect();
        let from = rng.random_range(0..others.len());
        let last = others.len() - 1;
        others.swap(from, last);
        let relation = self.relation(&others[last], rng);
        pieces[at] = self.piece(&others, relation, rng);
        Some(pieces.join(joiner))
    }
}

/// [`alphabets`] of the pattern `literal`, drawn once per process: a property of the pattern, which
/// every session that meets it (one per class, one per mutant analysed, the bench's session after
/// session) would otherwise draw again, [`ALPHABET_DRAWS`] samples of the pattern each time.
fn alphabets_of(literal: &str, generator: &RegexGenerator) -> Alphabets {
    static DRAWN: LazyLock<Mutex<HashMap<String, Alphabets>>> = LazyLock::new(Mutex::default);
    if let Some(known) = DRAWN.lock().ok().and_then(|d| d.get(literal).cloned()) {
        return known;
    }
    let drawn = alphabets(generator);
    if let Ok(mut d) = DRAWN.lock() {
        d.insert(literal.to_string(), drawn.clone());
    }
    drawn
}

/// Per place from the start, then from the end (up to [`MOST_PLACES`]), the characters strings of
/// `generator` have there, in code order: the alphabets runs step through, so that a step stays within
/// the pattern (`9` is followed by `A` in `[2-9A-F]`, not by `:`). Drawn once, with a seed of their
/// own: they are a property of the pattern, not a choice of the run.
fn alphabets(generator: &RegexGenerator) -> Alphabets {
    let mut rng = StdRng::seed_from_u64(0);
    let mut alphabets: Alphabets = [Vec::new(), Vec::new()];
    for _ in 0..ALPHABET_DRAWS {
        let draw: Vec<char> = generator.sample(&mut rng).chars().collect();
        for (from_end, alphabet) in alphabets.iter_mut().enumerate() {
            for at in 0..draw.len().min(MOST_PLACES) {
                let c = draw[if from_end == 1 { draw.len() - 1 - at } else { at }];
                if alphabet.len() <= at {
                    alphabet.push(Vec::new());
                }
                alphabet[at].push(c);
            }
        }
    }
    for place in alphabets.iter_mut().flatten() {
        place.sort_unstable();
        place.dedup();
    }
    alphabets
}

/// A list of `count` strings from `sample`, joined by `joiner`: an argument the code splits (a hand
/// of cards) before it validates the pieces.
pub(crate) fn list<R: Rng + ?Sized>(
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
    pub(crate) fn learn_patterns(&mut self, test: &TestCase, notes: &[PatternNote]) {
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
            let literal = format!("/{}/{}", note.source, note.flags);
            let records: Vec<u32> = match note.key {
                Some(key) => vec![key],
                None => {
                    // Strings that hold the subject whole say more than those that only hold its
                    // characters in order: a long random `kind` has those of a short version too.
                    let from: Vec<&(u32, String)> = strings.iter().filter(|(_, s)| note.came_from(s)).collect();
                    let subject = note.subject.as_deref().unwrap_or_default();
                    let whole = from.iter().any(|(_, s)| s.contains(subject));
                    // A string given to two parameters (a value passed again) does not say which of them
                    // met the pattern: a version passed to `bump(kind)` as well as to the constructor
                    // would make the kind a version half of the time.
                    from.iter()
                        .filter(|(record, s)| {
                            s.contains(subject) == whole && !from.iter().any(|(other, t)| other != record && t == s)
                        })
                        .map(|(record, _)| *record)
                        .collect()
                }
            };
            for id in records {
                let Some(record) = self.records.get_mut(id as usize) else { continue };
                if note.method == "split" {
                    if !record.joiners.contains(&note.source) && record.joiners.len() < MOST_PATTERNS {
                        record.joiners.push(note.source.clone());
                    }
                    continue;
                }
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

    #[test]
    fn a_run_steps_through_the_characters_of_its_place() {
        let pattern = LearntPattern::new(&note("^[2-9A-F]x$", Some(" "))).unwrap();
        let digits: Vec<char> = "23456789ABCDEF".chars().collect();
        assert_eq!((&pattern.alphabets[0][0], &pattern.alphabets[1][1]), (&digits, &digits));
        let (first, last) = (Place { at: 0, from_end: false }, Place { at: 1, from_end: true });
        assert_eq!(pattern.step("9x", first, true).as_deref(), Some("Ax"), "not `:`");
        assert_eq!(pattern.step("Ax", last, false).as_deref(), Some("9x"));
        assert_eq!(pattern.step("2x", first, false), None, "nothing below the first");
    }

    #[test]
    fn some_lists_of_pieces_are_runs() {
        // A straight flush: five consecutive ranks of one suit. Independent draws and pieces that only
        // share a suit or a rank give one in about 50 000 hands.
        let mut five = note("^(?:[2-9]|10|[JQKA])[SHDC]$", Some(" "));
        five.pieces = Some(5);
        let card = LearntPattern::new(&five).unwrap();
        let ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
        let straight_flush = |hand: &str| {
            let cards: Vec<(usize, &str)> = hand
                .split(' ')
                .filter_map(|c| {
                    let (rank, suit) = c.split_at(c.len().checked_sub(1)?);
                    Some((ranks.iter().position(|r| *r == rank)?, suit))
                })
                .collect();
            let mut order: Vec<usize> = cards.iter().map(|(rank, _)| *rank).collect();
            order.sort_unstable();
            order.dedup();
            cards.len() == 5
                && order.len() == 5
                && order[4] - order[0] == 4
                && cards.iter().all(|(_, suit)| *suit == cards[0].1 && "SHDC".contains(suit))
        };
        let mut rng = StdRng::seed_from_u64(6);
        let found = (0..20_000).filter(|_| straight_flush(&card.sample(5, &mut rng))).count();
        assert!(found > 40, "{found} straight flushes in 20 000 hands");
    }

    #[test]
    fn a_pattern_goes_to_the_parameter_that_gave_its_subject_whole_and_alone() {
        use crate::model::test::{Statement, Variable};
        use crate::session::{Session, SessionOptions};
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/walls/version/version.js");
        let options = SessionOptions { files: vec![file], ..Default::default() };
        let session = Session::new(&options, crate::model::settings::Settings::default()).unwrap();
        let class = session.subject().program().class_named("Release").unwrap();
        let (text, kind) = (
            session.subject().types().params_of(class, "constructor")[0],
            session.subject().types().params_of(class, "bump")[0],
        );
        let learnt = |made: &str, bumped: &str| {
            let mut types = session.subject().types().clone();
            let test = TestCase {
                class,
                method: "bump".into(),
                variables: vec![Variable { class, name: "release".into() }],
                statements: vec![
                    Statement::Construct { variable: 0, class, args: vec![Value::String(made.into())] },
                    Statement::call(0, "bump", vec![Value::String(bumped.into())], true),
                ],
            };
            let mut met = note("^\\d+\\.\\d+\\.\\d+$", None);
            met.subject = Some("1.2.3".into());
            types.learn_patterns(&test, &[met]);
            (!types.get(text).patterns.is_empty(), !types.get(kind).patterns.is_empty())
        };
        assert_eq!(learnt("1.2.3", "patch"), (true, false));
        assert_eq!(learnt("1.2.3", "1.2.3"), (false, false), "passed to both: either may have met it");
        assert_eq!(learnt(" 1.2.3", "x1.y2.z3"), (true, false), "the kind only has its characters in order");
        assert_eq!(learnt("1..2..3", "x1.y2.z3"), (true, true), "neither has it whole");
    }
}
