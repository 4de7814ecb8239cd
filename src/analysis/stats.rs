//! Win / draw / loss counts and longest wins of one table, read tier by
//! tier ([`table_stats`]), and the sizes of complete tables in closed form.
//!
//! Tiers are read in the order they lie in the file (the solving order,
//! `(P(S), S)`), split into runs handed to rayon, so each thread decodes
//! neighbouring blocks and the reader's block cache is reused. Positions
//! are classified from their index alone (side to move: first or second
//! half; officers: the officer rank), without building positions.

use super::AnalysisError;
use crate::board::{self, Bitboard};
use crate::index::{self, FileKey, TierKey, binom};
use crate::progress::{Observer, Progress};
use crate::solve::{TierValues, code_class};
use crate::table::Table;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of won, drawn and lost positions (for the side to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WdlCounts {
    /// Won by the side to move.
    pub win: u64,
    /// Drawn.
    pub draw: u64,
    /// Lost by the side to move.
    pub loss: u64,
}

impl From<[u64; 3]> for WdlCounts {
    /// Wins, draws and losses of the side to move, in that order.
    fn from([win, draw, loss]: [u64; 3]) -> WdlCounts {
        WdlCounts { win, draw, loss }
    }
}

impl WdlCounts {
    /// All positions counted.
    pub(crate) fn total(&self) -> u64 {
        self.win + self.draw + self.loss
    }

    /// Win, draw and loss in percent of the total (zeros when empty).
    pub(crate) fn percent(&self) -> [f64; 3] {
        let t = self.total();
        if t == 0 {
            return [0.0; 3];
        }
        let p = |x: u64| 100.0 * x as f64 / t as f64;
        [p(self.win), p(self.draw), p(self.loss)]
    }

    fn add(&mut self, o: &WdlCounts) {
        self.win += o.win;
        self.draw += o.draw;
        self.loss += o.loss;
    }
}

/// A position reaching an extreme distance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// Distance to the end in plies.
    pub plies: u16,
    /// The position in notation (docs/RULES.md section 9), as stored (the
    /// canonical one of it and its mirror image).
    pub position: String,
}

/// Statistics of one population of positions (e.g. "two officers,
/// soldiers to move").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Population {
    /// Positions stored, after the mirror.
    pub stored: WdlCounts,
    /// Positions with mirror images counted (see the module docs of
    /// [`crate::analysis`]).
    pub positions: WdlCounts,
    /// Percentage of `positions` won by the side to move.
    pub win_percent: f64,
    /// Percentage of `positions` drawn.
    pub(crate) draw_percent: f64,
    /// Percentage of `positions` lost by the side to move.
    pub(crate) loss_percent: f64,
    /// The longest win of the side to move and a position with it (the
    /// first in tier order, then index order, among those with the most
    /// plies).
    pub longest_win: Option<Example>,
    /// The longest loss of the side to move and a position with it.
    pub longest_loss: Option<Example>,
}

/// Statistics of one table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableStats {
    /// The variant (preset name or switch list).
    pub(crate) variant: String,
    /// Officers.
    pub(crate) n: u8,
    /// Soldiers.
    pub(crate) k: u8,
    /// The file read.
    pub(crate) file: String,
    /// Whether the table holds every tier (not a partial table).
    pub complete: bool,
    /// Tiers stored.
    pub(crate) tiers: u64,
    /// Tiers a complete table stores.
    pub(crate) tiers_complete: u64,
    /// Positions stored (both sides to move).
    pub positions_stored: u64,
    /// Positions a complete table stores.
    pub(crate) positions_complete: u64,
    /// Whether the table was built without distances (`build
    /// --wdl-only`): then no longest win or loss is known. (Absent from
    /// the report.json of versions before WDL-only tables: false.)
    #[serde(default)]
    pub wdl_only: bool,
    /// Every stored position with the officers to move.
    pub officers_to_move: Population,
    /// Every stored position with the soldiers to move.
    pub soldiers_to_move: Population,
    /// Natural positions (two officers inside the fortress, soldiers to
    /// move); `None` for one-officer tables.
    pub natural: Option<Population>,
}

pub(crate) use crate::index::{complete_positions, complete_tiers};

/// How many positions each stored position of tier `key` stands for: 2
/// unless the tier is its own mirror image.
pub(crate) fn mirror_weight(key: &TierKey) -> u64 {
    if board::mirror_bb(key.outside) == key.outside {
        1
    } else {
        2
    }
}

/// Indices, within one side's half of tier `key`, of the positions whose
/// two officers both stand inside the fortress.
pub(crate) fn natural_indices(key: &TierKey, masks: &[u16]) -> Vec<u32> {
    let mut out = Vec::new();
    if key.n != 2 {
        return out;
    }
    let placements = key.officer_placements();
    for (f, &mask) in masks.iter().enumerate() {
        let soldiers: Bitboard = key.outside | index::fortress_bits(mask);
        // Ranks among the free points (board order) of the free fortress points.
        let inside: Vec<u32> = board::points(board::ALL & !soldiers)
            .enumerate()
            .filter(|(_, p)| p.in_fortress())
            .map(|(i, _)| i as u32)
            .collect();
        for (bi, &b) in inside.iter().enumerate() {
            for &a in &inside[..bi] {
                out.push(f as u32 * placements + binom(b as usize, 2) + a);
            }
        }
    }
    out
}

