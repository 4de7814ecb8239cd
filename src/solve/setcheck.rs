//! The set checker: a WDL-only tier checked as sets of officer placements,
//! written from docs/RULES.md apart from the bit-set solver
//! ([`super::bits`]), whose files it checks.
//!
//! It answers what [`super::check::check_tier_wdl`] answers (the tier's
//! win/draw/loss solved again as its least fixed point from its exits,
//! nothing taken from its own stored values, each stored value compared
//! with it) and is held to it by the tests, position by position, on
//! every tier of closures in all 24 variants with values planted at
//! random. What differs is the unit of work: a *slice* of the tier (its
//! outside soldiers fixed by the tier, its fortress soldiers by the
//! slice) and every placement of the officers on it at once, as a
//! [`Set`] (two officers; tiers of one officer are checked with a
//! bitboard per set by the submodule `lone`).
//!
//! * The soldiers' steps come from the rules' generator
//!   ([`rules::for_each_soldier_step`]) once per slice; a step from outside
//!   leaves the tier, and its target slice is read whole, in its stored
//!   order, into sets; a step inside the fortress leads to another slice of
//!   the tier with the same placements (those without an officer on the
//!   point stepped to).
//! * The officers' captures come from one walk of each officer's chains
//!   of jumps ([`Walk`]), with the points each lands on: where the other
//!   officer stands in their way, those it cuts or blocks (held to the
//!   rules' generator, [`rules::ChainList`], by a test). Each
//!   capture (end point and soldiers taken) is judged for every point of
//!   the other officer at once (legal or not, and who is at fault, by
//!   docs/RULES.md section 5: [`judged`]); its successor is read from the
//!   lower tiers, a fault's huffs from the one-officer tier.
//! * The officers' steps, which stay in the slice, are set operations: the
//!   placements one step before a set are, row by row, the rows of the
//!   neighbours and the neighbours of the row ([`before`]). Under the huff
//!   rule a step while a capture is on leads to a position with huff
//!   rights, whose huffs leave one officer: the soldiers-to-move values of
//!   the one-officer tier on the same slice, read once per slice.
//!
//! Then the least fixed point: wins and losses grow from the exits until
//! nothing changes, slice by slice; what is never decided is a draw.
//!
//! It shares with the solver the board, the index, the value codes and the
//! reading of stored tiers; with the position checker ([`super::check`])
//! its readers of other tiers ([`super::check::Others`]). The solver's move sets,
//! capture walks and fixed point are not called: a bug there gives files
//! that fail here (the planted-fault tests of [`crate::verify`]).

use super::SolveError;
use super::check::{Inconsistency, Other, Others, disagreement};
use super::lookup::Lookup;
use crate::Value;
use crate::board::{self, Bitboard, Point};
use crate::fields;
use crate::index::{
    TierKey, fortress_bits, fortress_mask, fortress_masks, fortress_rank, officer_rank,
};
use crate::position::Side;
use crate::rules::{self, CaptureRule, Variant};

mod lone;

/// Placements of the two officers on one slice: row `a` holds those with
/// an officer on point `a`, as bit `b` for the other officer on `b`. The
/// placement `{a, b}` is in both rows.
type Set = [u64; board::NUM_POINTS];

const EMPTY: Set = [0; board::NUM_POINTS];

/// Row `a` of the placements from which one officer's step reaches a
/// placement of `x`: the officer on `a` stepped to a free neighbour `q`
/// (row `q` of `x`, the other officer where it was), or the other officer
/// stepped from a neighbour of its new point (the points next to row `a`
/// of `x`). Not masked to the slice's placements.
#[inline]
fn before(x: &Set, a: usize, free: u64) -> u64 {
    let mut r = board::neighbours(x[a]);
    let mut q = board::ADJACENT[a] & free;
    while q != 0 {
        r |= x[q.trailing_zeros() as usize];
        q &= q - 1;
    }
    r
}

/// [`before`] for steps while a capture is on, under the huff rule with
/// two officers: the step leads to the soldiers' position with the right
/// to huff the officers that could capture (the one of row `a` where
/// `row` has the column's bit, the column's where `col` has it), each huff
/// leaving the other officer alone. A placement is in the result when a
/// step reaches `x` and no huff open after it leaves the officer alone on
/// a point of `spoil`. `x` holds the soldiers' positions a step may
/// reach: their losses (`spoil` where they do not lose after a huff) or
/// their non-wins (`spoil` where they win after one).
fn before_fault(x: &Set, a: usize, free: u64, spoil: u64, (row, col): (u64, u64)) -> u64 {
    let keep = !spoil;
    // The row's officer steps from a to q: a huff of it leaves the
    // column's officer on b, a huff of the column's leaves it on q.
    let (mut by_row, mut by_row_kept) = (0, 0);
    let mut q = board::ADJACENT[a] & free;
    while q != 0 {
        let p = q.trailing_zeros() as usize;
        by_row |= x[p];
        if keep >> p & 1 == 1 {
            by_row_kept |= x[p];
        }
        q &= q - 1;
    }
    let from_row = (by_row & !col | by_row_kept & col) & !(row & spoil);
    // The column's officer steps from b to q: a huff of the row's leaves
    // it on q, a huff of it leaves the row's on a.
    let a_kept = keep >> a & 1 == 1;
    let by_col = board::neighbours(x[a]) & !row | board::neighbours(x[a] & keep) & row;
    let from_col = by_col & if a_kept { !0 } else { !col };
    from_row | from_col
}

/// One slice of the tier: the board, its placements, what leaves the tier
/// from them, and the values being derived.
#[derive(Clone)]
struct Slice {
    soldiers: Bitboard,
    free: u64,
    all: Set,
    /// The officer of row `a` could capture (the other on the column); its
    /// transpose, the column's officer could.
    cap: Set,
    capt: Set,
    /// Officers to move without a legal move.
    stuck: Set,
    /// Officers to move: a capture wins for them, a capture does not lose.
    o_win: Set,
    o_safe: Set,
    /// Soldiers to move: a step out of the tier wins for them, one does
    /// not lose, any move at all (inside the tier too).
    s_win: Set,
    s_safe: Set,
    s_moves: Set,
    /// Soldiers to move against one officer on a point (after a huff): the
    /// points where they win, where they do not lose.
    h_win: u64,
    h_safe: u64,
    /// The slices a soldier's step inside the fortress leads to.
    next: Vec<usize>,
    /// The values: officers to move win / lose, soldiers to move win / lose.
    wo: Set,
    lo: Set,
    ws: Set,
    ls: Set,
}

