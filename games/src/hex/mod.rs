//! Hex on n×n boards (n from 1 to 11), with or without the swap rule.
//!
//! # Rules implemented
//! - Two players take turns placing a stone of their colour on an empty cell of a rhombus of
//!   hexagons. Black, the first player (MAX), joins the top and bottom rows; White the left and
//!   right columns. The game ends when a chain of one colour joins its two edges; a full board
//!   always has one (there are no draws). A value is +1 when Black wins, −1 when White does (as
//!   every value in gamesearch, MAX's view).
//! - With the swap rule (`hex:7x7:swap`), White's first move may instead be `swap`: Black's
//!   stone becomes White's, reflected in the long diagonal (from `a1` to the opposite corner),
//!   and Black moves again — the "swap pieces" form, which keeps each colour's edges.
//!
//! # Cells and moves
//! The geometry of Benzene and HexGui: `a1`…`k11`, the letter the column and the number the
//! row, row 1 at the top; row r+1 sits half a cell to the right of row r, so `a1` and the
//! opposite corner are the acute corners (two neighbours each). Cell (row r, column c) is bit
//! `n·r + c` of a `u128`; a move is that bit's number, or [`SWAP`].
//!
//! # Text form
//! `NxN[:swap]`, then optionally `:MOVES` (cells run together or separated by commas or
//! spaces, `swap` as a move: `c3,swap,d2`) or `:board=CELLS/SIDE` (the n·n cells row by row
//! from a1, `B` Black, `W` White, `-` empty, and `B` or `W` to move). [`Hex::notation`] writes
//! the board form; `Display` draws the rhombus.

use gamesearch::game::{Game, Player, PositionKey, Score};

use crate::domineering::mix;

pub(crate) use bits::Masks;

mod bits;
mod heuristic;
mod jobs;
mod knowledge;
mod notation;
pub mod published;
mod vc;

/// The largest board (11x11, the standard one: 121 cells in one `u128`).
pub const MAX_SIZE: u8 = 11;

/// The swap move: White takes Black's first stone (see the module's rules).
pub const SWAP: u8 = 255;

/// A Hex position: both players' stones, the board's size, the swap rule, whose turn it is,
/// and whether the last move won. Copy-made, 48 bytes.
///
/// ```
/// use gamesearch::Game;
/// use gamesearch_games::Hex;
/// let start = Hex::new(5, false).unwrap();
/// assert_eq!(start.moves().count(), 25);
/// let p = start.play_moves("c3,b4").unwrap();
/// assert_eq!(p.notation(), "5x5:board=------------B---W--------/B");
/// assert_eq!(p.notation().parse::<Hex>().unwrap(), p);
/// // Black joins the top row to the bottom one down the c column (and wins).
/// let won = start.play_moves("c1,a1,c2,a2,c3,a3,c4,a4,c5").unwrap();
/// assert!(won.is_over());
/// assert_eq!(won.evaluate(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hex {
    black: u128,
    white: u128,
    size: u8,
    swap_rule: bool,
    /// Black (the first player, MAX) is to move.
    black_to_move: bool,
    /// The last move joined its player's edges.
    over: bool,
}

impl Hex {
    /// The empty `size`×`size` board, the swap rule on when `swap`.
    pub fn new(size: usize, swap: bool) -> Result<Hex, gamesearch::Error> {
        if size == 0 || size > usize::from(MAX_SIZE) {
            return Err(gamesearch::Error::BadParameter(format!(
                "Hex is played on boards of 1x1 to {MAX_SIZE}x{MAX_SIZE}, not {size}x{size}"
            )));
        }
        Ok(Hex {
            black: 0,
            white: 0,
            size: size as u8,
            swap_rule: swap,
            black_to_move: true,
            over: false,
        })
    }

    /// A position from its stones (bits as in the module's text), the board's size, the swap
    /// rule and whose turn it is, or why it is none: a stone off the board or on both colours,
    /// stone counts that no game gives the side to move, or a game already won twice or by the
    /// side to move.
    pub fn from_stones(
        size: usize,
        swap: bool,
        black: u128,
        white: u128,
        black_to_move: bool,
    ) -> Result<Hex, String> {
        let start = Hex::new(size, swap).map_err(|e| e.to_string())?;
        let m = start.masks();
        if (black | white) & !m.board != 0 {
            return Err("a stone off the board".into());
        }
        if black & white != 0 {
            return Err("a cell with both colours".into());
        }
        let (b, w) = (black.count_ones(), white.count_ones());
        // After a swap White has a stone more than without one.
        let swapped = swap && if black_to_move { w == b + 1 } else { b == w };
        let counts_fit = if black_to_move { b == w } else { b == w + 1 };
        if !counts_fit && !swapped {
            return Err(format!(
                "{b} black and {w} white stones with {} to move: Black moves first, so Black has as many stones as White with Black to move, one more with White to move{}",
                if black_to_move { "Black" } else { "White" },
                if swap { " (after a swap, White has one stone more)" } else { "" }
            ));
        }
        let p = Hex {
            black,
            white,
            black_to_move,
            ..start
        };
        let (black_won, white_won) = (p.joined(true), p.joined(false));
        match (black_won, white_won) {
            (true, true) => Err("both players have joined their edges".into()),
            (true, false) if black_to_move => {
                Err("Black has joined its edges, and it is Black's move".into())
            }
            (false, true) if !black_to_move => {
                Err("White has joined its edges, and it is White's move".into())
            }
            (b, w) => Ok(Hex { over: b || w, ..p }),
        }
    }

