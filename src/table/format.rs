//! The byte layout of table files (specified in the module doc of
//! [`crate::table`]): constants, preamble, header, directory and block table
//! entries, and the decompressed form of blocks (the value codes and their
//! two-bit fields are [`crate::fields`], below the solver).

use super::{BlockDefect, Problem, TableInfo};
use crate::board::{Bitboard, OUTSIDE};
use crate::index::{FileKey, TierKey};
use crate::rules::{CaptureRule, SoldierRule, TrappedRule, Variant};
use crate::solve::{Assume, Floor};
use std::borrow::Cow;
use std::fmt;

/// The magic bytes at offset 0 of every table file.
pub(crate) const MAGIC: [u8; 8] = *b"ASALTOTB";

/// The format version this build writes.
pub(crate) const FORMAT_VERSION: u32 = 5;

/// The format version of a *floor file* (a table of the game above a
/// floor, [`Floor`]): version 5 with the floor in the header's flags.
/// Exact tables stay version 5, byte for byte; a reader that knows only
/// version 5 refuses a floor file rather than take its bounds for values.
pub(crate) const FLOOR_FORMAT_VERSION: u32 = 6;

/// The format versions this build reads.
pub(crate) const READ_VERSIONS: [u32; 6] = [1, 2, 3, 4, 5, 6];

/// The format version of a file written with `floor`.
pub(crate) const fn version_for(floor: Option<Floor>) -> u32 {
    match floor {
        Some(_) => FLOOR_FORMAT_VERSION,
        None => FORMAT_VERSION,
    }
}

/// Length of the preamble.
pub(crate) const PREAMBLE_LEN: usize = 40;

/// Length of the fixed part of the header (before the tool version), by
/// format version.
pub(crate) const fn header_len(version: u32) -> usize {
    match version {
        1 => 80,
        2 => 96,
        _ => 100,
    }
}

/// Header flag (version 3): the file holds win/draw/loss only, no
/// distance stream.
pub(crate) const FLAG_WDL_ONLY: u32 = 1;

/// Header flag (version 4): each half of a tier lies in the stream with
/// the officers' placement major ([`Order::PlacementMajor`]).
pub(crate) const FLAG_PLACEMENT_MAJOR: u32 = 2;

/// Header flag (version 6, set in every such file): a floor file; the
/// floor's soldier count is in bits 8..16 ([`FLOOR_SHIFT`]).
pub(crate) const FLAG_FLOOR: u32 = 4;

/// Header flag (version 6): below the floor the soldiers win (clear: the
/// officers win).
pub(crate) const FLAG_ASSUME_SOLDIERS: u32 = 8;

/// Where a floor file's floor (its lowest soldier count) lies in the
/// flags: bits 8..16.
pub(crate) const FLOOR_SHIFT: u32 = 8;

/// The header flags a file of format `version` may set.
const fn known_flags(version: u32) -> u32 {
    match version {
        0..=2 => 0,
        3 => FLAG_WDL_ONLY,
        4 | 5 => FLAG_WDL_ONLY | FLAG_PLACEMENT_MAJOR,
        _ => {
            FLAG_WDL_ONLY
                | FLAG_PLACEMENT_MAJOR
                | FLAG_FLOOR
                | FLAG_ASSUME_SOLDIERS
                | 0xff << FLOOR_SHIFT
        }
    }
}

/// The header flags of `floor`.
fn floor_flags(floor: Option<Floor>) -> u32 {
    match floor {
        None => 0,
        Some(f) => {
            let assume = match f.assume() {
                Assume::Officers => 0,
                Assume::Soldiers => FLAG_ASSUME_SOLDIERS,
            };
            FLAG_FLOOR | assume | u32::from(f.k()) << FLOOR_SHIFT
        }
    }
}

/// The floor the header flags of a `version` file name: `None` before
/// version 6; an error for a version 6 file without a sound floor.
fn floor_of_flags(version: u32, flags: u32) -> Result<Option<Floor>, Problem> {
    if version < FLOOR_FORMAT_VERSION {
        return Ok(None);
    }
    if flags & FLAG_FLOOR == 0 {
        return Err(Problem::BadHeader(
            "a version 6 file without its floor flag".into(),
        ));
    }
    let assume = if flags & FLAG_ASSUME_SOLDIERS != 0 {
        Assume::Soldiers
    } else {
        Assume::Officers
    };
    let k = (flags >> FLOOR_SHIFT & 0xff) as u8;
    Floor::new(k, assume)
        .map(Some)
        .map_err(|e| Problem::BadHeader(format!("its floor: {e}")))
}

