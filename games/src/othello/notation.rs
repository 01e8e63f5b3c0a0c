//! Othello's text: squares `a1`–`h8` (`pass`), move lists, the board form, the drawn board.

use std::fmt;
use std::str::FromStr;

use gamesearch::error::Error;
use gamesearch::Game;

use super::{board_mask, Othello, PASS};

/// A square's name (`a1` is bit 0, `b1` bit 1, `a2` bit 8), or `pass`.
pub(super) fn square_name(mv: u8) -> String {
    if mv == PASS {
        return "pass".into();
    }
    format!("{}{}", (b'a' + mv % 8) as char, mv / 8 + 1)
}

fn bad(text: &str, why: impl fmt::Display) -> Error {
    Error::BadParameter(format!("Othello `{text}`: {why}"))
}

/// An error's words without its kind (its kind is the caller's).
pub(super) fn words(e: Error) -> String {
    match e {
        Error::BadParameter(m) => m,
        other => other.to_string(),
    }
}

impl Othello {
    /// The move a name gives: `a1`–`h8` on the board (either case), `ps` or `pass`.
    ///
    /// ```
    /// use gamesearch_games::othello::{Othello, PASS};
    /// let p = Othello::new(8).unwrap();
    /// assert_eq!(p.parse_move("f5"), Some(37));
    /// assert_eq!(p.parse_move("PS"), Some(PASS));
    /// assert_eq!(p.parse_move("i9"), None);
    /// ```
    pub fn parse_move(&self, name: &str) -> Option<u8> {
        let name = name.trim().to_ascii_lowercase();
        if name == "ps" || name == "pass" {
            return Some(PASS);
        }
        let b = name.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (col, row) = (b[0].wrapping_sub(b'a'), b[1].wrapping_sub(b'1'));
        (col < self.n && row < self.n).then_some(8 * row + col)
    }

    /// The position after the moves `moves` (names run together, `f5d6c3`, or separated by
    /// spaces or commas), or the first illegal one.
    pub fn play_moves(&self, moves: &str) -> Result<Othello, Error> {
        let mut p = *self;
        let mut rest = moves.trim();
        while !rest.is_empty() {
            rest = rest.trim_start_matches([' ', ',']);
            if rest.is_empty() {
                break;
            }
            let len = if rest.to_ascii_lowercase().starts_with("pass") {
                4
            } else {
                2.min(rest.len())
            };
            let (name, tail) =
                rest.split_at(rest.char_indices().nth(len).map_or(rest.len(), |(i, _)| i));
            let mv = p.parse_move(name).ok_or_else(|| {
                bad(
                    moves,
                    format!("`{name}` is no square of the {0}x{0} board", p.n),
                )
            })?;
            p = p.try_play(mv).map_err(|e| bad(moves, words(e)))?;
            rest = tail;
        }
        Ok(p)
    }

    /// The board form: `NxN:board=CELLS/SIDE` (see the module), which `FromStr` reads back.
    pub fn notation(&self) -> String {
        let (black, white) = self.discs();
        let mut cells = String::with_capacity(64);
        for r in 0..self.n {
            for c in 0..self.n {
                let bit = 1u64 << (8 * r + c);
                cells.push(if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else {
                    '-'
                });
            }
        }
        let side = if self.black_to_move { 'X' } else { 'O' };
        format!("{0}x{0}:board={cells}/{side}", self.n)
    }
}

/// The board drawn: columns `a…`, rows `1…`, `X` Black, `O` White, `.` a legal move; the side
/// to move under it.
impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = self.discs();
        let legal = self.legal_squares();
        write!(f, "  ")?;
        for c in 0..self.n {
            write!(f, " {}", (b'a' + c) as char)?;
        }
        writeln!(f)?;
        for r in 0..self.n {
            write!(f, "{:>2}", r + 1)?;
            for c in 0..self.n {
                let bit = 1u64 << (8 * r + c);
                let cell = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if legal & bit != 0 {
                    '.'
                } else {
                    '-'
                };
                write!(f, " {cell}")?;
            }
            writeln!(f)?;
        }
        let (b, w) = (black.count_ones(), white.count_ones());
        if self.is_over() {
            write!(f, "game over: X {b}, O {w}")
        } else {
            let side = if self.black_to_move {
                "X (Black)"
            } else {
                "O (White)"
            };
            let pass = if self.moves().next() == Some(PASS) {
                ", who must pass"
            } else {
                ""
            };
            write!(f, "{side} to move{pass}; X {b}, O {w}")
        }
    }
}

impl fmt::Debug for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello({})", self.notation())
    }
}

impl FromStr for Othello {
    type Err = Error;
    /// Reads `NxN`, `NxN:MOVES` or `NxN:board=CELLS/SIDE`.
    ///
    /// ```
    /// use gamesearch_games::othello::Othello;
    /// let p: Othello = "8x8:f5d6".parse().unwrap();
    /// assert_eq!(p.notation().parse::<Othello>().unwrap(), p);
    /// assert!("8x8:a1".parse::<Othello>().is_err()); // no disc to flip
    /// assert!("5x5".parse::<Othello>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Othello, Error> {
        let text = text.trim();
        let (size, rest) = text.split_once(':').unwrap_or((text, ""));
        let n = size
            .split_once(['x', 'X'])
            .filter(|(a, b)| a == b)
            .and_then(|(a, _)| a.parse::<usize>().ok())
            .ok_or_else(|| bad(text, "expected NxN (4x4, 6x6 or 8x8) first"))?;
        let start = Othello::new(n).map_err(|e| bad(text, words(e)))?;
        let Some(board) = rest.strip_prefix("board=") else {
            return start.play_moves(rest);
        };
        let (cells, side) = board
            .split_once('/')
            .ok_or_else(|| bad(text, "expected board=CELLS/SIDE (SIDE: X or O to move)"))?;
        let black_to_move = match side.trim() {
            "X" | "x" => true,
            "O" | "o" => false,
            other => return Err(bad(text, format!("`{other}`: the side to move is X or O"))),
        };
        let cells: Vec<char> = cells.chars().collect();
        if cells.len() != n * n {
            return Err(bad(
                text,
                format!(
                    "{} cells; {} {n}x{n} board has {}",
                    cells.len(),
                    if n == 8 { "an" } else { "a" },
                    n * n
                ),
            ));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in cells.iter().enumerate() {
            let bit = 1u64 << (8 * (i / n) + i % n);
            match c {
                'X' | 'x' | '*' => black |= bit,
                'O' | 'o' => white |= bit,
                '-' | '.' => {}
                other => {
                    return Err(bad(
                        text,
                        format!("`{other}` is no cell: X (Black), O (White) or - (empty)"),
                    ))
                }
            }
        }
        debug_assert_eq!((black | white) & !board_mask(n as u8), 0);
        Othello::from_discs(n as u8, black, white, black_to_move)
            .ok_or_else(|| bad(text, "the discs do not fit the board"))
    }
}
