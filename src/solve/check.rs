//! Checking a tier's stored values against their successors, independently
//! of the solver.
//!
//! [`check_tier`] walks every position of a tier forward through the
//! rules' own generators, the ones behind `asalto moves`, `asalto query`
//! and perft ([`rules::legal_moves`], [`rules::play`]): the soldiers'
//! steps from `for_each_soldier_step`, the officers' moves from
//! `for_each_officer_move` (capture chains from [`rules::ChainList`],
//! the rules' capture duty and faults) and the huffs from
//! `for_each_huff`, without building a `Move` per move; the end of the
//! game from [`rules::static_outcome`] (rules 1-3) and [`rules::outcome`]
//! (rules 4 and 5). It checks that every stored value is the best over its
//! moves of its successors' values. That is what `asalto verify` runs.
//!
//! Three shortcuts, each held by a test to the generic path (every
//! position's moves from `legal_moves` and every successor located from
//! scratch) on every tier of a closure in all 24 variants with values
//! planted at random: the soldiers' steps of one board are taken once, with
//! where each successor's value lies, for every placement of the officers
//! ([`Step`]; an officer on the point stepped to blocks it); an officer's
//! step without capture, which stays on the same board, is located in
//! the tier in place (its value read there, or after a fault the value of
//! its position with huff rights derived from it); and a check of win/draw/loss only
//! (WDL-only tables) stops taking a position's moves at its first winning
//! one, with the officers' faults (whose successors, with huff rights,
//! cost the most) taken last.
//!
//! The solver ([`super::retro`]) works backwards with un-moves and has its
//! own fast helpers for the hardest moves: captures from
//! `rules::capture_ends`, capture duty written inline, huffs folded by
//! `lookup::fold_huffs`. The checker calls none of them. A position with
//! huff rights (after a fault) is valued by its moves: those without a huff
//! (the moves of the same position without rights), and the huffs the
//! rules' generator gives it, each applied: a huff of the last officer is
//! played (the game ends), any other leaves the soldiers to move against
//! one officer, a position whose stored value is looked up. So the checker
//! and the solver share only the board (points, lines, the soldier step
//! tables, all tested against the slow oracle of
//! `tests/oracle_movegen.rs`), the position type, the index (to find a
//! successor's stored value), the table reader and the tier values of
//! `Lookup` (`tier_values`, read where their strides place a position:
//! `TierValues::strides`, `index::slot_in_tier`), the value type (its
//! codes, `best` and `back`) and the rule for a side without a move
//! (`rules::stuck_winner`: the checker asks `rules::outcome`, the solver
//! `stuck_value` below): a bug in the solver's move code gives values
//! that fail here. The unit tests of [`crate::verify`] plant such bugs in
//! the solver and check that its tables are rejected (docs/DESIGN.md
//! section 8).
//!
//! Cost: `asalto bench` measures the rate of `verify` on one thread
//! (`verify_rate_per_core`, `verify_rate_wdl_only_per_core`). The CPU
//! time before and after the shortcuts and the huffs taken from
//! `for_each_huff` (commit b87f1cc against this one), on the 10-soldier
//! files of `asalto build --for '3/O1O/SS3SS/SSSSSS1/7/3/3 s'`
//! (39,554,112 positions), is in scripts/bench-runs/2026-11-24-verify.
//! What is left (a profile of the WDL-only check): reading successors'
//! values, at random from other tiers, about a third; the officers'
//! generator and capture chains most of the rest. Capture chains are
//! computed once per board of soldiers and point ([`Chains`]), and again
//! only where the other officer could be in the way.
//!
//! Positions: the tier's officers-to-move positions `[0, N)` and its
//! soldiers-to-move positions `[N, 2N)`, enumerated in index order.
//! The soldiers-to-move positions are checked first, so that a position
//! with huff rights reached by a fault step inside the tier takes its
//! moves without a huff from the value derived for its base. Positions with
//! huff rights are not stored; each one a move reaches is valued as above
//! (memoised inside the tier).

use super::SolveError;
use super::lookup::{Lookup, TierValues};
use crate::Value;
use crate::board::{self, Bitboard, Point};
use crate::index::{
    TierKey, binom, fortress_bits, fortress_mask, fortress_masks, fortress_rank, index_in_tier,
    officer_rank, slot_in_tier,
};
use crate::position::{Position, Side};
use crate::rules::{self, ChainList, Move, Variant};
use rustc_hash::FxHashMap as HashMap;

/// An inconsistent stored value found by [`check_tier_as`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// Index of the position in its tier.
    pub index: u32,
    /// The value stored.
    pub(crate) stored: Value,
    /// The best value over the position's moves, from the stored values of
    /// its successors (or the value of a position without moves).
    pub(crate) derived: Value,
}

/// Check the stored `codes` of tier `key` (canonical) against their
/// successors: every value must equal the best over its legal moves of the
/// successors' values seen from the mover (in-tier successors read from
/// `codes`, the others through `look`'s stored values), and a position
/// without moves must have the value the rules give it. Returns the
/// positions that fail, in index order.
///
/// A successor with huff rights (soldiers to move after a fault) is not
/// stored: its value is the best of its moves without a huff (the value of
/// the same position without rights: derived here when it lies in this
/// tier, else its stored value) and of its huffs as the rules give them
/// (see the module documentation). Where the positions it reads pass their
/// own check, that is the best over all of its moves.
///
/// A labelling in which every position passes (huff positions included,
/// valued as above) is the exact solution. Let `V` be the labelling and
/// `T` the true values; show by induction on `d` that `V(p) = T(p)`
/// whenever `V(p)` or `T(p)` is a win or loss in at most `d` plies. At
/// `d = 0` both are the rules' value of a position without moves (a
/// position with moves gets a distance of 1 or more from both). For `d > 0`
/// every successor decided within `d - 1` by either has `V = T`. If `T(p)`
/// is a win in `d`, a move reaches a true loss in `d - 1`, so `V(p)` is a
/// win in `d` or sooner, and not sooner (its move would reach a `V`-loss
/// in at most `d - 2`, a true one, making `T(p)` shorter). If `V(p)` is a
/// win in `d`, the same with `V` and `T` swapped. If either is a loss in
/// `d`, every move reaches a win within `d - 1` for both, the longest in
/// `d - 1`, so both are a loss in `d`. Draws are what is left on both
/// sides.
pub(crate) fn check_tier(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
) -> Result<Vec<Inconsistency>, SolveError> {
    check_tier_with(key, look, codes, Mode::Values, false)
}

/// Check the stored `codes` of tier `key` (canonical): each value against
/// its moves' values, with distances, or with `wdl_only` the check of a
/// WDL-only table (whose wins and losses stand in one ply for their
/// unknown distance): its win/draw/loss re-derived as the tier's least
/// fixed point. Returns the positions that fail, in index order.
pub fn check_tier_as(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
    wdl_only: bool,
) -> Result<Vec<Inconsistency>, SolveError> {
    if wdl_only {
        check_tier_wdl(key, look, codes)
    } else {
        check_tier(key, look, codes)
    }
}

