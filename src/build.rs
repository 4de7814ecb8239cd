//! Building the table files of a variant: which files, in which order,
//! skipping those already built (so an interrupted build resumes), and the
//! in-memory window of freshly solved tiers that the next levels of the same
//! file read before the file is complete.
//!
//! Files are built in the order `k = 9, 10, ..` and, for each `k`, one
//! officer before two. Inside a file, tiers are solved level by level
//! (`P(S)` ascending); a tier's soldier steps lead to tiers of the same file
//! at most [`window_levels`] levels below, so only those levels are kept in
//! memory, and only their officers-to-move halves (the only positions of
//! the same file a move can reach from another tier), one byte per value
//! where a tier's values allow ([`MemoryStore::compact`]); lower files are
//! read back through [`TableSet`].

use crate::index::{self, TierKey};
use crate::rules::Variant;
use crate::solve::{Layered, MemoryStore, Progress, SolveError, Solver};
use crate::table::{Table, TableInfo, TableSet, TableWriter, table_path};
use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

/// What went wrong in a build.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Solving failed (a lower table missing or unreadable).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Writing or reading a table failed.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// Bad request.
    #[error("{0}")]
    Request(String),
}

/// One table file of a build.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// Officers.
    pub n: u8,
    /// Soldiers.
    pub k: u8,
    /// The file's header information.
    pub info: TableInfo,
    /// Seconds spent building it (0 when skipped).
    pub seconds: f64,
    /// Whether a valid file was already there.
    pub skipped: bool,
    /// The most bytes of value codes the window of solved tiers held (0
    /// when skipped): the part of a build's memory that grows with `k`.
    pub window_peak_bytes: u64,
}

/// Callbacks for progress display; every method has an empty default.
pub trait BuildObserver: Send + Sync {
    /// A file starts building.
    fn file_start(&self, _n: u8, _k: u8, _tiers: usize, _positions: u64) {}
    /// A tier of the current file was solved.
    fn progress(&self, _p: &Progress) {}
    /// A file is done (built or skipped).
    fn file_done(&self, _report: &FileReport) {}
}

/// An observer that ignores everything.
pub struct Quiet;
impl BuildObserver for Quiet {}

/// The files `(n, k)` of a build up to `k_max` soldiers, in build order.
pub fn plan(k_min: u8, k_max: u8) -> Vec<(u8, u8)> {
    (k_min..=k_max).flat_map(|k| [(1, k), (2, k)]).collect()
}

/// How many levels below the current one a tier's soldier steps can reach:
/// the largest drop of `P` over one soldier step.
pub fn window_levels(variant: &Variant) -> u32 {
    let p = variant.progress();
    let table = variant.soldier_moves();
    crate::board::points(crate::board::OUTSIDE)
        .flat_map(|s| crate::board::points(table[s.index()]).map(move |t| (s, t)))
        .map(|(s, t)| (p[s.index()] - p[t.index()]) as u32)
        .max()
        .unwrap_or(1)
}

/// The valid table already at the place of `(variant, n, k)`, if any.
fn existing_table(dir: &Path, variant: &Variant, n: u8, k: u8) -> Option<Table> {
    let t = Table::open(&table_path(dir, variant, n, k)).ok()?;
    let i = t.info();
    (i.variant == *variant && i.n == n && i.k == k).then_some(t)
}

/// Build every table of `variant` with `k_min..=k_max` soldiers under `dir`,
/// complete (every tier), skipping files already complete.
pub fn build(
    dir: &Path,
    variant: &Variant,
    k_min: u8,
    k_max: u8,
    threads: usize,
    observer: &dyn BuildObserver,
) -> Result<Vec<FileReport>, BuildError> {
    if k_min < 9 || k_max > 24 || k_min > k_max {
        return Err(BuildError::Request(format!(
            "soldiers must be a range within 9..=24, not {k_min}..={k_max}"
        )));
    }
    let mut reports = Vec::new();
    for (n, k) in plan(k_min, k_max) {
        let tiers = index::all_tiers(n, k, variant);
        reports.push(build_file(dir, variant, n, k, tiers, threads, observer)?);
    }
    Ok(reports)
}

