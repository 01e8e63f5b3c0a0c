//! What the two solvers by key ([`solve_strongly`](super::solve_strongly) and
//! [`solve_by_unmoves`](super::solve_by_unmoves)) share: the open-addressing table of keys
//! whose slot is a position's number, one predecessor settled by a child, and the result kept
//! as keys sorted beside their codes.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::prefetch;
use super::store::{self, StrongSolution, DRAW, UNKNOWN, WIN};
use super::{RetrogradeProgress, RetrogradeStats};
use crate::error::Error;

/// Marks an empty slot (a key may not be this value).
pub(super) const EMPTY: u64 = u64::MAX;
/// The table grows past this load.
pub(super) const MAX_LOAD: f64 = 0.75;

/// The error for a position whose key is [`EMPTY`].
pub(super) fn reserved() -> Error {
    Error::BadParameter(
        "a position's key is u64::MAX, which the strong solver keeps for empty slots".into(),
    )
}

/// The error for more positions than `max_positions` (`found` so far).
pub(super) fn too_many(max_positions: u64, found: u64) -> Error {
    Error::TooLarge(format!(
        "more than {max_positions} positions are reachable (found {found}): the strong solve's limit (max_positions)"
    ))
}

/// What a solve stopped before it settled anything answers: `positions` found, none settled.
pub(super) fn stopped_early(start: Instant, positions: u64) -> StrongSolution {
    let stats = RetrogradeStats {
        positions,
        seconds: start.elapsed().as_secs_f64(),
        ..RetrogradeStats::default()
    };
    StrongSolution::new(Vec::new(), Vec::new(), false, stats)
}

/// The open-addressing table of keys (linear probing, filled from every thread without locks).
pub(super) struct Keys {
    pub(super) slots: Vec<AtomicU64>,
    pub(super) bits: u32,
    pub(super) len: AtomicU64,
}

