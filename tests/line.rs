//! `asalto line`: a won position's game to its end and a drawn position's
//! tree of replies, checked move by move against the slow move generator
//! and every value against the reference solver (both in `common`), from
//! tiers solved in memory (with distances) and from WDL-only tables built
//! by `asalto build --for`.

mod common;

use common::{asalto, json, reference, slow};
use serde_json::Value as Json;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Roots of the reference solver's tests (`tests/reference_solver.rs`):
/// 9 soldiers, an officer on d6 inside the fortress, with trapped officers
/// and draws in its closure; 10 soldiers, officers to move.
const ROOTS: [&str; 2] = [
    "SSS/SOS/2S4/1S1S1S1/7/3/3 s -",
    "SSS/S1S/2SSS2/2S1S2/2O1O2/3/3 o -",
];
/// A draw (`R_DRAWN` there).
const DRAWN: &str = "SSS/SS1/2SS1S1/3S3/1O3O1/3/3 o -";

/// The reference solution of each root (solved once for all the tests).
fn references() -> &'static [reference::RefSolution] {
    static SOLVED: OnceLock<Vec<reference::RefSolution>> = OnceLock::new();
    SOLVED.get_or_init(|| {
        ROOTS
            .iter()
            .map(|r| reference::solve(r, "assaut", 100_000))
            .collect()
    })
}

/// The positions of `r`'s closure with the longest win for each side to
/// move: `(position, winner, plies)`.
fn longest_wins(r: &reference::RefSolution) -> Vec<(String, &'static str, u16)> {
    let mut out = Vec::new();
    for (side, name) in [("s", "soldiers"), ("o", "officers")] {
        let best = r
            .states
            .iter()
            .zip(&r.values)
            .filter(|(p, _)| p.split_whitespace().nth(1) == Some(side))
            .filter_map(|(p, v)| match v {
                reference::RefValue::Win(d) if *d > 0 => Some((p, *d)),
                _ => None,
            })
            .max_by_key(|&(p, d)| (d, std::cmp::Reverse(p.clone())));
        if let Some((p, d)) = best {
            out.push((p.clone(), name, d));
        }
    }
    out
}

/// The reference value of `pos` as `(result, plies)`.
fn reference_value(r: &reference::RefSolution, pos: &str) -> (&'static str, u16) {
    match r
        .value(pos)
        .unwrap_or_else(|| panic!("{pos} not in the closure"))
    {
        reference::RefValue::Win(d) => ("win", d),
        reference::RefValue::Draw => ("draw", 0),
        reference::RefValue::Loss(d) => ("loss", d),
    }
}

fn flip(result: &str) -> &'static str {
    match result {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    }
}

/// Check a line object: each move legal by the slow generator and leading
/// where it says, no position twice, the winner's moves winning and the
/// loser's losing by the reference solver, the game over at the end with
/// the winner's win. Returns its plies.
fn check_line(o: &Json, r: &reference::RefSolution) -> usize {
    let start = o["position"].as_str().unwrap();
    let winner = o["winner"].as_str().unwrap();
    let (result, plies) = reference_value(r, start);
    assert_eq!(o["result"], result);
    if o["distances"] == true {
        assert_eq!(o["plies"], plies);
    } else {
        assert!(o["plies"].is_null());
    }
    let mut before = start.to_string();
    let mut seen = HashSet::from([slow::canonical(start)]);
    let line = o["line"].as_array().unwrap();
    for (i, step) in line.iter().enumerate() {
        assert_eq!(step["ply"], i + 1);
        let mv = step["move"].as_str().unwrap();
        let after = step["after"].as_str().unwrap();
        let moves = common::slow_moves(&before, "assaut");
        let want_after = moves
            .get(mv)
            .unwrap_or_else(|| panic!("{mv} not legal in {before}"));
        assert_eq!(slow::canonical(want_after), slow::canonical(after));
        assert!(seen.insert(slow::canonical(after)), "{after} comes twice");
        let side = if before.ends_with(" s") || before.contains(" s ") {
            "soldiers"
        } else {
            "officers"
        };
        assert_eq!(step["side"], side);
        let want = if side == winner { "win" } else { "loss" };
        assert_eq!(step["result"], want, "{before} {mv}");
        assert_eq!(flip(reference_value(r, after).0), want, "{before} {mv}");
        before = after.to_string();
    }
    assert_eq!(o["end"], before.as_str());
    assert_eq!(
        slow::outcome(&before, "assaut"),
        Some(winner.chars().next().unwrap())
    );
    line.len()
}

/// The WDL-only tables of `root`'s closure (`asalto build --wdl-only
/// --for`), in a folder of their own.
fn wdl_only_tables(root: &str) -> tempfile::TempDir {
    let tables = tempfile::tempdir().unwrap();
    let dir = tables.path().to_str().unwrap();
    let args = [
        "build",
        "--wdl-only",
        "--threads",
        "1",
        "--tables",
        dir,
        "--for",
        root,
    ];
    let built = asalto(&args);
    assert!(built.status.success(), "{built:?}");
    tables
}

