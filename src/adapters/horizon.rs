//! The engine's knowledge at a textbook search's horizon: [`AtHorizon`] makes a game's
//! [`Heuristic`] its `f(p)`, so that minimax, alpha-beta, SCOUT, NegaScout, PVS and MTD(f) to a
//! fixed depth value the positions where they stop as the engine does, not by the rules' `f`
//! (which a game such as Connect-Four leaves at 0 until the game is over).

use crate::engine::Heuristic;
use crate::game::{Game, Player, PositionKey, Score};

/// `G` with `f(p)` = [`Heuristic::heuristic`] (the game's exact value where it is over, as every
/// heuristic gives it).
///
/// ```
/// use gamesearch::adapters::AtHorizon;
/// use gamesearch::engine::Heuristic;
/// use gamesearch::{search, Algorithm, Game, Player, Score, SearchConfig};
///
/// /// A race to 10: each move adds 1 or 2; whoever reaches 10 wins. Its rules' f is 0 until
/// /// then; its heuristic: being on a multiple of 3 away from 10 is bad for the mover.
/// #[derive(Clone, Copy)]
/// struct Race { at: u8, to_move: Player }
/// impl Game for Race {
///     type Move = u8;
///     type Moves = std::ops::RangeInclusive<u8>;
///     fn to_move(&self) -> Player { self.to_move }
///     fn moves(&self) -> Self::Moves { if self.at >= 10 { 1..=0 } else { 1..=(10 - self.at).min(2) } }
///     fn play(&self, m: u8) -> Self { Race { at: self.at + m, to_move: self.to_move.opponent() } }
///     fn evaluate(&self) -> Score { if self.at >= 10 { -self.to_move.sign() } else { 0 } }
/// }
/// impl Heuristic for Race {
///     fn heuristic(&self) -> Score {
///         let lost = (10 - self.at) % 3 == 0; // the mover's, with best play
///         self.to_move.sign() * if lost { -1 } else { 1 }
///     }
/// }
/// let start = Race { at: 0, to_move: Player::Max };
/// // Two plies deep the rules' f knows nothing; the heuristic already sees the win (leave 9).
/// assert_eq!(search(&start, Algorithm::AlphaBeta, &SearchConfig::new(2)).value, Some(0));
/// let r = search(&AtHorizon::new(start), Algorithm::AlphaBeta, &SearchConfig::new(2));
/// assert_eq!((r.value, r.best_move), (Some(1), Some(1)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AtHorizon<G> {
    inner: G,
}

impl<G: Game> AtHorizon<G> {
    /// Wraps `inner`.
    pub fn new(inner: G) -> Self {
        AtHorizon { inner }
    }

    /// The position inside.
    pub fn inner(&self) -> &G {
        &self.inner
    }
}

impl<G: Game + Heuristic> Game for AtHorizon<G> {
    type Move = G::Move;
    type Moves = G::Moves;

    fn to_move(&self) -> Player {
        self.inner.to_move()
    }
    fn moves(&self) -> G::Moves {
        self.inner.moves()
    }
    fn play(&self, m: G::Move) -> Self {
        AtHorizon::new(self.inner.play(m))
    }
    fn evaluate(&self) -> Score {
        self.inner.heuristic()
    }
    // The heuristic's range is its own (within ±HEURISTIC_MAX), not the game's bounds.
    fn move_name(&self, m: G::Move) -> String {
        self.inner.move_name(m)
    }
    const REPEATS: bool = G::REPEATS;
    fn repetition_value(&self) -> Score {
        self.inner.repetition_value()
    }
}

impl<G: PositionKey + Heuristic> PositionKey for AtHorizon<G> {
    fn key(&self) -> u64 {
        self.inner.key()
    }
}
