//! The window: how the levels of a file being built read the tiers of the
//! same file solved before them.
//!
//! A tier's soldier steps lead to tiers of the same file a few levels
//! below ([`super::window_levels`]); those are not in a finished table yet.
//! [`Window`] serves them: from memory while the build's memory budget
//! allows (the officers-to-move half of each tier, the only positions of
//! the same file a move from another tier reaches, one byte per value
//! where the values allow, and in a WDL-only build two bits: its win, draw,
//! loss or loss in 0, all the file keeps and all the solver needs of it),
//! and otherwise read back from the part of the file already written
//! ([`TableWriter::read_first_half`]), through a small cache. Which tiers are in memory changes only how fast a build runs,
//! never what it writes.
//!
//! The ranks of a cluster build other than rank 0 have no file: what does
//! not fit their budget goes to a scratch folder of their own instead
//! ([`Spill`]: one file per level, removed when no level reads it any
//! more, and the folder when the file is done).

use crate::fields;
use crate::index::TierKey;
use crate::rules::Variant;
use crate::solve::{SolveError, TierCache, TierStore, TierValues, WdlFields};
use crate::table::TableWriter;
use rustc_hash::FxHashMap;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Bytes held by the read-back cache: 32 MiB (2^24 values).
pub(crate) const CACHE_BYTES: u64 = 32 << 20;

/// The most positions of the file read back at once after a resume
/// ([`Window::reload`]): four blocks, 8 MiB of codes.
pub(crate) const RELOAD_SPAN: u64 = 1 << 22;

/// Where a window reads back what it does not hold in memory.
pub(crate) enum Back<'a> {
    /// The part of the file already written (rank 0, or one process).
    File(&'a RwLock<TableWriter>),
    /// A scratch folder of this rank's own (the other ranks).
    Spill(Spill),
}

/// The tiers of the file being built that later levels read.
pub(crate) struct Window<'a> {
    variant: Variant,
    /// The file's tiers in solving order, and each one's first position.
    tiers: &'a [TierKey],
    firsts: &'a [u64],
    /// Tiers pushed to the writer and synced (a prefix of `tiers`).
    done: AtomicUsize,
    /// Where the halves not in memory are read back from.
    back: Back<'a>,
    /// Officers-to-move halves held in memory.
    memory: Slabs,
    /// The most bytes `memory` may hold.
    budget: u64,
    /// Halves read back from the file.
    cache: TierCache<Arc<[u16]>>,
    /// The file is WDL-only: values read back carry no distance.
    wdl_only: bool,
    /// A tier was left to be read back from the file (it did not fit the
    /// budget): from then on a read may wait for the writer.
    reads_back: AtomicBool,
}

