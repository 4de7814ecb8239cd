//! The cache of decompressed WDL blocks that every thread of the process
//! shares, within a byte budget a build sets from its memory budget.
//!
//! A tier read from a WDL-only table decompresses the block (2^20
//! positions, 256 KiB) that holds it; the tiers a build reads from the
//! files below it are scattered over those files (the tiers of one level
//! read tiers of many levels below), so a small cache decompresses the
//! same blocks over and over. Profiled on the 20-soldier closure of
//! asalto, with 32 MiB of blocks per thread, zstd took 22 % of the CPU
//! of 2o15s and 41 % of 1o16s (with the copies and allocations around
//! it, about 60 %): one thread's misses were blocks the other had just
//! decompressed, and both cycled through far more blocks than they held.
//! Shared, the blocks are decompressed once per eviction, not once per
//! thread, and a build gives the cache what its window leaves of its
//! budget ([`set_budget`]).
//!
//! What the cache holds changes how fast tables are read, never what is
//! read: a block is checked when it is decompressed, and a hit returns
//! the same bytes.

use crate::cache::WeightedLru;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

/// Locks over parts of the cache, so that threads rarely wait on each
/// other (a block's part is fixed by its table and number).
const SHARDS: usize = 16;

/// The budget until a build sets one: 64 MiB (256 WDL blocks of the
/// default WDL-only size), what two threads' caches held before the cache
/// was shared.
pub const DEFAULT_BYTES: u64 = 64 << 20;

/// The budget in bytes of decompressed blocks ([`set_budget`]).
static BUDGET: AtomicU64 = AtomicU64::new(DEFAULT_BYTES);

/// Blocks found in the cache and blocks decompressed, since the process
/// started.
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

/// One part of the cache: its blocks by (table, block), the least
/// recently used first out.
type Shard = WeightedLru<(u64, u64), Arc<[u8]>>;

static CACHE: LazyLock<[Mutex<Shard>; SHARDS]> =
    LazyLock::new(|| std::array::from_fn(|_| Mutex::new(Shard::new(DEFAULT_BYTES))));

/// Hold at most `bytes` of decompressed blocks from now on (at least one
/// block per part of the cache is always kept). Blocks over a smaller
/// budget leave as new ones come in.
pub fn set_budget(bytes: u64) {
    BUDGET.store(bytes, Ordering::Relaxed);
}

/// The budget in bytes.
pub fn budget() -> u64 {
    BUDGET.load(Ordering::Relaxed)
}

/// Blocks found in the cache and blocks decompressed since the process
/// started (every thread, every table).
pub fn counts() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// The part of the cache of block `block` of table `table`.
fn shard(table: u64, block: u64) -> &'static Mutex<Shard> {
    let h = (table.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ block).wrapping_mul(0xff51_afd7_ed55_8ccd);
    &CACHE[(h >> 60) as usize % SHARDS]
}

/// Block `block` of table `table` (an identity never reused), made by
/// `make` on a miss (outside any lock: two threads missing the same block
/// at once both make it, and the second keeps its own).
pub(crate) fn get<E>(
    table: u64,
    block: u64,
    make: impl FnOnce() -> Result<Arc<[u8]>, E>,
) -> Result<Arc<[u8]>, E> {
    let part = shard(table, block);
    let lock = || part.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(b) = lock().get(&(table, block)) {
        HITS.fetch_add(1, Ordering::Relaxed);
        return Ok(b.clone());
    }
    MISSES.fetch_add(1, Ordering::Relaxed);
    let made = make()?;
    let mut part = lock();
    part.set_cap(budget() / SHARDS as u64);
    part.put((table, block), made.clone());
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table identity no other test uses (the cache is the process's).
    fn fresh_table() -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(u64::MAX / 2);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }

    #[test]
    fn a_block_is_made_once_then_found() {
        let t = fresh_table();
        let mut made = 0;
        for _ in 0..3 {
            let b = get::<()>(t, 7, || {
                made += 1;
                Ok(Arc::from(vec![1u8, 2, 3]))
            })
            .unwrap();
            assert_eq!(&*b, &[1, 2, 3]);
        }
        assert_eq!(made, 1);
    }

    #[test]
    fn a_failed_make_is_not_cached() {
        let t = fresh_table();
        assert_eq!(get(t, 1, || Err("corrupt")), Err("corrupt"));
        let b = get::<()>(t, 1, || Ok(Arc::from(vec![9u8]))).unwrap();
        assert_eq!(&*b, &[9]);
    }
}
