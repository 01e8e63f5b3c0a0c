//! Othello's bit operations: the legal squares and a move's flips, on any board size, without a
//! loop that runs as long as a line of discs.
//!
//! Every direction's line of the opponent's discs is found by a parallel-prefix fill
//! (Kogge–Stone): the run from a square grows by one, then by runs of two, then of two again —
//! four steps cover the longest line (six discs on 8x8) where a step-by-step walk takes up to
//! six, and nothing branches on the discs. The board size is a constant of each copy of the
//! code ([`legal_moves`] dispatches once), so the masks fold into the instructions.

/// The squares of the N×N board in the 8x8 layout (bit `8·row + column`).
pub(crate) const fn board_mask(n: u8) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            m |= 1 << (8 * r + c);
            c += 1;
        }
        r += 1;
    }
    m
}

/// The four lines through a square as shifts of the 8x8 layout: E–W, S–N, SE–NW, SW–NE; a shift
/// toward higher bits goes the first way, toward lower bits the second.
const SHIFTS: [u32; 4] = [1, 8, 9, 7];

/// For each line, the squares a shift toward higher bits may land on and those a shift toward
/// lower bits may: the board, less the column a shift across a row's end would wrap into.
const fn landing_masks(n: u8) -> [[u64; 2]; 4] {
    const COLUMN_A: u64 = 0x0101_0101_0101_0101;
    const COLUMN_H: u64 = COLUMN_A << 7;
    let board = board_mask(n);
    [
        [board & !COLUMN_A, board & !COLUMN_H], // E lands right, W left
        [board, board],                         // S, N: no column change
        [board & !COLUMN_A, board & !COLUMN_H], // SE right, NW left
        [board & !COLUMN_H, board & !COLUMN_A], // SW left, NE right
    ]
}

const MASKS: [[[u64; 2]; 4]; 3] = [landing_masks(4), landing_masks(6), landing_masks(8)];

/// The unbroken run of `o` squares from the neighbours of `x`'s squares, shifting up by `s`.
#[inline(always)]
fn run_up(x: u64, o: u64, s: u32) -> u64 {
    let mut f = o & (x << s);
    f |= o & (f << s);
    let pairs = o & (o << s);
    f |= pairs & (f << (2 * s));
    f |= pairs & (f << (2 * s));
    f
}

/// [`run_up`] shifting down.
#[inline(always)]
fn run_down(x: u64, o: u64, s: u32) -> u64 {
    let mut f = o & (x >> s);
    f |= o & (f >> s);
    let pairs = o & (o >> s);
    f |= pairs & (f >> (2 * s));
    f |= pairs & (f >> (2 * s));
    f
}

#[inline(always)]
fn moves_on<const N: u8>(me: u64, opp: u64) -> u64 {
    let masks = &MASKS[(N / 2 - 2) as usize];
    let mut moves = 0;
    for (&s, &[up, down]) in SHIFTS.iter().zip(masks) {
        moves |= (run_up(me, opp & up, s) << s) & up;
        moves |= (run_down(me, opp & down, s) >> s) & down;
    }
    moves & !(me | opp) & board_mask(N)
}

#[inline(always)]
fn flips_on<const N: u8>(me: u64, opp: u64, square: u8) -> u64 {
    let masks = &MASKS[(N / 2 - 2) as usize];
    let x = 1u64 << square;
    let mut flipped = 0;
    for (&s, &[up, down]) in SHIFTS.iter().zip(masks) {
        let f = run_up(x, opp & up, s);
        if (f << s) & up & me != 0 {
            flipped |= f;
        }
        let f = run_down(x, opp & down, s);
        if (f >> s) & down & me != 0 {
            flipped |= f;
        }
    }
    flipped
}

/// The squares where the side with discs `me` may move against `opp` on an N×N board.
#[inline]
pub(crate) fn legal_moves(me: u64, opp: u64, n: u8) -> u64 {
    match n {
        8 => moves_on::<8>(me, opp),
        6 => moves_on::<6>(me, opp),
        _ => moves_on::<4>(me, opp),
    }
}

/// The opponent's discs that a move on `square` flips.
#[inline]
pub(crate) fn flips(me: u64, opp: u64, square: u8, n: u8) -> u64 {
    match n {
        8 => flips_on::<8>(me, opp, square),
        6 => flips_on::<6>(me, opp, square),
        _ => flips_on::<4>(me, opp, square),
    }
}

/// The N×N board's four corners: squares no disc is ever flipped on.
#[inline]
pub(crate) fn corners(n: u8) -> u64 {
    let far = n - 1;
    1 | 1 << far | 1 << (8 * far) | 1 << (8 * far + far)
}

/// The N×N board's four quadrants (N/2 × N/2 squares each).
const fn quadrant_masks(n: u8) -> [u64; 4] {
    let half = n / 2;
    let mut q = [0u64; 4];
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            q[((r >= half) as usize) * 2 + (c >= half) as usize] |= 1 << (8 * r + c);
            c += 1;
        }
        r += 1;
    }
    q
}

const QUADRANTS: [[u64; 4]; 3] = [quadrant_masks(4), quadrant_masks(6), quadrant_masks(8)];

/// The N×N board's four quadrants, the regions parity counts empty squares in.
#[inline]
pub(crate) fn quadrants(n: u8) -> &'static [u64; 4] {
    &QUADRANTS[(n as usize / 2) - 2]
}

/// The squares next to a square of `x` (in any of the eight directions) on the N×N board.
#[inline]
pub(crate) fn neighbours(x: u64, n: u8) -> u64 {
    let masks = &MASKS[(n as usize / 2) - 2];
    let mut out = 0;
    for (&s, &[up, down]) in SHIFTS.iter().zip(masks) {
        out |= (x << s) & up | (x >> s) & down;
    }
    out
}
