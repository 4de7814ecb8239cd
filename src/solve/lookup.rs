//! Reading values of solved tiers: the narrow [`TierStore`] interface
//! between the solver and storage (memory now, table files later), and
//! [`Lookup`], which values any position (game over, huff rights, mirrored
//! tiers) from a store.

use super::SolveError;
use crate::Value;
use crate::board::{self, Bitboard};
use crate::index::{self, TierKey};
use crate::position::{Position, Side};
use crate::rules::{self, Variant};
use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, RwLock};

/// Read access to the values of solved canonical tiers.
pub trait TierStore: Sync {
    /// The value codes ([`Value::code`]) of canonical tier `key`, indexed as in
    /// [`crate::index`], or `None` when the tier is not available.
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError>;

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

/// Whole tiers decoded from a file, shared by all threads (neighbouring
/// tiers of a build read the same tiers over and over), up to a number of
/// values: when an insert would pass it, the least recently used tiers go
/// (the newest always stays).
pub(crate) struct TierCache {
    budget: u64,
    held: std::sync::Mutex<Held>,
}

/// The tiers a [`TierCache`] holds, the least recently used first out, and
/// their number of values.
type Held = (lru::LruCache<TierKey, Arc<[u16]>>, u64);

impl TierCache {
    /// An empty cache holding at most `budget` values.
    pub(crate) fn new(budget: u64) -> TierCache {
        TierCache {
            budget,
            held: std::sync::Mutex::new((lru::LruCache::unbounded(), 0)),
        }
    }

    /// The tier, if held.
    pub(crate) fn get(&self, key: &TierKey) -> Option<Arc<[u16]>> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.0.get(key).cloned()
    }

    /// Hold `codes` as tier `key`.
    pub(crate) fn insert(&self, key: TierKey, codes: Arc<[u16]>) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.1 += codes.len() as u64;
        if let Some(old) = held.0.put(key, codes) {
            held.1 -= old.len() as u64;
        }
        while held.1 > self.budget && held.0.len() > 1 {
            if let Some((_, old)) = held.0.pop_lru() {
                held.1 -= old.len() as u64;
            }
        }
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
    cache: HashMap<TierKey, Arc<[u16]>>,
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

    fn tier(&mut self, key: &TierKey) -> Result<&Arc<[u16]>, SolveError> {
        Ok(match self.cache.entry(*key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let t = self.store.tier(key)?.ok_or(SolveError::MissingTier(*key))?;
                e.insert(t)
            }
        })
    }

    /// The codes of a canonical tier (an error when it is not in the store).
    pub(crate) fn tier_codes(&mut self, key: &TierKey) -> Result<Arc<[u16]>, SolveError> {
        Ok(self.tier(key)?.clone())
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
        let code = self.tier(&key)?.get(i as usize).copied();
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
        let cache = TierCache::new(10);
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
}
