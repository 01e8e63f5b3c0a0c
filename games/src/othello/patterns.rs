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

use super::bits::{board_mask, symmetric};
use super::{legal_moves, Othello};

/// Empty squares a stage spans.
const STAGE_WIDTH: u32 = 4;

/// The most moves a mobility feature tells apart (more counts as this many).
const MOBILITY_CAP: u32 = 30;

/// One board size's patterns: each instance's squares, and where each instance's table starts.
pub(crate) struct Layout {
    /// `(offset, squares)` for every instance.
    instances: Vec<(u32, Vec<u8>)>,
    /// Where the mobility features start (the mover's, then the other side's), and the constant.
    mobility: u32,
    bias: u32,
    size: u32,
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
                    instances.push((offset, squares));
                }
            }
            offset += 3u32.pow(pattern.len() as u32);
        }
        let mobility = offset;
        let bias = mobility + 2 * (MOBILITY_CAP + 1);
        Layout {
            instances,
            mobility,
            bias,
            size: bias + 1,
        }
    }

    /// The layout of an `n`×`n` board, built once.
    pub(crate) fn of(n: u8) -> &'static Layout {
        static LAYOUTS: [OnceLock<Layout>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        LAYOUTS[usize::from(n / 2 - 2)].get_or_init(|| Layout::new(n))
    }

    /// Calls `out` with each feature of the position with `me` to move against `opp`.
    #[inline]
    pub(crate) fn features(&self, me: u64, opp: u64, n: u8, out: &mut impl FnMut(u32)) {
        for (offset, squares) in &self.instances {
            let mut index = 0u32;
            for &q in squares {
                index = 3 * index + ((me >> q) & 1) as u32 + 2 * ((opp >> q) & 1) as u32;
            }
            out(offset + index);
        }
        let mine = legal_moves(me, opp, n).count_ones().min(MOBILITY_CAP);
        let theirs = legal_moves(opp, me, n).count_ones().min(MOBILITY_CAP);
        out(self.mobility + mine);
        out(self.mobility + MOBILITY_CAP + 1 + theirs);
        out(self.bias);
    }
}

/// The weights the repository ships for an `n`×`n` board (`games/weights/`), read and checked
/// once: `None` for a size with none (the solver and the engine then use their hand-written
/// guesses).
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
    static EIGHT: OnceLock<Weights> = OnceLock::new();
    (n == 8).then(|| {
        EIGHT.get_or_init(|| {
            Weights::from_bytes(
                include_bytes!("../../weights/othello-8x8.gsw"),
                "othello-8x8-patterns-1",
                "games/weights/othello-8x8.gsw",
            )
            .expect("the shipped weights are checked by the tests")
        })
    })
}

/// The weights Othello's solver, engine and MCTS use on an `n`×`n` board: those given to
/// [`use_weights`] first, else the shipped ones ([`shipped_weights`]). `None`: the hand-written
/// guesses.
#[inline]
pub fn active_weights(n: u8) -> Option<&'static Weights> {
    chosen(n).get_or_init(|| shipped_weights(n).cloned()).as_ref()
}

/// Chooses the weights of `n`×`n` Othello for the rest of the process (`None`: the hand-written
/// evaluation, as before the learned one): a file from `gamesearch learn` checked against the
/// board ([`Weights::load`]). Once only, before any search of that size; an error after.
pub fn use_weights(n: u8, weights: Option<Weights>) -> Result<(), gamesearch::Error> {
    if let Some(w) = &weights {
        let board = Othello::new(usize::from(n))?;
        if w.feature_set() != board.feature_set() {
            return Err(gamesearch::Error::BadParameter(format!(
                "weights learned for `{}`, not `{}`",
                w.feature_set(),
                board.feature_set()
            )));
        }
        w.check_shape(&board, "the weights")?;
    }
    chosen(n).set(weights).map_err(|_| {
        gamesearch::Error::BadParameter(format!(
            "the {n}x{n} evaluation is chosen once, before any search"
        ))
    })
}

fn chosen(n: u8) -> &'static OnceLock<Option<Weights>> {
    static CHOSEN: [OnceLock<Option<Weights>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    &CHOSEN[usize::from(n / 2).clamp(2, 4) - 2]
}

/// The stage of a position with `empties` empty squares.
#[inline]
pub(crate) fn stage_of(empties: u32) -> usize {
    (empties.max(1) - 1).div_euclid(STAGE_WIDTH) as usize
}

/// The learned evaluation of the position with `me` to move against `opp`, the mover's view, in
/// `1/scale` discs ([`Weights::value`], without building the position).
#[inline]
pub(crate) fn learned_value(weights: &Weights, me: u64, opp: u64, n: u8) -> i32 {
    let empties = (board_mask(n) & !(me | opp)).count_ones();
    let table = weights.stage_table(stage_of(empties));
    let mut sum = 0i32;
    Layout::of(n).features(me, opp, n, &mut |i| sum += i32::from(table[i as usize]));
    sum
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
