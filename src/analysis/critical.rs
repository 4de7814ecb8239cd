//! Critical mass: how many soldiers, taken from the start position, the
//! soldiers need to win against the officers' best placement.
//!
//! The formation of `k` soldiers is a fixed rule ([`FORMATION_RULE`],
//! [`formation`]): the `k` outside points nearest the fortress. With 24 it
//! is the start position.
//!
//! ```
//! use asalto_tb::analysis::formation;
//! use asalto_tb::{Position, board};
//! assert_eq!(formation(24), board::OUTSIDE);
//! let names: Vec<&str> = board::points(formation(9)).map(|p| p.name()).collect();
//! assert_eq!(names, ["b4", "c4", "d4", "e4", "f4", "a5", "b5", "f5", "g5"]);
//! ```

use super::AnalysisError;
use crate::board::{self, Bitboard, FORTRESS, Point};
use crate::index::{FileKey, TierKey};
use crate::position::{Position, Side};
use crate::solve::{Lookup, TierStore as _};
use crate::table::TableSet;
use crate::value::Value;
use serde::{Deserialize, Serialize};

/// The rule choosing the formations and valuing them, as stated in reports.
pub(crate) const FORMATION_RULE: &str = "formations of k soldiers taken from the start position: \
the k points outside the fortress nearest to it by distance along lines \
(board::FORTRESS_DISTANCE), ties broken by higher rank first, then by nearness to the centre \
file d, then left before right; soldiers to move, no huff rights, every placement of the two \
officers on two fortress points (36 choices); the formation's value is the officers' best \
placement (the worst value for the soldiers; among equals the first placement in board order)";

#[cfg(test)]
use crate::position::formation_order;

/// The formation of `k` soldiers (`k <= 24`): the first `k` points of
/// `formation_order` ([`crate::position::formation`]).
pub use crate::position::formation;

/// The 36 placements of two officers on fortress points, in board order
/// (by first point, then second).
pub fn placements() -> Vec<Bitboard> {
    let pts: Vec<Point> = board::points(FORTRESS).collect();
    let mut out = Vec::with_capacity(36);
    for (i, a) in pts.iter().enumerate() {
        for b in &pts[i + 1..] {
            out.push(a.bit() | b.bit());
        }
    }
    out
}

/// The formation of `k` soldiers with the officers on c6 and e6 (their
/// start points), soldiers to move: a position whose closure (its tier and
/// every tier it reaches) holds the formation against all 36 placements,
/// and every smaller formation reachable by captures.
pub fn formation_position(k: u8) -> Position {
    let officers = ["c6", "e6"]
        .iter()
        .filter_map(|n| Point::from_name(n))
        .fold(0, |b, p| b | p.bit());
    Position::from_parts_unchecked(formation(k), officers, Side::Soldiers, 0)
}

/// The tiers of the closure of [`formation_position`]`(k)` under
/// `variant`, in solving order: what `asalto report --formations ..=k
/// --build` builds.
pub fn formation_closure(variant: &crate::rules::Variant, k: u8) -> Vec<TierKey> {
    crate::solve::Solver::new(*variant).closure_of(&formation_position(k))
}

/// Point names joined by `,` (`c6,e6`).
pub(super) fn names(b: Bitboard, sep: &str) -> String {
    board::points(b)
        .map(|p| p.name())
        .collect::<Vec<_>>()
        .join(sep)
}

/// One officer placement against a formation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementValue {
    /// The officers' points, e.g. `c6,e6` (as in `start:c6,e6`).
    pub officers: String,
    /// Win, draw or loss for the soldiers (to move).
    pub result: String,
    /// Distance in plies (0 for a draw; `None` from WDL-only tables).
    pub plies: Option<u16>,
}

/// The critical-mass result for one number of soldiers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticalRow {
    /// Soldiers.
    pub k: u8,
    /// The formation's points.
    pub formation: String,
    /// The formation with the officers' best placement, soldiers to move.
    pub position: String,
    /// Win, draw or loss for the soldiers against the officers' best
    /// placement.
    pub result: String,
    /// Its distance in plies (0 for a draw; `None` from WDL-only tables).
    pub plies: Option<u16>,
    /// The value in words, for the soldiers.
    pub value: String,
    /// The officers' best placement (the first in board order among equals).
    pub best_placement: String,
    /// Every placement with that same value.
    pub best_placements: Vec<String>,
    /// Placements (of 36) the soldiers win against.
    pub soldiers_win: u32,
    /// Placements drawn.
    pub draws: u32,
    /// Placements the soldiers lose against.
    pub soldiers_lose: u32,
    /// The longest forced win of the soldiers among the placements they
    /// win against, in plies (`None`: no such placement, or WDL-only
    /// tables).
    pub longest_soldiers_win: Option<u16>,
    /// The longest forced win of the officers among the placements the
    /// soldiers lose against, in plies from the soldiers' move (`None`:
    /// no such placement, or WDL-only tables).
    pub longest_officers_win: Option<u16>,
    /// Every placement's value, in board order.
    pub placements: Vec<PlacementValue>,
}

/// Critical mass of one variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticalMass {
    /// The variant.
    pub variant: String,
    /// One row per soldier count whose formation tier is in the tables.
    pub rows: Vec<CriticalRow>,
    /// Soldier counts asked for whose formation tier is not in the tables.
    pub missing_k: Vec<u8>,
    /// The smallest soldier count (among the rows) at which the soldiers
    /// win against every placement (against the officers' best one).
    pub smallest_winning_k: Option<u8>,
    /// The smallest soldier count (among the rows) at which the soldiers
    /// win against at least one placement.
    #[serde(default)]
    pub smallest_k_winning_some: Option<u8>,
    /// The largest soldier count with a row.
    #[serde(default)]
    pub largest_k: Option<u8>,
    /// Where the balance turns, in words: the two crossovers, or a lower
    /// bound ("above 17") when they are beyond the rows computed.
    #[serde(default)]
    pub crossover: String,
}