/// The order of a tier's positions in a file's position stream.
///
/// A tier's index (`index::index_in_tier`) runs side to move,
/// then the rank of the fortress mask, then the rank of the officers'
/// placement: `side * H + f * O + o`, with `H = M * O` positions a side,
/// `M` fortress masks and `O` placements. A file keeps each side's half
/// either in that order or transposed, `side * H + o * M + f`: with the
/// placement major, the values of one placement over every fortress mask
/// lie side by side, and they are alike far more often than those of one
/// mask over every placement (the WDL-only files of 12 and 13 soldiers
/// compressed 10-22 % smaller so).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// The index's own order (every file before format version 4).
    #[default]
    MaskMajor,
    /// Each half transposed: the officers' placement major.
    PlacementMajor,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::MaskMajor => "mask-major",
            Order::PlacementMajor => "placement-major",
        })
    }
}

impl Order {
    /// Where position `index` of tier `key` lies among the tier's stream
    /// positions (`0..key.size()`).
    #[inline]
    pub(crate) fn stream_offset(self, key: &TierKey, index: u32) -> u32 {
        match self {
            Order::MaskMajor => index,
            Order::PlacementMajor => {
                let half = key.size_per_side();
                let (side, i) = (index / half, index % half);
                let placements = key.officer_placements();
                let masks = half / placements;
                side * half + (i % placements) * masks + i / placements
            }
        }
    }

    /// The codes of whole halves of tier `key` (`codes.len()` a multiple
    /// of its half) rearranged from index order into this stream order.
    pub(crate) fn to_stream_order<'a>(self, key: &TierKey, codes: &'a [u16]) -> Cow<'a, [u16]> {
        if self == Order::MaskMajor {
            return Cow::Borrowed(codes);
        }
        let (placements, masks) = Self::dims(key);
        let mut out = codes.to_vec();
        for (src, dst) in codes
            .chunks(masks * placements)
            .zip(out.chunks_mut(masks * placements))
        {
            transpose(src, dst, masks, placements);
        }
        Cow::Owned(out)
    }

    /// The inverse of [`Order::to_stream_order`]: the codes of whole
    /// halves of tier `key` in this stream order, in index order.
    pub(crate) fn index_order(self, key: &TierKey, stream: Vec<u16>) -> Vec<u16> {
        if self == Order::MaskMajor {
            return stream;
        }
        let mut out = Vec::with_capacity(stream.len());
        self.extend_index_order(key, &stream, &mut out);
        out
    }

    /// [`Order::index_order`] of `stream` appended to `out`, which is
    /// neither zeroed first nor copied after (the hot path of reading a
    /// tier whole).
    pub(crate) fn extend_index_order(self, key: &TierKey, stream: &[u16], out: &mut Vec<u16>) {
        if self == Order::MaskMajor {
            out.extend_from_slice(stream);
            return;
        }
        let (placements, masks) = Self::dims(key);
        for half in stream.chunks(masks * placements) {
            // Index order is mask-major: each mask's officer placements,
            // which the stream holds a mask apart.
            for m in 0..masks {
                out.extend(half[m..].iter().step_by(masks).take(placements));
            }
        }
    }

    /// `(placements, masks)` of a half of tier `key`.
    fn dims(key: &TierKey) -> (usize, usize) {
        let placements = key.officer_placements() as usize;
        (placements, key.size_per_side() as usize / placements)
    }
}

/// `dst` = `src` transposed, `src` being `rows` rows of `cols` values.
fn transpose(src: &[u16], dst: &mut [u16], rows: usize, cols: usize) {
    for r in 0..rows {
        for c in 0..cols {
            dst[c * rows + r] = src[r * cols + c];
        }
    }
}

/// Bytes of the index's tables (directory and block tables) covered by one
/// checksum of the chunk table (format version 2).
pub(crate) const CHUNK_BYTES: u64 = 4096;

/// Bytes of the directory and block tables of a `version` file with
/// `tiers` tiers and `blocks` blocks in all.
pub(crate) fn tables_len(version: u32, tiers: u128, blocks: u128) -> u128 {
    tiers * dir_entry_len(version) as u128 + blocks * BLOCK_ENTRY_LEN as u128
}

/// The length in bytes of a file of the current format version with
/// `tiers` tiers, `wdl_blocks` and `distance_blocks` blocks whose
/// compressed bytes add up to `block_bytes`, written by this build (its
/// tool version in the header): preamble, blocks, header, chunk table,
/// directory and block tables.
pub(crate) fn file_len(tiers: u64, wdl_blocks: u64, distance_blocks: u64, block_bytes: u64) -> u64 {
    let tables = tables_len(
        FORMAT_VERSION,
        tiers as u128,
        (wdl_blocks + distance_blocks) as u128,
    );
    let index = header_len(FORMAT_VERSION) as u128
        + env!("CARGO_PKG_VERSION").len() as u128
        + chunk_count(tables) * 4
        + tables;
    (PREAMBLE_LEN as u128 + block_bytes as u128 + index) as u64
}

/// Number of chunks of `len` bytes of tables.
pub(crate) fn chunk_count(len: u128) -> u128 {
    len.div_ceil(CHUNK_BYTES as u128)
}

