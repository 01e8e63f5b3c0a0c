//! Exact solving: fail-soft alpha-beta with a transposition table, iterative deepening for move
//! ordering, and null-window bisection of the score range (MTD with bisection) for the value.
//!
//! 1. **Iterative deepening** (depths 1, 2, … up to [`SolveConfig::id_depth`]): full-window
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
//!    Bounds proven to the end carry the draft [`DRAFT_EXACT`] and are reused by every later
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
//! the table's move first), probed for enhanced cutoffs near the root (a child's stored bound
//! settles the node, or the child, which then is not searched), and searched.
//!
//! Nothing but `evaluate` at game end decides the value, so the answer is the game-theoretic
//! value. A node/time budget or the stop flag ends the solve with the bounds proven so far.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use smallvec::SmallVec;

use super::relative;
use super::tt::{Entry, TranspositionTable, DRAFT_EXACT};
use crate::error::Error;
use crate::game::{Adapter, Game, Player, PositionKey, Score, INF};
use crate::limits::{Budget, Limits};
use crate::report::{outcome, SolveReport};
use crate::stats::Stats;

/// What a game may know that the exact solver (and only it) uses: each hook has a default, so a
/// game opts in with an empty `impl` and adds hooks where its knowledge saves work. Like the rules,
/// every hook must be true, never a guess: the solver's answer is exact only if they are.
/// Adapters ([`Adapter`]) get the inner game's hooks through the blanket impl below.
///
/// ```
/// use gamesearch::games::Connect4;
/// use gamesearch::{Game, SolverKnowledge};
/// let start = Connect4::new(7, 6).unwrap();
/// // The first player has columns 4, 5 and 6 of the bottom row: 3 or 7 completes four.
/// let p = start.play_moves("445566").unwrap();
/// let win = p.immediate_win().unwrap();
/// assert!(p.move_name(win) == "3" || p.move_name(win) == "7");
/// assert!(p.play(win).evaluate() > 0);
/// // The second player, to move after 44556, has no such stone.
/// assert_eq!(start.play_moves("44556").unwrap().immediate_win(), None);
/// ```
///
/// Without the (empty) impl the solver does not compile, and the message names this trait:
/// "the solver needs `impl gamesearch::SolverKnowledge for Nim {}`".
///
/// ```compile_fail
/// use gamesearch::{Game, Player, Score};
/// #[derive(Clone, Copy)]
/// struct Nim { pile: u8, to_move: Player }
/// impl Game for Nim {
///     type Move = u8;
///     type Moves = std::iter::Take<std::ops::RangeInclusive<u8>>;
///     fn to_move(&self) -> Player { self.to_move }
///     fn moves(&self) -> Self::Moves { (1..=2).take(self.pile.min(2) as usize) }
///     fn play(&self, m: u8) -> Self { Nim { pile: self.pile - m, to_move: self.to_move.opponent() } }
///     fn evaluate(&self) -> Score { if self.pile == 0 { -self.to_move.sign() } else { 0 } }
/// }
/// impl gamesearch::PositionKey for Nim { fn key(&self) -> u64 { self.pile.into() } }
/// // error[E0277]: `Nim` lacks a trait this search needs … the solver `impl SolverKnowledge`
/// let s = gamesearch::solve(&Nim { pile: 4, to_move: Player::Max }, &Default::default(), |_| {});
/// ```
#[diagnostic::on_unimplemented(
    message = "the solver needs `{Self}: gamesearch::SolverKnowledge`",
    label = "needs `impl SolverKnowledge for {Self} {{}}`",
    note = "add `impl gamesearch::SolverKnowledge for {Self} {{}}` (every hook has a default)"
)]
pub trait SolverKnowledge: Game {
    /// Reorders `moves` (this position's, in generation order) best-first by the game's own
    /// knowledge (threats, captures…). The solver calls it before trying the transposition
    /// table's move; the default keeps generation order.
    fn order_moves(&self, _moves: &mut [Self::Move]) {}

    /// True when the game can order a move by the position it leads to
    /// ([`SolverKnowledge::child_order`]) more cheaply than [`SolverKnowledge::order_moves`]
    /// orders the bare moves (Connect-Four: `play` already found the child's threats). The
    /// solver, which plays every child before searching any to read its
    /// [`SolverKnowledge::static_bounds`], then orders the children by `child_order` instead
    /// (only there: with up to eight moves, to the end of the game, for games with
    /// [`SolverKnowledge::NON_LOSING_PREVENTS_IMMEDIATE_WIN`]). Default: false.
    const ORDERS_BY_CHILD: bool = false;

    /// With [`SolverKnowledge::ORDERS_BY_CHILD`]: how promising the move `mv`, which leads to
    /// `child`, is for the side to move here — higher first, equal keys in generation order. It
    /// must order as [`SolverKnowledge::order_moves`] does, which the solver uses elsewhere.
    /// Default: 0 (generation order).
    ///
    /// ```
    /// use gamesearch::{games::Connect4, Game, SolverKnowledge};
    /// let p = Connect4::new(7, 6).unwrap().play_moves("4455").unwrap();
    /// let mut moves: Vec<u8> = p.moves().collect();
    /// p.order_moves(&mut moves);
    /// let mut by_child: Vec<u8> = p.moves().collect();
    /// by_child.sort_by_key(|&m| std::cmp::Reverse(p.child_order(m, &p.play(m))));
    /// assert_eq!(moves, by_child);
    /// ```
    fn child_order(&self, _mv: Self::Move, _child: &Self) -> u32 {
        0
    }

