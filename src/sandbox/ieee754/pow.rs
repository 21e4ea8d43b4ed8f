//! `pow` (V8's `legacy::pow`) and `hypot` (V8's `MathHypot` builtin).

#![allow(clippy::excessive_precision, clippy::approx_constant, clippy::many_single_char_names)]

use super::*;

/// `Math.hypot` of numbers already converted: V8's builtin, Kahan summation of the squares of the
/// arguments divided by the largest.
pub(crate) fn hypot(values: &[f64]) -> f64 {
    let mut max = 0.0f64;
    let mut nan = false;
    for v in values {
        if v.is_nan() {
            nan = true;
        } else if v.abs() > max {
            max = v.abs();
        }
    }
    if max == f64::INFINITY {
        return f64::INFINITY;
    }
    if nan {
        return f64::NAN;
    }
    if max == 0.0 {
        return 0.0;
    }
    let (mut sum, mut compensation) = (0.0f64, 0.0f64);
    for v in values {
        let n = v.abs() / max;
        let summand = n * n - compensation;
        let preliminary = sum + summand;
        compensation = (preliminary - sum) - summand;
        sum = preliminary;
    }
    sum.sqrt() * max
}

/// The log2 of |x| as two pieces (`t1` with 29 trailing zero bits, and `t2`), for [`pow`]; `ax` is |x|,
/// `ix` its high word, and |y| > 2^31 when `huge`.
pub(super) fn pow_log2(ax: f64, ix: i32, huge: bool) -> (f64, f64) {
    const BP: [f64; 2] = [1.0, 1.5];
    const DP_H: [f64; 2] = [0.0, 5.84962487220764160156e-01];
    const DP_L: [f64; 2] = [0.0, 1.35003920212974897128e-08];
    const TWO53: f64 = 9007199254740992.0;
    const L: [f64; 6] = [
        5.99999999999994648725e-01,
        4.28571428578550184252e-01,
        3.33333329818377432918e-01,
        2.72728123808534006489e-01,
        2.30660745775561754067e-01,
        2.06975017800338417784e-01,
    ];
    const CP: f64 = 9.61796693925975554329e-01;
    const CP_H: f64 = 9.61796700954437255859e-01;
    const CP_L: f64 = -7.02846165095275826516e-09;
    const IVLN2: f64 = 1.44269504088896338700e+00;
    const IVLN2_H: f64 = 1.44269502162933349609e+00;
    const IVLN2_L: f64 = 1.92596299112661746887e-08;
    if huge {
        let t = ax - 1.0;
        let w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
        let u = IVLN2_H * t;
        let v = t * IVLN2_L - w * IVLN2;
        let t1 = with_low(u + v, 0);
        return (t1, v - (t1 - u));
    }
    let (mut ax, mut ix) = (ax, ix);
    let mut n = 0;
    if ix < 0x00100000 {
        ax *= TWO53;
        n -= 53;
        ix = high(ax);
    }
    n += (ix >> 20) - 0x3FF;
    let j = ix & 0x000FFFFF;
    ix = j | 0x3FF00000;
    let k = if j <= 0x3988E {
        0
    } else if j < 0xBB67A {
        1
    } else {
        n += 1;
        ix -= 0x00100000;
        0
    };
    ax = with_high(ax, ix as u32);
    let u = ax - BP[k];
    let v = 1.0 / (ax + BP[k]);
    let ss = u * v;
    let s_h = with_low(ss, 0);
    let mut t_h = words((((ix >> 1) | 0x20000000) + 0x00080000 + ((k as i32) << 18)) as u32, 0);
    let mut t_l = ax - (t_h - BP[k]);
    let s_l = v * ((u - s_h * t_h) - s_h * t_l);
    let mut s2 = ss * ss;
    let mut r = s2 * s2 * (L[0] + s2 * (L[1] + s2 * (L[2] + s2 * (L[3] + s2 * (L[4] + s2 * L[5])))));
    r += s_l * (s_h + ss);
    s2 = s_h * s_h;
    t_h = with_low(3.0 + s2 + r, 0);
    t_l = r - ((t_h - 3.0) - s2);
    let u = s_h * t_h;
    let v = s_l * t_h + t_l * ss;
    let p_h = with_low(u + v, 0);
    let p_l = v - (p_h - u);
    let z_h = CP_H * p_h;
    let z_l = CP_L * p_h + p_l * CP + DP_L[k];
    let t = f64::from(n);
    let t1 = with_low(((z_h + z_l) + DP_H[k]) + t, 0);
    (t1, z_l - (((t1 - t) - DP_H[k]) - z_h))
}

/// Which integer `y` is when `x` is negative: 0 not one, 1 odd, 2 even.
pub(super) fn pow_integer_kind(hx: i32, iy: i32, ly: u32) -> i32 {
    if hx >= 0 {
        return 0;
    }
    if iy >= 0x43400000 {
        return 2;
    }
    if iy >= 0x3FF00000 {
        let k = (iy >> 20) - 0x3FF;
        if k > 20 {
            let j = ly >> (52 - k);
            if (j << (52 - k)) == ly {
                return 2 - (j & 1) as i32;
            }
        } else if ly == 0 {
            let j = iy >> (20 - k);
            if (j << (20 - k)) == iy {
                return 2 - (j & 1);
            }
        }
    }
    0
}

