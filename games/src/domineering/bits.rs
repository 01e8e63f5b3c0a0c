//! Domineering's bit sets: places, run counts and the board's reflections.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};
use std::sync::OnceLock;

/// The masks of one board shape.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Masks {
    /// Every cell of the board.
    pub board: u128,
    /// The cells of the last column (no Horizontal domino starts there).
    pub last_col: u128,
    /// The cells of the first column.
    pub first_col: u128,
    /// The cells of the first two columns.
    pub first_cols: u128,
    /// The cells of the last two columns.
    pub last_cols: u128,
}

const SHAPES: usize = 129 * 27;

/// The masks of the `rows`×`cols` board (made once for every shape, on first use).
#[inline]
pub(crate) fn masks(rows: u8, cols: u8) -> &'static Masks {
    static ALL: OnceLock<Box<[Masks]>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut v = vec![Masks::default(); SHAPES];
        for cols in 1..=26usize {
            for rows in 1..=128 / cols {
                let mut m = Masks::default();
                for r in 0..rows {
                    m.first_col |= 1u128 << (r * cols);
                    m.last_col |= 1u128 << (r * cols + cols - 1);
                    for c in 0..cols.min(2) {
                        m.first_cols |= 1u128 << (r * cols + c);
                        m.last_cols |= 1u128 << (r * cols + cols - 1 - c);
                    }
                    for c in 0..cols {
                        m.board |= 1u128 << (r * cols + c);
                    }
                }
                v[rows * 27 + cols] = m;
            }
        }
        v.into_boxed_slice()
    });
    &all[usize::from(rows) * 27 + usize::from(cols)]
}

/// A word of bits holding a board's cells: `u64` for boards of at most 64 cells, where every
/// operation is one instruction (a shift of a `u128` by a count known only at run time is
/// several), `u128` for the others. Cells shifted past the word's top are lost, as they are
/// past a 128-cell board's in a `u128`: every set these functions return is within the board.
pub(crate) trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// No cell.
    const ZERO: Self;
    /// The cells of `x` that fit the word.
    fn of(x: u128) -> Self;
    /// How many cells.
    fn ones(self) -> u32;
    /// The lowest cell alone.
    fn lowest(self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn of(x: u128) -> $t {
                x as $t
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> $t {
                self & self.wrapping_neg()
            }
        }
    };
}
word!(u64);
word!(u128);

/// A board's shape in one [`Word`]: its columns and masks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape<W> {
    /// The columns: the step from a cell to the one below.
    pub cols: u32,
    /// The cells of the last column.
    pub last_col: W,
    /// The cells of the first column.
    pub first_col: W,
    /// The cells of the first two columns.
    pub first_cols: W,
    /// The cells of the last two columns.
    pub last_cols: W,
}

impl<W: Word> Shape<W> {
    /// The shape of a `cols`-column board with masks `m`.
    #[inline]
    pub(crate) fn of(cols: u8, m: &Masks) -> Shape<W> {
        Shape {
            cols: u32::from(cols),
            last_col: W::of(m.last_col),
            first_col: W::of(m.first_col),
            first_cols: W::of(m.first_cols),
            last_cols: W::of(m.last_cols),
        }
    }
}

/// Vertical's places: empty cells with an empty cell below.
#[inline]
pub(crate) fn vertical_places<W: Word>(empty: W, cols: u32) -> W {
    empty & (empty >> cols)
}

/// Horizontal's places: empty cells, not in the last column, with an empty cell to the right.
#[inline]
pub(crate) fn horizontal_places<W: Word>(empty: W, last_col: W) -> W {
    empty & (empty >> 1) & !last_col
}

/// How many disjoint vertical dominoes fit in `cells`: ⌊L/2⌋ summed over its vertical runs of
/// length L (a pair taken from the top of each run, a run at a time).
#[inline]
pub(crate) fn vertical_pairs<W: Word>(mut cells: W, cols: u32) -> u32 {
    let mut n = 0;
    while cells != W::ZERO {
        let top = cells & !(cells << cols);
        let paired = top & (cells >> cols);
        n += paired.ones();
        cells &= !(top | paired << cols);
    }
    n
}

/// How many disjoint horizontal dominoes fit in `cells`: ⌊L/2⌋ over its horizontal runs.
#[inline]
pub(crate) fn horizontal_pairs<W: Word>(mut cells: W, s: &Shape<W>) -> u32 {
    let mut n = 0;
    while cells != W::ZERO {
        let left = cells & !((cells << 1) & !s.first_col);
        let paired = left & (cells >> 1) & !s.last_col;
        n += paired.ones();
        cells &= !(left | paired << 1);
    }
    n
}

/// The image of the cells `x` under one of the board's four reflections that keep a domino's
/// direction: 0 none, 1 left to right, 2 top to bottom, 3 both (the half turn).
pub(crate) fn reflect(x: u128, rows: u8, cols: u8, symmetry: u8) -> u128 {
    if symmetry == 0 {
        return x;
    }
    let (rows, cols) = (u32::from(rows), u32::from(cols));
    let row_mask = (1u128 << cols) - 1;
    let mut out = 0u128;
    for r in 0..rows {
        let mut row = (x >> (r * cols)) & row_mask;
        if row == 0 {
            continue;
        }
        if symmetry & 1 != 0 {
            row = row.reverse_bits() >> (128 - cols);
        }
        let to = if symmetry & 2 != 0 { rows - 1 - r } else { r };
        out |= row << (to * cols);
    }
    out
}
