//! The `Math` functions as V8 computes them, bit for bit, so that a number a test builds from
//! `Math.cos` or `Math.pow` in the sandbox is the number Node builds and the exported suite may assert
//! it (and strings made from it) exactly. QuickJS calls the C library, which rounds some results of
//! these functions differently in the last bit.
//!
//! A port to Rust of V8's `src/base/ieee754.cc` (its `legacy::pow` for `Math.pow`), itself adapted
//! from fdlibm, as Node 20 (V8 11.3) builds it: without `V8_USE_LIBM_TRIG_FUNCTIONS`, so `sin` and
//! `cos` are fdlibm's too. `hypot` follows V8's `MathHypot` builtin (`src/builtins/math.tq`): Kahan
//! summation of the squares scaled by the largest argument. The structure, constants and order of
//! operations are kept as they are there, since any change moves last bits; the bit-twiddling macros
//! (`GET_HIGH_WORD`...) are the small functions at the top.
//!
//! fdlibm's notice, which its licence asks to keep:
//!
//! ```text
//! ====================================================
//! Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//!
//! Developed at SunSoft, a Sun Microsystems, Inc. business.
//! Permission to use, copy, modify, and distribute this
//! software is freely granted, provided that this notice
//! is preserved.
//! ====================================================
//! ```
//!
//! V8's changes are Copyright 2016 the V8 project authors, under V8's BSD-style licence.
#![allow(clippy::excessive_precision, clippy::approx_constant, clippy::many_single_char_names)]

mod exp_log;
mod inverse;
mod pow;
#[cfg(test)]
mod tests;
mod trig;

pub(crate) use self::exp_log::{cosh, exp, expm1, log, log1p, log2, log10, sinh, tanh};
pub(crate) use self::inverse::{acos, acosh, asin, asinh, atan, atan2, atanh, cbrt};
pub(crate) use self::pow::{hypot, pow};
pub(crate) use self::trig::{cos, sin, tan};

/// The high 32 bits of `x`, signed as fdlibm reads them.
pub(super) fn high(x: f64) -> i32 {
    (x.to_bits() >> 32) as i32
}

/// The low 32 bits of `x`.
pub(super) fn low(x: f64) -> u32 {
    x.to_bits() as u32
}

/// The double of the two words.
pub(super) fn words(high: u32, low: u32) -> f64 {
    f64::from_bits((u64::from(high) << 32) | u64::from(low))
}

/// `x` with its high word replaced.
pub(super) fn with_high(x: f64, h: u32) -> f64 {
    words(h, low(x))
}

/// `x` with its low word replaced.
pub(super) fn with_low(x: f64, l: u32) -> f64 {
    words(high(x) as u32, l)
}

/// `x * 2^n`, rounded once (the C library's `scalbn`).
pub(super) fn scalbn(x: f64, mut n: i32) -> f64 {
    let p1023 = f64::from_bits(0x7FE0_0000_0000_0000);
    let pm969 = f64::from_bits(0x0010_0000_0000_0000) * f64::from_bits(0x4340_0000_0000_0000);
    let mut y = x;
    if n > 1023 {
        y *= p1023;
        n -= 1023;
        if n > 1023 {
            y *= p1023;
            n = (n - 1023).min(1023);
        }
    } else if n < -1022 {
        y *= pm969;
        n += 1022 - 53;
        if n < -1022 {
            y *= pm969;
            n = (n + 1022 - 53).max(-1022);
        }
    }
    y * f64::from_bits(((0x3FF + n) as u64) << 52)
}

pub(super) const LN2_HI: f64 = 6.93147180369123816490e-01;
pub(super) const LN2_LO: f64 = 1.90821492927058770002e-10;
pub(super) const INVLN2: f64 = 1.44269504088896338700e+00;
pub(super) const TWO54: f64 = 1.80143985094819840000e+16;
pub(super) const HUGE: f64 = 1.0e+300;
