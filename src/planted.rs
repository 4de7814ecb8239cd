//! Faults planted in the solver, for tests only: this module and every line
//! that reads it are `#[cfg(test)]`, so no other build contains them.
//!
//! A test switches a fault on for its own thread ([`plant`]) and solves
//! tiers on that thread ([`crate::solve::solve_tier`]); the solver then
//! writes wrong values, and the test checks that `asalto verify`'s checker
//! ([`crate::solve::check_tier_as`]), which reads none of these switches,
//! rejects them. The switches are thread-local so that tests running at
//! the same time (and the solver's worker threads) never see them.
//!
//! Each fault has its place in both solvers: the position solver
//! ([`crate::solve::solve_tier`]) and the bit-set solver
//! ([`crate::solve::solve_tier_wdl`]), so that the checker is shown to
//! catch either one's mistakes (the huff fault changes distances only,
//! which the bit-set solver does not give).

use std::cell::Cell;

/// A fault the solver can be made to commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// In the huff fold (`solve::lookup::fold_huffs`): huffing the last
    /// officer wins in 3 plies instead of 1.
    LastHuffWinsIn3,
    /// In the solver's capture generator (`rules::capture_ends`): a chain
    /// may not go on after its first jump (docs/RULES.md section 4 says it must
    /// while it can).
    ChainStopsAfterOneJump,
    /// In the solver's result (`solve::solve_tier`): every draw relabelled
    /// a win (in 1 ply) when the officers are to move and a loss (in 1)
    /// when the soldiers are, in every tier. Each such win has a move to
    /// such a loss and each such loss moves only to such wins, so a check
    /// of win/draw/loss against the successors alone passes it.
    DrawsRelabelled,
    /// In the solver's retrograde pass (`solve::retro`): a resolved
    /// position does not tell its in-tier parents whose index is a
    /// multiple of 7. In the bit-set solver (`solve::bits`): the officers
    /// whose row is a point that is a multiple of 7 never see their steps
    /// to the soldiers' losses.
    ParentNotNotified,
    /// In the solver's un-moves (`solve::retro`): the last soldier un-move
    /// of each fortress mask is left out, so those parents are never
    /// told. In the bit-set solver: the last slice a fortress step leads
    /// into from is never told that the slice changed.
    LastUnmoveMissing,
    /// In the solver's officer moves (`solve::retro`, `solve::bits`): the
    /// capture duty of the huff rule is ignored, a step by officers who
    /// could capture is no fault (docs/RULES.md section 5 makes it one).
    CaptureDutyIgnored,
}

thread_local! {
    static PLANTED: Cell<Option<Fault>> = const { Cell::new(None) };
}

/// Whether `fault` is planted on this thread.
pub(crate) fn planted(fault: Fault) -> bool {
    PLANTED.with(|p| p.get() == Some(fault))
}

/// Whether any fault is planted on this thread.
pub(crate) fn any_planted() -> bool {
    PLANTED.with(|p| p.get().is_some())
}

/// [`Fault::DrawsRelabelled`] on a tier's value codes (officers to move
/// first) when it is planted: every draw a win in 1 for the officers to
/// move, a loss in 1 for the soldiers to move, a lie each value's
/// successors confirm.
pub(crate) fn relabel_draws(codes: &mut [u16]) {
    if !planted(Fault::DrawsRelabelled) {
        return;
    }
    let n_side = codes.len() / 2;
    for (i, c) in codes.iter_mut().enumerate() {
        if *c == 0 {
            *c = if i < n_side { 3 } else { 4 };
        }
    }
}

/// Plant `fault` on this thread until the guard is dropped.
pub(crate) fn plant(fault: Fault) -> Planted {
    PLANTED.with(|p| p.set(Some(fault)));
    Planted(())
}

/// Removes the planted fault when dropped.
pub(crate) struct Planted(());

impl Drop for Planted {
    fn drop(&mut self) {
        PLANTED.with(|p| p.set(None));
    }
}
