//! Build plans: what a build would need and cost, without solving.
//!
//! A plan lists the table files a build writes (complete files for a range
//! of soldier counts, or the tiers of one position's closure), with their
//! tiers and positions counted exactly, and turns them into estimates of
//! disk, memory and time:
//!
//! * **positions**: complete files are counted in closed form
//!   (`index::complete_positions`); a closure is counted by a walk over
//!   all tiers held as bits (one bit per tier, 64 MiB), so even the start
//!   position's closure, the whole game, is counted without listing its
//!   tiers (`closure_counts`);
//! * **disk**: bits per position measured on built tables (`MEASURED`,
//!   from the records under `scripts/bench-runs/`), per officer count, at
//!   the nearest measured soldier count;
//! * **memory**: each file's window of solved tiers, counted exactly over
//!   the tiers the build puts in it (a complete file's by level,
//!   `complete_window_bytes`; a closure's by the same walk that counts
//!   it), and what its build needs besides it ([`FilePlan::need`]);
//! * **time**: file by file, at the rate of its soldier count: the level
//!   samples of the newest bench record ([`LEVEL_RATES`]: the bit-set
//!   solver for WDL-only builds, the position solver for builds with
//!   distances, the check for verify; one thread, in memory) times what
//!   a real build showed over them (a closure's WDL-only build,
//!   [`WDL_BUILD_OVER_SAMPLE`]; the same record's build with distances,
//!   [`BUILD_OVER_SAMPLE`]) and a real verify of a closure's files
//!   ([`VERIFY_OVER_SAMPLE`]), run at the bench's commit or carried to it
//!   by an A/B of the same closure ([`FACTORS_CARRIED_BY`]), times the bench cores
//!   this machine's threads
//!   are worth: a short calibration solve ([`calibrate`]) or the caller's
//!   rate over the record's ([`cores_worth`]).
//!
//! Everything here is an estimate and says where its figures come from.

use crate::board;
use crate::budget::Need;
use crate::index::{self, FileKey, SETS, TierBits, TierKey, binom, file_slot as slot};
use crate::position::Position;
use crate::rules::Variant;
use crate::solve::SolveError;
use crate::table::{self, WriteOptions};
use std::collections::{HashMap, HashSet};
use std::path::Path;

pub use crate::progress::{human_bytes, human_duration};

mod count;
mod estimate;
pub(crate) use count::{closure_counts, complete_window_bytes};
pub use estimate::{
    BENCH_RATE_PER_CORE, BENCH_SPEEDUP_2_THREADS, BUILD_OVER_SAMPLE, CALIBRATION_POSITION,
    DISK_BASIS, FACTORS_CARRIED_BY, LEVEL_RATES, LEVEL_RATES_SOURCE, LevelRate, Rate,
    VERIFY_OVER_SAMPLE, VERIFY_OVER_SAMPLE_SOURCE, WDL_BUILD_OVER_SAMPLE,
    WDL_BUILD_OVER_SAMPLE_SOURCE, bench_rate, build_core_seconds, calibrate, cores_worth,
    disk_bytes, level_rate, verify_core_seconds,
};

/// What went wrong making a plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Soldier counts outside 9..=24 or in the wrong order.
    #[error("soldiers must be a range within 9..=24, not {0}..={1}")]
    Range(u8, u8),
    /// The game is over in the position: it needs no tables.
    #[error("the game is over in {0}: it needs no tables")]
    GameOver(Position),
    /// The calibration solve failed.
    #[error("calibration solve failed: {0}")]
    Calibration(#[from] SolveError),
}

/// One table file of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilePlan {
    /// The file: officers (1 or 2) and soldiers (9..=24).
    pub file: FileKey,
    /// Canonical tiers the build puts in it.
    pub tiers: u64,
    /// Positions stored in it (both sides to move).
    pub positions: u64,
    /// Whether these are all the file's tiers (a complete table).
    pub complete: bool,
    /// Whether a complete table of the file is already there, so a build
    /// skips it ([`Plan::mark_built`]).
    pub built: bool,
    /// A checkpoint of an unfinished build of this file, found beside it
    /// ([`Plan::mark_built`]).
    pub checkpoint: Option<Checkpointed>,
    /// The most bytes its build's window of solved tiers holds when the
    /// memory budget does not bind, for a build of its kind
    /// (`FilePlan::wdl_only`): `windows` of that kind.
    pub window_bytes: u64,
    /// That window for each kind of build, over the tiers the build puts
    /// in the file (for a partial file, the closure's own tiers).
    pub windows: Windows,
    /// Whether the build is WDL-only (`build --wdl-only`, [`Plan::wdl_only`]):
    /// its window holds two bits a value instead of a byte.
    pub(crate) wdl_only: bool,
}

