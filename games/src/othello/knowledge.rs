//! Othello's knowledge for the exact solver: fastest-first move order.

use gamesearch::SolverKnowledge;

use super::{flips, legal_moves, Othello, PASS};

/// The four corners of the 8x8 layout for each board size: squares no disc is ever flipped on.
fn corners(n: u8) -> u64 {
    let far = n - 1;
    1 | 1 << far | 1 << (8 * far) | 1 << (8 * far + far)
}

/// The solver's Othello knowledge: a move order.
impl SolverKnowledge for Othello {
    /// Corners first; then "fastest first": the moves that leave the opponent the fewest
    /// replies (Fastest-First, as endgame solvers order near the end), ties in square order.
    fn order_moves(&self, moves: &mut [u8]) {
        if moves.len() < 2 || moves[0] == PASS {
            return;
        }
        let corner = corners(self.n);
        let mut keyed = [(0i32, 0u8); 64];
        let n = moves.len().min(64);
        for (slot, &mv) in keyed.iter_mut().zip(moves.iter()) {
            let f = flips(self.me, self.opp, mv, self.n);
            let (me, opp) = (self.me | f | 1 << mv, self.opp & !f);
            let replies = legal_moves(opp, me, self.n).count_ones() as i32;
            let bonus = if corner >> mv & 1 != 0 { 64 } else { 0 };
            *slot = (bonus - replies, mv);
        }
        // Equal keys in square order (sorted in place: nothing allocated per node).
        keyed[..n].sort_unstable_by_key(|&(k, mv)| (std::cmp::Reverse(k), mv));
        for (m, (_, mv)) in moves.iter_mut().zip(&keyed[..n]) {
            *m = *mv;
        }
    }
}
