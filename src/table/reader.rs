//! Reading table files through a memory map, with a cache of decompressed
//! blocks: WDL blocks in the one all threads share ([`super::blocks`]),
//! distance blocks in a small one per thread.

use super::format::{
    self, BLOCK_ENTRY_LEN, BlockEntry, DirEntry, PREAMBLE_LEN, Preamble, Stream, dir_entry_len,
};
use super::{BlockDefect, Problem, TableError, TableInfo};
use crate::Value;
use crate::Wdl;
use crate::board;
use crate::cache::WeightedLru;
use crate::fields;
use crate::index::TierKey;
use crate::solve::{FieldsAt, TierValues, WdlFields};
use memmap2::Mmap;
use std::cell::RefCell;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Decompressed distance blocks kept per thread: at most 256 blocks and
/// [`CACHE_BYTES`] (2 MiB with the default block size; a tier's
/// neighbours were written close to it, so solving and verifying mostly
/// hit). WDL blocks go to the cache all threads share
/// ([`super::blocks`]).
const CACHE_BLOCKS: usize = 256;

/// The most bytes of decompressed distance blocks kept per thread.
const CACHE_BYTES: usize = 32 << 20;

/// Identity of an open table in the block cache (never reused, unlike an
/// address).
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Distance blocks by (table, block), the least recently used first out.
type DistCache = WeightedLru<(u64, u64), Arc<[u16]>>;

/// A distance cache of [`CACHE_BLOCKS`] blocks and [`CACHE_BYTES`] at most.
fn dist_cache() -> DistCache {
    let most = std::num::NonZeroUsize::new(CACHE_BLOCKS).expect("blocks");
    WeightedLru::with_most(CACHE_BYTES as u64, most)
}

thread_local! {
    /// The per-thread cache of distance blocks.
    static CACHE: RefCell<DistCache> = RefCell::new(dist_cache());
}

/// The entry `(id, block)` of `lru`, made by `make` on a miss.
fn cached(
    lru: &mut DistCache,
    id: u64,
    block: u64,
    make: impl FnOnce() -> Result<Arc<[u16]>, TableError>,
) -> Result<Arc<[u16]>, TableError> {
    if let Some(v) = lru.get(&(id, block)) {
        return Ok(v.clone());
    }
    let v = make()?;
    lru.put((id, block), v.clone());
    Ok(v)
}

/// An open table file (see the format in [`crate::table`]).
pub struct Table {
    id: u64,
    path: PathBuf,
    map: Mmap,
    info: TableInfo,
    /// The file's format version.
    version: u32,
    /// Offsets in the map of the chunk table (version 2), of the
    /// directory (where the tables start) and of the two block tables.
    chunk_off: usize,
    dir_off: usize,
    wdl_off: usize,
    dist_off: usize,
    /// End of the tables (and of the file).
    tables_end: usize,
    /// End of the block area (the index's offset).
    area_end: u64,
    /// Which chunks of the tables have passed their checksum, one bit each
    /// (version 2; a version 1 file's whole index is checked at open).
    checked: Box<[AtomicU64]>,
}

/// The layout [`Table::check`] found.
struct Layout {
    info: TableInfo,
    version: u32,
    dir_off: usize,
    chunk_off: usize,
    wdl_off: usize,
    dist_off: usize,
    area_end: u64,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("info", &self.info)
            .finish()
    }
}

impl Table {
    /// Open and map a table file, checking its magic, version, header
    /// checksum, and that every tier and block lies where reads can reach
    /// it (not the blocks' checksums: each is checked when the block is
    /// first read; nor the rest of the layout, which
    /// [`Table::verify_checksums`] checks).
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let err = |p| TableError::new(path, p);
        let file = File::open(path).map_err(|e| TableError::io(path, "cannot open", e))?;
        let len = file
            .metadata()
            .map_err(|e| TableError::io(path, "cannot read the metadata of", e))?
            .len();
        if len < PREAMBLE_LEN as u64 {
            return Err(err(Problem::TooShort { len }));
        }
        // SAFETY: the map is only read. Tables are written under another
        // name and renamed into place, never modified where they lie; like
        // every mmap reader we rely on no one truncating or rewriting the
        // file while it is open.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, "cannot map", e))?;
        let l = Table::check(&map).map_err(err)?;
        let chunks = match l.version {
            1 => 0,
            _ => format::chunk_count((map.len() - l.dir_off) as u128) as u64,
        };
        let tables_end = map.len();
        Ok(Table {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            path: path.to_path_buf(),
            map,
            info: l.info,
            version: l.version,
            dir_off: l.dir_off,
            chunk_off: l.chunk_off,
            wdl_off: l.wdl_off,
            dist_off: l.dist_off,
            tables_end,
            area_end: l.area_end,
            checked: (0..chunks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        })
    }