/// The most bytes the window of solved tiers of a file's build holds when
/// the memory budget does not bind ([`crate::build::window_peak_bytes`] of
/// the file's tiers), for each kind of build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Windows {
    /// A build with distances: a byte a value.
    pub with_distances: u64,
    /// A WDL-only build: two bits a value.
    pub wdl_only: u64,
}

impl Windows {
    /// The window of the complete file `file` (`complete_window_bytes`).
    pub fn complete(variant: &Variant, file: FileKey) -> Windows {
        Windows {
            with_distances: complete_window_bytes(variant, file, false),
            wdl_only: complete_window_bytes(variant, file, true),
        }
    }

    /// The window of a build WDL-only when `wdl_only`, else with distances.
    pub fn of_kind(&self, wdl_only: bool) -> u64 {
        if wdl_only {
            self.wdl_only
        } else {
            self.with_distances
        }
    }
}

impl FilePlan {
    /// The file planned.
    pub fn file(&self) -> FileKey {
        self.file
    }

    /// Bytes its build needs besides the window
    /// ([`crate::build::bytes_besides_window`], default block sizes).
    pub fn besides_window_bytes(&self) -> u64 {
        crate::build::bytes_besides_window(
            self.tiers,
            self.positions,
            &crate::table::WriteOptions::of_kind(self.wdl_only),
        )
    }

    /// What its build asks of the memory budget: its bytes besides the
    /// window and its window ([`crate::budget::MemoryBudget::share`]).
    pub fn need(&self) -> Need {
        Need {
            file: self.file(),
            besides_window: self.besides_window_bytes(),
            window: self.window_bytes,
        }
    }
}

/// A checkpoint of an unfinished build of a planned file: a build of its
/// kind takes it up instead of starting the file again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpointed {
    /// Positions of the file it holds.
    pub positions_done: u64,
    /// Whether it is of a WDL-only build (`build --wdl-only`; only such a
    /// build takes it up, and only a build with distances takes up one
    /// that is not).
    pub wdl_only: bool,
}

/// What a plan covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Complete files with these soldier counts (one and two officers).
    Soldiers(u8, u8),
    /// The tiers one position and its moves need.
    Closure(Position),
}

/// The files a build writes, counted.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The variant.
    pub(crate) variant: Variant,
    /// What the plan covers.
    pub scope: Scope,
    /// The files in build order (`k` ascending, one officer first).
    pub files: Vec<FilePlan>,
}

impl Plan {
    /// The plan above `floor` (`build --floor`): its files with fewer
    /// soldiers dropped.
    pub fn above_floor(mut self, floor: Option<crate::solve::Floor>) -> Plan {
        if let Some(f) = floor {
            self.files.retain(|x| x.file.k >= f.k());
        }
        self
    }

    /// The plan of the same files built WDL-only (`build --wdl-only`) when
    /// `wdl_only`: each file's window at two bits a value, and what its
    /// build needs besides, for such a build.
    pub fn wdl_only(mut self, wdl_only: bool) -> Plan {
        for f in &mut self.files {
            f.wdl_only = wdl_only;
            f.window_bytes = f.windows.of_kind(wdl_only);
        }
        self
    }

    /// Tiers in all files.
    pub fn tiers(&self) -> u64 {
        self.files.iter().map(|f| f.tiers).sum()
    }

    /// Positions in all files.
    pub fn positions(&self) -> u64 {
        self.files.iter().map(|f| f.positions).sum()
    }