impl Default for Slice {
    fn default() -> Slice {
        Slice {
            soldiers: 0,
            free: 0,
            all: EMPTY,
            cap: EMPTY,
            capt: EMPTY,
            stuck: EMPTY,
            o_win: EMPTY,
            o_safe: EMPTY,
            s_win: EMPTY,
            s_safe: EMPTY,
            s_moves: EMPTY,
            h_win: 0,
            h_safe: 0,
            next: Vec::new(),
            wo: EMPTY,
            lo: EMPTY,
            ws: EMPTY,
            ls: EMPTY,
        }
    }
}

impl Slice {
    /// Made ready for the slice with soldiers on `soldiers` (two
    /// officers): its placements, every other set empty (its room kept).
    fn reset(&mut self, soldiers: Bitboard) {
        let free = board::ALL & !soldiers;
        self.soldiers = soldiers;
        self.free = free;
        self.all = EMPTY;
        for a in board::points(free) {
            let i = a.index();
            self.all[i] = free & !a.bit();
        }
        for set in [
            &mut self.cap,
            &mut self.capt,
            &mut self.stuck,
            &mut self.o_win,
            &mut self.o_safe,
            &mut self.s_win,
            &mut self.s_safe,
            &mut self.s_moves,
            &mut self.wo,
            &mut self.lo,
            &mut self.ws,
            &mut self.ls,
        ] {
            *set = EMPTY;
        }
        (self.h_win, self.h_safe) = (0, 0);
        self.next.clear();
    }
}

/// What the officers owe when a capture is on, for their steps.
#[derive(Clone, Copy, PartialEq)]
enum StepDuty {
    /// Every step is a move like any other (`capture=free`).
    Plain,
    /// A step with a capture on is no move (`mandatory`), or one after
    /// which the soldiers huff the only officer and win (`huff`, one
    /// officer): never a step that helps the officers.
    Barred,
    /// A step with a capture on leaves the soldiers the right to huff
    /// (`huff`, two officers).
    Huffed,
}

/// One capture of the officer on `a` (see [`Tier::capture_row`]).
struct Capture {
    a: usize,
    to: usize,
    taken: Bitboard,
    /// The other officer's points for which it is one.
    row: u64,
}

/// One capture of an officer ([`Walk`]).
struct WalkEnd {
    to: u8,
    taken: Bitboard,
    /// The other officer's points, among those where a chain could land,
    /// for which it is a capture.
    by: u64,
    /// Whether it is one with no other officer in the way.
    clear: bool,
}

/// The captures of one officer with the other officer anywhere, from one
/// walk of every chain of jumps (docs/RULES.md section 4) with the points
/// each lands on. A chain is a capture with the other officer on `b`
/// when it lands nowhere on `b` and either has no further jump (it is a
/// capture alone, and with the other officer on any point it does not
/// land on) or its only further jump lands on `b` (the other officer cuts
/// it there). Held to the rules' generator ([`rules::ChainList`], with the other
/// officer as a blocker) by a test, board by board.
struct Walk {
    /// Every point a chain lands on but the start: where the other
    /// officer is in its way.
    in_way: Bitboard,
    /// The most soldiers one capture takes alone.
    alone: u32,
    /// With the other officer on each point of `in_way`.
    with: [u32; board::NUM_POINTS],
    /// The points of `in_way` where that is not 0: with the other officer
    /// there, this one can still capture.
    with_some: Bitboard,
    /// The captures, each (end point, soldiers taken) once.
    ends: Vec<WalkEnd>,
    /// The point walked from, the points whose soldiers the walk read
    /// (each jumped over, and each landed on past a soldier), and the
    /// soldiers it found there: a walk among soldiers that agree with
    /// these on those points is the same walk.
    from: usize,
    read: Bitboard,
    found: Bitboard,
}

impl Default for Walk {
    fn default() -> Walk {
        Walk {
            in_way: 0,
            alone: 0,
            with: [0; board::NUM_POINTS],
            with_some: 0,
            ends: Vec::new(),
            from: board::NUM_POINTS,
            read: 0,
            found: 0,
        }
    }
}

impl Walk {
    /// The most soldiers this officer can take with the other on `b`.
    fn best(&self, b: usize) -> u32 {
        if self.in_way >> b & 1 == 1 {
            self.with[b]
        } else {
            self.alone
        }
    }

    /// The captures of the officer on `a` among soldiers on `soldiers`
    /// (kept as they are when the walk before was from `a` and read the
    /// same soldiers).
    fn fill(&mut self, a: Point, soldiers: Bitboard) {
        if self.from == a.index() && soldiers & self.read == self.found {
            return;
        }
        self.in_way = 0;
        self.alone = 0;
        self.ends.clear();
        self.read = 0;
        self.jump(a, soldiers, 0, 0);
        self.from = a.index();
        self.found = soldiers & self.read;
        // Each capture once: the chains that end alike (the same jumps in
        // other orders) merged.
        self.ends.sort_unstable_by_key(|e| (e.taken, e.to));
        self.ends.dedup_by(|e, kept| {
            let same = e.taken == kept.taken && e.to == kept.to;
            if same {
                kept.by |= e.by;
                kept.clear |= e.clear;
            }
            same
        });
        self.in_way &= !a.bit();
        let in_way = self.in_way;
        for b in board::points(in_way) {
            self.with[b.index()] = 0;
        }
        self.with_some = 0;
        for e in &self.ends {
            let n = e.taken.count_ones();
            if e.clear {
                self.alone = self.alone.max(n);
            }
            self.with_some |= e.by & in_way;
            for b in board::points(e.by & in_way) {
                let w = &mut self.with[b.index()];
                *w = (*w).max(n);
            }
        }
    }

    /// Every chain on from `at`, having taken `taken` and landed on
    /// `landed` (the start is empty: the officer left it).
    fn jump(&mut self, at: Point, soldiers: Bitboard, taken: Bitboard, landed: Bitboard) {
        let mut next = 0;
        // Every point a jump from here passes over is read, and the
        // landing point of each jump over a soldier.
        let overs = at.jump_overs();
        self.read |= overs;
        for o in board::points(soldiers & overs) {
            let to = at.landing(o);
            let (over, land) = (o.bit(), to.bit());
            self.read |= land;
            if taken & over == 0 && soldiers & land == 0 {
                next |= land;
                self.in_way |= land;
                self.jump(to, soldiers, taken | over, landed | land);
            }
        }
        if taken == 0 {
            return;
        }
        let (by, clear) = match next.count_ones() {
            0 => (!landed, true),
            1 => (next & !landed, false),
            _ => return,
        };
        // Merged with the same capture by other orders of its jumps in
        // `fill`.
        self.ends.push(WalkEnd {
            to: at.index() as u8,
            taken,
            by,
            clear,
        });
    }
}