    /// Check the layout of the bytes of a table; returns its info and the
    /// offsets of the directory and block tables.
    fn check(b: &[u8]) -> Result<Layout, Problem> {
        let bad = |s: String| Problem::BadHeader(s);
        let len = b.len() as u64;
        let pre = Preamble::decode(b)?;
        let expected = pre
            .index_offset
            .checked_add(pre.index_len)
            .ok_or_else(|| bad("the index lies past the end of any file".into()))?;
        if expected > len {
            return Err(Problem::Truncated { len, expected });
        }
        if expected < len {
            return Err(Problem::TooLong { len, expected });
        }
        if pre.index_offset < PREAMBLE_LEN as u64 {
            return Err(bad("the index overlaps the preamble".into()));
        }
        // Both fit in usize now: they lie within the map.
        let index_off = pre.index_offset as usize;
        let index = &b[index_off..];
        // The checksum covers the whole index in version 1, the head
        // (header and chunk table) in version 2, whose tables (directory,
        // block tables) are checked chunk by chunk as they are read.
        let covered = match pre.version {
            1 => Some(index.len()),
            v => TableInfo::head_len(index, v),
        };
        if covered.is_none_or(|len| format::crc32(&index[..len]) != pre.index_crc) {
            return Err(Problem::HeaderChecksum("index header"));
        }
        let (h, hlen) = TableInfo::decode_header(index, pre.version)?;
        let tiers = h.tiers as usize;
        let chunk_off = index_off + hlen;
        let dir_off = match pre.version {
            1 => chunk_off,
            _ => {
                let tables = format::tables_len(
                    pre.version,
                    h.tiers as u128,
                    (h.wdl_blocks + h.distance_blocks) as u128,
                );
                chunk_off + format::chunk_count(tables) as usize * 4
            }
        };
        let wdl_off = dir_off + tiers * dir_entry_len(pre.version);
        let dist_off = wdl_off + h.wdl_blocks as usize * BLOCK_ENTRY_LEN;

        // Only what right reads need is checked here, and in version 2 only
        // the head: the tables are checked as they are read, a chunk of
        // them at a time (a directory entry lies inside the position
        // stream, a block entry inside the block area; a block's checksum
        // names its stream and number), so that opening a file of millions
        // of tiers and blocks reads a few hundred kilobytes. The deeper
        // layout checks (a sorted directory of canonical tiers of the right
        // sizes partitioning the stream, the two streams' blocks tiling the
        // file together) guard against a faulty writer and are left to
        // [`Table::verify_checksums`].
        // Each stream's blocks in order, inside the block area, without
        // overlaps (so block `i` is the `i`-th written).
        let area = PREAMBLE_LEN as u64..pre.index_offset;
        let sum = |off: usize, count: u64| -> Result<u64, Problem> {
            let (mut bytes, mut prev_end) = (0u64, area.start);
            for i in 0..count as usize {
                let e = BlockEntry::at(b, off + i * BLOCK_ENTRY_LEN);
                let end = e.offset.saturating_add(e.len as u64);
                if e.len == 0 || e.offset < prev_end || end > area.end {
                    return Err(bad("the blocks do not tile the file".into()));
                }
                prev_end = end;
                bytes += e.len as u64;
            }
            Ok(bytes)
        };
        let mut h = h;
        // Version 1 (its whole index checked above): each stream's block
        // sizes summed.
        if pre.version == 1 {
            h.wdl_bytes = sum(wdl_off, h.wdl_blocks)?;
            h.distance_bytes = sum(dist_off, h.distance_blocks)?;
        }
        if h.wdl_bytes.checked_add(h.distance_bytes) != Some(area.end - area.start) {
            return Err(bad("the blocks do not tile the file".into()));
        }
        Ok(Layout {
            info: TableInfo {
                file_bytes: len,
                index_crc: pre.index_crc,
                ..h
            },
            version: pre.version,
            dir_off,
            chunk_off,
            wdl_off,
            dist_off,
            area_end: area.end,
        })
    }