#[inline]
fn mix(key: u64) -> u64 {
    let h = (key ^ key >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ h >> 29
}

impl Keys {
    pub(super) fn new(bits: u32) -> Keys {
        Keys {
            slots: (0..1usize << bits)
                .into_par_iter()
                .map(|_| AtomicU64::new(EMPTY))
                .collect(),
            bits,
            len: AtomicU64::new(0),
        }
    }

    pub(super) fn capacity(&self) -> u64 {
        1 << self.bits
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (mix(key) >> (64 - self.bits)) as usize
    }

    /// Brings `key`'s home slot into the cache (before a batch of lookups).
    #[inline]
    pub(super) fn touch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    /// The slot of `key`, if it is in the table.
    #[inline]
    pub(super) fn find(&self, key: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            match self.slots[i].load(Ordering::Relaxed) {
                k if k == key => return Some(i),
                EMPTY => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Puts `key` in (from any thread): its slot, and whether this call put it there.
    #[inline]
    pub(super) fn insert(&self, key: u64) -> (usize, bool) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            match slot.load(Ordering::Relaxed) {
                k if k == key => return (i, false),
                EMPTY => {
                    match slot.compare_exchange(EMPTY, key, Ordering::Relaxed, Ordering::Relaxed) {
                        Ok(_) => {
                            self.len.fetch_add(1, Ordering::Relaxed);
                            return (i, true);
                        }
                        Err(k) if k == key => return (i, false),
                        Err(_) => i = (i + 1) & mask,
                    }
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The same keys in a table twice the size, each slot's `counts` moved with its key.
    pub(super) fn grown(self, counts: Option<Vec<AtomicU32>>) -> (Keys, Option<Vec<AtomicU32>>) {
        let bigger = Keys::new(self.bits + 1);
        let moved: Option<Vec<AtomicU32>> = counts.as_ref().map(|_| {
            (0..bigger.slots.len())
                .into_par_iter()
                .map(|_| AtomicU32::new(0))
                .collect()
        });
        self.slots.into_par_iter().enumerate().for_each(|(i, k)| {
            let k = k.into_inner();
            if k != EMPTY {
                let (to, _) = bigger.insert(k);
                if let (Some(from), Some(moved)) = (&counts, &moved) {
                    moved[to].store(from[i].load(Ordering::Relaxed), Ordering::Relaxed);
                }
            }
        });
        (bigger, moved)
    }
}

/// How the breadth-first walk of [`enumerate`] goes on: what it checks between batches.
pub(super) struct Walk<'a> {
    /// Whether to stop (the solve's stop flag and time limit).
    pub stopped: &'a (dyn Fn() -> bool + Sync),
    /// Before the table grows to `2^bits` slots with `len` keys in: an error if it may not.
    pub may_grow: &'a dyn Fn(u32, u64) -> Result<(), Error>,
    /// After each batch: an error that `expand` flagged.
    pub check: &'a dyn Fn() -> Result<(), Error>,
    /// The most keys: past it, the error [`too_many`] for `max_positions`.
    pub limit: u64,
    /// The limit the user gave (`limit` may be lower: what the solver numbers).
    pub max_positions: u64,
}

/// Fills `keys` breadth first from `root`: `expand(item, keys, counts, scratch, new)` (`scratch`
/// kept from item to item, one a chunk) puts the item's
/// children's keys in (counting into `counts`, by slot, when there are counts), pushes onto
/// `new` the children it was first to put in, and says how many children the item had. A
/// batch of a ply is expanded only when the table has room for every child it could add (at
/// the most children an item has had so far); else the table grows first, `counts` moved
/// with their keys. The most items in one ply, or `None` when stopped.
pub(super) fn enumerate<T: Send + Sync, S: Default>(
    keys: &mut Keys,
    counts: &mut Option<Vec<AtomicU32>>,
    root: T,
    progress: &RetrogradeProgress,
    walk: &Walk<'_>,
    expand: impl Fn(&T, &Keys, Option<&[AtomicU32]>, &mut S, &mut Vec<T>) -> usize + Sync,
) -> Result<Option<usize>, Error> {
    let mut frontier = vec![root];
    let mut widest = 1;
    let most_children = AtomicU64::new(1);
    while !frontier.is_empty() {
        let mut next: Vec<T> = Vec::new();
        let mut done = 0;
        while done < frontier.len() {
            if (walk.stopped)() {
                return Ok(None);
            }
            let len = keys.len.load(Ordering::Relaxed);
            // (A batch may add more than planned when an item has more children than any
            // before: the load then passes MAX_LOAD a little, never the table's size.)
            let room = ((keys.capacity() as f64 * MAX_LOAD) as u64).saturating_sub(len);
            let batch = (room / most_children.load(Ordering::Relaxed)) as usize;
            if batch < 4096.min(frontier.len() - done) {
                (walk.may_grow)(keys.bits + 1, len)?;
                let (bigger, moved) = std::mem::replace(keys, Keys::new(0)).grown(counts.take());
                *keys = bigger;
                *counts = moved;
                continue;
            }
            let end = frontier.len().min(done + batch.max(1));
            let table: &Keys = keys;
            let found: Vec<Vec<T>> = frontier[done..end]
                .par_chunks(1024)
                .map(|chunk| {
                    let mut new = Vec::new();
                    let mut scratch = S::default();
                    if (walk.stopped)() {
                        return new; // the batch ends at once; the loop above says stopped
                    }
                    for item in chunk {
                        let children =
                            expand(item, table, counts.as_deref(), &mut scratch, &mut new);
                        most_children.fetch_max(children as u64, Ordering::Relaxed);
                    }
                    new
                })
                .collect();
            (walk.check)()?;
            if (walk.stopped)() {
                return Ok(None);
            }
            next.extend(found.into_iter().flatten());
            done = end;
            let len = keys.len.load(Ordering::Relaxed);
            progress.positions.store(len, Ordering::Relaxed);
            if len > walk.limit {
                return Err(too_many(walk.max_positions, len));
            }
        }
        frontier = next;
        widest = widest.max(frontier.len());
    }
    Ok(Some(widest))
}

/// A predecessor `p` (by its number in `codes` and `open`) of a child settled at ply `r`:
/// `win_for_p` when the child is a win for `p`'s mover. `p` is won at `r + 1` by its first
/// such child (the shortest win), lost at `r + 1` when the last of its open children is
/// settled against it (the longest loss). True when this call settled `p`.
#[inline]
pub(super) fn settle(
    codes: &[AtomicU16],
    open: &[AtomicU16],
    p: usize,
    win_for_p: bool,
    r: u32,
) -> bool {
    if codes[p].load(Ordering::Relaxed) != UNKNOWN {
        return false;
    }
    let settle_as = |won| {
        codes[p]
            .compare_exchange(
                UNKNOWN,
                store::code(won, r + 1),
                Ordering::Relaxed,
                Ordering::Relaxed,
            )
            .is_ok()
    };
    if win_for_p {
        settle_as(true)
    } else {
        open[p].fetch_sub(1, Ordering::Relaxed) == 1 && settle_as(false)
    }
}

/// Settles backwards, a ply at a time, from `ply` (the ends won or lost, at remoteness 0), on
/// every thread of the pool: `turn_back(q, won, r, scratch, next)` takes position `q`, settled
/// at `r` (`won` for its mover), to its predecessors, pushing onto `next` those it settles.
/// True when it went to the end, false when stopped.
pub(super) fn settle_by_plies<S: Default>(
    mut ply: Vec<u32>,
    codes: &[AtomicU16],
    progress: &RetrogradeProgress,
    stopped: &(impl Fn() -> bool + Sync),
    turn_back: impl Fn(usize, bool, u32, &mut S, &mut Vec<u32>) + Sync,
) -> Result<bool, Error> {
    progress.phase.store(2, Ordering::Relaxed);
    let mut r = 0u32;
    let settled_count = AtomicU64::new(ply.len() as u64);
    while !ply.is_empty() {
        if r + 1 > store::MAX_REMOTENESS {
            return Err(super::too_far());
        }
        if stopped() {
            return Ok(false);
        }
        progress.ply.store(r, Ordering::Relaxed);
        let next: Vec<Vec<u32>> = ply
            .par_chunks(256)
            .map(|chunk| {
                let mut next = Vec::new();
                let mut scratch = S::default();
                if stopped() {
                    return next; // the ply ends at once; the loop above says stopped
                }
                for &q in chunk {
                    let q = q as usize;
                    let won = codes[q].load(Ordering::Relaxed) & WIN != 0;
                    turn_back(q, won, r, &mut scratch, &mut next);
                }
                settled_count.fetch_add(next.len() as u64, Ordering::Relaxed);
                progress
                    .settled
                    .store(settled_count.load(Ordering::Relaxed), Ordering::Relaxed);
                next
            })
            .collect();
        if stopped() {
            return Ok(false);
        }
        ply = next.into_iter().flatten().collect();
        r += 1;
    }
    Ok(true)
}

/// The code of an end for its mover, from `f(p)` for that mover: won, lost or a drawn end.
pub(super) fn end_code(value_for_mover: crate::game::Score) -> u16 {
    match value_for_mover.signum() {
        1 => WIN,
        -1 => 0,
        _ => DRAW,
    }
}

/// The solution kept: `keys`' keys sorted, each with `code_of(its slot)` (what is still
/// unknown after a complete solve is a draw), and the wins, draws and losses counted into
/// `stats`, with the seconds since `start`.
pub(super) fn keep(
    keys: &Keys,
    code_of: impl Fn(usize) -> u16 + Sync,
    complete: bool,
    mut stats: RetrogradeStats,
    start: Instant,
) -> StrongSolution {
    let mut sorted: Vec<u64> = keys
        .slots
        .par_iter()
        .map(|k| k.load(Ordering::Relaxed))
        .filter(|&k| k != EMPTY)
        .collect();
    sorted.par_sort_unstable();
    let codes: Vec<u16> = sorted
        .par_iter()
        .map(|&k| {
            let c = code_of(keys.find(k).expect("a key of the table"));
            if complete && c == UNKNOWN {
                DRAW
            } else {
                c
            }
        })
        .collect();
    for &c in &codes {
        match c {
            UNKNOWN => {}
            DRAW => stats.draws += 1,
            c if c & WIN != 0 => stats.wins += 1,
            _ => stats.losses += 1,
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    StrongSolution::new(sorted, codes, complete, stats)
}
