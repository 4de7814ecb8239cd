//! Tablebase files: the on-disk format, a streaming [`TableWriter`], an
//! mmap [`Table`] reader and a [`TableSet`] over a folder of tables.
//!
//! One file holds the canonical tiers of one variant with `n` officers and
//! `k` soldiers, at `<tables>/<variant slug>/<n>o<k>s.atb` (for example
//! `tables/assaut/2o9s.atb`, see [`table_path`]).
//!
//! # The file format, version 5 (and 6, floor files)
//!
//! This section is the specification; it is enough to write a reader in
//! another language. The format is stable: any change to it raises the
//! format version, and a reader refuses versions it does not know. Every
//! integer is **little-endian** and unsigned unless said otherwise. Every
//! checksum is **CRC-32** (IEEE 802.3, polynomial `0xEDB88320` reflected,
//! initial value and final xor `0xFFFFFFFF`: zlib's `crc32`, Python's
//! `zlib.crc32`). Every byte of a valid file is covered by exactly one
//! checksum, so a flipped byte is always detected.
//!
//! ```text
//! +--------------------+ offset 0
//! | preamble, 40 bytes |
//! +--------------------+ offset 40
//! | blocks             |  zstd frames of the WDL and distance streams,
//! |                    |  back to back, in the order they were written
//! +--------------------+ offset index_offset
//! | index              |  header, chunk table, tier directory,
//! |                    |  two block tables
//! +--------------------+ offset index_offset + index_len = file length
//! ```
//!
//! The index comes last because the writer streams the blocks out as they
//! fill and learns the directory only at the end; the preamble at offset 0
//! is written last, just before the file is renamed to its final name.
//!
//! ## Preamble (offset 0, 40 bytes)
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 8 | magic: the ASCII bytes `ASALTOTB` |
//! | 8  | 4 | format version: `5` |
//! | 12 | 4 | reserved, `0` |
//! | 16 | 8 | `index_offset`: where the index starts |
//! | 24 | 8 | `index_len`: the index's length in bytes |
//! | 32 | 4 | CRC-32 of the index's head: header and chunk table (`head_len` bytes, below) |
//! | 36 | 4 | CRC-32 of bytes 0..36 of the preamble |
//!
//! Bytes 0..12 (magic and version) keep their meaning in every future
//! version. Check the magic, then the version, then the preamble's checksum;
//! then `index_offset >= 40` and `index_offset + index_len` must equal the
//! file length (shorter: truncated file), then the head's checksum.
//!
//! ## Index: header (100 bytes, then the tool version)
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 1 | soldier rule: 0 `closer`, 1 `forward` |
//! | 1  | 1 | capture rule: 0 `huff`, 1 `mandatory`, 2 `free` |
//! | 2  | 1 | max: 0 `off`, 1 `on` |
//! | 3  | 1 | trapped: 0 `soldiers-win`, 1 `soldiers-lose` |
//! | 4  | 1 | `n`, officers (1..=2) |
//! | 5  | 1 | `k`, soldiers (9..=24) |
//! | 6  | 2 | `L`, length of the tool version string |
//! | 8  | 8 | `T`, number of tiers |
//! | 16 | 8 | `P`, number of positions (sum of the tiers' sizes) |
//! | 24 | 8 | positions won by the side to move |
//! | 32 | 8 | drawn positions |
//! | 40 | 8 | positions lost by the side to move |
//! | 48 | 2 | longest win, in plies (0 if none) |
//! | 50 | 2 | longest loss, in plies (0 if none) |
//! | 52 | 4 | zstd level the blocks were compressed with (i32, information only) |
//! | 56 | 4 | `Bw`, positions per WDL block (a multiple of 4) |
//! | 60 | 4 | `Bd`, positions per distance block |
//! | 64 | 8 | `Nw = ceil(P / Bw)`, number of WDL blocks |
//! | 72 | 8 | `Nd = ceil(P / Bd)`, number of distance blocks |
//! | 80 | 8 | compressed bytes of the WDL stream (sum of its blocks' lengths) |
//! | 88 | 8 | compressed bytes of the distance stream |
//! | 96 | 4 | flags: bit 0 set for a *WDL-only* table, bit 1 for a *placement-major* one (both below); in version 6 (a *floor file*, below) bit 2 always set, bit 3 set when the floor counts as the soldiers' win (clear: the officers'), bits 8..16 the floor `K`; other bits 0 |
//! | 100 | L | the version of `asalto-tb` that built the file (UTF-8) |
//!
//! Counts are over the stored positions only (canonical tiers, both sides
//! to move); mirrored tiers are not stored.
//!
//! **Floor files (version 6).** A file of the game above a floor `K`
//! (`asalto build --floor K --assume SIDE`, [`crate::solve::Floor`]) is
//! version 5 in every byte but the version number and the floor's flags:
//! its values are those of the game in which every position a move
//! reaches with `9 <= k < K` soldiers counts as SIDE's win (stored as a
//! win, or loss, in 0 plies), so they bound the real values rather than
//! being them. `K` is 10..=24 and the file's `k` at least `K`. Exact
//! tables are never written as version 6, and a reader of version 5
//! alone refuses a floor file. Floor files live in a folder of their own,
//! `<tables>/floor-<K>-<officers|soldiers>/<variant>/`.
//!
//! ## Index: chunk table (`C` checksums of 4 bytes, right after the header)
//!
//! The tier directory and the two block tables below (the *tables*,
//! `8 T + 16 (Nw + Nd)` bytes back to back) are cut into chunks of 4096
//! bytes (the last chunk holds the rest; an entry may straddle two
//! chunks): `C = ceil((8 T + 16 (Nw + Nd)) / 4096)`. Checksum `c` is the
//! CRC-32 of chunk `c`. The preamble's checksum covers the head, the first
//! `head_len = 100 + L + 4 C` bytes of the index; the chunk checksums cover
//! the tables. So a reader checks the head at open and a chunk when it first
//! reads an entry in it: opening a file of millions of tiers and blocks
//! reads a few hundred kilobytes, and a lookup checks the few chunks its
//! search touches.
//!
//! ## Index: tier directory (`T` entries of 8 bytes, right after the chunk table)
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 3 | `outside`: the tier's soldiers outside the fortress, packed (below) |
//! | 3  | 5 | `first`: the tier's first position in the position stream (so `P <= 2^40`) |
//!
//! The 24 points outside the fortress, in point order, are numbered 0..24:
//! points are numbered rank by rank from rank 1, left to right (`c1` = 0,
//! `d1` = 1, ... `e7` = 32; see [`crate::board`]), and a bitboard has bit
//! `p` for point `p`, so the outside points `c1` .. `b5` (0..=21) keep
//! their numbers and `f5`, `g5` (25, 26) become 22 and 23. Bit `j` of the
//! packed `outside` is set when a soldier stands on the `j`-th of them. Entries are sorted by packed `outside`, strictly
//! increasing (the same order as the bitboards'): find a tier by binary
//! search. A tier is `(n, k, outside)` with the file's `n` and `k`; only
//! canonical tiers are stored (see [`crate::index`]). A tier's size (its
//! number of positions) is not stored: it is [`TierKey::size`], `2 H`
//! with `H = C(9, m) C(33 - k, n)` positions a side, `m = k - |outside|`
//! soldiers inside the fortress. The tiers' ranges `first..first + size`
//! partition `0..P` (tiers lie in the stream in the order they were
//! solved, not in directory order).
//!
//! Position `i` of a tier (its index in [`crate::index`]: `i = s H + f O +
//! o`, with `s` 0 for the officers to move and 1 for the soldiers, `f` the
//! rank of the fortress mask among the tier's `M` masks, `o` the rank of
//! the officers' placement among its `O` placements, `H = M O`) is
//! position `first + i` of the stream, unless flag bit 1 is set: then
//! each half is transposed, and it is position `first + s H + o M + f`
//! ([`Order`]).
//!
//! ## Index: block tables (`Nw` then `Nd` entries of 16 bytes)
//!
//! The WDL block table, then the distance block table, right after the
//! directory; the index ends with them, so
//! `index_len = head_len + 8 T + 16 (Nw + Nd)`.
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0  | 8 | file offset of the block's compressed bytes |
//! | 8  | 4 | length of the compressed bytes |
//! | 12 | 4 | the block's checksum: CRC-32 of one byte naming the stream (0 WDL, 1 distance), then the block's number in its stream (8 bytes), then the compressed bytes |
//!
//! The blocks of both tables tile the bytes `40..index_offset` exactly,
//! without gaps or overlaps; within one stream the offsets increase. A
//! block's checksum names the block, so an entry pointing at another
//! block's bytes fails it.
//!
//! ## WDL-only tables
//!
//! A table with flag bit 0 holds win/draw/loss only: there is no distance
//! stream (`Nd = 0`, its byte count 0; `Bd` is still a valid block size),
//! the longest win and loss are 0, and the WDL field 3 means *a loss in 0
//! plies* (the side to move has no move and loses: the one distance the
//! rules themselves look at, when a huff leaves the soldiers stuck). A
//! reader gives a loss in 0 for field 3 and wins and losses in
//! `UNKNOWN_PLIES` (1) for fields 1 and 2; their true distance is unknown.
//!
//! ## Version 4
//!
//! Version 4 files are still read. They differ from version 5 only in the
//! tier directory: entries of 20 bytes, `outside` as a bitboard in 8
//! bytes, `first` in 8 and the tier's `size` in 4 (which must equal
//! [`TierKey::size`]), so the tables are `20 T + 16 (Nw + Nd)` bytes.
//!
//! ## Version 3
//!
//! Version 3 files are still read. They differ from version 4 only in the
//! flags: bit 1 is unknown (always mask-major).
//!
//! ## Version 2
//!
//! Version 2 files are still read. They differ from version 3 only in the
//! header: 96 bytes, no flags (never WDL-only), the tool version at offset
//! 96, so `head_len = 96 + L + 4 C`.
//!
//! ## Version 1
//!
//! Version 1 files are still read. They differ from version 2 in three places: the
//! header is 80 bytes (no stream sizes; the tool version at offset 80);
//! there is no chunk table (the directory follows the header) and the
//! preamble's checksum covers the whole index, of length
//! `80 + L + 20 T + 16 (Nw + Nd)`; a block's checksum is the CRC-32 of its
//! compressed bytes alone. `asalto repack` rewrites a
//! version 1 file in the current version.
//!
//! ## Streams and blocks
//!
//! The position stream holds `P` positions; each has a WDL value and a
//! distance, kept in two streams so that a win/draw/loss probe never
//! touches distances. Stream position `p` lies in WDL block `p / Bw` at
//! `p % Bw`, and in distance block `p / Bd` at `p % Bd`. Every block holds
//! `Bw` (resp. `Bd`) positions except the last of its stream, which holds
//! the rest. A block is one zstd frame (RFC 8878) compressed independently
//! of all others, with no dictionary. Its decompressed bytes are:
//!
//! * **WDL block** of `c` positions: `ceil(c / 4)` bytes; position `j` is
//!   the 2 bits `(byte[j / 4] >> (2 * (j % 4))) & 3`: 0 draw, 1 win for the
//!   side to move, 2 loss for the side to move (3 never occurs). Unused
//!   bits of the last byte are 0.
//! * **distance block** of `c` positions: one byte `planes` (1 or 2), then
//!   `c` bytes holding the low byte of each distance, then, if `planes` is
//!   2, `c` bytes holding the high byte of each. A distance is the number of
//!   plies to the end with best play (0 for draws). Blocks where every
//!   distance is below 256 have one plane.
//!
//! A position's value code ([`crate::Value::code`]) follows: 0 for a draw, `2d +
//! 1` for a win in `d` plies, `2d + 2` for a loss in `d` plies.
//!
//! ## Compression settings (measured)
//!
//! The writer's defaults are `Bw = 2^14` and `Bd = 2^12` positions, zstd
//! level 9, mask-major; a WDL-only build writes `Bw = 2^20`,
//! placement-major ([`WriteOptions::wdl_only`]). See [`WriteOptions`] for
//! the measurements behind them. A reader
//! must accept any block sizes (this one accepts up to 2^22 positions per
//! block).
//!
//! # Reading
//!
//! [`Table::open`] maps the file and checks the preamble and the head (in
//! version 1, the whole index); a chunk of the tables is checked when one
//! of its entries is first read, a block's checksum when the block is
//! decompressed (decompressed blocks are kept in a cache, [`blocks`]),
//! and [`Table::verify_checksums`] checks them all, with the layout. A bad file gives a
//! [`TableError`] naming the file and the problem, never a panic.