    /// Mark the files already built under `dir`, which a build skips: a
    /// table of the variant and material is there, of a kind the build
    /// takes (with distances, or WDL-only for a WDL-only build), holding
    /// every tier the build puts in the file (a complete file: all its
    /// tiers; a partial one, of a closure: the closure's tiers of it). A
    /// partial table there, for a plan of complete files, counts as not
    /// built. Note the checkpoints of the others: one that reads back and
    /// is of the same variant, material, tiers and positions
    /// ([`Checkpointed`]; a build checks more: the exact tiers and write
    /// options, and every block written).
    pub fn mark_built(&mut self, dir: &Path) {
        let path = |f: &FilePlan| crate::table::table_path(dir, &self.variant, f.file());
        // The tables there, of the variant and material of their file.
        let tables: Vec<Option<crate::table::Table>> = self
            .files
            .iter()
            .map(|f| {
                crate::table::Table::open(&path(f)).ok().filter(|t| {
                    let i = t.info();
                    i.variant == self.variant && i.file == f.file
                })
            })
            .collect();
        // The closure's tiers of its partial files, listed only when a
        // table of one of them is there.
        let partial_there = self
            .files
            .iter()
            .zip(&tables)
            .any(|(f, t)| !f.complete && t.is_some());
        let needed = match self.scope {
            Scope::Closure(pos) if partial_there => self.partial_tiers(&pos),
            _ => HashMap::new(),
        };
        for (f, table) in self.files.iter_mut().zip(tables) {
            f.built = table.is_some_and(|t| {
                let i = t.info();
                let kind = !i.wdl_only || f.wdl_only;
                let holds = if f.complete {
                    i.tiers == index::complete_tiers(f.file.k)
                } else {
                    t.tier_keys().is_ok_and(|have| {
                        let have: HashSet<TierKey> = have.into_iter().collect();
                        let own = needed.get(&f.file()).map_or(&[][..], |v| &v[..]);
                        own.iter().all(|t| have.contains(t))
                    })
                };
                kind && holds
            });
            f.checkpoint = None;
            if f.built {
                continue;
            }
            let table = crate::table::table_path(dir, &self.variant, f.file());
            if let Ok(Some(saved)) = crate::build::Saved::of_table(&table)
                && saved.variant == self.variant.to_string()
                && (saved.file, saved.tiers, saved.positions) == (f.file, f.tiers, f.positions)
            {
                f.checkpoint = Some(Checkpointed {
                    positions_done: saved.positions_done,
                    wdl_only: saved.wdl_only,
                });
            }
        }
    }

    /// The canonical tiers of the closure of `pos` in the plan's partial
    /// files, listed ([`index::closure_within`]) by file: the complete
    /// files, and what lies below them (complete too), are left out.
    fn partial_tiers(&self, pos: &Position) -> HashMap<FileKey, Vec<TierKey>> {
        let complete: HashSet<FileKey> = self
            .files
            .iter()
            .filter(|f| f.complete)
            .map(|f| f.file())
            .collect();
        let roots = crate::ondemand::roots(pos, &self.variant);
        index::closure_within(
            &roots,
            &self.variant,
            |t| complete.contains(&t.file()),
            u64::MAX,
        )
        .unwrap_or_default()
        .into_iter()
        .fold(HashMap::new(), |mut by_file, t| {
            by_file.entry(t.file()).or_insert_with(Vec::new).push(t);
            by_file
        })
    }

    /// What the build of the files not yet built asks of the memory
    /// budget at least: the need of the file whose build starts with the
    /// most ([`Need::least`]; the build refuses a smaller budget); `None`
    /// when nothing is left to build.
    pub fn neediest(&self) -> Option<Need> {
        self.files
            .iter()
            .filter(|f| !f.built)
            .map(FilePlan::need)
            .max_by_key(Need::least)
    }

    /// The files a build would write (those not built).
    pub fn to_build(&self) -> Vec<FilePlan> {
        self.files.iter().filter(|f| !f.built).copied().collect()
    }

    /// What building the files not yet built would take.
    pub fn estimate(&self) -> Estimate {
        let todo = self.to_build();
        let (disk_bytes, disk_bytes_wdl_only) = disk_bytes(&todo);
        Estimate {
            files: todo.len(),
            tiers: todo.iter().map(|f| f.tiers).sum(),
            positions: todo.iter().map(|f| f.positions).sum(),
            checkpointed_positions: todo
                .iter()
                .filter_map(|f| f.checkpoint)
                .map(|c| c.positions_done)
                .sum(),
            build_core_seconds: todo
                .iter()
                .map(|f| {
                    let done = f.checkpoint.map_or(0, |c| c.positions_done);
                    build_core_seconds(f.file.soldiers(), f.positions - done, f.wdl_only)
                })
                .sum(),
            disk_bytes,
            disk_bytes_wdl_only,
        }
    }