/// Length of a tier directory entry in a file of format `version`: 20
/// bytes before version 5, 8 from it on.
pub(crate) const fn dir_entry_len(version: u32) -> usize {
    if version >= 5 { 8 } else { 20 }
}

/// The most positions a file of format version 5 holds: a directory entry
/// gives a tier's first position in 40 bits.
pub(crate) const MAX_POSITIONS_V5: u64 = 1 << 40;

/// The soldiers outside the fortress (a subset of [`OUTSIDE`]) as 24 bits:
/// bit `j` for the `j`-th point outside the fortress in point order, so
/// that the order of packed values is the order of bitboards.
pub(crate) fn pack_outside(outside: Bitboard) -> u32 {
    let mut packed = 0u32;
    let mut rest = OUTSIDE;
    let mut j = 0;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        if outside & bit != 0 {
            packed |= 1 << j;
        }
        rest &= rest - 1;
        j += 1;
    }
    packed
}

/// The inverse of [`pack_outside`] (bits past the 24th are ignored).
pub(crate) fn unpack_outside(packed: u32) -> Bitboard {
    let mut outside = 0;
    let mut rest = OUTSIDE;
    let mut j = 0;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        if packed >> j & 1 != 0 {
            outside |= bit;
        }
        rest &= rest - 1;
        j += 1;
    }
    outside
}

/// Length of a block table entry.
pub(crate) const BLOCK_ENTRY_LEN: usize = 16;

/// The most positions per block a reader accepts (bounds the memory a
/// crafted header can make it allocate).
pub(crate) const MAX_BLOCK_POSITIONS: u32 = 1 << 22;

/// The two streams of a table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stream {
    /// Win / draw / loss, 2 bits per position.
    Wdl,
    /// Distances to the end in plies.
    Distance,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stream::Wdl => "WDL",
            Stream::Distance => "distance",
        })
    }
}

/// CRC-32 (IEEE).
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// The checksum of block `block` of `stream` with compressed bytes
/// `bytes`, in a file of format `version`: from version 2 on, the CRC-32 of
/// the stream's number (0 WDL, 1 distance, one byte) and the block's number
/// (8 bytes) followed by the bytes, so that a block entry pointing at
/// another block's bytes fails its checksum; in version 1, of the bytes
/// alone.
pub(crate) fn block_crc(version: u32, stream: Stream, block: u64, bytes: &[u8]) -> u32 {
    if version == 1 {
        return crc32(bytes);
    }
    let mut h = crc32fast::Hasher::new();
    h.update(&[match stream {
        Stream::Wdl => 0,
        Stream::Distance => 1,
    }]);
    h.update(&block.to_le_bytes());
    h.update(bytes);
    h.finalize()
}

/// Little-endian reads at offsets the caller has checked.
pub(crate) fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_le_bytes([b[off], b[off + 1]])
}

pub(crate) fn u32_at(b: &[u8], off: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[off..off + 4]);
    u32::from_le_bytes(a)
}

pub(crate) fn u64_at(b: &[u8], off: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[off..off + 8]);
    u64::from_le_bytes(a)
}

/// The preamble at offset 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Preamble {
    pub(crate) version: u32,
    pub(crate) index_offset: u64,
    pub(crate) index_len: u64,
    pub(crate) index_crc: u32,
}

