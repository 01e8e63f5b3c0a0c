//! The one trait a user implements: [`Game`], with [`Player`] and [`Score`].
//!
//! The trait says, in the terms of the literature (Hsu, *Scout, NegaScout and PN search*, "Search behaviors"; Pearl 1980, section II):
//! whose turn it is (MAX or MIN — turns need **not** alternate), the successors `p_1 … p_b` in
//! generation order (`b = 0` means the game is over), and `f(p)`, the value from MAX's point of
//! view (exact at game end, a heuristic elsewhere). Positions are copy-made: [`Game::play`]
//! returns the successor and leaves `self` untouched.
//!
//! A *horizon* turns any game into a finite tree: every algorithm takes a remaining `depth`, and a
//! node at depth 0 is a leaf valued by `f(p)`. Seen this way every algorithm computes the same
//! number, the minimax value of the depth-limited tree.

use std::fmt::Debug;
use std::hash::Hash;

/// A game value. Integer so that null windows `(m, m + 1)` exist (Hsu, *Scout and NegaScout*, "Alpha-beta
/// revisited"); every value a game returns must lie strictly inside `(-INF, INF)`.
pub type Score = i32;

/// "Infinity" for search windows: strictly larger than any game value, and `-INF` is safe to
/// negate (unlike `i32::MIN`).
///
/// ```
/// use gamesearch::INF;
/// assert_eq!(-(-INF), INF);
/// ```
pub const INF: Score = 1_000_000_000;

/// Every value a game may return, `(-INF + 1, INF - 1)`: the range an exact solver searches when
/// the game gives no [`Game::value_bounds`]. Every solver (alpha-beta, proof-number, df-pn, the
/// split) answers over all of it.
///
/// ```
/// use gamesearch::{solve, trees::ExplicitTree, Method, SolveConfig, VALUE_RANGE};
/// assert_eq!(VALUE_RANGE, (-999_999_999, 999_999_999));
/// let t = ExplicitTree::parse("(max 999999999 5)").unwrap();
/// for method in Method::ALL {
///     let s = solve(&t.root(), method, &SolveConfig::default()).unwrap();
///     // The binary solvers prove a win (bounds); the others the value itself.
///     assert!(s.bounds.0 <= 999_999_999 && 999_999_999 <= s.bounds.1, "{method}");
///     assert!(s.value.is_none() || s.value == Some(999_999_999), "{method}");
/// }
/// assert_eq!(solve(&t.root(), Method::PnMulti, &SolveConfig::default()).unwrap().value, Some(999_999_999));
/// ```
pub const VALUE_RANGE: (Score, Score) = (-INF + 1, INF - 1);

/// The side to move.
///
/// ```
/// use gamesearch::Player;
/// assert_eq!(Player::Max.opponent(), Player::Min);
/// assert_eq!(Player::Min.sign(), -1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Player {
    /// The maximising player; `f(p)` is written from MAX's point of view.
    Max,
    /// The minimising player.
    Min,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }

    /// `+1` for MAX, `-1` for MIN: the factor that turns `f(p)` into the negamax `h(p)`.
    #[inline]
    pub fn sign(self) -> Score {
        match self {
            Player::Max => 1,
            Player::Min => -1,
        }
    }
}

