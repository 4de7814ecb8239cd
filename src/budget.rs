//! The memory budget (`--memory`): one type, [`MemoryBudget`], that says
//! whether a file's build fits, the least budget that does, and how a
//! budget divides between the window of solved tiers and the cache of the
//! lower files' decompressed blocks. The build, `asalto plan` and the CLI's
//! check before any file all ask it the same question ([`MemoryBudget::share`])
//! and get the same refusal ([`BudgetError`]); verify's block cache takes
//! its share from it too ([`MemoryBudget::verify_block_cache`]).
//!
//! What a file's build needs is a [`Need`]: its bytes besides the window
//! (fixed allowances and the file's index, `build::bytes_besides_window`)
//! and the most its window holds when the budget does not bind.

use crate::index::FileKey;
use crate::progress::human_bytes;
use crate::table::blocks;

/// Bytes a build needs whatever its window holds: the lower tables'
/// tier cache (256 MiB), the window's read-back cache (32 MiB),
/// the values of the chunk of tiers being solved and of the one before it,
/// handed to the writer meanwhile (3 x 128 MiB), the solver's per-thread scratch, the shared block
/// cache's default 64 MiB ([`crate::table::blocks::DEFAULT_BYTES`]; what
/// a build gives it beyond that comes out of the window's room) and the
/// allocator's slack (512 MiB).
///
/// Measured: the complete assaut build to 9 soldiers under `--memory 2GiB`
/// (`scripts/bench-runs/2026-11-23-vm/bench.json`, 2 threads) peaked at
/// 2.204e9 bytes of anonymous memory of which 1.195e9 were the window:
/// 1.01e9 besides it, while this constant then said 800 MiB (the budget
/// was passed by 2.6 %). Hence 1056 MiB. With the window out of the
/// heaps (5c69b99) the 12-soldier 2o12s peaked at 9.03e9 bytes, 0.73e9
/// besides its 8.30e9-byte window
/// (`scripts/bench-runs/2026-11-25-build12/3-build.json`). Since the
/// writer takes a chunk while the next is solved, one more chunk's values
/// (128 MiB) are counted: 1184 MiB.
pub const FIXED_BYTES: u64 = (256 + 32 + 384 + 512) << 20;

/// The most bytes a build gives the shared cache of the lower files'
/// decompressed blocks beyond its default ([`crate::table::blocks`]): 4
/// GiB, 16384 blocks of 2^20 positions, 1.7e10 positions (the whole of
/// 2o14s, the largest file the 20-soldier closures read).
pub const MAX_BLOCK_CACHE_BYTES: u64 = 4 << 30;

/// The smallest window a build accepts (64 MiB): below it, nearly every
/// read of the file's own tiers goes to disk.
pub const MIN_WINDOW_BYTES: u64 = 64 << 20;

/// A memory budget in bytes, for what a build allocates (anonymous memory;
/// the mapped lower tables are the page cache's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MemoryBudget(u64);

/// What the build of one file asks of the memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// The file.
    pub file: FileKey,
    /// Bytes its build needs besides the window of solved tiers
    /// (`build::bytes_besides_window`).
    pub besides_window: u64,
    /// The most bytes its window holds when the budget does not bind (0
    /// where unknown: the build then takes all the room there is).
    pub window: u64,
}

impl Need {
    /// The least budget the build starts with: what it needs besides its
    /// window, and the smallest window.
    pub fn least(&self) -> u64 {
        self.besides_window.saturating_add(MIN_WINDOW_BYTES)
    }

    /// A budget under which the build keeps every tier its levels read in
    /// memory (more does not make it faster; less makes it read some back
    /// from the part of the file written, slower); never below
    /// [`Need::least`].
    pub fn whole(&self) -> u64 {
        self.besides_window
            .saturating_add(self.window.max(MIN_WINDOW_BYTES))
    }
}

/// How a budget divides for one file's build ([`MemoryBudget::share`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// Bytes for the window of solved tiers.
    pub window: u64,
    /// Bytes for the cache of the lower files' decompressed blocks beyond
    /// its default part ([`blocks::DEFAULT_BYTES`], always there).
    pub block_cache: u64,
}

/// Why a budget cannot hold a build: the one refusal every command gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BudgetError {
    /// The budget is below the least the build of a file starts with.
    #[error(
        "a memory budget of {} is too small: the build of {} needs at least {} ({} bytes: {} besides its window of solved tiers, and a window of {} at least); give more with --memory",
        human_bytes(*budget),
        need.file,
        human_bytes(need.least()),
        need.least(),
        human_bytes(need.besides_window),
        human_bytes(MIN_WINDOW_BYTES)
    )]
    TooSmall {
        /// The budget given, in bytes.
        budget: u64,
        /// What the file's build needs.
        need: Need,
    },
    /// The block cache asked for leaves less than the smallest window.
    #[error(
        "a block cache of {} leaves too little of the memory budget of {}: the build of {} needs {} besides it; give less with --block-cache or more with --memory",
        human_bytes(*cache),
        human_bytes(*budget),
        need.file,
        human_bytes(need.least())
    )]
    BlockCache {
        /// The block cache asked for, in bytes (its default part included).
        cache: u64,
        /// The budget given, in bytes.
        budget: u64,
        /// What the file's build needs.
        need: Need,
    },
}

impl MemoryBudget {
    /// A budget of `bytes`.
    pub const fn new(bytes: u64) -> MemoryBudget {
        MemoryBudget(bytes)
    }