impl CriticalMass {
    /// The critical mass of `variant` from its rows (in soldier order) and
    /// the soldier counts missing: the crossovers are those of the rows.
    pub(crate) fn of_rows(variant: String, rows: Vec<CriticalRow>, missing_k: Vec<u8>) -> Self {
        let smallest_winning_k = rows.iter().find(|r| r.result == "win").map(|r| r.k);
        let smallest_k_winning_some = rows.iter().find(|r| r.soldiers_win > 0).map(|r| r.k);
        let largest_k = rows.last().map(|r| r.k);
        let crossover = crossover_text(smallest_winning_k, smallest_k_winning_some, largest_k);
        CriticalMass {
            variant,
            rows,
            missing_k,
            smallest_winning_k,
            smallest_k_winning_some,
            largest_k,
            crossover,
        }
    }
}

/// The critical-mass section of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticalMassSection {
    /// How formations are chosen and valued.
    pub(crate) rule: String,
    /// One entry per variant.
    pub variants: Vec<CriticalMass>,
}

/// The critical mass of the variant of `set`, for every `k` in
/// `k_min..=k_max` whose formation tier the two-officer table holds.
pub fn critical_mass(set: &TableSet, k_min: u8, k_max: u8) -> Result<CriticalMass, AnalysisError> {
    let variant = *set.variant();
    let mut look = Lookup::new(set, variant);
    let mut rows = Vec::new();
    let mut missing_k = Vec::new();
    for k in k_min..=k_max.min(24) {
        let soldiers = formation(k);
        if !holds_formation(set, k)? {
            missing_k.push(k);
            continue;
        }
        let mut values = Vec::with_capacity(36);
        for officers in placements() {
            let pos = Position::from_parts_unchecked(soldiers, officers, Side::Soldiers, 0);
            values.push((officers, look.value(&pos)?));
        }
        let worst = values.iter().map(|(_, v)| *v).min().unwrap_or(Value::Draw);
        let best: Vec<Bitboard> = values
            .iter()
            .filter(|(_, v)| *v == worst)
            .map(|(o, _)| *o)
            .collect();
        let count = |r: &str| values.iter().filter(|(_, v)| v.result() == r).count() as u32;
        // From WDL-only tables, win/draw/loss only.
        let distances = set.has_distances();
        let plies = |v: &Value| distances.then(|| v.plies());
        let longest = |r: &str| {
            values
                .iter()
                .filter(|(_, v)| distances && v.result() == r)
                .map(|(_, v)| v.plies())
                .max()
        };
        rows.push(CriticalRow {
            k,
            formation: names(soldiers, " "),
            position: Position::from_parts_unchecked(soldiers, best[0], Side::Soldiers, 0)
                .to_string(),
            result: worst.result().to_string(),
            plies: plies(&worst),
            value: if distances {
                worst.to_string()
            } else {
                worst.result().to_string()
            },
            best_placement: names(best[0], ","),
            best_placements: best.iter().map(|&o| names(o, ",")).collect(),
            soldiers_win: count("win"),
            draws: count("draw"),
            soldiers_lose: count("loss"),
            longest_soldiers_win: longest("win"),
            longest_officers_win: longest("loss"),
            placements: values
                .iter()
                .map(|(o, v)| PlacementValue {
                    officers: names(*o, ","),
                    result: v.result().to_string(),
                    plies: plies(v),
                })
                .collect(),
        });
    }
    Ok(CriticalMass::of_rows(variant.to_string(), rows, missing_k))
}

/// Whether the two-officer file of `k` soldiers in `set` holds the
/// formation's tier.
pub(super) fn holds_formation(set: &TableSet, k: u8) -> Result<bool, crate::table::TableError> {
    let key = TierKey {
        n: 2,
        k,
        outside: formation(k),
    }
    .canonical();
    Ok(match set.table(FileKey::new(2, k))? {
        Some(t) => t.contains(&key)?,
        None => false,
    })
}

/// Where the balance turns, in words, from the two crossovers and the
/// largest `k` computed.
fn crossover_text(every: Option<u8>, some: Option<u8>, largest: Option<u8>) -> String {
    let Some(largest) = largest else {
        return "no formation computed".to_string();
    };
    let some = match some {
        Some(k) => format!("against at least one placement first at k = {k}"),
        None => format!("against no placement up to k = {largest}: above {largest}"),
    };
    match every {
        Some(k) => format!("the soldiers win against every placement first at k = {k}; {some}"),
        None => format!(
            "the soldiers win against every placement: above {largest} (not reached up to k = {largest}); {some}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formation_order_follows_the_rule() {
        let order: Vec<&str> = formation_order().iter().map(|p| p.name()).collect();
        assert_eq!(
            order,
            [
                "b5", "f5", "d4", "c4", "e4", "b4", "f4", "a5", "g5", "a4", "g4", "d3", "c3", "e3",
                "b3", "f3", "a3", "g3", "d2", "c2", "e2", "d1", "c1", "e1"
            ]
        );
        for k in 0..=24 {
            assert_eq!(formation(k).count_ones(), k as u32);
        }
        assert_eq!(Position::start().soldiers(), formation(24));
    }

    #[test]
    fn thirty_six_placements() {
        let p = placements();
        assert_eq!(p.len(), 36);
        assert!(p.iter().all(|b| b.count_ones() == 2 && b & !FORTRESS == 0));
        let mut q = p.clone();
        q.sort();
        q.dedup();
        assert_eq!(q.len(), 36);
        assert_eq!(names(p[0], ","), "c5,d5");
    }
}
