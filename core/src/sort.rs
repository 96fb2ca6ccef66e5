//! Sorting through one compiled instance of the standard library's sort.
//!
//! Each element type and comparator handed to `sort_by` compiles the standard sort anew,
//! some 2 kB of code each: two dozen of them were a tenth of the lite npm module's code.
//! Here every sort orders the positions `0..n` through one comparator behind a reference,
//! compiled once, then moves the items into place. Stable, O(n log n); a call through a
//! reference per comparison is nothing beside comparing words.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, keeping equal items in their order.
pub(crate) fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = positions_sorted(items.len(), &|a, b| compare(&items[a], &items[b]));
    // `order[k]` is the item that ends at `k`; `place[i]` where item `i` ends. Each swap
    // puts one item where it ends, so at most n - 1 swaps.
    let mut place = vec![0; order.len()];
    for (k, &i) in order.iter().enumerate() {
        place[i] = k;
    }
    for i in 0..items.len() {
        while place[i] != i {
            let j = place[i];
            items.swap(i, j);
            place.swap(i, j);
        }
    }
}

/// Sorts `items` by the key each has, keeping equal keys in their order.
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their natural order.
pub(crate) fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Sorts `items` and drops repeats.
pub(crate) fn sort_dedup<T: Ord>(items: &mut Vec<T>) {
    sort(items);
    items.dedup();
}

/// The positions `0..len` ordered by `compare`: the one instance of the standard sort.
#[inline(never)]
fn positions_sorted(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    // Ties ordered by position: stable, through the smaller unstable sort.
    order.sort_unstable_by(|&a, &b| compare(a, b).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_sort_and_keeps_ties_in_order() {
        // Pairs sorted by their first half: ties keep the order they came in.
        let mut seed = 7u64;
        for len in [0usize, 1, 2, 3, 17, 100, 1000] {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_by_key(&mut ours, |&(key, _)| key);
            let mut theirs = items;
            theirs.sort_by_key(|&(key, _)| key);
            assert_eq!(ours, theirs, "{len} items");
        }
        let mut words = vec!["pear", "apple", "fig", "apple"];
        sort_dedup(&mut words);
        assert_eq!(words, ["apple", "fig", "pear"]);
    }
}
