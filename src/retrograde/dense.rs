//! Strong solving over the game's dense index: one byte a numbered position, no keys kept. The
//! game numbers its positions `0..index_len` ([`DenseIndex`]) and turns a position back into
//! its predecessors ([`UnMoves`]); a position whose value its rules give at once (over, or won
//! with its next move) may go unnumbered.
//!
//! The steps, on every thread:
//! 1. **Settle what the rules settle**: each number's position, if it is one; an end (no move)
//!    by its result, a position the mover wins with its next move at 1 ply, and a position all
//!    of whose children the rules settle (unnumbered, or won at once by their mover) by them;
//! 2. **Settle backwards, a ply at a time**: each position settled at ply `r` (found by a scan
//!    of the bytes; where the turn always passes, not those won at once, which step 1 has
//!    looked past already) is turned back into its predecessors. A predecessor is won at `r + 1` when
//!    this child is lost for its opponent; when the child is won for its opponent, its moves are
//!    looked at: if every child is won for the opponent, it is lost one ply after the farthest
//!    (a byte instead of a count of open children, as Thompson's and Clausecker's generators
//!    do: the count would double the memory);
//! 3. what is still unsettled when no ply settles anything is a draw.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use memmap2::Mmap;
use rayon::prelude::*;

use super::store;
use super::{set_once, RetrogradeConfig, RetrogradeStats, Solved, UnMoves};
use crate::error::{human_bytes, Error};
use crate::game::Game;

/// A numbering of a game's positions, dense enough that a byte for every number is the whole
/// table: what [`solve_by_index`] needs beside the game's [`UnMoves`].
///
/// The numbers of the positions met from a root must be distinct and below
/// [`index_len`](Self::index_len) (the positions of one root: `self` is any position of the
/// game, and carries what the numbering depends on — a board size, the pieces in play); a
/// predecessor numbered past it is taken for one the root never meets, and skipped. Two
/// positions may share a number only when they are the same position for the side to move (a
/// mirror image, or the same board with the other side to move in a game whose sides play
/// alike), and a symmetry must be taken whole: the solver turns back only the position
/// [`position_at`](Self::position_at) gives, so the predecessors of every position sharing
/// its number must share numbers with its predecessors (number every position and its mirror
/// image alike, never some pairs apart and others together).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::retrograde::{solve_by_index, solve_strongly, RetrogradeConfig};
/// use gamesearch::Player;
/// // Nim numbers its positions by the pile and the side to move (docs/nim.rs): the two
/// // solvers agree on every position reachable from 12 stones.
/// let cfg = RetrogradeConfig::default();
/// let by_arrows = solve_strongly(&Nim::new(12), &cfg).unwrap();
/// let by_index = solve_by_index(&Nim::new(12), &cfg).unwrap();
/// for pile in 0..=12 {
///     for to_move in [Player::Max, Player::Min] {
///         let p = Nim { pile, to_move };
///         if let Some(solved) = by_arrows.probe(&p) {
///             assert_eq!(by_index.probe(&p), Some(solved), "pile {pile}");
///         }
///     }
/// }
/// // 12 is lost for the side to move: the slowest loss takes one stone, as from the arrows.
/// assert_eq!(by_index.probe(&Nim::new(12)).unwrap().value, -1);
/// assert_eq!(by_index.best_move(&Nim::new(12)), by_arrows.best_move(&Nim::new(12)));
/// ```
pub trait DenseIndex: Game + Send + Sync {
    /// How many numbers there are: every position's number is below it.
    fn index_len(&self) -> u64;

    /// The position's number; `None` for a position the table need not hold: one that is over
    /// (no move), or one that [`wins_at_once`](Self::wins_at_once) whose side to move is not
    /// the side that moved into it (the turn passed: a win at once for the opponent of the
    /// side before it).
    fn index(&self) -> Option<u64>;

