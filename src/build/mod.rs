//! Building table files: the build manager. It decides which files and
//! in which order (skipping those already built), drives the solver
//! ([`crate::solve`], a pure "solve these tiers given a store" worker) one
//! chunk of a level at a time, hands the values to the table writer
//! ([`crate::table`]), keeps the window of the file's own tiers that later
//! levels read within a memory budget ([`BuildOptions::memory`]), and writes
//! checkpoints (`checkpoint.rs`) so that a build killed at any instant
//! resumes inside the file it was writing.
//!
//! Files are built in the order `k = 9, 10, ..` and, for each `k`, one
//! officer before two. Inside a file, tiers are solved level by level
//! (`P(S)` ascending), each level in chunks of at most
//! `solve::CHUNK_POSITIONS` positions; each chunk is written while the
//! next is solved, then the writer is synced, so every tier done can be
//! read back from the file,
//! and a checkpoint is written when [`BuildOptions::checkpoint_secs`] have
//! passed since the last. Lower files are read back through [`TableSet`].
//! The bytes of a file depend on its tiers and the write options only: not
//! on the threads, the memory budget, the checkpoints or the interruptions.

pub(crate) mod checkpoint;
mod memory;
#[cfg(feature = "mpi")]
mod mpi;
mod ranks;
mod window;

pub use checkpoint::{CheckpointError, Saved, Unfinished, path_for as checkpoint_path, unfinished};
pub use memory::{Trimmer, anon_bytes, peak_rss_bytes};

use crate::budget::{BudgetError, FIXED_BYTES, MemoryBudget, Need};

use crate::index::{self, FileKey, TierKey};
use crate::progress::{Observer, Progress, Throttle};
use crate::rules::Variant;
use crate::solve::{CHUNK_POSITIONS, Engine, Floor, Layered, SolveError, Solver};
use crate::table::{
    Table, TableInfo, TableSet, TableWriter, WriteOptions, blocks, table_path, temporary_path,
};
pub(crate) use checkpoint::History;
use checkpoint::{Checkpoint, Identity};
#[cfg(feature = "mpi")]
pub use mpi::{MpiError, MpiRanks};
pub use ranks::{Cluster, RankShare, Ranks};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;
pub(crate) use window::held_bytes as window_held_bytes;
pub use window::peak_bytes as window_peak_bytes;
pub(crate) use window::peak_over_levels;
use window::{Back, Spill, Window};

/// What went wrong in a build.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Solving failed (a lower table missing or unreadable).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Writing or reading a table failed.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// A floor build asked for files below its floor, or tiers below it.
    #[error(
        "a build above the floor of {floor} soldiers holds files with {floor}..=24 soldiers only, not {k_min}"
    )]
    BelowFloor {
        /// The fewest soldiers asked for.
        k_min: u8,
        /// The floor.
        floor: u8,
    },
    /// The soldier range asked for is not within `9..=24`.
    #[error("soldiers must be a range within 9..=24, not {k_min}..={k_max}")]
    Soldiers {
        /// The fewest soldiers asked for.
        k_min: u8,
        /// The most soldiers asked for.
        k_max: u8,
    },
    /// A file is already where a file of the build goes, and it is unsound
    /// (it does not open, or a block fails its checksum): the build does
    /// not overwrite it.
    #[error("{0}; the build will not overwrite it: remove it to build it again")]
    Unsound(crate::table::TableError),
    /// A file is already where a file of the build goes, and its header
    /// names another variant or material.
    #[error(
        "{} holds {} {}, not {} {}; remove it to build it again",
        path.display(), found.0, found.1, expected.0, expected.1
    )]
    Foreign {
        /// The file.
        path: PathBuf,
        /// Its variant and material.
        found: (Variant, FileKey),
        /// The variant and material of the build.
        expected: (Variant, FileKey),
    },
    /// A file is already where a file of the build goes, and it is of the
    /// other kind (WDL-only or with distances) and cannot serve: the build
    /// does not replace it.
    #[error(
        "{} is {}; remove it to build it {}",
        path.display(),
        if *wdl_only { "WDL-only (no distances)" } else { "a table with distances, missing tiers this build needs" },
        if *wdl_only { "with distances" } else { "WDL-only" }
    )]
    OtherKind {
        /// The file.
        path: PathBuf,
        /// Whether the file there is WDL-only (the build is then one
        /// with distances, and the other way round).
        wdl_only: bool,
    },
    /// The memory budget cannot hold what a build needs
    /// ([`MemoryBudget::share`]).
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// A checkpoint could not be written.
    #[error(transparent)]
    Checkpoint(#[from] checkpoint::CheckpointError),
    /// The build stopped: its deadline ([`BuildOptions::stop_at`])
    /// passed, or its observer asked ([`BuildObserver::checkpoint`]).
    #[error("{0}")]
    Stopped(Box<Stop>),
}

/// Where a stopped build stopped ([`BuildError::Stopped`]): at a
/// checkpoint inside a file, or before starting one. The same build run
/// again goes on from there.
#[derive(Clone, Debug)]
pub struct Stop {
    /// The files done (built or skipped) before it stopped, in build order.
    pub files: Vec<FileReport>,
    /// The file it stopped in.
    pub file: FileKey,
    /// Positions of that file its checkpoint holds (0: not started).
    pub positions_done: u64,
    /// Positions of that file.
    pub positions: u64,
    /// Seconds this run spent on that file.
    pub seconds: f64,
    /// Seconds earlier runs spent on it, up to the checkpoint this run
    /// took up.
    pub earlier_seconds: f64,
    /// Peak anonymous memory while the file was built, over this run and
    /// the earlier ones (bytes).
    pub peak_anon_bytes: u64,
    /// Peak resident memory, mapped tables included, over the same runs.
    pub peak_rss_bytes: u64,
    /// The budget of the shared cache of decompressed WDL blocks while
    /// this run built the file (0: stopped before it).
    pub block_cache_bytes: u64,
    /// WDL blocks of the lower files this run read for the file.
    pub wdl_blocks_read: u64,
    /// Of those, the blocks decompressed (not found in the cache).
    pub wdl_blocks_decompressed: u64,
}

impl Stop {
    /// The file it stopped in.
    pub fn file(&self) -> FileKey {
        self.file
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.positions_done == 0 {
            write!(f, "stopped before building {}", self.file)?;
        } else {
            write!(
                f,
                "stopped at a checkpoint of {}, {} of {} positions done",
                self.file, self.positions_done, self.positions
            )?;
        }
        write!(f, "; run the same build again to go on")
    }
}

