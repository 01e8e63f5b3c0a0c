//! What the solver knows of Domineering beyond the rules: Bullock's (2002) race — the moves a
//! side surely makes (safe moves, protective areas, vulnerable moves) against the most the
//! opponent can still make — as quiet and static bounds; safe moves dropped while another move
//! is left; a move order by what a move does to the counts, then from the board's edges
//! inwards; the board's reflections in the key.

use gamesearch::{Game, PositionKey, Score, SolverKnowledge};

use super::bits::{
    horizontal_pairs, horizontal_places, reflect, vertical_pairs, vertical_places, Shape, Word,
};
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
    /// Disjoint *protective areas* (Bullock 2002): 2×2 blocks of empty cells closed (covered
    /// or off the board) on one side at least across the side's direction, none beside
    /// another, so that no opponent's domino touches two. A domino of the side in the column
    /// (Vertical) or row (Horizontal) beside the open side leaves the other one a safe move:
    /// two moves for the side, and two fewer for the opponent (a cell off each of its runs
    /// there), unless the opponent enters the block first.
    pub protective: u32,
    /// Disjoint *vulnerable* moves (Bullock 2002), beside the safe moves and the protective
    /// areas: the side's dominoes that the opponent could spoil, each by one domino of its own
    /// that spoils no other (`[0]`), or by one that may spoil two of them (`[1]`).
    pub vulnerable: [u32; 2],
    /// How many vulnerable moves of the second kind lie beside a protective area, so that the
    /// domino that spoils the area may spoil one of them too.
    pub beside_areas: u32,
    /// How many of each kind of vulnerable move have both cells open to the opponent (the
    /// others have one): what the side takes from the opponent's cells by making them.
    pub open_vulnerable: [u32; 2],
    /// The most dominoes the side could still place were the opponent never to move: ⌊L/2⌋
    /// over each run of L empty cells in its direction. The opponent's moves only take cells
    /// away, so the side makes at most this many more moves.
    pub most: u32,
    /// How many empty cells some domino of the side could cover: the side's moves cover at
    /// most these, two a move.
    pub open: u32,
    /// Whether every place of the side is safe: then it makes exactly `most` moves whatever
    /// anyone does, and none of them touches a cell the opponent could cover.
    pub only_safe: bool,
}

/// What a side surely gets from its protective areas and vulnerable moves in the race: the
/// moves it surely makes, the areas it keeps, and how many of the opponent's open cells its
/// moves surely cover.
#[derive(Clone, Copy, Debug)]
struct Race {
    moves: u32,
    areas: u32,
    cells: u32,
}

impl MoveCounts {
    /// What the side surely gets, with `first` an item it takes before the opponent moves
    /// (0 none, 1 an area, 2 or 3 a vulnerable move of either kind). It answers every
    /// opponent's domino that spoils an area or vulnerable moves of one kind by taking
    /// another of that kind (an open vulnerable move first) and otherwise takes any: of the
    /// areas it keeps half, of the vulnerable moves spoilt one at a time half, of the others
    /// a third, rounded down, and of the open ones among them as many (Bullock's counting).
    /// Each area kept is two moves and four open cells, each vulnerable move one move and
    /// one open cell, two if it is open.
    fn race(&self, first: u8) -> Race {
        let (mut areas, mut vulnerable, mut open) =
            (self.protective, self.vulnerable, self.open_vulnerable);
        // The item taken first: (areas, vulnerable moves, open cells).
        let mut bonus = (0, 0, 0);
        match first {
            1 => {
                areas -= 1;
                bonus = (1, 0, 0);
            }
            2 | 3 => {
                let k = usize::from(first - 2);
                vulnerable[k] -= 1;
                bonus = (0, 1, 1);
                if open[k] > 0 {
                    open[k] -= 1;
                    bonus.2 = 2;
                }
            }
            _ => {}
        }
        // An odd area out is two more vulnerable moves of the second kind, both cells open:
        // one opponent's domino spoils both, and taking one gives the side the other too.
        let odd = areas % 2;
        vulnerable[1] += 2 * odd;
        open[1] += 2 * odd;
        let areas = areas / 2 + bonus.0;
        // An opponent's domino that spoils an area from outside may spoil a vulnerable move
        // beside it too, but it leaves the area's other column (row) a vulnerable move of the
        // first kind: the race keeps its count (checked played out, as below); only the open
        // moves kept may be fewer by one such domino an area the opponent spoils.
        let lost = self.beside_areas.min(self.protective - areas);
        let (single, double) = (vulnerable[0], vulnerable[1]);
        // Half of the first kind and a third of the second, and one more when both leave some
        // over: one opponent's domino cannot spoil what is left of both (checked against the
        // race played out, both pools up to 30 and 40).
        let kept =
            single / 2 + double / 3 + u32::from(single % 2 == 1 && double % 3 != 0) + bonus.1;
        let kept_open = open[0] / 2 + open[1].saturating_sub(lost) / 3;
        Race {
            moves: self.safe + 2 * areas + kept,
            areas,
            cells: 4 * areas + kept - bonus.1 + kept_open + bonus.2,
        }
    }

