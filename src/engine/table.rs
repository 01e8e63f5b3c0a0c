//! The engine's tables, one trait over two kinds: the exact solver's lock-free
//! [`TranspositionTable`] (lower and upper bounds within ±32766, a draft, the best move; what the
//! engine's scores need) and [`WideTable`] (the same bounds as any `i32`, for `f(p)` of any range,
//! as MTD(f) on random trees needs).

use crate::game::{Score, INF};
use crate::solver::table::{Entry, TranspositionTable};

/// What the search needs of a transposition table: the exact solver's
/// [`TranspositionTable`] (bounds within ±32766, what the engine's scores need) or
/// [`WideTable`] (any `i32` bounds, for `f(p)` of any range).
pub trait Table {
    /// The entry for `key`, if stored.
    fn probe(&self, key: u64) -> Option<Entry>;
    /// Stores bounds, the best move's generation index and the draft for `key`.
    fn store(&mut self, key: u64, lower: Score, upper: Score, best: u8, draft: u8);
}

impl Table for TranspositionTable {
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        TranspositionTable::probe(self, key)
    }
    #[inline]
    fn store(&mut self, key: u64, lower: Score, upper: Score, best: u8, draft: u8) {
        TranspositionTable::store(self, key, lower, upper, best, draft, 0)
    }
}

/// A direct-mapped table with full `i32` bounds (24-byte slots, always replace; the draft is
/// part of the match): for [`super::Plain`] searches of games whose values exceed what
/// [`TranspositionTable`] stores exactly (random trees' values span ±2^29).
///
/// ```
/// use gamesearch::engine::{Table, WideTable};
/// let mut t = WideTable::with_entries(1 << 10);
/// t.store(7, 400_000_000, 400_000_000, 2, 3);
/// let e = t.probe(7).unwrap();
/// assert_eq!((e.lower, e.upper, e.best, e.draft), (400_000_000, 400_000_000, 2, 3));
/// assert!(t.probe(8).is_none());
/// ```
pub struct WideTable {
    slots: Vec<WideSlot>,
}

#[derive(Clone, Copy)]
struct WideSlot {
    key: u64,
    lower: Score,
    upper: Score,
    best: u8,
    draft: u8,
}

impl WideTable {
    /// A table of `entries` slots (rounded up to a power of two, at least one).
    pub fn with_entries(entries: usize) -> Self {
        let n = entries.max(1).next_power_of_two();
        WideTable {
            slots: vec![
                WideSlot {
                    key: 0,
                    lower: -INF,
                    upper: INF,
                    best: 255,
                    draft: 0,
                };
                n
            ],
        }
    }
}

impl Table for WideTable {
    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots[key as usize & (self.slots.len() - 1)];
        (s.key == key && s.draft > 0).then_some(Entry {
            key,
            lower: s.lower,
            upper: s.upper,
            best: s.best,
            draft: s.draft,
            work: 0,
        })
    }
    #[inline]
    fn store(&mut self, key: u64, lower: Score, upper: Score, best: u8, draft: u8) {
        let i = key as usize & (self.slots.len() - 1);
        let s = &mut self.slots[i];
        let draft = draft.max(1);
        let (lower, upper) = if s.key == key && s.draft == draft {
            (lower.max(s.lower), upper.min(s.upper))
        } else {
            (lower, upper)
        };
        *s = WideSlot {
            key,
            lower,
            upper,
            best,
            draft,
        };
    }
}