/// How a build runs. The files written do not depend on any of it but
/// [`BuildOptions::write`].
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Worker threads (1 = serial, 0 = one per core).
    pub threads: usize,
    /// Memory budget in bytes for what the build allocates (anonymous
    /// memory; the mapped lower tables are the page cache's). Default:
    /// [`MemoryBudget::machine_default`].
    pub memory: MemoryBudget,
    /// Cap on the window's share of the budget (`None`: all that the
    /// budget leaves; experiments and tests use small caps to force reads
    /// from disk).
    pub window_bytes: Option<u64>,
    /// Bytes of the budget for the shared cache of the lower files'
    /// decompressed WDL blocks ([`crate::table::blocks`]), taken out of
    /// the window's room (`None`: half of what the file's window will
    /// not use, at most [`crate::budget::MAX_BLOCK_CACHE_BYTES`] beyond the
    /// cache's default). A file whose room cannot hold it and the
    /// smallest window is refused ([`BuildError::Budget`]).
    pub block_cache_bytes: Option<u64>,
    /// Seconds between checkpoints (0: after every chunk).
    pub checkpoint_secs: u64,
    /// Block sizes and compression level of the files.
    pub write: WriteOptions,
    /// The processes sharing the build (by default this one alone).
    pub cluster: Cluster,
    /// Stop at the first chunk boundary after this instant, with a
    /// checkpoint ([`BuildError::Stopped`]; rank 0's clock decides). A file
    /// finished after it is kept; the next file is not started.
    pub stop_at: Option<Instant>,
    /// Stop as at [`BuildOptions::stop_at`] once this is set (`asalto
    /// build` sets it on SIGINT or SIGTERM).
    pub stop_flag: Option<Arc<AtomicBool>>,
    /// How WDL-only files are solved (the bytes are the same either way);
    /// files with distances are always solved position by position.
    pub engine: Engine,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            threads: 0,
            memory: MemoryBudget::machine_default(),
            window_bytes: None,
            block_cache_bytes: None,
            checkpoint_secs: 300,
            write: WriteOptions::default(),
            cluster: Cluster::default(),
            stop_at: None,
            stop_flag: None,
            engine: Engine::Positions,
        }
    }
}

impl BuildOptions {
    /// The solver's engine: [`BuildOptions::engine`] for WDL-only files,
    /// position by position for files with distances.
    fn solver_engine(&self) -> Engine {
        if self.write.wdl_only {
            self.engine
        } else {
            Engine::Positions
        }
    }

    /// Whether [`BuildOptions::stop_at`] has passed (on this process's
    /// clock) or [`BuildOptions::stop_flag`] is set.
    fn late(&self) -> bool {
        self.stop_at.is_some_and(|t| Instant::now() >= t)
            || self
                .stop_flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The defaults with `threads` worker threads.
    pub fn threads(threads: usize) -> BuildOptions {
        BuildOptions {
            threads,
            ..BuildOptions::default()
        }
    }
}

/// One table file of a build.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The file.
    pub file: FileKey,
    /// The file's header information, with the identity of its contents
    /// a verify record names ([`TableInfo::file_bytes`],
    /// [`TableInfo::index_crc`]).
    pub info: TableInfo,
    /// Seconds this run spent building it (0 when skipped).
    pub seconds: f64,
    /// Seconds earlier runs spent on it, up to the checkpoint this run
    /// took up (0 on a fresh build; unknown, 0, from a version 1
    /// checkpoint).
    pub earlier_seconds: f64,
    /// Whether a valid file was already there.
    pub skipped: bool,
    /// The most bytes of value codes the window of solved tiers held (0
    /// when skipped): the part of a build's memory that grows with `k`.
    pub window_peak_bytes: u64,
    /// The window's budget (0 when skipped).
    pub window_budget_bytes: u64,
    /// The budget of the shared cache of decompressed WDL blocks while
    /// the file was built ([`crate::table::blocks`]; 0 when skipped).
    pub block_cache_bytes: u64,
    /// WDL blocks of the lower files this run read (0 when skipped): every
    /// thread's reads through the shared cache, while the file was built.
    pub wdl_blocks_read: u64,
    /// Of those, the blocks decompressed (not found in the cache).
    pub wdl_blocks_decompressed: u64,
    /// Positions taken from a checkpoint instead of solved (0 on a fresh
    /// build).
    pub resumed_positions: u64,
    /// Checkpoints written.
    pub checkpoints: u64,
    /// Peak anonymous memory of the process while this file was built,
    /// over this run and those before its checkpoint (sampled; what the
    /// budget bounds; 0 when skipped or unknown).
    pub peak_anon_bytes: u64,
    /// Peak resident memory while this file was built, mapped tables
    /// included, over the same runs (sampled; 0 when skipped or unknown).
    pub peak_rss_bytes: u64,
    /// What each rank solved and how long it took (one entry for a
    /// one-process build; empty when skipped; on rank 0 only).
    pub ranks: Vec<RankShare>,
}

impl FileReport {
    /// The file built.
    pub fn file(&self) -> FileKey {
        self.file
    }
}

/// Watches a build: the [`Observer`] of every long operation, told of
/// each tier of the current file solved ([`Progress`] counts the file's
/// positions and tiers), and the few events of a build besides. Every
/// method has an empty default.
pub trait BuildObserver: Observer + Send {
    /// A file starts building: `resumed` of its `positions` come from a
    /// checkpoint (0 on a fresh start), the rest are solved by this run.
    fn file_start(&self, _file: FileKey, _tiers: usize, _positions: u64, _resumed: u64) {}
    /// A file is done (built or skipped).
    fn file_done(&self, _report: &FileReport) {}
    /// Something the user should know (a checkpoint taken up or discarded).
    fn note(&self, _message: &str) {}
    /// A checkpoint was written with `positions` of the file done; return
    /// `false` to stop the build there ([`BuildError::Stopped`]).
    fn checkpoint(&self, _positions: u64) -> bool {
        true
    }
}

pub use crate::progress::Quiet;
impl BuildObserver for Quiet {}

/// The files of a build of `k_min..=k_max` soldiers, in build order.
pub(crate) fn build_order(k_min: u8, k_max: u8) -> Vec<FileKey> {
    (k_min..=k_max)
        .flat_map(|k| [FileKey::new(1, k), FileKey::new(2, k)])
        .collect()
}

