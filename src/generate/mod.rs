//! Generating candidate tests ([`crate::model::test::TestCase`]) for a method under test, by strategy:
//! [`random`] (the report's generator, and guided inputs on top; a constructor under test's candidates
//! are constructions, `construction.rs`), [`exhaustive`] (every short call
//! sequence over small pools), [`search`] (evolving tests towards branch outcomes not taken yet, by
//! the moves of `avm.rs` on the primitives `places.rs` finds, nested ones included, and by writing the
//! constants a run compared parts of its strings with into them, `correspondence.rs`). What they draw
//! from: [`guided`] (constants mined from the code), [`values`] (default numbers and strings, or
//! a user's patterns), [`hazards`] (what to avoid after limits were hit), [`returns`] (the classes calls
//! return, whose results become receivers), [`seeds`] (a recorded run),
//! and `declared.rs` (values of the types TypeScript declares). A run that read objects by names they
//! lacked is followed by the same test with those names set (`fit.rs`, [`fitted`]), and values inside
//! an argument are drawn now and then from those inside the call's earlier ones (`siblings.rs`), and
//! arrays, bytes and strings now and then as long as the code demands (`lengths.rs`).

mod avm;
mod composed;
mod construction;
mod correspondence;
mod declared;
pub mod exhaustive;
pub(crate) mod extend;
mod fit;
pub mod guided;
pub(crate) mod hazards;
mod lengths;
mod objects;
pub(crate) mod places;
pub mod random;
pub(crate) mod returns;
pub(crate) mod search;
pub(crate) mod seeds;
mod siblings;
mod steered;
pub(crate) mod values;

use rand::Rng;

use crate::inference::TypeTable;
use crate::model::program::{CONSTRUCTOR, ClassId, ProgramInfo};
use crate::model::settings::{GenerationSettings, Strategy};
use crate::model::test::TestCase;
use exhaustive::Enumeration;
pub(crate) use fit::fitted;
use guided::ConstantPool;
use hazards::Hazards;
use returns::Returns;
use search::Archive;

/// What a candidate is generated from, whatever the strategy.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The program under test.
    pub program: &'a ProgramInfo,
    /// What is known of the parameters' types.
    pub types: &'a TypeTable,
    /// How to generate.
    pub settings: &'a GenerationSettings,
    /// Guided primitives of the method under test.
    pub constants: &'a ConstantPool,
    /// The class under test.
    pub class: ClassId,
    /// The method under test.
    pub method: &'a str,
    /// Tests elected so far (of any method): states their receivers reached can be given to argument
    /// instances, and search mutates the method's own.
    pub elected: &'a [&'a TestCase],
    /// Methods that tend to hit a limit, which calls made to reach a state avoid.
    pub hazards: &'a Hazards,
    /// What calls were seen to return: results to bind to variables, and ways to make instances.
    pub returns: &'a Returns,
}

/// The next candidate for `request` under the settings' strategy: random and guided draw every
/// candidate afresh; the exhaustive strategies move the method's `enumeration` on; search evolves the
/// closest candidates in the method's `archive`, and search-cov its elected tests. A method `searching`
/// (guided generation stopped finding coverage on it) is searched whatever the strategy.
pub(crate) fn candidate(
    request: &Request,
    enumeration: &mut Enumeration,
    archive: &mut Archive,
    searching: bool,
    rng: &mut (impl Rng + ?Sized),
) -> TestCase {
    if searching {
        return search::generate(request, archive, rng);
    }
    match request.settings.strategy {
        Strategy::Search => search::generate(request, archive, rng),
        Strategy::SearchCoverage => search::mutate_elected(request, rng),
        Strategy::Random | Strategy::Guided => random::generate(request, rng),
        // A construction has no sequence of calls to enumerate: its arguments are drawn.
        Strategy::Exhaustive | Strategy::Combined if request.method == CONSTRUCTOR => random::generate(request, rng),
        Strategy::Exhaustive | Strategy::Combined => exhaustive::generate(request, enumeration, rng),
    }
}
