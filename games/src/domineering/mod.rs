//! Domineering on m×n boards (m rows, n columns; at most 26 columns and 128 cells).
//!
//! # Rules implemented
//! - Two players take turns placing dominoes on two empty cells side by side: Vertical covers
//!   a cell and the one below it, Horizontal a cell and the one to its right.
//! - A player who cannot place a domino on their turn loses; there are no draws.
//! - Who starts is part of the game: `domineering:8x8` is Vertical first, `domineering:8x8:h`
//!   Horizontal first. The first player is MAX: a value is +1 when the first player wins, −1
//!   when the second does (as every value in gamesearch, MAX's view).
//!
//! # Cells and moves
//! Bit `n·row + column` of a `u128`: `a1` (the top-left corner) is bit 0, `b1` bit 1, and `a2`
//! (below `a1`) bit `n`. A move is the bit of its domino's top or left cell; its name is both
//! cells, that one first: `a1a2` (Vertical) or `a1b1` (Horizontal).
//!
//! # Text form
//! `MxN[:v|:h]` (the empty board, Vertical or Horizontal first), then optionally `:MOVES` (the
//! dominoes from the start, names run together or separated by commas or spaces:
//! `a1a2,c3d3`) or `:board=CELLS/SIDE` (the m·n cells row by row from a1, `-` empty and `#`
//! covered, and `V` or `H` to move). [`Domineering::notation`] writes the board form; `Display`
//! draws the board.

use gamesearch::game::{Game, Player, PositionKey, Score};

pub(crate) use bits::Masks;
pub use knowledge::MoveCounts;

mod bits;
mod heuristic;
mod jobs;
mod knowledge;
mod notation;
pub mod published;

/// The most columns a board may have (the letters `a`–`z`; a wider board is the same game
/// turned a quarter, with the other player first).
pub const MAX_COLUMNS: u8 = 26;

/// The most cells a board may have (one `u128`).
pub const MAX_CELLS: usize = 128;

/// A Domineering position: the empty cells, the board's shape, which player is first (MAX) and
/// whose turn it is. Copy-made, 32 bytes.
///
/// ```
/// use gamesearch::Game;
/// use gamesearch_games::Domineering;
/// let start = Domineering::new(8, 8, true).unwrap();
/// // Vertical has 7 places in each of the 8 columns.
/// assert_eq!(start.moves().count(), 56);
/// let p = start.play_moves("d4d5").unwrap();
/// assert_eq!(p.empty_cells(), 62);
/// assert!(p.notation().starts_with("8x8:v:board=---"));
/// assert!(p.notation().ends_with("/H"));
/// assert_eq!(p.notation().parse::<Domineering>().unwrap(), p);
/// // Horizontal, to move, has lost two of its 56 places to each cell of the domino.
/// assert_eq!(p.moves().count(), 52);
/// assert_eq!(std::mem::size_of::<Domineering>(), 32);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Domineering {
    empty: u128,
    rows: u8,
    cols: u8,
    /// Vertical is the first player (MAX).
    first_vertical: bool,
    /// MAX, the first player, is to move.
    max_to_move: bool,
}

impl Domineering {
    /// The empty `rows`×`cols` board, Vertical first when `vertical_first`.
    pub fn new(
        rows: usize,
        cols: usize,
        vertical_first: bool,
    ) -> Result<Domineering, gamesearch::Error> {
        let cells = rows.saturating_mul(cols);
        if rows == 0 || cols == 0 || cols > MAX_COLUMNS as usize || cells > MAX_CELLS {
            return Err(gamesearch::Error::BadParameter(format!(
                "Domineering is played on boards of 1 to {MAX_COLUMNS} columns and at most {MAX_CELLS} cells, not {rows}x{cols}{}",
                if cols > MAX_COLUMNS as usize && rows <= MAX_COLUMNS as usize && cells <= MAX_CELLS {
                    format!(" ({cols}x{rows} with the other player first is the same game turned a quarter)")
                } else {
                    String::new()
                }
            )));
        }
        let empty = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        Ok(Domineering {
            empty,
            rows: rows as u8,
            cols: cols as u8,
            first_vertical: vertical_first,
            max_to_move: true,
        })
    }

    /// A position from its empty cells (bit set as in the module's text), the board's shape,
    /// the first player and whose turn it is; `None` when a cell lies off the board or the
    /// shape is not one [`Domineering::new`] takes.
    pub fn from_cells(
        rows: usize,
        cols: usize,
        empty: u128,
        vertical_first: bool,
        vertical_to_move: bool,
    ) -> Option<Domineering> {
        let start = Domineering::new(rows, cols, vertical_first).ok()?;
        if empty & !start.empty != 0 {
            return None;
        }
        Some(Domineering {
            empty,
            max_to_move: vertical_to_move == vertical_first,
            ..start
        })
    }