/// How many levels below the current one a tier's soldier steps can reach:
/// the largest drop of `P` over one soldier step.
pub(crate) fn window_levels(variant: &Variant) -> u32 {
    let p = variant.progress();
    let table = variant.soldier_moves();
    crate::board::points(crate::board::OUTSIDE)
        .flat_map(|s| crate::board::points(table[s.index()]).map(move |t| (s, t)))
        .map(|(s, t)| (p[s.index()] - p[t.index()]) as u32)
        .max()
        .unwrap_or(1)
}

/// Bytes the build of a file of `tiers` tiers and `positions` positions
/// needs besides its window of solved tiers: [`FIXED_BYTES`] and an
/// estimate of the file's index (its tier and block directories, kept by
/// the writer until the file is done; a WDL-only file has no distance
/// blocks). A `--memory` budget must exceed it by
/// [`crate::budget::MIN_WINDOW_BYTES`] at
/// least.
pub fn bytes_besides_window(tiers: u64, positions: u64, write: &WriteOptions) -> u64 {
    let distance_blocks = if write.wdl_only {
        0
    } else {
        positions / write.distance_block_positions as u64
    };
    let index_estimate =
        tiers * 48 + (positions / write.wdl_block_positions as u64 + distance_blocks) * 16;
    FIXED_BYTES + index_estimate
}

/// The table already at the place of `(variant, n, k)`, if any: `None`
/// when there is no file, an error when there is one that is unsound or
/// holds something else (a build never replaces a file it cannot read
/// without being told: the user removes it).
fn existing_table(
    dir: &Path,
    variant: &Variant,
    file: FileKey,
    floor: Option<Floor>,
) -> Result<Option<Table>, BuildError> {
    let path = table_path(dir, variant, file);
    if !path.exists() {
        return Ok(None);
    }
    let t = Table::open(&path).map_err(BuildError::Unsound)?;
    let i = t.info();
    if i.floor != floor {
        return Err(BuildError::Table(crate::table::TableError::new(
            &path,
            crate::table::Problem::FloorMismatch {
                found: i.floor,
                expected: floor,
            },
        )));
    }
    if i.variant != *variant || i.file() != file {
        return Err(BuildError::Foreign {
            path,
            found: (i.variant, i.file()),
            expected: (*variant, file),
        });
    }
    Ok(Some(t))
}

