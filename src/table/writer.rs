//! The streaming table writer: blocks are compressed and appended as soon as
//! they fill, so memory holds only the tier directory and the block tables;
//! the index and preamble are written by [`TableWriter::finish`], which then
//! renames the temporary file to its final name.

use super::format::{
    self, BlockEntry, DirEntry, FORMAT_VERSION, MAX_BLOCK_POSITIONS, PREAMBLE_LEN, Preamble,
};
use super::{BlockDefect, Order, Problem, Stream, TableError, TableInfo, table_path};
use crate::fields;
use crate::index::{FileKey, TierKey};
use crate::rules::Variant;
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::{self, File};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Block sizes and compression level of a new table.
///
/// The first defaults (`Bw = 2^16`, `Bd = 2^14`, zstd level 9) were chosen on the
/// 10.6 million positions of 2o9s (assaut) that the closure of
/// `S2/3/O6/SSSSSSS/1S5/3/O2 s` needs (`measure_compression` in the tests;
/// 2 cores, bits per position of the WDL stream / distance stream):
///
/// | Bw, Bd | level 1 | level 3 | level 9 | level 19 |
/// |--------|---------|---------|---------|----------|
/// | 2^16, 2^14 | 0.028 / 0.787 | 0.028 / 0.674 | 0.023 / 0.465 | 0.022 / 0.370 |
/// | 2^16, 2^16 | 0.028 / 0.721 | 0.028 / 0.602 | 0.023 / 0.380 | 0.022 / 0.282 |
/// | 2^18, 2^16 | 0.022 / 0.721 | 0.022 / 0.602 | 0.017 / 0.380 | 0.016 / 0.282 |
/// | 2^20, 2^18 | 0.021 / 0.646 | 0.021 / 0.597 | 0.015 / 0.362 | 0.014 / 0.255 |
///
/// Writing runs at about 170 million positions per second at levels 1 and
/// 3, 70 at level 9 and 1-2 at level 19 (far too slow for 10^10 positions);
/// level 9 is over a third smaller than level 3 and still a hundred times
/// faster than solving. Reading whole tiers runs at 350-500 million
/// positions per second whatever the settings; a random WDL probe that
/// misses the cache costs about 10 us with 2^16-position WDL blocks, 25 us
/// with 2^18 and 20-30 us with 2^20 (more WDL per block compresses better;
/// distance blocks larger than 2^16 gain little).
///
/// Random probes pay for decompressing one block of each stream, so block
/// size trades probe time against size. `asalto bench` on the partial
/// assaut tables of the README's demo (2 cores, machine busy with a build;
/// bits per position WDL / total, median random probe):
///
/// | Bw, Bd | WDL / total bits | probe |
/// |--------|------------------|-------|
/// | 2^18, 2^16 | 0.076 / 0.808 | 62.9 us |
/// | 2^15, 2^14 | 0.099 / 0.940 | 15.9 us |
/// | 2^14, 2^13 | 0.116 / 1.059 | 9.5 us |
/// | 2^14, 2^12 | 0.116 / 1.244 | 7.0 us |
/// | 2^12, 2^12 | 0.193 / 1.345 | 5.1 us |
/// | 2^12, 2^10 | 0.193 / 1.963 | 3.4 us |
///
/// Smaller blocks also mean a larger block table (16 bytes per block). In
/// format version 1 its checksum was checked at open, so a cold `query`
/// read it all and the defaults stopped at `2^16` / `2^14`; version 2 checks
/// the directory and block tables in 4 KiB chunks as they are read, and the
/// defaults are now `Bw = 2^14`, `Bd = 2^12`: on the full 2o9s table (assaut, 10.7e9
/// positions; `asalto repack` then `asalto bench`, 2 cores busy with a
/// verification, WDL block check vectorised):
///
/// | Bw, Bd | WDL / total bits per position | probe, median |
/// |--------|-------------------------------|---------------|
/// | 2^16, 2^14 | 0.009 / 0.811 | 15.5 us |
/// | 2^14, 2^12 | 0.019 / 1.070 | 7.0 us |
///
/// Twice as fast a probe for a third more bytes; `asalto repack` rewrites
/// tables with larger blocks where disk matters more than probe time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Positions per WDL block (a multiple of 4, at most 2^22).
    pub wdl_block_positions: u32,
    /// Positions per distance block (at most 2^22).
    pub distance_block_positions: u32,
    /// zstd compression level.
    pub zstd_level: i32,
    /// Write win/draw/loss only, no distance stream (the header says so).
    pub wdl_only: bool,
    /// The order of each tier's positions in the stream.
    pub order: Order,
    /// The floor of a floor file (its header says so; format version 6),
    /// `None` for an exact table.
    pub floor: Option<crate::solve::Floor>,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            wdl_block_positions: 1 << 14,
            distance_block_positions: 1 << 12,
            zstd_level: 9,
            wdl_only: false,
            order: Order::MaskMajor,
            floor: None,
        }
    }
}

