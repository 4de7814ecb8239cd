//! Checking a tier's stored values against their successors.
//!
//! [`check_tier`] walks every position of a tier forward with the rules'
//! own move generator ([`rules::for_each_officer_end_given`]), separately
//! from the solver in [`super::retro`] (which works backwards with
//! un-moves), and checks that every value is the best over
//! its moves of its successors' values. That is what `asalto verify` runs,
//! so a verified table does not rest on the solver's un-move code.
//!
//! Captures come from [`rules::capture_ends`] (tested against the
//! path-building generator), each free point's computed once per fortress
//! mask and reused while the other officer stands off the points it lands
//! on.
//!
//! Positions: the tier's officers-to-move positions `[0, N)` and its
//! soldiers-to-move positions `[N, 2N)`. Huff nodes (soldiers to move with
//! huff rights after an officer fault inside the tier) are not stored;
//! their values are derived from the stored ones.

use super::SolveError;
use super::lookup::Lookup;
use crate::Value;
use crate::board::{self, Bitboard, Point};
use crate::index::{
    FORT_MIRROR, TierKey, binom, fortress_bits, fortress_mask, fortress_masks, fortress_rank,
    officer_rank,
};
use crate::position::{Position, Side};
use crate::rules::{self, CaptureRule};
use std::sync::Arc;

/// Where a soldier step out of the tier (from an outside point) leads.
enum Target {
    /// The step fills the fortress: the soldiers win at once.
    Fill,
    /// A position of another tier, officers to move.
    Tier {
        /// Soldiers outside in the stored (canonical) tier.
        outside: Bitboard,
        /// Whether the stored tier is the mirror image.
        mirrored: bool,
        /// The stored tier's values.
        codes: Arc<[u16]>,
    },
}

/// A soldier step from an outside point to `t`, with its target tier.
struct ExitStep {
    t: Bitboard,
    target: Target,
}

/// An inconsistent stored value found by [`check_tier`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistency {
    /// Index of the position in its tier.
    pub index: u32,
    /// The value stored.
    pub stored: Value,
    /// The best value over the position's moves, from the stored values of
    /// its successors (or the value of a position without moves).
    pub derived: Value,
}

