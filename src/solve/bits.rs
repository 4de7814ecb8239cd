//! The bit-set WDL solver: one tier solved as sets of officer placements,
//! for WDL-only tables (docs/DESIGN.md, "The bit-set solver").
//!
//! Inside a tier `(n, k, S)` the outside soldiers `S` stand still; a
//! position is a fortress mask `F` (a *slice* of the tier), a placement of
//! the officers on the free points and the side to move. A set of
//! placements of one slice is a [`Mat`]: a symmetric 33 x 64 bit matrix
//! indexed by board points (placement `{a, b}` is bit `b` of row `a` and
//! bit `a` of row `b`); with one officer a bitboard (module `one`).
//! Indexed by points, not ranks, a set means the
//! same placements in every slice and every tier, so moves are word
//! operations:
//!
//! * an officer step: the placements one step before a set `X` are, row by
//!   row, the rows of `X` of the neighbours (the row's officer stepped)
//!   and the row itself spread to its neighbours (the other officer
//!   stepped), [`pred`];
//! * a fortress soldier step `s -> t` leads from slice `F` to slice `F - s
//!   + t` with the same placements (those not on `t`).
//!
//! Moves that leave the tier (soldier steps from outside, captures) are
//! read once per position into *exit* sets (an officer's capture chains
//! walked once per slice for every point of the other officer, [`chains`],
//! and each capture read for a row of placements); the capture duty into the
//! per-slice sets [`Slices::cap`] (officer of the row could capture, the
//! other officer standing on the column) and its transpose; a step with a
//! capture available is then illegal (`mandatory`) or leads to a huff
//! position (`huff`), whose value is the base's bettered by the huffs,
//! read as per-slice point sets of the one-officer tier ([`Slices::w1`],
//! [`Slices::nl1`]).
//!
//! The values are then a least fixed point computed slice by slice: an
//! officers-to-move slice from the soldiers-to-move sets of the same slice
//! (officers step within it), a soldiers-to-move slice from the
//! officers-to-move sets of the slices its fortress steps lead to; only
//! slices whose inputs changed are computed again. Wins and losses only
//! grow; what is never decided is a draw. The result is a win, a draw, a
//! loss, or a loss in 0 (no move), which is all a WDL-only table holds:
//! the same fields as [`super::solve_tier`] gives, whose distances a
//! WDL-only table drops.

use super::SolveError;
use super::lookup::Lookup;
use super::retro::{Looked, Target, Targets};
use crate::Value;
use crate::board::{self, ADJACENT, Bitboard, OUTSIDE};
use crate::index::{TierKey, fortress_bits, fortress_mask, fortress_masks, fortress_rank};
#[cfg(test)]
use crate::planted::{Fault, planted};
use crate::position::Side;
use crate::rules::{CaptureRule, Variant};

mod one;

/// Placements of one slice: a bit matrix indexed by board points.
pub(crate) type Mat = [u64; board::NUM_POINTS];

/// The bit of a chain end's points of the other officer that stands for
/// no other officer on the board (no point of the board: bit 63).
const PHANTOM: u64 = 1 << 63;

const EMPTY: Mat = [0; board::NUM_POINTS];

/// States of a capture chain walked (end point, soldiers taken).
type Seen = rustc_hash::FxHashSet<(u8, Bitboard)>;

/// Row `a` of the placements one officer step before `x` (whose rows are
/// zero off `free`): the rows of `x` on `a`'s free neighbours (the row's
/// officer stepped from `a`) and row `a` spread (the other officer
/// stepped). Placements not in the slice are the caller's to mask.
#[inline]
fn pred(x: &Mat, a: usize, free: u64) -> u64 {
    let mut r = board::neighbours(x[a]);
    let mut adj = ADJACENT[a] & free;
    while adj != 0 {
        r |= x[adj.trailing_zeros() as usize];
        adj &= adj - 1;
    }
    r
}

/// Add the placements of `rows` (two officers; row `a` holds the other
/// officer's points, rows off `free` empty) to `out` both ways: `{a, b}`
/// as bit `b` of row `a` and bit `a` of row `b`.
fn both_ways(free: u64, rows: &Mat, out: &mut Mat) {
    each(free, |a| {
        out[a] |= rows[a];
        each(rows[a], |b| out[b] |= 1 << a);
    });
}

/// Iterate the set points of `b` as indices.
#[inline]
fn each(mut b: u64, mut f: impl FnMut(usize)) {
    while b != 0 {
        f(b.trailing_zeros() as usize);
        b &= b - 1;
    }
}