impl Preamble {
    pub(crate) fn encode(&self) -> [u8; PREAMBLE_LEN] {
        let mut b = [0u8; PREAMBLE_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[16..24].copy_from_slice(&self.index_offset.to_le_bytes());
        b[24..32].copy_from_slice(&self.index_len.to_le_bytes());
        b[32..36].copy_from_slice(&self.index_crc.to_le_bytes());
        let crc = crc32(&b[0..36]);
        b[36..40].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Decode and check magic, version and checksum (in that order).
    pub(crate) fn decode(b: &[u8]) -> Result<Preamble, Problem> {
        if b.len() < PREAMBLE_LEN {
            return Err(Problem::TooShort {
                len: b.len() as u64,
            });
        }
        if b[0..8] != MAGIC {
            return Err(Problem::BadMagic);
        }
        let version = u32_at(b, 8);
        if !READ_VERSIONS.contains(&version) {
            return Err(Problem::Version { found: version });
        }
        if crc32(&b[0..36]) != u32_at(b, 36) {
            return Err(Problem::HeaderChecksum("preamble"));
        }
        if u32_at(b, 12) != 0 {
            return Err(Problem::BadHeader(
                "reserved preamble bytes are not zero".into(),
            ));
        }
        Ok(Preamble {
            version,
            index_offset: u64_at(b, 16),
            index_len: u64_at(b, 24),
            index_crc: u32_at(b, 32),
        })
    }
}

fn variant_bytes(v: &Variant) -> [u8; 4] {
    [
        match v.soldiers {
            SoldierRule::Closer => 0,
            SoldierRule::Forward => 1,
        },
        match v.capture {
            CaptureRule::Huff => 0,
            CaptureRule::Mandatory => 1,
            CaptureRule::Free => 2,
        },
        v.max as u8,
        match v.trapped {
            TrappedRule::SoldiersWin => 0,
            TrappedRule::SoldiersLose => 1,
        },
    ]
}

fn variant_from_bytes(b: [u8; 4]) -> Option<Variant> {
    Some(Variant {
        soldiers: match b[0] {
            0 => SoldierRule::Closer,
            1 => SoldierRule::Forward,
            _ => return None,
        },
        capture: match b[1] {
            0 => CaptureRule::Huff,
            1 => CaptureRule::Mandatory,
            2 => CaptureRule::Free,
            _ => return None,
        },
        max: match b[2] {
            0 => false,
            1 => true,
            _ => return None,
        },
        trapped: match b[3] {
            0 => TrappedRule::SoldiersWin,
            1 => TrappedRule::SoldiersLose,
            _ => return None,
        },
    })
}

/// Number of blocks of `per` positions holding `positions`.
pub(crate) fn block_count(positions: u64, per: u32) -> u64 {
    positions.div_ceil(per as u64)
}

/// The header at the start of the index is a [`TableInfo`] less the
/// format version, the index's length and the file's length.
impl TableInfo {
    /// Append the header's bytes (in the current format version).
    pub(crate) fn encode_header(&self, out: &mut Vec<u8>) {
        let version = self.tool_version.as_bytes();
        let version = &version[..version.len().min(u16::MAX as usize)];
        out.extend_from_slice(&variant_bytes(&self.variant));
        out.push(self.file.n);
        out.push(self.file.k);
        out.extend_from_slice(&(version.len() as u16).to_le_bytes());
        for x in [
            self.tiers,
            self.positions,
            self.wins,
            self.draws,
            self.losses,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&self.longest_win.to_le_bytes());
        out.extend_from_slice(&self.longest_loss.to_le_bytes());
        out.extend_from_slice(&self.zstd_level.to_le_bytes());
        out.extend_from_slice(&self.wdl_block_positions.to_le_bytes());
        out.extend_from_slice(&self.distance_block_positions.to_le_bytes());
        out.extend_from_slice(&self.wdl_blocks.to_le_bytes());
        out.extend_from_slice(&self.distance_blocks.to_le_bytes());
        out.extend_from_slice(&self.wdl_bytes.to_le_bytes());
        out.extend_from_slice(&self.distance_bytes.to_le_bytes());
        let mut flags = if self.wdl_only { FLAG_WDL_ONLY } else { 0 };
        if self.order == Order::PlacementMajor {
            flags |= FLAG_PLACEMENT_MAJOR;
        }
        flags |= floor_flags(self.floor);
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(version);
    }

    /// The length of the part of a version 2 or 3 index its preamble
    /// checksum covers (header and chunk table), from the raw counts at the
    /// start of `index`; `None` if they cannot describe this index (so the
    /// checksum cannot hold).
    pub(crate) fn head_len(index: &[u8], version: u32) -> Option<usize> {
        let fixed = header_len(version);
        if index.len() < fixed {
            return None;
        }
        let vlen = u16_at(index, 6) as u128;
        let blocks = u64_at(index, 64) as u128 + u64_at(index, 72) as u128;
        let tables = tables_len(version, u64_at(index, 8) as u128, blocks);
        let head = fixed as u128 + vlen + chunk_count(tables) * 4;
        (head <= index.len() as u128).then_some(head as usize)
    }

    /// The checks of a decoded header that need no other part of the file:
    /// its material, block sizes and counts, the results adding up to the
    /// positions, and the index's length (`index_len`, its fixed part and
    /// tool version ending at `end`) agreeing with the tier and block
    /// counts.
    fn check_counts(&self, version: u32, end: usize, index_len: usize) -> Result<(), Problem> {
        let bad = |s: &str| Problem::BadHeader(s.to_string());
        if !(1..=2).contains(&self.file.n) || !(9..=24).contains(&self.file.k) {
            return Err(Problem::BadHeader(format!(
                "impossible material: {} officers, {} soldiers",
                self.file.n, self.file.k
            )));
        }
        if self.wdl_block_positions == 0
            || self.wdl_block_positions % 4 != 0
            || self.wdl_block_positions > MAX_BLOCK_POSITIONS
            || self.distance_block_positions == 0
            || self.distance_block_positions > MAX_BLOCK_POSITIONS
        {
            return Err(bad("bad block size"));
        }
        let dist_blocks = if self.wdl_only {
            0
        } else {
            block_count(self.positions, self.distance_block_positions)
        };
        if self.wdl_blocks != block_count(self.positions, self.wdl_block_positions)
            || self.distance_blocks != dist_blocks
        {
            return Err(bad("block counts disagree with the number of positions"));
        }
        let total = self
            .wins
            .checked_add(self.draws)
            .and_then(|x| x.checked_add(self.losses));
        if total != Some(self.positions) {
            return Err(bad("wins, draws and losses do not add up to the positions"));
        }
        if version >= 5 && self.positions > MAX_POSITIONS_V5 {
            return Err(bad("more positions than a directory entry can address"));
        }
        let tables = tables_len(
            version,
            self.tiers as u128,
            self.wdl_blocks as u128 + self.distance_blocks as u128,
        );
        let chunks = if version >= 2 { chunk_count(tables) } else { 0 };
        let need = end as u128 + chunks * 4 + tables;
        if need != index_len as u128 {
            return Err(bad(
                "the index's length disagrees with its tier and block counts",
            ));
        }
        Ok(())
    }

    /// Decode the header of a `version` file at the start of `index` (the
    /// whole index) and check that its fields agree with each other and
    /// with the index's length; returns the info (its `file_bytes` 0, for
    /// the caller to fill in) and the header's length in bytes.
    pub(crate) fn decode_header(index: &[u8], version: u32) -> Result<(TableInfo, usize), Problem> {
        let bad = |s: &str| Problem::BadHeader(s.to_string());
        let fixed = header_len(version);
        if index.len() < fixed {
            return Err(bad("the index is shorter than its header"));
        }
        let variant = variant_from_bytes([index[0], index[1], index[2], index[3]])
            .ok_or_else(|| bad("unknown variant switches"))?;
        let vlen = u16_at(index, 6) as usize;
        let end = fixed + vlen;
        if index.len() < end {
            return Err(bad("the index is shorter than its header"));
        }
        let tool_version = String::from_utf8(index[fixed..end].to_vec())
            .map_err(|_| bad("the tool version is not UTF-8"))?;
        let h = TableInfo {
            variant,
            file: FileKey::new(index[4], index[5]),
            tiers: u64_at(index, 8),
            positions: u64_at(index, 16),
            wins: u64_at(index, 24),
            draws: u64_at(index, 32),
            losses: u64_at(index, 40),
            longest_win: u16_at(index, 48),
            longest_loss: u16_at(index, 50),
            zstd_level: u32_at(index, 52) as i32,
            wdl_block_positions: u32_at(index, 56),
            distance_block_positions: u32_at(index, 60),
            wdl_blocks: u64_at(index, 64),
            distance_blocks: u64_at(index, 72),
            wdl_bytes: if version >= 2 { u64_at(index, 80) } else { 0 },
            distance_bytes: if version >= 2 { u64_at(index, 88) } else { 0 },
            wdl_only: version >= 3 && u32_at(index, 96) & FLAG_WDL_ONLY != 0,
            order: if version >= 4 && u32_at(index, 96) & FLAG_PLACEMENT_MAJOR != 0 {
                Order::PlacementMajor
            } else {
                Order::MaskMajor
            },
            floor: None,
            tool_version,
            format_version: version,
            index_bytes: index.len() as u64,
            file_bytes: 0,
            index_crc: 0,
        };
        if version >= 3 && u32_at(index, 96) & !known_flags(version) != 0 {
            return Err(bad("unknown header flags"));
        }
        let mut h = h;
        if version >= FLOOR_FORMAT_VERSION {
            h.floor = floor_of_flags(version, u32_at(index, 96))?;
            if let Some(f) = h.floor
                && h.file.k < f.k()
            {
                return Err(Problem::BadHeader(format!(
                    "{} soldiers, below its floor of {}",
                    h.file.k,
                    f.k()
                )));
            }
        }
        h.check_counts(version, end, index.len())?;
        Ok((h, end))
    }
}

/// A tier directory entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct DirEntry {
    pub(crate) outside: u64,
    pub(crate) first: u64,
    pub(crate) size: u32,
}

impl DirEntry {
    /// Append the entry in the current format version: `outside` packed
    /// in 3 bytes ([`pack_outside`]), then `first` in 5 (the caller keeps
    /// it below [`MAX_POSITIONS_V5`]); `size` follows from the tier.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&pack_outside(self.outside).to_le_bytes()[..3]);
        out.extend_from_slice(&self.first.to_le_bytes()[..5]);
    }

