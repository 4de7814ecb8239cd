//! The critical mass (`analysis::critical_mass`) at several soldier counts
//! against values known independently of the solver.
//!
//! Real formation values cannot be had independently here: the closure of
//! the 9-soldier formation is too large for the reference solver of
//! `tests/common/reference.rs` (each of its 36 placements reaches more than
//! 300,000 states), and the 10-soldier formation's closure holds 81 million
//! positions. So the tables read here hold made-up values: each
//! formation's tier is written with [`made_up`] for every formation
//! position (soldiers to move, officers anywhere) and draws elsewhere.
//! The expected critical mass is then worked out in this file from
//! [`made_up`], the formation order stated in `FORMATION_RULE` and the 36
//! placements in board order, and compared with the one computed from the
//! tables: which soldiers, which placement is the officers' best (the
//! first among equals), the counts, the value and the smallest winning
//! `k`, at k = 9, 10 and 24 (formations 9 and 24 are mirror-symmetric, so
//! their tiers hold each position and its mirror image, which [`made_up`]
//! values differently; 10 is not). The real values at k = 9 are compared
//! with the prober in `tests/report.rs`.

use asalto_tb::analysis::{self, CriticalRow};
use asalto_tb::board::{self, Bitboard, Point};
use asalto_tb::index::FileKey;
use asalto_tb::index::{self, TierKey};
use asalto_tb::table::{TableSet, TableWriter};
use asalto_tb::{Position, Side, Value, Variant};

/// The outside points in formation order, as `FORMATION_RULE` states it:
/// nearest the fortress by distance along lines, then higher rank, then
/// nearer file d, then left before right.
const ORDER: [&str; 24] = [
    "b5", "f5", "d4", "c4", "e4", "b4", "f4", "a5", "g5", "a4", "g4", "d3", "c3", "e3", "b3", "f3",
    "a3", "g3", "d2", "c2", "e2", "d1", "c1", "e1",
];

/// The fortress points in board order (rank 5, then 6, then 7; files c d e).
const FORTRESS: [&str; 9] = ["c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"];

fn bit(name: &str) -> Bitboard {
    Point::from_name(name).unwrap().bit()
}

fn formation(k: usize) -> Bitboard {
    ORDER[..k].iter().map(|n| bit(n)).fold(0, |a, b| a | b)
}

/// The 36 placements on fortress points in board order, by first point
/// then second, with their names as reports give them (`c5,d5`).
fn placements() -> Vec<(Bitboard, String)> {
    let mut v = Vec::new();
    for (i, a) in FORTRESS.iter().enumerate() {
        for b in &FORTRESS[i + 1..] {
            v.push((bit(a) | bit(b), format!("{a},{b}")));
        }
    }
    v
}

/// A made-up value for the soldiers to move with `k` soldiers against
/// `officers` (not mirror-symmetric, so a lookup of the mirror image would
/// show): at 9 and 10 soldiers wins, draws and losses of several
/// lengths; at 24 wins only.
fn made_up(k: usize, officers: Bitboard) -> Value {
    let mut pts = board::points(officers).map(|p| p.file() as usize * 7 + p.rank() as usize);
    let (a, b) = (pts.next().unwrap(), pts.next().unwrap_or(0));
    let h = (a * 5 + b * 3 + k) % 13;
    match (k, h) {
        (24, _) => Value::Win(1 + 2 * h as u16),
        (_, 0..=4) => Value::Win(1 + 2 * h as u16),
        (_, 5..=7) => Value::Draw,
        _ => Value::Loss(2 * h as u16),
    }
}

/// Write the 2o<k>s table holding only the formation's tier, with
/// [`made_up`] values for the formation's positions, soldiers to move.
fn write_formation_table(dir: &std::path::Path, variant: &Variant, k: usize) {
    let soldiers = formation(k);
    let real = TierKey {
        n: 2,
        k: k as u8,
        outside: soldiers & board::OUTSIDE,
    };
    let key = real.canonical();
    let codes: Vec<u16> = (0..key.size() as u32)
        .map(|i| {
            let stored = index::position_at(&key, i);
            // The position this entry stands for in the orientation of
            // the formation.
            let pos = if key == real { stored } else { stored.mirror() };
            assert_eq!(pos.soldiers(), soldiers);
            if pos.side() == Side::Soldiers {
                made_up(k, pos.officers()).code()
            } else {
                Value::Draw.code()
            }
        })
        .collect();
    let mut w = TableWriter::create(dir, variant, FileKey::new(2, k as u8)).unwrap();
    w.push_tier(&key, &codes).unwrap();
    w.finish().unwrap();
}

/// The critical-mass row expected at `k`, from [`made_up`].
fn expected_row(k: usize, row: &CriticalRow) {
    let values: Vec<(String, Value)> = placements()
        .into_iter()
        .map(|(o, name)| (name, made_up(k, o)))
        .collect();
    let worst = values.iter().map(|(_, v)| *v).min().unwrap();
    let best: Vec<&String> = values
        .iter()
        .filter(|(_, v)| *v == worst)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(row.k as usize, k);
    assert_eq!(
        row.formation,
        board::points(formation(k))
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert_eq!(
        (row.result.as_str(), row.plies),
        (worst.result(), Some(worst.plies()))
    );
    assert_eq!(row.value, worst.to_string());
    assert_eq!(&row.best_placement, best[0]);
    assert_eq!(row.best_placements.iter().collect::<Vec<_>>(), best);
    let pos: Position = row.position.parse().unwrap();
    assert_eq!(pos.soldiers(), formation(k));
    assert_eq!(pos.side(), Side::Soldiers);
    let first = placements()
        .into_iter()
        .find(|(_, n)| n == best[0])
        .unwrap()
        .0;
    assert_eq!(pos.officers(), first);
    let count = |r: &str| values.iter().filter(|(_, v)| v.result() == r).count() as u32;
    assert_eq!(
        (row.soldiers_win, row.draws, row.soldiers_lose),
        (count("win"), count("draw"), count("loss"))
    );
    assert_eq!(row.placements.len(), 36);
    for (p, (name, v)) in row.placements.iter().zip(&values) {
        assert_eq!(&p.officers, name);
        assert_eq!(
            (p.result.as_str(), p.plies),
            (v.result(), Some(v.plies())),
            "{name}"
        );
    }
}

#[test]
fn critical_mass_at_three_soldier_counts_matches_the_values_in_the_tables() {
    let variant = Variant::ASSAUT;
    let dir = tempfile::tempdir().unwrap();
    for k in [9, 10, 24] {
        write_formation_table(dir.path(), &variant, k);
    }
    // The formation of 10 is not mirror-symmetric (a4 without g4); its
    // tier is the stored one of the pair (left before right).
    let f10 = TierKey {
        n: 2,
        k: 10,
        outside: formation(10),
    };
    assert_ne!(f10.mirror(), f10);
    assert_eq!(f10.canonical(), f10);

    let set = TableSet::open(dir.path(), &variant);
    let cm = analysis::critical_mass(&set, 9, 24).unwrap();
    assert_eq!(cm.variant, variant.to_string());
    assert_eq!(cm.missing_k, (11..=23).collect::<Vec<u8>>());
    assert_eq!(cm.rows.len(), 3);
    for (row, k) in cm.rows.iter().zip([9, 10, 24]) {
        expected_row(k, row);
    }
    // Worked out from `made_up`: the soldiers lose against some placement
    // at 9 and 10 and win against all at 24.
    assert_eq!(cm.rows[0].result, "loss");
    assert_eq!(cm.rows[1].result, "loss");
    assert_eq!(cm.smallest_winning_k, Some(24));
}
