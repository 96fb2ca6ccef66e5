//! A map that forgets its least recently used entries past a capacity: what bounds the
//! summary cache and the per-session records.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// Least-recently-used map: lookups and inserts in O(log n).
#[derive(Debug)]
pub(crate) struct Lru<K, V> {
    capacity: usize,
    tick: u64,
    entries: HashMap<K, (V, u64)>,
    order: BTreeMap<u64, K>,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            capacity,
            tick: 0,
            entries: HashMap::new(),
            order: BTreeMap::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.order.clear();
    }

    fn touch(&mut self, key: &K) {
        self.tick += 1;
        let tick = self.tick;
        if let Some((_, used)) = self.entries.get_mut(key) {
            self.order.remove(used);
            *used = tick;
            self.order.insert(tick, key.clone());
        }
    }

    /// The value, marked as used.
    pub(crate) fn get(&mut self, key: &K) -> Option<&V> {
        self.touch(key);
        self.entries.get(key).map(|(v, _)| v)
    }

    /// The value, marked as used.
    pub(crate) fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.touch(key);
        self.entries.get_mut(key).map(|(v, _)| v)
    }

    /// The value without marking it used.
    pub(crate) fn peek(&self, key: &K) -> Option<&V> {
        self.entries.get(key).map(|(v, _)| v)
    }

    /// Inserts or replaces, then forgets the least recently used past the capacity.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        self.tick += 1;
        let tick = self.tick;
        if let Some((_, used)) = self.entries.insert(key.clone(), (value, tick)) {
            self.order.remove(&used);
        }
        self.order.insert(tick, key);
        while self.entries.len() > self.capacity {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            self.entries.remove(&oldest);
        }
    }

    /// The entry for `key`, inserted with `make` when absent.
    pub(crate) fn get_or_insert_with(&mut self, key: &K, make: impl FnOnce() -> V) -> &mut V {
        if !self.entries.contains_key(key) {
            self.insert(key.clone(), make());
        }
        self.touch(key);
        // Present: inserted above unless the capacity is 0, which validation refuses for
        // sessions; the cache never uses this.
        &mut self
            .entries
            .get_mut(key)
            .expect("an entry just inserted into a map of capacity ≥ 1")
            .0
    }

    /// Entries from the least to the most recently used.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.order
            .values()
            .filter_map(|k| self.entries.get(k).map(|(v, _)| (k, v)))
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
    }
}
