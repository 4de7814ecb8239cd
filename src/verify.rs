//! Verifying built tables: every block checksum, then every stored value
//! re-derived from its successors' stored values ([`crate::solve::check_tier_as`]). The
//! values are re-derived through the rules' own move generator, not the
//! solver's capture and huff code, so a fault there is caught (the tests
//! below plant such faults in the solver).
//!
//! A long verification can be stopped and resumed: each file's tiers are
//! checked in solving order, in chunks, and after each chunk a record of
//! how far it got is written beside the file (`<file>.verify`, JSON,
//! written under a temporary name and renamed). With
//! [`VerifyOptions::resume`] a record that matches the file (same length
//! and index checksum) is taken up where it stopped; a complete one means
//! the file was verified before. A record does not name the lower files
//! the checked values were read against. It also keeps the seconds spent
//! on the file by the runs up to it, so a file checked over several runs
//! reports its whole time ([`FileCheck::earlier_seconds`]).
//!
//! A verify's record outlives its tables: its JSON names each file it
//! proved by its contents (length and index checksum). With
//! [`VerifyOptions::proved`] the files such a record proved are taken as
//! checked when the files here have the same contents, and so have all
//! the files below them ([`proved_files`]): tables lost with a machine and
//! built again by the same version are not checked twice.
//!
//! With [`VerifyOptions::stop_at`] a run stops by itself at the first
//! chunk done after that instant, or before starting the next file, with
//! its record written: [`VerifyReport::stopped`] says where, and the same
//! verification run again with `resume` goes on from there.

use crate::Value;
use crate::index::{self, FileKey, TierKey};
use crate::position::Position;
use crate::progress::{Observer, Progress, Throttle};
use crate::rules::Variant;
use crate::solve::{Checker, Floor, Lookup, SolveError, check_tier_by};
use crate::table::{Table, TableSet, table_path};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Why a verification could not be carried out (an inconsistent value is
/// not an error: it is reported in [`VerifyReport`]).
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// Reading the tables failed (a checksum, a truncated or unreadable
    /// file, a missing lower tier).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A table file cannot be opened or read.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// No table file to verify.
    #[error(
        "no tables of variant {variant} with {}..={} soldiers under {}",
        soldiers.0, soldiers.1, dir.display()
    )]
    NoTables {
        /// The variant.
        variant: Variant,
        /// The soldier range asked for.
        soldiers: (u8, u8),
        /// The folder of tables.
        dir: PathBuf,
    },
    /// A file, or a tier its directory lists, is no longer there while
    /// it is read.
    #[error("{}: vanished while it was read", .0.display())]
    Vanished(PathBuf),
    /// A verify record beside a table cannot be written.
    #[error("cannot write {}: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// An earlier verify's record (`--proved-by`) cannot be used.
    #[error("{source_name}: {why}")]
    BadRecord {
        /// The record.
        source_name: String,
        /// What is wrong with it.
        why: String,
    },
    /// A verify record beside a table cannot be removed.
    #[error("cannot remove {}: {error}", path.display())]
    Remove {
        /// The record.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
}

/// A stored value that disagrees with its successors.
#[derive(Clone, Debug)]
pub struct BadValue {
    /// The table file.
    pub file: PathBuf,
    /// The position (canonical, without huff rights).
    pub position: Position,
    /// The stored value.
    pub stored: Value,
    /// The value its moves give.
    pub derived: Value,
}

/// What was checked of one file.
#[derive(Clone, Debug)]
pub struct FileCheck {
    /// The table file.
    pub path: PathBuf,
    /// Its positions.
    pub positions: u64,
    /// Positions checked by earlier runs (taken from the file's record
    /// with `resume`).
    pub resumed_positions: u64,
    /// Seconds this run spent on the file (checksums and values).
    pub seconds: f64,
    /// Seconds earlier runs spent on its values, up to the record this run
    /// took up (0 without one). The work a killed run did after its last
    /// record is done again and counted once, by the run that redoes it.
    pub earlier_seconds: f64,
    /// A WDL-only table: checked win/draw/loss only (see
    /// [`crate::solve::check_tier_as`]).
    pub wdl_only: bool,
    /// The checker that checked it here: [`VerifyOptions::checker`] for
    /// a WDL-only table, [`Checker::Positions`] for one with distances.
    pub checker: Checker,
    /// The file's length in bytes and the checksum of its index (which
    /// holds every block's checksum): together, the identity of the
    /// contents checked, so that a record names the file it proved.
    pub file_bytes: u64,
    /// See [`FileCheck::file_bytes`].
    pub index_crc: u32,
    /// Inconsistent positions found in the file (earlier runs' included).
    pub inconsistent: u64,
    /// The earlier verify's record that proved the file
    /// ([`VerifyOptions::proved`]); `None` when it was checked here.
    pub proved_by: Option<String>,
}

