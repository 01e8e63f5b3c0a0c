//! Domineering's heuristic for the engine.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score};

use super::Domineering;

/// The engine's heuristic (MAX's view): the side to move's safe moves less the opponent's
/// (×4: moves no one can take away), its moves at most less the opponent's (×2), and its
/// places less the opponent's (×1) — the counts of [`Domineering::move_counts`]. A position the
/// counts settle is a proven win or loss ([`Heuristic::proven_value`]). Hand-written, not tuned.
impl Heuristic for Domineering {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        let (v, h) = self.move_counts();
        let (mine, theirs) = if self.vertical_to_move() {
            (v, h)
        } else {
            (h, v)
        };
        let places =
            self.mover_places().count_ones() as Score - self.other_places().count_ones() as Score;
        let own = 4 * (mine.safe as Score - theirs.safe as Score)
            + 2 * (mine.most as Score - theirs.most as Score)
            + places;
        self.to_move().sign() * own
    }

    fn proven_value(&self) -> Option<Score> {
        self.counted_value()
    }
}
