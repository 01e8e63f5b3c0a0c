//! A transposition table of a fixed allocation: bounds on a position's value keyed by its 64-bit
//! hash.
//!
//! # Layout
//! Buckets of four 16-byte slots, one 64-byte cache line each (aligned), so a probe costs one
//! memory access. The memory is an anonymous mapping, which the system zeroes page by page when
//! first touched (an all-zero slot is an empty one): a table costs the time and memory of the
//! part a search uses, not of its size (a 1 GiB table was cleared in 0.5-1 s before any search).
//! Only the part a search starts in ([`INITIAL_BYTES`]) is touched when the table is made.
//! On Linux the table asks for transparent huge pages (`madvise`), which spares the page-table
//! walk that a random access into tens of megabytes otherwise costs.
//!
//! | field   | type | meaning |
//! |---------|------|---------|
//! | `key`   | u64  | the full hash, to tell positions sharing a bucket apart |
//! | `lower` | i16  | a lower bound on the value (side to move's view); `i16::MIN` = none |
//! | `upper` | i16  | an upper bound (`lower == upper`: exact); `i16::MAX` = none |
//! | `best`  | u8   | index, in generation order, of the best move found (255: none) |
//! | `draft` | u8   | remaining depth the bounds were searched to; [`DRAFT_EXACT`] = to the game's end; [`DRAFT_SELECTIVE`] = a selective pass's guess; 0 = empty |
//! | `work`  | u8   | log2 of the nodes searched below, the replacement priority |
//! | `age`   | u8   | the search ([`TranspositionTable::new_search`]) that stored it |
//!
//! Bounds are stored exactly within ±[`BOUND_LIMIT`]; beyond it they are widened (a lower bound
//! to "none", an upper bound to the limit, and mirrored), which keeps every stored bound true.
//!
//! # Replacement
//! A position already in its bucket is updated in place (bounds of equal draft intersected, a
//! deeper draft kept). A new one takes an empty slot, else the slot of an earlier search, else the
//! slot whose subtree cost the least work. Bounds are used only when the stored draft is at least
//! the depth still to search; the best move is always used for ordering.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};

use crate::error::Error;
use crate::game::{Score, INF};

/// The draft of a bound proven to the game's end: valid at every depth.
pub const DRAFT_EXACT: u8 = 255;

/// The draft of the strictest selective pass's bounds
/// ([`super::SolverKnowledge::selective_levels`]): to the game's end but probable, not proven.
/// Below [`DRAFT_EXACT`], so a proven bound takes its place and no exact search uses it (only
/// its best move); the looser levels' drafts lie just below it, above every depth-limited one.
pub const DRAFT_SELECTIVE: u8 = 254;

/// Bounds within `±BOUND_LIMIT` are stored exactly; larger ones are widened.
pub const BOUND_LIMIT: Score = i16::MAX as Score - 1;

/// One stored position, as a probe returns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's full hash.
    pub key: u64,
    /// Lower bound (side to move's view), `-INF` when none.
    pub lower: Score,
    /// Upper bound (side to move's view), `INF` when none.
    pub upper: Score,
    /// Index of the best move in generation order, 255 when unknown.
    pub best: u8,
    /// Depth searched, [`DRAFT_EXACT`] for the whole game.
    pub draft: u8,
    /// log2 of the nodes below; higher survives replacement.
    pub work: u8,
}

#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Slot {
    key: u64,
    lower: i16,
    upper: i16,
    best: u8,
    draft: u8,
    work: u8,
    age: u8,
}

const EMPTY: Slot = Slot {
    key: 0,
    lower: i16::MIN,
    upper: i16::MAX,
    best: 255,
    draft: 0,
    work: 0,
    age: 0,
};

const WAYS: usize = 4;

