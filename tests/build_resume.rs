//! Builds that go on from a checkpoint inside a file: stopped (or killed
//! with SIGKILL) after a checkpoint and run again, a build takes up the
//! checkpoint and writes the same bytes as an uninterrupted build; a
//! damaged, foreign or stale checkpoint is discarded with a note, never
//! trusted; a window too small to hold anything (every read of the file's
//! own tiers from disk) writes the same bytes; a window that is never
//! short holds at its peak what its tiers predict; a budget too small to
//! build is refused before anything is written.

mod common;

use asalto_tb::build::{self, BuildError, BuildObserver, BuildOptions, FileReport, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::TierKey;
use asalto_tb::solve::Solver;
use asalto_tb::table::{Problem, WriteOptions, table_path, temporary_path};
use asalto_tb::{Position, Variant};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A closure of 1.6 million positions in 100 tiers over 1o9s, 2o9s, 1o10s
/// and 2o10s; its last file (2o10s) has several levels, so several
/// checkpoints when they are taken after every chunk.
const POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";

fn tiers() -> Vec<TierKey> {
    let p: Position = POS.parse().unwrap();
    Solver::new(Variant::ASSAUT).closure_of(&p)
}

fn opts() -> BuildOptions {
    BuildOptions {
        checkpoint_secs: 0,
        ..BuildOptions::threads(2)
    }
}

fn last_file(dir: &Path) -> PathBuf {
    table_path(dir, &Variant::ASSAUT, FileKey::new(2, 10))
}

/// Counts checkpoints of the last file and stops the build at the
/// `stop_at`-th; keeps the notes.
struct StopAt {
    stop_at: u64,
    seen: AtomicU64,
    notes: Mutex<Vec<String>>,
    current: Mutex<Option<FileKey>>,
}

impl StopAt {
    fn new(stop_at: u64) -> StopAt {
        StopAt {
            stop_at,
            seen: AtomicU64::new(0),
            notes: Mutex::new(Vec::new()),
            current: Mutex::new(None),
        }
    }
}

impl StopAt {
    /// Whether a note contains every one of `words`.
    fn noted(&self, words: &[&str]) -> bool {
        let notes = self.notes.lock().unwrap();
        notes.iter().any(|n| words.iter().all(|w| n.contains(w)))
    }
}

impl asalto_tb::progress::Observer for StopAt {}

impl BuildObserver for StopAt {
    fn file_start(&self, file: FileKey, _: usize, _: u64, _: u64) {
        *self.current.lock().unwrap() = Some(file);
    }
    fn note(&self, message: &str) {
        self.notes.lock().unwrap().push(message.to_string());
    }
    fn checkpoint(&self, _positions: u64) -> bool {
        if *self.current.lock().unwrap() != Some(FileKey::new(2, 10)) {
            return true;
        }
        self.seen.fetch_add(1, Ordering::Relaxed) + 1 < self.stop_at
    }
}

/// A clean build of the closure, for comparison.
fn clean() -> (tempfile::TempDir, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &Quiet).unwrap();
    let bytes = std::fs::read(last_file(dir.path())).unwrap();
    (dir, bytes)
}

/// A build of the closure stopped at the second checkpoint of its last
/// file: the temporary file and its checkpoint are left, no final file.
fn stopped() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let stop = StopAt::new(2);
    let r = build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &stop);
    assert!(matches!(r, Err(BuildError::Stopped(_))), "{:?}", r.err());
    let last = last_file(dir.path());
    assert!(!last.exists());
    assert!(temporary_path(&last).exists());
    assert!(build::checkpoint_path(&last).exists());
    dir
}

fn last_report(reports: &[FileReport]) -> &FileReport {
    let r = reports.last().unwrap();
    assert_eq!(r.file, FileKey::new(2, 10));
    r
}

