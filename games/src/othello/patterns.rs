//! Othello's features for the library's learned evaluation ([`gamesearch::learn`]): the
//! patterns of Buro's Logistello — each edge with its two X-squares, each corner's 3×3 and 2×5
//! squares, the rows and columns two to four squares in, the diagonals of four squares or more —
//! every instance of a pattern reading its squares in the same order under the board's
//! symmetries, so that they share one table; then each side's mobility and a constant. A
//! pattern's index is its squares read as a base-3 number (empty 0, the mover's 1, the other
//! side's 2); the stage is the empty squares in fours (0: four or fewer).
//!
//! The weights the repository ships (`games/weights/`) were learned by `gamesearch learn`
//! (docs/results/othello.md says with what command, seed and time).

use std::sync::OnceLock;

use gamesearch::learn::{Features, Weights};

use crate::learned::{shipped, Choice};

use super::bits::{symmetric, transpose};
use super::{legal_moves, Othello};

/// Empty squares a stage spans.
const STAGE_WIDTH: u32 = 4;

/// The most moves a mobility feature tells apart (more counts as this many).
const MOBILITY_CAP: u32 = 30;

/// One board size's patterns: each instance's parts, and where the other features start.
pub(crate) struct Layout {
    /// Each instance's table offset and parts: its index is the sum of its parts' lookups.
    instances: Vec<(u32, Vec<Part>)>,
    /// Each instance's squares, the first the most significant digit (what the parts read).
    #[cfg_attr(not(test), allow(dead_code))]
    squares: Vec<Vec<u8>>,
    /// Where the mobility features start (the mover's, then the other side's), and the constant.
    mobility: u32,
    bias: u32,
    size: u32,
}

/// How a part of a pattern instance reads its squares as a byte: a row of the board or of the
/// transposed board, or (squares in distinct columns, as a diagonal's) gathered by a multiply.
#[derive(Clone, Copy)]
enum Read {
    Row(u8),
    TransposedRow(u8),
    Gather(u64),
}

/// A part of an instance: how its byte is read, and each byte's contribution to the index
/// (the base-3 digits of the squares set in it, for the mover's discs; twice that for the
/// other side's).
struct Part {
    read: Read,
    digits: Box<[u16; 256]>,
}

impl Part {
    /// The byte that `read` takes from `board` (`transposed`: the same board transposed).
    #[inline(always)]
    fn byte(read: Read, board: u64, transposed: u64) -> usize {
        match read {
            Read::Row(r) => (board >> (8 * r) & 0xFF) as usize,
            Read::TransposedRow(r) => (transposed >> (8 * r) & 0xFF) as usize,
            Read::Gather(mask) => {
                ((board & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
            }
        }
    }
}

/// The parts that read `squares` (an instance's, the first the most significant digit): by
/// rows, or by the transposed board's rows, whichever takes fewer; a set with one square a
/// column and a row each (a diagonal) by one gather.
fn parts_of(squares: &[u8]) -> Vec<Part> {
    let len = squares.len() as u32;
    let digit = |k: usize| 3u16.pow(len - 1 - k as u32);
    let distinct = |f: fn(u8) -> u8| {
        let mut seen = 0u8;
        squares.iter().all(|&q| {
            let bit = 1 << f(q);
            let new = seen & bit == 0;
            seen |= bit;
            new
        })
    };
    let rows = |f: fn(u8) -> u8| {
        let mut r: Vec<u8> = squares.iter().map(|&q| f(q)).collect();
        r.sort_unstable();
        r.dedup();
        r
    };
    let make = |read: Read, column: fn(u8) -> u8, keep: &dyn Fn(u8) -> bool| {
        let mut digits = Box::new([0u16; 256]);
        for (byte, d) in digits.iter_mut().enumerate() {
            *d = squares
                .iter()
                .enumerate()
                .filter(|&(_, &q)| keep(q) && byte >> column(q) & 1 == 1)
                .map(|(k, _)| digit(k))
                .sum();
        }
        Part { read, digits }
    };
    let (by_rows, by_columns) = (rows(|q| q / 8), rows(|q| q % 8));
    if by_rows.len() > 2 && by_columns.len() > 2 && distinct(|q| q % 8) {
        let mask = squares.iter().fold(0u64, |m, &q| m | 1 << q);
        return vec![make(Read::Gather(mask), |q| q % 8, &|_| true)];
    }
    if by_rows.len() <= by_columns.len() {
        by_rows
            .iter()
            .map(|&r| make(Read::Row(r), |q| q % 8, &move |q| q / 8 == r))
            .collect()
    } else {
        by_columns
            .iter()
            .map(|&c| make(Read::TransposedRow(c), |q| q / 8, &move |q| q % 8 == c))
            .collect()
    }
}

/// The canonical squares (row, column) of each pattern on an `n`×`n` board.
fn patterns(n: u8) -> Vec<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    // The edge and its two X-squares.
    let mut edge: Vec<(u8, u8)> = (0..n).map(|c| (0, c)).collect();
    edge.extend([(1, 1), (1, n - 2)]);
    out.push(edge);
    if n >= 6 {
        out.push((0..9).map(|k| (k / 3, k % 3)).collect());
    }
    let wide = (n - 2).min(5);
    out.push((0..2 * wide).map(|k| (k / wide, k % wide)).collect());
    for r in 1..n / 2 {
        out.push((0..n).map(|c| (r, c)).collect());
    }
    for d in 0..=n - 4 {
        out.push((0..n - d).map(|i| (i, i + d)).collect());
    }
    out
}

impl Layout {
    fn new(n: u8) -> Layout {
        let mut instances = Vec::new();
        let mut all_squares = Vec::new();
        let mut offset = 0u32;
        for pattern in patterns(n) {
            let mut seen = Vec::new();
            for s in 0..8u8 {
                let squares: Vec<u8> = pattern
                    .iter()
                    .map(|&(r, c)| symmetric(1u64 << (8 * r + c), s, n).trailing_zeros() as u8)
                    .collect();
                let set = squares.iter().fold(0u64, |m, &q| m | 1 << q);
                if !seen.contains(&set) {
                    seen.push(set);
                    instances.push((offset, parts_of(&squares)));
                    all_squares.push(squares);
                }
            }
            offset += 3u32.pow(pattern.len() as u32);
        }
        let mobility = offset;
        let bias = mobility + 2 * (MOBILITY_CAP + 1);
        Layout {
            instances,
            squares: all_squares,
            mobility,
            bias,
            size: bias + 1,
        }
    }

