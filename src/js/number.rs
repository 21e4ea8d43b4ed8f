//! JavaScript's `Number(text)` for strings, as number generators given a pattern need it.

/// JavaScript's `WhiteSpace` and `LineTerminator` characters: what `\s` matches and what `Number()`
/// trims.
pub(crate) const JS_WHITESPACE: [(char, char); 10] = [
    ('\t', '\r'),
    (' ', ' '),
    ('\u{A0}', '\u{A0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200A}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202F}', '\u{202F}'),
    ('\u{205F}', '\u{205F}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{FEFF}', '\u{FEFF}'),
];

/// JavaScript's `Number(text)` for a string: surrounding whitespace is ignored, the empty string is 0,
/// `0x`/`0o`/`0b` prefixes, `Infinity` and signed decimals (with `.5`, `5.` and exponents) are read,
/// anything else is `NaN`.
pub(crate) fn string_to_number(text: &str) -> f64 {
    let text = text.trim_matches(is_js_whitespace);
    if text.is_empty() {
        return 0.0;
    }
    for (prefixes, radix) in [(["0x", "0X"], 16), (["0o", "0O"], 8), (["0b", "0B"], 2)] {
        if let Some(digits) = prefixes.iter().find_map(|prefix| text.strip_prefix(prefix)) {
            return power_of_two_radix(digits, radix).unwrap_or(f64::NAN);
        }
    }
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text.strip_prefix('+').unwrap_or(text)),
    };
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    // Rust's parser rounds correctly but also accepts `inf`, `nan` and the like, so the JavaScript
    // grammar is checked first.
    if !is_unsigned_decimal(unsigned) {
        return f64::NAN;
    }
    unsigned.parse::<f64>().map_or(f64::NAN, |value| sign * value)
}

/// Whether `text` is JavaScript's `StrUnsignedDecimalLiteral` without `Infinity`.
fn is_unsigned_decimal(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits_from = |start: usize| bytes[start..].iter().take_while(|b| b.is_ascii_digit()).count();
    let whole = digits_from(0);
    let mut end = whole;
    let mut fraction = 0;
    if bytes.get(end) == Some(&b'.') {
        fraction = digits_from(end + 1);
        end += 1 + fraction;
    }
    if whole + fraction == 0 {
        return false;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        end += 1;
        if matches!(bytes.get(end), Some(b'+' | b'-')) {
            end += 1;
        }
        let exponent = digits_from(end);
        if exponent == 0 {
            return false;
        }
        end += exponent;
    }
    end == bytes.len()
}

/// Reads digits in radix 2, 8 or 16, rounded once to the nearest double as JavaScript does even past
/// 2^53. `None` when a digit is invalid or there are none.
fn power_of_two_radix(digits: &str, radix: u32) -> Option<f64> {
    if digits.is_empty() {
        return None;
    }
    let bits = radix.trailing_zeros();
    let mut mantissa: u128 = 0;
    let mut exponent: i32 = 0;
    let mut sticky = false;
    for c in digits.chars() {
        let digit = c.to_digit(radix)?;
        if mantissa >> (128 - bits) == 0 {
            mantissa = (mantissa << bits) | u128::from(digit);
        } else {
            exponent = exponent.saturating_add(bits as i32);
            sticky |= digit != 0;
        }
    }
    // The mantissa keeps at least 125 bits, far more than a double's 53, so folding the dropped digits
    // into its lowest bit is enough for `as f64` to round exactly as a single rounding would.
    Some((mantissa | u128::from(sticky)) as f64 * 2f64.powi(exponent))
}

fn is_js_whitespace(c: char) -> bool {
    JS_WHITESPACE.iter().any(|&(low, high)| (low..=high).contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_convert_like_javascript_number() {
        let nan = f64::NAN.to_bits();
        for (text, expected) in [
            ("", 0.0),
            ("  \t\n", 0.0),
            ("42", 42.0),
            (" 42 ", 42.0),
            ("\u{A0}7\u{FEFF}", 7.0),
            ("-3.5", -3.5),
            ("+.5", 0.5),
            ("5.", 5.0),
            ("1e3", 1000.0),
            ("1.5E-2", 0.015),
            ("1e400", f64::INFINITY),
            ("-1e400", f64::NEG_INFINITY),
            ("0.1", 0.1),
            ("007", 7.0),
            ("0x1F", 31.0),
            ("0XfF", 255.0),
            ("0o17", 15.0),
            ("0b101", 5.0),
            ("0x20000000000001", 9007199254740992.0),
            ("0x20000000000003", 9007199254740996.0),
            ("0x20000000000001000000001", 6.189700196426903e26),
            ("0b1111111111111111111111111111111111111111111111111111111111110 1", f64::NAN),
            ("Infinity", f64::INFINITY),
            ("-Infinity", f64::NEG_INFINITY),
            ("+Infinity", f64::INFINITY),
        ] {
            assert_eq!(string_to_number(text).to_bits(), expected.to_bits(), "{text:?}");
        }
        assert_eq!(string_to_number(&format!("0x1{}", "0".repeat(255))), 1.1235582092889474e307);
        assert_eq!(string_to_number(&format!("0b{}01", "1".repeat(60))), 4611686018427388000.0);
        assert_eq!(string_to_number(&format!("0x{}", "f".repeat(300))), f64::INFINITY);
        assert!(string_to_number("-0").is_sign_negative() && string_to_number("-0") == 0.0);
        for text in
            ["abc", "1_000", "0x", "-0x10", "1e", "e5", ".", "+-1", "infinity", "inf", "NaN", "1 2", "0xg", "12px"]
        {
            assert_eq!(string_to_number(text).to_bits(), nan, "{text:?}");
        }
    }
}
