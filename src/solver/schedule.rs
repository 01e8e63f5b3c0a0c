//! The schedule of null-window tests that finds the exact value: iterative deepening for a first
//! guess (MTD(f)'s start), then tests galloping from the bound that last moved, or, without a
//! guess, Pons' zero-biased bisection until neither side wins big, then the game's test near 0
//! (where the game asks, that test at once: `SolverKnowledge::BISECT_FIRST`); every test between
//! two values the game can have (`SolverKnowledge::VALUE_STEP`); then the best move.

use std::sync::atomic::AtomicU64;
use std::time::Instant;

use smallvec::SmallVec;

use super::node::{from_key_orientation, put_first, table_key, Worker};
use super::threads::{Helpers, Team};
use super::{ExactSolver, Progress, Solution, SolveConfig, SolverKnowledge};
use crate::error::Error;
use crate::game::{Player, PositionKey, Score, INF};
use crate::limits::Budget;
use crate::stats::Stats;

impl<G: PositionKey + SolverKnowledge + Sync> ExactSolver<G> {
    /// Solves `game` with this solver's table (`cfg.tt_bytes` is ignored: the table was sized at
    /// creation); `progress` is called after every deepening pass and null-window test.
    ///
    /// A game that does not end on some path (its positions repeat) stops the solve with
    /// [`Error::LineTooDeep`] before the line overflows the thread's stack.
    pub fn solve(
        &mut self,
        game: &G,
        cfg: &SolveConfig,
        progress: impl FnMut(&Progress),
    ) -> Result<Solution<G::Move>, Error> {
        let (limits, watch) = cfg.limits.watched();
        let cfg = &SolveConfig {
            limits,
            ..cfg.clone()
        };
        let s = self.solve_watched(game, cfg, progress);
        match watch.error() {
            Some(e) => Err(e),
            None => s,
        }
    }

