//! Which method under test the next step works on.
//!
//! Methods are worked on in slices of a few steps. When a slice ends, the next method is drawn at random
//! among those not done, weighted by what it has left to cover (uncovered statements and branch
//! outcomes) and divided by how many slices it already had: a method that is nearly covered, or that
//! keeps failing to gain, yields to the others, and every method keeps a chance. A method selected by
//! the user is pinned: it is worked on until it stops, then the weighted choice resumes.

use rand::Rng;
use rand::RngExt;

use super::{MethodState, Status};

/// Steps given to a method before the next one is chosen: long enough for the sandbox's per-method
/// limits and the "current method" shown to people to stay put for a while, short enough that a method
/// stuck on a hard branch does not hold the others back.
pub(crate) const SLICE: u32 = 32;

/// The state of the choice between steps.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scheduler {
    /// The method the user selected, worked on until it stops.
    pinned: Option<usize>,
    /// The method of the current slice and the steps left in it.
    slice: Option<(usize, u32)>,
    /// Slices given to each method so far.
    slices: Vec<u32>,
}

impl Scheduler {
    /// Pins `index`: it is worked on from the next step until it stops.
    pub(crate) fn pin(&mut self, index: usize) {
        self.pinned = Some(index);
        self.slice = None;
    }

    /// The method to work on next among `methods`, or `None` when every method is done. Statuses are
    /// kept coherent: the method returned is `Running`, the one it replaces goes back to `Pending`.
    pub(crate) fn next(&mut self, methods: &mut [MethodState], rng: &mut (impl Rng + ?Sized)) -> Option<usize> {
        self.slices.resize(methods.len(), 0);
        let open = |m: &MethodState| matches!(m.status, Status::Pending | Status::Running);
        if let Some(pinned) = self.pinned {
            if open(&methods[pinned]) {
                run(methods, pinned);
                return Some(pinned);
            }
            self.pinned = None;
        }
        if let Some((index, left)) = self.slice
            && left > 0
            && open(&methods[index])
        {
            self.slice = Some((index, left - 1));
            return Some(index);
        }
        let weights: Vec<f64> = methods
            .iter()
            .zip(&self.slices)
            .map(|(m, slices)| if open(m) { weight(m) / (1.0 + f64::from(*slices)) } else { 0.0 })
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut draw = rng.random_range(0.0..total);
        let chosen = weights.iter().position(|w| {
            draw -= w;
            *w > 0.0 && draw < 0.0
        });
        // Rounding may leave the draw just short of the last open method.
        let chosen = chosen.or_else(|| weights.iter().rposition(|w| *w > 0.0))?;
        run(methods, chosen);
        self.slices[chosen] += 1;
        self.slice = Some((chosen, SLICE - 1));
        Some(chosen)
    }
}

/// Makes `index` the one running method.
fn run(methods: &mut [MethodState], index: usize) {
    for m in methods.iter_mut().filter(|m| m.status == Status::Running) {
        m.status = Status::Pending;
    }
    methods[index].status = Status::Running;
}

/// What a method has left to cover, plus one so that a method whose coverage cannot be measured in
/// detail still gets its turn.
fn weight(m: &MethodState) -> f64 {
    let statements = m.covered.iter().filter(|c| !**c).count();
    let branches = m.branches.iter().filter(|c| !**c).count();
    (1 + statements + branches) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn method(name: &str, uncovered: usize, covered: usize) -> MethodState {
        let mut flags = vec![false; uncovered];
        flags.extend(vec![true; covered]);
        MethodState { covered: flags, ..MethodState::new(0, name.into(), None) }
    }

    /// Steps the scheduler `steps` times and counts the steps each method got.
    fn share(scheduler: &mut Scheduler, methods: &mut [MethodState], steps: usize, seed: u64) -> Vec<usize> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut counts = vec![0; methods.len()];
        for _ in 0..steps {
            let index = scheduler.next(methods, &mut rng).expect("a method is open");
            assert_eq!(methods.iter().filter(|m| m.status == Status::Running).count(), 1, "one method runs");
            assert_eq!(methods[index].status, Status::Running);
            counts[index] += 1;
        }
        counts
    }

    #[test]
    fn methods_with_more_left_to_cover_get_more_steps_and_none_starves() {
        let mut methods = vec![method("hard", 40, 0), method("easy", 1, 39), method("middle", 10, 30)];
        let counts = share(&mut Scheduler::default(), &mut methods, 60 * SLICE as usize, 3);
        assert!(counts[0] > counts[2] && counts[2] > counts[1], "{counts:?}");
        assert!(counts[1] > 0, "every open method keeps a chance: {counts:?}");
    }

    #[test]
    fn slices_keep_a_method_for_a_while() {
        let mut methods = vec![method("a", 5, 0), method("b", 5, 0)];
        let mut scheduler = Scheduler::default();
        let mut rng = StdRng::seed_from_u64(1);
        let first = scheduler.next(&mut methods, &mut rng).unwrap();
        for _ in 1..SLICE {
            assert_eq!(scheduler.next(&mut methods, &mut rng), Some(first));
        }
    }

    #[test]
    fn a_pinned_method_runs_until_it_stops_and_done_methods_are_never_chosen() {
        let mut methods = vec![method("a", 5, 0), method("b", 5, 0), method("c", 5, 0)];
        methods[2].status = Status::Done(crate::session::StopReason::Covered);
        let mut scheduler = Scheduler::default();
        scheduler.pin(1);
        let counts = share(&mut scheduler, &mut methods, 3 * SLICE as usize, 5);
        assert_eq!(counts, vec![0, 3 * SLICE as usize, 0]);
        methods[1].status = Status::Done(crate::session::StopReason::Stale);
        let counts = share(&mut scheduler, &mut methods, 5, 5);
        assert_eq!(counts, vec![5, 0, 0]);
        methods[0].status = Status::Done(crate::session::StopReason::Timeout);
        assert_eq!(scheduler.next(&mut methods, &mut StdRng::seed_from_u64(0)), None);
    }

    #[test]
    fn the_same_seed_gives_the_same_order() {
        let make = || vec![method("a", 9, 0), method("b", 4, 2), method("c", 7, 1)];
        let (mut one, mut two) = (make(), make());
        let orders: Vec<Vec<usize>> = [(&mut one, 11), (&mut two, 11)]
            .into_iter()
            .map(|(methods, seed)| {
                let mut scheduler = Scheduler::default();
                let mut rng = StdRng::seed_from_u64(seed);
                (0..200).map(|_| scheduler.next(methods, &mut rng).unwrap()).collect()
            })
            .collect();
        assert_eq!(orders[0], orders[1]);
    }
}
