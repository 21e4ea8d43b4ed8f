//! Tests made longer by one call: how mutation analysis tells a surviving mutant apart from the
//! original without adding a test (see `mutate::extend`). The call's arguments are drawn as any
//! candidate's are, so the instances they need are declared right before it.

use rand::Rng;

use super::Request;
use super::random::Builder;
use crate::model::program::ClassId;
use crate::model::test::TestCase;

/// `base` with one more call of `method` on its variable `receiver`, asserted; the request names the
/// method whose constants guide the arguments.
pub(crate) fn with_call(
    request: &Request,
    base: &TestCase,
    receiver: usize,
    method: &str,
    rng: &mut (impl Rng + ?Sized),
) -> TestCase {
    let mut builder = Builder::new(request);
    builder.test = base.clone();
    builder.call(receiver, method, true, rng);
    builder.test
}

/// `base` with a new instance of `class` and a call of `method` on it, asserted: what shows the state a
/// constructor left.
pub(crate) fn with_instance(
    request: &Request,
    base: &TestCase,
    class: ClassId,
    method: &str,
    rng: &mut (impl Rng + ?Sized),
) -> TestCase {
    let mut builder = Builder::new(request);
    builder.test = base.clone();
    let receiver = builder.construct(class, 0, rng);
    builder.call(receiver, method, true, rng);
    builder.test
}