/// The longest distance seen and where: `(plies, outside, index)`, the
/// smallest `(outside, index)` among the longest.
#[derive(Clone, Copy, Debug, Default)]
struct Best(Option<(u16, u64, u32)>);

impl Best {
    fn see(&mut self, plies: u16, outside: u64, index: u32) {
        let better = match self.0 {
            None => true,
            Some((p, o, i)) => plies > p || (plies == p && (outside, index) < (o, i)),
        };
        if better {
            self.0 = Some((plies, outside, index));
        }
    }

    fn merge(&mut self, o: &Best) {
        if let Some((p, out, i)) = o.0 {
            self.see(p, out, i);
        }
    }
}

/// Running totals of one population.
#[derive(Clone, Copy, Debug, Default)]
struct PopAcc {
    stored: WdlCounts,
    positions: WdlCounts,
    win: Best,
    loss: Best,
}

impl PopAcc {
    fn merge(&mut self, o: &PopAcc) {
        self.stored.add(&o.stored);
        self.positions.add(&o.positions);
        self.win.merge(&o.win);
        self.loss.merge(&o.loss);
    }

    /// Count the codes at `indices` (relative to `base`) of a tier.
    fn tally(
        &mut self,
        key: &TierKey,
        codes: &[u16],
        base: u32,
        indices: impl Iterator<Item = u32>,
    ) {
        let mut c = WdlCounts::default();
        // (plies, index) of the longest win and loss; the first index wins ties.
        let mut win: Option<(u16, u32)> = None;
        let mut loss: Option<(u16, u32)> = None;
        for i in indices {
            let code = codes[(base + i) as usize];
            if code == 0 {
                c.draw += 1;
            } else if code & 1 == 1 {
                c.win += 1;
                let d = code >> 1;
                if win.is_none_or(|(p, _)| d > p) {
                    win = Some((d, base + i));
                }
            } else {
                c.loss += 1;
                let d = (code >> 1) - 1;
                if loss.is_none_or(|(p, _)| d > p) {
                    loss = Some((d, base + i));
                }
            }
        }
        self.count(key, &c);
        if let Some((p, i)) = win {
            self.win.see(p, key.outside, i);
        }
        if let Some((p, i)) = loss {
            self.loss.see(p, key.outside, i);
        }
    }

    /// Add `c`, positions of tier `key` counted (with no distances).
    fn count(&mut self, key: &TierKey, c: &WdlCounts) {
        let w = mirror_weight(key);
        self.stored.add(c);
        self.positions.add(&WdlCounts {
            win: c.win * w,
            draw: c.draw * w,
            loss: c.loss * w,
        });
    }

    fn finish(&self, file: FileKey) -> Population {
        let [w, d, l] = self.positions.percent();
        let example = |b: &Best| {
            b.0.map(|(plies, outside, index)| Example {
                plies,
                position: index::position_at(&file.tier(outside), index).to_string(),
            })
        };
        Population {
            stored: self.stored,
            positions: self.positions,
            win_percent: w,
            draw_percent: d,
            loss_percent: l,
            longest_win: example(&self.win),
            longest_loss: example(&self.loss),
        }
    }
}

/// Totals of a table: officers to move, soldiers to move, natural.
#[derive(Clone, Copy, Debug, Default)]
struct Acc([PopAcc; 3]);

impl Acc {
    fn merge(mut self, o: Acc) -> Acc {
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            a.merge(b);
        }
        self
    }
}

/// Tiers per unit of parallel work: enough units to balance the threads
/// and report progress, each a run of neighbouring tiers.
pub(crate) fn chunk_len(tiers: usize) -> usize {
    let units = rayon::current_num_threads().max(1) * 32;
    tiers.div_ceil(units).max(1)
}