    /// Whether the side wins the race against `opponent` when it moves first (`first`) or
    /// second: its sure moves outnumber (moving first) or match (second) the most the
    /// opponent can make, which is at most its runs' count less two an area the side keeps,
    /// and at most half its open cells the side's moves leave it.
    fn outlasts(&self, opponent: &MoveCounts, first: bool) -> bool {
        let wins = |r: Race| {
            let theirs = (opponent.most.saturating_sub(2 * r.areas))
                .min(opponent.open.saturating_sub(r.cells) / 2);
            if first {
                r.moves > theirs
            } else {
                r.moves >= theirs
            }
        };
        let plain = self.race(0);
        if wins(plain) {
            return true;
        }
        // Taking an item first gains at most two moves, one area and six cells over the plain
        // race (`taking_first_gains_little`): when even that loses, every way does.
        let best = Race {
            moves: plain.moves + 2,
            areas: plain.areas + 1,
            cells: plain.cells + 6,
        };
        first
            && wins(best)
            && ((self.protective > 0 && wins(self.race(1)))
                || (self.vulnerable[0] > 0 && wins(self.race(2)))
                || (self.vulnerable[1] > 0 && wins(self.race(3))))
    }
}

/// Takes blocks greedily, lowest first, from `candidates` (a block's top-left cell), none
/// sharing a cell with one taken or lying beside one across the side's direction (so that no
/// domino of the opponent touches two): the blocks taken. `near` gives the later blocks that
/// would, from a block's bit: for Vertical up to two columns right, or a row down and up to
/// two columns either way; for Horizontal a column right, or up to two rows down and a
/// column either way.
#[inline]
fn pack_blocks<W: Word>(mut candidates: W, near: impl Fn(W) -> W) -> W {
    let mut taken = W::ZERO;
    while candidates != W::ZERO {
        let b = candidates.lowest();
        taken |= b;
        candidates &= !(b | near(b));
    }
    taken
}

/// Disjoint dominoes in `cells`, taken greedily from the start of each run along `step` (a
/// row down for Vertical, a column right for Horizontal): their first cells. `breaks` are the
/// cells a run cannot continue into (Horizontal: the first column).
#[inline]
fn pack_dominoes<W: Word>(mut cells: W, step: u32, breaks: W) -> W {
    let mut firsts = W::ZERO;
    while cells != W::ZERO {
        let start = cells & !((cells << step) & !breaks);
        let paired = start & (cells >> step) & !(breaks >> step);
        firsts |= paired;
        cells &= !(start | paired << step);
    }
    firsts
}

/// Each side's places, the cells its dominoes could cover, and its safe places, of one set of
/// empty cells: what the counts, the move order and the dropping of safe moves all start from.
#[derive(Clone, Copy)]
struct Places<W> {
    vertical: W,
    horizontal: W,
    v_cover: W,
    h_cover: W,
    v_safe: W,
    h_safe: W,
}

/// The [`Places`] of the empty cells `empty` on a board of shape `s`.
#[inline]
fn places<W: Word>(empty: W, s: &Shape<W>) -> Places<W> {
    let cols = s.cols;
    let vertical = vertical_places(empty, cols);
    let horizontal = horizontal_places(empty, s.last_col);
    // Cells some domino of the side could cover.
    let v_cover = vertical | vertical << cols;
    let h_cover = horizontal | horizontal << 1;
    Places {
        vertical,
        horizontal,
        v_cover,
        h_cover,
        v_safe: vertical & !h_cover & !(h_cover >> cols),
        h_safe: horizontal & !v_cover & !(v_cover >> 1),
    }
}