/// The outcome of a verification.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// The files checked, in order.
    pub files: Vec<FileCheck>,
    /// Tiers checked (this run and resumed).
    pub tiers: u64,
    /// Positions checked (this run and resumed).
    pub positions: u64,
    /// Inconsistent positions in all (this run and resumed).
    pub bad_count: u64,
    /// The first inconsistencies this run found (at most the limit asked
    /// for), in file and index order.
    pub bad: Vec<BadValue>,
    /// Where the run stopped at its deadline ([`VerifyOptions::stop_at`]);
    /// `None` when every file chosen was checked. The counts above are of
    /// the files done, but for `bad_count` and `bad`, which include what
    /// was found in the file it stopped in.
    pub stopped: Option<VerifyStop>,
    /// The floor of the files checked (`None`: exact tables).
    pub floor: Option<Floor>,
    /// The files that could not be checked (unreadable, a checksum
    /// failed, a tier they read missing or broken), each with its error:
    /// the run goes on with the other files and the command fails after.
    pub failed: Vec<FailedFile>,
}

/// A table file opened for checking, with its path.
type OpenFile = (PathBuf, Arc<Table>);

/// The end of the progress step [`verify`] reports when a file it was
/// checking cannot be checked: the file's step (`assaut 1o9s`) then this.
pub const FAILED_STEP: &str = ": cannot be checked";

/// A file [`verify`] could not check, and why.
#[derive(Clone, Debug)]
pub struct FailedFile {
    /// The table file.
    pub path: PathBuf,
    /// What went wrong, in one line.
    pub error: String,
}

impl VerifyError {
    /// Whether the error is of one file (its contents, or a lower file it
    /// reads), so that the others can still be checked.
    fn is_of_a_file(&self) -> bool {
        matches!(
            self,
            VerifyError::Solve(_) | VerifyError::Table(_) | VerifyError::Vanished(_)
        )
    }
}

/// Where a verification stopped at its deadline: in a file, with its record
/// written (or before starting it).
#[derive(Clone, Debug)]
pub struct VerifyStop {
    /// The table file.
    pub path: PathBuf,
    /// Its positions checked so far, by this run and earlier ones.
    pub positions_done: u64,
    /// Its positions.
    pub positions: u64,
    /// Seconds this run spent on it.
    pub seconds: f64,
    /// Seconds earlier runs spent on it, up to the record this run took up.
    pub earlier_seconds: f64,
}

impl std::fmt::Display for VerifyStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.positions_done == 0 {
            write!(f, "stopped before checking {}", self.path.display())?;
        } else {
            write!(
                f,
                "stopped in {}, {} of {} positions checked",
                self.path.display(),
                self.positions_done,
                self.positions
            )?;
        }
        write!(f, "; run the same verify again with --resume to go on")
    }
}

/// How to verify.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Only the files with these soldier counts (those present; the lower
    /// tables they read are trusted).
    pub soldiers: (u8, u8),
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Keep at most this many inconsistent positions as examples.
    pub limit: usize,
    /// Take up each file's record of an earlier run.
    pub resume: bool,
    /// Positions per chunk between records.
    pub chunk_positions: u64,
    /// Stop at the first chunk done after this instant, or before the next
    /// file ([`VerifyReport::stopped`]).
    pub stop_at: Option<Instant>,
    /// Stop as at [`VerifyOptions::stop_at`] once this is set (`asalto
    /// verify` sets it on SIGINT or SIGTERM).
    pub stop_flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The files an earlier verify proved (see [`proved_files`]), with
    /// the name of its record: each is taken as checked where the file
    /// here and every file below it have the contents it names.
    pub proved: Option<(String, Vec<ProvedFile>)>,
    /// The budget of the shared cache of decompressed WDL blocks
    /// ([`crate::table::blocks`]) while verifying: a tier's successors lie
    /// scattered over the files below it, as in a build. By default a
    /// quarter of the default memory budget, at most
    /// [`crate::budget::MAX_BLOCK_CACHE_BYTES`].
    pub block_cache_bytes: u64,
    /// Verify the files of the game above this floor, in its folder under
    /// the tables folder, each tier against the lower ones and the floor's
    /// assumed tiers below it (`None`: the exact tables).
    pub floor: Option<Floor>,
    /// The checker of WDL-only tables ([`Checker::Sets`] by default).
    pub checker: Checker,
}

impl VerifyOptions {
    /// Whether [`VerifyOptions::stop_at`] has passed or
    /// [`VerifyOptions::stop_flag`] is set.
    fn late(&self) -> bool {
        self.stop_at.is_some_and(|t| Instant::now() >= t)
            || self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            soldiers: (9, 24),
            threads: 0,
            limit: 10,
            resume: false,
            // About a minute of checking on two cores.
            chunk_positions: 1 << 30,
            stop_at: None,
            stop_flag: None,
            proved: None,
            block_cache_bytes: crate::budget::MemoryBudget::machine_default().verify_block_cache(),
            floor: None,
            checker: Checker::default(),
        }
    }
}