    /// Estimated seconds to verify every file of the plan (built already
    /// or not), WDL-only, on a machine whose calibration solves `rate`
    /// positions per second ([`verify_core_seconds`] by file, over
    /// [`cores_worth`]).
    pub fn verify_seconds(&self, rate: f64) -> f64 {
        let core_seconds: f64 = self
            .files
            .iter()
            .map(|f| verify_core_seconds(f.file.soldiers(), f.positions))
            .sum();
        core_seconds / cores_worth(rate)
    }
}

/// What a build would take: the files not built yet, counted, and their
/// estimated disk ([`disk_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Files to write.
    pub files: usize,
    /// Their tiers.
    pub(crate) tiers: u64,
    /// Their positions.
    pub positions: u64,
    /// Of them, those the files' checkpoints hold (see
    /// [`Checkpointed`]): a build of the checkpoints' kind does not solve
    /// them again.
    pub checkpointed_positions: u64,
    /// Estimated bytes on disk with distances.
    pub disk_bytes: u64,
    /// Estimated bytes on disk, win/draw/loss only.
    pub disk_bytes_wdl_only: u64,
    /// Seconds one core of the bench record's machine takes to build the
    /// positions left, file by file at its soldier count's rate
    /// ([`build_core_seconds`]).
    pub build_core_seconds: f64,
}

impl Estimate {
    /// Estimated seconds to build the positions left (those the
    /// checkpoints hold are not solved again) on a machine whose
    /// calibration solves `rate` positions per second in memory
    /// ([`calibrate`], or `--rate`): [`Estimate::build_core_seconds`]
    /// over the bench cores it is worth ([`cores_worth`]).
    pub fn seconds(&self, rate: f64) -> f64 {
        self.build_core_seconds / cores_worth(rate)
    }
}

/// The plan of `asalto build --soldiers k_min..=k_max`: every file with one
/// and with two officers, complete.
pub fn complete(variant: &Variant, k_min: u8, k_max: u8) -> Result<Plan, PlanError> {
    if k_min < 9 || k_max > 24 || k_min > k_max {
        return Err(PlanError::Range(k_min, k_max));
    }
    let files = (k_min..=k_max)
        .flat_map(|k| [1u8, 2].map(|n| (n, k)))
        .map(|(n, k)| {
            let windows = Windows::complete(variant, FileKey::new(n, k));
            FilePlan {
                file: FileKey::new(n, k),
                tiers: index::complete_tiers(k),
                positions: index::complete_positions(FileKey::new(n, k)),
                complete: true,
                built: false,
                checkpoint: None,
                window_bytes: windows.with_distances,
                windows,
                wdl_only: false,
            }
        })
        .collect();
    Ok(Plan {
        variant: *variant,
        scope: Scope::Soldiers(k_min, k_max),
        files,
    })
}

/// The plan of `asalto build --for POSITION`: the closure of the tiers the
/// position and its moves read (`ondemand::roots`).
pub fn for_position(variant: &Variant, pos: &Position) -> Result<Plan, PlanError> {
    let roots = crate::ondemand::roots(pos, variant);
    if roots.is_empty() {
        return Err(PlanError::GameOver(*pos));
    }
    let counts = closure_counts(&roots, variant);
    let files = counts
        .into_iter()
        .map(|c| FilePlan {
            complete: c.tiers == index::complete_tiers(c.file.k),
            file: c.file,
            tiers: c.tiers,
            positions: c.positions,
            built: false,
            checkpoint: None,
            window_bytes: c.windows.with_distances,
            windows: c.windows,
            wdl_only: false,
        })
        .collect();
    Ok(Plan {
        variant: *variant,
        scope: Scope::Closure(*pos),
        files,
    })
}

/// Free bytes on the file system of `dir`, or of its nearest existing
/// ancestor when it does not exist yet.
pub fn free_bytes(dir: &Path) -> std::io::Result<u64> {
    let mut at = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    while !at.exists() {
        match at.parent() {
            Some(p) if !p.as_os_str().is_empty() => at = p,
            _ => {
                at = Path::new(".");
                break;
            }
        }
    }
    fs4::available_space(at)
}

