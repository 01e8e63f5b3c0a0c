//! Othello on N×N boards, N even from 4 to 8 (8 the standard game).
//!
//! # Rules implemented
//! - The start: the four centre squares, White on the diagonal from the top-left centre square
//!   (d4 and e5 on 8x8), Black on the other (e4, d5). Black moves first and is MAX.
//! - A move puts a disc of the mover's colour on an empty square so that, in at least one of the
//!   eight directions, a line of the opponent's discs runs from it to a disc of the mover's; every
//!   such line is flipped.
//! - A side with no such move passes ([`PASS`], a move of its own: the side to move changes, the
//!   board does not). The game ends when neither side has a move.
//! - `f(p)` = Black's discs − White's; at the game's end the empty squares go to the winner (the
//!   FFO / WOF convention), so a final score is a margin out of N·N.
//!
//! # Squares
//! Bit `8·row + column` of a `u64`: `a1` (the top-left corner) is bit 0, `b1` bit 1, `a2` bit 8;
//! boards smaller than 8x8 use the top-left N×N corner. A move is its bit index, [`PASS`] a pass.
//!
//! # Text form
//! `NxN` (the start), `NxN:MOVES` (moves from the start in coordinates, `f5d6c3d3`; `ps` or `pass`
//! for a pass) or `NxN:board=CELLS/SIDE` (the N·N cells row by row from a1, `X` Black, `O`
//! White, `-` empty, and `X` or `O` to move: the "obf" text of the test suites with `/` for the
//! space). [`Othello::notation`] writes the board form; `Display` draws the board.

use gamesearch::game::{Game, Player, PositionKey, Score};

use bits::board_mask;
pub(crate) use bits::{corners, flips, legal_moves};

mod bits;
mod heuristic;
mod jobs;
mod knowledge;
mod notation;
mod patterns;

pub use patterns::{active_weights, shipped_weights, use_weights};
pub mod suite;

/// The pass move: the side to move has no other.
pub const PASS: u8 = 64;

/// The board sizes played.
pub const SIZES: [u8; 3] = [4, 6, 8];

/// An Othello position: the side to move's discs and the other side's, the board size and
/// whose move it is. Copy-made, 18 bytes.
///
/// ```
/// use gamesearch_games::othello::{Othello, PASS};
/// use gamesearch::Game;
/// let start = Othello::new(8).unwrap();
/// assert_eq!(start.moves().count(), 4);
/// let p = start.play_moves("f5d6c3").unwrap();
/// assert_eq!(p.empties(), 57);
/// // Black took d4 with c3; White holds d5 and d6.
/// assert_eq!(p.notation(), "8x8:board=------------------X--------XX------OXX-----O--------------------/O");
/// // 4x4 is lost for Black by 10 (3 discs to 11, two squares empty), checked in the tests by
/// // a solver written apart.
/// let small = Othello::new(4).unwrap();
/// assert_eq!(small.moves().count(), 4);
/// assert!(small.moves().all(|m| m != PASS));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Othello {
    me: u64,
    opp: u64,
    n: u8,
    black_to_move: bool,
}

impl Othello {
    /// The start of N×N Othello, Black to move; N is 4, 6 or 8.
    pub fn new(n: usize) -> Result<Othello, gamesearch::Error> {
        if !SIZES.iter().any(|&s| s as usize == n) {
            return Err(gamesearch::Error::BadParameter(format!(
                "Othello is played on 4x4, 6x6 or 8x8 boards, not {n}x{n}"
            )));
        }
        let n = n as u8;
        let c = n / 2 - 1; // the top-left centre square's row and column
        let sq = |r: u8, col: u8| 1u64 << (8 * r + col);
        let white = sq(c, c) | sq(c + 1, c + 1);
        let black = sq(c, c + 1) | sq(c + 1, c);
        Ok(Othello {
            me: black,
            opp: white,
            n,
            black_to_move: true,
        })
    }

    /// A position from its discs (Black's, White's) and the side to move; `None` when they
    /// overlap or lie off the N×N board.
    pub fn from_discs(n: u8, black: u64, white: u64, black_to_move: bool) -> Option<Othello> {
        if !SIZES.contains(&n) || black & white != 0 || (black | white) & !board_mask(n) != 0 {
            return None;
        }
        let (me, opp) = if black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        Some(Othello {
            me,
            opp,
            n,
            black_to_move,
        })
    }

