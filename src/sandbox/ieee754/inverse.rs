//! The inverse trigonometric and hyperbolic functions, and `cbrt`.

#![allow(clippy::excessive_precision, clippy::approx_constant, clippy::many_single_char_names)]

use super::*;

pub(super) const PS: [f64; 6] = [
    1.66666666666666657415e-01,
    -3.25565818622400915405e-01,
    2.01212532134862925881e-01,
    -4.00555345006794114027e-02,
    7.91534994289814532176e-04,
    3.47933107596021167570e-05,
];
pub(super) const QS: [f64; 4] =
    [-2.40339491173441421878e+00, 2.02094576023350569471e+00, -6.88283971605453293030e-01, 7.70381505559019352791e-02];
pub(super) const PIO2_HI: f64 = 1.57079632679489655800e+00;
pub(super) const PIO2_LO: f64 = 6.12323399573676603587e-17;

/// The numerator and denominator of asin's rational approximation at `z`.
pub(super) fn asin_pq(z: f64) -> (f64, f64) {
    let p = z * (PS[0] + z * (PS[1] + z * (PS[2] + z * (PS[3] + z * (PS[4] + z * PS[5])))));
    let q = 1.0 + z * (QS[0] + z * (QS[1] + z * (QS[2] + z * QS[3])));
    (p, q)
}

pub(crate) fn acos(x: f64) -> f64 {
    const PI: f64 = 3.14159265358979311600e+00;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x3FF00000 {
        if ((ix - 0x3FF00000) as u32 | low(x)) == 0 {
            return if hx > 0 { 0.0 } else { PI + 2.0 * PIO2_LO };
        }
        return f64::NAN;
    }
    if ix < 0x3FE00000 {
        if ix <= 0x3C600000 {
            return PIO2_HI + PIO2_LO;
        }
        let (p, q) = asin_pq(x * x);
        let r = p / q;
        return PIO2_HI - (x - (PIO2_LO - x * r));
    }
    if hx < 0 {
        let z = (1.0 + x) * 0.5;
        let (p, q) = asin_pq(z);
        let s = z.sqrt();
        let r = p / q;
        let w = r * s - PIO2_LO;
        return PI - 2.0 * (s + w);
    }
    let z = (1.0 - x) * 0.5;
    let s = z.sqrt();
    let df = with_low(s, 0);
    let c = (z - df * df) / (s + df);
    let (p, q) = asin_pq(z);
    let r = p / q;
    let w = r * s + c;
    2.0 * (df + w)
}

pub(crate) fn acosh(x: f64) -> f64 {
    const LN2: f64 = 6.93147180559945286227e-01;
    let hx = high(x);
    if hx < 0x3FF00000 {
        f64::NAN
    } else if hx >= 0x41B00000 {
        if hx >= 0x7FF00000 { x + x } else { log(x) + LN2 }
    } else if ((hx - 0x3FF00000) as u32 | low(x)) == 0 {
        0.0
    } else if hx > 0x40000000 {
        let t = x * x;
        log(2.0 * x - 1.0 / (x + (t - 1.0).sqrt()))
    } else {
        let t = x - 1.0;
        log1p(t + (2.0 * t + t * t).sqrt())
    }
}

pub(crate) fn asin(x: f64) -> f64 {
    const PIO4_HI: f64 = 7.85398163397448278999e-01;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x3FF00000 {
        if ((ix - 0x3FF00000) as u32 | low(x)) == 0 {
            return x * PIO2_HI + x * PIO2_LO;
        }
        return f64::NAN;
    }
    if ix < 0x3FE00000 {
        if ix < 0x3E400000 {
            return x;
        }
        let t = x * x;
        let (p, q) = asin_pq(t);
        let w = p / q;
        return x + x * w;
    }
    let w = 1.0 - x.abs();
    let t = w * 0.5;
    let (p, q) = asin_pq(t);
    let s = t.sqrt();
    let t = if ix >= 0x3FEF3333 {
        let w = p / q;
        PIO2_HI - (2.0 * (s + s * w) - PIO2_LO)
    } else {
        let w = with_low(s, 0);
        let c = (t - w * w) / (s + w);
        let r = p / q;
        let p = 2.0 * s * r - (PIO2_LO - 2.0 * c);
        let q = PIO4_HI - 2.0 * w;
        PIO4_HI - (p - q)
    };
    if hx > 0 { t } else { -t }
}

pub(crate) fn asinh(x: f64) -> f64 {
    const LN2: f64 = 6.93147180559945286227e-01;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix >= 0x7FF00000 {
        return x + x;
    }
    if ix < 0x3E300000 {
        return x;
    }
    let w = if ix > 0x41B00000 {
        log(x.abs()) + LN2
    } else if ix > 0x40000000 {
        let t = x.abs();
        log(2.0 * t + 1.0 / ((x * x + 1.0).sqrt() + t))
    } else {
        let t = x * x;
        log1p(x.abs() + t / (1.0 + (1.0 + t).sqrt()))
    };
    if hx > 0 { w } else { -w }
}

