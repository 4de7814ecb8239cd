//! The retrograde analyser: solves tiers bottom-up in the order of
//! [`crate::index`], tiers of one level in parallel with rayon, reading lower
//! tiers through the narrow [`TierStore`] interface.
//!
//! ```
//! use asalto_tb::{Position, Value, Variant, solve::Solver};
//! // Nine soldiers, eight in the fortress; e4-e5 fills it.
//! let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
//! let sol = Solver::new(Variant::ASSAUT).solve_closure(&p).unwrap();
//! assert_eq!(sol.value(&p).unwrap(), Value::Win(1));
//! ```

mod bits;
mod check;
mod floor;
mod lookup;
mod retro;
mod sample;
mod setcheck;

pub(crate) use bits::solve_tier_wdl;
pub(crate) use check::stuck_value;
pub use check::{Inconsistency, check_tier_as};

/// The checker `asalto verify` runs on the tiers of a WDL-only table
/// (tables with distances are always checked position by position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Checker {
    /// Slice by slice, as sets of officer placements
    /// (src/solve/setcheck.rs), written apart from the bit-set solver
    /// (a set a bit matrix with two officers, a bitboard with one). On
    /// assaut's 16-soldier closure it ran 2.2 to 2.6 times as fast as the
    /// position checker on the two-officer files and 1.4 to 1.9 times on
    /// the one-officer ones (scripts/bench-runs/2026-12-05-lone/).
    #[default]
    Sets,
    /// Position by position through the rules' generators
    /// ([`check_tier_as`]).
    Positions,
}

impl Checker {
    /// `"sets"` or `"positions"`, as `asalto verify --checker` names it.
    pub fn name(self) -> &'static str {
        match self {
            Checker::Sets => "sets",
            Checker::Positions => "positions",
        }
    }
}

/// [`check_tier_as`] with the checker `checker` for a WDL-only tier: the
/// same inconsistent positions either way, the same derived
/// win/draw/loss (the tests hold the two checkers to it).
pub fn check_tier_by(
    key: &TierKey,
    look: &mut Lookup<'_>,
    codes: &[u16],
    wdl_only: bool,
    checker: Checker,
) -> Result<Vec<Inconsistency>, SolveError> {
    if wdl_only && checker == Checker::Sets {
        setcheck::check_tier_sets(key, look, codes)
    } else {
        check_tier_as(key, look, codes, wdl_only)
    }
}
pub(crate) use floor::FloorTiers;
pub use floor::{
    Assume, Bound, Floor, FloorError, Floored, range_words, result_words, soldiers_result,
};
pub(crate) use lookup::{FieldsAt, Layered, TierCache, code_class};
pub use lookup::{Lookup, MemoryStore, TierStore, TierValues, WdlFields};
pub(crate) use retro::solve_tier;
pub use sample::{LevelSample, SyntheticStore, level_sample, median, sample_tiers};

use crate::Value;
use crate::index::{self, TierKey};
use crate::position::Position;
use crate::progress::{Observer, Progress, Throttle};
use crate::rules::Variant;
use rayon::prelude::*;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The most positions of one level solved before they are handed on
/// ([`Solver::solve_into`], a build's chunks): about 130 MB of values.
pub(crate) const CHUNK_POSITIONS: u64 = 1 << 26;

/// Errors of the solver.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SolveError {
    /// A tier needed for an exit is not in the store.
    #[error("tier {0:?} is needed but has not been solved")]
    MissingTier(TierKey),
    /// The position is over or otherwise in no tier.
    #[error("position {0} belongs to no tier (the game is over)")]
    NotInTier(Position),
    /// Reading a stored tier failed: the store's own error (for table
    /// files, the file and what is wrong with it: unreadable, corrupt, of
    /// another variant ...).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A store handed over fewer values than a tier has (it holds it only
    /// in part, as a build's window holds officers-to-move halves).
    #[error("the tier with outside soldiers {outside:#x} is held only in part ({found} values)")]
    PartialTier {
        /// The tier's soldiers outside the fortress.
        outside: u64,
        /// Values handed over.
        found: u64,
    },
    /// The thread pool could not be built.
    #[error("cannot start {0} threads")]
    Threads(usize),
    /// A scratch file (a cluster rank's spilled window) could not be
    /// written or read.
    #[error("scratch file {}: {error}", path.display())]
    Scratch {
        /// The file.
        path: std::path::PathBuf,
        /// The system's error (shared: solve errors are cloned).
        error: std::sync::Arc<std::io::Error>,
    },
}