/// Count every position of a table (in the current rayon pool).
pub fn table_stats(table: &Table, progress: &dyn Observer) -> Result<TableStats, AnalysisError> {
    let info = table.info().clone();
    let FileKey { n, k } = info.file;
    // In the order they lie in the file: neighbouring tiers share blocks.
    let keys = table.tiers_in_stream_order()?;
    let masks: Vec<&[u16]> = (0..=9).map(index::fortress_masks).collect();
    let what = format!("{} {}: counting", info.variant, FileKey::new(n, k));
    let done = AtomicU64::new(0);
    progress.progress(&Progress {
        step: &what,
        done: 0,
        total: info.positions,
        ..Progress::default()
    });
    let acc = keys
        .par_chunks(chunk_len(keys.len()))
        .map(|chunk| -> Result<Acc, AnalysisError> {
            let mut acc = Acc::default();
            let mut positions = 0;
            for key in chunk {
                let unreadable = || AnalysisError::Unreadable {
                    path: table.path().to_path_buf(),
                    outside: key.outside,
                };
                let per = key.size_per_side();
                if info.wdl_only {
                    // No distances to look at: each side's counts from
                    // its run of packed fields, the natural positions
                    // one by one.
                    let fields = table.tier_wdl(key)?.ok_or_else(unreadable)?;
                    acc.0[0].count(key, &fields.side_counts(0).into());
                    acc.0[1].count(key, &fields.side_counts(1).into());
                    if n == 2 {
                        let values = TierValues::Wdl(fields);
                        let mut c = [0u64; 3];
                        for i in natural_indices(key, masks[key.m() as usize]) {
                            c[code_class(values.code(per + i).ok_or_else(unreadable)?)] += 1;
                        }
                        acc.0[2].count(key, &c.into());
                    }
                    positions += key.size();
                    continue;
                }
                let codes = table.tier(key)?.ok_or_else(unreadable)?;
                acc.0[0].tally(key, &codes, 0, 0..per);
                acc.0[1].tally(key, &codes, per, 0..per);
                if n == 2 {
                    let nat = natural_indices(key, masks[key.m() as usize]);
                    acc.0[2].tally(key, &codes, per, nat.into_iter());
                }
                positions += key.size();
            }
            let d = done.fetch_add(positions, Ordering::Relaxed) + positions;
            progress.progress(&Progress {
                step: &what,
                done: d,
                total: info.positions,
                ..Progress::default()
            });
            Ok(acc)
        })
        .try_reduce(Acc::default, |a, b| Ok(a.merge(b)))?;
    let tiers_complete = complete_tiers(k);
    // A WDL-only table knows no distances: no longest wins.
    let finish = |a: &PopAcc| {
        let mut p = a.finish(info.file());
        if info.wdl_only {
            p.longest_win = None;
            p.longest_loss = None;
        }
        p
    };
    Ok(TableStats {
        variant: info.variant.to_string(),
        n,
        k,
        file: table.path().display().to_string(),
        complete: info.tiers == tiers_complete,
        tiers: info.tiers,
        tiers_complete,
        positions_stored: info.positions,
        positions_complete: complete_positions(FileKey::new(n, k)),
        wdl_only: info.wdl_only,
        officers_to_move: finish(&acc.0[0]),
        soldiers_to_move: finish(&acc.0[1]),
        natural: (n == 2).then(|| finish(&acc.0[2])),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::canonical_sets;
    use crate::position::Side;

    #[test]
    fn complete_sizes_match_a_direct_count() {
        // Every subset of the 24 outside points, by size, canonical only.
        let outside: Vec<u64> = board::points(board::OUTSIDE).map(|p| p.bit()).collect();
        let mut canon = [0u64; 25];
        for bits in 0u32..(1 << 24) {
            let mut s = 0u64;
            let mut b = bits;
            while b != 0 {
                s |= outside[b.trailing_zeros() as usize];
                b &= b - 1;
            }
            if s <= board::mirror_bb(s) {
                canon[bits.count_ones() as usize] += 1;
            }
        }
        for (s, &c) in canon.iter().enumerate() {
            assert_eq!(canonical_sets(s as u32), c, "s = {s}");
        }
        // docs/DESIGN.md section 3: about 2.6 M tiers and 1.06e10
        // positions per side with 9 soldiers before the mirror; a complete
        // assaut 1o9s table stores 1,291,437 tiers.
        let before: u64 = (1..=9).map(|s| binom(24, s) as u64).sum();
        assert!((2_500_000..2_700_000).contains(&before));
        assert_eq!(complete_tiers(9), 1_291_437);
        let per_side: u64 = (1..=9u32)
            .map(|s| binom(24, s as usize) as u64 * binom(9, 9 - s as usize) as u64 * 276)
            .sum();
        assert_eq!(per_side, (38_567_100 - 1) * 276);
        assert!(
            complete_positions(FileKey::new(2, 9)) > per_side
                && complete_positions(FileKey::new(2, 9)) < 2 * per_side
        );
    }

    #[test]
    fn natural_indices_are_the_officers_inside() {
        let s = |names: &[&str]| {
            names
                .iter()
                .map(|n| crate::Point::from_name(n).unwrap().bit())
                .fold(0, |a, b| a | b)
        };
        let key = TierKey {
            n: 2,
            k: 10,
            outside: s(&["a3", "b4", "c4", "d1", "g5", "d3", "e3", "f3"]),
        };
        let masks = index::fortress_masks(key.m());
        let nat: std::collections::HashSet<u32> =
            natural_indices(&key, masks).into_iter().collect();
        let per = key.size_per_side();
        let mut count = 0;
        for i in 0..per {
            let p = index::position_at(&key, per + i);
            assert_eq!(p.side(), Side::Soldiers);
            let inside = p.officers() & !board::FORTRESS == 0;
            assert_eq!(nat.contains(&i), inside, "{p}");
            count += inside as usize;
        }
        assert_eq!(count, nat.len());
        assert!(count > 0);
    }
}
