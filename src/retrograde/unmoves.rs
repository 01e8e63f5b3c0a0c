//! Strong solving with the game's un-moves: no arrows kept, only the keys of the positions
//! (in an open-addressing table whose slot is the position's number) and two bytes a slot
//! each for the open children and the result. The predecessors a settled position needs are
//! made again from its key when it is settled, by [`UnMoves`].
//!
//! The steps are those of [`solve_strongly`](super::solve_strongly), run on every thread:
//! 1. **Enumerate** breadth first, a batch of the frontier at a time, inserting children's keys
//!    into the table without locks;
//! 2. **Count** each position's moves (its open children), and settle the ends;
//! 3. **Settle backwards, a ply at a time**: each position settled at ply `r` is turned back
//!    into its predecessors; a predecessor is won at `r + 1` by its first child lost for its
//!    opponent, lost at `r + 1` when its last child is won for its opponent;
//! 4. **Keep**: the keys sorted, each with its code, as a [`StrongSolution`].

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::prefetch;
use super::store::{self, StrongSolution, DRAW, UNKNOWN, WIN};
use super::{RetrogradeConfig, RetrogradeStats};
use crate::error::{human_bytes, Error};
use crate::game::{Game, PositionKey};

/// What a game offers the strong solver to go faster and smaller than with its moves alone:
/// the position of a key, and the positions one move before a position.
///
/// The key must be exact on the positions reachable from the root: two positions with one key
/// are taken for one, from the side to move's view (a key that leaves out whose turn it is
/// serves a game whose sides play alike, as Dōbutsu shōgi's does).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::retrograde::{solve_by_unmoves, solve_strongly, RetrogradeConfig};
/// // Nim implements UnMoves (docs/nim.rs): both solvers agree on every position.
/// let cfg = RetrogradeConfig::default();
/// let by_arrows = solve_strongly(&Nim::new(12), &cfg).unwrap();
/// let by_unmoves = solve_by_unmoves(&Nim::new(12), &cfg).unwrap();
/// for pile in 0..=12 {
///     let p = Nim::new(pile);
///     assert_eq!(by_arrows.probe(&p), by_unmoves.probe(&p), "pile {pile}");
/// }
/// ```
pub trait UnMoves: PositionKey + Send + Sync {
    /// The position whose key is `key`, `None` when no position has it. `self` is any position
    /// of the game (it carries the rules: sizes, variants).
    fn position_of(&self, key: u64) -> Option<Self>;

    /// Calls `each` with every position from which one move leads to `self` (or to a position
    /// with its key), at least once each. Positions that cannot be reached, or that are already
    /// over, may be given too: the solver skips them.
    fn unmoves(&self, each: impl FnMut(Self));
}

/// How far a strong solve has come, for another thread to show: the phase (see
/// [`phase`](Self::phase)), the positions found, the positions settled, the ply being settled.
#[derive(Debug, Default)]
pub struct RetrogradeProgress {
    /// 0 enumerating, 1 counting moves, 2 settling, 3 keeping the result.
    pub phase: AtomicU8,
    /// Positions found so far.
    pub positions: AtomicU64,
    /// Positions settled so far (won or lost).
    pub settled: AtomicU64,
    /// The ply being settled.
    pub ply: AtomicU32,
}

impl RetrogradeProgress {
    /// The phase in words.
    pub fn phase(&self) -> &'static str {
        match self.phase.load(Ordering::Relaxed) {
            0 => "enumerating",
            1 => "counting moves",
            2 => "settling",
            _ => "keeping",
        }
    }
}

/// The error for a position whose key is [`EMPTY`].
fn reserved() -> Error {
    Error::BadParameter(
        "a position's key is u64::MAX, which the strong solver keeps for empty slots".into(),
    )
}

/// Marks an empty slot (a key may not be this value).
const EMPTY: u64 = u64::MAX;
/// Bytes a slot costs once the solve settles: its key, its open children, its code.
const SLOT_BYTES: u64 = 12;
/// The table grows past this load.
const MAX_LOAD: f64 = 0.75;

/// The open-addressing table of keys: a position's number is its slot.
struct Keys {
    slots: Vec<AtomicU64>,
    bits: u32,
    len: AtomicU64,
}

#[inline]
fn mix(key: u64) -> u64 {
    let h = (key ^ key >> 31).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ h >> 29
}

