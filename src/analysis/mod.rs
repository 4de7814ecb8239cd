//! Variant-balance statistics from built tables (docs/DESIGN.md section 1,
//! the users' third job): who wins how often under each rule variant, the longest forced
//! wins, the *critical mass* of soldiers, and how much one rule switch
//! changes the values.
//!
//! Everything here is computed **from the table files** (nothing is solved
//! again) into plain serde-serialisable structs ([`Report`]), then rendered
//! into the files of a report folder ([`render`]: Markdown, JSON, CSV and
//! SVG plots) as strings. Nothing here prints or writes files; the
//! `asalto report` command does.
//!
//! # What the numbers count
//!
//! Tables store only *canonical* tiers (a tier whose soldiers outside the
//! fortress are not larger than their mirror image, see [`crate::index`]).
//! Two counts are given for every population:
//!
//! * **stored**: positions stored in the tables, after the mirror (the sums
//!   equal the table headers' counts);
//! * **positions**: every position those tiers stand for, mirror images
//!   counted: a stored position of a tier that is not its own mirror image
//!   counts twice (its mirror image lies in the mirrored tier, which is not
//!   stored), one of a self-mirror tier once (both images are stored).
//!
//! Shares are taken over *positions*. Win, draw and loss are for the side
//! to move, with best play (docs/RULES.md section 8). Positions whose game is
//! already over (fewer than 9 soldiers, fortress full, no officer) are in
//! no table and in no count; stored positions never carry huff rights.
//!
//! On partial tables (built with `asalto build --for`) every number covers
//! the tiers present only, and the report says so.
//!
//! ```no_run
//! use asalto_tb::analysis::{self, Request};
//! use asalto_tb::Variant;
//! let req = Request::new("tables", vec![Variant::ASSAUT, Variant::ASALTO], 9, 10);
//! let report = analysis::analyse(&req, &asalto_tb::progress::Quiet).unwrap();
//! for file in analysis::render(&report).unwrap() {
//!     std::fs::write(file.name, file.contents).unwrap();
//! }
//! ```

mod bounds;
mod critical;
mod merge;
mod plots;
mod report;
mod sensitivity;
mod stats;

pub use bounds::{
    BoundRow, FloorBounds, PlacementBound, VariantBounds, floor_bounds, render_bounds,
};
pub(crate) use critical::FORMATION_RULE;
pub use critical::{
    CriticalMass, CriticalMassSection, CriticalRow, PlacementValue, critical_mass, formation,
    formation_closure, formation_position, placements,
};
pub use merge::{MergedSource, UncomparedPair};
pub use report::{OutputFile, render, summary_text};
pub(crate) use sensitivity::sensitivity;
pub use sensitivity::{DiffCounts, Pair, PairTable, Sensitivity};
pub(crate) use stats::complete_tiers;
pub use stats::{Example, Population, TableStats, WdlCounts, table_stats};

use crate::index::FileKey;
use crate::progress::Observer;
use crate::rules::Variant;
use crate::solve::SolveError;
use crate::table::{TableError, TableSet, table_path};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What to report on.
#[derive(Clone, Debug)]
pub struct Request {
    /// The folder of table files.
    pub(crate) tables: PathBuf,
    /// The variants, in report order.
    pub(crate) variants: Vec<Variant>,
    /// Fewest soldiers.
    pub(crate) k_min: u8,
    /// Most soldiers.
    pub(crate) k_max: u8,
    /// Report over the tables present when some are missing (listing the
    /// missing ones) instead of failing.
    pub allow_missing: bool,
    /// Worker threads (0 = one per core). Results do not depend on it.
    pub threads: usize,
}

impl Request {
    /// A request for `variants` with `k_min..=k_max` soldiers over the tables
    /// under `tables`, failing on missing tables, all cores.
    pub fn new(tables: impl Into<PathBuf>, variants: Vec<Variant>, k_min: u8, k_max: u8) -> Self {
        Request {
            tables: tables.into(),
            variants,
            k_min,
            k_max,
            allow_missing: false,
            threads: 0,
        }
    }
}

