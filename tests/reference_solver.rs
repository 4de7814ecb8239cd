//! The library's solver against the reference solver in
//! `tests/common/reference.rs` (plain fixed-point iteration over the states
//! enumerated by the slow oracle), on every state of small closures, plus a
//! few endgames whose values are worked out by hand.

mod common;

use asalto_tb::Value;
use asalto_tb::solve::Solver;
use common::reference::{self, RefValue};
use common::{lib_pos, lib_variant};
use std::collections::HashSet;

fn to_ref(v: Value) -> RefValue {
    match v {
        Value::Win(d) => RefValue::Win(d),
        Value::Draw => RefValue::Draw,
        Value::Loss(d) => RefValue::Loss(d),
    }
}

/// Solves the closure of `root` both ways and compares every state;
/// returns the values.
fn compare(root: &str, variant: &str, max_states: usize) -> anyhow::Result<Vec<RefValue>> {
    let reference = reference::solve(root, variant, max_states);
    let v = lib_variant(variant);
    let sol = Solver::new(v).threads(1).solve_closure(&lib_pos(root))?;
    let mut wrong = Vec::new();
    for (state, want) in reference.states.iter().zip(&reference.values) {
        let got = to_ref(sol.value(&lib_pos(state))?);
        if got != *want {
            wrong.push(format!("  {state}: library {got:?}, reference {want:?}"));
        }
    }
    let n = reference.states.len();
    assert!(
        wrong.is_empty(),
        "closure of {root} [{variant}]: {} of {n} states differ, e.g.\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    Ok(reference.values)
}

// Roots: 9 or 10 soldiers, most of them inside or next to the fortress.
/// 9 soldiers: 8 in the fortress (e7 free) and c4; officers g4 b3; soldiers
/// to move (a loss in 4 under every preset).
const R_NEAR_FULL: &str = "SS1/SSS/2SSS2/2S3O/1O5/3/3 s -";
/// 9 soldiers, officer d6 inside the fortress, three soldiers on b4 d4 f4;
/// has trapped officers and a few draws in its closure.
const R_OFFICER_INSIDE: &str = "SSS/SOS/2S4/1S1S1S1/7/3/3 s -";
/// 9 soldiers, officers side by side on a3 b3.
const R_CORNER: &str = "SSS/SSS/2S1S2/1S5/OO5/3/3 o -";
/// 9 soldiers, a drawn root (many draws in the closure).
const R_DRAWN: &str = "SSS/SS1/2SS1S1/3S3/1O3O1/3/3 o -";
/// 10 soldiers: one capture does not end the game, so max on/off and huffs
/// after a capture matter.
const R_TEN: &str = "SSS/S1S/2SSS2/2S1S2/2O1O2/3/3 o -";

#[test]
fn presets_near_full_fortress() -> anyhow::Result<()> {
    for variant in common::PRESETS {
        compare(R_NEAR_FULL, variant, 20_000)?;
    }
    Ok(())
}

#[test]
fn presets_officer_inside() -> anyhow::Result<()> {
    for variant in ["assaut", "assaut-mdj", "asalto"] {
        compare(R_OFFICER_INSIDE, variant, 30_000)?;
    }
    Ok(())
}

#[test]
fn presets_corner_officers() -> anyhow::Result<()> {
    for variant in common::PRESETS {
        compare(R_CORNER, variant, 30_000)?;
    }
    Ok(())
}

#[test]
fn presets_drawn_root() -> anyhow::Result<()> {
    for variant in ["assaut", "assaut-mdj"] {
        compare(R_DRAWN, variant, 60_000)?;
    }
    Ok(())
}

#[test]
fn ten_soldiers_max_on_and_off() -> anyhow::Result<()> {
    for variant in ["assaut", "asalto"] {
        compare(R_TEN, variant, 80_000)?;
    }
    Ok(())
}

/// The parallel solver gives the same values as the serial one.
#[test]
fn serial_and_parallel_agree() -> anyhow::Result<()> {
    let reference = reference::solve(R_OFFICER_INSIDE, "assaut", 30_000);
    let v = lib_variant("assaut");
    let root = lib_pos(R_OFFICER_INSIDE);
    let one = Solver::new(v).threads(1).solve_closure(&root)?;
    let two = Solver::new(v).threads(2).solve_closure(&root)?;
    for state in &reference.states {
        let p = lib_pos(state);
        assert_eq!(one.value(&p)?, two.value(&p)?, "{state}");
    }
    Ok(())
}

/// 10 soldiers, officer d6 in the fortress over d5 with d4 free and
/// officer d3 below: captures (d6xd4 and on) that leave the game going.
/// 1,704 states: small enough for every switch combination.
const R_TEN_D6: &str = "SSS/SOS/2SSS2/2S1S2/3O3/3/3 o -";
/// 10 soldiers, officers d4 (between c4 and e4) and d6: 1,698 states.
const R_TEN_D4: &str = "SSS/S1S/2SSS2/2SOS2/7/3/3 o -";

/// Every one of the 24 switch combinations (docs/RULES.md section 7) with one
/// soldier rule on the two smallest 9-soldier closures and two small
/// 10-soldier ones; half the combinations per test.
fn every_switch_combination(soldiers: &str) -> anyhow::Result<()> {
    // Each root with the most states its closure may have.
    let roots = [
        (R_NEAR_FULL, 20_000),
        (R_CORNER, 30_000),
        (R_TEN_D6, 20_000),
        (R_TEN_D4, 20_000),
    ];
    // The values of each root's closure under each combination.
    let mut seen: Vec<HashSet<Vec<RefValue>>> = vec![HashSet::new(); roots.len()];
    for variant in slow_all() {
        if variant.starts_with(&format!("soldiers={soldiers},")) {
            for ((root, max), seen) in roots.iter().zip(&mut seen) {
                seen.insert(compare(root, &variant, *max)?);
            }
        }
    }
    // The switches matter on these closures (else the test would tell
    // little): the twelve combinations do not all give the same values.
    for ((root, _), seen) in roots.iter().zip(&seen) {
        assert!(seen.len() > 1, "{root}: every {soldiers} variant agrees");
    }
    Ok(())
}

#[test]
fn every_closer_switch_combination() -> anyhow::Result<()> {
    every_switch_combination("closer")
}

#[test]
fn every_forward_switch_combination() -> anyhow::Result<()> {
    every_switch_combination("forward")
}

#[test]
fn non_preset_switches_officer_inside() -> anyhow::Result<()> {
    for variant in [
        "soldiers=closer,capture=free,max=on,trapped=soldiers-lose",
        "soldiers=closer,capture=mandatory,max=off,trapped=soldiers-win",
        "soldiers=closer,capture=huff,max=on,trapped=soldiers-lose",
    ] {
        compare(R_OFFICER_INSIDE, variant, 30_000)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Endgames worked out by hand
// ---------------------------------------------------------------------------

/// Asserts `pos`'s value under `variant` from the library (solving the
/// closure of `pos` itself) and, when that closure is small enough, from the
/// reference solver.
fn assert_value(pos: &str, variant: &str, want: RefValue) -> anyhow::Result<()> {
    if let Some(reference) = reference::try_solve(pos, variant, 100_000) {
        assert_eq!(reference.values[0], want, "reference: {pos} [{variant}]");
    }
    let sol = Solver::new(lib_variant(variant))
        .threads(1)
        .solve_closure(&lib_pos(pos))?;
    assert_eq!(
        to_ref(sol.value(&lib_pos(pos))?),
        want,
        "library: {pos} [{variant}]"
    );
    Ok(())
}

#[test]
fn hand_checked_endgames() -> anyhow::Result<()> {
    use RefValue::{Loss, Win};
    // Fortress full but for d5, soldier on d4, officers far away on a3 g3
    // (no soldier beside them). Soldiers to move: d4-d5 fills the fortress at
    // once: Win(1) under every variant.
    for variant in slow_all() {
        assert_value("SSS/SSS/2S1S2/3S3/O5O/3/3 s -", &variant, Win(1))?;
    }
    // The same with the officers to move: no officer move reaches d5 or takes
    // anything (so no fault either), and then d4-d5 wins: Loss(2).
    for variant in common::PRESETS {
        assert_value("SSS/SSS/2S1S2/3S3/O5O/3/3 o -", variant, Loss(2))?;
    }
    // Officers c7 e7, 9 soldiers, e5 free: e7xe5xe3 (over e6, then e4) leaves
    // 7 soldiers, so the officers win at once: Win(1) (huff or not, a capture
    // of the maximum is no fault; under mandatory it is the only kind of move).
    for variant in common::PRESETS {
        assert_value("OSO/SSS/2SS3/1S2S2/6S/3/3 o -", variant, Win(1))?;
    }
    // Both officers trapped (c7 e7 walled in by soldiers, every jump lands on
    // a soldier or on the other officer), officers to move: the game is over.
    // trapped=soldiers-win: a loss for the officers; soldiers-lose: a win.
    assert_value("OSO/SSS/2SSS2/7/S5S/3/3 o -", "assaut", Loss(0))?;
    assert_value("OSO/SSS/2SSS2/7/S5S/3/3 o -", "assault", Loss(0))?;
    assert_value("OSO/SSS/2SSS2/7/S5S/3/3 o -", "assaut-mdj", Win(0))?;
    // The last officer (c7) trapped: the same under both settings.
    assert_value("OSS/SS1/2S1S2/7/SSS4/3/3 o -", "asalto", Loss(0))?;
    assert_value("OSS/SS1/2S1S2/7/SSS4/3/3 o -", "assaut-mdj", Win(0))?;
    // The last officer on c7, walled in by d7 e7 c6 d6 except that c5 is
    // free (so c7xc5 over c6 is possible); soldiers also on d5 e6 e5, b5 c4.
    // c4-c5 traps it; with trapped=soldiers-win that wins at once: Win(1).
    assert_value("OSS/SSS/1S1SS2/2S4/7/3/3 s -", "assaut", Win(1))?;
    assert_value("OSS/SSS/1S1SS2/2S4/7/3/3 s -", "assault", Win(1))?;
    // The last officer, on c5, may be huffed; no soldier can move without
    // the huff. Huffing it wins at once: Win(1). Without the huff right the
    // soldiers are stuck: the officers have won, Loss(0) for the soldiers.
    // (Under soldiers=forward b4-a5 is a move, so only closer is stuck.)
    for variant in ["assaut", "asalto", "assault"] {
        assert_value("SSS/SSS/1SOSS2/1SS4/7/3/3 s c5", variant, Win(1))?;
    }
    for variant in ["assaut", "asalto", "assaut-mdj"] {
        assert_value("SSS/SSS/1SOSS2/1SS4/7/3/3 s -", variant, Loss(0))?;
    }
    // Two officers, c5 may be huffed: hc5:b5-c5 fills the fortress: Win(1).
    assert_value("SSS/SSS/1SOSS2/1SS4/6O/3/3 s c5,g3", "assaut", Win(1))?;
    // Soldiers walled in by officers c5 e5 with d5 filled: stuck, Loss(0).
    assert_value("SSS/SSS/1SOSOS1/2SSS2/7/3/3 s -", "assaut", Loss(0))?;
    // Games already over: full fortress (officers to move), fewer than 9
    // soldiers (soldiers to move, even with a huff right), no officer left.
    assert_value("SSS/SSS/2SSS2/7/O5O/3/3 o -", "assaut", Loss(0))?;
    assert_value("SSS/SSS/2SS3/7/O5O/3/3 s a3", "assaut", Loss(0))?;
    assert_value("SSS/SS1/2SS3/SS5/7/3/3 o -", "assaut", Loss(0))?;
    Ok(())
}

fn slow_all() -> Vec<String> {
    common::slow::all_switch_strings()
}
