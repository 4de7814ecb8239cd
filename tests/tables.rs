//! Table files end to end: built tables read back equal the in-memory
//! solver, builds are byte-identical whatever the thread count and whether
//! resumed, `verify` passes on good tables and catches a planted wrong
//! value, and bad files give one-line errors from the CLI.

use asalto_tb::build::{self, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::{self, TierKey};
use asalto_tb::progress::Progress;
use asalto_tb::solve::{Lookup, Solver, TierStore};
use asalto_tb::table::{Table, TableSet, TableWriter, table_path};
use asalto_tb::{Position, Variant, verify};
use std::path::Path;
use std::process::Command;

const POS: &str = "S1S/1S1/1S1O1S1/2SSS2/2S1S2/3/3 o";

fn tiers_for(variant: &Variant, pos: &Position) -> Vec<TierKey> {
    Solver::new(*variant).closure_of(pos)
}

fn build_into(dir: &Path, variant: &Variant, threads: usize) -> Vec<TierKey> {
    let pos: Position = POS.parse().unwrap();
    let tiers = tiers_for(variant, &pos);
    build::build_tiers(
        dir,
        variant,
        &tiers,
        &build::BuildOptions::threads(threads),
        &Quiet,
    )
    .unwrap();
    tiers
}

/// A fresh folder with the assaut tables of [`POS`]'s closure.
fn assaut_tables(threads: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build_into(dir.path(), &Variant::ASSAUT, threads);
    dir
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        out.push((
            e.strip_prefix(dir).unwrap().display().to_string(),
            std::fs::read(&e).unwrap(),
        ));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn tables_read_back_equal_the_memory_solver() {
    for variant in [Variant::ASSAUT, Variant::ASSAUT_MDJ] {
        let dir = tempfile::tempdir().unwrap();
        let tiers = build_into(dir.path(), &variant, 2);
        let pos: Position = POS.parse().unwrap();
        let memory = Solver::new(variant).threads(1).solve_closure(&pos).unwrap();
        let set = TableSet::open(dir.path(), &variant);
        for key in &tiers {
            let a = memory.store().tier(key).unwrap().unwrap();
            let b = set.tier(key).unwrap().unwrap();
            assert_eq!(a, b, "{variant} {key:?}");
        }
        // A sample of positions through the prober.
        let mut look = Lookup::new(&set, variant);
        for key in tiers.iter().step_by(17) {
            for i in (0..key.size() as u32).step_by(101) {
                let p = index::position_at(key, i);
                assert_eq!(look.value(&p).unwrap(), memory.value(&p).unwrap());
            }
        }
    }
}

#[test]
fn builds_are_byte_identical_across_threads_and_resumes() {
    let v = Variant::ASALTO;
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    build_into(one.path(), &v, 1);
    build_into(two.path(), &v, 2);
    let a = files(one.path());
    assert!(a.len() >= 2);
    assert_eq!(a, files(two.path()));
    // Interrupt: remove the last file and leave a stale temporary one; the
    // next build skips what is there and redoes the rest identically.
    let last = walk(two.path())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "atb"))
        .max()
        .unwrap();
    std::fs::remove_file(&last).unwrap();
    let mut tmp = last.clone().into_os_string();
    tmp.push(".tmp");
    std::fs::write(&tmp, b"half a table").unwrap();
    let reports = {
        let pos: Position = POS.parse().unwrap();
        build::build_tiers(
            two.path(),
            &v,
            &tiers_for(&v, &pos),
            &build::BuildOptions::threads(2),
            &Quiet,
        )
        .unwrap()
    };
    assert_eq!(reports.iter().filter(|r| !r.skipped).count(), 1);
    let b: Vec<_> = files(two.path())
        .into_iter()
        .filter(|(n, _)| !n.ends_with(".tmp"))
        .collect();
    assert_eq!(a, b);
}

/// Rewrite the table of `keys` (all its tiers, written in that order) with
/// one wrong value: the first decided value of tier `keys[at]` made one ply
/// longer. A valid file with good checksums, so only the consistency check
/// can see it. Returns the position changed.
fn plant(dir: &Path, v: &Variant, keys: &[TierKey], at: usize) -> Position {
    let (n, k) = (keys[0].n, keys[0].k);
    let table = Table::open(&table_path(dir, v, FileKey::new(n, k))).unwrap();
    let mut writer = TableWriter::create(dir, v, FileKey::new(n, k)).unwrap();
    let mut planted = None;
    for (i, key) in keys.iter().enumerate() {
        let mut codes = table.tier(key).unwrap().unwrap().to_vec();
        if i == at {
            let j = codes.iter().position(|&c| c != 0).unwrap();
            codes[j] += 2;
            planted = Some(index::position_at(key, j as u32));
        }
        writer.push_tier(key, &codes).unwrap();
    }
    drop(table);
    writer.finish().unwrap();
    planted.unwrap()
}

