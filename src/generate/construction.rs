//! Candidates for a constructor under test (see `session/setup.rs`): the class built by `new` with
//! arguments drawn for its constructor's parameters, then looked at through one of its methods.

use rand::{Rng, RngExt};

use super::Request;
use super::random::Builder;
use crate::model::test::TestCase;

/// A candidate for the request's class's constructor: the class built with arguments drawn for its
/// constructor's parameters (by its constructor: being made by another method's call would miss the
/// point), then one of the methods that look at an instance called, under test, so that what it answers
/// (the text a parser's `toString` writes back, a size) asserts what the constructor made. A construction
/// that throws ends the test there (see `Session::step_method`).
pub(super) fn generate(request: &Request, rng: &mut (impl Rng + ?Sized)) -> TestCase {
    let mut builder = Builder::new(request);
    let receiver = builder.construct(request.class, 0, rng);
    let observers = request.program.classes[request.class].observers();
    if !observers.is_empty() {
        let observer = observers[rng.random_range(0..observers.len())];
        builder.call(receiver, observer, true, rng);
    }
    builder.test
}