/// `Math.pow` (and `**` in V8): fdlibm's `pow` as V8 keeps it (`legacy::pow`).
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    let (hx, lx) = (high(x), low(x));
    let (hy, ly) = (high(y), low(y));
    let ix = hx & 0x7FFFFFFF;
    let iy = hy & 0x7FFFFFFF;
    if (iy as u32 | ly) == 0 {
        return 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let yisint = pow_integer_kind(hx, iy, ly);
    if ly == 0 {
        if iy == 0x7FF00000 {
            return if ((ix - 0x3FF00000) as u32 | lx) == 0 {
                f64::NAN
            } else if ix >= 0x3FF00000 {
                if hy >= 0 { y } else { 0.0 }
            } else if hy < 0 {
                -y
            } else {
                0.0
            };
        }
        if iy == 0x3FF00000 {
            return if hy < 0 { 1.0 / x } else { x };
        }
        if hy == 0x40000000 {
            return x * x;
        }
        if hy == 0x3FE00000 && hx >= 0 {
            return x.sqrt();
        }
    }
    let ax = x.abs();
    if lx == 0 && (ix == 0x7FF00000 || ix == 0 || ix == 0x3FF00000) {
        let mut z = ax;
        if hy < 0 {
            z = 1.0 / z;
        }
        if hx < 0 {
            if ((ix - 0x3FF00000) | yisint) == 0 {
                z = f64::NAN;
            } else if yisint == 1 {
                z = -z;
            }
        }
        return z;
    }
    let n = (hx >> 31) + 1;
    if (n | yisint) == 0 {
        return f64::NAN;
    }
    let s = if (n | (yisint - 1)) == 0 { -1.0 } else { 1.0 };
    const TINY: f64 = 1.0e-300;
    if iy > 0x41E00000 {
        if iy > 0x43F00000 {
            if ix <= 0x3FEFFFFF {
                return if hy < 0 { HUGE * HUGE } else { TINY * TINY };
            }
            if ix >= 0x3FF00000 {
                return if hy > 0 { HUGE * HUGE } else { TINY * TINY };
            }
        }
        if ix < 0x3FEFFFFF {
            return if hy < 0 { s * HUGE * HUGE } else { s * TINY * TINY };
        }
        if ix > 0x3FF00000 {
            return if hy > 0 { s * HUGE * HUGE } else { s * TINY * TINY };
        }
    }
    let (t1, t2) = pow_log2(ax, ix, iy > 0x41E00000);
    pow_exp2(y, t1, t2, s)
}

/// 2^(y * (t1 + t2)) times the sign `s`, for [`pow`].
pub(super) fn pow_exp2(y: f64, t1: f64, t2: f64, s: f64) -> f64 {
    const P1: f64 = 1.66666666666666019037e-01;
    const P2: f64 = -2.77777777770155933842e-03;
    const P3: f64 = 6.61375632143793436117e-05;
    const P4: f64 = -1.65339022054652515390e-06;
    const P5: f64 = 4.13813679705723846039e-08;
    const LG2: f64 = 6.93147180559945286227e-01;
    const LG2_H: f64 = 6.93147182464599609375e-01;
    const LG2_L: f64 = -1.90465429995776804525e-09;
    const OVT: f64 = 8.0085662595372944372e-0017;
    const TINY: f64 = 1.0e-300;
    let y1 = with_low(y, 0);
    let p_l = (y - y1) * t1 + y * t2;
    let mut p_h = y1 * t1;
    let z = p_l + p_h;
    let (j, i) = (high(z), low(z));
    if j >= 0x40900000 {
        if ((j - 0x40900000) as u32 | i) != 0 || p_l + OVT > z - p_h {
            return s * HUGE * HUGE;
        }
    } else if (j & 0x7FFFFFFF) >= 0x4090CC00
        && ((j.wrapping_sub(0xC090CC00u32 as i32)) as u32 | i != 0 || p_l <= z - p_h)
    {
        return s * TINY * TINY;
    }
    let i = j & 0x7FFFFFFF;
    let mut k = (i >> 20) - 0x3FF;
    let mut n = 0;
    if i > 0x3FE00000 {
        n = j + (0x00100000 >> (k + 1));
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF;
        let t = words((n & !(0x000FFFFF >> k)) as u32, 0);
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k);
        if j < 0 {
            n = -n;
        }
        p_h -= t;
    }
    let t = with_low(p_l + p_h, 0);
    let u = t * LG2_H;
    let v = (p_l - (t - p_h)) * LG2 + t * LG2_L;
    let z = u + v;
    let w = v - (z - u);
    let t = z * z;
    let t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    let r = (z * t1) / ((t1 - 2.0) - (w + z * w));
    let z = 1.0 - (r - z);
    let j = high(z).wrapping_add(((n as u32) << 20) as i32);
    let z = if (j >> 20) <= 0 { scalbn(z, n) } else { with_high(z, j as u32) };
    s * z
}