    /// The board's size n (n×n cells).
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// Whether the swap rule is on.
    pub fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    /// Black's stones, as a bit set.
    pub fn black(&self) -> u128 {
        self.black
    }

    /// White's stones, as a bit set.
    pub fn white(&self) -> u128 {
        self.white
    }

    /// The empty cells, as a bit set.
    pub fn empty(&self) -> u128 {
        self.masks().board & !(self.black | self.white)
    }

    /// Whether Black is to move.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// Whether the game is over (the last move joined its player's edges).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether White may swap now: the rule is on, and Black has made the one move.
    pub fn can_swap(&self) -> bool {
        self.swap_rule && !self.black_to_move && self.white == 0 && self.black.count_ones() == 1
    }

    /// `Black` or `White`, whichever is to move.
    pub fn mover_name(&self) -> &'static str {
        if self.black_to_move {
            "Black"
        } else {
            "White"
        }
    }

    /// The masks of this board's size.
    #[inline]
    pub(crate) fn masks(&self) -> &'static Masks {
        bits::masks(self.size)
    }

    /// Black's (`black`) or White's stones and its two edges: the first and last rows for
    /// Black, the first and last columns for White.
    #[inline]
    pub(crate) fn side(&self, black: bool) -> (u128, u128, u128) {
        let m = self.masks();
        if black {
            (self.black, m.top, m.bottom)
        } else {
            (self.white, m.left, m.right)
        }
    }

    /// Whether Black's stones (`black`) or White's join that player's edges.
    fn joined(&self, black: bool) -> bool {
        let m = self.masks();
        let (own, from, to) = self.side(black);
        bits::fill(own & from, own, self.size, m) & to != 0
    }

    /// The game after `mv`, or why it is illegal.
    pub fn try_play(&self, mv: u8) -> Result<Hex, gamesearch::Error> {
        let legal = if self.over {
            false
        } else if mv == SWAP {
            self.can_swap()
        } else {
            u32::from(mv) < 128 && self.empty() >> mv & 1 != 0
        };
        if legal {
            return Ok(self.play(mv));
        }
        Err(gamesearch::Error::BadParameter(if self.over {
            "the game is over".to_string()
        } else if mv == SWAP {
            if self.swap_rule {
                "swap is White's first move only".to_string()
            } else {
                "swap needs the swap rule (e.g. hex:7x7:swap)".to_string()
            }
        } else {
            format!("{} is not empty", self.move_name(mv))
        }))
    }
}

/// The side to move's moves: the empty cells low to high, then [`SWAP`] where it is legal.
#[derive(Clone, Copy, Debug)]
pub struct HexMoves {
    cells: u128,
    swap: bool,
}

impl Iterator for HexMoves {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.cells != 0 {
            let i = self.cells.trailing_zeros() as u8;
            self.cells &= self.cells - 1;
            return Some(i);
        }
        if self.swap {
            self.swap = false;
            return Some(SWAP);
        }
        None
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.cells.count_ones() as usize + usize::from(self.swap);
        (n, Some(n))
    }
}

impl Game for Hex {
    /// A cell's bit, or [`SWAP`].
    type Move = u8;
    type Moves = HexMoves;

    #[inline]
    fn to_move(&self) -> Player {
        if self.black_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn moves(&self) -> HexMoves {
        if self.over {
            return HexMoves {
                cells: 0,
                swap: false,
            };
        }
        HexMoves {
            cells: self.empty(),
            swap: self.can_swap(),
        }
    }

    #[inline]
    fn play(&self, mv: u8) -> Hex {
        if mv == SWAP {
            return Hex {
                black: 0,
                white: bits::transpose(self.black, self.size),
                black_to_move: true,
                ..*self
            };
        }
        let stone = 1u128 << mv;
        let m = self.masks();
        let mut next = *self;
        if self.black_to_move {
            next.black |= stone;
        } else {
            next.white |= stone;
        }
        let (own, from, to) = next.side(self.black_to_move);
        let chain = bits::fill(stone, own, self.size, m);
        next.over = chain & from != 0 && chain & to != 0;
        next.black_to_move = !self.black_to_move;
        next
    }

    /// −1 for the side to move (MAX's view) when the last move won; before that, 0.
    fn evaluate(&self) -> Score {
        if self.over {
            -self.to_move().sign()
        } else {
            0
        }
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }

    fn move_name(&self, mv: u8) -> String {
        notation::move_name(mv, self.size)
    }
}

impl Hex {
    /// The salt of the key: the size, the swap rule and the side to move.
    #[inline]
    fn salt(&self) -> u64 {
        u64::from(self.size) << 8 | u64::from(self.swap_rule) << 1 | u64::from(self.black_to_move)
    }

    /// The key of the stones `black` and `white` with this position's salt.
    #[inline]
    fn key_of(&self, black: u128, white: u128) -> u64 {
        mix(white, mix(black, self.salt()))
    }
}

impl PositionKey for Hex {
    /// A hash of both players' stones (Domineering's hash of a 128-bit word, twice), the size,
    /// the swap rule and the side to move.
    #[inline]
    fn key(&self) -> u64 {
        self.key_of(self.black, self.white)
    }
}
