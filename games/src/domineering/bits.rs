//! Domineering's bit sets: places, run counts and the board's reflections.

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

/// Vertical's places: empty cells with an empty cell below.
#[inline]
pub(crate) fn vertical_places(empty: u128, cols: u8) -> u128 {
    empty & (empty >> cols)
}

/// Horizontal's places: empty cells, not in the last column, with an empty cell to the right.
#[inline]
pub(crate) fn horizontal_places(empty: u128, m: &Masks) -> u128 {
    empty & (empty >> 1) & !m.last_col
}

/// How many disjoint vertical dominoes fit in `cells`: ⌊L/2⌋ summed over its vertical runs of
/// length L (a pair taken from the top of each run, a run at a time).
#[inline]
pub(crate) fn vertical_pairs(mut cells: u128, cols: u8) -> u32 {
    let mut n = 0;
    while cells != 0 {
        let top = cells & !(cells << cols);
        let paired = top & (cells >> cols);
        n += paired.count_ones();
        cells &= !(top | paired << cols);
    }
    n
}

/// How many disjoint horizontal dominoes fit in `cells`: ⌊L/2⌋ over its horizontal runs.
#[inline]
pub(crate) fn horizontal_pairs(mut cells: u128, m: &Masks) -> u32 {
    let mut n = 0;
    while cells != 0 {
        let left = cells & !((cells << 1) & !m.first_col);
        let paired = left & (cells >> 1) & !m.last_col;
        n += paired.count_ones();
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
