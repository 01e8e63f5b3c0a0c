//! What the solver knows of Domineering beyond the rules: safe moves against the most moves
//! the opponent can still make (quiet bounds), a move order, and the board's reflections in
//! the key.

use gamesearch::{Game, PositionKey, Score, SolverKnowledge};

use super::bits::{horizontal_pairs, horizontal_places, reflect, vertical_pairs, vertical_places};
use super::{mix, Domineering};

/// The board's reflections share a key while at most this many cells are covered. One thread,
/// 1 GiB, nodes and time: none past the empty board, 7x7 6.30 M 2.0 s, 6x8 42.7 M 12.5 s; 16,
/// 7x7 4.35 M 1.8 s, 6x8 13.1 M 5.9 s; 32, 5.88 M 4.6 s and 18.8 M 13.4 s (the images cost
/// more than they save).
const SYMMETRY_COVERED: u32 = 16;

/// The `index`-th set bit of `set` (0 when there is none).
fn nth_bit(mut set: u128, index: u8) -> u128 {
    for _ in 0..index {
        set &= set.wrapping_sub(1);
    }
    set & set.wrapping_neg()
}

/// Each side's count of moves for the bounds: how many it can surely still make, and how
/// many it could make at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCounts {
    /// Disjoint *safe* moves: dominoes no move of the opponent overlaps. The opponent's moves
    /// only disappear as the board fills, so none ever will: the side can make all of them,
    /// whatever the opponent does.
    pub safe: u32,
    /// Disjoint *protective areas* (Bullock 2002): 2×2 blocks of empty cells whose sides
    /// across the side's direction are closed (covered or off the board), so that the
    /// opponent can enter one only with a domino inside it. A domino of the side in one
    /// column (Vertical) or row (Horizontal) of the block leaves the other one a safe move:
    /// two moves for the side, and two fewer for the opponent, unless the opponent enters it
    /// first.
    pub protective: u32,
    /// The most dominoes the side could still place were the opponent never to move: ⌊L/2⌋
    /// over each run of L empty cells in its direction. The opponent's moves only take cells
    /// away, so the side makes at most this many more moves.
    pub most: u32,
    /// Whether every place of the side is safe: then it makes exactly `most` moves whatever
    /// anyone does, and none of them touches a cell the opponent could cover.
    pub only_safe: bool,
}

impl MoveCounts {
    /// The moves the side surely makes from here when it takes its protective areas before
    /// anything else and the opponent, taking one whenever it can, still leaves it `areas` of
    /// them: each its domino and the safe move that domino makes, beside its safe moves.
    fn sure(&self, areas: u32) -> u32 {
        self.safe + 2 * areas
    }
}

/// Takes blocks greedily, lowest first, from `candidates` (a block's top-left cell), none
/// sharing a cell with one taken: how many were taken.
fn pack_blocks(mut candidates: u128, cols: u8) -> u32 {
    let cols = u32::from(cols);
    let mut n = 0;
    while candidates != 0 {
        let b = candidates & candidates.wrapping_neg();
        n += 1;
        // The blocks after this one that overlap it start one cell right, or a row down and a
        // cell left, straight down or a cell right.
        candidates &= !(b | b << 1 | b << (cols - 1) | b << cols | b << (cols + 1));
    }
    n
}

impl Domineering {
    /// Vertical's counts and Horizontal's.
    ///
    /// ```
    /// use gamesearch_games::Domineering;
    /// // A 2x3 board: Vertical has three places, Horizontal four; neither has a safe one.
    /// let p = Domineering::new(2, 3, true).unwrap();
    /// let (v, h) = p.move_counts();
    /// assert_eq!((v.safe, v.most), (0, 3));
    /// assert_eq!((h.safe, h.most), (0, 2));
    /// // A 2x2 board is a protective area of each side.
    /// let (v, h) = Domineering::new(2, 2, true).unwrap().move_counts();
    /// assert_eq!((v.protective, h.protective), (1, 1));
    /// ```
    pub fn move_counts(&self) -> (MoveCounts, MoveCounts) {
        let m = self.masks();
        let cols = self.cols;
        let c = u32::from(cols);
        let empty = self.empty;
        let vp = vertical_places(empty, cols);
        let hp = horizontal_places(empty, m);
        // Cells some domino of the other side could cover.
        let v_cover = vp | vp << cols;
        let h_cover = hp | hp << 1;
        let v_safe = vp & !h_cover & !(h_cover >> cols);
        let h_safe = hp & !v_cover & !(v_cover >> 1);
        // 2x2 blocks of empty cells, by their top-left cell.
        let blocks = hp & hp >> cols;
        // Cells with an empty neighbour left, right, above, below.
        let left = (empty << 1) & !m.first_col;
        let right = (empty >> 1) & !m.last_col;
        let above = empty << cols;
        let below = empty >> cols;
        let v_blocks = blocks & !left & !(left >> c) & !(right >> 1) & !(right >> (c + 1));
        let h_blocks = blocks & !above & !(above >> 1) & !(below >> c) & !(below >> (c + 1));
        let v = MoveCounts {
            safe: vertical_pairs(v_safe | v_safe << cols, cols),
            protective: pack_blocks(v_blocks, cols),
            most: vertical_pairs(v_cover, cols),
            only_safe: vp & !v_safe == 0,
        };
        let h = MoveCounts {
            safe: horizontal_pairs(h_safe | h_safe << 1, m),
            protective: pack_blocks(h_blocks, cols),
            most: horizontal_pairs(h_cover, m),
            only_safe: hp & !h_safe == 0,
        };
        (v, h)
    }

