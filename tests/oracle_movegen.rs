//! The library's move generator against the slow oracle in
//! `tests/common/slow.rs`, for all 24 switch combinations, plus invariants
//! checked on the library alone: mirror symmetry, soldier progress, no
//! duplicate moves, move notation that parses back.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use asalto_tb::board::Point;
use asalto_tb::rules;
use asalto_tb::{Position, Side, Variant};
use common::slow::{self, Pt};
use common::{Rng, lib_moves, lib_outcome, lib_pos, lib_variant};

// ---------------------------------------------------------------------------
// The oracle's own tables against the text of docs/RULES.md
// ---------------------------------------------------------------------------

fn pt(name: &str) -> Pt {
    slow::parse_point(name).unwrap_or_else(|| panic!("not a point: {name}"))
}

#[test]
fn oracle_geometry_matches_rules_text() {
    let points = slow::points_in_notation_order();
    assert_eq!(points.len(), 33);
    let mut orth = 0;
    let mut diag = BTreeSet::new();
    for &a in points {
        for &b in points {
            if a < b && slow::is_segment(a, b) {
                if a.0 == b.0 || a.1 == b.1 {
                    orth += 1;
                } else {
                    diag.insert((a, b));
                }
            }
        }
    }
    assert_eq!(orth, 52);
    // The 20 diagonal segments listed in docs/RULES.md section 1.
    let listed = "c7-d6 e7-d6 d6-c5 d6-e5 a5-b4 c5-b4 c5-d4 e5-d4 e5-f4 g5-f4 b4-a3 b4-c3 \
                  d4-c3 d4-e3 f4-e3 f4-g3 c3-d2 e3-d2 d2-c1 d2-e1";
    let listed: BTreeSet<(Pt, Pt)> = listed
        .split_whitespace()
        .map(|s| {
            let (a, b) = s.split_once('-').unwrap();
            let (a, b) = (pt(a), pt(b));
            (a.min(b), a.max(b))
        })
        .collect();
    assert_eq!(listed.len(), 20);
    assert_eq!(diag, listed);
    // Neighbour tables are symmetric.
    for &a in points {
        for &b in slow::neighbours(a) {
            assert!(slow::neighbours(b).contains(&a));
        }
    }
    // Diagonal jumps run junction - junction - junction.
    for &a in points {
        for &(over, land) in slow::jumps(a) {
            if over.0 != a.0 && over.1 != a.1 {
                assert!(slow::is_junction(a) && slow::is_junction(over) && slow::is_junction(land));
            }
        }
    }
    // Fortress.
    let fortress: Vec<String> = points
        .iter()
        .filter(|&&p| slow::in_fortress(p))
        .map(|&p| slow::name(p))
        .collect();
    assert_eq!(fortress.join(" "), "c7 d7 e7 c6 d6 e6 c5 d5 e5");
    // The distance diagram of docs/RULES.md section 3, in notation order.
    let diagram = "FFF FFF 21FFF12 2111112 2222222 333 444";
    let mut expect = Vec::new();
    for c in diagram.chars().filter(|c| *c != ' ') {
        expect.push(if c == 'F' { 0 } else { c.to_digit(10).unwrap() });
    }
    let got: Vec<u32> = points.iter().map(|&p| slow::fortress_distance(p)).collect();
    assert_eq!(got, expect);
}