/// Check the win/draw/loss of a WDL-only table's tier `key`, draws
/// included, by solving it again with nothing taken from its own stored
/// values: a value passes when it has the win/draw/loss the tier's least
/// fixed point gives it, and is a loss in 0 plies exactly when that is one
/// (the one distance such a table keeps).
///
/// The moves are taken forward through the rules' generators as in
/// [`check_tier`]. Those that leave the tier (soldiers stepping outside or
/// into the fortress, captures, huffs, the game's end) are its exits,
/// valued from the stored lower tiers; those that stay (officers' steps,
/// soldiers' moves inside the fortress, and the huff rights a fault step
/// gives) are kept as the edges of the tier's graph, reversed here, and
/// never valued from `codes`. The fixed point is the plain one: a
/// position is won once an exit or a successor is lost for the opponent,
/// lost once every move is known to lose (no exit better than a loss and
/// every successor won for the opponent), and what is never decided is a
/// draw. That is what is forced in finitely many plies, so where the
/// lower tiers are right every value of the tier is (by induction on the
/// tiers' order, every value of a verified set of tables); in particular
/// a cycle of wins and losses that are really draws, which a check of
/// each value against its successors alone lets through, fails here.
/// The solver is not called: it works backwards from un-moves, this
/// forwards from the rules' generator.
pub(crate) fn check_tier_wdl(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
) -> Result<Vec<Inconsistency>, SolveError> {
    check_tier_with(key, look, codes, Mode::FixedPoint, false)
}

/// How [`check_tier_with`] values a tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Each stored value against its successors' stored values, with
    /// distances ([`check_tier`]).
    Values,
    /// Win/draw/loss re-derived as the tier's least fixed point from its
    /// exits, with nothing read from its own stored values
    /// ([`check_tier_wdl`]).
    FixedPoint,
    /// Win/draw/loss, each stored value against its successors' stored
    /// values alone (the WDL check before the fixed point): a cycle of
    /// wins and losses that are really draws passes. For the tests, which
    /// show what it misses.
    #[cfg(test)]
    LocalWdl,
}

/// The positions per side of tier `key`, when `codes` holds the whole
/// tier (both sides); else the error naming how many it holds.
pub(super) fn whole_tier(key: &TierKey, codes: &[u16]) -> Result<usize, SolveError> {
    let n_side = key.size_per_side() as usize;
    if codes.len() == 2 * n_side {
        Ok(n_side)
    } else {
        Err(SolveError::PartialTier {
            outside: key.outside,
            found: codes.len() as u64,
        })
    }
}

/// [`check_tier_as`] in `mode`, or with `generic` every position's moves
/// taken from [`rules::legal_moves_into`] (the soldiers') or the officers'
/// generator one by one and every successor located from scratch, without
/// the shortcuts of a board's soldier steps taken once ([`Step`]), of
/// officer steps read in place, and of a WDL check stopping at the first
/// winning move: the tests hold the two to the same inconsistencies.
fn check_tier_with(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
    mode: Mode,
    generic: bool,
) -> Result<Vec<Inconsistency>, SolveError> {
    whole_tier(key, codes)?;
    // The fixed point's graph, or not, fixed at compile time: the check
    // with distances then pays nothing for the graph in its inner loops.
    if mode == Mode::FixedPoint {
        check_tier_in::<true>(key, look, codes, mode, generic)
    } else {
        check_tier_in::<false>(key, look, codes, mode, generic)
    }
}

/// [`check_tier_with`], with `FIXED` true exactly when `mode` is
/// [`Mode::FixedPoint`].
fn check_tier_in<const FIXED: bool>(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
    mode: Mode,
    generic: bool,
) -> Result<Vec<Inconsistency>, SolveError> {
    let n_side = key.size_per_side() as usize;
    let wdl_only = mode != Mode::Values;
    let mut c: Checker<'_, '_, FIXED> = Checker {
        key: *key,
        variant: *look.variant(),
        codes,
        look,
        derived_soldiers: Vec::with_capacity(n_side),
        huff_memo: Vec::new(),
        others: Others::default(),
        moves: Vec::new(),
        faults: Vec::new(),
        stop_at_win: wdl_only && !generic,
        graph: FIXED.then(|| Graph::new(n_side)),
    };
    let placements = key.officer_placements() as usize;
    let masks = fortress_masks(key.m());
    let mut bad = Vec::new();
    let mut steps = Vec::new();
    // Kept out of the checker, which the officers' moves borrow while
    // these chains are read: moving them in and out cost a copy a position.
    let mut chains = Chains::default();
    // Soldiers to move first: a position with huff rights reached by an
    // officer's fault step has the moves of one of them plus its huffs.
    for side in [Side::Soldiers, Side::Officers] {
        let first = if side == Side::Soldiers { n_side } else { 0 };
        for (fi, &mask) in masks.iter().enumerate() {
            let soldiers = key.outside | fortress_bits(mask);
            let free = board::ALL & !soldiers;
            if side == Side::Soldiers && !generic {
                c.soldier_steps(soldiers, &mut steps)?;
            }
            // Where an officer's step without capture or fault lands: the
            // soldiers-to-move positions of this board.
            let landing = (!generic).then_some((n_side + fi * placements, free));
            for_each_officers(free, key.n, |oi, officers| {
                let node = first + fi * placements + oi;
                let pos = Position::from_parts_unchecked(soldiers, officers, side, 0);
                let edges_before = if FIXED {
                    c.graph.as_ref().map_or(0, |g| g.succ.len())
                } else {
                    0
                };
                let derived = match side {
                    Side::Soldiers if !generic => c.derive_soldiers(&pos, &steps)?,
                    Side::Soldiers => c.derive_soldiers_generic(&pos)?,
                    Side::Officers => c.derive_officers(&pos, landing, &mut chains)?,
                };
                if FIXED && let Some(g) = &mut c.graph {
                    // The moves that stay are edges; the value is the
                    // fixed point's, compared below.
                    let has_edges = g.succ.len() > edges_before;
                    let exit = match derived {
                        None if !has_edges => Some(over_value(&pos, &c.variant)),
                        exit => exit,
                    };
                    g.close(node, edges_before, exit);
                    return Ok(());
                }
                // Every move's value is read: `None` is a position without
                // moves.
                let derived = derived.unwrap_or_else(|| over_value(&pos, &c.variant));
                if side == Side::Soldiers {
                    c.derived_soldiers.push(derived.code());
                }
                bad.extend(disagreement(node, codes[node], derived, wdl_only));
                Ok(())
            })?;
        }
    }
    if let Some(g) = c.graph.take() {
        fixed_point_disagreements(g, &c.huff_memo, codes, &mut bad);
    }
    bad.sort_by_key(|b| b.index);
    Ok(bad)
}