    /// A move that wins at once with the best score the mover can get, when the game can tell
    /// cheaply (Connect-Four: a stone completing four). The solver takes its value without
    /// searching. Default: none.
    fn immediate_win(&self) -> Option<Self::Move> {
        None
    }

    /// Moves the moves of `moves` that do not lose at once to the front and returns how many
    /// there are (0: every move loses at once). The solver searches only those. Only provably
    /// losing moves may be dropped; the default keeps them all.
    fn non_losing_moves(&self, moves: &mut [Self::Move]) -> usize {
        moves.len()
    }

    /// True when, after any move [`SolverKnowledge::non_losing_moves`] keeps, the side to move
    /// has no [`SolverKnowledge::immediate_win`] (Connect-Four: every kept move blocks or avoids
    /// the opponent's threats). The solver then asks for immediate wins only where that is not
    /// already known — at the root and below a position whose every move loses. Default: false.
    const NON_LOSING_PREVENTS_IMMEDIATE_WIN: bool = false;

    /// Bounds `(lo, hi)` on this position's game-theoretic value (MAX's view) given that the
    /// side to move has no immediate win and at least one move that does not lose at once — the
    /// solver asks only then, and narrows its window with them. Games whose winner scores more
    /// for a quicker win bound the value tighter here than [`Game::value_bounds`] can
    /// (Connect-Four: neither side wins with its next stone, so each wins at best a move later).
    /// Default: [`Game::value_bounds`].
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        self.value_bounds()
    }

    /// Bounds `(lo, hi)` (MAX's view) on the game-theoretic value of a position whose side to
    /// move has no immediate win, known without a search. The solver asks them of every child
    /// [`SolverKnowledge::non_losing_moves`] keeps (after the child's forced replies,
    /// [`SolverKnowledge::forced_move`]), before it searches any (only for games with
    /// [`SolverKnowledge::NON_LOSING_PREVENTS_IMMEDIATE_WIN`], which guarantees the premise):
    /// a child whose bounds already settle the parent is found wherever it stands in the move
    /// order. When the position has a move that does not lose at once, they must be its
    /// [`SolverKnowledge::quiet_bounds`] or tighter (the child then uses them instead of its
    /// own). Default: none (Connect-Four: the opponent's win with its next stone when every move
    /// loses at once, else `quiet_bounds`).
    ///
    /// ```
    /// use gamesearch::{games::Connect4, SolverKnowledge};
    /// // The first player has 3, 4 and 5 of the bottom row, 2 and 6 both open: the second,
    /// // to move, cannot stop both, and the first wins with its fourth stone (22 - 4).
    /// let p = Connect4::new(7, 6).unwrap().play_moves("33445").unwrap();
    /// assert_eq!(p.static_bounds(), Some((18, 18)));
    /// // From the empty board, only the bounds every position has.
    /// let (lo, hi) = Connect4::new(7, 6).unwrap().static_bounds().unwrap();
    /// assert!(lo < 0 && hi > 0);
    /// ```
    fn static_bounds(&self) -> Option<(Score, Score)> {
        None
    }

    /// The value (MAX's view) when [`SolverKnowledge::non_losing_moves`] keeps no move — every
    /// move loses at once — if the game knows it without playing one (Connect-Four: the opponent
    /// wins with its next stone). The solver then returns it instead of searching a losing move.
    /// Default: none.
    fn forced_loss_value(&self) -> Option<Score> {
        None
    }

    /// The one move of this position that [`SolverKnowledge::non_losing_moves`] keeps, when
    /// it keeps exactly one (a forced move: Connect-Four, blocking the opponent's only playable
    /// threat), for a position whose side to move has no immediate win. The solver plays such
    /// moves out before it reads a child's [`SolverKnowledge::static_bounds`] and searches the
    /// position at the end of the chain in the child's place: its value is the child's, since
    /// every other move loses at once. Default: none.
    ///
    /// ```
    /// use gamesearch::{games::Connect4, SolverKnowledge};
    /// // The first player threatens the bottom of column 4: the second must play there.
    /// let p = Connect4::new(7, 6).unwrap().play_moves("141414").unwrap();
    /// assert_eq!(p.forced_move(), Some(3));
    /// assert_eq!(Connect4::new(7, 6).unwrap().forced_move(), None);
    /// ```
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }

    /// For games with a symmetry that keeps the value (Connect-Four: the board reflected left
    /// to right): one key shared by this position and its mirror image, and whether it is the
    /// mirror's (`false`: this position's own [`PositionKey::key`]). The solver keys its table by
    /// it, so a position and its mirror share one entry. Default: none (no symmetry; the
    /// solver uses `key`).
    ///
    /// ```
    /// use gamesearch::{games::Connect4, SolverKnowledge};
    /// let start = Connect4::new(7, 6).unwrap();
    /// let (a, b) = (start.play_moves("12").unwrap(), start.play_moves("76").unwrap());
    /// let ((ka, ma), (kb, mb)) = (a.canonical_key().unwrap(), b.canonical_key().unwrap());
    /// assert_eq!(ka, kb); // mirror images share a key
    /// assert!(ma != mb); // one of them is keyed by its mirror's code
    /// // The best move stored by one is read, mirrored, by the other: columns 1..7 are all
    /// // playable, so index i is column i + 1 and its mirror column 7 - i.
    /// assert_eq!(a.mirror_index(0), 6);
    /// ```
    fn canonical_key(&self) -> Option<(u64, bool)> {
        None
    }

    /// How many plies from the root probe their children's table entries for a cut-off
    /// (enhanced transposition cutoffs), unless [`SolveConfig::etc_plies`] says otherwise.
    /// Tuned by measurement per game: Connect-Four 26 (fewer nodes, less time), others 0
    /// (Kalah(6,4): 15 % more nodes with 12). Default: 0.
    const ENHANCED_CUTOFF_PLIES: u32 = 0;

    /// For a game with [`SolverKnowledge::canonical_key`]: the index (in this position's
    /// generation order of moves) of the move that the mirror image's move at `index` (in the
    /// mirror's order) reflects; the table stores best moves by index in the orientation of the
    /// key it used. Must be an involution on `0..moves` (Connect-Four, columns left to right:
    /// `moves - 1 - index`). Default: `index`.
    fn mirror_index(&self, index: u8) -> u8 {
        index
    }
}

