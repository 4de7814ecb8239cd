//! The `asalto` binary end to end: outputs, JSON shapes, and bad input
//! giving one-line errors with a non-zero exit (never a panic).

mod common;

use asalto_tb::index::FileKey;
use common::asalto;
use std::process::{Command, Output};

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

/// A position whose closure is two small tiers (the ninth soldier on e4,
/// eight in the fortress): tables for it build in a moment.
const TINY: &str = "SSS/SSS/O1SS3/4S2/6O/3/3 s";

/// Tables for [`TINY`] in a fresh folder.
fn tiny_tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let o = asalto(&[
        "build",
        "--for",
        TINY,
        "--threads",
        "1",
        "--tables",
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

#[test]
fn a_closed_stdout_ends_quietly() {
    use std::process::Stdio;
    let cases: &[&[&str]] = &[
        &["perft", "--depth", "5", "start"],
        &["query", "--tables", "/nonexistent", TINY],
        &["moves", "start"],
    ];
    for args in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_asalto"))
            .args(*args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the command prints anything.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_stderr_loses_the_messages_not_the_work() {
    // A pipe whose reading end is closed before the command starts: every
    // write to stderr fails (`eprintln!` would panic, exit 101).
    let closed = || {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        writer
    };
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    // A build prints its plan and a line per file to stderr; it still
    // builds, and the tables are whole.
    let o = Command::new(env!("CARGO_BIN_EXE_asalto"))
        .args(["build", "--for", TINY, "--threads", "1", "--tables", tables])
        .stderr(closed())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = asalto(&["query", "--json", "--tables", tables, TINY]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A note on stderr (tables missing: solved on demand), then errors: the
    // message is lost, the exit status is still the command's.
    let cases: &[(&[&str], i32)] = &[
        (&["query", "--tables", "/nonexistent", TINY], 0),
        (&["info", "--tables", "/nonexistent"], 1),
        (&["moves", "--variant", "nosuch", "start"], 1),
        (&["show", "not a position"], 1),
        (&["perft", "--depth", "many", "start"], 2),
    ];
    for (args, code) in cases {
        let shown = asalto(args);
        assert_eq!(
            shown.status.code(),
            Some(*code),
            "{args:?}: {}",
            stderr(&shown)
        );
        let o = Command::new(env!("CARGO_BIN_EXE_asalto"))
            .args(*args)
            .stderr(closed())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(*code), "{args:?}");
    }
}

#[test]
fn absurd_thread_counts_are_usage_errors() {
    for cmd in ["query", "solve"] {
        let o = asalto(&[cmd, "--threads", "100000", TINY]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(stderr(&o).contains("at most 1024"), "{}", stderr(&o));
    }
    let o = asalto(&["build", "--threads", "1025"]);
    assert_eq!(o.status.code(), Some(2));
    // A negative count is a bad value, not a flag (no tip about `--`).
    let o = asalto(&["query", "--threads", "-1", TINY]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("-1 threads: use 1 to 1024, or 0 for one per core"),
        "{err}"
    );
    assert!(!err.contains("tip"), "{err}");
    // The help says what 0 means, once.
    let help = stdout(&asalto(&["query", "--help"]));
    assert!(help.contains("0 for one per core"), "{help}");
    assert!(!help.contains("default: one per core"), "{help}");
}

/// A negative or too small memory budget, a tables folder that cannot be
/// made: each said once, on one line, before any work.
#[test]
fn bad_budgets_and_folders_are_said_once() {
    for memory in [&["--memory=-5GiB"][..], &["--memory", "-5GiB"]] {
        let args = [&["build", "--for", TINY][..], memory].concat();
        let o = asalto(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("'-5GiB' is negative"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    let o = asalto(&["build", "--for", TINY, "--memory", "1KiB", "--tables", t]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.matches("is too small").count(), 1, "{err}");
    assert!(err.lines().last().unwrap().starts_with("error: "), "{err}");
    // A file where the folder would go: cannot create, not "0 B free".
    let file = dir.path().join("file");
    std::fs::write(&file, b"").unwrap();
    let inside = file.join("tables");
    let o = asalto(&["build", "--for", TINY, "--tables", inside.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("cannot create the tables folder"), "{err}");
    assert!(!err.contains("free"), "{err}");
}

/// `bench --build-summary` reads its files before measuring anything: a
/// missing one is the error, before any rate is measured.
#[test]
fn bench_checks_its_summaries_first() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let o = asalto(&[
        "bench",
        "--build-summary",
        missing.to_str().unwrap(),
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("cannot read"), "{err}");
    // Nothing was measured: no rate line before the error.
    assert_eq!(err.lines().count(), 1, "{err}");
    // A results folder that cannot be made is the error too, at once.
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"").unwrap();
    let o = asalto(&["bench", "--out", file.join("sub").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("cannot create the results folder"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn bad_soldier_ranges_are_usage_errors() {
    for range in ["30", "5..=3", "8..=10", "10..=9", "x"] {
        for cmd in ["build", "verify", "report", "plan"] {
            let o = asalto(&[cmd, "--soldiers", range]);
            assert_eq!(o.status.code(), Some(2), "{cmd} --soldiers {range}");
            assert!(stderr(&o).contains("9 <= A <= B <= 24"), "{}", stderr(&o));
        }
    }
}

#[test]
fn info_fails_on_unreadable_tables_and_on_a_file() {
    let dir = tiny_tables();
    let tables = dir.path().to_str().unwrap();
    let o = asalto(&["info", "--tables", tables]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    // Cut one file short.
    let file = dir.path().join("assaut/2o9s.atb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
    let o = asalto(&["info", "--tables", tables]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("2o9s.atb"));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("1 table file"), "{}", stderr(&o));
    // --tables naming a file.
    let f = file.to_str().unwrap();
    for args in [
        vec!["info", "--tables", f],
        vec!["query", "--tables", f, TINY],
        vec!["verify", "--tables", f],
        vec!["build", "--tables", f, "--for", TINY],
    ] {
        let o = asalto(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(
            stderr(&o).trim(),
            format!("error: --tables {f} is not a folder"),
            "{args:?}"
        );
    }
}

#[test]
fn too_large_queries_say_what_the_tables_would_cost() {
    for cmd in ["query", "solve"] {
        let o = asalto(&[cmd, "start"]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        for part in [
            "needs more than 3000000000 positions",
            "32 files",
            "on disk",
            "without distances",
            "to build and",
            "to verify on",
            "asalto plan --for",
            "asalto build --for",
        ] {
            assert!(err.contains(part), "{part}: {err}");
        }
        assert!(!err.contains("--soldiers 24"), "{err}");
    }
}

#[test]
fn a_refusals_time_is_the_plans_at_the_rate_it_names() {
    // The start's three estimates are one: the refusal's time at the rate
    // it names is plan's with that --rate, for 1 core as for 3.
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    for threads in ["1", "3"] {
        let o = asalto(&["query", "start", "--threads", threads, "--tables", t]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        let rate = err
            .split("--rate ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no rate named: {err}"));
        let before = err.split(" to build and ").next().unwrap();
        let time = &before[before.rfind("about ").unwrap()..];
        let after = err.split(" to build and ").nth(1).unwrap();
        let verify = after.split(" to verify on ").next().unwrap();
        let cores = format!("to verify on {threads} core");
        assert!(err.contains(&cores), "{err}");
        let o = asalto(&[
            "plan",
            "--for",
            "start",
            "--wdl-only",
            "--rate",
            rate,
            "--tables",
            t,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let line = out.lines().find(|l| l.starts_with("time: ")).unwrap();
        assert!(
            line.starts_with(&format!("time: {time} here")),
            "{line} / {err}"
        );
        let line = out.lines().find(|l| l.starts_with("verify: ")).unwrap();
        assert!(
            line.starts_with(&format!("verify: about {verify} more")),
            "{line} / {err}"
        );
    }
}

#[test]
fn build_prints_its_plan_and_progress_lines_first() {
    let dir = tempfile::tempdir().unwrap();
    let o = asalto(&[
        "build",
        "--for",
        TINY,
        "--tables",
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let first = err.lines().next().unwrap();
    // The closure: one tier with two officers (2 x C(9,8) x C(24,2) = 4968
    // positions) and one with one (2 x 9 x 24 = 432).
    assert!(first.starts_with("build assaut under "), "{first}");
    assert!(
        first.contains("2 files (1o9s, 2o9s), 2 tiers, 5400 positions"),
        "{first}"
    );
    // stderr is not a terminal here: a line per file started.
    assert!(
        err.contains("file 1: assaut 1o9s: 1 tiers, 432 positions"),
        "{err}"
    );
}

#[test]
fn every_command_has_examples_and_help_works() {
    let commands = [
        "rules", "show", "moves", "perft", "solve", "query", "build", "verify", "bench", "report",
        "repack", "plan", "info", "serve", "help",
    ];
    for cmd in commands {
        let o = asalto(&[cmd, "--help"]);
        assert!(o.status.success(), "{cmd}: {}", stderr(&o));
        assert!(stdout(&o).contains("Examples:"), "{cmd}");
        let o = asalto(&["help", cmd]);
        assert!(o.status.success(), "help {cmd}: {}", stderr(&o));
        assert!(stdout(&o).contains("Examples:"), "help {cmd}");
    }
    let o = asalto(&["help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("Commands:"));
    let o = asalto(&["help", "nope"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn perft_depth_zero_counts_the_position() {
    let o = asalto(&["perft", "--depth", "0", "start"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "perft 0 1\n");
}

#[test]
fn verify_leaves_no_records_without_resume() {
    let dir = tiny_tables();
    let tables = dir.path().to_str().unwrap();
    let records = || -> Vec<String> {
        std::fs::read_dir(dir.path().join("assaut"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".verify"))
            .collect()
    };
    let o = asalto(&["verify", "--tables", tables]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(records().is_empty(), "{:?}", records());
    // With --resume the records stay, for the next --resume.
    let o = asalto(&["verify", "--resume", "--tables", tables]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(records().len(), 2, "{:?}", records());
}

/// `asalto plan --soldiers 9 --rate 1e7` with `more`.
fn plan_nine(more: &[&str]) -> Output {
    let mut args = vec!["plan", "--soldiers", "9", "--rate", "1e7"];
    args.extend_from_slice(more);
    asalto(&args)
}

#[test]
fn plan_says_what_a_memory_budget_holds() {
    // The window of each 9-soldier file is the one the complete build to
    // 12 soldiers measured (window_peak_bytes of
    // scripts/bench-runs/2026-11-25-build12/1-build.json).
    let o = asalto(&["plan", "--soldiers", "9", "--rate", "1e7", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files[0]["window_bytes"], 111_706_080u64);
    assert_eq!(files[1]["window_bytes"], 1_284_619_920u64);
    for f in files {
        let at = |key: &str| f[key].as_u64().unwrap();
        assert!(at("memory_bytes") > at("window_bytes") + (1 << 30), "{f}");
        assert!(at("least_memory_bytes") < at("memory_bytes"), "{f}");
    }
    // WDL-only: two bits a value (a byte per tier's half at most over a
    // quarter), so that 2GiB, which with distances reads back (below),
    // holds every window.
    let o = plan_nine(&["--memory", "2GiB", "--wdl-only", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let w: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(w["wdl_only"], true);
    for (f, g) in files.iter().zip(w["files"].as_array().unwrap()) {
        let (bytes, quarter) = (
            g["window_bytes"].as_u64().unwrap(),
            f["window_bytes"].as_u64().unwrap() / 4,
        );
        assert!(bytes >= quarter && bytes <= quarter + f["tiers"].as_u64().unwrap());
        assert!(
            g["memory_bytes"].as_u64() < f["memory_bytes"].as_u64(),
            "{g}"
        );
        assert_eq!(g["window_in_memory"], true, "{g}");
    }
    // Too small to start, too small to hold 2o9s's window, enough.
    for (memory, says) in [
        ("1GiB", "would be refused"),
        (
            "2GiB",
            "1 file (marked *) reads some of its own solved tiers back",
        ),
        ("3GiB", "keeps every file's solved tiers in memory"),
    ] {
        let o = plan_nine(&["--memory", memory]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(says), "{memory}: {out}");
    }
}

#[test]
fn a_closures_plan_counts_its_own_tiers_and_its_build_refuses_below_the_plans_least_budget() {
    use asalto_tb::budget::MIN_WINDOW_BYTES;
    use asalto_tb::build::{bytes_besides_window, window_peak_bytes};
    use asalto_tb::table::WriteOptions;
    const POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";
    let variant = asalto_tb::Variant::ASSAUT;
    let tiers = asalto_tb::solve::Solver::new(variant).closure_of(&POS.parse().unwrap());
    let plan = common::json(&asalto(&["plan", "--for", POS, "--rate", "1e7", "--json"]));
    let files = plan["files"].as_array().unwrap();
    let at = |f: &serde_json::Value, key: &str| f[key].as_u64().unwrap();
    // Each file's memory is that of the closure's own tiers: their window,
    // and what the build needs besides it for their count and positions.
    for f in files {
        let own = common::own_tiers(
            &tiers,
            FileKey::new(at(f, "officers") as u8, at(f, "soldiers") as u8),
        );
        let positions: u64 = own.iter().map(|t| t.size()).sum();
        assert_eq!(at(f, "positions"), positions, "{f}");
        let window = window_peak_bytes(&variant, &own, false);
        assert_eq!(at(f, "window_bytes"), window, "{f}");
        let besides =
            bytes_besides_window(own.len() as u64, positions, &WriteOptions::of_kind(false));
        assert_eq!(
            at(f, "least_memory_bytes"),
            besides + MIN_WINDOW_BYTES,
            "{f}"
        );
        assert_eq!(
            at(f, "memory_bytes"),
            besides + window.max(MIN_WINDOW_BYTES),
            "{f}"
        );
    }
    // The least budget of the build is the most any file needs at least.
    let least = at(&plan, "least_memory_bytes");
    let most = files.iter().map(|f| at(f, "least_memory_bytes")).max();
    assert_eq!(Some(least), most);
    // A byte less: the plan says the build would be refused, and the build
    // refuses, before writing anything, with the same figure.
    let short = (least - 1).to_string();
    let figure = format!(
        "needs at least {} ({least} bytes",
        asalto_tb::plan::human_bytes(least)
    );
    let o = asalto(&["plan", "--for", POS, "--rate", "1e7", "--memory", &short]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stdout(&o);
    assert!(
        line.contains("would be refused") && line.contains(&figure),
        "{line}"
    );
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("t");
    let o = asalto(&[
        "build",
        "--for",
        POS,
        "--memory",
        &short,
        "--tables",
        tables.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.lines().last().unwrap().contains(&figure), "{err}");
    assert!(
        !tables.exists(),
        "the refused build wrote {}",
        tables.display()
    );
}

/// `--block-cache` comes out of the window's room: with a budget 256 MiB
/// over the plan's least, a cache 256 MiB over its 64 MiB floor is built
/// with (and reported), a byte more is refused before anything is
/// written; the files do not depend on it.
#[test]
fn a_block_cache_comes_out_of_the_budget_and_changes_no_byte() {
    use asalto_tb::table::blocks::DEFAULT_BYTES;
    const POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";
    let plan = common::json(&asalto(&[
        "plan",
        "--for",
        POS,
        "--rate",
        "1e7",
        "--wdl-only",
        "--json",
    ]));
    let least = plan["least_memory_bytes"].as_u64().unwrap();
    let memory = (least + (256 << 20)).to_string();
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, extra: &[&str]| {
        let tables = dir.path().join(name);
        let mut args = vec!["build", "--for", POS, "--wdl-only", "--json"];
        args.extend(extra);
        args.extend(["--tables", tables.to_str().unwrap()]);
        (asalto(&args), tables)
    };
    let over = (DEFAULT_BYTES + (256 << 20) + 1).to_string();
    let (o, tables) = build("over", &["--memory", &memory, "--block-cache", &over]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--block-cache"), "{err}");
    assert!(
        !tables.exists(),
        "the refused build wrote {}",
        tables.display()
    );

    let fits = DEFAULT_BYTES + (256 << 20);
    let (o, tables) = build(
        "fits",
        &["--memory", &memory, "--block-cache", &fits.to_string()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json = common::json(&o);
    let files = json["builds"][0]["files"].as_array().unwrap();
    for f in files {
        assert_eq!(f["block_cache_bytes"].as_u64(), Some(fits), "{f}");
    }
    let (o, plain) = build("default", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in files {
        let name = format!("{}.atb", f["file"].as_str().unwrap());
        let read = |t: &std::path::Path| std::fs::read(t.join("assaut").join(&name)).unwrap();
        assert_eq!(read(&tables), read(&plain), "{name}");
    }
}

#[test]
fn plan_counts_the_files_a_closures_build_would_skip_as_built() {
    const POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";
    // A closure over the same files with more tiers in each.
    const LARGER: &str = "S1S/3/OSS1SO1/2SSS2/3S3/S2/3 s";
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    let plan = |pos: &str| {
        common::json(&asalto(&[
            "plan", "--for", pos, "--rate", "1e7", "--tables", t, "--json",
        ]))
    };
    let built = |v: &serde_json::Value| -> Vec<bool> {
        let files = v["files"].as_array().unwrap();
        files.iter().map(|f| f["built"] == true).collect()
    };
    let before = plan(POS);
    assert!(built(&before).iter().all(|b| !b));
    common::json(&asalto(&["build", "--for", POS, "--tables", t, "--json"]));
    // Built: nothing left to build, as a build run again skips every file.
    let after = plan(POS);
    assert!(built(&after).iter().all(|b| *b), "{after}");
    assert_eq!(after["positions_to_build"], 0);
    let again = common::json(&asalto(&["build", "--for", POS, "--tables", t, "--json"]));
    let skipped: Vec<bool> = again["builds"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["skipped"] == true)
        .collect();
    assert_eq!(skipped, built(&after));
    // The larger closure's tiers are not all there: still to build.
    let larger = plan(LARGER);
    assert!(built(&larger).iter().all(|b| !b), "{larger}");
    assert_eq!(larger["positions_to_build"], larger["positions"]);
}

#[test]
fn plan_counts_and_estimates() {
    // The complete 9-soldier tables: the positions of the bench record's
    // files (928,318,512 + 10,675,662,888).
    let o = asalto(&["plan", "--soldiers", "9", "--rate", "1e7", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["positions"], 928_318_512u64 + 10_675_662_888);
    assert_eq!(v["files"].as_array().unwrap().len(), 2);
    let secs = v["seconds"].as_f64().unwrap();
    // At the position solver's rate at 9 soldiers (no --wdl-only), on
    // the bench cores 1e7 positions/s is worth.
    let expected = asalto_tb::plan::build_core_seconds(9, 11_603_981_400, false)
        / asalto_tb::plan::cores_worth(1e7);
    assert!((secs - expected).abs() < 1.0, "{secs} vs {expected}");
    let (all, wdl) = (
        v["disk_bytes"].as_u64().unwrap(),
        v["disk_bytes_wdl_only"].as_u64().unwrap(),
    );
    assert!(all > wdl && wdl > 0);
    // The whole game: every file of 9..=24 soldiers, complete.
    let o = asalto(&["plan", "--for", "start", "--rate", "1e7", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 32);
    assert!(files.iter().all(|f| f["complete"] == true));
    let sum: u64 = files.iter().map(|f| f["positions"].as_u64().unwrap()).sum();
    assert_eq!(v["positions"].as_u64().unwrap(), sum);
    // The text form says whether it fits and how long.
    let o = asalto(&["plan", "--for", TINY, "--rate", "1e7"]);
    let out = stdout(&o);
    assert!(out.contains("5400 positions"), "{out}");
    assert!(out.contains("free disk under"), "{out}");
    assert!(out.contains("time: about"), "{out}");
    assert!(out.contains("verify: not estimated"), "{out}");
    // WDL-only: the verify of every file, at the check's rates (nothing
    // built here); the JSON gives its ratio to the build's time.
    let o = asalto(&[
        "plan",
        "--for",
        TINY,
        "--rate",
        "1e7",
        "--wdl-only",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let (build, verify) = (
        v["seconds"].as_f64().unwrap(),
        v["verify_seconds"].as_f64().unwrap(),
    );
    assert_eq!(v["positions_to_build"], v["positions"]);
    let ratio = v["verify_over_build"].as_f64().unwrap();
    assert!(ratio > 0.0 && (verify / build - ratio).abs() < 1e-9, "{v}");
    let o = asalto(&["plan", "--for", TINY, "--rate", "1e7", "--wdl-only"]);
    assert!(stdout(&o).contains("verify: about"), "{}", stdout(&o));
    // Bad rates are refused.
    for rate in ["-3", "0", "x", "inf"] {
        let o = asalto(&["plan", "--rate", rate]);
        assert_eq!(o.status.code(), Some(2), "{rate}");
    }
}

#[test]
fn options_after_the_position_are_options() {
    // The position's words end where an option begins.
    let o = asalto(&["query", "SSS/SSS/O1SS3/4S2/6O/3/3 s", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["position"], "SSS/SSS/O1SS3/4S2/6O/3/3 s -");
    let o = asalto(&["show", "start", "--variant", "asalto"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Separate words, then an option.
    let o = asalto(&["moves", "SSS/SSS/O1SS3/4S2/6O/3/3", "s", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).trim_start().starts_with('{'));
}

#[test]
fn perft_json_has_the_counts_of_its_lines() {
    let text = stdout(&asalto(&["perft", "--depth", "3", "start"]));
    let o = asalto(&["perft", "--depth", "3", "start", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let lines: Vec<String> = v["perft"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("perft {} {}", c["depth"], c["nodes"]))
        .collect();
    assert_eq!(lines.join("\n"), text.trim());
    assert_eq!(lines.len(), 3);
}

#[test]
fn info_fails_on_a_missing_folder_and_on_a_flipped_byte() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing-here");
    let o = asalto(&["info", "--tables", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("no such folder"), "{}", stderr(&o));
    // A small table, then one byte of a block flipped.
    let tables = dir.path().join("t");
    let t = tables.to_str().unwrap();
    let o = asalto(&[
        "build",
        "--for",
        "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s",
        "--tables",
        t,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(asalto(&["info", "--tables", t]).status.success());
    let file = tables.join("assaut").join("2o10s.atb");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    let o = asalto(&["info", "--tables", t]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("2o10s") || stderr(&o).contains("2o10s"));
    assert!(stderr(&o).contains("cannot be read"), "{}", stderr(&o));
}

/// Stops a build at the first checkpoint of its file `(n, k)`.
struct StopInFile {
    file: asalto_tb::index::FileKey,
    current: std::sync::Mutex<Option<asalto_tb::index::FileKey>>,
}

impl asalto_tb::progress::Observer for StopInFile {}

impl asalto_tb::build::BuildObserver for StopInFile {
    fn file_start(&self, file: asalto_tb::index::FileKey, _: usize, _: u64, _: u64) {
        *self.current.lock().unwrap() = Some(file);
    }
    fn checkpoint(&self, _positions: u64) -> bool {
        *self.current.lock().unwrap() != Some(self.file)
    }
}

#[test]
fn info_says_which_tables_are_partial_and_which_are_being_built() {
    use asalto_tb::build::{self, BuildOptions};
    use asalto_tb::table::{table_path, temporary_path};
    // A closure build stopped at the first checkpoint of its last file.
    let variant = asalto_tb::Variant::ASSAUT;
    let pos: asalto_tb::Position = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s".parse().unwrap();
    let tiers = asalto_tb::solve::Solver::new(variant).closure_of(&pos);
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    let opts = BuildOptions {
        checkpoint_secs: 0,
        ..BuildOptions::threads(1)
    };
    let stop = StopInFile {
        file: asalto_tb::index::FileKey::new(2, 10),
        current: std::sync::Mutex::new(None),
    };
    let r = build::build_tiers(dir.path(), &variant, &tiers, &opts, &stop);
    assert!(matches!(r, Err(build::BuildError::Stopped(_))));
    let last = table_path(dir.path(), &variant, FileKey::new(2, 10));
    // The checkpoint as the library reads it: of the last file's own
    // tiers, part of them written.
    let unfinished = build::unfinished(dir.path());
    assert_eq!(unfinished.len(), 1, "{unfinished:?}");
    assert_eq!(unfinished[0].table, last);
    let ckpt = unfinished[0]
        .checkpoint
        .as_ref()
        .expect("a checkpoint of the last file")
        .as_ref()
        .expect("a usable one");
    let own: u64 = common::own_tiers(&tiers, FileKey::new(2, 10))
        .iter()
        .map(|t| t.size())
        .sum();
    assert_eq!(ckpt.positions, own);
    assert!(
        0 < ckpt.positions_done && ckpt.positions_done < own,
        "{ckpt:?}"
    );
    assert!(temporary_path(&last).exists() && !last.exists());

    // Not an error: the finished files, each partial, and the last one
    // being built, as far as its checkpoint got.
    let v = common::json(&asalto(&["info", "--tables", t, "--json"]));
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 3);
    for f in tables {
        let k = f["soldiers"].as_u64().unwrap() as u8;
        let own = common::own_tiers(
            &tiers,
            FileKey::new(f["officers"].as_u64().unwrap() as u8, k),
        );
        assert_eq!(f["tiers"], own.len() as u64, "{f}");
        assert_eq!(f["complete_tiers"], asalto_tb::index::complete_tiers(k));
        assert_eq!(f["complete"], false, "{f}");
    }
    let in_progress = v["in_progress"].as_array().unwrap();
    assert_eq!(in_progress.len(), 1, "{v}");
    let p = &in_progress[0];
    assert_eq!(p["file"], last.display().to_string());
    assert_eq!(p["temporary"], true);
    assert_eq!(p["checkpoint"]["positions_done"], ckpt.positions_done);
    assert_eq!(p["checkpoint"]["positions"], ckpt.positions);
    // The text says the same.
    let o = asalto(&["info", "--tables", t]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let partial = out.lines().filter(|l| l.contains("partial")).count();
    assert_eq!(partial, 3, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with(&last.display().to_string()))
        .unwrap_or_else(|| panic!("no line of {}: {out}", last.display()));
    assert!(line.contains("being built"), "{line}");
    let held = format!("{} of {} positions", ckpt.positions_done, ckpt.positions);
    assert!(line.contains(&held), "{line}");
}

#[test]
fn repack_and_build_refuse_a_zstd_level_out_of_range() {
    for cmd in ["repack", "build"] {
        for level in ["--level=999", "--level=0", "--level=-3"] {
            let o = asalto(&[cmd, "--tables", "/nonexistent", level]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {level}");
            assert!(stderr(&o).contains("--level"), "{}", stderr(&o));
            assert!(!std::path::Path::new("/nonexistent").exists());
        }
    }
}

#[test]
fn a_window_of_zero_bytes_reads_everything_back_and_writes_the_same_file() {
    // The hidden --window-bytes takes 0, as its help says.
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| {
        let t = dir.path().join(name);
        let mut args = vec!["build", "--for", "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s"];
        let tables = t.to_str().unwrap().to_string();
        args.extend(["--tables", &tables]);
        if name == "zero" {
            args.extend(["--window-bytes", "0"]);
        }
        let o = asalto(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(t.join("assaut").join("2o10s.atb")).unwrap()
    };
    assert_eq!(file("zero"), file("memory"));
}