/// Transpose the `size` x `size` (16 or 32) bit matrices held in the low
/// and the high halves of `rows` (bit `c` of row `r` the entry `(r, c)`):
/// blocks swapped across the diagonal, halving their size each round.
fn transpose_halves(rows: &mut [u64; 32], size: usize) {
    let mut j = size / 2;
    let mut m: u64 = match size {
        16 => 0x00ff_00ff_00ff_00ff,
        _ => 0x0000_ffff_0000_ffff,
    };
    while j != 0 {
        let mut k = 0;
        while k < size {
            let t = (rows[k] >> j ^ rows[k + j]) & m;
            rows[k] ^= t << j;
            rows[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// Bits of an index space put on the points of a mask (bit `i` on the
/// mask's `i`-th point), a byte of the board at a time.
struct Spread {
    bytes: [u8; 5],
    shift: [u32; 5],
    table: &'static [[u8; 256]; 256],
}

/// `DEPOSIT[m][x]`: the low bits of `x` put on the set bits of `m`, in
/// order.
static DEPOSIT: std::sync::LazyLock<Box<[[u8; 256]; 256]>> = std::sync::LazyLock::new(|| {
    let mut t = Box::new([[0u8; 256]; 256]);
    for (m, row) in t.iter_mut().enumerate() {
        for (x, out) in row.iter_mut().enumerate() {
            let mut i = 0;
            each(m as u64, |b| {
                *out |= ((x >> i & 1) as u8) << b;
                i += 1;
            });
        }
    }
    t
});

impl Spread {
    fn new(mask: u64) -> Spread {
        let mut s = Spread {
            bytes: [0; 5],
            shift: [0; 5],
            table: &DEPOSIT,
        };
        for c in 0..5 {
            s.bytes[c] = (mask >> (8 * c)) as u8;
            s.shift[c] = (mask & ((1u64 << (8 * c)) - 1)).count_ones();
        }
        s
    }

    /// The bits of `x` (index space) on the mask's points.
    #[inline]
    fn of(&self, x: u64) -> u64 {
        let mut out = 0;
        for c in 0..5 {
            let bits = (x >> self.shift[c]) as u8;
            out |= u64::from(self.table[self.bytes[c] as usize][bits as usize]) << (8 * c);
        }
        out
    }
}

/// The faults of one capture under the huff rule: the other officer's
/// points where only it may be huffed (`by_other`), only the capturing one
/// (on `to`: `by_self`), or both; and the soldiers' wins and losses after
/// the capture without a huff.
struct Faults {
    to: usize,
    by_other: u64,
    by_self: u64,
    by_both: u64,
    ws: u64,
    ls: u64,
}

/// The points of the other officer where a faulty capture (`f`) wins for
/// the officers and where it does not lose: the soldiers may huff an
/// officer at fault, leaving the other alone on the board (`one`: the
/// one-officer tier after the capture, soldiers to move, fortress mask
/// `fm`; a huff that leaves the soldiers without a move is no option).
fn fault_values(one: &Target, fm: u16, f: &Faults) -> Result<(u64, u64), SolveError> {
    let (first, free_there) = one.slice(fm);
    // A win (odd code), a draw (0), or neither.
    let class = |p: usize| -> Result<(bool, bool), SolveError> {
        let c = one.code_at(first, free_there, one.orient(1 << p))?;
        Ok((c & 1 == 1, c & 1 == 1 || c == 0))
    };
    // The other officer huffed leaves this one on `to`.
    let (w_to, nl_to) = class(f.to)?;
    let (mut w1, mut nl1) = (0u64, 0u64);
    let mut e = Ok(());
    each(f.by_self | f.by_both, |b| match class(b) {
        Ok((w, nl)) => {
            w1 |= u64::from(w) << b;
            nl1 |= u64::from(nl) << b;
        }
        Err(x) => e = Err(x),
    });
    e?;
    let (keep_l, keep_w) = (if nl_to { 0 } else { !0 }, if w_to { 0 } else { !0 });
    let (ws, ls) = (f.ws, f.ls);
    let win =
        (f.by_other & ls & keep_l) | (f.by_self & ls & !nl1) | (f.by_both & ls & !nl1 & keep_l);
    let not_lost =
        (f.by_other & !ws & keep_w) | (f.by_self & !ws & !w1) | (f.by_both & !ws & !w1 & keep_w);
    Ok((win, not_lost))
}

/// The captures of an officer on one point of a slice, for every point
/// the other officer may stand on: its chains walked once, each end kept
/// with the points of the other officer for which it is a capture (the
/// other officer stands on no point the chain lands on, and the chain
/// cannot go on past it). Kept from slice to slice and tier to tier while
/// the soldiers agree on the points the walk looked at.
#[derive(Default)]
struct Walk {
    looked: Looked,
    /// `(end point, soldiers taken, other officer's points)`; bit 63
    /// ([`PHANTOM`]) where it is a capture with no other officer on the
    /// board.
    ends: Vec<(u8, Bitboard, u64)>,
    /// The states a walk alone has been through ([`chains`]).
    seen: Seen,
}

impl Walk {
    /// The walk of an officer on `p` among `soldiers`, kept as it is when
    /// the soldiers on the points it looked at are the same.
    /// With `ALONE` only the captures with no other officer on the board
    /// are kept ([`chains`]).
    fn update<const ALONE: bool>(&mut self, p: usize, soldiers: Bitboard) {
        if self.looked.holds(soldiers) {
            return;
        }
        self.ends.clear();
        let looked = chains::<ALONE>(p, soldiers, &mut self.ends, &mut self.seen);
        self.looked.read(looked, soldiers);
    }
}

/// The capture chains of an officer on `start` among `soldiers` into `ends`
/// (emptied): each chain's end and soldiers taken, with the points of the
/// other officer for which it is a capture (bit 63 set: also with no other
/// officer). Returns the points whose soldiers the walk read: each
/// jump's point passed over, and where a soldier stands there the point
/// landed on (the chains are the same among any soldiers that agree with
/// these on them).
///
/// A chain walked with no other officer ends where no jump goes on; with
/// the other officer on `q` the chains that land on `q` are cut before
/// it, so a chain also ends where its only jump on lands on `q`, and no
/// chain through `q` is one.
///
/// With `ALONE` only the chains that are captures with no other officer
/// are kept (bit 63 alone). Where such a chain goes on from depends only
/// on where it stands and what it has taken, so each state from the
/// second jump on is walked once (`seen`, emptied here): the same jumps in
/// other orders, many with one officer among many soldiers, are not
/// walked again, and each capture is kept once. (With another officer
/// the points landed on matter too: those walks are not cut.)
fn chains<const ALONE: bool>(
    start: usize,
    soldiers: Bitboard,
    ends: &mut Vec<(u8, Bitboard, u64)>,
    seen: &mut Seen,
) -> Bitboard {
    fn dfs<const ALONE: bool>(
        soldiers: Bitboard,
        ends: &mut Vec<(u8, Bitboard, u64)>,
        seen: &mut Seen,
        looked: &mut Bitboard,
        cur: usize,
        taken: Bitboard,
        path: Bitboard,
    ) {
        if ALONE && taken.count_ones() >= 2 && !seen.insert((cur as u8, taken)) {
            return;
        }
        let (mut jumps, mut only) = (0u32, 0u64);
        // Every point a jump from here passes over is looked at, and the
        // landing point of each jump over a soldier.
        let at = board::Point::new(cur);
        let overs = at.jump_overs();
        *looked |= overs;
        let mut x = soldiers & overs;
        while x != 0 {
            let o = x.trailing_zeros();
            x &= x - 1;
            let over = 1u64 << o;
            let l = at.landing(board::Point::new(o as usize)).index();
            *looked |= 1 << l;
            if taken & over == 0 && soldiers & (1 << l) == 0 {
                #[cfg(test)]
                if taken != 0 && planted(Fault::ChainStopsAfterOneJump) {
                    continue;
                }
                jumps += 1;
                only = 1 << l;
                dfs::<ALONE>(soldiers, ends, seen, looked, l, taken | over, path | 1 << l);
            }
        }
        if taken == 0 {
            return;
        }
        if ALONE {
            if jumps == 0 {
                ends.push((cur as u8, taken, PHANTOM));
            }
            return;
        }
        let others = !path
            & match jumps {
                0 => !0,
                1 => only,
                _ => 0,
            };
        if others == 0 {
            return;
        }
        // Merged with the same capture by other orders of its jumps below.
        ends.push((cur as u8, taken, others));
    }
    let mut looked = 0;
    // (A cleared table is wiped whole: not when nothing is in it.)
    if ALONE && !seen.is_empty() {
        seen.clear();
    }
    dfs::<ALONE>(soldiers, ends, seen, &mut looked, start, 0, 0);
    if !ALONE {
        // Each capture once: the chains that end alike (the same jumps in
        // other orders) merged.
        ends.sort_unstable_by_key(|e| (e.1, e.0));
        ends.dedup_by(|e, kept| {
            let same = (e.0, e.1) == (kept.0, kept.1);
            if same {
                kept.2 |= e.2;
            }
            same
        });
    }
    looked
}

/// One capture of an officer (ending on `to`, taking `taken`), against
/// the other officer on the points of `fast`; `eq` those where it takes
/// the most this officer can, `gt` those where the other officer could
/// take more.
struct CaptureRow {
    to: usize,
    taken: Bitboard,
    fast: u64,
    eq: u64,
    gt: u64,
}

/// What the officers owe when a capture is on, as the step sets use it.
#[derive(Clone, Copy, PartialEq)]
enum Duty {
    /// `free`: every step is a plain move.
    None,
    /// A step with a capture on is no move (`mandatory`), or leads to a
    /// huff position that the soldiers win by huffing the only officer
    /// (`huff` with one officer): either way never a good step and never
    /// one to a position the soldiers do not win.
    NoStep,
    /// `huff` with two officers: a step with a capture on leads to a huff
    /// position.
    Huff,
}

/// The per-slice sets of one tier.
#[derive(Default)]
struct Slices {
    /// Fortress masks in rank order.
    masks: Vec<u16>,
    /// Free points of each slice.
    free: Vec<u64>,
    /// Placements of each slice.
    v: Vec<Mat>,
    /// Officers to move: a capture wins / a capture does not lose.
    ew_o: Vec<Mat>,
    enl_o: Vec<Mat>,
    /// Soldiers to move: a step out of the tier wins / does not lose.
    ew_s: Vec<Mat>,
    enl_s: Vec<Mat>,
    /// Soldiers to move with some move (a loss without one is a loss in 0).
    move_s: Vec<Mat>,
    /// Officers to move without a legal move.
    stuck_o: Vec<Mat>,
    /// The row's officer could capture (the other officer on the column);
    /// and its transpose (the column's officer could).
    cap: Vec<Mat>,
    capt: Vec<Mat>,
    /// One officer left on a point after a huff, soldiers to move: the
    /// soldiers win there / do not lose there (a loss in 0 is no huff).
    w1: Vec<u64>,
    nl1: Vec<u64>,
    /// Fortress steps between the slices.
    steps: Steps,
    /// Scratch kept from tier to tier: each point's capture walk.
    walks: Vec<Walk>,
    /// The values.
    win_o: Vec<Mat>,
    loss_o: Vec<Mat>,
    win_s: Vec<Mat>,
    loss_s: Vec<Mat>,
}

/// The fortress steps between the slices of a tier (a soldier on a
/// fortress point to an empty one): each slice's steps and the slices
/// stepping into it, both as lists of slice ranks.
#[derive(Default)]
struct Steps {
    /// `to[start[fi]..start[fi + 1]]`: the slices the steps of `fi` lead
    /// to.
    start: Vec<u32>,
    to: Vec<u32>,
    /// `into[into_start[fi]..into_start[fi + 1]]`: the slices with a step
    /// to `fi`.
    into_start: Vec<u32>,
    into: Vec<u32>,
}

impl Steps {
    /// The steps between the slices of `masks` (rank order) under the
    /// soldier moves `table`.
    fn layout(&mut self, masks: &[u16], table: &[u64; board::NUM_POINTS]) {
        let m = masks.len();
        self.start.clear();
        self.start.push(0);
        self.to.clear();
        let mut count_into = vec![0u32; m + 1];
        for &mask in masks {
            let fortress = fortress_bits(mask);
            each(fortress, |s| {
                each(table[s] & board::FORTRESS & !fortress, |t| {
                    let to = fortress & !(1 << s) | 1 << t;
                    let fj = fortress_rank(fortress_mask(to));
                    self.to.push(fj);
                    count_into[fj as usize + 1] += 1;
                });
            });
            self.start.push(self.to.len() as u32);
        }
        for i in 0..m {
            count_into[i + 1] += count_into[i];
        }
        self.into_start.clear();
        self.into_start.extend_from_slice(&count_into);
        self.into.clear();
        self.into.resize(self.to.len(), 0);
        for fi in 0..m {
            for i in self.start[fi]..self.start[fi + 1] {
                let fj = self.to[i as usize] as usize;
                self.into[count_into[fj] as usize] = fi as u32;
                count_into[fj] += 1;
            }
        }
    }

    /// The slices the steps of slice `fi` lead to.
    #[inline]
    fn from(&self, fi: usize) -> &[u32] {
        &self.to[self.start[fi] as usize..self.start[fi + 1] as usize]
    }

    /// The slices with a step into slice `fi`.
    #[inline]
    fn into(&self, fi: usize) -> &[u32] {
        &self.into[self.into_start[fi] as usize..self.into_start[fi + 1] as usize]
    }
}

/// A tier's value sets computed slice by slice, as [`fixed_point`] drives
/// them.
trait Passes {
    /// The tier's slices.
    fn slices(&self) -> usize;
    /// The fortress steps between them.
    fn steps(&self) -> &Steps;
    /// The soldiers-to-move sets of slice `fi` from the officers-to-move
    /// sets of the slices its fortress steps lead to; whether they changed.
    fn update_soldiers(&mut self, fi: usize) -> bool;
    /// The officers-to-move sets of slice `fi` from its soldiers-to-move
    /// sets; whether they changed.
    fn update_officers(&mut self, fi: usize) -> bool;
}

/// The least fixed point: slices computed again while their inputs change.
// Out of line so that profiles show the phases.
#[inline(never)]
fn fixed_point(p: &mut impl Passes) {
    let m = p.slices();
    let mut dirty_o = vec![true; m];
    let mut dirty_s = vec![true; m];
    // Each slice's two sides in turn, the slices from the last rank down:
    // a sweep reads what it has itself just found (on the real 2o16s,
    // 2.41 soldiers' and 1.48 officers' updates a slice, against 3.49 and
    // 2.20 with each side's slices all at once).
    loop {
        let mut any = false;
        for fi in (0..m).rev() {
            if std::mem::take(&mut dirty_s[fi]) && p.update_soldiers(fi) {
                dirty_o[fi] = true;
            }
            if std::mem::take(&mut dirty_o[fi]) && p.update_officers(fi) {
                #[allow(unused_mut)]
                let mut srcs = p.steps().into(fi);
                #[cfg(test)]
                if planted(Fault::LastUnmoveMissing) {
                    srcs = &srcs[..srcs.len().saturating_sub(1)];
                }
                for &src in srcs {
                    dirty_s[src as usize] = true;
                }
                any = true;
            }
        }
        if !any {
            break;
        }
    }
}

fn reset(v: &mut Vec<Mat>, len: usize) {
    v.clear();
    v.resize(len, EMPTY);
}

/// A tier being solved.
struct Solve<'v> {
    key: TierKey,
    variant: &'v Variant,
    duty: Duty,
    sl: Slices,
}

/// Solve tier `key` for win, draw and loss, reading exits through `look`.
/// Returns value codes of the tier's `2N` positions (officers to move
/// first) whose WDL-only fields ([`crate::fields::wdl_only_bits`]) are the
/// tier's: a draw (0), a win (3, or 1 for officers left without a move
/// under `trapped = soldiers-lose`), a loss (4) or a loss in 0 (2).
pub(crate) fn solve_tier_wdl(key: &TierKey, look: &mut Lookup<'_>) -> Result<Vec<u16>, SolveError> {
    let variant = *look.variant();
    let duty = match variant.capture {
        CaptureRule::Free => Duty::None,
        CaptureRule::Mandatory => Duty::NoStep,
        CaptureRule::Huff if key.n == 1 => Duty::NoStep,
        CaptureRule::Huff => Duty::Huff,
    };
    if key.n == 1 {
        return one::solve_tier_wdl(key, look, duty);
    }
    // This thread's sets of the tier before, emptied (a tier that fails
    // leaves fresh ones).
    let sl = SLICES.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let mut s = Solve {
        key: *key,
        variant: &variant,
        duty,
        sl,
    };
    s.layout();
    s.soldier_exits(look)?;
    s.officer_exits(look)?;
    if duty == Duty::Huff {
        s.huffs(look)?;
    }
    fixed_point(&mut s);
    #[allow(unused_mut)]
    let mut codes = s.codes();
    SLICES.with(|c| *c.borrow_mut() = s.sl);
    #[cfg(test)]
    crate::planted::relabel_draws(&mut codes);
    Ok(codes)
}

thread_local! {
    /// Each thread's [`Slices`], kept from one tier to the next: fresh ones
    /// for every tier cost an allocation (and its page faults) of a few
    /// hundred kilobytes per tier of a few thousand positions.
    static SLICES: std::cell::RefCell<Slices> = std::cell::RefCell::new(Slices::default());
}

impl Solve<'_> {
    /// Call `f(a, b)` on each placement `{a, b}` of `free`, in the tier's
    /// index order.
    #[inline]
    fn placements(&self, free: u64, mut f: impl FnMut(usize, usize)) {
        let mut pts = [0usize; board::NUM_POINTS];
        let mut n = 0;
        each(free, |p| {
            pts[n] = p;
            n += 1;
        });
        for j in 1..n {
            for &a in &pts[..j] {
                f(a, pts[j]);
            }
        }
    }

    /// The slices, their placements and fortress steps.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn layout(&mut self) {
        let key = self.key;
        let sl = &mut self.sl;
        let masks = slice_layout(&key, &mut sl.masks, &mut sl.free);
        let m = masks.len();
        for v in [
            &mut sl.v,
            &mut sl.ew_o,
            &mut sl.enl_o,
            &mut sl.ew_s,
            &mut sl.enl_s,
            &mut sl.move_s,
            &mut sl.stuck_o,
            &mut sl.cap,
            &mut sl.capt,
            &mut sl.win_o,
            &mut sl.loss_o,
            &mut sl.win_s,
            &mut sl.loss_s,
        ] {
            reset(v, m);
        }
        for v in [&mut sl.w1, &mut sl.nl1] {
            v.clear();
            v.resize(m, 0);
        }
        for fi in 0..m {
            let free = sl.free[fi];
            let v = &mut sl.v[fi];
            each(free, |a| {
                v[a] = free & !(1 << a);
            });
        }
        let sl = &mut self.sl;
        sl.steps.layout(masks, self.variant.soldier_moves());
        // Soldiers with a fortress step have a move.
        for fi in 0..m {
            let v = sl.v[fi];
            for &fj in sl.steps.from(fi) {
                let (vj, mv) = (sl.v[fj as usize], &mut sl.move_s[fi]);
                each(sl.free[fi], |a| mv[a] |= vj[a] & v[a]);
            }
        }
    }

    /// Soldier steps from outside the fortress: exits of the
    /// soldiers-to-move positions. Each step's target slice is read once,
    /// in its own rank order, into sets by point ([`Solve::decode`]).
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn soldier_exits(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let key = self.key;
        let table = self.variant.soldier_moves();
        let mut ew = std::mem::take(&mut self.sl.ew_s);
        let mut enl = std::mem::take(&mut self.sl.enl_s);
        let mut mv = std::mem::take(&mut self.sl.move_s);
        let (mut lost, mut not_won) = (EMPTY, EMPTY);
        let mut result = Ok(());
        each(key.outside, |s| {
            each(table[s] & !key.outside, |t| {
                if result.is_ok() {
                    result = self.soldier_step(
                        look,
                        s,
                        t,
                        [&mut ew, &mut enl, &mut mv],
                        [&mut lost, &mut not_won],
                    );
                }
            });
        });
        self.sl.ew_s = ew;
        self.sl.enl_s = enl;
        self.sl.move_s = mv;
        result
    }

    /// The exits of the soldier step `s -> t` (from outside) into the
    /// soldiers-to-move sets `[wins, non-losses, moves]`, with `scratch`
    /// for the target slices.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn soldier_step(
        &self,
        look: &mut Lookup<'_>,
        s: usize,
        t: usize,
        out: [&mut Vec<Mat>; 3],
        scratch: [&mut Mat; 2],
    ) -> Result<(), SolveError> {
        let key = self.key;
        let [ew, enl, mv] = out;
        let [lost, not_won] = scratch;
        let outside = key.outside & !(1 << s) | (1 << t) & OUTSIDE;
        let tk = TierKey { outside, ..key };
        let target = if tk.m() == 9 {
            None
        } else {
            Some(Target::new(&tk, Side::Officers, look)?)
        };
        for fi in 0..self.sl.masks.len() {
            let fortress = fortress_bits(self.sl.masks[fi]);
            if fortress & 1 << t != 0 {
                continue;
            }
            let v = &self.sl.v[fi];
            let open = !(1u64 << t);
            let free = self.sl.free[fi] & open;
            let Some(target) = &target else {
                // The step fills the fortress: a win.
                each(free, |a| {
                    let av = v[a] & open;
                    ew[fi][a] |= av;
                    enl[fi][a] |= av;
                    mv[fi][a] |= av;
                });
                continue;
            };
            self.decode(target, fortress | (1 << t) & board::FORTRESS, lost, not_won)?;
            each(free, |a| {
                let av = v[a] & open;
                ew[fi][a] |= lost[a] & av;
                enl[fi][a] |= not_won[a] & av;
                mv[fi][a] |= av;
            });
        }
        Ok(())
    }

    /// The officers-to-move slice of `target` with soldiers on `fortress`
    /// (as reached, in this tier's orientation): the placements where the
    /// officers lose (`lost`) and where they do not win (`not_won`), by
    /// point in this tier's orientation (rows of points not free there
    /// left as they were).
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn decode(
        &self,
        target: &Target,
        fortress: Bitboard,
        lost: &mut Mat,
        not_won: &mut Mat,
    ) -> Result<(), SolveError> {
        let (first, free_there) = target.slice(fortress_mask(fortress));
        let np = free_there.count_ones() as usize;
        let here = |p: usize| {
            if target.mirrored() {
                board::Point::new(p).mirror().index()
            } else {
                p
            }
        };
        // In index space (bit i: the i-th free point there): row j of
        // the placements {i, j}, i < j, is a run of ranks from j (j - 1) /
        // 2; the losses in the low half of a word, the non-wins in the
        // high half. Their transpose gives the rest of each row.
        assert!(np <= 32, "at most 32 free points");
        let mut rows = [0u64; 32];
        // The slice's classes 32 placements at a time (a run of fields
        // where the tier is kept in index order), then cut into rows.
        let placements = np * (np - 1) / 2;
        // At most C(32, 2) = 496 placements: 16 words, and one more read
        // past the last by `cut`.
        let (mut wins, mut losses) = ([0u32; 17], [0u32; 17]);
        for c in 0..placements.div_ceil(32) {
            let count = (placements - 32 * c).min(32) as u32;
            (wins[c], losses[c]) = target.slice_classes(first, 32 * c as u32, count)?;
        }
        // Bits `start..start + len` (len < 32) of a run.
        let cut = |run: &[u32; 17], start: usize, len: usize| -> u32 {
            let pair = u64::from(run[start / 32]) | u64::from(run[start / 32 + 1]) << 32;
            (pair >> (start % 32)) as u32 & (u32::MAX >> (32 - len))
        };
        for (j, row) in rows.iter_mut().enumerate().take(np).skip(1) {
            let start = j * (j - 1) / 2;
            let (w, l) = (cut(&wins, start, j), cut(&losses, start, j));
            *row = u64::from(l) | u64::from(!w & (u32::MAX >> (32 - j))) << 32;
        }
        let mut cols = rows;
        transpose_halves(&mut cols, if np <= 16 { 16 } else { 32 });
        let spread = Spread::new(free_there);
        let mut i = 0;
        each(free_there, |p| {
            let both = rows[i] | cols[i];
            let (l, nw) = (spread.of(both & 0xffff_ffff), spread.of(both >> 32));
            let (l, nw) = if target.mirrored() {
                (board::mirror_bb(l), board::mirror_bb(nw))
            } else {
                (l, nw)
            };
            lost[here(p)] = l;
            not_won[here(p)] = nw;
            i += 1;
        });
        Ok(())
    }

    /// Captures: exits of the officers-to-move positions, the capture duty
    /// sets, and the positions without a legal move. Each officer's
    /// chains are walked once per slice ([`chains`]), and a capture is
    /// read for all placements of the other officer at once (a row: the
    /// capturing officer's end point against every point of the other
    /// for which it is a capture).
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn officer_exits(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let key = self.key;
        let mut targets = Targets::default();
        let mut walks = std::mem::take(&mut self.sl.walks);
        walks.resize_with(board::NUM_POINTS, Walk::default);
        // Per point, the other officer's points where the officer there
        // takes more than `c` soldiers (`more[a][c]`), and the most it can
        // take (the entries of `more` to empty for the next slice).
        let mut more = [[0u64; 25]; board::NUM_POINTS];
        let mut most = [0usize; board::NUM_POINTS];
        for fi in 0..self.sl.masks.len() {
            let soldiers = key.outside | fortress_bits(self.sl.masks[fi]);
            let free = self.sl.free[fi];
            let v = self.sl.v[fi];
            // The points whose officer can take more than `c` soldiers
            // (`deep[c]`), with the other officer somewhere.
            let mut deep = [0u64; 25];
            each(free, |a| {
                more[a][..most[a]].fill(0);
                most[a] = 0;
                walks[a].update::<false>(a, soldiers);
                for &(_, taken, others) in &walks[a].ends {
                    let n = taken.count_ones() as usize;
                    for m in &mut more[a][..n] {
                        *m |= others & v[a];
                    }
                    most[a] = most[a].max(n);
                }
                for d in &mut deep[..most[a]] {
                    *d |= 1 << a;
                }
            });
            // Rows: the captures of the officer of row a.
            let (mut xw, mut xnl, mut xhas) = (EMPTY, EMPTY, EMPTY);
            let (mut capm, mut captm) = (EMPTY, EMPTY);
            let mut err = Ok(());
            each(free, |a| {
                if most[a] == 0 || err.is_err() {
                    return;
                }
                // The officer of row a can capture.
                capm[a] = more[a][0];
                each(more[a][0], |b| captm[b] |= 1 << a);
                for &(to, taken, others) in &walks[a].ends {
                    let fast = others & v[a];
                    if fast == 0 {
                        continue;
                    }
                    let n = taken.count_ones() as usize;
                    // Only an officer that can take more than `n` at all
                    // can with the other on `a`.
                    let mut gt = 0;
                    each(fast & deep[n], |b| gt |= (more[b][n] >> a & 1) << b);
                    let row = CaptureRow {
                        to: to as usize,
                        taken,
                        fast,
                        eq: fast & !more[a][n],
                        gt,
                    };
                    match self.capture_row(&row, soldiers, &mut targets, look) {
                        Ok((w, nl, h)) => {
                            xw[a] |= w;
                            xnl[a] |= nl;
                            xhas[a] |= h;
                        }
                        Err(e) => err = Err(e),
                    }
                }
            });
            err?;
            let sl = &mut self.sl;
            sl.cap[fi] = capm;
            sl.capt[fi] = captm;
            // Each row's findings hold for the placement both ways.
            let mut has = EMPTY;
            both_ways(free, &xw, &mut sl.ew_o[fi]);
            both_ways(free, &xnl, &mut sl.enl_o[fi]);
            both_ways(free, &xhas, &mut has);
            // Without a capture (then no capture duty either), a position
            // is stuck when it has no step.
            let stuck = &mut self.sl.stuck_o[fi];
            each(free, |a| {
                stuck[a] = v[a] & !has[a] & !pred(&v, a, free);
            });
        }
        self.sl.walks = walks;
        Ok(())
    }

    /// One capture of the officer of row `a`, against the other officer on
    /// each point of `row.fast`: the points where it is a legal move that
    /// wins for the officers, where it does not lose, and where it is a
    /// legal move at all.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn capture_row(
        &self,
        row: &CaptureRow,
        soldiers: Bitboard,
        targets: &mut Targets,
        look: &mut Lookup<'_>,
    ) -> Result<(u64, u64, u64), SolveError> {
        let key = self.key;
        let variant = self.variant;
        let &CaptureRow {
            to,
            taken,
            fast,
            eq,
            gt,
        } = row;
        let n = taken.count_ones();
        // Legal with no fault, a fault with the other officer's huff only,
        // with this officer's (on `to`) only, with both.
        let (plain, by_other, by_self, by_both) = match (variant.max, variant.capture) {
            (false, _) | (_, CaptureRule::Free) => (fast, 0, 0, 0),
            (true, CaptureRule::Mandatory) => (eq & !gt, 0, 0, 0),
            (true, CaptureRule::Huff) => (eq & !gt, eq & gt, fast & !eq & !gt, fast & !eq & gt),
        };
        let legal = plain | by_other | by_self | by_both;
        if legal == 0 {
            return Ok((0, 0, 0));
        }
        let k_after = key.k - n as u8;
        if k_after < 9 {
            // Fewer than nine soldiers left: the officers win.
            return Ok((legal, legal, legal));
        }
        let outside = key.outside & !taken;
        let fm = fortress_mask(soldiers & !taken);
        let memo = outside | u64::from(k_after) << 40;
        let tk = TierKey {
            k: k_after,
            outside,
            ..key
        };
        // The soldiers to move after the capture: their wins and losses.
        let (mut ws, mut ls) = (0u64, 0u64);
        {
            let target = targets.get(memo, &tk, look)?;
            let (first, free_there) = target.slice(fm);
            let mut e = Ok(());
            each(legal, |b| {
                let o = target.orient(1 << to | 1 << b);
                match target.code_at(first, free_there, o) {
                    Ok(code) => {
                        ws |= u64::from(code & 1 == 1) << b;
                        ls |= u64::from(code != 0 && code & 1 == 0) << b;
                    }
                    Err(x) => e = Err(x),
                }
            });
            e?;
        }
        let mut win = plain & ls;
        let mut not_lost = plain & !ws;
        if by_other | by_self | by_both != 0 {
            let one = targets.get(memo | 1 << 48, &TierKey { n: 1, ..tk }, look)?;
            let faults = Faults {
                to,
                by_other,
                by_self,
                by_both,
                ws,
                ls,
            };
            let (w, nl) = fault_values(one, fm, &faults)?;
            win |= w;
            not_lost |= nl;
        }
        Ok((win, not_lost, legal))
    }

    /// The one-officer values a huff leads to, per slice and point.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn huffs(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let one = Target::new(&TierKey { n: 1, ..self.key }, Side::Soldiers, look)?;
        for fi in 0..self.sl.masks.len() {
            let mask = self.sl.masks[fi];
            let (mut w1, mut nl1) = (0, 0);
            let mut err = Ok(());
            each(self.sl.free[fi], |y| match one.value(mask, 1 << y) {
                Ok(Value::Win(_)) => {
                    w1 |= 1 << y;
                    nl1 |= 1 << y;
                }
                Ok(Value::Draw) => nl1 |= 1 << y,
                Ok(_) => {}
                Err(e) => err = Err(e),
            });
            err?;
            self.sl.w1[fi] = w1;
            self.sl.nl1[fi] = nl1;
        }
        Ok(())
    }

    /// The value codes in index order.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn codes(&self) -> Vec<u16> {
        let sl = &self.sl;
        codes_by(&self.key, |officers, soldiers| {
            let mut i = 0;
            for fi in 0..sl.masks.len() {
                let (wo, lo, so) = (&sl.win_o[fi], &sl.loss_o[fi], &sl.stuck_o[fi]);
                let (ws, ls, ms) = (&sl.win_s[fi], &sl.loss_s[fi], &sl.move_s[fi]);
                self.placements(sl.free[fi], |a, b| {
                    // The placement's bit: column b of row a.
                    let bit = |m: &Mat| m[a] >> b & 1;
                    officers[i] = code_o(bit(wo), bit(lo), bit(so));
                    soldiers[i] = code_s(bit(ws), bit(ls), bit(ms));
                    i += 1;
                });
            }
            i
        })
    }
}