impl<'a> Window<'a> {
    /// The window over `tiers` (the file's tiers in solving order, with
    /// their first positions `firsts`), of which the first `done` are in
    /// the file already (when `back` is one); at most `budget` bytes of
    /// values in memory.
    pub(crate) fn new(
        variant: &Variant,
        tiers: &'a [TierKey],
        firsts: &'a [u64],
        done: usize,
        back: Back<'a>,
        budget: u64,
        wdl_only: bool,
    ) -> Window<'a> {
        Window {
            variant: *variant,
            tiers,
            firsts,
            done: AtomicUsize::new(done),
            back,
            memory: Slabs::default(),
            budget,
            cache: TierCache::new(CACHE_BYTES),
            wdl_only,
            reads_back: AtomicBool::new(false),
        }
    }

    /// Keep the officers-to-move half of `key` (just solved, `codes`) in
    /// memory if the budget allows; otherwise it is read back from the
    /// file when asked for, once [`Window::set_done`] counts it (or
    /// from the spill, where it goes now).
    pub(crate) fn add(&self, key: &TierKey, codes: &[u16]) -> Result<(), SolveError> {
        let half = key.size_per_side() as usize;
        let packing = if self.wdl_only {
            Packing::Wdl
        } else if codes[..half].iter().all(|&c| c < 256) {
            Packing::Byte
        } else {
            Packing::Wide
        };
        if self.memory.bytes() + packing.bytes(half) as u64 <= self.budget {
            let level = key.progress(&self.variant);
            self.memory.insert(key, level, &codes[..half], packing);
        } else if let Back::Spill(s) = &self.back {
            s.put(key, key.progress(&self.variant), &codes[..half])?;
        } else {
            self.reads_back.store(true, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Whether a tier of the file has been left to be read back from the
    /// writer (see [`Window::add`]): a solve may then take the writer's
    /// lock, and the writer must not hold it meanwhile.
    pub(crate) fn reads_back(&self) -> bool {
        self.reads_back.load(Ordering::Relaxed)
    }

    /// After a resume: read the officers-to-move halves of `wanted` (tiers
    /// done, in solving order) back from the file and keep them as
    /// [`Window::add`] does. Consecutive tiers are read together, up to
    /// [`RELOAD_SPAN`] positions at a time, so each block of the file is
    /// decompressed once: tier by tier, a resumed 2o13s took 40 s to read
    /// its window back, decompressing each block once per tier in it.
    pub(crate) fn reload(&self, wanted: &[&TierKey]) -> Result<(), SolveError> {
        let Back::File(writer) = &self.back else {
            for &t in wanted {
                let codes = self.tier(t)?.ok_or(SolveError::MissingTier(*t))?;
                self.add(t, &codes)?;
            }
            return Ok(());
        };
        let writer = writer.read().unwrap_or_else(|e| e.into_inner());
        let mut batch: Vec<(u64, TierKey)> = Vec::new();
        let flush = |batch: &mut Vec<(u64, TierKey)>| -> Result<(), SolveError> {
            for ((_, key), half) in batch.iter().zip(writer.read_first_halves(batch)?) {
                self.add(key, &half)?;
            }
            batch.clear();
            Ok(())
        };
        for &t in wanted {
            let first = self.firsts[self.find(t).ok_or(SolveError::MissingTier(*t))?];
            if let Some(&(start, _)) = batch.first() {
                let next = batch.last().is_some_and(|(f, k)| f + k.size() == first);
                if !next || first + t.size() - start > RELOAD_SPAN {
                    flush(&mut batch)?;
                }
            }
            batch.push((first, *t));
        }
        flush(&mut batch)
    }

    /// The tiers up to index `done` of the list are in the writer, synced.
    pub(crate) fn set_done(&self, done: usize) {
        self.done.store(done, Ordering::Release);
    }

    /// Drop from memory the tiers no level from `level` on reads (a tier
    /// is read by the `keep` levels above its own).
    pub(crate) fn forget_below(&self, level: u32, keep: u32) {
        self.memory.retain_levels(|l| l + keep >= level);
        if let Back::Spill(s) = &self.back {
            s.forget(|l| l + keep >= level);
        }
    }

    /// Bytes of values held in memory.
    pub(crate) fn bytes(&self) -> u64 {
        self.memory.bytes()
    }

    /// Index in the list of a tier done, if it is one.
    fn find(&self, key: &TierKey) -> Option<usize> {
        let done = &self.tiers[..self.done.load(Ordering::Acquire)];
        let v = &self.variant;
        let want = (key.level(v), *key);
        done.binary_search_by(|t| (t.level(v), *t).cmp(&want)).ok()
    }
}

impl TierStore for Window<'_> {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        Ok(self.values(key)?.map(|v| v.to_codes()))
    }

    fn values(&self, key: &TierKey) -> Result<Option<TierValues>, SolveError> {
        // Tiers of the lower files (most of what a tier reads) go straight
        // on to the next store.
        if self
            .tiers
            .first()
            .is_none_or(|t| (t.n, t.k) != (key.n, key.k))
        {
            return Ok(None);
        }
        if let Some(t) = self.memory.values(key) {
            return Ok(Some(t));
        }
        if let Some(t) = self.cache.get(key) {
            return Ok(Some(TierValues::Codes(t)));
        }
        let codes: Arc<[u16]> = match &self.back {
            Back::File(writer) => {
                let Some(i) = self.find(key) else {
                    return Ok(None);
                };
                writer
                    .read()
                    .unwrap_or_else(|e| e.into_inner())
                    .read_first_half(self.firsts[i], key)?
                    .into()
            }
            Back::Spill(s) => match s.get(key)? {
                Some(c) => c.into(),
                None => return Ok(None),
            },
        };
        self.cache.insert(*key, codes.clone());
        Ok(Some(TierValues::Codes(codes)))
    }

    fn has_distances(&self) -> bool {
        !self.wdl_only
    }
}

/// Bytes of one block of [`Slabs`]: 64 MiB, above the largest size glibc
/// ever serves from its heaps (32 MiB), so that each block is a mapping of
/// its own, given back whole when its level goes.
const SLAB_BYTES: usize = 64 << 20;