#[test]
fn a_won_position_gets_a_game_to_its_end() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().to_str().unwrap();
    let mut longest = 0;
    for r in references() {
        for (pos, winner, plies) in longest_wins(r) {
            // No tables: solved in memory, with distances: the shortest win
            // against the longest loss, exactly the distance.
            let out = asalto(&["line", "--json", "--threads", "1", "--tables", dir, &pos]);
            assert!(out.status.success(), "{out:?}");
            let o = json(&out);
            assert_eq!(o["winner"], winner);
            assert_eq!(o["distances"], true);
            assert_eq!(check_line(&o, r), plies as usize, "{pos}");
            longest = longest.max(plies);
            // The text names the winner and ends with the game over.
            let text = asalto(&["line", "--threads", "1", "--tables", dir, &pos]);
            let text = String::from_utf8(text.stdout).unwrap();
            assert!(
                text.lines()
                    .next()
                    .unwrap()
                    .contains(&format!("the {winner} win")),
                "{text}"
            );
            assert!(
                text.contains(&format!("game over after {plies} plies: {winner} won")),
                "{text}"
            );
        }
    }
    assert!(longest >= 5, "{longest}");
}

#[test]
fn from_wdl_only_tables_the_line_still_ends() {
    let mut lines = 0;
    for (root, r) in ROOTS.iter().zip(references()) {
        let tables = wdl_only_tables(root);
        let dir = tables.path().to_str().unwrap();
        for (pos, winner, _) in longest_wins(r) {
            let out = asalto(&["line", "--json", "--threads", "1", "--tables", dir, &pos]);
            assert!(out.status.success(), "{out:?}");
            assert_eq!(
                out.stderr, b"",
                "nothing solved in memory: the tables hold it all"
            );
            let o = json(&out);
            assert_eq!(o["distances"], false);
            assert_eq!(o["winner"], winner);
            let plies = check_line(&o, r);
            // The winner moves last.
            let starts = if pos.split_whitespace().nth(1) == Some("s") {
                "soldiers"
            } else {
                "officers"
            };
            assert_eq!(plies % 2 == 1, winner == starts, "{pos}");
            for step in o["line"].as_array().unwrap() {
                assert!(step["plies"].is_null());
            }
            lines += 1;
        }
    }
    assert_eq!(lines, 4);
}

#[test]
fn a_drawn_position_gets_its_replies() {
    let empty = tempfile::tempdir().unwrap();
    let dir = empty.path().to_str().unwrap();
    let r = reference::solve(DRAWN, "assaut", 100_000);
    let out = asalto(&[
        "line",
        "--json",
        "--depth",
        "3",
        "--threads",
        "1",
        "--tables",
        dir,
        DRAWN,
    ]);
    assert!(out.status.success(), "{out:?}");
    let o = json(&out);
    assert_eq!(o["result"], "draw");
    // Every node: its moves those of the slow generator, each move's value
    // the reference's for the position it leads to (seen from the mover),
    // its replies that position's node, down to the third ply.
    fn walk(o: &Json, r: &reference::RefSolution, plies: u32) -> usize {
        let pos = o["position"].as_str().unwrap();
        let (result, _) = reference_value(r, pos);
        assert_eq!(o["result"], result, "{pos}");
        let slow_moves = common::slow_moves(pos, "assaut");
        let moves = o["moves"].as_array().unwrap();
        assert_eq!(moves.len(), slow_moves.len(), "{pos}");
        let mut nodes = 1;
        for m in moves {
            let after = &slow_moves[m["move"].as_str().unwrap()];
            assert_eq!(m["result"], flip(reference_value(r, after).0), "{pos} {m}");
            if plies > 1 {
                let next = &m["replies"];
                assert_eq!(
                    slow::canonical(next["position"].as_str().unwrap()),
                    slow::canonical(after)
                );
                nodes += walk(next, r, plies - 1);
            } else {
                assert!(m.get("replies").is_none());
            }
        }
        nodes
    }
    assert!(walk(&o, &r, 3) > 20);
    // The text: the root's line, then the tree indented.
    let text = asalto(&[
        "line",
        "--depth",
        "2",
        "--threads",
        "1",
        "--tables",
        dir,
        DRAWN,
    ]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.starts_with(&format!("{DRAWN}: officers to move, draw.")),
        "{text}"
    );
    assert!(text.contains("\n      soldiers "), "{text}");
}

#[test]
fn bad_options_are_refused_in_one_line() {
    for (args, code) in [
        (vec!["line", "--depth", "0", DRAWN], 2),
        (vec!["line", "--depth", "5", DRAWN], 2),
        (vec!["line", "--bound", "0", DRAWN], 2),
        (vec!["line", "SSS/SSS/9/4S2/6O/3/3 s"], 1),
        (vec!["line", "--variant", "nonsense", DRAWN], 1),
    ] {
        let out = asalto(&args);
        assert_eq!(out.status.code(), Some(code), "{args:?} {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        if code == 1 {
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        }
    }
    // A bound below what the search needs: one line, exit 1, nothing on
    // stdout.
    let tables = wdl_only_tables(ROOTS[0]);
    let dir = tables.path().to_str().unwrap();
    let (pos, _, _) = &longest_wins(&references()[0])[1];
    let out = asalto(&["line", "--bound", "2", "--tables", dir, pos]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("within 2 positions"), "{err}");
}
