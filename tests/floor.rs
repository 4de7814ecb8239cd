//! Floors (`build --floor K --assume officers|soldiers`): the game above K
//! soldiers with every position below counted as one side's win brackets
//! the real value. On closures small enough for the suite, solved exactly
//! and above two floors under both assumptions, in a huff variant and a
//! mandatory one: every stored position's real result (for the soldiers)
//! lies between its result under the officers' floor and under the
//! soldiers' floor, both sides to move.

mod common;

use asalto_tb::bracket;
use asalto_tb::build::{self, BuildError, BuildOptions, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::TierKey;
use asalto_tb::solve::{Assume, Engine, Floor, Solver, TierStore};
use asalto_tb::table::{Table, TableSet, TableWriter, WriteOptions, table_path};
use asalto_tb::{Position, Side, Value, Variant, verify};
use std::path::Path;

/// The soldiers' result of `v` for the side to move in half `side` of a
/// tier (0: officers to move, 1: soldiers): 1 win, 0 draw, -1 loss.
fn soldiers(side: usize, v: Value) -> i8 {
    let mover = match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    };
    if side == 1 { mover } else { -mover }
}

/// Per floor: (positions compared, decided by the two floors, soldiers'
/// wins proved, officers' wins proved).
fn bracket(variant: Variant, root: &str, floors: &[u8]) -> Vec<(u64, u64, u64, u64)> {
    let p: Position = root.parse().unwrap();
    let exact = Solver::new(variant).threads(2).solve_closure(&p).unwrap();
    let all = Solver::new(variant).closure_of(&p);
    let mut out = Vec::new();
    for &k in floors {
        let solve = |assume| {
            let f = Floor::new(k, assume).unwrap();
            let s = Solver::new(variant).threads(2).floor(Some(f));
            let tiers = s.closure_of(&p);
            assert!(tiers.iter().all(|t| t.k >= k));
            assert_eq!(
                tiers.len(),
                all.iter().filter(|t| t.k >= k).count(),
                "the floor closure is the closure's top"
            );
            (tiers, s.solve_closure(&p).unwrap())
        };
        let (tiers, lo) = solve(Assume::Officers);
        let (_, hi) = solve(Assume::Soldiers);
        let (mut n, mut decided, mut sw, mut ow) = (0, 0, 0, 0);
        for key in &tiers {
            let e = exact.store().tier(key).unwrap().unwrap();
            let a = lo.store().tier(key).unwrap().unwrap();
            let b = hi.store().tier(key).unwrap().unwrap();
            let half = e.len() / 2;
            for i in 0..e.len() {
                let side = i / half;
                let r = soldiers(side, Value::from_code(e[i]));
                let l = soldiers(side, Value::from_code(a[i]));
                let u = soldiers(side, Value::from_code(b[i]));
                assert!(
                    l <= r && r <= u,
                    "{variant} floor {k} {key:?} #{i}: real {r}, bracket [{l}, {u}]"
                );
                n += 1;
                decided += u64::from(l == u);
                sw += u64::from(l == 1);
                ow += u64::from(u == -1);
            }
        }
        // The root itself too, through the lookups.
        let side = usize::from(p.side() == Side::Soldiers);
        let [r, l, u] = [&exact, &lo, &hi].map(|s| soldiers(side, s.value(&p).unwrap()));
        assert!(l <= r && r <= u, "{variant} floor {k} root: {r} [{l}, {u}]");
        out.push((n, decided, sw, ow));
    }
    out
}

#[test]
fn floors_bracket_the_real_values_in_a_huff_and_a_mandatory_variant() {
    let root = "SSS/1O1/1SS1S1O/2SSS2/3S3/1S1/3 s";
    for v in [Variant::ASSAUT, Variant::ASSAUT_MDJ] {
        let r = bracket(v, root, &[10, 11]);
        eprintln!("{v}: {r:?}");
        for (k, (n, decided, sw, ow)) in [10, 11].into_iter().zip(r) {
            assert!(n > 0, "{v} floor {k}: nothing compared");
            // Not vacuous: each floor proves wins of both sides somewhere
            // and leaves some positions open.
            assert!(sw > 0 && ow > 0, "{v} floor {k}: {sw} {ow}");
            assert!(decided < n, "{v} floor {k}: every position decided");
        }
    }
}