/// Adapters forward the inner game's knowledge, values mapped by [`Adapter::map_value`].
impl<A: Adapter> SolverKnowledge for A
where
    A::Inner: SolverKnowledge,
{
    #[inline]
    fn order_moves(&self, moves: &mut [Self::Move]) {
        self.inner().order_moves(moves)
    }
    const ORDERS_BY_CHILD: bool = A::Inner::ORDERS_BY_CHILD;
    #[inline]
    fn child_order(&self, mv: Self::Move, child: &Self) -> u32 {
        self.inner().child_order(mv, child.inner())
    }
    #[inline]
    fn immediate_win(&self) -> Option<Self::Move> {
        self.inner().immediate_win()
    }
    #[inline]
    fn non_losing_moves(&self, moves: &mut [Self::Move]) -> usize {
        self.inner().non_losing_moves(moves)
    }
    const NON_LOSING_PREVENTS_IMMEDIATE_WIN: bool = A::Inner::NON_LOSING_PREVENTS_IMMEDIATE_WIN;
    #[inline]
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        mapped_bounds::<A>(self.inner().quiet_bounds())
    }
    #[inline]
    fn forced_loss_value(&self) -> Option<Score> {
        self.inner().forced_loss_value().map(A::map_value)
    }
    #[inline]
    fn forced_move(&self) -> Option<Self::Move> {
        self.inner().forced_move()
    }
    #[inline]
    fn static_bounds(&self) -> Option<(Score, Score)> {
        mapped_bounds::<A>(self.inner().static_bounds())
    }
    #[inline]
    fn canonical_key(&self) -> Option<(u64, bool)> {
        self.inner().canonical_key()
    }
    const ENHANCED_CUTOFF_PLIES: u32 = A::Inner::ENHANCED_CUTOFF_PLIES;
    #[inline]
    fn mirror_index(&self, index: u8) -> u8 {
        self.inner().mirror_index(index)
    }
}

/// The inner game's bounds read in the adapter's values ([`Adapter::map_value`] is monotone).
#[inline]
fn mapped_bounds<A: Adapter>(bounds: Option<(Score, Score)>) -> Option<(Score, Score)> {
    bounds.map(|(lo, hi)| (A::map_value(lo), A::map_value(hi)))
}

/// The table key of `p` (shared with its mirror image when the game has a symmetry) and whether
/// it is the mirror's (then best-move indices are stored in the mirror's orientation).
#[inline]
fn table_key<G: PositionKey + SolverKnowledge>(p: &G) -> (u64, bool) {
    p.canonical_key().unwrap_or_else(|| (p.key(), false))
}

/// A best-move index read from (or written to) an entry keyed as [`table_key`] says.
#[inline]
fn oriented<G: SolverKnowledge>(p: &G, mirrored: bool, index: u8) -> u8 {
    if mirrored && index != 255 {
        p.mirror_index(index)
    } else {
        index
    }
}