    /// The position numbered `index` (any one of those that share it), `None` when the number
    /// is no position's.
    fn position_at(&self, index: u64) -> Option<Self>;

    /// Whether every move gives the turn to the opponent (no side ever moves twice in a row).
    /// When it does, the solver turns back no position won at once (most positions of a game
    /// like Dōbutsu shōgi, where a lion in reach is taken): their predecessors are settled
    /// from their moves. `false`, the default, is always safe.
    fn turn_always_passes(&self) -> bool {
        false
    }

    /// Whether the side to move has a move to an end it has won (the game is over there, lost
    /// for the side to move then, or won for the mover when the turn does not pass). It must
    /// be exact: true for every position with such a move. The default looks at every move;
    /// a game that knows (a capture of the king, a stone that completes the line) says it
    /// faster.
    fn wins_at_once(&self) -> bool {
        self.moves().any(|m| {
            let c = self.play(m);
            c.moves().next().is_none() && {
                let v = c.evaluate().signum() * self.to_move().sign();
                v > 0
            }
        })
    }
}

/// A number that holds no position.
const NOT_A_POSITION: u8 = 1;
/// Not settled (yet).
const UNKNOWN: u8 = 0;
/// A draw: no side can force an end.
const DRAW: u8 = 2;
/// The largest remoteness a byte holds; past it the byte says [`FAR_LOST`] or [`FAR_WON`] and
/// the remoteness is kept beside the table, in a map.
const NEAR: u32 = 124;
/// Lost, farther than [`NEAR`] plies.
const FAR_LOST: u8 = 253;
/// Won, farther than [`NEAR`] plies.
const FAR_WON: u8 = 254;

/// The byte of a position settled at `r` plies, won or lost for its mover.
#[inline]
fn code(won: bool, r: u32) -> u8 {
    match (r <= NEAR, won) {
        (true, _) => (3 + 2 * r + u32::from(won)) as u8,
        (false, false) => FAR_LOST,
        (false, true) => FAR_WON,
    }
}

/// (won for the mover, remoteness) of a settled byte; a far one's remoteness from `far`.
#[inline]
fn decode(c: u8, far: impl FnOnce() -> Option<u32>) -> Option<(bool, u32)> {
    match c {
        FAR_LOST => Some((false, far()?)),
        FAR_WON => Some((true, far()?)),
        3..FAR_LOST => Some((c & 1 == 0, u32::from(c - 3) / 2)),
        _ => None,
    }
}

/// What the rules say of a position left unnumbered: over (the game's result, at 0 plies),
/// or won at once (1 ply). (won for the mover, remoteness), or `None` for a drawn end.
fn by_the_rules<G: DenseIndex>(p: &G) -> Option<(bool, u32)> {
    if p.moves().next().is_none() {
        match (p.evaluate() * p.to_move().sign()).signum() {
            1 => Some((true, 0)),
            -1 => Some((false, 0)),
            _ => None,
        }
    } else {
        Some((true, 1))
    }
}

/// The memory a solve of `n` numbers takes: a byte a number, a bit a number for the positions
/// looked at in a ply, and a word a chunk for the plies it holds.
fn bytes_needed(n: u64) -> u64 {
    n.saturating_add(n.div_ceil(64) * 8)
        .saturating_add(n.div_ceil(CHUNK as u64) * 8)
}