    /// The value (MAX's view) when counting settles it. The side to move takes its protective
    /// areas first, then plays safe moves; the opponent can spoil at most every other area, so
    /// the mover keeps at least half of them, rounded up (the opponent, moving second, half
    /// rounded down of its own), and each area kept takes two moves from the opponent's most.
    /// - The mover wins when the moves it surely makes outnumber the opponent's most less two
    ///   an area kept: the opponent runs out first.
    /// - It loses when the opponent's sure moves (its areas halved, rounded down) are at least
    ///   the mover's most less two an area the opponent keeps.
    /// - When every place of one side is safe, neither side's moves touch the other's: the
    ///   safe side makes exactly its safe moves and the other exactly its most.
    pub fn counted_value(&self) -> Option<Score> {
        let (v, h) = self.move_counts();
        let (mine, theirs) = if self.vertical_to_move() {
            (v, h)
        } else {
            (h, v)
        };
        let sign = self.to_move().sign();
        let wins = |won: bool| Some(if won { sign } else { -sign });
        if mine.most == 0 {
            return wins(false);
        }
        if mine.only_safe {
            return wins(mine.safe > theirs.most);
        }
        if theirs.only_safe {
            return wins(mine.most > theirs.safe);
        }
        let kept = mine.protective.div_ceil(2);
        if mine.sure(kept) + 2 * kept > theirs.most {
            return wins(true);
        }
        let theirs_kept = theirs.protective / 2;
        if theirs.sure(theirs_kept) + 2 * theirs_kept >= mine.most {
            return wins(false);
        }
        None
    }

    /// The side to move's safe places (dominoes no move of the opponent can overlap).
    #[inline]
    fn mover_safe_places(&self) -> u128 {
        let m = self.masks();
        let (mine, theirs) = (self.mover_places(), self.other_places());
        if self.vertical_to_move() {
            let cover = theirs | (theirs << 1 & !m.first_col);
            mine & !cover & !(cover >> self.cols)
        } else {
            let cover = theirs | theirs << self.cols;
            mine & !cover & !(cover >> 1)
        }
    }

    /// The side to move's places ranked for the move order, higher first: how many of the
    /// opponent's places the domino takes (twice), less how many of the mover's own other
    /// places it takes, and a safe move last but one (it is the mover's whatever happens,
    /// so playing it now wastes a tempo). `mine` and `theirs` are the two sides' places.
    #[inline]
    fn move_rank(&self, mv: u8, mine: u128, theirs: u128) -> i32 {
        let (my_step, their_step) = if self.vertical_to_move() {
            (u32::from(self.cols), 1)
        } else {
            (1, u32::from(self.cols))
        };
        let domino = 1u128 << mv | 1u128 << (u32::from(mv) + my_step);
        let taken = (theirs & (domino | domino >> their_step)).count_ones() as i32;
        let lost = (mine & (domino | domino >> my_step)).count_ones() as i32 - 1;
        let safe = if taken == 0 { 8 } else { 0 };
        4 * taken - 2 * lost - safe
    }

    /// The key of the image under a reflection.
    fn image_key(&self, symmetry: u8) -> u64 {
        mix(
            reflect(self.empty, self.rows, self.cols, symmetry),
            self.salt(),
        )
    }

    /// The side to move's places in the image under a reflection.
    fn image_places(&self, symmetry: u8) -> u128 {
        Domineering {
            empty: reflect(self.empty, self.rows, self.cols, symmetry),
            ..*self
        }
        .mover_places()
    }

