//! Random primitive values for generated calls: the default mixes of numbers and strings, or strings
//! drawn from a JavaScript regular expression the user gives (see [`crate::js::regex`]).

use rand::{Rng, RngExt};

use crate::js::number::string_to_number;
use crate::model::settings::{NumberSource, StringSource};

/// Regular expressions passed where a `RegExp` is needed and the code offers none of its own (source,
/// flags): a literal, an anchored class, a case-insensitive and a global pattern, and the empty one.
pub(crate) const REGEXPS: [(&str, &str); 5] = [("a", ""), ("^\\d+$", ""), ("[a-z]+", "i"), ("b", "g"), ("", "")];

/// Drawing strings: the default mix, or a sample of the user's pattern.
impl StringSource {
    /// Draws one string.
    pub(crate) fn generate<R: Rng + ?Sized>(&self, rng: &mut R) -> String {
        match self {
            StringSource::Default => default_string(rng),
            StringSource::Regex(generator) => generator.sample(rng),
        }
    }
}

/// Drawing numbers: the default mix, or a user's pattern converted as `Number(text)` would.
impl NumberSource {
    /// Draws one number.
    pub(crate) fn generate<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        match self {
            NumberSource::Default => default_number(rng),
            NumberSource::Regex(generator) => string_to_number(&generator.sample(rng)),
        }
    }
}

/// Values that often sit on a branch in code: sign flips, halves, 32-bit and safe-integer limits.
const BOUNDARY_NUMBERS: [f64; 9] = [
    1.0,
    -1.0,
    0.5,
    -0.5,
    2_147_483_647.0,
    -2_147_483_648.0,
    4_294_967_295.0,
    9_007_199_254_740_991.0,
    -9_007_199_254_740_991.0,
];

fn default_number<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    match rng.random_range(0..100u32) {
        // Indexes and counts: small non-negative integers get a share of their own.
        0..18 => f64::from(rng.random_range(0..=4i32)),
        18..36 => f64::from(rng.random_range(-10..=10i32)),
        36..43 => 0.0,
        // Indexes and sizes of hundreds, as many tens as hundreds: what a loop stepping over blocks (eight
        // words of a bit set, a buffer's 64-byte chunks) needs to take its wide step, and what no other
        // share gives.
        43..51 => middle_integer(rng),
        51..58 => f64::from(-rng.random_range(1..=1000i32)),
        58..75 => {
            let scale = 10u32.pow(rng.random_range(1..=3u32));
            let mut units = rng.random_range(1..100 * scale);
            if units % scale == 0 {
                units += 1;
            }
            // IEEE division rounds once, so this is the double nearest the decimal and prints as it.
            let value = f64::from(units) / f64::from(scale);
            if rng.random_ratio(1, 3) { -value } else { value }
        }
        75..90 => {
            let low = 10u64.pow(rng.random_range(3..=8u32));
            let value = rng.random_range(low..=low * 10) as f64;
            if rng.random_ratio(1, 4) { -value } else { value }
        }
        _ => BOUNDARY_NUMBERS[rng.random_range(0..BOUNDARY_NUMBERS.len())],
    }
}

/// An integer from 11 to 999, as often below 100 as above.
pub(crate) fn middle_integer<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let high = if rng.random_bool(0.5) { 99 } else { 999 };
    f64::from(rng.random_range(11..=high))
}