/// The part of a table a search starts in (or the whole table, if smaller): it doubles each
/// time it is full ([`TranspositionTable::grow_if_full`]), so a small search stays in the
/// processor's cache instead of waiting on memory for every probe into a table it uses a
/// sliver of. Connect-Four, one thread, 1 GiB allocated, medians of five against the whole
/// table from the start: 6x5 0.245 → 0.140 s, 8x4 1.44 → 0.95 s, 7x5 1.38 → 0.98 s, 5x8 2.02 →
/// 1.38 s, 6x6 2.31 → 1.61 s (2-4 % more nodes); of two, 7x6 25.8 → 20.5 s (87.4 M → 91.1 M
/// nodes), 9x4 12.0 → 9.0 s. Doubling at 90 % full instead, or starting at 16 MiB, was slower.
///
/// 512 KiB rather than 4 MiB, half the second-level cache of a core here: the smallest boards
/// search in it, one thread, medians of 15-21 runs alternated: 4x4 309 → 258 µs, 4x6 5.6 → 4.3
/// ms, 6x4 6.1 → 5.3 ms, 5x5 10.0 → 8.8 ms, 4x8 64 → 56 ms (+12 % nodes); at two threads 4x6
/// −12 %, 6x4 −8 %, 4x8 the same over 41 rounds. Larger boards within noise (6x6, 8x4, 5x8,
/// 9x4, 7x6); Pons' L2_R1 26.2 → 24.0 µs a position, L1_R1 and L2_R2 −2 to −5 %.
pub const INITIAL_BYTES: usize = 512 << 10;

/// Buckets sampled (the first of the part in use) to tell how full it is.
const SAMPLE_BUCKETS: usize = 256;

/// The buckets a search starts in, of a table of `n`.
fn first_part(n: usize) -> usize {
    n.min(INITIAL_BYTES / std::mem::size_of::<Bucket>())
}

/// The bucket of `key` in a part of `mask + 1` buckets.
#[inline]
fn bucket_of(key: u64, mask: usize) -> usize {
    (key as usize ^ (key >> 32) as usize) & mask
}

/// A slot as stored: two atomic words, `check = key ^ data` and `data` (the packed bounds, move,
/// draft, work and age). A reader accepts a slot only if `check ^ data` is its key, so a slot
/// torn by two threads writing at once reads as a miss, never as another position's bounds
/// (Hyatt & Mann's lockless hashing). Relaxed atomics: plain loads and stores on x86-64.
#[derive(Debug)]
#[repr(C)]
struct AtomicSlot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Debug)]
#[repr(C, align(64))]
struct Bucket([AtomicSlot; WAYS]);

/// The buckets, in zeroed memory mapped from the system: all-zero bytes are a bucket of empty
/// slots (draft 0), which the kernel hands out for each page when it is first touched.
struct Buckets {
    map: memmap2::MmapMut,
    len: usize,
}

impl Buckets {
    /// `len` empty buckets, or none if the system has no such mapping to give.
    fn zeroed(len: usize) -> Option<Buckets> {
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let map = memmap2::MmapMut::map_anon(bytes).ok()?;
        // (A mapping starts on a page boundary, which is more than a bucket's alignment.)
        debug_assert_eq!(map.as_ptr() as usize % std::mem::align_of::<Bucket>(), 0);
        advise_huge_pages(&map);
        let buckets = Buckets { map, len };
        buckets.fault_in(first_part(len));
        Some(buckets)
    }

    /// Has the system zero the pages of the first `n` buckets now, where a search starts,
    /// instead of on its first stores: one write of zero (what the page holds anyway) per 4 KiB,
    /// which with huge pages zeroes each 2 MiB at its first. With a 4 MiB start this cost the
    /// search of a small board much: 7 % of 6x4's samples at two threads were the kernel zeroing
    /// a huge page under a store. (c4 clears its whole table before its clock starts.)
    fn fault_in(&self, n: usize) {
        for bucket in self[..n]
            .iter()
            .step_by(4096 / std::mem::size_of::<Bucket>())
        {
            bucket.0[0].check.store(0, Ordering::Relaxed);
        }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: the mapping is `len` buckets long and aligned for them (page-aligned); any bit
        // pattern is a valid `Bucket` (atomic words), and the slots are only ever read and
        // written through those atomics, so shared references may be used from every thread.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Bucket>(), self.len) }
    }
}