impl WriteOptions {
    /// The options a build writes a table of this kind with:
    /// [`WriteOptions::wdl_only`] or the defaults.
    pub fn of_kind(wdl_only: bool) -> WriteOptions {
        if wdl_only {
            WriteOptions::wdl_only()
        } else {
            WriteOptions::default()
        }
    }

    /// The options of a WDL-only table as `asalto build --wdl-only` writes
    /// it: each half placement-major, `Bw = 2^20`, level 9. On the files of
    /// the whole game's run placement-major and `2^18` together took 36 %
    /// (1o11s) and 42 % (2o11s) less than `Bw = 2^14` in the index's order
    /// (`scripts/bench-runs/2026-11-26-layout/`), and `2^20` took 8-24 %
    /// less again (`scripts/bench-runs/2026-11-26-format5/`); a random probe
    /// that misses the cache decompresses 256 KiB.
    pub fn wdl_only() -> WriteOptions {
        WriteOptions {
            wdl_block_positions: 1 << 20,
            wdl_only: true,
            order: Order::PlacementMajor,
            ..WriteOptions::default()
        }
    }
}

/// Writes one table file, tier by tier (see the format in [`crate::table`]).
///
/// The file is written under a temporary name (`<n>o<k>s.atb.tmp`) in the
/// same folder and renamed to its final name by [`TableWriter::finish`];
/// a writer dropped before `finish` removes its temporary file, and a stale
/// one left by a crash is overwritten by the next writer.
pub struct TableWriter {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
    /// File offset of the next block.
    offset: u64,
    variant: Variant,
    n: u8,
    k: u8,
    opts: WriteOptions,
    /// Filled blocks (stream, decompressed bytes) not yet compressed.
    pending: Vec<(Stream, Vec<u8>)>,
    /// WDL fields (one per byte) of the block being filled.
    wdl: Vec<u8>,
    /// Distances of the block being filled.
    dist: Vec<u16>,
    wdl_blocks: Vec<BlockEntry>,
    dist_blocks: Vec<BlockEntry>,
    dir: Vec<DirEntry>,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    longest_win: u16,
    longest_loss: u16,
    poisoned: bool,
    done: bool,
    /// A checkpoint refers to the temporary file: keep it when dropped.
    checkpointed: bool,
    /// Positions pushed since the last [`TableWriter::sync`] (reads of
    /// the file so far need none).
    unsynced: bool,
    /// A second handle on the temporary file, for reading back what is
    /// written ([`TableWriter::read_first_half`]).
    reader: Option<File>,
}

/// Everything a [`TableWriter`] needs to go on from a point of its file
/// (a build's checkpoint, [`TableWriter::checkpoint`]): the temporary file's
/// length then, the positions of the blocks being filled, the block tables
/// and the counts. The directory is not in it: it follows from the tiers
/// pushed, which the caller knows ([`TableWriter::resume`]).
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub(crate) struct WriterState {
    /// Block sizes, level and kind: `(Bw, Bd, zstd level, WDL only)`.
    opts: (u32, u32, i32, bool),
    /// The stream order: 0 mask-major, 1 placement-major.
    order: u8,
    /// Length of the temporary file (everything after it is cut off).
    offset: u64,
    /// WDL fields of the WDL block being filled.
    wdl: Vec<u8>,
    /// Distances of the distance block being filled.
    dist: Vec<u16>,
    /// `(offset, length, checksum)` of each WDL block written.
    wdl_blocks: Vec<(u64, u32, u32)>,
    /// The same for each distance block.
    dist_blocks: Vec<(u64, u32, u32)>,
    /// Positions pushed.
    positions: u64,
    /// `(wins, draws, losses)` pushed.
    counts: (u64, u64, u64),
    /// `(longest win, longest loss)` pushed.
    longest: (u16, u16),
}

impl WriterState {
    /// Positions pushed when the state was taken.
    pub(crate) fn positions(&self) -> u64 {
        self.positions
    }

    /// The options the file was started with (a resumed writer goes on
    /// with them), but its floor: a checkpoint lies beside its file, in
    /// its floor's folder, and the build says which floor that is.
    pub(crate) fn options(&self) -> WriteOptions {
        let (wdl_block_positions, distance_block_positions, zstd_level, wdl_only) = self.opts;
        WriteOptions {
            wdl_block_positions,
            distance_block_positions,
            zstd_level,
            wdl_only,
            order: if self.order == 1 {
                Order::PlacementMajor
            } else {
                Order::MaskMajor
            },
            floor: None,
        }
    }
}

/// A [`WriterState`] as checkpoints before version 3 hold it: without the
/// stream order, which was then always mask-major.
#[derive(bincode::Decode)]
#[cfg_attr(test, derive(bincode::Encode))]
pub(crate) struct WriterStateV2 {
    opts: (u32, u32, i32, bool),
    offset: u64,
    wdl: Vec<u8>,
    dist: Vec<u16>,
    wdl_blocks: Vec<(u64, u32, u32)>,
    dist_blocks: Vec<(u64, u32, u32)>,
    positions: u64,
    counts: (u64, u64, u64),
    longest: (u16, u16),
}

