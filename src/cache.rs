//! The one eviction rule of the crate's caches: a least-recently-used map
//! bounded by the total weight (bytes) of what it holds, over the `lru`
//! crate. The caches of decompressed blocks (`table::blocks`, the
//! reader's distance blocks) and of decoded tiers (`solve::TierCache`)
//! are each one of these behind their own lock.

use lru::LruCache;
use std::hash::Hash;
use std::num::NonZeroUsize;
use std::sync::Arc;

/// What a [`WeightedLru`] counts of a value against its cap.
pub(crate) trait Weight {
    /// The value's weight in bytes.
    fn weight(&self) -> u64;
}

impl<T> Weight for Arc<[T]> {
    fn weight(&self) -> u64 {
        std::mem::size_of_val(&**self) as u64
    }
}

/// A map that lets its least recently used entries go while the weights
/// of the entries it holds add up to more than its cap (the newest entry
/// always stays, however heavy), and, when given one, while it holds more
/// entries than its most.
pub(crate) struct WeightedLru<K: Hash + Eq, V: Weight> {
    map: LruCache<K, V>,
    held: u64,
    cap: u64,
}

impl<K: Hash + Eq, V: Weight> WeightedLru<K, V> {
    /// An empty map holding at most `cap` of weight.
    pub(crate) fn new(cap: u64) -> WeightedLru<K, V> {
        WeightedLru {
            map: LruCache::unbounded(),
            held: 0,
            cap,
        }
    }

    /// An empty map holding at most `cap` of weight and `most` entries.
    pub(crate) fn with_most(cap: u64, most: NonZeroUsize) -> WeightedLru<K, V> {
        WeightedLru {
            map: LruCache::new(most),
            held: 0,
            cap,
        }
    }

    /// The value of `key`, if held (it becomes the most recently used).
    pub(crate) fn get(&mut self, key: &K) -> Option<&V> {
        self.map.get(key)
    }

    /// Whether `key` is held (its place in the order unchanged).
    #[cfg(test)]
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.map.contains(key)
    }

    /// Hold `value` as `key` (replacing what `key` held), then let the
    /// least recently used others go while over the cap.
    pub(crate) fn put(&mut self, key: K, value: V) {
        self.held += value.weight();
        if let Some((_, old)) = self.map.push(key, value) {
            self.held -= old.weight();
        }
        while self.held > self.cap && self.map.len() > 1 {
            if let Some((_, old)) = self.map.pop_lru() {
                self.held -= old.weight();
            }
        }
    }

    /// Change the cap (entries over a smaller one go at the next put).
    pub(crate) fn set_cap(&mut self, cap: u64) {
        self.cap = cap;
    }

    /// Weight held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> u64 {
        self.held
    }

    /// Entries held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: u8, n: usize) -> Arc<[u8]> {
        vec![v; n].into()
    }

    #[test]
    fn the_least_recently_used_go_past_the_cap() {
        let mut c = WeightedLru::new(250);
        c.put(1, bytes(1, 100));
        c.put(2, bytes(2, 100));
        // 1 used since 2 came: 2 is the one to go.
        assert_eq!(c.get(&1).map(|v| v[0]), Some(1));
        c.put(3, bytes(3, 100));
        assert_eq!(c.held(), 200);
        assert!(c.contains(&1) && c.contains(&3) && !c.contains(&2));
        // Replacing an entry counts the new weight only.
        c.put(3, bytes(30, 50));
        assert_eq!((c.len(), c.held()), (2, 150));
        assert_eq!(c.get(&3).map(|v| v[0]), Some(30));
        // An entry heavier than the cap still stays, alone.
        c.put(4, bytes(4, 400));
        assert_eq!((c.len(), c.held()), (1, 400));
        // A smaller cap applies from the next put.
        c.set_cap(100);
        c.put(5, bytes(5, 60));
        assert_eq!((c.len(), c.held()), (1, 60));
    }

    #[test]
    fn weights_count_bytes_not_values() {
        let wide: Arc<[u16]> = vec![0u16; 10].into();
        assert_eq!(wide.weight(), 20);
        let mut c = WeightedLru::new(35);
        c.put(1, wide.clone());
        c.put(2, wide);
        assert_eq!((c.len(), c.held()), (1, 20));
    }

    #[test]
    fn the_most_entries_hold_too() {
        let mut c = WeightedLru::with_most(1000, NonZeroUsize::new(2).unwrap());
        for k in 0..5 {
            c.put(k, bytes(k, 10));
        }
        assert_eq!((c.len(), c.held()), (2, 20));
        assert!(c.contains(&3) && c.contains(&4));
    }
}