/// The tier's values solved again as the least fixed point of its move
/// graph `g`, each that differs in win/draw/loss from the stored `codes`
/// added to `bad`.
fn fixed_point_disagreements(
    mut g: Graph,
    huff_memo: &[u16],
    codes: &[u16],
    bad: &mut Vec<Inconsistency>,
) {
    let derived = g.least_fixed_point(huff_memo);
    g.recycle();
    for (node, (&code, derived)) in codes.iter().zip(derived).enumerate() {
        bad.extend(disagreement(node, code, derived, true));
    }
}

/// The inconsistency of position `index`, stored as `code`, when its
/// value differs from the `derived` one: in win/draw/loss, or in being a
/// loss in 0 plies, when `wdl_only`; at all otherwise.
pub(super) fn disagreement(
    index: usize,
    code: u16,
    derived: Value,
    wdl_only: bool,
) -> Option<Inconsistency> {
    let stored = Value::from_code(code);
    let differs = if wdl_only {
        std::mem::discriminant(&derived) != std::mem::discriminant(&stored)
            || (derived == Value::Loss(0)) != (stored == Value::Loss(0))
    } else {
        derived != stored
    };
    differs.then_some(Inconsistency {
        index: index as u32,
        stored,
        derived,
    })
}

/// The moves of a tier that stay in it, collected by a fixed-point check
/// ([`check_tier_wdl`]), and each position's best exit.
///
/// Nodes: the tier's positions `[0, 2N)` in index order, then its
/// soldiers-to-move positions with huff rights at `2N + slot` (the slot of
/// [`Checker::huff_memo`]). A position with huff rights has the moves of
/// its base (the same position without them, whose edges it shares) and
/// its huffs, which always leave the tier (they remove an officer): its
/// best exit is kept in `huff_memo`.
///
/// Its vectors are kept between tiers by the thread ([`GRAPH_BUFFERS`],
/// [`Graph::recycle`]):
/// allocated anew for every tier, their pages cost more system time than
/// the fixed point itself.
#[derive(Default)]
struct Graph {
    /// Positions per side to move (`N`).
    n_side: usize,
    /// Each position's successors in the tier: `succ[range[i].0 ..
    /// range[i].1]`.
    range: Vec<(u32, u32)>,
    /// The successors, position after position.
    succ: Vec<u32>,
    /// Each position's best exit (a move that leaves the tier, valued from
    /// the stored lower tiers, or the value of a position without moves),
    /// as a code; [`NO_EXIT`] when every move stays in the tier.
    exit: Vec<u16>,
    /// The fixed point's work: successors not yet won for the opponent,
    /// the reversed edges (`pred[start[i] .. start[i + 1]]`), each node's
    /// state, the nodes to propagate.
    left: Vec<u32>,
    start: Vec<u32>,
    pred: Vec<u32>,
    state: Vec<u8>,
    queue: Vec<u32>,
}

thread_local! {
    /// The vectors of the last [`Graph`] this thread dropped.
    static GRAPH_BUFFERS: std::cell::RefCell<Graph> = std::cell::RefCell::default();
}

/// No exit: every move stays in the tier.
const NO_EXIT: u16 = u16::MAX - 1;
/// A huff memo slot not reached.
const UNSET: u16 = u16::MAX;

fn exit_code(v: Option<Value>) -> u16 {
    v.map_or(NO_EXIT, Value::code)
}

fn exit_value(code: u16) -> Option<Value> {
    (code < NO_EXIT).then(|| Value::from_code(code))
}

impl Graph {
    fn new(n_side: usize) -> Graph {
        let mut g = GRAPH_BUFFERS.with(|b| std::mem::take(&mut *b.borrow_mut()));
        g.n_side = n_side;
        g.range.clear();
        g.range.resize(2 * n_side, (0, 0));
        g.succ.clear();
        g.exit.clear();
        g.exit.resize(2 * n_side, NO_EXIT);
        g
    }

    /// Keep this graph's vectors for the thread's next one.
    fn recycle(self) {
        GRAPH_BUFFERS.with(|b| *b.borrow_mut() = self);
    }

    /// Record that `node`'s successors are those pushed since `from`, and
    /// its best exit.
    /// A position won by an exit keeps none: its value is decided.
    fn close(&mut self, node: usize, from: usize, exit: Option<Value>) {
        if matches!(exit, Some(Value::Win(_))) {
            self.succ.truncate(from);
        }
        self.range[node] = (from as u32, self.succ.len() as u32);
        self.exit[node] = exit_code(exit);
    }

    /// The best exit of a soldiers-to-move position, `base` counted from
    /// `N` (already closed: the soldiers' positions come first).
    fn soldiers_exit(&self, base: usize) -> Option<Value> {
        exit_value(self.exit[self.n_side + base])
    }

    /// The successors of node `i` (a huff node shares its base's).
    fn successors(&self, i: usize) -> &[u32] {
        let base = if i < 2 * self.n_side {
            i
        } else {
            self.n_side + (i - 2 * self.n_side) / 3
        };
        let (a, b) = self.range[base];
        &self.succ[a as usize..b as usize]
    }

    /// The predecessors of the `nodes` nodes (those `reached`), as a
    /// reversed adjacency (CSR): the predecessors of `j` are
    /// `pred[start[j]..start[j + 1]]`; `left[i]` is the count of `i`'s
    /// successors. Each node's count of predecessors is summed into the
    /// end of its run in `pred`, which the edges then fill from the end
    /// down to its start.
    fn predecessors(
        &self,
        nodes: usize,
        reached: impl Fn(usize) -> bool,
        left: &mut Vec<u32>,
        start: &mut Vec<u32>,
        pred: &mut Vec<u32>,
    ) {
        left.clear();
        left.resize(nodes, 0);
        start.clear();
        start.resize(nodes + 1, 0);
        for i in (0..nodes).filter(|&i| reached(i)) {
            let s = self.successors(i);
            left[i] = s.len() as u32;
            for &j in s {
                start[j as usize] += 1;
            }
        }
        let mut sum = 0;
        for s in start.iter_mut() {
            sum += *s;
            *s = sum;
        }
        pred.clear();
        pred.resize(sum as usize, 0);
        for i in (0..nodes).filter(|&i| reached(i)) {
            for &j in self.successors(i) {
                let end = &mut start[j as usize];
                *end -= 1;
                pred[*end as usize] = i as u32;
            }
        }
    }