/// Solves every numbered position of the game of `root`, as [`solve_strongly`] does, with a
/// byte and a bit a number: value and remoteness for the side to move (a remoteness past 124
/// plies in a map beside the table). On `cfg.threads` threads; refuses, before it starts, a
/// table past `cfg.max_bytes` ([`Error::TooLarge`], saying what it needs).
///
/// Every number is solved, reachable from `root` or not: the table is the game's, `root` only
/// says which (its rules, its material).
///
/// [`solve_strongly`]: super::solve_strongly
pub fn solve_by_index<G: Game + UnMoves + DenseIndex>(
    root: &G,
    cfg: &RetrogradeConfig,
) -> Result<DenseSolution, Error> {
    super::endless_play_is_a_draw(root)?;
    let n = root.index_len();
    let need = bytes_needed(n);
    if need > cfg.max_bytes || usize::try_from(n).is_err() {
        return Err(Error::TooLarge(format!(
            "the strong solve needs {} ({n} numbered positions at a byte and a bit each); the limit is {} (max_bytes)",
            human_bytes(need as usize),
            human_bytes(cfg.max_bytes as usize)
        )));
    }
    if root.index().is_some_and(|i| i >= n) {
        return Err(out_of_range(root.index().unwrap_or(0), n));
    }
    super::thread_pool(cfg)?.install(|| solve_in_pool(root, cfg, n as usize))
}

fn out_of_range(i: u64, n: u64) -> Error {
    Error::BadParameter(format!(
        "the game numbered a position {i}, not below its index_len {n}"
    ))
}

/// The error for a game that broke [`DenseIndex`]'s contract, if one did.
fn broken_contract(bad_index: &AtomicU64, broken: &AtomicBool, n: usize) -> Option<Error> {
    let i = bad_index.load(Ordering::Relaxed);
    if i != u64::MAX {
        return Some(out_of_range(i, n as u64));
    }
    broken.load(Ordering::Relaxed).then(|| {
        Error::BadParameter(
            "the game left unnumbered a position that is not over and not won at once by a \
             side to whom the turn passed (DenseIndex::index), or wins_at_once missed a win"
                .into(),
        )
    })
}

/// The solver's bytes, eight to an atomic word (byte `i` is byte `i % 8` of word `i / 8` in
/// memory order, as the file and [`Table`] read them).
struct Codes<'a>(&'a [AtomicU64]);

impl Codes<'_> {
    /// Where byte `i` sits in its word.
    #[inline]
    fn shift(i: usize) -> u32 {
        let k = (i % 8) as u32;
        8 * if cfg!(target_endian = "little") {
            k
        } else {
            7 - k
        }
    }

    #[inline]
    fn get(&self, i: usize) -> u8 {
        (self.0[i / 8].load(Ordering::Relaxed) >> Self::shift(i)) as u8
    }

    /// Gives byte `i` the code `c` if it is still [`UNKNOWN`]; whether it did.
    #[inline]
    fn settle(&self, i: usize, c: u8) -> bool {
        let (word, shift) = (&self.0[i / 8], Self::shift(i));
        let mut now = word.load(Ordering::Relaxed);
        loop {
            if (now >> shift) as u8 != UNKNOWN {
                return false;
            }
            let with = now | u64::from(c) << shift;
            match word.compare_exchange_weak(now, with, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return true,
                Err(seen) => now = seen,
            }
        }
    }

    #[inline]
    fn prefetch(&self, i: usize) {
        super::prefetch(&self.0[i / 8]);
    }
}

/// Whether one of the word's eight bytes is `b` (the classic test for a zero byte, of the word
/// with `b` taken out of each).
#[inline]
fn has_byte(word: u64, b: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = word ^ (ONES * u64::from(b));
    x.wrapping_sub(ONES) & !x & (ONES << 7) != 0
}

/// The solved bytes, owned: the words the solver wrote, read as `n` bytes.
struct Table {
    words: Vec<u64>,
    n: usize,
}

impl Table {
    fn from_words(words: Vec<AtomicU64>, n: usize) -> Table {
        Table {
            words: words.into_iter().map(AtomicU64::into_inner).collect(),
            n,
        }
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: the words hold at least n bytes, and any byte is a valid u8.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.n) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in bytes, and the words are borrowed mutably for as long.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.n) }
    }
}

/// Numbers a thread takes at a time (a multiple of 8: a chunk's words are its own).
const CHUNK: usize = 1 << 14;