/// A two-player, perfect-information game (or game tree): its rules and nothing else.
///
/// Implement this once and every search algorithm works on your game, monomorphised (no `dyn`
/// on the hot path). What only some algorithms need is asked for by their own traits, so the
/// rules stay clean: a 64-bit [`PositionKey`] wherever a transposition table is used (the exact
/// solver), and the solver's optional knowledge ([`crate::SolverKnowledge`], every hook with a
/// default, so an empty `impl` opts in).
///
/// Positions may form a tree, a DAG (transpositions are fine) or, where the game says so with
/// [`Game::REPEATS`], a graph with cycles: the exact solver and df-pn then treat a position met
/// again on the line as a repetition ([`Game::repetition_value`]). A game that does not say so
/// must end on every path: the depth-first searches take a horizon, but the exact solver and
/// proof-number search play to the end (on a line that does not end they stop with
/// [`crate::Error::LineTooDeep`]). A game whose positions repeat is solved strongly, every
/// position with its distance to the end, by [`crate::retrograde::solve_strongly`].
///
/// ```
/// use gamesearch::{Algorithm, Game, Player, PositionKey, Score, SearchConfig, SolveConfig, SolverKnowledge};
///
/// /// Take 1 or 2 from a pile; whoever takes the last stone wins (+1 for MAX).
/// #[derive(Clone, Copy)]
/// struct Nim { pile: u8, to_move: Player }
///
/// impl Game for Nim {
///     type Move = u8;
///     type Moves = std::iter::Take<std::ops::RangeInclusive<u8>>;
///     fn to_move(&self) -> Player { self.to_move }
///     fn moves(&self) -> Self::Moves { (1..=2).take(self.pile.min(2) as usize) }
///     fn play(&self, m: u8) -> Self { Nim { pile: self.pile - m, to_move: self.to_move.opponent() } }
///     fn evaluate(&self) -> Score {
///         // Game over: the player who just moved took the last stone and won.
///         if self.pile == 0 { -self.to_move.sign() } else { 0 }
///     }
/// }
///
/// // For the exact solver: a key for its table, and no knowledge beyond the rules.
/// impl PositionKey for Nim {
///     fn key(&self) -> u64 { u64::from(self.pile) << 1 | u64::from(self.to_move == Player::Max) }
/// }
/// impl SolverKnowledge for Nim {}
///
/// let start = Nim { pile: 4, to_move: Player::Max };
/// // Every algorithm, with a horizon beyond the game's end: take 1, leave a multiple of 3.
/// for algo in Algorithm::ALL {
///     let r = gamesearch::search(&start, algo, &SearchConfig::new(10));
///     assert_eq!((r.value, r.best_move), (Some(1), Some(1)), "{algo}");
/// }
/// // And solved exactly, to the end of the game.
/// let cfg = SolveConfig { tt_bytes: 1 << 16, ..SolveConfig::default() };
/// let s = gamesearch::solver::solve_alphabeta(&start, &cfg, |_| {}).unwrap();
/// assert_eq!((s.value, s.best_move), (Some(1), Some(1)));
/// ```
///
/// A game without a [`PositionKey`] cannot reach the solver — a compile error, not a run-time
/// one:
///
/// ```compile_fail
/// use gamesearch::{Game, Player, Score, SolveConfig, SolverKnowledge};
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
/// impl SolverKnowledge for Nim {}
/// // error[E0277]: the trait bound `Nim: PositionKey` is not satisfied
/// gamesearch::solver::solve_alphabeta(&Nim { pile: 4, to_move: Player::Max }, &SolveConfig::default(), |_| {});
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a game: implement `gamesearch::Game` for it",
    label = "needs `impl gamesearch::Game for {Self}`",
    note = "`Game` holds the rules: `to_move`, `moves`, `play`, `evaluate` (see the Nim example in its docs)"
)]
pub trait Game: Clone {
    /// A move: cheap to copy, and hashable (the engine keeps a history of good moves).
    type Move: Copy + Eq + Hash + Debug;
    /// The successors' moves, in generation order. An iterator the game builds without heap
    /// allocation (a range, an array iterator…), so that search allocates nothing per node.
    type Moves: Iterator<Item = Self::Move>;

    /// Whose turn it is. Need not alternate along a path.
    fn to_move(&self) -> Player;

    /// The moves of `p_1 … p_b` in order; an empty iterator means the game is over.
    fn moves(&self) -> Self::Moves;

    /// The position after `m` (copy-make).
    fn play(&self, m: Self::Move) -> Self;

    /// `f(p)`: the value from MAX's point of view, exact when the game is over, a heuristic
    /// estimate otherwise. Must lie strictly inside `(-INF, INF)`.
    fn evaluate(&self) -> Score;

    /// Bounds `(lo, hi)` on every value `evaluate` can return, when the game knows them. NegaScout
    /// uses them for the "m is max possible" cut (Hsu, *Scout and NegaScout*, F4 line 14).
    fn value_bounds(&self) -> Option<(Score, Score)> {
        None
    }

    /// How a move is shown to people (JSON `best_move`, `pv`). Defaults to `Debug`.
    fn move_name(&self, m: Self::Move) -> String {
        format!("{m:?}")
    }

    /// Whether a position can come back on a line of play (chess, shogi, the morris games):
    /// `true` makes the exact solver and df-pn keep the positions of the line they search,
    /// value a position met again by [`Game::repetition_value`], and keep out of their tables
    /// every result that depended on the line (the graph-history interaction; see
    /// [`crate::solver`]). `false` (the default) costs nothing: the checks compile away.
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::Game;
    /// assert!(!Nim::REPEATS); // every pile shrinks: no position comes back
    /// ```
    const REPEATS: bool = false;