/// The step tables of docs/RULES.md section 3 (left half; the right half
/// mirrors).
#[test]
fn oracle_soldier_steps_match_rules_tables() {
    let closer = "a5: b5 b4; b5: c5; a4: b4; b4: c5; c4: c5; d4: c5 d5 e5; a3: b4; b3: b4; \
                  c3: b4 c4 d4; d3: d4; c2: c3; d2: c3 d3 e3; c1: c2 d2; d1: d2";
    let forward = "a5: b5; b5: c5; a4: a5; b4: a5 b5 c5; c4: c5; d4: c5 d5 e5; a3: a4 b4; \
                   b3: b4; c3: b4 c4 d4; d3: d4; c2: c3; d2: c3 d3 e3; c1: c2 d2; d1: d2";
    for (rule, table) in [("closer", closer), ("forward", forward)] {
        let var = slow::parse_variant(&format!(
            "soldiers={rule},capture=huff,max=on,trapped=soldiers-win"
        ));
        let mut expect: BTreeMap<Pt, BTreeSet<Pt>> = BTreeMap::new();
        for entry in table.split(';') {
            let (from, tos) = entry.split_once(':').unwrap();
            let from = pt(from.trim());
            let tos: BTreeSet<Pt> = tos.split_whitespace().map(pt).collect();
            let m = slow::mirror_point(from);
            expect.insert(m, tos.iter().map(|&t| slow::mirror_point(t)).collect());
            expect.insert(from, tos);
        }
        for &from in slow::points_in_notation_order() {
            let got: BTreeSet<Pt> = slow::points_in_notation_order()
                .iter()
                .copied()
                .filter(|&to| slow::soldier_step_allowed(&var, from, to))
                .collect();
            if slow::in_fortress(from) {
                let inside: BTreeSet<Pt> = slow::neighbours(from)
                    .iter()
                    .copied()
                    .filter(|&q| slow::in_fortress(q))
                    .collect();
                assert_eq!(got, inside, "{rule} {}", slow::name(from));
            } else {
                assert_eq!(got, expect[&from], "{rule} {}", slow::name(from));
            }
        }
    }
}

#[test]
fn oracle_notation_round_trip_and_known_perft() {
    assert_eq!(slow::canonical(common::START), common::START);
    assert_eq!(
        slow::canonical("3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s"),
        common::START
    );
    for v in common::PRESETS {
        assert_eq!(slow::perft(common::START, v, 1), 9);
        let p2 = if v == "assaut-mdj" { 38 } else { 48 };
        assert_eq!(slow::perft(common::START, v, 2), p2, "{v}");
    }
}

// ---------------------------------------------------------------------------
// Comparing the library with the oracle
// ---------------------------------------------------------------------------

