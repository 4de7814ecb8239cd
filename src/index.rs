//! Tiers and the dense index of positions inside a tier (docs/DESIGN.md
//! sections 3 and 4).
//!
//! A tier is `(n, k, S)`: `n` officers (1 or 2), `k` soldiers (9..=24) of
//! which the set `S` stands outside the fortress; `m = k - |S|` (0..=8)
//! soldiers stand inside. Soldiers outside never return to a point they left
//! and captures and huffs only remove pieces, so every move either stays in
//! its tier (officer steps, soldier steps inside the fortress) or goes to a
//! tier that comes earlier in the order `(n, k, P(S))`, where `P(S)` sums the
//! longest path of each outside soldier into the fortress.
//!
//! Inside a tier a position is ranked as
//! `side * N + rank(F) * C(33 - k, n) + rank(officers)`, where `N` is the
//! tier size per side, side 0 = officers to move and 1 = soldiers to move,
//! `rank(F)` the combinatorial rank of the `m` fortress points holding
//! soldiers (fortress points numbered c5 d5 e5 c6 d6 e6 c7 d7 e7 = 0..8) and
//! `rank(officers)` the combinatorial (colex) rank of the officers' indices
//! among the `33 - k` points that hold no soldier, in board order.
//!
//! Mirror: a tier whose `S` is larger (as a bitboard) than its mirror image is
//! not stored; its positions are looked up mirrored.

use crate::board::{self, Bitboard, OUTSIDE};
use crate::position::{Position, Side};
use crate::rules::Variant;
use std::collections::BTreeSet;
#[cfg(test)]
use std::collections::HashSet;

/// Binomial coefficients C(n, k) for n, k <= 33.
const BINOM: [[u32; 34]; 34] = {
    let mut t = [[0u32; 34]; 34];
    let mut n = 0;
    while n < 34 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k).
#[inline]
pub(crate) const fn binom(n: usize, k: usize) -> u32 {
    if k > n { 0 } else { BINOM[n][k] }
}

/// Combinatorial (colex) rank of every 9-bit fortress mask among the masks
/// of the same population count.
const FORT_RANK: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut r = 0u32;
        let mut i = 0;
        let mut seen = 0;
        while i < 9 {
            if (mask >> i) & 1 == 1 {
                seen += 1;
                r += binom(i, seen);
            }
            i += 1;
        }
        t[mask] = r as u16;
        mask += 1;
    }
    t
};

/// Fortress soldiers as a 9-bit mask (fortress points are board points
/// 22-24 and 27-32).
#[inline]
pub(crate) const fn fortress_mask(soldiers: Bitboard) -> u16 {
    (((soldiers >> 22) & 0x7) | ((soldiers >> 24) & 0x1f8)) as u16
}

/// A 9-bit fortress mask as a bitboard.
#[inline]
pub const fn fortress_bits(mask: u16) -> Bitboard {
    let m = mask as u64;
    ((m & 0x7) << 22) | ((m & 0x1f8) << 24)
}

/// Rank of a fortress mask among the masks with as many bits.
#[inline]
pub(crate) fn fortress_rank(mask: u16) -> u32 {
    FORT_RANK[mask as usize] as u32
}

/// The mirror image of every 9-bit fortress mask.
pub(crate) const FORT_MIRROR: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut out = 0u16;
        let mut j = 0;
        while j < 9 {
            if (m >> j) & 1 == 1 {
                // c <-> e within each rank of three: 0<->2, 3<->5, 6<->8
                let row = j / 3;
                let col = j % 3;
                out |= 1 << (row * 3 + 2 - col);
            }
            j += 1;
        }
        t[m] = out;
        m += 1;
    }
    t
};

/// All 9-bit fortress masks with `m` bits, in rank order (none for `m`
/// over 9). Made once: the solver asks for them for every tier.
pub(crate) fn fortress_masks(m: u32) -> &'static [u16] {
    static MASKS: std::sync::OnceLock<Vec<Vec<u16>>> = std::sync::OnceLock::new();
    let all = MASKS.get_or_init(|| {
        (0..=9)
            .map(|m| {
                let mut v: Vec<u16> = (0u16..512).filter(|x| x.count_ones() == m).collect();
                v.sort_by_key(|&x| FORT_RANK[x as usize]);
                v
            })
            .collect()
    });
    all.get(m as usize).map_or(&[], Vec::as_slice)
}

