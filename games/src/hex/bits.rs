//! Hex's bit sets: a board's masks, neighbours, chains grown by flood fill, the half turn,
//! dead cells and the shortest connection.

use std::sync::OnceLock;

/// The masks of one board size.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Masks {
    /// Every cell of the board.
    pub board: u128,
    /// The first row (Black's top edge) and the last (its bottom edge).
    pub top: u128,
    pub bottom: u128,
    /// The first column (White's left edge) and the last (its right edge).
    pub left: u128,
    pub right: u128,
    /// For each of the six directions (see [`neighbour_in`]): the cells whose neighbour that
    /// way is off the board on one of Black's edges, and those on one of White's (a corner's
    /// neighbour off two edges at once is on neither).
    pub black_edge: [u128; 6],
    pub white_edge: [u128; 6],
}

/// The masks of the `n`×`n` board (made once for every size, on first use).
#[inline]
pub(crate) fn masks(n: u8) -> &'static Masks {
    static ALL: OnceLock<[Masks; 12]> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut all = [Masks::default(); 12];
        for (n, m) in all.iter_mut().enumerate().skip(1) {
            let cell = |r: usize, c: usize| 1u128 << (r * n + c);
            for r in 0..n {
                for c in 0..n {
                    m.board |= cell(r, c);
                    for (k, (dr, dc)) in DIRECTIONS.into_iter().enumerate() {
                        let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                        let off_row = rr < 0 || rr >= n as i64;
                        let off_col = cc < 0 || cc >= n as i64;
                        if off_row && !off_col {
                            m.black_edge[k] |= cell(r, c);
                        } else if off_col && !off_row {
                            m.white_edge[k] |= cell(r, c);
                        }
                    }
                }
                m.top |= cell(0, r);
                m.bottom |= cell(n - 1, r);
                m.left |= cell(r, 0);
                m.right |= cell(r, n - 1);
            }
        }
        all
    });
    &all[usize::from(n)]
}

/// The six directions around a cell, in circular order, as (row, column) steps: up, up and
/// right, right, down, down and left, left. Each is next to the one before and after it.
pub(crate) const DIRECTIONS: [(i64, i64); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];

/// The cells of `x` moved one step in direction `k` (cells leaving the board dropped).
#[inline]
pub(crate) fn shift(x: u128, k: usize, n: u8, m: &Masks) -> u128 {
    let n = u32::from(n);
    let moved = match k {
        0 => x >> n,
        1 => (x >> (n - 1)) & !m.left,
        2 => (x << 1) & !m.left,
        3 => x << n,
        4 => (x << (n - 1)) & !m.right,
        _ => (x >> 1) & !m.right,
    };
    moved & m.board
}

/// The cells whose neighbour in direction `k` is in `x` (the inverse step).
#[inline]
pub(crate) fn neighbour_in(x: u128, k: usize, n: u8, m: &Masks) -> u128 {
    shift(x, (k + 3) % 6, n, m)
}

/// Every cell next to a cell of `x`.
#[inline]
pub(crate) fn neighbours(x: u128, n: u8, m: &Masks) -> u128 {
    let n32 = u32::from(n);
    let a = (x >> n32) | (x << n32);
    let b = ((x >> (n32 - 1)) | (x << 1)) & !m.left;
    let c = ((x << (n32 - 1)) | (x >> 1)) & !m.right;
    (a | b | c) & m.board
}

/// The cells of `within` connected to `seed` through `within` (`seed`'s cells outside it
/// dropped).
#[inline]
pub(crate) fn fill(seed: u128, within: u128, n: u8, m: &Masks) -> u128 {
    let mut g = seed & within;
    loop {
        let next = (g | neighbours(g, n, m)) & within;
        if next == g {
            return g;
        }
        g = next;
    }
}

/// The board turned half a turn (cell `i` to `n²−1−i`): each player's edges stay theirs.
#[inline]
pub(crate) fn half_turn(x: u128, n: u8) -> u128 {
    let cells = u32::from(n) * u32::from(n);
    x.reverse_bits() >> (128 - cells)
}

/// The board reflected in its long diagonal (cell (r, c) to (c, r)): Black's edges become
/// White's.
pub(crate) fn transpose(x: u128, n: u8) -> u128 {
    let n = u32::from(n);
    let mut out = 0;
    let mut rest = x;
    while rest != 0 {
        let i = rest.trailing_zeros();
        rest &= rest - 1;
        out |= 1u128 << ((i % n) * n + i / n);
    }
    out
}

