//! The program under test and what is known about it.
//!
//! A [`Subject`] holds the knowledge a run gathers about the code, apart from the loop that gathers it:
//! what the analyser found ([`ProgramInfo`]), the instrumented code ([`CodeBase`]), the parameters' type
//! records ([`TypeTable`]), the methods whose calls tend to hit a limit ([`Hazards`]), the classes calls return ([`Returns`]) and
//! what a recording
//! taught generation ([`Seeds`]). Hazards and seeds are here rather than in the loop's state: like types,
//! they are facts about how the code behaves (learnt from runs, or from a recorded run), every candidate
//! is generated from them together, and mutation analysis generates its random tests from the same facts.
//!
//! The session owns the subject and is the only one to change it (types decided, methods found
//! asynchronous, hazards recorded, seeds given by a recording through [`super::Session::seeds_mut`]), so
//! that what it knows stays consistent with the methods under test.
//! Everything else borrows it read-only: mutation analysis, the explorer's views, the reports, and
//! recording (which reads the classes a recording names).

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::generate::hazards::Hazards;
use crate::generate::returns::Returns;
use crate::generate::seeds::Seeds;
use crate::inference::{Decision, DecisionSource, TypeTable, decide};
use crate::model::program::ProgramInfo;
use crate::sandbox::CodeBase;

/// The program under test and what is known about it (see the module documentation).
pub struct Subject {
    pub(super) program: ProgramInfo,
    pub(super) code: CodeBase,
    pub(super) types: TypeTable,
    pub(super) hazards: Hazards,
    pub(super) returns: Returns,
    pub(super) seeds: Seeds,
}

impl Subject {
    /// What the analyser found: classes, their methods and parameters, which are under test.
    pub fn program(&self) -> &ProgramInfo {
        &self.program
    }

    /// The instrumented code.
    pub fn code(&self) -> &CodeBase {
        &self.code
    }

    /// The type records of every parameter.
    pub fn types(&self) -> &TypeTable {
        &self.types
    }

    /// Methods whose calls tend to hit a limit, learnt from every run.
    pub fn hazards(&self) -> &Hazards {
        &self.hazards
    }

    /// What calls were seen to return, learnt from every run.
    pub fn returns(&self) -> &Returns {
        &self.returns
    }

    /// The type inference would decide for an undecided parameter from its evidence so far, ignoring
    /// the delay; `None` without evidence (that would be a leap of faith, not a guess).
    pub fn leading_guess(&self, param: u32) -> Option<Decision> {
        let record = self.types.get(param);
        // With evidence, the rules never draw at random: any generator will do, and the session's own
        // is left alone so that looking does not change the run.
        let guess = decide(record, &self.program, &mut StdRng::seed_from_u64(0));
        (record.has_evidence() && guess.source == DecisionSource::Inferred).then_some(guess)
    }
}
