//! [`Ranks`] over MPI (cargo feature `mpi`): the ranks of `mpirun -np N
//! asalto build ..`, through the `mpi` crate (rsmpi) on the system's MPI
//! library. Only the build's own thread calls MPI (the solver's rayon
//! threads never do), one call at a time: MPI is initialised with
//! `MPI_THREAD_SERIALIZED` and the communicator sits behind a mutex.

use super::ranks::{Cluster, Ranks};
use mpi::Count;
use mpi::datatype::PartitionMut;
use mpi::environment::{Threading, Universe};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use std::sync::{Arc, Mutex};

/// Elements per MPI call: counts are C `int`s.
const PIECE: usize = 1 << 30;

/// The environment variable that lowers the elements per MPI call below
/// [`PIECE`], so that tests can take the paths of very large exchanges
/// (several rounds) on small builds.
pub(crate) const PIECE_VAR: &str = "ASALTO_MPI_PIECE";

/// The MPI state: the universe (finalised when dropped, after the
/// communicator) and the world communicator.
struct World {
    world: SimpleCommunicator,
    _universe: Universe,
}

// SAFETY: MPI is initialised with MPI_THREAD_SERIALIZED, which allows MPI
// calls from any thread as long as no two run at once; every use of
// `World` goes through the `Mutex` of `MpiRanks`.
unsafe impl Send for World {}

/// The ranks of an MPI job.
pub struct MpiRanks {
    world: Mutex<World>,
    rank: usize,
    size: usize,
    /// Elements per MPI call ([`PIECE`], or less by [`PIECE_VAR`]).
    piece: usize,
}

/// Why MPI could not be used.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// `MPI_Init_thread` failed or MPI was initialised already.
    #[error("MPI could not be initialised")]
    Init,
    /// The MPI library cannot serialise calls from several threads.
    #[error("the MPI library offers thread level {0:?}; the build needs Serialized")]
    Threading(String),
    /// `ASALTO_MPI_PIECE` (`PIECE_VAR`) is set to something other than a
    /// count of elements from 1 to 2^30.
    #[error("{PIECE_VAR}={0:?}: expected a number of elements from 1 to 1073741824")]
    Piece(String),
}

impl MpiRanks {
    /// Initialise MPI: the ranks of the job this process is part of (one
    /// rank when it was not started by `mpirun`).
    pub fn init() -> Result<Arc<MpiRanks>, MpiError> {
        let piece = match std::env::var(PIECE_VAR) {
            Err(_) => PIECE,
            Ok(v) => match v.parse::<usize>() {
                Ok(n) if (1..=PIECE).contains(&n) => n,
                _ => return Err(MpiError::Piece(v)),
            },
        };
        let (universe, level) =
            mpi::initialize_with_threading(Threading::Serialized).ok_or(MpiError::Init)?;
        if matches!(level, Threading::Single | Threading::Funneled) {
            return Err(MpiError::Threading(format!("{level:?}")));
        }
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        Ok(Arc::new(MpiRanks {
            world: Mutex::new(World {
                world,
                _universe: universe,
            }),
            rank,
            size,
            piece,
        }))
    }

    /// These ranks as the cluster of a build.
    pub fn cluster(self: &Arc<Self>) -> Cluster {
        Cluster(self.clone())
    }

    /// End every rank of the job (after an error on one of them: the
    /// others would wait for it forever).
    pub fn abort(&self, code: i32) -> ! {
        let w = self.world.lock().unwrap_or_else(|e| e.into_inner());
        w.world.abort(code)
    }

    fn with<T>(&self, f: impl FnOnce(&SimpleCommunicator) -> T) -> T {
        let w = self.world.lock().unwrap_or_else(|e| e.into_inner());
        f(&w.world)
    }
}

/// `n` as an MPI count (the callers cut their buffers into pieces of at
/// most [`PIECE`]).
fn count(n: usize) -> Count {
    Count::try_from(n).expect("pieces are under 2^31 elements")
}

impl Ranks for MpiRanks {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn all_gather(&self, mine: &[u16], counts: &[u64]) -> Vec<u16> {
        let total: u64 = counts.iter().sum();
        let mut out = vec![0u16; total as usize];
        let starts: Vec<u64> = counts
            .iter()
            .scan(0, |s, &c| {
                let f = *s;
                *s += c;
                Some(f)
            })
            .collect();
        let most = counts.iter().copied().max().unwrap_or(0);
        if most <= self.piece as u64 && total <= i32::MAX as u64 {
            // One call, straight into place (the usual case: a chunk).
            let cs: Vec<Count> = counts.iter().map(|&c| count(c as usize)).collect();
            let ds: Vec<Count> = starts.iter().map(|&s| count(s as usize)).collect();
            let mut part = PartitionMut::new(&mut out[..], cs, ds);
            self.with(|w| w.all_gather_varcount_into(mine, &mut part));
            return out;
        }
        // Rounds of at most `per` elements from each rank (the round's
        // buffer stays under `piece` elements).
        let per = (self.piece / self.size.max(1)).max(1) as u64;
        let mut sent = 0u64;
        self.with(|w| {
            loop {
                let piece: Vec<u64> = counts
                    .iter()
                    .map(|&c| c.saturating_sub(sent).min(per))
                    .collect();
                let mut buf = vec![0u16; piece.iter().sum::<u64>() as usize];
                let displs: Vec<Count> = piece
                    .iter()
                    .scan(0usize, |s, &c| {
                        let f = *s;
                        *s += c as usize;
                        Some(count(f))
                    })
                    .collect();
                let cs: Vec<Count> = piece.iter().map(|&c| count(c as usize)).collect();
                let lo = (sent as usize).min(mine.len());
                let hi = (lo + per as usize).min(mine.len());
                {
                    let mut part = PartitionMut::new(&mut buf[..], cs, displs.clone());
                    w.all_gather_varcount_into(&mine[lo..hi], &mut part);
                }
                for (r, (&c, &d)) in piece.iter().zip(&displs).enumerate() {
                    if c == 0 {
                        // This rank's share is all sent (its place may
                        // be the end of `out`).
                        continue;
                    }
                    let at = (starts[r] + sent) as usize;
                    out[at..at + c as usize]
                        .copy_from_slice(&buf[d as usize..d as usize + c as usize]);
                }
                sent += per;
                if sent >= most {
                    break;
                }
            }
        });
        out
    }

    fn broadcast(&self, values: &mut [u64]) {
        self.with(|w| {
            for piece in values.chunks_mut(self.piece) {
                w.process_at_rank(0).broadcast_into(piece);
            }
        })
    }

    fn broadcast_codes(&self, codes: &mut [u16]) {
        self.with(|w| {
            for piece in codes.chunks_mut(self.piece) {
                w.process_at_rank(0).broadcast_into(piece);
            }
        })
    }

    fn gather(&self, mine: &[f64]) -> Vec<f64> {
        self.with(|w| {
            let root = w.process_at_rank(0);
            if self.rank == 0 {
                let mut out = vec![0.0; mine.len() * self.size];
                root.gather_into_root(mine, &mut out[..]);
                out
            } else {
                root.gather_into(mine);
                Vec::new()
            }
        })
    }

    fn barrier(&self) {
        self.with(|w| w.barrier())
    }
}
