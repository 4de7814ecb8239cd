//! WDL-only tables (`build --wdl-only`): for every preset they hold the
//! win/draw/loss of the tables with distances, position for position (and
//! the one distance the rules look at, a loss in 0 plies), whether built on
//! WDL-only lower tables or on lower tables with distances; the window read
//! back from disk writes the same bytes; a build with distances refuses
//! WDL-only lower tables; queries on them say "win"/"loss" without plies.

mod common;

use asalto_tb::Wdl;
use asalto_tb::build::{self, BuildError, BuildOptions, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::TierKey;
use asalto_tb::solve::{Engine, Solver};
use asalto_tb::table::{Table, WriteOptions, table_path};
use asalto_tb::{Position, Value, Variant};
use std::path::Path;

/// 1.6 million positions over 1o9s, 2o9s, 1o10s, 2o10s (2o9s and 2o10s
/// only under capture=mandatory: no huffs there).
const POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";

fn tiers(v: &Variant) -> Vec<TierKey> {
    let p: Position = POS.parse().unwrap();
    Solver::new(*v).closure_of(&p)
}

/// A build's options as `asalto build [--wdl-only]` sets them: a WDL-only
/// file placement-major with 2^20-position WDL blocks.
fn opts(wdl_only: bool) -> BuildOptions {
    BuildOptions {
        write: WriteOptions::of_kind(wdl_only),
        ..BuildOptions::threads(2)
    }
}

fn files(tiers: &[TierKey]) -> Vec<FileKey> {
    let mut f: Vec<FileKey> = tiers.iter().map(|t| t.file()).collect();
    f.sort_by_key(|f| (f.soldiers(), f.officers()));
    f.dedup();
    f
}

/// Every tier of `file` in `wdl` (a WDL-only table) against `full` (the
/// same tiers with distances): same win/draw/loss everywhere, a loss in 0
/// exactly where the full table has one; returns the positions compared.
fn compare(full: &Path, wdl: &Path, v: &Variant, file: FileKey) -> u64 {
    let a = Table::open(&table_path(full, v, file)).unwrap();
    let b = Table::open(&table_path(wdl, v, file)).unwrap();
    assert!(!a.info().wdl_only);
    assert!(b.info().wdl_only);
    assert_eq!(b.info().distance_blocks, 0);
    assert_eq!(
        (a.info().wins, a.info().draws, a.info().losses),
        (b.info().wins, b.info().draws, b.info().losses)
    );
    let mut count = 0;
    for key in a.tier_keys().unwrap() {
        let x = a.tier(&key).unwrap().unwrap();
        let y = b.tier(&key).unwrap().unwrap();
        for (i, (&cx, &cy)) in x.iter().zip(y.iter()).enumerate() {
            let (vx, vy) = (Value::from_code(cx), Value::from_code(cy));
            assert_eq!(Wdl::from(vx), Wdl::from(vy), "{v} {key:?} #{i}");
            assert_eq!(
                vx == Value::Loss(0),
                vy == Value::Loss(0),
                "{v} {key:?} #{i}"
            );
            let probed = b.probe(&key, i as u32).unwrap().unwrap();
            assert_eq!(probed, vy);
            assert_eq!(b.probe_wdl(&key, i as u32).unwrap().unwrap(), Wdl::from(vx));
        }
        count += x.len() as u64;
    }
    b.verify_contents().unwrap();
    // Smaller: no distance stream.
    assert!(b.info().file_bytes < a.info().file_bytes);
    count
}

#[test]
fn wdl_only_tables_hold_the_win_draw_loss_of_the_full_tables_for_every_preset() {
    for v in [
        Variant::ASSAUT,
        Variant::ASSAUT_MDJ,
        Variant::ASALTO,
        Variant::ASSAULT,
    ] {
        let t = tiers(&v);
        let full = tempfile::tempdir().unwrap();
        let wdl = tempfile::tempdir().unwrap();
        build::build_tiers(full.path(), &v, &t, &opts(false), &Quiet).unwrap();
        build::build_tiers(wdl.path(), &v, &t, &opts(true), &Quiet).unwrap();
        let mut compared = 0;
        for file in files(&t) {
            compared += compare(full.path(), wdl.path(), &v, file);
        }
        assert_eq!(compared, t.iter().map(|t| t.size()).sum::<u64>(), "{v}");
    }
}

#[test]
fn a_wdl_only_file_on_lower_tables_with_distances_and_from_disk_is_the_same() {
    let v = Variant::ASSAUT;
    let t = tiers(&v);
    let wdl = tempfile::tempdir().unwrap();
    build::build_tiers(wdl.path(), &v, &t, &opts(true), &Quiet).unwrap();
    let path = table_path(wdl.path(), &v, FileKey::new(2, 10));
    // As `build --wdl-only` writes it: its halves placement-major, so the
    // file's own tiers read back below are transposed back on the way.
    let info = Table::open(&path).unwrap().info().clone();
    assert_eq!(info.order, asalto_tb::table::Order::PlacementMajor);
    assert_eq!(info.wdl_block_positions, 1 << 20);
    let want = std::fs::read(&path).unwrap();
    // Lower files with distances, the last file WDL-only.
    let mixed = tempfile::tempdir().unwrap();
    let lower: Vec<TierKey> = t.iter().copied().filter(|t| t.k == 9).collect();
    build::build_tiers(mixed.path(), &v, &lower, &opts(false), &Quiet).unwrap();
    build::build_tiers(mixed.path(), &v, &t, &opts(true), &Quiet).unwrap();
    assert_eq!(
        std::fs::read(table_path(mixed.path(), &v, FileKey::new(2, 10))).unwrap(),
        want
    );
    // Every read of the file's own tiers from disk.
    let disk = tempfile::tempdir().unwrap();
    let o = BuildOptions {
        window_bytes: Some(0),
        ..opts(true)
    };
    build::build_tiers(disk.path(), &v, &t, &o, &Quiet).unwrap();
    assert_eq!(
        std::fs::read(table_path(disk.path(), &v, FileKey::new(2, 10))).unwrap(),
        want
    );
    // With small WDL blocks most tiers read back come from blocks already
    // compressed and written (not the block still in memory), starting at
    // every alignment within a byte: the same bytes as without reading back.
    let small = |window_bytes| BuildOptions {
        window_bytes,
        write: WriteOptions {
            wdl_block_positions: 4096,
            ..WriteOptions::of_kind(true)
        },
        ..BuildOptions::threads(2)
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    build::build_tiers(a.path(), &v, &t, &small(None), &Quiet).unwrap();
    build::build_tiers(b.path(), &v, &t, &small(Some(0)), &Quiet).unwrap();
    let bytes = |d: &Path| std::fs::read(table_path(d, &v, FileKey::new(2, 10))).unwrap();
    assert!(info.positions > 100 * 4096, "{}", info.positions);
    assert_eq!(bytes(a.path()), bytes(b.path()));
}

#[test]
fn a_build_with_distances_refuses_wdl_only_lower_tables() {
    let v = Variant::ASSAUT;
    let t = tiers(&v);
    let dir = tempfile::tempdir().unwrap();
    let lower: Vec<TierKey> = t.iter().copied().filter(|t| t.k == 9).collect();
    build::build_tiers(dir.path(), &v, &lower, &opts(true), &Quiet).unwrap();
    let e = build::build_tiers(dir.path(), &v, &t, &opts(false), &Quiet).unwrap_err();
    match &e {
        BuildError::Solve(_) => assert!(e.to_string().contains("win/draw/loss only"), "{e}"),
        BuildError::OtherKind { wdl_only: true, .. } => {}
        other => panic!("unexpected error: {other}"),
    }
    // And a WDL-only file is not silently replaced by one with distances.
    let e = build::build_tiers(dir.path(), &v, &lower, &opts(false), &Quiet).unwrap_err();
    assert!(
        matches!(e, BuildError::OtherKind { wdl_only: true, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("WDL-only"), "{e}");
}

#[test]
fn queries_on_wdl_only_tables_give_no_plies() {
    let bin = env!("CARGO_BIN_EXE_asalto");
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::ASSAUT;
    build::build_tiers(dir.path(), &v, &tiers(&v), &opts(true), &Quiet).unwrap();
    let full = tempfile::tempdir().unwrap();
    build::build_tiers(full.path(), &v, &tiers(&v), &opts(false), &Quiet).unwrap();
    let query = |d: &Path| {
        let out = std::process::Command::new(bin)
            .args(["query", "--json", "--tables"])
            .arg(d)
            .arg(POS)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (w, f) = (query(dir.path()), query(full.path()));
    assert_eq!(w["distances"], false);
    assert_eq!(f["distances"], true);
    assert_eq!(w["result"], f["result"]);
    assert!(w["plies"].is_null());
    assert!(f["plies"].is_u64());
    let results = |j: &serde_json::Value| {
        let mut m: Vec<(String, String)> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["result"].to_string()))
            .collect();
        m.sort();
        m
    };
    assert_eq!(results(&w), results(&f));
    assert!(
        w["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["plies"].is_null())
    );
    // The text says so too.
    let out = std::process::Command::new(bin)
        .args(["query", "--tables"])
        .arg(dir.path())
        .arg(POS)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("distances unknown"), "{text}");
    assert!(!text.contains("plies"), "{text}");
}

#[test]
fn the_critical_mass_and_the_stats_from_wdl_only_tables_have_no_plies() {
    use asalto_tb::analysis::critical_mass;
    use asalto_tb::analysis::table_stats;
    use asalto_tb::table::TableSet;
    // The closure of the 9-soldier formation (b5 f5 d4 c4 e4 b4 f4 a5 g5)
    // against one placement holds the formation's tier (every placement).
    let v = Variant::ASSAUT;
    let pos: Position = "3/O1O/SS3SS/1SSSSS1/7/3/3 s".parse().unwrap();
    let t = Solver::new(v).closure_of(&pos);
    let (full, wdl) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    build::build_tiers(full.path(), &v, &t, &opts(false), &Quiet).unwrap();
    build::build_tiers(wdl.path(), &v, &t, &opts(true), &Quiet).unwrap();
    let a = critical_mass(&TableSet::open(full.path(), &v), 9, 9).unwrap();
    let b = critical_mass(&TableSet::open(wdl.path(), &v), 9, 9).unwrap();
    assert_eq!(a.rows.len(), 1);
    assert_eq!(a.rows.len(), b.rows.len());
    for (x, y) in a.rows.iter().zip(&b.rows) {
        assert_eq!((x.k, &x.result), (y.k, &y.result));
        assert!(x.plies.is_some());
        assert_eq!(y.plies, None);
        assert_eq!(y.value, y.result);
        assert_eq!(
            (x.soldiers_win, x.draws, x.soldiers_lose),
            (y.soldiers_win, y.draws, y.soldiers_lose)
        );
        for (p, q) in x.placements.iter().zip(&y.placements) {
            assert_eq!((&p.officers, &p.result), (&q.officers, &q.result));
            assert_eq!(q.plies, None);
        }
    }
    let table = Table::open(&table_path(wdl.path(), &v, FileKey::new(2, 9))).unwrap();
    let s = table_stats(&table, &asalto_tb::progress::Quiet).unwrap();
    assert!(s.wdl_only);
    assert!(s.soldiers_to_move.longest_win.is_none());
    assert!(s.officers_to_move.longest_loss.is_none());
    let table = Table::open(&table_path(full.path(), &v, FileKey::new(2, 9))).unwrap();
    let f = table_stats(&table, &asalto_tb::progress::Quiet).unwrap();
    assert!(!f.wdl_only);
    assert!(f.soldiers_to_move.longest_win.is_some());
    // The same win/draw/loss counts either way (the WDL-only ones counted
    // in the packed fields), stored and with the mirror images.
    for (x, y) in [
        (&f.officers_to_move, &s.officers_to_move),
        (&f.soldiers_to_move, &s.soldiers_to_move),
        (f.natural.as_ref().unwrap(), s.natural.as_ref().unwrap()),
    ] {
        assert_eq!((x.stored, x.positions), (y.stored, y.positions));
        assert!(x.stored.win > 0 && x.stored.loss > 0, "{x:?}");
    }
    assert!(s.soldiers_to_move.stored.draw > 0);
    // The report's critical-mass row says why it has no longest wins; the
    // one from the tables with distances gives them in plies.
    let row = |dir: &Path| {
        use asalto_tb::analysis::{self, Request};
        let mut req = Request::new(dir, vec![v], 9, 9);
        req.allow_missing = true;
        let report = analysis::analyse(&req, &asalto_tb::progress::Quiet).unwrap();
        let md = analysis::render(&report)
            .unwrap()
            .into_iter()
            .find(|f| f.name == "report.md")
            .unwrap()
            .contents;
        md.lines()
            .find(|l| l.starts_with("| 9 | "))
            .unwrap()
            .to_string()
    };
    let (rw, rf) = (row(wdl.path()), row(full.path()));
    assert!(rw.contains("| WDL-only / WDL-only |"), "{rw}");
    let plies = |p: Option<u16>| p.map_or("-".to_string(), |p| p.to_string());
    let x = &a.rows[0];
    let expect = format!(
        "| {} / {} |",
        plies(x.longest_soldiers_win),
        plies(x.longest_officers_win)
    );
    assert!(rf.contains(&expect), "{rf} lacks {expect}");
}

#[test]
fn verify_passes_wdl_only_tables_and_catches_a_wrong_result() {
    use asalto_tb::solve::{Lookup, TierStore, check_tier_as};
    use asalto_tb::table::TableSet;
    use asalto_tb::verify::{self, VerifyOptions};
    let v = Variant::ASSAUT;
    let t = tiers(&v);
    let dir = tempfile::tempdir().unwrap();
    build::build_tiers(dir.path(), &v, &t, &opts(true), &Quiet).unwrap();
    let r = verify::verify(
        dir.path(),
        &v,
        &VerifyOptions::default(),
        &asalto_tb::progress::Quiet,
    )
    .unwrap();
    assert_eq!(r.bad_count, 0);
    assert!(r.files.iter().all(|f| f.wdl_only));
    assert_eq!(r.positions, t.iter().map(|t| t.size()).sum::<u64>());
    // A decided value turned into a draw in the largest tier is caught.
    let set = TableSet::open(dir.path(), &v);
    let key = *t
        .iter()
        .filter(|k| k.k == 10)
        .max_by_key(|k| k.size())
        .unwrap();
    let mut codes = set.tier(&key).unwrap().unwrap().to_vec();
    let i = codes.iter().position(|&c| c != 0).unwrap();
    codes[i] = 0;
    let mut look = Lookup::new(&set, v);
    let bad = check_tier_as(&key, &mut look, &codes, true).unwrap();
    assert!(bad.iter().any(|b| b.index as usize == i), "{bad:?}");
}

#[test]
fn the_window_of_a_wdl_only_build_holds_two_bits_a_value() {
    // With a budget that never binds, each file's window holds at its peak
    // exactly what `window_peak_bytes` counts for a WDL-only build: two
    // bits a value, a quarter of what a build with distances holds.
    let v = Variant::ASSAUT;
    let t = tiers(&v);
    let dir = tempfile::tempdir().unwrap();
    let reports = build::build_tiers(dir.path(), &v, &t, &opts(true), &Quiet).unwrap();
    let mut held = 0;
    for r in &reports {
        let own = common::own_tiers(&t, r.file());
        let want = build::window_peak_bytes(&v, &own, true);
        assert_eq!(r.window_peak_bytes, want, "{}", r.file);
        let bytes = build::window_peak_bytes(&v, &own, false);
        assert!(4 * want >= bytes && 4 * want < bytes + 4 * own.len() as u64);
        held += r.window_peak_bytes;
    }
    assert!(held > 0);
}

/// The bit-set solver (`BuildOptions::engine`) writes the same WDL-only
/// files, byte for byte, as the position solver: the four presets and two
/// other switch combinations, every file of the closure.
#[test]
fn the_bit_set_solver_writes_the_same_bytes() {
    let variants: [Variant; 6] = [
        Variant::ASSAUT,
        Variant::ASSAUT_MDJ,
        Variant::ASALTO,
        Variant::ASSAULT,
        "soldiers=forward,capture=free,max=off,trapped=soldiers-lose"
            .parse()
            .unwrap(),
        "soldiers=closer,capture=mandatory,max=off,trapped=soldiers-win"
            .parse()
            .unwrap(),
    ];
    for v in variants {
        let t = tiers(&v);
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let with = |engine| BuildOptions {
            engine,
            ..opts(true)
        };
        build::build_tiers(a.path(), &v, &t, &with(Engine::Positions), &Quiet).unwrap();
        build::build_tiers(b.path(), &v, &t, &with(Engine::BitSets), &Quiet).unwrap();
        for file in files(&t) {
            let bytes = |d: &Path| std::fs::read(table_path(d, &v, file)).unwrap();
            let (x, y) = (bytes(a.path()), bytes(b.path()));
            assert!(x.len() > 100, "{v} {file}");
            assert!(x == y, "{v} {file}: the files differ");
        }
    }
}
