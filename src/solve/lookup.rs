//! Reading values of solved tiers: the narrow [`TierStore`] interface
//! between the solver and storage (memory, table files, a build's
//! window), the forms a store hands a tier over in ([`TierValues`]: value
//! codes, or a WDL-only tier's packed two-bit fields as stored), and
//! [`Lookup`], which values any position (game over, huff rights, mirrored
//! tiers) from a store.

use super::SolveError;
use crate::Value;
use crate::board::{self, Bitboard};
use crate::cache::{Weight, WeightedLru};
use crate::index::{self, TierKey};
use crate::position::{Position, Side};
use crate::rules::{self, Variant};
use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, RwLock};

/// The values of a solved tier as a store hands them over.
#[derive(Clone, Debug)]
pub enum TierValues {
    /// Value codes ([`Value::code`]) in index order ([`crate::index`]).
    Codes(Arc<[u16]>),
    /// A WDL-only tier's two-bit fields, as its table or window keeps
    /// them: read in place, never decoded whole.
    Wdl(WdlFields),
}

/// The two-bit fields of a WDL-only tier (or of its officers-to-move
/// half), four to a byte, the lowest bits first, from field `start` of
/// `fields` on (a table's decompressed block, shared, or a copy), in the
/// layout they are kept in: the position `side * H + f * O + o` of the
/// index (`H` positions a side, `f` the rank of the fortress mask, `o`
/// that of the officers' placement among `O`) is field `start + side * H
/// + f * mask_stride + o * placement_stride`. Each field stands for the
/// value code the store says (`codes`).
#[derive(Clone, Debug)]
pub struct WdlFields {
    fields: Arc<[u8]>,
    /// The tier's first field in `fields`.
    start: u32,
    /// Fields held: the whole tier, or its first half.
    len: u32,
    half: u32,
    placements: u32,
    mask_stride: u32,
    placement_stride: u32,
    codes: [u16; 4],
    /// The fields (bit `w` for field `w`) whose code is a win for the
    /// side to move (odd), and a loss (even, not 0).
    wins: u8,
    losses: u8,
}

/// The even bits of a word (one per two-bit field).
const EVEN: u64 = 0x5555_5555_5555_5555;

/// Bits `2i` of `x` (odd bits clear) as bits `i`.
#[inline]
fn compress_even(mut x: u64) -> u32 {
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) as u32
}

/// Packed two-bit fields and the first field of a tier among them.
pub(crate) type FieldsAt = (Arc<[u8]>, u32);

impl WdlFields {
    /// The `len` fields of tier `key` from field `start` of `fields` on:
    /// each side's half in index order, or transposed (the placement
    /// major: field `side * H + o * M + f`, `M` fortress masks) when
    /// `placement_major`; each field `w` stands for `codes[w]`.
    pub(crate) fn new(
        (fields, start): FieldsAt,
        len: u32,
        key: &TierKey,
        placement_major: bool,
        codes: [u16; 4],
    ) -> WdlFields {
        assert!(
            fields.len() as u64 * 4 >= u64::from(start) + u64::from(len),
            "fields too few"
        );
        let half = key.size_per_side();
        let placements = key.officer_placements();
        let (mask_stride, placement_stride) = if placement_major {
            (1, half / placements)
        } else {
            (placements, 1)
        };
        WdlFields {
            fields,
            start,
            len,
            half,
            placements,
            mask_stride,
            placement_stride,
            codes,
            wins: fields_where(codes, |c| c & 1 == 1),
            losses: fields_where(codes, |c| c != 0 && c & 1 == 0),
        }
    }