    /// The board's rows (m).
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The board's columns (n).
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The empty cells, as a bit set.
    pub fn empty(&self) -> u128 {
        self.empty
    }

    /// How many cells are empty.
    pub fn empty_cells(&self) -> u32 {
        self.empty.count_ones()
    }

    /// Whether Vertical is the first player (MAX).
    pub fn vertical_first(&self) -> bool {
        self.first_vertical
    }

    /// Whether Vertical is to move.
    pub fn vertical_to_move(&self) -> bool {
        self.first_vertical == self.max_to_move
    }

    /// The masks of this board's shape.
    #[inline]
    pub(crate) fn masks(&self) -> &'static Masks {
        bits::masks(self.rows, self.cols)
    }

    /// The side to move's places (a domino's top or left cell), as a bit set.
    #[inline]
    pub fn mover_places(&self) -> u128 {
        if self.vertical_to_move() {
            bits::vertical_places(self.empty, u32::from(self.cols))
        } else {
            bits::horizontal_places(self.empty, self.masks().last_col)
        }
    }

    /// The other side's places.
    #[inline]
    pub fn other_places(&self) -> u128 {
        if self.vertical_to_move() {
            bits::horizontal_places(self.empty, self.masks().last_col)
        } else {
            bits::vertical_places(self.empty, u32::from(self.cols))
        }
    }

    /// The step from a domino's first cell to its second for the side to move: a row down
    /// (Vertical) or a column right (Horizontal).
    #[inline]
    fn step(&self) -> u32 {
        if self.vertical_to_move() {
            u32::from(self.cols)
        } else {
            1
        }
    }

    /// Whether the side to move cannot move (and so has lost).
    pub fn is_over(&self) -> bool {
        self.mover_places() == 0
    }

    /// The game after `mv`, or why it is illegal.
    pub fn try_play(&self, mv: u8) -> Result<Domineering, gamesearch::Error> {
        if u32::from(mv) < 128 && self.mover_places() >> mv & 1 != 0 {
            return Ok(self.play(mv));
        }
        Err(gamesearch::Error::BadParameter(if self.is_over() {
            "the game is over".to_string()
        } else {
            format!(
                "{} is not free for {}",
                notation::domino_name(mv, self.step(), self.cols),
                self.mover_name()
            )
        }))
    }

    /// `Vertical` or `Horizontal`, whichever is to move.
    pub fn mover_name(&self) -> &'static str {
        if self.vertical_to_move() {
            "Vertical"
        } else {
            "Horizontal"
        }
    }
}

/// The side to move's places, low to high.
#[derive(Clone, Copy, Debug)]
pub struct DomineeringMoves(u128);

impl Iterator for DomineeringMoves {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl Game for Domineering {
    /// The bit of the domino's top (Vertical) or left (Horizontal) cell.
    type Move = u8;
    type Moves = DomineeringMoves;

    #[inline]
    fn to_move(&self) -> Player {
        if self.max_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn moves(&self) -> DomineeringMoves {
        DomineeringMoves(self.mover_places())
    }

    #[inline]
    fn play(&self, mv: u8) -> Domineering {
        let domino = (1u128 << mv) | (1u128 << (u32::from(mv) + self.step()));
        Domineering {
            empty: self.empty & !domino,
            max_to_move: !self.max_to_move,
            ..*self
        }
    }

    /// −1 for the side to move (MAX's view) when it cannot move; before that, 0.
    fn evaluate(&self) -> Score {
        if self.is_over() {
            -self.to_move().sign()
        } else {
            0
        }
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }

    fn move_name(&self, mv: u8) -> String {
        notation::domino_name(mv, self.step(), self.cols)
    }
}

/// A 64-bit hash of a 128-bit word and a salt.
#[inline]
pub(crate) fn mix(x: u128, salt: u64) -> u64 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let mut z = lo
        ^ hi.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Domineering {
    /// The salt of the key: the shape, the first player and the side to move.
    #[inline]
    fn salt(&self) -> u64 {
        u64::from(self.rows) << 16
            | u64::from(self.cols) << 8
            | u64::from(self.first_vertical) << 1
            | u64::from(self.max_to_move)
    }
}

impl PositionKey for Domineering {
    /// A hash of the empty cells, the shape, the first player and the side to move.
    #[inline]
    fn key(&self) -> u64 {
        mix(self.empty, self.salt())
    }
}