    /// [`ExactSolver::solve`] once its limits carry a [`crate::limits::LineWatch`].
    fn solve_watched(
        &mut self,
        game: &G,
        cfg: &SolveConfig,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Solution<G::Move>, Error> {
        // Without known bounds the whole score range; the first guess and galloping keep the number
        // of tests small anyway.
        let (game_lo, game_hi) = game.value_bounds().unwrap_or(crate::game::VALUE_RANGE);
        let (mut lo, mut hi) = (game_lo, game_hi);
        if let Some((a, b)) = cfg.window {
            if a >= b {
                return Err(Error::BadParameter(format!(
                    "a solve's window [{a}, {b}] must have a < b"
                )));
            }
            // Outside the game's own bounds a window's edge is no edge.
            (lo, hi) = (a.clamp(game_lo, game_hi), b.clamp(game_lo, game_hi));
        }
        if let Some(s) = book_answer(game, cfg) {
            return Ok(Solution {
                tt_bytes: self.tt.bytes(),
                ..s
            });
        }
        let start = Instant::now();
        self.tt.new_search();
        // The opening book's bounds on the root narrow the range, and its entries go into the
        // table, where the search's probes find them.
        if let Some(book) = &cfg.book {
            if let Some(a) = book.lookup(game) {
                (lo, hi) = (lo.max(a.bounds.0.min(hi)), hi.min(a.bounds.1.max(lo)));
            }
            book.seed(&self.tt);
        }
        // (A root the game says will be over within `alone_up_to_plies` is searched alone.)
        let threads = match game.plies_left_at_most() {
            Some(p) if p <= cfg.alone_up_to_plies => 1,
            _ => cfg.threads.max(1),
        };
        // (The solver's helpers, unless this solve asks for another number of them.)
        if threads > 1 && self.helpers.as_ref().map(Helpers::count) != Some(threads - 1) {
            self.helpers = Some(Helpers::start(threads - 1)?);
        }
        let helpers = self.helpers.as_ref().filter(|_| threads > 1);
        let etc_plies = cfg.etc_plies.unwrap_or(G::ENHANCED_CUTOFF_PLIES);
        let (tt, move_stack) = (&*self.tt, std::mem::take(&mut self.move_stack));
        let search = |team: Option<Team>, busy: &[AtomicU64]| {
            let team = team.as_ref();
            let mut main = Worker::new(tt, Budget::new(&cfg.limits), move_stack, busy, etc_plies);
            let s = &mut main;
            let report = |s: &Worker<G>, lo, hi, phase, depth| Progress {
                lower: lo,
                upper: hi,
                phase,
                depth,
                nodes: s.stats.nodes(),
                elapsed: start.elapsed(),
            };
            // The deepest heuristic value is the first guess (MTD(f)'s start); bisection after it.
            let mut guess = None;
            let id_depth = if G::GUESS_BY_DEEPENING {
                cfg.id_depth
            } else {
                0
            };
            for d in (1..=id_depth).take_while(|_| lo < hi) {
                let v = s.root(game, -INF, INF, d);
                if s.budget.stopped {
                    break;
                }
                guess = Some(v);
                progress(&report(s, lo, hi, "deepening", d));
            }
            if guess.is_none() {
                guess = cfg.guess;
            }
            // (Tests ask only between values the game can have: multiples of its step.)
            let unit = G::VALUE_STEP.max(1);
            let down = |v: Score| v - v.rem_euclid(unit);
            let up = |v: Score| down(v + unit - 1);
            // The selective passes, where the game asks for them: MTD(f)'s tests from the guess
            // (then the last pass's value), each position offered to the game's probable cut,
            // until they agree on a probable value; their best moves stay in the table, and the
            // exact tests start from the last pass's value.
            let levels = game.selective_levels().min(SELECTIVE_LEVELS);
            let mut mid = guess.unwrap_or_else(|| game.near_zero_guess());
            for level in (0..levels).take_while(|_| lo < hi) {
                s.selective = Some(level);
                let (mut slo, mut shi) = (lo, hi);
                while slo < shi && !s.budget.stopped {
                    let m = down(mid).clamp(slo, shi - 1);
                    s.stats.tests += 1;
                    let t = s.test(game, None, m, None);
                    if t <= m {
                        shi = down(t.min(m)).max(slo);
                        mid = shi - unit;
                    } else {
                        slo = up(t.max(m + 1)).min(shi);
                        mid = slo;
                    }
                    progress(&report(s, lo, hi, "selective", u32::from(level)));
                }
                s.selective = None;
                if s.budget.stopped {
                    break;
                }
                mid = slo;
                guess = Some(slo);
            }
            // After the guess, gallop from the bound that last moved (steps 1, 2, 4, …) but never past
            // the midpoint: as fast as MTD(f) when the guess is close, bisection's log2 when it is not.
            if guess.is_none() && !G::BISECT_FIRST {
                guess = Some(game.near_zero_guess());
            }
            let first_range = (lo, hi);
            let mut galloping = guess.is_some();
            let mut step: Score = 1;
            let mut last_failed_low = true;
            while lo < hi && !s.budget.stopped {
                let half = lo + (hi - lo) / 2;
                // Bisection without a guess narrows the range with cheap tests of big wins; once
                // it is narrow, or a big win has been ruled out on both sides, the game's test near
                // 0 is the guess (0, the weak solution's test, or −1 where close games lean to
                // MIN: `SolverKnowledge::near_zero_guess`) and galloping goes on.
                let both_sides = lo > first_range.0 && hi < first_range.1;
                if !galloping && (hi - lo <= NARROW_RANGE || both_sides) {
                    galloping = true;
                    guess = Some(game.near_zero_guess());
                    step = 1;
                }
                let guessed = guess.is_some();
                let mid = match guess.take() {
                    Some(g) => g,
                    None if !galloping => zero_biased_middle(lo, hi),
                    None if last_failed_low => {
                        hi.saturating_sub(step.saturating_mul(unit)).max(half)
                    }
                    None => lo.saturating_add(step.saturating_mul(unit) - 1).min(half),
                };
                let mid = down(mid).clamp(lo, hi - 1);
                step = step.saturating_mul(2);
                s.stats.tests += 1;
                let t = s.test(game, None, mid, team);
                if s.budget.stopped {
                    break;
                }
                let failed_low = t <= mid;
                // After a guess, or a turn, the gallop starts again next to the bound that moved
                // (a guess that failed the way the test before it did used to go on at step 2:
                // L1_R2 first 200 307,305 → 300,469 nodes, L2_R2 8,662 → 8,420, L1_R1 1,312 → 1,301).
                if guessed || failed_low != last_failed_low {
                    step = 1;
                }
                last_failed_low = failed_low;
                if failed_low {
                    hi = down(t.min(mid)).max(lo);
                } else {
                    lo = up(t.max(mid + 1)).min(hi);
                }
                // No value is 0 in a game without draws: a bound of 0 is one of ±1.
                if !G::DRAWS {
                    if lo == 0 && hi > 0 {
                        lo = 1;
                    }
                    if hi == 0 && lo < 0 {
                        hi = -1;
                    }
                }
                progress(&report(s, lo, hi, "bisection", 0));
            }
            // A window's edge was never proven (a test that fails high lifts `lo` past the value
            // tested, one that fails low drops `hi` to it): at an edge, the game's own bound holds.
            if let Some((a, b)) = cfg.window {
                if lo == a.clamp(game_lo, game_hi) {
                    lo = game_lo;
                }
                if hi == b.clamp(game_lo, game_hi) {
                    hi = game_hi;
                }
            }
            let solved = lo == hi && !s.budget.stopped;
            let mut best_move = None;
            if solved && cfg.best_move {
                let v = lo;
                let mut moves: SmallVec<[G::Move; 16]> = game.moves().collect();
                let (key, symmetry) = table_key(game);
                let table_move = s.tt.probe(key).and_then(|e| {
                    let index = from_key_orientation(game, symmetry, e.best);
                    game.moves().nth(index as usize)
                });
                put_first(&mut moves, table_move);
                for mv in moves {
                    let child = game.play(mv);
                    let position = game.moves().position(|x| x == mv);
                    s.stats.tests += 1;
                    // (With the threads, as every test: the table's move is not always one that
                    // reaches the value — after a test that failed low it is only the move with the
                    // highest bound — and then the next moves' tests may be as large as a solve's.)
                    let reaches = match game.to_move() {
                        Player::Max => s.test(&child, position, v - 1, team) >= v,
                        Player::Min => s.test(&child, position, v, team) <= v,
                    };
                    if s.budget.stopped {
                        break;
                    }
                    if reaches {
                        best_move = Some(mv);
                        break;
                    }
                }
            }
            // A window's question is answered once the loop ends, at an edge too.
            let complete = (solved || cfg.window.is_some()) && !s.budget.stopped;
            let stats = s.stats;
            let solution = Solution {
                value: solved.then_some(lo),
                bounds: (lo, hi),
                best_move,
                complete,
                stats,
                tt_bytes: tt.bytes(),
                peak_tree_bytes: None,
                proof_nodes: None,
                root_numbers: None,
                from_book: false,
                remoteness: None,
            };
            (solution, std::mem::take(&mut main.move_stack))
        };
        let (solution, move_stack) = match helpers {
            Some(h) => h.team_up(game, tt, etc_plies, |team, busy| search(Some(team), busy)),
            None => search(None, &[]),
        };
        self.move_stack = move_stack;
        Ok(solution)
    }
}

/// The solution the opening book ([`SolveConfig::book`]) gives without a search: `game`'s
/// exact value, and its move when one is asked for (and the game is not over). None with a
/// window (the search then takes the book's bounds).
pub(super) fn book_answer<G: PositionKey + SolverKnowledge>(
    game: &G,
    cfg: &SolveConfig,
) -> Option<Solution<G::Move>> {
    if cfg.window.is_some() {
        return None;
    }
    let a = cfg.book.as_ref()?.lookup(game)?;
    let v = a.value()?;
    let over = game.moves().next().is_none();
    if cfg.best_move && a.best_move.is_none() && !over {
        return None;
    }
    Some(Solution {
        value: Some(v),
        bounds: (v, v),
        best_move: a.best_move.filter(|_| cfg.best_move),
        complete: true,
        stats: Stats::default(),
        tt_bytes: 0,
        peak_tree_bytes: None,
        proof_nodes: None,
        root_numbers: None,
        from_book: true,
        remoteness: None,
    })
}

/// How narrow the range of bisection without a guess gets before it tests 0 and gallops from
/// there (it does so as well once a test on each side has moved both bounds: neither side wins
/// big): Pons' zero-biased middles, which suit wide ranges, test both sides of 0 (`-1` and
/// then `0`) in a narrow one.
///
/// Measured (Connect-Four, nodes, against never switching): 7x6 after 4444 −19 % (7 tests instead
/// of 9), empty 7x5 −15 %, 7x4 −6 %, L2_R2 first 200 −9 %, L1_R2 first 60 +3 %, empty 6x6 +17 %; 4
/// and 12 did worse on L1_R2. 64 (Connect-Four's whole range, so the first test at 0) saved 4-10 %
/// on empty boards and 7x6 after 4444 but cost L1_R1 12 times the nodes (1,583 → 19,888 mean) and
/// L2_R1 2.2 times.
///
/// The rule "both bounds moved" (on 7x6: after the tests at −9 and +9, 0 instead of −4 and +4)
/// measured against the range alone, with the gallop restarting at step 1 after a guess in both
/// (Connect-Four nodes, one thread): empty 7x6 113.4 M → 108.6 M, 7x6 after 4444 21.6 M → 19.9 M,
/// 7x5 −15 %, 6x6 −5 %, 6x5 −6 %, 7x4 −23 %, L2_R2 first 200 8,420 → 8,041, L1_R2 first 200
/// 300,469 → 323,051 (+7.5 %), L1_R1, L2_R1, L3_R1 unchanged; Kalah (value: nodes) (6,3) +2:
/// 12.5 M → 9.5 M, (4,4) +2: 1.32 M → 0.98 M, (4,5) +2: 12.6 M → 6.4 M, (5,3) +8: 472 k →
/// 494 k, (5,4) +12: 9.2 M → 13.8 M. It pays where the value is near 0 — the positions that
/// cost the most — and costs where a side wins big (more tests galloping out from 0).
///
/// 14 instead of 8 (Connect-Four, one thread, nodes): the empty boards whose range is 14 or less
/// start at the test near 0 — 4x4 1,782 → 1,436, 5x4 4,179 → 3,248, 4x5 4,464 → 3,580, and
/// with the ranges narrowed by fewer tests 6x4 −6 %, 5x5 −12 %, 4x6 +0.7 % — where the test of a
/// big win was a fifth of the solve; every larger board the same. Pons' sets (mean nodes):
/// L3_R1 11.63 → 11.16, L2_R1 109.1 → 117.7, L2_R2 first 300 7,440 → 7,431, L1_R1 first 200
/// 1,152 → 1,191, L1_R2 first 200 and L1_R3 first 100 the same.
pub const NARROW_RANGE: Score = 14;

/// The most selective passes a game may ask for ([`SolverKnowledge::selective_levels`]).
pub const SELECTIVE_LEVELS: u8 = 4;

/// The next null-window test of a bisection without a first guess: the middle of `[lo, hi]`,
/// moved to half the bound on its side of 0 when that is further out (Pons' solver). The first
/// tests ask whether either side wins big, which is cheap to refute and fills the table; later
/// ones close in on 0, where most values of drawish games lie.
///
/// ```
/// use gamesearch::solver::zero_biased_middle;
/// assert_eq!(zero_biased_middle(-18, 18), -9);
/// assert_eq!(zero_biased_middle(-8, 18), 9);
/// assert_eq!(zero_biased_middle(1, 9), 5);
/// ```
pub fn zero_biased_middle(lo: Score, hi: Score) -> Score {
    let mid = lo + (hi - lo) / 2;
    if mid <= 0 && lo / 2 < mid {
        lo / 2
    } else if mid >= 0 && hi / 2 > mid {
        hi / 2
    } else {
        mid
    }
}

/// [`SolveConfig::alone_up_to_plies`]'s default: with more than one thread, a root with at most
/// this many plies left ([`SolverKnowledge::plies_left_at_most`]) is solved on one thread.
///
/// Connect-Four, two threads, 1 GiB, medians against c4's two threads: 5x4 0.83 → 0.49, 4x5
/// 0.52 → 0.36, 4x4 1.18 → 0.67, where the helper made the solve slower than one thread alone;
/// the boards of 24 cells keep their helper, which pays there (4x6, 11 rounds: one thread
/// 5.1 ms, two 3.1 ms).
pub const ALONE_UP_TO_PLIES: u32 = 20;
