//! The `asalto` binary end to end: outputs, JSON shapes, and bad input
//! giving one-line errors with a non-zero exit (never a panic).

use std::process::{Command, Output};

fn asalto(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_asalto"))
        .args(args)
        .output()
        .expect("run asalto")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn perft_lines() {
    let o = asalto(&["perft", "--depth", "2", "start"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "perft 1 9\nperft 2 48\n");
    let o = asalto(&["perft", "-v", "assaut-mdj", "--depth", "2", "start"]);
    assert_eq!(stdout(&o), "perft 1 9\nperft 2 38\n");
}

#[test]
fn position_as_separate_words() {
    let o = asalto(&["moves", "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS", "s", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 9);
}

#[test]
fn moves_mark_faults() {
    // Officer d6 may take d5 (over to d4); any step is a fault exposing it.
    let o = asalto(&["moves", "3/1O1/3S3/7/S5S/SSS/SSS o"]);
    let out = stdout(&o);
    assert!(out.contains("d6xd4\n"), "{out}");
    assert!(out.contains("d6-d7  fault: may huff d7"), "{out}");
    let o = asalto(&["moves", "--json", "3/1O1/3S3/7/S5S/SSS/SSS o"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let moves = v["moves"].as_array().unwrap();
    let capture = moves.iter().find(|m| m["move"] == "d6xd4").unwrap();
    assert_eq!(capture["taken"], 1);
    assert_eq!(capture["fault"], false);
    let step = moves.iter().find(|m| m["move"] == "d6-c6").unwrap();
    assert_eq!(step["huffable"], serde_json::json!(["c6"]));
}

#[test]
fn show_reports_game_over() {
    // Fortress full: soldiers won.
    let o = asalto(&["show", "SSS/SSS/O1SSS2/7/7/3/3 o"]);
    assert!(stdout(&o).contains("game over (assaut): soldiers won"));
    let o = asalto(&["show", "--json", "start"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["over"], false);
    assert_eq!(v["soldiers"], 24);
    assert_eq!(v["officers"], serde_json::json!(["c6", "e6"]));
}

#[test]
fn query_json_shape_and_values() {
    // e4-e5 fills the fortress: a win in 1 ply.
    let o = asalto(&["query", "--json", "SSS/SSS/O1SS3/4S2/6O/3/3 s"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["position"], "SSS/SSS/O1SS3/4S2/6O/3/3 s -");
    assert_eq!(v["variant"], "assaut");
    assert_eq!(v["result"], "win");
    assert_eq!(v["plies"], 1);
    let first = &v["moves"][0];
    assert_eq!(first["move"], "e4-e5");
    assert_eq!(first["result"], "win");
    assert_eq!(first["plies"], 1);
    // Exactly one JSON object on stdout.
    assert_eq!(stdout(&o).trim().lines().count(), 1);
}

#[test]
fn query_game_over_has_no_moves() {
    let o = asalto(&["query", "--json", "SSS/SSS/O1SSS2/7/7/3/3 o"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"], "loss");
    assert_eq!(v["plies"], 0);
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn bad_input_is_a_one_line_error() {
    let cases: &[&[&str]] = &[
        &["show", "3/O1O/7/7/7/3 s"],                         // 6 ranks
        &["show", "3/O1O/6/7/7/3/3 s"],                       // short rank
        &["show", "3/OXO/7/7/7/3/3 s"],                       // unknown piece
        &["show", "OOO/3/7/7/7/3/3 s"],                       // 3 officers
        &["show", "3/O1O/SSSSSSS/SSSSSSS/SSSSSSS/SSS/SSS s"], // 27 soldiers
        &["show", "3/O1O/7/7/7/3/3 x"],                       // bad side
        &["show", "3/O1O/7/7/7/3/3 s d6"],                    // huff without officer
        &["show", "3/O1O/7/7/7/3/3 o c6"],                    // huff with officers to move
        &["moves", "-v", "nope", "start"],                    // unknown variant
        &[
            "moves",
            "-v",
            "soldiers=closer,capture=huff,max=on,colour=red",
            "start",
        ],
        &[
            "moves",
            "-v",
            "assaut-mdj",
            "3/O1O/2SSS2/7/S5S/SSS/SSS s c6",
        ], // huff under mandatory
        &["query", "start:c6,a3"], // officer outside the fortress
    ];
    for args in cases {
        let o = asalto(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}