/// The halves held in memory, level by level, each level's packed into
/// blocks of their own ([`SLAB_BYTES`]; a block's pages are resident only
/// once written).
///
/// One allocation per tier (as in [`crate::solve::MemoryStore`]) left the
/// allocator's heaps riddled: each level's tiers, freed a few levels
/// later, lay between the values of chunks solved meanwhile, and the
/// heaps grew to about twice what they held (2o12s: 13.25e9 bytes of
/// anonymous memory for an 8.3e9-byte window). Blocks leave the heaps to
/// what a chunk needs while it is solved.
#[derive(Default)]
struct Slabs {
    held: RwLock<SlabsHeld>,
}

/// How [`Slabs`] keeps a tier's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Packing {
    /// Two bytes a value, little-endian.
    Wide,
    /// One byte a value (every code fits one).
    Byte,
    /// Two bits a value: the WDL-only table's field of its code
    /// ([`fields::wdl_only_bits`]), four to a byte, read back as the code
    /// a WDL-only table gives ([`fields::wdl_only_code`]).
    Wdl,
}

impl Packing {
    /// Bytes of `values` values.
    fn bytes(self, values: usize) -> usize {
        match self {
            Packing::Wide => 2 * values,
            Packing::Byte => values,
            Packing::Wdl => values.div_ceil(4),
        }
    }
}

#[derive(Default)]
struct SlabsHeld {
    /// Each tier's level, block, first byte, number of values and packing.
    index: FxHashMap<TierKey, (u32, u32, usize, usize, Packing)>,
    /// Each level's blocks.
    blocks: FxHashMap<u32, Vec<Vec<u8>>>,
    /// Bytes of values held.
    bytes: u64,
}

impl Slabs {
    /// Keep `codes` of `key`, a tier of level `level`, as `packing` says
    /// (one byte a value only where every code fits one, as the caller
    /// found).
    fn insert(&self, key: &TierKey, level: u32, codes: &[u16], packing: Packing) {
        debug_assert!(packing != Packing::Byte || codes.iter().all(|&c| c < 256));
        let len = packing.bytes(codes.len());
        let mut held = self.held.write().unwrap_or_else(|e| e.into_inner());
        let blocks = held.blocks.entry(level).or_default();
        if blocks.last().is_none_or(|b| b.capacity() - b.len() < len) {
            blocks.push(Vec::with_capacity(SLAB_BYTES.max(len)));
        }
        let b = blocks.len() - 1;
        let block = &mut blocks[b];
        let at = block.len();
        match packing {
            Packing::Wide => block.extend(codes.iter().flat_map(|c| c.to_le_bytes())),
            Packing::Byte => block.extend(codes.iter().map(|&c| c as u8)),
            Packing::Wdl => block.extend(codes.chunks(4).map(|four| {
                four.iter()
                    .enumerate()
                    .fold(0u8, |b, (i, &c)| b | fields::wdl_only_bits(c) << (2 * i))
            })),
        }
        held.index
            .insert(*key, (level, b as u32, at, codes.len(), packing));
        held.bytes += len as u64;
    }

    /// The values of `key`, if held: WDL-only halves as their fields (a
    /// copy of a quarter byte a value, read in place), others decoded.
    fn values(&self, key: &TierKey) -> Option<TierValues> {
        let held = self.held.read().unwrap_or_else(|e| e.into_inner());
        let &(level, b, at, n, packing) = held.index.get(key)?;
        let block = &held.blocks[&level][b as usize][at..at + packing.bytes(n)];
        Some(match packing {
            Packing::Wide => TierValues::Codes(
                block
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect(),
            ),
            Packing::Byte => TierValues::Codes(block.iter().map(|&c| c as u16).collect()),
            Packing::Wdl => TierValues::Wdl(WdlFields::new(
                (block.into(), 0),
                n as u32,
                key,
                false,
                fields::WDL_ONLY_FIELD_CODES,
            )),
        })
    }

    /// The codes of `key`, if held.
    #[cfg(test)]
    fn tier(&self, key: &TierKey) -> Option<Arc<[u16]>> {
        self.values(key).map(|v| v.to_codes())
    }