/// Build every table of `variant` with `k_min..=k_max` soldiers under `dir`,
/// complete (every tier), skipping files already complete. Above a floor
/// ([`WriteOptions::floor`] of `opts.write`) the files go to the floor's
/// folder under `dir` ([`Floor::dir_under`]) and `k_min` is at least the floor.
pub fn build(
    dir: &Path,
    variant: &Variant,
    k_min: u8,
    k_max: u8,
    opts: &BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<Vec<FileReport>, BuildError> {
    if k_min < 9 || k_max > 24 || k_min > k_max {
        return Err(BuildError::Soldiers { k_min, k_max });
    }
    if let Some(f) = opts.write.floor
        && k_min < f.k()
    {
        return Err(BuildError::BelowFloor {
            k_min,
            floor: f.k(),
        });
    }
    let dir = &Floor::dir_under(dir, opts.write.floor);
    let mut reports = Vec::new();
    for file in build_order(k_min, k_max) {
        let tiers = index::all_tiers(file, variant);
        let r = after_stop(
            build_file(dir, variant, file, tiers, opts, observer),
            &mut reports,
        )?;
        reports.push(r);
    }
    Ok(reports)
}

/// `r`, a file's build; when it stopped, with the `done` files before it.
fn after_stop(
    r: Result<FileReport, BuildError>,
    done: &mut Vec<FileReport>,
) -> Result<FileReport, BuildError> {
    match r {
        Err(BuildError::Stopped(mut stop)) => {
            stop.files = std::mem::take(done);
            Err(BuildError::Stopped(stop))
        }
        r => r,
    }
}

/// Whether `opts.stop_at` has passed, on rank 0's clock.
fn deadline_passed(opts: &BuildOptions) -> bool {
    let mut passed = [u64::from(opts.late())];
    opts.cluster.broadcast(&mut passed);
    passed[0] == 1
}

/// Build files holding (at least) the given tiers, e.g. the closure of one
/// position (`index::closure`, which is closed under moves as every such
/// set must be). Tiers already in a file are kept. Above a floor, as
/// [`build`]: the floor's folder, and no tier below the floor.
pub fn build_tiers(
    dir: &Path,
    variant: &Variant,
    tiers: &[TierKey],
    opts: &BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<Vec<FileReport>, BuildError> {
    if let Some(f) = opts.write.floor
        && let Some(t) = tiers.iter().find(|t| f.covers(t))
    {
        return Err(BuildError::BelowFloor {
            k_min: t.k,
            floor: f.k(),
        });
    }
    let dir = &Floor::dir_under(dir, opts.write.floor);
    let mut files: Vec<FileKey> = tiers.iter().map(TierKey::file).collect();
    files.sort_by_key(|f| (f.k, f.n));
    files.dedup();
    let mut reports = Vec::new();
    for file in files {
        let mine: Vec<TierKey> = tiers
            .iter()
            .filter(|t| t.file() == file)
            .map(|t| t.canonical())
            .collect();
        let r = after_stop(
            build_file(dir, variant, file, mine, opts, observer),
            &mut reports,
        )?;
        reports.push(r);
    }
    Ok(reports)
}

/// Build the file `(n, k)` holding `tiers` (and any tiers the valid file
/// already there holds); skipped when that file already holds them all.
/// Lower files must hold every tier these tiers reach. A checkpoint of the
/// same build left by an interrupted run is taken up; one of another
/// build, or damaged, is discarded with a note.
///
/// This is the file's manager: it owns the file's life (skipping a
/// complete file, the order of its tiers, the memory budget, resuming or
/// creating it, the chunk loop level by level, checkpoints and stopping,
/// finishing it and its report). Each chunk goes through a worker step
/// (`FileRun::solve_chunk`: this rank's share solved, every rank's values
/// delivered) and a store step (`FileRun::store_chunk`: the writer and the
/// window).
///
/// # Ranks
///
/// Every rank of a cluster runs this same sequence, and so makes the same
/// collective calls in the same order, which MPI requires (a rank that
/// missed one would leave the others waiting forever):
///
/// 1. a broadcast: whether the deadline passed (rank 0's clock);
/// 2. a broadcast: the tiers done, from rank 0's checkpoint;
/// 3. after a resume with several ranks, a broadcast of the window's codes;
/// 4. for each chunk: with several ranks, an all-gather of the values;
///    then a broadcast (checkpoint due, deadline), and after a checkpoint
///    one more (stop);
/// 5. a gather of what each rank solved, then a barrier.
///
/// A file skipped as complete makes none: every rank sees the same file.
/// A step leaves out a call only on a value every rank shares (the rank
/// count, or one broadcast from rank 0), or on an error, after which
/// `asalto build` aborts the whole job.
pub(crate) fn build_file(
    dir: &Path,
    variant: &Variant,
    file: FileKey,
    tiers: Vec<TierKey>,
    opts: &BuildOptions,
    observer: &dyn BuildObserver,
) -> Result<FileReport, BuildError> {
    let job = Job::new(dir, variant, file, opts, observer);
    let mut tiers = tiers;
    if let Some(r) = job.skip_if_complete(&mut tiers)? {
        return Ok(r);
    }
    let file = FileBuild::prepare(job, tiers)?;
    // Collective 1.
    if deadline_passed(opts) {
        return Err(file.stopped(0, 0.0, 0.0, &History::default(), None));
    }
    // What the last file freed goes back first, then what this one frees
    // as it goes (see [`memory::Trimmer`]).
    let trimmer = memory::Trimmer::new(memory::TRIM_SLACK_BYTES);
    let watch = memory::Watch::start();
    // Collective 2.
    let (writer, done, earlier) = file.open()?;
    let writer = writer.map(RwLock::new);
    // Collective 3 (several ranks, resumed).
    let mut run = FileRun::start(&file, writer.as_ref(), done, earlier, trimmer, watch)?;
    for chunk in crate::solve::chunks(&file.tiers[done..], variant, CHUNK_POSITIONS) {
        run.reach_level(chunk[0].progress(variant));
        // Collective 4: an all-gather, then one or two broadcasts.
        let values = run.solve_chunk(chunk)?;
        run.store_chunk(chunk, values)?;
        run.checkpoint()?;
    }
    run.write_pending()?;
    // Collective 5: the gather (end), then the barrier (finish).
    let (stats, shares) = run.end();
    file.finish(writer, stats, &shares)
}

/// One file of a build, before its tiers are settled: where it goes, how
/// it is built and who watches; what every step of its manager reads.
struct Job<'a> {
    dir: &'a Path,
    variant: &'a Variant,
    file: FileKey,
    opts: &'a BuildOptions,
    observer: &'a dyn BuildObserver,
    /// The file's place.
    path: PathBuf,
    /// The place of its checkpoint.
    ckpt_path: PathBuf,
    /// When this run took the file up.
    start: Instant,
}

impl<'a> Job<'a> {
    /// The file this job builds.
    fn file(&self) -> FileKey {
        self.file
    }

    /// The file `file` of `variant` under `dir`, taken up now.
    fn new(
        dir: &'a Path,
        variant: &'a Variant,
        file: FileKey,
        opts: &'a BuildOptions,
        observer: &'a dyn BuildObserver,
    ) -> Job<'a> {
        let start = Instant::now();
        let path = table_path(dir, variant, file);
        let ckpt_path = checkpoint::path_for(&path);
        Job {
            dir,
            variant,
            file,
            opts,
            observer,
            path,
            ckpt_path,
            start,
        }
    }

    /// The report of the file, told to the observer, when the file already
    /// there holds every tier of `tiers` (its blocks checked); otherwise
    /// `None`, with that file's tiers, if any, added to `tiers` (they are
    /// built again with the rest).
    fn skip_if_complete(&self, tiers: &mut Vec<TierKey>) -> Result<Option<FileReport>, BuildError> {
        let floor = self.opts.write.floor;
        let Some(t) = existing_table(self.dir, self.variant, self.file(), floor)? else {
            return Ok(None);
        };
        let have: HashSet<TierKey> = t.tier_keys()?.into_iter().collect();
        let complete = tiers.iter().all(|t| have.contains(t));
        // A file with distances serves a WDL-only build; never replace a
        // file of one kind by one of the other without being told.
        let wdl_only = self.opts.write.wdl_only;
        if t.info().wdl_only != wdl_only && !(complete && wdl_only) {
            return Err(BuildError::OtherKind {
                path: self.path.clone(),
                wdl_only: t.info().wdl_only,
            });
        }
        if !complete {
            tiers.extend(have);
            return Ok(None);
        }
        // Skip only a file whose every block passes its checksum (a read
        // of the whole file, CRCs only): a damaged one is refused.
        t.verify_checksums().map_err(BuildError::Unsound)?;
        // A checkpoint left between the rename and its removal.
        let _ = std::fs::remove_file(&self.ckpt_path);
        let r = FileReport {
            file: self.file,
            info: t.info().clone(),
            seconds: 0.0,
            earlier_seconds: 0.0,
            skipped: true,
            window_peak_bytes: 0,
            window_budget_bytes: 0,
            block_cache_bytes: 0,
            wdl_blocks_read: 0,
            wdl_blocks_decompressed: 0,
            resumed_positions: 0,
            checkpoints: 0,
            peak_anon_bytes: 0,
            peak_rss_bytes: 0,
            ranks: Vec::new(),
        };
        self.observer.file_done(&r);
        Ok(Some(r))
    }
}

/// A file to build, its tiers settled: the manager's state over the
/// file's whole life. What a run of its chunk loop holds, which borrows
/// this (the window reads its tiers), is in a [`FileRun`].
struct FileBuild<'a> {
    job: Job<'a>,
    /// The file's tiers in solving order (level by level).
    tiers: Vec<TierKey>,
    /// The first position of each tier in the file.
    firsts: Vec<u64>,
    /// Positions in the file.
    positions: u64,
    /// What the file's checkpoints say of its build.
    identity: Identity,
    /// The window's budget (bytes).
    budget: u64,
    /// Bytes of the budget given to the shared cache of the lower files'
    /// blocks beyond its default ([`crate::table::blocks`]).
    block_cache: u64,
}