    /// The wins and the losses (for the side to move) of the `count`
    /// (at most 28) fields from `slot` on, as bits `0..count` (held).
    #[inline]
    fn run_classes(&self, slot: u32, count: u32) -> (u32, u32) {
        debug_assert!(count <= 28);
        let f = (self.start + slot) as usize;
        let bytes = &self.fields[f / 4..];
        let word = match bytes.get(..8) {
            Some(b) => u64::from_le_bytes(b.try_into().expect("eight bytes")),
            None => {
                let mut w = [0u8; 8];
                w[..bytes.len()].copy_from_slice(bytes);
                u64::from_le_bytes(w)
            }
        };
        let x = word >> (2 * (f % 4));
        let (hi, lo) = (x >> 1 & EVEN, x & EVEN);
        // Fields 0..3 as masks of the even bits.
        let by_field = [!hi & !lo, !hi & lo, hi & !lo, hi & lo];
        let pick = |set: u8| {
            let mut r = 0;
            for (w, m) in by_field.iter().enumerate() {
                r |= m & 0u64.wrapping_sub(u64::from(set >> w & 1));
            }
            r & EVEN & ((1u64 << (2 * count)) - 1)
        };
        (
            compress_even(pick(self.wins)),
            compress_even(pick(self.losses)),
        )
    }

    /// How many of the positions of side `side` (0: officers to move, 1:
    /// soldiers) are won, drawn and lost by the side to move (held: the
    /// whole tier, or its first half for side 0), counted in the packed
    /// fields themselves: a side's half is a run of fields in either
    /// layout.
    pub(crate) fn side_counts(&self, side: u32) -> [u64; 3] {
        assert!((side + 1) * self.half <= self.len, "side not held");
        let by_field = crate::fields::count_fields(
            &self.fields,
            (self.start + side * self.half) as usize,
            self.half as usize,
        );
        let mut wdl = [0u64; 3];
        for (count, code) in by_field.into_iter().zip(self.codes) {
            wdl[code_class(code)] += count;
        }
        wdl
    }

    /// The value code of field `slot`, if held.
    #[inline]
    fn slot(&self, slot: u32) -> Option<u16> {
        if slot >= self.len {
            return None;
        }
        Some(self.field(slot))
    }

    /// The WDL field ([`crate::fields::wdl_bits`]) of the code of field `slot`
    /// (held), from the field's classes: no load of its code.
    #[inline]
    fn class(&self, slot: u32) -> u8 {
        let f = self.start + slot;
        let w = self.fields[(f / 4) as usize] >> (2 * (f % 4)) & 3;
        (self.wins >> w & 1) | (self.losses >> w & 1) << 1
    }

    /// The value code of field `slot` (held).
    #[inline]
    fn field(&self, slot: u32) -> u16 {
        let f = self.start + slot;
        self.codes[(self.fields[(f / 4) as usize] >> (2 * (f % 4)) & 3) as usize]
    }

    /// The field of index position `index`.
    #[inline]
    fn slot_of(&self, index: u32) -> u32 {
        let (side, i) = (index / self.half, index % self.half);
        let (f, o) = (i / self.placements, i % self.placements);
        side * self.half + f * self.mask_stride + o * self.placement_stride
    }
}

/// The fields `w` (bit `w`) whose code `codes[w]` is one `is` holds for.
fn fields_where(codes: [u16; 4], is: impl Fn(u16) -> bool) -> u8 {
    (0..4).filter(|&w| is(codes[w])).fold(0, |m, w| m | 1 << w)
}

/// 0 for a win of the side to move, 1 for a draw, 2 for a loss: the class
/// of value code `code` ([`Value::code`]: 0 a draw, odd a win).
pub(crate) fn code_class(code: u16) -> usize {
    match code {
        0 => 1,
        c if c & 1 == 1 => 0,
        _ => 2,
    }
}

impl TierValues {
    /// Positions held (the whole tier, or its first half).
    pub fn len(&self) -> usize {
        match self {
            TierValues::Codes(c) => c.len(),
            TierValues::Wdl(w) => w.len as usize,
        }
    }

    /// Whether no position is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value code of position `index` (in index order), if held.
    #[inline]
    pub fn code(&self, index: u32) -> Option<u16> {
        match self {
            TierValues::Codes(c) => c.get(index as usize).copied(),
            TierValues::Wdl(w) => {
                if index >= w.len {
                    return None;
                }
                w.slot(w.slot_of(index))
            }
        }
    }

