//! Kalah's heuristic for the engine.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score};

use super::Kalah;

/// The engine's heuristic (MAX = South's view): the store difference, counted four times, plus
/// the difference of the seeds still in each side's pits — under both capture rules a side
/// keeps the seeds left on its side when the other side runs out, so they are likely its own.
/// A finished game is its exact value.
impl Heuristic for Kalah {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        let side = |pits: &[u8]| pits.iter().map(|&s| Score::from(s)).sum::<Score>();
        4 * self.evaluate() + side(self.south()) - side(self.north())
    }
}