/// How to solve.
///
/// ```
/// use gamesearch::{games::TicTacToe, solve, Limits, SolveConfig};
/// let cfg = SolveConfig { tt_bytes: 1 << 20, limits: Limits::none().with_max_nodes(1 << 20), ..SolveConfig::default() };
/// assert_eq!(solve(&TicTacToe::new(), &cfg, |_| {}).unwrap().value, Some(0));
/// ```
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Transposition table size in bytes.
    pub tt_bytes: usize,
    /// Deepest iterative-deepening pass before the exact search (0: none).
    pub id_depth: u32,
    /// Node / time / stop-flag budgets.
    pub limits: Limits,
    /// Also find a best move once the value is known (one more null-window test per root
    /// move tried); off when only the value is wanted, as in a benchmark of scores.
    pub best_move: bool,
    /// Threads searching each null-window test together, sharing the table (1: none besides
    /// the caller's).
    pub threads: usize,
    /// Enhanced transposition cutoffs in the nodes this many plies from the root (the root is
    /// ply 1; 0: none): a child whose stored bound refutes the node ends it before any child is
    /// searched. Where a subtree is large enough it pays for waiting on the children's table
    /// loads; near the leaves it does not (measured: `docs/results.md`). `None`: the game's
    /// [`SolverKnowledge::ENHANCED_CUTOFF_PLIES`].
    pub etc_plies: Option<u32>,
    /// Where the null-window tests start when iterative deepening gives no guess (`id_depth`
    /// 0): `Some(v)` tests `v` first, then gallops from the bound that moved, as after a
    /// deepening guess; `None` bisects with [`zero_biased_middle`] down to [`NARROW_RANGE`].
    /// Measured before that switch: `Some(0)` on the empty 7x6 board 3 tests and 602 M nodes
    /// against 9 and 739 M, but on L1_R2 +14 % nodes.
    pub guess: Option<Score>,
}

impl Default for SolveConfig {
    fn default() -> Self {
        SolveConfig {
            tt_bytes: 64 << 20,
            id_depth: 8,
            limits: Limits::none(),
            best_move: true,
            threads: 1,
            etc_plies: None,
            guess: None,
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
    /// Which step: `"deepening"` (with its depth) or `"bisection"`.
    pub phase: &'static str,
    /// The iterative-deepening depth just finished (0 in bisection).
    pub depth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

/// The result of a solve.
///
/// ```
/// use gamesearch::{games::Connect4, solve, SolveConfig};
/// // Tromp's table: 4x4 Connect-Four is a draw.
/// let s = solve(&Connect4::new(4, 4).unwrap(), &SolveConfig { tt_bytes: 1 << 22, ..SolveConfig::default() }, |_| {}).unwrap();
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
    /// Bytes of the transposition table.
    pub tt_bytes: usize,
}

/// A reusable exact solver: its transposition table survives between positions (every bound
/// in it is a bound on that position's value, whatever the root), as a benchmark over many
/// positions wants.
///
/// ```
/// use gamesearch::depth_first::solve::{ExactSolver, SolveConfig};
/// use gamesearch::games::Kalah;
/// let cfg = SolveConfig { tt_bytes: 1 << 20, ..SolveConfig::default() };
/// let mut solver = ExactSolver::new(&cfg).unwrap();
/// assert_eq!(solver.solve(&Kalah::new(4, 1).unwrap(), &cfg, |_| {}).unwrap().value, Some(2));
/// assert_eq!(solver.solve(&Kalah::new(4, 2).unwrap(), &cfg, |_| {}).unwrap().value, Some(6));
/// ```
pub struct ExactSolver<G: Game> {
    tt: TranspositionTable,
    /// The main thread's move stack, kept between solves (grown once to the deepest path's
    /// need, so that no node allocates).
    move_stack: Vec<G::Move>,
}

/// One thread's search: the shared table, its own counters, budget and move stack. The main
/// thread answers each test; helpers search the same test at the same time, each thread putting
/// off the moves another is searching (see `busy`), and fill the shared table with bounds the
/// main thread then finds.
struct Worker<'t, G: Game> {
    tt: &'t TranspositionTable,
    stats: Stats,
    budget: Budget,
    /// The moves of every position on the current path, one run per ply.
    move_stack: Vec<G::Move>,
    /// With more than one thread: the positions some thread is searching now, near the root
    /// (simplified ABDADA); empty with one thread.
    busy: &'t [AtomicU64],
    /// Nodes on the current path (the root is 1).
    ply: u32,
    /// [`SolveConfig::etc_plies`].
    etc_plies: u32,
    /// The table entry of the node about to be searched, when its parent already probed it for
    /// an enhanced transposition cutoff (`Some(None)`: probed, not there); the node takes it
    /// instead of probing again.
    probed: Option<Option<Entry>>,
    /// The [`SolverKnowledge::static_bounds`] of the node about to be searched, when its parent
    /// computed them; the node takes them instead of its own `quiet_bounds` (the same bounds).
    bounded: Option<(Score, Score)>,
}

/// A child played ahead of its search: the position, its table key and its static bounds.
type Child<G> = (G, u64, Option<(Score, Score)>);

/// Bounds `(lo, hi)` in MAX's view as the nega-max search of `mover` sees them.
#[inline]
fn movers_view(mover: Player, lo: Score, hi: Score) -> (Score, Score) {
    match mover {
        Player::Max => (lo, hi),
        Player::Min => (-hi, -lo),
    }
}

/// Moves `first` (the table's move), if it is among `moves`, to the front; the others keep
/// their order.
#[inline]
fn put_first<M: Copy + PartialEq>(moves: &mut [M], first: Option<M>) {
    if let Some(i) = first.and_then(|b| moves.iter().position(|&x| x == b)) {
        moves[..=i].rotate_right(1);
    }
}

/// `depth` as stored in the table.
#[inline]
fn draft_of(depth: u32) -> u8 {
    if depth == u32::MAX {
        DRAFT_EXACT
    } else {
        depth.min(u32::from(DRAFT_EXACT) - 1) as u8
    }
}

impl<G: PositionKey + SolverKnowledge + Sync> ExactSolver<G> {
    /// A solver with a table of `cfg.tt_bytes`; [`Error::OutOfMemory`] when the machine cannot
    /// give that much.
    pub fn new(cfg: &SolveConfig) -> Result<Self, Error> {
        Ok(ExactSolver {
            tt: TranspositionTable::try_with_bytes(cfg.tt_bytes)?,
            move_stack: Vec::new(),
        })
    }
}

impl<G: PositionKey + SolverKnowledge + Sync> Worker<'_, G> {
    /// Fail-soft nega-max alpha-beta with the table; `depth == u32::MAX` searches to the end.
    /// `no_win_now`: the parent already knows the side to move has no immediate win
    /// ([`SolverKnowledge::NON_LOSING_PREVENTS_IMMEDIATE_WIN`]).
    fn search(&mut self, p: &G, alpha: Score, beta: Score, depth: u32, no_win_now: bool) -> Score {
        let base = self.move_stack.len();
        self.ply += 1;
        let v = self.search_node(p, alpha, beta, depth, no_win_now, base);
        self.ply -= 1;
        self.move_stack.truncate(base);
        v
    }

