//! Checking a tier's stored values against an explicit move graph.
//!
//! [`check_tier`] builds the in-tier move graph of a tier from the rules'
//! own move generator ([`rules::for_each_officer_move`], with capture
//! paths), separately from the solver in [`super::retro`], and checks that
//! every value is the best over its moves of its successors' values. That
//! is what `asalto verify` runs, so a verified table does not rest on the
//! solver's un-move code.
//!
//! Nodes: the tier's officers-to-move positions `[0, N)`, its
//! soldiers-to-move positions `[N, 2N)`, and huff nodes `[2N, ..)` (a
//! soldiers-to-move position with huff rights, created for each officer
//! step inside the tier that is a fault), derived from the stored values.

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
pub fn check_tier(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
) -> Result<Vec<Inconsistency>, SolveError> {
    let g = build_graph(key, look)?;
    let n = g.start.len();
    let mut derived: Vec<Value> = vec![Value::Draw; n];
    let value_of = |node: usize, known: &[Value]| -> Value {
        let kids = &g.children[g.start[node] as usize..(g.start[node] + g.len[node]) as usize];
        if kids.is_empty() && g.exit[node].is_none() {
            return g.stuck(node);
        }
        let mut v = g.exit[node];
        for &c in kids {
            let c = c as usize;
            let cv = if c < g.stored {
                Value::from_code(codes[c])
            } else {
                known[c]
            };
            let b = cv.back();
            v = Some(v.map_or(b, |x| x.best(b)));
        }
        v.expect("a node with moves has a value")
    };
    // Huff nodes only have stored children: derive them first.
    for node in g.stored..n {
        derived[node] = value_of(node, &derived);
    }
    let mut bad = Vec::new();
    for (node, &code) in codes.iter().enumerate().take(g.stored) {
        let d = value_of(node, &derived);
        let stored = Value::from_code(code);
        if d != stored {
            bad.push(Inconsistency {
                index: node as u32,
                stored,
                derived: d,
            });
        }
    }
    Ok(bad)
}