/// How far the checking of one file got: the record kept beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Record {
    /// The file's length and index checksum: the record is for this file.
    file_bytes: u64,
    index_crc: u32,
    /// Tiers checked, in solving order, and their positions.
    tiers_done: u64,
    positions_done: u64,
    /// Inconsistent positions found among them.
    inconsistent: u64,
    /// Seconds the runs up to this record spent checking them (0 in the
    /// records of versions before it was kept).
    #[serde(default)]
    seconds: f64,
    /// The earlier verify's record that proved the file, when it was not
    /// checked here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    proved_by: Option<String>,
}

/// Remove the records beside the files `report` checked (those a run
/// without `resume` leaves behind once it completed: they are only for a
/// later `resume`). A record already gone is no error.
pub fn remove_records(report: &VerifyReport) -> Result<(), VerifyError> {
    for f in &report.files {
        let path = record_path(&f.path);
        match std::fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(VerifyError::Remove { path, error });
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where the record of `path` lives.
pub fn record_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".verify");
    PathBuf::from(name)
}

fn read_record(path: &Path, table: &Table) -> Option<Record> {
    let text = std::fs::read_to_string(record_path(path)).ok()?;
    let r: Record = serde_json::from_str(&text).ok()?;
    (r.file_bytes == table.info().file_bytes && r.index_crc == table.index_crc()).then_some(r)
}

fn write_record(path: &Path, r: &Record) -> Result<(), VerifyError> {
    let to = record_path(path);
    let tmp = PathBuf::from(format!("{}.tmp", to.display()));
    let text = serde_json::to_string(r).expect("a record serialises");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, &to))
        .map_err(|error| VerifyError::Write { path: to, error })
}

/// A file an earlier verify proved whole, as its record names it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvedFile {
    /// The file's name (`2o14s.atb`).
    pub name: String,
    /// Its length in bytes.
    pub file_bytes: u64,
    /// The checksum of its index.
    pub index_crc: u32,
    /// Its positions.
    pub positions: u64,
    /// Inconsistent positions found in it.
    pub inconsistent: u64,
    /// Seconds spent checking it, over all the runs.
    pub seconds: f64,
}

/// The files of `variant` an earlier verify proved whole, read from its
/// record `text` (the JSON `asalto verify --json` prints) named
/// `source`: its `per_file` entries. A record of another variant, or one
/// made before records named the files' contents, is refused.
pub fn proved_files(
    text: &str,
    source: &str,
    variant: &Variant,
) -> Result<Vec<ProvedFile>, VerifyError> {
    let bad = |why: String| VerifyError::BadRecord {
        source_name: source.to_string(),
        why,
    };
    let j: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| bad(format!("not the JSON of `asalto verify --json` ({e})")))?;
    let (Some(v), Some(files)) = (j["variant"].as_str(), j["per_file"].as_array()) else {
        return Err(bad(
            "not the JSON of `asalto verify --json` (no variant or per_file)".into(),
        ));
    };
    if v != variant.to_string() {
        return Err(bad(format!("a verify of {v}, not of {variant}")));
    }
    let mut out = Vec::new();
    for f in files {
        let num = |key: &str| f[key].as_u64();
        let name = f["file"]
            .as_str()
            .and_then(|p| Path::new(p).file_name())
            .map(|n| n.to_string_lossy().into_owned());
        let (Some(name), Some(bytes), Some(crc), Some(positions)) = (
            name,
            num("bytes"),
            num("index_crc").and_then(|c| u32::try_from(c).ok()),
            num("positions"),
        ) else {
            return Err(bad(
                "names no file contents (no bytes and index_crc per file: made before records \
                 did), so no file here can be matched to it"
                    .into(),
            ));
        };
        out.push(ProvedFile {
            name,
            file_bytes: bytes,
            index_crc: crc,
            positions,
            inconsistent: num("inconsistent").unwrap_or(0),
            seconds: f["seconds"].as_f64().unwrap_or(0.0)
                + f["earlier_seconds"].as_f64().unwrap_or(0.0),
        });
    }
    Ok(out)
}

/// Which of `files` the record of `opts.proved` proves: a file whose
/// contents it names, when every file of the variant below it here (in
/// checking order, those outside the soldier range too: it was checked
/// against them) is named with its contents as well.
fn proved_here(
    dir: &Path,
    variant: &Variant,
    tables: &TableSet,
    files: &[(PathBuf, Arc<Table>)],
    opts: &VerifyOptions,
) -> Result<Vec<Option<ProvedFile>>, VerifyError> {
    let Some((_, proved)) = &opts.proved else {
        return Ok(vec![None; files.len()]);
    };
    let named = |table: &Table, path: &Path| {
        let name = path.file_name()?.to_string_lossy();
        proved
            .iter()
            .find(|p| {
                p.name == name
                    && p.file_bytes == table.info().file_bytes
                    && p.index_crc == table.index_crc()
                    && p.positions == table.info().positions
            })
            .cloned()
    };
    let mut intact = true;
    let mut out = Vec::new();
    for k in 9..=24u8 {
        for n in 1..=2u8 {
            let path = table_path(dir, variant, FileKey::new(n, k));
            if !path.exists() {
                continue;
            }
            let table = tables
                .table(FileKey::new(n, k))?
                .ok_or_else(|| VerifyError::Vanished(path.clone()))?;
            let p = named(&table, &path);
            intact &= p.is_some();
            if files.iter().any(|(f, _)| *f == path) {
                out.push(p.filter(|_| intact));
            }
        }
    }
    Ok(out)
}