    /// [`Self::search`] with this node's moves kept in `move_stack[base..]`.
    fn search_node(
        &mut self,
        p: &G,
        mut alpha: Score,
        mut beta: Score,
        depth: u32,
        no_win_now: bool,
        base: usize,
    ) -> Score {
        let probed = self.probed.take();
        let bounded = self.bounded.take();
        // A win on the spot is the best the mover can do: no need to generate anything else.
        if depth > 0 && !no_win_now {
            if let Some(win) = p.immediate_win() {
                self.stats.leaves += 1;
                self.budget.exhausted(self.stats.nodes());
                return p.to_move().sign() * p.play(win).evaluate();
            }
        }
        self.move_stack.extend(p.moves());
        if self.move_stack.len() == base || depth == 0 {
            self.stats.leaves += 1;
            self.budget.exhausted(self.stats.nodes());
            return p.to_move().sign() * p.evaluate();
        }
        self.stats.interior += 1;
        if self.budget.exhausted(self.stats.nodes()) {
            return 0;
        }
        let exact = depth == u32::MAX;
        // Moves that lose at once go; if all do, the game may know the value, else one of them
        // is searched to find it.
        let kept = p.non_losing_moves(&mut self.move_stack[base..]);
        if kept == 0 {
            if let Some(v) = p.forced_loss_value() {
                return p.to_move().sign() * v;
            }
        }
        // The position's own bounds narrow the window ("m is max possible"): to the end of the
        // game with no win on the spot and a move that does not lose at once, the game may know
        // tighter ones.
        let bounds = if exact && kept > 0 {
            bounded.or_else(|| p.quiet_bounds())
        } else {
            p.value_bounds()
        };
        if let Some((lo, hi)) = bounds {
            let (min, max) = movers_view(p.to_move(), lo, hi);
            if max <= alpha || min == max {
                return max;
            }
            if min >= beta {
                return min;
            }
            alpha = alpha.max(min - 1);
            beta = beta.min(max + 1);
        }
        // A forced move (the only one that does not lose at once): its child's search is this
        // node's, so the table is neither asked nor written here — a forced-move chain costs
        // one table probe at its end instead of one per move (Connect-Four: L1_R2 −7 to −9 %
        // time for +2.5 % nodes, 7x5 −14 to −20 % time).
        if exact && kept == 1 {
            let child = p.play(self.move_stack[base]);
            let same = child.to_move() == p.to_move();
            let no_win = G::NON_LOSING_PREVENTS_IMMEDIATE_WIN;
            return relative(same, alpha, beta, |a, b| {
                self.search(&child, a, b, u32::MAX, no_win)
            });
        }
        let (key, mirrored) = table_key(p);
        let draft = draft_of(depth);
        let mut table_move = None;
        let entry = match probed {
            Some(e) => e,
            None => self.tt.probe(key),
        };
        if let Some(e) = entry {
            if e.draft >= draft {
                if e.lower >= beta || e.upper <= alpha || e.lower == e.upper {
                    self.stats.tt_hits += 1;
                    return if e.upper <= alpha { e.upper } else { e.lower };
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
            table_move = p.moves().nth(oriented(p, mirrored, e.best) as usize);
        }
        self.move_stack.truncate(base + kept.max(1));
        let me = p.to_move();
        let mut m = -INF;
        let n = self.move_stack.len() - base;
        let child_no_win = G::NON_LOSING_PREVENTS_IMMEDIATE_WIN && kept > 0;
        // (Only kept moves leave a child with no win on the spot, which the bounds assume.)
        let statics = exact && child_no_win;
        // Children ordered once played (their static bounds need them played anyway), when the
        // game can order them so and all of them fit below.
        let by_child = statics && G::ORDERS_BY_CHILD && n <= 8;
        if !by_child {
            let moves = &mut self.move_stack[base..];
            p.order_moves(moves);
            put_first(moves, table_move);
        }
        let child_depth = if depth == u32::MAX {
            u32::MAX
        } else {
            depth - 1
        };
        let start_nodes = self.stats.nodes();
        // The children, with their table buckets requested at once: the loads overlap instead
        // of each child waiting for its own when it probes. The first eight are kept (inline,
        // nothing allocated), with their table keys, which the cut-offs and the threads' set
        // below use again; any others are played when their turn comes.
        //
        // Static cut-offs: every child's static bounds are looked at before any child is
        // searched. One whose lower bound reaches beta settles this node, wherever it stands in
        // the order; one whose upper bound cannot rise above alpha is not searched (its bound
        // stands for it, and its move leaves the list); the others take their bounds with them,
        // instead of computing them again. (Connect-Four, one thread: empty 7x6 336 M → 255 M
        // nodes but only 91.3 → 86.9 s, medians of four, as the checks cost per node what they
        // save; 7x6 after `4444` −20 % nodes, 7x5 −12 %, 6x6 −6 %, L1_R2 −24 %.)
        let mut children: ArrayVec<Child<G>, 8> = ArrayVec::new();
        let mut order = [0u32; 8];
        let upto = if statics { n } else { n.min(8) };
        let mut left = 0; // moves still to search, moved to the front of the list
        for j in 0..upto {
            let mv = self.move_stack[base + j];
            let mut child = p.play(mv);
            let mut bounded = None;
            // (The move's order is read off its own child, before any forced reply: after one,
            // the position keeps the other side's threats.)
            let rank = if by_child {
                p.child_order(mv, &child)
            } else {
                0
            };
            if statics {
                // Forced replies played out: the position after them has the child's value.
                while let Some(f) = child.forced_move() {
                    child = child.play(f);
                }
                bounded = child.static_bounds();
                if let Some((lo, hi)) = bounded {
                    let (lo, hi) = movers_view(me, lo, hi);
                    if lo >= beta {
                        return lo;
                    }
                    if hi <= alpha {
                        m = m.max(hi);
                        continue;
                    }
                }
                self.move_stack[base + left] = mv;
            }
            left += 1;
            if children.len() < 8 {
                if by_child {
                    order[children.len()] = rank;
                }
                let key = table_key(&child).0;
                self.tt.prefetch(key);
                children.push((child, key, bounded));
            }
        }
        let n = if statics { left } else { n };
        self.move_stack.truncate(base + n);
        // The search order: `perm[i]` is the index (in the list and among the children) of the
        // `i`-th move to search; past eight, the list's order.
        let mut perm: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        if by_child {
            // Best first, equal keys in generation order (the indices sorted by their keys), the
            // table's move before all.
            crate::sort::by_key_descending(&mut perm[..n], &mut order[..n]);
            let moves = &self.move_stack[base..];
            if let Some(t) =
                table_move.and_then(|b| perm[..n].iter().position(|&c| moves[c as usize] == b))
            {
                perm[..=t].rotate_right(1);
            }
        }
        let at = |i: usize| if i < 8 { perm[i] as usize } else { i };
        let mut best_mv = None;
        // Enhanced transposition cutoffs, up to the game's depth, where a node's subtree is large
        // enough to pay for waiting on the children's loads: a child whose stored exact bound
        // already reaches beta settles this node without a search; one whose bound cannot rise
        // above alpha is not searched (`settled`: its bound stands for it, as a static one
        // does). Each other child's entry is handed to it when it is searched, so it does not
        // probe again.
        let mut entries: ArrayVec<Option<Entry>, 8> = ArrayVec::new();
        let mut settled = 0u8;
        let etc = exact && self.ply <= self.etc_plies;
        if etc {
            for (c, (child, key, _)) in children.iter().enumerate() {
                let e = self.tt.probe(*key);
                if let Some(e) = e.filter(|e| e.draft == DRAFT_EXACT) {
                    let (lower, upper) = if child.to_move() == me {
                        (e.lower, e.upper)
                    } else {
                        (-e.upper, -e.lower)
                    };
                    if lower >= beta {
                        self.stats.tt_hits += 1;
                        return lower;
                    }
                    if upper <= alpha {
                        self.stats.tt_hits += 1;
                        settled |= 1 << c;
                        m = m.max(upper);
                    }
                }
                entries.push(e);
            }
        }
        // With several threads, near the root: a move (but the first) whose position another
        // thread is searching is put off until the others are done, so that the threads spread
        // over the siblings, and by then its bound is likely in the table (Weill's ABDADA, in
        // the simplified form of a shared set of positions being searched).
        let share = !self.busy.is_empty() && exact && self.ply <= DEFER_PLIES && n > 1;
        let mut deferred: SmallVec<[usize; 8]> = SmallVec::new();
        let mut k = 0;
        loop {
            let i = if k < n {
                k
            } else if let Some(&d) = deferred.get(k - n) {
                d
            } else {
                break;
            };
            let first_pass = k < n;
            k += 1;
            let c = at(i);
            if c < 8 && settled & (1 << c) != 0 {
                continue;
            }
            let mv = self.move_stack[base + c];
            let played;
            let (child, key, bounded) = match children.get(c) {
                Some((c, key, b)) => (c, Some(*key), *b),
                None => {
                    played = p.play(mv);
                    (&played, None, None)
                }
            };
            let mut slot = None;
            if share {
                let key = key.unwrap_or_else(|| table_key(child).0) | 1;
                let s = &self.busy[key as usize & (self.busy.len() - 1)];
                if first_pass && i > 0 && s.load(Ordering::Relaxed) == key {
                    deferred.push(i);
                    continue;
                }
                s.store(key, Ordering::Relaxed);
                slot = Some((s, key));
            }
            let same = child.to_move() == me;
            // A put-off child is probed again: the other thread has likely stored it since.
            self.probed = if first_pass {
                entries.get(c).copied()
            } else {
                None
            };
            self.bounded = bounded;
            let t = relative(same, alpha.max(m), beta, |a, b| {
                self.search(child, a, b, child_depth, child_no_win)
            });
            if let Some((s, key)) = slot {
                let _ = s.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
            }
            if self.budget.stopped {
                return m;
            }
            if t > m {
                m = t;
                best_mv = Some(mv);
            }
            if m >= beta {
                break;
            }
        }
        let (lower, upper) = if m <= alpha {
            (-INF, m)
        } else if m >= beta {
            (m, INF)
        } else {
            (m, m)
        };
        let best_index = best_mv
            .and_then(|b| p.moves().position(|x| x == b))
            .map_or(255, |i| i.min(255) as u8);
        let best_index = oriented(p, mirrored, best_index);
        let work = (64 - (self.stats.nodes() - start_nodes).leading_zeros()) as u8;
        self.tt.store(key, lower, upper, best_index, draft, work);
        m
    }

    /// TEST(root, m, >) to the end of the game: the null-window search `(m, m + 1)` in MAX's
    /// view, by this (main) thread with `threads - 1` helpers searching the same window at the
    /// same time, spread by deferring each other's moves; the helpers stop when the main thread
    /// has its answer, and their nodes are added to its counters.
    fn test(&mut self, p: &G, m: Score, threads: usize) -> Score {
        if threads <= 1 {
            return self.root(p, m, m + 1, u32::MAX);
        }
        let done = Arc::new(AtomicBool::new(false));
        let (tt, etc_plies, busy) = (self.tt, self.etc_plies, self.busy);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let limits = Limits::none().with_stop_flag(done.clone());
                    scope.spawn(move || {
                        let mut w: Worker<G> = Worker {
                            tt,
                            stats: Stats::default(),
                            budget: Budget::new(&limits),
                            move_stack: Vec::new(),
                            busy,
                            ply: 0,
                            etc_plies,
                            probed: None,
                            bounded: None,
                        };
                        w.root(p, m, m + 1, u32::MAX);
                        w.stats
                    })
                })
                .collect();
            let t = self.root(p, m, m + 1, u32::MAX);
            done.store(true, Ordering::Relaxed);
            for h in helpers {
                if let Ok(st) = h.join() {
                    self.stats.leaves += st.leaves;
                    self.stats.interior += st.interior;
                    self.stats.tt_hits += st.tt_hits;
                }
            }
            t
        })
    }

    /// The value of `p` searched with the window `(alpha, beta)` in MAX's view.
    fn root(&mut self, p: &G, alpha: Score, beta: Score, depth: u32) -> Score {
        relative(p.to_move() == Player::Max, alpha, beta, |a, b| {
            self.search(p, a, b, depth, false)
        })
    }
}