/// A table file's material: `n` officers and `k` soldiers, written `2o9s`
/// (the stem of the file's name, `2o9s.atb`; see
/// [`crate::table::table_path`]). One file holds the canonical tiers of
/// one variant with this material.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct FileKey {
    /// Officers.
    pub(crate) n: u8,
    /// Soldiers.
    pub(crate) k: u8,
}

impl FileKey {
    /// The file of `n` officers and `k` soldiers.
    pub const fn new(n: u8, k: u8) -> FileKey {
        FileKey { n, k }
    }

    /// Officers.
    pub const fn officers(self) -> u8 {
        self.n
    }

    /// Soldiers.
    pub const fn soldiers(self) -> u8 {
        self.k
    }

    /// The tier of this file with the soldiers `outside` outside the
    /// fortress.
    pub const fn tier(self, outside: Bitboard) -> TierKey {
        TierKey {
            n: self.n,
            k: self.k,
            outside,
        }
    }
}

impl std::fmt::Display for FileKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}o{}s", self.n, self.k)
    }
}

/// Why a text is not a file key (`2o9s`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{}' is not a table file's material (officers 'o' soldiers 's', e.g. 2o9s)",
    .0.escape_debug()
)]
pub struct ParseFileKeyError(pub String);

impl std::str::FromStr for FileKey {
    type Err = ParseFileKeyError;

    /// `<n>o<k>s`, both numbers in decimal digits (any values: whether
    /// such a file can exist is not asked here).
    fn from_str(s: &str) -> Result<FileKey, ParseFileKeyError> {
        let bad = || ParseFileKeyError(s.to_string());
        let (n, k) = s
            .strip_suffix('s')
            .and_then(|stem| stem.split_once('o'))
            .ok_or_else(bad)?;
        let number = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u8>().ok())
                .flatten()
        };
        match (number(n), number(k)) {
            (Some(n), Some(k)) => Ok(FileKey { n, k }),
            _ => Err(bad()),
        }
    }
}

/// A tier: `n` officers, `k` soldiers, `outside` the soldiers outside the
/// fortress.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct TierKey {
    /// Number of officers, 1 or 2.
    pub n: u8,
    /// Number of soldiers, 9..=24.
    pub k: u8,
    /// Soldiers outside the fortress (a subset of [`OUTSIDE`]).
    pub outside: Bitboard,
}

impl TierKey {
    /// The file this tier belongs to.
    #[inline]
    pub const fn file(&self) -> FileKey {
        FileKey {
            n: self.n,
            k: self.k,
        }
    }

    /// Soldiers inside the fortress.
    #[inline]
    pub fn m(&self) -> u32 {
        self.k as u32 - self.outside.count_ones()
    }

    /// Whether this is a tier of stored positions (not terminal: 9 or more
    /// soldiers, fortress not full, at least one officer).
    pub(crate) fn is_valid(&self) -> bool {
        (1..=2).contains(&self.n)
            && (9..=24).contains(&self.k)
            && self.outside & !OUTSIDE == 0
            && self.outside.count_ones() <= self.k as u32
            && self.m() <= 8
    }

    /// Number of officer placements per fortress mask: C(33 - k, n).
    #[inline]
    pub(crate) fn officer_placements(&self) -> u32 {
        binom(33 - self.k as usize, self.n as usize)
    }

    /// Positions per side to move.
    #[inline]
    pub(crate) fn size_per_side(&self) -> u32 {
        binom(9, self.m() as usize) * self.officer_placements()
    }

    /// Positions stored (both sides to move).
    #[inline]
    pub fn size(&self) -> u64 {
        2 * self.size_per_side() as u64
    }

    /// The mirror image.
    pub fn mirror(&self) -> TierKey {
        TierKey {
            outside: board::mirror_bb(self.outside),
            ..*self
        }
    }

    /// Whether this tier is stored (not larger than its mirror image).
    pub(crate) fn is_canonical(&self) -> bool {
        self.outside <= board::mirror_bb(self.outside)
    }

    /// The stored one of this tier and its mirror image.
    pub fn canonical(&self) -> TierKey {
        let m = self.mirror();
        if m.outside < self.outside { m } else { *self }
    }

    /// `P(S)`: the sum over outside soldiers of their longest path into the
    /// fortress under the variant's soldier rule.
    pub(crate) fn progress(&self, variant: &Variant) -> u32 {
        let p = variant.progress();
        board::points(self.outside)
            .map(|q| p[q.index()] as u32)
            .sum()
    }

