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
//! * **time**: a solving rate (positions per second) measured by a short
//!   calibration solve ([`calibrate`]) or given by the caller, times the
//!   ratio of a real build's rate to the in-memory solving rate measured by
//!   the same benchmark run ([`BUILD_RATE_RATIO`]); and the verify of
//!   WDL-only files, the build's time for them times the verify's time over
//!   the build's measured on one closure ([`VERIFY_OVER_BUILD`]).
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
    /// Officers, 1 or 2.
    pub n: u8,
    /// Soldiers, 9..=24.
    pub k: u8,
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
        FileKey::new(self.n, self.k)
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
            self.files.retain(|x| x.k >= f.k());
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
                    i.variant == self.variant && (i.n, i.k) == (f.n, f.k)
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
                    i.tiers == index::complete_tiers(f.k)
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
                && (saved.n, saved.k, saved.tiers, saved.positions)
                    == (f.n, f.k, f.tiers, f.positions)
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
            disk_bytes,
            disk_bytes_wdl_only,
        }
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
}

impl Estimate {
    /// Estimated seconds at an in-memory solving rate ([`build_seconds`])
    /// for the positions left to solve: those the checkpoints hold are not.
    pub fn seconds(&self, rate: f64) -> f64 {
        build_seconds(self.positions - self.checkpointed_positions, rate)
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
                n,
                k,
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
            complete: c.tiers == index::complete_tiers(c.k),
            n: c.n,
            k: c.k,
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

/// The window of the complete file `(n, k)` (of a WDL-only build when
/// `wdl_only`): what [`crate::build::window_peak_bytes`] says of its tiers,
/// counted by level ([`index::canonical_sets_by_progress`]) without
/// listing them.
pub(crate) fn complete_window_bytes(variant: &Variant, file: FileKey, wdl_only: bool) -> u64 {
    let FileKey { n, k } = file;
    let kk = k as usize;
    let half = binom(33 - kk, n as usize) as u64;
    let sets = index::canonical_sets_by_progress(variant);
    let mut per_level = std::collections::BTreeMap::new();
    let sizes = kk.saturating_sub(8)..=kk;
    for (s, by_p) in sets.iter().enumerate().filter(|(s, _)| sizes.contains(s)) {
        let per_set = crate::build::window_held_bytes(binom(9, kk - s) as u64 * half, wdl_only);
        for (p, &count) in by_p.iter().enumerate().filter(|(_, c)| **c != 0) {
            *per_level.entry(p as u32).or_insert(0u64) += count * per_set;
        }
    }
    crate::build::peak_over_levels(&per_level, crate::build::window_levels(variant))
}

/// Tiers and positions of one file `(n, k)` in a closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FileCount {
    /// Officers.
    pub(crate) n: u8,
    /// Soldiers.
    pub(crate) k: u8,
    /// Canonical tiers.
    pub(crate) tiers: u64,
    /// Positions of those tiers (both sides to move).
    pub(crate) positions: u64,
    /// The window of solved tiers of a build of those tiers.
    pub(crate) windows: Windows,
}

/// The outside points in board order; bit `i` of a 24-bit set is point
/// `OUTSIDE_POINTS[i]`. The order is the board's, so comparing two sets as
/// numbers compares them as bitboards (the mirror's canonical choice).
fn outside_points() -> Vec<board::Point> {
    board::points(board::OUTSIDE).collect()
}

/// Where the soldier on each outside point may step: bit sets of outside
/// points, and whether it may step into the fortress.
struct Steps {
    to_outside: [u32; 24],
    to_fortress: u32,
    mirror_byte: [[u32; 256]; 3],
    /// The progress of each outside point ([`TierKey::progress`]).
    progress: [u32; 24],
}

impl Steps {
    fn new(variant: &Variant) -> Steps {
        let points = outside_points();
        let local = |p: board::Point| points.iter().position(|&q| q == p);
        let table = variant.soldier_moves();
        let mut to_outside = [0u32; 24];
        let mut to_fortress = 0u32;
        for (i, p) in points.iter().enumerate() {
            for t in board::points(table[p.index()]) {
                match local(t) {
                    Some(j) => to_outside[i] |= 1 << j,
                    None => to_fortress |= 1 << i,
                }
            }
        }
        // The mirror of a 24-bit set, a byte at a time.
        let mirror_of = |i: usize| local(points[i].mirror());
        let mut mirror_byte = [[0u32; 256]; 3];
        for (b, table) in mirror_byte.iter_mut().enumerate() {
            for (v, out) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    if v >> bit & 1 == 1 {
                        let j = mirror_of(b * 8 + bit).expect("the mirror keeps outside points");
                        *out |= 1 << j;
                    }
                }
            }
        }
        let mut progress = [0u32; 24];
        for (i, p) in points.iter().enumerate() {
            progress[i] = variant.progress()[p.index()] as u32;
        }
        Steps {
            to_outside,
            to_fortress,
            mirror_byte,
            progress,
        }
    }

    /// The progress of a set: its tier's level in the file
    /// ([`TierKey::progress`]).
    fn progress(&self, s: u32) -> u32 {
        let (mut s, mut sum) = (s, 0);
        while s != 0 {
            sum += self.progress[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        sum
    }

    fn mirror(&self, s: u32) -> u32 {
        self.mirror_byte[0][(s & 0xff) as usize]
            | self.mirror_byte[1][(s >> 8 & 0xff) as usize]
            | self.mirror_byte[2][(s >> 16) as usize]
    }
}

/// Tiers and positions, per file, of the closure of `roots` under
/// [`TierKey::successors`]: the same tiers as [`index::closure`], counted
/// without listing them. Every tier is one bit of a table over all
/// `(n, k, S)` (2 x 16 x 2^24 bits, 64 MiB, plus 64 MiB for the order of
/// the sets); the tiers are visited in the solving order reversed, so that
/// one pass marks everything a tier reaches before it is visited. A file
/// all of whose tiers are reached makes the files below it complete, which
/// are then counted in closed form: the start's closure (every tier) takes
/// well under a second in a release build, the plain walk about 20 s.
/// Files with no tier are left out.
pub(crate) fn closure_counts(roots: &[TierKey], variant: &Variant) -> Vec<FileCount> {
    counts(roots, variant, true)
}

/// [`closure_counts`], with or without counting the files below a full
/// one in closed form.
fn counts(roots: &[TierKey], variant: &Variant, shortcut: bool) -> Vec<FileCount> {
    let points = outside_points();
    let steps = Steps::new(variant);
    let huff = variant.huffs();
    let mut seen = TierBits::new();
    let mut top = [false; 32];
    // The roots and their mirror images: what they reach is then closed
    // under the mirror, and its canonical tiers are the closure's.
    for r in roots.iter().filter(|r| r.is_valid()) {
        for t in [*r, r.mirror()] {
            seen.mark(t.file(), index::outside_set(t.outside));
        }
        top[slot(r.file())] = true;
    }
    let order = sets_by_progress(variant, &points);
    let mut out = Vec::new();
    let mut active = top;
    // A file all of whose tiers are reached makes every file below it full
    // too: any set of k - 1 soldiers is a set of k with one captured, and a
    // huff keeps the set. Those are counted in closed form, not walked.
    let mut full = [false; 32];
    for n in [2u8, 1] {
        for k in (9..=24u8).rev() {
            if full[slot(FileKey::new(n, k))] {
                out.push(FileCount {
                    n,
                    k,
                    tiers: index::complete_tiers(k),
                    positions: index::complete_positions(FileKey::new(n, k)),
                    windows: Windows::complete(variant, FileKey::new(n, k)),
                });
                continue;
            }
            if !active[slot(FileKey::new(n, k))] {
                continue;
            }
            let keep = crate::build::window_levels(variant);
            let file = walk_file(FileKey::new(n, k), &order, &steps, huff, keep, &mut seen);
            let tiers = file.tiers;
            if k > 9 {
                active[slot(FileKey::new(n, k - 1))] = true;
            }
            if n == 2 && huff {
                active[slot(FileKey::new(1, k))] = true;
            }
            if shortcut && tiers == index::complete_tiers(k) {
                for kk in 9..k {
                    full[slot(FileKey::new(n, kk))] = true;
                }
                if n == 2 && huff {
                    for kk in 9..=k {
                        full[slot(FileKey::new(1, kk))] = true;
                    }
                }
            }
            if tiers > 0 {
                out.push(file);
            }
        }
    }
    out.sort_by_key(|c| (c.k, c.n));
    out
}

/// Every 24-bit set in increasing P(S) (the sum of its soldiers'
/// progress), by a counting sort: walked reversed, in decreasing P(S), a
/// set's successors in the same file come after it, since a soldier step
/// lowers P.
fn sets_by_progress(variant: &Variant, points: &[board::Point]) -> Vec<u32> {
    let progress = variant.progress();
    let p: Vec<u32> = points.iter().map(|q| progress[q.index()] as u32).collect();
    let p_of = |s: u32| -> u32 {
        let mut s = s;
        let mut sum = 0;
        while s != 0 {
            sum += p[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        sum
    };
    let p_max = p_of((SETS - 1) as u32) as usize;
    let mut by_p = vec![0u32; p_max + 2];
    for s in 0..SETS as u32 {
        by_p[p_of(s) as usize + 1] += 1;
    }
    for i in 1..by_p.len() {
        by_p[i] += by_p[i - 1];
    }
    let mut order = vec![0u32; SETS];
    for s in 0..SETS as u32 {
        let at = &mut by_p[p_of(s) as usize];
        order[*at as usize] = s;
        *at += 1;
    }
    order
}

/// Walk the reached tiers of the file of `n` officers and `k` soldiers in
/// decreasing P(S) (`order` reversed), marking in `seen` every tier each
/// one reaches (in this file, by a capture in the file below, by a huff in
/// the one-officer file). Returns the file's tiers reached and their
/// positions, mirror images counted once, and the window of a build of
/// them (`keep`: [`crate::build::window_levels`]), as
/// [`crate::build::window_peak_bytes`] counts it from their list.
fn walk_file(
    file: FileKey,
    order: &[u32],
    steps: &Steps,
    huff: bool,
    keep: u32,
    seen: &mut TierBits,
) -> FileCount {
    let FileKey { n, k } = file;
    let (lo, hi) = (k.saturating_sub(8) as u32, k as u32);
    let per_tier =
        |m: u32| 2 * binom(9, m as usize) as u64 * binom(33 - k as usize, n as usize) as u64;
    let (mut tiers, mut positions) = (0u64, 0u64);
    // The window's bytes by level, with distances and WDL-only.
    let mut per_level = [
        std::collections::BTreeMap::<u32, u64>::new(),
        std::collections::BTreeMap::<u32, u64>::new(),
    ];
    for &s in order.iter().rev() {
        let c = s.count_ones();
        if c < lo || c > hi {
            continue;
        }
        if !seen.has(file, s) {
            continue;
        }
        let m = k as u32 - c;
        if s <= steps.mirror(s) {
            tiers += 1;
            positions += per_tier(m);
            let level = steps.progress(s);
            for (held, wdl_only) in per_level.iter_mut().zip([false, true]) {
                *held.entry(level).or_default() +=
                    crate::build::window_held_bytes(per_tier(m) / 2, wdl_only);
            }
        }
        // Soldier steps: outside to outside, or into the fortress.
        let mut rest = s;
        while rest != 0 {
            let b = rest.trailing_zeros();
            rest &= rest - 1;
            let without = s & !(1 << b);
            if steps.to_fortress >> b & 1 == 1 && m < 8 {
                seen.mark(FileKey::new(n, k), without);
            }
            let mut to = steps.to_outside[b as usize] & !s;
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                seen.mark(FileKey::new(n, k), without | 1 << t);
            }
            // A capture of this soldier.
            if k > 9 {
                seen.mark(FileKey::new(n, k - 1), without);
            }
        }
        // A capture inside the fortress.
        if k > 9 && m > 0 {
            seen.mark(FileKey::new(n, k - 1), s);
        }
        if n == 2 && huff {
            seen.mark(FileKey::new(1, k), s);
        }
    }
    let [with_distances, wdl_only] =
        per_level.map(|held| crate::build::peak_over_levels(&held, keep));
    FileCount {
        n,
        k,
        tiers,
        positions,
        windows: Windows {
            with_distances,
            wdl_only,
        },
    }
}

/// Bits per position measured on one built table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Measured {
    /// Officers.
    pub(crate) n: u8,
    /// Soldiers.
    pub(crate) k: u8,
    /// File bytes x 8 / positions.
    pub(crate) bits: f64,
    /// Whether the table was written with the current block sizes (2^14
    /// WDL, 2^12 distance positions a block).
    pub(crate) current_blocks: bool,
    /// The record it comes from, under `scripts/bench-runs/`: provenance
    /// for the reader of [`MEASURED`], which no code reads.
    #[allow(dead_code, reason = "provenance of the figure, for the reader")]
    pub(crate) source: &'static str,
}

/// The sizes the estimates of files with distances come from: the complete
/// assaut tables with 9, 10 and 11 soldiers. The 9-soldier figures are file
/// bytes over positions in `2026-11-21-vm/bench.json` (1o9s: 214,366,282
/// bytes for 928,318,512 positions; 2o9s: 1,428,251,610 for
/// 10,675,662,888); the others, and the same 9-soldier tables written with
/// the larger blocks of that time, are the `bits_per_position` of
/// `2026-11-21-assaut10/build-assaut-10.json` and
/// `2026-11-21-assaut11/build-assaut-11.json`.
pub(crate) const MEASURED: [Measured; 8] = [
    Measured {
        n: 1,
        k: 9,
        bits: 1.847_351,
        current_blocks: true,
        source: "2026-11-21-vm/bench.json",
    },
    Measured {
        n: 2,
        k: 9,
        bits: 1.070_286,
        current_blocks: true,
        source: "2026-11-21-vm/bench.json",
    },
    Measured {
        n: 1,
        k: 9,
        bits: 1.385_633,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 2,
        k: 9,
        bits: 0.691_179,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 1,
        k: 10,
        bits: 2.655_713,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 2,
        k: 10,
        bits: 1.843_105,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 1,
        k: 11,
        bits: 2.674_573,
        current_blocks: false,
        source: "2026-11-21-assaut11/build-assaut-11.json",
    },
    Measured {
        n: 2,
        k: 11,
        bits: 2.892_328,
        current_blocks: false,
        source: "2026-11-21-assaut11/build-assaut-11.json",
    },
];

/// The WDL streams of WDL-only files as `build --wdl-only` writes them
/// (format 5: each tier's halves placement-major, `2^20`-position WDL
/// blocks, level 9; [`crate::table::WriteOptions::wdl_only`]), by
/// (officers, soldiers): `(positions, compressed bytes of the WDL
/// stream)`. Measured on the files of the whole game's run
/// (`scripts/bench-runs/2026-11-26-start/`): those with 9 to 12 soldiers,
/// built in format 4 with `2^18`-position blocks, rewritten so by `asalto
/// repack --wdl-only --wdl-block 1048576` (`wdl_bytes_after` in
/// `scripts/bench-runs/2026-11-26-format5/`); those with 13, written so by
/// the build (`wdl_bits_per_position` times `positions` in the summaries
/// `12-build.json` and `15-build.json` there). The rest of a file (its
/// index: 8 bytes a tier, 16 a block) follows from its counts
/// ([`crate::table::file_len`]), so the estimate of a file is these
/// bits/position times its positions plus its exact index.
pub(crate) const MEASURED_WDL_STREAM: [(u8, u8, u64, u64); 10] = [
    (1, 9, 928_318_512, 6_457_576),
    (2, 9, 10_675_662_888, 7_660_513),
    (1, 10, 2_133_337_860, 67_827_865),
    (2, 10, 23_466_716_460, 89_312_618),
    (1, 11, 4_264_450_344, 198_265_084),
    (2, 11, 44_776_728_612, 585_939_452),
    (1, 12, 7_460_291_496, 395_630_218),
    (2, 12, 74_602_914_960, 2_003_389_139),
    (1, 13, 11_474_793_120, 497_927_587),
    (2, 13, 109_010_534_640, 4_526_201_053),
];

/// The most soldiers [`MEASURED_WDL_STREAM`] has a figure for: larger
/// files are estimated at its figure times the growth of
/// [`WDL_GROWTH_ABOVE`].
const MEASURED_WDL_MAX: u8 = 13;

/// How the WDL stream's density grew above 13 soldiers in the largest
/// closure built so far: asalto's closure of the 20-soldier formation
/// `3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s` (142.1e9 positions, 24 files),
/// by (officers, soldiers): `(positions, compressed bytes of the WDL
/// stream)`, its files with 13 to 20 soldiers (`positions` times
/// `wdl_bits_per_position` in the summaries
/// `scripts/bench-runs/2026-11-27-f20/asalto-{1,3,4,5,6,7}-build.json`).
/// For two officers it rose from 0.39 bits/position at 13 to 0.53 at 15
/// and 16, then fell towards the closure's top (0.15 at 20); for one
/// officer it fell from 13 on. A file above 13 soldiers is estimated at
/// the whole game's 13-soldier figure times this closure's density at its
/// soldiers over its density at 13, never less than 1 (the whole game's
/// top is at 24, not 20, so its fall near the top need not come as early)
/// and, above 20, the growth at 20 (so 1).
pub(crate) const WDL_GROWTH_ABOVE: [(u8, u8, u64, u64); 16] = [
    (1, 13, 1_967_970_160, 90_130_864),
    (2, 13, 18_695_716_520, 915_423_827),
    (1, 14, 2_187_000_320, 57_465_616),
    (2, 14, 19_683_002_880, 1_193_902_353),
    (1, 15, 2_119_383_648, 33_411_056),
    (2, 15, 18_014_761_008, 1_187_217_144),
    (1, 16, 1_790_197_478, 17_304_597),
    (2, 16, 14_321_579_824, 938_203_899),
    (1, 17, 1_315_607_456, 7_995_444),
    (2, 17, 9_867_055_920, 588_906_456),
    (1, 18, 838_349_340, 3_294_789),
    (2, 18, 5_868_445_380, 281_099_181),
    (1, 19, 460_846_568, 1_213_290),
    (2, 19, 2_995_502_692, 97_553_035),
    (1, 20, 216_928_946, 484_130),
    (2, 20, 1_301_573_676, 25_175_884),
];

/// The density of `table`'s entry for `file`, in bits/position.
fn density(table: &[(u8, u8, u64, u64)], file: FileKey) -> Option<f64> {
    table
        .iter()
        .find(|m| FileKey::new(m.0, m.1) == file)
        .map(|m| m.3 as f64 * 8.0 / m.2 as f64)
}

/// The factor a WDL-only file `file` is estimated at over the figure of
/// [`MEASURED_WDL_STREAM`] it is given: 1 up to [`MEASURED_WDL_MAX`]
/// soldiers, above them the growth of [`WDL_GROWTH_ABOVE`].
fn wdl_growth(file: FileKey) -> f64 {
    let FileKey { n, k } = file;
    let top = WDL_GROWTH_ABOVE
        .iter()
        .map(|m| m.1)
        .max()
        .unwrap_or(MEASURED_WDL_MAX);
    match (
        density(
            &WDL_GROWTH_ABOVE,
            FileKey::new(n, k.clamp(MEASURED_WDL_MAX, top)),
        ),
        density(&WDL_GROWTH_ABOVE, FileKey::new(n, MEASURED_WDL_MAX)),
    ) {
        (Some(at), Some(base)) if base > 0.0 => (at / base).max(1.0),
        _ => 1.0,
    }
}

/// Where the disk estimates come from, in one sentence.
pub const DISK_BASIS: &str = "bits/position measured: with distances, on the complete assaut tables \
with 9 soldiers (scripts/bench-runs/2026-11-21-vm/bench.json) and 10 and 11 soldiers \
(2026-11-21-assaut10, -assaut11, written with larger blocks and scaled by the growth the current \
blocks showed at 9 soldiers), the 11-soldier figure above 11; WDL-only, the WDL stream of the \
whole game's files with 9 to 12 soldiers rewritten in the current layout \
(2026-11-26-format5) and with 13 soldiers as built (2026-11-26-start); above 13, the 13-soldier \
figure times the growth from 13 soldiers that asalto's closure of a 20-soldier formation showed \
(2026-11-27-f20: up to 1.35 for two officers at 15 and 16 soldiers), never below 1, plus each \
file's index, exact from its tiers and blocks";

fn measured(file: FileKey, current: bool) -> Option<&'static Measured> {
    MEASURED
        .iter()
        .find(|m| FileKey::new(m.n, m.k) == file && m.current_blocks == current)
}

