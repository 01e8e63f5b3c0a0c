//! Hex's text: cells `a1`…`k11`, `swap`, move lists, the board form, the drawn board.

use std::fmt;
use std::str::FromStr;

use gamesearch::error::Error;

use super::{Hex, SWAP};

/// A move's name: its cell (`c3`: the column's letter, then the row's number from 1), or
/// `swap`.
pub(super) fn move_name(mv: u8, size: u8) -> String {
    if mv == SWAP {
        return "swap".into();
    }
    format!("{}{}", (b'a' + mv % size) as char, u32::from(mv / size) + 1)
}

fn bad(text: &str, why: impl fmt::Display) -> Error {
    Error::BadParameter(format!("Hex `{text}`: {why}"))
}

/// An error's words without its kind.
fn words(e: Error) -> String {
    match e {
        Error::BadParameter(m) => m,
        other => other.to_string(),
    }
}

/// Splits a move off the front of `s`: `swap`, or a cell (a letter, then one or two digits;
/// the column and row from 0); the move's text and the rest, or `None` when `s` starts with
/// neither.
fn split_move(s: &str) -> Option<(&str, &str)> {
    // (Bytes, not a slice of the text: a slice through a character would panic.)
    if s.as_bytes()
        .get(..4)
        .is_some_and(|b| b.eq_ignore_ascii_case(b"swap"))
    {
        return Some(s.split_at(4));
    }
    let b = s.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    (1..=2).contains(&digits).then(|| s.split_at(1 + digits))
}

impl Hex {
    /// The move a name gives: `swap` (either case), or a cell on this board, or why not. The
    /// move may still be illegal here ([`Hex::try_play`] says).
    ///
    /// ```
    /// use gamesearch_games::hex::{Hex, SWAP};
    /// let p = Hex::new(11, true).unwrap();
    /// assert_eq!(p.parse_move("a1"), Ok(0));
    /// assert_eq!(p.parse_move("K11"), Ok(120));
    /// assert_eq!(p.parse_move("swap"), Ok(SWAP));
    /// assert!(p.parse_move("l1").is_err()); // off the board
    /// ```
    pub fn parse_move(&self, name: &str) -> Result<u8, Error> {
        self.cell(name.trim()).map_err(|why| bad(name.trim(), why))
    }

    /// [`Hex::parse_move`]'s work: the move, or why `text` is none.
    fn cell(&self, text: &str) -> Result<u8, String> {
        if text.eq_ignore_ascii_case("swap") {
            return Ok(SWAP);
        }
        let shape = || "expected a cell (a letter and a number, e.g. c3) or swap".to_string();
        let (name, rest) = split_move(text).ok_or_else(shape)?;
        if !rest.is_empty() {
            return Err(shape());
        }
        let col = u32::from(name.as_bytes()[0].to_ascii_lowercase().wrapping_sub(b'a'));
        let row: u32 = name[1..].parse().map_err(|_| shape())?;
        let n = u32::from(self.size);
        if col >= n || row == 0 || row > n {
            return Err(format!("a cell off the {n}x{n} board"));
        }
        Ok(((row - 1) * n + col) as u8)
    }

    /// The position after the moves `moves` (run together, `c3d2`, or separated by spaces or
    /// commas; `swap` among them), or the first bad or illegal one.
    pub fn play_moves(&self, moves: &str) -> Result<Hex, Error> {
        let mut p = *self;
        let mut rest = moves.trim();
        loop {
            rest = rest.trim_start_matches([' ', ',']);
            if rest.is_empty() {
                return Ok(p);
            }
            let (name, tail) = split_move(rest).unwrap_or((rest, ""));
            let mv = p
                .cell(name)
                .map_err(|why| bad(moves, format!("`{name}`: {why}")))?;
            p = p
                .try_play(mv)
                .map_err(|e| bad(moves, format!("`{name}`: {}", words(e))))?;
            rest = tail;
        }
    }

