//! `cos`, `sin` and `tan`: the argument reduced modulo pi/2 (`rem_pio2`), then fdlibm's kernels.

#![allow(clippy::excessive_precision, clippy::approx_constant, clippy::many_single_char_names)]

use super::*;

pub(super) const TWO_OVER_PI: [i32; 66] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7,
    0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C,
    0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11,
    0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7,
    0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3, 0x91615E,
    0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
];

pub(super) const NPIO2_HW: [i32; 32] = [
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB, 0x402C463A,
    0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
    0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC,
    0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
];

pub(super) const TWO24: f64 = 1.67772160000000000000e+07;
pub(super) const TWON24: f64 = 5.96046447753906250000e-08;

/// `__ieee754_rem_pio2`: `x` less the nearest multiple `n` of pi/2, as a head and a tail, with `n`.
pub(super) fn rem_pio2(x: f64) -> (i32, f64, f64) {
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
pub(super) fn kernel_rem_pio2(x: &[f64], e0: i32) -> (i32, f64, f64) {
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
pub(super) fn at(i: i32) -> usize {
    i as usize
}

/// The integer chunks of the product of x and 2/pi from `q`, into `iq`: answers the last bits of N,
/// whether the fraction is at least a half (and so the result's sign), and the fraction.
pub(super) fn distill(q: &[f64; 20], iq: &mut [i32; 20], jz: i32, q0: i32) -> (i32, i32, f64) {
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
pub(super) fn sum_pio2(iq: &mut [i32; 20], mut jz: i32, mut q0: i32, z: f64, ih: i32) -> (f64, f64) {
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
pub(super) fn kernel_cos(x: f64, y: f64) -> f64 {
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
pub(super) fn kernel_sin(x: f64, y: f64, iy: i32) -> f64 {
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
pub(super) fn kernel_tan(mut x: f64, mut y: f64, iy: i32) -> f64 {
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