#[test]
fn a_stopped_build_resumes_from_its_checkpoint_and_writes_the_same_bytes() {
    let (_clean_dir, want) = clean();
    let dir = stopped();
    // The plan sees the checkpoint of the last file, part done, and no
    // other: the lower files were finished, holding every tier of the
    // closure in them, so the plan counts them as built, as the build
    // skips them (below).
    let pos: Position = POS.parse().unwrap();
    let mut plan = asalto_tb::plan::for_position(&Variant::ASSAUT, &pos).unwrap();
    plan.mark_built(dir.path());
    let (last_plan, lower) = plan.files.split_last().unwrap();
    assert!(lower.iter().all(|f| f.checkpoint.is_none() && f.built));
    assert!(!last_plan.built);
    assert_eq!(plan.estimate().positions, last_plan.positions);
    let held = last_plan.checkpoint.expect("the checkpoint seen");
    assert!(!held.wdl_only);
    assert!(0 < held.positions_done && held.positions_done < last_plan.positions);
    let estimate = plan.estimate();
    assert_eq!(estimate.checkpointed_positions, held.positions_done);
    // The time estimate leaves out what the checkpoint holds.
    let left = estimate.positions - held.positions_done;
    let at_rate = asalto_tb::plan::build_core_seconds(last_plan.file.soldiers(), left, false)
        / asalto_tb::plan::cores_worth(1e6);
    assert!((estimate.seconds(1e6) / at_rate - 1.0).abs() < 1e-12);
    let obs = StopAt::new(u64::MAX);
    let reports =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &obs).unwrap();
    let r = last_report(&reports);
    assert!(r.resumed_positions > 0, "nothing resumed");
    assert!(r.resumed_positions < r.info.positions);
    assert_eq!(r.resumed_positions, held.positions_done);
    // The stopped run's time on the file came with its checkpoint.
    assert!(r.earlier_seconds > 0.0, "{}", r.earlier_seconds);
    // The lower files were complete: skipped, not rebuilt.
    assert!(reports[..reports.len() - 1].iter().all(|r| r.skipped));
    assert!(obs.noted(&["resuming"]));
    // The window read back before solving goes on, said before and after.
    assert!(obs.noted(&["2o10s: reading back the window", " tiers, "]));
    assert!(obs.noted(&["2o10s: window read back in "]));
    let last = last_file(dir.path());
    assert_eq!(std::fs::read(&last).unwrap(), want);
    // Nothing left beside the finished file.
    assert!(!temporary_path(&last).exists());
    assert!(!build::checkpoint_path(&last).exists());
}

/// A deadline already passed: the build stops before its first file to
/// build, writes nothing of it, and says which files were done (the
/// complete ones, skipped).
#[test]
fn a_build_past_its_deadline_starts_no_file() {
    let (dir, _) = clean();
    let last = last_file(dir.path());
    std::fs::remove_file(&last).unwrap();
    let opts = BuildOptions {
        stop_at: Some(Instant::now()),
        ..opts()
    };
    let r = build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts, &Quiet);
    let Err(BuildError::Stopped(stop)) = r else {
        panic!("not stopped: {:?}", r.map(|r| r.len()));
    };
    assert_eq!((stop.file, stop.positions_done), (FileKey::new(2, 10), 0));
    assert_eq!(stop.files.len(), 3);
    assert!(stop.files.iter().all(|f| f.skipped));
    assert!(stop.to_string().contains("before building 2o10s"), "{stop}");
    assert!(!last.exists());
    assert!(!temporary_path(&last).exists());
    assert!(!build::checkpoint_path(&last).exists());
}

