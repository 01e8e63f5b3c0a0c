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

use crate::engine::Heuristic;
use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::solver::SolverKnowledge;

/// The word a [`Connect4`] position keeps its bitboards in: `u64` for boards with
/// `(height + 1) * width <= 64` (every board up to 7x7, 8x6, 9x5, 10x5, …), `u128` past it
/// (10x6, 9x7, 8x8, 7x9, …, up to 128 bits). The same code serves both (monomorphised: the u64
/// boards pay nothing for the wider ones).
pub trait Bitboard:
    Copy
    + Eq
    + Ord
    + std::hash::Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitAndAssign
    + std::ops::BitOrAssign
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + sealed::Sealed
{
    /// Bits in the word.
    const BITS: u32;
    /// No bit.
    const ZERO: Self;
    /// Bit 0.
    const ONE: Self;
    /// Every even bit (`0x5555…`).
    const EVEN: Self;
    /// Set bits.
    fn count_ones(self) -> u32;
    /// The lowest set bit's index (`BITS` for none).
    fn trailing_zeros(self) -> u32;
    /// `-x` modulo the word.
    fn wrapping_neg(self) -> Self;
    /// `x + y` modulo the word.
    fn wrapping_add(self, y: Self) -> Self;
    /// `x << s`, or none when `s >= BITS`.
    fn checked_shl(self, s: u32) -> Option<Self>;
    /// `x >> s`, or none when `s >= BITS`.
    fn checked_shr(self, s: u32) -> Option<Self>;
    /// The word folded to 64 bits (the identity on `u64`), for hashing.
    fn fold64(self) -> u64;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

macro_rules! bitboard {
    ($t:ty, $fold:expr) => {
        impl Bitboard for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const EVEN: Self = <$t>::MAX / 3;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn wrapping_add(self, y: Self) -> Self {
                <$t>::wrapping_add(self, y)
            }
            #[inline(always)]
            fn checked_shl(self, s: u32) -> Option<Self> {
                <$t>::checked_shl(self, s)
            }
            #[inline(always)]
            fn checked_shr(self, s: u32) -> Option<Self> {
                <$t>::checked_shr(self, s)
            }
            #[inline(always)]
            fn fold64(self) -> u64 {
                $fold(self)
            }
        }
    };
}
bitboard!(u64, |x: u64| x);
// The high half multiplied by an odd constant (a bijection) before the halves meet, so that
// positions differing only in the high half do not cancel out.
bitboard!(u128, |x: u128| (x as u64)
    ^ ((x >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));

/// A Connect-Four position.
///
/// ```
/// use gamesearch::games::Connect4;
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
    /// use gamesearch::games::Connect4;
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

    /// Plays a sequence of 1-based columns, or says which one is illegal. Two notations: digits
    /// (`"4453"`) on boards up to 9 columns wide, and column numbers separated by commas
    /// (`"4,4,10,3"`) on any board — the only one on boards wider than 9, where `"12"` could be
    /// column 12 or columns 1 and 2. [`Connect4::notation_after`] writes the same.
    ///
    /// ```
    /// use gamesearch::games::Connect4;
    /// let narrow = Connect4::new(7, 6).unwrap();
    /// assert_eq!(narrow.play_moves("4453").unwrap(), narrow.play_moves("4,4,5,3").unwrap());
    /// let wide = Connect4::new(12, 4).unwrap();
    /// assert_eq!(wide.play_moves("12,1,10").unwrap().moves_played(), 3);
    /// assert!(wide.play_moves("121").is_err()); // column 121
    /// assert!(wide.play_moves("1,,2").is_err());
    /// ```
    pub fn play_moves(&self, seq: &str) -> Result<Self, Error> {
        let seq = seq.trim();
        let numbers = self.width > 9 || seq.contains(',');
        let tokens: Vec<&str> = if seq.is_empty() {
            Vec::new()
        } else if numbers {
            seq.split(',').map(str::trim).collect()
        } else {
            seq.split("").filter(|t| !t.is_empty()).collect()
        };
        let mut p = *self;
        for (i, c) in tokens.into_iter().enumerate() {
            let col = c
                .parse::<u8>()
                .ok()
                .filter(|_| c.bytes().all(|b| b.is_ascii_digit()))
                .filter(|&d| d >= 1 && d <= p.width)
                .ok_or_else(|| {
                    Error::BadParameter(format!(
                        "move {} `{c}`: not a column 1..={}{}",
                        i + 1,
                        p.width,
                        if p.width > 9 {
                            " (on boards wider than 9, columns are separated by commas: 1,10,3)"
                        } else {
                            ""
                        }
                    ))
                })?;
            let col = col - 1;
            if p.is_over() {
                return Err(Error::BadParameter(format!(
                    "move {} `{c}`: the game is over",
                    i + 1
                )));
            }
            if !p.can_play(col) {
                return Err(Error::BadParameter(format!(
                    "move {} `{c}`: column {} is full",
                    i + 1,
                    col + 1
                )));
            }
            p = p.play(col);
        }
        Ok(p)
    }

    /// The text of the position `text` (`connect4:WxH[:MOVES]`, naming a position of this
    /// board) after `moves` (0-based columns), in `text`'s notation: digits on boards up to 9
    /// wide unless `text` already separates its moves with commas, else column numbers
    /// separated by commas (see [`Connect4::play_moves`]).
    ///
    /// ```
    /// use gamesearch::games::Connect4;
    /// let p = Connect4::new(7, 6).unwrap();
    /// assert_eq!(p.notation_after("connect4:7x6", &[3, 3]), "connect4:7x6:44");
    /// assert_eq!(p.notation_after("connect4:7x6:4", &[2]), "connect4:7x6:43");
    /// assert_eq!(p.notation_after("connect4:7x6:4,4", &[2]), "connect4:7x6:4,4,3");
    /// let w = Connect4::new(12, 4).unwrap();
    /// assert_eq!(w.notation_after("connect4:12x4", &[11, 0]), "connect4:12x4:12,1");
    /// assert_eq!(w.notation_after("connect4:12x4:12", &[9]), "connect4:12x4:12,10");
    /// ```
    pub fn notation_after(&self, text: &str, moves: &[u8]) -> String {
        let mut out = text.to_string();
        let played = text.splitn(3, ':').nth(2).unwrap_or("");
        let commas = self.width > 9 || played.contains(',');
        if text.matches(':').count() < 2 {
            out.push(':');
        }
        for (i, &c) in moves.iter().enumerate() {
            if commas && (i > 0 || !played.is_empty()) {
                out.push(',');
            }
            out.push_str(&(c + 1).to_string());
        }
        out
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
    /// use gamesearch::{games::Connect4, Player};
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

    /// How promising playing column `c` is (higher first), given the mover's `threats` (empty
    /// cells completing four) and all stones, `mask`, after the move: its useful threats, then
    /// closeness to the centre: the key of both [`SolverKnowledge::order_moves`] and
    /// [`SolverKnowledge::child_order`], from the threats `play` keeps in the child.
    #[inline(always)]
    fn order_key(&self, c: u8, threats: B, mask: B) -> u16 {
        let width = i32::from(self.width);
        // The opponent's winning cells (but the one the move fills), and the cells just above
        // them, which the opponent will never let us have.
        let below_theirs = self.threats << 1;
        // Useful threats: empty cells completing four for the mover, except those just above
        // one of the opponent's (which the opponent could never let it play)...
        let useful = threats & !below_theirs;
        // ... counted twice, and once more when just above a cell the opponent can play next
        // (it forbids the opponent that cell). Tuned on L1_R2 (first 60: -12 % nodes) and
        // empty boards 7x5, 6x6, 7x4, 6x5 (-6 to -20 %) against plain threat counts; a weight
        // for threats two cells above a playable one made every set worse.
        let next = (mask + self.bottom()) & self.board_mask();
        let above = (next << 1) & useful;
        let score = 2 * useful.count_ones() + above.count_ones();
        let centre = (width - 1 - (i32::from(c) * 2 - (width - 1)).abs()) as u16;
        // A move after which every reply loses at once comes first: two threats the opponent
        // can play on, one with another right above it, or no cell the opponent can play that
        // is not just below a threat.
        let wins = threats & next;
        let unstoppable = if wins != B::ZERO {
            wins & (wins - B::ONE) != B::ZERO || threats & (wins << 1) != B::ZERO
        } else {
            next != B::ZERO && next & !(threats >> 1) == B::ZERO
        };
        if unstoppable {
            u16::MAX
        } else {
            ((score as u16) << 5) | centre.min(31)
        }
    }

    /// [`SolverKnowledge::quiet_bounds`] for height `h`.
    #[inline(always)]
    fn quiet_bounds_h(&self, h: u32) -> Option<(Score, Score)> {
        let cells = Score::from(self.cells);
        let n = self.moves as Score;
        // The mover has floor(n/2) stones, the opponent ceil(n/2).
        let (mine, theirs) = (n / 2, (n + 1) / 2);
        let best = |stones: Score, placed_at: Score| {
            if placed_at <= cells {
                self.win_score(stones).max(0)
            } else {
                0
            }
        };
        // A side with no line of four left free of the other's stones can at best draw.
        let empty = self.board_mask() ^ self.mask;
        // (Four empty cells in a column: a vertical line both sides can still make.)
        let two = empty & (empty >> 1);
        let open_column = two & (two >> 2) != B::ZERO;
        let can_win = |stones: B| open_column || aligned_h(stones | empty, h);
        let mut max = if can_win(self.current) {
            best(mine + 2, n + 3) // the mover's stone after next: the (n+3)th
        } else {
            0
        };
        let min = if can_win(self.current ^ self.mask) {
            -best(theirs + 2, n + 4)
        } else {
            0
        };
        // Claimeven (Allis 1988), with the follow-up of the side not to move (the follower):
        // it answers a stone on a cell of the other parity than the top row with one on top of
        // it, and a stone on a top-parity cell (possible only where a column has an odd number
        // of empty cells) with a stone on a top-parity cell of another such column — there is
        // one, since an even number of empty cells (the follower moves last) makes the number
        // of odd columns even. So the follower gets every empty top-parity cell but the
        // playable ones. If the mover cannot make four from the rest, it cannot win; if the
        // follower makes four from its cells besides, the follower wins. So does it when each
        // four the mover could make lies above one of the follower's: the follower's is
        // complete first (empty 7x6: 103.5 M -> 87.4 M nodes, L1_R2 -8 %). Nothing here needs
        // an even height: on an odd one the top row is odd, and the follower claims the odd
        // rows. It was off there (7x5 +12 % nodes, measured before the static cut-offs, the
        // forced replies played out and the follower-first rule); now it pays most there (one
        // thread, nodes: 4x9 1.73 M -> 0.53 M, 6x7 74.2 M -> 41.2 M, 5x7 -45 %, 8x5 -30 %,
        // 7x5 -32 %).
        let cells_left = cells - n;
        if max > -1 && cells_left % 2 == 0 {
            let (mine, theirs) = self.claimeven_cells();
            if !aligned_h(mine, h) {
                max = if aligned_h(theirs, h) { -1 } else { max.min(0) };
            } else if follower_first_h(mine, theirs, self.bottom(), self.board_mask(), h) {
                max = -1;
            }
        } else if max > -1 && cells_left % 2 == 1 && self.follower_threat_wins_h(h) {
            // An odd number of cells left: the follower's threat in a column with an odd
            // number of empty cells decides (Allis' odd threat; 6x6 -14 % nodes, 5x8 -19 %,
            // 7x6 -15 %).
            max = -1;
        }
        Some(match self.to_move() {
            Player::Max => (min, max),
            Player::Min => (-max, -min),
        })
    }

    /// With an odd number of cells left: whether the side not to move (the follower) wins by
    /// a threat of its own in a column with an odd number of empty cells, on a cell of the
    /// other parity than the top row's (Allis' odd threat, generalised). The follower answers
    /// as under Claimeven everywhere but in that column, where it answers a stone with one on
    /// top of it and so gets the cells of the other parity, the threat among them, before the
    /// column's top. The mover, who then has only its own stones, the cells of that column of
    /// the top's parity and, elsewhere, every cell the follower does not claim, must sooner
    /// or later play below the threat; if it cannot make four from those cells, it loses.
    #[inline(always)]
    fn follower_threat_wins_h(&self, h: u32) -> bool {
        let empty = self.board_mask() ^ self.mask;
        let top = self.bottom() * self.rows_like_top();
        let possible = self.possible();
        // The lowest cells of the columns with an odd number of empty cells are of the top's
        // parity; the follower's threats of the other parity in those columns.
        let odd_columns = possible & top;
        let threats = self.threats & empty & !top;
        if odd_columns == B::ZERO || threats == B::ZERO {
            return false;
        }
        let (mine, _) = self.claimeven_cells();
        let column = (B::ONE << h) - B::ONE;
        let mut left = odd_columns;
        while left != B::ZERO {
            let cell = left & left.wrapping_neg();
            left = left ^ cell;
            let c = column << (u32::from(self.column_of(cell)) * (h + 1));
            if threats & c == B::ZERO {
                continue;
            }
            // In this column the mover gets the top's parity only.
            let mine_here = (mine & !c) | (self.current & c) | (empty & top & c);
            if !aligned_h(mine_here, h) {
                return true;
            }
        }
        false
    }

    /// The cells each side gets when the side not to move follows Claimeven (see
    /// [`Self::quiet_bounds_h`]): the mover's, then the follower's (its stones and every empty
    /// cell of the top row's parity that is not playable now).
    #[inline(always)]
    fn claimeven_cells(&self) -> (B, B) {
        let empty = self.board_mask() ^ self.mask;
        let follower = self.bottom() * self.rows_like_top();
        let theirs = (self.current ^ self.mask) | (empty & follower & !self.possible());
        (self.board_mask() & !theirs, theirs)
    }

    /// [`SolverKnowledge::static_bounds`] for height `h`.
    #[inline(always)]
    fn static_bounds_h(&self, h: u32) -> Option<(Score, Score)> {
        if self.is_over() {
            let v = self.evaluate();
            return Some((v, v));
        }
        if self.non_losing_cells() == B::ZERO {
            let v = self.forced_loss_value()?;
            return Some((v, v));
        }
        self.quiet_bounds_h(h)
    }

    /// The playable cells where a stone does not lose at once: if the opponent threatens a
    /// playable cell, only that one (none if it threatens two); never a cell just below one of
    /// its threats.
    #[inline(always)]
    fn non_losing_cells(&self) -> B {
        let mut possible = self.possible();
        let forced = possible & self.threats;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !(self.threats >> 1)
    }

    /// [`SolverKnowledge::non_losing_moves`] for height `h`.
    #[inline(always)]
    fn non_losing_moves_h(&self, moves: &mut [u8], h: u32) -> usize {
        let ok = self.non_losing_cells();
        let column = (B::ONE << h) - B::ONE;
        let mut kept = 0;
        for i in 0..moves.len() {
            let c = moves[i];
            if ok & (column << (u32::from(c) * (h + 1))) != B::ZERO {
                moves.swap(kept, i);
                kept += 1;
            }
        }
        kept
    }

    /// The column of bit set `cell` (a single bit).
    #[inline]
    fn column_of(&self, cell: B) -> u8 {
        ((cell.trailing_zeros() * COLUMN_MUL[usize::from(self.height)]) >> 16) as u8
    }

    /// One bit per row with the parity of the top row (rows `h-1, h-3, …`, 0-based) in a
    /// column's `h + 1` bits: times [`Self::bottom`], those rows of every column.
    #[inline]
    fn rows_like_top(&self) -> B {
        let h = u32::from(self.height);
        let column = (B::ONE << h) - B::ONE;
        // Rows 0, 2, 4, … when the top row h - 1 is even, else rows 1, 3, 5, …
        let alternate = if h % 2 == 1 { B::EVEN } else { !B::EVEN };
        alternate & column
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

/// Stones whose colour can no longer matter (`current` the mover's stones, `mask` all, `board`
/// every cell): a stone none of whose lines of four can be completed by either side whatever
/// its colour, so a position and the one with such stones recoloured have the same value.
///
/// A stone qualifies when (1) no cell within two steps of it, in any of the eight directions,
/// is empty, so the only lines through it that can still fill are those with the stone at one
/// end and an empty cell at the other, three steps away; and (2) on each such line, the two
/// stones between hold both colours. The two between are within two steps of that empty cell,
/// so (1) never lets them be recoloured themselves: every witness keeps its colour.
///
/// (1) reads the column heights: in a column the filled cells are the lowest, so it is enough
/// that the highest cells of the neighbourhood are filled — one and two up in the stone's
/// column, level and one up in the columns beside it, level and two up in the columns two away
/// (the spare bit above a column counts as filled: where the higher cell is above the board,
/// the level one decides). A shift that runs past a column's top into the next column reads a
/// real cell where the board has none, and a line that does so is no line: both can only
/// refuse a stone, never admit one.
#[inline(always)]
fn dead_stones_h<B: Bitboard>(current: B, mask: B, board: B, h: u32) -> B {
    // Filled, or not a cell of the board (the spare row above each column, and the bits past
    // the last column).
    let full = mask | !board;
    // Shifted up (towards higher columns), the cells left of the board come in as 0: they are
    // outside it, so filled.
    let left = |s: u32| shl(full, s) | !shl(!B::ZERO, s);
    // Shifted down, the bits past the word come in as 0: they are outside the board too, so
    // filled. (Read as empty, they kept every stone whose neighbourhood reaches past the 64th
    // bit alive in u64 bitboards — the two right-hand columns of 7x7, 8x6 and 6x8 — but not
    // in u128 ones, where the same cells lie past the last column: the two keyed the same
    // position apart.)
    let right = |s: u32| shr(full, s) | !shr(!B::ZERO, s);
    let interior = mask
        & right(1)
        & right(2)
        & right(h + 1)
        & right(h + 2)
        & right(2 * h + 2)
        & right(2 * h + 4)
        & left(h + 1)
        & left(h)
        & left(2 * h + 2)
        & left(2 * h);
    if interior == B::ZERO {
        return interior;
    }
    let empty = board & !mask;
    let other = current ^ mask;
    let mut dead = interior;
    // Vertical: the empty cell can only be above.
    let same = (current & shr(current, 1)) | (other & shr(other, 1));
    dead &= !(shr(empty, 3) & shr(same, 1));
    for k in [h + 1, h + 2, h] {
        // Cells whose neighbour k steps on has the same colour.
        let same = (current & shr(current, k)) | (other & shr(other, k));
        dead &= !(shr(empty, 3 * k) & shr(same, k));
        dead &= !(shl(empty, 3 * k) & shl(same, 2 * k));
    }
    dead
}

#[inline(always)]
fn aligned_h<B: Bitboard>(stones: B, h: u32) -> bool {
    let mut any = B::ZERO;
    for shift in [1, h, h + 1, h + 2] {
        let m = stones & shr(stones, shift);
        any |= m & shr(m, 2 * shift);
    }
    any != B::ZERO
}

/// Under Claimeven, the follower (owning `theirs`) completes four before the mover (owning
/// `mine`) can: every four of the mover's spans the same four columns as one of the follower's
/// that lies strictly lower in each of them. The follower's empty cells are each filled right
/// after the cell below them, so filling the mover's top cell in a column fills the follower's
/// cells below it first: by the mover's last stone of that four, the follower's is complete.
/// (A vertical four of the mover's is never counted as beaten.)
#[inline(always)]
fn follower_first_h<B: Bitboard>(mine: B, theirs: B, bottom: B, board: B, h: u32) -> bool {
    // Leftmost (or lowest) cells of the fours, by direction.
    let starts = |x: B, s: u32| {
        let m = x & shr(x, s);
        m & shr(m, 2 * s)
    };
    let (fh, fu, fd) = (
        starts(theirs, h + 1),
        starts(theirs, h + 2),
        starts(theirs, h),
    );
    if fh | fu | fd == B::ZERO || starts(mine, 1) != B::ZERO {
        return false;
    }
    // Row by row, a line rising one row a column from row r is below a line of the mover's
    // starting at row r' in the same column when r + 3 * max(0, rise - the mover's rise) < r':
    // the mover's fours starting in those cells (k = r' - r rows above, or more) are beaten.
    let rows_from = |k: u32| board & !(bottom * ((B::ONE << k) - B::ONE));
    let up = |x: B, k: u32| {
        if k < h {
            (x << k) & rows_from(k)
        } else {
            B::ZERO
        }
    };
    // (Every cell above one of these, in its column.)
    let smear = |mut y: B| {
        let mut s = 1;
        while s < h {
            y |= (y << s) & rows_from(s);
            s *= 2;
        }
        y
    };
    let horizontal = starts(mine, h + 1) & !smear(up(fh | fd, 1) | up(fu, 4));
    let rising = starts(mine, h + 2) & !smear(up(fh | fu | fd, 1));
    let falling = starts(mine, h) & !smear(up(fd, 1) | up(fh, 4) | up(fu, 7));
    horizontal | rising | falling == B::ZERO
}

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

/// The solver's Connect-Four knowledge (Pons' solver): immediate wins, moves that lose at once,
/// threat ordering and per-position bounds.
impl<B: Bitboard> SolverKnowledge for Connect4<B> {
    const NON_LOSING_PREVENTS_IMMEDIATE_WIN: bool = true;
    /// 26 plies (on the empty 7x6 board, every node with more than 15 empty cells, as
    /// Steininger's solver does): since forced replies are played out in the static pass, fewer
    /// nodes for about the same time per node. Against 12 plies: empty 7x6 151 M → 113 M nodes
    /// (time within this machine's noise: medians 68.2 → 63.3 s), 7x6 after `4444` 29.4 M →
    /// 21.6 M nodes and 13.2 → 11.4 s (medians of three), L1_R2 (first 200) 380 k → 307 k
    /// nodes and 130 → 119 ms. (Before the chains, 20 plies saved nodes but cost time.)
    const ENHANCED_CUTOFF_PLIES: u32 = 26;

    /// Pons' bounds: with no win on the spot and a move that does not lose at once, neither
    /// side wins with its next stone — each wins at best with the one after, if the board has
    /// room for it; and a side none of whose lines of four is still free of the other's stones
    /// draws at best.
    #[inline]
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        with_height!(self.height, h, self.quiet_bounds_h(h))
    }

    /// Every move loses at once (the opponent threatens two playable cells, or one with another
    /// threat right above it, or every playable cell is just below a threat): the opponent's
    /// win with its next stone; else [`SolverKnowledge::quiet_bounds`].
    #[inline]
    fn static_bounds(&self) -> Option<(Score, Score)> {
        with_height!(self.height, h, self.static_bounds_h(h))
    }

    /// The only playable cell that does not lose at once (blocking the opponent's one playable
    /// threat, or the one cell not just below a threat).
    #[inline]
    fn forced_move(&self) -> Option<u8> {
        if self.is_over() {
            return None;
        }
        let ok = self.non_losing_cells();
        (ok != B::ZERO && ok & (ok - B::ONE) == B::ZERO).then(|| self.column_of(ok))
    }

    /// Its empty cells.
    fn plies_left_at_most(&self) -> Option<u32> {
        Some(u32::from(self.cells - self.moves))
    }

    /// Every move loses at once: the opponent wins with its next stone.
    #[inline]
    fn forced_loss_value(&self) -> Option<Score> {
        let theirs = (self.moves as Score + 1) / 2 + 1; // the opponent's stones then
        let v = self.win_score(theirs);
        Some(match self.to_move() {
            Player::Max => -v,
            Player::Min => v,
        })
    }

    /// A move that leaves the opponent no reply but losing ones first; then moves by their
    /// useful threats (empty cells that would complete four, not just above an opponent's),
    /// those just above a cell the opponent can play counting extra; among equals, the ones
    /// nearer the centre, left before right (Pons' ordering counted all threats alike).
    #[inline]
    fn order_moves(&self, moves: &mut [u8]) {
        // By the key `child_order` gives (the child's threats are those `play` keeps), stable
        // (left first among equals), on at most `width` moves.
        let mut keys = [0u16; 32];
        let n = moves.len().min(keys.len());
        for (key, &c) in keys.iter_mut().zip(&moves[..n]) {
            let child = self.play(c);
            *key = self.order_key(c, child.threats, child.mask);
        }
        crate::sort::by_key_descending(&mut moves[..n], &mut keys[..n]);
    }

    const ORDERS_BY_CHILD: bool = true;

    /// [`SolverKnowledge::order_moves`]' key, from the threat cells the child keeps.
    #[inline]
    fn child_order(&self, col: u8, child: &Self) -> u32 {
        u32::from(self.order_key(col, child.threats, child.mask))
    }

    /// Two colours of up to 128 columns (more than any board has).
    const HISTORY_SLOTS: usize = 256;

    /// The column and whose stone it is (the first player's below 128).
    #[inline]
    fn history_slot(&self, col: u8) -> usize {
        (usize::from(self.moves & 1) << 7) | usize::from(col & 127)
    }

    /// Not on boards four columns wide or narrower, where it was measured to cost nodes
    /// ([`SolverKnowledge::keeps_history`]). Likely why: there the centre's key leaves the two
    /// middle columns, mirror images of each other, tied in most positions; in generation
    /// order the search keeps to the left of each such pair, whose mirror image the table's
    /// key merges, while the history switches sides as its counts change.
    #[inline]
    fn keeps_history(&self) -> bool {
        self.width > 4
    }

    #[inline]
    fn immediate_win(&self) -> Option<u8> {
        if self.is_over() {
            return None;
        }
        let wins = self.winning_cells(self.current) & self.possible();
        (wins != B::ZERO).then(|| self.column_of(wins & wins.wrapping_neg()))
    }

    /// Pons' possibleNonLosingMoves: if the opponent threatens to win at a playable cell, that
    /// cell must be taken (two such threats: every move loses); never play just below an
    /// opponent's winning cell.
    #[inline]
    fn non_losing_moves(&self, moves: &mut [u8]) -> usize {
        with_height!(self.height, h, self.non_losing_moves_h(moves, h))
    }

    /// The board reflected left to right has the same value: the smaller of the two position
    /// codes is hashed, so a position and its mirror image share a key. On boards four columns
    /// wide or narrower of 32 cells or more, and on boards of 48 cells or more, stones whose
    /// colour can no longer matter (`dead_stones_h` in the source says which) are first given
    /// to the side to move, so positions that differ only in such stones share a key too (then
    /// the mirror image is not looked at: a position with dead stones keeps its own code).
    ///
    /// Only there, because the test costs tens of bit operations on every key, and the solver
    /// computes one for every child it prefetches. Measured, one thread, 1 GiB, against the
    /// plain key: 4x9 2.57 → 1.72 M nodes and 0.332 → 0.266 s, 4x8 0.51 → 0.37 M and 0.072 →
    /// 0.063 s (five rounds alternated, medians); 7x7 1,040 → 930 M nodes and 173.6 → 161.0 s,
    /// 169.1 → 160.3 s; 6x8 557 → 503 M nodes and 105.8 → 97.8 s, 102.0 → 98.1 s (two runs
    /// each). Between, the stones that die merge fewer positions than the test costs: 5x8 −8 %
    /// nodes but 1.125 → 1.218 s, 5x7 −8 % and 0.484 → 0.514 s, 6x6 −3 % and 1.294 → 1.394 s,
    /// 9x4 −5 % and 7.58 → 7.89 s, 7x5 −4 % and 0.796 → 0.837 s (five rounds); 7x6 −4 % and
    /// 16.4 → 17.4 s, 8x5 −5 % and 29.6 → 31.5 s, 6x7 −9 % and 13.0 → 12.6 s (one run).
    /// Below 32 cells too few stones die to pay even four columns wide, where the mirror image
    /// they give up merges more (one thread, 1 GiB, each solve a fresh process, medians of 11
    /// to 21 alternated, against the test on): 4x4 1,436 → 1,399 nodes and 238 → 217 µs, 4x5
    /// 3,580 → 3,549 and 603 → 530 µs, 4x6 +5 % nodes and 4.15 → 3.93 ms, 4x7 +4 % and 7.39
    /// → 6.96 ms; 4x8 still pays (+25 % nodes and 55.5 → 60.9 ms without).
    #[inline(always)]
    fn canonical_key(&self) -> Option<(u64, bool)> {
        if self.keys_dead_stones() {
            let dead = with_height!(
                self.height,
                h,
                dead_stones_h(self.current, self.mask, self.board_mask(), h)
            );
            if dead != B::ZERO {
                return Some((self.hash_code((self.current | dead) + self.mask), false));
            }
        }
        Some(self.symmetric_key(self.code(), self.mirror_current + self.mirror_mask))
    }

    /// The keys of the children after each move that does not lose at once, computed from the
    /// stones alone, without playing the moves: no threats, no forced reply played out (a
    /// child that has one is searched, and keyed, after it, so its hint misses). None on the
    /// boards whose keys give dead stones to the mover: hints with the dead-stone test cost
    /// more than the loads they hide (4x9 0.086 → 0.093 s), hints without it hid nothing (4x9,
    /// 4x8 and 6x8 within 1 %).
    #[inline]
    fn child_key_hints(&self, mut f: impl FnMut(u64)) {
        if self.is_over() || self.keys_dead_stones() {
            return;
        }
        // After the move the opponent is to move: its stones are the child's `current`, and
        // the key is `canonical_key`'s without dead stones.
        let next = self.current ^ self.mask;
        let mirror_next = self.mirror_current ^ self.mirror_mask;
        let mut cells = self.non_losing_cells();
        while cells != B::ZERO {
            let cell = cells & cells.wrapping_neg();
            cells = cells ^ cell;
            let code = next.wrapping_add(self.mask | cell);
            let mirrored = self.bottom_mask(self.width - 1 - self.column_of(cell));
            let mirror = mirror_next.wrapping_add(self.mirror_mask | (self.mirror_mask + mirrored));
            f(self.symmetric_key(code, mirror).0);
        }
    }

    /// Moves are generated left to right, and the mirror's playable columns are this
    /// position's reflected: the `i`-th of the mirror's is the `i`-th from the right here.
    #[inline]
    fn mirror_index(&self, index: u8) -> u8 {
        let n = if self.is_over() {
            0
        } else {
            self.possible().count_ones() as u8
        };
        if index < n {
            n - 1 - index
        } else {
            index
        }
    }

    /// −1 (ask first whether the first player loses) on boards of even width and even
    /// height and on boards of height 4, 0 elsewhere. A forecast from Tromp's and Steininger's
    /// tables: of the empty boards of even width and height from width 6 on, all but 10x6 are
    /// second player's wins (6x4, 8x4, 10x4, 12x4, 6x6, 8x6, 6x8, 8x8, 6x10, 6x12; width 4
    /// draws), and so is every board of height 4 from width 6 on (6x4, 8x4, 9x4, 10x4, 11x4,
    /// 12x4) but 7x4, a draw like 4x4 and 5x4; the other boards of odd width or height are
    /// draws or first-player wins but for 9x6.
    /// A second player's win needs the tests at −1 and −2 and not the one at 0, which costs a
    /// seventh to a fifth of the solve (one thread, nodes: 6x6 6.51 M → 5.21 M, 8x4 3.78 M →
    /// 3.12 M, 9x4 29.5 M → 25.2 M); a draw needs the tests at 0 and −1 in either order (4x8
    /// and 7x4 within 1 %), and a first player's win the ones at 0 and 1, so there −1 first
    /// costs as much (with `--guess -1`: 7x6 77.3 M → 93.6 M nodes, 6x7 +30 %, 8x5 +17 %;
    /// random 22-ply openings on 10x6, whose values spread from −19 to +18, +3.8 %). A
    /// position on a board of height 4 that the first player wins pays that test too.
    #[inline]
    fn near_zero_guess(&self) -> Score {
        if (self.width % 2 == 0 && self.height % 2 == 0) || self.height == 4 {
            -1
        } else {
            0
        }
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

/// The engine's heuristic for positions it stops at (MAX's view), counted on the bitboards:
/// - each empty cell where a side would complete four (a *threat*) counts 2, and 4 when it lies
///   on a row that suits that side — odd rows (1st, 3rd, …, from the bottom) for the first
///   player, even rows for the second (Allis's zugzwang parity: the first player can claim the
///   odd cells of a column, the second the even ones, by following up);
/// - each stone in the centre column counts 1 (it takes part in the most lines).
///
/// A finished game is its exact value.
impl<B: Bitboard> Heuristic for Connect4<B> {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        let h = u32::from(self.height);
        let (max_stones, min_stones) = if self.moves % 2 == 0 {
            (self.current, self.current ^ self.mask)
        } else {
            (self.current ^ self.mask, self.current)
        };
        let rows = (0..h).step_by(2).fold(B::ZERO, |m, r| m | B::ONE << r);
        let odd_rows = self.bottom() * rows; // 1st, 3rd, … rows of every column
        let even_rows = self.board_mask() & !odd_rows;
        let count = |b: B| b.count_ones() as Score;
        let max_threats = self.winning_cells(max_stones);
        let min_threats = self.winning_cells(min_stones);
        let threats = 4 * count(max_threats & odd_rows) + 2 * count(max_threats & even_rows)
            - 4 * count(min_threats & even_rows)
            - 2 * count(min_threats & odd_rows);
        let centre_col = ((B::ONE << h) - B::ONE) << ((u32::from(self.width) / 2) * (h + 1));
        threats + count(max_stones & centre_col) - count(min_stones & centre_col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The boards of the rule tests below: even and odd heights.
    const RULE_SIZES: [(usize, usize); 9] = [
        (4, 4),
        (5, 4),
        (6, 4),
        (7, 4),
        (4, 6),
        (4, 5),
        (5, 5),
        (6, 5),
        (4, 7),
    ];

    /// A random quiet position from `seed`: one of `sizes`, `2k + odd` empty cells (k from 2
    /// to 6), reached by moves that neither end the game nor leave a win on the spot, and with
    /// none for its mover; None when the walk gets stuck first.
    fn quiet_position(seed: u64, sizes: &[(usize, usize)], odd: usize) -> Option<Connect4> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (w, h) = sizes[rng.gen_range(0..sizes.len())];
        let empty = 2 * rng.gen_range(2..=6usize) + odd;
        let mut p = Connect4::new(w, h).unwrap();
        while w * h - p.moves_played() > empty {
            let quiet: Vec<u8> = p
                .moves()
                .filter(|&c| {
                    let q = p.play(c);
                    !q.is_over() && q.immediate_win().is_none()
                })
                .collect();
            if quiet.is_empty() {
                break;
            }
            p = p.play(quiet[rng.gen_range(0..quiet.len())]);
        }
        (w * h - p.moves_played() == empty && p.immediate_win().is_none()).then_some(p)
    }

    /// `p`, which a rule says its mover loses: alpha-beta (which knows no rule) agrees, and
    /// the quiet bounds give the mover −1 at best.
    fn assert_mover_loses(seed: u64, p: &Connect4) {
        use crate::depth_first::{search, DepthFirst};
        use crate::Limits;
        let v = search(p, DepthFirst::AlphaBeta, 100, &Limits::none())
            .value
            .unwrap();
        let mover = if p.to_move() == Player::Max { v } else { -v };
        assert!(
            mover < 0,
            "seed {seed}: {p:?} is worth {mover} to the mover"
        );
        let (lo, hi) = p.quiet_bounds().unwrap();
        let most = if p.to_move() == Player::Max { hi } else { -lo };
        assert_eq!(most, -1, "seed {seed}: the bound that decides");
    }

    /// Where every four the mover could make lies above one of the follower's (Claimeven), the
    /// mover loses: checked by alpha-beta on the random quiet positions of boards of even and
    /// odd height where the rule decides (and only it: the mover can still make four), hundreds
    /// of them.
    #[test]
    fn a_follower_four_below_every_four_of_the_movers_wins() {
        let mut decided = 0;
        for seed in 0..40_000u64 {
            let Some(p) = quiet_position(seed, &RULE_SIZES, 0) else {
                continue;
            };
            let (mine, theirs) = p.claimeven_cells();
            let (hh, b) = (u32::from(p.height), p.board_mask());
            if !aligned_h(mine, hh) || !follower_first_h(mine, theirs, p.bottom(), b, hh) {
                continue;
            }
            decided += 1;
            assert_mover_loses(seed, &p);
        }
        assert!(
            decided > 200,
            "only {decided} positions decided by the rule"
        );
    }

    /// Where the follower has a threat of the other parity than the top row in a column with
    /// an odd number of empty cells, and the mover cannot make four from what is left to it,
    /// the mover loses: checked by alpha-beta on random quiet positions (an odd number of
    /// cells left) of boards of even and odd height where the rule decides, hundreds of them.
    #[test]
    fn a_follower_threat_in_an_odd_column_wins() {
        let mut sizes = RULE_SIZES.to_vec();
        sizes.insert(5, (5, 6));
        let mut decided = 0;
        for seed in 0..40_000u64 {
            let Some(p) = quiet_position(seed, &sizes, 1) else {
                continue;
            };
            if !p.follower_threat_wins_h(u32::from(p.height)) {
                continue;
            }
            decided += 1;
            assert_mover_loses(seed, &p);
        }
        assert!(
            decided > 200,
            "only {decided} positions decided by the rule"
        );
    }

    /// A position on `w x h` with the mover's stones `current` and all stones `mask` (no four
    /// on the board), its derived fields computed as `play` keeps them.
    fn from_boards(w: usize, h: usize, current: u64, mask: u64, moves: u8) -> Connect4 {
        let mut p = Connect4::new(w, h).unwrap();
        let reflect = |x: u64| {
            (0..w).fold(0u64, |m, c| {
                let column = (x >> (c * (h + 1))) & ((1 << (h + 1)) - 1);
                m | column << ((w - 1 - c) * (h + 1))
            })
        };
        p.current = current;
        p.mask = mask;
        p.moves = moves;
        p.mirror_current = reflect(current);
        p.mirror_mask = reflect(mask);
        p.threats = p.winning_cells(current ^ mask);
        p
    }

    /// Dead stones ([`dead_stones_h`]) are sound: on random late positions of boards from 1 to
    /// 7 columns wide, giving every dead stone to the mover, every one to the opponent, or each
    /// to a random side leaves the value alpha-beta (which knows nothing of keys) finds, and on
    /// the boards that use them (up to four columns wide of 32 cells or more, any of 48 cells or
    /// more) the position and its recoloured copies share one table key. Thousands of
    /// positions, hundreds with dead stones on each kind of board.
    #[test]
    fn recolouring_dead_stones_keeps_the_value_and_the_key() {
        use crate::depth_first::{search, DepthFirst};
        use crate::Limits;
        use rand::{Rng, SeedableRng};
        let sizes = [
            (4, 4),
            (4, 6),
            (4, 8),
            (4, 9),
            (3, 9),
            (1, 20),
            (5, 5),
            (6, 5),
            (7, 6),
            (6, 8),
        ];
        let mut with_dead = [0usize; 10];
        for seed in 0..8_000u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let size = seed as usize % sizes.len();
            let (w, h) = sizes[size];
            let empty = rng.gen_range(4..=9usize);
            let mut p = Connect4::new(w, h).unwrap();
            while w * h - p.moves_played() > empty {
                let moves: Vec<u8> = p.moves().filter(|&c| !p.play(c).is_over()).collect();
                if moves.is_empty() {
                    break;
                }
                p = p.play(moves[rng.gen_range(0..moves.len())]);
            }
            if p.is_over() || w * h - p.moves_played() != empty {
                continue;
            }
            let dead = dead_stones_h(p.current, p.mask, p.board_mask(), h as u32);
            assert_eq!(dead & !p.mask, 0, "{p:?}: a dead stone on an empty cell");
            if dead == 0 {
                continue;
            }
            with_dead[size] += 1;
            let value = |q: &Connect4| search(q, DepthFirst::AlphaBeta, 100, &Limits::none()).value;
            let v = value(&p);
            let mut random = 0;
            for cell in 0..64 {
                if dead >> cell & 1 == 1 && rng.gen_bool(0.5) {
                    random |= 1 << cell;
                }
            }
            for mine in [dead, 0, random] {
                let current = (p.current & !dead) | mine;
                let q = from_boards(w, h, current, p.mask, p.moves);
                assert_eq!(value(&q), v, "seed {seed}: {p:?} recoloured {q:?}");
                if p.keys_dead_stones() {
                    assert_eq!(q.canonical_key().unwrap().0, p.canonical_key().unwrap().0);
                }
            }
        }
        for (size, n) in with_dead.iter().enumerate() {
            assert!(
                *n > 100,
                "{:?}: {n} positions with dead stones",
                sizes[size]
            );
        }
    }

    /// The children's key hints are the keys of the children the moves that do not lose at
    /// once make (before any forced reply), in column order, at every position of random
    /// games on boards of both words; none where keys give dead stones to the mover.
    #[test]
    fn child_key_hints_are_the_keys_of_the_non_losing_children() {
        use rand::{Rng, SeedableRng};
        fn check<B: Bitboard>(mut p: Connect4<B>, rng: &mut rand_chacha::ChaCha8Rng) -> usize {
            let mut checked = 0;
            loop {
                let mut hints = Vec::new();
                p.child_key_hints(|k| hints.push(k));
                let mut moves: Vec<u8> = p.moves().collect();
                let kept = p.non_losing_moves(&mut moves);
                moves.truncate(kept);
                moves.sort_unstable();
                let keys: Vec<u64> = if p.keys_dead_stones() {
                    Vec::new()
                } else {
                    moves
                        .iter()
                        .map(|&c| p.play(c).canonical_key().unwrap().0)
                        .collect()
                };
                assert_eq!(hints, keys, "{p:?}");
                checked += usize::from(!keys.is_empty());
                let all: Vec<u8> = p.moves().collect();
                if all.is_empty() {
                    return checked;
                }
                p = p.play(all[rng.gen_range(0..all.len())]);
            }
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..300 {
            for (w, h) in [(6, 6), (7, 6), (5, 4), (9, 4), (4, 6), (8, 6)] {
                checked += check(Connect4::<u64>::sized(w, h).unwrap(), &mut rng);
            }
            checked += check(Connect4::<u128>::sized(22, 2).unwrap(), &mut rng);
            checked += check(Connect4::<u128>::sized(10, 6).unwrap(), &mut rng);
        }
        assert!(checked > 10_000, "only {checked} positions with hints");
    }

    #[test]
    fn column_mul_divides_every_bit_index_by_every_column_height() {
        for h in 1..64u32 {
            for bit in 0..64u32 {
                assert_eq!(
                    (bit * COLUMN_MUL[h as usize]) >> 16,
                    bit / (h + 1),
                    "h {h} bit {bit}"
                );
            }
        }
    }

    #[test]
    fn vertical_horizontal_and_diagonal_wins() {
        let c = Connect4::new(7, 6).unwrap();
        let v = c.play_moves("1212121").unwrap(); // four in column 1
        assert!(v.is_over() && v.evaluate() == 22 - 4);
        let h = c.play_moves("1122334").unwrap();
        assert_eq!(h.evaluate(), 18);
        let d = c.play_moves("12233434474").unwrap(); // X: c1r1, c2r2, c3r3, c4r4
        assert!(d.is_over(), "diagonal");
        assert!(d.evaluate() > 0);
        let o = c.play_moves("71212121").unwrap(); // O connects in column 1
        assert_eq!(o.evaluate(), -(22 - 4));
        assert!(c.play_moves("12121212").is_err(), "moves after the end");
        assert!(
            c.play_moves("8").is_err() && c.play_moves("0").is_err() && c.play_moves("a").is_err()
        );
        assert!(Connect4::new(9, 7).is_err());
        assert!(Connect4::new(8, 7).is_ok());
    }

    #[test]
    fn full_board_is_a_draw() {
        let p = Connect4::new(2, 2).unwrap().play_moves("1122").unwrap();
        assert!(p.is_over());
        assert_eq!(p.evaluate(), 0);
        assert_eq!(p.moves().count(), 0);
    }
}
