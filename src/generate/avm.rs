//! Harman and McMinn's alternating variable method (AVM), over every primitive of a test: numbers, and
//! strings as EvoSuite moves them (their length, by characters added or taken off the end, and each
//! character's code), wherever they sit (see [`super::places`]).
//!
//! One variable moves at a time: a fraction is rounded first, then the value moves by ±1; a move that
//! gets closer is repeated the same way with a doubled step; one that does not turns the other way.
//! When neither way gets closer, from the second pass over the variables on, a number moves by
//! fractions, as EvoSuite's AVM refines a double: a tenth, then a hundredth, and so on down to one unit
//! in the last place, while the finer moves keep getting closer (an equality of reals, `x * x + y * y
//! === z * z` with a side that is no whole number, is only met that way); then the next variable.
//! Search makes one move per candidate and learns from its run whether it got closer (see
//! [`super::search`]).

use super::places::{Place, places, value_at};
use crate::model::test::{TestCase, Value};

/// Characters of a string moved one by one; the rest are left to random edits.
const MOST_CHARACTERS: usize = 32;
/// Longest string a length move makes.
const LONGEST: usize = 256;

/// Where the alternating variable method stands on a test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Avm {
    /// Index among the test's variables (see [`variables`]).
    pub place: usize,
    /// +1 or -1 to move by `step`; 0 to round a fraction first. Integer steps keep a fraction, and an
    /// equality like `3 * x === y + 1000` may then stay a fraction away for ever.
    pub direction: f64,
    /// How far a move goes: `unit`s doubled by each move that got closer; in units in the last place
    /// when `unit` is 0.
    pub step: f64,
    /// The smallest move at this stage: 1, then (numbers only) a tenth, a hundredth... [`FINEST`], then 0
    /// for one unit in the last place.
    pub unit: f64,
    /// Whether a move by a fraction got closer on this variable: only then are finer ones worth trying.
    pub refined: bool,
    /// Whether numbers move by fractions at all: from the second pass over the variables on (see
    /// [`super::search`]), so that whole moves find a whole solution first (`7 * x === y + 1234` with
    /// a fraction in `x`: rounding `x` then moving `y` gets there, refining `y` to the fraction does not).
    pub fractions: bool,
}

/// The finest decimal fraction a number moves by before moving by units in the last place.
const FINEST: f64 = 1e-15;
/// Fractions down to a hundredth are always tried: a real optimum can sit closer than a tenth to a
/// whole number (`x * x === 290` near 17: 17.03). Finer ones only once a fraction got closer, so that a
/// variable that only whole numbers move costs four more candidates, not thirty.
const COARSE: f64 = 0.05;

impl Default for Avm {
    fn default() -> Self {
        Avm { place: 0, direction: 0.0, step: 1.0, unit: 1.0, refined: false, fractions: false }
    }
}

/// One variable a move changes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Variable {
    /// A number.
    Number(Place),
    /// A string's length: characters added to or taken off its end.
    Length(Place),
    /// The code of a string's character.
    Char(Place, usize),
}

/// The variables of `test` at the places `free` lets move: each number, and each string's length then its
/// first characters; those of the last statement (the call of the method under test) first, then the
/// earlier ones backwards.
pub(super) fn variables(test: &TestCase, free: impl Fn(&Place) -> bool) -> Vec<Variable> {
    let mut out = Vec::new();
    let mut primitives = places(test, |v| matches!(v, Value::Number(_) | Value::String(_)));
    primitives.retain(|(place, _)| free(place));
    primitives.sort_by_key(|(place, _)| std::cmp::Reverse(place.statement));
    for (place, value) in primitives {
        match value {
            Value::String(text) => {
                let characters = text.chars().count().min(MOST_CHARACTERS);
                out.push(Variable::Length(place.clone()));
                out.extend((0..characters).map(|i| Variable::Char(place.clone(), i)));
            }
            _ => out.push(Variable::Number(place)),
        }
    }
    out
}

impl Avm {
    /// Makes this state's move on `test`, whose variables are `variables` (not empty); returns the state
    /// the move stands for. A move that cannot be made (a character code past the last) leaves the test
    /// as it was, which then counts as a move that did not get closer.
    pub(crate) fn make(self, test: &mut TestCase, variables: &[Variable]) -> Avm {
        let avm = Avm { place: self.place % variables.len(), ..self };
        if avm.unit < 1.0 && !matches!(variables[avm.place], Variable::Number(_)) {
            // Lengths and character codes move by whole steps only.
            return avm.next_variable().make(test, variables);
        }
        match &variables[avm.place] {
            Variable::Number(place) => match value_at(test, place) {
                Some(Value::Number(n)) => avm.apply(n),
                _ => avm,
            },
            Variable::Length(place) => {
                let (avm, by) = avm.shift();
                if let Some(Value::String(text)) = value_at(test, place) {
                    resize(text, by);
                }
                avm
            }
            Variable::Char(place, i) => {
                let (avm, by) = avm.shift();
                if let Some(Value::String(text)) = value_at(test, place) {
                    move_char(text, *i, by);
                }
                avm
            }
        }
    }