impl<'a> FileBuild<'a> {
    /// The build of `tiers` (in any order, repeats allowed) for `job`: the
    /// tiers in solving order, and the memory budget checked.
    fn prepare(job: Job<'a>, mut tiers: Vec<TierKey>) -> Result<FileBuild<'a>, BuildError> {
        let (variant, opts) = (job.variant, job.opts);
        tiers.sort_by_key(|t| (t.level(variant), *t));
        tiers.dedup();
        let positions: u64 = tiers.iter().map(|t| t.size()).sum();
        let firsts: Vec<u64> = tiers
            .iter()
            .scan(0, |first, t| {
                let f = *first;
                *first += t.size();
                Some(f)
            })
            .collect();
        let identity = Identity::of(variant, job.file(), &tiers, opts.write.wdl_only);
        // Memory: what the build needs besides the window, then the
        // window and the cache of the lower files' blocks.
        let need = Need {
            file: job.file(),
            besides_window: bytes_besides_window(tiers.len() as u64, positions, &opts.write),
            window: window::peak_bytes(variant, &tiers, opts.write.wdl_only),
        };
        let share = opts.memory.share(&need, opts.block_cache_bytes)?;
        let block_cache = share.block_cache;
        let budget = opts
            .window_bytes
            .map_or(share.window, |w| w.min(share.window));
        Ok(FileBuild {
            job,
            tiers,
            firsts,
            positions,
            identity,
            budget,
            block_cache,
        })
    }

    /// The build stopped in this file ([`BuildError::Stopped`]) with
    /// `positions_done` of it done (0: before starting it), after `seconds`
    /// of this run on it and `earlier_seconds` of the runs before, with the
    /// peak memory of `peaks` (its seconds unused).
    fn stopped(
        &self,
        positions_done: u64,
        seconds: f64,
        earlier_seconds: f64,
        peaks: &History,
        blocks_before: Option<(u64, u64)>,
    ) -> BuildError {
        // The lower blocks read since the run of the file started.
        let (read, decompressed) = blocks_before.map_or((0, 0), |(hits, misses)| {
            let (h, m) = blocks::counts();
            (h + m - hits - misses, m - misses)
        });
        BuildError::Stopped(Box::new(Stop {
            files: Vec::new(),
            file: self.job.file,
            positions_done,
            positions: self.positions,
            seconds,
            earlier_seconds,
            peak_anon_bytes: peaks.peak_anon_bytes,
            peak_rss_bytes: peaks.peak_rss_bytes,
            block_cache_bytes: if blocks_before.is_some() {
                blocks::budget()
            } else {
                0
            },
            wdl_blocks_read: read,
            wdl_blocks_decompressed: decompressed,
        }))
    }

    /// Rank 0's writer of the file (`None` on the other ranks), the tiers
    /// done (on every rank) and the file's history before this run: rank 0
    /// owns the file and its checkpoint, and tells the others how far a
    /// checkpoint took it (collective: one broadcast).
    fn open(&self) -> Result<(Option<TableWriter>, usize, History), BuildError> {
        let ranks = &self.job.opts.cluster;
        let (writer, done, earlier) = if ranks.rank() == 0 {
            let (w, d, h) = self.resume_or_create()?;
            (Some(w), d, h)
        } else {
            (None, 0, History::default())
        };
        let mut shared = [done as u64];
        ranks.broadcast(&mut shared);
        Ok((writer, shared[0] as usize, earlier))
    }

    /// The writer of the file and the number of tiers already done: taken
    /// up from the file's checkpoint when it is one of this build and
    /// sound, else a fresh one (saying why a checkpoint there was not
    /// used).
    fn resume_or_create(&self) -> Result<(TableWriter, usize, History), BuildError> {
        let Job {
            dir,
            variant,
            file,
            opts,
            observer,
            ..
        } = self.job;
        let tiers = &self.tiers;
        let ckpt_path = &self.job.ckpt_path;
        let discard = |why: String| {
            observer.note(&format!(
                "{}: checkpoint discarded ({why}); building the file from the start",
                ckpt_path.display()
            ));
            let _ = std::fs::remove_file(ckpt_path);
        };
        match Checkpoint::load(ckpt_path) {
            Ok(None) => {}
            Err(e) => discard(e.to_string()),
            Ok(Some(c)) if c.identity != self.identity => {
                discard("it belongs to another build of this file".into())
            }
            Ok(Some(c)) if c.done as usize > tiers.len() || c.done == 0 => {
                discard("it counts more tiers than the build has".into())
            }
            Ok(Some(c)) => {
                let done = c.done as usize;
                let positions = c.writer.positions();
                // The file goes on with the options it was started with (an
                // earlier binary's defaults may differ from this one's).
                let write = WriteOptions {
                    floor: opts.write.floor,
                    ..c.writer.options()
                };
                match TableWriter::resume(dir, variant, file, &write, c.writer, &tiers[..done]) {
                    Ok(w) => {
                        observer.note(&format!(
                            "{}: resuming from its checkpoint, {positions} positions done",
                            temporary_path(&self.job.path).display()
                        ));
                        return Ok((w, done, c.history));
                    }
                    Err(e) => discard(e.to_string()),
                }
            }
        }
        Ok((
            TableWriter::create_with(dir, variant, file, &opts.write)?,
            0,
            History::default(),
        ))
    }

    /// Finish the file after its last chunk, with what the run counted
    /// (`stats`) and every rank's `[positions solved, seconds solving]`
    /// (`shares`, on rank 0): rank 0 closes its writer (the file is renamed
    /// into place) and removes the checkpoint, every rank waits for it
    /// (collective: one barrier), and the report goes to the observer.
    fn finish(
        &self,
        writer: Option<RwLock<TableWriter>>,
        stats: RunStats,
        shares: &[f64],
    ) -> Result<FileReport, BuildError> {
        let ranks = &self.job.opts.cluster;
        if let Some(w) = writer {
            w.into_inner().unwrap_or_else(|e| e.into_inner()).finish()?;
            // The file is complete: its checkpoint is of no more use.
            let _ = std::fs::remove_file(&self.job.ckpt_path);
        }
        // Rank 0 renames the file into place before this returns; every
        // rank then reads what was written (its identity from the preamble).
        ranks.barrier();
        let written = Table::open(&self.job.path)?;
        let info = written.info().clone();
        let (peak_anon, peak_rss) = stats.watch.finish();
        let earlier = stats.earlier;
        let ((hits, misses), before) = (blocks::counts(), stats.blocks_before);
        let r = FileReport {
            file: self.job.file,
            info,
            seconds: self.job.start.elapsed().as_secs_f64(),
            earlier_seconds: earlier.seconds,
            skipped: false,
            window_peak_bytes: stats.window_peak,
            window_budget_bytes: self.budget,
            block_cache_bytes: blocks::budget(),
            wdl_blocks_read: hits + misses - before.0 - before.1,
            wdl_blocks_decompressed: misses - before.1,
            resumed_positions: stats.resumed_positions,
            checkpoints: stats.checkpoints,
            peak_anon_bytes: peak_anon.max(earlier.peak_anon_bytes),
            peak_rss_bytes: peak_rss.max(earlier.peak_rss_bytes),
            ranks: shares
                .chunks_exact(2)
                .enumerate()
                .map(|(rank, s)| RankShare {
                    rank,
                    positions: s[0] as u64,
                    solve_seconds: s[1],
                })
                .collect(),
        };
        self.job.observer.file_done(&r);
        Ok(r)
    }
}

/// What one run of a file counts and measures, for its checkpoints and its
/// report. It borrows nothing, so that it outlives the [`FileRun`] (whose
/// window borrows rank 0's writer, which the file's end consumes).
struct RunStats {
    /// What the runs before this one took, up to the checkpoint it took
    /// up.
    earlier: History,
    /// This run's peak memory.
    watch: memory::Watch,
    /// Hands what the build frees back to the system between chunks.
    trimmer: memory::Trimmer,
    /// Positions taken from a checkpoint instead of solved.
    resumed_positions: u64,
    /// The most bytes the window held.
    window_peak: u64,
    /// Checkpoints written.
    checkpoints: u64,
    /// Positions this rank solved.
    solved: u64,
    /// Seconds this rank spent solving (rank 0 writing the chunk before
    /// meanwhile).
    solve_seconds: f64,
    /// The shared block cache's counts when the run started
    /// ([`blocks::counts`]).
    blocks_before: (u64, u64),
}

/// The progress of a file, told to the observer through a throttle as its
/// tiers are done: by this rank's solver threads, and on rank 0 for the
/// other ranks' tiers too. Counters only: nothing allocated per tier.
struct FileProgress<'a> {
    observer: &'a dyn BuildObserver,
    /// Tiers of the file.
    tiers: usize,
    /// Positions of the file.
    positions: u64,
    /// Tiers done, those of a checkpoint included.
    tiers_done: AtomicUsize,
    /// Positions done, those of a checkpoint included.
    done: AtomicU64,
    throttle: Throttle,
}

