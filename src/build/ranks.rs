//! The processes of one build: how a build shares the tiers of each chunk
//! among them and exchanges what they solved.
//!
//! A build runs as one process ([`Solo`], the default) or as the ranks of
//! an MPI job (`mpirun -np N asalto build ..`, cargo feature `mpi`: the
//! `MpiRanks` of `src/build/mpi.rs`). Every rank computes
//! the same list of tiers; each chunk of a level is shared out by
//! [`shares`] (balanced by positions, the same answer on every rank),
//! every rank solves its share with its own threads, and the values are
//! gathered on every rank in chunk order ([`Ranks::all_gather`]), so each
//! rank keeps the window later levels read. Rank 0 alone writes the file
//! and its checkpoints. The bytes written depend on none of it.

use crate::index::TierKey;
use std::fmt;
use std::sync::Arc;

/// The collective operations a build needs from its processes. Every
/// method is called by every rank in the same order (as MPI collectives
/// are); rank 0 is the root.
pub trait Ranks: Send + Sync {
    /// This process's rank, `0..size`.
    fn rank(&self) -> usize;
    /// How many ranks.
    fn size(&self) -> usize;
    /// Every rank's `mine`, concatenated in rank order; `counts[r]` is the
    /// length of rank `r`'s part (the same slice on every rank).
    fn all_gather(&self, mine: &[u16], counts: &[u64]) -> Vec<u16>;
    /// Rank 0's `values` overwrite everyone's.
    fn broadcast(&self, values: &mut [u64]);
    /// Rank 0's `codes` overwrite everyone's.
    fn broadcast_codes(&self, codes: &mut [u16]);
    /// Every rank's `mine` (all of the same length), concatenated in rank
    /// order, on rank 0; empty elsewhere.
    fn gather(&self, mine: &[f64]) -> Vec<f64>;
    /// Wait until every rank is here.
    fn barrier(&self);
}

/// One process: every collective is a copy.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Solo;

impl Ranks for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn all_gather(&self, mine: &[u16], _counts: &[u64]) -> Vec<u16> {
        mine.to_vec()
    }
    fn broadcast(&self, _values: &mut [u64]) {}
    fn broadcast_codes(&self, _codes: &mut [u16]) {}
    fn gather(&self, mine: &[f64]) -> Vec<f64> {
        mine.to_vec()
    }
    fn barrier(&self) {}
}

/// The ranks a build runs on (cheap to clone; one process, `Solo`, by default).
#[derive(Clone)]
pub struct Cluster(pub Arc<dyn Ranks>);

impl Default for Cluster {
    fn default() -> Cluster {
        Cluster(Arc::new(Solo))
    }
}

impl fmt::Debug for Cluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cluster(rank {} of {})", self.0.rank(), self.0.size())
    }
}

impl std::ops::Deref for Cluster {
    type Target = dyn Ranks;
    fn deref(&self) -> &(dyn Ranks + 'static) {
        &*self.0
    }
}

/// The rank that solves each tier of `chunk` (in the chunk's order),
/// among `size` ranks: largest tiers first, each to the rank with the
/// fewest positions so far (the lowest rank among equals). It depends on
/// nothing but its arguments, so every rank computes the same shares.
pub(crate) fn shares(chunk: &[TierKey], size: usize) -> Vec<usize> {
    let size = size.max(1);
    let mut order: Vec<usize> = (0..chunk.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(chunk[i].size()), i));
    let mut load = vec![0u64; size];
    let mut owner = vec![0; chunk.len()];
    for i in order {
        let r = (0..size).min_by_key(|&r| (load[r], r)).unwrap_or(0);
        load[r] += chunk[i].size();
        owner[i] = r;
    }
    owner
}

/// What one rank did in the build of a file.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct RankShare {
    /// The rank.
    pub(crate) rank: usize,
    /// Positions this rank solved.
    pub(crate) positions: u64,
    /// Seconds this rank spent solving (its share of each chunk; rank 0
    /// writes the chunk before meanwhile).
    pub(crate) solve_seconds: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{FileKey, all_tiers};
    use crate::rules::Variant;

    #[test]
    fn shares_cover_every_tier_and_balance_the_positions() {
        let tiers = all_tiers(FileKey::new(2, 9), &Variant::ASSAUT);
        let chunk = &tiers[..200];
        for size in [1, 2, 3, 7] {
            let owner = shares(chunk, size);
            assert_eq!(owner.len(), chunk.len());
            assert!(owner.iter().all(|&r| r < size));
            let mut load = vec![0u64; size];
            for (t, &r) in chunk.iter().zip(&owner) {
                load[r] += t.size();
            }
            // Greedy largest-first: no rank is behind another by more
            // than the largest tier.
            let largest = chunk.iter().map(|t| t.size()).max().unwrap();
            let (lo, hi) = (load.iter().min().unwrap(), load.iter().max().unwrap());
            assert!(hi - lo <= largest, "{load:?}");
            assert_eq!(shares(chunk, size), owner, "not deterministic");
        }
        assert!(shares(chunk, 1).iter().all(|&r| r == 0));
    }
}
