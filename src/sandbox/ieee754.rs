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

/// The high 32 bits of `x`, signed as fdlibm reads them.
fn high(x: f64) -> i32 {
    (x.to_bits() >> 32) as i32
}

/// The low 32 bits of `x`.
fn low(x: f64) -> u32 {
    x.to_bits() as u32
}

/// The double of the two words.
fn words(high: u32, low: u32) -> f64 {
    f64::from_bits((u64::from(high) << 32) | u64::from(low))
}

/// `x` with its high word replaced.
fn with_high(x: f64, h: u32) -> f64 {
    words(h, low(x))
}

/// `x` with its low word replaced.
fn with_low(x: f64, l: u32) -> f64 {
    words(high(x) as u32, l)
}

/// `x * 2^n`, rounded once (the C library's `scalbn`).
fn scalbn(x: f64, mut n: i32) -> f64 {
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

const TWO_OVER_PI: [i32; 66] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7,
    0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C,
    0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11,
    0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7,
    0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3, 0x91615E,
    0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
];

const NPIO2_HW: [i32; 32] = [
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB, 0x402C463A,
    0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
    0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC,
    0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
];

const TWO24: f64 = 1.67772160000000000000e+07;
const TWON24: f64 = 5.96046447753906250000e-08;

/// `__ieee754_rem_pio2`: `x` less the nearest multiple `n` of pi/2, as a head and a tail, with `n`.
fn rem_pio2(x: f64) -> (i32, f64, f64) {
    const INVPIO2: f64 = 6.36619772367581382433e-01;
    const PIO2_1: f64 = 1.57079632673412561417e+00;
    const PIO2_1T: f64 = 6.07710050650619224932e-11;
    const PIO2_2: f64 = 6.07710050630396597660e-11;
    const PIO2_2T: f64 = 2.02226624879595063154e-21;
    const PIO2_3: f64 = 2.02226624871116645580e-21;
    const PIO2_3T: f64 = 8.47842766036889956997e-32;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return (0, x, 0.0);
    }
    if ix < 0x4002D97C {
        let sign = if hx > 0 { 1.0 } else { -1.0 };
        let mut z = x - sign * PIO2_1;
        let tail = if ix != 0x3FF921FB {
            PIO2_1T
        } else {
            z -= sign * PIO2_2;
            PIO2_2T
        };
        let y0 = z - sign * tail;
        let y1 = (z - y0) - sign * tail;
        return (sign as i32, y0, y1);
    }
    if ix <= 0x413921FB {
        let mut t = x.abs();
        let n = (t * INVPIO2 + 0.5) as i32;
        let f = f64::from(n);
        let mut r = t - f * PIO2_1;
        let mut w = f * PIO2_1T;
        let mut y0 = r - w;
        if n >= 32 || ix == NPIO2_HW[(n - 1) as usize] {
            let j = ix >> 20;
            let mut i = j - ((high(y0) >> 20) & 0x7FF);
            if i > 16 {
                t = r;
                w = f * PIO2_2;
                r = t - w;
                w = f * PIO2_2T - ((t - r) - w);
                y0 = r - w;
                i = j - ((high(y0) >> 20) & 0x7FF);
                if i > 49 {
                    t = r;
                    w = f * PIO2_3;
                    r = t - w;
                    w = f * PIO2_3T - ((t - r) - w);
                    y0 = r - w;
                }
            }
        }
        let y1 = (r - y0) - w;
        return if hx < 0 { (-n, -y0, -y1) } else { (n, y0, y1) };
    }
    if ix >= 0x7FF00000 {
        return (0, f64::NAN, f64::NAN);
    }
    let e0 = (ix >> 20) - 1046;
    let mut z = words((ix - (e0 << 20)) as u32, low(x));
    let mut tx = [0.0; 3];
    for t in tx.iter_mut().take(2) {
        *t = f64::from(z as i32);
        z = (z - *t) * TWO24;
    }
    tx[2] = z;
    let mut nx = 3;
    while tx[nx - 1] == 0.0 {
        nx -= 1;
    }
    let (n, y0, y1) = kernel_rem_pio2(&tx[..nx], e0);
    if hx < 0 { (-n, -y0, -y1) } else { (n, y0, y1) }
}

/// `__kernel_rem_pio2` for double precision (`prec` 2): see fdlibm for the method.
fn kernel_rem_pio2(x: &[f64], e0: i32) -> (i32, f64, f64) {
    let jk: i32 = 4;
    let jx = x.len() as i32 - 1;
    let jv = ((e0 - 3) / 24).max(0);
    let q0 = e0 - 24 * (jv + 1);
    let mut f = [0.0f64; 20];
    let mut q = [0.0f64; 20];
    let mut iq = [0i32; 20];
    for i in 0..=jx + jk {
        let j = jv - jx + i;
        f[at(i)] = if j < 0 { 0.0 } else { f64::from(TWO_OVER_PI[at(j)]) };
    }
    let product = |f: &[f64; 20], i: i32| (0..=jx).fold(0.0, |fw, j| fw + x[at(j)] * f[at(jx + i - j)]);
    for i in 0..=jk {
        q[at(i)] = product(&f, i);
    }
    let mut jz = jk;
    loop {
        let (n, ih, z) = distill(&q, &mut iq, jz, q0);
        if z == 0.0 && (jk..jz).fold(0, |j, i| j | iq[at(i)]) == 0 {
            let mut k = 1;
            while jk >= k && iq[at(jk - k)] == 0 {
                k += 1;
            }
            for i in jz + 1..=jz + k {
                f[at(jx + i)] = f64::from(TWO_OVER_PI[at(jv + i)]);
                q[at(i)] = product(&f, i);
            }
            jz += k;
            continue;
        }
        let (y0, y1) = sum_pio2(&mut iq, jz, q0, z, ih);
        return (n & 7, y0, y1);
    }
}