impl FileProgress<'_> {
    /// The tier `key` is done.
    fn tier_done(&self, key: &TierKey) {
        let p = self.done.fetch_add(key.size(), Ordering::Relaxed) + key.size();
        let t = self.tiers_done.fetch_add(1, Ordering::Relaxed) + 1;
        self.throttle.report(
            self.observer,
            &Progress {
                tiers_done: t,
                tiers_total: self.tiers,
                done: p,
                total: self.positions,
                ..Progress::default()
            },
        );
    }
}

/// Every rank's values of a chunk, in chunk order: what the worker step
/// ([`FileRun::solve_chunk`]) delivers and the store step
/// ([`FileRun::store_chunk`]) stores.
enum ChunkValues {
    /// One process: its own, tier by tier, as the solver gave them.
    Own(Vec<Vec<u16>>),
    /// Several ranks: every rank's codes, gathered ([`exchange`]), and
    /// where each tier of the chunk starts in them.
    Gathered(Vec<u16>, Vec<usize>),
}

impl ChunkValues {
    /// The codes of `key`, the tier at index `i` of the chunk.
    fn tier(&self, i: usize, key: &TierKey) -> &[u16] {
        match self {
            ChunkValues::Own(values) => &values[i],
            ChunkValues::Gathered(all, at) => &all[at[i]..at[i] + key.size() as usize],
        }
    }
}

/// One run of a file's chunk loop on this rank: the window of the file's
/// own tiers, the lower tables, the solver and what the run counts. It
/// borrows the [`FileBuild`] (the window reads its tiers) and rank 0's
/// writer (the window reads back from it).
struct FileRun<'b> {
    file: &'b FileBuild<'b>,
    /// The file's writer: rank 0's (`None` on the other ranks).
    writer: Option<&'b RwLock<TableWriter>>,
    /// The file's own tiers that later levels read.
    window: Window<'b>,
    /// The lower files.
    tables: TableSet,
    solver: Solver,
    /// The build's threads ([`BuildOptions::threads`]).
    pool: rayon::ThreadPool,
    /// How many levels below its own a tier reads ([`window_levels`]).
    keep: u32,
    /// The level of the chunks being solved.
    level: Option<u32>,
    /// Tiers done (a prefix of the file's): in the writer, synced.
    next: usize,
    /// The chunk solved last and its values, in the window already but
    /// not yet in the writer: written while the next chunk is solved
    /// ([`FileRun::solve_chunk`]), so that the writer's one-thread part
    /// (each tier put in stream order, its fields packed) keeps the
    /// other threads busy rather than waiting.
    pending: Option<(&'b [TierKey], ChunkValues)>,
    /// When the last checkpoint was written (or the run started).
    last_checkpoint: Instant,
    progress: FileProgress<'b>,
    stats: RunStats,
}

