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
    /// The most dominoes the side could still place were the opponent never to move: ⌊L/2⌋
    /// over each run of L empty cells in its direction. The opponent's moves only take cells
    /// away, so the side makes at most this many more moves.
    pub most: u32,
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
    /// ```
    pub fn move_counts(&self) -> (MoveCounts, MoveCounts) {
        let m = self.masks();
        let cols = self.cols;
        let vp = vertical_places(self.empty, cols);
        let hp = horizontal_places(self.empty, m);
        // Cells some domino of the other side could cover.
        let v_cover = vp | vp << cols;
        let h_cover = hp | hp << 1;
        let v_safe = vp & !h_cover & !(h_cover >> cols);
        let h_safe = hp & !v_cover & !(v_cover >> 1);
        let v = MoveCounts {
            safe: vertical_pairs(v_safe | v_safe << cols, cols),
            most: vertical_pairs(v_cover, cols),
        };
        let h = MoveCounts {
            safe: horizontal_pairs(h_safe | h_safe << 1, m),
            most: horizontal_pairs(h_cover, m),
        };
        (v, h)
    }

    /// The value (MAX's view) when counting settles it: the side to move wins when it has
    /// more safe moves than the opponent has moves at most (it plays a safe move each turn and
    /// the opponent runs out first); it loses when the opponent's safe moves are at least its
    /// moves at most.
    pub fn counted_value(&self) -> Option<Score> {
        let (v, h) = self.move_counts();
        let (mine, theirs) = if self.vertical_to_move() {
            (v, h)
        } else {
            (h, v)
        };
        let sign = self.to_move().sign();
        if mine.most == 0 || theirs.safe >= mine.most {
            Some(-sign)
        } else if mine.safe > theirs.most {
            Some(sign)
        } else {
            None
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
