//! Strong solving by retrograde analysis: every position reachable from a root, with its value
//! (win, draw or loss from MAX's view) and its **remoteness** (the plies to the end under perfect
//! play: the winner takes the shortest win, the loser the longest loss), on games whose
//! positions may repeat.
//!
//! Retrograde analysis (Thompson 1986) settles values backwards from the ends of the game
//! instead of searching forwards, so a line that comes back to a position it has seen is no
//! trouble: a position that neither side can force out of a cycle to its advantage is never
//! settled, and is a draw. Remoteness is Berlekamp, Conway & Guy's (1982).
//!
//! The analysis needs only what every game has ([`Game`] and a [`PositionKey`]): the moves, the
//! successor, `f(p)` at the end (its sign is the result: positive a win for MAX), and a key that
//! tells positions apart. It runs in three steps, each numbered in [`solve_strongly`]:
//!
//! 1. **Enumerate**: breadth first from the root, a number for each new key.
//! 2. **Turn the arrows round**: each position's predecessors, from the children found.
//! 3. **Settle backwards, a ply at a time**: the ends first; a position is won as soon as one
//!    child is won for its mover (that child is one ply nearer the end than any other winning
//!    child found later, so the win is the shortest), and lost when the last of its children
//!    is lost for its mover (the longest loss). What is left when nothing changes is a draw.
//!
//! A game may offer more, to go faster and smaller: its un-moves ([`UnMoves`]: the positions one
//! move before) for [`solve_by_unmoves`], which keeps only the keys; and a dense numbering of
//! its positions ([`DenseIndex`]) for [`solve_by_index`], which keeps a byte a number and no
//! key at all (Dōbutsu shōgi: 249 M numbers, 273 MiB).
//!
//! ```
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! use gamesearch::retrograde::{solve_strongly, RetrogradeConfig};
//! let s = solve_strongly(&Nim::new(9), &RetrogradeConfig::default()).unwrap();
//! let start = s.probe(&Nim::new(9)).unwrap();
//! // Nim (take 1 to 3, the last stone wins): 9 is won by taking one, leaving 8, a multiple of
//! // 4. The loser then makes it last: 8 → 7 → 4 → 3 → 0, so the win takes 5 plies.
//! assert_eq!((start.value, start.remoteness), (1, Some(5)));
//! assert_eq!(s.best_move(&Nim::new(9)), Some(1));
//! ```

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use crate::error::Error;
use crate::game::{Game, PositionKey, Score};
use crate::limits::Limits;

mod dense;
mod store;
mod unmoves;

pub use dense::{solve_by_index, DenseIndex, DenseSolution, DENSE_FILE_VERSION};
pub use store::{StrongSolution, FILE_VERSION};
pub use unmoves::{solve_by_unmoves, RetrogradeProgress, UnMoves};

/// What a strong solve may use.
#[derive(Clone, Debug)]
pub struct RetrogradeConfig {
    /// The most positions it may number: past it, the solve answers [`Error::TooLarge`].
    pub max_positions: u64,
    /// The most memory [`solve_by_unmoves`] and [`solve_by_index`] may take (their tables, codes,
    /// the result): they answer [`Error::TooLarge`], saying what they need, before passing it.
    /// Default: three quarters of the memory available when the config is made.
    /// [`solve_strongly`] keeps arrows instead (about 50 bytes a position and 8 an arrow) and is
    /// bounded by `max_positions`.
    pub max_bytes: u64,
    /// Threads for [`solve_by_unmoves`] and [`solve_by_index`] (at least 1).
    pub threads: usize,
    /// A stop flag and a time limit (checked every 4,096 positions); `max_nodes` is not used.
    pub limits: Limits,
    /// Where [`solve_by_unmoves`] and [`solve_by_index`] publish how far they have come, for
    /// another thread to show.
    pub progress: Option<Arc<RetrogradeProgress>>,
}

impl Default for RetrogradeConfig {
    fn default() -> Self {
        RetrogradeConfig {
            max_positions: 1 << 26,
            // Three quarters of the memory available now, as the searches that fill memory.
            max_bytes: crate::memory::default_tree_budget().map_or(16 << 30, |b| b as u64),
            threads: 1,
            limits: Limits::none(),
            progress: None,
        }
    }
}

/// A position's solution: `value` is +1 when MAX wins, −1 when MIN does, 0 a draw (by a
/// repetition neither side can leave, or a drawn end); `remoteness` the plies to the end under
/// perfect play (`None` for a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// +1, 0 or −1: the result for MAX.
    pub value: Score,
    /// Plies to the end: the shortest win, the longest loss; `None` for a draw.
    pub remoteness: Option<u32>,
}

/// How many positions the solve found, and how they end for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RetrogradeStats {
    /// Positions reachable from the root (distinct keys).
    pub positions: u64,
    /// Moves between them (a move to a position reached before counted too); for
    /// [`solve_by_unmoves`], the children that differ (moves to one key count once).
    pub arrows: u64,
    /// Positions where the game is over (no move).
    pub ends: u64,
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions that are draws.
    pub draws: u64,
    /// Positions lost for the side to move (the ends where it has lost among them).
    pub losses: u64,
    /// Seconds the whole solve took.
    pub seconds: f64,
}