    /// The board's side, N.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// Black's discs and White's, as bit sets.
    pub fn discs(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.me, self.opp)
        } else {
            (self.opp, self.me)
        }
    }

    /// Whether Black moves.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// The empty squares.
    pub fn empties(&self) -> u32 {
        (board_mask(self.n) & !(self.me | self.opp)).count_ones()
    }

    /// The side to move's legal squares (no pass), as a bit set.
    pub fn legal_squares(&self) -> u64 {
        legal_moves(self.me, self.opp, self.n)
    }

    /// Black's discs and White's that no move can ever flip (a subset of the stable discs:
    /// along each of its four lines a disc counted has a full line, the board's edge, or a
    /// counted disc of its colour next to it). The final margin is at least
    /// `2·black − N²` and at most `N² − 2·white`.
    ///
    /// ```
    /// use gamesearch_games::othello::Othello;
    /// // a1 and b1 Black, c1 White: the corner and its neighbour on the edge are stable.
    /// let p: Othello = "4x4:board=XXO--XO--OX-----/X".parse().unwrap();
    /// let (black, white) = p.stable_discs();
    /// assert_eq!(black, 0b11);
    /// assert_eq!(white, 0);
    /// ```
    pub fn stable_discs(&self) -> (u64, u64) {
        let (mine, theirs) = bits::stable_discs(self.me, self.opp, self.n);
        if self.black_to_move {
            (mine, theirs)
        } else {
            (theirs, mine)
        }
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.legal_squares() == 0 && legal_moves(self.opp, self.me, self.n) == 0
    }

    /// Black's discs less White's, the empty squares given to the winner (the final score at
    /// the game's end).
    pub fn final_margin(&self) -> Score {
        let (black, white) = self.discs();
        let diff = black.count_ones() as Score - white.count_ones() as Score;
        let empty = self.empties() as Score;
        diff + diff.signum() * empty
    }

    /// The game after `mv`, or why it is illegal.
    pub fn try_play(&self, mv: u8) -> Result<Othello, gamesearch::Error> {
        if self.moves().any(|m| m == mv) {
            return Ok(self.play(mv));
        }
        let legal: Vec<String> = self.moves().map(|m| self.move_name(m)).collect();
        Err(gamesearch::Error::BadParameter(if legal.is_empty() {
            "the game is over".to_string()
        } else {
            format!(
                "{} is not legal here: the legal moves are {}",
                self.move_name(mv),
                legal.join(" ")
            )
        }))
    }
}

/// The mover's legal squares low to high, or the pass.
#[derive(Clone, Copy, Debug)]
pub struct OthelloMoves {
    squares: u64,
    pass: bool,
}

impl Iterator for OthelloMoves {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.squares != 0 {
            let i = self.squares.trailing_zeros() as u8;
            self.squares &= self.squares - 1;
            return Some(i);
        }
        if self.pass {
            self.pass = false;
            return Some(PASS);
        }
        None
    }
}

impl Game for Othello {
    /// A square's bit index, or [`PASS`].
    type Move = u8;
    type Moves = OthelloMoves;

    #[inline]
    fn to_move(&self) -> Player {
        if self.black_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn moves(&self) -> OthelloMoves {
        let squares = self.legal_squares();
        let pass = squares == 0 && legal_moves(self.opp, self.me, self.n) != 0;
        OthelloMoves { squares, pass }
    }

    #[inline]
    fn play(&self, mv: u8) -> Othello {
        let (me, opp) = if mv == PASS {
            (self.me, self.opp)
        } else {
            let f = flips(self.me, self.opp, mv);
            (self.me | f | 1 << mv, self.opp & !f)
        };
        Othello {
            me: opp,
            opp: me,
            n: self.n,
            black_to_move: !self.black_to_move,
        }
    }

    /// The final margin at the game's end; before it, Black's discs less White's.
    fn evaluate(&self) -> Score {
        if self.is_over() {
            return self.final_margin();
        }
        let (black, white) = self.discs();
        black.count_ones() as Score - white.count_ones() as Score
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        let cells = Score::from(self.n) * Score::from(self.n);
        Some((-cells, cells))
    }

    fn move_name(&self, mv: u8) -> String {
        notation::square_name(mv)
    }
}

impl PositionKey for Othello {
    #[inline]
    fn key(&self) -> u64 {
        let mut z = self.me.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.opp.rotate_left(23).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (u64::from(self.n) << 1 | u64::from(self.black_to_move));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
