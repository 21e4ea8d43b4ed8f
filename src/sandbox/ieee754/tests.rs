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
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2", "cbrt", "cos", "cosh", "exp", "expm1", "hypot", "log",
    "log1p", "log10", "log2", "pow", "sin", "sinh", "tan", "tanh",
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