    /// The board form: `NxN[:swap]:board=CELLS/SIDE` (see the module), which `FromStr` reads
    /// back.
    pub fn notation(&self) -> String {
        let n = u32::from(self.size);
        let cells: String = (0..n * n)
            .map(|i| {
                if self.black >> i & 1 != 0 {
                    'B'
                } else if self.white >> i & 1 != 0 {
                    'W'
                } else {
                    '-'
                }
            })
            .collect();
        format!(
            "{n}x{n}{}:board={cells}/{}",
            if self.swap_rule { ":swap" } else { "" },
            if self.black_to_move { 'B' } else { 'W' }
        )
    }
}

/// The rhombus drawn: columns `a…` across the top, rows `1…` down, each row half a cell to the
/// right of the one above; `B` Black, `W` White, `-` empty; then whose move it is, or who won.
impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = u32::from(self.size);
        write!(f, "    ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)?;
        for r in 0..n {
            write!(f, "{}{:>3} ", " ".repeat(r as usize), r + 1)?;
            for c in 0..n {
                let i = r * n + c;
                let ch = if self.black >> i & 1 != 0 {
                    'B'
                } else if self.white >> i & 1 != 0 {
                    'W'
                } else {
                    '-'
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        if self.over {
            let winner = if self.black_to_move { "White" } else { "Black" };
            write!(f, "{winner} has joined its edges and wins")
        } else {
            write!(
                f,
                "{} to move (Black joins top and bottom, White left and right){}",
                self.mover_name(),
                if self.can_swap() {
                    "; White may swap"
                } else {
                    ""
                }
            )
        }
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex({})", self.notation())
    }
}

impl FromStr for Hex {
    type Err = Error;
    /// Reads `NxN[:swap]`, then optionally `:MOVES` or `:board=CELLS/SIDE`.
    ///
    /// ```
    /// use gamesearch_games::Hex;
    /// let p: Hex = "7x7:swap:d4,swap".parse().unwrap();
    /// assert_eq!(p.notation().parse::<Hex>().unwrap(), p);
    /// assert!("7x7:d4,swap".parse::<Hex>().is_err()); // no swap rule
    /// assert!("12x12".parse::<Hex>().is_err());
    /// assert!("5x6".parse::<Hex>().is_err()); // Hex boards are square
    /// ```
    fn from_str(text: &str) -> Result<Hex, Error> {
        let text = text.trim();
        let (size, rest) = text.split_once(':').unwrap_or((text, ""));
        let (rows, cols) = size
            .split_once(['x', 'X'])
            .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
            .ok_or_else(|| bad(text, "expected NxN first (e.g. 7x7)"))?;
        if rows != cols {
            return Err(bad(
                text,
                format!("a Hex board is square, not {rows}x{cols}"),
            ));
        }
        let (swap, rest) = match rest.split_once(':').unwrap_or((rest, "")) {
            (s, tail) if s.eq_ignore_ascii_case("swap") => (true, tail),
            _ => (false, rest),
        };
        let start = Hex::new(rows, swap).map_err(|e| bad(text, words(e)))?;
        let Some(board) = rest.strip_prefix("board=") else {
            return start.play_moves(rest);
        };
        let (cells, side) = board
            .split_once('/')
            .ok_or_else(|| bad(text, "expected board=CELLS/SIDE (SIDE: B or W to move)"))?;
        let black_to_move = match side.trim() {
            "B" | "b" | "X" | "x" => true,
            "W" | "w" | "O" | "o" => false,
            other => return Err(bad(text, format!("`{other}`: the side to move is B or W"))),
        };
        let cells: Vec<char> = cells.chars().collect();
        if cells.len() != rows * rows {
            return Err(bad(
                text,
                format!(
                    "{} cells; {} {rows}x{rows} board has {}",
                    cells.len(),
                    if rows == 8 || rows == 11 { "an" } else { "a" },
                    rows * rows
                ),
            ));
        }
        let (mut black, mut white) = (0u128, 0u128);
        for (i, c) in cells.iter().enumerate() {
            match c {
                '-' | '.' => {}
                'B' | 'b' | 'X' | 'x' => black |= 1u128 << i,
                'W' | 'w' | 'O' | 'o' => white |= 1u128 << i,
                other => {
                    return Err(bad(
                        text,
                        format!("`{other}` is no cell: B (Black), W (White) or - (empty)"),
                    ))
                }
            }
        }
        Hex::from_stones(rows, swap, black, white, black_to_move).map_err(|why| bad(text, why))
    }
}