#[test]
fn verify_passes_then_catches_a_planted_value() {
    let v = Variant::ASSAUT;
    let dir = assaut_tables(2);
    let opts = verify::VerifyOptions {
        threads: 2,
        ..Default::default()
    };
    let report = verify::verify(dir.path(), &v, &opts, &Quiet).unwrap();
    assert_eq!(report.bad_count, 0);
    assert!(report.positions > 0);

    // One wrong value planted in 1o9s.
    let path = table_path(dir.path(), &v, FileKey::new(1, 9));
    let keys: Vec<TierKey> = Table::open(&path).unwrap().tier_keys().unwrap();
    let planted = plant(dir.path(), &v, &keys, keys.len() / 2);
    let report = verify::verify(dir.path(), &v, &opts, &Quiet).unwrap();
    assert!(report.bad_count >= 1);
    assert!(
        report.bad.iter().any(|b| b.position == planted),
        "{:?}",
        report.bad
    );
}

#[test]
fn verify_resumes_from_its_records() {
    let v = Variant::ASSAUT;
    let dir = assaut_tables(1);
    // Small chunks: a record after every few tiers.
    let opts = verify::VerifyOptions {
        threads: 2,
        chunk_positions: 5_000,
        ..Default::default()
    };
    let resume = verify::VerifyOptions {
        resume: true,
        ..opts.clone()
    };
    let path = table_path(dir.path(), &v, FileKey::new(1, 9));
    let record = verify::record_path(&path);
    let first = verify::verify(dir.path(), &v, &opts, &Quiet).unwrap();
    assert_eq!(first.bad_count, 0);
    assert!(record.exists());
    // Complete records: a resumed run checks no value again.
    let again = verify::verify(dir.path(), &v, &resume, &Quiet).unwrap();
    assert_eq!(again.files.len(), first.files.len());
    for f in &again.files {
        assert_eq!(f.resumed_positions, f.positions, "{}", f.path.display());
    }

    // Plant a wrong value in 1o9s (a new file: the old record no longer
    // matches it), then pretend a run stopped half way through it.
    let mut keys: Vec<TierKey> = Table::open(&path).unwrap().tier_keys().unwrap();
    keys.sort_by_key(|t| (t.level(&v), *t));
    let half = keys.len() / 2;
    plant(dir.path(), &v, &keys, half + 1);
    let stale = verify::verify(dir.path(), &v, &resume, &Quiet).unwrap();
    assert!(stale.bad_count >= 1, "the old record must not be taken up");
    assert_eq!(stale.files[0].resumed_positions, 0);

    // A record of the first half, claiming one inconsistency there.
    let text = std::fs::read_to_string(&record).unwrap();
    let mut r: serde_json::Value = serde_json::from_str(&text).unwrap();
    r["tiers_done"] = half.into();
    r["positions_done"] = keys[..half].iter().map(|k| k.size()).sum::<u64>().into();
    r["inconsistent"] = 1.into();
    std::fs::write(&record, r.to_string()).unwrap();
    let seen = std::sync::Mutex::new(Vec::new());
    let watch = |p: &Progress| seen.lock().unwrap().push(p.done);
    let resumed = verify::verify(dir.path(), &v, &resume, &watch).unwrap();
    assert_eq!(
        resumed.files[0].resumed_positions,
        keys[..half].iter().map(|k| k.size()).sum::<u64>()
    );
    // The progress starts at every file's resumed positions (2o9s's
    // record is complete), not at those of the file reached first, so
    // that a rate of this run can leave them all out.
    let seen = seen.into_inner().unwrap();
    let from_records: u64 = resumed.files.iter().map(|f| f.resumed_positions).sum();
    assert!(resumed.files[1].resumed_positions > 0);
    assert_eq!(seen.first(), Some(&from_records));
    assert!(seen.iter().all(|&d| d >= from_records), "{seen:?}");
    // The planted value (second half) is found again, the claimed one kept.
    assert_eq!(resumed.bad_count, stale.bad_count + 1);
    assert_eq!(resumed.bad.len() as u64, stale.bad_count.min(10));
    // Without --resume the records are ignored (2o9s, which reads 1o9s,
    // is checked again too).
    let fresh = verify::verify(dir.path(), &v, &opts, &Quiet).unwrap();
    assert!(fresh.bad_count >= stale.bad_count);
    assert!(fresh.files.iter().all(|f| f.resumed_positions == 0));
}