impl<'b> FileRun<'b> {
    /// Start a run of `file` with `done` of its tiers done: the observer
    /// is told, the window opened (rank 0 reads back from its `writer`,
    /// the other ranks from a scratch folder of their own) and, after a
    /// resume with several ranks, filled on every rank from rank 0's
    /// (collective: one broadcast of codes), the lower tables and the
    /// build's threads made ready.
    fn start(
        file: &'b FileBuild<'b>,
        writer: Option<&'b RwLock<TableWriter>>,
        done: usize,
        earlier: History,
        trimmer: memory::Trimmer,
        watch: memory::Watch,
    ) -> Result<FileRun<'b>, BuildError> {
        let job = &file.job;
        let (variant, opts, ranks) = (job.variant, job.opts, &job.opts.cluster);
        let resumed_positions = file.firsts.get(done).copied().unwrap_or(file.positions);
        let tiers = &file.tiers;
        job.observer
            .file_start(job.file(), tiers.len(), file.positions, resumed_positions);
        let back = match writer {
            Some(w) => {
                w.write().unwrap_or_else(|e| e.into_inner()).open_reader()?;
                Back::File(w)
            }
            None => Back::Spill(Spill::create(&spill_dir(&job.path, ranks.rank()))?),
        };
        let window = Window::new(
            variant,
            tiers,
            &file.firsts,
            done,
            back,
            file.budget,
            opts.write.wdl_only,
        );
        let keep = window_levels(variant);
        let wanted = window_after_resume(variant, &tiers[..done], tiers.get(done), keep);
        if ranks.rank() == 0 && !wanted.is_empty() {
            reload_window(job, &window, &wanted)?;
        }
        if ranks.size() > 1 && done > 0 {
            send_window(ranks, &window, &wanted)?;
        }
        // `job.dir` is the floor's folder already.
        let tables = TableSet::open(job.dir, variant).with_floor(opts.write.floor);
        let tables = if opts.write.wdl_only {
            tables
        } else {
            tables.requiring_distances()
        };
        let solver = Solver::new(*variant)
            .threads(opts.threads)
            .engine(opts.solver_engine());
        let pool = solver.pool()?;
        blocks::set_budget(blocks::DEFAULT_BYTES + file.block_cache);
        Ok(FileRun {
            file,
            writer,
            window,
            tables,
            solver,
            pool,
            keep,
            level: tiers.get(done).map(|t| t.progress(variant)),
            next: done,
            pending: None,
            last_checkpoint: Instant::now(),
            progress: FileProgress {
                observer: job.observer,
                tiers: tiers.len(),
                positions: file.positions,
                tiers_done: AtomicUsize::new(done),
                done: AtomicU64::new(resumed_positions),
                throttle: Throttle::default(),
            },
            stats: RunStats {
                earlier,
                watch,
                trimmer,
                resumed_positions,
                window_peak: 0,
                checkpoints: 0,
                solved: 0,
                solve_seconds: 0.0,
                blocks_before: blocks::counts(),
            },
        })
    }

    /// The next chunk is of `level`: at a new level, the tiers no level
    /// from here on reads leave the window.
    fn reach_level(&mut self, level: u32) {
        if self.level != Some(level) {
            self.window.forget_below(level, self.keep);
            self.level = Some(level);
        }
    }

    /// The worker step: solve this rank's share of `chunk` (tiers of one
    /// level) with its threads, and deliver every rank's values of the
    /// chunk (collective with several ranks: one all-gather). Rank 0's
    /// progress counts the other ranks' tiers too.
    fn solve_chunk(&mut self, chunk: &[TierKey]) -> Result<ChunkValues, BuildError> {
        let ranks = &self.file.job.opts.cluster;
        // This rank's share of the chunk, solved with its threads.
        let owner = ranks::shares(chunk, ranks.size());
        let mine: Vec<TierKey> = chunk
            .iter()
            .zip(&owner)
            .filter(|&(_, &r)| r == ranks.rank())
            .map(|(t, _)| *t)
            .collect();
        // The file's own tiers from the window, lower files from disk.
        let store = Layered(&self.window, &self.tables);
        let progress = &self.progress;
        // The chunk before goes to the writer meanwhile, on the same
        // threads: one of them takes it up while the others solve.
        let (writer, pending) = (self.writer, self.pending.take());
        let t0 = Instant::now();
        let (values, written) = self.pool.install(|| {
            rayon::join(
                || {
                    self.solver
                        .solve_chunk(&mine, &store, &|t| progress.tier_done(t))
                },
                || pending.map(|(done, values)| write_chunk(writer, done, values)),
            )
        });
        self.stats.solve_seconds += t0.elapsed().as_secs_f64();
        if let Some(written) = written {
            self.written(written?);
        }
        let values = values?;
        self.stats.solved += mine.iter().map(|t| t.size()).sum::<u64>();
        // Every rank's values (one process: its own, as they are).
        if ranks.size() == 1 {
            return Ok(ChunkValues::Own(values));
        }
        let (all, at) = exchange(ranks, chunk, &owner, values);
        if ranks.rank() == 0 {
            // Rank 0's progress counts every rank's tiers.
            for (t, &r) in chunk.iter().zip(&owner) {
                if r != 0 {
                    self.progress.tier_done(t);
                }
            }
        }
        Ok(ChunkValues::Gathered(all, at))
    }

    /// The store step: every rank's `values` of `chunk` go to the window
    /// now and to the writer (rank 0) while the next chunk is solved
    /// ([`FileRun::pending`]). At once instead where the window reads
    /// tiers back from the file: a solve may then wait for the writer's
    /// lock, which a thread writing (and taking up solving work while its
    /// blocks compress) must not hold. The chunk counts as done once the
    /// writer has it, synced.
    fn store_chunk(&mut self, chunk: &'b [TierKey], values: ChunkValues) -> Result<(), BuildError> {
        for (i, key) in chunk.iter().enumerate() {
            self.window.add(key, values.tier(i, key))?;
        }
        self.stats.window_peak = self.stats.window_peak.max(self.window.bytes());
        self.pending = Some((chunk, values));
        if self.window.reads_back() || self.writer.is_none() {
            self.write_pending()?;
        }
        Ok(())
    }

    /// Hand the pending chunk ([`FileRun::pending`]) to the writer now.
    fn write_pending(&mut self) -> Result<(), BuildError> {
        if let Some((chunk, values)) = self.pending.take() {
            let writer = self.writer;
            let done = self.pool.install(|| write_chunk(writer, chunk, values))?;
            self.written(done);
        }
        Ok(())
    }

    /// `done` more tiers are in the writer, synced.
    fn written(&mut self, done: usize) {
        self.stats.trimmer.check();
        self.next += done;
        self.window.set_done(self.next);
    }

    /// After a chunk: write a checkpoint when one is due or the build is
    /// to stop, and stop there ([`BuildError::Stopped`]) when asked.
    /// Rank 0's clock and observer decide, for every rank (collective: one
    /// broadcast, and one more after a checkpoint).
    fn checkpoint(&mut self) -> Result<(), BuildError> {
        let file = self.file;
        let (opts, ranks) = (file.job.opts, &file.job.opts.cluster);
        let late = opts.late();
        let due = self.last_checkpoint.elapsed().as_secs() >= opts.checkpoint_secs || late;
        let solved = self.next + self.pending.as_ref().map_or(0, |p| p.0.len());
        let mut go = [u64::from(due && solved < file.tiers.len()), u64::from(late)];
        ranks.broadcast(&mut go);
        if go[0] == 0 {
            return Ok(());
        }
        // A checkpoint holds every tier solved.
        self.write_pending()?;
        if let Some(w) = self.writer {
            let state = w.write().unwrap_or_else(|e| e.into_inner()).checkpoint()?;
            Checkpoint {
                identity: file.identity.clone(),
                done: self.next as u64,
                writer: state,
                history: self.history(),
            }
            .save(&file.job.ckpt_path)?;
        }
        self.stats.checkpoints += 1;
        self.last_checkpoint = Instant::now();
        let positions_done = file.firsts[self.next];
        let asked = ranks.rank() == 0 && !file.job.observer.checkpoint(positions_done);
        let mut stop = [u64::from(go[1] == 1 || asked)];
        ranks.broadcast(&mut stop);
        if stop[0] == 1 {
            let h = self.history();
            let seconds = file.job.start.elapsed().as_secs_f64();
            return Err(file.stopped(
                positions_done,
                seconds,
                self.stats.earlier.seconds,
                &h,
                Some(self.stats.blocks_before),
            ));
        }
        Ok(())
    }

    /// The file's history up to now, this run included.
    fn history(&self) -> History {
        let (anon, rss) = self.stats.watch.peaks();
        let earlier = &self.stats.earlier;
        History {
            seconds: earlier.seconds + self.file.job.start.elapsed().as_secs_f64(),
            peak_anon_bytes: earlier.peak_anon_bytes.max(anon),
            peak_rss_bytes: earlier.peak_rss_bytes.max(rss),
        }
    }

    /// End the run after the file's last chunk: the window goes, then what
    /// each rank solved is gathered on rank 0 (collective: one gather).
    /// What the run counted, and the ranks' `[positions, seconds]`.
    fn end(self) -> (RunStats, Vec<f64>) {
        let FileRun {
            file,
            window,
            stats,
            ..
        } = self;
        drop(window);
        let shares = file
            .job
            .opts
            .cluster
            .gather(&[stats.solved as f64, stats.solve_seconds]);
        (stats, shares)
    }
}