impl std::fmt::Debug for Buckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} buckets", self.len)
    }
}

/// The slot's fields but the key, in one word.
#[inline]
fn pack(s: &Slot) -> u64 {
    u64::from(s.lower as u16)
        | u64::from(s.upper as u16) << 16
        | u64::from(s.best) << 32
        | u64::from(s.draft) << 40
        | u64::from(s.work) << 48
        | u64::from(s.age) << 56
}

#[inline]
fn unpack(key: u64, d: u64) -> Slot {
    Slot {
        key,
        lower: d as u16 as i16,
        upper: (d >> 16) as u16 as i16,
        best: (d >> 32) as u8,
        draft: (d >> 40) as u8,
        work: (d >> 48) as u8,
        age: (d >> 56) as u8,
    }
}

impl AtomicSlot {
    #[inline]
    fn write(&self, s: &Slot) {
        let d = pack(s);
        self.data.store(d, Ordering::Relaxed);
        self.check.store(s.key ^ d, Ordering::Relaxed);
    }
}

#[inline]
pub(super) fn encode_lower(v: Score) -> i16 {
    if v < -BOUND_LIMIT {
        i16::MIN
    } else {
        v.min(BOUND_LIMIT) as i16
    }
}

#[inline]
pub(super) fn encode_upper(v: Score) -> i16 {
    if v > BOUND_LIMIT {
        i16::MAX
    } else {
        v.max(-BOUND_LIMIT) as i16
    }
}

/// A stored bound: `i16::MIN` is no lower bound (`-INF`), `i16::MAX` no upper bound (`INF`).
#[inline]
pub(super) fn decode_bound(b: i16) -> Score {
    match b {
        i16::MIN => -INF,
        i16::MAX => INF,
        b => Score::from(b),
    }
}

#[inline]
fn decode(s: &Slot) -> Entry {
    Entry {
        key: s.key,
        lower: decode_bound(s.lower),
        upper: decode_bound(s.upper),
        best: s.best,
        draft: s.draft,
        work: s.work,
    }
}

