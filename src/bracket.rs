//! Floor files against exact files: every position of the files above a
//! floor K, with its exact value (from complete or closure tables of the
//! real game) checked to lie inside the bracket the floor's files give.
//!
//! Under the officers' floor (every drop below K counted as the officers'
//! win) no soldiers' result can be better than the real one, under the
//! soldiers' floor none can be worse: for each position, from the
//! soldiers' side (-1 loss, 0 draw, 1 win), `officers' floor <= real <=
//! soldiers' floor`. [`check`] counts, per file, the positions compared,
//! those the floors decide, and those outside their bracket (a fault in the
//! floor's soundness or in one of the builds: always 0 where both are
//! right), with the first such position. Either floor may be missing: its
//! side of the bracket is then open (-1 or 1).

use crate::index::{FileKey, TierKey};
use crate::position::Side;
use crate::progress::{Observer, Progress, Throttle};
use crate::rules::Variant;
use crate::solve::{Assume, Floor, soldiers_result};
use crate::table::{Table, TableError, open_checked, table_path};
use crate::value::Value;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Why a comparison could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BracketError {
    /// Neither floor's folder holds a file of the variant.
    #[error(
        "no floor files of {variant} at {k} under {}: neither floor-{k}-officers/ nor floor-{k}-soldiers/ holds one",
        dir.display()
    )]
    NoFloorFiles {
        /// The tables folder.
        dir: PathBuf,
        /// The variant's name.
        variant: String,
        /// The floor.
        k: u8,
    },
    /// A floor file has no exact file of the same material to compare with.
    #[error(
        "{} has no exact file to compare with: {} is not there (build the exact tables into the same tables folder)",
        floor_file.display(),
        exact.display()
    )]
    NoExactFile {
        /// The floor file.
        floor_file: PathBuf,
        /// Where the exact file would be.
        exact: PathBuf,
    },
    /// A tier of a floor file is missing from the file it is compared with.
    #[error("{tier:?} of {} is not in {}", file, path.display())]
    MissingTier {
        /// The file.
        file: FileKey,
        /// The tier.
        tier: TierKey,
        /// The file that lacks it.
        path: PathBuf,
    },
    /// The two floors' files of one material hold different tiers.
    #[error("the officers' and soldiers' floor files of {file} hold different tiers")]
    DifferentTiers {
        /// The file.
        file: FileKey,
    },
    /// A file could not be read (or is not what its name says).
    #[error(transparent)]
    Table(#[from] TableError),
}

/// A position outside its bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outside {
    /// The position, in notation.
    pub position: String,
    /// Its real value, from the soldiers' side (-1, 0, 1).
    pub real: i8,
    /// The bracket's lower end (the officers' floor's value, or -1).
    pub lower: i8,
    /// The bracket's upper end (the soldiers' floor's value, or 1).
    pub upper: i8,
}

/// One file compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileBracket {
    /// The file.
    pub file: FileKey,
    /// Its tiers compared (those of the floor files).
    pub tiers: u64,
    /// Its positions compared (both sides to move).
    pub positions: u64,
    /// Those the floors decide (both ends of the bracket equal).
    pub decided: u64,
    /// Of them, soldiers' wins (proved by the officers' floor).
    pub soldiers_win: u64,
    /// Of them, officers' wins (proved by the soldiers' floor).
    pub officers_win: u64,
    /// Positions whose real value lies outside the bracket.
    pub outside: u64,
    /// The first of them, in the file's tier order.
    pub first_outside: Option<Outside>,
}

/// A comparison of the files above one floor with the exact files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The floor's soldier count.
    pub k: u8,
    /// The floors compared (one or both assumptions).
    pub floors: Vec<Floor>,
    /// Per file, in the order (soldiers, officers).
    pub files: Vec<FileBracket>,
}

impl Comparison {
    /// Positions outside their bracket, over every file.
    pub fn outside(&self) -> u64 {
        self.files.iter().map(|f| f.outside).sum()
    }

