//! On-demand solving: the value of a position and of its moves when the
//! table files it needs are missing, by solving the missing tiers in memory
//! (what `asalto query` falls back on and `asalto solve` does).
//!
//! Solving in memory costs about 2 bytes a position while it runs, so it is
//! refused above a limit ([`MAX_IN_MEMORY`] by default) with
//! [`OnDemandError::TooLarge`], which carries what was counted so that a
//! front end can say what building the tables instead would cost
//! ([`crate::plan`]).
//!
//! ```
//! use asalto_tb::{Position, Value, Variant, ondemand};
//! // Nine soldiers, eight in the fortress: e4-e5 fills it.
//! let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
//! let solved = ondemand::solve(&p, &Variant::ASSAUT, &ondemand::Options::default()).unwrap();
//! assert_eq!(solved.analysis.value, Value::Win(1));
//! ```

use crate::index::{self, TierKey};
use crate::position::Position;
use crate::probe::{self, Analysis};
use crate::progress::{Observer, Quiet};
use crate::rules::{self, Variant};
use crate::solve::{Layered, MemoryStore, SolveError, Solver, Stats, TierStore};
use crate::table::TableSet;

/// The most positions solved in memory by default (about 2 bytes each
/// while solving, so about 6 GB): beyond it a query or a solve is refused.
pub const MAX_IN_MEMORY: u64 = 3_000_000_000;

/// What went wrong in an on-demand solve.
#[derive(Debug, thiserror::Error)]
pub enum OnDemandError {
    /// The tiers to solve hold more positions than the limit.
    #[error(
        "valuing {position} needs more than {limit} positions solved in memory ({found} counted before giving up)"
    )]
    TooLarge {
        /// The position asked about.
        position: Position,
        /// The limit in force.
        limit: u64,
        /// Positions counted when the count passed the limit.
        found: u64,
    },
    /// Solving or probing failed (a table unreadable, a thread pool that
    /// cannot start).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads (1 = serial, 0 = one per core).
    pub threads: usize,
    /// The most positions to solve in memory.
    pub limit: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 0,
            limit: MAX_IN_MEMORY,
        }
    }
}

/// The result of an on-demand solve.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The position's value and the value of each move.
    pub analysis: Analysis,
    /// What was solved in memory; `None` when the tables held everything.
    pub stats: Option<Stats>,
}

/// The tiers (not canonicalised) whose values valuing `pos` and each of its
/// moves reads directly: the position's own tier and those of its
/// children (a child may sit in a tier the position itself never needs,
/// after a huff), with the one-officer tier next to any position with huff
/// rights. Their closure ([`index::closure`]) is everything the position
/// needs.
pub(crate) fn roots(pos: &Position, variant: &Variant) -> Vec<TierKey> {
    let mut roots: Vec<TierKey> = Vec::new();
    for p in std::iter::once(*pos).chain(
        rules::legal_moves(pos, variant)
            .iter()
            .map(|m| rules::play(pos, variant, m)),
    ) {
        if let Some(t) = TierKey::of(&p) {
            roots.push(t);
            if p.huff() != 0 && t.n == 2 {
                roots.push(TierKey { n: 1, ..t });
            }
        }
    }
    roots
}

/// The canonical tiers to solve to value `pos` and its moves, in solving
/// order, leaving out those `have` says are already solved (and what lies
/// below them); [`OnDemandError::TooLarge`] when they hold more than
/// `limit` positions.
pub fn needed_tiers(
    pos: &Position,
    variant: &Variant,
    have: impl Fn(&TierKey) -> bool,
    limit: u64,
) -> Result<Vec<TierKey>, OnDemandError> {
    index::closure_within(&roots(pos, variant), variant, have, limit).map_err(|found| {
        OnDemandError::TooLarge {
            position: *pos,
            limit,
            found,
        }
    })
}

/// Solve `tiers` (in solving order) into `memory`, reading lower tiers
/// through `store` (which must see `memory` too).
fn solve_tiers(
    tiers: &[TierKey],
    variant: &Variant,
    store: &dyn TierStore,
    memory: &MemoryStore,
    threads: usize,
    observer: &dyn Observer,
) -> Result<Stats, SolveError> {
    let solver = Solver::new(*variant).threads(threads);
    solver.solve_into(tiers, store, observer, |k, codes| {
        memory.insert(*k, codes);
        Ok(())
    })
}

/// Solve everything `pos` needs in memory (no tables read) and value it
/// and its moves.
pub fn solve(
    pos: &Position,
    variant: &Variant,
    options: &Options,
) -> Result<Solved, OnDemandError> {
    solve_observed(pos, variant, options, &Quiet)
}

/// [`solve`], reporting to `observer`.
pub fn solve_observed(
    pos: &Position,
    variant: &Variant,
    options: &Options,
    observer: &dyn Observer,
) -> Result<Solved, OnDemandError> {
    let (analysis, stats) = with_store(pos, variant, None, options, observer, |store| {
        probe::analyse(store, variant, pos)
    })?;
    Ok(Solved { analysis, stats })
}