impl Passes for Solve<'_> {
    fn slices(&self) -> usize {
        self.sl.masks.len()
    }

    fn steps(&self) -> &Steps {
        &self.sl.steps
    }

    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn update_officers(&mut self, fi: usize) -> bool {
        let sl = &mut self.sl;
        let free = sl.free[fi];
        let (v, ls, ws) = (&sl.v[fi], &sl.loss_s[fi], &sl.win_s[fi]);
        let (cap, capt) = (&sl.cap[fi], &sl.capt[fi]);
        #[cfg(test)]
        let (cap, capt) = match planted(Fault::CaptureDutyIgnored) {
            true => (&EMPTY, &EMPTY),
            false => (cap, capt),
        };
        // Children that are not soldiers' wins.
        let mut nw = EMPTY;
        each(free, |a| nw[a] = v[a] & !ws[a]);
        let stuck_wins = super::stuck_value(Side::Officers, self.variant) == Value::Win(0);
        let (cm_l, cm_w) = (!sl.nl1[fi], !sl.w1[fi]);
        let mut changed = false;
        let (win_o, loss_o) = (&mut sl.win_o[fi], &mut sl.loss_o[fi]);
        let (ew, enl, stuck) = (&sl.ew_o[fi], &sl.enl_o[fi], &sl.stuck_o[fi]);
        each(free, |a| {
            let (win_step, nonwin_step) = match self.duty {
                Duty::None => (pred(ls, a, free) & v[a], pred(&nw, a, free) & v[a]),
                Duty::NoStep => {
                    let plain = v[a] & !cap[a] & !capt[a];
                    (pred(ls, a, free) & plain, pred(&nw, a, free) & plain)
                }
                Duty::Huff => {
                    let n00 = v[a] & !cap[a] & !capt[a];
                    let n10 = cap[a] & !capt[a];
                    let n01 = !cap[a] & capt[a];
                    let n11 = cap[a] & capt[a];
                    (
                        huff_pred(ls, a, free, cm_l, [n00, n10, n01, n11]),
                        huff_pred(&nw, a, free, cm_w, [n00, n10, n01, n11]),
                    )
                }
            };
            #[cfg(test)]
            let win_step = match a % 7 == 0 && planted(Fault::ParentNotNotified) {
                true => 0,
                false => win_step,
            };
            let stuck_win = if stuck_wins { stuck[a] } else { 0 };
            let w = ew[a] | win_step | stuck_win;
            let l = v[a] & !(enl[a] | nonwin_step | stuck_win);
            if w != win_o[a] || l != loss_o[a] {
                changed = true;
                win_o[a] = w;
                loss_o[a] = l;
            }
        });
        changed
    }

    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn update_soldiers(&mut self, fi: usize) -> bool {
        let sl = &mut self.sl;
        let free = sl.free[fi];
        let steps = sl.steps.from(fi);
        let v = &sl.v[fi];
        let mut changed = false;
        let (win_s, loss_s) = (&mut sl.win_s[fi], &mut sl.loss_s[fi]);
        each(free, |a| {
            let mut w = sl.ew_s[fi][a];
            let mut nl = sl.enl_s[fi][a];
            for &fj in steps {
                let fj = fj as usize;
                w |= sl.loss_o[fj][a];
                nl |= sl.v[fj][a] & !sl.win_o[fj][a];
            }
            let (w, l) = (w & v[a], v[a] & !nl);
            if w != win_s[a] || l != loss_s[a] {
                changed = true;
                win_s[a] = w;
                loss_s[a] = l;
            }
        });
        changed
    }
}

