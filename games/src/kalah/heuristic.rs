//! Kalah's heuristic for the engine: the learned evaluation ([`super::active_weights`]), or
//! where there is none the hand-written one.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score};

use super::{active_weights, Kalah};

/// The engine's heuristic (MAX = South's view), in quarters of a seed: the learned evaluation's
/// guess of the final margin, or without weights the store difference, counted four times, plus
/// the difference of the seeds still in each side's pits — under both capture rules a side
/// keeps the seeds left on its side when the other side runs out, so they are likely its own.
/// A finished game is its exact value.
impl Heuristic for Kalah {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        let sign = if self.south_to_move { 1 } else { -1 };
        if let Some(w) = active_weights(self.pits(), self.rule()) {
            let quarters = i64::from(w.value(self)) * 4 / i64::from(w.scale());
            return sign * quarters as Score;
        }
        let side = |pits: &[u8]| pits.iter().map(|&s| Score::from(s)).sum::<Score>();
        4 * self.evaluate() + side(self.south()) - side(self.north())
    }
}