    /// The value codes of the positions held, in index order.
    pub fn to_codes(&self) -> Arc<[u16]> {
        match self {
            TierValues::Codes(c) => c.clone(),
            TierValues::Wdl(w) => {
                let field = |s: u32| w.field(s);
                if w.placement_stride == 1 {
                    // Index order already.
                    return (0..w.len).map(field).collect();
                }
                assert_eq!(w.len % w.half, 0, "whole halves");
                let mut out = Vec::with_capacity(w.len as usize);
                let masks = w.half / w.placements;
                for side in 0..w.len / w.half {
                    for f in 0..masks {
                        let first = side * w.half + f * w.mask_stride;
                        out.extend(
                            (0..w.placements).map(|o| field(first + o * w.placement_stride)),
                        );
                    }
                }
                out.into()
            }
        }
    }

    /// `(mask stride, placement stride)`: the position `side * H + f * O +
    /// o` of tier `key` is `self.at(side * H + f * mask stride + o *
    /// placement stride)`.
    #[inline]
    pub(crate) fn strides(&self, key: &TierKey) -> (u32, u32) {
        match self {
            TierValues::Codes(_) => (key.officer_placements(), 1),
            TierValues::Wdl(w) => (w.mask_stride, w.placement_stride),
        }
    }

    /// Call `f` on the value codes at slots `first`, `first + stride`, ...
    /// (`count` of them) of the layout ([`TierValues::strides`]); `false`
    /// (and no call) when not all of them are held.
    #[inline]
    pub(crate) fn for_each_at(
        &self,
        first: u32,
        stride: u32,
        count: u32,
        mut f: impl FnMut(u16),
    ) -> bool {
        if count == 0 {
            return true;
        }
        let last = u64::from(first) + u64::from(count - 1) * u64::from(stride);
        if last >= self.len() as u64 {
            return false;
        }
        match self {
            TierValues::Codes(c) => {
                for i in 0..count {
                    f(c[(first + i * stride) as usize]);
                }
            }
            TierValues::Wdl(w) => {
                for i in 0..count {
                    f(w.field(first + i * stride));
                }
            }
        }
        true
    }

    /// The wins and the losses (for the side to move) among the values at
    /// slots `first`, `first + stride`, ... (`count` of them, at most 32)
    /// of the layout ([`TierValues::strides`]): bit `i` of each for the
    /// `i`-th; `None` when not all of them are held. A run of packed
    /// fields is read a word at a time.
    #[inline]
    pub(crate) fn classes_at(&self, first: u32, stride: u32, count: u32) -> Option<(u32, u32)> {
        assert!(count <= 32, "at most 32 values");
        if count == 0 {
            return Some((0, 0));
        }
        let last = u64::from(first) + u64::from(count - 1) * u64::from(stride);
        if last >= self.len() as u64 {
            return None;
        }
        if let TierValues::Wdl(w) = self
            && stride == 1
        {
            let (wins, losses) = w.run_classes(first, count.min(28));
            if count <= 28 {
                return Some((wins, losses));
            }
            let (w2, l2) = w.run_classes(first + 28, count - 28);
            return Some((wins | w2 << 28, losses | l2 << 28));
        }
        let (mut wins, mut losses) = (0u32, 0u32);
        let mut i = 0;
        self.for_each_at(first, stride, count, |c| {
            wins |= u32::from(c & 1 == 1) << i;
            losses |= u32::from(c != 0 && c & 1 == 0) << i;
            i += 1;
        });
        Some((wins, losses))
    }

    /// The WDL field ([`crate::fields::wdl_bits`]: bit 0 a win, bit 1 a loss for
    /// the side to move) of the value at `slot` of the layout
    /// ([`TierValues::strides`]), if held: [`TierValues::at`]'s code's,
    /// with no branch on the value.
    #[inline]
    pub(crate) fn class_at(&self, slot: u32) -> Option<u8> {
        match self {
            TierValues::Codes(c) => c.get(slot as usize).map(|&c| crate::fields::wdl_bits(c)),
            TierValues::Wdl(w) if slot < w.len => Some(w.class(slot)),
            TierValues::Wdl(_) => None,
        }
    }

