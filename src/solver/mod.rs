//! The exact solver: the code that solves games (Connect-Four, Kalah) to their end. Exact solving: fail-soft alpha-beta with a transposition table, iterative deepening for move
//! ordering, and null-window bisection of the score range (MTD with bisection) for the value.
//!
//! 1. **Iterative deepening** (depths 1, 2, … up to [`SolveConfig::id_depth`]; none for a game
//!    whose [`SolverKnowledge::GUESS_BY_DEEPENING`] is false): full-window
//!    alpha-beta with the heuristic at the horizon. Its bounds are stored with their draft (the
//!    depth searched), so they never stand in for exact ones, but its best moves order the exact
//!    search.
//! 2. **Null-window tests** on `[lo, hi]` (the game's [`Game::value_bounds`], else the whole
//!    score range): a null-window search at `(mid, mid + 1)` to the end of the game answers
//!    TEST(root, mid, >) (Hsu, *Scout and NegaScout*, "Alpha-beta revisited"); its fail-soft result moves `lo` up
//!    or `hi` down past `mid`. With a deepening value the first `mid` is that value (as MTD(f)
//!    starts) and then `mid` gallops away from the bound that last moved (1, 2, 4, … steps,
//!    never past the midpoint): a close guess costs a few tests, a bad one at most bisection's
//!    log2. Without one, [`zero_biased_middle`] (Pons' schedule): first whether either side wins
//!    big; once neither does (both bounds moved) or the range is [`NARROW_RANGE`] or less, 0
//!    is the guess and galloping goes on (from step 1 again after a guess).
//!    Bounds proven to the end carry the draft [`table::DRAFT_EXACT`] and are reused by every later
//!    test.
//! 3. **The best move** (if [`SolveConfig::best_move`]): the first root move (TT move first)
//!    whose value, tested with one more null window, reaches the root value.
//!
//! At every node, in this order: an immediate win ends it ([`SolverKnowledge::immediate_win`], skipped
//! where the parent's filter rules one out); moves that lose at once are dropped
//! ([`SolverKnowledge::non_losing_moves`]; if all do, [`SolverKnowledge::forced_loss_value`] or one of them searched);
//! the window is narrowed by the position's bounds ([`SolverKnowledge::quiet_bounds`] to the end of the game,
//! [`Game::value_bounds`] in deepening), then by the table; the children are played, the
//! opponent's forced replies played out ([`SolverKnowledge::forced_move`]), each child's
//! [`SolverKnowledge::static_bounds`] read (one that settles the node ends it, one that fails
//! low is not searched) and their table buckets prefetched together so their loads overlap; the
//! children are ordered ([`SolverKnowledge::order_moves`] or [`SolverKnowledge::child_order`],
//! read with the static bounds by [`SolverKnowledge::child_order_and_bounds`], the table's move
//! first), probed for enhanced cutoffs near the root (a child's stored bound
//! settles the node, or the child, which then is not searched), and searched.
//!
//! Nothing but `evaluate` at game end decides the value, so the answer is the game-theoretic
//! value. A node/time budget or the stop flag ends the solve with the bounds proven so far.
//!
//! **Games whose positions repeat** ([`Game::REPEATS`]): each thread keeps the keys of the
//! line it searches; a position met again on it is a leaf worth [`Game::repetition_value`].
//! The graph-history interaction (Kishimoto & Müller 2004) is a value that a repetition decided
//! on one line, stored and then read on another line where that repetition is not there. So a
//! node stores its bound only when its subtree met no position above it on the line: every
//! entry is the position's own value, the one it has with no history. Reading such a value on
//! any line is sound when a repetition is worth what endless play is (a draw by default). The
//! root is searched with no history, so its value is the game's: the side that wins has a line
//! of ever shorter wins, on which no position comes back (the repetitions it meets are on the
//! loser's side, who would rather draw); the side that can hold a draw holds it on every line,
//! where a repetition is a draw too. The property tests check this against retrograde analysis
//! ([`crate::retrograde`]) on random graphs with cycles, with tables small enough to be
//! overwritten. The cost: values that depended on the line are searched again on every line
//! that reaches them.

//!
//! The files follow the method: [`knowledge`] (the hooks a game may give, and what the solver
//! promises to do with each), [`table`] (the lock-free transposition table), `node` (one node's
//! steps, numbered), `schedule` (the null-window tests: MTD(f) guess, gallop, zero-biased
//! bisection), `threads` (helpers sharing the table, deferring each other's moves).