/// One line: the files to build, their positions and disk (for `asalto
/// build` and the refusal of a query that needs too much, [`refusal`]).
pub fn summary_line(plan: &Plan) -> String {
    let e = plan.estimate();
    let names: Vec<String> = plan.to_build().iter().map(|f| f.file.to_string()).collect();
    let shown = if names.len() > 6 {
        format!(
            "{} .. {}",
            names[..3].join(", "),
            names[names.len() - 2..].join(", ")
        )
    } else {
        names.join(", ")
    };
    format!(
        "{} file{} ({shown}), {} tiers, {} positions ({:.3e}), about {} on disk ({} without distances)",
        e.files,
        if e.files == 1 { "" } else { "s" },
        e.tiers,
        e.positions,
        e.positions as f64,
        human_bytes(e.disk_bytes),
        human_bytes(e.disk_bytes_wdl_only),
    )
}

/// The one-line refusal of a query or solve of `pos` whose tiers hold
/// more than `limit` positions to solve in memory (what `asalto query`
/// prints and `asalto serve` answers): what its tables would cost instead,
/// the tables already built under `tables` left out, the time of a
/// WDL-only build and verify at the bench machine's rate with `threads`
/// threads (0: one per core, [`bench_rate`]), and the commands that plan
/// and build them.
pub fn refusal(
    pos: &Position,
    variant: &Variant,
    limit: u64,
    tables: Option<&Path>,
    threads: usize,
) -> String {
    let quoted = format!("'{pos}'");
    let head = format!("valuing {pos} needs more than {limit} positions solved in memory");
    let Ok(mut the_plan) = for_position(variant, pos) else {
        return head;
    };
    if let Some(dir) = tables {
        the_plan.mark_built(dir);
    }
    let cores = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    // The bench machine's rate with as many threads, as written: `asalto
    // plan --rate` with the figure it names gives the same times.
    let rate = format!("{:.3e}", bench_rate(cores));
    let rate_f: f64 = rate.parse().expect("a formatted number");
    let the_plan = the_plan.wdl_only(true);
    let seconds = the_plan.estimate().seconds(rate_f);
    let verify = the_plan.verify_seconds(rate_f);
    format!(
        "{head}; its tables instead: {}, WDL-only about {} to build and {} to verify on {cores} core{} at the rates of {LEVEL_RATES_SOURCE} (per soldier count; asalto plan --for {quoted} --variant {variant} --wdl-only --rate {rate} gives the details at those rates, without --rate at this machine's measured speed; asalto build --for {quoted} --variant {variant} --wdl-only builds them)",
        summary_line(&the_plan),
        human_duration(seconds),
        human_duration(verify),
        if cores == 1 { "" } else { "s" },
    )
}

#[cfg(test)]
mod tests {
    use super::count::*;
    use super::estimate::*;
    use super::*;

    /// Counts per file of a list of tiers, with the window of each file's
    /// build as the build counts it from its tiers.
    fn counts_of(tiers: &[TierKey], variant: &Variant) -> Vec<FileCount> {
        let mut out: Vec<FileCount> = Vec::new();
        let mut sorted = tiers.to_vec();
        sorted.sort_by_key(|t| (t.k, t.n));
        for t in sorted {
            match out.last_mut() {
                Some(c) if c.file == FileKey::new(t.n, t.k) => {
                    c.tiers += 1;
                    c.positions += t.size();
                }
                _ => out.push(FileCount {
                    file: FileKey::new(t.n, t.k),
                    tiers: 1,
                    positions: t.size(),
                    windows: Windows::default(),
                }),
            }
        }
        for c in &mut out {
            let own: Vec<TierKey> = tiers
                .iter()
                .filter(|t| FileKey::new(t.n, t.k) == c.file)
                .copied()
                .collect();
            c.windows = Windows {
                with_distances: crate::build::window_peak_bytes(variant, &own, false),
                wdl_only: crate::build::window_peak_bytes(variant, &own, true),
            };
        }
        out
    }

    #[test]
    fn closure_counts_equal_the_listed_closure() {
        let cases = [
            ("SSS/SSS/O1SS3/4S2/6O/3/3 s", Variant::ASSAUT),
            ("SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s", Variant::ASSAUT),
            ("SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s", Variant::ASSAUT_MDJ),
            ("S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s", Variant::ASSAULT),
            ("3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s", Variant::ASALTO),
        ];
        for (text, v) in cases {
            let p: Position = text.parse().unwrap();
            let roots = crate::ondemand::roots(&p, &v);
            let listed = index::closure(&roots, &v);
            let counts = counts_of(&listed, &v);
            assert_eq!(closure_counts(&roots, &v), counts, "{text} {v}");
            let plan = for_position(&v, &p).unwrap();
            let sum: u64 = listed.iter().map(|t| t.size()).sum();
            assert_eq!(plan.positions(), sum, "{text}");
            // Each file's window is that of the closure's own tiers, of
            // the kind of the build.
            for wdl_only in [false, true] {
                let plan = for_position(&v, &p).unwrap().wdl_only(wdl_only);
                for (f, c) in plan.files.iter().zip(&counts) {
                    assert_eq!(f.window_bytes, c.windows.of_kind(wdl_only), "{text} {v}");
                }
            }
        }
    }

