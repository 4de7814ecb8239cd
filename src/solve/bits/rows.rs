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
//! Captures, the capture duty and the huffs' one-officer values are still
//! found slice by slice by the bit-set solver's own code and turned into
//! rows; the soldiers' exits, the fixed point and the value codes are the
//! rows'. Held to [`super::solve_tier_wdl`] field for field; not yet used
//! by builds.

#![cfg_attr(not(test), allow(dead_code))]

use super::{Duty, Mat, SLICES, Solve, code_o, code_s, codes_by, each};
use crate::board::{self, ADJACENT, Bitboard, FORTRESS, OUTSIDE};
use crate::index::{TierKey, fortress_bits, fortress_mask, fortress_masks};
use crate::position::Side;
use crate::rules::Variant;
use crate::solve::SolveError;
use crate::solve::lookup::Lookup;
use crate::solve::retro::Target;
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
    win: Vec<Row>,
    loss: Vec<Row>,
}

impl RowsTier {
    /// The rows of tier `key` from its value codes in index order.
    pub(crate) fn from_codes(key: &TierKey, codes: &[u16]) -> RowsTier {
        let pt = board::ALL & !key.outside;
        let np = pt.count_ones() as usize;
        let mut out = RowsTier {
            win: vec![0; np * (np - 1) / 2],
            loss: vec![0; np * (np - 1) / 2],
        };
        let mut i = 0;
        let mut pts = [0usize; N];
        for (r, &m) in fortress_masks(key.m()).iter().enumerate() {
            let free = pt & !fortress_bits(m);
            let mut n = 0;
            each(free, |q| {
                pts[n] = q;
                n += 1;
            });
            for jb in 1..n {
                for ja in 0..jb {
                    let id = pair_id(pt, pts[ja], pts[jb]);
                    let c = codes[i];
                    out.win[id] |= Row::from(c & 1 == 1) << r;
                    out.loss[id] |= Row::from(c != 0 && c & 1 == 0) << r;
                    i += 1;
                }
            }
        }
        out
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
    // Captures and huffs, slice by slice, as the bit-set solver finds them.
    let sl = SLICES.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let mut s = Solve {
        key: *key,
        variant: &variant,
        duty,
        sl,
    };
    s.layout();
    s.officer_exits(look)?;
    if duty == Duty::Huff {
        s.huffs(look)?;
    }
    let mut rs = ROWS.with(|c| std::mem::take(&mut *c.borrow_mut()));
    let mut t = Tier {
        key: *key,
        variant: &variant,
        duty,
        j: key.m() as usize,
        rs: &mut rs,
    };
    t.layout(&s);
    SLICES.with(|c| *c.borrow_mut() = s.sl);
    let r = t.soldier_exits(look).map(|()| {
        t.fixed_point();
        t.codes()
    });
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
    /// The pairs, the placements, and the capture sets turned from the
    /// bit-set solver's slices into rows.
    #[inline(never)]
    fn layout(&mut self, s: &Solve<'_>) {
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
        let sl = &s.sl;
        let id = &rs.id;
        // Each row's findings hold both ways: row a alone.
        let turn = |mats: &[Mat], out: &mut Set| {
            for (fi, m) in mats.iter().enumerate() {
                each(sl.free[fi], |a| {
                    each(m[a] & ((1u64 << a) - 1), |b| {
                        out[id[a * N + b] as usize] |= 1 << fi
                    });
                });
            }
        };
        turn(&sl.ew_o, &mut rs.ew_o);
        turn(&sl.enl_o, &mut rs.enl_o);
        turn(&sl.stuck_o, &mut rs.stuck_o);
        for (fi, m) in sl.cap.iter().enumerate() {
            each(sl.free[fi], |a| {
                each(m[a], |b| {
                    rs.cap[2 * id[a * N + b] as usize + usize::from(a > b)] |= 1 << fi;
                });
            });
        }
        for set in [&mut rs.keep_l, &mut rs.keep_w] {
            set.clear();
            set.resize(N, !0);
        }
        if self.duty == Duty::Huff {
            for fi in 0..sl.masks.len() {
                each(sl.nl1[fi], |y| rs.keep_l[y] &= !(1 << fi));
                each(sl.w1[fi], |y| rs.keep_w[y] &= !(1 << fi));
            }
        }
        // Soldiers with a fortress step have a move.
        let steps = &step_tables(self.variant.soldier_moves())[self.j];
        for i in 0..n {
            let v = rs.v[i];
            rs.move_s[i] = steps.before(v) & v;
        }
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
                    let (a2, b2) = match flip {
                        true => {
                            let (x, y) = (mirror_point(a), mirror_point(b));
                            (x.min(y), x.max(y))
                        }
                        false => (a, b),
                    };
                    let id = pair_id(pt, a2, b2);
                    let (w, l) = (rows.win[id], rows.loss[id]);
                    let (w, l) = match flip {
                        true => (mirror_row(j2, w), mirror_row(j2, l)),
                        false => (w, l),
                    };
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
mod tests {
    use super::*;
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
        for (k, rows) in tiers.iter().zip(&last) {
            if std::env::var("ROWS_SKIP").is_err() {
                assert!(super::super::solve_tier_wdl(k, &mut look()).unwrap() == *rows);
            }
        }
    }
}
