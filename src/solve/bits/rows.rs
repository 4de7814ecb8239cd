//! A prototype of the bit-set solver's transpose, for two officers: a
//! tier's sets kept as *rows over the fortress arrangements*, one row per
//! officer pair (bit `r` of row `{a, b}`: the officers on `a` and `b`
//! with the fortress soldiers of arrangement rank `r`, [`fortress_masks`]).
//!
//! Inside a tier `(2, k, S)` the points `P` off `S` are fixed; an officer
//! pair over `P` holds at most C(9, j) <= 126 arrangements (two words).
//! Then:
//!
//! * an officer step is a row read whole: the placements one step before
//!   a set are, for pair `{a, b}`, the rows of the pairs `{a', b}` and `{a,
//!   b'}` (`a'`, `b'` neighbours), all arrangements at once;
//! * a fortress soldier step `s -> t` keeps the pair and moves bits within
//!   its row: every step of a tier at once, as a byte-table map from the
//!   arrangements reached to those a step reaches them from
//!   ([`StepTable`]);
//! * a soldier step from outside `s -> t` reads the target tier's row of
//!   the same pair: the same arrangements (`t` outside), or those with `t`
//!   added (a monotone map of colex ranks: [`compress`] and [`expand`]).
//!   Where the target is kept as its mirror image the row is read
//!   position by position.
//!
//! Captures: each officer's walks made once per *form* (the arrangements
//! whose soldiers agree on the points the walk looked at), each capture
//! then applied to the form's arrangements at once: the capture duty, the
//! max rule's comparisons and the legal captures as rows; the values
//! after a capture read from the store's rows of the tier after it
//! (soldiers to move, arrangements less the fortress soldiers taken: a
//! monotone map again) or position by position. The huffs' one-officer
//! values are read position by position.
//!
//! Held to [`super::solve_tier_wdl`] code for code on level samples of six
//! variants, against a store in index order (every read position by
//! position) and one placement-major with rows. Not used by builds: on
//! level samples it is no faster than the bit-set solver
//! (`scripts/bench-runs/2026-12-06-rows/`), because a capture walk's form
//! holds about three arrangements: captures, the largest part of a
//! tier's solve at high soldier counts, are position by position work in
//! either layout.

#![cfg_attr(not(test), allow(dead_code))]

use super::{Duty, chains, code_o, code_s, codes_by, each};
use crate::Value;
use crate::board::{self, ADJACENT, Bitboard, FORTRESS, OUTSIDE};
use crate::index::{TierKey, fortress_bits, fortress_mask, fortress_masks};
use crate::position::Side;
use crate::rules::CaptureRule;
use crate::rules::Variant;
use crate::solve::SolveError;
use crate::solve::lookup::Lookup;
use crate::solve::retro::{Target, Targets};
use std::sync::{LazyLock, Mutex};

/// A set over the arrangements of one pair: bit `r` for rank `r`.
type Row = u128;

const N: usize = board::NUM_POINTS;

/// Per soldier count in the fortress `j` and point `p`, the arrangements
/// holding `p` (`holds`), and by how many of their soldiers stand on
/// fortress points below `p` (`below[c]`).
struct Arrangements {
    holds: Vec<[Row; N]>,
    below: Vec<[[Row; 10]; N]>,
}

static ARR: LazyLock<Arrangements> = LazyLock::new(|| {
    let mut holds = vec![[0; N]; 10];
    let mut below = vec![[[0; 10]; N]; 10];
    for j in 0..=9 {
        for (r, &m) in fortress_masks(j as u32).iter().enumerate() {
            let f = fortress_bits(m);
            for p in 0..N {
                holds[j][p] |= Row::from(f >> p & 1 == 1) << r;
                let c = (f & ((1u64 << p) - 1)).count_ones() as usize;
                below[j][p][c] |= 1 << r;
            }
        }
    }
    Arrangements { holds, below }
});

/// Per soldier count `j`, the mirror image of each arrangement's rank as a
/// map of rows (byte `i` of a row with value `x` gives `bytes[i][x]`).
static MIRROR: LazyLock<Vec<Vec<[Row; 256]>>> = LazyLock::new(|| {
    (0..=9)
        .map(|j| {
            let masks = fortress_masks(j as u32);
            let to: Vec<usize> = masks
                .iter()
                .map(|&m| {
                    crate::index::fortress_rank(crate::index::FORT_MIRROR[m as usize]) as usize
                })
                .collect();
            let mut bytes = vec![[0 as Row; 256]; masks.len().div_ceil(8)];
            for (i, b) in bytes.iter_mut().enumerate() {
                for (x, out) in b.iter_mut().enumerate() {
                    each(x as u64, |bit| {
                        if let Some(&r) = to.get(8 * i + bit) {
                            *out |= 1 << r;
                        }
                    });
                }
            }
            bytes
        })
        .collect()
});

/// Row `y` of `j`-soldier arrangements with each arrangement mirrored.
#[inline]
fn mirror_row(j: usize, y: Row) -> Row {
    let mut r = 0;
    for (i, t) in MIRROR[j].iter().enumerate() {
        r |= t[(y >> (8 * i)) as u8 as usize];
    }
    r
}

/// The officers-to-move half of a tier as rows: for each pair `{a, b}`
/// of the tier's points off its outside soldiers (in the order of their
/// ranks among those points, `C(ib, 2) + ia`), the arrangements where the
/// officers win and where they lose. What a store hands the rows solver
/// for the soldier steps from outside ([`crate::solve::TierStore::rows`]).
pub struct RowsTier {
    /// Entry `side * pairs + id` (side 0: officers to move, 1: soldiers):
    /// the arrangements where the side to move wins, and loses.
    win: Vec<Row>,
    loss: Vec<Row>,
    pairs: usize,
}