mod cores;
mod node;
mod schedule;
mod threads;

pub mod book;
pub mod knowledge;
pub mod table;

pub use knowledge::{SolverKnowledge, ANY_SUPPORT};
pub use schedule::{zero_biased_middle, ALONE_UP_TO_PLIES, NARROW_RANGE, SELECTIVE_LEVELS};

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::game::{Game, PositionKey, Score};
use crate::limits::Limits;
use crate::report::{outcome, SolveReport};
use crate::stats::Stats;
use table::TranspositionTable;

/// How to solve.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::{solver::solve_alphabeta, Limits, SolveConfig};
/// let cfg = SolveConfig { tt_bytes: 1 << 20, limits: Limits::none().with_max_nodes(1 << 20), ..SolveConfig::default() };
/// assert_eq!(solve_alphabeta(&Nim::new(21), &cfg, |_| {}).unwrap().value, Some(1));
/// ```
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Transposition table size in bytes.
    pub tt_bytes: usize,
    /// Deepest iterative-deepening pass before the exact search (0: none; none either for a
    /// game whose [`SolverKnowledge::GUESS_BY_DEEPENING`] is false).
    pub id_depth: u32,
    /// Node / time / stop-flag budgets.
    pub limits: Limits,
    /// Also find a best move once the value is known (one more null-window test per root
    /// move tried); off when only the value is wanted, as in a benchmark of scores.
    pub best_move: bool,
    /// Threads searching each null-window test together, sharing the table (1: none besides
    /// the caller's).
    pub threads: usize,
    /// With more than one thread: a root with at most this many plies left, as the game bounds
    /// them ([`SolverKnowledge::plies_left_at_most`]), is solved on the calling thread alone —
    /// its tree is searched before a helper pays for itself. 0: the threads always join.
    /// Default [`ALONE_UP_TO_PLIES`].
    pub alone_up_to_plies: u32,
    /// Enhanced transposition cutoffs in the nodes this many plies from the root (the root is
    /// ply 1; 0: none): a child whose stored bound refutes the node ends it before any child is
    /// searched. Where a subtree is large enough it pays for waiting on the children's table
    /// loads; near the leaves it does not (on Connect-Four 7x6, at every node: 19 % fewer nodes,
    /// 16 % more time). `None`: the game's
    /// [`SolverKnowledge::ENHANCED_CUTOFF_PLIES`].
    pub etc_plies: Option<u32>,
    /// Where the null-window tests start when iterative deepening gives no guess (`id_depth`
    /// 0): `Some(v)` tests `v` first, then gallops from the bound that moved, as after a
    /// deepening guess; `None` bisects with [`zero_biased_middle`] down to [`NARROW_RANGE`].
    /// Measured before that switch: `Some(0)` on the empty 7x6 board 3 tests and 602 M nodes
    /// against 9 and 739 M, but on L1_R2 +14 % nodes.
    pub guess: Option<Score>,
    /// The alpha-beta solver: solve only within `[a, b]` (`a < b`). A value inside is exact;
    /// one at an edge is a bound — `a` says "at most `a`", `b` "at least `b`" — and the
    /// [`Solution`] has those bounds and no value. `(v - 1, v)` is one null-window test, "is the
    /// value at least `v`?", what a job of [`crate::split`] is asked. `None`: the whole range.
    pub window: Option<(Score, Score)>,
    /// The alpha-beta solver: an opening book for this game's rules ([`book`]). A position
    /// the book has exactly (with a move, when one is asked for) is answered at once; else the
    /// book's entries go into the table before the search, so its probes find them.
    pub book: Option<std::sync::Arc<book::Book>>,
    /// Tree PN ([`crate::exact::Method::Pn`], `PnMulti`): most bytes its tree may take
    /// (`None`: three quarters of the memory available when it starts).
    pub max_memory: Option<usize>,
    /// df-pn: the 1+ε trick's ε (0: plain df-pn).
    pub epsilon: f64,
    /// df-pn: initial numbers from the number of moves (Allis' mobility) instead of 1.
    pub mobility: bool,
    /// df-pn: focused search, each node weighing its first children in the game's order
    /// (see [`crate::proof_number::dfpn::DfpnConfig::focus`]); `None`: the game's own
    /// [`SolverKnowledge::DFPN_FOCUS`].
    pub focus: Option<f64>,
    /// df-pn: extract the proof (or disproof) tree of the answer and verify it with the
    /// independent checker.
    pub check: bool,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            tt_bytes: 64 << 20,
            id_depth: 8,
            limits: Limits::none(),
            best_move: true,
            threads: 1,
            alone_up_to_plies: ALONE_UP_TO_PLIES,
            etc_plies: None,
            guess: None,
            window: None,
            book: None,
            max_memory: None,
            epsilon: 0.25,
            mobility: false,
            focus: None,
            check: false,
        }
    }
}

