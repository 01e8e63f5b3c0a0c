//! What the solver and the engine know of tic-tac-toe beyond the rules.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score, SolverKnowledge};

use super::{TicTacToe, LINES};

/// No knowledge beyond the rules: the solver's defaults.
impl SolverKnowledge for TicTacToe {}

/// The engine's heuristic (MAX = X): for every line still open to one side only, that side
/// scores its marks in it, squared (two in a line count 4). A finished game is its exact value.
impl Heuristic for TicTacToe {
    fn heuristic(&self) -> Score {
        if self.moves().next().is_none() {
            return self.evaluate();
        }
        let mut v = 0;
        for line in LINES {
            let (x, o) = ((self.x & line).count_ones(), (self.o & line).count_ones());
            if o == 0 {
                v += (x * x) as Score;
            }
            if x == 0 {
                v -= (o * o) as Score;
            }
        }
        v
    }
}
