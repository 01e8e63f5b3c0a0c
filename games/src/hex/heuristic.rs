//! Hex's heuristic for the engine.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score};

use super::bits::distance;
use super::Hex;

impl Hex {
    /// The fewest empty cells Black (`black`) or White must still fill to join its edges, or
    /// `None` when it no longer can (the other player then has won, or will).
    ///
    /// ```
    /// use gamesearch_games::Hex;
    /// let p = Hex::new(5, false).unwrap();
    /// assert_eq!((p.distance(true), p.distance(false)), (Some(5), Some(5)));
    /// let p = p.play_moves("c3").unwrap();
    /// assert_eq!((p.distance(true), p.distance(false)), (Some(4), Some(5)));
    /// ```
    pub fn distance(&self, black: bool) -> Option<u32> {
        let m = self.masks();
        let (own, from, to) = self.side(black);
        distance(own, self.empty(), from, to, self.size, m)
    }
}

/// The engine's heuristic (MAX's view): White's distance to joining its edges less Black's
/// ([`Hex::distance`]: the fewest empty cells each must still fill), times 8; a player that
/// can no longer join its edges has lost. Hand-written, not tuned: distances ignore that the
/// opponent moves in between (two-distance and resistance do better; see the literature).
impl Heuristic for Hex {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        match (self.distance(true), self.distance(false)) {
            (Some(b), Some(w)) => 8 * (w as Score - b as Score),
            (None, _) => -1000,
            (_, None) => 1000,
        }
    }

    /// A player that can no longer join its edges has lost (the board filled, the other one
    /// would have).
    fn proven_value(&self) -> Option<Score> {
        if self.is_over() {
            return Some(self.evaluate());
        }
        match (self.distance(true), self.distance(false)) {
            (None, _) => Some(-1),
            (_, None) => Some(1),
            _ => None,
        }
    }
}