/// Why an analysis failed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Table files the report needs are missing.
    #[error("missing tables: {} (build them with `asalto build`, or pass --build)", list_paths(.0))]
    Missing(Vec<PathBuf>),
    /// A table file is unsound.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Reading values failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The request names no variant.
    #[error("no variant to report on")]
    NoVariants,
    /// The soldier range asked for is not within `9..=24`.
    #[error("soldiers must be a range within 9..=24, not {k_min}..={k_max}")]
    Soldiers {
        /// The fewest soldiers asked for.
        k_min: u8,
        /// The most soldiers asked for.
        k_max: u8,
    },
    /// No table of the request is under the folder.
    #[error("no table to report on under {}", .0.display())]
    NoTables(PathBuf),
    /// A tier a table's directory lists cannot be read from it.
    #[error("{}: tier {outside:#x} listed but not readable", path.display())]
    Unreadable {
        /// The table file.
        path: PathBuf,
        /// The tier's soldiers outside the fortress.
        outside: u64,
    },
    /// A CSV file of the report could not be written.
    #[error("cannot write {name}: {error}")]
    Csv {
        /// The file's name.
        name: &'static str,
        /// What went wrong.
        error: csv::Error,
    },
    /// A plot could not be drawn.
    #[error("cannot draw plot {name}: {why}")]
    Plot {
        /// The plot's file name.
        name: String,
        /// What went wrong.
        why: String,
    },
    /// A `report.json` read back is not one this version writes.
    #[error("not a report.json of this asalto-tb version: {0}")]
    BadReport(String),
    /// No floor file of the variant above the floor under the folder.
    #[error(
        "no floor files of {variant} at {floor} under {}: neither floor-{floor}-officers/ nor floor-{floor}-soldiers/ holds the variant (build them with asalto build --floor {floor} --assume officers|soldiers)",
        dir.display()
    )]
    NoFloorFiles {
        /// The tables folder.
        dir: PathBuf,
        /// The variant.
        variant: String,
        /// The floor.
        floor: u8,
    },
    /// Report folders that cannot be put into one report.
    #[error("cannot merge the reports: {0}")]
    Unmergeable(String),
}

fn list_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A variant as described in a report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct VariantSummary {
    /// Its name: the preset name or the switch list.
    pub(crate) name: String,
    /// Its folder name under the tables folder.
    pub(crate) slug: String,
    /// Soldier rule.
    pub(crate) soldiers: String,
    /// Capture rule.
    pub(crate) capture: String,
    /// `on` or `off`.
    pub(crate) max: String,
    /// Trapped rule.
    pub(crate) trapped: String,
    /// The rule sheet of a preset.
    pub(crate) source: Option<String>,
}

impl VariantSummary {
    /// The summary of `v`.
    pub(crate) fn of(v: &Variant) -> VariantSummary {
        VariantSummary {
            name: v.to_string(),
            slug: v.slug(),
            soldiers: v.soldiers.name().to_string(),
            capture: v.capture.name().to_string(),
            max: if v.max { "on" } else { "off" }.to_string(),
            trapped: v.trapped.name().to_string(),
            source: Variant::PRESETS
                .iter()
                .find(|(_, p, _)| p == v)
                .map(|(_, _, s)| s.to_string()),
        }
    }
}

/// A term of the report and what it means.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Definition {
    /// The term, as used in column names.
    pub(crate) term: String,
    /// What it counts or means.
    pub(crate) meaning: String,
}