/// The error a [`TierStore`] met reading a stored tier, kept whole: the
/// solver defines the shape of what its stores return, and each store
/// (the table files, a build's window) brings its own error inside.
#[derive(Clone, Debug, thiserror::Error)]
#[error(transparent)]
pub struct StoreError(std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl StoreError {
    /// Wrap a store's error.
    pub(crate) fn new(error: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError(std::sync::Arc::new(error))
    }

    /// The store's error, if it is a `T` (the tests look inside).
    #[cfg(test)]
    pub(crate) fn downcast_ref<T: std::error::Error + 'static>(&self) -> Option<&T> {
        self.0.downcast_ref()
    }
}

/// Summary of a solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Tiers solved.
    pub tiers: usize,
    /// Positions solved (both sides to move, after the mirror).
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// CPU seconds the whole process used meanwhile (user and system, all
    /// threads; `process_cpu_seconds`): below `seconds` times the
    /// threads when other work held the cores.
    pub cpu_seconds: f64,
    /// Worker threads the solve ran on.
    pub(crate) threads: usize,
}

/// CPU seconds (user and system) the process has used so far, all its
/// threads together (`getrusage`); 0 where the system does not say.
pub(crate) fn process_cpu_seconds() -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `usage` is a valid, writable rusage; RUSAGE_SELF is always
    // a valid target.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
        return 0.0;
    }
    // SAFETY: getrusage succeeded, so it filled the struct (and zeroed is
    // a valid rusage anyway).
    let u = unsafe { usage.assume_init() };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

impl Stats {
    /// Positions per second.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.positions as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// The share of its threads' time the solve had on a core: CPU
    /// seconds over wall seconds times threads (about 1 on idle cores,
    /// less when other work held them; 0 when unknown).
    pub(crate) fn cpu_share(&self) -> f64 {
        let wall = self.seconds * self.threads.max(1) as f64;
        if wall > 0.0 {
            self.cpu_seconds / wall
        } else {
            0.0
        }
    }
}

/// Solves sets of tiers for one variant.
#[derive(Clone)]
pub struct Solver {
    variant: Variant,
    threads: usize,
    floor: Option<Floor>,
    engine: Engine,
}

/// How a [`Solver`] solves a tier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Position by position, with exact distances (`solve_tier`).
    #[default]
    Positions,
    /// Sets of officer placements as bit rows, win/draw/loss only (and the
    /// loss in 0 a WDL-only table keeps): the values a WDL-only table
    /// holds, not their distances.
    BitSets,
}

impl Solver {
    /// A solver using all cores.
    pub fn new(variant: Variant) -> Solver {
        Solver {
            variant,
            threads: 0,
            floor: None,
            engine: Engine::Positions,
        }
    }

    /// Solve each tier with `engine`. [`Engine::BitSets`] gives win, draw
    /// and loss only: for WDL-only tables.
    pub fn engine(mut self, engine: Engine) -> Solver {
        self.engine = engine;
        self
    }

    /// Solve the game above `floor` ([`Floor`]): [`Solver::closure_of`]
    /// leaves out the tiers below it and [`Solver::solve_closure`] reads
    /// them as the floor assumes.
    pub fn floor(mut self, floor: Option<Floor>) -> Solver {
        self.floor = floor;
        self
    }

    /// Use `n` threads (1 = serial, 0 = one per core). Results do not depend
    /// on it.
    pub fn threads(mut self, n: usize) -> Solver {
        self.threads = n;
        self
    }

    /// The canonical tiers a position needs, in solving order (empty when
    /// the game is over by rules 1-3), those below the floor left out.
    pub fn closure_of(&self, pos: &Position) -> Vec<TierKey> {
        let mut tiers = self.closure_of_all(pos);
        if let Some(f) = &self.floor {
            tiers.retain(|t| !f.covers(t));
        }
        tiers
    }

    /// The canonical tiers a position needs, below a floor too.
    fn closure_of_all(&self, pos: &Position) -> Vec<TierKey> {
        let mut roots = Vec::new();
        if let Some(t) = TierKey::of(pos) {
            roots.push(t);
            // With huff rights the one-officer tier is read too.
            if pos.huff() != 0 && t.n == 2 {
                roots.push(TierKey { n: 1, ..t });
            }
        }
        index::closure(&roots, &self.variant)
    }