    /// The value code at `slot` of the layout ([`TierValues::strides`]),
    /// if held.
    #[inline]
    pub(crate) fn at(&self, slot: u32) -> Option<u16> {
        match self {
            TierValues::Codes(c) => c.get(slot as usize).copied(),
            TierValues::Wdl(w) => w.slot(slot),
        }
    }
}

impl Weight for TierValues {
    fn weight(&self) -> u64 {
        match self {
            TierValues::Codes(c) => c.weight(),
            TierValues::Wdl(w) => w.fields.weight(),
        }
    }
}

/// Read access to the values of solved canonical tiers.
pub trait TierStore: Sync {
    /// The value codes ([`Value::code`]) of canonical tier `key`, indexed as in
    /// [`crate::index`], or `None` when the tier is not available.
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError>;

    /// The values of canonical tier `key` in the form the store keeps
    /// them (what the solver reads: a WDL-only table's fields are then
    /// read in place, not decoded whole), or `None` when the tier is not
    /// available. Stores holding anything but codes override this.
    fn values(&self, key: &TierKey) -> Result<Option<TierValues>, SolveError> {
        Ok(self.tier(key)?.map(TierValues::Codes))
    }

    /// The value code of one position of canonical tier `key`, or `None`
    /// when the tier is not available. Stores that can read one value
    /// without the whole tier (table files) override this.
    fn code(&self, key: &TierKey, index: u32) -> Result<Option<u16>, SolveError> {
        Ok(self.tier(key)?.map(|t| t[index as usize]))
    }

    /// Whether every value served so far carries its exact distance:
    /// `false` once a value came from a WDL-only table, whose wins and
    /// losses stand in one ply for the distance
    /// (values solved on top of them are exact in win/draw/loss only).
    fn has_distances(&self) -> bool {
        true
    }
}

/// Solved tiers held in memory.
#[derive(Default)]
pub struct MemoryStore {
    tiers: RwLock<HashMap<TierKey, Arc<[u16]>>>,
}

impl MemoryStore {
    /// An empty store.
    pub(crate) fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// Add a solved tier.
    pub(crate) fn insert(&self, key: TierKey, codes: Vec<u16>) {
        self.tiers
            .write()
            .expect("store lock")
            .insert(key, codes.into());
    }
}

impl TierStore for MemoryStore {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        Ok(self.tiers.read().expect("store lock").get(key).cloned())
    }

    fn code(&self, key: &TierKey, index: u32) -> Result<Option<u16>, SolveError> {
        let tiers = self.tiers.read().expect("store lock");
        Ok(tiers.get(key).and_then(|c| c.get(index as usize).copied()))
    }
}

/// Tiers read from a file, shared by all threads (neighbouring tiers of
/// a build read the same tiers over and over), up to a number of bytes:
/// the least recently used go first (the newest always stays).
pub(crate) struct TierCache<V: Weight> {
    held: std::sync::Mutex<WeightedLru<TierKey, V>>,
}

impl<V: Weight + Clone> TierCache<V> {
    /// An empty cache holding at most `bytes`.
    pub(crate) fn new(bytes: u64) -> TierCache<V> {
        TierCache {
            held: std::sync::Mutex::new(WeightedLru::new(bytes)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, WeightedLru<TierKey, V>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The tier, if held.
    pub(crate) fn get(&self, key: &TierKey) -> Option<V> {
        self.lock().get(key).cloned()
    }

    /// Hold `values` as tier `key`.
    pub(crate) fn insert(&self, key: TierKey, values: V) {
        self.lock().put(key, values);
    }
}

/// Two stores read in turn: the first that has a tier answers.
pub(crate) struct Layered<'a>(pub(crate) &'a dyn TierStore, pub(crate) &'a dyn TierStore);

impl TierStore for Layered<'_> {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        match self.0.tier(key)? {
            Some(t) => Ok(Some(t)),
            None => self.1.tier(key),
        }
    }

    fn values(&self, key: &TierKey) -> Result<Option<TierValues>, SolveError> {
        match self.0.values(key)? {
            Some(t) => Ok(Some(t)),
            None => self.1.values(key),
        }
    }