    /// The order of the entry at `off` (checked by the caller to lie in
    /// `b`) of a file of format `version`: its `outside` as stored, packed
    /// from version 5 on ([`pack_outside`] keeps the order). A directory
    /// search compares these and decodes only the entry it finds (the
    /// decoding of every entry passed, unpacking `outside` and counting
    /// the tier's size, was 6 % of the CPU of verifying asalto's 1o20s;
    /// the search is 5 % now, most of it the directory's cache misses).
    #[inline]
    pub(crate) fn order_at(b: &[u8], off: usize, version: u32) -> u64 {
        if version < 5 {
            u64_at(b, off)
        } else {
            u64::from(u32::from_le_bytes([b[off], b[off + 1], b[off + 2], 0]))
        }
    }

    /// [`DirEntry::order_at`] of the entry of a tier with soldiers
    /// `outside` outside the fortress (a subset of [`OUTSIDE`]).
    pub(crate) fn order_of(outside: Bitboard, version: u32) -> u64 {
        debug_assert_eq!(outside & !OUTSIDE, 0);
        if version < 5 {
            outside
        } else {
            u64::from(pack_outside(outside))
        }
    }

    /// The entry at `off` (checked by the caller to lie in `b`) of a file
    /// of format `version` and material `file`. From version
    /// 5 on, the size is the tier's own (0 for an `outside` that names no
    /// tier, which the layout check rejects).
    pub(crate) fn at(b: &[u8], off: usize, version: u32, file: FileKey) -> DirEntry {
        if version < 5 {
            return DirEntry {
                outside: u64_at(b, off),
                first: u64_at(b, off + 8),
                size: u32_at(b, off + 16),
            };
        }
        let mut packed = [0u8; 4];
        packed[..3].copy_from_slice(&b[off..off + 3]);
        let mut first = [0u8; 8];
        first[..5].copy_from_slice(&b[off + 3..off + 8]);
        let outside = unpack_outside(u32::from_le_bytes(packed));
        let key = file.tier(outside);
        DirEntry {
            outside,
            first: u64::from_le_bytes(first),
            size: if key.is_valid() { key.size() as u32 } else { 0 },
        }
    }
}

