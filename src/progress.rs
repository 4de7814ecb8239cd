//! Progress of long operations: one [`Progress`] value and one
//! [`Observer`] trait that every long operation of the library reports to
//! (solving, building, verifying, repacking, reports).
//!
//! An operation calls [`Observer::progress`] as work gets done, from
//! worker threads, so observers are `Sync`. A closure taking a
//! `&Progress` is an observer; [`Quiet`] ignores everything. Operations
//! whose pieces of work are small (a build at 12 soldiers finishes
//! millions of tiers a file) report through a [`Throttle`]: at most one
//! report every `Throttle::PERIOD` (100 ms), and always the one that ends a step,
//! so that no observer pays per piece.
//!
//! ```
//! use asalto_tb::progress::{Observer, Progress};
//! use std::sync::atomic::{AtomicU64, Ordering};
//! let seen = AtomicU64::new(0);
//! let watch = |p: &Progress| seen.store(p.done, Ordering::Relaxed);
//! watch.progress(&Progress { done: 7, total: 10, ..Progress::default() });
//! assert_eq!(seen.load(Ordering::Relaxed), 7);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

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

/// Watches a long operation.
pub trait Observer: Sync {
    /// Work was done: how far the operation got. Called from worker
    /// threads, in no guaranteed order between threads; by the library's
    /// operations once when a step starts (`done` 0), then at most every
    /// `Throttle::PERIOD`, and when it ends (`done == total`).
    fn progress(&self, _p: &Progress<'_>) {}
}

/// Passes an operation's progress on to its observer at most once every
/// period, from whichever thread reports first after it, and always the
/// progress that ends a step (`done >= total`, which one thread alone
/// reaches when `done` is counted atomically).
///
/// ```
/// use asalto_tb::progress::{Progress, Throttle};
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use std::time::Duration;
/// let seen = AtomicU64::new(0);
/// let count = |_: &Progress| {
///     seen.fetch_add(1, Ordering::Relaxed);
/// };
/// let throttle = Throttle::new(Duration::from_secs(3600));
/// for done in 1..=10 {
///     throttle.report(&count, &Progress { done, total: 10, ..Progress::default() });
/// }
/// // The first report, then none for an hour, but the last.
/// assert_eq!(seen.load(Ordering::Relaxed), 2);
/// ```
#[derive(Debug)]
pub struct Throttle {
    start: Instant,
    period_ms: u64,
    /// Milliseconds after `start` before which nothing more is passed on
    /// (0 at first: the first report passes).
    next_ms: AtomicU64,
}

impl Throttle {
    /// The period of the library's operations: ten reports a second.
    pub(crate) const PERIOD: Duration = Duration::from_millis(100);

    /// A throttle letting a report through at most every `period`.
    pub fn new(period: Duration) -> Throttle {
        Throttle {
            start: Instant::now(),
            period_ms: period.as_millis().min(u64::MAX as u128) as u64,
            next_ms: AtomicU64::new(0),
        }
    }

    /// Pass `p` on to `observer` if it ends its step or a period has
    /// passed since the last report passed on.
    pub fn report<O: Observer + ?Sized>(&self, observer: &O, p: &Progress<'_>) {
        if p.done < p.total {
            let now = self.start.elapsed().as_millis() as u64;
            let next = self.next_ms.load(Ordering::Relaxed);
            if now < next
                || self
                    .next_ms
                    .compare_exchange(
                        next,
                        now.saturating_add(self.period_ms),
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    )
                    .is_err()
            {
                return;
            }
        }
        observer.progress(p);
    }
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::new(Throttle::PERIOD)
    }
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

/// A byte count for people: decimal units (`684.4 GB`).
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    match b {
        b if b >= 1e12 => format!("{:.2} TB", b / 1e12),
        b if b >= 1e9 => format!("{:.1} GB", b / 1e9),
        b if b >= 1e6 => format!("{:.1} MB", b / 1e6),
        b if b >= 1e3 => format!("{:.1} kB", b / 1e3),
        b => format!("{b:.0} B"),
    }
}

/// A duration in seconds for people (`31.3 hours`).
pub fn human_duration(s: f64) -> String {
    match s {
        s if s >= 2.0 * 86_400.0 => format!("{:.1} days", s / 86_400.0),
        s if s >= 2.0 * 3600.0 => format!("{:.1} hours", s / 3600.0),
        s if s >= 120.0 => format!("{:.0} min", s / 60.0),
        s => format!("{s:.0} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the reports passed on, and remembers the last.
    #[derive(Default)]
    struct Seen {
        count: AtomicU64,
        last_done: AtomicU64,
    }

    impl Observer for Seen {
        fn progress(&self, p: &Progress<'_>) {
            self.count.fetch_add(1, Ordering::Relaxed);
            self.last_done.store(p.done, Ordering::Relaxed);
        }
    }

    fn at(done: u64, total: u64) -> Progress<'static> {
        Progress {
            done,
            total,
            ..Progress::default()
        }
    }

    #[test]
    fn a_throttle_passes_the_first_report_and_the_end_of_each_step() {
        let seen = Seen::default();
        let t = Throttle::new(Duration::from_secs(3600));
        for done in 0..1000 {
            t.report(&seen, &at(done, 1000));
        }
        assert_eq!(seen.count.load(Ordering::Relaxed), 1);
        assert_eq!(seen.last_done.load(Ordering::Relaxed), 0);
        t.report(&seen, &at(1000, 1000));
        assert_eq!(seen.count.load(Ordering::Relaxed), 2);
        assert_eq!(seen.last_done.load(Ordering::Relaxed), 1000);
        // A step with nothing to do ends at once.
        t.report(&seen, &at(0, 0));
        assert_eq!(seen.count.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn a_throttle_passes_again_once_its_period_is_over() {
        let seen = Seen::default();
        let t = Throttle::new(Duration::from_millis(20));
        t.report(&seen, &at(1, 10));
        t.report(&seen, &at(2, 10));
        assert_eq!(seen.count.load(Ordering::Relaxed), 1);
        std::thread::sleep(Duration::from_millis(30));
        t.report(&seen, &at(3, 10));
        assert_eq!(seen.count.load(Ordering::Relaxed), 2);
        assert_eq!(seen.last_done.load(Ordering::Relaxed), 3);
        // A zero period passes everything.
        let all = Seen::default();
        let t = Throttle::new(Duration::ZERO);
        for done in 0..5 {
            t.report(&all, &at(done, 10));
        }
        assert_eq!(all.count.load(Ordering::Relaxed), 5);
    }
}