    /// The win/draw/loss of the tier's positions `[0, 2N)`, given the huff
    /// nodes' exits `huff_memo`: the least fixed point, by counting down
    /// each position's successors not yet known to win for the opponent.
    /// A value decided by its exits alone is that exit's value (a loss in
    /// 0 plies where the position has no moves); one decided through the
    /// tier's moves is a win or loss in 1 ply (its distance is not
    /// derived).
    fn least_fixed_point(&mut self, huff_memo: &[u16]) -> Vec<Value> {
        const OPEN: u8 = 0;
        const WIN: u8 = 1;
        const LOSS: u8 = 2;
        const DRAW: u8 = 3;
        let base = 2 * self.n_side;
        let nodes = base + huff_memo.len();
        let mut left = std::mem::take(&mut self.left);
        let mut start = std::mem::take(&mut self.start);
        let mut pred = std::mem::take(&mut self.pred);
        let mut state = std::mem::take(&mut self.state);
        let mut queue = std::mem::take(&mut self.queue);
        let exit = |i: usize| {
            exit_value(if i < base {
                self.exit[i]
            } else {
                match huff_memo[i - base] {
                    UNSET => NO_EXIT,
                    c => c,
                }
            })
        };
        let reached = |i: usize| i < base || huff_memo[i - base] != UNSET;
        self.predecessors(nodes, reached, &mut left, &mut start, &mut pred);
        state.clear();
        state.resize(nodes, OPEN);
        queue.clear();
        for i in (0..nodes).filter(|&i| reached(i)) {
            match exit(i) {
                Some(Value::Win(_)) => state[i] = WIN,
                Some(Value::Loss(_)) | None if left[i] == 0 => state[i] = LOSS,
                Some(Value::Draw) if left[i] == 0 => {
                    // Final, and no help to a predecessor: not queued.
                    state[i] = DRAW;
                    continue;
                }
                _ => continue,
            }
            queue.push(i as u32);
        }
        while let Some(q) = queue.pop() {
            let q = q as usize;
            let won = state[q] == WIN;
            for &p in &pred[start[q] as usize..start[q + 1] as usize] {
                let p = p as usize;
                if state[p] != OPEN {
                    continue;
                }
                if !won {
                    // A move to a position lost for the opponent.
                    state[p] = WIN;
                    queue.push(p as u32);
                    continue;
                }
                left[p] -= 1;
                if left[p] == 0 {
                    // Every move stays in the tier and wins for the
                    // opponent: the exits decide.
                    state[p] = match exit(p) {
                        Some(Value::Draw) => DRAW,
                        _ => LOSS,
                    };
                    if state[p] == LOSS {
                        queue.push(p as u32);
                    }
                }
            }
        }
        // The distance is not derived: one ply, as a WDL-only table's
        // codes have it.
        let unknown = 1;
        let values = (0..base)
            .map(|i| match (state[i], exit(i)) {
                (WIN, Some(v @ Value::Win(_))) => v,
                (WIN, _) => Value::Win(unknown),
                (LOSS, Some(v)) if self.successors(i).is_empty() => v,
                (LOSS, _) => Value::Loss(unknown),
                _ => Value::Draw,
            })
            .collect();
        (self.left, self.start) = (left, start);
        (self.pred, self.state, self.queue) = (pred, state, queue);
        values
    }
}

/// The value for `side` to move with no legal move (docs/RULES.md section 6,
/// rules 4 and 5). The solver's; the checker asks [`rules::outcome`].
pub(crate) fn stuck_value(side: Side, variant: &Variant) -> Value {
    if rules::stuck_winner(side, variant) == side {
        Value::Win(0)
    } else {
        Value::Loss(0)
    }
}

/// The checking state of one tier.
struct Checker<'c, 'l, const FIXED: bool> {
    key: TierKey,
    variant: Variant,
    /// The tier's stored values.
    codes: &'c [u16],
    look: &'c mut Lookup<'l>,
    /// Values of the tier's soldiers-to-move positions with huff rights,
    /// by `3 * (index - N) + offender code - 1` (1 the lower officer, 2 the
    /// higher, 3 both); [`UNSET`] when not yet derived. Allocated on
    /// first use. In a fixed-point check, their best exits instead
    /// ([`NO_EXIT`] for none).
    huff_memo: Vec<u16>,
    /// The derived values of the tier's soldiers-to-move positions, in
    /// index order, as far as checked.
    derived_soldiers: Vec<u16>,
    /// The other tiers moves reach.
    others: Others,
    /// A buffer of moves.
    moves: Vec<Move>,
    /// A buffer of officers' faults (from, to, taken, offenders).
    faults: Vec<(Point, Point, Bitboard, Bitboard)>,
    /// Stop taking a position's moves at its first winning one: in a
    /// win/draw/loss check, where the shortest win is not asked for.
    stop_at_win: bool,
    /// In a fixed-point check ([`check_tier_wdl`]): the moves that stay
    /// in the tier, kept as edges instead of read from `codes`.
    graph: Option<Graph>,
}

/// A soldier step of one board of soldiers (soldiers to move, no huff
/// rights), taken from the rules' generator once for every placement of
/// the officers: a placement with an officer on `to` blocks it, and the
/// others all reach the same board, so the same tier and fortress mask.
struct Step {
    /// The point stepped to.
    to: Bitboard,
    /// Where the successor's value is.
    target: Target,
}

/// Where the value of a soldier step's successor is.
enum Target {
    /// In a stored tier, this one (`None`, its codes in index order) or
    /// another (`Some(index into Others::list)`, its values as stored):
    /// at `base` plus `stride` times the rank of the officers (mirrored
    /// when the stored tier is the mirror image) among `free`.
    Stored {
        other: Option<usize>,
        base: usize,
        stride: usize,
        free: Bitboard,
        mirrored: bool,
    },
    /// Nowhere stored (the step fills the fortress): the position with
    /// these soldiers, valued by [`Checker::value`].
    Played(Bitboard),
}

/// The capture chains ([`rules::ChainList`]) of every point of one
/// board of soldiers, with no other officer on the board, and the points
/// where a chain from each could land: a chain that never lands where the
/// other officer stands is the same with it on the board, so the chains are
/// computed once per board and again only for an officer whose `reach`
/// holds the other.
#[derive(Default)]
struct Chains {
    /// The soldiers these chains are for.
    soldiers: Option<Bitboard>,
    /// The chains from each point (empty for soldiers' points).
    alone: Vec<ChainList>,
    /// Every point a jump could land on in a chain from each point: the
    /// closure of the jumps over a soldier onto a point without one.
    reach: Vec<Bitboard>,
    /// The chains of each officer of the position being checked, where
    /// the other officer may stand in their way (kept for their room).
    own: [ChainList; 2],
}

