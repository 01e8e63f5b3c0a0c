//! What the engine knows of Dōbutsu shōgi beyond the rules: material; and what the exact solver
//! knows: a move that wins at once.

use gamesearch::engine::Heuristic;
use gamesearch::{Game, Score, SolverKnowledge};

use super::{Dobutsu, DobutsuMove, CHICK, ELEPHANT, GIRAFFE, HEN, THEIRS};

/// The solver takes a win at once (the lion taken, or a safe try) without searching: otherwise
/// it searches the other moves of a position with a safe try first, on lines that may run as
/// long as the positions are many (a position repeats only on its own line).
impl SolverKnowledge for Dobutsu {
    fn immediate_win(&self) -> Option<DobutsuMove> {
        self.winning_move()
    }
}

/// A piece's worth, by kind (the lion's is the game).
fn worth(kind: u8) -> Score {
    match kind {
        CHICK => 1,
        GIRAFFE | ELEPHANT => 3,
        HEN => 4,
        _ => 0,
    }
}

/// The engine's heuristic (MAX's view): material on the board and in hand, the mover's less
/// the opponent's, times 10, turned to Sente's side; a finished game is ±1000.
/// Hand-written, not tuned.
impl Heuristic for Dobutsu {
    fn heuristic(&self) -> Score {
        if self.moves().next().is_none() {
            return 1000 * self.evaluate();
        }
        let mut v = 0;
        for &c in &self.board {
            let w = worth(c & 7);
            v += if c & THEIRS != 0 { -w } else { w };
        }
        for (slot, kind) in [GIRAFFE, ELEPHANT, CHICK].into_iter().enumerate() {
            v +=
                worth(kind) * (Score::from(self.hands[0][slot]) - Score::from(self.hands[1][slot]));
        }
        10 * v * self.to_move().sign()
    }

    fn proven_value(&self) -> Option<Score> {
        (self.moves().next().is_none()).then(|| self.evaluate())
    }
}
