//! Othello's knowledge for the exact solver: fastest-first move order, the stable discs as
//! bounds, the square's eight symmetries in the key near the start, and the last empty squares
//! searched by a small search of their own (parity, fastest first, no table).
//!
//! (The node counts that chose the constants below leave out the positions of the move
//! order's own searches, which the solver has counted since the order reported them: about
//! 6 % more on FFO #40-#49.)

use gamesearch::learn::Weights;
use gamesearch::{PositionKey, Score, SolverKnowledge};

use super::bits::{
    board_mask, corner_neighbourhoods, last_flip_count, neighbours, quadrants, symmetric,
    unsymmetric,
};
use super::patterns::{active_weights, learned_value};
use super::{corners, flips, legal_moves, Othello, PASS};

/// Empty squares at or below which the alpha-beta solver hands a position to [`small_search`]
/// ([`SolverKnowledge::endgame_value`]): so near the end the table, the generic move order and
/// each node's bookkeeping cost more than they save.
///
/// FFO #40-#43, one thread, alternated twice: at 6, 33.2-35.4 s; at 7, 29.3-30.0 s; at 8, 31.2 s;
/// at 10 (#40-#42 only) 16.5 s against 14.5 s at 7.
const SMALL_EMPTIES: u32 = 7;

/// Empty squares at or above which [`small_search`] orders the moves fastest first (fewest
/// replies); below, by parity alone, which costs nothing.
/// (FFO #40 with [`SMALL_EMPTIES`] at 8, before the present move order: 48 M nodes and 3.5 s
/// from 5 up, 61 M and 2.9 s from 7, 80 M and 3.3 s from 8.)
const ORDERED_EMPTIES: u32 = 7;

/// Empty squares from which the solver's move order ([`SolverKnowledge::order_moves`]) puts a
/// two-ply search of each move ([`best_reply`]) before fastest first: near the root, where a
/// better order saves whole subtrees and the nodes are few enough to pay for it.
///
/// FFO #42-#46, one thread, nodes (fastest first alone: 2,586 M): from 16 empty squares
/// 2,157 M, from 14 2,138 M, from 12 2,135 M (but slower); searched to three plies instead
/// of two, from 14, 2,372 M; the search's value weighted 4, 16 or 64 times the replies: 2,180 M,
/// 2,068 M, 2,138 M.
const SEARCHED_ORDER_EMPTIES: u32 = 14;

/// How much the learned evaluation's two-ply value ([`active_weights`], in `1/scale` discs)
/// weighs in the searched move order beside the hand-written one's ([`order_eval`], ×16): this
/// many sixteenths. FFO #40-#49, one thread, nodes, with the first weights learned (seed 1,
/// 2 × 40,000 games): the hand-written evaluation alone 3,609 M; the learned one alone
/// 3,067 M; both, the learned at 16/16 2,611 M, 8/16 2,408 M, 4/16 2,079 M, 2/16 2,013 M,
/// 1/16 2,498 M.
const LEARNED_SHARE: Score = 2;

/// Empty squares from which the searched move order takes the learned evaluation from a deeper
/// search of each move, [`DEEP_ORDER_PLIES`] plies with the move ([`learned_search`]), weighted
/// [`DEEP_SHARE`] sixteenths, in place of its two-ply value: near the root, where each node's
/// order decides the most. FFO #40-#49, one thread, nodes (2,035 M and 135.0 s with the two-ply
/// values alone, run beside): four plies from 20 empty squares at 4/16, 1,791 M and 128.3 s.
/// Four plies from 18: 1,724 M but 21 % more time (from 16, 1,677 M, from 17, 1,756 M); the
/// value at 2/16 1,903 M, at 6/16 1,753 M; three plies from 18 at 2/16 1,900 M, 4/16 1,803 M,
/// 8/16 1,999 M; five plies from 20, 1,966 M. The root's first test at a six-ply search's value
/// (`near_zero_guess`) in place of 0: 1,717 M against 1,724 M from 18, no gain.
const DEEP_ORDER_EMPTIES: u32 = 20;

/// The plies of [`learned_search`] for the move order from [`DEEP_ORDER_EMPTIES`] up.
const DEEP_ORDER_PLIES: u32 = 4;

/// How much the deeper search's learned value weighs beside the hand-written two-ply value's
/// sixteen: this many sixteenths.
const DEEP_SHARE: Score = 4;