/// The words that hold the bytes of `chunk` (of `n` numbers).
fn words_of(chunk: usize, n: usize) -> std::ops::Range<usize> {
    chunk * CHUNK / 8..n.min((chunk + 1) * CHUNK).div_ceil(8)
}

// The numbers index the byte table and number the positions alike.
#[allow(clippy::needless_range_loop)]
fn solve_in_pool<G: Game + UnMoves + DenseIndex>(
    root: &G,
    cfg: &RetrogradeConfig,
    n: usize,
) -> Result<DenseSolution, Error> {
    let start = Instant::now();
    let stopped = || super::stopped(cfg, start);
    let progress = cfg.progress.clone().unwrap_or_default();
    // The bytes, eight to a word (a ply's scan reads a word at a time). UNKNOWN is 0.
    let words: Vec<AtomicU64> = (0..n.div_ceil(8)).map(|_| AtomicU64::new(0)).collect();
    let codes = Codes(&words);
    let bad_index = AtomicU64::new(u64::MAX);
    let broken = AtomicBool::new(false);
    // The remoteness of the positions settled farther than a byte holds.
    let far: Mutex<HashMap<usize, u32>> = Mutex::new(HashMap::new());
    let far_of = |i: usize| far.lock().map_or(None, |f| f.get(&i).copied());
    // The highest ply any byte has been given: the loop runs until it has scanned it.
    let last_ply = AtomicU32::new(0);
    // Which plies each chunk has positions settled at (bit r mod 64): a ply's scan passes over
    // the chunks without one. Nothing is settled more than two plies past the one scanned, so
    // the bits of different plies never meet.
    let pending: Vec<AtomicU64> = (0..n.div_ceil(CHUNK)).map(|_| AtomicU64::new(0)).collect();
    // What a position settled at ply r leaves beside its byte.
    let note_settled = |i: usize, r: u32| {
        if r > NEAR {
            // (Read before it is written, the byte reads as not settled yet: the scan of
            // its ply comes back to whoever asked.)
            if let Ok(mut f) = far.lock() {
                f.insert(i, r);
            }
        }
        // (Read first, as set_once does.)
        if last_ply.load(Ordering::Relaxed) < r {
            last_ply.fetch_max(r, Ordering::Relaxed);
        }
        set_once(&pending[i / CHUNK], 1 << (r % 64));
    };
    let settle = |i: usize, won: bool, r: u32| -> bool {
        let ok = codes.settle(i, code(won, r));
        if ok {
            note_settled(i, r);
        }
        ok
    };
    let number = |p: &G| -> Option<usize> {
        let i = p.index()?;
        if i >= n as u64 {
            bad_index.store(i, Ordering::Relaxed);
            return None;
        }
        Some(i as usize)
    };
    // A child's result for its own mover: (won, remoteness), None while unsettled or drawn.
    let child_result = |c: &G| -> Option<(bool, u32)> {
        match number(c) {
            Some(k) => decode(codes.get(k), || far_of(k)),
            None => by_the_rules(c),
        }
    };

    // 1. Settle what the rules settle.
    progress.phase.store(1, Ordering::Relaxed);
    let positions = AtomicU64::new(0);
    let ends = AtomicU64::new(0);
    // The byte of number i by the rules (UNKNOWN when they do not settle it), and whether it
    // is a position and an end.
    let by_its_rules = |i: usize| -> (u8, bool, bool) {
        let Some(p) = root.position_at(i as u64) else {
            return (NOT_A_POSITION, false, false);
        };
        let settled = |won: bool, r: u32| {
            note_settled(i, r);
            code(won, r)
        };
        // The moves are made once: the first says whether the game is over here.
        let mut moves = p.moves();
        let first = moves.next();
        if first.is_none() {
            let c = by_the_rules(&p).map_or(DRAW, |(won, r)| settled(won, r));
            return (c, true, true);
        }
        if p.wins_at_once() {
            return (settled(true, 1), true, false);
        }
        // A position whose children are all settled by the rules (unnumbered, or won at once
        // by their mover) is settled by them now: the scans below never turn back a position
        // won at once.
        let mover = p.to_move();
        let mut lost_at = 0;
        let mut drawn = false;
        for m in first.into_iter().chain(moves) {
            let c = p.play(m);
            // Won at once for the opponent, numbered or not: no number is needed.
            if c.to_move() != mover && c.wins_at_once() {
                lost_at = lost_at.max(2);
                continue;
            }
            if number(&c).is_some() {
                return (UNKNOWN, true, false);
            }
            match by_the_rules(&c) {
                // Good for the mover: an end it has won is found by wins_at_once, and the
                // contract leaves out no other such child.
                Some((won, _)) if won == (c.to_move() == mover) => {
                    broken.store(true, Ordering::Relaxed);
                    return (UNKNOWN, true, false);
                }
                Some((_, r)) => lost_at = lost_at.max(r + 1),
                None => drawn = true,
            }
        }
        let c = if drawn { DRAW } else { settled(false, lost_at) };
        (c, true, false)
    };
    (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
        if stopped() {
            return;
        }
        let (mut found, mut ended) = (0, 0);
        // A chunk's words are its own in this step: each is written once, whole.
        for w in words_of(chunk, n) {
            let mut word = [UNKNOWN; 8];
            for (k, b) in word.iter_mut().enumerate() {
                let i = w * 8 + k;
                if i < n {
                    let (c, position, end) = by_its_rules(i);
                    *b = c;
                    found += u64::from(position);
                    ended += u64::from(end);
                }
            }
            codes.0[w].store(u64::from_ne_bytes(word), Ordering::Relaxed);
        }
        positions.fetch_add(found, Ordering::Relaxed);
        ends.fetch_add(ended, Ordering::Relaxed);
        progress.positions.fetch_add(found, Ordering::Relaxed);
    });
    if let Some(e) = broken_contract(&bad_index, &broken, n) {
        return Err(e);
    }

    // 2. Settle backwards, a ply at a time.
    progress.phase.store(2, Ordering::Relaxed);
    let settled = AtomicU64::new(0);
    // The positions whose moves this ply has looked at already (a bit each).
    let tried: Vec<AtomicU64> = (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mut complete = !stopped();
    let mut r = 0u32;
    let skip_won_at_once = root.turn_always_passes();
    // Position q, settled at ply r (won for its mover or not), turned back into its
    // predecessors: numbered first, their bytes asked for together (so that their cache
    // misses overlap), then each looked at. `preds` is the thread's buffer, kept between
    // positions.
    let turn_back = |q: usize, c_won: bool, r: u32, preds: &mut Vec<(usize, G)>| {
        let Some(c) = root.position_at(q as u64) else {
            return;
        };
        preds.clear();
        c.unmoves(|p| {
            // A predecessor numbered past the table is not the root's to solve.
            if let Some(j) = p.index().filter(|&j| j < n as u64) {
                codes.prefetch(j as usize);
                preds.push((j as usize, p));
            }
        });
        for (j, p) in preds.drain(..) {
            if codes.get(j) != UNKNOWN {
                continue;
            }
            let same_side = p.to_move() == c.to_move();
            if c_won == same_side {
                settle(j, true, r + 1);
                continue;
            }
            // Lost when every child is won for p's opponent: one ply after the farthest. Once
            // a ply is enough: a child still open now is settled at a later ply, whose scan
            // comes back to p.
            // (Two threads that both look at p agree.)
            if !set_once(&tried[j / 64], 1 << (j % 64)) {
                continue;
            }
            let mover = p.to_move();
            let farthest = p.moves().try_fold(0, |farthest, m| {
                let child = p.play(m);
                match child_result(&child) {
                    Some((won, rc)) if won != (child.to_move() == mover) => Some(farthest.max(rc)),
                    _ => None,
                }
            });
            if let Some(farthest) = farthest {
                settle(j, false, farthest + 1);
            }
        }
    };
    while complete && r <= last_ply.load(Ordering::Relaxed) {
        progress.ply.store(r, Ordering::Relaxed);
        if r <= NEAR {
            let (lost_here, won_here) = (code(false, r), code(true, r));
            let bit = 1u64 << (r % 64);
            (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
                if stopped() || pending[chunk].fetch_and(!bit, Ordering::Relaxed) & bit == 0 {
                    return;
                }
                // Where the turn always passes, a position won at once (r = 1) is not turned
                // back: a predecessor all of whose children are won at once was settled by
                // step 1, and any other comes back with a child settled later.
                let turn_back_won = r != 1 || !skip_won_at_once;
                let (mut count, mut preds) = (0, Vec::new());
                for w in words_of(chunk, n) {
                    // A word at a time: most hold nothing settled at this ply.
                    let word = codes.0[w].load(Ordering::Relaxed);
                    if !(has_byte(word, lost_here) || turn_back_won && has_byte(word, won_here)) {
                        continue;
                    }
                    for (k, c_code) in word.to_ne_bytes().into_iter().enumerate() {
                        if c_code == lost_here || (c_code == won_here && turn_back_won) {
                            count += 1;
                            turn_back(w * 8 + k, c_code == won_here, r, &mut preds);
                        }
                    }
                }
                settled.fetch_add(count, Ordering::Relaxed);
                progress
                    .settled
                    .store(settled.load(Ordering::Relaxed), Ordering::Relaxed);
            });
        } else {
            // Past a byte: this ply's positions are those of the map.
            let here: Vec<usize> = far
                .lock()
                .map(|f| {
                    f.iter()
                        .filter(|&(_, &fr)| fr == r)
                        .map(|(&q, _)| q)
                        .collect()
                })
                .unwrap_or_default();
            settled.fetch_add(here.len() as u64, Ordering::Relaxed);
            here.par_iter().for_each_init(Vec::new, |preds, &q| {
                if !stopped() {
                    turn_back(q, codes.get(q) == FAR_WON, r, preds);
                }
            });
        }
        progress
            .settled
            .store(settled.load(Ordering::Relaxed), Ordering::Relaxed);
        if let Some(e) = broken_contract(&bad_index, &broken, n) {
            return Err(e);
        }
        if stopped() {
            complete = false;
        }
        tried.par_iter().for_each(|w| w.store(0, Ordering::Relaxed));
        r += 1;
    }

    // 3. What is still unsettled is a draw (when the solve ran to its end).
    progress.phase.store(3, Ordering::Relaxed);
    let mut table = Table::from_words(words, n);
    let bytes = table.bytes_mut();
    if complete {
        bytes.par_iter_mut().for_each(|b| {
            if *b == UNKNOWN {
                *b = DRAW;
            }
        });
    }
    let mut stats = RetrogradeStats {
        positions: positions.load(Ordering::Relaxed),
        ends: ends.load(Ordering::Relaxed),
        ..RetrogradeStats::default()
    };
    let (wins, draws, losses) = bytes
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .fold((0, 0, 0), |(w, d, l), &b| match decode(b, || Some(0)) {
                    Some((true, _)) => (w + 1, d, l),
                    Some((false, _)) => (w, d, l + 1),
                    None => (w, d + u64::from(b == DRAW), l),
                })
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    (stats.wins, stats.draws, stats.losses) = (wins, draws, losses);
    stats.seconds = start.elapsed().as_secs_f64();
    let mut far: Vec<(u64, u32)> = far
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|(i, r)| (i as u64, r))
        .collect();
    far.sort_unstable();
    Ok(DenseSolution {
        table: Bytes::Owned(table),
        far: Far::Owned(far),
        complete,
        stats,
    })
}

