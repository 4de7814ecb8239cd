//! Faults planted in the solver, for tests only: this module and every line
//! that reads it are `#[cfg(test)]`, so no other build contains them.
//!
//! A test switches a fault on for its own thread ([`plant`]) and solves
//! tiers on that thread ([`crate::solve::solve_tier`]); the solver then
//! writes wrong values, and the test checks that `asalto verify`'s checker
//! ([`crate::solve::check_tier_as`]), which reads none of these switches,
//! rejects them. The switches are thread-local so that tests running at
//! the same time (and the solver's worker threads) never see them.

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
    /// multiple of 7.
    ParentNotNotified,
    /// In the solver's un-moves (`solve::retro`): the last soldier un-move
    /// of each fortress mask is left out, so those parents are never
    /// told.
    LastUnmoveMissing,
    /// In the solver's officer moves (`solve::retro`): the capture duty of
    /// the huff rule is ignored, a step by officers who could capture is
    /// no fault (docs/RULES.md section 5 makes it one).
    CaptureDutyIgnored,
}

thread_local! {
    static PLANTED: Cell<Option<Fault>> = const { Cell::new(None) };
}

/// Whether `fault` is planted on this thread.
pub(crate) fn planted(fault: Fault) -> bool {
    PLANTED.with(|p| p.get() == Some(fault))
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