/// `remoteness` of a position that has none: a draw, or (when stopped) not settled.
const NONE: u32 = u32::MAX;
/// The error for a remoteness past what a code holds (both solvers).
fn too_far() -> Error {
    Error::TooLarge(format!(
        "a position is more than {} plies from the end: past what a strong solution holds",
        store::MAX_REMOTENESS
    ))
}

/// The error for a game whose repetitions are not draws: retrograde analysis gives every
/// position it cannot settle the value of endless play, a draw.
pub(crate) fn endless_play_is_a_draw<G: Game>(root: &G) -> Result<(), Error> {
    let v = root.repetition_value();
    if G::REPEATS && v != 0 {
        return Err(Error::BadParameter(format!(
            "the game values a repetition at {v}, not as a draw: retrograde analysis values \
             endless play as a draw (what it cannot settle); solve one position with dfpn or \
             alphabeta-tt instead"
        )));
    }
    Ok(())
}

/// A move of `p` that keeps its value by `probe`: the fastest win, the slowest loss, or a move
/// to a draw (what both solutions' `best_move` answer).
fn best_move_by<G: Game>(p: &G, probe: impl Fn(&G) -> Option<Solved>) -> Option<G::Move> {
    let here = probe(p)?;
    let mover = p.to_move().sign();
    let mut best: Option<(G::Move, u32)> = None;
    for m in p.moves() {
        let Some(c) = probe(&p.play(m)) else {
            continue;
        };
        if c.value != here.value {
            continue;
        }
        let r = c.remoteness.unwrap_or(0);
        let better = match best {
            None => true,
            // The winner takes the nearest end, the loser the farthest.
            Some((_, b)) if here.value == mover => r < b,
            Some((_, b)) => here.value != 0 && r > b,
        };
        if better {
            best = Some((m, r));
        }
    }
    best.map(|(m, _)| m)
}

/// The pool of `cfg.threads` threads the multi-threaded solvers run on.
fn thread_pool(cfg: &RetrogradeConfig) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .build()
        .map_err(|e| Error::Threads {
            count: cfg.threads,
            message: e.to_string(),
        })
}

/// Set on an arrow whose child has the same side to move as its parent.
const SAME_SIDE: u32 = 1 << 31;

