//! Connect-Four on any `width x height` board with `(height + 1) * width <= 128`: a bitboard
//! position in Pascal Pons' layout (column `c` occupies bits `c*(h+1) .. c*(h+1)+h`, the extra
//! bit a sentinel) kept in a `u64` where the board fits in 64 bits and a `u128` past it
//! ([`Bitboard`]), positions written as the sequence of 1-based columns played.
//!
//! `f` at game end, from the first player's (MAX's) view, in the public solvers' convention
//! generalised to any size (Pons'): a win with `s` of one's own stones scores
//! `(width*height + 1)/2 + 1 - s` (`22 - s` on 7x6), a loss the negative, a draw 0; elsewhere
//! the heuristic 0. On a board with an odd number of cells the first player's win with the
//! last stone scores 1, never 0 (a draw).

use std::fmt;

use gamesearch::error::Error;
use gamesearch::game::{Game, Player, PositionKey, Score};

mod bitboard;
mod heuristic;
mod jobs;
mod knowledge;
mod notation;
#[cfg(test)]
mod tests;

pub use bitboard::Bitboard;

/// A Connect-Four position.
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::Game;
/// let p = Connect4::new(7, 6).unwrap().play_moves("444455").unwrap();
/// assert_eq!(p.moves_played(), 6);
/// assert!(Connect4::new(7, 6).unwrap().play_moves("4444444").is_err()); // column 4 is full
/// assert!(Connect4::new(9, usize::MAX).is_err()); // (h + 1) * w must not wrap
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Connect4<B: Bitboard = u64> {
    /// Stones of the side to move.
    current: B,
    /// All stones.
    mask: B,
    moves: u8,
    width: u8,
    height: u8,
    /// The side that just moved connected four.
    last_won: bool,
    /// `width * height`.
    cells: u8,
    /// One bit at the bottom of every column (cached).
    bottom: B,
    /// Every cell of the board, no spare row (cached: `bottom` times a column's cells).
    board: B,
    /// `current` and `mask` of the board reflected left to right, kept up to date by `play`
    /// so that the solver's symmetric key costs no per-node reflection.
    mirror_current: B,
    mirror_mask: B,
    /// Empty cells where the side that just moved would complete four (kept by `play`: the
    /// solver's static bounds, non-losing moves and move order all need them, for every child).
    threats: B,
}

impl Connect4 {
    /// The empty `width x height` board with `(height + 1) * width <= 64` (u64 bitboards; a
    /// larger board is a `Connect4<u128>`, made by [`Connect4::sized`]).
    pub fn new(width: usize, height: usize) -> Result<Self, Error> {
        Self::sized(width, height)
    }
}

impl<B: Bitboard> Connect4<B> {
    /// The empty `width x height` board, if its `(height + 1) * width` bits fit in `B`.
    ///
    /// ```
    /// use gamesearch_games::Connect4;
    /// use gamesearch::Game;
    /// let p = Connect4::<u128>::sized(10, 6).unwrap().play_moves("5,6,10").unwrap();
    /// assert_eq!((p.width(), p.height(), p.moves().count()), (10, 6, 10));
    /// assert!(Connect4::<u64>::sized(10, 6).is_err()); // 70 bits
    /// assert!(Connect4::<u128>::sized(12, 10).is_err()); // 132 bits
    /// ```
    pub fn sized(width: usize, height: usize) -> Result<Self, Error> {
        // Checked: `(usize::MAX + 1) * 9` wrapped to 0 and let a 9 x 2^64 board through (found
        // by fuzzing `connect4:9x18446744073709551615`).
        let bits = height.checked_add(1).and_then(|h| h.checked_mul(width));
        if width < 1 || height < 1 || bits.is_none_or(|b| b > B::BITS as usize) {
            return Err(Error::BadParameter(format!(
                "Connect-Four {width}x{height}: need width, height >= 1 and (height+1)*width <= {}",
                B::BITS
            )));
        }
        let mut bottom = B::ZERO;
        for c in 0..width {
            bottom |= B::ONE << (c * (height + 1)) as u32;
        }
        Ok(Connect4 {
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
            width: width as u8,
            height: height as u8,
            last_won: false,
            cells: (width * height) as u8,
            bottom,
            board: bottom * ((B::ONE << height as u32) - B::ONE),
            mirror_current: B::ZERO,
            mirror_mask: B::ZERO,
            threats: B::ZERO,
        })
    }
    /// Board width.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Who has a stone at `col`, `row` (0-based, row 0 at the bottom); `None` for an empty
    /// cell or one off the board.
    ///
    /// ```
    /// use gamesearch::Player;
    /// use gamesearch_games::Connect4;
    /// let p = Connect4::new(7, 6).unwrap().play_moves("44").unwrap();
    /// assert_eq!(p.cell(3, 0), Some(Player::Max));
    /// assert_eq!(p.cell(3, 1), Some(Player::Min));
    /// assert_eq!(p.cell(3, 2), None);
    /// ```
    pub fn cell(&self, col: usize, row: usize) -> Option<Player> {
        if col >= self.width as usize || row >= self.height as usize {
            return None;
        }
        let bit = B::ONE << (col * (self.height as usize + 1) + row) as u32;
        if self.mask & bit == B::ZERO {
            return None;
        }
        // `current` holds the stones of the side to move.
        let movers = self.current & bit != B::ZERO;
        let mover = self.to_move();
        Some(if movers { mover } else { mover.opponent() })
    }