#[cfg(test)]
impl WriterState {
    /// This state as a checkpoint before version 3 held it (its order
    /// dropped).
    pub(crate) fn as_v2(&self) -> WriterStateV2 {
        WriterStateV2 {
            opts: self.opts,
            offset: self.offset,
            wdl: self.wdl.clone(),
            dist: self.dist.clone(),
            wdl_blocks: self.wdl_blocks.clone(),
            dist_blocks: self.dist_blocks.clone(),
            positions: self.positions,
            counts: self.counts,
            longest: self.longest,
        }
    }
}

impl From<WriterStateV2> for WriterState {
    fn from(s: WriterStateV2) -> WriterState {
        WriterState {
            opts: s.opts,
            order: 0,
            offset: s.offset,
            wdl: s.wdl,
            dist: s.dist,
            wdl_blocks: s.wdl_blocks,
            dist_blocks: s.dist_blocks,
            positions: s.positions,
            counts: s.counts,
            longest: s.longest,
        }
    }
}

impl TableWriter {
    /// Start `variant`'s table file `file` under `dir` (at
    /// [`table_path`]), with the default [`WriteOptions`].
    pub fn create(dir: &Path, variant: &Variant, file: FileKey) -> Result<TableWriter, TableError> {
        TableWriter::create_with(dir, variant, file, &WriteOptions::default())
    }

    /// Start a table with the given block sizes and compression level.
    pub fn create_with(
        dir: &Path,
        variant: &Variant,
        file: FileKey,
        opts: &WriteOptions,
    ) -> Result<TableWriter, TableError> {
        let mut w = TableWriter::create_paths(dir, variant, file, opts)?;
        let file = File::create(&w.tmp).map_err(|e| TableError::io(&w.tmp, "cannot create", e))?;
        let mut file = BufWriter::with_capacity(1 << 20, file);
        file.write_all(&[0u8; PREAMBLE_LEN])
            .map_err(|e| TableError::io(&w.tmp, "cannot write", e))?;
        w.file = Some(file);
        Ok(w)
    }