/// Estimated bits per position of the file `file` with the current block
/// sizes: of the whole file with distances, and of the WDL stream of a
/// WDL-only file, index aside ([`DISK_BASIS`]).
pub(crate) fn bits_per_position(file: FileKey) -> (f64, f64) {
    let FileKey { n, k } = file;
    let n = n.clamp(1, 2);
    let wdl_only = density(
        &MEASURED_WDL_STREAM,
        FileKey::new(n, k.clamp(9, MEASURED_WDL_MAX)),
    )
    .unwrap_or(0.0)
        * wdl_growth(FileKey::new(n, k));
    let k = k.clamp(9, 11);
    if let Some(m) = measured(FileKey::new(n, k), true) {
        return (m.bits, wdl_only);
    }
    let (Some(now), Some(then), Some(m)) = (
        measured(FileKey::new(n, 9), true),
        measured(FileKey::new(n, 9), false),
        measured(FileKey::new(n, k), false),
    ) else {
        unreachable!("MEASURED holds every officer count at 9, 10 and 11 soldiers")
    };
    (m.bits * now.bits / then.bits, wdl_only)
}

/// Estimated disk of a plan's files, in bytes: with distances, and
/// win/draw/loss only (the WDL stream at measured bits/position, the
/// index exact).
pub fn disk_bytes(files: &[FilePlan]) -> (u64, u64) {
    let per = WriteOptions::wdl_only().wdl_block_positions;
    files.iter().fold((0, 0), |(all, wdl), f| {
        let (bits, wdl_bits) = bits_per_position(f.file());
        let bytes = |b: f64| (f.positions as f64 * b / 8.0).ceil() as u64;
        let blocks = table::block_count(f.positions, per);
        let wdl_only = table::file_len(f.tiers, blocks, 0, bytes(wdl_bits));
        (all + bytes(bits), wdl + wdl_only)
    })
}

