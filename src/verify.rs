//! Verifying built tables: every block checksum, then every stored value
//! re-derived from its successors' stored values ([`check_tier`]).

use crate::Value;
use crate::build::BuildError;
use crate::index::{self, TierKey};
use crate::position::Position;
use crate::rules::Variant;
use crate::solve::{Lookup, check_tier};
use crate::table::{Table, TableSet, table_path};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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

/// The outcome of a verification.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Table files checked.
    pub files: Vec<PathBuf>,
    /// For each file checked: its positions and the seconds its check took
    /// (checksums and values).
    pub file_stats: Vec<(u64, f64)>,
    /// Tiers checked.
    pub tiers: u64,
    /// Positions checked.
    pub positions: u64,
    /// Inconsistent positions in all.
    pub bad_count: u64,
    /// The first inconsistencies found (at most the limit asked for), in
    /// file and index order.
    pub bad: Vec<BadValue>,
}

/// Verify every table of `variant` under `dir` with `soldiers.0..=soldiers.1`
/// soldiers (those present; the lower tables they read are trusted).
/// Checksum failures and unreadable files are errors;
/// inconsistent values are reported in the result. `progress(positions)` is
/// called as positions are checked.
pub fn verify(
    dir: &Path,
    variant: &Variant,
    soldiers: (u8, u8),
    threads: usize,
    limit: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<VerifyReport, BuildError> {
    let tables = TableSet::open(dir, variant);
    let mut files: Vec<(PathBuf, Arc<Table>, f64)> = Vec::new();
    for k in soldiers.0.max(9)..=soldiers.1.min(24) {
        for n in 1..=2u8 {
            let path = table_path(dir, variant, n, k);
            if path.exists() {
                let t = tables
                    .table(n, k)?
                    .ok_or_else(|| BuildError::Request(format!("{}: vanished", path.display())))?;
                let start = Instant::now();
                t.verify_checksums()?;
                files.push((path, t, start.elapsed().as_secs_f64()));
            }
        }
    }
    if files.is_empty() {
        return Err(BuildError::Request(format!(
            "no tables of variant {variant} with {}..={} soldiers under {}",
            soldiers.0,
            soldiers.1,
            dir.display()
        )));
    }
    let total: u64 = files.iter().map(|(_, t, _)| t.info().positions).sum();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|_| BuildError::Request(format!("cannot start {threads} threads")))?;
    let mut report = VerifyReport::default();
    let checked = AtomicU64::new(0);
    for (path, table, checksum_seconds) in &files {
        let start = Instant::now();
        // In solving order, as they were written: neighbouring tiers then
        // share decompressed blocks in the per-thread cache.
        let mut keys: Vec<TierKey> = table.tier_keys().collect();
        keys.sort_by_key(|t| (t.level(variant), *t));
        let bad: Mutex<Vec<(TierKey, crate::solve::Inconsistency)>> = Mutex::new(Vec::new());
        let count = AtomicU64::new(0);
        pool.install(|| {
            // One tier per job, so both threads stay busy to the end.
            keys.par_iter()
                .with_max_len(1)
                .try_for_each(|key| -> Result<(), BuildError> {
                    let codes = table.tier(key)?.ok_or_else(|| {
                        BuildError::Request(format!("{}: tier vanished", path.display()))
                    })?;
                    let mut look = Lookup::new(&tables, *variant);
                    let found = check_tier(key, &mut look, &codes)?;
                    if !found.is_empty() {
                        count.fetch_add(found.len() as u64, Ordering::Relaxed);
                        let mut b = bad.lock().expect("lock");
                        b.extend(found.into_iter().take(limit).map(|f| (*key, f)));
                    }
                    let c = checked.fetch_add(key.size(), Ordering::Relaxed) + key.size();
                    progress(c, total);
                    Ok(())
                })
        })?;
        let mut b = bad.into_inner().expect("lock");
        b.sort_by_key(|(k, f)| (*k, f.index));
        for (key, f) in b {
            if report.bad.len() < limit {
                report.bad.push(BadValue {
                    file: path.clone(),
                    position: index::position_at(&key, f.index),
                    stored: f.stored,
                    derived: f.derived,
                });
            }
        }
        report.bad_count += count.into_inner();
        report.tiers += keys.len() as u64;
        report.positions += table.info().positions;
        report.files.push(path.clone());
        report.file_stats.push((
            table.info().positions,
            checksum_seconds + start.elapsed().as_secs_f64(),
        ));
    }
    Ok(report)
}