/// Remove the verify records under `dir`.
fn remove_records(dir: &Path) {
    for e in std::fs::read_dir(dir.join("assaut")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "verify") {
            std::fs::remove_file(p).unwrap();
        }
    }
}

/// A deadline (`stop_at`) that has passed stops a verification before a
/// file, or at the end of a chunk with its record written; the same
/// verification with `resume` goes on from there, checks the rest and
/// counts the stopped run's time.
#[test]
fn verify_stops_at_its_deadline_and_resumes() {
    use std::time::{Duration, Instant};
    let v = Variant::ASSAUT;
    let dir = assaut_tables(1);
    let opts = verify::VerifyOptions {
        threads: 1,
        chunk_positions: 5_000,
        resume: true,
        ..Default::default()
    };
    let whole = verify::verify(dir.path(), &v, &opts, &Quiet).unwrap();
    assert!(whole.stopped.is_none());
    let first = &whole.files[0];

    // A deadline already past: no file is started.
    remove_records(dir.path());
    let past = verify::VerifyOptions {
        stop_at: Some(Instant::now()),
        ..opts.clone()
    };
    let r = verify::verify(dir.path(), &v, &past, &Quiet).unwrap();
    let stop = r.stopped.expect("stopped");
    assert!(r.files.is_empty());
    assert_eq!((stop.path, stop.positions_done), (first.path.clone(), 0));
    assert!(!verify::record_path(&first.path).exists());

    // A deadline passing mid-file: the first of these that stops inside
    // a file (a chunk of 5,000 positions takes a few milliseconds).
    let mut mid = None;
    for micros in [200, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000] {
        remove_records(dir.path());
        let soon = verify::VerifyOptions {
            stop_at: Some(Instant::now() + Duration::from_micros(micros)),
            ..opts.clone()
        };
        let r = verify::verify(dir.path(), &v, &soon, &Quiet).unwrap();
        if r.stopped.as_ref().is_some_and(|s| s.positions_done > 0) {
            mid = Some(r);
            break;
        }
    }
    let mid = mid.expect("a deadline that stops inside a file");
    let stop = mid.stopped.clone().unwrap();
    assert!(stop.positions_done < stop.positions, "{stop:?}");
    assert_eq!(mid.bad_count, 0);
    assert!(verify::record_path(&stop.path).exists());

    // Resumed without a deadline: the rest is checked, the files done
    // before the stop are not checked again, the stopped one goes on from
    // its record, and the time of the stopped run is counted once.
    let rest = verify::verify(dir.path(), &v, &opts, &Quiet).unwrap();
    assert!(rest.stopped.is_none());
    assert_eq!(rest.bad_count, 0);
    assert_eq!((rest.tiers, rest.positions), (whole.tiers, whole.positions));
    let at = rest.files.iter().position(|f| f.path == stop.path).unwrap();
    assert_eq!(at, mid.files.len());
    for f in &rest.files[..at] {
        assert_eq!(f.resumed_positions, f.positions, "{}", f.path.display());
    }
    let f = &rest.files[at];
    assert_eq!(f.resumed_positions, stop.positions_done);
    assert!(f.earlier_seconds > 0.0 && f.earlier_seconds <= stop.seconds);
    for f in &rest.files[at + 1..] {
        assert_eq!(f.resumed_positions, 0);
    }
}