/// A build's rate over the in-memory solving rate, from one benchmark run
/// (`scripts/bench-runs/2026-11-21-vm/bench.json`): every assaut table up
/// to 9 soldiers, 11,603,981,400 positions, built in 1030.8 s on 2 threads
/// (1.126e7 positions/s), against the in-memory rate of the same run on 2
/// threads (8.701e6 x 1.756 = 1.528e7): the build also reads lower tables
/// and compresses and writes its own.
pub const BUILD_RATE_RATIO: f64 = 0.737;

/// The in-memory solving rate on two threads in the same bench record
/// (8.701e6 positions/s on one thread, 1.756 times that on two), for a
/// time estimate made without calibrating.
pub(crate) const RECORDED_RATE: f64 = 1.528e7;

/// The bench record `RECORDED_RATE` and [`BUILD_RATE_RATIO`] come from.
pub const RECORDED_RATE_SOURCE: &str = "scripts/bench-runs/2026-11-21-vm/bench.json";

/// The position whose closure the calibration solves in memory (two
/// officers, ten soldiers, about 13.5 million positions; the rate position
/// of `asalto bench`).
pub const CALIBRATION_POSITION: &str = "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s";

/// A solving rate.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Positions solved in memory per second.
    pub positions_per_second: f64,
    /// Positions the calibration solved (0 when the rate was given).
    pub calibration_positions: u64,
    /// Seconds the calibration took.
    pub calibration_seconds: f64,
    /// The share of its threads' time the calibration had on a core
    /// (as `solve::Stats::cpu_share`):
    /// well below 1 when other work held the cores, so that the rate, and
    /// the time estimate, are those of the busy machine.
    pub cpu_share: f64,
}