/// A deadline that passes during the build: it stops at a chunk boundary
/// with a checkpoint (or between files), reports how far it got, and the
/// same build run again goes on from there, counting the stopped run's
/// time, and writes the bytes of an uninterrupted build.
#[test]
fn a_build_stopped_by_its_deadline_goes_on_and_writes_the_same_bytes() {
    // 13.5 million positions in 8 files: over a second on one thread.
    let p: Position = "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s".parse().unwrap();
    let tiers = Solver::new(Variant::ASSAUT).closure_of(&p);
    let clean = tempfile::tempdir().unwrap();
    build::build_tiers(clean.path(), &Variant::ASSAUT, &tiers, &opts(), &Quiet).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let late = BuildOptions {
        stop_at: Some(Instant::now() + Duration::from_millis(300)),
        checkpoint_secs: 3600,
        ..BuildOptions::threads(1)
    };
    let r = build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers, &late, &Quiet);
    let Err(BuildError::Stopped(stop)) = r else {
        panic!("not stopped: {:?}", r.map(|r| r.len()));
    };
    let file = table_path(dir.path(), &Variant::ASSAUT, stop.file());
    assert!(!file.exists());
    // Stopped inside the file: with a checkpoint, though the checkpoints
    // were an hour apart.
    let ckpt = build::checkpoint_path(&file);
    assert_eq!(ckpt.exists(), stop.positions_done > 0);
    for f in &stop.files {
        assert!(!f.skipped);
        assert!(table_path(dir.path(), &Variant::ASSAUT, f.file()).exists());
    }

    let reports =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers, &opts(), &Quiet).unwrap();
    let done = stop.files.len();
    assert!(reports[..done].iter().all(|r| r.skipped));
    let r = &reports[done];
    assert_eq!(r.file, stop.file);
    assert_eq!(r.resumed_positions, stop.positions_done);
    if stop.positions_done > 0 {
        assert!(r.earlier_seconds > 0.0 && r.earlier_seconds <= stop.seconds);
    }
    for r in &reports {
        let path = |d: &Path| table_path(d, &Variant::ASSAUT, r.file());
        assert_eq!(
            std::fs::read(path(dir.path())).unwrap(),
            std::fs::read(path(clean.path())).unwrap(),
            "{}",
            r.file
        );
    }
}

#[test]
fn a_damaged_checkpoint_is_discarded_with_a_note() {
    let (_clean_dir, want) = clean();
    let dir = stopped();
    let ckpt = build::checkpoint_path(&last_file(dir.path()));
    let mut bytes = std::fs::read(&ckpt).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&ckpt, bytes).unwrap();
    let obs = StopAt::new(u64::MAX);
    let reports =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &obs).unwrap();
    assert_eq!(last_report(&reports).resumed_positions, 0);
    assert!(obs.noted(&["discarded", "checksum"]));
    assert_eq!(std::fs::read(last_file(dir.path())).unwrap(), want);
}

#[test]
fn a_checkpoint_whose_file_was_cut_short_is_discarded() {
    let (_clean_dir, want) = clean();
    let dir = stopped();
    let tmp = temporary_path(&last_file(dir.path()));
    let len = std::fs::metadata(&tmp).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&tmp).unwrap();
    f.set_len(len / 2).unwrap();
    drop(f);
    let obs = StopAt::new(u64::MAX);
    let reports =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &obs).unwrap();
    assert_eq!(last_report(&reports).resumed_positions, 0);
    assert!(obs.noted(&["discarded"]));
    assert_eq!(std::fs::read(last_file(dir.path())).unwrap(), want);
}

#[test]
fn a_checkpoint_goes_on_with_the_write_options_it_was_started_with() {
    // A build asked for other block sizes and order (a later binary's
    // defaults) still finishes the file as it was started: the same bytes
    // as the uninterrupted build with the first options.
    let (_clean_dir, want) = clean();
    let dir = stopped();
    let other = BuildOptions {
        write: WriteOptions {
            wdl_block_positions: 1 << 12,
            order: asalto_tb::table::Order::PlacementMajor,
            ..WriteOptions::default()
        },
        ..opts()
    };
    let obs = StopAt::new(u64::MAX);
    let reports = build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &other, &obs).unwrap();
    assert!(last_report(&reports).resumed_positions > 0);
    assert!(!obs.noted(&["discarded"]));
    assert_eq!(std::fs::read(last_file(dir.path())).unwrap(), want);
}

#[test]
fn a_checkpoint_of_another_build_is_discarded() {
    // Another tier list for the same file: a foreign identity.
    let dir = stopped();
    let mut fewer = tiers();
    let drop_one = fewer.iter().rposition(|t| (t.n, t.k) == (2, 10)).unwrap();
    fewer.remove(drop_one);
    let obs = StopAt::new(u64::MAX);
    // The tier removed may be needed by no other: a complete closure is
    // not required of build_tiers for its own file's last level.
    let r = build::build_tiers(dir.path(), &Variant::ASSAUT, &fewer, &opts(), &obs);
    assert!(obs.noted(&["another build"]), "{:?}", r.err());
}

#[test]
fn reading_every_own_tier_back_from_disk_writes_the_same_bytes() {
    let (_clean_dir, want) = clean();
    let dir = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        window_bytes: Some(0),
        ..opts()
    };
    let reports =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts, &Quiet).unwrap();
    assert!(reports.iter().all(|r| r.window_peak_bytes == 0));
    assert_eq!(std::fs::read(last_file(dir.path())).unwrap(), want);
}

