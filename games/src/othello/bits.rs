//! Othello's bit operations: the legal squares, a move's flips and the stable discs, on any
//! board size, without a loop that runs as long as a line of discs.
//!
//! The legal squares and the full lines are found by parallel-prefix fills (Kogge–Stone): the
//! run from a square grows by one, then by runs of two, then of two again — four steps cover the
//! longest line (six discs on 8x8) where a step-by-step walk takes up to six, and nothing
//! branches on the discs. The board size is a constant of each copy of the code
//! ([`legal_moves`] dispatches once), so the masks fold into the instructions. One move's flips
//! come from its square's eight rays instead (a table): the nearest square of a ray that is not
//! the opponent's is one bit operation away (FFO #42, one thread, the same 162.8 M nodes: 8.6 s
//! with the fills, 6.6-6.7 s with the rays, 6.3-6.4 s with the neighbour test first).

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

/// From each square of the 8x8 layout, the squares of each of its eight rays, nearest first:
/// four toward higher bits (E, N, NE, NW in bit order: +1, +8, +9, +7), then four toward lower
/// bits (−1, −8, −9, −7). A smaller board lies in the same layout: the squares off it are never
/// anyone's, so a ray over them finds no disc to close a line with.
const fn rays() -> [[u64; 8]; 64] {
    const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    let mut out = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (square as i32 / 8 + dr, square as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                out[square][d] |= 1 << (8 * r + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        square += 1;
    }
    out
}

static RAYS: [[u64; 8]; 64] = rays();

/// Each square's neighbours in the 8x8 layout: the first square of each ray.
const fn adjacent() -> [u64; 64] {
    let (rays, mut out) = (rays(), [0u64; 64]);
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            let ray = rays[square][d];
            // The nearest square: the lowest bit of a ray toward higher bits, else the highest.
            out[square] |= if d < 4 {
                ray & ray.wrapping_neg()
            } else if ray == 0 {
                0
            } else {
                1 << (63 - ray.leading_zeros())
            };
            d += 1;
        }
        square += 1;
    }
    out
}

static ADJACENT: [u64; 64] = adjacent();

/// The opponent's discs that a move on `square` flips: along each ray, the first square that is
/// not the opponent's (the nearest set bit of the ray less the opponent's discs: the lowest on
/// a ray toward higher bits, the highest toward lower bits) closes a line when it is the
/// mover's, and the squares before it flip. Eight rays, no loop along a line and no branch.
/// (The same on every board size: the board is not an argument.)
#[inline(always)]
pub(crate) fn flips(me: u64, opp: u64, square: u8) -> u64 {
    // (No neighbour of the opponent's: nothing to flip. Near the end of the game most empty
    // squares tried are no move, and this answers for them.)
    if ADJACENT[square as usize] & opp == 0 {
        return 0;
    }
    let rays = &RAYS[square as usize];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let open = !opp & ray;
        let first = open & open.wrapping_neg();
        let closes = 0u64.wrapping_sub(u64::from(first & me != 0));
        flipped |= first.wrapping_sub(1) & ray & closes;
    }
    for &ray in &rays[4..] {
        // (`| 1`: a ray of the opponent's discs only stops at bit 0, which is then no square of
        // the ray that is the mover's, or of the opponent's.)
        let open = (!opp & ray) | 1;
        let first = 1u64 << (63 - open.leading_zeros());
        let closes = 0u64.wrapping_sub(u64::from(first & me & ray != 0));
        flipped |= ray & !((first << 1).wrapping_sub(1)) & closes;
    }
    flipped
}