#[test]
fn cli_query_from_tables_and_bad_files() {
    let v = Variant::ASSAUT;
    let dir = assaut_tables(2);
    let bin = env!("CARGO_BIN_EXE_asalto");
    let tables = dir.path().to_str().unwrap();
    let run = |args: &[&str]| Command::new(bin).args(args).output().unwrap();

    // From the tables: no solving note, same answer as on demand.
    let a = run(&["query", "--json", "--tables", tables, POS]);
    assert!(a.status.success());
    assert!(String::from_utf8_lossy(&a.stderr).is_empty());
    let b = run(&["query", "--json", "--tables", "/nonexistent", POS]);
    assert_eq!(a.stdout, b.stdout);

    let o = run(&["verify", "--tables", tables]);
    assert!(o.status.success());

    // A flipped byte in a block, a truncated file, a wrong version.
    let path = table_path(dir.path(), &v, FileKey::new(1, 9));
    let good = std::fs::read(&path).unwrap();
    let mut cases: Vec<(Vec<u8>, &str)> = Vec::new();
    let mut flipped = good.clone();
    flipped[60] ^= 0x40;
    cases.push((flipped, "checksum"));
    cases.push((good[..good.len() / 2].to_vec(), "truncated"));
    let mut version = good.clone();
    version[8] = 99;
    cases.push((version, "version"));
    for (bytes, word) in cases {
        std::fs::write(&path, &bytes).unwrap();
        // A query reads only the blocks it needs: it either answers exactly
        // as from good tables or fails like verify does.
        let q = run(&["query", "--json", "--tables", tables, POS]);
        if q.status.success() {
            assert_eq!(q.stdout, a.stdout, "{word}");
        }
        let mut runs = vec![(
            vec!["verify", "--tables", tables],
            run(&["verify", "--tables", tables]),
        )];
        if !q.status.success() {
            runs.push((vec!["query"], q));
        }
        for (args, o) in runs {
            let all = String::from_utf8_lossy(&o.stderr).to_string();
            assert_eq!(o.status.code(), Some(1), "{args:?} {word}: {all}");
            // One error line, last; before it only verify's log lines (it
            // checks every file, saying which cannot be checked).
            let (log, err) = all
                .trim_end()
                .rsplit_once('\n')
                .unwrap_or(("", all.trim_end()));
            assert!(
                log.lines()
                    .all(|l| l.starts_with("verify: ") && !l.contains("nothing left to check")),
                "{args:?}: {all}"
            );
            assert!(err.starts_with("error: "), "{args:?}: {all}");
            assert!(err.contains("1o9s.atb"), "{err}");
            assert!(err.to_lowercase().contains(word), "{word}: {err}");
            assert!(!err.contains("panicked"));
        }
    }
    // Every file is checked or reported, not only those before the bad
    // one: the broken 1o9s among the failures, the rest checked.
    std::fs::write(&path, cases_checksum(&good)).unwrap();
    let o = run(&["verify", "--json", "--tables", tables]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], false);
    let failed: Vec<String> = j["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap().to_string())
        .collect();
    assert!(failed[0].ends_with("1o9s.atb"), "{j}");
    let checked = j["files"].as_array().unwrap().len();
    assert_eq!(
        checked + failed.len(),
        walk(&dir.path().join("assaut")).len(),
        "{j}"
    );
    std::fs::write(&path, &good).unwrap();
    assert!(run(&["verify", "--tables", tables]).status.success());
}

/// `bytes` with a byte of its first block flipped (its checksum fails).
fn cases_checksum(bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[60] ^= 0x40;
    b
}

#[test]
fn cli_repack_keeps_every_value() {
    let dir = assaut_tables(2);
    let bin = env!("CARGO_BIN_EXE_asalto");
    let run = |args: &[&str]| Command::new(bin).args(args).output().unwrap();
    let tables = dir.path().to_str().unwrap();
    let out = dir.path().join("repacked");
    let out_s = out.to_str().unwrap();
    let o = run(&[
        "repack",
        "--tables",
        tables,
        "--out",
        out_s,
        "--wdl-block",
        "4096",
        "--distance-block",
        "1000",
        "--level",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let built: Vec<_> = walk(&dir.path().join("assaut"));
    assert!(!built.is_empty());
    assert_eq!(j["files"].as_array().unwrap().len(), built.len());
    // Same values: every tier equal, the query answer identical, verify
    // passes on the repacked files.
    for path in built {
        let a = Table::open(&path).unwrap();
        let b = Table::open(&out.join("assaut").join(path.file_name().unwrap())).unwrap();
        assert_eq!(b.info().wdl_block_positions, 4096);
        assert_eq!(b.info().distance_block_positions, 1000);
        assert_eq!(
            (a.info().wins, a.info().draws, a.info().longest_win),
            (b.info().wins, b.info().draws, b.info().longest_win)
        );
        for key in a.tier_keys().unwrap() {
            assert_eq!(a.tier(&key).unwrap(), b.tier(&key).unwrap());
        }
    }
    let a = run(&["query", "--json", "--tables", tables, POS]);
    let b = run(&["query", "--json", "--tables", out_s, POS]);
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout);
    assert!(run(&["verify", "--tables", out_s]).status.success());
    // Bad input: one line, exit 1, no file written.
    for (args, word) in [
        (
            vec![
                "repack",
                "--tables",
                tables,
                "--out",
                "/nonexistent/x",
                "--soldiers",
                "20..=20",
            ],
            "no assaut tables",
        ),
        (
            vec![
                "repack",
                "--tables",
                tables,
                "--out",
                out_s,
                "--wdl-block",
                "6",
            ],
            "multiple of 4",
        ),
    ] {
        let before = walk(&out);
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(word), "{err}");
        assert_eq!(walk(&out), before);
    }
}