pub mod blocks;
pub(crate) mod format;
mod reader;
mod repack;
mod store;
mod writer;

#[cfg(test)]
pub(crate) use format::FORMAT_VERSION;
pub use format::{Order, Stream};
pub(crate) use format::{block_count, file_len};
pub use reader::Table;
pub use repack::repack;
pub(crate) use store::open_checked;
pub use store::{TableSet, floors_under, list};
pub use writer::{TableWriter, WriteOptions, temporary_path};
pub(crate) use writer::{WriterState, WriterStateV2};

use crate::index::{FileKey, TierKey};
use crate::rules::Variant;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The path of `variant`'s table file `file` under `dir`: `<dir>/<variant
/// slug>/<n>o<k>s.atb`.
pub fn table_path(dir: &Path, variant: &Variant, file: FileKey) -> PathBuf {
    dir.join(variant.slug()).join(file_name(file))
}

/// Words for a file's floor: `an exact table`, or `a floor file (k < 22
/// counted as the officers' win)`.
fn floor_words(floor: Option<crate::solve::Floor>) -> String {
    match floor {
        None => "exact tables (no floor)".to_string(),
        Some(f) => format!("floor files ({f})"),
    }
}

/// `<n>o<k>s.atb`.
fn file_name(file: FileKey) -> String {
    format!("{file}.atb")
}

