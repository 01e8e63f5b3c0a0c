//! Win/draw/loss: any game with `f` replaced by its sign, so a solver proves only who wins — the
//! "weak" solve of the Connect-Four benchmarks, much cheaper than the exact margin.

use crate::game::{Adapter, Game, Player, Score};

/// `G` with `f(p)` = −1, 0 or +1.
///
/// ```
/// use gamesearch::games::{Connect4, Weak};
/// use gamesearch::Game;
/// let won = Connect4::new(7, 6).unwrap().play_moves("1212121").unwrap();
/// assert_eq!(Weak::new(won).evaluate(), 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Weak<G> {
    inner: G,
}

impl<G: Game> Weak<G> {
    /// Wraps `inner`.
    pub fn new(inner: G) -> Self {
        Weak { inner }
    }
}

impl<G: Game> Game for Weak<G> {
    type Move = G::Move;
    type Moves = G::Moves;

    fn to_move(&self) -> Player {
        self.inner.to_move()
    }
    fn moves(&self) -> G::Moves {
        self.inner.moves()
    }
    fn play(&self, m: G::Move) -> Self {
        Weak {
            inner: self.inner.play(m),
        }
    }
    fn evaluate(&self) -> Score {
        self.inner.evaluate().signum()
    }
    fn value_bounds(&self) -> Option<(Score, Score)> {
        self.inner
            .value_bounds()
            .map(|(lo, hi)| (lo.signum(), hi.signum()))
    }
    fn move_name(&self, m: G::Move) -> String {
        self.inner.move_name(m)
    }
}

/// The inner game's key and solver knowledge, its values read as their signs.
impl<G: Game> Adapter for Weak<G> {
    type Inner = G;
    fn inner(&self) -> &G {
        &self.inner
    }
    fn map_value(v: Score) -> Score {
        v.signum()
    }
}