/// Where a solve stands, passed to the progress callback after every step.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Progress {
    /// Proven lower bound on the value (MAX's view).
    pub lower: Score,
    /// Proven upper bound.
    pub upper: Score,
    /// Which step: `"deepening"` (with its depth), `"selective"` (the selective pass's tests,
    /// whose bounds are not proven and not reported here) or `"bisection"`.
    pub phase: &'static str,
    /// The iterative-deepening depth just finished, or the selective pass's level (0 in
    /// bisection).
    pub depth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

/// The result of a solve.
///
/// ```
/// use gamesearch::{solver::solve_alphabeta, trees::ExplicitTree, SolveConfig};
/// let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
/// let s = solve_alphabeta(&t.root(), &SolveConfig { tt_bytes: 1 << 22, ..SolveConfig::default() }, |_| {}).unwrap();
/// assert_eq!((s.value, s.bounds, s.complete), (Some(0), (0, 0), true));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// The game-theoretic value (MAX's view), when proven.
    pub value: Option<Score>,
    /// The proven bounds `(lower, upper)`; equal when solved.
    pub bounds: (Score, Score),
    /// A move achieving the value (None for a finished game, an unfinished solve, or
    /// [`SolveConfig::best_move`] off).
    pub best_move: Option<M>,
    /// False when a budget or the stop flag ended the solve first.
    pub complete: bool,
    /// Counters (`tests`: null-window searches at the root; `tt_hits`: probes that cut or
    /// narrowed the window).
    pub stats: Stats,
    /// Bytes of the transposition table (0 for tree PN).
    pub tt_bytes: usize,
    /// Tree PN: the tree's peak size in bytes.
    pub peak_tree_bytes: Option<usize>,
    /// df-pn with [`SolveConfig::check`]: nodes of the proof (or disproof) tree that passed
    /// the independent checker (`None`: not checked).
    pub proof_nodes: Option<usize>,
    /// df-pn: the root's proof and disproof numbers after the last threshold (∞ = `u32::MAX`).
    pub root_numbers: Option<(u32, u32)>,
    /// True when the opening book ([`SolveConfig::book`]) answered without a search.
    pub from_book: bool,
    /// For a game whose positions repeat ([`Game::REPEATS`]), won or lost, solved by
    /// [`crate::exact::solve`]: the plies to the end under perfect play (the winner's
    /// shortest, the loser's longest). `None` otherwise: a draw, another game, a budget, or a
    /// game whose repetition is worth more than a draw (a win may rest on endless play).
    pub remoteness: Option<u32>,
}

impl<M: Copy> Solution<M> {
    /// The solution with its move named, as `algo` found it in `time_ms`: what `gamesearch
    /// solve` prints, whichever solver found it.
    ///
    /// ```
    /// use gamesearch::{solver::solve_alphabeta, trees::ExplicitTree, SolveConfig};
    /// let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
    /// let s = solve_alphabeta(&t.root(), &SolveConfig::default(), |_| {}).unwrap();
    /// let r = s.report(&t.root(), "alphabeta-tt", 1.0);
    /// assert_eq!((r.value, r.outcome), (Some(0), Some("draw")));
    /// ```
    pub fn report<G: Game<Move = M>>(&self, game: &G, algo: &str, time_ms: f64) -> SolveReport {
        SolveReport {
            algo: algo.into(),
            value: self.value,
            bounds: self.bounds,
            best_move: self.best_move.map(|m| game.move_name(m)),
            complete: self.complete,
            outcome: outcome(self.bounds),
            stats: self.stats,
            tt_bytes: self.tt_bytes,
            peak_tree_bytes: self.peak_tree_bytes,
            proof_nodes: self.proof_nodes,
            remoteness: self.remoteness,
            root_numbers: self.root_numbers,
            from_book: self.from_book,
            time_ms,
        }
    }
}