/// Build files holding (at least) the given tiers, e.g. the closure of one
/// position ([`index::closure`], which is closed under moves as every such
/// set must be). Tiers already in a file are kept.
pub fn build_tiers(
    dir: &Path,
    variant: &Variant,
    tiers: &[TierKey],
    threads: usize,
    observer: &dyn BuildObserver,
) -> Result<Vec<FileReport>, BuildError> {
    let mut files: Vec<(u8, u8)> = tiers.iter().map(|t| (t.n, t.k)).collect();
    files.sort_by_key(|&(n, k)| (k, n));
    files.dedup();
    let mut reports = Vec::new();
    for (n, k) in files {
        let mine: Vec<TierKey> = tiers
            .iter()
            .filter(|t| (t.n, t.k) == (n, k))
            .map(|t| t.canonical())
            .collect();
        reports.push(build_file(dir, variant, n, k, mine, threads, observer)?);
    }
    Ok(reports)
}

/// Build the file `(n, k)` holding `tiers` (and any tiers the valid file
/// already there holds); skipped when that file already holds them all.
/// Lower files must hold every tier these tiers reach.
pub fn build_file(
    dir: &Path,
    variant: &Variant,
    n: u8,
    k: u8,
    tiers: Vec<TierKey>,
    threads: usize,
    observer: &dyn BuildObserver,
) -> Result<FileReport, BuildError> {
    let start = Instant::now();
    let mut tiers = tiers;
    if let Some(t) = existing_table(dir, variant, n, k) {
        let have: HashSet<TierKey> = t.tier_keys()?.into_iter().collect();
        if tiers.iter().all(|t| have.contains(t)) {
            let r = FileReport {
                n,
                k,
                info: t.info().clone(),
                seconds: 0.0,
                skipped: true,
                window_peak_bytes: 0,
            };
            observer.file_done(&r);
            return Ok(r);
        }
        tiers.extend(have);
    }
    tiers.sort_by_key(|t| (t.level(variant), *t));
    tiers.dedup();
    let positions: u64 = tiers.iter().map(|t| t.size()).sum();
    observer.file_start(n, k, tiers.len(), positions);
    let tables = TableSet::open(dir, variant);
    // One byte per code where a tier's codes allow (distances below 127).
    let window = MemoryStore::compact();
    let mut window_peak = 0;
    // The current file's recent levels from memory, lower files from disk.
    let store = Layered(&window, &tables);
    let keep = window_levels(variant);
    let mut writer = TableWriter::create(dir, variant, n, k)?;
    let solver = Solver::new(*variant).threads(threads);
    // Solve level by level so the window can drop old levels in between.
    let mut i = 0;
    let mut done_tiers = 0;
    let mut done_positions = 0;
    while i < tiers.len() {
        let level = tiers[i].progress(variant);
        let mut j = i;
        while j < tiers.len() && tiers[j].progress(variant) == level {
            j += 1;
        }
        let base = Progress {
            tiers_done: done_tiers,
            tiers_total: tiers.len(),
            positions_done: done_positions,
            positions_total: positions,
        };
        let progress = |p: &Progress| {
            observer.progress(&Progress {
                tiers_done: base.tiers_done + p.tiers_done,
                positions_done: base.positions_done + p.positions_done,
                ..base
            })
        };
        let mut err = None;
        solver.solve_into(&tiers[i..j], &store, &progress, |key, codes| {
            if let Err(e) = writer.push_tier(key, &codes) {
                err = Some(e);
            }
            // Later levels of this file only read the officers-to-move half
            // (the positions after a soldier step): keep just that.
            let mut codes = codes;
            codes.truncate(key.size_per_side() as usize);
            codes.shrink_to_fit();
            window.insert(*key, codes);
            Ok(())
        })?;
        if let Some(e) = err {
            return Err(e.into());
        }
        window_peak = window_peak.max(window.bytes());
        done_tiers = j;
        done_positions += tiers[i..j].iter().map(|t| t.size()).sum::<u64>();
        window.retain(|t| t.progress(variant) + keep > level);
        i = j;
    }
    drop(window);
    let info = writer.finish()?;
    let r = FileReport {
        n,
        k,
        info,
        seconds: start.elapsed().as_secs_f64(),
        skipped: false,
        window_peak_bytes: window_peak as u64,
    };
    observer.file_done(&r);
    Ok(r)
}

/// Peak resident memory of this process in bytes (Linux; `None` elsewhere).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
