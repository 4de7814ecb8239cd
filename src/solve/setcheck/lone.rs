//! The set checker on tiers with one officer: a set of placements of a
//! slice is one bitboard (the officer's points).
//!
//! With one officer a slice has as many placements as free points, so the
//! checker's per-point rows ([`super::Set`], a bit each here) would cost
//! 33 words per set for what one word holds. The derivation is the
//! checker's, read for one officer (docs/RULES.md): the soldiers' steps
//! from the rules' generator, the captures from a walk of the chains'
//! states, each (point, soldiers taken) walked once ([`Captures`], held to
//! the rules' [`crate::rules::ChainList`] by a test), judged by
//! [`super::judged`] with no other officer, a
//! step while a capture is on barred (`mandatory`, or `huff` with the only
//! officer huffed after it), then the least fixed point slice by slice.

use super::{At, SliceSteps, compare_one, decode_each, judged, least_fixed_point, slice_steps};
use crate::board::{self, Bitboard, Point};
use crate::index::{TierKey, fortress_bits, fortress_masks};
use crate::position::Side;
use crate::rules::{self, CaptureRule, Variant};
use crate::solve::SolveError;
use crate::solve::check::{Inconsistency, Others};
use crate::solve::lookup::Lookup;

/// One slice of a one-officer tier; each set a bitboard of the officer's
/// points.
#[derive(Clone, Default)]
struct Slice {
    soldiers: Bitboard,
    /// The officer's points: every placement of the slice.
    free: u64,
    /// Where the officer could capture.
    cap: u64,
    /// Officers to move without a legal move.
    stuck: u64,
    /// Officers to move: a capture wins for them, a capture does not lose.
    o_win: u64,
    o_safe: u64,
    /// Soldiers to move: a step out of the tier wins for them, one does
    /// not lose, any move at all.
    s_win: u64,
    s_safe: u64,
    s_moves: u64,
    /// The slices a soldier's step inside the fortress leads to.
    next: Vec<usize>,
    /// The values: officers to move win / lose, soldiers to move win / lose.
    wo: u64,
    lo: u64,
    ws: u64,
    ls: u64,
}

/// A one-officer tier being checked.
struct Tier<'v> {
    key: TierKey,
    variant: &'v Variant,
    /// Whether a step while a capture is on is barred (not under
    /// `capture=free`).
    barred: bool,
    slices: Vec<Slice>,
    others: Others,
}

/// [`super::check_tier_sets`] on a tier with one officer.
pub(super) fn check_tier(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
) -> Result<Vec<Inconsistency>, SolveError> {
    debug_assert_eq!(key.n, 1);
    let variant = *look.variant();
    let mut slices = KEPT.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let masks = fortress_masks(key.m());
    slices.resize_with(masks.len(), Slice::default);
    for (sl, &f) in slices.iter_mut().zip(masks) {
        let next = std::mem::take(&mut sl.next);
        let soldiers = key.outside | fortress_bits(f);
        *sl = Slice {
            soldiers,
            free: board::ALL & !soldiers,
            next,
            ..Slice::default()
        };
        sl.next.clear();
    }
    let mut t = Tier {
        key: *key,
        variant: &variant,
        barred: variant.capture != CaptureRule::Free,
        slices,
        others: Others::default(),
    };
    t.soldier_moves(look)?;
    t.officer_moves(look)?;
    least_fixed_point(&mut t);
    let bad = t.compare(codes);
    KEPT.with(|c| *c.borrow_mut() = t.slices);
    Ok(bad)
}

impl SliceSteps for Tier<'_> {
    fn slices(&self) -> usize {
        self.slices.len()
    }

    fn next(&self, fi: usize) -> &[usize] {
        &self.slices[fi].next
    }

    fn soldiers_step(&mut self, fi: usize) -> bool {
        let sl = &self.slices[fi];
        let (mut w, mut safe) = (sl.s_win, sl.s_safe);
        for &fj in &sl.next {
            let to = &self.slices[fj];
            w |= to.lo;
            safe |= to.free & !to.wo;
        }
        let sl = &mut self.slices[fi];
        let (w, l) = (w & sl.free, sl.free & !safe);
        let changed = (w, l) != (sl.ws, sl.ls);
        (sl.ws, sl.ls) = (w, l);
        changed
    }

    fn officers_step(&mut self, fi: usize) -> bool {
        let stuck_wins = rules::stuck_winner(Side::Officers, self.variant) == Side::Officers;
        let sl = &mut self.slices[fi];
        // The points from which a step reaches a placement of `x`: the
        // free neighbours of its points (the board's lines go both ways).
        let free = sl.free;
        let before = |x: u64| board::neighbours(x) & free;
        let barred = if self.barred { sl.cap } else { 0 };
        let to_loss = before(sl.ls) & !barred;
        let to_safe = before(free & !sl.ws) & !barred;
        let stuck = if stuck_wins { sl.stuck } else { 0 };
        let w = (sl.o_win | to_loss | stuck) & free;
        let l = free & !(sl.o_safe | to_safe | stuck);
        let changed = (w, l) != (sl.wo, sl.lo);
        (sl.wo, sl.lo) = (w, l);
        changed
    }
}