/// Measure the in-memory solving rate with `threads` threads (0: one per
/// core) on the closure of [`CALIBRATION_POSITION`] (1 to 2 s here).
pub fn calibrate(variant: &Variant, threads: usize) -> Result<Rate, PlanError> {
    let pos: Position = CALIBRATION_POSITION
        .parse()
        .expect("the calibration position is valid");
    let solution = crate::solve::Solver::new(*variant)
        .threads(threads)
        .solve_closure(&pos)?;
    let stats = solution.stats();
    Ok(Rate {
        positions_per_second: stats.rate(),
        calibration_positions: stats.positions,
        calibration_seconds: stats.seconds,
        cpu_share: stats.cpu_share(),
    })
}

/// Estimated seconds to build `positions` at an in-memory solving rate.
pub fn build_seconds(positions: u64, rate: f64) -> f64 {
    positions as f64 / (rate * BUILD_RATE_RATIO).max(1e-9)
}

/// The time `asalto verify` takes on WDL-only files (the fixed point)
/// over the time their build took, both measured on one closure on one
/// host: assaut-mdj's 20-soldier closure, 127,684,212,012 positions in
/// 12 files, built in 7,850 s (the files' `seconds`, commit c910cfc) and
/// verified in 10,465 s (their `seconds` and `earlier_seconds` over two
/// sittings, c910cfc then 2f60386), records in [`VERIFY_OVER_BUILD_SOURCE`].
/// The checker got faster after them (905b287: 0.907 of the CPU on a
/// chunk of that closure's 2o12s), so the estimate errs long.
pub const VERIFY_OVER_BUILD: f64 = 1.333;

