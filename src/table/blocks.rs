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

use lru::LruCache;
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

/// One part of the cache: its blocks, the least recently used first out,
/// and the bytes they hold.
struct Shard {
    blocks: LruCache<(u64, u64), Arc<[u8]>>,
    bytes: u64,
}

static CACHE: LazyLock<[Mutex<Shard>; SHARDS]> =
    LazyLock::new(|| std::array::from_fn(|_| Mutex::new(Shard::new())));

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
    if let Some(b) = lock().blocks.get(&(table, block)) {
        HITS.fetch_add(1, Ordering::Relaxed);
        return Ok(b.clone());
    }
    MISSES.fetch_add(1, Ordering::Relaxed);
    let made = make()?;
    lock().insert((table, block), made.clone(), budget() / SHARDS as u64);
    Ok(made)
}

impl Shard {
    fn new() -> Shard {
        Shard {
            blocks: LruCache::unbounded(),
            bytes: 0,
        }
    }

    /// Hold `made` as `key`, then let the least recently used blocks go
    /// while more than `cap` bytes are held (the newest always stays).
    fn insert(&mut self, key: (u64, u64), made: Arc<[u8]>, cap: u64) {
        self.bytes += made.len() as u64;
        if let Some(old) = self.blocks.put(key, made) {
            self.bytes -= old.len() as u64;
        }
        while self.bytes > cap && self.blocks.len() > 1 {
            if let Some((_, old)) = self.blocks.pop_lru() {
                self.bytes -= old.len() as u64;
            }
        }
    }
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

    #[test]
    fn the_least_recently_used_go_past_the_cap() {
        let mut s = Shard::new();
        let block = |v: u8| Arc::from(vec![v; 100]);
        s.insert((0, 1), block(1), 250);
        s.insert((0, 2), block(2), 250);
        // Block 1 used since block 2 came: block 2 is the one to go.
        assert!(s.blocks.get(&(0, 1)).is_some());
        s.insert((0, 3), block(3), 250);
        assert_eq!(s.bytes, 200);
        assert!(s.blocks.contains(&(0, 1)) && s.blocks.contains(&(0, 3)));
        assert!(!s.blocks.contains(&(0, 2)));
        // A block larger than the cap still stays, alone.
        s.insert((0, 4), Arc::from(vec![4u8; 400]), 250);
        assert_eq!((s.blocks.len(), s.bytes), (1, 400));
    }
}