    /// The layout of an `n`×`n` board, built once.
    pub(crate) fn of(n: u8) -> &'static Layout {
        static LAYOUTS: [OnceLock<Layout>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        LAYOUTS[size_slot(n)].get_or_init(|| Layout::new(n))
    }

    /// Calls `out` with each feature of the position with `me` to move against `opp`.
    #[inline]
    pub(crate) fn features(&self, me: u64, opp: u64, n: u8, out: &mut impl FnMut(u32)) {
        let (me_t, opp_t) = (transpose(me), transpose(opp));
        for (offset, parts) in &self.instances {
            let mut index = *offset;
            for part in parts {
                let mine = Part::byte(part.read, me, me_t);
                let theirs = Part::byte(part.read, opp, opp_t);
                index += u32::from(part.digits[mine]) + 2 * u32::from(part.digits[theirs]);
            }
            out(index);
        }
        let mine = legal_moves(me, opp, n).count_ones().min(MOBILITY_CAP);
        let theirs = legal_moves(opp, me, n).count_ones().min(MOBILITY_CAP);
        out(self.mobility + mine);
        out(self.mobility + MOBILITY_CAP + 1 + theirs);
        out(self.bias);
    }
}

/// The weights the repository ships for an `n`×`n` board (`games/weights/`: 8x8 and 6x6), read
/// and checked once: `None` for a size with none (the solver and the engine then use their
/// hand-written guesses).
///
/// ```
/// use gamesearch::learn::Features;
/// use gamesearch_games::othello::{shipped_weights, Othello};
/// let start = Othello::new(8).unwrap();
/// let w = shipped_weights(8).unwrap();
/// assert_eq!(w.feature_set(), start.feature_set());
/// assert_eq!(w.shape(), (start.stages(), start.weights_per_stage()));
/// ```
pub fn shipped_weights(n: u8) -> Option<&'static Weights> {
    static SIX: OnceLock<Weights> = OnceLock::new();
    static EIGHT: OnceLock<Weights> = OnceLock::new();
    match n {
        6 => Some(shipped(
            &SIX,
            include_bytes!("../../weights/othello-6x6.gsw"),
            "othello-6x6-patterns-1",
            "games/weights/othello-6x6.gsw",
        )),
        8 => Some(shipped(
            &EIGHT,
            include_bytes!("../../weights/othello-8x8.gsw"),
            "othello-8x8-patterns-1",
            "games/weights/othello-8x8.gsw",
        )),
        _ => None,
    }
}

