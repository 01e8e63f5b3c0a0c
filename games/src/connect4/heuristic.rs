//! Connect-Four's heuristic for the engine.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score};

use super::{Bitboard, Connect4};

/// The engine's heuristic for positions it stops at (MAX's view), counted on the bitboards:
/// - each empty cell where a side would complete four (a *threat*) counts 2, and 4 when it lies
///   on a row that suits that side — odd rows (1st, 3rd, …, from the bottom) for the first
///   player, even rows for the second (Allis's zugzwang parity: the first player can claim the
///   odd cells of a column, the second the even ones, by following up);
/// - each stone in the centre column counts 1 (it takes part in the most lines).
///
/// A finished game is its exact value.
impl<B: Bitboard> Heuristic for Connect4<B> {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        let h = u32::from(self.height);
        let (max_stones, min_stones) = if self.moves % 2 == 0 {
            (self.current, self.current ^ self.mask)
        } else {
            (self.current ^ self.mask, self.current)
        };
        let rows = (0..h).step_by(2).fold(B::ZERO, |m, r| m | B::ONE << r);
        let odd_rows = self.bottom() * rows; // 1st, 3rd, … rows of every column
        let even_rows = self.board_mask() & !odd_rows;
        let count = |b: B| b.count_ones() as Score;
        let max_threats = self.winning_cells(max_stones);
        let min_threats = self.winning_cells(min_stones);
        let threats = 4 * count(max_threats & odd_rows) + 2 * count(max_threats & even_rows)
            - 4 * count(min_threats & even_rows)
            - 2 * count(min_threats & odd_rows);
        let centre_col = ((B::ONE << h) - B::ONE) << ((u32::from(self.width) / 2) * (h + 1));
        threats + count(max_stones & centre_col) - count(min_stones & centre_col)
    }
}