/// The empty cells that are dead: four neighbours in a row around the cell (an edge counting
/// as its owner's stone) hold one player's stones. Such a cell never matters to the outcome: a
/// chain of that player through it goes round it through the four, and the other player's
/// can only enter and leave it through the two remaining neighbours, which touch.
#[inline]
pub(crate) fn dead_cells(black: u128, white: u128, n: u8, m: &Masks) -> u128 {
    let empty = m.board & !(black | white);
    let mut by_black = [0u128; 6];
    let mut by_white = [0u128; 6];
    for k in 0..6 {
        by_black[k] = neighbour_in(black, k, n, m) | m.black_edge[k];
        by_white[k] = neighbour_in(white, k, n, m) | m.white_edge[k];
    }
    let mut dead = 0;
    for k in 0..6 {
        let (a, b, c, d) = (k, (k + 1) % 6, (k + 2) % 6, (k + 3) % 6);
        dead |= by_black[a] & by_black[b] & by_black[c] & by_black[d];
        dead |= by_white[a] & by_white[b] & by_white[c] & by_white[d];
    }
    dead & empty
}

/// For each of the six directions `k`: the cells whose neighbour that way is one of the
/// player's stones (`own`) or off the board on one of its edges (`edge`, a mask's
/// `black_edge` or `white_edge`).
#[inline]
fn held_around(own: u128, edge: &[u128; 6], n: u8, m: &Masks) -> [u128; 6] {
    let mut by = [0u128; 6];
    for (k, b) in by.iter_mut().enumerate() {
        *b = neighbour_in(own, k, n, m) | edge[k];
    }
    by
}

/// The cells for which, with one more of the player's stones on the neighbour in direction
/// `k` (`by` from [`held_around`]), four neighbours in a row would be the player's: the cell
/// would then be dead ([`dead_cells`]).
#[inline]
fn dead_with(by: &[u128; 6], k: usize) -> u128 {
    let mut dead = 0;
    // The four windows of four neighbours in a row that hold direction `k`.
    for start in [k + 3, k + 4, k + 5, k] {
        let mut all = u128::MAX;
        for j in (start..start + 4).map(|j| j % 6).filter(|&j| j != k) {
            all &= by[j];
        }
        dead |= all;
    }
    dead
}

/// Inferior-cell fill-in (Henderson, Arneson & Hayward 2009): the position's stones with
/// every *dead* empty cell ([`dead_cells`]) and every *captured* pair of empty cells filled,
/// again and again until none is left. A dead cell's colour changes no outcome; it is filled
/// with the colour of the four stones that kill it. Two neighbouring empty cells `a` and `b`
/// are captured by a player when its stone on either would leave the other dead: whichever
/// the opponent takes, the player takes the other and the opponent's stone is dead, so the
/// player may as well own both. Each rule follows from the dead-cell rule; a pair is filled
/// only when it shares no cell with another pair filled in the same sweep (what makes a
/// pair captured is stones, which filling other cells leaves as they are). The filled
/// position has the original's value, for whoever is to move, and keeps it after any move
/// outside the filled cells (the patterns are made of stones and edges only).
pub(crate) fn fill_in(mut black: u128, mut white: u128, n: u8, m: &Masks) -> (u128, u128) {
    loop {
        let empty = m.board & !(black | white);
        let by_black = held_around(black, &m.black_edge, n, m);
        let by_white = held_around(white, &m.white_edge, n, m);
        let mut dead_black = 0;
        let mut dead_white = 0;
        for k in 0..6 {
            let (a, b, c, d) = (k, (k + 1) % 6, (k + 2) % 6, (k + 3) % 6);
            dead_black |= by_black[a] & by_black[b] & by_black[c] & by_black[d];
            dead_white |= by_white[a] & by_white[b] & by_white[c] & by_white[d];
        }
        let (dead_black, dead_white) = (dead_black & empty, dead_white & empty & !dead_black);
        if dead_black | dead_white != 0 {
            black |= dead_black;
            white |= dead_white;
            continue;
        }
        let mut taken = 0u128;
        for (by, own) in [(&by_black, &mut black), (&by_white, &mut white)] {
            // Each pair once: `b` the neighbour of `a` in direction 0, 1 or 2.
            for k in 0..3 {
                let back = k + 3;
                // `a` dead with the player's stone on `b`, and `b` dead with it on `a`
                // (read at `b`, then moved back onto `a`).
                let pairs = empty
                    & shift(empty, back, n, m)
                    & dead_with(by, k)
                    & shift(dead_with(by, back), back, n, m);
                let mut rest = pairs;
                while rest != 0 {
                    let a = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    let pair = a | shift(a, k, n, m);
                    if pair & taken == 0 {
                        taken |= pair;
                        *own |= pair;
                    }
                }
            }
        }
        if taken == 0 {
            return (black, white);
        }
    }
}

/// The fewest empty cells a player must still fill to join its two edges (`from`, `to`:
/// its edges' rows or columns) with `own` stones and `empty` cells; `None` when it no
/// longer can.
pub(crate) fn distance(
    own: u128,
    empty: u128,
    from: u128,
    to: u128,
    n: u8,
    m: &Masks,
) -> Option<u32> {
    let mut reached = fill(from & own, own, n, m);
    let mut cost = 0;
    loop {
        if reached & to != 0 {
            return Some(cost);
        }
        let step = (neighbours(reached, n, m) | from) & empty & !reached;
        if step == 0 {
            return None;
        }
        cost += 1;
        reached = fill(reached | step, own | reached | step, n, m);
    }
}