/// Whether a capture of `c` soldiers is legal for an officer whose best
/// capture takes `own` when the other's takes `other` (0 without one), and
/// then whether each may be huffed after it: `(this one, the other)`
/// (docs/RULES.md section 5).
fn judged(variant: &Variant, c: u32, own: u32, other: u32) -> Option<(bool, bool)> {
    let enough = if variant.max {
        c == own.max(other)
    } else {
        c > 0
    };
    match variant.capture {
        _ if enough => Some((false, false)),
        CaptureRule::Mandatory => None,
        CaptureRule::Free => Some((false, false)),
        // Too few under max = on: at fault is who could take more.
        CaptureRule::Huff => Some((own > c, other > c)),
    }
}

/// The stored values of one slice of another tier: the positions with
/// one board of soldiers and one side to move, by placement.
struct At<'o> {
    other: &'o Other,
    /// Where the slice's first placement lies.
    first: u32,
    /// The free points, in the stored tier's orientation.
    free: u64,
}

impl<'o> At<'o> {
    fn new(other: &'o Other, soldiers: Bitboard, side: Side) -> At<'o> {
        let seen = other.seen(soldiers);
        let half = match side {
            Side::Officers => 0,
            Side::Soldiers => other.key.size_per_side(),
        };
        At {
            other,
            first: half + fortress_rank(fortress_mask(seen)) * other.strides.0,
            free: board::ALL & !seen,
        }
    }

    /// Point `p` (of the checked tier's orientation) in the stored tier's,
    /// as a board.
    #[inline]
    fn seen_point(&self, p: usize) -> Bitboard {
        let p = Point::new(p);
        if self.other.mirrored { p.mirror() } else { p }.bit()
    }

    /// Whether the stored value with the officers on `seen` (in the stored
    /// tier's orientation: [`At::seen_point`]) is a win (bit 0) and
    /// whether a loss (bit 1) for the side to move: its WDL field
    /// ([`TierValues::class_at`](super::lookup::TierValues::class_at)).
    #[inline]
    fn class(&self, seen: Bitboard) -> Result<u8, SolveError> {
        let slot = self.first + officer_rank(seen, self.free) * self.other.strides.1;
        self.other
            .values
            .class_at(slot)
            .ok_or(SolveError::MissingTier(self.other.key))
    }
}

impl Other {
    /// The rank, in the stored tier, of the slice with soldiers on
    /// `soldiers` (in the checked tier's orientation).
    fn slice_of(&self, soldiers: Bitboard) -> usize {
        fortress_rank(fortress_mask(self.seen(soldiers))) as usize
    }
}

/// Call `f` on the index of each set bit of `bits`, lowest first.
#[inline]
fn each_bit(mut bits: u32, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// Each wanted slice `f` of `o`'s free points in rank order, in the
/// checked tier's orientation (`pts[f][i]`: the `i`-th), and each
/// placement's rank as its (lower, higher) indices among them (the higher
/// `u8::MAX` with one officer).
fn slice_points(o: &Other, wanted: &[bool]) -> (Vec<[u8; board::NUM_POINTS]>, Vec<(u8, u8)>) {
    let masks = fortress_masks(o.key.m());
    let mut pts = vec![[0u8; board::NUM_POINTS]; masks.len()];
    for f in (0..masks.len()).filter(|&f| wanted[f]) {
        let free = board::ALL & !(o.key.outside | fortress_bits(masks[f]));
        for (i, p) in board::points(free).enumerate() {
            pts[f][i] = if o.mirrored { p.mirror() } else { p }.index() as u8;
        }
    }
    let np = (board::NUM_POINTS - o.key.k as usize) as u8;
    let pairs = if o.key.n == 1 {
        (0..np).map(|i| (i, u8::MAX)).collect()
    } else {
        (1..np).flat_map(|j| (0..j).map(move |i| (i, j))).collect()
    };
    (pts, pairs)
}

/// Read the officers-to-move values of every slice `f` of the
/// two-officer tier `o` with `wanted[f]` into `out[f]`: the placements
/// where the officers lose and those where they do not win, as sets in
/// the checked tier's orientation. The values are read as classes (win,
/// loss) a run of up to 32 at a time, in the order they are kept (one
/// pass over the half, whatever its layout: a WDL-only file's
/// placement-major order costs no jumps), and each win or loss is put on
/// its two points.
fn decode_tier(o: &Other, wanted: &[bool], out: &mut Vec<[Set; 2]>) -> Result<(), SolveError> {
    let masks = fortress_masks(o.key.m());
    let m = masks.len();
    out.resize(m, [EMPTY; 2]);
    for f in (0..m).filter(|&f| wanted[f]) {
        out[f] = [EMPTY; 2];
    }
    let (pts, pairs) = slice_points(o, wanted);
    let placements = pairs.len() as u32;
    let missing = || SolveError::MissingTier(o.key);
    // A win (into `out[f][1]`, for now) or a loss of the placement of
    // rank `r` of slice `f`.
    let mut put = |f: usize, r: usize, win: bool| {
        let (i, j) = pairs[r];
        let (p, q) = (pts[f][i as usize] as usize, pts[f][j as usize] as usize);
        let set = &mut out[f][usize::from(win)];
        set[p] |= 1 << q;
        set[q] |= 1 << p;
    };
    let (mask_stride, placement_stride) = o.strides;
    if mask_stride == 1 && placement_stride == m as u32 {
        // Placement-major: the slices of each placement side by side,
        // taken 32 slices at a time over every placement (the sets
        // written, those of 32 slices, stay in the nearest cache).
        for f0 in (0..m).step_by(32) {
            let count = (m - f0).min(32) as u32;
            let want = wanted[f0..f0 + count as usize]
                .iter()
                .rev()
                .fold(0u32, |w, &x| w << 1 | u32::from(x));
            if want == 0 {
                continue;
            }
            for r in 0..placements {
                let at = r * m as u32 + f0 as u32;
                let (wins, losses) = o.values.classes_at(at, 1, count).ok_or_else(missing)?;
                each_bit((wins | losses) & want, |x| {
                    put(f0 + x, r as usize, wins >> x & 1 == 1);
                });
            }
        }
    } else {
        for f in (0..m).filter(|&f| wanted[f]) {
            for r0 in (0..placements).step_by(32) {
                let count = (placements - r0).min(32);
                let at = f as u32 * mask_stride + r0 * placement_stride;
                let (wins, losses) = o
                    .values
                    .classes_at(at, placement_stride, count)
                    .ok_or_else(missing)?;
                each_bit(wins | losses, |x| {
                    put(f, r0 as usize + x, wins >> x & 1 == 1);
                });
            }
        }
    }
    // Not won: every placement of the slice but the wins.
    let np = board::NUM_POINTS - o.key.k as usize;
    for f in (0..m).filter(|&f| wanted[f]) {
        let free = pts[f][..np].iter().fold(0u64, |x, &p| x | 1 << p);
        let won = &mut out[f][1];
        for a in board::points(free) {
            let a = a.index();
            won[a] = free & !(1 << a) & !won[a];
        }
    }
    Ok(())
}

/// Call `put(f, p, q, code)` on the stored code of `side` to move of
/// every placement of every slice `f` of `o` with `wanted[f]`: the
/// officers on `p` and `q` (`None` with one officer), in the checked
/// tier's orientation. The codes are read in the order they are kept.
fn decode_each(
    o: &Other,
    side: Side,
    wanted: &[bool],
    mut put: impl FnMut(usize, usize, Option<usize>, u16),
) -> Result<(), SolveError> {
    let m = fortress_masks(o.key.m()).len();
    let (pts, pairs) = slice_points(o, wanted);
    let placements = pairs.len() as u32;
    let half = match side {
        Side::Officers => 0,
        Side::Soldiers => o.key.size_per_side(),
    };
    let mut put = |f: usize, r: usize, code: u16| {
        if !wanted[f] {
            return;
        }
        let (i, j) = pairs[r];
        let q = (j != u8::MAX).then(|| pts[f][j as usize] as usize);
        put(f, pts[f][i as usize] as usize, q, code);
    };
    let (mask_stride, placement_stride) = o.strides;
    let held = if mask_stride == 1 && placement_stride == m as u32 {
        // Placement-major: the slices of each placement side by side.
        let (mut f, mut r) = (0, 0);
        o.values
            .for_each_at(half, 1, placements * m as u32, |code| {
                put(f, r, code);
                f += 1;
                if f == m {
                    (f, r) = (0, r + 1);
                }
            })
    } else {
        (0..m).filter(|&f| wanted[f]).all(|f| {
            let mut r = 0;
            let first = half + f as u32 * mask_stride;
            o.values
                .for_each_at(first, placement_stride, placements, |code| {
                    put(f, r, code);
                    r += 1;
                })
        })
    };
    if held {
        Ok(())
    } else {
        Err(SolveError::MissingTier(o.key))
    }
}

/// Add to `bad` the stored `codes` at `[officers to move, soldiers to
/// move]` of one placement that differ from what the fixed point derived
/// for it: its membership of the sets `[officers win, officers lose,
/// stuck, soldiers win, soldiers lose, soldiers have a move]`
/// (`stuck_wins`: the officers win when stuck).
#[inline]
fn compare_one(
    bad: &mut Vec<Inconsistency>,
    codes: &[u16],
    at: [usize; 2],
    stuck_wins: bool,
    held: [bool; 6],
) {
    // The stored fields those of the derived values: they agree.
    if at.map(|i| fields::wdl_only_bits(codes[i])) != wdl_only_fields(held) {
        add_differing(bad, codes, at, stuck_wins, held);
    }
}

/// [`compare_one`] where a stored field differs: each differing value's
/// [`Inconsistency`].
#[cold]
#[inline(never)]
fn add_differing(
    bad: &mut Vec<Inconsistency>,
    codes: &[u16],
    at: [usize; 2],
    stuck_wins: bool,
    held: [bool; 6],
) {
    let [wo, lo, stuck, ws, ls, moves] = held;
    let o = if wo {
        Value::Win(u16::from(!(stuck && stuck_wins)))
    } else if lo {
        Value::Loss(u16::from(!stuck))
    } else {
        Value::Draw
    };
    let s = if ws {
        Value::Win(1)
    } else if ls {
        Value::Loss(u16::from(moves))
    } else {
        Value::Draw
    };
    for (i, derived) in at.into_iter().zip([o, s]) {
        bad.extend(disagreement(i, codes[i], derived, true));
    }
}

/// The WDL-only fields ([`fields::wdl_only_bits`]: 0 a draw, 1 a win, 2 a
/// loss, 3 a loss in 0) of the values [`compare_one`] derives from the same
/// sets, `[officers to move, soldiers to move]`: where the stored fields
/// are these, the stored values agree (`compare_one`'s quick answer).
fn wdl_only_fields([wo, lo, stuck, ws, ls, moves]: [bool; 6]) -> [u8; 2] {
    let o = match (wo, lo) {
        (true, _) => 1,
        (false, true) if stuck => 3,
        (false, true) => 2,
        _ => 0,
    };
    let s = match (ws, ls) {
        (true, _) => 1,
        (false, true) if moves => 2,
        (false, true) => 3,
        _ => 0,
    };
    [o, s]
}

/// [`wdl_only_fields`] of bits (0 or 1) `[officers win, officers lose,
/// stuck]` and `[soldiers win, soldiers lose, soldiers have a move]`,
/// with no branch: a win 1, else a loss 2 (officers stuck: 3; soldiers
/// without a move: 3), else a draw 0.
#[inline]
fn derived_fields([wo, lo, stuck]: [u8; 3], [ws, ls, moves]: [u8; 3]) -> (u8, u8) {
    (
        wo | ((lo & !wo & 1) * (2 + stuck)),
        ws | ((ls & !ws & 1) * (3 - moves)),
    )
}

/// A soldiers' step from outside the fortress, which leaves the tier:
/// (outside soldiers after it, slice, point stepped to, board after it).
type OutStep = (Bitboard, usize, usize, Bitboard);

/// The soldiers' steps of slice `fi` (soldiers on `soldiers`), by the
/// rules' generator: a step inside the fortress as the rank of the slice
/// it leads to, into `next`; a step from outside into `out`.
fn slice_steps(
    variant: &Variant,
    fi: usize,
    soldiers: Bitboard,
    next: &mut Vec<usize>,
    out: &mut Vec<OutStep>,
) {
    rules::for_each_soldier_step(soldiers, board::ALL & !soldiers, variant, |s, t| {
        let after = soldiers & !s.bit() | t.bit();
        if s.bit() & board::FORTRESS != 0 {
            next.push(fortress_rank(fortress_mask(after)) as usize);
        } else {
            out.push((after & board::OUTSIDE, fi, t.index(), after));
        }
    });
}

/// A tier's slices as [`least_fixed_point`] computes them.
trait SliceSteps {
    /// The tier's slices.
    fn slices(&self) -> usize;
    /// The slices a soldier's step inside the fortress leads to from
    /// slice `fi`.
    fn next(&self, fi: usize) -> &[usize];
    /// The soldiers-to-move values of slice `fi` from the officers-to-move
    /// values of the slices its fortress steps lead to; whether they
    /// changed.
    fn soldiers_step(&mut self, fi: usize) -> bool;
    /// The officers-to-move values of slice `fi` from its soldiers-to-move
    /// values; whether they changed.
    fn officers_step(&mut self, fi: usize) -> bool;
}

/// The least fixed point: each side's slices computed again while what
/// they read changes.
fn least_fixed_point(t: &mut impl SliceSteps) {
    let m = t.slices();
    // The slices stepping into each: `from[start[fj]..start[fj + 1]]`.
    let mut start = vec![0usize; m + 1];
    for fi in 0..m {
        for &fj in t.next(fi) {
            start[fj + 1] += 1;
        }
    }
    for fj in 0..m {
        start[fj + 1] += start[fj];
    }
    let mut from = vec![0usize; start[m]];
    let mut at = start.clone();
    for fi in 0..m {
        for &fj in t.next(fi) {
            from[at[fj]] = fi;
            at[fj] += 1;
        }
    }
    // Each slice's two sides in turn, the slices from the last rank down
    // (a sweep reads what the sweep itself has just found: about a third
    // fewer steps than each side's slices all at once), until a sweep
    // changes nothing.
    let (mut dirty_s, mut dirty_o) = (vec![true; m], vec![true; m]);
    let mut any = true;
    while any {
        any = false;
        for fi in (0..m).rev() {
            if std::mem::take(&mut dirty_s[fi]) && t.soldiers_step(fi) {
                dirty_o[fi] = true;
            }
            if std::mem::take(&mut dirty_o[fi]) && t.officers_step(fi) {
                for &src in &from[start[fi]..start[fi + 1]] {
                    dirty_s[src] = true;
                }
                any = true;
            }
        }
    }
}

/// A tier being checked.
struct Tier<'v> {
    key: TierKey,
    variant: &'v Variant,
    duty: StepDuty,
    slices: Vec<Slice>,
    others: Others,
    /// The target slices a soldiers' step or a huff reads, decoded
    /// ([`decode_tier`]); kept with the slices from one tier to the next.
    decoded: Vec<[Set; 2]>,
    /// Each point's officer's capture walk, kept from slice to slice and
    /// tier to tier (a walk is done again only where the soldiers it read
    /// differ).
    walks: Vec<Walk>,
}

/// Check the win/draw/loss of a WDL-only table's tier `key` (canonical)
/// as sets of placements: the same answer as
/// [`super::check::check_tier_wdl`] (every position whose stored `codes`
/// differ from the tier's least fixed point in win/draw/loss or in being a
/// loss in 0 plies), in index order.
pub(crate) fn check_tier_sets(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
) -> Result<Vec<Inconsistency>, SolveError> {
    super::check::whole_tier(key, codes)?;
    if key.n == 1 {
        return lone::check_tier(key, look, codes);
    }
    let variant = *look.variant();
    let duty = match variant.capture {
        CaptureRule::Free => StepDuty::Plain,
        CaptureRule::Huff => StepDuty::Huffed,
        _ => StepDuty::Barred,
    };
    // This thread's slices of the tier before, made ready for this one:
    // fresh ones for every tier cost an allocation and its page faults.
    let (mut slices, decoded, walks) = KEPT.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let masks = fortress_masks(key.m());
    slices.resize_with(masks.len(), Slice::default);
    for (sl, &f) in slices.iter_mut().zip(masks) {
        sl.reset(key.outside | fortress_bits(f));
    }
    let mut t = Tier {
        key: *key,
        variant: &variant,
        duty,
        slices,
        others: Others::default(),
        decoded,
        walks,
    };
    t.soldier_moves(look)?;
    t.officer_moves(look)?;
    if duty == StepDuty::Huffed {
        t.huff_values(look)?;
    }
    least_fixed_point(&mut t);
    let bad = t.compare(codes);
    KEPT.with(|c| *c.borrow_mut() = (t.slices, t.decoded, t.walks));
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
        // Row by row on the slice's free points (the other rows are
        // empty); a step leads to another slice, never to `fi`.
        let mut changed = false;
        for a in board::points(self.slices[fi].free) {
            let a = a.index();
            let sl = &self.slices[fi];
            let (mut w, mut safe) = (sl.s_win[a], sl.s_safe[a]);
            for &fj in &sl.next {
                let to = &self.slices[fj];
                w |= to.lo[a];
                safe |= to.all[a] & !to.wo[a];
            }
            let sl = &mut self.slices[fi];
            let (w, l) = (w & sl.all[a], sl.all[a] & !safe);
            if w != sl.ws[a] || l != sl.ls[a] {
                (sl.ws[a], sl.ls[a]) = (w, l);
                changed = true;
            }
        }
        changed
    }