impl Chains {
    /// The chains of every point of the board `soldiers`.
    fn fill(&mut self, soldiers: Bitboard) {
        self.soldiers = Some(soldiers);
        self.alone
            .resize_with(board::NUM_POINTS, ChainList::default);
        self.reach.resize(board::NUM_POINTS, 0);
        for p in board::points(board::ALL) {
            let i = p.index();
            self.alone[i].clear();
            self.reach[i] = 0;
            if soldiers & p.bit() != 0 {
                continue;
            }
            self.alone[i].fill(p, soldiers, 0);
            // Landing points: the start counts as empty (it is the
            // officer's own), every other point without a soldier too.
            let mut todo = p.bit();
            let mut seen = p.bit();
            while todo != 0 {
                let q = Point::new(todo.trailing_zeros() as usize);
                todo &= todo - 1;
                for j in q.jumps() {
                    let land = j.land.bit();
                    if soldiers & j.over.bit() != 0 && soldiers & land == 0 && seen & land == 0 {
                        seen |= land;
                        todo |= land;
                    }
                }
            }
            self.reach[i] = seen;
        }
    }
}

impl<const FIXED: bool> Checker<'_, '_, FIXED> {
    /// The steps of the soldiers `soldiers` (soldiers to move, no huff
    /// rights) as the rules' generator gives them with no officer on the
    /// board, each with where its successor's value is, into `steps`.
    fn soldier_steps(
        &mut self,
        soldiers: Bitboard,
        steps: &mut Vec<Step>,
    ) -> Result<(), SolveError> {
        let mut pairs = Vec::new();
        rules::for_each_soldier_step(soldiers, board::ALL & !soldiers, &self.variant, |f, t| {
            pairs.push((f, t))
        });
        steps.clear();
        for (from, to) in pairs {
            let after = soldiers & !from.bit() | to.bit();
            let key = TierKey {
                outside: after & board::OUTSIDE,
                ..self.key
            };
            let target = if !key.is_valid() {
                Target::Played(after)
            } else if key == self.key {
                Target::Stored {
                    other: None,
                    base: (fortress_rank(fortress_mask(after)) * key.officer_placements()) as usize,
                    stride: 1,
                    free: board::ALL & !after,
                    mirrored: false,
                }
            } else {
                let other = self.others.get(&key, self.look)?;
                let t = &self.others.list[other];
                let seen = t.seen(after);
                // The officers to move: the first side's half.
                let (mask_stride, placement_stride) = t.strides;
                Target::Stored {
                    other: Some(other),
                    base: (fortress_rank(fortress_mask(seen)) * mask_stride) as usize,
                    stride: placement_stride as usize,
                    free: board::ALL & !seen,
                    mirrored: t.mirrored,
                }
            };
            steps.push(Step {
                to: to.bit(),
                target,
            });
        }
        Ok(())
    }

    /// The best value over the moves of `pos` (soldiers to move, no huff
    /// rights, not over by rules 1-3): the `steps` of its board that no
    /// officer blocks. `None` when no move's value was read: it has no
    /// move, or in a fixed-point check only moves that stay in the tier
    /// (recorded as edges).
    fn derive_soldiers(
        &mut self,
        pos: &Position,
        steps: &[Step],
    ) -> Result<Option<Value>, SolveError> {
        let officers = pos.officers();
        let mut best: Option<Value> = None;
        for step in steps {
            if officers & step.to != 0 {
                continue;
            }
            let v = match step.target {
                Target::Stored {
                    other,
                    base,
                    stride,
                    free,
                    mirrored,
                } => {
                    let seen = if mirrored {
                        board::mirror_bb(officers)
                    } else {
                        officers
                    };
                    let at = base + officer_rank(seen, free) as usize * stride;
                    match other {
                        None => self.in_tier(at),
                        Some(i) => match self.others.list[i].values.at(at as u32) {
                            Some(c) => Some(Value::from_code(c)),
                            None => return Err(SolveError::MissingTier(self.others.list[i].key)),
                        },
                    }
                }
                Target::Played(soldiers) => self.value(&Position::from_parts_unchecked(
                    soldiers,
                    officers,
                    Side::Officers,
                    0,
                ))?,
            };
            if let Some(v) = v {
                best = Some(better(best, v.back()));
            }
            if self.stop_at_win && matches!(best, Some(Value::Win(_))) {
                break;
            }
        }
        Ok(best)
    }

    /// [`Checker::derive_soldiers`] through [`rules::legal_moves_into`]
    /// and [`rules::play`], each successor located from scratch.
    fn derive_soldiers_generic(&mut self, pos: &Position) -> Result<Option<Value>, SolveError> {
        let mut best: Option<Value> = None;
        let mut moves = std::mem::take(&mut self.moves);
        rules::legal_moves_into(pos, &self.variant, &mut moves);
        for m in &moves {
            let after = rules::play(pos, &self.variant, m);
            match self.value(&after) {
                Ok(Some(v)) => best = Some(better(best, v.back())),
                Ok(None) => {}
                Err(e) => {
                    self.moves = moves;
                    return Err(e);
                }
            }
        }
        self.moves = moves;
        Ok(best)
    }

    /// The best value over the legal moves of `pos` (officers to move, not
    /// over by rules 1-3); `None` as for [`Checker::derive_soldiers`].
    /// With `landing = Some((node, free))` (`free` the points without a
    /// soldier), a step without capture, which leaves the soldiers as they
    /// are, lands at `node` plus the rank of the officers after it among
    /// `free` in this tier (its value read there, or after a fault derived
    /// from it); with `None` every successor is located from scratch.
    fn derive_officers(
        &mut self,
        pos: &Position,
        landing: Option<(usize, Bitboard)>,
        chains: &mut Chains,
    ) -> Result<Option<Value>, SolveError> {
        let mut best: Option<Value> = None;
        // The generator behind `legal_moves` for the officers, without
        // building a `Move` (and its path) for each move, with the capture
        // chains of this board (`chains`: those of the board last seen).
        if chains.soldiers != Some(pos.soldiers()) {
            chains.fill(pos.soldiers());
        }
        let mut count = 0;
        for o in board::points(pos.officers()) {
            let other = pos.officers() & !o.bit();
            if chains.reach[o.index()] & other != 0 {
                chains.own[count].fill(o, pos.soldiers(), other);
            }
            count += 1;
        }
        let empty = ChainList::default();
        let mut given: [(Point, &ChainList); 2] = [(Point::new(0), &empty); 2];
        for (i, o) in board::points(pos.officers()).enumerate() {
            let other = pos.officers() & !o.bit();
            given[i] = if chains.reach[o.index()] & other != 0 {
                (o, &chains.own[i])
            } else {
                (o, &chains.alone[o.index()])
            };
        }
        let mut err = None;
        let variant = self.variant;
        let stop_at_win = self.stop_at_win;
        // Faults, when a win ends the search: taken after the other moves
        // (their successors, with huff rights, cost the most, and a capture
        // that wins makes them needless).
        let mut faults = std::mem::take(&mut self.faults);
        faults.clear();
        rules::for_each_officer_move_given(
            pos.soldiers(),
            pos.officers(),
            &variant,
            &given[..count],
            |path, taken, offenders| {
                if err.is_some() || (stop_at_win && matches!(best, Some(Value::Win(_)))) {
                    return;
                }
                let (from, to) = (path[0], path[path.len() - 1]);
                if stop_at_win && offenders != 0 {
                    faults.push((from, to, taken, offenders));
                    return;
                }
                match self.officer_move_value(pos, (from, to, taken, offenders), landing) {
                    Ok(Some(v)) => best = Some(better(best, v.back())),
                    Ok(None) => {}
                    Err(e) => err = Some(e),
                }
            },
        );
        let mut result = err.map_or(Ok(()), Err);
        for &(from, to, taken, offenders) in &faults {
            if result.is_err() || matches!(best, Some(Value::Win(_))) {
                break;
            }
            match self.officer_move_value(pos, (from, to, taken, offenders), landing) {
                Ok(Some(v)) => best = Some(better(best, v.back())),
                Ok(None) => {}
                Err(e) => result = Err(e),
            }
        }
        self.faults = faults;
        result.map(|()| best)
    }