/// The remoteness of the positions farther than a byte holds, by number (ascending).
enum Far {
    Owned(Vec<(u64, u32)>),
    /// `n` entries of 12 bytes (number, remoteness) at `at` in the solution's mapped file.
    Mapped {
        at: usize,
        n: usize,
    },
}

enum Bytes {
    Owned(Table),
    Mapped { map: Mmap, at: usize, n: usize },
}

/// Every numbered position's [`Solved`], a byte each, looked up by its number: what
/// [`solve_by_index`] returns and [`DenseSolution::open`] reads back from a file.
pub struct DenseSolution {
    table: Bytes,
    far: Far,
    complete: bool,
    stats: RetrogradeStats,
}

const MAGIC: &[u8; 7] = b"GSSD\0\0\0";
/// The version of the dense solution's file this library writes and reads.
pub const DENSE_FILE_VERSION: u8 = 1;

impl DenseSolution {
    fn bytes(&self) -> &[u8] {
        match &self.table {
            Bytes::Owned(t) => t.bytes(),
            Bytes::Mapped { map, at, n } => &map[*at..*at + *n],
        }
    }

    /// The remoteness of number `i`, settled farther than a byte holds.
    fn far(&self, i: u64) -> Option<u32> {
        match &self.far {
            Far::Owned(v) => v
                .binary_search_by_key(&i, |&(k, _)| k)
                .ok()
                .map(|at| v[at].1),
            Far::Mapped { at, n } => {
                let Bytes::Mapped { map, .. } = &self.table else {
                    return None;
                };
                let entry = |k: usize| {
                    let b = &map[at + 12 * k..at + 12 * k + 12];
                    (
                        u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                        u32::from_le_bytes(b[8..].try_into().expect("4 bytes")),
                    )
                };
                let (mut lo, mut hi) = (0, *n);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    match entry(mid).0.cmp(&i) {
                        std::cmp::Ordering::Less => lo = mid + 1,
                        std::cmp::Ordering::Greater => hi = mid,
                        std::cmp::Ordering::Equal => return Some(entry(mid).1),
                    }
                }
                None
            }
        }
    }

    /// The far entries as bytes for the file.
    fn far_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match &self.far {
            Far::Owned(v) => {
                out.extend_from_slice(&(v.len() as u64).to_le_bytes());
                for &(i, r) in v {
                    out.extend_from_slice(&i.to_le_bytes());
                    out.extend_from_slice(&r.to_le_bytes());
                }
            }
            Far::Mapped { at, n } => {
                if let Bytes::Mapped { map, .. } = &self.table {
                    out.extend_from_slice(&(*n as u64).to_le_bytes());
                    out.extend_from_slice(&map[*at..*at + 12 * n]);
                }
            }
        }
        out
    }

    /// How many numbers the table has (the game's `index_len`).
    pub fn len(&self) -> u64 {
        self.bytes().len() as u64
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position's solution, `value` from MAX's view (a position left unnumbered is
    /// answered by the rules); `None` for a number past the table, or a position not settled
    /// when the solve was stopped.
    pub fn probe<G: DenseIndex>(&self, p: &G) -> Option<Solved> {
        let mover = p.to_move().sign();
        let result = match p.index() {
            Some(i) => match *self.bytes().get(usize::try_from(i).ok()?)? {
                UNKNOWN | NOT_A_POSITION => return None,
                DRAW => None,
                c => Some(decode(c, || self.far(i))?),
            },
            None => by_the_rules(p),
        };
        Some(match result {
            None => Solved {
                value: 0,
                remoteness: None,
            },
            Some((won, r)) => Solved {
                value: if won { mover } else { -mover },
                remoteness: Some(r),
            },
        })
    }

    /// A move that keeps the position's value: the fastest win, the slowest loss, or a move
    /// to a draw; `None` at the end of the game or for a position the table lacks.
    pub fn best_move<G: DenseIndex>(&self, p: &G) -> Option<G::Move> {
        super::best_move_by(p, |q| self.probe(q))
    }

    /// Whether every position was settled.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The counts of the solve (`positions`: the numbers that are positions; `arrows` is not
    /// counted by this solver).
    pub fn stats(&self) -> RetrogradeStats {
        self.stats
    }

    /// Writes the table to `path`, whole or not at all (a file beside it, then renamed); `game`
    /// names what it solves, checked by [`open`](Self::open).
    ///
    /// | bytes | what |
    /// |---|---|
    /// | 8 | `GSSD\0\0\0` and the format version |
    /// | 2 + g | the game's length, then the game |
    /// | 8 | the numbers `n` |
    /// | 1 | whether the solve was complete |
    /// | 8 × 7 | the counts of [`RetrogradeStats`] |
    /// | n | a byte a number (0 not settled, 1 no position, 2 a draw, 3 + 2r lost and 4 + 2r won in r ≤ 124 plies, 253 lost and 254 won farther) |
    /// | 8 + 12 f | the farther ones: how many, then each one's number (`u64`) and remoteness (`u32`), ascending |
    /// | 4 | CRC-32 of everything before it |
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::retrograde::{solve_by_index, DenseSolution, RetrogradeConfig};
    /// let s = solve_by_index(&Nim::new(9), &RetrogradeConfig::default()).unwrap();
    /// let path = std::env::temp_dir().join(format!("nim-{}.gssd", std::process::id()));
    /// s.write(&path, "nim").unwrap();
    /// let back = DenseSolution::open(&path, "nim").unwrap();
    /// assert_eq!(back.probe(&Nim::new(9)), s.probe(&Nim::new(9)));
    /// assert!(DenseSolution::open(&path, "kalah").is_err()); // another game's file
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn write(&self, path: &Path, game: &str) -> Result<(), Error> {
        let bytes = self.bytes();
        let (n, complete) = (bytes.len(), self.complete);
        let head = store::header(MAGIC, DENSE_FILE_VERSION, game, n, complete, &self.stats);
        let far = self.far_bytes();
        store::write_checksummed(path, |put| {
            put(&head)?;
            put(bytes)?;
            put(&far)
        })
    }

    /// Reads a table written by [`write`](Self::write), memory-mapped and checked whole: an
    /// error, never values, for another game's file, a truncated or damaged one.
    pub fn open(path: &Path, game: &str) -> Result<DenseSolution, Error> {
        let map = store::map(path)?;
        let (at, n, far_at, far_n, complete, stats) =
            check(&map, game).map_err(|m| store::bad(path, m))?;
        Ok(DenseSolution {
            table: Bytes::Mapped { map, at, n },
            far: Far::Mapped {
                at: far_at,
                n: far_n,
            },
            complete,
            stats,
        })
    }
}

/// The header's facts, after checking the file whole.
#[allow(clippy::type_complexity)]
fn check(
    map: &[u8],
    game: &str,
) -> Result<(usize, usize, usize, usize, bool, RetrogradeStats), String> {
    let (at, n, complete, stats) = store::read_header(
        map,
        MAGIC,
        DENSE_FILE_VERSION,
        "a dense strong solution",
        game,
    )?;
    let truncated = || "the file is truncated (rebuild it)".to_string();
    let u64_at = |at: usize| -> Result<u64, String> {
        map.get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .ok_or_else(truncated)
    };
    let far_len_at = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_add(at))
        .ok_or_else(|| "its length does not match its header (rebuild it)".to_string())?;
    let far_n = u64_at(far_len_at)?;
    let want = usize::try_from(far_n)
        .ok()
        .and_then(|f| f.checked_mul(12))
        .and_then(|f| f.checked_add(far_len_at + 8 + 4));
    match want {
        Some(w) if w == map.len() => {}
        Some(w) if w > map.len() => return Err(truncated()),
        _ => return Err("its length does not match its header (rebuild it)".into()),
    }
    store::checksum_matches(map)?;
    Ok((
        at,
        n as usize,
        far_len_at + 8,
        far_n as usize,
        complete,
        stats,
    ))
}