impl RowsTier {
    /// The rows of tier `key` from its value codes in index order.
    pub(crate) fn from_codes(key: &TierKey, codes: &[u16]) -> RowsTier {
        let pt = board::ALL & !key.outside;
        let np = pt.count_ones() as usize;
        let pairs = np * (np - 1) / 2;
        let mut out = RowsTier {
            win: vec![0; 2 * pairs],
            loss: vec![0; 2 * pairs],
            pairs,
        };
        let mut i = 0;
        let mut pts = [0usize; N];
        for side in 0..2 {
            for (r, &m) in fortress_masks(key.m()).iter().enumerate() {
                let free = pt & !fortress_bits(m);
                let mut n = 0;
                each(free, |q| {
                    pts[n] = q;
                    n += 1;
                });
                for jb in 1..n {
                    for ja in 0..jb {
                        let id = side * pairs + pair_id(pt, pts[ja], pts[jb]);
                        let c = codes[i];
                        out.win[id] |= Row::from(c & 1 == 1) << r;
                        out.loss[id] |= Row::from(c != 0 && c & 1 == 0) << r;
                        i += 1;
                    }
                }
            }
        }
        out
    }

    /// The wins and losses of the side to move (`side` 0: officers, 1:
    /// soldiers) with the officers on `a` and `b` (in the tier as reached,
    /// `flip`: the stored tier, of points `pt`, is its mirror image; `j`
    /// fortress soldiers), over the reached tier's arrangements.
    #[inline]
    fn row(
        &self,
        side: usize,
        pt: Bitboard,
        flip: bool,
        j: usize,
        a: usize,
        b: usize,
    ) -> (Row, Row) {
        let (a, b) = match flip {
            true => (mirror_point(a), mirror_point(b)),
            false => (a, b),
        };
        let id = side * self.pairs + pair_id(pt, a.min(b), a.max(b));
        let (w, l) = (self.win[id], self.loss[id]);
        match flip {
            true => (mirror_row(j, w), mirror_row(j, l)),
            false => (w, l),
        }
    }
}

/// The rank of pair `a < b` among the pairs of the points of `pt`.
#[inline]
fn pair_id(pt: Bitboard, a: usize, b: usize) -> usize {
    let ia = (pt & ((1u64 << a) - 1)).count_ones() as usize;
    let ib = (pt & ((1u64 << b) - 1)).count_ones() as usize;
    ia + ib * (ib - 1) / 2
}

/// All arrangements of `j` fortress soldiers.
fn all(j: usize) -> Row {
    let m = fortress_masks(j as u32).len();
    if m == 128 { !0 } else { (1 << m) - 1 }
}

/// The fortress steps of one soldier count as a map of rows: byte `i` of
/// a row of arrangements reached, with value `x`, gives
/// `bytes[i][x]`: the arrangements with a step to one of those.
struct StepTable {
    bytes: Vec<[Row; 256]>,
}

impl StepTable {
    fn new(j: usize, table: &[u64; N]) -> StepTable {
        let masks = fortress_masks(j as u32);
        let mut pred = vec![0 as Row; masks.len()];
        for (r, &m) in masks.iter().enumerate() {
            let f = fortress_bits(m);
            each(f, |s| {
                each(table[s] & FORTRESS & !f, |t| {
                    let to = f & !(1 << s) | 1 << t;
                    let rt = crate::index::fortress_rank(fortress_mask(to)) as usize;
                    pred[rt] |= 1 << r;
                });
            });
        }
        let mut bytes = vec![[0 as Row; 256]; masks.len().div_ceil(8)];
        for (i, b) in bytes.iter_mut().enumerate() {
            for (x, out) in b.iter_mut().enumerate() {
                each(x as u64, |bit| {
                    if let Some(p) = pred.get(8 * i + bit) {
                        *out |= p;
                    }
                });
            }
        }
        StepTable { bytes }
    }

    /// The arrangements with a fortress step to one in `y`.
    #[inline]
    fn before(&self, y: Row) -> Row {
        let mut r = 0;
        for (i, t) in self.bytes.iter().enumerate() {
            r |= t[(y >> (8 * i)) as u8 as usize];
        }
        r
    }
}