/// Verify every table of `variant` under `dir` chosen by `opts`. A file
/// that cannot be checked (unreadable, a checksum failed, a tier it reads
/// missing or broken) is reported in [`VerifyReport::failed`] and the
/// others are checked all the same; inconsistent values are reported in
/// the result too. Errors are what stops the whole run (no file at all, a
/// record that cannot be written, no threads). `progress` is told of the positions checked
/// (of all the files'), with the file being checked as its step
/// (`assaut 2o12s`): once, unthrottled, when the file is taken up (the
/// positions checked before it), then as its tiers are done.
pub fn verify(
    dir: &Path,
    variant: &Variant,
    opts: &VerifyOptions,
    progress: &dyn Observer,
) -> Result<VerifyReport, VerifyError> {
    let tables = TableSet::open_floored(dir, variant, opts.floor);
    let dir = &tables.dir().to_path_buf();
    let (files, failed) = chosen_files(dir, variant, opts, &tables)?;
    crate::table::blocks::set_budget(opts.block_cache_bytes);
    let total: u64 = files.iter().map(|(_, t)| t.info().positions).sum();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|_| SolveError::Threads(opts.threads))?;
    let mut report = VerifyReport {
        floor: opts.floor,
        failed,
        ..VerifyReport::default()
    };
    // Every file's record first, so that the progress counts the positions
    // of earlier runs from the start (and this run's rate can leave them
    // out) rather than as each file is reached.
    let proved = proved_here(dir, variant, &tables, &files, opts)?;
    let records = first_records(&files, &proved, opts)?;
    let resumed: u64 = records.iter().map(|r| r.positions_done).sum();
    let run = Run {
        tables,
        variant,
        opts,
        pool,
        checked: AtomicU64::new(resumed),
        throttle: Throttle::default(),
        progress,
        total,
    };
    run.throttle.report(
        progress,
        &Progress {
            done: resumed,
            total,
            ..Progress::default()
        },
    );
    for ((path, table), record) in files.iter().zip(records) {
        match run.check_file(path, table, record, &mut report) {
            Ok(true) => return Ok(report),
            Ok(false) => {}
            // A file that cannot be checked is reported, and the others
            // are checked all the same.
            Err(e) if e.is_of_a_file() => {
                let info = table.info();
                let step = format!("{variant} {}{FAILED_STEP}", info.file);
                progress.progress(&Progress {
                    step: &step,
                    done: run.checked.load(Ordering::Relaxed),
                    total,
                    ..Progress::default()
                });
                report.failed.push(FailedFile {
                    path: path.clone(),
                    error: e.to_string().replace('\n', " "),
                });
            }
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}

/// The table files of `variant` under `dir` with the soldier counts of
/// `opts`, opened, and those that cannot be opened, with their errors;
/// none at all is an error.
fn chosen_files(
    dir: &Path,
    variant: &Variant,
    opts: &VerifyOptions,
    tables: &TableSet,
) -> Result<(Vec<OpenFile>, Vec<FailedFile>), VerifyError> {
    let mut files: Vec<OpenFile> = Vec::new();
    let mut failed = Vec::new();
    for k in opts.soldiers.0.max(9)..=opts.soldiers.1.min(24) {
        for n in 1..=2u8 {
            let path = table_path(dir, variant, FileKey::new(n, k));
            if path.exists() {
                match tables.table(FileKey::new(n, k)) {
                    Ok(Some(t)) => files.push((path, t)),
                    Ok(None) => failed.push(FailedFile {
                        error: VerifyError::Vanished(path.clone()).to_string(),
                        path,
                    }),
                    Err(e) => failed.push(FailedFile {
                        path,
                        error: e.to_string().replace('\n', " "),
                    }),
                }
            }
        }
    }
    if files.is_empty() && failed.is_empty() {
        return Err(VerifyError::NoTables {
            variant: *variant,
            soldiers: opts.soldiers,
            dir: dir.to_path_buf(),
        });
    }
    Ok((files, failed))
}

/// The record each file starts from: with [`VerifyOptions::resume`] a
/// complete record of an earlier run that matches the file; else one the
/// earlier verify of [`VerifyOptions::proved`] gives it (complete, written
/// beside it); else with `resume` the partial record of an earlier run
/// that matches the file; else a fresh one.
fn first_records(
    files: &[(PathBuf, Arc<Table>)],
    proved: &[Option<ProvedFile>],
    opts: &VerifyOptions,
) -> Result<Vec<Record>, VerifyError> {
    let mut out = Vec::new();
    for ((path, table), p) in files.iter().zip(proved) {
        let fresh = Record {
            file_bytes: table.info().file_bytes,
            index_crc: table.index_crc(),
            tiers_done: 0,
            positions_done: 0,
            inconsistent: 0,
            seconds: 0.0,
            proved_by: None,
        };
        let tiers = table.info().tiers;
        let local = if opts.resume {
            read_record(path, table)
        } else {
            None
        };
        let record = if let Some(r) = local.clone().filter(|r| r.tiers_done == tiers) {
            // Checked whole here (or proved before): that record stands.
            r
        } else if let (Some(p), Some((source, _))) = (p, &opts.proved) {
            let r = Record {
                tiers_done: tiers,
                positions_done: p.positions,
                inconsistent: p.inconsistent,
                seconds: p.seconds,
                proved_by: Some(source.clone()),
                ..fresh
            };
            write_record(path, &r)?;
            r
        } else {
            local.unwrap_or(fresh)
        };
        out.push(record);
    }
    Ok(out)
}

/// The inconsistencies found in a file's tiers, with their tiers.
type Found = Mutex<Vec<(TierKey, crate::solve::Inconsistency)>>;

/// What the checking of every file of a verification shares.
struct Run<'a> {
    /// The tables, the lower ones read through it too.
    tables: TableSet,
    variant: &'a Variant,
    opts: &'a VerifyOptions,
    /// The worker threads.
    pool: rayon::ThreadPool,
    /// Positions checked, of all the files, earlier runs' included.
    checked: AtomicU64,
    throttle: Throttle,
    progress: &'a dyn Observer,
    /// Positions of all the files.
    total: u64,
}

