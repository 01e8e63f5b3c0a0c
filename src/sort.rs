//! The move sort every move picker here shares: a handful of items, keys computed once.

/// Sorts `items` by `keys` (the key of `items[i]` is `keys[i]`; both are permuted), highest key
/// first and, among equal keys, in their original order: an insertion sort, the fastest for the
/// few moves of a node and allocation-free.
///
/// ```
/// let mut moves = ['a', 'b', 'c'];
/// let mut keys = [1, 3, 1];
/// gamesearch::sort::by_key_descending(&mut moves, &mut keys);
/// assert_eq!(moves, ['b', 'a', 'c']);
/// ```
#[inline]
pub fn by_key_descending<T: Copy, K: PartialOrd + Copy>(items: &mut [T], keys: &mut [K]) {
    debug_assert_eq!(items.len(), keys.len());
    for i in 1..items.len() {
        let (item, key) = (items[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            items[j] = items[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        items[j] = item;
        keys[j] = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highest_key_first_and_equal_keys_keep_their_order() {
        let mut items = ['a', 'b', 'c', 'd', 'e'];
        let mut keys = [1, 3, 1, 3, 2];
        by_key_descending(&mut items, &mut keys);
        assert_eq!(items, ['b', 'd', 'e', 'a', 'c']);
        assert_eq!(keys, [3, 3, 2, 1, 1]);
    }
}
