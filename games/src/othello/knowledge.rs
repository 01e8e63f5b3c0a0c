//! Othello's knowledge for the exact solver: fastest-first move order, and the last few empty
//! squares solved by a small search of their own.

use gamesearch::{Score, SolverKnowledge};

use super::{corners, flips, legal_moves, Othello, PASS};

/// Empty squares at or below which a position is a leaf of the solver, valued by
/// [`last_empties`]: so near the end, the table and the move ordering cost more than they save.
/// FFO #40, one thread, 1 GiB: 36.9 M nodes and 15.6 s without; 12.5 M and 14.3 s at 3; 7.2 M
/// and 14.7 s at 4; 4.5 M and 26 s at 5 (unordered, the small search outgrows its savings).
const LAST_EMPTIES: u32 = 3;

/// The exact final margin (the side to move's view) of the position `me` to move against `opp`,
/// by plain alpha-beta over the last few empty squares, in square order, without a table;
/// `passed`: the other side has just passed.
fn last_empties(me: u64, opp: u64, n: u8, mut alpha: Score, beta: Score, passed: bool) -> Score {
    let mut moves = legal_moves(me, opp, n);
    if moves == 0 {
        if passed {
            let diff = me.count_ones() as Score - opp.count_ones() as Score;
            let empty = Score::from(n) * Score::from(n) - (me | opp).count_ones() as Score;
            return diff + diff.signum() * empty;
        }
        return -last_empties(opp, me, n, -beta, -alpha, true);
    }
    let mut best = -Score::MAX;
    while moves != 0 {
        let square = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(me, opp, square, n);
        let v = -last_empties(opp & !f, me | f | 1 << square, n, -beta, -alpha, false);
        if v > best {
            best = v;
            if best >= beta {
                break;
            }
            alpha = alpha.max(best);
        }
    }
    best
}

/// The solver's Othello knowledge: a move order, and the last empty squares solved directly.
impl SolverKnowledge for Othello {
    /// With at most three empty squares: the exact value, by a small alpha-beta of its own.
    fn exact_value(&self) -> Option<Score> {
        if self.empties() > LAST_EMPTIES {
            return None;
        }
        let bound = Score::from(self.n) * Score::from(self.n) + 1;
        let v = last_empties(self.me, self.opp, self.n, -bound, bound, false);
        Some(if self.black_to_move { v } else { -v })
    }

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