#[test]
fn the_window_peaks_at_what_its_files_tiers_predict() {
    // With a budget that never binds, each file's window holds, at its
    // peak, exactly the halves `window_peak_bytes` counts from its tiers.
    let dir = tempfile::tempdir().unwrap();
    let tiers = tiers();
    let reports =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers, &opts(), &Quiet).unwrap();
    for r in &reports {
        let own = common::own_tiers(&tiers, r.file());
        let want = build::window_peak_bytes(&Variant::ASSAUT, &own, false);
        assert_eq!(r.window_peak_bytes, want, "{}", r.file);
    }
    assert!(last_report(&reports).window_peak_bytes > 0);
}

#[test]
fn a_budget_too_small_is_refused_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        memory: asalto_tb::budget::MemoryBudget::new(100 << 20),
        ..opts()
    };
    let r = build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts, &Quiet);
    let e = r.unwrap_err();
    assert!(matches!(e, BuildError::Budget(_)), "{e}");
    assert!(e.to_string().contains("--memory"), "{e}");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

/// `asalto build` of a closure of 13.5 million positions whose last file
/// (2o10s) takes about a second, a checkpoint after every chunk, into
/// `dir`, with `extra` arguments; both outputs piped.
fn build_command(dir: &Path, extra: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_asalto"));
    c.args(["build", "--for", "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s"])
        .args(["--checkpoint-secs", "0"])
        .args(extra)
        .arg("--tables")
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    c
}

/// The binary killed with SIGKILL in the middle of the last file of a
/// build (just after a checkpoint of it appears), then run again: the run
/// reports `resumed_positions > 0` in its JSON and the files are the bytes
/// of an uninterrupted build.
#[test]
fn a_build_killed_with_sigkill_resumes_and_writes_the_same_bytes() {
    let run = |dir: &Path| build_command(dir, &["--json"]);
    let clean = tempfile::tempdir().unwrap();
    assert!(run(clean.path()).output().unwrap().status.success());

    let dir = tempfile::tempdir().unwrap();
    let mut child = run(dir.path()).spawn().unwrap();
    let ckpt = build::checkpoint_path(&last_file(dir.path()));
    let start = std::time::Instant::now();
    while !ckpt.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build ended before a checkpoint of its last file was seen"
        );
        assert!(start.elapsed().as_secs() < 120);
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!last_file(dir.path()).exists(), "killed too late");

    let out = run(dir.path()).output().unwrap();
    assert!(out.status.success());
    // The resumed file's notes reach a stderr that is no terminal (as a
    // log): a hidden progress bar once swallowed them.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2o10s: reading back the window of the resumed build")
            && err.contains("2o10s: window read back in"),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = json["builds"][0]["files"].as_array().unwrap();
    let last = files.last().unwrap();
    assert_eq!(last["file"], "2o10s");
    assert!(last["resumed_positions"].as_u64().unwrap() > 0, "{last}");
    for f in files {
        let name = format!("{}.atb", f["file"].as_str().unwrap());
        let path = |d: &Path| d.join("assaut").join(&name);
        assert_eq!(
            std::fs::read(path(dir.path())).unwrap(),
            std::fs::read(path(clean.path())).unwrap(),
            "{name}"
        );
    }
}