/// An index of fdlibm's arrays.
fn at(i: i32) -> usize {
    i as usize
}

/// The integer chunks of the product of x and 2/pi from `q`, into `iq`: answers the last bits of N,
/// whether the fraction is at least a half (and so the result's sign), and the fraction.
fn distill(q: &[f64; 20], iq: &mut [i32; 20], jz: i32, q0: i32) -> (i32, i32, f64) {
    let mut z = q[at(jz)];
    let mut j = jz;
    let mut i = 0;
    while j > 0 {
        let fw = f64::from((TWON24 * z) as i32);
        iq[at(i)] = (z - TWO24 * fw) as i32;
        z = q[at(j - 1)] + fw;
        i += 1;
        j -= 1;
    }
    z = scalbn(z, q0);
    z -= 8.0 * (z * 0.125).floor();
    let mut n = z as i32;
    z -= f64::from(n);
    let mut ih = 0;
    if q0 > 0 {
        let i = iq[at(jz - 1)] >> (24 - q0);
        n += i;
        iq[at(jz - 1)] -= i << (24 - q0);
        ih = iq[at(jz - 1)] >> (23 - q0);
    } else if q0 == 0 {
        ih = iq[at(jz - 1)] >> 23;
    } else if z >= 0.5 {
        ih = 2;
    }
    if ih > 0 {
        n += 1;
        let mut carry = 0;
        for v in iq.iter_mut().take(at(jz)) {
            let j = *v;
            if carry == 0 {
                if j != 0 {
                    carry = 1;
                    *v = 0x1000000 - j;
                }
            } else {
                *v = 0xFFFFFF - j;
            }
        }
        match q0 {
            1 => iq[at(jz - 1)] &= 0x7FFFFF,
            2 => iq[at(jz - 1)] &= 0x3FFFFF,
            _ => {}
        }
        if ih == 2 {
            z = 1.0 - z;
            if carry != 0 {
                z -= scalbn(1.0, q0);
            }
        }
    }
    (n, ih, z)
}

/// The remainder as a head and a tail: the chunks in `iq` (and the fraction `z`) times pi/2.
fn sum_pio2(iq: &mut [i32; 20], mut jz: i32, mut q0: i32, z: f64, ih: i32) -> (f64, f64) {
    const PIO2: [f64; 8] = [
        1.57079625129699707031e+00,
        7.54978941586159635335e-08,
        5.39030252995776476554e-15,
        3.28200341580791294123e-22,
        1.27065575308067607349e-29,
        1.22933308981111328932e-36,
        2.73370053816464559624e-44,
        2.16741683877804819444e-51,
    ];
    let jp = 4;
    let mut q = [0.0f64; 20];
    let mut fq = [0.0f64; 20];
    if z == 0.0 {
        jz -= 1;
        q0 -= 24;
        while iq[at(jz)] == 0 {
            jz -= 1;
            q0 -= 24;
        }
    } else {
        let z = scalbn(z, -q0);
        if z >= TWO24 {
            let fw = f64::from((TWON24 * z) as i32);
            iq[at(jz)] = (z - TWO24 * fw) as i32;
            jz += 1;
            q0 += 24;
            iq[at(jz)] = fw as i32;
        } else {
            iq[at(jz)] = z as i32;
        }
    }
    let mut fw = scalbn(1.0, q0);
    for i in (0..=jz).rev() {
        q[at(i)] = fw * f64::from(iq[at(i)]);
        fw *= TWON24;
    }
    for i in (0..=jz).rev() {
        let mut fw = 0.0;
        let mut k = 0;
        while k <= jp && k <= jz - i {
            fw += PIO2[at(k)] * q[at(i + k)];
            k += 1;
        }
        fq[at(jz - i)] = fw;
    }
    let mut fw = 0.0;
    for i in (0..=jz).rev() {
        fw += fq[at(i)];
    }
    let y0 = if ih == 0 { fw } else { -fw };
    fw = fq[0] - fw;
    for v in fq.iter().take(at(jz) + 1).skip(1) {
        fw += v;
    }
    (y0, if ih == 0 { fw } else { -fw })
}

