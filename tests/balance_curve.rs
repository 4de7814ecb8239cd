//! The balance curve: the closure of the formation of k soldiers holds the
//! smaller formations' tiers, and the critical-mass rows built from it
//! (value against the best placement, placements won / drawn / lost, the
//! longest wins, the crossover) agree with an in-memory solve of the same
//! closure, which shares no table code with the report.

use asalto_tb::analysis::{self, Request, formation, formation_position, placements};
use asalto_tb::build::{self, BuildOptions, Quiet};
use asalto_tb::index::TierKey;
use asalto_tb::solve::Solver;
use asalto_tb::{Position, Side, Value, Variant};

#[test]
fn a_formation_closure_holds_every_smaller_formation() {
    for v in [Variant::ASSAUT, Variant::ASSAULT] {
        for k in 10..=12u8 {
            let tiers = Solver::new(v).closure_of(&formation_position(k));
            for j in 9..=k {
                let key = TierKey {
                    n: 2,
                    k: j,
                    outside: formation(j),
                }
                .canonical();
                assert!(tiers.contains(&key), "{v}: formation {j} in closure of {k}");
            }
        }
    }
}

#[test]
fn the_curve_from_the_tables_agrees_with_an_in_memory_solve() {
    let v = Variant::ASSAUT;
    let pos = formation_position(9);
    let dir = tempfile::tempdir().unwrap();
    let tiers = Solver::new(v).closure_of(&pos);
    build::build_tiers(dir.path(), &v, &tiers, &BuildOptions::threads(2), &Quiet).unwrap();
    let mut req = Request::new(dir.path(), vec![v], 9, 9);
    req.allow_missing = true;
    let report = analysis::analyse(&req, &Quiet).unwrap();
    let c = &report.critical_mass.variants[0];
    assert_eq!(c.rows.len(), 1);
    let row = &c.rows[0];

    // Independent: every placement valued by an in-memory solve.
    let sol = Solver::new(v).threads(2).solve_closure(&pos).unwrap();
    let values: Vec<Value> = placements()
        .into_iter()
        .map(|o| {
            sol.value(&Position::from_parts_unchecked(
                formation(9),
                o,
                Side::Soldiers,
                0,
            ))
            .unwrap()
        })
        .collect();
    let count = |r: &str| values.iter().filter(|v| v.result() == r).count() as u32;
    assert_eq!(
        (row.soldiers_win, row.draws, row.soldiers_lose),
        (count("win"), count("draw"), count("loss"))
    );
    let worst = *values.iter().min().unwrap();
    assert_eq!(row.result, worst.result());
    assert_eq!(row.plies, Some(worst.plies()));
    let longest = |r: &str| {
        values
            .iter()
            .filter(|v| v.result() == r)
            .map(|v| v.plies())
            .max()
    };
    assert_eq!(row.longest_soldiers_win, longest("win"));
    assert_eq!(row.longest_officers_win, longest("loss"));
    // The crossover, in words, from the same counts.
    let expect_every = (worst.result() == "win").then_some(9);
    let expect_some = (count("win") > 0).then_some(9);
    assert_eq!(c.smallest_winning_k, expect_every);
    assert_eq!(c.smallest_k_winning_some, expect_some);
    assert_eq!(c.largest_k, Some(9));
    if expect_every.is_none() {
        assert!(c.crossover.contains("above 9"), "{}", c.crossover);
    }
    // The report says it.
    let files = analysis::render(&report).unwrap();
    let md = &files
        .iter()
        .find(|f| f.name == "report.md")
        .unwrap()
        .contents;
    assert!(md.contains("Where the balance turns"), "{md}");
    assert!(md.contains(&c.crossover));
}