    #[test]
    fn the_whole_game_from_the_start() {
        // The start reaches every tier of every file (one officer too,
        // through huffs); under capture=mandatory no one-officer tier.
        let start = Position::start();
        let v = Variant::ASSAUT;
        let plan = for_position(&v, &start).unwrap();
        let all = complete(&v, 9, 24).unwrap();
        assert_eq!(plan.files, all.files);
        // docs/DESIGN.md: about 1.2e12 positions.
        assert!((1.2e12..1.3e12).contains(&(plan.positions() as f64)));
        let mdj = for_position(&Variant::ASSAUT_MDJ, &start).unwrap();
        assert!(mdj.files.iter().all(|f| f.file.n == 2 && f.complete));
        assert_eq!(mdj.files.len(), 16);
    }

    /// The closed-form shortcut against the plain walk of every tier
    /// (about 20 s: run with --ignored).
    #[test]
    #[ignore]
    fn the_shortcut_changes_nothing() {
        let roots = crate::ondemand::roots(&Position::start(), &Variant::ASSAUT);
        let v = Variant::ASSAUT;
        assert_eq!(counts(&roots, &v, true), counts(&roots, &v, false));
    }

    #[test]
    fn disk_estimates_follow_the_records() {
        // 9 soldiers: the bench record itself; WDL-only, the WDL stream of
        // the format-5 record over its positions.
        assert_eq!(
            bits_per_position(FileKey::new(2, 9)),
            (1.070_286, 7_660_513.0 * 8.0 / 10_675_662_888.0)
        );
        // 11 soldiers: the record with the older blocks, times the growth
        // the current blocks showed on the same 9-soldier tables.
        let (bits, _) = bits_per_position(FileKey::new(2, 11));
        assert!((bits - 2.892_328 * 1.070_286 / 0.691_179).abs() < 1e-9);
        // Above 11 with distances the 11-soldier figure.
        assert_eq!(
            bits_per_position(FileKey::new(1, 20)).0,
            bits_per_position(FileKey::new(1, 11)).0
        );
        assert_ne!(
            bits_per_position(FileKey::new(2, 13)).1,
            bits_per_position(FileKey::new(2, 12)).1
        );
        // Above 13 WDL-only: the whole game's 13-soldier figure times the
        // growth asalto's 20-soldier closure showed from 13 (2o15s:
        // 1,187,217,144 bytes of WDL stream for 18,014,761,008 positions
        // over 2o13s's 915,423,827 for 18,695,716,520, about 1.35) ...
        let at_13 = 4_526_201_053.0 * 8.0 / 109_010_534_640.0;
        let growth = (1_187_217_144.0 / 18_014_761_008.0) / (915_423_827.0 / 18_695_716_520.0);
        assert!((1.34..1.35).contains(&growth));
        assert!((bits_per_position(FileKey::new(2, 15)).1 - at_13 * growth).abs() < 1e-12);
        // ... never below 1: one officer's files thinned from 13 on there,
        // two officers' from 18 on, and above 20 the figure at 20.
        let one = 497_927_587.0 * 8.0 / 11_474_793_120.0;
        assert_eq!(bits_per_position(FileKey::new(1, 16)).1, one);
        for k in [18, 20, 24] {
            assert_eq!(bits_per_position(FileKey::new(2, k)).1, at_13);
        }
        // The 13-soldier files as the whole game's build wrote them (format
        // 5; `bytes` in 12-build.json and 15-build.json of
        // scripts/bench-runs/2026-11-26-start): the estimate is their size,
        // the index exact.
        let thirteen = complete(&Variant::ASSAUT, 13, 13).unwrap();
        for f in &thirteen.files {
            let want = if f.file.n == 1 {
                547_089_656u64
            } else {
                4_576_852_850
            };
            let (_, wdl) = disk_bytes(std::slice::from_ref(f));
            assert!(
                wdl.abs_diff(want) <= 1,
                "{}o{}s: {wdl} {want}",
                f.file.n,
                f.file.k
            );
        }
        // The whole game's files to 12 soldiers: the records' positions are
        // the plan's, and the WDL-only estimate of each is the size of the
        // file repacked in format 5 with 2^20-position blocks
        // (scripts/bench-runs/2026-11-26-format5: f5-rest.json; 2o12s, only
        // repacked in format 4, from its size there less 12 bytes a tier and
        // the chunk checksums of those bytes), to within rounding.
        let twelve = complete(&Variant::ASSAUT, 9, 12).unwrap();
        let measured = [
            ((1, 9), 16_813_497u64),
            ((2, 9), 18_165_318),
            ((1, 10), 86_061_298),
            ((2, 10), 107_871_887),
            ((1, 11), 226_531_617),
            ((2, 11), 614_824_765),
            ((1, 12), 434_772_207),
            (
                (2, 12),
                2_102_098_480 - 12 * 4_873_727 - 4 * (24_076 - 9_797),
            ),
        ];
        for f in &twelve.files {
            let m = MEASURED_WDL_STREAM
                .iter()
                .find(|m| (m.0, m.1) == (f.file.n, f.file.k))
                .unwrap();
            assert_eq!(m.2, f.positions, "{}o{}s", f.file.n, f.file.k);
            let (_, wdl) = disk_bytes(std::slice::from_ref(f));
            let want = measured
                .iter()
                .find(|m| m.0 == (f.file.n, f.file.k))
                .unwrap()
                .1;
            assert!(
                wdl.abs_diff(want) <= 1,
                "{}o{}s: {wdl} {want}",
                f.file.n,
                f.file.k
            );
        }
        // The bench's 9-soldier files come back to within a byte each.
        let nine = complete(&Variant::ASSAUT, 9, 9).unwrap();
        let (all, _) = disk_bytes(&nine.files);
        let measured = 214_366_282u64 + 1_428_251_610;
        assert!(all.abs_diff(measured) < 1_000, "{all}");
    }