/// The file key of a file name `<n>o<k>s.atb`.
fn parse_file_name(name: &str) -> Option<FileKey> {
    name.strip_suffix(".atb")?.parse().ok()
}

/// What a table file holds: its header (the fields of the file format's
/// header, under the same names) and the lengths of its index and of the
/// file.
#[derive(Clone, Debug, PartialEq)]
pub struct TableInfo {
    /// The rule variant.
    pub variant: Variant,
    /// The file's material: officers and soldiers.
    pub file: FileKey,
    /// The file's format version.
    pub format_version: u32,
    /// The version of `asalto-tb` that built the file.
    pub tool_version: String,
    /// Tiers stored (canonical tiers only).
    pub tiers: u64,
    /// Positions stored (both sides to move).
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies (0 if there is none).
    pub longest_win: u16,
    /// The longest loss, in plies (0 if there is none).
    pub(crate) longest_loss: u16,
    /// zstd level the blocks were compressed with.
    pub zstd_level: i32,
    /// Positions per WDL block.
    pub wdl_block_positions: u32,
    /// Positions per distance block.
    pub distance_block_positions: u32,
    /// Number of WDL blocks.
    pub(crate) wdl_blocks: u64,
    /// Number of distance blocks.
    pub distance_blocks: u64,
    /// Compressed bytes of the WDL stream.
    pub wdl_bytes: u64,
    /// Compressed bytes of the distance stream.
    pub(crate) distance_bytes: u64,
    /// Win/draw/loss only: no distances (format version 3 on). Values
    /// read from such a table are wins and losses in
    /// `UNKNOWN_PLIES` (1; but a loss in 0 plies, which is exact).
    pub wdl_only: bool,
    /// The order of each tier's positions in the stream (format version 4
    /// on; mask-major before).
    pub order: Order,
    /// The floor of a floor file (format version 6): its values are those
    /// of the game above the floor, bounds on the real ones
    /// ([`crate::solve::Bound`]); `None` for an exact table.
    pub floor: Option<crate::solve::Floor>,
    /// Bytes of the index (header, directory, block tables).
    pub(crate) index_bytes: u64,
    /// Size of the file.
    pub file_bytes: u64,
    /// The checksum of the file's index (from its preamble): with
    /// `file_bytes`, the identity of the file's contents that build and
    /// verify records name (0 where no file was read or written).
    pub index_crc: u32,
}