/// Vertical's [`MoveCounts`] and Horizontal's, of the empty cells `empty` on a board of shape
/// `s` ([`Domineering::move_counts`]).
#[inline]
fn counts<W: Word>(empty: W, s: &Shape<W>) -> (MoveCounts, MoveCounts) {
    let c = s.cols;
    let Places {
        vertical: vp,
        horizontal: hp,
        v_cover,
        h_cover,
        v_safe,
        h_safe,
    } = places(empty, s);
    let v_safe_cells = v_safe | v_safe << c;
    let h_safe_cells = h_safe | h_safe << 1;
    // 2x2 blocks of empty cells, by their top-left cell.
    let blocks = hp & hp >> c;
    // Cells with an empty neighbour left, right, above, below.
    let left = (empty << 1) & !s.first_col;
    let right = (empty >> 1) & !s.last_col;
    let above = empty << c;
    let below = empty >> c;
    let block_cells = |b: W| b | b << 1 | b << c | b << (c + 1);
    // Protective areas: closed on one side at least. Vertical plays the column beside the
    // open side (either, if both are closed) and the other column is safe.
    let v_areas = pack_blocks(
        blocks & ((!left & !(left >> c)) | (!(right >> 1) & !(right >> (c + 1)))),
        |b| {
            // A shift that wraps into the next row lands in columns a real one cannot.
            (b << 1 | b << (c + 1)) & !s.first_col
                | (b << 2 | b << (c + 2)) & !s.first_cols
                | b << (c - 1) & !s.last_col
                | b << c
                | b << c.saturating_sub(2) & !s.last_cols
        },
    );
    let h_areas = pack_blocks(
        blocks & ((!above & !(above >> 1)) | (!(below >> c) & !(below >> (c + 1)))),
        |b| {
            (b << 1 | b << (c + 1) | b << (2 * c + 1)) & !s.first_col
                | (b << (c - 1) | b << (2 * c - 1)) & !s.last_col
                | b << c
                | b << (2 * c)
        },
    );
    let (v_area_cells, h_area_cells) = (block_cells(v_areas), block_cells(h_areas));
    // Vulnerable moves: the side's dominoes in what its safe moves and areas leave. One is
    // of the second kind when a cell of it lies beside one of another, or beside an
    // area's open side, across the side's direction (an opponent's domino can cover both).
    let v_beside = (v_area_cells << 1 & !s.first_col) | (v_area_cells >> 1 & !s.last_col);
    // A run of an odd number of safe cells leaves its last cell to a vulnerable move.
    let v_safe_pairs = pack_dominoes(v_safe_cells, c, W::ZERO);
    let v_safe_used = v_safe_pairs | v_safe_pairs << c;
    let v_vuln = pack_dominoes(v_cover & !v_safe_used & !v_area_cells, c, W::ZERO);
    let v_vuln_cells = v_vuln | v_vuln << c;
    let v_twice =
        v_vuln_cells & ((v_vuln_cells << 1 & !s.first_col) | (v_vuln_cells >> 1 & !s.last_col));
    let v_by_area = v_vuln & (v_beside | v_beside >> c);
    let v_double = v_vuln & (v_twice | v_twice >> c) | v_by_area;
    let v_open = v_vuln & h_cover & (h_cover >> c);
    let h_beside = h_area_cells << c | h_area_cells >> c;
    let h_safe_pairs = pack_dominoes(h_safe_cells, 1, s.first_col);
    let h_safe_used = h_safe_pairs | h_safe_pairs << 1;
    let h_vuln = pack_dominoes(h_cover & !h_safe_used & !h_area_cells, 1, s.first_col);
    let h_vuln_cells = h_vuln | h_vuln << 1;
    let h_twice = h_vuln_cells & ((h_vuln_cells << c) | (h_vuln_cells >> c));
    let h_by_area = h_vuln & (h_beside | h_beside >> 1);
    let h_double = h_vuln & (h_twice | h_twice >> 1) | h_by_area;
    let h_open = h_vuln & v_cover & (v_cover >> 1);
    let v = MoveCounts {
        safe: v_safe_pairs.ones(),
        protective: v_areas.ones(),
        vulnerable: [(v_vuln & !v_double).ones(), v_double.ones()],
        beside_areas: v_by_area.ones(),
        open_vulnerable: [(v_open & !v_double).ones(), (v_open & v_double).ones()],
        most: vertical_pairs(v_cover, c),
        open: v_cover.ones(),
        only_safe: vp & !v_safe == W::ZERO,
    };
    let h = MoveCounts {
        safe: h_safe_pairs.ones(),
        protective: h_areas.ones(),
        vulnerable: [(h_vuln & !h_double).ones(), h_double.ones()],
        beside_areas: h_by_area.ones(),
        open_vulnerable: [(h_open & !h_double).ones(), (h_open & h_double).ones()],
        most: horizontal_pairs(h_cover, s),
        open: h_cover.ones(),
        only_safe: hp & !h_safe == W::ZERO,
    };
    (v, h)
}