fn default_string<R: Rng + ?Sized>(rng: &mut R) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const DIGITS: &[u8] = b"0123456789";
    const OTHERS: &[u8] = b" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    if rng.random_ratio(1, 10) {
        return String::new();
    }
    let len = rng.random_range(1..=8usize);
    (0..len)
        .map(|_| {
            let set = match rng.random_range(0..20u32) {
                0..13 => LETTERS,
                13..17 => DIGITS,
                _ => OTHERS,
            };
            char::from(set[rng.random_range(0..set.len())])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng as _;
    use rand::rngs::StdRng;

    use super::*;
    use crate::js::regex::RegexGenerator;

    fn generator(pattern: &str) -> RegexGenerator {
        RegexGenerator::parse(pattern).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn default_numbers_cover_each_kind() {
        let mut rng = StdRng::seed_from_u64(11);
        let numbers: Vec<f64> = (0..10_000).map(|_| NumberSource::Default.generate(&mut rng)).collect();
        assert!(numbers.iter().all(|v| v.is_finite()));
        let share = |test: &dyn Fn(f64) -> bool| numbers.iter().filter(|&&v| test(v)).count() as f64 / 10_000.0;
        let small = share(&|v| v.fract() == 0.0 && v.abs() <= 10.0);
        assert!(small > 0.4, "small integers: {small}");
        assert!(share(&|v| v == 0.0) > 0.08);
        assert!(share(&|v| v < 0.0) > 0.2);
        let fractions = share(&|v| v.fract() != 0.0 && v.abs() < 100.0 && (v * 1000.0).round() == v * 1000.0);
        assert!(fractions > 0.12, "fractions: {fractions}");
        assert!(share(&|v| (1e3..=1e9).contains(&v.abs()) && v.fract() == 0.0) > 0.1);
        assert!(share(&|v| v < -1e3) > 0.02);
        let middle = |low: f64, high: f64| share(&|v| v.fract() == 0.0 && (low..=high).contains(&v));
        assert!(
            middle(11.0, 99.0) > 0.03 && middle(100.0, 999.0) > 0.03,
            "{} {}",
            middle(11.0, 99.0),
            middle(100.0, 999.0)
        );
        for boundary in [2_147_483_647.0, -2_147_483_648.0, 0.5] {
            assert!(numbers.contains(&boundary), "{boundary}");
        }
    }

    #[test]
    fn default_strings_are_short_printable_ascii() {
        let mut rng = StdRng::seed_from_u64(5);
        let strings: Vec<String> = (0..5_000).map(|_| StringSource::Default.generate(&mut rng)).collect();
        let empty = strings.iter().filter(|s| s.is_empty()).count();
        assert!((350..650).contains(&empty), "{empty}");
        assert!(strings.iter().all(|s| s.len() <= 8 && s.bytes().all(|b| (b' '..=b'~').contains(&b))));
        assert!(strings.iter().any(|s| s.len() == 8) && strings.iter().any(|s| s.len() == 1));
        let chars: String = strings.concat();
        let letters = chars.chars().filter(char::is_ascii_alphabetic).count();
        let digits = chars.chars().filter(char::is_ascii_digit).count();
        let others = chars.len() - letters - digits;
        assert!(letters > digits && digits > others && others > 0, "{letters} {digits} {others}");
    }

    #[test]
    fn number_regexes_are_converted() {
        let source = NumberSource::Regex(generator(r"-?\d{1,2}(\.\d)?"));
        let mut rng = StdRng::seed_from_u64(9);
        for _ in 0..200 {
            let v = source.generate(&mut rng);
            assert!(v.abs() < 100.0 && (v * 10.0).round() == v * 10.0, "{v}");
        }
        let hex = NumberSource::Regex(generator("0x[0-9a-f]{2}"));
        assert!((0..50).all(|_| (0.0..256.0).contains(&hex.generate(&mut rng))));
        let words = NumberSource::Regex(generator("[a-z]+"));
        assert!(words.generate(&mut rng).is_nan());
    }

    #[test]
    fn output_is_reproducible() {
        let generator = generator(r"[A-Z][a-z]{2,6}\d*");
        let draw = |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            let strings: Vec<String> = (0..50).map(|_| generator.sample(&mut rng)).collect();
            let defaults: Vec<String> = (0..50).map(|_| StringSource::Default.generate(&mut rng)).collect();
            let numbers: Vec<u64> = (0..50).map(|_| NumberSource::Default.generate(&mut rng).to_bits()).collect();
            (strings, defaults, numbers)
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