    #[test]
    fn each_file_is_timed_at_its_soldier_counts_rate() {
        // Interpolated between the level samples, the nearest outside.
        let (a, b) = (LEVEL_RATES[1], LEVEL_RATES[2]);
        let third = f64::from(b.k - a.k);
        let at = level_rate(a.k + 1, |r| r.bits);
        assert!((at - (a.bits + (b.bits - a.bits) / third)).abs() < 1e-6 * at);
        assert_eq!(level_rate(24, |r| r.verify), LEVEL_RATES[4].verify);
        assert_eq!(level_rate(9, |r| r.positions), LEVEL_RATES[0].positions);
        // A plan's time is the sum of its files' at their counts, over
        // the cores the rate is worth.
        let plan = complete(&Variant::ASSAUT, 9, 12).unwrap().wdl_only(true);
        let at_rates = |which: fn(&LevelRate) -> f64, factor: f64| -> f64 {
            plan.files
                .iter()
                .map(|f| f.positions as f64 / (level_rate(f.file.soldiers(), which) * factor))
                .sum()
        };
        let by_file = at_rates(|r| r.bits, WDL_BUILD_OVER_SAMPLE);
        let rate = 2.0 * BENCH_RATE_PER_CORE;
        let secs = plan.estimate().seconds(rate);
        assert!(
            (secs - by_file / 2.0).abs() < 1e-9 * secs,
            "{secs} {by_file}"
        );
        let verify = at_rates(|r| r.verify, VERIFY_OVER_SAMPLE);
        assert!((plan.verify_seconds(rate) - verify / 2.0).abs() < 1e-9 * verify);
        // With distances, the position solver's rates.
        let dist = complete(&Variant::ASSAUT, 12, 12).unwrap();
        let f = &dist.files[1];
        let expect = f.positions as f64 / (LEVEL_RATES[1].positions * BUILD_OVER_SAMPLE);
        let got = dist.estimate().seconds(BENCH_RATE_PER_CORE);
        let one = dist.files[0].positions as f64 / (LEVEL_RATES[1].positions * BUILD_OVER_SAMPLE);
        assert!((got - expect - one).abs() < 1e-9 * got);
    }