/// The in-tier move graph of tier `key` with the best exit of every node.
fn build_graph(key: &TierKey, look: &mut Lookup<'_>) -> Result<Graph, SolveError> {
    let variant = *look.variant();
    let n_side = key.size_per_side() as usize;
    let placements = key.officer_placements() as usize;
    let masks = fortress_masks(key.m());
    let table = variant.soldier_moves();

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

    // Graph under construction.
    let mut g = Graph::with_nodes(2 * n_side);
    // Huff nodes: slot (soldiers-side node * 3 + offender code - 1) -> node id.
    let huffs = variant.capture == CaptureRule::Huff;
    let mut huff_slot: Vec<u32> = if huffs {
        vec![u32::MAX; 3 * n_side]
    } else {
        Vec::new()
    };
    // (soldiers-side node, offenders, soldiers, officers) of each huff node.
    let mut huff_list: Vec<(u32, Bitboard, Bitboard, Bitboard)> = Vec::new();

    // Soldiers to move.
    for (fi, &mask) in masks.iter().enumerate() {
        let fortress = fortress_bits(mask);
        let soldiers = key.outside | fortress;
        let free = board::ALL & !soldiers;
        for_each_officers(free, key.n, |oi, officers| {
            let node = n_side + fi * placements + oi;
            let empty = free & !officers;
            let mut exit: Option<Value> = None;
            g.begin(node);
            // Steps inside the fortress stay in the tier.
            for s in board::points(fortress) {
                for t in board::points(table[s.index()] & empty) {
                    let after = fortress & !s.bit() | t.bit();
                    let child = fortress_rank(fortress_mask(after)) as usize * placements
                        + officer_rank(officers, (free | s.bit()) & !t.bit()) as usize;
                    g.push_child(child as u32);
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
                exit = Some(exit.map_or(v, |e| e.best(v)));
            }
            g.end(node, exit);
            Ok(())
        })?;
    }

    // Officers to move.
    for (fi, &mask) in masks.iter().enumerate() {
        let soldiers = key.outside | fortress_bits(mask);
        let free = board::ALL & !soldiers;
        let soldiers_base = n_side + fi * placements;
        for_each_officers(free, key.n, |oi, officers| {
            let node = fi * placements + oi;
            let mut exit: Option<Value> = None;
            let mut err = None;
            g.begin(node);
            rules::for_each_officer_move(soldiers, officers, &variant, |path, taken, offenders| {
                let (from, to) = (path[0], path[path.len() - 1]);
                let after_officers = officers & !from.bit() | to.bit();
                if taken == 0 {
                    let child =
                        (soldiers_base + officer_rank(after_officers, free) as usize) as u32;
                    if offenders == 0 {
                        g.push_child(child);
                    } else {
                        // Offender code: 1 the lower officer, 2 the higher, 3 both.
                        let low = after_officers & after_officers.wrapping_neg();
                        let code =
                            (offenders & low != 0) as usize + 2 * (offenders & !low != 0) as usize;
                        let slot = (child as usize - n_side) * 3 + code - 1;
                        if huff_slot[slot] == u32::MAX {
                            huff_slot[slot] = (2 * n_side + huff_list.len()) as u32;
                            huff_list.push((child, offenders, soldiers, after_officers));
                        }
                        g.push_child(huff_slot[slot]);
                    }
                } else {
                    let pos = Position::from_parts_unchecked(
                        soldiers & !taken,
                        after_officers,
                        Side::Soldiers,
                        offenders,
                    );
                    match look.value(&pos) {
                        Ok(v) => {
                            let v = v.back();
                            exit = Some(exit.map_or(v, |e| e.best(v)));
                        }
                        Err(e) => err = Some(e),
                    }
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
            g.end(node, exit);
            Ok(())
        })?;
    }

    // Huff nodes: the moves of the position without rights, plus huffs.
    for (i, &(base, offenders, soldiers, officers)) in huff_list.iter().enumerate() {
        let node = 2 * n_side + i;
        let exit = match (
            g.exit_of(base as usize),
            look.huff_options(soldiers, officers, offenders)?,
        ) {
            (Some(e), Some(h)) => Some(e.best(h)),
            (e, h) => e.or(h),
        };
        g.copy_children(node, base as usize, exit);
    }

    g.stored = 2 * n_side;
    g.stuck_officers = stuck_value(Side::Officers, &variant);
    Ok(g)
}

/// The value for `side` to move with no legal move (RULES.md section 6).
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

/// The in-tier move graph with each node's best exit.
struct Graph {
    /// Start of each node's children in `children`.
    start: Vec<u32>,
    /// Number of children of each node.
    len: Vec<u32>,
    children: Vec<u32>,
    /// Best exit value (for the node's mover), `None` when it has none.
    exit: Vec<Option<Value>>,
    /// Nodes below this are stored positions (the rest are huff nodes).
    stored: usize,
    /// Value of officers to move without a move.
    stuck_officers: Value,
}

impl Graph {
    fn with_nodes(n: usize) -> Graph {
        Graph {
            start: vec![0; n],
            len: vec![0; n],
            children: Vec::with_capacity(n * 4),
            exit: vec![None; n],
            stored: n,
            stuck_officers: Value::WORST,
        }
    }

    /// The value of a node without any move: officers to move (nodes below
    /// N) by the `trapped` rule, soldiers always lose.
    fn stuck(&self, node: usize) -> Value {
        if node < self.stored / 2 {
            self.stuck_officers
        } else {
            Value::WORST
        }
    }

    fn ensure(&mut self, node: usize) {
        if node >= self.start.len() {
            self.start.resize(node + 1, 0);
            self.len.resize(node + 1, 0);
            self.exit.resize(node + 1, None);
        }
    }

    fn begin(&mut self, node: usize) {
        self.ensure(node);
        self.start[node] = self.children.len() as u32;
    }

    fn push_child(&mut self, child: u32) {
        self.children.push(child);
    }

    fn end(&mut self, node: usize, exit: Option<Value>) {
        self.len[node] = self.children.len() as u32 - self.start[node];
        self.exit[node] = exit;
    }

    fn exit_of(&self, node: usize) -> Option<Value> {
        self.exit[node]
    }

    /// Node `node` gets the children of `base` (shared, not copied).
    fn copy_children(&mut self, node: usize, base: usize, exit: Option<Value>) {
        self.ensure(node);
        self.start[node] = self.start[base];
        self.len[node] = self.len[base];
        self.exit[node] = exit;
    }
}