/// The options of `asalto build --wdl-only [--floor K --assume SIDE]`.
fn opts(floor: Option<Floor>) -> BuildOptions {
    BuildOptions {
        write: WriteOptions {
            floor,
            ..WriteOptions::wdl_only()
        },
        ..BuildOptions::threads(2)
    }
}

/// The files of `tiers`, in build order.
fn files(tiers: &[TierKey]) -> Vec<FileKey> {
    let mut f: Vec<FileKey> = tiers.iter().map(|t| t.file()).collect();
    f.sort_by_key(|f| (f.soldiers(), f.officers()));
    f.dedup();
    f
}

fn verify_floor(dir: &Path, v: &Variant, floor: Option<Floor>) -> verify::VerifyReport {
    let o = verify::VerifyOptions {
        floor,
        threads: 2,
        ..verify::VerifyOptions::default()
    };
    verify::verify(dir, v, &o, &Quiet).unwrap()
}

/// Floor files built as `asalto build --floor` builds them: in their own
/// folder, format 6 with the floor in the header, verified under their
/// floor, every value inside the bracket of the exact files' value; a
/// floor file among another floor's files, or among exact ones, is
/// refused; a floor file holding another assumption's values fails
/// verify.
#[test]
fn floor_files_are_built_verified_and_bracket_the_exact_files() {
    let root: Position = "SSS/1O1/1SS1S1O/2SSS2/3S3/1S1/3 s".parse().unwrap();
    let v = Variant::ASALTO;
    let dir = tempfile::tempdir().unwrap();
    let tiers = Solver::new(v).closure_of(&root);
    build::build_tiers(dir.path(), &v, &tiers, &opts(None), &Quiet).unwrap();
    assert_eq!(verify_floor(dir.path(), &v, None).bad_count, 0);
    let k = 11;
    let [lo, hi] = [Assume::Officers, Assume::Soldiers].map(|a| Floor::new(k, a).unwrap());
    let top: Vec<TierKey> = tiers.iter().copied().filter(|t| t.k >= k).collect();
    for f in [lo, hi] {
        // A build of the whole closure above a floor is refused.
        assert!(matches!(
            build::build_tiers(dir.path(), &v, &tiers, &opts(Some(f)), &Quiet),
            Err(BuildError::BelowFloor {
                k_min: 9,
                floor: 11
            })
        ));
        let reports = build::build_tiers(dir.path(), &v, &top, &opts(Some(f)), &Quiet).unwrap();
        assert_eq!(reports.len(), files(&top).len());
        let report = verify_floor(dir.path(), &v, Some(f));
        assert_eq!(report.bad_count, 0, "{f}");
        assert_eq!(report.floor, Some(f));
        assert_eq!(report.files.len(), 2);
        for file in files(&top) {
            let t = Table::open(&table_path(&dir.path().join(f.folder()), &v, file)).unwrap();
            assert_eq!(t.info().floor, Some(f));
            assert_eq!(t.info().format_version, 6);
        }
        // The bit-set solver writes the same floor files, byte for byte.
        let bits = tempfile::tempdir().unwrap();
        let o = BuildOptions {
            engine: Engine::BitSets,
            ..opts(Some(f))
        };
        build::build_tiers(bits.path(), &v, &top, &o, &Quiet).unwrap();
        for file in files(&top) {
            let read = |d: &Path| std::fs::read(table_path(&d.join(f.folder()), &v, file)).unwrap();
            assert!(read(dir.path()) == read(bits.path()), "{f} {file}");
        }
    }
    // Exact files stay format 5, no floor.
    let exact = Table::open(&table_path(dir.path(), &v, FileKey::new(2, 11))).unwrap();
    assert_eq!((exact.info().floor, exact.info().format_version), (None, 5));
    // Every position of the top files inside its bracket.
    let (mut n, mut decided) = (0u64, 0u64);
    for file in files(&top) {
        let open = |d: &Path| Table::open(&table_path(d, &v, file)).unwrap();
        let e = open(dir.path());
        let a = open(&dir.path().join(lo.folder()));
        let b = open(&dir.path().join(hi.folder()));
        for key in e.tier_keys().unwrap() {
            let (x, y, z) = (
                e.tier(&key).unwrap().unwrap(),
                a.tier(&key).unwrap().unwrap(),
                b.tier(&key).unwrap().unwrap(),
            );
            let half = x.len() / 2;
            for i in 0..x.len() {
                let s = |c: u16| soldiers(i / half, Value::from_code(c));
                let (r, l, u) = (s(x[i]), s(y[i]), s(z[i]));
                assert!(l <= r && r <= u, "{key:?} #{i}: {r} [{l}, {u}]");
                n += 1;
                decided += u64::from(l == u);
            }
        }
    }
    assert!(n > 0 && decided > 0 && decided < n, "{decided} of {n}");
    // `bracket::check` (asalto check-floor) counts the same, file by file
    // and in all, and finds every position inside.
    let c = bracket::check(dir.path(), &v, k, 2, &Quiet).unwrap();
    assert_eq!(c.floors, [lo, hi]);
    assert_eq!((c.positions(), c.decided(), c.outside()), (n, decided, 0));
    assert_eq!(
        c.files.iter().map(|f| f.file).collect::<Vec<_>>(),
        files(&top)
    );
    for f in &c.files {
        let in_file: u64 = top
            .iter()
            .filter(|t| t.file() == f.file)
            .map(|t| t.size())
            .sum();
        assert_eq!(f.positions, in_file, "{}", f.file);
        assert!(f.soldiers_win + f.officers_win <= f.decided);
    }

    // `asalto line --floor`: a soldiers' win under the officers' floor is
    // played to the game's real end; an officers' win there is no proof.
    let tables = dir.path().to_str().unwrap();
    let lo_dir = dir.path().join(lo.folder());
    let t = Table::open(&table_path(&lo_dir, &v, FileKey::new(2, 11))).unwrap();
    let (mut won, mut lost) = (None, None);
    for key in t.tier_keys().unwrap() {
        let codes = t.tier(&key).unwrap().unwrap();
        let half = codes.len() / 2;
        for (i, &c) in codes.iter().enumerate().skip(half) {
            match Value::from_code(c) {
                Value::Win(_) if won.is_none() => {
                    won = Some(asalto_tb::index::position_at(&key, i as u32))
                }
                Value::Loss(_) if lost.is_none() => {
                    lost = Some(asalto_tb::index::position_at(&key, i as u32))
                }
                _ => {}
            }
        }
    }
    let line = |p: Position| {
        common::asalto(&[
            "line",
            "--variant",
            "asalto",
            "--floor",
            "11",
            "--assume",
            "officers",
            "--tables",
            tables,
            &p.to_string(),
        ])
    };
    let o = line(won.expect("a soldiers' win"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("soldiers won"),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = line(lost.expect("an officers' win"));
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("proves nothing"));

    // Floors never mix: exact tables read as a floor's, a floor's read as
    // exact, one floor's file among another's.
    let floor_dir = dir.path().join(lo.folder());
    let as_exact = TableSet::open(&floor_dir, &v);
    let Err(e) = as_exact.table(FileKey::new(2, 11)) else {
        panic!("a floor file read as exact");
    };
    assert!(e.to_string().contains("never mix"), "{e}");
    let as_floor = TableSet::open_floored(dir.path(), &v, Some(hi));
    assert!(as_floor.table(FileKey::new(2, 11)).is_ok());
    let mixed = tempfile::tempdir().unwrap();
    let mixed_dir = mixed.path().join(hi.folder()).join(v.slug());
    std::fs::create_dir_all(&mixed_dir).unwrap();
    std::fs::copy(
        table_path(&floor_dir, &v, FileKey::new(2, 11)),
        mixed_dir.join("2o11s.atb"),
    )
    .unwrap();
    let o = verify::VerifyOptions {
        floor: Some(hi),
        threads: 2,
        ..verify::VerifyOptions::default()
    };
    // Verify names the file it cannot check, with the reason.
    let report = verify::verify(mixed.path(), &v, &o, &Quiet).unwrap();
    assert!(report.files.is_empty(), "mixed floors checked");
    assert_eq!(report.failed.len(), 1);
    assert!(
        report.failed[0].error.contains("never mix"),
        "{:?}",
        report.failed
    );

    // A planted fault: the soldiers' floor's values under the officers'
    // floor's header. Verify, which checks each value against the floor,
    // rejects them.
    let planted = tempfile::tempdir().unwrap();
    let hi_dir = dir.path().join(hi.folder());
    let w = WriteOptions {
        floor: Some(lo),
        ..WriteOptions::wdl_only()
    };
    let planted_dir = planted.path().join(lo.folder());
    for file in files(&top) {
        let src = Table::open(&table_path(&hi_dir, &v, file)).unwrap();
        let mut out = TableWriter::create_with(&planted_dir, &v, file, &w).unwrap();
        for key in top.iter().filter(|t| t.file() == file) {
            out.push_tier(key, &src.tier(key).unwrap().unwrap())
                .unwrap();
        }
        out.finish().unwrap();
    }
    let report = verify_floor(planted.path(), &v, Some(lo));
    assert!(report.bad_count > 0, "another assumption's values pass");
    // Against the exact files, check-floor finds the positions the
    // planted lower end passes over, and names the first.
    let exact_dir = planted.path().join(v.slug());
    std::fs::create_dir_all(&exact_dir).unwrap();
    for file in files(&top) {
        let from = table_path(dir.path(), &v, file);
        std::fs::copy(&from, exact_dir.join(from.file_name().unwrap())).unwrap();
    }
    let c = bracket::check(planted.path(), &v, k, 2, &Quiet).unwrap();
    assert_eq!(c.floors, [lo]);
    assert!(c.outside() > 0, "a planted lower end passes");
    let first = c
        .files
        .iter()
        .find_map(|f| f.first_outside.clone())
        .unwrap();
    assert!(first.lower > first.real, "{first:?}");
    let p: Position = first.position.parse().unwrap();
    assert!(p.soldiers().count_ones() >= u32::from(k), "{first:?}");
}

/// `asalto build/verify/info/query --floor`: the files in their folder,
/// verified, listed with their floor; a query gives each floor's bound and
/// the bracket, never a bare value; bad floors get one line and exit 2
/// (usage) or 1.
#[test]
fn the_command_line_builds_verifies_and_queries_floors() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    let pos = common::FLOOR_POS;
    common::build_floor_11(t);
    for side in ["officers", "soldiers"] {
        let o = common::asalto(&[
            "verify",
            "--floor",
            "11",
            "--assume",
            side,
            "--tables",
            t,
            "--threads",
            "2",
            "--json",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(common::json(&o)["floor"]["assume"], side);
    }
    // A floor build in progress is listed too.
    let tmp = dir.path().join("floor-11-officers/assaut/2o12s.atb.tmp");
    std::fs::write(&tmp, b"").unwrap();
    let info = common::json(&common::asalto(&["info", "--tables", t, "--json"]));
    assert_eq!(info["in_progress"][0]["temporary"], true, "{info}");
    std::fs::remove_file(&tmp).unwrap();
    let info = common::json(&common::asalto(&["info", "--tables", t, "--json"]));
    let files = info["tables"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    assert!(
        files
            .iter()
            .all(|f| f["floor"]["soldiers"] == 11 && f["format_version"] == 6)
    );
    // Every move's bracket holds its exact value (solved on the spot).
    let exact = common::json(&common::asalto(&["solve", "--json", "--threads", "2", pos]));
    let q = common::asalto(&["query", "--floor", "11", "--tables", t, "--json", pos]);
    assert!(q.status.success(), "{}", String::from_utf8_lossy(&q.stderr));
    let q = common::json(&q);
    assert_eq!(q["floors"].as_array().unwrap().len(), 2);
    let rank = |w: &str| match w {
        "soldiers win" => 1,
        "draw" => 0,
        "officers win" => -1,
        other => panic!("{other}"),
    };
    let moves = q["moves"].as_array().unwrap();
    assert_eq!(moves.len(), exact["moves"].as_array().unwrap().len());
    let mut decided = 0;
    for m in exact["moves"].as_array().unwrap() {
        // The soldiers move here: their result is the move's own.
        let r = match m["result"].as_str().unwrap() {
            "win" => 1,
            "draw" => 0,
            _ => -1,
        };
        let b = &moves.iter().find(|x| x["move"] == m["move"]).unwrap()["bracket"];
        let (l, u) = (
            rank(b["lower"].as_str().unwrap()),
            rank(b["upper"].as_str().unwrap()),
        );
        assert!(l <= r && r <= u, "{m}: [{l}, {u}]");
        decided += i32::from(l == u);
    }
    assert!(decided > 0, "no move decided");
    // The text names what proves each bound.
    let text = common::asalto(&["query", "--floor", "11", "--tables", t, pos]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("proved: k < 11 counted as the officers' win"),
        "{text}"
    );
    assert!(text.contains("both floors: "), "{text}");

    // Bad floors: one line each.
    for (args, code) in [
        (vec!["build", "--floor", "9", "--assume", "officers"], 2),
        (vec!["build", "--floor", "22"], 2),
        (vec!["build", "--floor", "22", "--assume", "nobody"], 2),
        (
            vec![
                "build",
                "--floor",
                "22",
                "--assume",
                "officers",
                "--soldiers",
                "20..=24",
            ],
            1,
        ),
        (vec!["query", "--floor", "12", "--tables", t, pos], 1),
        (vec!["query", "--floor", "13", "--tables", t, pos], 1),
        (
            vec!["verify", "--tables", &format!("{t}/floor-11-officers")],
            1,
        ),
    ] {
        let o = common::asalto(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // check-floor: without exact files, one line and exit 1; with them,
    // every position inside its bracket.
    let check = ["check-floor", "--floor", "11", "--tables", t, "--json"];
    let o = common::asalto(&check);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("no exact file"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let o = common::asalto(&[
        "build",
        "--for",
        pos,
        "--wdl-only",
        "--tables",
        t,
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let c = common::json(&common::asalto(&check));
    assert_eq!(
        (c["ok"].as_bool(), c["outside"].as_u64()),
        (Some(true), Some(0)),
        "{c}"
    );
    assert_eq!(
        c["floors"],
        serde_json::json!(["floor-11-officers", "floor-11-soldiers"])
    );
    let files = c["files"].as_array().unwrap();
    let sum = |key: &str| files.iter().map(|f| f[key].as_u64().unwrap()).sum::<u64>();
    assert!(sum("positions") > 0 && sum("positions") == c["positions"].as_u64().unwrap());
    assert_eq!(sum("decided") + sum("undecided"), sum("positions"));
}

/// `asalto report --floor K --formations A..=B`: each placement's bracket
/// from the floor files of both assumptions holds the placement's exact
/// result (from the exact report of the same formation), the row counts
/// are those of its placements, and nothing is written or reported as a
/// value; without floor files, one line and exit 1.
#[test]
fn the_floor_report_brackets_every_placement_of_the_formation() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    let run = |args: &[&str]| {
        let o = common::asalto(args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o
    };
    let build = [
        "build",
        "--variant",
        "assaut",
        "--for",
        "formation:10",
        "--wdl-only",
    ];
    for side in ["officers", "soldiers"] {
        let mut args = build.to_vec();
        args.extend([
            "--floor",
            "10",
            "--assume",
            side,
            "--tables",
            t,
            "--threads",
            "2",
        ]);
        run(&args);
    }
    // No exact file yet: the floor report reads the floor folders alone.
    let out = dir.path().join("bounds");
    let o = out.to_str().unwrap();
    let report = [
        "report",
        "--variants",
        "assaut",
        "--formations",
        "10",
        "--tables",
        t,
    ];
    let mut args = report.to_vec();
    args.extend(["--floor", "10", "--out", o, "--json"]);
    let b = common::json(&run(&args));
    assert_eq!(b["kind"], "floor bounds");
    let mut args = build.to_vec();
    args.extend(["--tables", t, "--threads", "2"]);
    run(&args);
    let exact_out = dir.path().join("exact");
    let mut args = report.to_vec();
    args.extend(["--json", "--out", exact_out.to_str().unwrap()]);
    let exact = common::json(&run(&args));
    let exact = &exact["critical_mass"]["variants"][0]["rows"][0]["placements"];
    let row = &b["variants"][0]["rows"][0];
    assert_eq!(row["k"], 10);
    let placements = row["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 36);
    let mut counts = std::collections::HashMap::new();
    for (p, e) in placements.iter().zip(exact.as_array().unwrap()) {
        assert_eq!(p["officers"], e["officers"]);
        let real = match e["result"].as_str().unwrap() {
            "win" => 1,
            "draw" => 0,
            _ => -1,
        };
        let (l, u) = (p["lower"].as_i64().unwrap(), p["upper"].as_i64().unwrap());
        assert!(l <= real && real <= u, "{p} against the exact {e}");
        assert_eq!(p["proved"].as_array().unwrap().len(), 2, "{p}");
        *counts.entry((l, u)).or_insert(0u64) += 1;
    }
    for (key, l, u) in [
        ("soldiers_win", 1, 1),
        ("draws", 0, 0),
        ("officers_win", -1, -1),
        ("at_least_draw", 0, 1),
        ("at_most_draw", -1, 0),
        ("open", -1, 1),
    ] {
        let n = counts.get(&(l, u)).copied().unwrap_or(0);
        assert_eq!(row[key].as_u64(), Some(n), "{key}");
    }
    let best = (
        placements
            .iter()
            .map(|p| p["lower"].as_i64().unwrap())
            .min(),
        placements
            .iter()
            .map(|p| p["upper"].as_i64().unwrap())
            .min(),
    );
    assert_eq!(
        (row["best_lower"].as_i64(), row["best_upper"].as_i64()),
        best
    );
    let md = std::fs::read_to_string(out.join("bounds.md")).unwrap();
    assert!(md.contains("bounds, not values"), "{md}");
    assert!(out.join("placement_bounds.csv").is_file());
    assert!(!out.join("report.json").exists());
    // No floor files at 11: one line, exit 1; no --formations: usage.
    for (args, code) in [
        (
            vec![
                "report",
                "--floor",
                "11",
                "--formations",
                "11",
                "--tables",
                t,
            ],
            1,
        ),
        (vec!["report", "--floor", "10", "--tables", t], 2),
        // Floor files holding no formation of the range: one line, exit 1.
        (
            vec![
                "report",
                "--floor",
                "10",
                "--formations",
                "11..=12",
                "--tables",
                t,
            ],
            1,
        ),
    ] {
        let o = common::asalto(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        if code == 1 {
            assert_eq!(err.trim().lines().count(), 1, "{err}");
        }
    }
}