/// For each square's place `p` on a line of eight (0-7) and the mover's discs on that line as a
/// byte (bit `i`: place `i`), how many discs a move on `p` flips along the line when every other
/// square of it is the opponent's or off the board: each way, the run of squares up to the
/// nearest of the mover's, if there is one.
const fn line_flip_counts() -> [[u8; 256]; 8] {
    let mut out = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            let mut q = p + 1;
            while q < 8 && line >> q & 1 == 0 {
                q += 1;
            }
            if q < 8 {
                count += q - p - 1;
            }
            let mut q = p as i32 - 1;
            while q >= 0 && line >> q & 1 == 0 {
                q -= 1;
            }
            if q >= 0 {
                count += p - q as usize - 1;
            }
            out[p][line] = count as u8;
            line += 1;
        }
        p += 1;
    }
    out
}

static LINE_FLIP_COUNTS: [[u8; 256]; 8] = line_flip_counts();

/// Each square's two diagonals in the 8x8 layout, the square included: the SE–NW one (±9) and
/// the SW–NE one (±7). Each holds at most one square of a row and of a column.
const fn diagonals() -> [[u64; 2]; 64] {
    let (rays, mut out) = (rays(), [[0u64; 2]; 64]);
    let mut square = 0;
    while square < 64 {
        out[square] = [
            rays[square][2] | rays[square][6] | 1 << square,
            rays[square][3] | rays[square][7] | 1 << square,
        ];
        square += 1;
    }
    out
}

static DIAGONALS: [[u64; 2]; 64] = diagonals();