    /// The default budget: 60 % of the machine's memory (Linux: `MemTotal`
    /// of `/proc/meminfo`), or 8 GiB where that cannot be read.
    pub fn machine_default() -> MemoryBudget {
        MemoryBudget(total_memory_bytes().map_or(8 << 30, |total| total / 10 * 6))
    }

    /// The budget in bytes.
    pub const fn bytes(self) -> u64 {
        self.0
    }

    /// Whether the build of `need` keeps every tier its levels read in
    /// memory under this budget ([`Need::whole`]).
    pub fn holds_whole(self, need: &Need) -> bool {
        need.whole() <= self.0
    }

    /// How this budget divides for the build of `need`: what is left
    /// besides what it needs goes to the window, but for the block cache:
    /// `block_cache` bytes asked for (its default part,
    /// [`blocks::DEFAULT_BYTES`], is always there, outside the budget), or
    /// by default half of what the window will not fill, never leaving less
    /// than the smallest window and at most [`MAX_BLOCK_CACHE_BYTES`].
    /// Refused when the budget is below [`Need::least`], or the cache asked
    /// for leaves less than the smallest window.
    pub fn share(self, need: &Need, block_cache: Option<u64>) -> Result<Share, BudgetError> {
        let room = self.0.saturating_sub(need.besides_window);
        if room < MIN_WINDOW_BYTES {
            return Err(BudgetError::TooSmall {
                budget: self.0,
                need: *need,
            });
        }
        let spare = room - MIN_WINDOW_BYTES;
        let cache = match block_cache {
            None => (room.saturating_sub(need.window) / 2)
                .min(spare)
                .min(MAX_BLOCK_CACHE_BYTES),
            Some(cache) => {
                let extra = cache.saturating_sub(blocks::DEFAULT_BYTES);
                if extra > spare {
                    return Err(BudgetError::BlockCache {
                        cache,
                        budget: self.0,
                        need: *need,
                    });
                }
                extra
            }
        };
        Ok(Share {
            window: room - cache,
            block_cache: cache,
        })
    }

    /// The cache of decompressed blocks a verify under this budget keeps:
    /// a quarter of it, at most [`MAX_BLOCK_CACHE_BYTES`].
    pub fn verify_block_cache(self) -> u64 {
        (self.0 / 4).min(MAX_BLOCK_CACHE_BYTES)
    }
}

/// The machine's memory (Linux `MemTotal`; `None` elsewhere).
pub fn total_memory_bytes() -> Option<u64> {
    proc_kb("/proc/meminfo", "MemTotal:")
}

/// The value of the line starting with `field` in a `/proc` file whose
/// values are in kB, in bytes.
pub(crate) fn proc_kb(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

impl std::fmt::Display for MemoryBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&human_bytes(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(besides: u64, window: u64) -> Need {
        Need {
            file: FileKey::new(2, 12),
            besides_window: besides,
            window,
        }
    }

    #[test]
    fn the_least_budget_is_the_first_that_fits() {
        let n = need(FIXED_BYTES + 12_345, 5 << 30);
        assert_eq!(n.least(), FIXED_BYTES + 12_345 + MIN_WINDOW_BYTES);
        let below = MemoryBudget::new(n.least() - 1).share(&n, None);
        assert!(
            matches!(below, Err(BudgetError::TooSmall { .. })),
            "{below:?}"
        );
        let at = MemoryBudget::new(n.least()).share(&n, None).unwrap();
        assert_eq!(
            at,
            Share {
                window: MIN_WINDOW_BYTES,
                block_cache: 0
            }
        );
    }

    #[test]
    fn the_default_cache_takes_half_of_what_the_window_leaves() {
        let n = need(1 << 30, 2 << 30);
        // 8 GiB: room 7 GiB, the window wants 2, the cache gets half of 5.
        let s = MemoryBudget::new(8 << 30).share(&n, None).unwrap();
        assert_eq!(s.block_cache, 5 << 29);
        assert_eq!(s.window + s.block_cache, 7 << 30);
        // A huge budget: the cache stops at its most.
        let s = MemoryBudget::new(1 << 40).share(&n, None).unwrap();
        assert_eq!(s.block_cache, MAX_BLOCK_CACHE_BYTES);
    }

    #[test]
    fn a_cache_asked_for_must_leave_the_smallest_window() {
        let n = need(1 << 30, 2 << 30);
        let budget = MemoryBudget::new((1 << 30) + MIN_WINDOW_BYTES + (100 << 20));
        let fits = blocks::DEFAULT_BYTES + (100 << 20);
        assert_eq!(
            budget.share(&n, Some(fits)).unwrap(),
            Share {
                window: MIN_WINDOW_BYTES,
                block_cache: 100 << 20
            }
        );
        let e = budget.share(&n, Some(fits + 1)).unwrap_err();
        assert!(matches!(e, BudgetError::BlockCache { .. }), "{e:?}");
        assert!(e.to_string().contains("--block-cache"), "{e}");
        // The default part is outside the budget: asking for it costs none.
        let s = budget.share(&n, Some(blocks::DEFAULT_BYTES)).unwrap();
        assert_eq!(s.block_cache, 0);
    }

    #[test]
    fn the_refusal_names_the_file_and_the_least_budget() {
        let n = need(1 << 30, 0);
        let e = MemoryBudget::new(1 << 20).share(&n, None).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("2o12s") && text.contains(&n.least().to_string()),
            "{text}"
        );
        assert!(!text.contains('\n'), "{text}");
    }
}