    /// The value, from MAX's view, of a position met again on the line being searched (read only
    /// when [`Game::REPEATS`]). Default 0: a repetition is a draw. The solvers' values are the
    /// game's own when this is also what endless play is worth, the same from every position
    /// (then a side that can win can win without repeating, and a side that can hold a draw can
    /// hold it by repeating); [`crate::retrograde`] values endless play as 0, and refuses a game
    /// whose repetition is worth anything else.
    fn repetition_value(&self) -> Score {
        0
    }
}

/// A 64-bit key of a position, for transposition tables: equal positions must have equal keys,
/// and different positions should collide rarely (a Zobrist hash, or the position's bits mixed).
/// Every search that keeps a table requires it as a type bound.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::{Game, PositionKey};
/// let k = Nim::new(9);
/// let m = k.moves().next().unwrap();
/// assert_eq!(k.play(m).key(), k.play(m).key());
/// assert_ne!(k.key(), k.play(m).key());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no position key: implement `gamesearch::PositionKey` for it",
    label = "needs `impl gamesearch::PositionKey for {Self}`",
    note = "tables need a 64-bit key per position: `impl PositionKey for {Self} {{ fn key(&self) -> u64 {{ … }} }}`"
)]
pub trait PositionKey: Game {
    /// The position's key.
    fn key(&self) -> u64;
}

/// A game that wraps another and keeps its moves (move-order and win/draw/loss adapters): what
/// the inner game knows about a position is forwarded by one generic mechanism — the blanket
/// impls of [`PositionKey`] here and of [`crate::SolverKnowledge`] beside the solver — instead
/// of hook by hook, so no adapter can forget one. Values the inner game's hooks return pass
/// through [`Adapter::map_value`].
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::adapters::Weak;
/// use gamesearch::{Adapter, PositionKey};
/// let p = Nim::new(9);
/// let w = Weak::new(p);
/// assert_eq!(w.key(), p.key());
/// assert_eq!(<Weak<Nim> as Adapter>::map_value(-7), -1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` lacks a trait this search needs (the note below names it: `Heuristic`, `SolverKnowledge` or `PositionKey`)",
    label = "add the trait the note names for `{Self}`",
    note = "the engine needs `impl gamesearch::engine::Heuristic for {Self} {{}}`; the solver `impl gamesearch::SolverKnowledge for {Self} {{}}`; every table a `gamesearch::PositionKey` (fn key); `Adapter` is only for games that wrap another"
)]
pub trait Adapter: Game {
    /// The wrapped game.
    type Inner: Game<Move = Self::Move>;
    /// The wrapped position.
    fn inner(&self) -> &Self::Inner;
    /// How a value of the inner game reads in this one (default: unchanged). Must be monotone,
    /// so that bounds stay bounds.
    fn map_value(v: Score) -> Score {
        v
    }
    /// The exact value (this game's, MAX's view) that the adapter itself knows for this
    /// position, before the inner game's knowledge (an endgame database's:
    /// [`crate::tablebase::Probed`]). Default: none.
    fn known_value(&self) -> Option<Score> {
        None
    }
}

impl<A: Adapter> PositionKey for A
where
    A::Inner: PositionKey,
{
    #[inline]
    fn key(&self) -> u64 {
        self.inner().key()
    }
}

/// The moves of `line`, played from `from`, each named in the position it is played in (what
/// [`Game::move_name`] prints may depend on the position).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::line_names;
/// // Each move named in the position it is played from (Nim's default names: the move's Debug).
/// assert_eq!(line_names(&Nim::new(9), &[2, 3, 1]), ["2", "3", "1"]);
/// ```
pub fn line_names<G: Game>(from: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = from.clone();
    line.iter()
        .map(|&m| {
            let name = p.move_name(m);
            p = p.play(m);
            name
        })
        .collect()
}

/// `h(p)` of Hsu, *Scout, NegaScout and PN search* ("Search behaviors"): `f(p)` from the point of view of the side to move.
#[inline]
pub fn negamax_eval<G: Game>(p: &G) -> Score {
    p.to_move().sign() * p.evaluate()
}

/// Searches `child` from its parent's point of view in negamax form: the window is negated and
/// the result negated only when the side to move changes (turns need not alternate).
#[inline]
pub(crate) fn relative(
    same_side: bool,
    alpha: Score,
    beta: Score,
    search: impl FnOnce(Score, Score) -> Score,
) -> Score {
    if same_side {
        search(alpha, beta)
    } else {
        -search(-beta, -alpha)
    }
}
