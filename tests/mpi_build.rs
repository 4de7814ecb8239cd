//! Cluster builds (cargo feature `mpi`): `mpirun -np N asalto build` on
//! this machine writes the bytes of a one-process build, with ranks whose
//! window spills to their scratch folders, and a job whose rank 1 is
//! killed with SIGKILL mid-file resumes from rank 0's checkpoint when run
//! again; exchanges cut into many small MPI calls (`ASALTO_MPI_PIECE`, the
//! path of over 2^30 values) give the same bytes; a job told to
//! `--stop-after` stops on every rank at once and goes on when run again. Needs OpenMPI's `mpirun` (see `.ci/run`); run with
//! `cargo test --features mpi --test mpi_build`.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A closure of 1.6 million positions over 1o9s..2o10s (as in
/// tests/build_resume.rs).
const SMALL: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";
/// A closure of 13.5 million positions; its last file (2o10s) takes about
/// a second on one process, long enough to be killed in.
const LARGER: &str = "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s";

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_asalto")
}

/// `asalto build --for pos --json --tables dir` with `extra` arguments,
/// under `mpirun -np ranks` when `ranks > 0` (else the binary alone).
fn build(ranks: usize, pos: &str, dir: &Path, extra: &[&str]) -> Command {
    let mut c = if ranks > 0 {
        let mut c = Command::new("mpirun");
        c.args(["-np", &ranks.to_string(), "--oversubscribe"])
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .arg(bin());
        c
    } else {
        Command::new(bin())
    };
    c.args(["build", "--for", pos, "--json", "--threads", "1"])
        .args(extra)
        .arg("--tables")
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// The table files under `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("assaut"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// Every file under `a` has the bytes of the file of the same name under
/// `b`, and nothing else is left beside them (no temporary file, no
/// checkpoint, no scratch folder).
fn same_files(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let names = |v: &[PathBuf]| -> Vec<String> {
        v.iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(&fa), names(&fb));
    assert!(
        names(&fa).iter().all(|n| n.ends_with("s.atb")),
        "{:?}",
        names(&fa)
    );
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(
            std::fs::read(x).unwrap(),
            std::fs::read(y).unwrap(),
            "{}",
            x.display()
        );
    }
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn two_ranks_write_the_bytes_of_one_process() {
    let one = tempfile::tempdir().unwrap();
    let j1 = json_of(&build(0, SMALL, one.path(), &[]).output().unwrap());
    assert_eq!(j1["ranks"], 1);
    let two = tempfile::tempdir().unwrap();
    let j2 = json_of(&build(2, SMALL, two.path(), &[]).output().unwrap());
    assert_eq!(j2["ranks"], 2);
    same_files(one.path(), two.path());
    // Each file's tiers were shared: both ranks solved some, and together
    // every position once.
    for f in j2["builds"][0]["files"].as_array().unwrap() {
        let shares = f["ranks"].as_array().unwrap();
        assert_eq!(shares.len(), 2, "{f}");
        let solved: Vec<u64> = shares
            .iter()
            .map(|s| s["positions"].as_u64().unwrap())
            .collect();
        assert!(solved.iter().all(|&p| p > 0), "{f}");
        assert_eq!(solved.iter().sum::<u64>(), f["positions"].as_u64().unwrap());
    }
}

#[test]
fn three_ranks_reading_their_window_back_from_scratch_write_the_same_bytes() {
    let one = tempfile::tempdir().unwrap();
    json_of(&build(0, SMALL, one.path(), &[]).output().unwrap());
    let three = tempfile::tempdir().unwrap();
    // A window of one byte: rank 0 reads every tier of the file back from
    // the file, ranks 1 and 2 from their scratch folders.
    let j = json_of(
        &build(3, SMALL, three.path(), &["--window-bytes", "1"])
            .output()
            .unwrap(),
    );
    assert_eq!(j["ranks"], 3);
    same_files(one.path(), three.path());
}

#[test]
fn three_ranks_exchanging_in_small_pieces_write_the_same_bytes() {
    // Pieces of 1000 elements per MPI call: every chunk's all-gather takes
    // the rounds a chunk of over 2^30 values per rank would take.
    let one = tempfile::tempdir().unwrap();
    json_of(&build(0, SMALL, one.path(), &[]).output().unwrap());
    let three = tempfile::tempdir().unwrap();
    let mut c = build(3, SMALL, three.path(), &[]);
    c.env("ASALTO_MPI_PIECE", "1000");
    assert_eq!(json_of(&c.output().unwrap())["ranks"], 3);
    same_files(one.path(), three.path());
    // A piece that is no count is refused in one line.
    let bad = tempfile::tempdir().unwrap();
    let mut c = build(0, SMALL, bad.path(), &[]);
    c.env("ASALTO_MPI_PIECE", "0");
    let out = c.output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ASALTO_MPI_PIECE=\"0\""), "{err}");
    assert!(!err.contains("panick"), "{err}");
}

