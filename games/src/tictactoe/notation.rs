//! Tic-tac-toe's text form: the nine cells row by row (`x`, `o`, `.`).

use std::fmt;
use std::str::FromStr;

use gamesearch::error::Error;

use super::TicTacToe;

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