    /// Stones on the board.
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    #[inline]
    fn top_mask(&self, col: u8) -> B {
        B::ONE << (self.height as u32 - 1 + col as u32 * (self.height as u32 + 1))
    }

    #[inline]
    fn bottom_mask(&self, col: u8) -> B {
        B::ONE << (col as u32 * (self.height as u32 + 1))
    }

    #[inline]
    fn can_play(&self, col: u8) -> bool {
        self.mask & self.top_mask(col) == B::ZERO
    }

    /// One bit at the bottom of every column.
    #[inline]
    fn bottom(&self) -> B {
        self.bottom
    }

    /// Every playable cell of the board (no sentinel row).
    #[inline]
    fn board_mask(&self) -> B {
        self.board
    }

    /// The cells where the next stone of each column would go.
    #[inline]
    fn possible(&self) -> B {
        (self.mask + self.bottom()) & self.board_mask()
    }

    /// Empty cells that would complete four for `stones` (Pons' compute_winning_position).
    #[inline(always)]
    fn winning_cells(&self, stones: B) -> B {
        with_height!(self.height, h, winning_cells_h(stones, h)) & (self.board_mask() ^ self.mask)
    }

    /// The column of bit set `cell` (a single bit).
    #[inline]
    fn column_of(&self, cell: B) -> u8 {
        ((cell.trailing_zeros() * COLUMN_MUL[usize::from(self.height)]) >> 16) as u8
    }

    /// The score of a win with `stones` of the winner's own stones (at least four count):
    /// `(width*height + 1)/2 + 1 - stones`, 22 - stones on 7x6. Rounding the cells up keeps a
    /// win with the last stone of an odd board at 1: `width*height/2 + 1 - stones` scored it
    /// 0, a draw.
    #[inline]
    fn win_score(&self, stones: Score) -> Score {
        (Score::from(self.cells) + 1) / 2 + 1 - stones.max(4)
    }

    /// The game is over: four connected or the board full.
    pub fn is_over(&self) -> bool {
        self.last_won || self.moves == self.cells
    }
}

/// Calls `$body` with `$h` bound to the board height as a constant for the common heights, so
/// that the bit shifts of the hot functions compile to immediates.
macro_rules! with_height {
    ($height:expr, $h:ident, $body:expr) => {
        match $height {
            6 => {
                let $h = 6;
                $body
            }
            4 => {
                let $h = 4;
                $body
            }
            5 => {
                let $h = 5;
                $body
            }
            7 => {
                let $h = 7;
                $body
            }
            other => {
                let $h = u32::from(other);
                $body
            }
        }
    };
}
use with_height;

/// `x << s`, 0 once every bit is shifted out (`s >= 64`): on tall boards a line's reach
/// (`3 * (h + 2)` bits) passes the word's width, where a plain shift would wrap its amount and
/// see fours that are not there. For the heights `with_height!` names the test folds away.
#[inline(always)]
fn shl<B: Bitboard>(x: B, s: u32) -> B {
    x.checked_shl(s).unwrap_or(B::ZERO)
}

/// `x >> s`, 0 once every bit is shifted out (see [`shl`]).
#[inline(always)]
fn shr<B: Bitboard>(x: B, s: u32) -> B {
    x.checked_shr(s).unwrap_or(B::ZERO)
}

/// Cells (occupied or not) that would complete four for `stones` on a board of height `h`.
#[inline(always)]
fn winning_cells_h<B: Bitboard>(stones: B, h: u32) -> B {
    let mut r = (stones << 1) & (stones << 2) & (stones << 3); // vertical
    for d in [h + 1, h, h + 2] {
        // horizontal and the two diagonals
        let p = shl(stones, d) & shl(stones, 2 * d);
        r |= p & shl(stones, 3 * d);
        r |= p & shr(stones, d);
        let p = shr(stones, d) & shr(stones, 2 * d);
        r |= p & shl(stones, d);
        r |= p & shr(stones, 3 * d);
    }
    r
}

/// `ceil(2^16 / (h + 1))` for every height `h` a board can have (`h + 1 <= 128`): looked up,
/// as [`Columns`] needs it for every node's moves and a division costs tens of cycles. (Exact
/// for every bit index below 128: the rounding adds less than `128 / 2^16 < 1 / (h + 1)`.)
const COLUMN_MUL: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut h = 0;
    while h < 128 {
        t[h] = (1u32 << 16).div_ceil(h as u32 + 1);
        h += 1;
    }
    t
};