    /// Moves `value`; returns the state the move stands for (a whole number cannot be rounded: it is
    /// moved up instead).
    pub(crate) fn apply(self, value: &mut f64) -> Avm {
        if self.direction == 0.0 {
            if value.fract() != 0.0 && value.is_finite() {
                *value = value.round();
                return self;
            }
            return Avm { direction: 1.0, ..self }.apply(value);
        }
        let last_place = if *value >= 0.0 { value.next_up() - *value } else { *value - value.next_down() };
        let by = if self.unit == 0.0 { self.step * last_place } else { self.step };
        // A fraction finer than the number's precision moves it by one unit in the last place.
        *value += self.direction * by.max(last_place);
        self
    }

    /// The signed whole amount this state moves a length or a character code by (rounding means
    /// nothing there: it moves up), with the state that stands for it.
    fn shift(self) -> (Avm, i64) {
        let avm = if self.direction == 0.0 { Avm { direction: 1.0, ..self } } else { self };
        (avm, (avm.direction * avm.step) as i64)
    }

    /// The next move after this one did not get closer: after a run of doubled steps, explore again
    /// around the best value; after rounding, a step up; after a failed step up, a step down; after
    /// both, moves by a finer fraction (a tenth and a hundredth always, finer ones when a fraction got
    /// closer), or the next variable.
    pub(crate) fn failed(self) -> Avm {
        if self.step > self.first_step() {
            Avm { step: self.first_step(), ..self }
        } else if self.direction == 0.0 {
            Avm { direction: 1.0, ..self }
        } else if self.direction > 0.0 {
            Avm { direction: -1.0, ..self }
        } else if self.fractions && (self.unit > COARSE || self.refined && self.unit > 0.0) {
            let unit = if self.unit > FINEST { self.unit / 10.0 } else { 0.0 };
            let finer = Avm { direction: 1.0, unit, ..self };
            Avm { step: finer.first_step(), ..finer }
        } else {
            self.next_variable()
        }
    }

    /// The step a move at this unit starts with: the unit, or one unit in the last place (see `step`).
    fn first_step(self) -> f64 {
        if self.unit == 0.0 { 1.0 } else { self.unit }
    }

    /// The first move on the next variable, in the same pass.
    fn next_variable(self) -> Avm {
        Avm { place: self.place + 1, fractions: self.fractions, ..Avm::default() }
    }

    /// The next move after this one got closer: the same way with a doubled step (after rounding, a
    /// step up).
    pub(crate) fn succeeded(self) -> Avm {
        let refined = self.refined || self.unit < 1.0;
        if self.direction == 0.0 {
            Avm { direction: 1.0, refined, ..self }
        } else {
            Avm { step: self.step * 2.0, refined, ..self }
        }
    }
}

/// Adds `by` copies of the last character (`0` in an empty string) or takes `-by` characters off.
fn resize(text: &mut String, by: i64) {
    let length = text.chars().count();
    if by >= 0 {
        let fill = text.chars().last().unwrap_or('0');
        let added = (by as usize).min(LONGEST.saturating_sub(length));
        text.extend(std::iter::repeat_n(fill, added));
    } else if length as i64 + by >= 0 {
        *text = text.chars().take((length as i64 + by) as usize).collect();
    }
}