/// A variant-balance report: every number the report files show.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// The version of `asalto-tb` that made the report.
    pub(crate) tool_version: String,
    /// The folder of table files read.
    pub(crate) tables_dir: String,
    /// Fewest soldiers asked for.
    pub(crate) soldiers_min: u8,
    /// Most soldiers asked for.
    pub(crate) soldiers_max: u8,
    /// The variants, in report order.
    pub(crate) variants: Vec<VariantSummary>,
    /// Whether some table read holds only part of its tiers (built with
    /// `asalto build --for`) or some table is missing: then every number
    /// covers the tiers present only.
    pub partial: bool,
    /// Table files asked for but missing (only with
    /// [`Request::allow_missing`]).
    pub(crate) missing_tables: Vec<String>,
    /// What the terms and counts mean.
    pub(crate) definitions: Vec<Definition>,
    /// Statistics of each table read, by variant, soldiers, officers.
    pub(crate) tables: Vec<TableStats>,
    /// Critical mass of soldiers, per variant.
    pub critical_mass: CriticalMassSection,
    /// How much each rule switch changes the values (when more than one
    /// variant is reported).
    pub sensitivity: Option<Sensitivity>,
    /// The report folders a merged report copied its numbers from
    /// ([`Report::merge`]); empty (and absent from report.json) for a
    /// report made from the tables.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) merged_from: Vec<MergedSource>,
    /// Pairs of variants of a merged report differing in one switch that
    /// no source folder compared (they came from different folders).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) uncompared: Vec<UncomparedPair>,
}

impl Report {
    /// A report read back from the `report.json` of a report folder, to
    /// draw its plots and write its other files again without the tables
    /// (`asalto report --from`): [`render`] of it writes the same numbers.
    pub fn from_json(text: &str) -> Result<Report, AnalysisError> {
        let mut r: Report =
            serde_json::from_str(text).map_err(|e| AnalysisError::BadReport(e.to_string()))?;
        // The crossovers follow from the rows (older reports lack some).
        for c in &mut r.critical_mass.variants {
            let rows = std::mem::take(&mut c.rows);
            let missing = std::mem::take(&mut c.missing_k);
            *c = CriticalMass::of_rows(std::mem::take(&mut c.variant), rows, missing);
        }
        Ok(r)
    }

    /// The statistics of one table file, if it was read.
    pub fn table(&self, variant: &str, file: FileKey) -> Option<&TableStats> {
        self.tables
            .iter()
            .find(|t| t.variant == variant && FileKey::new(t.n, t.k) == file)
    }
}