impl TableInfo {
    /// The file's material.
    pub fn file(&self) -> FileKey {
        self.file
    }

    /// Bits per position of the WDL stream (what a WDL-only table would
    /// take).
    pub fn wdl_bits_per_position(&self) -> f64 {
        bits(self.wdl_bytes, self.positions)
    }

    /// Bits per position of the distance stream (the tests' size table).
    #[cfg(test)]
    pub(crate) fn distance_bits_per_position(&self) -> f64 {
        bits(self.distance_bytes, self.positions)
    }

    /// Bits per position of the whole file.
    pub fn bits_per_position(&self) -> f64 {
        bits(self.file_bytes, self.positions)
    }
}

fn bits(bytes: u64, positions: u64) -> f64 {
    if positions == 0 {
        0.0
    } else {
        bytes as f64 * 8.0 / positions as f64
    }
}

/// An error reading or writing a table file: the file and what is wrong.
/// Its `Display` is one line, `<path>: <problem>`.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct TableError {
    path: PathBuf,
    problem: Problem,
}

impl TableError {
    pub(crate) fn new(path: &Path, problem: Problem) -> TableError {
        TableError {
            path: path.to_path_buf(),
            problem,
        }
    }

    pub(crate) fn io(path: &Path, op: &'static str, e: std::io::Error) -> TableError {
        TableError::new(
            path,
            Problem::Io {
                op,
                error: Arc::new(e),
            },
        )
    }