/// Check the stored `codes` of tier `key` against its successors: every
/// value must equal the best over its moves of the successors' values
/// (in-tier successors read from `codes`, the others through `look`), and a
/// position without moves must have the value the rules give it. A
/// labelling that passes is the exact solution (by induction on the
/// distance). Returns the positions that fail, in index order.
///
/// A huff node (soldiers to move with huff rights, reached by an officer
/// fault inside the tier) has the moves of its base position plus its
/// huffs, so its value is the best of the base's *derived* value and the
/// huff options. The base is itself checked, so where every stored value
/// passes, its stored value is its derived value and is used instead.
pub fn check_tier(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
) -> Result<Vec<Inconsistency>, SolveError> {
    let variant = *look.variant();
    let n_side = key.size_per_side() as usize;
    assert_eq!(codes.len(), 2 * n_side, "codes of the whole tier");
    let placements = key.officer_placements() as usize;
    let masks = fortress_masks(key.m());
    let table = variant.soldier_moves();
    let stuck_officers = stuck_value(Side::Officers, &variant);
    let mut bad = Vec::new();
    let mut report = |node: usize, derived: Option<Value>, stuck: Value| {
        let derived = derived.unwrap_or(stuck);
        let stored = Value::from_code(codes[node]);
        if derived != stored {
            bad.push(Inconsistency {
                index: node as u32,
                stored,
                derived,
            });
        }
    };
    let better = |acc: &mut Option<Value>, v: Value| {
        *acc = Some(acc.map_or(v, |a| a.best(v)));
    };

    // The soldier steps leaving the tier, each with its target tier.
    let mut steps_out: Vec<ExitStep> = Vec::new();
    for s in board::points(key.outside) {
        for t in board::points(table[s.index()] & !key.outside) {
            let outside = key.outside & !s.bit() | (t.bit() & board::OUTSIDE);
            let target = TierKey { outside, ..*key };
            let target = if target.m() == 9 {
                Target::Fill
            } else {
                let canonical = target.canonical();
                Target::Tier {
                    outside: canonical.outside,
                    mirrored: canonical != target,
                    codes: look.tier_codes(&canonical)?,
                }
            };
            steps_out.push(ExitStep { t: t.bit(), target });
        }
    }

    // Soldiers to move.
    for (fi, &mask) in masks.iter().enumerate() {
        let fortress = fortress_bits(mask);
        let soldiers = key.outside | fortress;
        let free = board::ALL & !soldiers;
        for_each_officers(free, key.n, |oi, officers| {
            let node = n_side + fi * placements + oi;
            let empty = free & !officers;
            let mut best: Option<Value> = None;
            // Steps inside the fortress stay in the tier.
            for s in board::points(fortress) {
                for t in board::points(table[s.index()] & empty) {
                    let after = fortress & !s.bit() | t.bit();
                    // Officers to move next: a node of the first half.
                    let child = fortress_rank(fortress_mask(after)) as usize * placements
                        + officer_rank(officers, (free | s.bit()) & !t.bit()) as usize;
                    better(&mut best, Value::from_code(codes[child]).back());
                }
            }
            // Steps from outside leave it.
            for step in &steps_out {
                if step.t & empty == 0 {
                    continue;
                }
                let v = match &step.target {
                    Target::Fill => Value::Win(1),
                    Target::Tier {
                        outside,
                        mirrored,
                        codes,
                    } => {
                        let mut fmask = fortress_mask(fortress | step.t);
                        let mut off = officers;
                        if *mirrored {
                            fmask = FORT_MIRROR[fmask as usize];
                            off = board::mirror_bb(off);
                        }
                        let free_after = board::ALL & !(outside | fortress_bits(fmask));
                        let i = fortress_rank(fmask) as usize * placements
                            + officer_rank(off, free_after) as usize;
                        Value::from_code(codes[i]).back()
                    }
                };
                better(&mut best, v);
            }
            report(node, best, Value::WORST);
            Ok(())
        })?;
    }

    // Officers to move. Huff node values, memoised by (soldiers-side node,
    // offender code 1..=3): `u16::MAX` when not yet derived.
    let huffs = variant.capture == CaptureRule::Huff;
    let mut huff_code: Vec<u16> = if huffs {
        vec![u16::MAX; 3 * n_side]
    } else {
        Vec::new()
    };
    // Each free point's captures with no other officer on the board, and
    // the points landed on: the same for any other officer standing off
    // them ([`rules::capture_ends`]), so computed once per fortress mask.
    let mut alone_ends: Vec<(u8, Bitboard)> = Vec::new();
    let mut alone = [(0usize, 0usize, 0u32, 0 as Bitboard); board::NUM_POINTS];
    // Captures recomputed with the other officer in the way.
    let mut own: [Vec<(u8, Bitboard)>; 2] = [Vec::new(), Vec::new()];
    for (fi, &mask) in masks.iter().enumerate() {
        let soldiers = key.outside | fortress_bits(mask);
        let free = board::ALL & !soldiers;
        let soldiers_base = n_side + fi * placements;
        alone_ends.clear();
        for p in board::points(free) {
            let start = alone_ends.len();
            let mut landed = 0;
            let most = rules::capture_ends(p, soldiers, soldiers, &mut alone_ends, &mut landed);
            alone[p.index()] = (start, alone_ends.len(), most, landed);
        }
        for_each_officers(free, key.n, |oi, officers| {
            let node = fi * placements + oi;
            let mut best: Option<Value> = None;
            let mut err = None;
            let mut pts = [Point::new(0); 2];
            let mut own_most = [0u32; 2];
            let mut count = 0;
            for o in board::points(officers) {
                let other = officers & !o.bit();
                if alone[o.index()].3 & other != 0 {
                    own[count].clear();
                    let mut landed = 0;
                    own_most[count] = rules::capture_ends(
                        o,
                        soldiers,
                        soldiers | other,
                        &mut own[count],
                        &mut landed,
                    );
                }
                pts[count] = o;
                count += 1;
            }
            let caps: [rules::OfficerCaptures<'_>; 2] = std::array::from_fn(|i| {
                let o = pts[i];
                let (start, end, most, landed) = alone[o.index()];
                if i >= count {
                    (o, &[][..], 0)
                } else if landed & officers & !o.bit() != 0 {
                    (o, &own[i][..], own_most[i])
                } else {
                    (o, &alone_ends[start..end], most)
                }
            });
            rules::for_each_officer_end_given(
                soldiers,
                officers,
                &variant,
                &caps[..count],
                |from, to, taken, offenders| {
                    let after_officers = officers & !from.bit() | to.bit();
                    let v = if taken == 0 {
                        let child = soldiers_base + officer_rank(after_officers, free) as usize;
                        if offenders == 0 {
                            Value::from_code(codes[child])
                        } else {
                            // Offender code: 1 the lower officer, 2 the higher, 3 both.
                            let low = after_officers & after_officers.wrapping_neg();
                            let code = (offenders & low != 0) as usize
                                + 2 * (offenders & !low != 0) as usize;
                            let slot = (child - n_side) * 3 + code - 1;
                            if huff_code[slot] == u16::MAX {
                                let base = Value::from_code(codes[child]);
                                let v = match look.huff_options(soldiers, after_officers, offenders)
                                {
                                    Ok(h) => h.map_or(base, |h| base.best(h)),
                                    Err(e) => {
                                        err = Some(e);
                                        base
                                    }
                                };
                                huff_code[slot] = v.code();
                            }
                            Value::from_code(huff_code[slot])
                        }
                    } else {
                        let pos = Position::from_parts_unchecked(
                            soldiers & !taken,
                            after_officers,
                            Side::Soldiers,
                            offenders,
                        );
                        match look.value(&pos) {
                            Ok(v) => v,
                            Err(e) => {
                                err = Some(e);
                                Value::Draw
                            }
                        }
                    };
                    better(&mut best, v.back());
                },
            );
            if let Some(e) = err {
                return Err(e);
            }
            report(node, best, stuck_officers);
            Ok(())
        })?;
    }
    bad.sort_by_key(|b| b.index);
    Ok(bad)
}

/// The value for `side` to move with no legal move (docs/RULES.md section 6).
pub fn stuck_value(side: Side, variant: &crate::Variant) -> Value {
    if rules::stuck_winner(side, variant) == side {
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