    /// The solving order: `(n, k, P(S))`; tiers with equal order never
    /// depend on each other.
    pub fn level(&self, variant: &Variant) -> (u8, u8, u32) {
        (self.n, self.k, self.progress(variant))
    }

    /// The tier of a position (not canonicalised), if the position belongs
    /// to one (not over by rules 1-3).
    pub(crate) fn of(pos: &Position) -> Option<TierKey> {
        let key = TierKey {
            n: pos.officers().count_ones() as u8,
            k: pos.soldiers().count_ones() as u8,
            outside: pos.soldiers() & OUTSIDE,
        };
        key.is_valid().then_some(key)
    }

    /// Tiers this tier's moves can lead to (one move, terminal positions
    /// left out), not canonicalised. Captures are over-approximated: one
    /// soldier removed anywhere (the closure under this relation contains
    /// every multi-capture).
    pub(crate) fn successors(&self, variant: &Variant) -> Vec<TierKey> {
        let mut out = Vec::new();
        let table = variant.soldier_moves();
        let m = self.m();
        for s in board::points(self.outside) {
            for t in board::points(table[s.index()]) {
                if t.in_fortress() {
                    if m < 8 {
                        out.push(TierKey {
                            outside: self.outside & !s.bit(),
                            ..*self
                        });
                    }
                } else if self.outside & t.bit() == 0 {
                    out.push(TierKey {
                        outside: self.outside & !s.bit() | t.bit(),
                        ..*self
                    });
                }
            }
        }
        if self.k > 9 {
            for s in board::points(self.outside) {
                out.push(TierKey {
                    k: self.k - 1,
                    outside: self.outside & !s.bit(),
                    ..*self
                });
            }
            if m > 0 {
                out.push(TierKey {
                    k: self.k - 1,
                    ..*self
                });
            }
        }
        if self.n == 2 && variant.huffs() {
            out.push(TierKey { n: 1, ..*self });
        }
        out.retain(|t| t.is_valid());
        out.sort();
        out.dedup();
        out
    }
}

/// The canonical tiers a set of roots needs: their downward closure, sorted
/// in solving order.
pub(crate) fn closure(roots: &[TierKey], variant: &Variant) -> Vec<TierKey> {
    closure_within(roots, variant, |_| false, u64::MAX).expect("no limit")
}

/// [`closure`] without the tiers for which `have` is true (nor what lies
/// below them: they are already solved), giving up with `Err(positions
/// found so far)` as soon as the tiers found hold more than `max_positions`
/// positions (the closure of an early position is most of the game).
pub(crate) fn closure_within(
    roots: &[TierKey],
    variant: &Variant,
    have: impl Fn(&TierKey) -> bool,
    max_positions: u64,
) -> Result<Vec<TierKey>, u64> {
    let mut total = 0u64;
    let mut seen = TierBits::new();
    let mut found: Vec<TierKey> = Vec::new();
    let mut stack: Vec<TierKey> = Vec::new();
    for r in roots {
        let c = r.canonical();
        if c.is_valid() && !have(&c) && seen.insert(&c) {
            stack.push(c);
        }
    }
    while let Some(t) = stack.pop() {
        found.push(t);
        total += t.size();
        if total > max_positions {
            return Err(total);
        }
        for s in t.successors(variant) {
            let c = s.canonical();
            if !have(&c) && seen.insert(&c) {
                stack.push(c);
            }
        }
    }
    found.sort_by_key(|t| (t.level(variant), *t));
    Ok(found)
}

/// The 24-bit sets of outside soldiers: 2^24.
pub(crate) const SETS: usize = 1 << 24;

/// The place of `file` (1 or 2 officers, 9 to 24 soldiers) among the 32.
pub(crate) fn file_slot(file: FileKey) -> usize {
    (file.n as usize - 1) * 16 + (file.k as usize - 9)
}