/// The fortress masks of tier `key` (rank order, returned) into `masks`,
/// and each slice's free points into `free`.
fn slice_layout(key: &TierKey, masks: &mut Vec<u16>, free: &mut Vec<u64>) -> &'static [u16] {
    let all = fortress_masks(key.m());
    masks.clear();
    masks.extend_from_slice(all);
    free.clear();
    free.extend(
        all.iter()
            .map(|&f| board::ALL & !(key.outside | fortress_bits(f))),
    );
    all
}

/// The value codes of tier `key` in index order: `fill(officers,
/// soldiers)` writes each side's half and returns how many positions a
/// side it wrote.
fn codes_by(key: &TierKey, fill: impl FnOnce(&mut [u16], &mut [u16]) -> usize) -> Vec<u16> {
    let n_side = key.size_per_side() as usize;
    let mut out = vec![0u16; 2 * n_side];
    let (officers, soldiers) = out.split_at_mut(n_side);
    let written = fill(officers, soldiers);
    debug_assert_eq!(written, n_side);
    out
}

/// The value code of an officers-to-move position from its bits (each 0
/// or 1) in the win, loss and stuck sets: a win 3 (1 when stuck), a loss 4
/// (2 when stuck), else a draw 0. Without branches: the values of
/// neighbouring placements are unrelated.
#[inline]
fn code_o(w: u64, l: u64, stuck: u64) -> u16 {
    (w * (3 - 2 * stuck) + (l & !w) * (4 - 2 * stuck)) as u16
}