/// The captures of the officer alone on one point (docs/RULES.md section
/// 4): chains of jumps, each over a soldier not yet taken onto an empty
/// point (the start is empty, the soldiers taken stay on the board until
/// the chain ends), a capture where no jump goes on. Where the chain goes
/// on from depends only on where it stands and what it has taken, so each
/// such state is walked once: the same jumps in other orders (many, with
/// one officer among many soldiers) are not walked again, and each state
/// where no jump goes on is a capture of its own (end, soldiers taken).
#[derive(Default)]
struct Captures {
    /// The states walked after two jumps or more: (point, soldiers
    /// taken).
    walked: rustc_hash::FxHashSet<(Point, Bitboard)>,
    /// Each capture's end point and soldiers taken, once.
    ends: Vec<(Point, Bitboard)>,
    /// The most soldiers one takes (0: no capture).
    best: u32,
}

impl Captures {
    /// The captures of the officer on `start` among `soldiers`, in place
    /// of those held.
    fn fill(&mut self, start: Point, soldiers: Bitboard) {
        // (A cleared table is wiped whole: not when nothing is in it.)
        if !self.walked.is_empty() {
            self.walked.clear();
        }
        self.ends.clear();
        self.jump(start, soldiers, 0);
        self.best = self
            .ends
            .iter()
            .map(|e| e.1.count_ones())
            .max()
            .unwrap_or(0);
    }

    /// Every chain on from `at`, `taken` taken: a jump lands where no
    /// soldier stands (the officer alone; the start it left is empty).
    fn jump(&mut self, at: Point, soldiers: Bitboard, taken: Bitboard) {
        let mut on = false;
        // The jumps over a soldier not yet taken.
        for o in board::points(soldiers & !taken & at.jump_overs()) {
            let to = at.landing(o);
            if soldiers & to.bit() != 0 {
                continue;
            }
            on = true;
            // A state after the first jump is reached by that jump alone.
            if taken == 0 || self.walked.insert((to, taken | o.bit())) {
                self.jump(to, soldiers, taken | o.bit());
            }
        }
        if !on && taken != 0 {
            self.ends.push((at, taken));
        }
    }
}