/// Each soldier-move table's step tables (per soldier count), made once.
fn step_tables(table: &'static [u64; N]) -> &'static [StepTable] {
    static MADE: Mutex<Vec<(usize, &'static [StepTable])>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let id = table.as_ptr() as usize;
    if let Some(&(_, t)) = made.iter().find(|e| e.0 == id) {
        return t;
    }
    let t: &'static [StepTable] = Box::leak(
        (0..=9)
            .map(|j| StepTable::new(j, table))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    made.push((id, t));
    t
}

/// Whether the CPU has BMI2's `pext` and `pdep`.
static BMI2: LazyLock<bool> = LazyLock::new(|| {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
});

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn pext128(x: Row, m: Row) -> Row {
    use std::arch::x86_64::_pext_u64;
    let lo = _pext_u64(x as u64, m as u64);
    let hi = _pext_u64((x >> 64) as u64, (m >> 64) as u64);
    Row::from(lo) | Row::from(hi) << (m as u64).count_ones()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn pdep128(x: Row, m: Row) -> Row {
    use std::arch::x86_64::_pdep_u64;
    let n = (m as u64).count_ones();
    let lo = _pdep_u64(x as u64, m as u64);
    let hi = _pdep_u64((x >> n) as u64, (m >> 64) as u64);
    Row::from(lo) | Row::from(hi) << 64
}

/// The bits of `x` on the set bits of `m`, packed from bit 0.
#[inline]
fn compress(x: Row, m: Row) -> Row {
    #[cfg(target_arch = "x86_64")]
    if *BMI2 {
        // SAFETY: the CPU has BMI2 (asked at run time).
        return unsafe { pext128(x, m) };
    }
    let (mut out, mut i, mut m) = (0, 0, m);
    while m != 0 {
        out |= (x >> m.trailing_zeros() & 1) << i;
        i += 1;
        m &= m - 1;
    }
    out
}

/// The low bits of `x` put on the set bits of `m`, in order.
#[inline]
fn expand(x: Row, m: Row) -> Row {
    #[cfg(target_arch = "x86_64")]
    if *BMI2 {
        // SAFETY: the CPU has BMI2 (asked at run time).
        return unsafe { pdep128(x, m) };
    }
    let (mut out, mut i, mut m) = (0, 0, m);
    while m != 0 {
        out |= (x >> i & 1) << m.trailing_zeros();
        i += 1;
        m &= m - 1;
    }
    out
}

/// A set of pairs' rows: row `{a, b}` at `a * N + b` and `b * N + a`.
type Set = Vec<Row>;

/// The row sets of one tier, one row per pair (its id: [`RowSets::id`]).
#[derive(Default)]
struct RowSets {
    /// Pairs `(a, b)`, `a < b`, over the tier's points off `S`, by id.
    pairs: Vec<(u8, u8)>,
    /// `id[a * N + b]`: the id of pair `{a, b}` (either way round).
    id: Vec<u16>,
    /// Placements: the arrangements holding neither officer's point.
    v: Set,
    /// Officers to move: a capture wins / does not lose; no legal move.
    ew_o: Set,
    enl_o: Set,
    stuck_o: Set,
    /// Entry `2 id` (`2 id + 1`): the officer on the pair's lower (higher)
    /// point could capture.
    cap: Set,
    /// Some capture is a legal move.
    has: Set,
    /// Each point's capture walks ([`Form`]) and their ends (`(end point,
    /// soldiers taken, other officer's points)`, [`super::chains`]).
    forms: Vec<Vec<Form>>,
    ends: Vec<(u8, Bitboard, u64)>,
    walk: Vec<(u8, Bitboard, u64)>,
    seen: super::Seen,
    /// Soldiers to move: a step out of the tier wins / does not lose;
    /// some move.
    ew_s: Set,
    enl_s: Set,
    move_s: Set,
    /// One officer left on a point after a huff, soldiers to move: the
    /// arrangements where the soldiers do not lose there (`keep_l`) and
    /// where they do not win (`keep_w`), per point: a huff leaving the
    /// officer there takes a soldiers' loss (win) away.
    keep_l: Vec<Row>,
    keep_w: Vec<Row>,
    /// The values.
    win_o: Set,
    loss_o: Set,
    win_s: Set,
    loss_s: Set,
}

/// One officer's capture walk from a point, kept for the arrangements
/// (`rows`) whose soldiers agree with it on the points it looked at.
struct Form {
    looked: Bitboard,
    seen: Bitboard,
    rows: Row,
    /// Its ends: `RowSets::ends[start..end]`.
    start: u32,
    end: u32,
    /// `more[c]`: the other officer's points where this officer takes
    /// more than `c` soldiers; `most`: the most it takes.
    more: [u64; 25],
    most: u8,
}

thread_local! {
    static ROWS: std::cell::RefCell<RowSets> = std::cell::RefCell::new(RowSets::default());
}

/// Solve two-officer tier `key` as rows (see the module doc): the value
/// codes [`super::solve_tier_wdl`] gives.
pub(crate) fn solve_tier_rows(
    key: &TierKey,
    look: &mut Lookup<'_>,
) -> Result<Vec<u16>, SolveError> {
    assert_eq!(key.n, 2, "rows: two officers");
    let variant = *look.variant();
    let duty = match variant.capture {
        crate::rules::CaptureRule::Free => Duty::None,
        crate::rules::CaptureRule::Mandatory => Duty::NoStep,
        crate::rules::CaptureRule::Huff => Duty::Huff,
    };
    let mut rs = ROWS.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let mut t = Tier {
        key: *key,
        variant: &variant,
        duty,
        j: key.m() as usize,
        rs: &mut rs,
    };
    t.layout();
    let r = (|| {
        t.captures(look)?;
        if duty == Duty::Huff {
            t.huffs(look)?;
        }
        t.soldier_exits(look)?;
        t.fixed_point();
        Ok(t.codes())
    })();
    ROWS.with(|c| *c.borrow_mut() = rs);
    r
}

/// A tier being solved as rows.
struct Tier<'a> {
    key: TierKey,
    variant: &'a Variant,
    duty: Duty,
    /// Soldiers in the fortress.
    j: usize,
    rs: &'a mut RowSets,
}

impl Tier<'_> {
    /// The pairs and their placements.
    #[inline(never)]
    fn layout(&mut self) {
        let rs = &mut *self.rs;
        let p = board::ALL & !self.key.outside;
        rs.pairs.clear();
        rs.id.resize(N * N, u16::MAX);
        each(p, |b| {
            each(p & ((1u64 << b) - 1), |a| {
                let i = rs.pairs.len() as u16;
                rs.id[a * N + b] = i;
                rs.id[b * N + a] = i;
                rs.pairs.push((a as u8, b as u8));
            });
        });
        let n = rs.pairs.len();
        for set in [
            &mut rs.v,
            &mut rs.ew_o,
            &mut rs.enl_o,
            &mut rs.stuck_o,
            &mut rs.has,
            &mut rs.ew_s,
            &mut rs.enl_s,
            &mut rs.move_s,
            &mut rs.win_o,
            &mut rs.loss_o,
            &mut rs.win_s,
            &mut rs.loss_s,
        ] {
            set.clear();
            set.resize(n, 0);
        }
        rs.cap.clear();
        rs.cap.resize(2 * n, 0);
        let (holds, all) = (&ARR.holds[self.j], all(self.j));
        for (i, &(a, b)) in rs.pairs.iter().enumerate() {
            rs.v[i] = all & !holds[a as usize] & !holds[b as usize];
        }
        for set in [&mut rs.keep_l, &mut rs.keep_w] {
            set.clear();
            set.resize(N, !0);
        }
        // Soldiers with a fortress step have a move.
        let steps = &step_tables(self.variant.soldier_moves())[self.j];
        for i in 0..n {
            let v = rs.v[i];
            rs.move_s[i] = steps.before(v) & v;
        }
    }

    /// Captures: each officer's walks, one per form of the soldiers it
    /// looks at ([`Form`]); the capture duty, the officers' exits and the
    /// positions without a legal move, as rows. The values after a capture
    /// are read position by position.
    #[inline(never)]
    fn captures(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let key = self.key;
        let variant = self.variant;
        let j = self.j;
        let masks = fortress_masks(j as u32);
        let all = all(j);
        let p = board::ALL & !key.outside;
        let rs = &mut *self.rs;
        rs.forms.resize_with(N, Vec::new);
        for f in &mut rs.forms {
            f.clear();
        }
        rs.ends.clear();
        // The walks.
        each(p, |a| {
            each_row(all & !ARR.holds[j][a], |r| {
                let soldiers = key.outside | fortress_bits(masks[r]);
                if let Some(f) = rs.forms[a]
                    .iter_mut()
                    .find(|f| soldiers & f.looked == f.seen)
                {
                    f.rows |= 1 << r;
                    return;
                }
                rs.walk.clear();
                let looked = chains::<false>(a, soldiers, &mut rs.walk, &mut rs.seen);
                let (mut more, mut most) = ([0u64; 25], 0);
                for &(_, taken, others) in &rs.walk {
                    let n = taken.count_ones() as usize;
                    for m in &mut more[..n] {
                        *m |= others;
                    }
                    most = most.max(n);
                }
                let start = rs.ends.len() as u32;
                rs.ends.extend_from_slice(&rs.walk);
                rs.forms[a].push(Form {
                    looked,
                    seen: soldiers & looked,
                    rows: 1 << r,
                    start,
                    end: rs.ends.len() as u32,
                    more,
                    most: most as u8,
                });
            });
        });
        #[cfg(test)]
        for fs in &rs.forms {
            for f in fs.iter().filter(|f| f.most > 0) {
                use std::sync::atomic::Ordering::Relaxed;
                let [forms, arrangements, ends] = &tests::CAPTURE_FORMS;
                forms.fetch_add(1, Relaxed);
                arrangements.fetch_add(f.rows.count_ones() as usize, Relaxed);
                ends.fetch_add((f.end - f.start) as usize, Relaxed);
            }
        }
        let mut targets = Targets::default();
        let max = variant.max && variant.capture != CaptureRule::Free;
        // The most any walk of each point takes.
        let mut most = [0u8; N];
        for (q, m) in most.iter_mut().enumerate() {
            *m = rs.forms[q].iter().map(|f| f.most).max().unwrap_or(0);
        }
        let mut places = Places::default();
        // `gt_rows[gt_at[b * 25 + n]][a]`: where the officer on `b` takes
        // more than `n` with the other on `a`, made when first asked.
        let mut gt_at = [u16::MAX; N * 25];
        let mut gt_rows: Vec<[Row; N]> = Vec::new();
        for a in 0..N {
            for f in &rs.forms[a] {
                if f.most == 0 {
                    continue;
                }
                let others_p = p & !(1 << a);
                each(f.more[0] & others_p, |b| {
                    let i = rs.id[a * N + b] as usize;
                    rs.cap[2 * i + usize::from(a > b)] |= f.rows & rs.v[i];
                });
                for &(to, taken, others) in &rs.ends[f.start as usize..f.end as usize] {
                    let n = taken.count_ones() as usize;
                    let k_after = key.k - n as u8;
                    let mut read = None;
                    // The tier after the capture as rows, where the store
                    // keeps them: its arrangements are this tier's less
                    // the fortress soldiers taken (a monotone map).
                    let after = TierKey {
                        k: k_after,
                        outside: key.outside & !taken,
                        ..key
                    };
                    let canonical = after.canonical();
                    let rows_after = match k_after < 9 {
                        true => None,
                        false => look.rows(&canonical)?,
                    };
                    let (jt, lack_t, has_t) = {
                        let tf = taken & FORTRESS;
                        let jt = j - tf.count_ones() as usize;
                        let (mut lack, mut has) = (self::all(jt), all);
                        each(tf, |q| {
                            lack &= !ARR.holds[jt][q];
                            has &= ARR.holds[j][q];
                        });
                        (jt, lack, has)
                    };
                    let (pt_after, flip) = (canonical.outside ^ board::ALL, canonical != after);
                    let mut b_pts = others & others_p;
                    while b_pts != 0 {
                        let b = b_pts.trailing_zeros() as usize;
                        b_pts &= b_pts - 1;
                        let i = rs.id[a * N + b] as usize;
                        let rr = f.rows & rs.v[i];
                        if rr == 0 {
                            continue;
                        }
                        let eq = f.more[n] >> b & 1 == 0;
                        let gt = if max && most[b] as usize > n {
                            let x = &mut gt_at[b * 25 + n];
                            if *x == u16::MAX {
                                // The arrangements where the officer on b
                                // takes more than n, by the other's point.
                                *x = gt_rows.len() as u16;
                                let mut t = [0 as Row; N];
                                for g in &rs.forms[b] {
                                    each(g.more[n] & board::ALL, |q| t[q] |= g.rows);
                                }
                                gt_rows.push(t);
                            }
                            gt_rows[*x as usize][a] & rr
                        } else {
                            0
                        };
                        let (plain, faults) = match (max, variant.capture, eq) {
                            (false, _, _) => (rr, [0; 3]),
                            (true, CaptureRule::Huff, true) => (rr & !gt, [gt, 0, 0]),
                            (true, CaptureRule::Huff, false) => (0, [0, rr & !gt, gt]),
                            (true, _, true) => (rr & !gt, [0; 3]),
                            (true, _, false) => (0, [0; 3]),
                        };
                        let legal = plain | faults[0] | faults[1] | faults[2];
                        if legal == 0 {
                            continue;
                        }
                        rs.has[i] |= legal;
                        if k_after < 9 {
                            // Fewer than nine soldiers left: the officers win.
                            rs.ew_o[i] |= legal;
                            rs.enl_o[i] |= legal;
                            continue;
                        }
                        let memo = (key.outside & !taken) | u64::from(k_after) << 40;
                        let fm = |r: usize| {
                            fortress_mask((key.outside | fortress_bits(masks[r])) & !taken)
                        };
                        let one = match faults[0] | faults[1] | faults[2] {
                            0 => None,
                            _ => {
                                let tk = TierKey { n: 1, ..after };
                                Some(targets.index_of(memo | 1 << 48, &tk, look)?)
                            }
                        };
                        if let Some(rows) = &rows_after {
                            let (w, l) = rows.row(1, pt_after, flip, jt, to as usize, b);
                            let map = |x: Row| expand(compress(x, lack_t), has_t);
                            let (ws, ls) = (map(w), map(l));
                            let one = one.map(|o| targets.at(o));
                            let (w, nl) =
                                fault_rows(one, &fm, (to as usize, b), (ws, ls), plain, faults)?;
                            rs.ew_o[i] |= w;
                            rs.enl_o[i] |= nl;
                            continue;
                        }
                        // The tier after the capture, and where the form's
                        // arrangements lie in it, once an end.
                        if read.is_none() {
                            let tk = TierKey {
                                k: k_after,
                                outside: key.outside & !taken,
                                ..key
                            };
                            let t = targets.index_of(memo, &tk, look)?;
                            places.fill(targets.at(t), f.rows, fm);
                            read = Some(t);
                        }
                        let t = read.expect("read above");
                        let one = one.map(|o| targets.at(o));
                        let (ws, ls) = base_rows(
                            targets.at(t),
                            &places,
                            (to as usize, b),
                            plain | faults[0] | faults[1] | faults[2],
                        )?;
                        let (w, nl) =
                            fault_rows(one, &fm, (to as usize, b), (ws, ls), plain, faults)?;
                        rs.ew_o[i] |= w;
                        rs.enl_o[i] |= nl;
                    }
                }
            }
        }
        // No capture and no step: no legal move.
        let empty: Vec<Row> = (0..N).map(|q| all & !ARR.holds[j][q]).collect();
        for (i, &(a, b)) in rs.pairs.iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let mut step = 0;
            each(
                ADJACENT[a] & p & !(1 << b) | ADJACENT[b] & p & !(1 << a),
                |q| {
                    step |= empty[q];
                },
            );
            // A point next to both officers counts once either way.
            rs.stuck_o[i] = rs.v[i] & !rs.has[i] & !step;
        }
        Ok(())
    }

    /// The one-officer values a huff leads to, per point, as rows.
    #[inline(never)]
    fn huffs(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let one = Target::new(&TierKey { n: 1, ..self.key }, Side::Soldiers, look)?;
        let p = board::ALL & !self.key.outside;
        let rs = &mut *self.rs;
        for (r, &m) in fortress_masks(self.j as u32).iter().enumerate() {
            let mut err = Ok(());
            each(p & !fortress_bits(m), |y| match one.value(m, 1 << y) {
                Ok(Value::Win(_)) => {
                    rs.keep_l[y] &= !(1 << r);
                    rs.keep_w[y] &= !(1 << r);
                }
                Ok(Value::Draw) => rs.keep_l[y] &= !(1 << r),
                Ok(_) => {}
                Err(e) => err = Err(e),
            });
            err?;
        }
        Ok(())
    }

    /// Soldier steps from outside the fortress: the soldiers' exits, row
    /// by row.
    #[inline(never)]
    fn soldier_exits(&mut self, look: &mut Lookup<'_>) -> Result<(), SolveError> {
        let key = self.key;
        let table = self.variant.soldier_moves();
        let j = self.j;
        let masks = fortress_masks(j as u32);
        let all = all(j);
        let rs = &mut *self.rs;
        let mut steps = Vec::new();
        each(key.outside, |s| {
            each(table[s] & !key.outside, |t| steps.push((s, t)));
        });
        for (s, t) in steps {
            let lacks = all & !ARR.holds[j][t];
            let outside = key.outside & !(1 << s) | (1 << t) & OUTSIDE;
            let tk = TierKey { outside, ..key };
            let into = FORTRESS >> t & 1 == 1;
            let j2 = tk.m() as usize;
            let canonical = tk.canonical();
            let full = j2 == 9;
            let rows = match full {
                false => look.rows(&canonical)?,
                true => None,
            };
            // Read position by position where the store keeps no rows.
            let target = match full || rows.is_some() {
                true => None,
                false => Some(Target::new(&tk, Side::Officers, look)?),
            };
            let flip = canonical != tk;
            let pt = canonical.outside ^ board::ALL;
            for (i, &(a, b)) in rs.pairs.iter().enumerate() {
                let (a, b) = (a as usize, b as usize);
                if a == t || b == t {
                    continue;
                }
                let v = rs.v[i] & lacks;
                if v == 0 {
                    continue;
                }
                rs.move_s[i] |= v;
                if full {
                    // The step fills the fortress: a win.
                    rs.ew_s[i] |= v;
                    rs.enl_s[i] |= v;
                    continue;
                }
                let (w, l) = if let Some(rows) = &rows {
                    // The pair's row as the store keeps it.
                    let (w, l) = rows.row(0, pt, flip, j2, a, b);
                    if into {
                        let h = ARR.holds[j2][t];
                        (expand(compress(w, h), lacks), expand(compress(l, h), lacks))
                    } else {
                        (w, l)
                    }
                } else {
                    let target = target.as_ref().expect("read by positions");
                    if target.mirrored() {
                        // Position by position, in this tier's ranks.
                        let (mut w, mut l) = (0, 0);
                        let mut err = Ok(());
                        each_row(v, |r| {
                            let f = fortress_bits(masks[r]) | (1 << t) & FORTRESS;
                            let (first, free) = target.slice(fortress_mask(f));
                            match target.code_at(first, free, target.orient(1 << a | 1 << b)) {
                                Ok(c) => {
                                    w |= Row::from(c & 1 == 1) << r;
                                    l |= Row::from(c != 0 && c & 1 == 0) << r;
                                }
                                Err(e) => err = Err(e),
                            }
                        });
                        err?;
                        (w, l)
                    } else {
                        let (w, l) = read_row(target, &tk, a, b, j2)?;
                        if into {
                            let h = ARR.holds[j2][t];
                            (expand(compress(w, h), lacks), expand(compress(l, h), lacks))
                        } else {
                            (w, l)
                        }
                    }
                };
                rs.ew_s[i] |= l & v;
                rs.enl_s[i] |= !w & v;
            }
        }
        Ok(())
    }

    /// The least fixed point, pair by pair: a pair's officers-to-move row
    /// from the soldiers-to-move rows of the pairs one officer step away;
    /// its soldiers-to-move row from its own officers-to-move row through
    /// the fortress steps. Only pairs whose inputs changed are computed
    /// again.
    #[inline(never)]
    fn fixed_point(&mut self) {
        let n = self.rs.pairs.len();
        let p = board::ALL & !self.key.outside;
        let steps = &step_tables(self.variant.soldier_moves())[self.j];
        let stuck_wins =
            crate::solve::check::stuck_value(Side::Officers, self.variant) == crate::Value::Win(0);
        let (mut dirty_o, mut dirty_s) = (vec![true; n], vec![true; n]);
        loop {
            let mut any = false;
            for i in (0..n).rev() {
                let (a, b) = self.rs.pairs[i];
                let (a, b) = (a as usize, b as usize);
                if std::mem::take(&mut dirty_o[i]) && self.update_officers(i, a, b, p, stuck_wins) {
                    dirty_s[i] = true;
                }
                if std::mem::take(&mut dirty_s[i]) && self.update_soldiers(i, steps) {
                    any = true;
                    // The pairs with an officer step to this one.
                    let id = &self.rs.id;
                    each(ADJACENT[a] & p & !(1 << b), |q| {
                        dirty_o[id[q * N + b] as usize] = true;
                    });
                    each(ADJACENT[b] & p & !(1 << a), |q| {
                        dirty_o[id[a * N + q] as usize] = true;
                    });
                }
            }
            if !any {
                break;
            }
        }
    }

    #[inline]
    fn update_soldiers(&mut self, i: usize, steps: &StepTable) -> bool {
        let rs = &mut *self.rs;
        let v = rs.v[i];
        let w = (rs.ew_s[i] | steps.before(rs.loss_o[i])) & v;
        let nl = rs.enl_s[i] | steps.before(v & !rs.win_o[i]);
        let l = v & !nl;
        if w == rs.win_s[i] && l == rs.loss_s[i] {
            return false;
        }
        rs.win_s[i] = w;
        rs.loss_s[i] = l;
        true
    }

    #[inline]
    fn update_officers(&mut self, i: usize, a: usize, b: usize, p: u64, stuck_wins: bool) -> bool {
        let rs = &mut *self.rs;
        let v = rs.v[i];
        let na = ADJACENT[a] & p & !(1 << b);
        let nb = ADJACENT[b] & p & !(1 << a);
        let (ls, ws, vs, id) = (&rs.loss_s, &rs.win_s, &rs.v, &rs.id);
        let nw = |q: usize| vs[q] & !ws[q];
        let (win_step, nonwin_step) = match self.duty {
            Duty::None | Duty::NoStep => {
                let (mut wl, mut wn) = (0, 0);
                each(na, |q| {
                    let x = id[q * N + b] as usize;
                    wl |= ls[x];
                    wn |= nw(x);
                });
                each(nb, |q| {
                    let x = id[a * N + q] as usize;
                    wl |= ls[x];
                    wn |= nw(x);
                });
                let plain = if self.duty == Duty::None {
                    v
                } else {
                    v & !rs.cap[2 * i] & !rs.cap[2 * i + 1]
                };
                (wl & plain, wn & plain)
            }
            Duty::Huff => {
                // a < b: the row's officer (a) is the pair's lower.
                let (cab, cba) = (rs.cap[2 * i], rs.cap[2 * i + 1]);
                let case = [v & !cab & !cba, cab & !cba, !cab & cba, cab & cba];
                let huff = |x: &dyn Fn(usize) -> Row, keep: &[Row]| -> Row {
                    // Column officer stepped (from b), row officer stepped
                    // (from a); each with the huff leaving the other's
                    // point in `keep`.
                    let (mut c1, mut own_keep) = (0, 0);
                    each(nb, |q| {
                        let r = x(id[a * N + q] as usize);
                        c1 |= r;
                        own_keep |= r & keep[q];
                    });
                    let (mut c2, mut ok) = (0, 0);
                    each(na, |q| {
                        let r = x(id[q * N + b] as usize);
                        c2 |= r;
                        ok |= r & keep[q];
                    });
                    let plain = c1 | c2;
                    let row_huffed = own_keep | c2 & keep[b];
                    let col_huffed = c1 & keep[a] | ok;
                    let both = own_keep & keep[a] | ok & keep[b];
                    plain & case[0] | row_huffed & case[1] | col_huffed & case[2] | both & case[3]
                };
                (huff(&|q| ls[q], &rs.keep_l), huff(&nw, &rs.keep_w))
            }
        };
        let stuck_win = if stuck_wins { rs.stuck_o[i] } else { 0 };
        let w = rs.ew_o[i] | win_step | stuck_win;
        let l = v & !(rs.enl_o[i] | nonwin_step | stuck_win);
        if w == rs.win_o[i] && l == rs.loss_o[i] {
            return false;
        }
        rs.win_o[i] = w;
        rs.loss_o[i] = l;
        true
    }

    /// The value codes in index order.
    #[inline(never)]
    fn codes(&self) -> Vec<u16> {
        let rs = &*self.rs;
        let p = board::ALL & !self.key.outside;
        let (wo, lo, so) = (&rs.win_o, &rs.loss_o, &rs.stuck_o);
        let (ws, ls, ms) = (&rs.win_s, &rs.loss_s, &rs.move_s);
        codes_by(&self.key, |officers, soldiers| {
            let mut i = 0;
            let mut pts = [0usize; N];
            for (r, &m) in fortress_masks(self.j as u32).iter().enumerate() {
                let free = p & !fortress_bits(m);
                let mut n = 0;
                each(free, |q| {
                    pts[n] = q;
                    n += 1;
                });
                for jb in 1..n {
                    let b = pts[jb];
                    for &a in &pts[..jb] {
                        let x = rs.id[a * N + b] as usize;
                        let bit = |s: &Set| (s[x] >> r) as u64 & 1;
                        officers[i] = code_o(bit(wo), bit(lo), bit(so));
                        soldiers[i] = code_s(bit(ws), bit(ls), bit(ms));
                        i += 1;
                    }
                }
            }
            i
        })
    }
}