pub(crate) fn atan(x: f64) -> f64 {
    const ATANHI: [f64; 4] = [
        4.63647609000806093515e-01,
        7.85398163397448278999e-01,
        9.82793723247329054082e-01,
        1.57079632679489655800e+00,
    ];
    const ATANLO: [f64; 4] = [
        2.26987774529616870924e-17,
        3.06161699786838301793e-17,
        1.39033110312309984516e-17,
        6.12323399573676603587e-17,
    ];
    const AT: [f64; 11] = [
        3.33333333333329318027e-01,
        -1.99999999998764832476e-01,
        1.42857142725034663711e-01,
        -1.11111104054623557880e-01,
        9.09088713343650656196e-02,
        -7.69187620504482999495e-02,
        6.66107313738753120669e-02,
        -5.83357013379057348645e-02,
        4.97687799461593236017e-02,
        -3.65315727442169155270e-02,
        1.62858201153657823623e-02,
    ];
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    let mut x = x;
    if ix >= 0x44100000 {
        if x.is_nan() {
            return x + x;
        }
        return if hx > 0 { ATANHI[3] + ATANLO[3] } else { -ATANHI[3] - ATANLO[3] };
    }
    let id: i32 = if ix < 0x3FDC0000 {
        if ix < 0x3E400000 {
            return x;
        }
        -1
    } else {
        x = x.abs();
        if ix < 0x3FF30000 {
            if ix < 0x3FE60000 {
                x = (2.0 * x - 1.0) / (2.0 + x);
                0
            } else {
                x = (x - 1.0) / (x + 1.0);
                1
            }
        } else if ix < 0x40038000 {
            x = (x - 1.5) / (1.0 + 1.5 * x);
            2
        } else {
            x = -1.0 / x;
            3
        }
    };
    let z = x * x;
    let w = z * z;
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    if id < 0 {
        return x - x * (s1 + s2);
    }
    let id = id as usize;
    let z = ATANHI[id] - ((x * (s1 + s2) - ATANLO[id]) - x);
    if hx < 0 { -z } else { z }
}

pub(crate) fn atan2(y: f64, x: f64) -> f64 {
    const TINY: f64 = 1.0e-300;
    const PI_O_4: f64 = 7.8539816339744827900E-01;
    const PI_O_2: f64 = 1.5707963267948965580E+00;
    const PI: f64 = 3.1415926535897931160E+00;
    const PI_LO: f64 = 1.2246467991473531772E-16;
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let (hx, lx) = (high(x), low(x));
    let (hy, ly) = (high(y), low(y));
    let ix = hx & 0x7FFFFFFF;
    let iy = hy & 0x7FFFFFFF;
    if (hx.wrapping_sub(0x3FF00000) as u32 | lx) == 0 {
        return atan(y);
    }
    let mut m = ((hy >> 31) & 1) | ((hx >> 30) & 2);
    if (iy as u32 | ly) == 0 {
        return match m {
            0 | 1 => y,
            2 => PI + TINY,
            _ => -PI - TINY,
        };
    }
    if (ix as u32 | lx) == 0 {
        return if hy < 0 { -PI_O_2 - TINY } else { PI_O_2 + TINY };
    }
    if ix == 0x7FF00000 {
        return if iy == 0x7FF00000 {
            match m {
                0 => PI_O_4 + TINY,
                1 => -PI_O_4 - TINY,
                2 => 3.0 * PI_O_4 + TINY,
                _ => -3.0 * PI_O_4 - TINY,
            }
        } else {
            match m {
                0 => 0.0,
                1 => -0.0,
                2 => PI + TINY,
                _ => -PI - TINY,
            }
        };
    }
    if iy == 0x7FF00000 {
        return if hy < 0 { -PI_O_2 - TINY } else { PI_O_2 + TINY };
    }
    let k = (iy - ix) >> 20;
    let z = if k > 60 {
        m &= 1;
        PI_O_2 + 0.5 * PI_LO
    } else if hx < 0 && k < -60 {
        0.0
    } else {
        atan((y / x).abs())
    };
    match m {
        0 => z,
        1 => -z,
        2 => PI - (z - PI_LO),
        _ => (z - PI_LO) - PI,
    }
}

pub(crate) fn atanh(x: f64) -> f64 {
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    if ix == 0x3FF00000 && low(x) == 0 {
        return if x > 0.0 { f64::INFINITY } else { f64::NEG_INFINITY };
    }
    if ix < 0x3E300000 {
        return x;
    }
    let x = with_high(x, ix as u32);
    let t = if ix < 0x3FE00000 {
        let t = x + x;
        0.5 * log1p(t + t * x / (1.0 - x))
    } else {
        0.5 * log1p((x + x) / (1.0 - x))
    };
    if hx >= 0 { t } else { -t }
}

pub(crate) fn cbrt(x: f64) -> f64 {
    const B1: u32 = 715094163;
    const B2: u32 = 696219795;
    const P0: f64 = 1.87595182427177009643;
    const P1: f64 = -1.88497979543377169875;
    const P2: f64 = 1.621429720105354466140;
    const P3: f64 = -0.758397934778766047437;
    const P4: f64 = 0.145996192886612446982;
    let mut hx = high(x) as u32;
    let sign = hx & 0x80000000;
    hx ^= sign;
    if hx >= 0x7FF00000 {
        return x + x;
    }
    let mut t = if hx < 0x00100000 {
        if (hx | low(x)) == 0 {
            return x;
        }
        let t = words(0x43500000, 0) * x;
        words(sign | ((high(t) as u32 & 0x7FFFFFFF) / 3 + B2), 0)
    } else {
        words(sign | (hx / 3 + B1), 0)
    };
    let r = (t * t) * (t / x);
    t *= (P0 + r * (P1 + r * P2)) + ((r * r) * r) * (P3 + r * P4);
    t = f64::from_bits((t.to_bits() + 0x80000000) & 0xFFFFFFFFC0000000);
    let s = t * t;
    let r = x / s;
    let w = t + t;
    let r = (r - t) / (w + r);
    t + t * r
}