impl Run<'_> {
    /// Check the file `path` from `record` on, in chunks, writing the
    /// record after each, and add what it found to `report`. Returns
    /// whether the run stopped there (`report.stopped` then says where).
    fn check_file(
        &self,
        path: &Path,
        table: &Table,
        mut record: Record,
        report: &mut VerifyReport,
    ) -> Result<bool, VerifyError> {
        let opts = self.opts;
        let start = Instant::now();
        let info = table.info();
        let step = format!("{} {}", self.variant, info.file);
        self.progress.progress(&Progress {
            step: &step,
            done: self.checked.load(Ordering::Relaxed),
            total: self.total,
            ..Progress::default()
        });
        // In solving order, as they were written: neighbouring tiers then
        // share decompressed blocks in the cache.
        let mut keys = table.tier_keys()?;
        keys.sort_by_key(|t| (t.level(self.variant), *t));
        let resumed_positions = record.positions_done;
        let earlier_seconds = record.seconds;
        // A WDL-only table is checked win/draw/loss only.
        let wdl_only = table.info().wdl_only;
        let bad: Found = Mutex::new(Vec::new());
        let mut at = record.tiers_done as usize;
        let stop = |record: &Record| VerifyStop {
            path: path.to_path_buf(),
            positions_done: record.positions_done,
            positions: table.info().positions,
            seconds: start.elapsed().as_secs_f64(),
            earlier_seconds,
        };
        if at < keys.len() && opts.late() {
            report.bad_count += record.inconsistent;
            report.stopped = Some(stop(&record));
            return Ok(true);
        }
        table.verify_checksums()?;
        while at < keys.len() {
            // The next chunk: whole tiers, about `chunk_positions` positions.
            let mut end = at;
            let mut positions = 0;
            while end < keys.len() && (end == at || positions < opts.chunk_positions) {
                positions += keys[end].size();
                end += 1;
            }
            let count = self.check_chunk(path, table, &keys[at..end], wdl_only, &bad, &step)?;
            record.tiers_done = end as u64;
            record.positions_done += positions;
            record.inconsistent += count;
            record.seconds = earlier_seconds + start.elapsed().as_secs_f64();
            write_record(path, &record)?;
            at = end;
            if at < keys.len() && opts.late() {
                // Stop here, with the record of the chunk just done.
                report.bad_count += record.inconsistent;
                let room = opts.limit.saturating_sub(report.bad.len());
                report.bad.extend(bad_values(path, bad, room));
                report.stopped = Some(stop(&record));
                return Ok(true);
            }
        }
        let room = opts.limit.saturating_sub(report.bad.len());
        report.bad.extend(bad_values(path, bad, room));
        report.bad_count += record.inconsistent;
        report.tiers += keys.len() as u64;
        report.positions += table.info().positions;
        report.files.push(FileCheck {
            path: path.to_path_buf(),
            positions: table.info().positions,
            resumed_positions,
            seconds: start.elapsed().as_secs_f64(),
            earlier_seconds,
            wdl_only,
            checker: if wdl_only {
                opts.checker
            } else {
                Checker::Positions
            },
            file_bytes: record.file_bytes,
            index_crc: record.index_crc,
            inconsistent: record.inconsistent,
            proved_by: record.proved_by.clone(),
        });
        Ok(false)
    }

    /// Check the tiers `keys` of the file `path` on the worker threads,
    /// keeping at most [`VerifyOptions::limit`] examples of each tier's
    /// inconsistencies in `bad`, the progress reported as step `step`.
    /// Returns how many positions are inconsistent.
    fn check_chunk(
        &self,
        path: &Path,
        table: &Table,
        keys: &[TierKey],
        wdl_only: bool,
        bad: &Found,
        step: &str,
    ) -> Result<u64, VerifyError> {
        let count = AtomicU64::new(0);
        self.pool.install(|| {
            // One tier per job, so both threads stay busy to the end.
            keys.par_iter()
                .with_max_len(1)
                .try_for_each(|key| -> Result<(), VerifyError> {
                    let codes = table
                        .tier(key)?
                        .ok_or_else(|| VerifyError::Vanished(path.to_path_buf()))?;
                    let mut look = Lookup::new(&self.tables, *self.variant);
                    let found = check_tier_by(key, &mut look, &codes, wdl_only, self.opts.checker)?;
                    if !found.is_empty() {
                        count.fetch_add(found.len() as u64, Ordering::Relaxed);
                        let mut b = bad.lock().expect("lock");
                        b.extend(found.into_iter().take(self.opts.limit).map(|f| (*key, f)));
                    }
                    let c = self.checked.fetch_add(key.size(), Ordering::Relaxed) + key.size();
                    self.throttle.report(
                        self.progress,
                        &Progress {
                            step,
                            done: c,
                            total: self.total,
                            ..Progress::default()
                        },
                    );
                    Ok(())
                })
        })?;
        Ok(count.into_inner())
    }
}