/// The table. Its memory is mapped at creation and zeroed page by page as it is first touched;
/// a search starts in only part of it, [`INITIAL_BYTES`], and doubles the part it uses each time
/// that part is full of the current search's entries, up to the whole
/// ([`TranspositionTable::grow_if_full`]).
///
/// ```
/// use gamesearch::solver::table::TranspositionTable;
/// let mut tt = TranspositionTable::with_bytes(1 << 20);
/// assert!(tt.bytes() <= 1 << 20);
/// tt.store(42, 3, 7, 1, 255, 10);
/// let e = tt.probe(42).unwrap();
/// assert_eq!((e.lower, e.upper, e.best), (3, 7, 1));
/// assert!(tt.probe(43).is_none());
/// ```
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Buckets,
    /// The buckets in use, a power of two minus one: the index of a key's bucket.
    bucket_mask: AtomicUsize,
    /// A thread is moving entries into a doubled part (the others go on meanwhile).
    growing: AtomicBool,
    /// The current search's number (atomic: solvers sharing the table each start searches).
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (at least one bucket), the bucket count a power of two.
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_with_bytes`] returns an error
    /// instead.
    pub fn with_bytes(bytes: usize) -> Self {
        match Self::try_with_bytes(bytes) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`TranspositionTable::with_bytes`], or [`Error::OutOfMemory`] when the table would be
    /// larger than the machine's physical memory or the allocation fails (a table the size of
    /// the machine's memory would only swap: refused before anything is touched).
    ///
    /// ```
    /// use gamesearch::solver::table::TranspositionTable;
    /// assert!(TranspositionTable::try_with_bytes(1 << 20).is_ok());
    /// assert!(TranspositionTable::try_with_bytes(usize::MAX / 2).is_err());
    /// ```
    pub fn try_with_bytes(bytes: usize) -> Result<Self, Error> {
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        let want = n * std::mem::size_of::<Bucket>();
        let out_of_memory = |available| Error::OutOfMemory {
            what: "transposition table",
            requested: want,
            available,
        };
        if let Some(total) = crate::memory::physical_bytes() {
            if want > total {
                return Err(out_of_memory(Some(total)));
            }
        }
        let buckets =
            Buckets::zeroed(n).ok_or_else(|| out_of_memory(crate::memory::physical_bytes()))?;
        Ok(TranspositionTable {
            buckets,
            bucket_mask: AtomicUsize::new(first_part(n) - 1),
            growing: AtomicBool::new(false),
            age: AtomicU8::new(0),
        })
    }

    /// Number of entries it can hold.
    pub fn len(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// Never empty (at least one bucket); for clippy's sake.
    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Bytes of memory the entries take.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Marks the start of a new search: entries stored before become the first to be replaced
    /// (they stay true and usable).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        bucket_of(key, self.bucket_mask.load(Ordering::Relaxed))
    }

    /// Starts loading `key`'s bucket into the cache (a hint; no effect on the contents), so
    /// that a probe shortly after does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.buckets[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: `p` points into the table; a prefetch never faults and changes nothing
            // observable.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored (and not torn by a concurrent write).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[self.bucket(key)];
        for slot in &b.0 {
            let d = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ d == key && (d >> 40) as u8 > 0 {
                return Some(decode(&unpack(key, d)));
            }
        }
        None
    }

    /// Stores bounds for `key` (`draft` 0 is stored as 1). An entry for the same key with the
    /// same draft has its bounds intersected with the new ones (both are true); one with a
    /// deeper draft keeps its bounds and takes the new move.
    ///
    /// Takes `&self`: threads share one table (a write racing another can lose one of them —
    /// a table may forget — but never make a slot wrong).
    #[inline]
    pub fn store(&self, key: u64, lower: Score, upper: Score, best: u8, draft: u8, work: u8) {
        // Now and then (one key in 16,384, whatever the keys are like), a look at how full the
        // part in use is.
        if key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50 == 0 {
            self.grow_if_full();
        }
        let age = self.age.load(Ordering::Relaxed);
        let i = self.bucket(key);
        let bucket = &self.buckets[i].0;
        let mut new = Slot {
            key,
            lower: encode_lower(lower),
            upper: encode_upper(upper),
            best,
            draft: draft.max(1),
            work,
            age,
        };
        // One pass: the same position is updated in place; otherwise the victim is an empty
        // slot, else an earlier search's, else the one that cost the least work.
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let d = slot.data.load(Ordering::Relaxed);
            let old = unpack(slot.check.load(Ordering::Relaxed) ^ d, d);
            if old.key == key && old.draft > 0 {
                if old.draft == new.draft {
                    new.lower = new.lower.max(old.lower);
                    new.upper = new.upper.min(old.upper);
                    new.work = new.work.max(old.work);
                } else if old.draft > new.draft {
                    new = Slot { best, age, ..old };
                }
                slot.write(&new);
                return;
            }
            let rank = (u32::from(old.draft > 0) << 16)
                | (u32::from(old.age == age) << 8)
                | u32::from(old.work);
            if rank < victim_rank {
                victim = i;
                victim_rank = rank;
            }
        }
        bucket[victim].write(&new);
    }

    /// Forgets everything (and goes back to the first part): a fresh mapping replaces the old
    /// one, or, if the system has none to give, every slot is emptied in place.
    pub fn clear(&mut self) {
        match Buckets::zeroed(self.buckets.len) {
            Some(fresh) => self.buckets = fresh,
            None => self.buckets.map.fill(0),
        }
        *self.bucket_mask.get_mut() = first_part(self.buckets.len()) - 1;
    }

    /// Bytes of the part in use now (at most [`TranspositionTable::bytes`]).
    pub fn used_bytes(&self) -> usize {
        (self.bucket_mask.load(Ordering::Relaxed) + 1) * std::mem::size_of::<Bucket>()
    }

    /// Thousandths of the slots in use that hold an entry of the current search, from the first
    /// buckets of the part in use (the keys spread evenly over the buckets).
    pub fn fill_permille(&self) -> usize {
        let age = self.age.load(Ordering::Relaxed);
        let n = (self.bucket_mask.load(Ordering::Relaxed) + 1).min(SAMPLE_BUCKETS);
        let full = self.buckets[..n]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|slot| {
                let d = slot.data.load(Ordering::Relaxed);
                (d >> 40) as u8 > 0 && (d >> 56) as u8 == age
            })
            .count();
        full * 1000 / (n * WAYS)
    }

    /// Doubles the part in use when every slot of its first buckets holds an entry of the
    /// current search, that is, when stores have begun to replace this search's entries
    /// ([`TranspositionTable::grow`]). [`TranspositionTable::store`] calls it now and then.
    ///
    /// ```
    /// use gamesearch::solver::table::{TranspositionTable, INITIAL_BYTES};
    /// let tt = TranspositionTable::with_bytes(4 * INITIAL_BYTES);
    /// assert_eq!(tt.used_bytes(), INITIAL_BYTES);
    /// for k in 1..=1_000_000u64 {
    ///     tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, 0, 0, 255, 1);
    /// }
    /// assert!(tt.used_bytes() > INITIAL_BYTES);
    /// ```
    pub fn grow_if_full(&self) {
        if self.fill_permille() == 1000 {
            self.grow();
        }
    }

    /// Doubles the part in use, unless it is the whole table or another thread is doubling it
    /// now: each entry whose key falls in the new half moves there. One thread does it while
    /// the others go on; a probe meanwhile may miss an entry being moved, and a store may land
    /// where probes no longer look (lost, as a replaced entry is), but no slot becomes wrong.
    pub fn grow(&self) {
        if self
            .growing
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        // (Read after taking the flag: a thread that doubled the part before has set it.)
        let mask = self.bucket_mask.load(Ordering::Acquire);
        if mask + 1 >= self.buckets.len() {
            self.growing.store(false, Ordering::Release);
            return;
        }
        let wider = mask * 2 + 1;
        for i in 0..=mask {
            for (k, slot) in self.buckets[i].0.iter().enumerate() {
                let d = slot.data.load(Ordering::Relaxed);
                let key = slot.check.load(Ordering::Relaxed) ^ d;
                let j = bucket_of(key, wider);
                if j != i && (d >> 40) as u8 > 0 {
                    // Its place in the new half: the same slot of bucket j, empty until now.
                    let to = &self.buckets[j].0[k];
                    to.data.store(d, Ordering::Relaxed);
                    to.check.store(key ^ d, Ordering::Relaxed);
                    slot.write(&EMPTY);
                }
            }
        }
        self.bucket_mask.store(wider, Ordering::Release);
        self.growing.store(false, Ordering::Release);
    }
}