    fn code(&self, key: &TierKey, index: u32) -> Result<Option<u16>, SolveError> {
        match self.0.code(key, index)? {
            Some(c) => Ok(Some(c)),
            None => self.1.code(key, index),
        }
    }

    fn has_distances(&self) -> bool {
        self.0.has_distances() && self.1.has_distances()
    }
}

/// Values of positions from a store, with a cache of the tiers it touched.
pub struct Lookup<'a> {
    store: &'a dyn TierStore,
    variant: Variant,
    cache: HashMap<TierKey, TierValues>,
    /// Read single values instead of caching whole tiers.
    single: bool,
}

impl<'a> Lookup<'a> {
    /// A lookup over `store` for `variant` that caches every tier it reads
    /// (for solving, where a tier's neighbours are read over and over).
    pub fn new(store: &'a dyn TierStore, variant: Variant) -> Lookup<'a> {
        Lookup {
            store,
            variant,
            cache: HashMap::default(),
            single: false,
        }
    }

    /// A lookup that reads single values and caches no tiers (for probing
    /// a few positions: a table file then decompresses one block per
    /// stream, not the whole tier).
    pub fn probing(store: &'a dyn TierStore, variant: Variant) -> Lookup<'a> {
        Lookup {
            single: true,
            ..Lookup::new(store, variant)
        }
    }

    /// The variant.
    pub(crate) fn variant(&self) -> &Variant {
        &self.variant
    }

    fn values(&mut self, key: &TierKey) -> Result<&TierValues, SolveError> {
        Ok(match self.cache.entry(*key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let t = self
                    .store
                    .values(key)?
                    .ok_or(SolveError::MissingTier(*key))?;
                e.insert(t)
            }
        })
    }

    /// The values of a canonical tier as the store keeps them (an error
    /// when it is not in the store), kept for the next call.
    pub(crate) fn tier_values(&mut self, key: &TierKey) -> Result<TierValues, SolveError> {
        Ok(self.values(key)?.clone())
    }

    /// The stored value of a position without huff rights that belongs to a
    /// tier (the game not over by rules 1-3).
    pub(crate) fn stored(&mut self, pos: &Position) -> Result<Value, SolveError> {
        let (key, i) = index::locate(pos).ok_or(SolveError::NotInTier(*pos))?;
        if self.single {
            let code = self
                .store
                .code(&key, i)?
                .ok_or(SolveError::MissingTier(key))?;
            return Ok(Value::from_code(code));
        }
        // A tier held in part (a build's window keeps officers-to-move
        // halves) answers only for the positions it holds.
        let code = self.values(&key)?.code(i);
        Ok(Value::from_code(code.ok_or(SolveError::MissingTier(key))?))
    }

    /// The value of any position for the side to move: game over by rules
    /// 1-3 (distance 0), huff rights folded in (the best of not huffing and
    /// each huff, a huff that removes the last officer winning in 1), else
    /// the stored value.
    pub fn value(&mut self, pos: &Position) -> Result<Value, SolveError> {
        if let Some(w) = rules::static_outcome(pos) {
            return Ok(if w == pos.side() {
                Value::Win(0)
            } else {
                Value::Loss(0)
            });
        }
        if pos.huff() == 0 {
            return self.stored(pos);
        }
        let v = self.stored(&pos.without_huff())?;
        let huffs = self.huff_options(pos.soldiers(), pos.officers(), pos.huff())?;
        Ok(huffs.map_or(v, |h| v.best(h)))
    }

    /// The best huff option of the soldiers to move with these pieces and
    /// huff rights `huff`: huffing the last officer wins in 1, any other
    /// huff is worth the stored value of the position without that officer.
    /// A position left stuck by the huff (a loss in 0) is no option; `None`
    /// when no huff is an option.
    pub(crate) fn huff_options(
        &mut self,
        soldiers: Bitboard,
        officers: Bitboard,
        huff: Bitboard,
    ) -> Result<Option<Value>, SolveError> {
        fold_huffs(officers, huff, |rest| {
            self.stored(&Position::from_parts_unchecked(
                soldiers,
                rest,
                Side::Soldiers,
                0,
            ))
        })
    }
}

/// The best huff option of the soldiers to move with these officers and
/// huff rights `huff`, given `stored(rest)`, the stored value of the same
/// soldiers to move against the officers `rest` left after one huff:
/// huffing the last officer wins in 1, any other huff is worth
/// `stored(rest)`. A position left stuck by the huff (a loss in 0) is no
/// option; `None` when no huff is an option.
pub(crate) fn fold_huffs(
    officers: Bitboard,
    huff: Bitboard,
    mut stored: impl FnMut(Bitboard) -> Result<Value, SolveError>,
) -> Result<Option<Value>, SolveError> {
    let mut best: Option<Value> = None;
    for h in board::points(huff) {
        let rest = officers & !h.bit();
        let v = if rest == 0 {
            Value::Win(1)
        } else {
            stored(rest)?
        };
        #[cfg(test)]
        let v = match crate::planted::planted(crate::planted::Fault::LastHuffWinsIn3) {
            true if rest == 0 => Value::Win(3),
            _ => v,
        };
        if v != Value::WORST {
            best = Some(best.map_or(v, |b| b.best(v)));
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_store_answers_what_was_inserted() {
        let key = |outside| TierKey {
            n: 1,
            k: 9,
            outside,
        };
        let tiers = [
            (key(1), (0..300u16).map(|i| i % 256).collect::<Vec<_>>()),
            (key(2), vec![0, 3, 402, 7]),
            (key(4), vec![]),
        ];
        let store = MemoryStore::new();
        for (k, c) in &tiers {
            store.insert(*k, c.clone());
        }
        for (k, c) in &tiers {
            assert_eq!(store.tier(k).unwrap().as_deref(), Some(&c[..]));
            for i in 0..=c.len() {
                assert_eq!(store.code(k, i as u32).unwrap(), c.get(i).copied());
            }
        }
        assert_eq!(store.tier(&key(8)).unwrap(), None);
    }

    #[test]
    fn the_tier_cache_lets_the_least_recently_used_go() {
        let key = |outside| TierKey {
            n: 2,
            k: 9,
            outside,
        };
        let codes = |v: u16, n: usize| -> Arc<[u16]> { vec![v; n].into() };
        let cache = TierCache::new(20);
        cache.insert(key(1), codes(1, 4));
        cache.insert(key(2), codes(2, 4));
        // Tier 1 used since tier 2 came: tier 2 goes for tier 3.
        assert_eq!(cache.get(&key(1)).as_deref(), Some(&[1u16; 4][..]));
        cache.insert(key(3), codes(3, 4));
        assert!(cache.get(&key(1)).is_some() && cache.get(&key(3)).is_some());
        assert!(cache.get(&key(2)).is_none());
        // A tier larger than the budget is still held, alone.
        cache.insert(key(4), codes(4, 12));
        assert_eq!(cache.get(&key(4)).map(|c| c.len()), Some(12));
        assert!(cache.get(&key(1)).is_none() && cache.get(&key(3)).is_none());
    }

    /// A WDL-only tier's codes in index order, and its fields packed from
    /// field `start` on at the stream offsets `offset` gives (the table
    /// module's own layout), amid fields of other tiers.
    fn packed(key: &TierKey, start: u32, offset: impl Fn(u32) -> u32) -> (Vec<u16>, Arc<[u8]>) {
        let codes = [0u16, 3, 4, 2];
        let n = key.size() as u32;
        let mut fields = vec![0b1001_1100u8; (start + n + 9) as usize / 4];
        for i in 0..n {
            let s = start + offset(i);
            fields[(s / 4) as usize] &= !(3 << (2 * (s % 4)));
        }
        let mut want = Vec::new();
        for i in 0..n {
            let w = (i.wrapping_mul(2_654_435_761) >> 7) % 4;
            let s = start + offset(i);
            fields[(s / 4) as usize] |= (w as u8) << (2 * (s % 4));
            want.push(codes[w as usize]);
        }
        (want, fields.into())
    }

    #[test]
    fn wdl_fields_read_as_the_codes_they_pack_in_both_layouts() {
        let codes = [0u16, 3, 4, 2];
        for key in [
            TierKey {
                n: 2,
                k: 12,
                outside: 0b1011_0000_0000_0000_0111,
            },
            TierKey {
                n: 1,
                k: 10,
                outside: 0b11,
            },
        ] {
            // Placement major: each half transposed, one placement's
            // values over every fortress mask side by side (the files'
            // layout, written out here on its own).
            let half = key.size_per_side();
            let placements = key.officer_placements();
            let transposed = |i: u32| {
                i / half * half
                    + i % half % placements * (half / placements)
                    + i % half / placements
            };
            for (major, start) in [(false, 0), (true, 0), (false, 7), (true, 4093)] {
                let order = if major {
                    "placement-major"
                } else {
                    "mask-major"
                };
                let (want, fields) = packed(&key, start, |i| if major { transposed(i) } else { i });
                let whole = TierValues::Wdl(WdlFields::new(
                    (fields.clone(), start),
                    key.size() as u32,
                    &key,
                    major,
                    codes,
                ));
                assert_eq!(whole.len(), want.len());
                assert_eq!(&*whole.to_codes(), &want[..], "{order}");
                for (i, &c) in want.iter().enumerate() {
                    assert_eq!(whole.code(i as u32), Some(c), "{order} {i}");
                }
                assert_eq!(whole.code(key.size() as u32), None);
                // Through the strides, as the solver reads it.
                let (ms, ps) = whole.strides(&key);
                let p = key.officer_placements();
                for (i, &c) in want.iter().enumerate() {
                    let i = i as u32;
                    let (side, h) = (i / key.size_per_side(), i % key.size_per_side());
                    let slot = side * key.size_per_side() + h / p * ms + h % p * ps;
                    assert_eq!(whole.at(slot), Some(c));
                }
                // Each slot's class (win bit 0, loss bit 1) that of its
                // code, in the fields and in the codes themselves.
                let as_codes = TierValues::Codes(want.clone().into());
                let n = whole.len() as u32;
                for slot in 0..n {
                    let class = crate::fields::wdl_bits(whole.at(slot).unwrap());
                    assert_eq!(whole.class_at(slot), Some(class), "{order} {slot}");
                    if !major {
                        assert_eq!(as_codes.class_at(slot), Some(class), "codes {slot}");
                    }
                }
                assert_eq!(whole.class_at(n), None);
                // Runs of wins and losses, word at a time where the
                // layout has them side by side, against the codes one by
                // one; and through the codes themselves.
                for (first, stride) in [(0, 1), (5, 1), (n - 40, 1), (3, ps), (1, 7)] {
                    for count in [0, 1, 13, 28, 29, 32] {
                        let last = first as u64 + (count as u64).saturating_sub(1) * stride as u64;
                        let read = |v: &TierValues| v.classes_at(first, stride, count);
                        if last >= n as u64 {
                            assert_eq!(read(&whole), None, "{first} {stride} {count}");
                            continue;
                        }
                        let (mut w, mut l) = (0u32, 0u32);
                        for i in 0..count {
                            let c = whole.at(first + i * stride).unwrap();
                            w |= u32::from(c == 3) << i;
                            l |= u32::from(c == 4 || c == 2) << i;
                        }
                        assert_eq!(
                            read(&whole),
                            Some((w, l)),
                            "{order} {first} {stride} {count}"
                        );
                        if !major {
                            assert_eq!(read(&as_codes), Some((w, l)), "codes {first}");
                        }
                    }
                }
                // The first half only: the second is not held.
                let half = key.size_per_side();
                let first =
                    TierValues::Wdl(WdlFields::new((fields, start), half, &key, major, codes));
                assert_eq!(&*first.to_codes(), &want[..half as usize]);
                assert_eq!(first.code(half - 1), Some(want[half as usize - 1]));
                assert_eq!(first.code(half), None);
            }
        }
    }
}
