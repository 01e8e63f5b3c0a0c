//! Tic-tac-toe: X (MAX) moves first; `f` = +1 when X has three in a row, −1 for O, 0 otherwise
//! (a draw at game end, the heuristic elsewhere). The game-theoretic value is 0 (a draw).
//!
//! Text form: nine characters row by row, `x`, `o` or `.` (e.g. `x...o....`); the side to move
//! follows from the counts.

use gamesearch::game::{Game, Player, PositionKey, Score};

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// A tic-tac-toe position (bit i = cell i, row by row).
///
/// ```
/// use gamesearch_games::TicTacToe;
/// use gamesearch::Game;
/// let p: TicTacToe = "xx.oo....".parse().unwrap();
/// assert_eq!(p.play(2).evaluate(), 1); // X completes the top row
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    x: u16,
    o: u16,
}

impl TicTacToe {
    /// The empty board.
    pub fn new() -> Self {
        Self::default()
    }

    fn won(stones: u16) -> bool {
        for line in LINES {
            if stones & line == line {
                return true;
            }
        }
        false
    }

    fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }
}

/// The empty cells, low to high.
#[derive(Clone, Copy, Debug)]
pub struct Cells(u16);

impl Iterator for Cells {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

impl Game for TicTacToe {
    /// The cell, 0..9 row by row (shown 1..9).
    type Move = u8;
    type Moves = Cells;

    fn to_move(&self) -> Player {
        if self.x_to_move() {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn moves(&self) -> Cells {
        if Self::won(self.x) || Self::won(self.o) {
            return Cells(0);
        }
        Cells(!(self.x | self.o) & 0x1FF)
    }

    fn play(&self, m: u8) -> Self {
        let mut p = *self;
        if self.x_to_move() {
            p.x |= 1 << m;
        } else {
            p.o |= 1 << m;
        }
        p
    }

    fn evaluate(&self) -> Score {
        if Self::won(self.x) {
            1
        } else if Self::won(self.o) {
            -1
        } else {
            0
        }
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }

    fn move_name(&self, m: u8) -> String {
        (m + 1).to_string()
    }
}

impl PositionKey for TicTacToe {
    fn key(&self) -> u64 {
        (u64::from(self.x) | u64::from(self.o) << 16).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

mod jobs;
mod knowledge;
mod notation;
