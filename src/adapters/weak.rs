//! Win/draw/loss: any game with `f` replaced by its sign, so a solver proves only who wins — the
//! "weak" solve of the Connect-Four benchmarks, much cheaper than the exact margin.

use crate::game::{Adapter, Game, Player, Score};

/// `G` with `f(p)` = −1, 0 or +1.
///
/// ```
/// use gamesearch::{adapters::Weak, trees::ExplicitTree, Game};
/// let t = ExplicitTree::parse("(max 7 -3)").unwrap();
/// let (won, lost) = (t.root().play(0), t.root().play(1));
/// assert_eq!((Weak::new(won).evaluate(), Weak::new(lost).evaluate()), (1, -1));
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
    const REPEATS: bool = G::REPEATS;
    fn repetition_value(&self) -> Score {
        self.inner.repetition_value().signum()
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