/// The outside soldiers `outside` as a 24-bit set: bit `i` for the `i`-th
/// outside point in board order (a parallel bit extract over
/// [`OUTSIDE`], by bytes).
#[inline]
pub(crate) fn outside_set(outside: Bitboard) -> u32 {
    const BYTES: usize = board::NUM_POINTS.div_ceil(8);
    /// `TABLE[b][v]`: the set of byte `b` of a bitboard with value `v`.
    const TABLE: [[u32; 256]; BYTES] = {
        let mut t = [[0u32; 256]; BYTES];
        let mut b = 0;
        while b < BYTES {
            let mut v = 0;
            while v < 256 {
                let mut set = 0u32;
                let mut j = 0;
                while j < 8 {
                    let p = 8 * b + j;
                    if v >> j & 1 == 1 && p < 64 && OUTSIDE >> p & 1 == 1 {
                        // The outside points below p.
                        set |= 1 << (OUTSIDE & ((1u64 << p) - 1)).count_ones();
                    }
                    j += 1;
                }
                t[b][v] = set;
                v += 1;
            }
            b += 1;
        }
        t
    };
    let mut set = 0;
    for (b, table) in TABLE.iter().enumerate() {
        set |= table[(outside >> (8 * b)) as usize & 0xff];
    }
    set
}

/// A set of tiers as one bit per `(n, k, S)`, `S` the outside set
/// ([`outside_set`]): 2 x 16 x 2^24 bits, 64 MiB, zeroed pages the system
/// gives only where written. A closure of millions of tiers marks its
/// tiers in it at a memory access each (a file's bits, 2 MiB, stay in
/// cache), where a hash set of keys took most of a build's planning.
pub(crate) struct TierBits(Vec<u64>);

impl TierBits {
    /// No tier.
    pub(crate) fn new() -> TierBits {
        TierBits(vec![0u64; 32 * SETS / 64])
    }

    /// The word and bit of the tier of `file` with outside set `s`.
    #[inline]
    fn place(file: FileKey, s: u32) -> (usize, u64) {
        let i = file_slot(file) * SETS + s as usize;
        (i / 64, 1 << (i % 64))
    }

    /// Mark the tier of `file` with outside set `s`.
    pub(crate) fn mark(&mut self, file: FileKey, s: u32) {
        let (w, bit) = Self::place(file, s);
        self.0[w] |= bit;
    }

    /// Whether the tier of `file` with outside set `s` is marked.
    pub(crate) fn has(&self, file: FileKey, s: u32) -> bool {
        let (w, bit) = Self::place(file, s);
        self.0[w] & bit != 0
    }

    /// Mark tier `t` (valid); whether it was not marked before.
    pub(crate) fn insert(&mut self, t: &TierKey) -> bool {
        let (w, bit) = Self::place(t.file(), outside_set(t.outside));
        let new = self.0[w] & bit == 0;
        self.0[w] |= bit;
        new
    }
}

/// Every canonical tier of `file`, in solving order.
pub fn all_tiers(file: FileKey, variant: &Variant) -> Vec<TierKey> {
    let FileKey { n, k } = file;
    let outside: Vec<u64> = board::points(OUTSIDE).map(|p| p.bit()).collect();
    let mut out = BTreeSet::new();
    let min_out = (k as u32).saturating_sub(8);
    // Enumerate subsets of the 24 outside points with min_out..=k bits.
    let mut stack = vec![(0usize, 0u64)];
    while let Some((i, s)) = stack.pop() {
        let c = s.count_ones();
        if i == outside.len() {
            if c >= min_out && c <= k as u32 {
                let key = TierKey { n, k, outside: s };
                if key.is_canonical() {
                    out.insert((key.level(variant), key));
                }
            }
            continue;
        }
        let left = (outside.len() - i) as u32;
        if c + left < min_out {
            continue;
        }
        stack.push((i + 1, s));
        if c < k as u32 {
            stack.push((i + 1, s | outside[i]));
        }
    }
    out.into_iter().map(|(_, k)| k).collect()
}

/// Canonical sets of `s` outside points: `(C(24, s) + self-mirror sets) /
/// 2`. The mirror fixes the four outside points of file d and swaps the
/// other twenty in ten pairs.
pub(crate) fn canonical_sets(s: u32) -> u64 {
    let all = binom(24, s as usize) as u64;
    let mut fixed = 0u64;
    for j in 0..=s / 2 {
        let f = s - 2 * j;
        if j <= 10 && f <= 4 {
            fixed += binom(10, j as usize) as u64 * binom(4, f as usize) as u64;
        }
    }
    (all + fixed) / 2
}