/// The pids of the processes of `bin()` whose MPI rank is `rank` and whose
/// command line names `dir`.
fn rank_pids(rank: usize, dir: &Path) -> Vec<i32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    let dir = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let cmd = String::from_utf8_lossy(&cmd);
            cmd.starts_with(bin())
                && cmd.contains(&dir)
                && env.split(|&b| b == 0).any(|v| v == want.as_bytes())
        })
        .collect()
}

#[test]
fn a_job_whose_rank_is_killed_mid_file_resumes_and_writes_the_same_bytes() {
    let clean = tempfile::tempdir().unwrap();
    json_of(&build(0, LARGER, clean.path(), &[]).output().unwrap());

    let dir = tempfile::tempdir().unwrap();
    let last = dir.path().join("assaut").join("2o10s.atb");
    let ckpt = dir.path().join("assaut").join("2o10s.atb.ckpt");
    let args = ["--checkpoint-secs", "0"];
    let mut job = build(2, LARGER, dir.path(), &args).spawn().unwrap();
    let start = Instant::now();
    while !ckpt.exists() {
        assert!(
            job.try_wait().unwrap().is_none(),
            "the job ended before a checkpoint of its last file was seen"
        );
        assert!(start.elapsed().as_secs() < 120);
        std::thread::sleep(Duration::from_millis(1));
    }
    let pids = rank_pids(1, dir.path());
    assert_eq!(pids.len(), 1, "rank 1 not found");
    // SAFETY: kill(2) on a pid of a child of this test's mpirun.
    assert_eq!(unsafe { libc::kill(pids[0], libc::SIGKILL) }, 0);
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job went on without its rank 1");
    assert!(!last.exists(), "killed too late");

    // The rerun broadcasts the checkpoint's window tiers in pieces of
    // 1000 elements (many MPI calls, as for over 2^30 values).
    let mut rerun = build(2, LARGER, dir.path(), &args);
    rerun.env("ASALTO_MPI_PIECE", "1000");
    let j = json_of(&rerun.output().unwrap());
    let files_built = j["builds"][0]["files"].as_array().unwrap();
    let f = files_built.last().unwrap();
    assert_eq!(f["file"], "2o10s");
    assert!(f["resumed_positions"].as_u64().unwrap() > 0, "{f}");
    same_files(clean.path(), dir.path());
}

/// A 2-rank job told to `--stop-after 1s` stops on every rank at the same
/// checkpoint (rank 0's clock) with status 75, and the same job run again
/// goes on and writes the bytes of one process.
#[test]
fn a_job_told_to_stop_stops_on_every_rank_and_goes_on() {
    // 81 million positions: several seconds for two single-thread ranks.
    let pos = "3/O1O/SS3SS/SSSSSS1/7/3/3 s";
    let one = tempfile::tempdir().unwrap();
    json_of(&build(0, pos, one.path(), &[]).output().unwrap());
    let two = tempfile::tempdir().unwrap();
    let out = build(2, pos, two.path(), &["--stop-after", "1s"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stopped: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let done = stopped["stopped"]["positions_done"].as_u64().unwrap();
    let j = json_of(&build(2, pos, two.path(), &[]).output().unwrap());
    let file = stopped["stopped"]["file"].as_str().unwrap();
    let resumed = j["builds"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == file)
        .unwrap();
    assert_eq!(resumed["resumed_positions"].as_u64().unwrap(), done);
    same_files(one.path(), two.path());
}