thread_local! {
    /// Each thread's [`Slice`]s, kept from one tier to the next.
    static KEPT: std::cell::RefCell<Vec<Slice>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Tier<'_> {
    /// The soldiers' steps of every slice: exits read from the tiers they
    /// lead to, and the slices a step inside the fortress leads to.
    fn soldier_moves(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        // The steps from outside: (outside soldiers after, slice, point
        // stepped to, board after).
        let mut out_steps = Vec::new();
        for (fi, sl) in self.slices.iter_mut().enumerate() {
            slice_steps(self.variant, fi, sl.soldiers, &mut sl.next, &mut out_steps);
        }
        // Grouped by the tier reached only: a group's steps are taken in
        // any order (each ORs into its slice).
        out_steps.sort_unstable_by_key(|x| x.0);
        // The slices of the tier a group of steps leads to: where the
        // officer to move there loses, where it does not win.
        let mut decoded: Vec<(u64, u64)> = Vec::new();
        let mut wanted = Vec::new();
        for group in out_steps.chunk_by(|x, y| x.0 == y.0) {
            // Rule 2: a step that fills the fortress wins.
            let fills = |after: Bitboard| after & board::FORTRESS == board::FORTRESS;
            let mut target = None;
            if !group.iter().all(|x| fills(x.3)) {
                let tk = TierKey {
                    outside: group[0].0,
                    ..self.key
                };
                let i = self.others.get(&tk, look)?;
                let o = &self.others.list[i];
                let m = fortress_masks(tk.m()).len();
                wanted.clear();
                wanted.resize(m, false);
                for x in group {
                    wanted[o.slice_of(x.3)] = true;
                }
                decoded.clear();
                decoded.resize(m, (0, 0));
                decode_each(o, Side::Officers, &wanted, |f, p, _, code| {
                    let (lost, not_won) = (code != 0 && code & 1 == 0, code & 1 == 0);
                    decoded[f].0 |= u64::from(lost) << p;
                    decoded[f].1 |= u64::from(not_won) << p;
                })?;
                target = Some(o);
            }
            for &(_, fi, t, after) in group {
                let sl = &mut self.slices[fi];
                let ok = sl.free & !(1u64 << t);
                let (lost, not_won) = match target {
                    Some(o) if !fills(after) => decoded[o.slice_of(after)],
                    _ => (ok, ok),
                };
                sl.s_win |= lost & ok;
                sl.s_safe |= not_won & ok;
                sl.s_moves |= ok;
            }
        }
        // A step inside the fortress is a move wherever the officer leaves
        // its point free: the placements of the slice it leads to.
        for fi in 0..self.slices.len() {
            for i in 0..self.slices[fi].next.len() {
                let to = self.slices[self.slices[fi].next[i]].free;
                let sl = &mut self.slices[fi];
                sl.s_moves |= to & sl.free;
            }
        }
        Ok(())
    }

    /// The officer's moves of every slice: its captures (exits, read from
    /// the lower tiers), where it could capture (for the steps' duty), and
    /// the placements without a legal move.
    fn officer_moves(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let mut caps = Captures::default();
        for fi in 0..self.slices.len() {
            let (soldiers, free) = (self.slices[fi].soldiers, self.slices[fi].free);
            let mut has = 0u64;
            for a in board::points(free) {
                caps.fill(a, soldiers);
                let best = caps.best;
                if best == 0 {
                    continue;
                }
                self.slices[fi].cap |= a.bit();
                for &(to, taken) in &caps.ends {
                    let n = taken.count_ones();
                    // No other officer: none to be at fault but this one.
                    let Some((own_fault, _)) = judged(self.variant, n, best, 0) else {
                        continue;
                    };
                    let k_after = self.key.k - n as u8;
                    // Rule 1: fewer than nine soldiers left, the officers
                    // have won.
                    // Win (bit 0) and loss (bit 1) for the soldiers after
                    // it, as bits: no branch on the value read.
                    let class = if k_after < 9 {
                        2
                    } else {
                        let tk = TierKey {
                            k: k_after,
                            outside: self.key.outside & !taken,
                            ..self.key
                        };
                        let i = self.others.get(&tk, look)?;
                        let at = At::new(&self.others.list[i], soldiers & !taken, Side::Soldiers);
                        let class = at.class(at.seen_point(to.index()))?;
                        // Rule 3: the only officer huffed.
                        if own_fault { 1 } else { class }
                    };
                    let sl = &mut self.slices[fi];
                    has |= a.bit();
                    sl.o_win |= a.bit() * u64::from(class >> 1);
                    sl.o_safe |= a.bit() * u64::from(class & 1 ^ 1);
                }
            }
            // No legal move: no capture and no free point to step to.
            let sl = &mut self.slices[fi];
            sl.stuck = free & !board::neighbours(free) & !has;
        }
        Ok(())
    }

    /// Every position whose stored code differs from the fixed point's
    /// value, in index order.
    fn compare(&self, codes: &[u16]) -> Vec<Inconsistency> {
        let n_side = self.key.size_per_side() as usize;
        let stuck_wins = rules::stuck_winner(Side::Officers, self.variant) == Side::Officers;
        let mut bad = Vec::new();
        let mut node = 0;
        for sl in &self.slices {
            for a in board::points(sl.free) {
                let sets = [sl.wo, sl.lo, sl.stuck, sl.ws, sl.ls, sl.s_moves];
                let held = sets.map(|s| s & a.bit() != 0);
                compare_one(&mut bad, codes, [node, n_side + node], stuck_wins, held);
                node += 1;
            }
        }
        bad.sort_by_key(|b| b.index);
        bad
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ChainList;
    use crate::solve::check::tests::{random_soldiers, xorshift};

    /// The lone checker's walk of states ([`Captures`]) gives the captures
    /// (end point, soldiers taken) and the most taken that the rules'
    /// generator gives for an officer alone, on random boards of 9 to 24
    /// soldiers.
    #[test]
    fn the_walk_of_states_gives_the_rules_captures() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut caps, mut rules) = (Captures::default(), ChainList::default());
        let mut long = 0;
        for _ in 0..600 {
            let soldiers = random_soldiers(&mut next);
            for a in board::points(board::ALL & !soldiers) {
                caps.fill(a, soldiers);
                rules.fill(a, soldiers, 0);
                let mut want: Vec<(Point, Bitboard)> = rules
                    .iter()
                    .map(|(path, taken)| (path[path.len() - 1], taken))
                    .collect();
                want.sort_unstable();
                let mut got = caps.ends.clone();
                got.sort_unstable();
                assert_eq!(got, want, "{soldiers:#x} {a}");
                assert_eq!(caps.best, rules.most_taken(), "{soldiers:#x} {a}");
                long += usize::from(caps.best >= 3);
            }
        }
        // Chains of three jumps and more, where orders can meet, often.
        assert!(long > 1000, "only {long} officers with a chain of three");
    }
}