/// Run `build` (a [`build_command`] into `dir`), send it SIGTERM as soon
/// as its last file is being written, and wait for its end.
fn sigterm_in_last_file(mut build: std::process::Command, dir: &Path) -> std::process::Output {
    let child = build.spawn().unwrap();
    let tmp = temporary_path(&last_file(dir));
    let start = std::time::Instant::now();
    while !tmp.exists() {
        assert!(
            start.elapsed().as_secs() < 120,
            "the last file never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // SAFETY: kill(2) on the child's pid, which it still holds: it is not
    // reaped before wait below.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    child.wait_with_output().unwrap()
}

/// SIGTERM (as Ctrl-C) in the middle of the last file: the build stops at
/// its next chunk with a checkpoint and exit status 75, as at
/// `--stop-after`; run again, it goes on and writes the bytes of an
/// uninterrupted build.
#[test]
fn a_build_stopped_by_sigterm_checkpoints_exits_75_and_goes_on() {
    let run = |dir: &Path| build_command(dir, &[]);
    let clean = tempfile::tempdir().unwrap();
    assert!(run(clean.path()).output().unwrap().status.success());

    let dir = tempfile::tempdir().unwrap();
    let out = sigterm_in_last_file(run(dir.path()), dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(75), "{err}");
    assert!(err.contains("run the same build again"), "{err}");
    assert!(!last_file(dir.path()).exists());
    assert!(build::checkpoint_path(&last_file(dir.path())).exists());

    let again = run(dir.path()).output().unwrap();
    assert!(again.status.success());
    assert_eq!(
        std::fs::read(last_file(dir.path())).unwrap(),
        std::fs::read(last_file(clean.path())).unwrap()
    );
}

/// A WDL-only build stopped (SIGTERM) in its last file says in its JSON
/// what the cache of lower blocks did in that file until then: its
/// budget (`--block-cache`), the blocks read and those decompressed.
#[test]
fn a_stopped_builds_json_counts_the_lower_blocks_of_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let cache = 100u64 << 20;
    let out = sigterm_in_last_file(
        build_command(
            dir.path(),
            &["--wdl-only", "--json", "--block-cache", &cache.to_string()],
        ),
        dir.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stopped = &json["stopped"];
    assert_eq!(stopped["file"], "2o10s", "{stopped}");
    assert_eq!(
        stopped["block_cache_bytes"].as_u64(),
        Some(cache),
        "{stopped}"
    );
    let read = stopped["wdl_blocks_read"].as_u64().unwrap();
    let decompressed = stopped["wdl_blocks_decompressed"].as_u64().unwrap();
    // Its lower files have a few blocks each: the first reads of each
    // missed, most later ones hit.
    assert!(decompressed > 0 && read > 2 * decompressed, "{stopped}");
}

#[test]
fn a_build_meeting_a_corrupt_file_says_so_and_leaves_it() {
    let (dir, want) = clean();
    let last = last_file(dir.path());
    let mut bytes = want.clone();
    let at = bytes.len() / 3;
    bytes[at] ^= 0x40;
    // A flipped byte in a block is found when the block is read; a
    // truncated file when it is opened. Both are refused.
    std::fs::write(&last, &bytes[..bytes.len() - 7]).unwrap();
    let e =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &Quiet).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("truncated") && text.contains("remove it"),
        "{text}"
    );
    assert!(!text.contains('\n'));
    assert!(
        matches!(&e, BuildError::Unsound(t) if matches!(t.problem(), Problem::Truncated { .. })),
        "{e:?}"
    );
    // Left as it was.
    assert_eq!(std::fs::read(&last).unwrap(), &bytes[..bytes.len() - 7]);
    // A flipped byte in a block of a complete file: not skipped as built.
    std::fs::write(&last, &bytes).unwrap();
    let e =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &Quiet).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("checksum") && text.contains("remove it"),
        "{text}"
    );
    assert!(
        matches!(&e, BuildError::Unsound(t) if matches!(t.problem(), Problem::BlockChecksum { .. })),
        "{e:?}"
    );
    assert_eq!(std::fs::read(&last).unwrap(), bytes);
    // Another table's file under this one's name: refused, left as it was.
    let other = table_path(dir.path(), &Variant::ASSAUT, FileKey::new(1, 10));
    std::fs::copy(&other, &last).unwrap();
    let e =
        build::build_tiers(dir.path(), &Variant::ASSAUT, &tiers(), &opts(), &Quiet).unwrap_err();
    assert!(
        matches!(
            &e,
            BuildError::Foreign {
                found: (_, found),
                expected: (_, expected),
                ..
            } if *found == FileKey::new(1, 10) && *expected == FileKey::new(2, 10)
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("holds assaut 1o10s"), "{e}");
}

#[test]
fn a_soldier_range_outside_9_to_24_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (lo, hi) in [(8, 10), (9, 25), (12, 11)] {
        let e = build::build(dir.path(), &Variant::ASSAUT, lo, hi, &opts(), &Quiet).unwrap_err();
        assert!(
            matches!(e, BuildError::Soldiers { k_min, k_max } if (k_min, k_max) == (lo, hi)),
            "{e}"
        );
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}