    /// Solve the tiers a position needs, in memory.
    pub fn solve_closure(&self, pos: &Position) -> Result<Solution, SolveError> {
        let tiers = self.closure_of(pos);
        let store = MemoryStore::new();
        let stats = {
            let floored = self.floor.map(|f| Floored::new(&store, f));
            let read: &dyn TierStore = match &floored {
                Some(f) => f,
                None => &store,
            };
            self.solve_into(&tiers, read, &crate::progress::Quiet, |k, codes| {
                store.insert(*k, codes);
                Ok(())
            })?
        };
        Ok(Solution {
            variant: self.variant,
            store,
            stats,
            floor: self.floor,
        })
    }

    /// Solve `tiers` (sorted in solving order, lower tiers readable from
    /// `store` or earlier in the list), handing each solved tier to `sink`
    /// in list order (so the output does not depend on the number of
    /// threads), a chunk of tiers of one level at a time; a level's tiers
    /// reach `sink` before the next level starts. `sink` must make the tier readable
    /// through `store` for the levels above. `observer` is told of the work
    /// once before the first tier (nothing done), then as tiers are done
    /// (from worker threads, through a [`Throttle`]: at most every
    /// [`Throttle::PERIOD`], and after the last). `sink` runs inside the solver's thread
    /// pool, so rayon work it does (a table writer compressing blocks)
    /// uses the same threads.
    pub(crate) fn solve_into(
        &self,
        tiers: &[TierKey],
        store: &dyn TierStore,
        observer: &dyn Observer,
        mut sink: impl FnMut(&TierKey, Vec<u16>) -> Result<(), SolveError> + Send,
    ) -> Result<Stats, SolveError> {
        let start = Instant::now();
        let cpu_start = process_cpu_seconds();
        let pool = self.pool()?;
        let total_positions: u64 = tiers.iter().map(|t| t.size()).sum();
        let base = Progress {
            tiers_total: tiers.len(),
            total: total_positions,
            ..Progress::default()
        };
        observer.progress(&base);
        let done = std::sync::atomic::AtomicU64::new(0);
        let done_tiers = std::sync::atomic::AtomicUsize::new(0);
        let throttle = Throttle::default();
        let on_tier = |key: &TierKey| {
            let p = done.fetch_add(key.size(), Ordering::Relaxed) + key.size();
            let t = done_tiers.fetch_add(1, Ordering::Relaxed) + 1;
            throttle.report(
                observer,
                &Progress {
                    tiers_done: t,
                    done: p,
                    ..base
                },
            );
        };
        for chunk in chunks(tiers, &self.variant, CHUNK_POSITIONS) {
            pool.install(|| {
                let values = self.solve_chunk(chunk, store, &on_tier)?;
                for (key, codes) in chunk.iter().zip(values) {
                    sink(key, codes)?;
                }
                Ok::<(), SolveError>(())
            })?;
        }
        Ok(Stats {
            tiers: tiers.len(),
            positions: total_positions,
            seconds: start.elapsed().as_secs_f64(),
            cpu_seconds: process_cpu_seconds() - cpu_start,
            threads: pool.current_num_threads(),
        })
    }

    /// A thread pool of this solver's size, for [`Solver::solve_chunk`].
    pub(crate) fn pool(&self) -> Result<rayon::ThreadPool, SolveError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|_| SolveError::Threads(self.threads))
    }

    /// Solve the tiers of `chunk`, all of one level (lower tiers readable
    /// from `store`), in parallel on the current rayon pool (run it inside
    /// [`rayon::ThreadPool::install`] of [`Solver::pool`]); their value
    /// codes in the order of `chunk`. `on_tier` is called after each tier,
    /// from worker threads.
    pub(crate) fn solve_chunk(
        &self,
        chunk: &[TierKey],
        store: &dyn TierStore,
        on_tier: &(dyn Fn(&TierKey) + Sync),
    ) -> Result<Vec<Vec<u16>>, SolveError> {
        let variant = self.variant;
        // One tier per job: rayon otherwise splits only on steals, and the
        // last large piece runs on one thread.
        chunk
            .par_iter()
            .with_max_len(1)
            .map(|key| {
                let mut look = Lookup::new(store, variant);
                let r = match self.engine {
                    Engine::Positions => solve_tier(key, &mut look),
                    Engine::BitSets => solve_tier_wdl(key, &mut look),
                };
                on_tier(key);
                r
            })
            .collect()
    }
}