    /// The value, for the soldiers then to move, of the officers' move
    /// `(from, to, taken, offenders)` of `pos` (`None` for a move that
    /// stays in the tier in a fixed-point check, recorded as an edge).
    /// With `landing` (see [`Checker::derive_officers`]) a step, which
    /// leaves the soldiers as they are, is located in this tier in place:
    /// its stored value, or after a fault its value with huff rights;
    /// anything else, and every move without `landing`, through
    /// [`Checker::value`].
    fn officer_move_value(
        &mut self,
        pos: &Position,
        (from, to, taken, offenders): (Point, Point, Bitboard, Bitboard),
        landing: Option<(usize, Bitboard)>,
    ) -> Result<Option<Value>, SolveError> {
        let after = rules::after_officer_move(pos, from, to, taken, offenders);
        match landing {
            Some((node, free)) if taken == 0 => {
                let i = node + officer_rank(after.officers(), free) as usize;
                if offenders == 0 {
                    Ok(self.in_tier(i))
                } else {
                    let n_side = self.key.size_per_side() as usize;
                    self.huff_value_here(&after, i - n_side)
                }
            }
            _ => self.value(&after),
        }
    }

    /// The value of a position of this tier at index `node`: its stored
    /// value; in a fixed-point check `None`, the move to it kept as an
    /// edge instead.
    #[inline]
    fn in_tier(&mut self, node: usize) -> Option<Value> {
        if FIXED && let Some(g) = &mut self.graph {
            g.succ.push(node as u32);
            return None;
        }
        Some(Value::from_code(self.codes[node]))
    }

    /// The value of a position a move reached, for its side to move
    /// (`None` for one in this tier in a fixed-point check, recorded as an
    /// edge).
    fn value(&mut self, pos: &Position) -> Result<Option<Value>, SolveError> {
        if rules::static_outcome(pos).is_some() {
            return Ok(Some(over_value(pos, &self.variant)));
        }
        if pos.huff() != 0 {
            return self.huff_value(pos);
        }
        self.stored(pos)
    }

    /// The value of a position with huff rights (soldiers to move after
    /// a fault), memoised when it lies in this tier.
    fn huff_value(&mut self, pos: &Position) -> Result<Option<Value>, SolveError> {
        match self.huff_index(pos) {
            Some(i) => self.huff_value_here(pos, i),
            None => {
                let base = self.value(&pos.without_huff())?;
                self.with_huffs(pos, base)
            }
        }
    }

    /// [`Checker::huff_value`] of `pos`, a position with huff rights in
    /// this tier whose base (the same position without them) is its
    /// soldiers-to-move position `base` (counted from `N`). In a
    /// fixed-point check its best exit is memoised instead, and the move
    /// to it kept as an edge to node `2N + slot`.
    fn huff_value_here(
        &mut self,
        pos: &Position,
        base: usize,
    ) -> Result<Option<Value>, SolveError> {
        // Memo slot: 3 * base + offender code - 1, the code 1 for the
        // lower officer, 2 the higher, 3 both.
        let officers = pos.officers();
        let low = officers & officers.wrapping_neg();
        let code = (pos.huff() & low != 0) as usize + 2 * (pos.huff() & !low != 0) as usize;
        let slot = 3 * base + code - 1;
        if self.huff_memo.is_empty() {
            self.huff_memo = vec![UNSET; 3 * self.key.size_per_side() as usize];
        }
        if self.huff_memo[slot] == UNSET {
            let base_value = match &self.graph {
                // Its base's exits; its base's edges are its own.
                Some(g) => g.soldiers_exit(base),
                // Derived in the first pass; the stored value otherwise.
                None => match self.derived_soldiers.get(base) {
                    Some(&c) => Some(Value::from_code(c)),
                    None => self.stored(&pos.without_huff())?,
                },
            };
            let v = self.with_huffs(pos, base_value)?;
            self.huff_memo[slot] = exit_code(v);
        }
        if let Some(g) = &mut self.graph {
            g.succ.push((2 * g.n_side + slot) as u32);
            return Ok(None);
        }
        Ok(exit_value(self.huff_memo[slot]))
    }

    /// The value of `pos`, a position with huff rights, given `base`, the
    /// value of its moves without a huff (those of the same position
    /// without huff rights; `None` when none was read).
    ///
    /// Its other moves are the huffs the rules' generator
    /// ([`rules::for_each_huff`], behind `legal_moves`) gives it: a huff
    /// `h` that removes the last officer, played (the game is over), or
    /// `h:step` for the soldier steps once `h` is removed. The best of the
    /// latter for one `h` is the value of the position the huff leaves
    /// (same soldiers to move, without `h` and without huff rights), whose
    /// moves are exactly those steps: it is looked up, stored in the
    /// one-officer tier and checked there. (The generator gives no `h:step`
    /// move when that position has no step: such a huff is no option.)
    /// A huff removes an officer, so it always leaves the tier.
    fn with_huffs(
        &mut self,
        pos: &Position,
        base: Option<Value>,
    ) -> Result<Option<Value>, SolveError> {
        let mut huffs = [(Point::new(0), false); 2];
        let mut count = 0;
        rules::for_each_huff(pos, &self.variant, |h, alone| {
            huffs[count] = (h, alone);
            count += 1;
        });
        let mut best = base;
        for &(h, alone) in &huffs[..count] {
            if self.stop_at_win && matches!(best, Some(Value::Win(_))) {
                break;
            }
            let v = if alone {
                // The huff alone ends the game.
                self.value(&rules::play(pos, &self.variant, &Move::huff_alone(h)))?
                    .map(Value::back)
            } else {
                let rest = pos.officers() & !h.bit();
                self.value(&Position::from_parts_unchecked(
                    pos.soldiers(),
                    rest,
                    Side::Soldiers,
                    0,
                ))?
            };
            if let Some(v) = v {
                best = Some(better(best, v));
            }
        }
        Ok(best)
    }