impl Keys {
    fn new(bits: u32) -> Keys {
        Keys {
            slots: (0..1usize << bits).map(|_| AtomicU64::new(EMPTY)).collect(),
            bits,
            len: AtomicU64::new(0),
        }
    }

    fn capacity(&self) -> u64 {
        1 << self.bits
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (mix(key) >> (64 - self.bits)) as usize
    }

    #[inline]
    fn touch(&self, key: u64) {
        prefetch(&self.slots[self.home(key)]);
    }

    /// The slot of `key`, if it is in the table.
    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
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

    /// Puts `key` in (from any thread); true when it was not there.
    #[inline]
    fn insert(&self, key: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            match slot.load(Ordering::Relaxed) {
                k if k == key => return false,
                EMPTY => {
                    match slot.compare_exchange(EMPTY, key, Ordering::Relaxed, Ordering::Relaxed) {
                        Ok(_) => {
                            self.len.fetch_add(1, Ordering::Relaxed);
                            return true;
                        }
                        Err(k) if k == key => return false,
                        Err(_) => i = (i + 1) & mask,
                    }
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The same keys in a table twice the size.
    fn grown(self) -> Keys {
        let bigger = Keys::new(self.bits + 1);
        self.slots.into_par_iter().for_each(|k| {
            let k = k.into_inner();
            if k != EMPTY {
                bigger.insert(k);
            }
        });
        bigger
    }
}

/// Solves every position reachable from `root` as [`solve_strongly`](super::solve_strongly)
/// does, from the game's [`UnMoves`] instead of kept arrows: about 12 bytes a table slot (a
/// slot per 0.75 position at most) and 10 a position at the end, on `cfg.threads` threads.
/// Refuses, before the table would pass `cfg.max_bytes`, with [`Error::TooLarge`].
pub fn solve_by_unmoves<G: Game + UnMoves>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    super::endless_play_is_a_draw(root)?;
    super::thread_pool(cfg)?.install(|| solve_in_pool(root, cfg))
}

fn solve_in_pool<G: Game + UnMoves>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    let start = Instant::now();
    let stopped =
        || cfg.limits.stop_requested() || cfg.limits.max_time.is_some_and(|t| start.elapsed() >= t);
    let progress = cfg.progress.clone().unwrap_or_default();
    let limit = cfg.max_positions.min(u64::from(u32::MAX) - 1);
    let too_many = |found: u64| {
        Error::TooLarge(format!(
            "more than {} positions are reachable (found {found}): the strong solve's limit (max_positions)",
            cfg.max_positions
        ))
    };
    let unreadable = |key: u64| {
        Error::BadParameter(format!(
            "the game's position_of does not read back the key {key:#x} of a position it played"
        ))
    };
    let fits = |bits: u32, len: u64| {
        if bits > 32 {
            // Slots are numbered in u32.
            return Err(Error::TooLarge(format!(
                "more than 2^32 table slots ({len} positions found so far): past what solve_by_unmoves numbers"
            )));
        }
        let need = (1u64 << bits) * SLOT_BYTES + len * 10;
        if need > cfg.max_bytes {
            return Err(Error::TooLarge(format!(
                "the strong solve needs at least {} ({len} positions found so far, a table of {} slots \
                 at {SLOT_BYTES} bytes and 10 bytes a position kept); the limit is {} (max_bytes)",
                human_bytes(need as usize),
                1u64 << bits,
                human_bytes(cfg.max_bytes as usize)
            )));
        }
        Ok(())
    };
    let stopped_early = |positions: u64| {
        let stats = RetrogradeStats {
            positions,
            seconds: start.elapsed().as_secs_f64(),
            ..RetrogradeStats::default()
        };
        Ok(StrongSolution::new(Vec::new(), Vec::new(), false, stats))
    };

    // 1. Enumerate, breadth first. A batch of the frontier is expanded only when the table has
    //    room for every child it could add (at the most moves a position has had so far).
    let mut keys = Keys::new(16);
    let root_key = root.key();
    if root_key == EMPTY {
        return Err(reserved());
    }
    keys.insert(root_key);
    let mut frontier = vec![root_key];
    let most_moves = AtomicU64::new(1);
    let bad_key = AtomicU64::new(EMPTY);
    let reserved_key = AtomicBool::new(false);
    while !frontier.is_empty() {
        let mut next: Vec<u64> = Vec::new();
        let mut done = 0;
        while done < frontier.len() {
            if stopped() {
                return stopped_early(keys.len.load(Ordering::Relaxed));
            }
            let len = keys.len.load(Ordering::Relaxed);
            // (A batch may add more than planned when a position has more moves than any before:
            // the load then passes MAX_LOAD a little, never the table's size.)
            let room = ((keys.capacity() as f64 * MAX_LOAD) as u64).saturating_sub(len);
            let batch = (room / most_moves.load(Ordering::Relaxed)) as usize;
            if batch < 4096.min(frontier.len() - done) {
                fits(keys.bits + 1, len)?;
                keys = keys.grown();
                continue;
            }
            let end = frontier.len().min(done + batch.max(1));
            let found: Vec<Vec<u64>> = frontier[done..end]
                .par_chunks(1024)
                .map(|chunk| {
                    let mut new = Vec::new();
                    let mut children: Vec<u64> = Vec::with_capacity(64);
                    if stopped() {
                        return new; // the batch ends at once; the loop above says stopped
                    }
                    for &key in chunk {
                        let Some(p) = root.position_of(key) else {
                            bad_key.store(key, Ordering::Relaxed);
                            continue;
                        };
                        children.clear();
                        for m in p.moves() {
                            let k = p.play(m).key();
                            keys.touch(k);
                            children.push(k);
                        }
                        most_moves.fetch_max(children.len() as u64, Ordering::Relaxed);
                        for &k in &children {
                            if k == EMPTY {
                                reserved_key.store(true, Ordering::Relaxed);
                            } else if keys.insert(k) {
                                new.push(k);
                            }
                        }
                    }
                    new
                })
                .collect();
            if bad_key.load(Ordering::Relaxed) != EMPTY {
                return Err(unreadable(bad_key.load(Ordering::Relaxed)));
            }
            if reserved_key.load(Ordering::Relaxed) {
                return Err(reserved());
            }
            if stopped() {
                return stopped_early(keys.len.load(Ordering::Relaxed));
            }
            next.extend(found.into_iter().flatten());
            done = end;
            let len = keys.len.load(Ordering::Relaxed);
            progress.positions.store(len, Ordering::Relaxed);
            if len > limit {
                return Err(too_many(len));
            }
        }
        frontier = next;
    }
    drop(frontier);
    let n = keys.len.load(Ordering::Relaxed);
    fits(keys.bits, n)?;

    // 2. Count each position's moves; the ends are settled here (won or lost at 0 plies, or a
    //    drawn end that settles nothing above it).
    progress.phase.store(1, Ordering::Relaxed);
    let slots = keys.slots.len();
    let arrows = AtomicU64::new(0);
    let ends = AtomicU64::new(0);
    let too_wide = AtomicBool::new(false);
    let codes: Vec<AtomicU16> = (0..slots)
        .into_par_iter()
        .map(|_| AtomicU16::new(UNKNOWN))
        .collect();
    let open: Vec<AtomicU16> = (0..slots)
        .into_par_iter()
        .map(|i| {
            let key = keys.slots[i].load(Ordering::Relaxed);
            if key == EMPTY {
                return AtomicU16::new(0);
            }
            let Some(p) = root.position_of(key) else {
                bad_key.store(key, Ordering::Relaxed);
                return AtomicU16::new(0);
            };
            // The children that differ (moves to one key are one child: the open count is
            // taken off once per child settled).
            let mut children: arrayvec::ArrayVec<u64, 256> = arrayvec::ArrayVec::new();
            let mut count = 0usize;
            for m in p.moves() {
                let k = p.play(m).key();
                if !children.contains(&k) {
                    if children.try_push(k).is_err() {
                        too_wide.store(true, Ordering::Relaxed);
                    }
                    count += 1;
                }
            }
            arrows.fetch_add(count as u64, Ordering::Relaxed);
            if count == 0 {
                ends.fetch_add(1, Ordering::Relaxed);
                let v = p.evaluate() * p.to_move().sign();
                let code = match v.signum() {
                    1 => WIN,
                    -1 => 0,
                    _ => DRAW,
                };
                codes[i].store(code, Ordering::Relaxed);
            }
            AtomicU16::new(count.min(usize::from(u16::MAX)) as u16)
        })
        .collect();
    if bad_key.load(Ordering::Relaxed) != EMPTY {
        return Err(unreadable(bad_key.load(Ordering::Relaxed)));
    }
    if too_wide.load(Ordering::Relaxed) {
        return Err(Error::TooLarge(
            "a position has more than 256 different children: past what solve_by_unmoves counts"
                .into(),
        ));
    }
    let mut ply: Vec<u32> = (0..slots as u32)
        .into_par_iter()
        .filter(|&i| matches!(codes[i as usize].load(Ordering::Relaxed), 0 | WIN))
        .collect();

    // 3. Settle backwards, a ply at a time.
    progress.phase.store(2, Ordering::Relaxed);
    let mut r = 0u32;
    let settled_count = AtomicU64::new(ply.len() as u64);
    let mut complete = true;
    while !ply.is_empty() {
        if r + 1 > store::MAX_REMOTENESS {
            return Err(super::too_far());
        }
        if stopped() {
            complete = false;
            break;
        }
        progress.ply.store(r, Ordering::Relaxed);
        let next: Vec<Vec<u32>> = ply
            .par_chunks(256)
            .map(|chunk| {
                let mut next = Vec::new();
                let mut before: Vec<(u64, bool)> = Vec::with_capacity(128);
                if stopped() {
                    return next; // the ply ends at once; the loop above says stopped
                }
                for &q in chunk {
                    let q = q as usize;
                    let Some(c) = root.position_of(keys.slots[q].load(Ordering::Relaxed)) else {
                        continue;
                    };
                    let c_won = codes[q].load(Ordering::Relaxed) & WIN != 0;
                    before.clear();
                    c.unmoves(|p| {
                        let k = p.key();
                        keys.touch(k);
                        before.push((k, p.to_move() == c.to_move()));
                    });
                    // Each predecessor once: its open count counts children, not moves.
                    before.sort_unstable();
                    before.dedup();
                    for &(k, same_side) in &before {
                        let Some(p) = keys.find(k) else {
                            continue; // not reachable from the root
                        };
                        if codes[p].load(Ordering::Relaxed) != UNKNOWN {
                            continue;
                        }
                        // Whether this child is a win for p's mover.
                        if c_won == same_side {
                            if codes[p]
                                .compare_exchange(
                                    UNKNOWN,
                                    store::code(true, r + 1),
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                            {
                                next.push(p as u32);
                            }
                        } else if open[p].fetch_sub(1, Ordering::Relaxed) == 1
                            && codes[p]
                                .compare_exchange(
                                    UNKNOWN,
                                    store::code(false, r + 1),
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                        {
                            next.push(p as u32);
                        }
                    }
                }
                settled_count.fetch_add(next.len() as u64, Ordering::Relaxed);
                progress
                    .settled
                    .store(settled_count.load(Ordering::Relaxed), Ordering::Relaxed);
                next
            })
            .collect();
        if stopped() {
            complete = false;
            break;
        }
        ply = next.into_iter().flatten().collect();
        r += 1;
    }
    drop(open);

    // 4. Keep: the keys sorted, each with its code (what is still unknown after a complete
    //    solve is a draw).
    progress.phase.store(3, Ordering::Relaxed);
    let mut sorted: Vec<u64> = keys
        .slots
        .par_iter()
        .map(|k| k.load(Ordering::Relaxed))
        .filter(|&k| k != EMPTY)
        .collect();
    sorted.par_sort_unstable();
    let sorted_codes: Vec<u16> = sorted
        .par_iter()
        .map(|&k| {
            let c = codes[keys.find(k).expect("a key of the table")].load(Ordering::Relaxed);
            if complete && c == UNKNOWN {
                DRAW
            } else {
                c
            }
        })
        .collect();
    let mut stats = RetrogradeStats {
        positions: n,
        arrows: arrows.load(Ordering::Relaxed),
        ends: ends.load(Ordering::Relaxed),
        ..RetrogradeStats::default()
    };
    for &c in &sorted_codes {
        match c {
            UNKNOWN => {}
            DRAW => stats.draws += 1,
            c if c & WIN != 0 => stats.wins += 1,
            _ => stats.losses += 1,
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(StrongSolution::new(sorted, sorted_codes, complete, stats))
}