/// Solves every position reachable from `root` by retrograde analysis (see the module's
/// documentation): the game may repeat positions. The key must tell positions apart (two
/// positions with one key are taken for one).
pub fn solve_strongly<G: Game + PositionKey>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
    endless_play_is_a_draw(root)?;
    let start = Instant::now();
    let stopped =
        || cfg.limits.stop_requested() || cfg.limits.max_time.is_some_and(|t| start.elapsed() >= t);
    let too_many = || {
        Error::TooLarge(format!(
            "more than {} positions are reachable: the strong solve's limit (max_positions)",
            cfg.max_positions
        ))
    };

    // 1. Enumerate. Positions are numbered as they are found and expanded in that order, so
    //    position i's children are arrows[first_arrow[i]..first_arrow[i + 1]].
    //    An arrow is the child's number, with SAME_SIDE set when the child has the same side
    //    to move as its parent. Values are kept for the side to move (negamax), so that a key
    //    which leaves out whose turn it is (one position for both sides) works too.
    let mut index: HashMap<u64, u32> = HashMap::new();
    // Numbers are u32 below SAME_SIDE: at most 2^31 − 1 positions.
    let limit = cfg.max_positions.min(u64::from(SAME_SIDE - 1));
    let mut waiting: VecDeque<G> = VecDeque::new();
    let mut first_arrow: Vec<u64> = vec![0];
    let mut arrows: Vec<u32> = Vec::new();
    let mut end_value: Vec<i8> = Vec::new(); // the sign of f(p) for its mover at an end; 0 elsewhere
    index.insert(root.key(), 0);
    waiting.push_back(root.clone());
    while let Some(p) = waiting.pop_front() {
        if end_value.len() % 4096 == 4095 && stopped() {
            let positions = index.len() as u64;
            let stats = RetrogradeStats {
                positions,
                seconds: start.elapsed().as_secs_f64(),
                ..RetrogradeStats::default()
            };
            return Ok(StrongSolution::new(Vec::new(), Vec::new(), false, stats));
        }
        let before = arrows.len();
        for m in p.moves() {
            let child = p.play(m);
            let same = if child.to_move() == p.to_move() {
                SAME_SIDE
            } else {
                0
            };
            let next = index.len().min(NONE as usize) as u32;
            let id = match index.entry(child.key()) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    if u64::from(next) >= limit {
                        return Err(too_many());
                    }
                    e.insert(next);
                    waiting.push_back(child);
                    next
                }
            };
            arrows.push(id | same);
        }
        let end = arrows.len() == before;
        let v = if end {
            (p.evaluate() * p.to_move().sign()).signum() as i8
        } else {
            0
        };
        end_value.push(v);
        first_arrow.push(arrows.len() as u64);
    }
    let n = end_value.len();

    // 2. Turn the arrows round: the predecessors of j are from[first_from[j]..first_from[j + 1]]
    //    (a position with two moves to one child is its predecessor twice, as it has two arrows).
    let mut first_from = vec![0u64; n + 1];
    for &j in &arrows {
        first_from[(j & !SAME_SIDE) as usize + 1] += 1;
    }
    for j in 0..n {
        first_from[j + 1] += first_from[j];
    }
    let mut from = vec![0u32; arrows.len()];
    let mut fill: Vec<u64> = first_from[..n].to_vec();
    for i in 0..n {
        for a in first_arrow[i]..first_arrow[i + 1] {
            let j = (arrows[a as usize] & !SAME_SIDE) as usize;
            from[fill[j] as usize] = i as u32 | arrows[a as usize] & SAME_SIDE;
            fill[j] += 1;
        }
    }
    drop(fill);

    // 3. Settle backwards, a ply at a time. `value[i]`: +1 won for i's mover, −1 lost.
    //    `open[i]`: children of i not yet settled against i's mover; when it reaches 0, i is
    //    lost.
    let mut value = vec![0i8; n];
    let mut remoteness = vec![NONE; n];
    let mut settled = vec![false; n];
    let mut open: Vec<u32> = (0..n)
        .map(|i| (first_arrow[i + 1] - first_arrow[i]) as u32)
        .collect();
    let mut ply: Vec<u32> = Vec::new();
    let mut ends = 0;
    for i in 0..n {
        if open[i] == 0 {
            ends += 1;
            // No move: an end.
            settled[i] = true;
            value[i] = end_value[i];
            if end_value[i] != 0 {
                remoteness[i] = 0;
                ply.push(i as u32); // a drawn end settles nothing above it
            }
        }
    }
    let mut r = 0u32;
    let mut done = 0usize;
    while !ply.is_empty() {
        if r + 1 > store::MAX_REMOTENESS {
            return Err(too_far());
        }
        let mut next = Vec::new();
        for &q in &ply {
            done += 1;
            if done % 4096 == 0 && stopped() {
                let s = Numbered {
                    ends,
                    index,
                    settled,
                    value,
                    remoteness,
                };
                return Ok(s.finish(false, start, arrows.len()));
            }
            let q = q as usize;
            for k in first_from[q]..first_from[q + 1] {
                let arrow = from[k as usize];
                let p = (arrow & !SAME_SIDE) as usize;
                if settled[p] {
                    continue;
                }
                let same_side = arrow & SAME_SIDE != 0;
                if (value[q] == 1) == same_side {
                    // A child won for p's mover: p is won, by the shortest way (this ply).
                    settled[p] = true;
                    value[p] = 1;
                    remoteness[p] = r + 1;
                    next.push(p as u32);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 {
                        // The last of p's children lost for its mover: p is lost, as late as can be.
                        settled[p] = true;
                        value[p] = -1;
                        remoteness[p] = r + 1;
                        next.push(p as u32);
                    }
                }
            }
        }
        ply = next;
        r += 1;
    }
    // What is left unsettled is a draw: value 0, no remoteness.
    let s = Numbered {
        ends,
        index,
        settled,
        value,
        remoteness,
    };
    Ok(s.finish(true, start, arrows.len()))
}

/// What the arrows' solve found, numbered, turned into a [`StrongSolution`]: keys sorted,
/// each with its code for the side to move.
struct Numbered {
    ends: u64,
    index: HashMap<u64, u32>,
    settled: Vec<bool>,
    value: Vec<i8>,
    remoteness: Vec<u32>,
}

impl Numbered {
    fn finish(self, complete: bool, start: Instant, arrows: usize) -> StrongSolution {
        let mut stats = RetrogradeStats {
            positions: self.value.len() as u64,
            arrows: arrows as u64,
            ends: self.ends,
            ..RetrogradeStats::default()
        };
        let mut pairs: Vec<(u64, u16)> = Vec::with_capacity(self.index.len());
        for (&key, &i) in &self.index {
            let i = i as usize;
            let (v, r) = (self.value[i], self.remoteness[i]);
            let code = if !(complete || self.settled[i]) {
                store::UNKNOWN // unsettled when stopped: not a draw
            } else {
                match v {
                    1 => stats.wins += 1,
                    -1 => stats.losses += 1,
                    _ => stats.draws += 1,
                }
                match (v, r) {
                    (_, NONE) => store::DRAW,
                    (v, r) => store::code(v == 1, r),
                }
            };
            pairs.push((key, code));
        }
        pairs.sort_unstable_by_key(|&(k, _)| k);
        stats.seconds = start.elapsed().as_secs_f64();
        let (keys, codes) = pairs.into_iter().unzip();
        StrongSolution::new(keys, codes, complete, stats)
    }
}

/// Asks the processor to bring `p` into the cache: a hint, so that loads issued together
/// overlap their misses.
#[inline]
fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
    unsafe {
        core::arch::x86_64::_mm_prefetch(
            p as *const T as *const i8,
            core::arch::x86_64::_MM_HINT_T0,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