/// Hand `f` a store holding the value of every position `pos` can lead
/// to: the tables of `set` where they hold its tiers (a table that cannot
/// be opened counts as holding them, so that reading it reports what is
/// wrong), the rest solved in memory first ([`OnDemandError::TooLarge`]
/// above the limit). With `f`'s result, the statistics of what was solved
/// (`None` when the tables held everything).
pub fn with_store<R>(
    pos: &Position,
    variant: &Variant,
    set: Option<&TableSet>,
    options: &Options,
    observer: &dyn Observer,
    f: impl FnOnce(&dyn TierStore) -> Result<R, SolveError>,
) -> Result<(R, Option<Stats>), OnDemandError> {
    let Some(set) = set else {
        let tiers = needed_tiers(pos, variant, |_| false, options.limit)?;
        let memory = MemoryStore::new();
        let stats = solve_tiers(&tiers, variant, &memory, &memory, options.threads, observer)?;
        return Ok((f(&memory)?, Some(stats)));
    };
    let missing = missing_tiers(pos, variant, set, options.limit)?;
    if missing.is_empty() {
        return Ok((f(set)?, None));
    }
    let memory = MemoryStore::new();
    let layered = Layered(&memory, set);
    let stats = solve_tiers(
        &missing,
        variant,
        &layered,
        &memory,
        options.threads,
        observer,
    )?;
    Ok((f(&layered)?, Some(stats)))
}

/// The tiers [`query`] solves in memory to value `pos` and its moves
/// from the tables of `set` (those no table holds; a table that cannot be
/// opened counts as holding its tiers), in solving order;
/// [`OnDemandError::TooLarge`] when they hold more than `limit` positions.
/// A front end serving several queries at once counts a query's memory
/// with it before solving.
pub(crate) fn missing_tiers(
    pos: &Position,
    variant: &Variant,
    set: &TableSet,
    limit: u64,
) -> Result<Vec<TierKey>, OnDemandError> {
    // Below a floor the set answers with the floor's assumed tiers.
    let floor = set.floor();
    let have = |t: &TierKey| match set.table(t.file()) {
        _ if floor.is_some_and(|f| f.covers(t)) => true,
        Ok(Some(table)) => table.contains(t).unwrap_or(true),
        Ok(None) => false,
        Err(_) => true,
    };
    needed_tiers(pos, variant, have, limit)
}

/// Value `pos` and its moves from the tables of `set`, solving in memory
/// the tiers no table holds ([`with_store`]).
pub fn query(
    pos: &Position,
    variant: &Variant,
    set: &TableSet,
    options: &Options,
    observer: &dyn Observer,
) -> Result<Solved, OnDemandError> {
    let (analysis, stats) = with_store(pos, variant, Some(set), options, observer, |store| {
        probe::analyse(store, variant, pos)
    })?;
    Ok(Solved { analysis, stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;

    #[test]
    fn a_closure_above_the_limit_is_refused() {
        // Nine soldiers, eight in the fortress, the ninth on e4 (whose only
        // step fills the fortress, and every capture leaves eight): the
        // closure is the tier of e4 with two officers, 2 * C(9, 8) *
        // C(24, 2) = 4,968 positions, and with one (after a huff),
        // 2 * 9 * 24 = 432.
        let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
        let v = Variant::ASSAUT;
        let all = needed_tiers(&p, &v, |_| false, u64::MAX).unwrap();
        let total: u64 = all.iter().map(|t| t.size()).sum();
        assert_eq!(total, 4_968 + 432);
        // Exactly at the limit: solved; one below: refused, typed.
        let at = Options {
            threads: 1,
            limit: total,
        };
        assert_eq!(solve(&p, &v, &at).unwrap().analysis.value, Value::Win(1));
        let below = Options {
            limit: total - 1,
            ..at
        };
        match solve(&p, &v, &below) {
            Err(OnDemandError::TooLarge {
                position,
                limit,
                found,
            }) => {
                assert_eq!(position, p);
                assert_eq!(limit, total - 1);
                assert!(found > limit);
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }

    #[test]
    fn query_without_tables_solves_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
        let v = Variant::ASSAUT;
        let set = TableSet::open(dir.path(), &v);
        let opts = Options {
            threads: 1,
            ..Options::default()
        };
        let q = query(&p, &v, &set, &opts, &Quiet).unwrap();
        let s = solve(&p, &v, &opts).unwrap();
        assert_eq!(q.analysis.value, Value::Win(1));
        assert_eq!(q.stats.unwrap().positions, s.stats.unwrap().positions);
        let moves = |a: &Analysis| -> Vec<(String, Value)> {
            a.moves
                .iter()
                .map(|m| (m.mv.to_string(), m.value))
                .collect()
        };
        assert_eq!(moves(&q.analysis), moves(&s.analysis));
    }
}