/// `__kernel_cos` on [-pi/4, pi/4], `y` the tail of `x`.
fn kernel_cos(x: f64, y: f64) -> f64 {
    const C1: f64 = 4.16666666666666019037e-02;
    const C2: f64 = -1.38888888888741095749e-03;
    const C3: f64 = 2.48015872894767294178e-05;
    const C4: f64 = -2.75573143513906633035e-07;
    const C5: f64 = 2.08757232129817482790e-09;
    const C6: f64 = -1.13596475577881948265e-11;
    let ix = high(x) & 0x7FFFFFFF;
    if ix < 0x3E400000 && x as i32 == 0 {
        return 1.0;
    }
    let z = x * x;
    let r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    if ix < 0x3FD33333 {
        return 1.0 - (0.5 * z - (z * r - x * y));
    }
    let qx = if ix > 0x3FE90000 { 0.28125 } else { words((ix - 0x00200000) as u32, 0) };
    let iz = 0.5 * z - qx;
    let a = 1.0 - qx;
    a - (iz - (z * r - x * y))
}

/// `__kernel_sin` on [-pi/4, pi/4], `y` the tail of `x` (taken only when `iy` is 1).
fn kernel_sin(x: f64, y: f64, iy: i32) -> f64 {
    const S1: f64 = -1.66666666666666324348e-01;
    const S2: f64 = 8.33333333332248946124e-03;
    const S3: f64 = -1.98412698298579493134e-04;
    const S4: f64 = 2.75573137070700676789e-06;
    const S5: f64 = -2.50507602534068634195e-08;
    const S6: f64 = 1.58969099521155010221e-10;
    let ix = high(x) & 0x7FFFFFFF;
    if ix < 0x3E400000 && x as i32 == 0 {
        return x;
    }
    let z = x * x;
    let v = z * x;
    let r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    if iy == 0 { x + v * (S1 + z * r) } else { x - ((z * (0.5 * y - v * r) - y) - v * S1) }
}

/// `__kernel_tan` on [-pi/4, pi/4]: tan when `iy` is 1, -1/tan when it is -1.
fn kernel_tan(mut x: f64, mut y: f64, iy: i32) -> f64 {
    const T: [f64; 13] = [
        3.33333333333334091986e-01,
        1.33333333333201242699e-01,
        5.39682539762260521377e-02,
        2.18694882948595424599e-02,
        8.86323982359930005737e-03,
        3.59207910759131235356e-03,
        1.45620945432529025516e-03,
        5.88041240820264096874e-04,
        2.46463134818469906812e-04,
        7.81794442939557092300e-05,
        7.14072491382608190305e-05,
        -1.85586374855275456654e-05,
        2.59073051863633712884e-05,
    ];
    const PIO4: f64 = 7.85398163397448278999e-01;
    const PIO4LO: f64 = 3.06161699786838301793e-17;
    let hx = high(x);
    let ix = hx & 0x7FFFFFFF;
    if ix < 0x3E300000 && x as i32 == 0 {
        if ((ix as u32 | low(x)) | (iy + 1) as u32) == 0 {
            return 1.0 / x.abs();
        }
        if iy == 1 {
            return x;
        }
        let w = x + y;
        let z = with_low(w, 0);
        let v = y - (z - x);
        let a = -1.0 / w;
        let t = with_low(a, 0);
        let s = 1.0 + t * z;
        return t + a * (s + t * v);
    }
    if ix >= 0x3FE59428 {
        if hx < 0 {
            x = -x;
            y = -y;
        }
        let z = PIO4 - x;
        let w = PIO4LO - y;
        x = z + w;
        y = 0.0;
    }
    let z = x * x;
    let w = z * z;
    let mut r = T[1] + w * (T[3] + w * (T[5] + w * (T[7] + w * (T[9] + w * T[11]))));
    let v = z * (T[2] + w * (T[4] + w * (T[6] + w * (T[8] + w * (T[10] + w * T[12])))));
    let s = z * x;
    r = y + z * (s * (r + v) + y);
    r += T[0] * s;
    let w = x + r;
    if ix >= 0x3FE59428 {
        let v = f64::from(iy);
        return f64::from(1 - ((hx >> 30) & 2)) * (v - 2.0 * (x - (w * w / (w + v) - r)));
    }
    if iy == 1 {
        return w;
    }
    let z = with_low(w, 0);
    let v = r - (z - x);
    let a = -1.0 / w;
    let t = with_low(a, 0);
    let s = 1.0 + t * z;
    t + a * (s + t * v)
}

// The rational approximation of asin shared by acos and asin.
const PS: [f64; 6] = [
    1.66666666666666657415e-01,
    -3.25565818622400915405e-01,
    2.01212532134862925881e-01,
    -4.00555345006794114027e-02,
    7.91534994289814532176e-04,
    3.47933107596021167570e-05,
];
const QS: [f64; 4] =
    [-2.40339491173441421878e+00, 2.02094576023350569471e+00, -6.88283971605453293030e-01, 7.70381505559019352791e-02];
const PIO2_HI: f64 = 1.57079632679489655800e+00;
const PIO2_LO: f64 = 6.12323399573676603587e-17;