    fn officers_step(&mut self, fi: usize) -> bool {
        let stuck_wins = rules::stuck_winner(Side::Officers, self.variant) == Side::Officers;
        let sl = &mut self.slices[fi];
        let free = sl.free;
        let mut not_won = EMPTY;
        for ((x, &all), &ws) in not_won.iter_mut().zip(&sl.all).zip(&sl.ws) {
            *x = all & !ws;
        }
        let mut changed = false;
        for a in board::points(free) {
            let a = a.index();
            let on = sl.cap[a] | sl.capt[a];
            let (to_loss, to_safe) = match self.duty {
                StepDuty::Plain => (before(&sl.ls, a, free), before(&not_won, a, free)),
                StepDuty::Barred => (
                    before(&sl.ls, a, free) & !on,
                    before(&not_won, a, free) & !on,
                ),
                StepDuty::Huffed => {
                    let duty = (sl.cap[a], sl.capt[a]);
                    let loss = before(&sl.ls, a, free) & !on
                        | before_fault(&sl.ls, a, free, sl.h_safe, duty) & on;
                    let safe = before(&not_won, a, free) & !on
                        | before_fault(&not_won, a, free, sl.h_win, duty) & on;
                    (loss, safe)
                }
            };
            let stuck = if stuck_wins { sl.stuck[a] } else { 0 };
            let w = (sl.o_win[a] | to_loss | stuck) & sl.all[a];
            let l = sl.all[a] & !(sl.o_safe[a] | to_safe | stuck);
            if w != sl.wo[a] || l != sl.lo[a] {
                (sl.wo[a], sl.lo[a]) = (w, l);
                changed = true;
            }
        }
        changed
    }
}

