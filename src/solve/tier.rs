//! Solving one tier by retrograde analysis.
//!
//! Nodes: the tier's officers-to-move positions `[0, N)`, its
//! soldiers-to-move positions `[N, 2N)`, and *huff nodes* `[2N, ..)`: a
//! soldiers-to-move position with huff rights `H`, created for each officer
//! step inside the tier that is a fault. A huff node has the in-tier moves of
//! the same position without rights, plus one exit per huffable officer
//! whose value is read from the one-officer tier (or is a win in 1 when it
//! removes the last officer). Huff nodes are solved with the rest and then
//! dropped: stored tables hold positions without huff rights, and
//! [`super::Lookup::value`] folds huff rights back in.
//!
//! Every move that leaves the tier (soldier steps outside the fortress or
//! into it, captures, huffs) is an *exit* whose value is already known; the
//! best exit of each node is computed up front. Moves inside the tier are
//! edges; their reverse is built explicitly (CSR). Then nodes are resolved
//! in increasing distance with a bucket queue: a node is a win in `d + 1` as
//! soon as one child is a loss in `d` (or earlier via an exit), and a loss
//! in `max(exit, last child + 1)` when all in-tier children are wins and no
//! exit draws or wins. Nodes never resolved are draws. This gives exact
//! distances: the winner's shortest and the loser's longest.

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

/// Solve tier `key`, reading exits through `look`. Returns the value codes
/// of the tier's `2N` positions (officers to move first).
pub fn solve_tier(key: &TierKey, look: &mut Lookup<'_>) -> Result<Vec<u16>, SolveError> {
    let g = build_graph(key, look)?;
    let values = g.retrograde();
    Ok(values[..g.stored].iter().map(|v| v.code()).collect())
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

    /// Solve every node.
    fn retrograde(&self) -> Vec<Value> {
        let n = self.start.len();
        // Reverse edges.
        let mut rstart = vec![0u32; n + 1];
        for node in 0..n {
            let s = self.start[node] as usize;
            for &c in &self.children[s..s + self.len[node] as usize] {
                rstart[c as usize + 1] += 1;
            }
        }
        for i in 0..n {
            rstart[i + 1] += rstart[i];
        }
        let mut fill = rstart.clone();
        let mut parents = vec![0u32; rstart[n] as usize];
        for node in 0..n {
            let s = self.start[node] as usize;
            for &c in &self.children[s..s + self.len[node] as usize] {
                parents[fill[c as usize] as usize] = node as u32;
                fill[c as usize] += 1;
            }
        }

        let mut value: Vec<Option<Value>> = vec![None; n];
        let mut remaining: Vec<u32> = self.len.clone();
        // A win through an in-tier child was queued (the first is the
        // shortest); exit wins are queued separately, up front.
        let mut win_queued = vec![false; n];
        let mut buckets: Vec<Vec<(u32, Value)>> = Vec::new();
        fn push(buckets: &mut Vec<Vec<(u32, Value)>>, node: usize, v: Value) {
            let d = v.plies() as usize;
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push((node as u32, v));
        }
        for node in 0..n {
            let exit = self.exit[node];
            if self.len[node] == 0 {
                let v = exit.unwrap_or_else(|| self.stuck(node));
                if v != Value::Draw {
                    push(&mut buckets, node, v);
                }
            } else if let Some(v @ Value::Win(_)) = exit {
                push(&mut buckets, node, v);
            }
        }
        let mut d = 0;
        while d < buckets.len() {
            let mut i = 0;
            while i < buckets[d].len() {
                let (node, v) = buckets[d][i];
                i += 1;
                let node = node as usize;
                if value[node].is_some() {
                    continue;
                }
                value[node] = Some(v);
                for &p in &parents[rstart[node] as usize..rstart[node + 1] as usize] {
                    let p = p as usize;
                    if value[p].is_some() {
                        continue;
                    }
                    match v {
                        Value::Loss(_) => {
                            if !win_queued[p] {
                                win_queued[p] = true;
                                push(&mut buckets, p, v.back());
                            }
                        }
                        Value::Win(_) => {
                            remaining[p] -= 1;
                            if remaining[p] == 0 && !win_queued[p] {
                                match self.exit[p] {
                                    Some(Value::Draw) | Some(Value::Win(_)) => {}
                                    Some(e @ Value::Loss(_)) => {
                                        push(&mut buckets, p, e.best(v.back()))
                                    }
                                    None => push(&mut buckets, p, v.back()),
                                }
                            }
                        }
                        Value::Draw => unreachable!("draws are never queued"),
                    }
                }
            }
            d += 1;
        }
        value
            .into_iter()
            .map(|v| v.unwrap_or(Value::Draw))
            .collect()
    }
}