/// The records [`VERIFY_OVER_BUILD`] comes from.
pub const VERIFY_OVER_BUILD_SOURCE: &str = "scripts/bench-runs/2026-11-28-f20/ (assaut-mdj-1-build.json, assaut-mdj-1-verify.json and assaut-mdj-2-verify.json)";

/// Estimated seconds to verify WDL-only files of `positions` at an
/// in-memory solving rate: their build's time ([`build_seconds`]) times
/// [`VERIFY_OVER_BUILD`].
pub fn verify_seconds(positions: u64, rate: f64) -> f64 {
    build_seconds(positions, rate) * VERIFY_OVER_BUILD
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
    let names: Vec<String> = plan
        .to_build()
        .iter()
        .map(|f| FileKey::new(f.n, f.k).to_string())
        .collect();
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
/// the tables already built under `tables` left out, the time at the
/// bench record's rate scaled to `threads` (0: one per core), and the
/// commands that plan and build them.
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
    // The bench's two-thread rate, scaled to the threads to be used, as
    // written: `asalto plan --rate` with the figure it names gives the
    // same time.
    let rate = format!("{:.3e}", RECORDED_RATE * cores as f64 / 2.0);
    let seconds = the_plan
        .estimate()
        .seconds(rate.parse().expect("a formatted number"));
    format!(
        "{head}; its tables instead: {}, about {} to build on {cores} core{} at the bench record's rate ({rate} positions/s in memory: the two-thread rate of {RECORDED_RATE_SOURCE} scaled to {cores} core{}, times {BUILD_RATE_RATIO} in a build; asalto plan --for {quoted} --variant {variant} --rate {rate} gives the details at that rate, without --rate at this machine's measured rate; asalto build --for {quoted} --variant {variant} builds them)",
        summary_line(&the_plan),
        human_duration(seconds),
        if cores == 1 { "" } else { "s" },
        if cores == 1 { "" } else { "s" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts per file of a list of tiers, with the window of each file's
    /// build as the build counts it from its tiers.
    fn counts_of(tiers: &[TierKey], variant: &Variant) -> Vec<FileCount> {
        let mut out: Vec<FileCount> = Vec::new();
        let mut sorted = tiers.to_vec();
        sorted.sort_by_key(|t| (t.k, t.n));
        for t in sorted {
            match out.last_mut() {
                Some(c) if (c.n, c.k) == (t.n, t.k) => {
                    c.tiers += 1;
                    c.positions += t.size();
                }
                _ => out.push(FileCount {
                    n: t.n,
                    k: t.k,
                    tiers: 1,
                    positions: t.size(),
                    windows: Windows::default(),
                }),
            }
        }
        for c in &mut out {
            let own: Vec<TierKey> = tiers
                .iter()
                .filter(|t| (t.n, t.k) == (c.n, c.k))
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
        assert!(mdj.files.iter().all(|f| f.n == 2 && f.complete));
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
            let want = if f.n == 1 {
                547_089_656u64
            } else {
                4_576_852_850
            };
            let (_, wdl) = disk_bytes(std::slice::from_ref(f));
            assert!(wdl.abs_diff(want) <= 1, "{}o{}s: {wdl} {want}", f.n, f.k);
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
                .find(|m| (m.0, m.1) == (f.n, f.k))
                .unwrap();
            assert_eq!(m.2, f.positions, "{}o{}s", f.n, f.k);
            let (_, wdl) = disk_bytes(std::slice::from_ref(f));
            let want = measured.iter().find(|m| m.0 == (f.n, f.k)).unwrap().1;
            assert!(wdl.abs_diff(want) <= 1, "{}o{}s: {wdl} {want}", f.n, f.k);
        }
        // The bench's 9-soldier files come back to within a byte each.
        let nine = complete(&Variant::ASSAUT, 9, 9).unwrap();
        let (all, _) = disk_bytes(&nine.files);
        let measured = 214_366_282u64 + 1_428_251_610;
        assert!(all.abs_diff(measured) < 1_000, "{all}");
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
                assert_eq!(f.window_bytes, listed, "{v} {}o{}s", f.n, f.k);
                let wdl = complete_window_bytes(&v, f.file(), true);
                let listed = crate::build::window_peak_bytes(&v, &tiers, true);
                assert_eq!(wdl, listed, "{v} {}o{}s WDL-only", f.n, f.k);
                assert!(4 * wdl >= f.window_bytes && 4 * wdl < f.window_bytes + 4 * f.tiers);
            }
        }
        // And where a file's levels are few and full (most soldiers).
        for f in &complete(&Variant::ASSAULT, 22, 24).unwrap().files {
            let tiers = index::all_tiers(f.file(), &Variant::ASSAULT);
            let listed = crate::build::window_peak_bytes(&Variant::ASSAULT, &tiers, false);
            assert_eq!(f.window_bytes, listed, "{}o{}s", f.n, f.k);
            let wdl = complete_window_bytes(&Variant::ASSAULT, f.file(), true);
            let listed = crate::build::window_peak_bytes(&Variant::ASSAULT, &tiers, true);
            assert_eq!(wdl, listed, "{}o{}s WDL-only", f.n, f.k);
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