/// Solves `game` exactly. `progress` is called after every deepening pass and every bisection
/// step.
///
/// ```
/// use gamesearch::depth_first::solve::{solve, SolveConfig};
/// use gamesearch::games::Kalah;
/// let s = solve(&Kalah::new(3, 2).unwrap(), &SolveConfig::default(), |_| {}).unwrap();
/// assert!(s.complete);
/// assert_eq!(s.bounds.0, s.bounds.1);
/// ```
pub fn solve<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    cfg: &SolveConfig,
    progress: impl FnMut(&Progress),
) -> Result<Solution<G::Move>, Error> {
    ExactSolver::new(cfg)?.solve(game, cfg, progress)
}

impl<G: PositionKey + SolverKnowledge + Sync> ExactSolver<G> {
    /// Solves `game` with this solver's table (`cfg.tt_bytes` is ignored: the table was sized at
    /// creation); `progress` is called after every deepening pass and null-window test.
    pub fn solve(
        &mut self,
        game: &G,
        cfg: &SolveConfig,
        mut progress: impl FnMut(&Progress),
    ) -> Result<Solution<G::Move>, Error> {
        // Without known bounds the whole score range; the first guess and galloping keep the number
        // of tests small anyway.
        let (mut lo, mut hi) = game.value_bounds().unwrap_or((-INF + 1, INF - 1));
        let start = Instant::now();
        self.tt.new_search();
        let threads = cfg.threads.max(1);
        let busy: Vec<AtomicU64> = if threads > 1 {
            (0..1 << 14).map(|_| AtomicU64::new(0)).collect()
        } else {
            Vec::new()
        };
        let mut main = Worker {
            tt: &self.tt,
            stats: Stats::default(),
            budget: Budget::new(&cfg.limits),
            move_stack: std::mem::take(&mut self.move_stack),
            busy: &busy,
            ply: 0,
            etc_plies: cfg.etc_plies.unwrap_or(G::ENHANCED_CUTOFF_PLIES),
            probed: None,
            bounded: None,
        };
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
        for d in 1..=cfg.id_depth {
            let v = s.root(game, -INF, INF, d);
            if s.budget.stopped {
                break;
            }
            guess = Some(v);
            progress(&report(s, lo, hi, "deepening", d));
        }
        // After the guess, gallop from the bound that last moved (steps 1, 2, 4, …) but never past
        // the midpoint: as fast as MTD(f) when the guess is close, bisection's log2 when it is not.
        if guess.is_none() {
            guess = cfg.guess;
        }
        let first_range = (lo, hi);
        let mut galloping = guess.is_some();
        let mut step: Score = 1;
        let mut last_failed_low = true;
        while lo < hi && !s.budget.stopped {
            let half = lo + (hi - lo) / 2;
            // Bisection without a guess narrows the range with cheap tests of big wins; once
            // it is narrow, or a big win has been ruled out on both sides, 0 (the weak
            // solution's test) is the guess and galloping goes on.
            let both_sides = lo > first_range.0 && hi < first_range.1;
            if !galloping && (hi - lo <= NARROW_RANGE || both_sides) {
                galloping = true;
                guess = Some(0);
                step = 1;
            }
            let guessed = guess.is_some();
            let mid = match guess.take() {
                Some(g) => g.clamp(lo, hi - 1),
                None if !galloping => zero_biased_middle(lo, hi),
                None if last_failed_low => (hi - step).max(half),
                None => (lo + step - 1).min(half),
            };
            step = step.saturating_mul(2);
            s.stats.tests += 1;
            let t = s.test(game, mid, threads);
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
                hi = t.min(mid).max(lo);
            } else {
                lo = t.max(mid + 1).min(hi);
            }
            progress(&report(s, lo, hi, "bisection", 0));
        }
        let solved = lo == hi && !s.budget.stopped;
        let mut best_move = None;
        if solved && cfg.best_move {
            let v = lo;
            let mut moves: SmallVec<[G::Move; 16]> = game.moves().collect();
            let (key, mirrored) = table_key(game);
            let table_move = s.tt.probe(key).and_then(|e| {
                let index = oriented(game, mirrored, e.best);
                game.moves().nth(index as usize)
            });
            put_first(&mut moves, table_move);
            for mv in moves {
                let child = game.play(mv);
                s.stats.tests += 1;
                let reaches = match game.to_move() {
                    Player::Max => s.root(&child, v - 1, v, u32::MAX) >= v,
                    Player::Min => s.root(&child, v, v + 1, u32::MAX) <= v,
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
        let complete = solved && !s.budget.stopped;
        let stats = s.stats;
        self.move_stack = std::mem::take(&mut main.move_stack);
        Ok(Solution {
            value: solved.then_some(lo),
            bounds: (lo, hi),
            best_move,
            complete,
            stats,
            tt_bytes: self.tt.bytes(),
        })
    }
}

/// How many plies from the root put off the moves another thread is searching (with more than
/// one thread). Measured with two threads on 7x6 after 4444: 12 and 20 plies both 8.6-9.8 s
/// against one thread's 15.9-18.5 s; Lazy SMP with the helpers' root moves rotated: 14.9 s.
const DEFER_PLIES: u32 = 12;

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
pub const NARROW_RANGE: Score = 8;

/// The next null-window test of a bisection without a first guess: the middle of `[lo, hi]`,
/// moved to half the bound on its side of 0 when that is further out (Pons' solver). The first
/// tests ask whether either side wins big, which is cheap to refute and fills the table; later
/// ones close in on 0, where most values of drawish games lie.
///
/// ```
/// use gamesearch::depth_first::solve::zero_biased_middle;
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

/// Solves `game` and names the result (what `gamesearch solve` prints).
pub fn solve_report<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    cfg: &SolveConfig,
    progress: impl FnMut(&Progress),
) -> Result<SolveReport, Error> {
    let start = Instant::now();
    let s = solve(game, cfg, progress)?;
    Ok(SolveReport {
        algo: "alphabeta-tt".into(),
        value: s.value,
        bounds: s.bounds,
        best_move: s.best_move.map(|m| game.move_name(m)),
        complete: s.complete,
        outcome: outcome(s.bounds),
        stats: s.stats,
        tt_bytes: s.tt_bytes,
        peak_tree_bytes: None,
        proof_nodes: None,
        root_numbers: None,
        time_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}