    #[test]
    fn calibration_solves_the_calibration_closure() {
        let v = Variant::ASSAUT;
        let pos: Position = CALIBRATION_POSITION.parse().unwrap();
        let closure: u64 = crate::solve::Solver::new(v)
            .closure_of(&pos)
            .iter()
            .map(|t| t.size())
            .sum();
        let rate = calibrate(&v, 2).unwrap();
        assert_eq!(rate.calibration_positions, closure);
        assert!(rate.positions_per_second > 0.0 && rate.calibration_seconds > 0.0);
        // The process's CPU time is read (other tests' threads may add to
        // it, so only its presence is checked).
        assert!(rate.cpu_share > 0.0, "{rate:?}");
        let expected = closure as f64 / rate.calibration_seconds;
        assert!((rate.positions_per_second / expected - 1.0).abs() < 1e-9);
    }

    #[test]
    fn free_space_of_a_folder_not_made_yet() {
        let dir = tempfile::tempdir().unwrap();
        assert!(free_bytes(dir.path()).unwrap() > 0);
        assert!(free_bytes(&dir.path().join("a/b/c")).unwrap() > 0);
        assert!(free_bytes(Path::new("no-such-folder/tables")).unwrap() > 0);
        let mut plan = complete(&Variant::ASSAUT, 9, 9).unwrap();
        let before = plan.estimate();
        plan.mark_built(dir.path());
        assert!(plan.files.iter().all(|f| !f.built));
        assert_eq!(plan.estimate(), before);
        assert_eq!(before.positions, plan.positions());
        // A partial table of the file (a closure build) is not the complete
        // table a build --soldiers makes: still to build.
        let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
        let tiers = crate::solve::Solver::new(Variant::ASSAUT).closure_of(&p);
        crate::build::build_tiers(
            dir.path(),
            &Variant::ASSAUT,
            &tiers,
            &crate::build::BuildOptions::threads(1),
            &crate::build::Quiet,
        )
        .unwrap();
        plan.mark_built(dir.path());
        assert!(plan.files.iter().all(|f| !f.built));
    }

    #[test]
    fn complete_counts_equal_the_listed_tiers() {
        for v in [Variant::ASSAUT, Variant::ASSAULT] {
            let plan = complete(&v, 9, 10).unwrap();
            assert_eq!(plan.files.len(), 4);
            for f in &plan.files {
                let tiers = index::all_tiers(f.file(), &v);
                assert_eq!(f.tiers, tiers.len() as u64);
                assert_eq!(f.positions, tiers.iter().map(|t| t.size()).sum::<u64>());
                // The window counted by level equals the one of the list.
                let listed = crate::build::window_peak_bytes(&v, &tiers, false);
                assert_eq!(f.window_bytes, listed, "{v} {}o{}s", f.file.n, f.file.k);
                let wdl = complete_window_bytes(&v, f.file(), true);
                let listed = crate::build::window_peak_bytes(&v, &tiers, true);
                assert_eq!(wdl, listed, "{v} {}o{}s WDL-only", f.file.n, f.file.k);
                assert!(4 * wdl >= f.window_bytes && 4 * wdl < f.window_bytes + 4 * f.tiers);
            }
        }
        // And where a file's levels are few and full (most soldiers).
        for f in &complete(&Variant::ASSAULT, 22, 24).unwrap().files {
            let tiers = index::all_tiers(f.file(), &Variant::ASSAULT);
            let listed = crate::build::window_peak_bytes(&Variant::ASSAULT, &tiers, false);
            assert_eq!(f.window_bytes, listed, "{}o{}s", f.file.n, f.file.k);
            let wdl = complete_window_bytes(&Variant::ASSAULT, f.file(), true);
            let listed = crate::build::window_peak_bytes(&Variant::ASSAULT, &tiers, true);
            assert_eq!(wdl, listed, "{}o{}s WDL-only", f.file.n, f.file.k);
            assert!(f.window_bytes > 0 && f.need().whole() >= f.need().least());
        }
        // The complete assaut tables measured by the bench record:
        // 928,318,512 + 10,675,662,888 positions with 9 soldiers.
        let nine = complete(&Variant::ASSAUT, 9, 9).unwrap();
        assert_eq!(nine.positions(), 928_318_512 + 10_675_662_888);
        assert!(complete(&Variant::ASSAUT, 8, 10).is_err());
        assert!(complete(&Variant::ASSAUT, 12, 10).is_err());
    }
}
