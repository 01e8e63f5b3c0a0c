//! Domineering's text: cells `a1`…, dominoes as two cells (`a1a2`), move lists, the board
//! form, the drawn board.

use std::fmt;
use std::str::FromStr;

use gamesearch::error::Error;

use super::Domineering;

/// A cell's name: the column's letter, then the row's number from 1 (`a1` the top-left).
fn cell_name(cell: u32, cols: u8) -> String {
    let cols = u32::from(cols);
    format!(
        "{}{}",
        (b'a' + (cell % cols) as u8) as char,
        cell / cols + 1
    )
}

/// A domino's name: its first cell, then its second (`step` further on).
pub(super) fn domino_name(mv: u8, step: u32, cols: u8) -> String {
    let first = u32::from(mv);
    format!(
        "{}{}",
        cell_name(first, cols),
        cell_name(first + step, cols)
    )
}

fn bad(text: &str, why: impl fmt::Display) -> Error {
    Error::BadParameter(format!("Domineering `{text}`: {why}"))
}

/// An error's words without its kind.
fn words(e: Error) -> String {
    match e {
        Error::BadParameter(m) => m,
        other => other.to_string(),
    }
}

/// Splits a cell name off the front of `s` (a letter, then digits): the column, the row (both
/// from 0) and the rest; `None` when `s` does not start with one.
fn split_cell(s: &str) -> Option<(u32, u32, &str)> {
    let b = s.as_bytes();
    let col = b
        .first()?
        .to_ascii_lowercase()
        .checked_sub(b'a')
        .filter(|&c| c < 26)?;
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let row: u32 = s[1..1 + digits].parse().ok()?;
    (row >= 1).then_some((u32::from(col), row - 1, &s[1 + digits..]))
}

impl Domineering {
    /// The bit of a cell named on this board, if it is one.
    fn cell(&self, col: u32, row: u32) -> Option<u32> {
        (col < u32::from(self.cols) && row < u32::from(self.rows))
            .then(|| row * u32::from(self.cols) + col)
    }

    /// The move a name gives for the side to move: two cells next to each other in the
    /// mover's direction, in either order (`a1a2` or `a2a1` for Vertical; either case), or why
    /// not.
    ///
    /// ```
    /// use gamesearch_games::Domineering;
    /// let p = Domineering::new(8, 8, true).unwrap();
    /// assert_eq!(p.parse_move("a1a2"), Ok(0));
    /// assert_eq!(p.parse_move("B3B2"), Ok(9));
    /// assert!(p.parse_move("a1b1").is_err()); // a Horizontal domino
    /// assert!(p.parse_move("a8a9").is_err()); // off the board
    /// ```
    pub fn parse_move(&self, name: &str) -> Result<u8, Error> {
        self.domino(name.trim())
            .map_err(|why| bad(name.trim(), why))
    }

    /// [`Domineering::parse_move`]'s work: the move, or why `text` is none.
    fn domino(&self, text: &str) -> Result<u8, String> {
        let shape = || "expected a domino as two cells, e.g. a1a2".to_string();
        let (c1, r1, rest) = split_cell(text).ok_or_else(shape)?;
        let (c2, r2, rest) = split_cell(rest).ok_or_else(shape)?;
        if !rest.is_empty() {
            return Err(shape());
        }
        let (Some(a), Some(b)) = (self.cell(c1, r1), self.cell(c2, r2)) else {
            return Err(format!("a cell off the {}x{} board", self.rows, self.cols));
        };
        let (lo, hi) = (a.min(b), a.max(b));
        let vertical = c1 == c2 && r1.abs_diff(r2) == 1;
        let horizontal = r1 == r2 && c1.abs_diff(c2) == 1;
        if !vertical && !horizontal {
            return Err("these two cells are not next to each other: a domino covers two neighbouring cells, e.g. a1a2".into());
        }
        if vertical != self.vertical_to_move() {
            let kind = if vertical { "vertical" } else { "horizontal" };
            return Err(format!(
                "a {kind} domino, and {} is to move",
                self.mover_name()
            ));
        }
        debug_assert!(hi - lo == 1 || hi - lo == u32::from(self.cols));
        Ok(lo as u8)
    }

    /// The position after the moves `moves` (dominoes run together, `a1a2b3c3`, or separated
    /// by spaces or commas), or the first bad or illegal one.
    pub fn play_moves(&self, moves: &str) -> Result<Domineering, Error> {
        let mut p = *self;
        let mut rest = moves.trim();
        loop {
            rest = rest.trim_start_matches([' ', ',']);
            if rest.is_empty() {
                return Ok(p);
            }
            let len = split_cell(rest)
                .and_then(|(_, _, r)| split_cell(r))
                .map_or(rest.len(), |(_, _, r)| rest.len() - r.len());
            let (name, tail) = rest.split_at(len);
            let mv = p
                .domino(name)
                .map_err(|why| bad(moves, format!("`{name}`: {why}")))?;
            p = p
                .try_play(mv)
                .map_err(|e| bad(moves, format!("`{name}`: {}", words(e))))?;
            rest = tail;
        }
    }

