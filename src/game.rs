//! The one trait a user implements: [`Game`], with [`Player`] and [`Score`].
//!
//! The trait says, in the seeds' terms (seed 000, "Search behaviors"; seed 003, section II):
//! whose turn it is (MAX or MIN — turns need **not** alternate), the successors `p_1 … p_b` in
//! generation order (`b = 0` means the game is over), and `f(p)`, the value from MAX's point of
//! view (exact at game end, a heuristic elsewhere). Positions are copy-made: [`Game::play`]
//! returns the successor and leaves `self` untouched.
//!
//! A *horizon* turns any game into a finite tree: every algorithm takes a remaining `depth`, and a
//! node at depth 0 is a leaf valued by `f(p)`. Seen this way every algorithm computes the same
//! number, the minimax value of the depth-limited tree.

use std::fmt::Debug;

/// A game value. Integer so that null windows `(m, m + 1)` exist (seed 002, "Alpha-beta
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

/// The side to move.
///
/// ```
/// use gamesearch::Player;
/// assert_eq!(Player::Max.opponent(), Player::Min);
/// assert_eq!(Player::Min.sign(), -1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
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

/// A two-player, perfect-information game (or game tree).
///
/// Implement this once and every algorithm in [`crate::depth_first`] works on your game,
/// monomorphised (no `dyn` on the hot path).
///
/// ```
/// use gamesearch::{Game, Player, Score};
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
/// let r = gamesearch::depth_first::search(
///     &Nim { pile: 4, to_move: Player::Max },
///     gamesearch::Algorithm::AlphaBeta,
///     10,
///     &gamesearch::Limits::none(),
/// );
/// assert_eq!(r.value, Some(1)); // 4 stones: take 1, leave a multiple of 3
/// assert_eq!(r.best_move, Some(1));
/// ```
pub trait Game: Clone {
    /// A move: cheap to copy.
    type Move: Copy + Eq + Debug;
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
    /// uses them for the "m is max possible" cut (seed 002, F4 line 14).
    fn value_bounds(&self) -> Option<(Score, Score)> {
        None
    }

    /// Reorders `moves` (this position's, in generation order) best-first by the game's own
    /// knowledge (threats, captures…). The solver calls it before trying the transposition
    /// table's move; the default keeps generation order.
    fn order_moves(&self, _moves: &mut [Self::Move]) {}

    /// A move that wins at once with the best score the mover can get, when the game can tell
    /// cheaply (Connect-Four: a stone completing four). The exact solver takes its value without
    /// searching. Default: none.
    fn immediate_win(&self) -> Option<Self::Move> {
        None
    }

    /// Moves the moves of `moves` that do not lose at once to the front and returns how many
    /// there are (0: every move loses at once). The exact solver searches only those. Only
    /// provably losing moves may be dropped; the default keeps them all.
    fn non_losing_moves(&self, moves: &mut [Self::Move]) -> usize {
        moves.len()
    }

    /// True when, after any move [`Game::non_losing_moves`] keeps, the side to move has no
    /// [`Game::immediate_win`] (Connect-Four: every kept move blocks or avoids the opponent's
    /// threats). The exact solver then asks for immediate wins only where that is not already
    /// known — at the root and below a position whose every move loses. Default: false.
    const NON_LOSING_PREVENTS_IMMEDIATE_WIN: bool = false;

    /// Bounds `(lo, hi)` on this position's game-theoretic value (MAX's view) given that the
    /// side to move has no immediate win and at least one move that does not lose at once —
    /// the exact solver asks only then, and narrows its window with them. Games whose winner
    /// scores more for a quicker win bound the value tighter here than [`Game::value_bounds`]
    /// can (Connect-Four: neither side wins with its next stone, so each wins at best a move
    /// later). Default: [`Game::value_bounds`].
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        self.value_bounds()
    }

    /// The value (MAX's view) when [`Game::non_losing_moves`] keeps no move — every move loses
    /// at once — if the game knows it without playing one (Connect-Four: the opponent wins with
    /// its next stone). The exact solver then returns it instead of searching a losing move.
    /// Default: none.
    fn forced_loss_value(&self) -> Option<Score> {
        None
    }

    /// A 64-bit hash of the position, for transposition tables (optional).
    fn hash(&self) -> Option<u64> {
        None
    }

    /// How a move is shown to people (JSON `best_move`, `pv`). Defaults to `Debug`.
    fn move_name(&self, m: Self::Move) -> String {
        format!("{m:?}")
    }
}

/// `h(p)` of seed 000 ("Search behaviors"): `f(p)` from the point of view of the side to move.
#[inline]
pub fn negamax_eval<G: Game>(p: &G) -> Score {
    p.to_move().sign() * p.evaluate()
}