    /// Positions compared, over every file.
    pub fn positions(&self) -> u64 {
        self.files.iter().map(|f| f.positions).sum()
    }

    /// Positions decided, over every file.
    pub fn decided(&self) -> u64 {
        self.files.iter().map(|f| f.decided).sum()
    }
}

/// A value code of a tier's half `side` (0: officers to move, 1:
/// soldiers), from the soldiers' side: 1 a soldiers' win, 0 a draw, -1 an
/// officers' win.
fn soldiers(side: usize, code: u16) -> i8 {
    let side = if side == 1 {
        Side::Soldiers
    } else {
        Side::Officers
    };
    soldiers_result(side, Value::from_code(code))
}

/// Compare every file above the floor `k` under `dir`
/// (`<dir>/floor-K-officers/<variant>/`, `<dir>/floor-K-soldiers/...`,
/// whichever are there) with the exact file of the same material
/// (`<dir>/<variant>/`), every position of every tier the floor files
/// hold, on `threads` threads (0: one per core). The exact files may be
/// complete or a closure's, as long as they hold those tiers.
pub fn check(
    dir: &Path,
    variant: &Variant,
    k: u8,
    threads: usize,
    observer: &dyn Observer,
) -> Result<Comparison, BracketError> {
    let floors: Vec<Floor> = [Assume::Officers, Assume::Soldiers]
        .into_iter()
        .filter_map(|a| Floor::new(k, a).ok())
        .filter(|f| {
            Floor::dir_under(dir, Some(*f))
                .join(variant.slug())
                .is_dir()
        })
        .collect();
    // The files of the floors' folders: each material in either.
    let mut files: Vec<FileKey> = Vec::new();
    for f in &floors {
        let d = Floor::dir_under(dir, Some(*f));
        for n in 1..=2 {
            for kk in k..=24 {
                let file = FileKey::new(n, kk);
                if table_path(&d, variant, file).exists() && !files.contains(&file) {
                    files.push(file);
                }
            }
        }
    }
    files.sort_by_key(|f| (f.soldiers(), f.officers()));
    if files.is_empty() {
        return Err(BracketError::NoFloorFiles {
            dir: dir.to_path_buf(),
            variant: variant.to_string(),
            k,
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut out = Vec::new();
    for file in files {
        out.push(pool.install(|| check_file(dir, variant, &floors, file, observer))?);
    }
    Ok(Comparison {
        k,
        floors,
        files: out,
    })
}

/// The files of `file` [`check_file`] compares: the officers' floor's and
/// the soldiers' floor's (either may be missing), the exact one, and the
/// tiers the floor files hold.
type Opened = (Option<Table>, Option<Table>, Table, Vec<TierKey>);

/// Open the floor files of `file` under `dir` and the exact one, checked
/// to be what their folders say, the two floors' holding the same tiers.
fn open_files(
    dir: &Path,
    variant: &Variant,
    floors: &[Floor],
    file: FileKey,
) -> Result<Opened, BracketError> {
    let mut lower = None;
    let mut upper = None;
    for f in floors {
        let path = table_path(&Floor::dir_under(dir, Some(*f)), variant, file);
        if path.exists() {
            let t = open_checked(&path, Some(&variant.slug()), Some(file), Some(*f))?;
            match f.assume() {
                Assume::Officers => lower = Some(t),
                Assume::Soldiers => upper = Some(t),
            }
        }
    }
    let first = lower.as_ref().or(upper.as_ref()).expect("a floor file");
    let keys = first.tier_keys()?;
    if let (Some(a), Some(b)) = (&lower, &upper)
        && a.tier_keys()? != b.tier_keys()?
    {
        return Err(BracketError::DifferentTiers { file });
    }
    let exact_path = table_path(dir, variant, file);
    if !exact_path.exists() {
        return Err(BracketError::NoExactFile {
            floor_file: first.path().to_path_buf(),
            exact: exact_path,
        });
    }
    let exact = open_checked(&exact_path, Some(&variant.slug()), Some(file), None)?;
    Ok((lower, upper, exact, keys))
}

/// The counts of one tier of `file`: its exact codes `real` against the
/// floors' `lo` and `hi` (a missing floor leaves its end open).
fn compare_tier(
    file: FileKey,
    key: &TierKey,
    real: &[u16],
    lo: Option<&[u16]>,
    hi: Option<&[u16]>,
) -> FileBracket {
    let mut r = FileBracket::empty(file);
    r.tiers = 1;
    let half = (real.len() / 2).max(1);
    for i in 0..real.len() {
        let side = i / half;
        let x = soldiers(side, real[i]);
        let l = lo.map_or(-1, |c| soldiers(side, c[i]));
        let u = hi.map_or(1, |c| soldiers(side, c[i]));
        r.positions += 1;
        if l == u {
            r.decided += 1;
            r.soldiers_win += u64::from(l == 1);
            r.officers_win += u64::from(u == -1);
        }
        if !(l <= x && x <= u) {
            r.outside += 1;
            if r.first_outside.is_none() {
                r.first_outside = Some(Outside {
                    position: crate::index::position_at(key, i as u32).to_string(),
                    real: x,
                    lower: l,
                    upper: u,
                });
            }
        }
    }
    r
}

impl FileBracket {
    /// Nothing counted yet.
    fn empty(file: FileKey) -> FileBracket {
        FileBracket {
            file,
            tiers: 0,
            positions: 0,
            decided: 0,
            soldiers_win: 0,
            officers_win: 0,
            outside: 0,
            first_outside: None,
        }
    }

    /// The counts of `self` and `other` together (`self` first).
    fn add(self, other: FileBracket) -> FileBracket {
        FileBracket {
            file: self.file,
            tiers: self.tiers + other.tiers,
            positions: self.positions + other.positions,
            decided: self.decided + other.decided,
            soldiers_win: self.soldiers_win + other.soldiers_win,
            officers_win: self.officers_win + other.officers_win,
            outside: self.outside + other.outside,
            first_outside: self.first_outside.or(other.first_outside),
        }
    }
}

/// [`check`] of one file.
fn check_file(
    dir: &Path,
    variant: &Variant,
    floors: &[Floor],
    file: FileKey,
    observer: &dyn Observer,
) -> Result<FileBracket, BracketError> {
    let (lower, upper, exact, keys) = open_files(dir, variant, floors, file)?;
    let total: u64 = keys.iter().map(|t| t.size()).sum();
    let step = format!("{variant} {file}");
    let done = AtomicU64::new(0);
    let tiers_done = AtomicUsize::new(0);
    let throttle = Throttle::new(Throttle::PERIOD);
    let report = |d: u64, t: usize| {
        throttle.report(
            observer,
            &Progress {
                step: &step,
                done: d,
                total,
                tiers_done: t,
                tiers_total: keys.len(),
            },
        );
    };
    report(0, 0);
    let read = |t: &Table, key: &TierKey| -> Result<std::sync::Arc<[u16]>, BracketError> {
        t.tier(key)?.ok_or_else(|| BracketError::MissingTier {
            file,
            tier: *key,
            path: t.path().to_path_buf(),
        })
    };
    let result = keys
        .par_iter()
        .map(|key| -> Result<FileBracket, BracketError> {
            let real = read(&exact, key)?;
            let lo = lower.as_ref().map(|t| read(t, key)).transpose()?;
            let hi = upper.as_ref().map(|t| read(t, key)).transpose()?;
            let r = compare_tier(file, key, &real, lo.as_deref(), hi.as_deref());
            let d = done.fetch_add(key.size(), Ordering::Relaxed) + key.size();
            let t = tiers_done.fetch_add(1, Ordering::Relaxed) + 1;
            report(d, t);
            Ok(r)
        })
        .try_reduce(|| FileBracket::empty(file), |a, b| Ok(a.add(b)))?;
    report(total, keys.len());
    Ok(result)
}