/// What a thread keeps from one tier to the next: [`Tier`]'s slices,
/// decoded target slices and walks.
type Kept = (Vec<Slice>, Vec<[Set; 2]>, Vec<Walk>);

thread_local! {
    /// Each thread's [`Slice`]s, decoded target slices and capture walks,
    /// kept from one tier to the next.
    static KEPT: std::cell::RefCell<Kept> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
}

impl Tier<'_> {
    /// The soldiers' steps of every slice: exits read from the tiers they
    /// lead to, and the slices a step inside the fortress leads to.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn soldier_moves(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        // The steps from outside, by the tier they lead to: (its outside
        // soldiers, slice, point stepped to, board after).
        let mut out_steps = Vec::new();
        for (fi, sl) in self.slices.iter_mut().enumerate() {
            slice_steps(self.variant, fi, sl.soldiers, &mut sl.next, &mut out_steps);
        }
        // Grouped by the tier reached only: a group's steps are taken in
        // any order (each ORs into its slice).
        out_steps.sort_unstable_by_key(|x| x.0);
        let mut decoded = std::mem::take(&mut self.decoded);
        let mut wanted = Vec::new();
        for group in out_steps.chunk_by(|x, y| x.0 == y.0) {
            let outside = group[0].0;
            // Rule 2: a step that fills the fortress wins.
            let fills = |after: Bitboard| after & board::FORTRESS == board::FORTRESS;
            let mut target = None;
            if !group.iter().all(|x| fills(x.3)) {
                let tk = TierKey {
                    outside,
                    ..self.key
                };
                let other = self.others.get(&tk, look)?;
                let o = &self.others.list[other];
                wanted.clear();
                wanted.resize(fortress_masks(tk.m()).len(), false);
                for x in group {
                    wanted[o.slice_of(x.3)] = true;
                }
                // The officers to move there: lost, not won.
                decode_tier(o, &wanted, &mut decoded)?;
                target = Some(other);
            }
            for &(_, fi, t, after) in group {
                let sl = &mut self.slices[fi];
                let [lost, not_won] = match target {
                    Some(other) if !fills(after) => {
                        &decoded[self.others.list[other].slice_of(after)]
                    }
                    _ => &[sl.all, sl.all],
                };
                let open = !(1u64 << t);
                for a in board::points(sl.free & open) {
                    let a = a.index();
                    let ok = sl.all[a] & open;
                    sl.s_win[a] |= lost[a] & ok;
                    sl.s_safe[a] |= not_won[a] & ok;
                    sl.s_moves[a] |= ok;
                }
            }
        }
        // A step inside the fortress is a move wherever the officers leave
        // its point free: the placements of the slice it leads to.
        for fi in 0..self.slices.len() {
            for i in 0..self.slices[fi].next.len() {
                let fj = self.slices[fi].next[i];
                let to = self.slices[fj].all;
                let sl = &mut self.slices[fi];
                for ((m, &t), &all) in sl.s_moves.iter_mut().zip(&to).zip(&sl.all) {
                    *m |= t & all;
                }
            }
        }
        self.decoded = decoded;
        Ok(())
    }

    /// The officers' moves of every slice: captures (exits, read from the
    /// lower tiers), who could capture (for the steps' duty), and the
    /// placements without a legal move.
    ///
    /// An officer's chains are walked once per slice ([`Walk`]): they are
    /// its chains with the other officer on the board unless the other
    /// stands where one could land (`in_way`), and its best capture, which
    /// sets the duty, is then its best alone; where the other is in its
    /// way, the walk says which chains it cuts or blocks. Each capture
    /// (end point and soldiers taken) of an officer is then taken a row at a time
    /// ([`Tier::capture_row`]): against every point of the other officer
    /// for which it is one.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn officer_moves(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        // Each point's officer's captures on the slice (taken out of the
        // tier while `capture_row` reads them; a tier that fails leaves
        // fresh ones).
        let mut walks = std::mem::take(&mut self.walks);
        walks.resize_with(board::NUM_POINTS, Walk::default);
        for fi in 0..self.slices.len() {
            let soldiers = self.slices[fi].soldiers;
            let free = self.slices[fi].free;
            for a in board::points(free) {
                walks[a.index()].fill(a, soldiers);
            }
            let mut has = EMPTY;
            for a in board::points(free) {
                let a = a.index();
                let w = &walks[a];
                if w.alone == 0 {
                    // No capture, with the other officer anywhere.
                    continue;
                }
                // Where the officer of row a could capture.
                let sl = &mut self.slices[fi];
                let row = sl.all[a] & (!w.in_way | w.with_some);
                sl.cap[a] |= row;
                for b in board::points(row) {
                    sl.capt[b.index()] |= 1 << a;
                }
                // Alone, a capture with the other officer anywhere else.
                let clear = sl.all[a] & !w.in_way;
                for e in &w.ends {
                    let row = e.by & w.in_way | if e.clear { clear } else { 0 };
                    if row != 0 {
                        let c = Capture {
                            a,
                            to: e.to as usize,
                            taken: e.taken,
                            row,
                        };
                        self.capture_row(fi, &c, &walks, &mut has, look)?;
                    }
                }
            }
            self.stuck(fi, &has);
        }
        self.walks = walks;
        Ok(())
    }

    /// One capture of the officer on `c.a` (ending on `c.to`, taking
    /// `c.taken`), against the other officer on each point of `c.row`,
    /// the officers' best captures as `walks` have them: is it legal there
    /// (docs/RULES.md section 5), and what it leads to, into the slice's
    /// exits and `has`.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn capture_row(
        &mut self,
        fi: usize,
        c: &Capture,
        walks: &[Walk],
        has: &mut Set,
        look: &mut Lookup<'_>,
    ) -> Result<(), SolveError> {
        let n = c.taken.count_ones();
        let k_after = self.key.k - n as u8;
        let soldiers = self.slices[fi].soldiers & !c.taken;
        let tk = TierKey {
            k: k_after,
            outside: self.key.outside & !c.taken,
            ..self.key
        };
        // Rule 1: fewer than nine soldiers left, the officers have won.
        let (there, one) = if k_after < 9 {
            (None, None)
        } else {
            let there = self.others.get(&tk, look)?;
            let one = match self.duty {
                StepDuty::Huffed => Some(self.others.get(&TierKey { n: 1, ..tk }, look)?),
                _ => None,
            };
            (Some(there), one)
        };
        let there = there.map(|i| At::new(&self.others.list[i], soldiers, Side::Soldiers));
        let one = one.map(|i| At::new(&self.others.list[i], soldiers, Side::Soldiers));
        // Where the capture is legal, and where a huff of this officer
        // (`own`) or of the other (`other`) is open after it.
        let (mut legal, mut own, mut other) = (0u64, 0u64, 0u64);
        for b in board::points(c.row) {
            let b = b.index();
            if let Some((own_fault, other_fault)) =
                judged(self.variant, n, walks[c.a].best(b), walks[b].best(c.a))
            {
                legal |= 1 << b;
                own |= u64::from(own_fault) << b;
                other |= u64::from(other_fault) << b;
            }
        }
        // The soldiers to move after the capture (with the officers on
        // `to` and `b`): where they win and where they lose, as bits of
        // classes, not branches on values (the values read are as good as
        // random to the branch predictor).
        let (mut won, mut lost) = match &there {
            // Rule 1: fewer than nine soldiers left, they have lost.
            None => (0, legal),
            Some(at) => {
                let to = at.seen_point(c.to);
                let (mut won, mut lost) = (0u64, 0u64);
                for b in board::points(legal) {
                    let b = b.index();
                    let class = at.class(to | at.seen_point(b))?;
                    won |= u64::from(class & 1) << b;
                    lost |= u64::from(class >> 1) << b;
                }
                (won, lost)
            }
        };
        if let Some(one) = &one {
            // A huff open after the capture: the soldiers take the better
            // of going on and huffing (a win if either wins, a loss if
            // both lose). Huffing this officer leaves the other on `b`,
            // huffing the other leaves this one on `to`.
            for b in board::points(own) {
                let b = b.index();
                let huffed = one.class(one.seen_point(b))?;
                won |= u64::from(huffed & 1) << b;
                lost &= !(u64::from(huffed >> 1 == 0) << b);
            }
            if other != 0 {
                let huffed = one.class(one.seen_point(c.to))?;
                if huffed & 1 == 1 {
                    won |= other;
                }
                if huffed >> 1 == 0 {
                    lost &= !other;
                }
            }
        }
        let sl = &mut self.slices[fi];
        let a = c.a;
        // Each placement both ways: row `a`, and bit `a` of each row `b`.
        has[a] |= legal;
        sl.o_win[a] |= lost;
        sl.o_safe[a] |= legal & !won;
        for b in board::points(legal) {
            let b = b.index();
            has[b] |= 1 << a;
            sl.o_win[b] |= (lost >> b & 1) << a;
            sl.o_safe[b] |= (!won >> b & 1) << a;
        }
        Ok(())
    }

    /// The placements of slice `fi` without a legal move: no capture
    /// (`has` holds those with one) and no free point next to an officer.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn stuck(&mut self, fi: usize, has: &Set) {
        let sl = &mut self.slices[fi];
        let free = sl.free;
        // The points with a free neighbour, and for each point the points
        // whose only free neighbour it is.
        let mut mobile = 0u64;
        let mut only = [0u64; board::NUM_POINTS];
        for p in board::points(free) {
            let near = board::ADJACENT[p.index()] & free;
            if near != 0 {
                mobile |= p.bit();
            }
            if near.count_ones() == 1 {
                only[near.trailing_zeros() as usize] |= p.bit();
            }
        }
        for a in board::points(free) {
            let a = a.index();
            let near = board::ADJACENT[a] & free;
            // The row's officer can step unless its free neighbours are
            // none or only the other's point; the column's likewise.
            let row_moves = match near.count_ones() {
                0 => 0,
                1 => !near,
                _ => !0,
            };
            let row = sl.all[a] & !row_moves & !(mobile & !only[a]);
            sl.stuck[a] = row & !has[a];
        }
    }

    /// The soldiers-to-move values of the one-officer tier on each slice,
    /// where a huff leaves one officer.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn huff_values(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let one = self.others.get(&TierKey { n: 1, ..self.key }, look)?;
        let o = &self.others.list[one];
        let wanted = vec![true; self.slices.len()];
        // The soldiers to move there: won, not lost, by point.
        let mut points = vec![(0u64, 0u64); wanted.len()];
        decode_each(o, Side::Soldiers, &wanted, |f, p, _, code| {
            points[f].0 |= u64::from(code & 1 == 1) << p;
            points[f].1 |= u64::from(code & 1 == 1 || code == 0) << p;
        })?;
        for sl in &mut self.slices {
            (sl.h_win, sl.h_safe) = points[o.slice_of(sl.soldiers)];
        }
        Ok(())
    }

    /// Every position whose stored code differs from the fixed point's
    /// value, in index order.
    // Out of line so that profiles show the phases.
    #[inline(never)]
    fn compare(&self, codes: &[u16]) -> Vec<Inconsistency> {
        let n_side = self.key.size_per_side() as usize;
        let stuck_wins = rules::stuck_winner(Side::Officers, self.variant) == Side::Officers;
        let mut bad = Vec::new();
        let mut first = 0;
        for sl in &self.slices {
            let mut pts = [0usize; board::NUM_POINTS];
            let np = board::points(sl.free)
                .zip(&mut pts)
                .map(|(p, x)| *x = p.index())
                .count();
            let pts = &pts[..np];
            // Column by column: the placement {a, b} of the i-th and the
            // j-th free points (i < j) is the slice's placement of rank
            // j (j - 1) / 2 + i, so the placements of column j are a run.
            // The run's stored fields are held to the derived ones with
            // no branch on a value; a run where one differs is gone over
            // again, placement by placement, for what differs.
            for (j, &b) in pts.iter().enumerate().skip(1) {
                let run = first + j * (j - 1) / 2;
                let [wo, lo, stuck, ws, ls, moves] =
                    [&sl.wo, &sl.lo, &sl.stuck, &sl.ws, &sl.ls, &sl.s_moves].map(|s| s[b]);
                let mut differ = 0u8;
                for (i, &a) in pts[..j].iter().enumerate() {
                    let bit = |r: u64| (r >> a & 1) as u8;
                    let (o, s) = derived_fields(
                        [bit(wo), bit(lo), bit(stuck)],
                        [bit(ws), bit(ls), bit(moves)],
                    );
                    differ |= (fields::wdl_only_bits(codes[run + i]) ^ o)
                        | (fields::wdl_only_bits(codes[n_side + run + i]) ^ s);
                }
                if differ != 0 {
                    let rows = [wo, lo, stuck, ws, ls, moves];
                    for (i, &a) in pts[..j].iter().enumerate() {
                        let node = run + i;
                        let held = rows.map(|r| r >> a & 1 == 1);
                        compare_one(&mut bad, codes, [node, n_side + node], stuck_wins, held);
                    }
                }
            }
            first += np * (np - 1) / 2;
        }
        bad.sort_by_key(|b| b.index);
        bad
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::check::tests::{random_soldiers, xorshift};
    use crate::solve::{Solver, TierStore};

    /// Win, draw or loss, and whether a loss in 0 plies: what a WDL-only
    /// check compares.
    fn class(v: Value) -> (u8, bool) {
        let wdl = match v {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        };
        (wdl, v == Value::Loss(0))
    }

    /// Every tier of the closure of `pos` under `variant`, solved, then
    /// with values planted at random (about one in 300: draws, wins,
    /// losses, losses in 0): the set checker finds the positions the
    /// position checker's fixed point finds, with the same derived
    /// win/draw/loss. Returns how many it found.
    fn sets_agree_with_the_position_checker(variant: Variant, pos: &str, seed: u64) -> usize {
        let p: crate::position::Position = pos.parse().unwrap();
        let solver = Solver::new(variant).threads(1);
        let sol = solver.solve_closure(&p).unwrap();
        let mut next = xorshift(seed);
        let mut found = 0;
        for key in &solver.closure_of(&p) {
            let right = sol.store().tier(key).unwrap().unwrap().to_vec();
            let mut look = Lookup::new(sol.store(), variant);
            let clean = check_tier_sets(key, &mut look, &right).unwrap();
            assert_eq!(clean, vec![], "{variant} {key:?}: the solved tier fails");
            let mut codes = right;
            for _ in 0..1 + codes.len() / 300 {
                let i = next() as usize % codes.len();
                codes[i] = [0, 1, 2, 3, 4][next() as usize % 5];
            }
            let sets = check_tier_sets(key, &mut look, &codes).unwrap();
            let positions = super::super::check::check_tier_wdl(key, &mut look, &codes).unwrap();
            let at = |v: &[Inconsistency]| {
                v.iter()
                    .map(|b| (b.index, class(b.derived)))
                    .collect::<Vec<_>>()
            };
            assert_eq!(at(&sets), at(&positions), "{variant} {key:?}");
            found += sets.len();
        }
        found
    }

    /// Ten soldiers, officers below them: captures (one soldier taken
    /// leaves the game going, two end it), fault steps and their huffs,
    /// one-officer tiers, pieces stuck.
    const TEN: &str = "SS1/SSS/2S1S2/1SS1S2/2O1O2/3/3 o";
    /// Nine soldiers, five of them in the fortress with steps inside it,
    /// officers outside: tiers of many slices, captures that end the game.
    const INSIDE: &str = "S1S/1S1/O1S1S1O/2S1S2/3S3/1S1/3 s";
    /// Ten soldiers and one officer: the one-officer tiers of every
    /// variant (two officers reach them only by a huff).
    const ALONE: &str = "SS1/SSS/2S1S2/1SS1S2/2O4/3/3 o";

    /// The branch-free fields of the compare's quick path are those of
    /// [`wdl_only_fields`], for every set of derived bits.
    #[test]
    fn the_quick_compare_fields_are_the_value_fields() {
        for bits in 0..64u8 {
            let held: [bool; 6] = std::array::from_fn(|i| bits >> i & 1 == 1);
            let b = held.map(u8::from);
            let (o, s) = derived_fields([b[0], b[1], b[2]], [b[3], b[4], b[5]]);
            assert_eq!([o, s], wdl_only_fields(held), "{held:?}");
        }
    }

    /// On random boards of 9 to 24 soldiers, every officer's walk
    /// ([`Walk`]) gives, with the other officer on each free point, the
    /// captures (end point, soldiers taken) and the most taken that the
    /// rules' generator gives with that officer as a blocker, and alone
    /// those it gives alone.
    #[test]
    fn one_walk_gives_the_rules_captures_with_the_other_officer_anywhere() {
        use crate::rules::ChainList;
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let ends = |list: &ChainList| {
            let mut v: Vec<(usize, Bitboard)> = list
                .iter()
                .map(|(path, taken)| (path[path.len() - 1].index(), taken))
                .collect();
            v.sort_unstable();
            v
        };
        let (mut walk, mut rules) = (Walk::default(), ChainList::default());
        let mut cut = 0;
        for _ in 0..400 {
            let soldiers = random_soldiers(&mut next);
            let free = board::ALL & !soldiers;
            for a in board::points(free) {
                walk.fill(a, soldiers);
                let in_way = walk.in_way;
                let of = |b: Option<Point>| {
                    let mut v: Vec<(usize, Bitboard)> = walk
                        .ends
                        .iter()
                        .filter(|e| match b {
                            Some(b) if in_way & b.bit() != 0 => e.by & b.bit() != 0,
                            _ => e.clear,
                        })
                        .map(|e| (e.to as usize, e.taken))
                        .collect();
                    v.sort_unstable();
                    v
                };
                rules.fill(a, soldiers, 0);
                assert_eq!(of(None), ends(&rules), "{soldiers:#x} {a}");
                assert_eq!(walk.alone, rules.most_taken());
                for b in board::points(free & !a.bit()) {
                    rules.fill(a, soldiers, b.bit());
                    assert_eq!(of(Some(b)), ends(&rules), "{soldiers:#x} {a} {b}");
                    let best = walk.best(b.index());
                    assert_eq!(best, rules.most_taken(), "{soldiers:#x} {a} {b}");
                    cut += usize::from(ends(&rules) != of(None));
                }
            }
        }
        // The other officer in the way made a difference often enough.
        assert!(cut > 1000, "only {cut} placements where it matters");
    }

    #[test]
    fn the_set_checker_finds_what_the_position_checker_finds_in_every_variant() {
        for (i, v) in Variant::all().into_iter().enumerate() {
            for (j, pos) in [TEN, INSIDE, ALONE].into_iter().enumerate() {
                let seed = 0x2545_f491 + 2 * i as u64 + j as u64;
                let found = sets_agree_with_the_position_checker(v, pos, seed);
                assert!(found > 20, "{v} {pos}: only {found} planted values caught");
            }
        }
    }
}