    /// The file (in the message; the tests compare it).
    #[cfg(test)]
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// What is wrong.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Whether the error is that the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(&self.problem, Problem::Io { error, .. } if error.kind() == std::io::ErrorKind::NotFound)
    }
}

/// What is wrong with a block that passes its checksum but does not
/// decode ([`Problem::BadBlock`]). Its `Display` completes "block `b` of
/// the `s` stream ...".
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BlockDefect {
    /// zstd cannot decompress it.
    #[error("cannot be decompressed ({0})")]
    Decompress(Arc<std::io::Error>),
    /// It decompresses to the wrong number of bytes.
    #[error("decompresses to {found} bytes instead of {expected}")]
    Length {
        /// The bytes it decompresses to.
        found: usize,
        /// The bytes its positions take.
        expected: usize,
    },
    /// A WDL field is 3 in a table with distances.
    #[error("holds an invalid WDL field")]
    InvalidWdl,
    /// The unused bits after the last position of a WDL block are not 0.
    #[error("has stray bits after its last position")]
    StrayBits,
    /// A distance block's plane count is neither 1 nor 2.
    #[error("has a bad plane count")]
    Planes,
    /// A distance does not fit the WDL field of its position.
    #[error("disagrees with the WDL stream")]
    DisagreesWithWdl,
}