/// `tiers` (sorted in solving order) cut into runs of one level each
/// holding at most `max_positions` positions (or a single larger tier),
/// so that a large level's values are never all held at once.
pub(crate) fn chunks<'a>(
    tiers: &'a [TierKey],
    variant: &Variant,
    max_positions: u64,
) -> impl Iterator<Item = &'a [TierKey]> + 'a {
    let variant = *variant;
    tiers
        .chunk_by(move |a, b| a.level(&variant) == b.level(&variant))
        .flat_map(move |level| {
            let mut rest = level;
            std::iter::from_fn(move || {
                if rest.is_empty() {
                    return None;
                }
                let mut b = 1;
                let mut size = rest[0].size();
                while b < rest.len() && size + rest[b].size() <= max_positions {
                    size += rest[b].size();
                    b += 1;
                }
                let (chunk, tail) = rest.split_at(b);
                rest = tail;
                Some(chunk)
            })
        })
}

/// Solved tiers in memory, with the values of every position they cover.
pub struct Solution {
    variant: Variant,
    store: MemoryStore,
    stats: Stats,
    floor: Option<Floor>,
}

impl Solution {
    /// The value of any position whose tiers were solved, for the side to
    /// move (huff rights included).
    pub fn value(&self, pos: &Position) -> Result<Value, SolveError> {
        match self.floor {
            Some(f) => Lookup::new(&Floored::new(&self.store, f), self.variant).value(pos),
            None => Lookup::new(&self.store, self.variant).value(pos),
        }
    }

    /// The floor it was solved above, if any.
    pub fn floor(&self) -> Option<Floor> {
        self.floor
    }

    /// The store of solved tiers.
    pub fn store(&self) -> &MemoryStore {
        &self.store
    }

    /// What the solve did.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::check::check_tier;
    use super::*;

    fn solved(variant: Variant, pos: &str, threads: usize) -> (Vec<TierKey>, Solution) {
        let p: Position = pos.parse().unwrap();
        let solver = Solver::new(variant).threads(threads);
        let tiers = solver.closure_of(&p);
        (tiers, solver.solve_closure(&p).unwrap())
    }

    #[test]
    fn solutions_are_locally_consistent_and_a_planted_error_is_caught() {
        for v in [
            Variant::ASSAUT,
            Variant::ASSAUT_MDJ,
            Variant::ASALTO,
            Variant::ASSAULT,
        ] {
            let (tiers, sol) = solved(v, "S1S/1S1/1S1O1S1/2SSS2/2S1S2/3/3 o", 1);
            for key in &tiers {
                let codes = sol.store().tier(key).unwrap().unwrap();
                let mut look = Lookup::new(sol.store(), v);
                let bad = check_tier(key, &mut look, &codes).unwrap();
                assert!(
                    bad.is_empty(),
                    "{v} {key:?}: {:?}",
                    &bad[..bad.len().min(3)]
                );
            }
            // Plant a wrong value in the largest tier: a draw becomes a win and
            // a decided value shifts by two plies.
            let key = tiers.iter().max_by_key(|t| t.size()).unwrap();
            let mut codes = sol.store().tier(key).unwrap().unwrap().to_vec();
            let i = codes.iter().position(|&c| c != 0).unwrap();
            codes[i] += 4;
            let mut look = Lookup::new(sol.store(), v);
            let bad = check_tier(key, &mut look, &codes).unwrap();
            assert!(bad.iter().any(|b| b.index as usize == i), "{v}");
        }
    }

    #[test]
    fn serial_and_parallel_agree() {
        let pos = "S1S/1S1/1S1O1S1/2SSS2/2S1S2/3/3 o";
        let (tiers, a) = solved(Variant::ASALTO, pos, 1);
        let (_, b) = solved(Variant::ASALTO, pos, 2);
        for key in &tiers {
            assert_eq!(
                a.store().tier(key).unwrap().unwrap(),
                b.store().tier(key).unwrap().unwrap()
            );
        }
    }
}