    /// For a soldiers-to-move position with huff rights in this tier: its
    /// index among the tier's soldiers-to-move positions; `None` for one
    /// in another tier.
    fn huff_index(&self, pos: &Position) -> Option<usize> {
        if TierKey::of(pos) != Some(self.key) || pos.side() != Side::Soldiers {
            return None;
        }
        let n_side = self.key.size_per_side() as usize;
        let i = index_in_tier(&self.key, pos.soldiers(), pos.officers(), Side::Soldiers) as usize;
        Some(i - n_side)
    }

    /// The stored value of a position without huff rights in a tier (in
    /// this tier, [`Checker::in_tier`]).
    fn stored(&mut self, pos: &Position) -> Result<Option<Value>, SolveError> {
        let Some(key) = TierKey::of(pos) else {
            return Err(SolveError::NotInTier(*pos));
        };
        if key == self.key {
            let i = index_in_tier(&key, pos.soldiers(), pos.officers(), pos.side());
            return Ok(self.in_tier(i as usize));
        }
        self.others.stored(&key, pos, self.look).map(Some)
    }
}

/// A stored tier that moves out of the checked tier reach.
pub(super) struct Other {
    /// The stored (canonical) tier.
    pub(super) key: TierKey,
    /// Whether the tier reached is its mirror image.
    pub(super) mirrored: bool,
    /// Its values.
    pub(super) values: TierValues,
    /// Where a position lies in `values` ([`TierValues::strides`]).
    pub(super) strides: (u32, u32),
}

impl Other {
    /// The board `b` of the tier as reached in the stored tier's
    /// orientation.
    #[inline]
    pub(super) fn seen(&self, b: Bitboard) -> Bitboard {
        if self.mirrored {
            board::mirror_bb(b)
        } else {
            b
        }
    }
}

/// The tiers moves out of the checked tier reach, by the tier reached (not
/// canonicalised): a small direct-mapped cache before a hash map, as the
/// positions checked one after the other reach the same few tiers.
#[derive(Default)]
pub(super) struct Others {
    pub(super) list: Vec<Other>,
    index: HashMap<TierKey, usize>,
    recent: Vec<(TierKey, usize)>,
}

impl Others {
    const RECENT: usize = 64;

    /// The index in `list` of tier `key` as reached (read on first use).
    pub(super) fn get(
        &mut self,
        key: &TierKey,
        look: &mut Lookup<'_>,
    ) -> Result<usize, SolveError> {
        if self.recent.is_empty() {
            let none = TierKey {
                n: 0,
                k: 0,
                outside: 0,
            };
            self.recent = vec![(none, 0); Self::RECENT];
        }
        let h = (key.outside ^ (u64::from(key.k) << 40) ^ (u64::from(key.n) << 48))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            >> 58;
        let slot = &mut self.recent[h as usize];
        if slot.0 == *key {
            return Ok(slot.1);
        }
        let i = match self.index.get(key) {
            Some(&i) => i,
            None => {
                let canonical = key.canonical();
                let values = look.tier_values(&canonical)?;
                self.list.push(Other {
                    key: canonical,
                    mirrored: canonical != *key,
                    strides: values.strides(&canonical),
                    values,
                });
                self.index.insert(*key, self.list.len() - 1);
                self.list.len() - 1
            }
        };
        *slot = (*key, i);
        Ok(i)
    }

    /// The stored value of `pos` (no huff rights), a position of tier
    /// `key` (as reached) other than the checked one.
    pub(super) fn stored(
        &mut self,
        key: &TierKey,
        pos: &Position,
        look: &mut Lookup<'_>,
    ) -> Result<Value, SolveError> {
        let i = self.get(key, look)?;
        let t = &self.list[i];
        let seen = if t.mirrored { pos.mirror() } else { *pos };
        let slot = slot_in_tier(
            &t.key,
            seen.soldiers(),
            seen.officers(),
            seen.side(),
            t.strides,
        );
        match t.values.at(slot) {
            Some(c) => Ok(Value::from_code(c)),
            None => Err(SolveError::MissingTier(t.key)),
        }
    }
}

/// The better for the mover of the best so far (`None` before the first
/// move) and `v`, a move's value seen from the mover.
fn better(best: Option<Value>, v: Value) -> Value {
    best.map_or(v, |b| b.best(v))
}

/// The value of a position where the game is over (rules 1-3) or whose
/// side to move has no legal move (rules 4 and 5): won or lost now.
fn over_value(pos: &Position, variant: &Variant) -> Value {
    // Without a legal move the game is over: `outcome` says who won.
    let winner =
        rules::outcome(pos, variant).unwrap_or_else(|| rules::stuck_winner(pos.side(), variant));
    if winner == pos.side() {
        Value::Win(0)
    } else {
        Value::Loss(0)
    }
}

