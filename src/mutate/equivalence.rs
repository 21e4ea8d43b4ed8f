//! The equivalence check: random tests run on the original and on a surviving mutant; a survivor none
//! tells apart is presumed equivalent and left out of the score.

use rand::RngExt;
use rand::rngs::StdRng;

use super::strengthen::observed;
use super::verdict::{as_elected, verdict};
use super::{Mutant, SuiteTest};
use crate::error::Result;
use crate::generate::Request;
use crate::generate::random::generate;
use crate::model::observed::Outcome;
use crate::sandbox::{Sandbox, Watch};
use crate::session::Session;

/// Random tests that hit a limit on the original after which the equivalence check of a mutant stops.
pub(super) const LIMITED_TESTS: usize = 5;

/// Runs random tests on the original and on a surviving mutant; returns whether one told them apart,
/// and how many ran.
pub(super) fn distinguish(
    session: &Session,
    original: &mut Sandbox,
    mutant_sandbox: &mut Sandbox,
    mutant: &Mutant,
    tests: usize,
    rng: &mut StdRng,
) -> Result<(bool, u64)> {
    // Half the tests call the mutated method last, with observers after it; the other half test other
    // methods of its class, where it is often called earlier and the later calls see what it left.
    let own = |i: &usize| session.methods[*i].class == mutant.class && session.methods[*i].method == mutant.method;
    let mut methods: Vec<usize> =
        (0..session.methods.len()).filter(|i| session.methods[*i].class == mutant.class).collect();
    if methods.is_empty() {
        methods = (0..session.methods.len()).collect();
    }
    let mutated: Vec<usize> = methods.iter().copied().filter(own).collect();
    if !mutated.is_empty() {
        methods = methods.into_iter().flat_map(|i| if own(&i) { vec![i] } else { vec![mutated[0], i] }).collect();
    }
    if methods.is_empty() {
        return Ok((false, 0));
    }
    let settings = session.settings();
    let (mut valid, mut runs, mut limited) = (0, 0, 0);
    // Candidates with parameters of unknown type cannot be compared: give up after a few of those.
    for attempt in 0..tests * 4 {
        if valid == tests {
            break;
        }
        let m = &session.methods[methods[attempt % methods.len()]];
        let request = Request {
            program: &session.program,
            types: &session.types,
            settings: &settings.generation,
            constants: &m.constants,
            class: m.class,
            method: &m.method,
            elected: &[],
            hazards: &session.hazards,
        };
        let test = generate(&request, rng);
        let seed = rng.random::<u32>();
        if !test.is_valid() {
            continue;
        }
        valid += 1;
        let test = observed(&session.program, &test, true);
        let json = test.to_json(&session.program);
        let base = original.run_isolated(&json, seed, &Watch::default(), true)?;
        if base.outcome.hit_limit() {
            // Each costs a whole time limit and compares nothing: code that often hits limits (slow or
            // endless for most inputs) gets fewer tests, counted rather than timed so the seed decides.
            limited += 1;
            if limited == LIMITED_TESTS {
                break;
            }
            continue;
        }
        let mut run = mutant_sandbox.run_isolated(&json, seed, &Watch::default(), true)?;
        if run.outcome == Outcome::TimedOut {
            // A test near the time limit can cross it on a busy machine: a mutant that loops does so
            // again.
            run = mutant_sandbox.run_isolated(&json, seed, &Watch::default(), true)?;
        }
        runs += 1;
        let probe = SuiteTest { title: String::new(), test, seed, own_message: true, asserts: None };
        if verdict(session, &as_elected(&probe, &base), &run).is_some() {
            return Ok((true, runs));
        }
    }
    Ok((false, runs))
}