/// The plies of the learned search whose value, [`GUESS_BIAS`] added, is the solver's first
/// test ([`SolverKnowledge::near_zero_guess`]).
const GUESS_PLIES: u32 = 6;

/// Empty squares from which the first test is the learned search's guess; below, 0. A short
/// solve costs less than the six-ply search: the exact labels of `learn` (9-12 empty squares)
/// took 3.1 ms a position with the guess (the search's evaluations half the time).
const GUESS_EMPTIES: u32 = SELECTIVE_ROOT_EMPTIES;

/// What the first test's guess adds to the learned search's value, in discs, the mover's view:
/// a test just above the value (every move of the mover's refuted) costs the most, so the guess
/// errs low. FFO #40-#49, one thread, nodes, the shipped weights (2 × 100,000 games): 1,695 M
/// with the first test at 0; six plies and −2, 1,538 M (#45 501 → 503 M, #49 541 → 421 M); six
/// plies and 0, 1,805 M (#45, +6, guessed +8: 746 M); six plies and −4, 1,566 M; −2 with five
/// plies 1,662 M, seven 1,739 M, eight 1,795 M (#45 guessed +12).
const GUESS_BIAS: Score = -2;

/// Positions with at most this many discs are keyed by the least key of their eight images
/// under the square's symmetries (the first moves of every board are images of each other,
/// and so are the lines that follow them; 4x4 from the start: 1,180 nodes with one key, 613
/// with the least of eight). Past it, images are rare and each node would pay for eight keys
/// (the FFO positions, with 38 discs or more, are keyed as they are).
const SYMMETRY_DISCS: u32 = 16;

/// The `index`-th set bit of `set` (from the lowest) as a set of one square; 0 past the last.
#[inline]
fn nth_bit(mut set: u64, index: u8) -> u64 {
    for _ in 0..index {
        set &= set.wrapping_sub(1);
    }
    set & set.wrapping_neg()
}

/// The final margin of a finished game, the side with `me` to move's view: the empty squares go
/// to the winner.
#[inline]
fn final_score(me: u64, opp: u64, cells: Score) -> Score {
    let (mine, theirs) = (me.count_ones() as Score, opp.count_ones() as Score);
    let diff = mine - theirs;
    diff + diff.signum() * (cells - mine - theirs)
}

/// The squares of the board's quadrants that hold an odd number of empty squares: a move there
/// is likelier to leave its region with the last move of it to the mover (parity).
#[inline]
fn odd_regions(empty: u64, n: u8) -> u64 {
    quadrants(n)
        .iter()
        .filter(|&&q| (empty & q).count_ones() & 1 == 1)
        .fold(0, |acc, &q| acc | q)
}