    /// A writer with its paths and options checked, no file open yet.
    fn create_paths(
        dir: &Path,
        variant: &Variant,
        file: FileKey,
        opts: &WriteOptions,
    ) -> Result<TableWriter, TableError> {
        let FileKey { n, k } = file;
        let path = table_path(dir, variant, file);
        let bad_opts = |why: &str| TableError::new(&path, Problem::CannotWrite(why.to_string()));
        if !(1..=2).contains(&n) || !(9..=24).contains(&k) {
            return Err(TableError::new(
                &path,
                Problem::CannotWrite(format!(
                    "no table for {n} officers and {k} soldiers (1-2 officers, 9-24 soldiers)"
                )),
            ));
        }
        if opts.wdl_block_positions == 0
            || opts.wdl_block_positions % 4 != 0
            || opts.wdl_block_positions > MAX_BLOCK_POSITIONS
            || opts.distance_block_positions == 0
            || opts.distance_block_positions > MAX_BLOCK_POSITIONS
        {
            return Err(bad_opts(
                "bad block size in the write options (WDL: a multiple of 4; both at most 2^22)",
            ));
        }
        let tmp = temporary_path(&path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| TableError::io(parent, "cannot create the folder", e))?;
        }
        Ok(TableWriter {
            path,
            tmp,
            file: None,
            offset: PREAMBLE_LEN as u64,
            variant: *variant,
            n,
            k,
            opts: *opts,
            pending: Vec::new(),
            wdl: Vec::with_capacity(opts.wdl_block_positions as usize),
            dist: Vec::with_capacity(opts.distance_block_positions as usize),
            wdl_blocks: Vec::new(),
            dist_blocks: Vec::new(),
            dir: Vec::new(),
            positions: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            longest_win: 0,
            longest_loss: 0,
            poisoned: false,
            done: false,
            checkpointed: false,
            unsynced: false,
            reader: None,
        })
    }

    /// Take up the temporary file of an interrupted writer at the point
    /// `state` describes (from [`TableWriter::checkpoint`]), `pushed` being
    /// the tiers pushed before it, in order. The file must hold every block
    /// of `state` with its checksum; anything written after the checkpoint
    /// is cut off. The writer then goes on exactly as the interrupted one
    /// would have: the finished file is byte-identical.
    pub(crate) fn resume(
        dir: &Path,
        variant: &Variant,
        file: FileKey,
        opts: &WriteOptions,
        state: WriterState,
        pushed: &[TierKey],
    ) -> Result<TableWriter, TableError> {
        let mut w = TableWriter::create_paths(dir, variant, file, opts)?;
        let bad = |why: String| TableError::new(&w.path, Problem::CannotWrite(why));
        if (WriteOptions {
            floor: opts.floor,
            ..state.options()
        }) != *opts
        {
            return Err(bad(
                "the checkpoint was written with other block sizes, order or kind".into(),
            ));
        }
        let pushed_positions: u64 = pushed.iter().map(|t| t.size()).sum();
        let (bw, bd) = (
            opts.wdl_block_positions as u64,
            opts.distance_block_positions as u64,
        );
        if pushed_positions != state.positions
            || state.wdl_blocks.len() as u64 * bw + state.wdl.len() as u64 != state.positions
            || (!opts.wdl_only
                && state.dist_blocks.len() as u64 * bd + state.dist.len() as u64 != state.positions)
        {
            return Err(bad("the checkpoint's counts disagree with its tiers".into()));
        }
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&w.tmp)
            .map_err(|e| TableError::io(&w.tmp, "cannot open", e))?;
        let len = file
            .metadata()
            .map_err(|e| TableError::io(&w.tmp, "cannot read the length of", e))?
            .len();
        if len < state.offset {
            return Err(bad(format!(
                "the temporary file holds {len} bytes, the checkpoint needs {}",
                state.offset
            )));
        }
        // Every block the checkpoint records must be there, intact.
        let mut end = PREAMBLE_LEN as u64;
        for (stream, blocks) in [
            (Stream::Wdl, &state.wdl_blocks),
            (Stream::Distance, &state.dist_blocks),
        ] {
            for (number, &(offset, blen, crc)) in blocks.iter().enumerate() {
                if offset < PREAMBLE_LEN as u64 || offset + blen as u64 > state.offset {
                    return Err(bad(format!(
                        "block {number} of the {stream} stream lies outside the file"
                    )));
                }
                let e = BlockEntry {
                    offset,
                    len: blen,
                    crc,
                };
                read_block(&file, &w.tmp, stream, number as u64, &e)?;
                end = end.max(offset + blen as u64);
            }
        }
        if end != state.offset {
            return Err(bad(
                "the checkpoint's blocks do not end where its file does".into(),
            ));
        }
        file.set_len(state.offset)
            .map_err(|e| TableError::io(&w.tmp, "cannot cut back", e))?;
        file.seek(SeekFrom::Start(state.offset))
            .map_err(|e| TableError::io(&w.tmp, "cannot seek", e))?;
        let entry = |&(offset, len, crc): &(u64, u32, u32)| BlockEntry { offset, len, crc };
        let mut first = 0;
        for key in pushed {
            w.dir.push(DirEntry {
                outside: key.outside,
                first,
                size: key.size() as u32,
            });
            first += key.size();
        }
        w.file = Some(BufWriter::with_capacity(1 << 20, file));
        w.offset = state.offset;
        w.wdl = state.wdl;
        w.dist = state.dist;
        w.wdl_blocks = state.wdl_blocks.iter().map(entry).collect();
        w.dist_blocks = state.dist_blocks.iter().map(entry).collect();
        w.positions = state.positions;
        (w.wins, w.draws, w.losses) = state.counts;
        (w.longest_win, w.longest_loss) = state.longest;
        w.checkpointed = true;
        Ok(w)
    }

    /// The final path of the table (the tests compare messages with it).
    #[cfg(test)]
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Positions pushed so far.
    pub(crate) fn positions(&self) -> u64 {
        self.positions
    }

    /// Append the value codes ([`crate::Value::code`]) of canonical tier
    /// `key`, which must have this table's material and `key.size()` codes.
    /// Tiers may come in any order, each once.
    pub fn push_tier(&mut self, key: &TierKey, codes: &[u16]) -> Result<(), TableError> {
        if self.poisoned {
            return Err(TableError::new(&self.path, Problem::Poisoned));
        }
        let why = if key.n != self.n || key.k != self.k {
            Some(format!(
                "this table holds {}, not {}",
                FileKey::new(self.n, self.k),
                FileKey::new(key.n, key.k)
            ))
        } else if !key.is_valid() {
            Some("not a valid tier".to_string())
        } else if !key.is_canonical() {
            Some("not canonical (store its mirror image)".to_string())
        } else if codes.len() as u64 != key.size() {
            Some(format!(
                "{} codes given for {} positions",
                codes.len(),
                key.size()
            ))
        } else {
            None
        };
        if let Some(why) = why {
            return Err(TableError::new(
                &self.path,
                Problem::BadTier { key: *key, why },
            ));
        }
        self.unsynced = true;
        self.dir.push(DirEntry {
            outside: key.outside,
            first: self.positions,
            size: codes.len() as u32,
        });
        self.positions += codes.len() as u64;
        let stream = self.opts.order.to_stream_order(key, codes);
        // Counted with no branch on a value (the values of a tier come
        // mixed): a win is an odd code, a draw code 0, a loss the rest;
        // a draw's distance is 0.
        let (mut wins, mut draws) = (0u64, 0u64);
        let (mut longest_win, mut longest_loss) = (self.longest_win, self.longest_loss);
        for &c in codes {
            let d = fields::distance(c);
            let win = c & 1;
            wins += u64::from(win);
            draws += u64::from(c == 0);
            longest_win = longest_win.max(d * win);
            longest_loss = longest_loss.max(d * (1 - win));
        }
        self.wins += wins;
        self.draws += draws;
        self.losses += codes.len() as u64 - wins - draws;
        (self.longest_win, self.longest_loss) = (longest_win, longest_loss);
        self.poisoning(|w| w.append(&stream))
    }

    /// Run a step that writes: refused once a write has failed, and marking
    /// the writer failed when it fails (the file is then not completed).
    fn poisoning<T>(
        &mut self,
        step: impl FnOnce(&mut TableWriter) -> Result<T, TableError>,
    ) -> Result<T, TableError> {
        if self.poisoned {
            return Err(TableError::new(&self.path, Problem::Poisoned));
        }
        let r = step(self);
        if r.is_err() {
            self.poisoned = true;
        }
        r
    }

    fn append(&mut self, codes: &[u16]) -> Result<(), TableError> {
        let bw = self.opts.wdl_block_positions as usize;
        let mut rest = codes;
        while !rest.is_empty() {
            let take = (bw - self.wdl.len()).min(rest.len());
            // Each kind's fields by a closure of its own, inlined (a
            // function pointer would be a call per position).
            if self.opts.wdl_only {
                self.wdl
                    .extend(rest[..take].iter().map(|&c| fields::wdl_only_bits(c)));
            } else {
                self.wdl
                    .extend(rest[..take].iter().map(|&c| fields::wdl_bits(c)));
            }
            rest = &rest[take..];
            if self.wdl.len() == bw {
                self.flush_wdl()?;
            }
        }
        if self.opts.wdl_only {
            return Ok(());
        }
        let bd = self.opts.distance_block_positions as usize;
        let mut rest = codes;
        while !rest.is_empty() {
            let take = (bd - self.dist.len()).min(rest.len());
            self.dist
                .extend(rest[..take].iter().map(|&c| fields::distance(c)));
            rest = &rest[take..];
            if self.dist.len() == bd {
                self.flush_dist()?;
            }
        }
        Ok(())
    }

    /// Queue the WDL block being filled.
    fn flush_wdl(&mut self) -> Result<(), TableError> {
        let raw: Vec<u8> = self
            .wdl
            .chunks(4)
            .map(|four| {
                four.iter()
                    .enumerate()
                    .fold(0u8, |b, (j, &w)| b | w << (2 * j))
            })
            .collect();
        self.wdl.clear();
        self.queue(Stream::Wdl, raw)
    }

    /// Queue the distance block being filled.
    fn flush_dist(&mut self) -> Result<(), TableError> {
        let mut raw = Vec::new();
        format::encode_distances(&self.dist, &mut raw);
        self.dist.clear();
        self.queue(Stream::Distance, raw)
    }

    /// Queue a filled block; compress and write the queue when it is long.
    fn queue(&mut self, stream: Stream, raw: Vec<u8>) -> Result<(), TableError> {
        self.pending.push((stream, raw));
        if self.pending.len() >= PENDING_BLOCKS {
            self.write_pending()?;
        }
        Ok(())
    }

    /// Compress the queued blocks, in parallel on the current rayon pool
    /// (a build's solver threads), and append them to the file in order.
    fn write_pending(&mut self) -> Result<(), TableError> {
        let level = self.opts.zstd_level;
        let packed: Vec<std::io::Result<Vec<u8>>> = self
            .pending
            .par_iter()
            .map(|(_, raw)| compress(raw, level))
            .collect();
        let pending = std::mem::take(&mut self.pending);
        for ((stream, _), packed) in pending.into_iter().zip(packed) {
            let packed = packed.map_err(|e| TableError::io(&self.tmp, "cannot compress", e))?;
            let number = match stream {
                Stream::Wdl => self.wdl_blocks.len(),
                Stream::Distance => self.dist_blocks.len(),
            } as u64;
            let e = BlockEntry {
                offset: self.offset,
                len: packed.len() as u32,
                crc: format::block_crc(FORMAT_VERSION, stream, number, &packed),
            };
            self.file
                .as_mut()
                .ok_or_else(|| TableError::new(&self.path, Problem::Poisoned))?
                .write_all(&packed)
                .map_err(|e| TableError::io(&self.tmp, "cannot write", e))?;
            self.offset += packed.len() as u64;
            match stream {
                Stream::Wdl => self.wdl_blocks.push(e),
                Stream::Distance => self.dist_blocks.push(e),
            }
        }
        Ok(())
    }

    /// Compress and write every filled block and flush the file's buffer,
    /// so that `TableWriter::read_first_half` can read back every position
    /// pushed so far (the blocks being filled stay in memory).
    pub fn sync(&mut self) -> Result<(), TableError> {
        self.poisoning(TableWriter::sync_inner)
    }

    fn sync_inner(&mut self) -> Result<(), TableError> {
        self.write_pending()?;
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| TableError::new(&self.path, Problem::Poisoned))?;
        file.flush()
            .map_err(|e| TableError::io(&self.tmp, "cannot write", e))?;
        self.unsynced = false;
        Ok(())
    }

    /// [`TableWriter::sync`], make the file durable, and return the state
    /// [`TableWriter::resume`] goes on from. From now on a writer dropped
    /// before [`TableWriter::finish`] leaves its temporary file in place
    /// for the checkpoint that refers to it.
    pub(crate) fn checkpoint(&mut self) -> Result<WriterState, TableError> {
        self.sync()?;
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| TableError::new(&self.path, Problem::Poisoned))?;
        file.get_ref()
            .sync_data()
            .map_err(|e| TableError::io(&self.tmp, "cannot sync", e))?;
        self.checkpointed = true;
        let entry = |e: &BlockEntry| (e.offset, e.len, e.crc);
        Ok(WriterState {
            opts: (
                self.opts.wdl_block_positions,
                self.opts.distance_block_positions,
                self.opts.zstd_level,
                self.opts.wdl_only,
            ),
            order: match self.opts.order {
                Order::MaskMajor => 0,
                Order::PlacementMajor => 1,
            },
            offset: self.offset,
            wdl: self.wdl.clone(),
            dist: self.dist.clone(),
            wdl_blocks: self.wdl_blocks.iter().map(entry).collect(),
            dist_blocks: self.dist_blocks.iter().map(entry).collect(),
            positions: self.positions,
            counts: (self.wins, self.draws, self.losses),
            longest: (self.longest_win, self.longest_loss),
        })
    }

    /// Open the handle [`TableWriter::read_first_half`] reads through (once).
    pub(crate) fn open_reader(&mut self) -> Result<(), TableError> {
        if self.reader.is_none() {
            let f =
                File::open(&self.tmp).map_err(|e| TableError::io(&self.tmp, "cannot open", e))?;
            self.reader = Some(f);
        }
        Ok(())
    }

    /// The value codes of the first half (officers to move) of tier `key`,
    /// pushed at stream position `first`, in index order: read back from
    /// the blocks written (checksums checked) and the blocks being filled.
    /// Needs [`TableWriter::open_reader`] once and [`TableWriter::sync`]
    /// after the last push.
    pub(crate) fn read_first_half(
        &self,
        first: u64,
        key: &TierKey,
    ) -> Result<Vec<u16>, TableError> {
        let codes = self.read_codes(first, key.size_per_side() as u64)?;
        Ok(self.opts.order.index_order(key, codes))
    }

    /// The first halves of `tiers` (each a tier's first stream position
    /// and its key, in stream order, close together), as
    /// [`TableWriter::read_first_half`] gives them one by one: the stream
    /// is read once from the first tier's start to the last one's first
    /// half's end, so each block is decompressed once where a tier at a
    /// time decompresses it once for every tier in it.
    pub(crate) fn read_first_halves(
        &self,
        tiers: &[(u64, TierKey)],
    ) -> Result<Vec<Vec<u16>>, TableError> {
        let (Some(&(first, _)), Some(&(last_first, last))) = (tiers.first(), tiers.last()) else {
            return Ok(Vec::new());
        };
        let end = last_first + last.size_per_side() as u64;
        let codes = self.read_codes(first, end - first)?;
        Ok(tiers
            .iter()
            .map(|&(f, key)| {
                let at = (f - first) as usize;
                let half = &codes[at..at + key.size_per_side() as usize];
                self.opts.order.index_order(&key, half.to_vec())
            })
            .collect())
    }

    /// The value codes of stream positions `first..first + count` (see
    /// [`TableWriter::read_first_half`]).
    fn read_codes(&self, first: u64, count: u64) -> Result<Vec<u16>, TableError> {
        let err = |why: &str| TableError::new(&self.path, Problem::CannotWrite(why.to_string()));
        let Some(reader) = &self.reader else {
            return Err(err("read back before open_reader"));
        };
        if self.unsynced || !self.pending.is_empty() {
            return Err(err("read back before sync"));
        }
        if first + count > self.positions {
            return Err(err("read back past the positions pushed"));
        }
        let mut out = Vec::with_capacity(count as usize);
        let (bw, bd) = (
            self.opts.wdl_block_positions as u64,
            self.opts.distance_block_positions as u64,
        );
        let read = |stream: Stream, number: u64, e: &BlockEntry| -> Result<Vec<u8>, TableError> {
            let bytes = read_block(reader, &self.tmp, stream, number, e)?;
            // Blocks are written full until the file is finished.
            let capacity = match stream {
                Stream::Wdl => bw.div_ceil(4),
                Stream::Distance => 1 + 2 * bd,
            };
            decompress(&bytes, capacity as usize)
                .map_err(|x| TableError::io(&self.tmp, "cannot decompress", x))
        };
        // WDL fields, one per position (the codes themselves in a WDL-only
        // file).
        let field = |w: u8| {
            if self.opts.wdl_only {
                fields::wdl_only_code(w)
            } else {
                w as u16
            }
        };
        let mut p = first;
        while p < first + count {
            let b = p / bw;
            let end = ((b + 1) * bw).min(first + count);
            if let Some(e) = self.wdl_blocks.get(b as usize) {
                let raw = read(Stream::Wdl, b, e)?;
                let start = (p - b * bw) as usize;
                if self.opts.wdl_only {
                    // Four fields a byte, through the decoding table.
                    let at = out.len();
                    out.resize(at + (end - p) as usize, 0);
                    fields::decode_wdl_only(&raw, start, &mut out[at..]);
                } else {
                    out.extend(
                        (start..start + (end - p) as usize).map(|q| field(fields::wdl_at(&raw, q))),
                    );
                }
            } else {
                out.extend((p..end).map(|q| field(self.wdl[(q - b * bw) as usize])));
            }
            p = end;
        }
        if self.opts.wdl_only {
            return Ok(out);
        }
        // Distances, folded into codes.
        let bad_block = |block: u64, detail: BlockDefect| {
            TableError::new(
                &self.tmp,
                Problem::BadBlock {
                    stream: Stream::Distance,
                    block,
                    detail,
                },
            )
        };
        let mut p = first;
        while p < first + count {
            let b = p / bd;
            let end = ((b + 1) * bd).min(first + count);
            let decoded;
            let d: &[u16] = if let Some(e) = self.dist_blocks.get(b as usize) {
                let raw = read(Stream::Distance, b, e)?;
                // Blocks are written full until the file is finished.
                decoded = format::decode_distances(&raw, bd as usize)
                    .map_err(|detail| bad_block(b, detail))?;
                &decoded
            } else {
                &self.dist
            };
            for q in p..end {
                let i = (q - first) as usize;
                let code = fields::code_of(out[i] as u8, d[(q - b * bd) as usize])
                    .ok_or_else(|| bad_block(b, BlockDefect::DisagreesWithWdl))?;
                out[i] = code;
            }
            p = end;
        }
        Ok(out)
    }

    /// Write the last blocks, the index and the preamble, sync the file and
    /// rename it to its final name.
    pub fn finish(mut self) -> Result<TableInfo, TableError> {
        if self.poisoned {
            return Err(TableError::new(&self.path, Problem::Poisoned));
        }
        let info = self.finish_inner();
        if info.is_ok() {
            self.done = true;
        }
        info
    }

    /// The header of the finished file, all but the index's own lengths
    /// and checksum (known once it is encoded).
    fn header_info(&self) -> TableInfo {
        TableInfo {
            variant: self.variant,
            file: FileKey::new(self.n, self.k),
            tiers: self.dir.len() as u64,
            positions: self.positions,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            longest_win: if self.opts.wdl_only {
                0
            } else {
                self.longest_win
            },
            longest_loss: if self.opts.wdl_only {
                0
            } else {
                self.longest_loss
            },
            zstd_level: self.opts.zstd_level,
            wdl_block_positions: self.opts.wdl_block_positions,
            distance_block_positions: self.opts.distance_block_positions,
            wdl_blocks: self.wdl_blocks.len() as u64,
            distance_blocks: self.dist_blocks.len() as u64,
            wdl_bytes: self.wdl_blocks.iter().map(|e| e.len as u64).sum(),
            distance_bytes: self.dist_blocks.iter().map(|e| e.len as u64).sum(),
            wdl_only: self.opts.wdl_only,
            order: self.opts.order,
            floor: self.opts.floor,
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            format_version: format::version_for(self.opts.floor),
            // Known once the index is encoded, below.
            index_bytes: 0,
            file_bytes: 0,
            index_crc: 0,
        }
    }

    fn finish_inner(&mut self) -> Result<TableInfo, TableError> {
        if !self.wdl.is_empty() {
            self.flush_wdl()?;
        }
        if !self.dist.is_empty() {
            self.flush_dist()?;
        }
        self.write_pending()?;
        self.dir.sort_unstable_by_key(|e| e.outside);
        if let Some(w) = self.dir.windows(2).find(|w| w[0].outside == w[1].outside) {
            let key = TierKey {
                n: self.n,
                k: self.k,
                outside: w[0].outside,
            };
            return Err(TableError::new(
                &self.path,
                Problem::BadTier {
                    key,
                    why: "pushed twice".into(),
                },
            ));
        }
        let mut info = self.header_info();
        if self.positions > format::MAX_POSITIONS_V5 {
            return Err(TableError::new(
                &self.path,
                Problem::CannotWrite(format!(
                    "{} positions, more than a file holds ({})",
                    self.positions,
                    format::MAX_POSITIONS_V5
                )),
            ));
        }
        // The header and the chunk table (the head, covered by the
        // preamble's checksum), then the directory and the block tables
        // (the tables), each chunk of their bytes covered by its checksum in
        // the chunk table.
        let mut tables = Vec::with_capacity(format::tables_len(
            FORMAT_VERSION,
            self.dir.len() as u128,
            (self.wdl_blocks.len() + self.dist_blocks.len()) as u128,
        ) as usize);
        for e in &self.dir {
            e.encode(&mut tables);
        }
        for e in self.wdl_blocks.iter().chain(&self.dist_blocks) {
            e.encode(&mut tables);
        }
        let mut head = Vec::new();
        info.encode_header(&mut head);
        for chunk in tables.chunks(format::CHUNK_BYTES as usize) {
            head.extend_from_slice(&format::crc32(chunk).to_le_bytes());
        }
        let preamble = Preamble {
            version: info.format_version,
            index_offset: self.offset,
            index_len: (head.len() + tables.len()) as u64,
            index_crc: format::crc32(&head),
        };
        let mut index = head;
        index.append(&mut tables);
        let tmp = self.tmp.clone();
        let io = |op| {
            let tmp = tmp.clone();
            move |e| TableError::io(&tmp, op, e)
        };
        let mut file = self
            .file
            .take()
            .ok_or_else(|| TableError::new(&self.path, Problem::Poisoned))?;
        file.write_all(&index).map_err(io("cannot write"))?;
        let mut file = file
            .into_inner()
            .map_err(|e| TableError::io(&self.tmp, "cannot write", e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(io("cannot seek"))?;
        file.write_all(&preamble.encode())
            .map_err(io("cannot write"))?;
        file.sync_all().map_err(io("cannot sync"))?;
        drop(file);
        fs::rename(&self.tmp, &self.path).map_err(io("cannot rename to its final name"))?;
        if let Some(parent) = self.path.parent() {
            // Make the rename durable; not every platform can sync a folder.
            if let Ok(d) = File::open(parent) {
                let _ = d.sync_all();
            }
        }
        info.index_bytes = index.len() as u64;
        info.file_bytes = self.offset + index.len() as u64;
        info.index_crc = preamble.index_crc;
        Ok(info)
    }
}

/// Blocks queued before they are compressed together: enough to keep a
/// few threads busy, few enough to stay small (at most a few MiB).
const PENDING_BLOCKS: usize = 16;

thread_local! {
    /// Each thread's zstd context and its level (a context is reused: the
    /// output does not depend on which thread compressed a block).
    static COMPRESSOR: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
        const { RefCell::new(None) };
    /// Each thread's zstd context for reading blocks (making one costs more
    /// than decompressing a small block).
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

/// Compress one block at `level` with this thread's context.
fn compress(raw: &[u8], level: i32) -> std::io::Result<Vec<u8>> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        if c.as_ref().is_none_or(|(l, _)| *l != level) {
            *c = Some((level, zstd::bulk::Compressor::new(level)?));
        }
        let Some((_, z)) = c.as_mut() else {
            unreachable!("set above")
        };
        z.compress(raw)
    })
}