/// The counts the move order reads, of the empty cells `empty` on a board of shape `s`:
/// Vertical's safe moves and most, then Horizontal's (as [`MoveCounts`] has them).
#[inline]
fn order_counts<W: Word>(empty: W, s: &Shape<W>) -> [u32; 4] {
    let p = places(empty, s);
    [
        vertical_pairs(p.v_safe | p.v_safe << s.cols, s.cols),
        vertical_pairs(p.v_cover, s.cols),
        horizontal_pairs(p.h_safe | p.h_safe << 1, s),
        horizontal_pairs(p.h_cover, s),
    ]
}

impl Domineering {
    /// Whether the board fits a `u64` (at most 64 cells), which the counts then use.
    #[inline]
    fn fits_u64(&self) -> bool {
        u32::from(self.rows) * u32::from(self.cols) <= 64
    }

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
        if self.fits_u64() {
            counts(self.empty as u64, &Shape::of(self.cols, m))
        } else {
            counts(self.empty, &Shape::of(self.cols, m))
        }
    }

    /// The value (MAX's view) when counting settles it (Bullock 2002's race, counted here as
    /// [`MoveCounts`] says): the side to move wins when the moves it surely makes outnumber
    /// the most the opponent can then make; it loses when the opponent's sure moves, the
    /// opponent moving second, are at least the most it can make. When every place of one side
    /// is safe, neither side's moves touch the other's: the safe side makes exactly its safe
    /// moves and the other exactly its most.
    pub fn counted_value(&self) -> Option<Score> {
        let (v, h) = self.move_counts();
        self.value_of_counts(v, h)
    }

    /// [`Domineering::counted_value`] from this position's counts, Vertical's `v` and
    /// Horizontal's `h`.
    fn value_of_counts(&self, v: MoveCounts, h: MoveCounts) -> Option<Score> {
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
        if mine.outlasts(&theirs, true) {
            return wins(true);
        }
        if theirs.outlasts(&mine, false) {
            return wins(false);
        }
        None
    }

    /// The side to move's safe places (dominoes no move of the opponent can overlap).
    #[inline]
    fn mover_safe_places(&self) -> u128 {
        let places = places(self.empty, &Shape::of(self.cols, self.masks()));
        if self.vertical_to_move() {
            places.v_safe
        } else {
            places.h_safe
        }
    }

    /// The counts the move order reads, of the empty cells `empty`: Vertical's safe moves and
    /// most, then Horizontal's (as [`MoveCounts`] has them).
    #[inline]
    fn order_counts(&self, empty: u128) -> [u32; 4] {
        let m = self.masks();
        if self.fits_u64() {
            order_counts(empty as u64, &Shape::of(self.cols, m))
        } else {
            order_counts(empty, &Shape::of(self.cols, m))
        }
    }

    /// The side to move's place `mv` ranked for the move order, higher first (Bullock 2002's
    /// order, counted here), from `after`, the [`Domineering::order_counts`] of the position it
    /// leads to: what the domino does to the counts — the safe moves it makes for the mover,
    /// less the mover's moves at most it takes, plus the opponent's moves at most it takes
    /// (read as the counts after it, the same for every move before) — and, between equal
    /// counts, its [`Domineering::place_value`]. Below 2^20.
    #[inline]
    fn move_rank(&self, mv: u8, after: [u32; 4]) -> u32 {
        let (mine, theirs) = if self.vertical_to_move() {
            (0, 2)
        } else {
            (2, 0)
        };
        // Each count is at most 64 (a domino is two of at most 128 cells).
        let counted = 128 + after[mine] + after[mine + 1] - after[theirs + 1];
        (counted << 11) + self.place_value(mv)
    }

    /// The place value of the side to move's place `mv` in the move order, between moves
    /// that change the counts alike: higher nearer the board's edges, so that the board fills
    /// from its edges inwards, each line of dominoes closing the next (Bullock 2002 orders so;
    /// the value here is counted afresh). Of the lines across the mover's direction (columns
    /// for Vertical, rows for Horizontal), an odd distance from the nearer edge comes first
    /// (the second line from an edge, the fourth…: the line between it and the edge is left
    /// to the mover's safe moves), the edge lines last; along its line, a domino an even
    /// distance from the nearer end (the places that tile the line from that end) before the
    /// others; then nearer the edge, then nearer the end. Within 0..1280.
    #[inline]
    fn place_value(&self, mv: u8) -> u32 {
        let (rows, cols) = (i32::from(self.rows), i32::from(self.cols));
        let (row, col) = (i32::from(mv) / cols, i32::from(mv) % cols);
        let (along, across, along_len, across_len) = if self.vertical_to_move() {
            (row, col, rows, cols)
        } else {
            (col, row, cols, rows)
        };
        // Distances from the nearer edge across and the nearer end along (a domino at
        // `along` covers `along + 1` too).
        let across_edge = across.min(across_len - 1 - across);
        let along_end = along.min(along_len - 2 - along);
        let tier = match (across_edge % 2 == 1, along_end % 2 == 0, across_edge > 0) {
            (true, true, _) => 4,
            (true, false, _) => 3,
            (false, true, true) => 2,
            (false, false, true) => 1,
            _ => 0,
        };
        (tier * 256 + (15 - across_edge.min(15)) * 16 + (15 - along_end.min(15))) as u32
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

    /// Higher first by the counts a move changes (the safe moves it makes for the mover, less
    /// the mover's moves at most it takes, plus the opponent's it takes), then the place
    /// value (edges first); equal ranks in place order. One thread, 512 MiB, interior nodes,
    /// the counts alone against the places a domino takes from each side: 7x7 21 k and 334 k,
    /// 6x8 0.72 M and 2.32 M, 4x12 135 k and 182 k (before the static pass). With the static
    /// pass, the place value against a staggered pattern alone (odd lines first, then even
    /// places along, with no regard for the edges): 8x8 1.42 M and 4.88 M nodes, 4.1 and 13.2
    /// s; 6x8 79 k and 207 k; 7x7 2.2 k and 5.1 k; twelve 8x8 positions 4 to 6 plies in, 3.50
    /// M and 4.42 M. Seen from the edges only by distance, with no odd and even: 8x8 1.56 M,
    /// the twelve positions 5.33 M; by the empty lines beside the domino instead of the
    /// board's edges: 4.23 M and 4.21 M.
    fn order_moves(&self, moves: &mut [u8]) {
        if moves.len() < 2 {
            return;
        }
        // One word a move: the rank, turned so that the best sorts first, above the move.
        let mut keys = [0u32; 128];
        let n = moves.len().min(128);
        for (k, &mv) in keys.iter_mut().zip(moves.iter()) {
            let rank = self.move_rank(mv, self.order_counts(self.play(mv).empty));
            *k = ((1 << 20) - 1 - rank) << 8 | u32::from(mv);
        }
        keys[..n].sort_unstable();
        for (m, k) in moves.iter_mut().zip(&keys[..n]) {
            *m = *k as u8;
        }
    }

    /// The solver plays every child to read its counts for the static pass; the order comes
    /// from the same counts ([`SolverKnowledge::child_order_and_bounds`]).
    const ORDERS_BY_CHILD: bool = true;

    /// A move that settles one position's child as a win often settles its cousins' (one
    /// thread, 512 MiB: 8x8 1.80 → 1.69 s, twelve 8x8 positions 3.15 → 2.80 s).
    const STATIC_KILLERS: bool = true;

    /// The rank of the move by the counts after it, then its place on the board (edges
    /// first), as [`SolverKnowledge::order_moves`] orders.
    fn child_order(&self, mv: u8, child: &Domineering) -> u32 {
        self.move_rank(mv, child.order_counts(child.empty))
    }

    /// The child's counts read once, for its rank and its [`Domineering::counted_value`].
    fn child_order_and_bounds(&self, mv: u8, child: &Domineering) -> (u32, Option<(Score, Score)>) {
        let (v, h) = child.move_counts();
        let rank = self.move_rank(mv, [v.safe, v.most, h.safe, h.most]);
        (rank, child.value_of_counts(v, h).map(|v| (v, v)))
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

    /// Domineering has no immediate wins (a move never ends the game for the mover's gain
    /// but by leaving the opponent no move, which the counts see): the solver may read each
    /// child's counts before searching any.
    const NON_LOSING_PREVENTS_IMMEDIATE_WIN: bool = true;

    /// [`Domineering::counted_value`], read of every child before any is searched: a child the
    /// counts settle as the mover's win ends the node wherever it stands in the order. One
    /// thread, 512 MiB, interior nodes and time: 8x8 23.6 M 13.2 s without, 4.88 M 11.6 s with;
    /// 6x8 717 k 0.33 s and 207 k 0.39 s; 7x7 21 k 13 ms and 5.1 k 13 ms.
    fn static_bounds(&self) -> Option<(Score, Score)> {
        self.counted_value().map(|v| (v, v))
    }

    /// A value is ±1, so the first null-window test decides it: deepening for a guess is
    /// work lost (one thread, 1 GiB: 7x7 6.77 → 6.00 M nodes, 5x9 1.09 → 0.65 M).
    const GUESS_BY_DEEPENING: bool = false;

    /// No draws: a value is ±1.
    const DRAWS: bool = false;

    /// df-pn weighs two live children a node (up to a hundred live): the order puts the best
    /// move first so often that the rest are seldom worth weighing (`solve --algo dfpn-multi
    /// --tt-mb 1024`, nodes at 31ffa55: 8x6 10.75 M without the focus, 1.48 M at a share of
    /// 0.25, 132 k here; 7x7 357 k, 91 k, 19.7 k; 6x6 20.0 k, 4.9 k, 1.9 k).
    const DFPN_FOCUS: Option<f64> = Some(0.01);

    /// Enhanced transposition cut-offs to ply 20 (one thread, 1 GiB: 7x7 6.00 → 4.35 M nodes,
    /// 6x8 19.7 → 13.1 M, 5x9 0.65 → 0.49 M, 4x12 3.66 → 2.66 M; time 1-5 % less but on 6x8).
    const ENHANCED_CUTOFF_PLIES: u32 = 20;

    fn plies_left_at_most(&self) -> Option<u32> {
        Some(self.empty.count_ones() / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domineering::bits::masks;

    /// The bound `outlasts` skips the races by: taking an area or a vulnerable move first
    /// gains at most two moves, one area kept and six cells over the plain race, for every
    /// pool of up to 9 areas and 12 vulnerable moves of each kind.
    #[test]
    fn taking_first_gains_little() {
        for protective in 0..10 {
            for v0 in 0..13 {
                for v1 in 0..13 {
                    for (o0, o1, beside) in [
                        (0, 0, 0),
                        (v0, v1, 0),
                        (v0 / 2, v1 / 2, v1 / 3),
                        (0, v1, v1),
                    ] {
                        let c = MoveCounts {
                            safe: 3,
                            protective,
                            vulnerable: [v0, v1],
                            beside_areas: beside,
                            open_vulnerable: [o0, o1],
                            most: 0,
                            open: 0,
                            only_safe: false,
                        };
                        let plain = c.race(0);
                        for (first, has) in [(1, protective), (2, v0), (3, v1)] {
                            if has == 0 {
                                continue;
                            }
                            let r = c.race(first);
                            assert!(
                                r.moves <= plain.moves + 2
                                    && r.areas <= plain.areas + 1
                                    && r.cells <= plain.cells + 6,
                                "{c:?} first {first}: {r:?} against {plain:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The counts are the same in either word: a cell lost past a `u64`'s top, or kept in a
    /// `u128`'s, never reaches a count (random positions of every board of at most 64 cells).
    #[test]
    fn the_counts_are_the_same_in_either_word() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for rows in 1..=64u8 {
            for cols in 1..=(64 / rows).min(26) {
                let shape = masks(rows, cols);
                for _ in 0..40 {
                    let (a, b) = (u128::from(next()), u128::from(next()));
                    let empty = shape.board & if next() % 2 == 0 { a | b } else { a & b };
                    let (s64, s128) = (Shape::of(cols, shape), Shape::of(cols, shape));
                    assert_eq!(
                        counts(empty as u64, &s64),
                        counts(empty, &s128),
                        "{rows}x{cols} {empty:#x}"
                    );
                    assert_eq!(order_counts(empty as u64, &s64), order_counts(empty, &s128));
                }
            }
        }
    }
}