/// Fail-soft nega-max alpha-beta over the last empty squares, without a table: the value of the
/// position with `me` to move against `opp` in the mover's view, within `(alpha, beta)`;
/// `passed`: the other side has just passed. From [`ORDERED_EMPTIES`] empty squares up the
/// moves go fastest first (the fewest replies; corners, then regions with an odd number of
/// empty squares, first among equals); below, [`parity_search`] takes over. Counts its positions
/// in `nodes`.
pub(super) fn small_search(
    me: u64,
    opp: u64,
    n: u8,
    mut alpha: Score,
    beta: Score,
    passed: bool,
    nodes: &mut u64,
) -> Score {
    let empty = board_mask(n) & !(me | opp);
    if empty.count_ones() < ORDERED_EMPTIES {
        return parity_search(me, opp, n, empty, alpha, beta, passed, nodes);
    }
    *nodes += 1;
    let moves = legal_moves(me, opp, n);
    if moves == 0 {
        if passed {
            return final_score(me, opp, Score::from(n) * Score::from(n));
        }
        return -small_search(opp, me, n, -beta, -alpha, true, nodes);
    }
    let odd = odd_regions(empty, n);
    let corner = corners(n);
    // Sorted in place, nothing allocated.
    let mut keyed = [(0u32, 0u8, 0u64); 32];
    let mut count = 0;
    let mut rest = moves;
    while rest != 0 && count < keyed.len() {
        let square = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let f = flips(me, opp, square);
        let replies = legal_moves(opp & !f, me | f | 1 << square, n).count_ones();
        let key = replies * 4
            + u32::from(corner >> square & 1 == 0) * 2
            + u32::from(odd >> square & 1 == 0);
        keyed[count] = (key, square, f);
        count += 1;
    }
    keyed[..count].sort_unstable_by_key(|&(key, square, _)| (key, square));
    let mut best = -Score::MAX;
    for &(_, square, f) in &keyed[..count] {
        let v = -small_search(
            opp & !f,
            me | f | 1 << square,
            n,
            -beta,
            -alpha,
            false,
            nodes,
        );
        if v > best {
            best = v;
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

/// [`small_search`] for the very last empty squares: each empty square tried in turn (no list of
/// legal moves: a square that flips nothing is not a move), those of regions with an odd
/// number of empty squares first (parity); the last square by [`last_square`].
#[allow(clippy::too_many_arguments)]
fn parity_search(
    me: u64,
    opp: u64,
    n: u8,
    empty: u64,
    mut alpha: Score,
    beta: Score,
    passed: bool,
    nodes: &mut u64,
) -> Score {
    let empties = empty.count_ones();
    if empties == 1 {
        return last_square(me, opp, n, empty.trailing_zeros() as u8, nodes);
    }
    if empties == 2 {
        return last_two(me, opp, n, empty, alpha, beta, nodes);
    }
    *nodes += 1;
    let odd = odd_regions(empty, n);
    let mut best = -Score::MAX;
    let mut moved = false;
    for part in [empty & odd, empty & !odd] {
        let mut rest = part;
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(me, opp, square);
            if f == 0 {
                continue;
            }
            moved = true;
            let bit = 1u64 << square;
            let v = -parity_search(
                opp & !f,
                me | f | bit,
                n,
                empty & !bit,
                -beta,
                -alpha,
                false,
                nodes,
            );
            if v > best {
                best = v;
                if v >= beta {
                    return best;
                }
                alpha = alpha.max(v);
            }
        }
    }
    if moved {
        best
    } else if passed {
        final_score(me, opp, Score::from(n) * Score::from(n))
    } else {
        -parity_search(opp, me, n, empty, -beta, -alpha, true, nodes)
    }
}

/// [`parity_search`] with two empty squares, written out: no order to find (two squares are in
/// odd regions both or in one even region), no list, and each move's last square at once.
#[inline]
fn last_two(
    me: u64,
    opp: u64,
    n: u8,
    empty: u64,
    alpha: Score,
    beta: Score,
    nodes: &mut u64,
) -> Score {
    let x = empty.trailing_zeros() as u8;
    let y = (empty & (empty - 1)).trailing_zeros() as u8;
    *nodes += 1;
    let best = better_of_two(me, opp, n, (x, y), beta, nodes);
    if best > -Score::MAX {
        return best;
    }
    // The mover passes: the opponent's turn on the same two squares.
    *nodes += 1;
    let theirs = better_of_two(opp, me, n, (x, y), -alpha, nodes);
    if theirs > -Score::MAX {
        -theirs
    } else {
        final_score(me, opp, Score::from(n) * Score::from(n))
    }
}

/// The better (for `me`, to move) of playing `x` then `y` or `y` then `x`, the second not tried
/// once the first reaches `enough`; `-Score::MAX` when neither square is a move.
#[inline(always)]
fn better_of_two(
    me: u64,
    opp: u64,
    n: u8,
    (x, y): (u8, u8),
    enough: Score,
    nodes: &mut u64,
) -> Score {
    let mut best = -Score::MAX;
    for (first, last) in [(x, y), (y, x)] {
        let f = flips(me, opp, first);
        if f != 0 {
            best = best.max(-last_square(opp & !f, me | f | 1 << first, n, last, nodes));
            if best >= enough {
                break;
            }
        }
    }
    best
}

/// The final margin (mover's view) with one empty square left: the mover takes it if it flips
/// something, else the opponent if it does, else it stays empty (and goes to the winner). Only
/// the flips' count is needed ([`last_flip_count`]): a move that flips `c` discs moves the
/// margin by `2c + 1`.
#[inline]
fn last_square(me: u64, opp: u64, n: u8, square: u8, nodes: &mut u64) -> Score {
    let diff = me.count_ones() as Score - opp.count_ones() as Score;
    *nodes += 1;
    let c = last_flip_count(me, square) as Score;
    if c != 0 {
        return diff + 2 * c + 1;
    }
    let c = last_flip_count(opp, square) as Score;
    if c != 0 {
        *nodes += 1;
        return diff - 2 * c - 1;
    }
    final_score(me, opp, Score::from(n) * Score::from(n))
}

/// The solver's Othello knowledge: a move order, and the last empty squares solved directly.
impl SolverKnowledge for Othello {
    /// With at most seven empty squares: the small search's value within the window.
    fn endgame_value(&self, alpha: Score, beta: Score, nodes: &mut u64) -> Option<Score> {
        if self.empties() > SMALL_EMPTIES {
            return None;
        }
        let (alpha, beta) = if self.black_to_move {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let v = small_search(self.me, self.opp, self.n, alpha, beta, false, nodes);
        Some(if self.black_to_move { v } else { -v })
    }

    /// Corners first; then "fastest first": the moves that leave the opponent the fewest
    /// replies, a reply on a corner counted twice (Fastest-First, as endgame solvers order);
    /// among equals, the fewest empty squares next to the mover's discs (the opponent's
    /// potential mobility), then square order. FFO #40-#42, one thread: 376 M nodes with the
    /// replies alone, 301 M with this. From 14 empty squares up, a two-ply search of each
    /// move (corners, discs next to empty corners, frontier discs, mobility and potential
    /// mobility at its leaves) takes the corner bonus's place and comes before the rest, and
    /// beside it the same search with the learned evaluation at its leaves (`LEARNED_SHARE` sixteenths of it).
    fn order_moves(&self, moves: &mut [u8]) {
        self.order_moves_counting(moves, &mut 0);
    }

    /// [`SolverKnowledge::order_moves`], counting the positions its searches visit (each move's
    /// position and each reply of the two-ply search, each node of the deeper learned one).
    fn order_moves_counting(&self, moves: &mut [u8], nodes: &mut u64) {
        if moves.len() < 2 || moves[0] == PASS {
            return;
        }
        let corner = corners(self.n);
        let empty = board_mask(self.n) & !(self.me | self.opp);
        let searched = self.empties() >= SEARCHED_ORDER_EMPTIES;
        let learned = active_weights(self.n);
        let mut keyed = [(0i32, 0u8); 64];
        let n = moves.len().min(64);
        for (slot, &mv) in keyed.iter_mut().zip(moves.iter()) {
            let f = flips(self.me, self.opp, mv);
            let (me, opp) = (self.me | f | 1 << mv, self.opp & !f);
            let replies = legal_moves(opp, me, self.n);
            let weighted = (replies.count_ones() + (replies & corner).count_ones()) as i32;
            let potential = (neighbours(me, self.n) & empty & !(1 << mv)).count_ones() as i32;
            let first = if searched {
                // (In place of the corner bonus: the search's leaves weigh corners themselves.)
                match learned {
                    Some(w) if self.empties() >= DEEP_ORDER_EMPTIES => {
                        let [hand] = best_reply(opp, me, self.n, [1000], nodes, |me, opp| {
                            [order_eval(me, opp, self.n)]
                        });
                        let deep = -learned_search(w, opp, me, self.n, DEEP_ORDER_PLIES - 1, nodes);
                        -16 * hand + deep * DEEP_SHARE / 16
                    }
                    // Both evaluations over one walk of the replies.
                    _ => {
                        let per_disc = [1000, learned.map_or(0, |w| w.scale() as Score)];
                        let [hand, learned] =
                            best_reply(opp, me, self.n, per_disc, nodes, |me, opp| {
                                let learned =
                                    learned.map_or(0, |w| learned_value(w, me, opp, self.n));
                                [order_eval(me, opp, self.n), learned]
                            });
                        -16 * hand - learned * LEARNED_SHARE / 16
                    }
                }
            } else if corner >> mv & 1 != 0 {
                1 << 12
            } else {
                0
            };
            *slot = (first - 16 * weighted - potential, mv);
        }
        // Equal keys in square order (sorted in place: nothing allocated per node).
        keyed[..n].sort_unstable_by_key(|&(k, mv)| (std::cmp::Reverse(k), mv));
        for (m, (_, mv)) in moves.iter_mut().zip(&keyed[..n]) {
            *m = *mv;
        }
    }

    /// Near the start (at most 16 discs), the least key of the position's
    /// eight images under the square's symmetries, and the symmetry that gives it; later, none
    /// (the position's own key).
    #[inline]
    fn canonical_key(&self) -> Option<(u64, u8)> {
        if (self.me | self.opp).count_ones() > SYMMETRY_DISCS {
            return None;
        }
        (0..8u8)
            .map(|s| {
                let image = Othello {
                    me: symmetric(self.me, s, self.n),
                    opp: symmetric(self.opp, s, self.n),
                    ..*self
                };
                (image.key(), s)
            })
            .min()
    }

    /// Moves go in square order (bit order), so a move's index in the image is the number of
    /// the image's legal squares below its image; a pass is the only move either way.
    fn index_to_key(&self, symmetry: u8, index: u8) -> u8 {
        let legal = self.legal_squares();
        let square = nth_bit(legal, index);
        if square == 0 {
            return index;
        }
        let image = symmetric(square, symmetry, self.n);
        (symmetric(legal, symmetry, self.n) & (image - 1)).count_ones() as u8
    }

    fn index_from_key(&self, symmetry: u8, index: u8) -> u8 {
        let legal = self.legal_squares();
        let square = nth_bit(symmetric(legal, symmetry, self.n), index);
        if square == 0 {
            return index;
        }
        let original = unsymmetric(square, symmetry, self.n);
        (legal & (original - 1)).count_ones() as u8
    }

    /// The stable discs bound the final margin: each side keeps at least its stable discs
    /// ([`Othello::stable_discs`]). FFO #42, one thread: 162.8 M nodes without, 145.4 M with.
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        let cells = Score::from(self.n) * Score::from(self.n);
        let (black, white) = self.stable_discs();
        Some((
            2 * black.count_ones() as Score - cells,
            cells - 2 * white.count_ones() as Score,
        ))
    }

    /// The disc count before the end guesses the final margin badly: the solver starts with
    /// its bisection instead of deepening (FFO #40-#44, one thread: 701 M nodes without the
    /// deepening, 850 M after it to depth 8).
    const GUESS_BY_DEEPENING: bool = false;

    /// Enhanced transposition cut-offs down to the small search (FFO #40-#42, one thread:
    /// 389 M nodes without, 355 M with them to ply 20).
    const ENHANCED_CUTOFF_PLIES: u32 = 20;

    /// Every final margin is even (the board has an even number of squares, and the empty
    /// ones go to the winner), so the solver's tests skip the odd values.
    const VALUE_STEP: Score = 2;

    /// The learned evaluation's guess at the margin: a `GUESS_PLIES`-ply search's value in
    /// even discs, `GUESS_BIAS` added (the weights' errors are 4-5 discs at 20-40 empty
    /// squares). Without learned weights, and on the smaller boards, 0: the 6x6 weights' guess
    /// cost nodes (the empty 6x6 board, two threads: 1.33 G against 1.16 G).
    fn near_zero_guess(&self) -> Score {
        let Some(w) = active_weights(self.n).filter(|_| self.n == 8) else {
            return 0;
        };
        if self.empties() < GUESS_EMPTIES {
            return 0;
        }
        // (Its positions, a few thousand once a solve, are not counted: the hook has no count.)
        let v = learned_search(w, self.me, self.opp, self.n, GUESS_PLIES, &mut 0);
        let discs = (v as f64 / w.scale() as f64 / 2.0).round() as Score * 2 + GUESS_BIAS;
        if self.black_to_move {
            discs
        } else {
            -discs
        }
    }

    /// On 8x8 with learned weights, from 18 empty squares (`SELECTIVE_ROOT_EMPTIES`): two
    /// selective passes ([`Othello::probable_cut`]) first.
    fn selective_levels(&self) -> u8 {
        if self.n == 8
            && self.empties() >= SELECTIVE_ROOT_EMPTIES
            && active_weights(self.n).is_some()
        {
            PROBCUT_MARGINS.len() as u8
        } else {
            0
        }
    }

    /// ProbCut (Buro 1995) with the learned evaluation: from 12 empty squares
    /// (`PROBCUT_EMPTIES`), a shallow learned search (two plies, four from 20 empty squares:
    /// `probcut_plies`) at least the pass's margin (8 discs, then 16: `PROBCUT_MARGINS`) above
    /// beta cuts at beta, one as far below alpha at alpha.
    fn probable_cut(&self, level: u8, alpha: Score, beta: Score, nodes: &mut u64) -> Option<Score> {
        let empties = self.empties();
        if empties < PROBCUT_EMPTIES {
            return None;
        }
        let w = active_weights(self.n)?;
        let (alpha, beta) = if self.black_to_move {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let cells = Score::from(self.n) * Score::from(self.n);
        let margin = *PROBCUT_MARGINS.get(usize::from(level))?;
        let plies = probcut_plies(empties);
        let scale = w.scale() as Score;
        let view = |v: Score| if self.black_to_move { v } else { -v };
        if beta > -cells && beta + margin <= cells {
            let bound = (beta + margin) * scale;
            let v = learned_window(w, self.me, self.opp, self.n, plies, bound - 1, bound, nodes);
            if v >= bound {
                return Some(view(beta));
            }
        }
        if alpha < cells && alpha - margin >= -cells {
            let bound = (alpha - margin) * scale;
            let v = learned_window(w, self.me, self.opp, self.n, plies, bound, bound + 1, nodes);
            if v <= bound {
                return Some(view(alpha));
            }
        }
        None
    }

    /// Most positions' margins lie near 0 (FFO #40-#59: 14 of 20 within ±10): no bisection
    /// first, the first test is the guess ([`SolverKnowledge::near_zero_guess`]).
    const BISECT_FIRST: bool = false;
}

/// What [`order_eval`] takes off for each disc of the mover's on an X-square (the diagonal
/// neighbour of an empty corner), and adds for each of the opponent's: such a disc tends to open
/// the corner to the other side. FFO #40-#49, one thread, nodes: 6,781 M without the X- and
/// C-squares; 4,257 M with 20 and 5 (4,628 M with 25 and 2; on #42-#46, 1,651 M without, 1,395 M
/// with 10 and 3, 1,267 M with 20 and 5, 1,852 M with 30 and 5, 2,104 M with 40 and 5).
const X_SQUARE: Score = 20;

/// [`X_SQUARE`] for a C-square (a neighbour of an empty corner on the edge).
const C_SQUARE: Score = 5;

/// What [`order_eval`] takes off for each of the mover's frontier discs (discs next to an empty
/// square, which give the opponent moves) and adds for each of the opponent's. FFO #40-#49, one
/// thread, nodes: 4,257 M without; 3,609 M with 2; 3,871 M with 3 (on #42-#46: 1,267 M
/// without, 1,178 M with 1, 1,054 M with 2, 1,139 M with 4). Counting the stable discs (5 a
/// disc) in its place: 1,515 M on #42-#46.
const FRONTIER_DISC: Score = 2;

/// A position's promise for the mover, to order moves by (not a value of the game): corners
/// held (×25), discs on the X- and C-squares of empty corners (−[`X_SQUARE`], −[`C_SQUARE`]),
/// frontier discs (−[`FRONTIER_DISC`]), mobility with corners counted twice, and a quarter of
/// the difference in potential mobility (empty squares next to the opponent's discs against
/// those next to the mover's).
fn order_eval(me: u64, opp: u64, n: u8) -> Score {
    let corner = corners(n);
    let empty = board_mask(n) & !(me | opp);
    let (mine, theirs) = (legal_moves(me, opp, n), legal_moves(opp, me, n));
    let count = |x: u64| x.count_ones() as Score;
    let exposed: Score = corner_neighbourhoods(n)
        .iter()
        .filter(|&&(c, _, _)| empty & c != 0)
        .map(|&(_, x, c)| {
            X_SQUARE * (count(me & x) - count(opp & x))
                + C_SQUARE * (count(me & c) - count(opp & c))
        })
        .sum();
    let frontier = neighbours(empty, n);
    25 * (count(me & corner) - count(opp & corner))
        - exposed
        - FRONTIER_DISC * (count(me & frontier) - count(opp & frontier))
        + (count(mine) + count(mine & corner) - count(theirs) - count(theirs & corner))
        + (count(neighbours(opp, n) & empty) - count(neighbours(me, n) & empty)) / 4
}

/// The value for the mover (`me`) of its best reply, one ply ahead, under each of `leaf`'s
/// evaluations at once (one walk of the replies, the best taken for each): a position after a
/// move, seen from the opponent who replies, for the move order. A finished game scores its
/// margin ×`per_disc`; with no reply, the position itself is the leaf (the other side moves).
/// Counts the position and each reply in `nodes`.
fn best_reply<const K: usize>(
    me: u64,
    opp: u64,
    n: u8,
    per_disc: [Score; K],
    nodes: &mut u64,
    leaf: impl Fn(u64, u64) -> [Score; K],
) -> [Score; K] {
    *nodes += 1;
    let moves = legal_moves(me, opp, n);
    if moves == 0 {
        if legal_moves(opp, me, n) == 0 {
            let margin = final_score(me, opp, Score::from(n) * Score::from(n));
            return per_disc.map(|p| p * margin);
        }
        return leaf(opp, me).map(|v| -v);
    }
    let mut best = [-Score::MAX; K];
    let mut rest = moves;
    while rest != 0 {
        let square = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let f = flips(me, opp, square);
        *nodes += 1;
        let values = leaf(opp & !f, me | f | 1 << square);
        for (b, v) in best.iter_mut().zip(values) {
            *b = (*b).max(-v);
        }
    }
    best
}

/// The value for the mover (`me`) of an alpha-beta search `depth` plies deep (a pass is a ply)
/// with the learned evaluation at its leaves, in `1/scale` discs; a finished game is its margin.
/// The solver's move order near the root asks it of each move ([`DEEP_ORDER_EMPTIES`]). Counts
/// its positions in `nodes`.
fn learned_search(w: &Weights, me: u64, opp: u64, n: u8, depth: u32, nodes: &mut u64) -> Score {
    learned_window(w, me, opp, n, depth, -Score::MAX, Score::MAX, nodes)
}

/// [`learned_search`] within the window `(alpha, beta)` (in `1/scale` discs), fail-soft.
#[allow(clippy::too_many_arguments)]
fn learned_window(
    w: &Weights,
    me: u64,
    opp: u64,
    n: u8,
    depth: u32,
    alpha: Score,
    beta: Score,
    nodes: &mut u64,
) -> Score {
    #[allow(clippy::too_many_arguments)]
    fn search(
        w: &Weights,
        me: u64,
        opp: u64,
        n: u8,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        nodes: &mut u64,
    ) -> Score {
        *nodes += 1;
        let moves = legal_moves(me, opp, n);
        if moves == 0 && legal_moves(opp, me, n) == 0 {
            return w.scale() as Score * final_score(me, opp, Score::from(n) * Score::from(n));
        }
        if depth == 0 {
            return learned_value(w, me, opp, n);
        }
        if moves == 0 {
            return -search(w, opp, me, n, depth - 1, -beta, -alpha, nodes);
        }
        let mut best = -Score::MAX;
        let mut rest = moves;
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let f = flips(me, opp, square);
            let v = -search(
                w,
                opp & !f,
                me | f | 1 << square,
                n,
                depth - 1,
                -beta,
                -alpha,
                nodes,
            );
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    search(w, me, opp, n, depth, alpha, beta, nodes)
}

/// Empty squares from which an 8x8 solve runs selective passes before its exact tests
/// ([`SolverKnowledge::selective_levels`]); below, a solve is too short for them to pay.
const SELECTIVE_ROOT_EMPTIES: u32 = 18;

/// The probable cut's margins, in discs, one a selective pass, loosest first: the shallow
/// search's value must lie this far outside the window. The learned evaluation's error against
/// the exact value is 5-8 discs (held out, per stage: `docs/results/othello.md`). FFO #40-#49,
/// one thread, 1 GiB, nodes (the passes' and the order's searches counted), with no pass
/// 1,625.6 M: one pass at 6 discs 1,865 M, 8 1,556 M, 10 1,513 M, 12 1,398 M, 14 1,387 M,
/// 16 1,310.7 M, 20 1,457 M; two passes at 8 and 16 1,274.9 M (at 6 and 16 1,315 M, 12 and 20
/// 1,346 M); three at 8, 12 and 16 1,286 M; the margin one disc wider for each four empty
/// squares past 16, 1,267 M (two discs, 1,394 M).
const PROBCUT_MARGINS: [Score; 2] = [8, 16];

/// Empty squares from which a selective pass asks the probable cut; below, its positions are
/// searched to the end. FFO #40-#49 with one pass at 16 discs: from 12 empty squares
/// 1,310.7 M nodes, from 10 1,368 M, from 14 1,500 M.
const PROBCUT_EMPTIES: u32 = 12;

/// The plies of the probable cut's learned search at `empties` empty squares: two, four from
/// 20. FFO #40-#49, nodes: with the two passes 1,274.9 M, six plies from 20 1,286 M; with one
/// pass (16 discs) 1,310.7 M, two plies everywhere 1,315 M, four from 18 1,326 M, three at
/// 12-19 1,469 M.
fn probcut_plies(empties: u32) -> u32 {
    if empties >= 20 {
        4
    } else {
        2
    }
}