/// Where the arrangements of a form lie in the tier after a capture
/// ([`Target::slice`]): by the arrangement's rank here.
struct Places {
    first: [u32; 128],
    free: [Bitboard; 128],
}

impl Default for Places {
    fn default() -> Places {
        Places {
            first: [0; 128],
            free: [0; 128],
        }
    }
}

impl Places {
    /// The places in `target` of the arrangements of `rows`, whose
    /// fortress masks after the capture `fm` gives.
    #[inline]
    fn fill(&mut self, target: &Target, rows: Row, fm: impl Fn(usize) -> u16) {
        each_row(rows, |r| {
            let m = fm(r);
            (self.first[r], self.free[r]) = target.slice(m);
        });
    }
}

/// The soldiers' wins and losses after one capture (the capturing
/// officer ending on `to`, the other officer on `b`) on the arrangements
/// of `legal`, read position by position in the tier after it (`target`,
/// soldiers to move, its places `at`).
fn base_rows(
    target: &Target,
    at: &Places,
    (to, b): (usize, usize),
    legal: Row,
) -> Result<(Row, Row), SolveError> {
    let (mut ws, mut ls) = (0 as Row, 0 as Row);
    let o = target.orient(1 << to | 1 << b);
    let mut e = Ok(());
    each_row(legal, |r| {
        match target.code_at(at.first[r], at.free[r], o) {
            Ok(c) => {
                ws |= Row::from(c & 1 == 1) << r;
                ls |= Row::from(c != 0 && c & 1 == 0) << r;
            }
            Err(x) => e = Err(x),
        }
    });
    e.map(|()| (ws, ls))
}