/// The value code of a soldiers-to-move position from its bits in the
/// win, loss and move sets: a win 3, a loss 4 (2 without a move), else a
/// draw 0.
#[inline]
fn code_s(w: u64, l: u64, moves: u64) -> u16 {
    (w * 3 + (l & !w) * (2 + 2 * moves)) as u16
}

/// Row `a` of the officers-to-move placements with a step to a child in
/// `x` (soldiers to move) under the huff rule with two officers: a step
/// with a capture on leads to the huff position of the child with the
/// officers that could capture (the row's, the column's, or both: `case`
/// masks 01, 10, 11 of `[none, row, column, both]`), which is in the set
/// when the child is and no huff (of an officer whose removal leaves the
/// other on a point of `!keep`) takes it out: `keep` masks the points the
/// huff may leave the remaining officer on.
#[inline]
fn huff_pred(x: &Mat, a: usize, free: u64, keep: u64, case: [u64; 4]) -> u64 {
    // Officers stepping from `a` (the row's) or from a column point.
    let own = x[a];
    let row_ok = keep >> a & 1 == 1;
    let mut all = 0;
    let mut ok = 0;
    let mut adj = ADJACENT[a] & free;
    while adj != 0 {
        let q = adj.trailing_zeros() as usize;
        all |= x[q];
        if keep >> q & 1 == 1 {
            ok |= x[q];
        }
        adj &= adj - 1;
    }
    // The child's row officer huffed leaves the column's: mask columns.
    // The column officer huffed leaves the row's: mask rows.
    let plain = board::neighbours(own) | all;
    let row_huffed = board::neighbours(own & keep) | (all & keep);
    let col_huffed = if row_ok { board::neighbours(own) } else { 0 } | ok;
    let both = if row_ok {
        board::neighbours(own & keep)
    } else {
        0
    } | (ok & keep);
    (plain & case[0]) | (row_huffed & case[1]) | (col_huffed & case[2]) | (both & case[3])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::wdl_only_bits;
    use crate::solve::{Engine, Solver, TierStore};

    /// The bit-set solver's fields against the position solver's, tier by
    /// tier, on closures with captures, huffs, fortress steps and filled
    /// fortresses, for the four presets and two other switch
    /// combinations; each solver reads its own lower tiers.
    #[test]
    fn bit_sets_give_the_wdl_fields_of_the_position_solver() {
        let variants = [
            Variant::ASSAUT,
            Variant::ASSAUT_MDJ,
            Variant::ASALTO,
            Variant::ASSAULT,
            "soldiers=forward,capture=free,max=off,trapped=soldiers-lose"
                .parse()
                .unwrap(),
            "soldiers=closer,capture=mandatory,max=off,trapped=soldiers-win"
                .parse()
                .unwrap(),
        ];
        let positions = [
            "SS1/SSS/2S1S2/1SS1S2/2O1O2/3/3 o",
            "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s",
            "1O1/S1S/SS1S1SS/2S1S2/3O3/3/3 s",
            // One officer: the one-officer solver's own tiers.
            "SS1/SSS/2S1S2/1SS1S2/2O4/3/3 o",
            "1O1/S1S/SS1S1SS/2S1S2/7/3/3 s",
        ];
        for v in variants {
            for p in positions {
                let pos: crate::position::Position = p.parse().unwrap();
                let old = Solver::new(v).threads(1).solve_closure(&pos).unwrap();
                let new = Solver::new(v)
                    .threads(1)
                    .engine(Engine::BitSets)
                    .solve_closure(&pos)
                    .unwrap();
                let tiers = Solver::new(v).closure_of(&pos);
                assert!(tiers.len() > 3, "{p}: {} tiers", tiers.len());
                let mut decided = 0;
                for key in &tiers {
                    let a = old.store().tier(key).unwrap().unwrap();
                    let b = new.store().tier(key).unwrap().unwrap();
                    assert_eq!(a.len(), b.len());
                    for (i, (&x, &y)) in a.iter().zip(b.iter()).enumerate() {
                        assert_eq!(
                            wdl_only_bits(x),
                            wdl_only_bits(y),
                            "{v:?} {p}: tier {key:?} position {i}: {x} against {y}"
                        );
                        decided += (x != 0) as usize;
                    }
                }
                assert!(decided > 0);
            }
        }
    }
}