/// Call `f(rank, officers)` for every placement of `n` officers on the
/// points of `free`, in rank order.
fn for_each_officers(
    free: Bitboard,
    n: u8,
    mut f: impl FnMut(usize, Bitboard) -> Result<(), SolveError>,
) -> Result<(), SolveError> {
    let pts: Vec<Point> = board::points(free).collect();
    if n == 1 {
        for (i, p) in pts.iter().enumerate() {
            f(i, p.bit())?;
        }
    } else {
        for b in 1..pts.len() {
            for a in 0..b {
                f(binom(b, 2) as usize + a, pts[a].bit() | pts[b].bit())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::solve::{Solver, TierStore};

    /// A xorshift generator with a fixed seed, for random test boards
    /// (the bit-set solver's and the set checker's tests use it too).
    pub(crate) fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// Soldiers on 9 to 24 points of the board drawn from `next`, for
    /// random test boards.
    pub(crate) fn random_soldiers(next: &mut impl FnMut() -> u64) -> crate::board::Bitboard {
        let k = 9 + next() as u32 % 16;
        let mut soldiers: crate::board::Bitboard = 0;
        while soldiers.count_ones() < k {
            soldiers |= 1 << (next() % crate::board::NUM_POINTS as u64);
        }
        soldiers
    }

    #[test]
    fn chains_computed_once_per_board_are_the_rules_chains() {
        // Random boards with many soldiers: wherever the checker reuses an
        // officer's chains computed alone, the rules give the same chains
        // with the other officer on the board, and every chain lands only
        // on points of `reach`.
        let mut next = xorshift(0x5851_f42d_4c95_7f2d);
        let (mut reused, mut recomputed) = (0, 0);
        let mut chains = Chains::default();
        for _ in 0..300 {
            let soldiers = next() & next() & board::ALL;
            chains.fill(soldiers);
            let free = board::ALL & !soldiers;
            for o in board::points(free) {
                for (path, _) in chains.alone[o.index()].iter() {
                    for p in &path[1..] {
                        assert_ne!(chains.reach[o.index()] & p.bit(), 0);
                    }
                }
                for q in board::points(free & !o.bit()) {
                    if chains.reach[o.index()] & q.bit() != 0 {
                        recomputed += 1;
                        continue;
                    }
                    reused += 1;
                    let mut with_q = ChainList::default();
                    with_q.fill(o, soldiers, q.bit());
                    assert_eq!(with_q, chains.alone[o.index()]);
                }
            }
        }
        assert!(reused > 1000 && recomputed > 1000, "{reused} {recomputed}");
    }

    /// Solve the closure of `pos` under `variant` and check every tier,
    /// with distances and as a WDL-only tier's fixed point: all pass; then
    /// a value changed in the largest tier is caught there.
    fn check_closure(variant: Variant, pos: &str) {
        let p: Position = pos.parse().unwrap();
        let solver = Solver::new(variant).threads(1);
        let tiers = solver.closure_of(&p);
        let sol = solver.solve_closure(&p).unwrap();
        for key in &tiers {
            let codes = sol.store().tier(key).unwrap().unwrap();
            let mut look = Lookup::new(sol.store(), variant);
            let bad = check_tier(key, &mut look, &codes).unwrap();
            assert!(bad.is_empty(), "{variant} {key:?}: {:?}", bad.first());
            let bad = check_tier_wdl(key, &mut look, &codes).unwrap();
            assert!(bad.is_empty(), "{variant} {key:?} WDL: {:?}", bad.first());
        }
        // A wrong value planted in the middle of the largest tier: a draw
        // made a win in 0, a win or loss one ply longer.
        let key = tiers.iter().max_by_key(|t| t.size()).unwrap();
        let mut codes = sol.store().tier(key).unwrap().unwrap().to_vec();
        let i = codes.len() / 2;
        codes[i] = if codes[i] == 0 { 1 } else { codes[i] + 2 };
        let mut look = Lookup::new(sol.store(), variant);
        let bad = check_tier(key, &mut look, &codes).unwrap();
        assert!(
            bad.iter().any(|b| b.index as usize == i),
            "{variant} {key:?}"
        );
    }

    /// Ten soldiers, officers on c3 and e3 below them (160,776 positions in
    /// 20 tiers): captures (one soldier taken leaves the game going, two
    /// end it), fault steps and their huffs, pieces stuck.
    const TEN: &str = "SS1/SSS/2S1S2/1SS1S2/2O1O2/3/3 o";

    /// Every tier of the closure of `pos` under `variant`, with values
    /// planted at random (draws, short and long wins and losses, losses in
    /// 0), checked through the shortcuts and through the generic path:
    /// the same inconsistencies, with the same derived values (with
    /// distances) or at the same positions (win/draw/loss only, where the
    /// shortcut stops at a first win of any length). Returns how many
    /// were found.
    fn shortcuts_agree_with_the_generic_path(variant: Variant, pos: &str, seed: u64) -> usize {
        let p: Position = pos.parse().unwrap();
        let solver = Solver::new(variant).threads(1);
        let sol = solver.solve_closure(&p).unwrap();
        let mut next = xorshift(seed);
        let mut found = 0;
        for key in &solver.closure_of(&p) {
            let mut codes = sol.store().tier(key).unwrap().unwrap().to_vec();
            for _ in 0..1 + codes.len() / 500 {
                let i = next() as usize % codes.len();
                codes[i] = match next() % 5 {
                    0 => Value::Draw.code(),
                    1 => Value::Loss(0).code(),
                    2 => Value::Win(1).code(),
                    3 => Value::Loss(2).code(),
                    _ => codes[i] + 2,
                };
            }
            for mode in [Mode::Values, Mode::LocalWdl, Mode::FixedPoint] {
                let mut look = Lookup::new(sol.store(), variant);
                let fast = check_tier_with(key, &mut look, &codes, mode, false).unwrap();
                let mut look = Lookup::new(sol.store(), variant);
                let slow = check_tier_with(key, &mut look, &codes, mode, true).unwrap();
                if mode == Mode::Values {
                    assert_eq!(fast, slow, "{variant} {key:?}");
                    found += fast.len();
                } else {
                    let at = |v: &[Inconsistency]| v.iter().map(|b| b.index).collect::<Vec<_>>();
                    assert_eq!(at(&fast), at(&slow), "{variant} {key:?} ({mode:?})");
                }
            }
        }
        found
    }

    #[test]
    fn the_shortcuts_find_what_the_generic_path_finds_in_every_variant() {
        for (i, v) in Variant::all().into_iter().enumerate() {
            let found = shortcuts_agree_with_the_generic_path(v, TEN, 0x9e37_79b9 + i as u64);
            assert!(found > 100, "{v}: only {found} planted values caught");
        }
    }

    #[test]
    fn every_closer_variant_passes_and_a_planted_value_is_caught() {
        for v in Variant::all() {
            if v.soldiers == rules::SoldierRule::Closer {
                check_closure(v, TEN);
            }
        }
    }

    #[test]
    fn every_forward_variant_passes_and_a_planted_value_is_caught() {
        for v in Variant::all() {
            if v.soldiers == rules::SoldierRule::Forward {
                check_closure(v, TEN);
            }
        }
    }

    /// The solved closure of `TEN` under assaut with every draw relabelled
    /// in every tier (a win in 1 for the officers to move, a loss in 1 for
    /// the soldiers), as the planted fault `DrawsRelabelled` writes it:
    /// checked against its successors alone no value fails, while the
    /// fixed point rejects relabelled draws, and only those.
    #[test]
    fn draws_relabelled_pass_a_local_check_and_fail_the_fixed_point() {
        let variant = Variant::ASSAUT;
        let p: Position = TEN.parse().unwrap();
        let solver = Solver::new(variant).threads(1);
        let sol = solver.solve_closure(&p).unwrap();
        let lying = crate::solve::MemoryStore::new();
        let mut relabelled = 0;
        let tiers = solver.closure_of(&p);
        for key in &tiers {
            let mut codes = sol.store().tier(key).unwrap().unwrap().to_vec();
            let n_side = codes.len() / 2;
            for (i, c) in codes.iter_mut().enumerate() {
                if *c == 0 {
                    *c = if i < n_side { 3 } else { 4 };
                    relabelled += 1;
                }
            }
            lying.insert(*key, codes);
        }
        assert!(relabelled > 10, "only {relabelled} draws");
        let (mut local, mut caught) = (0, 0);
        for key in &tiers {
            let codes = lying.tier(key).unwrap().unwrap();
            let right = sol.store().tier(key).unwrap().unwrap();
            let mut look = Lookup::new(&lying, variant);
            local += check_tier_with(key, &mut look, &codes, Mode::LocalWdl, false)
                .unwrap()
                .len();
            for b in check_tier_wdl(key, &mut look, &codes).unwrap() {
                assert_eq!(right[b.index as usize], 0, "{key:?} {b:?}");
                assert_eq!(b.derived, Value::Draw, "{key:?} {b:?}");
                caught += 1;
            }
        }
        assert_eq!(local, 0, "the local check caught {local}");
        assert!(caught > 0);
    }
}
