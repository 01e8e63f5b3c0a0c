//! Connect-Four's knowledge for the exact solver (Pons' solver and Allis' rules): immediate
//! wins, moves that lose at once, threat ordering, per-position bounds, dead stones and the
//! mirror image in the key.

use gamesearch::{Game, Player, Score, SolverKnowledge};

use super::{shl, shr, with_height, Bitboard, Connect4};

impl<B: Bitboard> Connect4<B> {
    /// The index (in this position's order of moves, columns left to right) of the move that
    /// the mirror image's move at `index` (in the mirror's order) reflects: the mirror's
    /// playable columns are this position's reflected, so the `i`-th of the mirror's is the
    /// `i`-th from the right here. An involution; an index past the moves stays as it is.
    #[inline]
    pub fn mirror_index(&self, index: u8) -> u8 {
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

    /// How promising playing column `c` is (higher first), given the mover's `threats` (empty
    /// cells completing four) and all stones, `mask`, after the move: its useful threats, then
    /// closeness to the centre: the key of both [`SolverKnowledge::order_moves`] and
    /// [`SolverKnowledge::child_order`], from the threats `play` keeps in the child.
    #[inline(always)]
    pub(super) fn order_key(&self, c: u8, threats: B, mask: B) -> u16 {
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
    pub(super) fn quiet_bounds_h(&self, h: u32) -> Option<(Score, Score)> {
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
    pub(super) fn follower_threat_wins_h(&self, h: u32) -> bool {
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
    pub(super) fn claimeven_cells(&self) -> (B, B) {
        let empty = self.board_mask() ^ self.mask;
        let follower = self.bottom() * self.rows_like_top();
        let theirs = (self.current ^ self.mask) | (empty & follower & !self.possible());
        (self.board_mask() & !theirs, theirs)
    }

    /// [`SolverKnowledge::static_bounds`] for height `h`.
    #[inline(always)]
    pub(super) fn static_bounds_h(&self, h: u32) -> Option<(Score, Score)> {
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
    pub(super) fn non_losing_cells(&self) -> B {
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
    pub(super) fn non_losing_moves_h(&self, moves: &mut [u8], h: u32) -> usize {
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

    /// One bit per row with the parity of the top row (rows `h-1, h-3, …`, 0-based) in a
    /// column's `h + 1` bits: times [`Self::bottom`], those rows of every column.
    #[inline]
    pub(super) fn rows_like_top(&self) -> B {
        let h = u32::from(self.height);
        let column = (B::ONE << h) - B::ONE;
        // Rows 0, 2, 4, … when the top row h - 1 is even, else rows 1, 3, 5, …
        let alternate = if h % 2 == 1 { B::EVEN } else { !B::EVEN };
        alternate & column
    }
}

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
pub(super) fn dead_stones_h<B: Bitboard>(current: B, mask: B, board: B, h: u32) -> B {
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
pub(super) fn aligned_h<B: Bitboard>(stones: B, h: u32) -> bool {
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
pub(super) fn follower_first_h<B: Bitboard>(
    mine: B,
    theirs: B,
    bottom: B,
    board: B,
    h: u32,
) -> bool {
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

/// The solver's Connect-Four knowledge (Pons' solver): immediate wins, moves that lose at once,
/// threat ordering and per-position bounds.
/// Connect-Four's knowledge for the exact solver, hook by hook (each hook's meaning is on
/// [`SolverKnowledge`]).
///
/// [`SolverKnowledge::child_order`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::{Game, SolverKnowledge};
/// let p = Connect4::new(7, 6).unwrap().play_moves("4455").unwrap();
/// let mut moves: Vec<u8> = p.moves().collect();
/// p.order_moves(&mut moves);
/// let mut by_child: Vec<u8> = p.moves().collect();
/// by_child.sort_by_key(|&m| std::cmp::Reverse(p.child_order(m, &p.play(m))));
/// assert_eq!(moves, by_child);
/// ```
///
/// [`SolverKnowledge::history_slot`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::SolverKnowledge;
/// let p = Connect4::new(7, 6).unwrap();
/// // The first player's stone in column 4, wherever the other stones lie.
/// assert_eq!(p.history_slot(3), p.play_moves("1144").unwrap().history_slot(3));
/// // Not the second player's stone there, nor the first player's in column 5.
/// assert_ne!(p.history_slot(3), p.play_moves("1").unwrap().history_slot(3));
/// assert_ne!(p.history_slot(3), p.history_slot(4));
/// assert!(p.history_slot(3) < Connect4::<u64>::HISTORY_SLOTS);
/// ```
///
/// [`SolverKnowledge::keeps_history`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::SolverKnowledge;
/// assert!(Connect4::new(7, 6).unwrap().keeps_history());
/// assert!(!Connect4::new(4, 9).unwrap().keeps_history());
/// ```
///
/// [`SolverKnowledge::static_bounds`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::SolverKnowledge;
/// // The first player has 3, 4 and 5 of the bottom row, 2 and 6 both open: the second,
/// // to move, cannot stop both, and the first wins with its fourth stone (22 - 4).
/// let p = Connect4::new(7, 6).unwrap().play_moves("33445").unwrap();
/// assert_eq!(p.static_bounds(), Some((18, 18)));
/// // From the empty board, only the bounds every position has.
/// let (lo, hi) = Connect4::new(7, 6).unwrap().static_bounds().unwrap();
/// assert!(lo < 0 && hi > 0);
/// ```
///
/// [`SolverKnowledge::forced_move`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::SolverKnowledge;
/// // The first player threatens the bottom of column 4: the second must play there.
/// let p = Connect4::new(7, 6).unwrap().play_moves("141414").unwrap();
/// assert_eq!(p.forced_move(), Some(3));
/// assert_eq!(Connect4::new(7, 6).unwrap().forced_move(), None);
/// ```
///
/// [`SolverKnowledge::canonical_key`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::SolverKnowledge;
/// let start = Connect4::new(7, 6).unwrap();
/// let (a, b) = (start.play_moves("12").unwrap(), start.play_moves("76").unwrap());
/// let ((ka, ma), (kb, mb)) = (a.canonical_key().unwrap(), b.canonical_key().unwrap());
/// assert_eq!(ka, kb); // mirror images share a key
/// assert!(ma != mb); // one of them is keyed by its mirror's code
/// // The best move stored by one is read, mirrored, by the other: columns 1..7 are all
/// // playable, so index i is column i + 1 and its mirror column 7 - i.
/// assert_eq!(a.mirror_index(0), 6);
/// ```
///
/// [`SolverKnowledge::near_zero_guess`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::SolverKnowledge;
/// // The empty boards of even width and height solved so far are draws or second player's
/// // wins but 10x6, so Connect-Four asks first whether the first player (MAX) loses there.
/// assert_eq!(Connect4::new(6, 6).unwrap().near_zero_guess(), -1);
/// assert_eq!(Connect4::new(7, 6).unwrap().near_zero_guess(), 0);
/// ```
///
/// [`SolverKnowledge::plies_left_at_most`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::{Game, SolverKnowledge};
/// let p = Connect4::new(5, 4).unwrap();
/// assert_eq!(p.plies_left_at_most(), Some(20));
/// assert_eq!(p.play(2).play(2).plies_left_at_most(), Some(18));
/// ```
///
/// [`SolverKnowledge::child_key_hints`]:
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch::{Game, SolverKnowledge};
/// let p = Connect4::new(7, 6).unwrap();
/// let mut hints = Vec::new();
/// p.child_key_hints(|k| hints.push(k));
/// let keys: Vec<u64> = p.moves().map(|c| p.play(c).canonical_key().unwrap().0).collect();
/// assert_eq!(hints, keys);
/// ```
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
        gamesearch::sort::by_key_descending(&mut moves[..n], &mut keys[..n]);
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
    fn canonical_key(&self) -> Option<(u64, u8)> {
        if self.keys_dead_stones() {
            let dead = with_height!(
                self.height,
                h,
                dead_stones_h(self.current, self.mask, self.board_mask(), h)
            );
            if dead != B::ZERO {
                return Some((self.hash_code((self.current | dead) + self.mask), 0));
            }
        }
        let (key, mirrored) =
            self.symmetric_key(self.code(), self.mirror_current + self.mirror_mask);
        Some((key, u8::from(mirrored)))
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
    /// position's reflected ([`Connect4::mirror_index`], both ways).
    #[inline]
    fn index_to_key(&self, _: u8, index: u8) -> u8 {
        self.mirror_index(index)
    }
    #[inline]
    fn index_from_key(&self, _: u8, index: u8) -> u8 {
        self.mirror_index(index)
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