/// A block table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct BlockEntry {
    pub(crate) offset: u64,
    pub(crate) len: u32,
    pub(crate) crc: u32,
}

impl BlockEntry {
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.offset.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.crc.to_le_bytes());
    }

    /// The entry at `off` (checked by the caller to lie in `b`).
    pub(crate) fn at(b: &[u8], off: usize) -> BlockEntry {
        BlockEntry {
            offset: u64_at(b, off),
            len: u32_at(b, off + 8),
            crc: u32_at(b, off + 12),
        }
    }
}

/// Whether a decompressed WDL block of `count` positions is well formed:
/// the right length, no field equal to 3 (unless `wdl_only`), unused bits
/// zero.
pub(crate) fn check_wdl_block(raw: &[u8], count: usize, wdl_only: bool) -> Result<(), BlockDefect> {
    if raw.len() != count.div_ceil(4) {
        return Err(BlockDefect::Length {
            found: raw.len(),
            expected: count.div_ceil(4),
        });
    }
    // An OR over the whole block (no early exit) so that it vectorises: a
    // probe decodes a block and this check was a quarter of its time.
    if !wdl_only && raw.iter().fold(0, |acc, &b| acc | (b & (b >> 1))) & 0x55 != 0 {
        return Err(BlockDefect::InvalidWdl);
    }
    if count % 4 != 0 {
        let used = (1u16 << (2 * (count % 4))) - 1;
        if raw[raw.len() - 1] as u16 & !used != 0 {
            return Err(BlockDefect::StrayBits);
        }
    }
    Ok(())
}

/// The decompressed form of a distance block.
pub(crate) fn encode_distances(d: &[u16], out: &mut Vec<u8>) {
    out.clear();
    let wide = d.iter().any(|&x| x > 255);
    out.push(if wide { 2 } else { 1 });
    out.extend(d.iter().map(|&x| x as u8));
    if wide {
        out.extend(d.iter().map(|&x| (x >> 8) as u8));
    }
}

