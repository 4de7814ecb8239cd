//! The window: how the levels of a file being built read the tiers of the
//! same file solved before them.
//!
//! A tier's soldier steps lead to tiers of the same file a few levels
//! below ([`super::window_levels`]); those are not in a finished table yet.
//! [`FileSoFar`] serves them: from memory while the build's memory budget
//! allows (the officers-to-move half of each tier, the only positions of
//! the same file a move from another tier reaches, one byte per value
//! where the values allow), and otherwise read back from the part of the
//! file already written ([`TableWriter::read_codes`]), through a small
//! cache. Which tiers are in memory changes only how fast a build runs,
//! never what it writes.

use crate::index::TierKey;
use crate::rules::Variant;
use crate::solve::{MemoryStore, SolveError, TierCache, TierStore};
use crate::table::TableWriter;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

/// Values held by the read-back cache: 2^24 (32 MiB).
pub const CACHE_VALUES: u64 = 1 << 24;

/// The tiers of the file being built that later levels read.
pub struct FileSoFar<'a> {
    variant: Variant,
    /// The file's tiers in solving order, and each one's first position.
    tiers: &'a [TierKey],
    firsts: &'a [u64],
    /// Tiers pushed to the writer and synced (a prefix of `tiers`).
    done: AtomicUsize,
    writer: &'a RwLock<TableWriter>,
    /// Officers-to-move halves held in memory.
    memory: MemoryStore,
    /// The most bytes `memory` may hold.
    budget: u64,
    /// Halves read back from the file.
    cache: TierCache,
    /// The file is WDL-only: values read back carry no distance.
    wdl_only: bool,
}

impl<'a> FileSoFar<'a> {
    /// The window over `tiers` (the file's tiers in solving order, with
    /// their first positions `firsts`), of which the first `done` are in
    /// `writer` already; at most `budget` bytes of values in memory.
    pub fn new(
        variant: &Variant,
        tiers: &'a [TierKey],
        firsts: &'a [u64],
        done: usize,
        writer: &'a RwLock<TableWriter>,
        budget: u64,
        wdl_only: bool,
    ) -> FileSoFar<'a> {
        FileSoFar {
            variant: *variant,
            tiers,
            firsts,
            done: AtomicUsize::new(done),
            writer,
            memory: MemoryStore::compact(),
            budget,
            cache: TierCache::new(CACHE_VALUES),
            wdl_only,
        }
    }

    /// Keep the officers-to-move half of `key` (just solved, `codes`) in
    /// memory if the budget allows; otherwise it is read back from the
    /// file when asked for, once [`FileSoFar::set_done`] counts it.
    pub fn add(&self, key: &TierKey, codes: &[u16]) {
        let half = key.size_per_side() as usize;
        let bytes = if codes[..half].iter().all(|&c| c < 256) {
            half
        } else {
            2 * half
        } as u64;
        if self.memory.bytes() as u64 + bytes <= self.budget {
            self.memory.insert(*key, codes[..half].to_vec());
        }
    }

    /// The tiers up to index `done` of the list are in the writer, synced.
    pub fn set_done(&self, done: usize) {
        self.done.store(done, Ordering::Release);
    }

    /// Drop from memory the tiers no level from `level` on reads (a tier
    /// is read by the `keep` levels above its own).
    pub fn forget_below(&self, level: u32, keep: u32) {
        let v = self.variant;
        self.memory.retain(|t| t.progress(&v) + keep >= level);
    }

    /// Bytes of values held in memory.
    pub fn bytes(&self) -> u64 {
        self.memory.bytes() as u64
    }

    /// Index in the list of a tier done, if it is one.
    fn find(&self, key: &TierKey) -> Option<usize> {
        let done = &self.tiers[..self.done.load(Ordering::Acquire)];
        let v = &self.variant;
        let want = (key.level(v), *key);
        done.binary_search_by(|t| (t.level(v), *t).cmp(&want)).ok()
    }
}

impl TierStore for FileSoFar<'_> {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        // Tiers of the lower files (most of what a tier reads) go straight
        // on to the next store.
        if self
            .tiers
            .first()
            .is_none_or(|t| (t.n, t.k) != (key.n, key.k))
        {
            return Ok(None);
        }
        if let Some(t) = self.memory.tier(key)? {
            return Ok(Some(t));
        }
        let Some(i) = self.find(key) else {
            return Ok(None);
        };
        if let Some(t) = self.cache.get(key) {
            return Ok(Some(t));
        }
        let half = key.size_per_side() as u64;
        let codes: Arc<[u16]> = self
            .writer
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .read_codes(self.firsts[i], half)?
            .into();
        self.cache.insert(*key, codes.clone());
        Ok(Some(codes))
    }

    fn has_distances(&self) -> bool {
        !self.wdl_only
    }
}
