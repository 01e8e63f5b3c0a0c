//! A fixed-size transposition table: bounds on a position's value keyed by its 64-bit hash.
//!
//! # Entry layout (24 bytes)
//! | field   | type | meaning |
//! |---------|------|---------|
//! | `key`   | u64  | the full hash, to tell positions sharing a slot apart |
//! | `lower` | i32  | a lower bound on the value (side to move's view) |
//! | `upper` | i32  | an upper bound (`lower == upper`: exact) |
//! | `best`  | u8   | index, in generation order, of the best move found (255: none) |
//! | `draft` | u8   | remaining depth the bounds were searched to; [`DRAFT_EXACT`] = to the game's end |
//! | `work`  | u8   | log2 of the nodes searched below, the replacement priority |
//!
//! Slots come in buckets of two: slot 0 keeps the entry that cost the most work, slot 1 takes
//! whatever is new ("two-tier" replacement). A probe checks both. Bounds are used only when the
//! stored draft is at least the depth still to search; the best move is always used for ordering.

use crate::game::{Score, INF};

/// The draft of a bound proven to the game's end: valid at every depth.
pub const DRAFT_EXACT: u8 = 255;

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's full hash.
    pub key: u64,
    /// Lower bound (side to move's view).
    pub lower: Score,
    /// Upper bound (side to move's view).
    pub upper: Score,
    /// Index of the best move in generation order, 255 when unknown.
    pub best: u8,
    /// Depth searched, [`DRAFT_EXACT`] for the whole game.
    pub draft: u8,
    /// log2 of the nodes below; higher survives replacement.
    pub work: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    lower: -INF,
    upper: INF,
    best: 255,
    draft: 0,
    work: 0,
};

/// The table. Its size is fixed at creation; it never grows.
///
/// ```
/// use gamesearch::depth_first::tt::TranspositionTable;
/// let mut tt = TranspositionTable::with_bytes(1 << 20);
/// assert!(tt.bytes() <= 1 << 20);
/// tt.store(42, 3, 7, 1, 255, 10);
/// let e = tt.probe(42).unwrap();
/// assert_eq!((e.lower, e.upper, e.best), (3, 7, 1));
/// assert!(tt.probe(43).is_none());
/// ```
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    slots: Vec<Entry>,
    bucket_mask: usize,
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (at least one bucket), the bucket count a power of two.
    pub fn with_bytes(bytes: usize) -> Self {
        let buckets = (bytes / (2 * std::mem::size_of::<Entry>())).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        TranspositionTable {
            slots: vec![EMPTY; 2 * buckets],
            bucket_mask: buckets - 1,
        }
    }

    /// Number of entries it can hold.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Never empty (at least one bucket); for clippy's sake.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes of memory the entries take.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Entry>()
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        2 * ((key as usize ^ (key >> 32) as usize) & self.bucket_mask)
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|e| e.key == key && e.draft > 0)
    }

    /// Stores bounds for `key`. An entry for the same key with the same or deeper draft has its
    /// bounds intersected with the new ones (both are true).
    #[inline]
    pub fn store(&mut self, key: u64, lower: Score, upper: Score, best: u8, draft: u8, work: u8) {
        let b = self.bucket(key);
        let mut e = Entry {
            key,
            lower,
            upper,
            best,
            draft: draft.max(1),
            work,
        };
        for i in b..b + 2 {
            let old = self.slots[i];
            if old.key == key && old.draft > 0 {
                if old.draft == e.draft {
                    e.lower = e.lower.max(old.lower);
                    e.upper = e.upper.min(old.upper);
                    e.work = e.work.max(old.work);
                } else if old.draft > e.draft {
                    // Keep the deeper bounds; take the fresher move.
                    e = Entry { best, ..old };
                }
                self.slots[i] = e;
                return;
            }
        }
        if e.work >= self.slots[b].work || self.slots[b].draft == 0 {
            self.slots[b + 1] = self.slots[b];
            self.slots[b] = e;
        } else {
            self.slots[b + 1] = e;
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(EMPTY);
    }
}