    /// The checksum of the file's index (from its preamble): with the
    /// file's length, an identity of its contents.
    pub fn index_crc(&self) -> u32 {
        self.info.index_crc
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the table holds.
    pub fn info(&self) -> &TableInfo {
        &self.info
    }

    fn err(&self, p: Problem) -> TableError {
        TableError::new(&self.path, p)
    }

    /// The canonical tiers stored, in directory order (by `outside`).
    pub fn tier_keys(&self) -> Result<Vec<TierKey>, TableError> {
        Ok(self.directory()?.into_iter().map(|e| self.key(e)).collect())
    }

    /// The canonical tiers stored, in the order they lie in the position
    /// stream (the order they were written).
    pub(crate) fn tiers_in_stream_order(&self) -> Result<Vec<TierKey>, TableError> {
        let mut v = self.directory()?;
        v.sort_unstable_by_key(|e| e.first);
        Ok(v.into_iter().map(|e| self.key(e)).collect())
    }

    /// Every directory entry, checked.
    fn directory(&self) -> Result<Vec<DirEntry>, TableError> {
        let tiers = self.info.tiers as usize;
        self.check_tables(self.dir_off, tiers * dir_entry_len(self.version))?;
        Ok((0..tiers).map(|i| self.entry_at(i)).collect())
    }

    fn key(&self, e: DirEntry) -> TierKey {
        TierKey {
            n: self.info.file.n,
            k: self.info.file.k,
            outside: e.outside,
        }
    }

    /// Whether tier `key` is stored.
    pub(crate) fn contains(&self, key: &TierKey) -> Result<bool, TableError> {
        Ok(self.find(key)?.is_some())
    }

    /// Directory entry `i` (its chunk checked by the caller).
    fn entry_at(&self, i: usize) -> DirEntry {
        let off = self.dir_off + i * dir_entry_len(self.version);
        DirEntry::at(&self.map, off, self.version, self.info.file())
    }

    /// The directory entry of `key`, by binary search.
    fn find(&self, key: &TierKey) -> Result<Option<DirEntry>, TableError> {
        if key.file() != self.info.file {
            return Ok(None);
        }
        if key.outside & !board::OUTSIDE != 0 {
            return Ok(None);
        }
        let want = DirEntry::order_of(key.outside, self.version);
        let len = dir_entry_len(self.version);
        let (mut lo, mut hi) = (0usize, self.info.tiers as usize);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let off = self.dir_off + mid * len;
            self.check_tables(off, len)?;
            match DirEntry::order_at(&self.map, off, self.version).cmp(&want) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let e = self.entry_at(mid);
                    if e.first
                        .checked_add(e.size as u64)
                        .is_none_or(|end| end > self.info.positions)
                    {
                        return Err(self.err(Problem::BadHeader(format!(
                            "tier {:#x} lies outside the position stream",
                            e.outside
                        ))));
                    }
                    // A directory entry of another size (a faulty writer:
                    // the checksum held) is no answer rather than a wrong
                    // one.
                    return Ok((e.size as u64 == key.size()).then_some(e));
                }
            }
        }
        Ok(None)
    }

    /// Positions in block `b` of `stream`.
    fn block_positions(&self, stream: Stream, b: u64) -> usize {
        let per = match stream {
            Stream::Wdl => self.info.wdl_block_positions,
            Stream::Distance => self.info.distance_block_positions,
        } as u64;
        (self.info.positions - b * per).min(per) as usize
    }

    /// Check the checksums of the chunks of the tables holding the `len`
    /// bytes at `off` in the file (version 2), each once per open table.
    fn check_tables(&self, off: usize, len: usize) -> Result<(), TableError> {
        if self.version == 1 || len == 0 {
            return Ok(());
        }
        let chunk = format::CHUNK_BYTES as usize;
        let (first, last) = (
            (off - self.dir_off) / chunk,
            (off + len - 1 - self.dir_off) / chunk,
        );
        for c in first..=last {
            let (word, bit) = (c / 64, 1u64 << (c % 64));
            if self.checked[word].load(Ordering::Relaxed) & bit != 0 {
                continue;
            }
            let start = self.dir_off + c * chunk;
            let bytes = &self.map[start..(start + chunk).min(self.tables_end)];
            if format::crc32(bytes) != format::u32_at(&self.map, self.chunk_off + 4 * c) {
                return Err(self.err(Problem::HeaderChecksum("tier directory or block table")));
            }
            self.checked[word].fetch_or(bit, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The entry of block `b` of `stream`: its chunk's checksum checked,
    /// its bytes inside the block area.
    fn block_entry(&self, stream: Stream, b: u64) -> Result<BlockEntry, TableError> {
        let number = match stream {
            Stream::Wdl => b,
            Stream::Distance => self.info.wdl_blocks + b,
        };
        let off = self.wdl_off + number as usize * BLOCK_ENTRY_LEN;
        self.check_tables(off, BLOCK_ENTRY_LEN)?;
        let e = BlockEntry::at(&self.map, off);
        let end = e.offset.checked_add(e.len as u64);
        if e.len == 0 || e.offset < PREAMBLE_LEN as u64 || end.is_none_or(|x| x > self.area_end) {
            return Err(self.err(Problem::BadHeader("the blocks do not tile the file".into())));
        }
        Ok(e)
    }

    /// The compressed bytes of block `b` of `stream`, checksum checked.
    pub(crate) fn block_bytes(&self, stream: Stream, b: u64) -> Result<&[u8], TableError> {
        let e = self.block_entry(stream, b)?;
        let bytes = &self.map[e.offset as usize..e.offset as usize + e.len as usize];
        if format::block_crc(self.version, stream, b, bytes) != e.crc {
            return Err(self.err(Problem::BlockChecksum { stream, block: b }));
        }
        Ok(bytes)
    }

    /// The error of block `b` of `stream` with defect `detail`.
    fn bad_block(&self, stream: Stream, b: u64, detail: BlockDefect) -> TableError {
        self.err(Problem::BadBlock {
            stream,
            block: b,
            detail,
        })
    }

    /// WDL block `b` decompressed straight into the shared buffer the
    /// cache keeps (no copy: a block is 256 KiB, and a build decompresses
    /// each block of the files below it once), and checked.
    fn decode_wdl(&self, b: u64) -> Result<Arc<[u8]>, TableError> {
        let bytes = self.block_bytes(Stream::Wdl, b)?;
        let count = self.block_positions(Stream::Wdl, b);
        let bad = |detail| self.bad_block(Stream::Wdl, b, detail);
        let mut block: Arc<[u8]> = std::iter::repeat_n(0, count.div_ceil(4)).collect();
        let out = Arc::get_mut(&mut block).expect("a new block is not shared");
        let n = super::writer::decompress_into(bytes, out)
            .map_err(|e| bad(BlockDefect::Decompress(Arc::new(e))))?;
        format::check_wdl_block(&out[..n], count, self.info.wdl_only).map_err(bad)?;
        Ok(block)
    }

    /// Distance block `b`, decompressed and decoded.
    fn decode_dist(&self, b: u64) -> Result<Arc<[u16]>, TableError> {
        let bytes = self.block_bytes(Stream::Distance, b)?;
        let count = self.block_positions(Stream::Distance, b);
        let bad = |detail| self.bad_block(Stream::Distance, b, detail);
        let raw = super::writer::decompress(bytes, 1 + 2 * count)
            .map_err(|e| bad(BlockDefect::Decompress(Arc::new(e))))?;
        let d = format::decode_distances(&raw, count).map_err(bad)?;
        Ok(d.into())
    }

    /// WDL block `b` (packed 2-bit fields), through the cache.
    fn wdl_block(&self, b: u64) -> Result<Arc<[u8]>, TableError> {
        super::blocks::get(self.id, b, || self.decode_wdl(b))
    }

    /// Distance block `b`, through the cache.
    fn dist_block(&self, b: u64) -> Result<Arc<[u16]>, TableError> {
        let r = CACHE.try_with(|c| cached(&mut c.borrow_mut(), self.id, b, || self.decode_dist(b)));
        r.unwrap_or_else(|_| self.decode_dist(b))
    }

    /// The WDL field of stream position `p`.
    fn wdl_at(&self, p: u64) -> Result<u8, TableError> {
        let per = self.info.wdl_block_positions as u64;
        let blk = self.wdl_block(p / per)?;
        Ok(fields::wdl_at(&blk, (p % per) as usize))
    }

    /// The value code of `p` given its WDL field.
    fn code_at(&self, p: u64, w: u8) -> Result<u16, TableError> {
        let per = self.info.distance_block_positions as u64;
        let d = self.dist_block(p / per)?[(p % per) as usize];
        fields::code_of(w, d).ok_or_else(|| self.disagree(p / per))
    }

    fn disagree(&self, block: u64) -> TableError {
        self.bad_block(Stream::Distance, block, BlockDefect::DisagreesWithWdl)
    }

    /// The stream position of position `index` of tier `key`.
    fn position(&self, key: &TierKey, index: u32) -> Result<Option<u64>, TableError> {
        let Some(e) = self.find(key)? else {
            return Ok(None);
        };
        if index >= e.size {
            return Err(self.err(Problem::IndexOutOfRange {
                outside: key.outside,
                index,
                size: e.size as u64,
            }));
        }
        Ok(Some(
            e.first + self.info.order.stream_offset(key, index) as u64,
        ))
    }

    /// The value codes ([`Value::code`]) of canonical tier `key`, or `None`
    /// if this table does not hold it.
    pub fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, TableError> {
        if self.info.wdl_only {
            // Decoded from the fields as the solver reads them in place.
            return Ok(self
                .tier_wdl(key)?
                .map(|fields| TierValues::Wdl(fields).to_codes()));
        }
        let Some(e) = self.find(key)? else {
            return Ok(None);
        };
        let (first, end) = (e.first, e.first + e.size as u64);
        let size = e.size as usize;
        let mut out = vec![0u16; size];
        // Distances first, then the WDL fields joined in.
        let per = self.info.distance_block_positions as u64;
        let mut p = first;
        while p < end {
            let b = p / per;
            let blk = self.dist_block(b)?;
            let start = (p - b * per) as usize;
            let n = ((end - p) as usize).min(blk.len() - start);
            let o = (p - first) as usize;
            out[o..o + n].copy_from_slice(&blk[start..start + n]);
            p += n as u64;
        }
        self.wdl_spans(first, end, |o, blk, start, n| {
            for j in 0..n {
                let i = o + j;
                out[i] = fields::code_of(fields::wdl_at(blk, start + j), out[i])
                    .ok_or_else(|| self.disagree((first + i as u64) / per))?;
            }
            Ok(())
        })?;
        Ok(Some(self.info.order.index_order(key, out).into()))
    }

    /// The fields of tier `key` of a WDL-only table, as the solver reads
    /// them in place (`None` when the table does not hold the tier).
    pub(crate) fn tier_wdl(&self, key: &TierKey) -> Result<Option<WdlFields>, TableError> {
        let placement_major = self.info.order == format::Order::PlacementMajor;
        Ok(self.tier_fields(key)?.map(|fields| {
            WdlFields::new(
                fields,
                key.size() as u32,
                key,
                placement_major,
                fields::WDL_ONLY_FIELD_CODES,
            )
        }))
    }

    /// The two-bit fields of canonical tier `key` of a WDL-only table, in
    /// its stream order, four to a byte, and the tier's first field among
    /// them, or `None` if this table does not hold the tier: the
    /// decompressed block itself (shared with the block cache, nothing
    /// copied) when the tier lies in one block, as almost all do, else a
    /// copy of its fields from each block (what the solver reads in place,
    /// [`crate::solve::WdlFields`]).
    pub(crate) fn tier_fields(&self, key: &TierKey) -> Result<Option<FieldsAt>, TableError> {
        debug_assert!(self.info.wdl_only);
        let Some(e) = self.find(key)? else {
            return Ok(None);
        };
        let (first, end) = (e.first, e.first + e.size as u64);
        let per = self.info.wdl_block_positions as u64;
        let b = first / per;
        if e.size > 0 && (end - 1) / per == b {
            return Ok(Some((self.wdl_block(b)?, (first - b * per) as u32)));
        }
        let mut out = vec![0u8; (e.size as usize).div_ceil(4)];
        self.wdl_spans(first, end, |o, blk, start, n| {
            fields::copy_fields(blk, start, &mut out, o, n);
            Ok(())
        })?;
        Ok(Some((out.into(), 0)))
    }

    /// Walk the WDL blocks over stream positions `first..end`: `f(o, block,
    /// start, n)` for each block's span, where the span's `n` positions are
    /// `first + o ..` and start at field `start` of the block's packed
    /// fields.
    fn wdl_spans(
        &self,
        first: u64,
        end: u64,
        mut f: impl FnMut(usize, &[u8], usize, usize) -> Result<(), TableError>,
    ) -> Result<(), TableError> {
        let per = self.info.wdl_block_positions as u64;
        let mut p = first;
        while p < end {
            let b = p / per;
            let blk = self.wdl_block(b)?;
            let start = (p - b * per) as usize;
            let n = ((end - p) as usize).min(self.block_positions(Stream::Wdl, b) - start);
            f((p - first) as usize, &blk, start, n)?;
            p += n as u64;
        }
        Ok(())
    }

    /// The value of position `index` of canonical tier `key`, or `None` if
    /// this table does not hold the tier. A draw reads no distance block.
    pub fn probe(&self, key: &TierKey, index: u32) -> Result<Option<Value>, TableError> {
        let Some(p) = self.position(key, index)? else {
            return Ok(None);
        };
        let w = self.wdl_at(p)?;
        if w == 0 {
            return Ok(Some(Value::Draw));
        }
        if self.info.wdl_only {
            return Ok(Some(Value::from_code(fields::wdl_only_code(w))));
        }
        Ok(Some(Value::from_code(self.code_at(p, w)?)))
    }

    /// Win, draw or loss of position `index` of canonical tier `key`, or
    /// `None` if this table does not hold the tier. Reads WDL blocks only.
    pub fn probe_wdl(&self, key: &TierKey, index: u32) -> Result<Option<Wdl>, TableError> {
        let Some(p) = self.position(key, index)? else {
            return Ok(None);
        };
        Ok(Some(match self.wdl_at(p)? {
            0 => Wdl::Draw,
            1 => Wdl::Win,
            _ => Wdl::Loss, // 2, or 3 (a loss in 0) in a WDL-only table
        }))
    }

    /// The layout checks [`Table::open`] leaves out: the directory sorted,
    /// listing canonical tiers of the right sizes whose ranges partition the
    /// position stream; the blocks tiling the bytes between the preamble and
    /// the index, each stream's in increasing order.
    fn check_layout(&self) -> Result<(), Problem> {
        let bad = |s: String| Problem::BadHeader(s);
        let b = &self.map[..];
        let mut ranges: Vec<(u64, u64)> = Vec::with_capacity(self.info.tiers as usize);
        let mut prev = None;
        for i in 0..self.info.tiers as usize {
            let e = self.entry_at(i);
            if prev.is_some_and(|p| p >= e.outside) {
                return Err(bad("the tier directory is not sorted".into()));
            }
            prev = Some(e.outside);
            let key = TierKey {
                n: self.info.file.n,
                k: self.info.file.k,
                outside: e.outside,
            };
            if !key.is_valid() || !key.is_canonical() {
                return Err(bad(format!(
                    "the directory lists tier {:#x}, which is not a stored tier",
                    e.outside
                )));
            }
            if e.size as u64 != key.size() {
                return Err(bad(format!(
                    "tier {:#x} has {} positions instead of {}",
                    e.outside,
                    e.size,
                    key.size()
                )));
            }
            ranges.push((e.first, e.size as u64));
        }
        ranges.sort_unstable();
        let mut next = 0u64;
        for (first, size) in ranges {
            if first != next {
                return Err(bad(
                    "the tiers do not cover the position stream exactly".into()
                ));
            }
            next = first + size;
        }
        let (nw, nd) = (
            self.info.wdl_blocks as usize,
            self.info.distance_blocks as usize,
        );
        let (mut i, mut j) = (0, 0);
        let (mut wdl_bytes, mut dist_bytes) = (0u64, 0u64);
        let mut at = PREAMBLE_LEN as u64;
        while i < nw || j < nd {
            let w = (i < nw).then(|| BlockEntry::at(b, self.wdl_off + i * BLOCK_ENTRY_LEN));
            let d = (j < nd).then(|| BlockEntry::at(b, self.dist_off + j * BLOCK_ENTRY_LEN));
            match (w, d) {
                (Some(e), _) if e.offset == at => {
                    at += e.len as u64;
                    wdl_bytes += e.len as u64;
                    i += 1;
                }
                (_, Some(e)) if e.offset == at => {
                    at += e.len as u64;
                    dist_bytes += e.len as u64;
                    j += 1;
                }
                _ => return Err(bad("the blocks do not tile the file".into())),
            }
        }
        if (wdl_bytes, dist_bytes) != (self.info.wdl_bytes, self.info.distance_bytes) {
            return Err(bad(
                "the header's stream sizes disagree with the blocks".into()
            ));
        }
        Ok(())
    }

    /// Check the checksum of every block (the header's was checked by
    /// [`Table::open`]); decompresses nothing.
    pub fn verify_checksums(&self) -> Result<(), TableError> {
        self.check_tables(self.dir_off, self.tables_end - self.dir_off)?;
        self.check_layout()
            .map_err(|p| TableError::new(&self.path, p))?;
        for b in 0..self.info.wdl_blocks {
            self.block_bytes(Stream::Wdl, b)?;
        }
        for b in 0..self.info.distance_blocks {
            self.block_bytes(Stream::Distance, b)?;
        }
        Ok(())
    }

    /// Check every block's checksum, decompress every block and check that
    /// the two streams agree at every position (slower than
    /// [`Table::verify_checksums`]; bypasses the cache).
    pub fn verify_contents(&self) -> Result<(), TableError> {
        self.verify_checksums()?;
        if self.info.wdl_only {
            for b in 0..self.info.wdl_blocks {
                self.decode_wdl(b)?;
            }
            return Ok(());
        }
        let (bw, bd) = (
            self.info.wdl_block_positions as u64,
            self.info.distance_block_positions as u64,
        );
        let mut wdl: Option<(u64, Arc<[u8]>)> = None;
        for db in 0..self.info.distance_blocks {
            let dist = self.decode_dist(db)?;
            for (j, &d) in dist.iter().enumerate() {
                let p = db * bd + j as u64;
                let wb = p / bw;
                if wdl.as_ref().is_none_or(|(b, _)| *b != wb) {
                    wdl = Some((wb, self.decode_wdl(wb)?));
                }
                let Some((_, w)) = &wdl else {
                    unreachable!("set above")
                };
                if fields::code_of(fields::wdl_at(w, (p - wb * bw) as usize), d).is_none() {
                    return Err(self.disagree(db));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod cache_tests {
    use super::*;

    #[test]
    fn the_cache_keeps_at_most_its_blocks_and_its_bytes() {
        let mut lru = dist_cache();
        let block = |n: usize| -> Result<Arc<[u16]>, TableError> { Ok(vec![7u16; n].into()) };
        // Small blocks: the count binds; the most recent stay.
        for b in 0..300u64 {
            cached(&mut lru, 1, b, || block(100)).unwrap();
        }
        assert_eq!(lru.len(), CACHE_BLOCKS);
        assert!(lru.contains(&(1, 299)) && !lru.contains(&(1, 299 - CACHE_BLOCKS as u64)));
        assert_eq!(lru.held(), 200 * CACHE_BLOCKS as u64);
        // A hit comes back without making anything.
        let hit = cached(&mut lru, 1, 200, || panic!("made again")).unwrap();
        assert_eq!(hit.len(), 100);
        // Large blocks: the bytes bind, but the newest always stays.
        for b in 0..4u64 {
            cached(&mut lru, 2, b, || block(CACHE_BYTES / 6)).unwrap();
        }
        assert!(lru.held() <= CACHE_BYTES as u64, "{}", lru.held());
        assert!(lru.contains(&(2, 3)));
        cached(&mut lru, 3, 0, || block(CACHE_BYTES)).unwrap();
        assert_eq!((lru.len(), lru.held()), (1, 2 * CACHE_BYTES as u64));
    }
}
