//! Tic-tac-toe: X (MAX) moves first; `f` = +1 when X has three in a row, −1 for O, 0 otherwise
//! (a draw at game end, the heuristic elsewhere). The game-theoretic value is 0 (a draw).
//!
//! Text form: nine characters row by row, `x`, `o` or `.` (e.g. `x...o....`); the side to move
//! follows from the counts.

use std::fmt;
use std::str::FromStr;

use crate::engine::Heuristic;
use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::solver::SolverKnowledge;

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

/// A tic-tac-toe position (bit i = cell i, row by row).
///
/// ```
/// use gamesearch::games::TicTacToe;
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

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..9 {
            let c = if self.x >> i & 1 == 1 {
                'x'
            } else if self.o >> i & 1 == 1 {
                'o'
            } else {
                '.'
            };
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe({self})")
    }
}

impl FromStr for TicTacToe {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = |m: &str| Error::BadParameter(format!("tic-tac-toe position `{s}`: {m}"));
        let cells: Vec<char> = s.trim().chars().collect();
        if cells.len() != 9 {
            return Err(bad("expected 9 cells of x, o or ."));
        }
        let mut p = TicTacToe::new();
        for (i, c) in cells.iter().enumerate() {
            match c.to_ascii_lowercase() {
                'x' => p.x |= 1 << i,
                'o' => p.o |= 1 << i,
                '.' | '-' | '_' => {}
                _ => return Err(bad(&format!("`{c}` is not x, o or ."))),
            }
        }
        let (nx, no) = (p.x.count_ones(), p.o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(bad("X moves first: X has as many stones as O or one more"));
        }
        if Self::won(p.x) && Self::won(p.o) {
            return Err(bad("both sides have three in a row"));
        }
        // The side with three in a row moved last: the game ended there.
        if Self::won(p.x) && nx != no + 1 {
            return Err(bad(
                "X has three in a row, so X moved last: X needs one stone more than O",
            ));
        }
        if Self::won(p.o) && nx != no {
            return Err(bad(
                "O has three in a row, so O moved last: X and O need as many stones",
            ));
        }
        Ok(p)
    }
}