/// Everything checked on one position: the oracle's and the library's moves
/// (notation and result), outcome, notation round trips, mirror symmetry and
/// soldier progress. Returns the library's moves.
fn check_position(pos: &str, variant: &str, v: &Variant) -> BTreeMap<String, String> {
    let p = lib_pos(pos);
    let canon = slow::canonical(pos);
    assert_eq!(p.to_string(), canon, "printing of {pos}");
    let side = if p.side() == Side::Soldiers { 's' } else { 'o' };
    assert_eq!(side, slow::parse_pos(pos).side, "side of {pos}");

    // Moves and outcome.
    let lib = lib_moves(&p, v);
    let oracle_moves = slow::moves(&canon, variant);
    let oracle: BTreeMap<String, String> = oracle_moves
        .iter()
        .map(|m| (m.notation.clone(), m.result.clone()))
        .collect();
    let diff = common::diff_moves(&lib, &oracle);
    assert!(
        diff.is_empty(),
        "moves differ in {canon} [{variant}]:\n{diff}"
    );
    let results: BTreeSet<&String> = lib.values().collect();
    assert_eq!(
        results.len(),
        lib.len(),
        "two moves give the same position in {canon} [{variant}]"
    );
    assert_eq!(
        lib_outcome(&p, v),
        slow::outcome(&canon, variant),
        "outcome of {canon} [{variant}]"
    );

    // Every move parses back from its notation, and from every other
    // spelling of the same capture.
    let moves = rules::legal_moves(&p, v);
    for m in &moves {
        let n = m.to_string();
        let back = rules::parse_move(&p, v, &n)
            .unwrap_or_else(|e| panic!("{n} does not parse in {canon} [{variant}]: {e}"));
        assert_eq!(&back, m, "{n} in {canon} [{variant}]");
        assert_eq!(back.to_string(), n, "{canon} [{variant}]");
        assert_eq!(
            rules::play(&p, v, &back).to_string(),
            lib[&n],
            "{n} in {canon} [{variant}]"
        );
    }
    for sm in &oracle_moves {
        for spelling in &sm.spellings {
            match rules::parse_move(&p, v, spelling) {
                Ok(m) => assert_eq!(
                    m.to_string(),
                    sm.notation,
                    "{spelling} in {canon} [{variant}]"
                ),
                Err(e) => panic!(
                    "{spelling} (= {}) rejected in {canon} [{variant}]: {e}",
                    sm.notation
                ),
            }
        }
    }

    // from/to and is_soldier_move agree with the notation; soldier progress.
    let var = slow::parse_variant(variant);
    for m in &moves {
        let n = m.to_string();
        let huff_only = n.starts_with('h') && !n.contains(':');
        if huff_only {
            assert!(!m.is_soldier_move(), "{n} in {canon} [{variant}]");
            continue;
        }
        let body = n.rsplit(':').next().unwrap();
        let names: Vec<&str> = body.split(['-', 'x']).collect();
        let (from, to) = (m.from(), m.to());
        assert_eq!(from.name(), names[0], "from of {n} in {canon}");
        assert_eq!(to.name(), *names.last().unwrap(), "to of {n} in {canon}");
        assert_eq!(
            Point::from_name(from.name()).map(|q| q.name()),
            Some(from.name())
        );
        assert_eq!(
            m.is_soldier_move(),
            side == 's',
            "{n} in {canon} [{variant}]"
        );
        if m.is_soldier_move() {
            let (f, t) = (pt(from.name()), pt(to.name()));
            assert_eq!(
                (from.file() as i8, from.rank() as i8),
                f,
                "file/rank of {}",
                from.name()
            );
            assert_eq!(
                (to.file() as i8, to.rank() as i8),
                t,
                "file/rank of {}",
                to.name()
            );
            if slow::in_fortress(f) {
                assert!(
                    slow::in_fortress(t),
                    "{n} leaves the fortress in {canon} [{variant}]"
                );
            } else {
                let ok = if var.forward {
                    t.1 > f.1 || ["a5-b5", "b5-c5", "g5-f5", "f5-e5"].contains(&body)
                } else {
                    slow::fortress_distance(t) < slow::fortress_distance(f)
                };
                assert!(ok, "{n} is no progress in {canon} [{variant}]");
            }
            let after = slow::parse_pos(&lib[&n]);
            assert_eq!(after.at(t), 'S', "{n} in {canon}");
            assert_eq!(after.at(f), '.', "{n} in {canon}");
        }
    }

    // Mirror symmetry, on the library alone (and the library's mirror against
    // the oracle's).
    let pm = p.mirror();
    assert_eq!(pm.to_string(), slow::mirror(&canon), "mirror of {canon}");
    let mirrored: BTreeSet<String> = lib
        .values()
        .map(|r| lib_pos(r).mirror().to_string())
        .collect();
    let of_mirror = common::lib_successors(&pm, v);
    // The oracle is symmetric too.
    let oracle_mirrored: BTreeSet<String> = oracle.values().map(|r| slow::mirror(r)).collect();
    assert_eq!(
        slow::successors(&slow::mirror(&canon), variant),
        oracle_mirrored,
        "oracle mirror symmetry of {canon} [{variant}]"
    );
    assert_eq!(
        of_mirror, mirrored,
        "mirror symmetry of {canon} [{variant}]"
    );
    assert_eq!(
        lib_outcome(&pm, v),
        lib_outcome(&p, v),
        "outcome of mirror of {canon}"
    );

    lib
}