/// The table files `(variant, n, k)` of a request that do not exist, in
/// report order. One-officer files of a variant without huffs
/// (`capture=mandatory` or `free`) are not missing when absent: no
/// position with two officers ever leads to one officer there, so a
/// closure build (`asalto build --for`) never makes them.
pub fn missing_tables(dir: &Path, variants: &[Variant], k_min: u8, k_max: u8) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for v in variants {
        for k in k_min..=k_max {
            for n in 1..=2u8 {
                if n == 1 && !v.huffs() {
                    continue;
                }
                let p = table_path(dir, v, FileKey::new(n, k));
                if !p.is_file() {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The definitions printed with every report.
fn definitions() -> Vec<Definition> {
    let d = |term: &str, meaning: &str| Definition {
        term: term.to_string(),
        meaning: meaning.to_string(),
    };
    vec![
        d(
            "stored",
            "positions stored in the tables, after the mirror: only canonical tiers (soldiers outside the fortress not larger than their mirror image) are stored; sums equal the table headers' counts",
        ),
        d(
            "positions",
            "every position the stored tiers stand for, mirror images counted: a stored position of a tier that is not its own mirror image counts twice, one of a self-mirror tier once",
        ),
        d(
            "win / draw / loss",
            "the game-theoretic result for the side to move with best play (docs/RULES.md section 8); shares (%) are taken over 'positions'",
        ),
        d(
            "officers to move / soldiers to move",
            "the positions of a table with that side to move (every stored position, any placement of the pieces)",
        ),
        d(
            "natural",
            "two officers, both inside the fortress, soldiers to move, no huff rights (stored positions never carry huff rights); the result is the soldiers'",
        ),
        d(
            "plies",
            "one player's turn (a huff and the move after it count as one ply); a longest win is the largest distance to the end among positions won by the side to move, a longest loss the largest among positions it loses",
        ),
        d("critical mass", FORMATION_RULE),
        d(
            "rule sensitivity",
            "for two variants that differ in exactly one switch: the share of positions (of the tiers stored in both tables, both sides to move, mirror images counted) whose win/draw/loss differs; 'toward soldiers' counts positions where the second variant is better for the soldiers",
        ),
    ]
}

/// Compute a report from the tables of a request. `progress` is told, from
/// worker threads, of the positions read in each step (a table counted,
/// two tables compared; [`Progress::step`](crate::progress::Progress::step)
/// names it).
pub fn analyse(req: &Request, progress: &dyn Observer) -> Result<Report, AnalysisError> {
    if req.variants.is_empty() {
        return Err(AnalysisError::NoVariants);
    }
    if req.k_min < 9 || req.k_max > 24 || req.k_min > req.k_max {
        return Err(AnalysisError::Soldiers {
            k_min: req.k_min,
            k_max: req.k_max,
        });
    }
    let mut variants = req.variants.clone();
    let mut seen = std::collections::HashSet::new();
    variants.retain(|v| seen.insert(*v));
    let missing = missing_tables(&req.tables, &variants, req.k_min, req.k_max);
    if !missing.is_empty() && !req.allow_missing {
        return Err(AnalysisError::Missing(missing));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(req.threads)
        .build()
        .map_err(|_| SolveError::Threads(req.threads))?;
    let sets: Vec<TableSet> = variants
        .iter()
        .map(|v| TableSet::open(&req.tables, v))
        .collect();

    let mut tables = Vec::new();
    for set in &sets {
        for k in req.k_min..=req.k_max {
            for n in 1..=2u8 {
                if let Some(t) = set.table(FileKey::new(n, k))? {
                    tables.push(pool.install(|| table_stats(&t, progress))?);
                }
            }
        }
    }
    if tables.is_empty() {
        return Err(AnalysisError::NoTables(req.tables.clone()));
    }
    let mut critical = Vec::new();
    for set in &sets {
        critical.push(critical_mass(set, req.k_min, req.k_max)?);
    }
    let sens = if variants.len() > 1 {
        Some(pool.install(|| sensitivity(&sets, req.k_min, req.k_max, progress))?)
    } else {
        None
    };
    let partial = !missing.is_empty() || tables.iter().any(|t| !t.complete);
    Ok(Report {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        tables_dir: req.tables.display().to_string(),
        soldiers_min: req.k_min,
        soldiers_max: req.k_max,
        variants: variants.iter().map(VariantSummary::of).collect(),
        partial,
        missing_tables: missing.iter().map(|p| p.display().to_string()).collect(),
        definitions: definitions(),
        tables,
        critical_mass: CriticalMassSection {
            rule: FORMATION_RULE.to_string(),
            variants: critical,
        },
        sensitivity: sens,
        merged_from: Vec::new(),
        uncompared: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Quiet;

    #[test]
    fn bad_requests_are_typed_errors() {
        let dir = std::env::temp_dir().join("asalto-tb-no-such-folder-for-a-report");
        let e = analyse(&Request::new(&dir, vec![], 9, 9), &Quiet).unwrap_err();
        assert!(matches!(e, AnalysisError::NoVariants), "{e}");
        for (lo, hi) in [(8, 9), (9, 25), (10, 9)] {
            let e =
                analyse(&Request::new(&dir, vec![Variant::ASSAUT], lo, hi), &Quiet).unwrap_err();
            assert!(
                matches!(e, AnalysisError::Soldiers { k_min, k_max } if (k_min, k_max) == (lo, hi)),
                "{e}"
            );
        }
        let mut req = Request::new(&dir, vec![Variant::ASSAUT], 9, 9);
        req.allow_missing = true;
        let e = analyse(&req, &Quiet).unwrap_err();
        assert!(matches!(&e, AnalysisError::NoTables(d) if *d == dir), "{e}");
        assert!(e.to_string().starts_with("no table to report on under "));
    }
}