/// The numerator and denominator of asin's rational approximation at `z`.
fn asin_pq(z: f64) -> (f64, f64) {
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

pub(crate) fn cos(x: f64) -> f64 {
    let ix = high(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return kernel_cos(x, 0.0);
    }
    if ix >= 0x7FF00000 {
        return f64::NAN;
    }
    let (n, y0, y1) = rem_pio2(x);
    match n & 3 {
        0 => kernel_cos(y0, y1),
        1 => -kernel_sin(y0, y1, 1),
        2 => -kernel_cos(y0, y1),
        _ => kernel_sin(y0, y1, 1),
    }
}

pub(crate) fn sin(x: f64) -> f64 {
    let ix = high(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return kernel_sin(x, 0.0, 0);
    }
    if ix >= 0x7FF00000 {
        return f64::NAN;
    }
    let (n, y0, y1) = rem_pio2(x);
    match n & 3 {
        0 => kernel_sin(y0, y1, 1),
        1 => kernel_cos(y0, y1),
        2 => -kernel_sin(y0, y1, 1),
        _ => -kernel_cos(y0, y1),
    }
}

pub(crate) fn tan(x: f64) -> f64 {
    let ix = high(x) & 0x7FFFFFFF;
    if ix <= 0x3FE921FB {
        return kernel_tan(x, 0.0, 1);
    }
    if ix >= 0x7FF00000 {
        return f64::NAN;
    }
    let (n, y0, y1) = rem_pio2(x);
    kernel_tan(y0, y1, 1 - ((n & 1) << 1))
}

const LN2_HI: f64 = 6.93147180369123816490e-01;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const INVLN2: f64 = 1.44269504088896338700e+00;
const TWO54: f64 = 1.80143985094819840000e+16;
const HUGE: f64 = 1.0e+300;

pub(crate) fn exp(x: f64) -> f64 {
    const O_THRESHOLD: f64 = 7.09782712893383973096e+02;
    const U_THRESHOLD: f64 = -7.45133219101941108420e+02;
    const P1: f64 = 1.66666666666666019037e-01;
    const P2: f64 = -2.77777777770155933842e-03;
    const P3: f64 = 6.61375632143793436117e-05;
    const P4: f64 = -1.65339022054652515390e-06;
    const P5: f64 = 4.13813679705723846039e-08;
    const E: f64 = 2.718281828459045;
    const TWOM1000: f64 = 9.33263618503218878990e-302;
    const TWO1023: f64 = 8.988465674311579539e307;
    let mut hx = high(x) as u32;
    let xsb = ((hx >> 31) & 1) as usize;
    hx &= 0x7FFFFFFF;
    if hx >= 0x40862E42 {
        if hx >= 0x7FF00000 {
            if ((hx & 0xFFFFF) | low(x)) != 0 {
                return x + x;
            }
            return if xsb == 0 { x } else { 0.0 };
        }
        if x > O_THRESHOLD {
            return f64::INFINITY;
        }
        if x < U_THRESHOLD {
            return 0.0;
        }
    }
    let (mut hi, mut lo, mut k) = (0.0, 0.0, 0i32);
    let mut x = x;
    if hx > 0x3FD62E42 {
        if hx < 0x3FF0A2B2 {
            if x == 1.0 {
                return E;
            }
            hi = x - [LN2_HI, -LN2_HI][xsb];
            lo = [LN2_LO, -LN2_LO][xsb];
            k = 1 - xsb as i32 - xsb as i32;
        } else {
            k = (INVLN2 * x + [0.5, -0.5][xsb]) as i32;
            let t = f64::from(k);
            hi = x - t * LN2_HI;
            lo = t * LN2_LO;
        }
        x = hi - lo;
    } else if hx < 0x3E300000 {
        return 1.0 + x;
    }
    let t = x * x;
    let twopk = if k >= -1021 {
        words((0x3FF00000 + (k << 20)) as u32, 0)
    } else {
        words((0x3FF00000 + ((k + 1000) << 20)) as u32, 0)
    };
    let c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if k == 0 {
        return 1.0 - ((x * c) / (c - 2.0) - x);
    }
    let y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if k >= -1021 {
        if k == 1024 {
            return y * 2.0 * TWO1023;
        }
        y * twopk
    } else {
        y * twopk * TWOM1000
    }
}

pub(crate) fn expm1(x: f64) -> f64 {
    const O_THRESHOLD: f64 = 7.09782712893383973096e+02;
    const Q1: f64 = -3.33333333333331316428e-02;
    const Q2: f64 = 1.58730158725481460165e-03;
    const Q3: f64 = -7.93650757867487942473e-05;
    const Q4: f64 = 4.00821782732936239552e-06;
    const Q5: f64 = -2.01099218183624371326e-07;
    let mut hx = high(x) as u32;
    let xsb = hx & 0x80000000;
    hx &= 0x7FFFFFFF;
    if hx >= 0x4043687A {
        if hx >= 0x40862E42 {
            if hx >= 0x7FF00000 {
                if ((hx & 0xFFFFF) | low(x)) != 0 {
                    return x + x;
                }
                return if xsb == 0 { x } else { -1.0 };
            }
            if x > O_THRESHOLD {
                return f64::INFINITY;
            }
        }
        if xsb != 0 {
            return 1.0e-300 - 1.0;
        }
    }
    let mut x = x;
    let (k, c) = if hx > 0x3FD62E42 {
        let (hi, lo, k) = if hx < 0x3FF0A2B2 {
            if xsb == 0 { (x - LN2_HI, LN2_LO, 1) } else { (x + LN2_HI, -LN2_LO, -1) }
        } else {
            let k = (INVLN2 * x + if xsb == 0 { 0.5 } else { -0.5 }) as i32;
            let t = f64::from(k);
            (x - t * LN2_HI, t * LN2_LO, k)
        };
        x = hi - lo;
        (k, (hi - x) - lo)
    } else if hx < 0x3C900000 {
        let t = HUGE + x;
        return x - (t - (HUGE + x));
    } else {
        (0, 0.0)
    };
    let hfx = 0.5 * x;
    let hxs = x * hfx;
    let r1 = 1.0 + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
    let t = 3.0 - r1 * hfx;
    let mut e = hxs * ((r1 - t) / (6.0 - x * t));
    if k == 0 {
        return x - (x * e - hxs);
    }
    let twopk = words((0x3FF00000 + (k << 20)) as u32, 0);
    e = x * (e - c) - c;
    e -= hxs;
    if k == -1 {
        return 0.5 * (x - e) - 0.5;
    }
    if k == 1 {
        return if x < -0.25 { -2.0 * (e - (x + 0.5)) } else { 1.0 + 2.0 * (x - e) };
    }
    if k <= -2 || k > 56 {
        let mut y = 1.0 - (e - x);
        if k == 1024 {
            y = y * 2.0 * 8.98846567431158e+307;
        } else {
            y *= twopk;
        }
        return y - 1.0;
    }
    if k < 20 {
        let t = words((0x3FF00000 - (0x200000 >> k)) as u32, 0);
        (t - (e - x)) * twopk
    } else {
        let t = words(((0x3FF - k) << 20) as u32, 0);
        ((x - (e + t)) + 1.0) * twopk
    }
}

const LG1: f64 = 6.666666666666735130e-01;
const LG2: f64 = 3.999999999940941908e-01;
const LG3: f64 = 2.857142874366239149e-01;
const LG4: f64 = 2.222219843214978396e-01;
const LG5: f64 = 1.818357216161805012e-01;
const LG6: f64 = 1.531383769920937332e-01;
const LG7: f64 = 1.479819860511658591e-01;

pub(crate) fn log(x: f64) -> f64 {
    let (mut hx, lx) = (high(x), low(x));
    let mut x = x;
    let mut k = 0;
    if hx < 0x00100000 {
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        k -= 54;
        x *= TWO54;
        hx = high(x);
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000FFFFF;
    let i = (hx + 0x95F64) & 0x100000;
    x = with_high(x, (hx | (i ^ 0x3FF00000)) as u32);
    k += i >> 20;
    let f = x - 1.0;
    let dk = f64::from(k);
    if (0x000FFFFF & (2 + hx)) < 3 {
        if f == 0.0 {
            return if k == 0 { 0.0 } else { dk * LN2_HI + dk * LN2_LO };
        }
        let r = f * f * (0.5 - 0.33333333333333333 * f);
        return if k == 0 { f - r } else { dk * LN2_HI - ((r - dk * LN2_LO) - f) };
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let mut i = hx - 0x6147A;
    let w = z * z;
    let j = 0x6B851 - hx;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    i |= j;
    let r = t2 + t1;
    if i > 0 {
        let hfsq = 0.5 * f * f;
        if k == 0 { f - (hfsq - s * (hfsq + r)) } else { dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f) }
    } else if k == 0 {
        f - s * (f - r)
    } else {
        dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f)
    }
}

pub(crate) fn log1p(x: f64) -> f64 {
    let hx = high(x);
    let ax = hx & 0x7FFFFFFF;
    let mut k = 1;
    let mut f = 0.0;
    let mut hu = 0;
    let mut c = 0.0;
    if hx < 0x3FDA827A {
        if ax >= 0x3FF00000 {
            return if x == -1.0 { f64::NEG_INFINITY } else { f64::NAN };
        }
        if ax < 0x3E200000 {
            return if ax < 0x3C900000 { x } else { x - x * x * 0.5 };
        }
        if hx > 0 || hx <= 0xBFD2BEC4u32 as i32 {
            k = 0;
            f = x;
            hu = 1;
        }
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if k != 0 {
        let mut u;
        if hx < 0x43400000 {
            u = 1.0 + x;
            hu = high(u);
            k = (hu >> 20) - 1023;
            c = if k > 0 { 1.0 - (u - x) } else { x - (u - 1.0) };
            c /= u;
        } else {
            u = x;
            hu = high(u);
            k = (hu >> 20) - 1023;
            c = 0.0;
        }
        hu &= 0x000FFFFF;
        if hu < 0x6A09E {
            u = with_high(u, (hu | 0x3FF00000) as u32);
        } else {
            k += 1;
            u = with_high(u, (hu | 0x3FE00000) as u32);
            hu = (0x00100000 - hu) >> 2;
        }
        f = u - 1.0;
    }
    let hfsq = 0.5 * f * f;
    let dk = f64::from(k);
    if hu == 0 {
        if f == 0.0 {
            if k == 0 {
                return 0.0;
            }
            c += dk * LN2_LO;
            return dk * LN2_HI + c;
        }
        let r = hfsq * (1.0 - 0.66666666666666666 * f);
        return if k == 0 { f - r } else { dk * LN2_HI - ((r - (dk * LN2_LO + c)) - f) };
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let r = z * (LG1 + z * (LG2 + z * (LG3 + z * (LG4 + z * (LG5 + z * (LG6 + z * LG7))))));
    if k == 0 { f - (hfsq - s * (hfsq + r)) } else { dk * LN2_HI - ((hfsq - (s * (hfsq + r) + (dk * LN2_LO + c))) - f) }
}

/// `k_log1p`: log(1 + f) - f for 1 + f in ~[sqrt(2)/2, sqrt(2)].
fn k_log1p(f: f64) -> f64 {
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let hfsq = 0.5 * f * f;
    s * (hfsq + r)
}

pub(crate) fn log2(x: f64) -> f64 {
    const IVLN2HI: f64 = 1.44269504072144627571e+00;
    const IVLN2LO: f64 = 1.67517131648865118353e-10;
    let (mut hx, lx) = (high(x), low(x));
    let mut x = x;
    let mut k = 0;
    if hx < 0x00100000 {
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        k -= 54;
        x *= TWO54;
        hx = high(x);
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if hx == 0x3FF00000 && lx == 0 {
        return 0.0;
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000FFFFF;
    let i = (hx + 0x95F64) & 0x100000;
    x = with_high(x, (hx | (i ^ 0x3FF00000)) as u32);
    k += i >> 20;
    let y = f64::from(k);
    let f = x - 1.0;
    let hfsq = 0.5 * f * f;
    let r = k_log1p(f);
    let hi = with_low(f - hfsq, 0);
    let lo = (f - hi) - hfsq + r;
    let mut val_hi = hi * IVLN2HI;
    let mut val_lo = (lo + hi) * IVLN2LO + lo * IVLN2HI;
    let w = y + val_hi;
    val_lo += (y - w) + val_hi;
    val_hi = w;
    val_lo + val_hi
}

pub(crate) fn log10(x: f64) -> f64 {
    const IVLN10: f64 = 4.34294481903251816668e-01;
    const LOG10_2HI: f64 = 3.01029995663611771306e-01;
    const LOG10_2LO: f64 = 3.69423907715893078616e-13;
    let (mut hx, mut lx) = (high(x), low(x));
    let mut x = x;
    let mut k = 0;
    if hx < 0x00100000 {
        if ((hx & 0x7FFFFFFF) as u32 | lx) == 0 {
            return f64::NEG_INFINITY;
        }
        if hx < 0 {
            return f64::NAN;
        }
        k -= 54;
        x *= TWO54;
        hx = high(x);
        lx = low(x);
    }
    if hx >= 0x7FF00000 {
        return x + x;
    }
    if hx == 0x3FF00000 && lx == 0 {
        return 0.0;
    }
    k += (hx >> 20) - 1023;
    let i = ((k as u32 & 0x80000000) >> 31) as i32;
    hx = (hx & 0x000FFFFF) | ((0x3FF - i) << 20);
    let y = f64::from(k + i);
    x = words(hx as u32, lx);
    let z = y * LOG10_2LO + IVLN10 * log(x);
    z + y * LOG10_2HI
}

pub(crate) fn cosh(x: f64) -> f64 {
    const KCOSH_OVERFLOW: f64 = 710.4758600739439;
    let ix = high(x) & 0x7FFFFFFF;
    if ix < 0x3FD62E43 {
        let t = expm1(x.abs());
        let w = 1.0 + t;
        if ix < 0x3C800000 {
            return w;
        }
        return 1.0 + (t * t) / (w + w);
    }
    if ix < 0x40360000 {
        let t = exp(x.abs());
        return 0.5 * t + 0.5 / t;
    }
    if ix < 0x40862E42 {
        return 0.5 * exp(x.abs());
    }
    if x.abs() <= KCOSH_OVERFLOW {
        let w = exp(0.5 * x.abs());
        let t = 0.5 * w;
        return t * w;
    }
    if ix >= 0x7FF00000 {
        return x * x;
    }
    f64::INFINITY
}

pub(crate) fn sinh(x: f64) -> f64 {
    const KSINH_OVERFLOW: f64 = 710.4758600739439;
    const TWO_M28: f64 = 3.725290298461914e-9;
    const LOG_MAXD: f64 = 709.7822265625;
    let h = if x < 0.0 { -0.5 } else { 0.5 };
    let ax = x.abs();
    if ax < 22.0 {
        if ax < TWO_M28 {
            return x;
        }
        let t = expm1(ax);
        if ax < 1.0 {
            return h * (2.0 * t - t * t / (t + 1.0));
        }
        return h * (t + t / (t + 1.0));
    }
    if ax < LOG_MAXD {
        return h * exp(ax);
    }
    if ax <= KSINH_OVERFLOW {
        let w = exp(0.5 * ax);
        let t = h * w;
        return t * w;
    }
    x * 1.0e307
}

pub(crate) fn tanh(x: f64) -> f64 {
    let jx = high(x);
    let ix = jx & 0x7FFFFFFF;
    if ix >= 0x7FF00000 {
        return if jx >= 0 { 1.0 / x + 1.0 } else { 1.0 / x - 1.0 };
    }
    let z = if ix < 0x40360000 {
        if ix < 0x3E300000 {
            return x;
        }
        if ix >= 0x3FF00000 {
            let t = expm1(2.0 * x.abs());
            1.0 - 2.0 / (t + 2.0)
        } else {
            let t = expm1(-2.0 * x.abs());
            -t / (t + 2.0)
        }
    } else {
        1.0 - 1.0e-300
    };
    if jx >= 0 { z } else { -z }
}

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
fn pow_log2(ax: f64, ix: i32, huge: bool) -> (f64, f64) {
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
fn pow_integer_kind(hx: i32, iy: i32, ly: u32) -> i32 {
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
fn pow_exp2(y: f64, t1: f64, t2: f64, s: f64) -> f64 {
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

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use rand::rngs::StdRng;
    use rand::{RngExt as _, SeedableRng as _};

    use super::*;
    use crate::js::literal::tests::node;

    /// Arguments no random draw is likely to hit: zeros, infinities, NaN, the smallest and largest
    /// numbers, and the thresholds where the functions change method (multiples of pi/4 for the
    /// reductions, 2^-28, ln2/2, 22, the overflow limits of exp).
    fn edges() -> Vec<f64> {
        let mut edges = vec![
            0.0,
            1.0,
            0.5,
            2.0,
            3.0,
            10.0,
            100.0,
            1e-300,
            f64::INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            5e-324,
            1e-310,
            f64::MAX,
            f64::EPSILON,
            0.3,
            0.78125,
            0.6744,
            0.975,
            0.98,
            3.7252902984e-9,
            7.450580596923828e-9,
            1.3877787807814457e-17,
            std::f64::consts::LN_2 / 2.0,
            std::f64::consts::LN_2 * 1.5,
            std::f64::consts::LN_2 * 56.0,
            std::f64::consts::SQRT_2,
            std::f64::consts::FRAC_1_SQRT_2,
            std::f64::consts::E,
            22.0,
            709.782712893384,
            709.79,
            710.4758600739439,
            -745.13321910194,
            -745.2,
            1e22,
            2f64.powi(28),
            2f64.powi(53),
            2f64.powi(66),
            1e300,
            1.0 + f64::EPSILON,
            1.0 - f64::EPSILON / 2.0,
        ];
        for k in 1..=64 {
            edges.push(f64::from(k) * std::f64::consts::FRAC_PI_4);
        }
        for k in [1e3, 1e6, 1e9, 1e15, 1e20, 2f64.powi(19), 2f64.powi(20)] {
            edges.push(k * std::f64::consts::FRAC_PI_2);
        }
        let negated: Vec<f64> = edges.iter().map(|x| -x).collect();
        edges.extend(negated);
        edges
    }

    /// A few thousand seeded arguments: near zero, the usual ranges, log-uniform magnitudes over every
    /// exponent, and arbitrary bit patterns.
    fn draws(rng: &mut StdRng) -> Vec<f64> {
        let mut xs = Vec::new();
        for _ in 0..800 {
            xs.push(rng.random_range(-2.0..2.0));
        }
        for _ in 0..800 {
            xs.push(rng.random_range(-60.0..60.0));
        }
        for _ in 0..400 {
            xs.push(rng.random_range(-1e6..1e6));
        }
        for _ in 0..800 {
            let magnitude = 2f64.powf(rng.random_range(-1074.0..1024.0));
            xs.push(if rng.random::<bool>() { magnitude } else { -magnitude });
        }
        for _ in 0..400 {
            xs.push(f64::from_bits(rng.random::<u64>()));
        }
        xs
    }

    /// The argument lists of one function: unary ones take [`edges`] and [`draws`]; the binary ones
    /// and `hypot` pairs of them and pairs built for their cases.
    fn cases(name: &str, rng: &mut StdRng) -> Vec<Vec<f64>> {
        let singles: Vec<f64> = edges().into_iter().chain(draws(rng)).collect();
        match name {
            "pow" => pow_cases(rng),
            "atan2" | "hypot" => {
                let mut cases: Vec<Vec<f64>> = singles.iter().map(|&x| vec![x, singles[singles.len() / 3]]).collect();
                let others = draws(rng);
                cases.extend(singles.iter().zip(&others).map(|(&x, &y)| vec![x, y]));
                cases.extend(edges().iter().flat_map(|&y| [vec![y, 0.0], vec![y, -0.0], vec![y, f64::INFINITY]]));
                if name == "hypot" {
                    cases.extend(others.iter().zip(&singles).map(|(&x, &y)| vec![x, y, x * 0.37 + 1.0]));
                    cases.extend([vec![], vec![-0.0], vec![3.0], vec![f64::NAN, f64::INFINITY]]);
                }
                cases
            }
            _ => singles.into_iter().map(|x| vec![x]).collect(),
        }
    }

    /// `Math.pow`'s arguments: integral powers (negative bases too), bases near 1 with large
    /// exponents, results near the overflow and underflow limits, and arbitrary pairs.
    fn pow_cases(rng: &mut StdRng) -> Vec<Vec<f64>> {
        let mut cases = Vec::new();
        let edges = edges();
        for &x in edges.iter().step_by(3) {
            for &y in edges.iter().step_by(7) {
                cases.push(vec![x, y]);
            }
        }
        for _ in 0..800 {
            cases.push(vec![rng.random_range(0.0..10.0), rng.random_range(-30.0..30.0)]);
            cases.push(vec![f64::from(rng.random_range(-20..20)), f64::from(rng.random_range(-40..40))]);
            cases.push(vec![rng.random_range(-100.0..100.0), f64::from(rng.random_range(-9..9))]);
        }
        for _ in 0..400 {
            cases.push(vec![1.0 + rng.random_range(-1e-9..1e-9), rng.random_range(-1e12..1e12)]);
            cases.push(vec![2f64.powf(rng.random_range(-1074.0..1024.0)), rng.random_range(-3.0..3.0)]);
            cases.push(vec![rng.random_range(1.0..3.0), rng.random_range(-1100.0..1100.0)]);
            cases.push(vec![f64::from_bits(rng.random::<u64>()), f64::from_bits(rng.random::<u64>())]);
        }
        cases
    }

    fn ours(name: &str, args: &[f64]) -> f64 {
        let unary: fn(f64) -> f64 = match name {
            "pow" => return pow(args[0], args[1]),
            "atan2" => return atan2(args[0], args[1]),
            "hypot" => return hypot(args),
            "acos" => acos,
            "acosh" => acosh,
            "asin" => asin,
            "asinh" => asinh,
            "atan" => atan,
            "atanh" => atanh,
            "cbrt" => cbrt,
            "cos" => cos,
            "cosh" => cosh,
            "exp" => exp,
            "expm1" => expm1,
            "log" => log,
            "log1p" => log1p,
            "log10" => log10,
            "log2" => log2,
            "sin" => sin,
            "sinh" => sinh,
            "tan" => tan,
            "tanh" => tanh,
            _ => unreachable!("{name}"),
        };
        unary(args[0])
    }

    const NAMES: [&str; 22] = [
        "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2", "cbrt", "cos", "cosh", "exp", "expm1", "hypot",
        "log", "log1p", "log10", "log2", "pow", "sin", "sinh", "tan", "tanh",
    ];

    /// Every function, on a few thousand arguments each, gives Node's `Math` result to the bit (NaN
    /// being one value in JavaScript).
    #[test]
    fn every_function_gives_nodes_bits() {
        let mut rng = StdRng::seed_from_u64(754);
        let all: Vec<(&str, Vec<Vec<f64>>)> = NAMES.iter().map(|&name| (name, cases(name, &mut rng))).collect();
        let mut script = String::from("const input = {");
        for (name, cases) in &all {
            let lists: Vec<String> = cases
                .iter()
                .map(|args| {
                    format!("[{}]", args.iter().map(|a| format!("'{:x}'", a.to_bits())).collect::<Vec<_>>().join(","))
                })
                .collect();
            write!(script, "{name}: [{}],", lists.join(",")).unwrap();
        }
        script.push_str(
            "};\nconst b = new BigUint64Array(1), f = new Float64Array(b.buffer);\n\
             const num = (h) => { b[0] = BigInt('0x' + h); return f[0]; };\n\
             const hex = (v) => { f[0] = v; return b[0].toString(16); };\n\
             const out = {};\n\
             for (const [name, cases] of Object.entries(input)) out[name] = cases.map((a) => hex(Math[name](...a.map(num))));\n\
             console.log(JSON.stringify(out));",
        );
        let answers: serde_json::Value = serde_json::from_str(&node(&script)).unwrap();
        let mut wrong = Vec::new();
        let mut total = 0;
        for (name, cases) in &all {
            let theirs = answers[name].as_array().unwrap();
            for (args, hex) in cases.iter().zip(theirs) {
                total += 1;
                let expected = f64::from_bits(u64::from_str_radix(hex.as_str().unwrap(), 16).unwrap());
                let got = ours(name, args);
                if got.to_bits() != expected.to_bits() && !(got.is_nan() && expected.is_nan()) {
                    wrong.push(format!("Math.{name}({args:?}): Node {expected:e}, ours {got:e}"));
                }
            }
        }
        assert!(total > 60_000, "{total} cases");
        assert!(
            wrong.is_empty(),
            "{} of {total} differ:\n{}",
            wrong.len(),
            wrong.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}