#[cfg(test)]
mod profile {
    use super::*;
    use crate::solve::sample::{profile_passes, profile_sample};

    /// For profiles (`perf record` on the test binary): the set checker
    /// alone (the position checker with `ASALTO_PROFILE_CHECKER=positions`),
    /// on a level sample of 2o18s against a synthetic store.
    #[test]
    #[ignore]
    fn set_checker_on_a_level_sample() {
        let (variant, tiers, store) = profile_sample();
        let by_positions = std::env::var("ASALTO_PROFILE_CHECKER").is_ok_and(|c| c == "positions");
        let check = |key: &TierKey, look: &mut Lookup<'_>, codes: &[u16]| match by_positions {
            true => super::super::check::check_tier_wdl(key, look, codes),
            false => check_tier_sets(key, look, codes),
        };
        let solved: Vec<Vec<u16>> = tiers
            .iter()
            .map(|k| super::super::solve_tier(k, &mut Lookup::new(&store, variant)).unwrap())
            .collect();
        let t = std::time::Instant::now();
        let mut positions = 0;
        for _ in 0..profile_passes(3) {
            for (key, codes) in tiers.iter().zip(&solved) {
                let bad = check(key, &mut Lookup::new(&store, variant), codes).unwrap();
                assert!(bad.is_empty());
                positions += key.size();
            }
        }
        eprintln!(
            "{:.3e} positions/s",
            positions as f64 / t.elapsed().as_secs_f64()
        );
    }
}