/// One capture (the capturing officer ending on `to`, the other officer
/// on `b`, the soldiers' wins and losses after it `(ws, ls)`) on the
/// arrangements of `plain` (a legal move without a fault) and of `faults`
/// (legal, with a fault open to a huff of: the other officer only, the
/// capturing one only, both): the arrangements where it wins for the
/// officers and where it does not lose. A fault's huffs are read position
/// by position in the one-officer tier they leave (`one`, the fortress
/// mask of each arrangement there `fm`).
fn fault_rows(
    one: Option<&Target>,
    fm: &dyn Fn(usize) -> u16,
    (to, b): (usize, usize),
    (ws, ls): (Row, Row),
    plain: Row,
    faults: [Row; 3],
) -> Result<(Row, Row), SolveError> {
    let mut win = plain & ls;
    let mut not_lost = plain & !ws;
    let [by_other, by_self, by_both] = faults;
    if let Some(one) = one {
        // A win (odd code) and a non-loss (odd or 0) for the soldiers with
        // one officer left on `q`.
        let class = |r: usize, q: usize| -> Result<(bool, bool), SolveError> {
            let (first, free) = one.slice(fm(r));
            let c = one.code_at(first, free, one.orient(1 << q))?;
            Ok((c & 1 == 1, c & 1 == 1 || c == 0))
        };
        let mut e = Ok(());
        each_row(by_other | by_self | by_both, |r| {
            let bit = 1 << r;
            let (s_w, s_l) = (ws & bit != 0, ls & bit != 0);
            // The other officer huffed leaves this one on `to`; this one
            // huffed leaves the other on `b`.
            let out = (|| {
                Ok::<_, SolveError>(if by_other & bit != 0 {
                    let (w_to, nl_to) = class(r, to)?;
                    (s_l && !nl_to, !s_w && !w_to)
                } else if by_self & bit != 0 {
                    let (w_b, nl_b) = class(r, b)?;
                    (s_l && !nl_b, !s_w && !w_b)
                } else {
                    let ((w_to, nl_to), (w_b, nl_b)) = (class(r, to)?, class(r, b)?);
                    (s_l && !nl_b && !nl_to, !s_w && !w_b && !w_to)
                })
            })();
            match out {
                Ok((w, nl)) => {
                    win |= Row::from(w) << r;
                    not_lost |= Row::from(nl) << r;
                }
                Err(x) => e = Err(x),
            }
        });
        e?;
    }
    Ok((win, not_lost))
}