    /// Keep only the levels `keep` says yes to.
    fn retain_levels(&self, keep: impl Fn(u32) -> bool) {
        let mut held = self.held.write().unwrap_or_else(|e| e.into_inner());
        let held = &mut *held;
        held.index.retain(|_, t| keep(t.0));
        held.blocks.retain(|&l, _| keep(l));
        held.bytes = held.blocks.values().flatten().map(|b| b.len() as u64).sum();
    }

    /// Bytes of values held.
    fn bytes(&self) -> u64 {
        self.held.read().unwrap_or_else(|e| e.into_inner()).bytes
    }
}

/// Halves a rank without the file could not keep in memory: one scratch
/// file per level in a folder of its own, raw little-endian codes.
pub(crate) struct Spill {
    dir: PathBuf,
    /// Per level: the open file and its length in bytes.
    files: Mutex<FxHashMap<u32, (File, u64)>>,
    /// Per tier: its level, byte offset and number of codes.
    index: RwLock<FxHashMap<TierKey, (u32, u64, usize)>>,
}

impl Spill {
    /// A spill in `dir`, made empty (what an interrupted run left there
    /// is of no use: a resumed build sends every rank its window again).
    pub(crate) fn create(dir: &Path) -> Result<Spill, SolveError> {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).map_err(|e| spill_error(dir, e))?;
        Ok(Spill {
            dir: dir.to_path_buf(),
            files: Mutex::new(FxHashMap::default()),
            index: RwLock::new(FxHashMap::default()),
        })
    }

    fn level_path(&self, level: u32) -> PathBuf {
        self.dir.join(format!("level-{level}.spill"))
    }

    /// Keep `codes` of `key`, a tier of level `level`.
    fn put(&self, key: &TierKey, level: u32, codes: &[u16]) -> Result<(), SolveError> {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let (f, len) = match files.entry(level) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let p = self.level_path(level);
                let f = File::options()
                    .create(true)
                    .truncate(true)
                    .read(true)
                    .write(true)
                    .open(&p)
                    .map_err(|e| spill_error(&p, e))?;
                e.insert((f, 0))
            }
        };
        let bytes: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
        f.write_all(&bytes)
            .map_err(|e| spill_error(&self.level_path(level), e))?;
        self.index
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(*key, (level, *len, codes.len()));
        *len += bytes.len() as u64;
        Ok(())
    }

    /// The codes kept for `key`, if any.
    fn get(&self, key: &TierKey) -> Result<Option<Vec<u16>>, SolveError> {
        let Some(&(level, at, n)) = self
            .index
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
        else {
            return Ok(None);
        };
        let files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let (f, _) = files.get(&level).expect("indexed levels have a file");
        let mut bytes = vec![0u8; 2 * n];
        f.read_exact_at(&mut bytes, at)
            .map_err(|e| spill_error(&self.level_path(level), e))?;
        Ok(Some(
            bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
        ))
    }

    /// Remove the levels `keep` says no.
    fn forget(&self, keep: impl Fn(u32) -> bool) {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let gone: Vec<u32> = files.keys().copied().filter(|&l| !keep(l)).collect();
        for l in &gone {
            files.remove(l);
            let _ = std::fs::remove_file(self.level_path(*l));
        }
        self.index
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, (l, _, _)| keep(*l));
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn spill_error(path: &Path, e: std::io::Error) -> SolveError {
    SolveError::Scratch {
        path: path.to_path_buf(),
        error: Arc::new(e),
    }
}

/// The most bytes the window of a file built from `tiers` (its tiers in
/// solving order) holds when its budget never binds: at the end of a level,
/// the officers-to-move halves of that level's tiers and of the
/// `window_levels` levels below it (what `Window::forget_below`
/// keeps), at one byte per value, or two bits in a WDL-only build
/// (`held_bytes`). A tier with a code past a byte (a distance beyond
/// about 250 plies, not known before solving) takes two bytes a value in
/// a build with distances, so there the build may hold more.
pub fn peak_bytes(variant: &Variant, tiers: &[TierKey], wdl_only: bool) -> u64 {
    let mut per_level = std::collections::BTreeMap::<u32, u64>::new();
    for t in tiers {
        *per_level.entry(t.progress(variant)).or_default() +=
            held_bytes(t.size_per_side() as u64, wdl_only);
    }
    peak_over_levels(&per_level, super::window_levels(variant))
}

/// Bytes the window holds of a tier half of `values` values: one a value,
/// or in a WDL-only build two bits (`Packing::Wdl`).
pub(crate) fn held_bytes(values: u64, wdl_only: bool) -> u64 {
    if wdl_only { values.div_ceil(4) } else { values }
}

