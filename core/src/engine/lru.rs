//! A map that forgets its least recently used entries past a capacity: what bounds the
//! summary cache and the per-session records.

use std::collections::HashMap;
use std::hash::Hash;

/// Least-recently-used map. Lookups and inserts are O(1); forgetting scans the entries
/// once (O(n)) and happens only when an insert passes the capacity. A `BTreeMap` kept in
/// use order made forgetting O(log n), but its code added about 8 kB gzipped to the lite
/// npm package, and capacities are in the thousands.
#[derive(Debug)]
pub(crate) struct Lru<K, V> {
    capacity: usize,
    tick: u64,
    entries: HashMap<K, (V, u64)>,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            tick: 0,
            entries: HashMap::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    fn next_tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    /// The value, marked as used.
    pub(crate) fn get(&mut self, key: &K) -> Option<&V> {
        self.get_mut(key).map(|v| &*v)
    }

    /// The value, marked as used.
    pub(crate) fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let tick = self.next_tick();
        self.entries.get_mut(key).map(|(v, used)| {
            *used = tick;
            v
        })
    }

    /// The value without marking it used.
    pub(crate) fn peek(&self, key: &K) -> Option<&V> {
        self.entries.get(key).map(|(v, _)| v)
    }

    /// Inserts or replaces, then forgets the least recently used past the capacity.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        let tick = self.next_tick();
        self.entries.insert(key, (value, tick));
        while self.entries.len() > self.capacity {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.entries.remove(&oldest);
        }
    }

    /// The entry for `key`, inserted with `make` when absent; `None` only at capacity 0.
    pub(crate) fn get_or_insert_with(
        &mut self,
        key: &K,
        make: impl FnOnce() -> V,
    ) -> Option<&mut V> {
        if !self.entries.contains_key(key) {
            self.insert(key.clone(), make());
        }
        self.get_mut(key)
    }

    /// Entries from the least to the most recently used.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        let mut ticks: Vec<u64> = self.entries.values().map(|(_, used)| *used).collect();
        ticks.sort_unstable();
        let by_tick: HashMap<u64, (&K, &V)> = self
            .entries
            .iter()
            .map(|(k, (v, used))| (*used, (k, v)))
            .collect();
        ticks
            .into_iter()
            .filter_map(move |t| by_tick.get(&t).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::Lru;

    #[test]
    fn forgets_the_least_recently_used_past_capacity() {
        let mut lru = Lru::new(2);
        lru.insert("a", 1);
        lru.insert("b", 2);
        assert_eq!(lru.get(&"a"), Some(&1)); // a is now newer than b
        lru.insert("c", 3);
        assert_eq!(lru.len(), 2);
        assert_eq!(lru.peek(&"b"), None);
        assert_eq!(lru.iter().map(|(k, _)| *k).collect::<Vec<_>>(), ["a", "c"]);
    }

    #[test]
    fn capacity_zero_keeps_nothing() {
        let mut lru = Lru::new(0);
        lru.insert("a", 1);
        assert_eq!(lru.len(), 0);
        assert!(lru.get_or_insert_with(&"b", || 2).is_none());
    }
}