/// The first `limit` of the inconsistencies found in `path`'s tiers, in
/// tier and index order, with their positions.
fn bad_values(
    path: &Path,
    found: Mutex<Vec<(TierKey, crate::solve::Inconsistency)>>,
    limit: usize,
) -> Vec<BadValue> {
    let mut found = found.into_inner().expect("lock");
    found.sort_by_key(|(k, f)| (*k, f.index));
    found
        .into_iter()
        .take(limit)
        .map(|(key, f)| BadValue {
            file: path.to_path_buf(),
            position: index::position_at(&key, f.index),
            stored: f.stored,
            derived: f.derived,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! The checker is independent of the solver: a solver with a fault
    //! planted ([`crate::planted`]: in its huff fold, its capture chains,
    //! the capture duty, its retrograde pass, its un-moves, or every draw
    //! relabelled) writes tables that `verify` rejects, with distances and
    //! WDL-only, naming wrong positions, while the tables of the
    //! unmodified solver pass. The last step of each planted
    //! test runs the checker on the test's own thread with the fault still
    //! planted, as a build with the fault would: the checker this one
    //! replaced (commit a684bc9, sharing `capture_ends` and `fold_huffs`
    //! with the solver) found 0 inconsistencies there, against 5 (huff)
    //! and 60,263 (capture) from its unplanted run.

    use super::*;
    use crate::planted::{Fault, plant};
    use crate::solve::{Engine, MemoryStore, Solver, TierStore, solve_tier, solve_tier_wdl};
    use crate::table::{TableWriter, WriteOptions};
    use std::collections::{BTreeMap, HashSet};

    /// A late-game position with ten soldiers (1,621,584 positions in its
    /// closure), from issue 14: a solver with the planted huff fault writes
    /// different values for it.
    const POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";

    /// Solve `POS`'s closure on this thread (where a planted fault is
    /// seen; the solver's thread pool would not see it) and write its
    /// tables under `dir` (without distances when `wdl_only`). Returns the
    /// tiers and the values solved.
    fn solve_and_write(
        dir: &Path,
        variant: &Variant,
        wdl_only: bool,
    ) -> (Vec<TierKey>, MemoryStore) {
        solve_and_write_by(dir, variant, wdl_only, Engine::Positions)
    }

    /// [`solve_and_write`] with the solver `engine` ([`Engine::BitSets`]
    /// only with `wdl_only`), on this thread.
    fn solve_and_write_by(
        dir: &Path,
        variant: &Variant,
        wdl_only: bool,
        engine: Engine,
    ) -> (Vec<TierKey>, MemoryStore) {
        assert!(wdl_only || engine == Engine::Positions);
        let pos: Position = POS.parse().unwrap();
        let tiers = Solver::new(*variant).closure_of(&pos);
        let store = MemoryStore::new();
        for key in &tiers {
            let mut look = Lookup::new(&store, *variant);
            let codes = match engine {
                Engine::Positions => solve_tier(key, &mut look),
                Engine::BitSets => solve_tier_wdl(key, &mut look),
            }
            .unwrap();
            store.insert(*key, codes);
        }
        let mut files: BTreeMap<FileKey, Vec<TierKey>> = BTreeMap::new();
        for key in &tiers {
            files.entry(key.file()).or_default().push(*key);
        }
        for (file, keys) in files {
            let opts = WriteOptions::of_kind(wdl_only);
            let mut w = TableWriter::create_with(dir, variant, file, &opts).unwrap();
            for key in &keys {
                w.push_tier(key, &store.tier(key).unwrap().unwrap())
                    .unwrap();
            }
            w.finish().unwrap();
        }
        (tiers, store)
    }

    /// `verify` on `dir`, every inconsistency kept.
    fn verify_all(dir: &Path, variant: &Variant) -> VerifyReport {
        verify_with(dir, variant, Checker::default())
    }

    /// [`verify_all`] with WDL-only tables checked by `checker`.
    fn verify_with(dir: &Path, variant: &Variant, checker: Checker) -> VerifyReport {
        let opts = VerifyOptions {
            limit: usize::MAX,
            checker,
            ..VerifyOptions::default()
        };
        verify(dir, variant, &opts, &crate::progress::Quiet).unwrap()
    }

    /// The value stored for a position (without huff rights) in `store`.
    fn value_in(store: &MemoryStore, variant: &Variant, pos: &Position) -> Value {
        Lookup::new(store, *variant).stored(pos).unwrap()
    }

    #[test]
    fn tables_of_the_unmodified_solver_pass() {
        for wdl_only in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let (tiers, _) = solve_and_write(dir.path(), &Variant::ASSAUT, wdl_only);
            let report = verify_all(dir.path(), &Variant::ASSAUT);
            assert_eq!(report.bad_count, 0, "{:?}", report.bad.first());
            assert_eq!(report.tiers, tiers.len() as u64);
            assert_eq!(
                report.positions,
                tiers.iter().map(|t| t.size()).sum::<u64>()
            );
        }
    }

    /// The progress names each file as its step when the file is taken up
    /// (the positions of the files before it done), in the order checked,
    /// and never a file's step with positions outside that file.
    #[test]
    fn the_progress_names_the_file_being_checked() {
        let dir = tempfile::tempdir().unwrap();
        let (tiers, _) = solve_and_write(dir.path(), &Variant::ASSAUT, true);
        let seen: Mutex<Vec<(String, u64)>> = Mutex::new(Vec::new());
        let watch = |p: &Progress| {
            seen.lock().unwrap().push((p.step.to_string(), p.done));
        };
        verify(
            dir.path(),
            &Variant::ASSAUT,
            &VerifyOptions::default(),
            &watch,
        )
        .unwrap();
        let seen = seen.into_inner().unwrap();
        // The files in checking order, with their positions.
        let mut files: Vec<(FileKey, u64)> = Vec::new();
        for key in &tiers {
            match files.iter_mut().find(|(f, _)| *f == key.file()) {
                Some((_, p)) => *p += key.size(),
                None => files.push((key.file(), key.size())),
            }
        }
        files.sort_by_key(|(f, _)| (f.soldiers(), f.officers()));
        let mut before = 0;
        for (file, positions) in files {
            let step = format!("assaut {file}");
            let first = seen.iter().position(|(s, _)| *s == step).unwrap();
            assert_eq!(seen[first].1, before, "{step} taken up");
            for (s, done) in &seen[first..] {
                if *s == step {
                    assert!(
                        *done >= before && *done <= before + positions,
                        "{step}: {done}"
                    );
                }
            }
            // Every report before the file's first is of the files before.
            assert!(seen[..first].iter().all(|(_, d)| *d <= before));
            before += positions;
        }
    }

    /// Whether two values are the same (in win/draw/loss only when
    /// `wdl_only`).
    fn same(a: Value, b: Value, wdl_only: bool) -> bool {
        if wdl_only {
            std::mem::discriminant(&a) == std::mem::discriminant(&b)
        } else {
            a == b
        }
    }

    /// Solve with `fault` planted, check that it changed values (their
    /// win/draw/loss when `wdl_only`), and that `verify` rejects the
    /// tables (written without distances when `wdl_only`), naming
    /// positions of the closure among which one whose stored value is
    /// wrong; the checker gives the same answer with the fault planted on
    /// its own thread (it never reads it). WDL-only tables are checked by
    /// both checkers ([`Checker`]), which must name the same positions.
    fn planted_fault_is_caught(fault: Fault, wdl_only: bool) {
        planted_fault_is_caught_by(fault, wdl_only, Engine::Positions);
    }

    /// [`planted_fault_is_caught`] with the fault planted in `engine`.
    fn planted_fault_is_caught_by(fault: Fault, wdl_only: bool, engine: Engine) {
        let variant = Variant::ASSAUT;
        let dir = tempfile::tempdir().unwrap();
        let (tiers, planted_store) = {
            let _fault = plant(fault);
            solve_and_write_by(dir.path(), &variant, wdl_only, engine)
        };
        // The right values, from the solver without the fault.
        let pos: Position = POS.parse().unwrap();
        let right = Solver::new(variant).threads(1).solve_closure(&pos).unwrap();
        let mut wrong = 0;
        for key in &tiers {
            let a = right.store().tier(key).unwrap().unwrap();
            let b = planted_store.tier(key).unwrap().unwrap();
            wrong += a
                .iter()
                .zip(b.iter())
                .filter(|&(&a, &b)| !same(Value::from_code(a), Value::from_code(b), wdl_only))
                .count();
        }
        assert!(wrong > 0, "{fault:?} changed no value of {engine:?}");

        let report = verify_all(dir.path(), &variant);
        assert!(
            report.bad_count > 0,
            "{fault:?} in {engine:?}: {wrong} wrong values pass"
        );
        assert_eq!(report.bad.len() as u64, report.bad_count);
        let closure: HashSet<TierKey> = tiers.iter().copied().collect();
        let mut named_wrong = 0;
        for b in &report.bad {
            let (key, _) = index::locate(&b.position).expect("a position of a tier");
            assert!(closure.contains(&key), "{}", b.position);
            // The position as named holds the value reported as stored.
            let planted = value_in(&planted_store, &variant, &b.position);
            assert!(same(planted, b.stored, wdl_only), "{planted:?} {b:?}");
            let in_0 = |v: Value| v == Value::Loss(0);
            assert!(!same(b.stored, b.derived, wdl_only) || in_0(b.stored) != in_0(b.derived));
            if !same(
                value_in(right.store(), &variant, &b.position),
                b.stored,
                wdl_only,
            ) {
                named_wrong += 1;
            }
        }
        assert!(named_wrong > 0, "{fault:?}: no wrong value named");
        let named = |r: &VerifyReport| r.bad.iter().map(|b| b.position).collect::<Vec<_>>();
        if wdl_only {
            let other = verify_with(dir.path(), &variant, Checker::Positions);
            assert_eq!(named(&other), named(&report), "{fault:?} in {engine:?}");
        }

        // The checkers on this thread with the fault planted: the same.
        let _fault = plant(fault);
        let tables = TableSet::open(dir.path(), &variant);
        for checker in [Checker::Sets, Checker::Positions] {
            let mut found = 0;
            for key in &tiers {
                let codes = tables.tier(key).unwrap().unwrap();
                let mut look = Lookup::new(&tables, variant);
                found += crate::solve::check_tier_by(key, &mut look, &codes, wdl_only, checker)
                    .unwrap()
                    .len() as u64;
            }
            assert_eq!(found, report.bad_count, "{fault:?} {checker:?}");
        }
    }

    #[test]
    fn a_planted_huff_fault_is_caught() {
        planted_fault_is_caught(Fault::LastHuffWinsIn3, false);
    }

    #[test]
    fn a_planted_capture_fault_is_caught() {
        planted_fault_is_caught(Fault::ChainStopsAfterOneJump, false);
    }

    #[test]
    fn a_planted_capture_fault_is_caught_in_wdl_only_tables() {
        // WDL-only tables are checked through the shortcut that stops at
        // a position's first winning move. (The planted huff fault changes
        // distances only, which a win/draw/loss check cannot see.)
        planted_fault_is_caught(Fault::ChainStopsAfterOneJump, true);
    }

    #[test]
    fn planted_relabelled_draws_are_caught_in_wdl_only_tables() {
        // Every draw written as a win for the officers to move and a loss
        // for the soldiers: each value agrees with its successors', so only
        // the tiers' fixed point (`check_tier_wdl`) can reject it.
        planted_fault_is_caught(Fault::DrawsRelabelled, true);
    }

    #[test]
    fn planted_relabelled_draws_are_caught_in_tables_with_distances() {
        planted_fault_is_caught(Fault::DrawsRelabelled, false);
    }

    #[test]
    fn a_planted_fault_in_the_retrograde_pass_is_caught() {
        planted_fault_is_caught(Fault::ParentNotNotified, false);
        planted_fault_is_caught(Fault::ParentNotNotified, true);
    }

    #[test]
    fn a_planted_fault_in_the_unmoves_is_caught() {
        planted_fault_is_caught(Fault::LastUnmoveMissing, false);
        planted_fault_is_caught(Fault::LastUnmoveMissing, true);
    }

    #[test]
    fn a_planted_fault_in_the_capture_duty_is_caught() {
        planted_fault_is_caught(Fault::CaptureDutyIgnored, false);
        planted_fault_is_caught(Fault::CaptureDutyIgnored, true);
    }

    /// Every fault of the bit-set solver's, in the WDL-only tables it
    /// writes: the same checker catches them.
    #[test]
    fn planted_faults_in_the_bit_set_solver_are_caught() {
        for fault in [
            Fault::ChainStopsAfterOneJump,
            Fault::DrawsRelabelled,
            Fault::ParentNotNotified,
            Fault::LastUnmoveMissing,
            Fault::CaptureDutyIgnored,
        ] {
            planted_fault_is_caught_by(fault, true, Engine::BitSets);
        }
    }
}
