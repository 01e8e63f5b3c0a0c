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
//! The analysis needs only what every game has ([`Game`] and a
//! [`PositionKey`](crate::PositionKey)): the moves, the successor, `f(p)` at the end (its sign
//! is the result: positive a win for MAX), and a key that tells positions apart. It runs in
//! three stages (the code of [`solve_strongly`] numbers their steps):
//!
//! 1. **Enumerate**: breadth first from the root, each new key put in a table whose slot
//!    numbers the position.
//! 2. **Turn the arrows round**: each position's predecessors, from a second walk of the game
//!    (a key cannot be turned back into its position, so no position is kept).
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

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

use crate::error::Error;
use crate::game::{Game, Score};
use crate::limits::Limits;

mod dense;
mod keys;
mod moves;
mod store;
mod unmoves;

pub use dense::{solve_by_index, DenseIndex, DenseSolution, DENSE_FILE_VERSION};
pub use moves::solve_strongly;
pub use store::{StrongSolution, FILE_VERSION};
pub use unmoves::{solve_by_unmoves, UnMoves};

/// What a strong solve may use.
#[derive(Clone, Debug)]
pub struct RetrogradeConfig {
    /// The most positions it may number: past it, the solve answers [`Error::TooLarge`].
    pub max_positions: u64,
    /// The most memory a strong solve may take (its tables, lists, codes, the result): it
    /// answers [`Error::TooLarge`], saying what it needs, before passing it. Default: three
    /// quarters of the memory available when the config is made.
    pub max_bytes: u64,
    /// Threads (at least 1).
    pub threads: usize,
    /// A stop flag and a time limit (checked every 4,096 positions); `max_nodes` is not used.
    pub limits: Limits,
    /// Where the solve publishes how far it has come, for
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

/// Whether a solve begun at `start` is to stop: its stop flag is raised or its time is up.
fn stopped(cfg: &RetrogradeConfig, start: std::time::Instant) -> bool {
    cfg.limits.stop_requested() || cfg.limits.max_time.is_some_and(|t| start.elapsed() >= t)
}

/// The pool of `cfg.threads` threads the solvers run on. One thread is the caller's own (where
/// it can be: not already a worker of another pool), so that a game which must be played on
/// the thread that asked (a game written in Python, whose callbacks need that thread's state)
/// is solved there.
fn thread_pool(cfg: &RetrogradeConfig) -> Result<rayon::ThreadPool, Error> {
    let threads = cfg.threads.max(1);
    if threads == 1 && rayon::current_thread_index().is_none() {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
        {
            return Ok(pool);
        }
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Threads {
            count: cfg.threads,
            message: e.to_string(),
        })
}

/// Set on an arrow whose child has the same side to move as its parent.
const SAME_SIDE: u32 = 1 << 31;

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

/// Sets `bit` in `word`; whether this call set it. Read first: most bits asked for are set
/// already, and a locked write to a word the threads share passes its cache line from one to
/// the other every time.
#[inline]
fn set_once(word: &AtomicU64, bit: u64) -> bool {
    word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
}