/// Playable columns, left to right.
#[derive(Clone, Copy, Debug)]
pub struct Columns<B: Bitboard = u64> {
    /// The next cell of every playable column not yet returned.
    cells: B,
    /// `ceil(2^16 / (height + 1))`: a bit index times this, shifted right 16, is its column.
    column_mul: u32,
}

impl<B: Bitboard> Iterator for Columns<B> {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.cells == B::ZERO {
            return None;
        }
        let bit = self.cells.trailing_zeros();
        self.cells &= self.cells - B::ONE;
        Some(((bit * self.column_mul) >> 16) as u8)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.cells.count_ones() as usize;
        (n, Some(n))
    }
}

impl<B: Bitboard> Game for Connect4<B> {
    /// The column, 0-based (shown 1-based).
    type Move = u8;
    type Moves = Columns<B>;

    #[inline]
    fn to_move(&self) -> Player {
        if self.moves % 2 == 0 {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn moves(&self) -> Columns<B> {
        Columns {
            cells: if self.is_over() {
                B::ZERO
            } else {
                self.possible()
            },
            column_mul: COLUMN_MUL[usize::from(self.height)],
        }
    }

    // Always inlined: as a call (the compiler's choice in the solver's large node function) it
    // cost 7-10 % of the solve (one thread, medians of five: 6x6 1.27 → 1.15 s, 9x4 7.28 →
    // 6.82 s; of three, 7x6 17.3 → 16.0 s).
    #[inline(always)]
    fn play(&self, col: u8) -> Self {
        let mut p = *self;
        let opponent = self.current ^ self.mask;
        p.mask |= self.mask + self.bottom_mask(col);
        let cell = p.mask ^ self.mask;
        let mine = self.current | cell;
        // The cells that would complete four for the mover: the new stone's among them means
        // it did (one computation for both).
        let wins = with_height!(self.height, h, winning_cells_h(mine, h));
        p.last_won = wins & cell != B::ZERO;
        p.threats = wins & (self.board_mask() ^ p.mask);
        p.current = opponent; // the side to move next
        p.mirror_mask |= self.mirror_mask + self.bottom_mask(self.width - 1 - col);
        p.mirror_current = self.mirror_current ^ self.mirror_mask;
        p.moves += 1;
        p
    }

    #[inline]
    fn evaluate(&self) -> Score {
        if !self.last_won {
            return 0;
        }
        // The side that just moved won with `s` of its own stones.
        let score = self.win_score((self.moves as Score + 1) / 2);
        // moves odd ⇒ the first player (MAX) made the last move.
        if self.moves % 2 == 1 {
            score
        } else {
            -score
        }
    }

    /// From the stones on the board: each side wins, at best, with its next stone (and never
    /// with fewer than four).
    fn value_bounds(&self) -> Option<(Score, Score)> {
        if self.is_over() {
            let v = self.evaluate();
            return Some((v, v));
        }
        let moves = self.moves as Score;
        let (first, second) = ((moves + 1) / 2, moves / 2); // stones of MAX and MIN
        let hi = self.win_score(first + 1);
        let lo = -self.win_score(second + 1);
        Some((lo.min(0), hi.max(0)))
    }

    fn move_name(&self, col: u8) -> String {
        (col + 1).to_string()
    }
}

impl<B: Bitboard> Connect4<B> {
    /// Whether [`SolverKnowledge::canonical_key`] gives dead stones to the side to move on this
    /// board: four columns wide or narrower of 32 cells or more, or 48 cells or more (where it
    /// was measured to pay).
    #[inline]
    fn keys_dead_stones(&self) -> bool {
        (self.width <= 4 && self.cells >= 32) || self.cells >= 48
    }

    /// Pons' unique position code: the mover's stones plus all stones (one extra bit per
    /// column marks its height).
    #[inline]
    fn code(&self) -> B {
        self.current.wrapping_add(self.mask)
    }

    /// The key shared by a position of code `code` and its mirror image of code `mirrored`:
    /// the smaller code hashed, and whether it is the mirror's.
    #[inline(always)]
    fn symmetric_key(&self, code: B, mirrored: B) -> (u64, bool) {
        if mirrored < code {
            (self.hash_code(mirrored), true)
        } else {
            (self.hash_code(code), false)
        }
    }

    /// [`PositionKey::key`] of a position code: mixed so that table indices spread.
    #[inline]
    fn hash_code(&self, code: B) -> u64 {
        let z = (code.fold64() ^ (u64::from(self.width) << 56)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z ^ (z >> 31)
    }
}

impl<B: Bitboard> PositionKey for Connect4<B> {
    #[inline]
    fn key(&self) -> u64 {
        self.hash_code(self.code())
    }
}

impl<B: Bitboard> fmt::Debug for Connect4<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Connect4({}x{}, {} moves)",
            self.width, self.height, self.moves
        )
    }
}