/// Moves the code of character `i` by `by`, stepping over the surrogates (which no string of Rust
/// holds alone: code points past them are written as surrogate pairs in JavaScript).
fn move_char(text: &mut String, i: usize, by: i64) {
    let mut chars: Vec<char> = text.chars().collect();
    let Some(c) = chars.get(i) else { return };
    let mut code = i64::from(u32::from(*c)) + by;
    if (0xD800..=0xDFFF).contains(&code) {
        code = if by > 0 { code + 0x800 } else { code - 0x800 };
    }
    let Some(moved) = u32::try_from(code).ok().and_then(char::from_u32) else { return };
    chars[i] = moved;
    *text = chars.into_iter().collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test::Statement;

    fn test_with(args: Vec<Value>) -> TestCase {
        TestCase {
            class: 0,
            method: "m".into(),
            variables: Vec::new(),
            statements: vec![Statement::call(0, "m", args, true)],
        }
    }

    #[test]
    fn the_alternating_variable_method_rounds_then_climbs_and_turns() {
        let start = Avm::default();
        let mut x = 2.6;
        let rounded = start.apply(&mut x);
        assert_eq!((x, rounded.direction), (3.0, 0.0));
        // A whole number is moved up rather than rounded.
        let up = start.apply(&mut x);
        assert_eq!((x, up.direction, up.step), (4.0, 1.0, 1.0));
        // Success doubles the step the same way; failure after a run goes back to steps of 1, then
        // turns, then moves to the next variable.
        let faster = up.succeeded().succeeded();
        assert_eq!((faster.direction, faster.step), (1.0, 4.0));
        let again = faster.failed();
        assert_eq!((again.direction, again.step, again.place), (1.0, 1.0, 0));
        let down = again.failed();
        assert_eq!((down.direction, down.place), (-1.0, 0));
        assert_eq!(down.failed(), Avm { place: 1, ..Avm::default() }, "no fractions on a first pass");
        // Neither way got closer: a tenth up, then down, a hundredth up, then down; no fraction got
        // closer: the next variable.
        let tenth = Avm { fractions: true, ..down }.failed();
        assert_eq!((tenth.direction, tenth.step, tenth.place), (1.0, 0.1, 0));
        let hundredth = tenth.failed().failed();
        assert_eq!((hundredth.direction, hundredth.step, hundredth.place), (1.0, 0.01, 0));
        assert_eq!(hundredth.failed().failed(), Avm { place: 1, fractions: true, ..Avm::default() });
        assert_eq!(start.failed().direction, 1.0, "after rounding, a step up");
    }

    #[test]
    fn fractions_get_finer_while_they_get_closer_down_to_the_last_place() {
        // |x * x - 226| from x = 15: neither 14 nor 16 is closer, nor a tenth (the root is 15.033),
        // hundredths are, and finer fractions, down to a double that squares back to 226 exactly.
        let distance = |x: f64| (x * x - 226.0).abs();
        let (mut x, mut avm, mut moves) = (15.0, Avm { direction: 1.0, fractions: true, ..Avm::default() }, 0);
        while distance(x) > 0.0 && avm.place == 0 && moves < 400 {
            let mut moved = x;
            let state = avm.apply(&mut moved);
            moves += 1;
            if distance(moved) < distance(x) {
                x = moved;
                avm = state.succeeded();
            } else {
                avm = state.failed();
            }
        }
        assert_eq!(distance(x), 0.0, "{x} after {moves} moves");
        assert!(moves < 200, "{moves} moves");
        assert!(x.fract() != 0.0 && x * x == 226.0);
    }

    #[test]
    fn strings_move_by_length_and_by_character_codes_nested_ones_too() {
        let mut test = test_with(vec![Value::Array(vec![Value::String("ab".into())]), Value::Number(1.5)]);
        let variables = super::variables(&test, |_| true);
        assert_eq!(variables.len(), 4, "{variables:?}");
        assert!(matches!(variables[0], Variable::Length(_)) && matches!(variables[3], Variable::Number(_)));
        let string = |test: &TestCase| match &test.statements[0].args()[0] {
            Value::Array(items) => items[0].clone(),
            other => other.clone(),
        };
        // Longer by copies of the last character, with doubling steps; shorter from the end.
        let longer = Avm::default().make(&mut test, &variables).succeeded();
        assert_eq!(string(&test), Value::String("abb".into()));
        longer.make(&mut test, &variables);
        assert_eq!(string(&test), Value::String("abbbb".into()));
        Avm { direction: -1.0, step: 4.0, ..Avm::default() }.make(&mut test, &variables);
        assert_eq!(string(&test), Value::String("a".into()));
        // Character codes, over the surrogates.
        let mut test = test_with(vec![Value::String("a\u{d7ff}".into())]);
        let variables = super::variables(&test, |_| true);
        Avm { direction: -1.0, place: 1, ..Avm::default() }.make(&mut test, &variables);
        assert_eq!(test.statements[0].args()[0], Value::String("`\u{d7ff}".into()));
        Avm { direction: 1.0, place: 2, ..Avm::default() }.make(&mut test, &variables);
        assert_eq!(test.statements[0].args()[0], Value::String("`\u{e000}".into()));
        // The number is rounded, as before.
        let mut test = test_with(vec![Value::String(String::new()), Value::Number(1.5)]);
        let variables = super::variables(&test, |_| true);
        Avm { place: 1, ..Avm::default() }.make(&mut test, &variables);
        assert_eq!(test.statements[0].args()[1], Value::Number(2.0));
    }
}