/// What is wrong with a table file (see [`TableError`]).
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// An I/O operation failed.
    #[error("{op}: {error}")]
    Io {
        /// What was being done ("cannot open", ...).
        op: &'static str,
        /// The system's error.
        error: Arc<std::io::Error>,
    },
    /// Shorter than the preamble.
    #[error("too short to be a table ({len} bytes; file incomplete or corrupt)")]
    TooShort {
        /// The file's length.
        len: u64,
    },
    /// The magic bytes are not `ASALTOTB`.
    #[error("not an Asalto table file (bad magic bytes)")]
    BadMagic,
    /// A format version this build does not read.
    #[error(
        "table format version {found}, but this build reads versions 1 to {} only (use a matching asalto, or rebuild the table)",
        format::FLOOR_FORMAT_VERSION
    )]
    Version {
        /// The file's version.
        found: u32,
    },
    /// The preamble or the index fails its checksum.
    #[error("the {0} fails its checksum (file corrupt)")]
    HeaderChecksum(&'static str),
    /// The file is shorter than its header says.
    #[error("truncated: {len} bytes, the header says {expected} (file incomplete or corrupt)")]
    Truncated {
        /// The file's length.
        len: u64,
        /// The length the header gives.
        expected: u64,
    },
    /// The file is longer than its header says.
    #[error("{len} bytes, the header says {expected} (trailing bytes; file corrupt)")]
    TooLong {
        /// The file's length.
        len: u64,
        /// The length the header gives.
        expected: u64,
    },
    /// The header or directory is inconsistent.
    #[error("bad header: {0} (file corrupt)")]
    BadHeader(String),
    /// A block fails its checksum.
    #[error("block {block} of the {stream} stream fails its checksum (file corrupt)")]
    BlockChecksum {
        /// The stream.
        stream: Stream,
        /// The block's number in its stream.
        block: u64,
    },
    /// A block passes its checksum but does not decode.
    #[error("block {block} of the {stream} stream {detail} (file corrupt)")]
    BadBlock {
        /// The stream.
        stream: Stream,
        /// The block's number in its stream.
        block: u64,
        /// What is wrong.
        detail: BlockDefect,
    },
    /// The header names another variant than expected.
    #[error("the table is for variant {found}, expected {expected} (wrong variant)")]
    WrongVariant {
        /// The header's variant.
        found: Variant,
        /// The slug of the variant expected (the name of the table's
        /// folder).
        expected: String,
    },
    /// The header names other material than the file name.
    #[error("the table holds {found}, the file name says {expected} (wrong material)")]
    WrongMaterial {
        /// The material of the header.
        found: FileKey,
        /// The material expected (from the file's name).
        expected: FileKey,
    },
    /// The file name is not `<n>o<k>s.atb`.
    #[error("not named <officers>o<soldiers>s.atb")]
    BadName,
    /// A floor file where exact tables or another floor's files are read,
    /// or an exact table where a floor's files are: floors never mix.
    #[error("{}, but {} are read here: floors and exact tables never mix (a floor's files live in their own folder, floor-<K>-<side>, read with --floor K --assume SIDE)", floor_words(*found), floor_words(*expected))]
    FloorMismatch {
        /// The file's floor (`None`: an exact table).
        found: Option<crate::solve::Floor>,
        /// The floor of the set reading it.
        expected: Option<crate::solve::Floor>,
    },
    /// A position index past the end of its tier.
    #[error("position {index} is out of range for tier {outside:#x} of {size} positions")]
    IndexOutOfRange {
        /// The tier's `outside`.
        outside: u64,
        /// The index asked for.
        index: u32,
        /// The tier's size.
        size: u64,
    },
    /// The writer was given a tier it cannot store.
    #[error("cannot store tier {key:?}: {why}")]
    BadTier {
        /// The tier.
        key: TierKey,
        /// Why.
        why: String,
    },
    /// The writer cannot write a table like that.
    #[error("cannot write: {0}")]
    CannotWrite(String),
    /// A table without distances where distances are needed.
    #[error(
        "holds win/draw/loss only; a build with distances needs lower tables with distances (build --wdl-only, or rebuild this table with distances)"
    )]
    NoDistances,
    /// The writer failed earlier and cannot go on.
    #[error("an earlier write failed; the table cannot be completed")]
    Poisoned,
}

#[cfg(test)]
mod tests;
