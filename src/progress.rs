//! Progress of long operations: one [`Progress`] value and one
//! [`Observer`] trait that every long operation of the library reports to
//! (solving, building, verifying, repacking, reports).
//!
//! An operation calls [`Observer::progress`] as work gets done, from
//! worker threads, so observers are `Sync`. A closure taking a
//! `&Progress` is an observer; [`Quiet`] ignores everything.
//!
//! ```
//! use asalto_tb::progress::{Observer, Progress};
//! use std::sync::atomic::{AtomicU64, Ordering};
//! let seen = AtomicU64::new(0);
//! let watch = |p: &Progress| seen.store(p.done, Ordering::Relaxed);
//! watch.progress(&Progress { done: 7, total: 10, ..Progress::default() });
//! assert_eq!(seen.load(Ordering::Relaxed), 7);
//! ```

/// How far an operation got. Counts are of positions (both sides to
/// move); tiers are counted too where the operation works tier by tier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress<'a> {
    /// The step under way, when an operation has several (for example
    /// `assaut 2o9s: counting`); empty otherwise.
    pub step: &'a str,
    /// Positions done so far (in this step).
    pub done: u64,
    /// Positions in all (in this step).
    pub total: u64,
    /// Tiers done so far (0 where tiers are not counted).
    pub tiers_done: usize,
    /// Tiers in all (0 where tiers are not counted).
    pub tiers_total: usize,
}

impl Progress<'_> {
    /// The share done, from 0 to 1 (1 when there is nothing to do).
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.done as f64 / self.total as f64
        }
    }
}

/// Watches a long operation.
pub trait Observer: Sync {
    /// Work was done: how far the operation got. Called from worker
    /// threads, in no guaranteed order between threads.
    fn progress(&self, _p: &Progress<'_>) {}
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Observer for Quiet {}

impl<F: Fn(&Progress<'_>) + Sync> Observer for F {
    fn progress(&self, p: &Progress<'_>) {
        self(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fraction_of_nothing_is_all() {
        assert_eq!(Progress::default().fraction(), 1.0);
        let p = Progress {
            done: 1,
            total: 4,
            ..Progress::default()
        };
        assert_eq!(p.fraction(), 0.25);
    }
}