#[cfg(test)]
mod chain_tests {
    use super::*;
    use crate::solve::check::tests::xorshift;

    /// The bit matrices in both halves transposed, against the entries
    /// one by one; and index bits spread on a mask's points, against the
    /// points counted one by one.
    #[test]
    fn halves_transpose_and_index_bits_spread_onto_their_points() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for size in [16, 32] {
            let mut rows = [0u64; 32];
            for r in rows.iter_mut().take(size) {
                let keep = if size == 16 { 0xffff_0000_ffff } else { !0 };
                *r = next() & keep;
            }
            let mut t = rows;
            transpose_halves(&mut t, size);
            for (r, tr) in t.iter().enumerate() {
                for (c, rc) in rows.iter().enumerate() {
                    for half in [0, 32] {
                        let want = r < size && c < size && rc >> (half + r) & 1 == 1;
                        assert_eq!(
                            tr >> (half + c) & 1 == 1,
                            want,
                            "{size}: ({r}, {c}) +{half}"
                        );
                    }
                }
            }
        }
        for _ in 0..200 {
            let mask = next() & board::ALL;
            let bits = next();
            let spread = Spread::new(mask);
            let (mut want, mut i) = (0u64, 0);
            each(mask, |p| {
                want |= (bits >> i & 1) << p;
                i += 1;
            });
            assert_eq!(spread.of(bits & ((1u64 << i) - 1)), want, "{mask:#x}");
        }
    }
    use crate::rules::capture_ends;

    /// The chains walked once give, for each point of the other officer,
    /// the captures the rules' generator gives with it on the board, and
    /// with no other officer those it gives alone.
    #[test]
    fn chains_walked_once_are_the_captures_with_the_other_officer_anywhere() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let sorted = |mut v: Vec<(u8, Bitboard)>| {
            v.sort();
            v
        };
        let (mut tried, mut cut) = (0, 0);
        let mut ends = Vec::new();
        // One set of states for every walk alone, as a thread's walks share
        // theirs.
        let mut seen = Seen::default();
        for _ in 0..4000 {
            // Soldiers on about half the points, the officer elsewhere.
            let soldiers = next() & next() | next() & next() & board::ALL;
            let soldiers = soldiers & board::ALL;
            let start = (next() % board::NUM_POINTS as u64) as usize;
            if soldiers & 1 << start != 0 {
                continue;
            }
            ends.clear();
            ends.push((99, 0, 0));
            chains::<false>(start, soldiers, &mut ends, &mut Seen::default());
            assert_eq!(ends.remove(0), (99, 0, 0), "earlier entries are kept");
            let with = |q: u64| {
                sorted(
                    ends.iter()
                        .filter(|e| e.2 & q != 0)
                        .map(|e| (e.0, e.1))
                        .collect(),
                )
            };
            let (mut alone, mut landed) = (Vec::new(), 0);
            capture_ends(
                board::Point::new(start),
                soldiers,
                soldiers,
                &mut alone,
                &mut landed,
            );
            assert_eq!(
                with(PHANTOM),
                sorted(alone.clone()),
                "{soldiers:#x} {start}"
            );
            // Walked for one officer: the same captures, each once, and
            // the same points looked at.
            let mut one = Vec::new();
            let looked = chains::<true>(start, soldiers, &mut one, &mut seen);
            assert!(one.iter().all(|e| e.2 == PHANTOM));
            let one = sorted(one.iter().map(|e| (e.0, e.1)).collect());
            let mut once = one.clone();
            once.dedup();
            assert_eq!(one, once, "{soldiers:#x} {start}: a capture twice");
            assert_eq!(one, sorted(alone.clone()), "{soldiers:#x} {start}");
            let all = chains::<false>(start, soldiers, &mut Vec::new(), &mut Seen::default());
            assert_eq!(looked, all);
            each(board::ALL & !soldiers & !(1 << start), |q| {
                let mut want = Vec::new();
                let mut l = 0;
                let occupied = soldiers | 1 << q;
                capture_ends(
                    board::Point::new(start),
                    soldiers,
                    occupied,
                    &mut want,
                    &mut l,
                );
                let want = sorted(want);
                cut += usize::from(want != sorted(alone.clone()));
                assert_eq!(with(1 << q), want, "{soldiers:#x} {start} other on {q}");
            });
            tried += usize::from(!alone.is_empty());
        }
        assert!(tried > 500 && cut > 200, "{tried} {cut}");
    }
}