    /// The place of the image of the domino at place `at` (the image's top or left cell).
    fn image_place(&self, at: u128, symmetry: u8) -> u128 {
        let step = if self.vertical_to_move() {
            u32::from(self.cols)
        } else {
            1
        };
        let image = reflect(at | at << step, self.rows, self.cols, symmetry);
        image & image.wrapping_neg()
    }
}

impl SolverKnowledge for Domineering {
    /// Safe moves go last and are dropped while another move is left: a side that wins with
    /// one wins with a move that is not safe (Bullock 2002; the brute force of the tests finds
    /// no exception). Playing a safe move spends a move the side keeps whatever happens.
    fn non_losing_moves(&self, moves: &mut [u8]) -> usize {
        let safe = self.mover_safe_places();
        if safe == 0 {
            return moves.len();
        }
        let mut kept = 0;
        for i in 0..moves.len() {
            if safe >> moves[i] & 1 == 0 {
                moves.swap(kept, i);
                kept += 1;
            }
        }
        if kept == 0 {
            moves.len()
        } else {
            kept
        }
    }

    /// [`Domineering::counted_value`] when it settles the position.
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        match self.counted_value() {
            Some(v) => Some((v, v)),
            None => self.value_bounds(),
        }
    }

    /// Higher first by how many of the opponent's places a domino takes (twice), less how
    /// many of the mover's own other places it takes, a safe move (one no opponent's domino
    /// can overlap: the mover's whatever happens) put back by 8; equal ranks in place order.
    fn order_moves(&self, moves: &mut [u8]) {
        if moves.len() < 2 {
            return;
        }
        let (mine, theirs) = (self.mover_places(), self.other_places());
        // One word a move: the rank, turned so that the best sorts first, above the move (equal
        // ranks in place order). Ranks lie in -12..=16.
        let mut keys = [0u32; 128];
        let n = moves.len().min(128);
        for (k, &mv) in keys.iter_mut().zip(moves.iter()) {
            let rank = self.move_rank(mv, mine, theirs);
            *k = ((64 - rank) as u32) << 8 | u32::from(mv);
        }
        keys[..n].sort_unstable();
        for (m, k) in moves.iter_mut().zip(&keys[..n]) {
            *m = *k as u8;
        }
    }

    /// While few cells are covered, the least key of the position's images under the four
    /// reflections that keep a domino's direction (left to right, top to bottom, both), and
    /// the one that gives it; later, none (the position's own key).
    fn canonical_key(&self) -> Option<(u64, u8)> {
        let covered = self.masks().board.count_ones() - self.empty.count_ones();
        if covered > SYMMETRY_COVERED {
            return None;
        }
        Some(
            (0..4u8)
                .map(|s| {
                    (
                        if s == 0 {
                            self.key()
                        } else {
                            self.image_key(s)
                        },
                        s,
                    )
                })
                .min()
                .unwrap(),
        )
    }

    /// Moves go in place order, so a move's index in the image is the number of the image's
    /// places below its image.
    fn index_to_key(&self, symmetry: u8, index: u8) -> u8 {
        if symmetry == 0 {
            return index;
        }
        let at = nth_bit(self.mover_places(), index);
        if at == 0 {
            return index;
        }
        let image = self.image_place(at, symmetry);
        (self.image_places(symmetry) & (image - 1)).count_ones() as u8
    }

    fn index_from_key(&self, symmetry: u8, index: u8) -> u8 {
        if symmetry == 0 {
            return index;
        }
        let at = nth_bit(self.image_places(symmetry), index);
        if at == 0 {
            return index;
        }
        // The reflections are their own inverses.
        let original = self.image_place(at, symmetry);
        (self.mover_places() & (original - 1)).count_ones() as u8
    }

    /// A value is ±1, so the first null-window test decides it: deepening for a guess is
    /// work lost (one thread, 1 GiB: 7x7 6.77 → 6.00 M nodes, 5x9 1.09 → 0.65 M).
    const GUESS_BY_DEEPENING: bool = false;

    /// No draws: a value is ±1.
    const DRAWS: bool = false;

    /// Enhanced transposition cut-offs to ply 20 (one thread, 1 GiB: 7x7 6.00 → 4.35 M nodes,
    /// 6x8 19.7 → 13.1 M, 5x9 0.65 → 0.49 M, 4x12 3.66 → 2.66 M; time 1-5 % less but on 6x8).
    const ENHANCED_CUTOFF_PLIES: u32 = 20;

    fn plies_left_at_most(&self) -> Option<u32> {
        Some(self.empty.count_ones() / 2)
    }
}