/// The largest sum of `per_level` over the levels `L - keep ..= L` of a
/// level `L` (the window at the end of level `L`).
pub(crate) fn peak_over_levels(per_level: &std::collections::BTreeMap<u32, u64>, keep: u32) -> u64 {
    per_level
        .keys()
        .map(|&l| {
            per_level
                .range(l.saturating_sub(keep)..=l)
                .map(|(_, b)| b)
                .sum()
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{self, Bitboard};

    fn key(outside: Bitboard) -> TierKey {
        TierKey {
            n: 2,
            k: 12,
            outside,
        }
    }

    /// Codes with some of a tier's values past a byte when `wide`.
    fn codes(len: usize, seed: u16, wide: bool) -> Vec<u16> {
        (0..len as u32)
            .map(|i| ((i.wrapping_mul(31) ^ seed as u32) % if wide { 600 } else { 256 }) as u16)
            .collect()
    }

    #[test]
    fn slabs_give_back_each_tier_as_kept_and_forget_whole_levels() {
        let slabs = Slabs::default();
        let outs: Vec<Bitboard> = board::points(board::OUTSIDE)
            .take(6)
            .map(|p| p.bit())
            .collect();
        let mut kept = Vec::new();
        let mut bytes = 0;
        for (i, &o) in outs.iter().enumerate() {
            let wide = i % 2 == 1;
            let c = codes(1000 + 37 * i, i as u16, wide);
            bytes += if wide { 2 * c.len() } else { c.len() } as u64;
            let packing = if wide { Packing::Wide } else { Packing::Byte };
            slabs.insert(&key(o), (i / 2) as u32, &c, packing);
            kept.push(c);
        }
        assert_eq!(slabs.bytes(), bytes);
        for (o, c) in outs.iter().zip(&kept) {
            assert_eq!(&*slabs.tier(&key(*o)).expect("held"), &c[..]);
        }
        // Levels 0 and 1 go; level 2 (the last two tiers) stays.
        slabs.retain_levels(|l| l >= 2);
        for (i, o) in outs.iter().enumerate() {
            assert_eq!(slabs.tier(&key(*o)).is_some(), i >= 4, "tier {i}");
        }
        assert_eq!(slabs.bytes(), (kept[4].len() + 2 * kept[5].len()) as u64);
        assert_eq!(&*slabs.tier(&key(outs[5])).unwrap(), &kept[5][..]);
    }

    #[test]
    fn a_tier_larger_than_a_block_gets_a_block_of_its_own() {
        let slabs = Slabs::default();
        let big = codes(SLAB_BYTES / 2 + 10, 7, true);
        let small = codes(100, 3, false);
        let (a, b) = (
            key(board::points(board::OUTSIDE).next().unwrap().bit()),
            key(0),
        );
        slabs.insert(&b, 0, &small, Packing::Byte);
        slabs.insert(&a, 0, &big, Packing::Wide);
        assert_eq!(&*slabs.tier(&a).unwrap(), &big[..]);
        assert_eq!(&*slabs.tier(&b).unwrap(), &small[..]);
        assert_eq!(slabs.held.read().unwrap().blocks[&0].len(), 2);
    }

    #[test]
    fn wdl_packing_gives_back_what_a_wdl_only_table_reads() {
        // Every kind of value: draws, wins and losses of every length,
        // losses in 0, at lengths that leave a byte part-filled.
        let slabs = Slabs::default();
        let outs: Vec<Bitboard> = board::points(board::OUTSIDE)
            .take(4)
            .map(|p| p.bit())
            .collect();
        for (i, &o) in outs.iter().enumerate() {
            let c = codes(997 + i, i as u16, true);
            slabs.insert(&key(o), 0, &c, Packing::Wdl);
            let want: Vec<u16> = c
                .iter()
                .map(|&c| fields::wdl_only_code(fields::wdl_only_bits(c)))
                .collect();
            assert_eq!(&*slabs.tier(&key(o)).unwrap(), &want[..]);
            assert!(
                want.contains(&2) && want.contains(&0),
                "a loss in 0, a draw"
            );
        }
        let held: u64 = (0..4).map(|i| (997 + i as u64).div_ceil(4)).sum();
        assert_eq!(slabs.bytes(), held);
    }
}