/// Run `f` with this thread's decompression context (the reader's and the
/// writer's read-back share it).
fn with_decompressor<T>(
    f: impl FnOnce(&mut zstd::bulk::Decompressor<'static>) -> std::io::Result<T>,
) -> std::io::Result<T> {
    DECOMPRESSOR.with(|d| {
        let mut d = d.borrow_mut();
        if d.is_none() {
            *d = Some(zstd::bulk::Decompressor::new()?);
        }
        let Some(z) = d.as_mut() else {
            unreachable!("set above")
        };
        f(z)
    })
}

/// Decompress one block of at most `capacity` bytes.
pub(super) fn decompress(bytes: &[u8], capacity: usize) -> std::io::Result<Vec<u8>> {
    with_decompressor(|z| z.decompress(bytes, capacity))
}

/// Decompress one block of at most `out.len()` bytes into `out`; returns
/// how many it holds (an error where it holds more).
pub(super) fn decompress_into(bytes: &[u8], out: &mut [u8]) -> std::io::Result<usize> {
    with_decompressor(|z| z.decompress_to_buffer(bytes, out))
}

/// The compressed bytes of block `number` of `stream`, entry `e`, read from
/// `file` (the temporary file at `tmp`) and checked against the entry's
/// checksum.
fn read_block(
    file: &File,
    tmp: &Path,
    stream: Stream,
    number: u64,
    e: &BlockEntry,
) -> Result<Vec<u8>, TableError> {
    let mut bytes = vec![0; e.len as usize];
    file.read_exact_at(&mut bytes, e.offset)
        .map_err(|x| TableError::io(tmp, "cannot read", x))?;
    if format::block_crc(FORMAT_VERSION, stream, number, &bytes) != e.crc {
        return Err(TableError::new(
            tmp,
            Problem::BlockChecksum {
                stream,
                block: number,
            },
        ));
    }
    Ok(bytes)
}

/// `<file>.tmp`: where a table is written before it is complete.
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

impl Drop for TableWriter {
    fn drop(&mut self) {
        if !self.done && !self.checkpointed {
            self.file = None;
            let _ = fs::remove_file(&self.tmp);
        }
    }
}