/// Push the tiers of `chunk` (their `values`) to `writer` (rank 0's; the
/// other ranks have none) and sync it: run on the build's pool, where
/// pushing compresses the full blocks (its --threads, not rayon's global
/// pool). The values go as soon as they are written, before the trimmer
/// looks ([`FileRun::written`]). Returns the number of tiers written.
fn write_chunk(
    writer: Option<&RwLock<TableWriter>>,
    chunk: &[TierKey],
    values: ChunkValues,
) -> Result<usize, BuildError> {
    if let Some(w) = writer {
        let mut w = w.write().unwrap_or_else(|e| e.into_inner());
        for (i, key) in chunk.iter().enumerate() {
            w.push_tier(key, values.tier(i, key))?;
        }
        w.sync()?;
    }
    drop(values);
    Ok(chunk.len())
}

/// Every rank's values of `chunk` (this rank's `values` are those of the
/// tiers `owner` gives it, in chunk order), gathered on every rank: all
/// the codes, and where each tier of the chunk starts in them.
fn exchange(
    ranks: &Cluster,
    chunk: &[TierKey],
    owner: &[usize],
    values: Vec<Vec<u16>>,
) -> (Vec<u16>, Vec<usize>) {
    let mut counts = vec![0u64; ranks.size()];
    for (t, &r) in chunk.iter().zip(owner) {
        counts[r] += t.size();
    }
    let mine = values.concat();
    drop(values);
    let all = ranks.all_gather(&mine, &counts);
    // Rank r's part starts after those of the ranks before it; inside it,
    // its tiers come in chunk order.
    let mut next: Vec<u64> = counts
        .iter()
        .scan(0, |s, &c| {
            let f = *s;
            *s += c;
            Some(f)
        })
        .collect();
    let at = chunk
        .iter()
        .zip(owner)
        .map(|(t, &r)| {
            let a = next[r];
            next[r] += t.size();
            a as usize
        })
        .collect();
    (all, at)
}

/// The scratch folder of rank `rank` (not 0) for the file at `path`.
fn spill_dir(path: &Path, rank: usize) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".rank{rank}.spill"));
    path.with_file_name(name)
}

/// The tiers done (`done`, in solving order) that the levels from `next`
/// on read: those within `keep` levels of it.
fn window_after_resume<'t>(
    variant: &Variant,
    done: &'t [TierKey],
    next: Option<&TierKey>,
    keep: u32,
) -> Vec<&'t TierKey> {
    let Some(next) = next else {
        return Vec::new();
    };
    let level = next.progress(variant);
    done.iter()
        .filter(|t| t.progress(variant) + keep >= level)
        .collect()
}

/// After a resume, rank 0 sends the other ranks the window they would
/// have kept: the officers-to-move halves of the tiers `wanted`
/// ([`window_after_resume`]).
fn send_window(
    ranks: &Cluster,
    window: &Window<'_>,
    wanted: &[&TierKey],
) -> Result<(), BuildError> {
    use crate::solve::TierStore;
    let total: u64 = wanted.iter().map(|t| t.size_per_side() as u64).sum();
    let mut codes = vec![0u16; total as usize];
    if ranks.rank() == 0 {
        let mut at = 0;
        for t in wanted {
            let half = t.size_per_side() as usize;
            let c = window.tier(t)?.ok_or(SolveError::MissingTier(**t))?;
            codes[at..at + half].copy_from_slice(&c[..half]);
            at += half;
        }
    }
    ranks.broadcast_codes(&mut codes);
    if ranks.rank() != 0 {
        let mut at = 0;
        for t in wanted {
            let half = t.size_per_side() as usize;
            window.add(t, &codes[at..at + half])?;
            at += half;
        }
    }
    Ok(())
}

/// Read back the window of a resumed build (`wanted`: the tiers it would
/// have kept), saying so: some seconds to minutes with nothing solved.
fn reload_window(
    job: &Job<'_>,
    window: &Window<'_>,
    wanted: &[&TierKey],
) -> Result<(), BuildError> {
    let variant = job.variant;
    let halves: u64 = wanted.iter().map(|t| u64::from(t.size_per_side())).sum();
    let what = format!(
        "{variant} {}: reading back the window of the resumed build from the file ({} tiers, {halves} positions)",
        job.file,
        wanted.len()
    );
    job.observer.note(&what);
    let start = Instant::now();
    // The window it would have kept, read back once into memory
    // as far as its budget allows: read back through the window's
    // small cache instead, those tiers were decompressed again for
    // every tier that read them until their levels passed (14 % of
    // the samples early in a resumed 2o16s).
    window.reload(wanted)?;
    job.observer.note(&format!(
        "{variant} {}: window read back in {:.1} s",
        job.file,
        start.elapsed().as_secs_f64()
    ));
    Ok(())
}