    /// The board form: `MxN:v|h:board=CELLS/SIDE` (see the module), which `FromStr` reads back.
    pub fn notation(&self) -> String {
        let cells: String = (0..u32::from(self.rows) * u32::from(self.cols))
            .map(|i| if self.empty >> i & 1 != 0 { '-' } else { '#' })
            .collect();
        format!(
            "{}x{}:{}:board={cells}/{}",
            self.rows,
            self.cols,
            if self.first_vertical { 'v' } else { 'h' },
            if self.vertical_to_move() { 'V' } else { 'H' }
        )
    }
}

/// The board drawn: columns `a…`, rows `1…` from the top, `-` empty, `#` covered; then whose
/// move it is and how many places each side has.
impl fmt::Display for Domineering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "   ")?;
        for c in 0..self.cols {
            write!(f, " {}", (b'a' + c) as char)?;
        }
        writeln!(f)?;
        for r in 0..u32::from(self.rows) {
            write!(f, "{:>3}", r + 1)?;
            for c in 0..u32::from(self.cols) {
                let covered = self.empty >> (r * u32::from(self.cols) + c) & 1 == 0;
                write!(f, " {}", if covered { '#' } else { '-' })?;
            }
            writeln!(f)?;
        }
        let (mine, theirs) = (
            self.mover_places().count_ones(),
            self.other_places().count_ones(),
        );
        let other = if self.vertical_to_move() {
            "Horizontal"
        } else {
            "Vertical"
        };
        if mine == 0 {
            write!(f, "{} cannot move: {other} wins", self.mover_name())
        } else {
            write!(
                f,
                "{} to move ({mine} places; {other} has {theirs})",
                self.mover_name()
            )
        }
    }
}

impl fmt::Debug for Domineering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Domineering({})", self.notation())
    }
}

impl FromStr for Domineering {
    type Err = Error;
    /// Reads `MxN[:v|:h]`, then optionally `:MOVES` or `:board=CELLS/SIDE`.
    ///
    /// ```
    /// use gamesearch_games::Domineering;
    /// let p: Domineering = "8x8:h:a1b1".parse().unwrap();
    /// assert_eq!(p.notation().parse::<Domineering>().unwrap(), p);
    /// assert!("8x8:a1b1".parse::<Domineering>().is_err()); // Vertical moves first
    /// assert!("0x5".parse::<Domineering>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Domineering, Error> {
        let text = text.trim();
        let (size, rest) = text.split_once(':').unwrap_or((text, ""));
        let (rows, cols) = size
            .split_once(['x', 'X'])
            .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
            .ok_or_else(|| bad(text, "expected MxN first (rows x columns, e.g. 8x8)"))?;
        let (first, rest) = match rest.split_once(':').unwrap_or((rest, "")) {
            ("v" | "V", tail) => (true, tail),
            ("h" | "H", tail) => (false, tail),
            _ => (true, rest),
        };
        let start = Domineering::new(rows, cols, first).map_err(|e| bad(text, words(e)))?;
        let Some(board) = rest.strip_prefix("board=") else {
            return start.play_moves(rest);
        };
        let (cells, side) = board
            .split_once('/')
            .ok_or_else(|| bad(text, "expected board=CELLS/SIDE (SIDE: V or H to move)"))?;
        let vertical_to_move = match side.trim() {
            "V" | "v" => true,
            "H" | "h" => false,
            other => return Err(bad(text, format!("`{other}`: the side to move is V or H"))),
        };
        let cells: Vec<char> = cells.chars().collect();
        if cells.len() != rows * cols {
            return Err(bad(
                text,
                format!(
                    "{} cells; {} {rows}x{cols} board has {}",
                    cells.len(),
                    if rows == 8 || rows == 11 { "an" } else { "a" },
                    rows * cols
                ),
            ));
        }
        let mut empty = 0u128;
        for (i, c) in cells.iter().enumerate() {
            match c {
                '-' | '.' => empty |= 1u128 << i,
                '#' | 'x' | 'X' => {}
                other => {
                    return Err(bad(
                        text,
                        format!("`{other}` is no cell: - (empty) or # (covered)"),
                    ))
                }
            }
        }
        Domineering::from_cells(rows, cols, empty, first, vertical_to_move)
            .ok_or_else(|| bad(text, "the cells do not fit the board"))
    }
}