/// [`canonical_sets`] by progress: `[s][p]` counts the canonical sets of
/// `s` outside points whose `P(S)` ([`TierKey::progress`]) is `p`. As
/// there, half of all such sets plus the self-mirror ones (a set and its
/// mirror image have the same progress).
pub(crate) fn canonical_sets_by_progress(variant: &Variant) -> Vec<Vec<u64>> {
    let progress = variant.progress();
    let points: Vec<board::Point> = board::points(OUTSIDE).collect();
    let weight = |q: board::Point| progress[q.index()] as usize;
    let p_max: usize = points.iter().map(|&q| weight(q)).sum();
    // sets[s][p], built item by item: an item adds `size` points of
    // progress `w` (a point; for the self-mirror sets, a point with its image).
    let count = |items: &[(usize, usize)]| {
        let mut sets = vec![vec![0u64; p_max + 1]; points.len() + 1];
        sets[0][0] = 1;
        for &(size, w) in items {
            for s in (0..=points.len() - size).rev() {
                for p in 0..=p_max - w {
                    let v = sets[s][p];
                    if v != 0 {
                        sets[s + size][p + w] += v;
                    }
                }
            }
        }
        sets
    };
    let all = count(&points.iter().map(|&q| (1, weight(q))).collect::<Vec<_>>());
    let mut mirror_items = Vec::new();
    for &q in &points {
        let image = board::mirror_bb(q.bit());
        debug_assert_eq!(
            progress[q.index()],
            progress[board::points(image).next().expect("a point").index()],
            "the progress is mirror-symmetric"
        );
        if image == q.bit() {
            mirror_items.push((1, weight(q)));
        } else if q.bit() < image {
            mirror_items.push((2, 2 * weight(q)));
        }
    }
    let fixed = count(&mirror_items);
    all.iter()
        .zip(&fixed)
        .map(|(a, f)| a.iter().zip(f).map(|(a, f)| (a + f) / 2).collect())
        .collect()
}

/// Tiers a complete table with `k` soldiers stores (canonical tiers only;
/// the same for one and two officers).
pub fn complete_tiers(k: u8) -> u64 {
    let k = k as u32;
    (k.saturating_sub(8)..=k.min(24)).map(canonical_sets).sum()
}

/// Positions a complete table `file` stores (both sides to move, canonical
/// tiers only).
pub(crate) fn complete_positions(file: FileKey) -> u64 {
    let FileKey { n, k } = file;
    let kk = k as u32;
    let placements = binom(33 - k as usize, n as usize) as u64;
    (kk.saturating_sub(8)..=kk.min(24))
        .map(|s| canonical_sets(s) * 2 * binom(9, (kk - s) as usize) as u64 * placements)
        .sum()
}

/// Rank of the officers among the points not holding soldiers.
#[inline]
pub(crate) fn officer_rank(officers: Bitboard, free: Bitboard) -> u32 {
    let mut o = officers;
    let a = (free & (o & o.wrapping_neg()).wrapping_sub(1)).count_ones();
    o &= o - 1;
    if o == 0 {
        return a;
    }
    let b = (free & (o.wrapping_sub(1))).count_ones();
    // C(b, 2), computed: the table lookup is slower in the solver's loops.
    a + b * b.saturating_sub(1) / 2
}

/// Index of a position inside its (not canonicalised) tier.
#[inline]
pub(crate) fn index_in_tier(
    key: &TierKey,
    soldiers: Bitboard,
    officers: Bitboard,
    side: Side,
) -> u32 {
    slot_in_tier(key, soldiers, officers, side, (key.officer_placements(), 1))
}

/// Where a position lies in a tier's values kept with strides `(mask
/// stride, placement stride)`: `side * H + f * mask stride + o *
/// placement stride` (`H` positions a side, `f` and `o` the ranks of its
/// fortress mask and of its officers' placement). With `(O, 1)`, `O` the
/// officers' placements, that is [`index_in_tier`].
#[inline]
pub(crate) fn slot_in_tier(
    key: &TierKey,
    soldiers: Bitboard,
    officers: Bitboard,
    side: Side,
    (mask_stride, placement_stride): (u32, u32),
) -> u32 {
    let free = board::ALL & !soldiers;
    let f = fortress_rank(fortress_mask(soldiers));
    let side = match side {
        Side::Officers => 0,
        Side::Soldiers => 1,
    };
    side * key.size_per_side() + f * mask_stride + officer_rank(officers, free) * placement_stride
}

/// The canonical tier and index of a position (without huff rights) that
/// belongs to a tier.
pub(crate) fn locate(pos: &Position) -> Option<(TierKey, u32)> {
    let key = TierKey::of(pos)?;
    if key.is_canonical() {
        Some((
            key,
            index_in_tier(&key, pos.soldiers(), pos.officers(), pos.side()),
        ))
    } else {
        let m = pos.mirror();
        let key = key.mirror();
        Some((
            key,
            index_in_tier(&key, m.soldiers(), m.officers(), m.side()),
        ))
    }
}