/// A reusable exact solver: its transposition table survives between positions (every bound
/// in it is a bound on that position's value, whatever the root), as a benchmark over many
/// positions wants.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::solver::{ExactSolver, SolveConfig};
/// let cfg = SolveConfig { tt_bytes: 1 << 20, ..SolveConfig::default() };
/// let mut solver = ExactSolver::new(&cfg).unwrap();
/// assert_eq!(solver.solve(&Nim::new(20), &cfg, |_| {}).unwrap().value, Some(-1));
/// assert_eq!(solver.solve(&Nim::new(22), &cfg, |_| {}).unwrap().value, Some(1));
/// ```
pub struct ExactSolver<G: Game> {
    /// The table, shared with the solvers [`ExactSolver::sharing_table`] made.
    tt: Arc<TranspositionTable>,
    /// The main thread's move stack, kept between solves (grown once to the deepest path's
    /// need, so that no node allocates).
    move_stack: Vec<G::Move>,
    /// The helper threads (`threads - 1`), started with the solver when it is made for more
    /// than one thread, or by the first solve that asks for them.
    helpers: Option<threads::Helpers>,
}

impl<G: PositionKey + SolverKnowledge + Sync> ExactSolver<G> {
    /// A solver with a table of `cfg.tt_bytes` and, for `cfg.threads` above 1, its helper
    /// threads, which wait between its solves; [`Error::OutOfMemory`] when the machine cannot
    /// give that much memory, [`Error::Threads`] when it cannot start the threads.
    pub fn new(cfg: &SolveConfig) -> Result<Self, Error> {
        Ok(ExactSolver {
            tt: Arc::new(TranspositionTable::try_with_bytes(cfg.tt_bytes)?),
            move_stack: Vec::new(),
            helpers: match cfg.threads {
                0 | 1 => None,
                n => Some(threads::Helpers::start(n - 1)?),
            },
        })
    }

    /// Another solver over this one's table: both may solve at the same time, on other
    /// threads, each reading what the other stored (the table is lock-free; a server keeps one
    /// table for every request this way).
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::solver::{ExactSolver, SolveConfig};
    /// let cfg = SolveConfig { tt_bytes: 1 << 20, ..SolveConfig::default() };
    /// let mut first = ExactSolver::new(&cfg).unwrap();
    /// let mut second = first.sharing_table();
    /// let theirs = cfg.clone();
    /// let other = std::thread::spawn(move || {
    ///     second.solve(&Nim::new(40), &theirs, |_| {}).unwrap().value
    /// });
    /// assert_eq!(first.solve(&Nim::new(41), &cfg, |_| {}).unwrap().value, Some(1));
    /// assert_eq!(other.join().unwrap(), Some(-1));
    /// ```
    pub fn sharing_table(&self) -> Self {
        ExactSolver {
            tt: Arc::clone(&self.tt),
            move_stack: Vec::new(),
            helpers: None,
        }
    }
}

/// Solves `game` exactly. `progress` is called after every deepening pass and every bisection
/// step.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::solver::{solve_alphabeta, SolveConfig};
/// let s = solve_alphabeta(&Nim::new(30), &SolveConfig::default(), |_| {}).unwrap();
/// assert!(s.complete);
/// assert_eq!(s.bounds.0, s.bounds.1);
/// ```
pub fn solve_alphabeta<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    cfg: &SolveConfig,
    progress: impl FnMut(&Progress),
) -> Result<Solution<G::Move>, Error> {
    // A position the opening book answers needs no table.
    if let Some(s) = schedule::book_answer(game, cfg) {
        return Ok(s);
    }
    ExactSolver::new(cfg)?.solve(game, cfg, progress)
}

/// Solves `game` and names the result (what `gamesearch solve` prints).
pub fn solve_alphabeta_report<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    cfg: &SolveConfig,
    progress: impl FnMut(&Progress),
) -> Result<SolveReport, Error> {
    let start = Instant::now();
    let s = solve_alphabeta(game, cfg, progress)?;
    Ok(s.report(game, "alphabeta-tt", start.elapsed().as_secs_f64() * 1e3))
}