/// Asks Linux for transparent huge pages behind the (not yet touched) mapping.
#[cfg(target_os = "linux")]
fn advise_huge_pages(map: &memmap2::MmapMut) {
    // A hint only: a kernel without transparent huge pages leaves the table as it is.
    let _ = map.advise(memmap2::Advice::HugePage);
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_map: &memmap2::MmapMut) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_and_buckets_have_the_documented_size() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<AtomicSlot>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn large_bounds_are_widened_never_made_false() {
        let mut tt = TranspositionTable::with_bytes(1 << 12);
        for (lo, hi) in [
            (-INF, 5),
            (40_000, INF),
            (-50_000, -40_000),
            (3, 3),
            (-7, 90_000),
        ] {
            tt.store(1, lo, hi, 0, 255, 0);
            let e = tt.probe(1).unwrap();
            assert!(e.lower <= lo && e.upper >= hi, "{lo},{hi} -> {e:?}");
            if lo.abs() <= BOUND_LIMIT && hi.abs() <= BOUND_LIMIT {
                assert_eq!((e.lower, e.upper), (lo, hi));
            }
            tt.clear();
        }
    }

    /// Doubling the part in use moves entries, never loses or changes one: every key stored
    /// before is found after, with its bounds, through each doubling up to the whole table.
    #[test]
    fn growing_keeps_every_entry() {
        let mut tt = TranspositionTable::with_bytes(8 * INITIAL_BYTES);
        let first = tt.used_bytes();
        assert_eq!(first, INITIAL_BYTES);
        let slots = first / 16;
        let keys: Vec<u64> = (1..=slots as u64 / 2)
            .map(|k| k.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ k)
            .collect();
        let bound = |k: u64| (k % 100) as Score;
        for &k in &keys {
            tt.store(k, bound(k), bound(k) + 1, (k % 7) as u8, 9, 3);
        }
        let kept: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| tt.probe(k).is_some())
            .collect();
        assert!(
            kept.len() > keys.len() * 9 / 10,
            "{} of {}",
            kept.len(),
            keys.len()
        );
        for doubling in 1..=3 {
            tt.grow();
            assert_eq!(tt.used_bytes(), first << doubling);
            for &k in &kept {
                let e = tt.probe(k).expect("an entry lost in growing");
                assert_eq!(
                    (e.lower, e.upper, e.best, e.draft),
                    (bound(k), bound(k) + 1, (k % 7) as u8, 9)
                );
            }
        }
        tt.grow(); // the whole table already: nothing changes
        assert_eq!(tt.used_bytes(), tt.bytes());
        assert!(kept.iter().all(|&k| tt.probe(k).is_some()));
        tt.clear();
        assert_eq!(tt.used_bytes(), first);
        assert!(kept.iter().all(|&k| tt.probe(k).is_none()));
    }

    /// The part in use doubles once full of this search's entries (not before), and an earlier
    /// search's entries do not count as full.
    #[test]
    fn the_part_in_use_doubles_when_full_of_this_searchs_entries() {
        let tt = TranspositionTable::with_bytes(4 * INITIAL_BYTES);
        let mut k = 0u64;
        let mut next = || {
            k += 1;
            k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        };
        for _ in 0..INITIAL_BYTES / 16 / 2 {
            tt.store(next(), 0, 0, 0, 255, 1);
        }
        assert_eq!(tt.used_bytes(), INITIAL_BYTES, "grew half full");
        while tt.used_bytes() == INITIAL_BYTES {
            tt.store(next(), 0, 0, 0, 255, 1);
        }
        assert_eq!(tt.used_bytes(), 2 * INITIAL_BYTES);
        assert!(tt.fill_permille() < 1000);
        tt.new_search();
        assert_eq!(tt.fill_permille(), 0);
    }

    #[test]
    fn replacement_keeps_costly_entries_of_this_search() {
        let tt = TranspositionTable::with_bytes(64); // one bucket
        for k in 1..=4u64 {
            tt.store(k, -INF, INF, 0, 255, 10 + k as u8);
        }
        tt.store(5, -INF, INF, 0, 255, 1); // replaces the least work: key 1
        assert!(tt.probe(1).is_none() && tt.probe(5).is_some());
        tt.new_search();
        tt.store(6, -INF, INF, 0, 255, 0); // an earlier search's entry goes first, however costly
        assert!(tt.probe(6).is_some());
        assert_eq!((1..=6).filter(|&k| tt.probe(k).is_some()).count(), 4);
        // Same key, same draft: bounds intersect; deeper draft wins.
        tt.store(6, -3, 5, 0, 255, 0);
        tt.store(6, 1, 9, 2, 255, 0);
        assert_eq!(
            tt.probe(6).map(|e| (e.lower, e.upper, e.best)),
            Some((1, 5, 2))
        );
        tt.store(6, -9, 9, 3, 4, 0);
        assert_eq!(
            tt.probe(6).map(|e| (e.lower, e.upper, e.best)),
            Some((1, 5, 3))
        );
    }
}