/// Distances from a decompressed distance block of `count` positions.
pub(crate) fn decode_distances(raw: &[u8], count: usize) -> Result<Vec<u16>, BlockDefect> {
    let planes = raw.first().copied().unwrap_or(0) as usize;
    if !(planes == 1 || planes == 2) {
        return Err(BlockDefect::Planes);
    }
    if raw.len() != 1 + planes * count {
        return Err(BlockDefect::Length {
            found: raw.len(),
            expected: 1 + planes * count,
        });
    }
    let lo = &raw[1..1 + count];
    if planes == 1 {
        Ok(lo.iter().map(|&x| x as u16).collect())
    } else {
        let hi = &raw[1 + count..];
        Ok(lo
            .iter()
            .zip(hi)
            .map(|(&l, &h)| l as u16 | (h as u16) << 8)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header's info with small made-up counts.
    fn sample_info(variant: Variant) -> TableInfo {
        TableInfo {
            variant,
            file: FileKey::new(2, 9),
            tiers: 0,
            positions: 10,
            wins: 3,
            draws: 3,
            losses: 4,
            longest_win: 7,
            longest_loss: 300,
            zstd_level: 9,
            wdl_block_positions: 8,
            distance_block_positions: 4,
            wdl_blocks: 2,
            distance_blocks: 3,
            wdl_bytes: 40,
            distance_bytes: 60,
            wdl_only: false,
            order: Order::MaskMajor,
            floor: None,
            tool_version: "0.1.0".into(),
            format_version: FORMAT_VERSION,
            index_bytes: 0,
            file_bytes: 0,
            index_crc: 0,
        }
    }

    #[test]
    fn preamble_and_header_round_trip() {
        let p = Preamble {
            version: FORMAT_VERSION,
            index_offset: 1234,
            index_len: 99,
            index_crc: 0xdead_beef,
        };
        assert_eq!(Preamble::decode(&p.encode()).unwrap(), p);
        for variant in Variant::all() {
            let h = sample_info(variant);
            let mut b = Vec::new();
            h.encode_header(&mut b);
            let head = header_len(FORMAT_VERSION) + 5;
            assert_eq!(b.len(), head);
            // One chunk checksum, then five block entries.
            b.resize(b.len() + 4 + 5 * BLOCK_ENTRY_LEN, 0);
            assert_eq!(TableInfo::head_len(&b, FORMAT_VERSION), Some(head + 4));
            let (g, len) = TableInfo::decode_header(&b, FORMAT_VERSION).unwrap();
            let indexed = |h: &TableInfo, b: &[u8]| TableInfo {
                index_bytes: b.len() as u64,
                ..h.clone()
            };
            assert_eq!(g, indexed(&h, &b));
            assert_eq!(len, head);
            b.pop();
            assert!(TableInfo::decode_header(&b, FORMAT_VERSION).is_err());
            // WDL-only: no distance blocks, and the flag round-trips.
            let w = TableInfo {
                wdl_only: true,
                distance_blocks: 0,
                distance_bytes: 0,
                ..h.clone()
            };
            let mut b = Vec::new();
            w.encode_header(&mut b);
            b.resize(b.len() + 4 + 2 * BLOCK_ENTRY_LEN, 0);
            assert_eq!(
                TableInfo::decode_header(&b, FORMAT_VERSION).unwrap().0,
                indexed(&w, &b)
            );
            // The placement-major order round-trips in version 4; a version
            // 3 header does not know its flag.
            let t = TableInfo {
                order: Order::PlacementMajor,
                ..w.clone()
            };
            let mut b = Vec::new();
            t.encode_header(&mut b);
            assert_eq!(u32_at(&b, 96), FLAG_WDL_ONLY | FLAG_PLACEMENT_MAJOR);
            b.resize(b.len() + 4 + 2 * BLOCK_ENTRY_LEN, 0);
            assert_eq!(
                TableInfo::decode_header(&b, FORMAT_VERSION).unwrap().0,
                indexed(&t, &b)
            );
            let e = TableInfo::decode_header(&b, 3).unwrap_err();
            assert!(e.to_string().contains("flags"), "{e}");
            // A WDL-only header that still counts distance blocks, and an
            // unknown flag, are refused.
            let mut b = Vec::new();
            TableInfo {
                wdl_only: true,
                ..h.clone()
            }
            .encode_header(&mut b);
            b.resize(b.len() + 4 + 5 * BLOCK_ENTRY_LEN, 0);
            assert!(TableInfo::decode_header(&b, FORMAT_VERSION).is_err());
            let mut b = Vec::new();
            w.encode_header(&mut b);
            b[97] = 1;
            b.resize(b.len() + 4 + 2 * BLOCK_ENTRY_LEN, 0);
            assert!(TableInfo::decode_header(&b, FORMAT_VERSION).is_err());
        }
    }

    #[test]
    fn floors_round_trip_in_version_6_headers_only() {
        use crate::solve::{Assume, Floor};
        let p = TableInfo {
            file: FileKey::new(2, 24),
            longest_win: 0,
            longest_loss: 0,
            distance_blocks: 0,
            distance_bytes: 0,
            wdl_only: true,
            ..sample_info(Variant::ASSAUT)
        };
        let header = |info: &TableInfo| {
            let mut b = Vec::new();
            info.encode_header(&mut b);
            b.resize(b.len() + 4 + 2 * BLOCK_ENTRY_LEN, 0);
            b
        };
        // An exact table: version 5, the same bytes as before floors.
        assert_eq!(version_for(None), FORMAT_VERSION);
        assert_eq!(u32_at(&header(&p), 96), FLAG_WDL_ONLY);
        for (k, assume) in [
            (10, Assume::Officers),
            (22, Assume::Soldiers),
            (24, Assume::Officers),
        ] {
            let f = Floor::new(k, assume).unwrap();
            let t = TableInfo {
                floor: Some(f),
                file: FileKey::new(2, 24),
                format_version: FLOOR_FORMAT_VERSION,
                ..p.clone()
            };
            let b = header(&t);
            assert_eq!(version_for(Some(f)), FLOOR_FORMAT_VERSION);
            let (g, _) = TableInfo::decode_header(&b, FLOOR_FORMAT_VERSION).unwrap();
            assert_eq!(g.floor, Some(f));
            // A version 5 reader does not know the floor's flags.
            assert!(TableInfo::decode_header(&b, FORMAT_VERSION).is_err());
            // A file below its own floor is refused.
            let low = header(&TableInfo {
                file: FileKey::new(2, k - 1),
                ..t.clone()
            });
            let e = TableInfo::decode_header(&low, FLOOR_FORMAT_VERSION).unwrap_err();
            assert!(e.to_string().contains("below its floor"), "{e}");
        }
        // Version 6 without its floor, or with a floor of 9 or 25: refused.
        let b = header(&p);
        assert!(TableInfo::decode_header(&b, FLOOR_FORMAT_VERSION).is_err());
        for bad in [9u32, 25] {
            let mut b = header(&p);
            let flags = FLAG_WDL_ONLY | FLAG_FLOOR | bad << FLOOR_SHIFT;
            b[96..100].copy_from_slice(&flags.to_le_bytes());
            let e = TableInfo::decode_header(&b, FLOOR_FORMAT_VERSION).unwrap_err();
            assert!(e.to_string().contains("floor"), "{e}");
        }
    }

    #[test]
    fn the_placement_major_order_transposes_each_half() {
        use crate::index::{TierKey, position_at};
        // The `c` lowest points outside the fortress.
        let lowest = |c: usize| {
            crate::board::points(crate::board::OUTSIDE)
                .take(c)
                .fold(0, |s, p| s | p.bit())
        };
        let keys = [
            TierKey {
                n: 2,
                k: 9,
                outside: lowest(1),
            }
            .canonical(),
            TierKey {
                n: 1,
                k: 10,
                outside: lowest(6),
            }
            .canonical(),
        ];
        for key in keys {
            assert!(key.is_valid());
            let codes: Vec<u16> = (0..key.size() as u16).collect();
            assert_eq!(
                Order::MaskMajor.to_stream_order(&key, &codes)[..],
                codes[..]
            );
            let stream = Order::PlacementMajor.to_stream_order(&key, &codes);
            let half = key.size_per_side();
            for i in 0..key.size() as u32 {
                let p = Order::PlacementMajor.stream_offset(&key, i);
                assert_eq!(stream[p as usize], codes[i as usize]);
                assert_eq!(Order::MaskMajor.stream_offset(&key, i), i);
            }
            // The first run of each half of the stream: one placement rank
            // of the officers, every fortress mask once, one side to move.
            let masks = (half / key.officer_placements()) as usize;
            for side in 0..2 {
                let run = &stream[side * half as usize..][..masks];
                let first = position_at(&key, run[0] as u32);
                for &i in run {
                    let p = position_at(&key, i as u32);
                    assert_eq!(p.side(), first.side());
                    assert_eq!(p.soldiers() & crate::board::OUTSIDE, key.outside);
                }
                let mut fortress: Vec<u64> = run
                    .iter()
                    .map(|&i| position_at(&key, i as u32).soldiers())
                    .collect();
                fortress.sort_unstable();
                fortress.dedup();
                assert_eq!(fortress.len(), masks);
            }
            let back = Order::PlacementMajor.index_order(&key, stream.into_owned());
            assert_eq!(back, codes);
            assert_eq!(Order::MaskMajor.index_order(&key, codes.clone()), codes);
        }
    }

    #[test]
    fn distance_planes() {
        let mut out = Vec::new();
        let d = [0u16, 1, 255, 3];
        encode_distances(&d, &mut out);
        assert_eq!(out.len(), 5);
        assert_eq!(decode_distances(&out, 4).unwrap(), d);
        let d = [0u16, 256, 32767, 3, 9];
        encode_distances(&d, &mut out);
        assert_eq!(out.len(), 11);
        assert_eq!(decode_distances(&out, 5).unwrap(), d);
        assert!(matches!(
            decode_distances(&out, 4),
            Err(BlockDefect::Length {
                found: 11,
                expected: 9
            })
        ));
        assert!(matches!(decode_distances(&[], 0), Err(BlockDefect::Planes)));
    }

    #[test]
    fn wdl_block_defects() {
        assert!(check_wdl_block(&[0b0110_0101], 4, false).is_ok());
        assert!(matches!(
            check_wdl_block(&[0, 0], 4, false),
            Err(BlockDefect::Length {
                found: 2,
                expected: 1
            })
        ));
        assert!(matches!(
            check_wdl_block(&[0b11], 4, false),
            Err(BlockDefect::InvalidWdl)
        ));
        assert!(check_wdl_block(&[0b11], 4, true).is_ok());
        assert!(matches!(
            check_wdl_block(&[0b0100_0000], 3, false),
            Err(BlockDefect::StrayBits)
        ));
    }
}