/// The mirror image of point `p`.
#[inline]
fn mirror_point(p: usize) -> usize {
    board::Point::new(p).mirror().index()
}

/// Iterate the set bits of a row as ranks.
#[inline]
fn each_row(mut r: Row, mut f: impl FnMut(usize)) {
    while r != 0 {
        f(r.trailing_zeros() as usize);
        r &= r - 1;
    }
}

/// Row `{a, b}` of the officers-to-move half of `target` (tier `tk`, kept
/// as itself, `j2` fortress soldiers): its wins and losses for the side
/// to move, over `tk`'s arrangements. The pair's rank among the free
/// points depends on the arrangement only through the fortress soldiers
/// below each officer: one run of the arrangements per count.
fn read_row(
    target: &Target,
    tk: &TierKey,
    a: usize,
    b: usize,
    j2: usize,
) -> Result<(Row, Row), SolveError> {
    let pt = board::ALL & !tk.outside;
    let base_a = (pt & ((1u64 << a) - 1)).count_ones();
    let base_b = (pt & ((1u64 << b) - 1)).count_ones();
    let valid = all(j2) & !ARR.holds[j2][a] & !ARR.holds[j2][b];
    let m = fortress_masks(j2 as u32).len() as u32;
    let (first, ms, ps) = target.row_layout();
    let (mut w, mut l) = (0, 0);
    for (ca, &ra) in ARR.below[j2][a].iter().enumerate() {
        let ra = ra & valid;
        if ra == 0 {
            continue;
        }
        for (cb, &rb) in ARR.below[j2][b].iter().enumerate() {
            let rab = ra & rb;
            if rab == 0 {
                continue;
            }
            let (ia, ib) = (base_a - ca as u32, base_b - cb as u32);
            let rank = ia + ib * (ib - 1) / 2;
            let (mut rw, mut rl) = (0 as Row, 0 as Row);
            let mut c = 0;
            while c < m {
                let count = (m - c).min(32);
                let (cw, cl) = target.classes(first + rank * ps + c * ms, ms, count)?;
                rw |= Row::from(cw) << c;
                rl |= Row::from(cl) << c;
                c += count;
            }
            w |= rw & rab;
            l |= rl & rab;
        }
    }
    Ok((w, l))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Walks with a capture made by the rows' captures (forms), the
    /// arrangements they serve and their ends, counted for the profile
    /// harness.
    pub(crate) static CAPTURE_FORMS: [AtomicUsize; 3] = [
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    ];
    use crate::solve::check::tests::xorshift;
    use crate::solve::sample::{SyntheticStore, sample_tiers};

    /// Compress and expand against the bits counted one by one, whichever
    /// way the CPU takes.
    #[test]
    fn rows_compress_and_expand_bits_in_order() {
        let mut next = xorshift(0x1234_5678_9abc_def1);
        for _ in 0..500 {
            let (x, m) = (
                Row::from(next()) | Row::from(next()) << 64,
                Row::from(next() & next()) | Row::from(next() & next()) << 64,
            );
            let (mut c, mut i) = (0 as Row, 0);
            each_row(m, |r| {
                c |= (x >> r & 1) << i;
                i += 1;
            });
            assert_eq!(compress(x, m), c);
            let low = if i == 128 { !0 } else { (1 << i) - 1 };
            assert_eq!(expand(c, m), x & m);
            assert_eq!(compress(expand(x & low, m), m), x & low);
        }
    }

    /// The rows' codes against the bit-set solver's, tier by tier, on
    /// level samples of two-officer files against a synthetic store kept
    /// in index order and placement-major, for the four presets and two
    /// other switch combinations.
    #[test]
    fn rows_give_the_bit_set_solvers_codes() {
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
        for v in variants {
            for k in [10u8, 13, 17, 21] {
                let tiers = sample_tiers(crate::index::FileKey::new(2, k), 30_000, 7);
                let store = SyntheticStore::new(3, &v);
                let pm = SyntheticStore::new(3, &v).placement_major();
                for key in &tiers {
                    let want =
                        super::super::solve_tier_wdl(key, &mut Lookup::new(&store, v)).unwrap();
                    for s in [&store, &pm] {
                        let got = solve_tier_rows(key, &mut Lookup::new(s, v)).unwrap();
                        assert!(got == want, "{v:?} {key:?}");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod profile {
    use super::*;
    use crate::solve::sample::profile_sample;

    /// For profiles: the rows alone on the bit-set solver's level sample,
    /// against a placement-major synthetic store, values held to the
    /// bit-set solver's.
    #[test]
    #[ignore]
    fn rows_on_a_level_sample() {
        let (variant, tiers, store) = profile_sample();
        let store = store.placement_major();
        let look = || Lookup::new(&store, variant);
        for k in &tiers {
            solve_tier_rows(k, &mut look()).unwrap();
        }
        let t = std::time::Instant::now();
        let mut positions = 0;
        let mut last = Vec::new();
        for _ in 0..crate::solve::sample::profile_passes(10) {
            last = tiers
                .iter()
                .map(|k| {
                    positions += k.size();
                    solve_tier_rows(k, &mut look()).unwrap()
                })
                .collect();
        }
        eprintln!(
            "{:.3e} positions/s",
            positions as f64 / t.elapsed().as_secs_f64()
        );
        let [f, a, e] = super::tests::CAPTURE_FORMS
            .each_ref()
            .map(|x| x.load(std::sync::atomic::Ordering::Relaxed));
        eprintln!(
            "capture walks (forms) {f}, arrangements served {a} ({:.2} a walk), ends {e} ({:.2} a walk), warm-up and passes",
            a as f64 / f as f64,
            e as f64 / f as f64
        );
        for (k, rows) in tiers.iter().zip(&last) {
            if std::env::var("ROWS_SKIP").is_err() {
                assert!(super::super::solve_tier_wdl(k, &mut look()).unwrap() == *rows);
            }
        }
    }
}