/// Plays random moves from `pos`, checking every position on the way.
fn playout(pos: &str, variant: &str, v: &Variant, rng: &mut Rng, max_plies: usize) -> usize {
    let mut pos = pos.to_string();
    for ply in 0..max_plies {
        let moves = check_position(&pos, variant, v);
        if moves.is_empty() {
            return ply + 1;
        }
        let results: Vec<&String> = moves.values().collect();
        pos = results[rng.below(results.len())].clone();
    }
    max_plies
}

fn fortress_names() -> Vec<Pt> {
    slow::points_in_notation_order()
        .iter()
        .copied()
        .filter(|&p| slow::in_fortress(p))
        .collect()
}

/// The start board with the officers on `a` and `b`.
fn start_with(a: Pt, b: Pt) -> String {
    let mut p = slow::parse_pos(common::START);
    for q in fortress_names() {
        p.set(q, '.');
    }
    p.set(a, 'O');
    p.set(b, 'O');
    slow::print_pos(&p)
}

#[test]
fn all_start_setups_all_variants() {
    let f = fortress_names();
    for variant in slow::all_switch_strings() {
        let v = lib_variant(&variant);
        for i in 0..f.len() {
            for j in i + 1..f.len() {
                let start = start_with(f[i], f[j]);
                for child in check_position(&start, &variant, &v).values() {
                    check_position(child, &variant, &v);
                }
            }
        }
    }
}

#[test]
fn random_playouts_all_variants() {
    let f = fortress_names();
    let mut rng = Rng::new(20240601);
    let mut plies = 0;
    for variant in slow::all_switch_strings() {
        let v = lib_variant(&variant);
        for game in 0..20 {
            let start = if game == 0 {
                common::START.to_string()
            } else {
                let a = rng.below(9);
                let b = (a + 1 + rng.below(8)) % 9;
                start_with(f[a], f[b])
            };
            plies += playout(&start, &variant, &v, &mut rng, 150);
        }
    }
    assert!(plies > 24 * 20 * 20, "playouts too short: {plies}");
}

/// A random legal-looking setup: 7..=24 soldiers anywhere, 0..=2 officers,
/// either side to move, random huff rights under `capture=huff`.
fn random_setup(rng: &mut Rng, huff_variant: bool) -> String {
    let points = slow::points_in_notation_order();
    let mut p = slow::parse_pos("3/3/7/7/7/3/3 s -");
    let soldiers = if rng.chance(1, 10) {
        7 + rng.below(2)
    } else {
        9 + rng.below(16)
    };
    let officers = if rng.chance(1, 30) {
        0
    } else if rng.chance(1, 4) {
        1
    } else {
        2
    };
    // Bias soldiers toward the fortress half the time.
    let near = rng.chance(1, 2);
    let mut placed = 0;
    while placed < soldiers {
        let q = points[rng.below(points.len())];
        if p.at(q) != '.' {
            continue;
        }
        if near && slow::fortress_distance(q) > 1 && rng.chance(1, 2) {
            continue;
        }
        p.set(q, 'S');
        placed += 1;
    }
    let mut placed = 0;
    while placed < officers {
        let q = points[rng.below(points.len())];
        if p.at(q) == '.' {
            p.set(q, 'O');
            placed += 1;
        }
    }
    p.side = if officers == 0 || rng.chance(1, 2) {
        'o'
    } else {
        's'
    };
    if p.side == 's' && huff_variant && rng.chance(1, 3) {
        for o in p.pieces('O') {
            if rng.chance(2, 3) {
                p.huff.push(o);
            }
        }
    }
    slow::print_pos(&p)
}

#[test]
fn random_setups_all_variants() {
    let mut rng = Rng::new(77);
    for variant in slow::all_switch_strings() {
        let v = lib_variant(&variant);
        let huff = variant.contains("capture=huff");
        for _ in 0..160 {
            let pos = random_setup(&mut rng, huff);
            playout(&pos, &variant, &v, &mut rng, 12);
        }
    }
}

