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
use std::time::Instant;

use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::limits::Limits;

/// What a strong solve may use.
#[derive(Clone, Debug)]
pub struct RetrogradeConfig {
    /// The most positions it may number: past it, [`solve_strongly`] answers
    /// [`Error::TooLarge`] (each position costs about 50 bytes while it runs, each arrow 8).
    pub max_positions: u64,
    /// A stop flag and a time limit (checked every 4,096 positions); `max_nodes` is not used.
    pub limits: Limits,
}

impl Default for RetrogradeConfig {
    fn default() -> Self {
        RetrogradeConfig {
            max_positions: 1 << 26,
            limits: Limits::none(),
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

/// How many positions the solve found, and how they end.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RetrogradeStats {
    /// Positions reachable from the root (distinct keys).
    pub positions: u64,
    /// Moves between them (a move to a position reached before counted too).
    pub arrows: u64,
    /// Positions MAX wins.
    pub max_wins: u64,
    /// Positions that are draws.
    pub draws: u64,
    /// Positions MIN wins.
    pub min_wins: u64,
    /// Seconds the whole solve took.
    pub seconds: f64,
}

/// Every reachable position's [`Solved`], looked up by its key.
pub struct StrongSolution {
    index: HashMap<u64, u32>,
    settled: Vec<bool>,
    value: Vec<i8>,
    remoteness: Vec<u32>,
    complete: bool,
    stats: RetrogradeStats,
}

/// `remoteness` of a position that has none: a draw, or (when stopped) not settled.
const NONE: u32 = u32::MAX;

impl StrongSolution {
    /// The position's solution; `None` for a position not reachable from the root, or not
    /// settled when the solve was stopped before its end.
    pub fn probe<G: PositionKey>(&self, p: &G) -> Option<Solved> {
        let i = *self.index.get(&p.key())? as usize;
        let r = self.remoteness[i];
        // Unsettled when the solve was stopped: unknown, not a draw.
        (self.complete || self.settled[i]).then(|| Solved {
            value: Score::from(self.value[i]),
            remoteness: (r != NONE).then_some(r),
        })
    }

    /// A move that keeps the position's value: the fastest win, the slowest loss, or a move
    /// to a draw; `None` at the end of the game or for a position the solution lacks.
    pub fn best_move<G: Game + PositionKey>(&self, p: &G) -> Option<G::Move> {
        let here = self.probe(p)?;
        let mover = p.to_move().sign();
        let mut best: Option<(G::Move, u32)> = None;
        for m in p.moves() {
            let Some(c) = self.probe(&p.play(m)) else {
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

    /// Whether every position was settled (false when a stop flag or the time limit ended the
    /// solve: then only the positions settled so far answer [`probe`](Self::probe)).
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The counts of the solve.
    pub fn stats(&self) -> RetrogradeStats {
        self.stats
    }
}

/// Solves every position reachable from `root` by retrograde analysis (see the module's
/// documentation): the game may repeat positions. The key must tell positions apart (two
/// positions with one key are taken for one).
pub fn solve_strongly<G: Game + PositionKey>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<StrongSolution, Error> {
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
    let mut index: HashMap<u64, u32> = HashMap::new();
    // Numbers are u32 with NONE kept apart: at most 2^32 − 1 positions.
    let limit = cfg.max_positions.min(u64::from(NONE));
    let mut waiting: VecDeque<G> = VecDeque::new();
    let mut first_arrow: Vec<u64> = vec![0];
    let mut arrows: Vec<u32> = Vec::new();
    let mut max_moves: Vec<bool> = Vec::new();
    let mut end_value: Vec<i8> = Vec::new(); // the sign of f(p) at an end; 0 elsewhere
    index.insert(root.key(), 0);
    waiting.push_back(root.clone());
    while let Some(p) = waiting.pop_front() {
        if max_moves.len() % 4096 == 4095 && stopped() {
            return Ok(StrongSolution::stopped(index, start));
        }
        max_moves.push(p.to_move() == Player::Max);
        let before = arrows.len();
        for m in p.moves() {
            let child = p.play(m);
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
            arrows.push(id);
        }
        let end = arrows.len() == before;
        end_value.push(if end { p.evaluate().signum() as i8 } else { 0 });
        first_arrow.push(arrows.len() as u64);
    }
    let n = max_moves.len();

    // 2. Turn the arrows round: the predecessors of j are from[first_from[j]..first_from[j + 1]]
    //    (a position with two moves to one child is its predecessor twice, as it has two arrows).
    let mut first_from = vec![0u64; n + 1];
    for &j in &arrows {
        first_from[j as usize + 1] += 1;
    }
    for j in 0..n {
        first_from[j + 1] += first_from[j];
    }
    let mut from = vec![0u32; arrows.len()];
    let mut fill: Vec<u64> = first_from[..n].to_vec();
    for i in 0..n {
        for a in first_arrow[i]..first_arrow[i + 1] {
            let j = arrows[a as usize] as usize;
            from[fill[j] as usize] = i as u32;
            fill[j] += 1;
        }
    }
    drop(fill);

    // 3. Settle backwards, a ply at a time. `open[i]`: children of i not yet lost for i's
    //    mover; when it reaches 0, i is lost.
    let mut value = vec![0i8; n];
    let mut remoteness = vec![NONE; n];
    let mut settled = vec![false; n];
    let mut open: Vec<u32> = (0..n)
        .map(|i| (first_arrow[i + 1] - first_arrow[i]) as u32)
        .collect();
    let mut ply: Vec<u32> = Vec::new();
    for i in 0..n {
        if open[i] == 0 {
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
        let mut next = Vec::new();
        for &q in &ply {
            done += 1;
            if done % 4096 == 0 && stopped() {
                let s = (index, settled, value, remoteness);
                return Ok(StrongSolution::finish(s, false, start, arrows.len()));
            }
            let q = q as usize;
            for k in first_from[q]..first_from[q + 1] {
                let p = from[k as usize] as usize;
                if settled[p] {
                    continue;
                }
                let mover: i8 = if max_moves[p] { 1 } else { -1 };
                if value[q] == mover {
                    // A child won for p's mover: p is won, by the shortest way (this ply).
                    settled[p] = true;
                    value[p] = mover;
                    remoteness[p] = r + 1;
                    next.push(p as u32);
                } else {
                    open[p] -= 1;
                    if open[p] == 0 {
                        // The last of p's children lost for its mover: p is lost, as late as can be.
                        settled[p] = true;
                        value[p] = -mover;
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
    let s = (index, settled, value, remoteness);
    Ok(StrongSolution::finish(s, true, start, arrows.len()))
}

impl StrongSolution {
    fn stopped(index: HashMap<u64, u32>, start: Instant) -> StrongSolution {
        let positions = index.len() as u64;
        StrongSolution {
            index: HashMap::new(),
            settled: Vec::new(),
            value: Vec::new(),
            remoteness: Vec::new(),
            complete: false,
            stats: RetrogradeStats {
                positions,
                seconds: start.elapsed().as_secs_f64(),
                ..RetrogradeStats::default()
            },
        }
    }

    fn finish(
        (index, settled, value, remoteness): (HashMap<u64, u32>, Vec<bool>, Vec<i8>, Vec<u32>),
        complete: bool,
        start: Instant,
        arrows: usize,
    ) -> StrongSolution {
        let mut stats = RetrogradeStats {
            positions: value.len() as u64,
            arrows: arrows as u64,
            ..RetrogradeStats::default()
        };
        for (&v, &s) in value.iter().zip(&settled) {
            match v {
                1 => stats.max_wins += 1,
                -1 => stats.min_wins += 1,
                _ if complete || s => stats.draws += 1,
                _ => {} // unsettled when stopped: not a draw
            }
        }
        stats.seconds = start.elapsed().as_secs_f64();
        StrongSolution {
            index,
            settled,
            value,
            remoteness,
            complete,
            stats,
        }
    }
}