/// The position at `index` of tier `key` (inverse of `index_in_tier`).
pub fn position_at(key: &TierKey, index: u32) -> Position {
    let per_side = key.size_per_side();
    let side = if index < per_side {
        Side::Officers
    } else {
        Side::Soldiers
    };
    let i = index % per_side;
    let placements = key.officer_placements();
    let f = i / placements;
    let o = i % placements;
    let mask = fortress_masks(key.m())[f as usize];
    let soldiers = key.outside | fortress_bits(mask);
    let free: Vec<Bitboard> = board::points(board::ALL & !soldiers)
        .map(|p| p.bit())
        .collect();
    let officers = if key.n == 1 {
        free[o as usize]
    } else {
        // colex: largest b with C(b, 2) <= o
        let mut b = 1;
        while binom(b + 1, 2) <= o {
            b += 1;
        }
        let a = o - binom(b, 2);
        free[a as usize] | free[b]
    };
    Position::from_parts_unchecked(soldiers, officers, side, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::FORTRESS;

    /// The fortress points in fortress order (bit j of a fortress mask): the
    /// layout `fortress_bits` is checked against.
    const FORTRESS_POINTS: [u8; 9] = {
        let mut t = [0u8; 9];
        let mut i = 0;
        let mut j = 0;
        while i < board::NUM_POINTS {
            if (FORTRESS >> i) & 1 == 1 {
                t[j] = i as u8;
                j += 1;
            }
            i += 1;
        }
        t
    };

    #[test]
    fn canonical_sets_by_progress_sum_to_the_closed_form() {
        for v in [Variant::ASSAUT, Variant::ASSAULT] {
            let sets = canonical_sets_by_progress(&v);
            for (s, by_p) in sets.iter().enumerate() {
                assert_eq!(
                    by_p.iter().sum::<u64>(),
                    canonical_sets(s as u32),
                    "{v} {s}"
                );
            }
            // Small sizes, counted from the sets themselves.
            let p_of = |b: Bitboard| {
                TierKey {
                    n: 1,
                    k: 9,
                    outside: b,
                }
                .progress(&v) as usize
            };
            let points: Vec<Bitboard> = board::points(OUTSIDE).map(|q| q.bit()).collect();
            let mut two = vec![0u64; sets[2].len()];
            for (i, &a) in points.iter().enumerate() {
                for &b in &points[i + 1..] {
                    if a | b <= board::mirror_bb(a | b) {
                        two[p_of(a | b)] += 1;
                    }
                }
            }
            assert_eq!(sets[2], two, "{v}");
        }
    }

    #[test]
    fn fortress_mask_layout() {
        for m in 0u16..512 {
            let b = fortress_bits(m);
            assert_eq!(b & !FORTRESS, 0);
            assert_eq!(fortress_mask(b), m);
            assert_eq!(fortress_bits(FORT_MIRROR[m as usize]), board::mirror_bb(b));
        }
        for (j, &p) in FORTRESS_POINTS.iter().enumerate() {
            assert_eq!(fortress_bits(1 << j), 1u64 << p);
        }
    }

    #[test]
    fn fortress_ranks_are_dense() {
        for m in 0..=9 {
            let masks = fortress_masks(m);
            assert_eq!(masks.len() as u32, binom(9, m as usize));
            for (r, &x) in masks.iter().enumerate() {
                assert_eq!(FORT_RANK[x as usize] as usize, r);
                assert_eq!(fortress_mask(fortress_bits(x)), x);
            }
        }
    }

    #[test]
    fn rank_unrank_round_trip_whole_tiers() {
        let s = |names: &[&str]| {
            names
                .iter()
                .map(|n| crate::Point::from_name(n).unwrap().bit())
                .fold(0, |a, b| a | b)
        };
        for key in [
            TierKey {
                n: 2,
                k: 9,
                outside: s(&["a3", "b4", "c4", "d1", "g5"]),
            },
            TierKey {
                n: 1,
                k: 10,
                outside: s(&["c3", "d3"]),
            },
            TierKey {
                n: 2,
                k: 12,
                outside: s(&["c3", "d3", "e3", "a5"]),
            },
        ] {
            assert!(key.is_valid());
            let mut seen = HashSet::new();
            for i in 0..key.size() as u32 {
                let p = position_at(&key, i);
                assert_eq!(TierKey::of(&p), Some(key));
                assert_eq!(index_in_tier(&key, p.soldiers(), p.officers(), p.side()), i);
                assert!(seen.insert(p));
            }
        }
    }

    #[test]
    fn outside_sets_number_the_outside_points_in_board_order() {
        // The slow way: the i-th outside point in board order is bit i.
        let slow = |outside: Bitboard| {
            board::points(OUTSIDE)
                .enumerate()
                .filter(|(_, p)| outside & p.bit() != 0)
                .fold(0u32, |acc, (i, _)| acc | 1 << i)
        };
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Any points: those in the fortress count for nothing.
            let bb = x & board::ALL;
            assert_eq!(outside_set(bb), slow(bb), "{bb:#x}");
        }
        assert_eq!(outside_set(OUTSIDE), (1 << 24) - 1);
        assert_eq!(outside_set(board::ALL & !OUTSIDE), 0);
    }

    /// [`closure`] as a plain walk with a hash set of keys, for the test.
    fn closure_by_hash_set(roots: &[TierKey], variant: &Variant) -> Vec<TierKey> {
        let mut seen = HashSet::new();
        let mut stack: Vec<TierKey> = roots
            .iter()
            .map(|r| r.canonical())
            .filter(|c| c.is_valid())
            .collect();
        while let Some(t) = stack.pop() {
            if seen.insert(t) {
                stack.extend(t.successors(variant).iter().map(|s| s.canonical()));
            }
        }
        let mut v: Vec<TierKey> = seen.into_iter().collect();
        v.sort_by_key(|t| (t.level(variant), *t));
        v
    }

    #[test]
    fn closures_marked_in_tier_bits_are_those_of_a_hash_set() {
        for (text, v) in [
            ("3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s", Variant::ASALTO),
            ("SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s", Variant::ASSAUT_MDJ),
            ("S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s", Variant::ASSAULT),
        ] {
            let p: Position = text.parse().unwrap();
            let root = TierKey::of(&p).unwrap();
            let want = closure_by_hash_set(&[root], &v);
            assert!(want.len() > 20, "{text}: {}", want.len());
            assert_eq!(closure(&[root], &v), want, "{text} {v}");
            // Without the tiers a predicate says are had, nor below them.
            let have = |t: &TierKey| t.k + 1 == root.k;
            let got = closure_within(&[root], &v, have, u64::MAX).unwrap();
            assert!(got.iter().all(|t| t.k == root.k), "{text}");
            assert!(!got.is_empty() && got.len() < want.len(), "{text}");
        }
    }

    #[test]
    fn file_keys_print_and_parse_as_file_names_do() {
        let key = FileKey::new(2, 9);
        assert_eq!(key.to_string(), "2o9s");
        assert_eq!("2o9s".parse::<FileKey>(), Ok(key));
        assert_eq!("1o24s".parse::<FileKey>(), Ok(FileKey::new(1, 24)));
        for bad in [
            "", "2o9", "o9s", "2os", "2x9s", "2o9s.atb", "+2o9s", "2o-9s", "300o9s",
        ] {
            let e = bad.parse::<FileKey>().unwrap_err();
            assert_eq!(e, ParseFileKeyError(bad.to_string()));
            assert!(e.to_string().contains("e.g. 2o9s"), "{e}");
        }
    }

    #[test]
    fn mirror_canonicalisation() {
        let p: Position = "3/O2/SSS1S2/1S5/S6/1S1/SSS o".parse().unwrap();
        let (k1, i1) = locate(&p).unwrap();
        let (k2, i2) = locate(&p.mirror()).unwrap();
        assert_eq!((k1, i1), (k2, i2));
        assert!(k1.is_canonical());
        let back = position_at(&k1, i1);
        if k1 == TierKey::of(&p).unwrap() {
            assert_eq!(back, p);
        } else {
            assert_eq!(back, p.mirror());
        }
    }

    #[test]
    fn successors_come_earlier() {
        let v = Variant::ASSAUT;
        let key = TierKey::of(&"3/O1O/SSS1S2/1S5/S6/1S1/SSS s".parse().unwrap()).unwrap();
        for s in key.successors(&v) {
            assert!(s.level(&v) < key.level(&v), "{s:?}");
        }
    }
}