#[cfg(test)]
mod profile {
    use super::*;
    use crate::solve::sample::{profile_passes, profile_sample};

    /// For profiles (`perf record` on the test binary): the bit-set
    /// solver alone, on a level sample of 2o18s against a synthetic
    /// store, its values held to the position solver's.
    #[test]
    #[ignore]
    fn bit_set_solver_on_a_level_sample() {
        let (variant, tiers, store) = profile_sample();
        let look = || Lookup::new(&store, variant);
        // The store's tiers made first, as a level sample does.
        for k in &tiers {
            solve_tier_wdl(k, &mut look()).unwrap();
        }
        let t = std::time::Instant::now();
        let mut positions = 0;
        let mut last = Vec::new();
        for _ in 0..profile_passes(10) {
            last = tiers
                .iter()
                .map(|k| {
                    positions += k.size();
                    solve_tier_wdl(k, &mut look()).unwrap()
                })
                .collect();
        }
        eprintln!(
            "{:.3e} positions/s",
            positions as f64 / t.elapsed().as_secs_f64()
        );
        for (k, bits) in tiers.iter().zip(&last) {
            let codes = super::super::solve_tier(k, &mut look()).unwrap();
            assert!(
                codes
                    .iter()
                    .zip(bits)
                    .all(|(&x, &y)| crate::fields::wdl_only_bits(x)
                        == crate::fields::wdl_only_bits(y))
            );
        }
    }
}