/// Setups rich in captures: few soldiers spread out, officers among them.
#[test]
fn capture_rich_setups_all_variants() {
    let mut rng = Rng::new(4242);
    let points = slow::points_in_notation_order();
    for variant in slow::all_switch_strings() {
        let v = lib_variant(&variant);
        for _ in 0..150 {
            let mut p = slow::parse_pos("3/3/7/7/7/3/3 o -");
            // Soldiers on a checkerboard-ish pattern leave landing points free.
            let mut n = 0;
            for &q in points {
                if (q.0 + q.1) % 2 == 1 && rng.chance(2, 3) || rng.chance(1, 8) {
                    p.set(q, 'S');
                    n += 1;
                }
            }
            let mut o = 0;
            while o < 2 {
                let q = points[rng.below(points.len())];
                if p.at(q) == '.' {
                    p.set(q, 'O');
                    o += 1;
                }
            }
            if n < 9 {
                continue;
            }
            let pos = slow::print_pos(&p);
            playout(&pos, &variant, &v, &mut rng, 6);
        }
    }
}

/// Positions from the perft files and a few more, under every variant.
#[test]
fn hand_made_positions_all_variants() {
    let mut positions: BTreeSet<String> = common::perft_lines()
        .iter()
        .map(|l| slow::canonical(&l.position))
        .collect();
    for extra in [
        // Two officers both offenders, each may be huffed.
        "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s c6,e6",
        // The last officer may be huffed and soldiers could also move.
        "SSS/S1S/2SOS2/7/SSS4/3/3 s d5",
        // No officer at all, either side to move.
        "SSS/SS1/2SS3/SS5/7/3/3 o -",
        "SSS/SS1/2SS3/SS5/7/3/3 s -",
        // Long chains around the centre.
        "3/1S1/1S1S1S1/O5O/1S1S1S1/1S1/1S1 o -",
        "1S1/SOS/1S1S1S1/3S3/1S1S1S1/1S1/3 o -",
        "3/S1S/1S1S1S1/2SOS2/1S1S1S1/S1S/3 o -",
    ] {
        positions.insert(slow::canonical(extra));
    }
    for variant in slow::all_switch_strings() {
        let v = lib_variant(&variant);
        let huff = variant.contains("capture=huff");
        for pos in &positions {
            if !huff && !slow::parse_pos(pos).huff.is_empty() {
                continue;
            }
            for child in check_position(pos, &variant, &v).values() {
                check_position(child, &variant, &v);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Move parsing: every candidate string is accepted exactly when legal
// ---------------------------------------------------------------------------

/// Candidate move strings for a position: every step along a segment (with
/// and without a huff prefix), every huff alone, every single jump and every
/// prefix and spelling of the oracle's chains.
fn candidates(pos: &slow::Pos, oracle: &[slow::SlowMove]) -> BTreeSet<String> {
    let points = slow::points_in_notation_order();
    let mut out = BTreeSet::new();
    let mut prefixes = vec![String::new()];
    for &o in &pos.pieces('O') {
        out.insert(format!("h{}", slow::name(o)));
        prefixes.push(format!("h{}:", slow::name(o)));
    }
    for &a in points {
        for &b in slow::neighbours(a) {
            for pre in &prefixes {
                out.insert(format!("{pre}{}-{}", slow::name(a), slow::name(b)));
            }
        }
        for &(_, land) in slow::jumps(a) {
            out.insert(format!("{}x{}", slow::name(a), slow::name(land)));
        }
    }
    for m in oracle {
        for s in &m.spellings {
            let parts: Vec<&str> = s.split('x').collect();
            for k in 2..=parts.len() {
                out.insert(parts[..k].join("x"));
            }
        }
    }
    out
}

#[test]
fn parse_move_accepts_exactly_the_legal_moves() {
    let mut rng = Rng::new(99);
    for variant in slow::all_switch_strings() {
        let v = lib_variant(&variant);
        let huff = variant.contains("capture=huff");
        let mut tried = 0;
        while tried < 40 {
            let pos = random_setup(&mut rng, huff);
            let sp = slow::parse_pos(&pos);
            let oracle = slow::moves(&pos, &variant);
            let legal: BTreeMap<&str, &str> = oracle
                .iter()
                .flat_map(|m| {
                    m.spellings
                        .iter()
                        .map(move |s| (s.as_str(), m.notation.as_str()))
                })
                .collect();
            let p: Position = lib_pos(&pos);
            for c in candidates(&sp, &oracle) {
                match (rules::parse_move(&p, &v, &c), legal.get(c.as_str())) {
                    (Ok(m), Some(n)) => assert_eq!(&m.to_string(), n, "{c} in {pos} [{variant}]"),
                    (Ok(m), None) => {
                        panic!("illegal {c} accepted (as {m}) in {pos} [{variant}]")
                    }
                    (Err(e), Some(_)) => panic!("legal {c} rejected in {pos} [{variant}]: {e}"),
                    (Err(_), None) => {}
                }
            }
            tried += 1;
        }
    }
}

// ---------------------------------------------------------------------------
// Notation and variants in the library
// ---------------------------------------------------------------------------

#[test]
fn variant_names() {
    let presets: Vec<(String, slow::Var)> = common::PRESETS
        .iter()
        .map(|n| (n.to_string(), slow::parse_variant(n)))
        .collect();
    for name in common::PRESETS {
        assert_eq!(lib_variant(name).to_string(), name);
    }
    for s in slow::all_switch_strings() {
        let v = lib_variant(&s);
        let shown = v.to_string();
        let want = slow::parse_variant(&s);
        assert_eq!(slow::parse_variant(&shown), want, "{s} shown as {shown}");
        match presets.iter().find(|(_, p)| *p == want) {
            Some((n, _)) => assert_eq!(&shown, n),
            None => assert_eq!(shown, s),
        }
        assert_eq!(lib_variant(&shown).to_string(), shown);
    }
    for bad in [
        "",
        "assaut2",
        "soldiers=closer",
        "soldiers=up,capture=huff,max=on,trapped=soldiers-win",
    ] {
        assert!(bad.parse::<Variant>().is_err(), "{bad:?} accepted");
    }
}

#[test]
fn position_notation() {
    // The huff field is optional on input and always printed.
    assert_eq!(
        lib_pos("3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s").to_string(),
        common::START
    );
    assert_eq!(lib_pos(common::START).side(), Side::Soldiers);
    let with_huff = "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s c6,e6";
    assert_eq!(lib_pos(with_huff).to_string(), with_huff);
    assert_eq!(lib_pos("SSS/SS1/2SS3/SS5/7/3/3 o -").side(), Side::Officers);
    for bad in [
        "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS o c6", // huff right, officers to move
        "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s d7", // huff right on an empty point
        "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS s -",      // six ranks
        "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSSS s -", // rank 1 too long
        "3/O1O/SS3SS/SSSSSSS/SSSSSS/SSS/SSS s -",   // rank 3 too short
        "3/O1O/SS3SS/SSSSSSS/SSSSXSS/SSS/SSS s -",  // bad piece
        "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS x -",  // bad side
        "3/OOO/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s -",  // three officers
    ] {
        assert!(bad.parse::<Position>().is_err(), "{bad:?} accepted");
    }
}

/// Start perft values given in the brief, on the library.
#[test]
fn start_perft_known_values() {
    for name in common::PRESETS {
        let v = lib_variant(name);
        let p = lib_pos(common::START);
        assert_eq!(rules::perft(&p, &v, 1), 9, "{name}");
        assert_eq!(
            rules::perft(&p, &v, 2),
            if name == "assaut-mdj" { 38 } else { 48 },
            "{name}"
        );
    }
}