/// The weights Othello's solver, engine and MCTS use on an `n`×`n` board: those given to
/// [`use_weights`] first, else the shipped ones ([`shipped_weights`]). `None`: the hand-written
/// guesses (also inside [`crate::learned::hand_written`]).
#[inline]
pub fn active_weights(n: u8) -> Option<&'static Weights> {
    CHOSEN[size_slot(n)].active(|| shipped_weights(n))
}

/// Chooses the weights of `n`×`n` Othello for the rest of the process (`None`: the hand-written
/// evaluation, as before the learned one): a file from `gamesearch learn` checked against the
/// board ([`Weights::load`]). Once only, before any search of that size; an error after.
pub fn use_weights(n: u8, weights: Option<Weights>) -> Result<(), gamesearch::Error> {
    let board = Othello::new(usize::from(n))?;
    CHOSEN[size_slot(n)].choose(&board, weights, &format!("{n}x{n} Othello"))
}

/// Each board size's chosen weights (4, 6, 8).
static CHOSEN: [Choice; 3] = [Choice::new(), Choice::new(), Choice::new()];

/// Where an `n`×`n` board's entry lies in a table of one entry a size (4, 6, 8).
fn size_slot(n: u8) -> usize {
    usize::from(n / 2).clamp(2, 4) - 2
}

/// The stage of a position with `empties` empty squares.
#[inline]
pub(crate) fn stage_of(empties: u32) -> usize {
    (empties.max(1) - 1).div_euclid(STAGE_WIDTH) as usize
}

/// The learned evaluation of the position with `me` to move against `opp`, the mover's view, in
/// `1/scale` discs ([`Weights::value`]; the features and the stage do not depend on whose colour
/// moves).
#[inline]
pub(crate) fn learned_value(weights: &Weights, me: u64, opp: u64, n: u8) -> i32 {
    weights.value(&Othello {
        me,
        opp,
        n,
        black_to_move: true,
    })
}

impl Features for Othello {
    fn feature_set(&self) -> String {
        format!("othello-{0}x{0}-patterns-1", self.n)
    }

    fn stages(&self) -> usize {
        stage_of(u32::from(self.n) * u32::from(self.n) - 4) + 1
    }

    fn weights_per_stage(&self) -> usize {
        Layout::of(self.n).size as usize
    }

    #[inline]
    fn stage(&self) -> usize {
        stage_of(self.empties())
    }

    #[inline]
    fn features(&self, out: &mut impl FnMut(u32)) {
        Layout::of(self.n).features(self.me, self.opp, self.n, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesearch::Game;

    /// The instances' indices read square by square, the plain way.
    fn slow_indices(layout: &Layout, me: u64, opp: u64) -> Vec<u32> {
        layout
            .instances
            .iter()
            .zip(&layout.squares)
            .map(|((offset, _), squares)| {
                offset
                    + squares.iter().fold(0, |index, &q| {
                        3 * index + ((me >> q) & 1) as u32 + 2 * ((opp >> q) & 1) as u32
                    })
            })
            .collect()
    }

    #[test]
    fn the_parts_read_every_instance_as_its_squares_do_on_random_games() {
        for n in [4u8, 6, 8] {
            let layout = Layout::of(n);
            let mut rng = 0x1234_5678_u64 ^ u64::from(n);
            for _ in 0..200 {
                let mut p = Othello::new(usize::from(n)).unwrap();
                loop {
                    let mut fast = Vec::new();
                    layout.features(p.me, p.opp, n, &mut |i| fast.push(i));
                    let slow = slow_indices(layout, p.me, p.opp);
                    assert_eq!(&fast[..slow.len()], &slow[..], "{p:?}");
                    assert!(fast.iter().all(|&i| i < layout.size));
                    let moves: Vec<u8> = p.moves().collect();
                    if moves.is_empty() {
                        break;
                    }
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    p = p.play(moves[(rng >> 33) as usize % moves.len()]);
                }
            }
        }
    }

    #[test]
    fn every_instance_of_a_pattern_is_one_of_its_symmetric_images() {
        // 8x8: 4 edges, 4 corner squares, 8 corner rectangles, 3x4 rows, 2 + 4x4 diagonals.
        assert_eq!(Layout::of(8).instances.len(), 4 + 4 + 8 + 12 + 2 + 16);
    }
}