/// How many discs the mover (`me`) flips by playing `square` when it is the board's last empty
/// square: the four lines through it read as bytes (a row as it is, a column and the diagonals
/// gathered by one multiplication each, in the order of rows or columns) and looked up in
/// [`LINE_FLIP_COUNTS`]. Every other square being the opponent's or off the board, the
/// opponent's discs are not needed, and nothing is played (the last move of a game needs only
/// its count). Any board size: a run that leaves the board finds none of the mover's discs.
#[inline(always)]
pub(crate) fn last_flip_count(me: u64, square: u8) -> u32 {
    const COLUMN_A: u64 = 0x0101_0101_0101_0101;
    let (row, column) = ((square >> 3) as usize, (square & 7) as usize);
    let [down, up] = DIAGONALS[square as usize];
    // (A column's bit of row r lands on bit 56 + r; a diagonal's square of column c, alone in
    // its column and row, on bit 56 + c: no two products meet, so nothing carries.)
    let row_byte = (me >> (8 * row)) as u8 as usize;
    let column_byte =
        (((me >> column) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let down_byte = ((me & down).wrapping_mul(COLUMN_A) >> 56) as usize;
    let up_byte = ((me & up).wrapping_mul(COLUMN_A) >> 56) as usize;
    u32::from(LINE_FLIP_COUNTS[column][row_byte])
        + u32::from(LINE_FLIP_COUNTS[row][column_byte])
        + u32::from(LINE_FLIP_COUNTS[column][down_byte])
        + u32::from(LINE_FLIP_COUNTS[column][up_byte])
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

/// `set` spread along one line direction (shift `s`, landing masks `up` and `down`) as far as
/// the board goes both ways: every square of a line that holds a square of `set`.
#[inline(always)]
fn spread_line(set: u64, s: u32, up: u64, down: u64) -> u64 {
    let (up2, down2) = (up & (up << s), down & (down >> s));
    let (up4, down4) = (up2 & (up2 << (2 * s)), down2 & (down2 >> (2 * s)));
    let mut u = set | (set << s) & up;
    u |= (u << (2 * s)) & up2;
    u |= (u << (4 * s)) & up4;
    let mut d = set | (set >> s) & down;
    d |= (d >> (2 * s)) & down2;
    d |= (d >> (4 * s)) & down4;
    u | d
}

#[inline(always)]
fn stable_on<const N: u8>(me: u64, opp: u64) -> (u64, u64) {
    let masks = &MASKS[(N / 2 - 2) as usize];
    let board = board_mask(N);
    let empty = board & !(me | opp);
    // Per line direction: the squares whose line holds no empty square (no move will ever be
    // made on it, so nothing on it flips along it), and those with the board's edge on one
    // side.
    let mut settled = [0u64; 4];
    for (i, (&s, &[up, down])) in SHIFTS.iter().zip(masks).enumerate() {
        let open = spread_line(empty, s, up, down);
        let walled = board & !(((board & up) >> s) & ((board & down) << s));
        settled[i] = (board & !open) | walled;
    }
    // A disc is stable when along each of the four lines its line is full, the edge is next
    // to it, or a stable disc of its colour is: no line of flips can then run through it. The
    // stable discs grow from the walls to the fixed point.
    let grow = |own: u64| {
        let mut stable = 0u64;
        loop {
            let mut next = own;
            for (i, (&s, &[up, down])) in SHIFTS.iter().zip(masks).enumerate() {
                next &= settled[i] | ((stable & up) >> s) | ((stable & down) << s);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    };
    (grow(me), grow(opp))
}

/// The discs of each side (`me`, then `opp`) that no move can ever flip, or a subset of them:
/// along each of its four lines, a stable disc has a full line, the board's edge, or a stable
/// disc of its own colour next to it. Full lines are found by spreading the empty squares
/// along each line (parallel-prefix, as the moves).
#[inline]
pub(crate) fn stable_discs(me: u64, opp: u64, n: u8) -> (u64, u64) {
    match n {
        8 => stable_on::<8>(me, opp),
        6 => stable_on::<6>(me, opp),
        _ => stable_on::<4>(me, opp),
    }
}

/// The board `b` (N×N in the 8x8 layout) with its rows in reverse order.
#[inline]
fn flip_rows(b: u64, n: u8) -> u64 {
    b.swap_bytes() >> (8 * (8 - u32::from(n)))
}

/// The board `b` (N×N in the 8x8 layout) with its columns in reverse order.
#[inline]
fn flip_columns(b: u64, n: u8) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    let b = ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4);
    b >> (8 - u32::from(n))
}

/// The board `b` reflected in the a1–h8 diagonal (row r, column c to row c, column r): three
/// exchanges of bit blocks, the N×N corner staying in place.
#[inline]
pub(crate) fn transpose(mut b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The board `b` under the square's symmetry `s` (0-7): the columns reversed if bit 0 is set,
/// then the rows if bit 1 is, then reflected in the a1 diagonal if bit 2 is. 0 is the board as
/// it is.
#[inline]
pub(crate) fn symmetric(mut b: u64, s: u8, n: u8) -> u64 {
    if s & 1 != 0 {
        b = flip_columns(b, n);
    }
    if s & 2 != 0 {
        b = flip_rows(b, n);
    }
    if s & 4 != 0 {
        b = transpose(b);
    }
    b
}

/// The inverse of [`symmetric`]: the board that symmetry `s` maps onto `b`.
#[inline]
pub(crate) fn unsymmetric(mut b: u64, s: u8, n: u8) -> u64 {
    if s & 4 != 0 {
        b = transpose(b);
    }
    if s & 2 != 0 {
        b = flip_rows(b, n);
    }
    if s & 1 != 0 {
        b = flip_columns(b, n);
    }
    b
}

/// The N×N board's four corners: squares no disc is ever flipped on.
#[inline]
pub(crate) fn corners(n: u8) -> u64 {
    let far = n - 1;
    1 | 1 << far | 1 << (8 * far) | 1 << (8 * far + far)
}

/// For each of the N×N board's four corners: the corner, its X-square (the diagonal neighbour)
/// and its two C-squares (the neighbours on the edges).
const fn corner_neighbourhood_masks(n: u8) -> [(u64, u64, u64); 4] {
    let far = n as u32 - 1;
    let mut out = [(0, 0, 0); 4];
    let mut i = 0;
    while i < 4 {
        // The corner's row and column, and the step from them towards the centre.
        let (r, c) = (
            if i >= 2 { far } else { 0 },
            if i % 2 == 1 { far } else { 0 },
        );
        let (r1, c1) = (
            if i >= 2 { far - 1 } else { 1 },
            if i % 2 == 1 { far - 1 } else { 1 },
        );
        out[i] = (
            1 << (8 * r + c),
            1 << (8 * r1 + c1),
            1 << (8 * r + c1) | 1 << (8 * r1 + c),
        );
        i += 1;
    }
    out
}

const CORNER_NEIGHBOURHOODS: [[(u64, u64, u64); 4]; 3] = [
    corner_neighbourhood_masks(4),
    corner_neighbourhood_masks(6),
    corner_neighbourhood_masks(8),
];

/// The N×N board's corners with their X-squares and C-squares (`(corner, x, c)`, a set each).
#[inline]
pub(crate) fn corner_neighbourhoods(n: u8) -> &'static [(u64, u64, u64); 4] {
    &CORNER_NEIGHBOURHOODS[(n as usize / 2) - 2]
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

#[cfg(test)]
mod tests {
    use super::{board_mask, corner_neighbourhoods, flips, last_flip_count};

    /// The count of the last move's flips against the flips themselves, counted (the rays'
    /// code, written apart), on full boards of every size with one square left, both sides.
    #[test]
    fn last_flip_count_is_the_number_of_flips() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in [4u8, 6, 8] {
            let board = board_mask(n);
            for _ in 0..20_000 {
                let mut squares = board;
                let skip = next() % u64::from(board.count_ones());
                for _ in 0..skip {
                    squares &= squares - 1;
                }
                let square = squares.trailing_zeros() as u8;
                // (Sparse and dense boards both: a random set, or its intersection with another.)
                let r = next();
                let me = board & !(1 << square) & if r & 1 == 0 { r } else { r & next() };
                let opp = board & !(1 << square) & !me;
                assert_eq!(
                    last_flip_count(me, square),
                    flips(me, opp, square).count_ones(),
                    "{n}x{n}, square {square}, me {me:#x}"
                );
                assert_eq!(
                    last_flip_count(opp, square),
                    flips(opp, me, square).count_ones()
                );
            }
        }
    }

    /// A set of squares from their names (`b2`: column b, row 2; the layout is 8 columns wide).
    fn squares(names: &[&str]) -> u64 {
        names.iter().fold(0, |set, name| {
            let b = name.as_bytes();
            set | 1 << (8 * (b[1] - b'1') + (b[0] - b'a'))
        })
    }

    #[test]
    fn corners_x_and_c_squares_by_name() {
        let expected = |n: u8| -> Vec<(u64, u64, u64)> {
            let (f, g) = ((b'a' + n - 1) as char, (b'a' + n - 2) as char);
            let (last, before) = (n.to_string(), (n - 1).to_string());
            let name = |c: char, r: &str| format!("{c}{r}");
            [
                ('a', "1", 'b', "2"),
                (f, "1", g, "2"),
                ('a', &*last, 'b', &*before),
                (f, &*last, g, &*before),
            ]
            .iter()
            .map(|&(c, r, c1, r1)| {
                (
                    squares(&[&name(c, r)]),
                    squares(&[&name(c1, r1)]),
                    squares(&[&name(c1, r), &name(c, r1)]),
                )
            })
            .collect()
        };
        for n in [4, 6, 8] {
            assert_eq!(corner_neighbourhoods(n).to_vec(), expected(n), "{n}x{n}");
        }
        // 8x8 written out: a1's X-square is b2 and its C-squares b1 and a2; h8's g7, g8, h7.
        assert_eq!(
            corner_neighbourhoods(8)[0],
            (squares(&["a1"]), squares(&["b2"]), squares(&["b1", "a2"]))
        );
        assert_eq!(
            corner_neighbourhoods(8)[3],
            (squares(&["h8"]), squares(&["g7"]), squares(&["g8", "h7"]))
        );
    }
}
