//! What a game may know that the exact solver uses, hook by hook, with what the solver does with
//! each; adapters forward the inner game's hooks through one blanket impl.

use crate::game::{Adapter, Game, Score, INF};

/// A support of every cell: a result whose support is not known (see
/// [`SolverKnowledge::TRACKS_SUPPORT`]).
pub const ANY_SUPPORT: u128 = u128::MAX;

/// What a game may know that the exact solver (and only it) uses: each hook has a default, so a
/// game opts in with an empty `impl` and adds hooks where its knowledge saves work. Like the rules,
/// every hook must be true, never a guess: the solver's answer is exact only if they are.
/// Adapters ([`Adapter`]) get the inner game's hooks through the blanket impl below.
///
/// A small game's knowledge (the one-pile Nim of `docs/nim.rs`: take 1 to 3, the last stone
/// wins) and what the solver makes of it; Connect-Four's, hook by hook, is in the crate
/// `gamesearch-games` (`connect4/knowledge.rs`).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::{solver::solve_alphabeta, Game, SolveConfig, SolverKnowledge};
/// // impl SolverKnowledge for Nim {
/// //     fn immediate_win(&self) -> Option<u8> { (1..=3).contains(&self.pile).then_some(self.pile) }
/// // }
/// assert_eq!(Nim::new(3).immediate_win(), Some(3)); // take them all
/// assert_eq!(Nim::new(5).immediate_win(), None);
/// let s = solve_alphabeta(&Nim::new(5), &SolveConfig::default(), |_| {}).unwrap();
/// assert_eq!((s.value, s.best_move), (Some(1), Some(1))); // leave a multiple of 4
/// let s = solve_alphabeta(&Nim::new(8), &SolveConfig::default(), |_| {}).unwrap();
/// assert_eq!(s.value, Some(-1));
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
/// let s = gamesearch::solver::solve_alphabeta(&Nim { pile: 4, to_move: Player::Max }, &Default::default(), |_| {});
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

    /// [`SolverKnowledge::order_moves`], adding to `nodes` the positions that any search it
    /// runs to find the order visits. The solver and df-pn call this one and count those
    /// positions among their own nodes, as engines count their move order's shallow searches,
    /// so that node counts compare with theirs. Default: `order_moves`, nothing counted; a game
    /// whose move order searches implements both (`order_moves` by this one).
    ///
    /// ```
    /// use gamesearch::SolverKnowledge;
    /// use gamesearch::trees::RandomTreeSpec;
    /// let root = RandomTreeSpec::new(3, 2, 7).root().unwrap();
    /// let (mut moves, mut nodes) = ([0u32, 1, 2], 0);
    /// root.order_moves_counting(&mut moves, &mut nodes);
    /// assert_eq!(nodes, 0); // the default orders by `order_moves` and counts nothing
    /// ```
    fn order_moves_counting(&self, moves: &mut [Self::Move], nodes: &mut u64) {
        let _ = nodes;
        self.order_moves(moves);
    }

    /// True when the game can order a move by the position it leads to
    /// ([`SolverKnowledge::child_order`]) more cheaply than [`SolverKnowledge::order_moves`]
    /// orders the bare moves (Connect-Four: `play` already found the child's threats). The
    /// solver, which plays every child before searching any to read its
    /// [`SolverKnowledge::static_bounds`], then orders the children by `child_order` instead
    /// (only there: to the end of the game, for games with
    /// [`SolverKnowledge::NON_LOSING_PREVENTS_IMMEDIATE_WIN`]). Default: false.
    const ORDERS_BY_CHILD: bool = false;

    /// With [`SolverKnowledge::ORDERS_BY_CHILD`]: how promising the move `mv`, which leads to
    /// `child`, is for the side to move here — higher first, equal keys in generation order. It
    /// must order as [`SolverKnowledge::order_moves`] does, which the solver uses elsewhere.
    /// Default: 0 (generation order).
    fn child_order(&self, _mv: Self::Move, _child: &Self) -> u32 {
        0
    }

    /// With [`SolverKnowledge::ORDERS_BY_CHILD`], for a `child` (after the move `mv`) with no
    /// [`SolverKnowledge::forced_move`]: its [`SolverKnowledge::child_order`] and its
    /// [`SolverKnowledge::static_bounds`], which the solver reads of every such child, at
    /// once — for games that find both in one look at the child (Domineering: each from the
    /// child's counts of moves). Default: the two hooks.
    fn child_order_and_bounds(
        &self,
        mv: Self::Move,
        child: &Self,
    ) -> (u32, Option<(Score, Score)>) {
        (self.child_order(mv, child), child.static_bounds())
    }

    /// True when the static pass ([`SolverKnowledge::static_bounds`] read of every child)
    /// should look first at the two moves that last ended one at the same ply, by a child the
    /// bounds settle as the mover's win (the killer heuristic, Akl & Newborn 1977, applied to
    /// the static pass): the pass stops at the first such child, so finding it first saves
    /// reading the others. The moves go to the front of the list, which may reorder children
    /// the order leaves tied. Domineering, one thread, 512 MiB: 8x8 1.42 M → 1.49 M nodes but
    /// 1.80 → 1.69 s; twelve 8x8 positions 3.15 → 2.80 s. Connect-Four (seven moves, cheap
    /// bounds) gains nothing and pays 10 % in time. Default: false.
    const STATIC_KILLERS: bool = false;

    /// With [`SolverKnowledge::ORDERS_BY_CHILD`]: the slots of the solver's history table, 0
    /// for none. Each cut-off a move makes adds, in its [`SolverKnowledge::history_slot`], the
    /// square of the move's place in the order (a cut-off found late counts most); among
    /// children of equal [`SolverKnowledge::child_order`], the one whose slot holds more is
    /// searched first (Schaeffer 1989's history heuristic, as a tie-break only). Connect-Four,
    /// whose order leaves mirror columns tied, one thread, 1 GiB: 8x5 101 → 65 M nodes, 7x6
    /// 77 → 62 M, 6x7 34 → 28 M, 8x4 3.1 → 2.3 M, 6x6 5.2 → 4.7 M. Default: 0.
    const HISTORY_SLOTS: usize = 0;

    /// With [`SolverKnowledge::HISTORY_SLOTS`] > 0: the slot (below it) of the move `mv` from
    /// this position. Moves that are "the same" in different positions share a slot —
    /// Connect-Four: the column and whose stone it is (measured against the cell and whose
    /// stone, one thread, nine empty boards: 200 M nodes in all against 213 M). Default: 0.
    fn history_slot(&self, _mv: Self::Move) -> usize {
        0
    }

    /// With [`SolverKnowledge::HISTORY_SLOTS`] > 0: whether the history orders this position's
    /// children and counts their cut-offs; where it does not, children of equal
    /// [`SolverKnowledge::child_order`] keep their generation order. Default: true.
    /// Connect-Four: not on boards four columns wide or narrower (measured there, one thread,
    /// 1 GiB, medians of fresh processes, history off against on: 4x4 1,399 → 1,291 nodes and
    /// 213 → 197 µs, 4x5 3,549 → 2,859 and 516 → 407 µs, 4x7 6.72 → 5.17 ms, 4x9 550 k → 442 k
    /// and 85.1 → 65.7 ms, 4x10 4.54 M → 4.09 M; 4x8 the one loss, 337 k → 353 k and +2 %
    /// time; 5x4 unchanged, 6x4 +41 % nodes without it).
    fn keeps_history(&self) -> bool {
        true
    }

    /// A move that wins at once with the best score the mover can get, when the game can tell
    /// cheaply (Connect-Four: a stone completing four). The solver takes its value without
    /// searching. Default: none.
    fn immediate_win(&self) -> Option<Self::Move> {
        None
    }

    /// Moves the moves of `moves` that do not lose at once to the front and returns how many
    /// there are (0: every move loses). The solver searches only those. Only moves that
    /// provably lose, or that are provably no better for the mover than a move kept (Hex: a
    /// stone on a dead cell, which is a pass), may be dropped; the default keeps them all.
    fn non_losing_moves(&self, moves: &mut [Self::Move]) -> usize {
        moves.len()
    }

    /// True when the game prunes by refutation ([`SolverKnowledge::prune_by_refutation`]):
    /// df-pn then asks it each time a child is found refuted. Default: false.
    const PRUNES_BY_REFUTATION: bool = false;

    /// The search found the move `refuted`, which leads to `child`, refuted: no good enough
    /// for the side to move here. Moves the game can then show to be no better for the mover
    /// than `refuted` go to the back of `moves` (the siblings still open), and the count of
    /// those left in front is returned; the search drops the others as refuted too. The
    /// dominance must hold for the game's true values, whatever the search asked. `support`:
    /// the child's [support](SolverKnowledge::TRACKS_SUPPORT) when df-pn knows it, else
    /// [`ANY_SUPPORT`]. Hex: the opponent's win in `child` rests only on the cells of its
    /// support; a stone of the mover's outside them leaves that win standing, and an extra
    /// stone never helps — every such move loses too (the proof-set pruning of Benzene's
    /// solvers, Arneson, Hayward & Henderson 2010). Only with
    /// [`SolverKnowledge::PRUNES_BY_REFUTATION`]. Default: every move kept.
    fn prune_by_refutation(
        &self,
        refuted: Self::Move,
        child: &Self,
        support: u128,
        moves: &mut [Self::Move],
    ) -> usize {
        let _ = (refuted, child, support);
        moves.len()
    }

    /// True when the game names what its results rest on, for games of wins and losses (no
    /// draws): a result's *support* is a set of the game's cells (bits 0 to 127, in the game's
    /// own numbering) such that the result stands however much of the rest the losing side
    /// is given. df-pn then keeps each proven position's support in its table, made by the
    /// three hooks below from the supports of its children, and hands a refuted child's to
    /// [`SolverKnowledge::prune_by_refutation`]: a proof found deep in a subtree then prunes
    /// as well as one the game sees at once. (Henderson 2010's proof sets in Hex.) Default:
    /// false.
    const TRACKS_SUPPORT: bool = false;

    /// The support of this position's result when it is settled without a search: the game
    /// over, a win on the spot ([`SolverKnowledge::immediate_win`]), or the quiet bounds.
    /// Default: [`ANY_SUPPORT`].
    fn settled_support(&self) -> u128 {
        ANY_SUPPORT
    }

    /// The support of the mover's win by `mv`, whose child's win rests on `child_support`.
    /// Default: [`ANY_SUPPORT`].
    fn support_of_win(&self, mv: Self::Move, child_support: u128) -> u128 {
        let _ = (mv, child_support);
        ANY_SUPPORT
    }

    /// A support of this position's cells read in its image by the symmetry `symmetry` of its
    /// [`SolverKnowledge::canonical_key`] (`to_key`), or back (`!to_key`): the table keeps
    /// each support as the canonical image's cells. Never asked of [`ANY_SUPPORT`]. Default:
    /// unchanged (a game with symmetric keys that tracks supports must map them).
    fn support_image(&self, symmetry: u8, support: u128, to_key: bool) -> u128 {
        let _ = (symmetry, to_key);
        support
    }

    /// What the mover's loss rests on beyond its moves' own supports (df-pn adds those): what
    /// made [`SolverKnowledge::non_losing_moves`] drop the moves it drops. Default:
    /// [`ANY_SUPPORT`].
    fn support_of_loss(&self) -> u128 {
        ANY_SUPPORT
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
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }

    /// The position's exact game-theoretic value (MAX's view) when it is known without a
    /// search — an endgame database's ([`crate::tablebase`]). The solver takes it as a leaf.
    /// Default: none.
    fn exact_value(&self) -> Option<Score> {
        None
    }

    /// The value (MAX's view) of a position near the game's end, found by a search of the
    /// game's own within the window `(alpha, beta)` (MAX's view), without the solver's table —
    /// for the last plies, where a table probe, the generic move order and the bookkeeping of
    /// each node cost more than a small search tailored to the game (Othello: the last empty
    /// squares, ordered by parity). Fail-soft: a value `<= alpha` is an upper bound on the
    /// position's value, one `>= beta` a lower bound, one between them exact. `nodes` counts
    /// the positions the small search visits (the solver adds them to its leaves). The solver
    /// asks it of every node after [`SolverKnowledge::exact_value`] and takes its answer as a
    /// leaf. Default: none (the solver searches the position itself).
    fn endgame_value(&self, _alpha: Score, _beta: Score, _nodes: &mut u64) -> Option<Score> {
        None
    }

    /// A selective pass's guess that the position's value (MAX's view) lies outside the window
    /// `(alpha, beta)` (MAX's view), from a search much shallower than the position's own:
    /// ProbCut (Buro 1995) — a shallow value far enough above `beta` (or below `alpha`), given
    /// how far the shallow value strays from the true one, says the deep one is there too,
    /// probably. `level` is the pass's (0 the loosest, up to
    /// [`SolverKnowledge::selective_levels`] less one): the higher, the surer a cut must be.
    /// Return a value `>= beta` or `<= alpha` to cut the position there, `None` to search it.
    /// Only the selective passes ask it; their values are guesses kept apart from the proven
    /// ones, so a wrong guess costs nodes, never a wrong value. `nodes` counts the shallow
    /// search's positions. Default: none.
    fn probable_cut(&self, level: u8, alpha: Score, beta: Score, nodes: &mut u64) -> Option<Score> {
        let _ = (level, alpha, beta, nodes);
        None
    }

    /// How many selective passes the solver runs, solving this position, before its exact
    /// tests (at most [`crate::solver::SELECTIVE_LEVELS`]; 0: none, where the game's cuts
    /// would be poor guesses — no learned evaluation, or a position small enough to solve
    /// outright). Each pass is the same null-window tests to the game's end, each position
    /// first offered to [`SolverKnowledge::probable_cut`] at the pass's level, until the tests
    /// agree on a (probable) value, which is the next pass's first guess and the exact tests'
    /// in the end. A pass's node whose subtree took no guess stores its bounds as proven.
    /// Each pass's best moves, kept in the table beside the proven bounds (whose
    /// place they never take), are tried first at each node it reached: a search to the end
    /// orders moves deep in the tree, where a shallow search near the root cannot. As Edax
    /// solves, from looser selectivity to exact. One thread searches the passes. Default: 0.
    fn selective_levels(&self) -> u8 {
        0
    }

    /// For games with symmetries that keep the value (Connect-Four: the board reflected left
    /// to right; Othello: the square's eight): one key shared by this position and its images,
    /// and which symmetry maps this position onto the image the key stands for (0: none, the
    /// key is this position's own; any other number is the game's to define, and comes back to
    /// [`SolverKnowledge::index_to_key`] and [`SolverKnowledge::index_from_key`]). The solver
    /// keys its table by it, so a position and its images share one entry. A game may also
    /// share the key with other positions it knows have the same value and the same moves
    /// (Connect-Four, on boards of 32 cells or more four columns wide, or of 48 cells or more:
    /// the ones that differ only in the colour of stones no line of four can use any more); the
    /// symmetry then says 0. Default: none (no symmetry; the solver uses `key`).
    fn canonical_key(&self) -> Option<(u64, u8)> {
        None
    }

    /// For a game whose positions carry a running score that the rest of the game only adds
    /// to (seeds banked, points won): the score so far (MAX's view) and the position's key
    /// without it. The rest of the game — its moves and the score still to come — must not
    /// depend on the score so far, so that the final value is the score so far plus what the
    /// rest adds. The solver then keys its table by the key without the score and stores values
    /// relative to the score so far: positions that differ only in their score share one entry
    /// (a transposition reached by two lines that scored differently). [`crate::PositionKey::key`]
    /// must still tell them apart (the other algorithms key by it), and
    /// [`SolverKnowledge::canonical_key`] is then not used. Default: none.
    ///
    /// ```
    /// use gamesearch::{Game, Player, PositionKey, Score, SolverKnowledge};
    /// use gamesearch::solver::{solve_alphabeta, SolveConfig};
    /// /// Coins in a row; each side in turn takes one from either end; the value is MAX's coins
    /// /// less MIN's.
    /// #[derive(Clone)]
    /// struct Coins { row: Vec<i32>, from: usize, to: usize, banked: Score, max_moves: bool }
    /// impl Game for Coins {
    ///     type Move = bool; // true: the left end
    ///     type Moves = std::vec::IntoIter<bool>;
    ///     fn to_move(&self) -> Player { if self.max_moves { Player::Max } else { Player::Min } }
    ///     fn moves(&self) -> Self::Moves {
    ///         match self.to - self.from { 0 => vec![], 1 => vec![true], _ => vec![true, false] }.into_iter()
    ///     }
    ///     fn play(&self, left: bool) -> Self {
    ///         let (coin, from, to) = if left { (self.row[self.from], self.from + 1, self.to) }
    ///                                else { (self.row[self.to - 1], self.from, self.to - 1) };
    ///         Coins { row: self.row.clone(), from, to, max_moves: !self.max_moves,
    ///                 banked: self.banked + self.to_move().sign() * coin }
    ///     }
    ///     fn evaluate(&self) -> Score { self.banked }
    /// }
    /// impl PositionKey for Coins {
    ///     // Every algorithm keys by the whole position, the score included.
    ///     fn key(&self) -> u64 { (self.from as u64) << 40 | (self.to as u64) << 20 | (self.banked + 1000) as u64 * 2 + self.max_moves as u64 }
    /// }
    /// impl SolverKnowledge for Coins {
    ///     // The solver's table keys by the coins left and the mover alone.
    ///     fn score_so_far(&self) -> Option<(Score, u64)> {
    ///         Some((self.banked, (self.from as u64) << 40 | (self.to as u64) << 1 | self.max_moves as u64))
    ///     }
    /// }
    /// let g = Coins { row: vec![3, 9, 1, 2], from: 0, to: 4, banked: 0, max_moves: true };
    /// // MAX takes 2, MIN 3, MAX 9, MIN 1: 11 − 4.
    /// assert_eq!(solve_alphabeta(&g, &SolveConfig::default(), |_| {}).unwrap().value, Some(7));
    /// ```
    fn score_so_far(&self) -> Option<(Score, u64)> {
        None
    }

    /// Whether the solver's iterative deepening ([`super::SolveConfig::id_depth`]: searches to
    /// a depth, valued by [`Game::evaluate`] there) gives its first guess. False for a game whose
    /// static value is a poor guess of the exact one (Othello: the disc count before the end; FFO
    /// #40-#44, one thread: 66 M nodes more over the five at depth 8 than without); the solver
    /// then starts with its bisection. Default: true.
    const GUESS_BY_DEEPENING: bool = true;

    /// Whether the solver, without a first guess, starts by bisecting the whole range with
    /// tests of big wins (cheap to refute, and they fill the table; where values spread wide,
    /// as in Connect-Four) rather than with the test near 0
    /// ([`SolverKnowledge::near_zero_guess`]), galloping out from there. False for a game whose
    /// values cluster near 0 (Othello, FFO #43, #44 and #46, one thread: 5-12 % fewer nodes
    /// from 0; #40, +38, 10 % more). Default: true.
    const BISECT_FIRST: bool = true;

    /// False for a game where no position's value is 0 — wins and losses only, no draws
    /// (Domineering, Hex: a value is ±1). The solver and df-pn then take a bound of 0 as a
    /// bound of ±1: "is the value above 0?" answered no says −1 at once, instead of a second
    /// test asking whether it is a draw. Default: true (adapters too, whose values may differ).
    const DRAWS: bool = true;

    /// df-pn's focus for this game ([`crate::proof_number::dfpn::DfpnConfig::focus`]): where
    /// [`SolverKnowledge::order_moves`] puts a node's best moves among its first few, df-pn may
    /// weigh those alone until they are refuted (`Some(share)`: one plus that share of the
    /// live children). It changes which child is searched, never a value. Default: `None`,
    /// every child weighed.
    const DFPN_FOCUS: Option<f64> = None;

    /// Every exact value of the game is a multiple of this (Othello: 2 — the disc margin with
    /// the empty squares given to the winner is even on a board of an even number of squares).
    /// The solver's null-window tests then ask only between such values: a test that proves the
    /// value above 4 proves it at least 6, and none is spent on 5. Default: 1.
    const VALUE_STEP: Score = 1;

    /// How many plies from the root probe their children's table entries for a cut-off
    /// (enhanced transposition cutoffs), unless [`super::SolveConfig::etc_plies`] says otherwise.
    /// Tuned by measurement per game: Connect-Four 26 (fewer nodes, less time), others 0
    /// (Kalah(6,4): 15 % more nodes with 12). Default: 0.
    const ENHANCED_CUTOFF_PLIES: u32 = 0;

    /// For a game with [`SolverKnowledge::canonical_key`]: where this position's move at
    /// `index` (in its generation order of moves) stands in the order of the image the key
    /// stands for, under `symmetry` (what `canonical_key` returned): the table stores best moves
    /// by index in the key's orientation. A permutation of `0..moves`, the inverse of
    /// [`SolverKnowledge::index_from_key`] (Connect-Four, columns left to right, mirrored:
    /// `moves - 1 - index` both ways). Default: `index`.
    fn index_to_key(&self, symmetry: u8, index: u8) -> u8 {
        let _ = symmetry;
        index
    }

    /// The inverse of [`SolverKnowledge::index_to_key`]: the index in this position's order
    /// of the move that the image's move at `index` (in the image's order) stands for.
    /// Default: `index`.
    fn index_from_key(&self, symmetry: u8, index: u8) -> u8 {
        let _ = symmetry;
        index
    }

    /// The solver's first null-window test near 0, once bisection has ruled out a big win for
    /// either side (or the range is narrow): the value `v` of the test "is the value above
    /// `v`?", in MAX's view. 0 asks first whether MAX wins, −1 whether MAX loses; a close game
    /// needs only one of the two, so a game that knows which way close games lean says so here,
    /// and a game that can guess its value (Othello: a shallow search with its learned
    /// evaluation) guesses it here. Only the order of the tests changes, never a value. Default: 0.
    fn near_zero_guess(&self) -> Score {
        0
    }

    /// The most plies the game can still last from this position, where the rules bound it
    /// cheaply (Connect-Four: its empty cells). With more than one thread, the solver searches a
    /// root with at most [`crate::solver::SolveConfig::alone_up_to_plies`] plies left on one
    /// thread: a tree that small is over before a second thread pays for itself. Default:
    /// `None` (no bound; the threads always join).
    fn plies_left_at_most(&self) -> Option<u32> {
        None
    }

    /// Calls `f` with the likely table keys ([`SolverKnowledge::canonical_key`]'s, else
    /// [`crate::PositionKey::key`]'s) of the children the solver will search from this
    /// position, as cheaply as the game can guess them: the solver asks for their table
    /// buckets ahead of time, before it searches the position. Only a hint — a wrong or missing
    /// key costs a wasted memory load, never a wrong value. Default: none.
    #[inline]
    fn child_key_hints(&self, f: impl FnMut(u64)) {
        let _ = f;
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
    #[inline]
    fn order_moves_counting(&self, moves: &mut [Self::Move], nodes: &mut u64) {
        self.inner().order_moves_counting(moves, nodes)
    }
    const ORDERS_BY_CHILD: bool = A::Inner::ORDERS_BY_CHILD;
    #[inline]
    fn child_order(&self, mv: Self::Move, child: &Self) -> u32 {
        self.inner().child_order(mv, child.inner())
    }
    #[inline]
    fn child_order_and_bounds(
        &self,
        mv: Self::Move,
        child: &Self,
    ) -> (u32, Option<(Score, Score)>) {
        let (order, bounds) = self.inner().child_order_and_bounds(mv, child.inner());
        (order, mapped_bounds::<A>(bounds))
    }
    const STATIC_KILLERS: bool = A::Inner::STATIC_KILLERS;
    const HISTORY_SLOTS: usize = A::Inner::HISTORY_SLOTS;
    #[inline]
    fn history_slot(&self, mv: Self::Move) -> usize {
        self.inner().history_slot(mv)
    }
    #[inline]
    fn keeps_history(&self) -> bool {
        self.inner().keeps_history()
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
    const PRUNES_BY_REFUTATION: bool = A::Inner::PRUNES_BY_REFUTATION;
    #[inline]
    fn prune_by_refutation(
        &self,
        refuted: Self::Move,
        child: &Self,
        support: u128,
        moves: &mut [Self::Move],
    ) -> usize {
        // A monotone map keeps "no better than".
        self.inner()
            .prune_by_refutation(refuted, child.inner(), support, moves)
    }
    const TRACKS_SUPPORT: bool = A::Inner::TRACKS_SUPPORT;
    #[inline]
    fn settled_support(&self) -> u128 {
        // (An adapter's own known value rests on nothing the inner game can name.)
        if self.known_value().is_some() {
            ANY_SUPPORT
        } else {
            self.inner().settled_support()
        }
    }
    #[inline]
    fn support_of_win(&self, mv: Self::Move, child_support: u128) -> u128 {
        self.inner().support_of_win(mv, child_support)
    }
    #[inline]
    fn support_of_loss(&self) -> u128 {
        self.inner().support_of_loss()
    }
    #[inline]
    fn support_image(&self, symmetry: u8, support: u128, to_key: bool) -> u128 {
        self.inner().support_image(symmetry, support, to_key)
    }
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
    fn exact_value(&self) -> Option<Score> {
        self.known_value()
            .or_else(|| self.inner().exact_value().map(A::map_value))
    }
    /// The inner game's search with the whole window (a window in the adapter's values has no
    /// inner counterpart when [`Adapter::map_value`] merges values), its exact value mapped.
    #[inline]
    fn endgame_value(&self, _alpha: Score, _beta: Score, nodes: &mut u64) -> Option<Score> {
        if let Some(v) = self.known_value() {
            return Some(v);
        }
        self.inner()
            .endgame_value(-INF, INF, nodes)
            .map(A::map_value)
    }
    #[inline]
    fn canonical_key(&self) -> Option<(u64, u8)> {
        self.inner().canonical_key()
    }
    const ENHANCED_CUTOFF_PLIES: u32 = A::Inner::ENHANCED_CUTOFF_PLIES;
    const GUESS_BY_DEEPENING: bool = A::Inner::GUESS_BY_DEEPENING;
    const BISECT_FIRST: bool = A::Inner::BISECT_FIRST;
    const DFPN_FOCUS: Option<f64> = A::Inner::DFPN_FOCUS;
    // (`DRAWS` keeps its default: an adapter may map a value to 0. So do `selective_levels` and
    // `probable_cut`: a window in the adapter's values has no inner counterpart.)
    #[inline]
    fn index_to_key(&self, symmetry: u8, index: u8) -> u8 {
        self.inner().index_to_key(symmetry, index)
    }
    #[inline]
    fn index_from_key(&self, symmetry: u8, index: u8) -> u8 {
        self.inner().index_from_key(symmetry, index)
    }
    #[inline]
    fn near_zero_guess(&self) -> Score {
        A::map_value(self.inner().near_zero_guess())
    }
    #[inline]
    fn plies_left_at_most(&self) -> Option<u32> {
        self.inner().plies_left_at_most()
    }
    #[inline]
    fn child_key_hints(&self, f: impl FnMut(u64)) {
        self.inner().child_key_hints(f)
    }
}

/// The inner game's bounds read in the adapter's values ([`Adapter::map_value`] is monotone).
#[inline]
fn mapped_bounds<A: Adapter>(bounds: Option<(Score, Score)>) -> Option<(Score, Score)> {
    bounds.map(|(lo, hi)| (A::map_value(lo), A::map_value(hi)))
}
