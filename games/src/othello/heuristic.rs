//! Othello's heuristic for the engine: the learned evaluation ([`super::active_weights`]), or
//! where there is none the hand-written one.

use gamesearch::engine::Heuristic;
use gamesearch::Score;

use super::patterns::{active_weights, learned_value};
use super::{corners, legal_moves, Othello};

/// The engine's heuristic (MAX = Black's view), in hundredths of a disc: at the game's end its
/// exact margin ×100; before it, the learned evaluation's guess of the final margin, or
/// without weights: corners held (×2500 each), mobility (the difference of the
/// two sides' legal moves, ×100), and the disc difference (×10, little weight before the end,
/// where fewer discs often means more mobility later). Hand-written, not tuned.
impl Heuristic for Othello {
    fn heuristic(&self) -> Score {
        let mine = legal_moves(self.me, self.opp, self.n);
        let theirs = legal_moves(self.opp, self.me, self.n);
        let sign = if self.black_to_move { 1 } else { -1 };
        if mine == 0 && theirs == 0 {
            return 100 * self.final_margin();
        }
        if let Some(w) = active_weights(self.n) {
            let v =
                i64::from(learned_value(w, self.me, self.opp, self.n)) * 100 / i64::from(w.scale());
            return sign * v as Score;
        }
        let corners = corners(self.n);
        let count = |x: u64| x.count_ones() as Score;
        let v = 2500 * (count(self.me & corners) - count(self.opp & corners))
            + 100 * (count(mine) - count(theirs))
            + 10 * (count(self.me) - count(self.opp));
        sign * v
    }
}
