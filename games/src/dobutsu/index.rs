//! Dōbutsu shōgi's dense index ([`DenseIndex`]): a number for every placement of the pieces
//! from the side to move, for the strong solver's byte-a-position table.
//!
//! A number is, most significant first:
//! 1. **the lions**: one of the 28 placements in which the mover's lion can be taken by no lion
//!    and the opponent's lion is off the mover's home rank, taken up to the mirror (files a and
//!    c swapped; a placement with both lions on file b is kept as it is, so a position and its
//!    mirror image there get a number each). The others go unnumbered: the lions side by side,
//!    or the opponent's lion on the mover's home rank, is won at once or over;
//! 2. **which pieces stand on the board**: how many giraffes, elephants and chicks (0 to 2
//!    each, of the material the position has);
//! 3. for each kind in turn, **where**: the squares among those still free (the combinatorial
//!    number of the pair), whose each piece is (and, for a chick, whether it is a hen), and how
//!    many of those in hand are the mover's.
//!
//! Every number is a legal placement, so the table has no holes: 28 × 11,878,227 =
//! 332,590,356 numbers for the whole material.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use gamesearch::retrograde::DenseIndex;
use gamesearch::Game;
use rayon::prelude::*;

use super::{Dobutsu, CHICK, ELEPHANT, GIRAFFE, HEN, LION, THEIRS};

/// The square seen in the mirror (files a and c swapped).
#[inline]
const fn mirror(s: usize) -> usize {
    MIRROR[s]
}

const MIRROR: [usize; 12] = [2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9];

const fn adjacent(a: usize, b: usize) -> bool {
    let (ra, fa, rb, fb) = (a / 3, a % 3, b / 3, b % 3);
    a != b && ra.abs_diff(rb) <= 1 && fa.abs_diff(fb) <= 1
}

/// Whether the lions on `m` (the mover's) and `t` keep a number: the mover's lion cannot take
/// the other, which is off the mover's home rank, and is not on its far rank itself (no play
/// reaches that: the side before it would have lost, or had to take the lion).
/// With `every`, any two squares (the numbering that counts what is reachable).
const fn numbered(m: usize, t: usize, every: bool) -> bool {
    m != t && (every || (t >= 3 && m < 9 && !adjacent(m, t)))
}

/// How many lion placements the solver's table numbers.
const PLACEMENTS: usize = 21;
/// How many the count of what is reachable numbers: every two squares, up to the mirror.
const EVERY_PLACEMENT: usize = 72;

/// The lion placements: `.0[m][t]` the number of the lions on `m` (the mover's) and `t`, or 255
/// where unnumbered; `.1[m][t]` whether that number is their mirror image's; `.2` the
/// numbered placements in order (the first `.3`).
type Placements = (
    [[u8; 12]; 12],
    [[bool; 12]; 12],
    [(u8, u8); EVERY_PLACEMENT],
    usize,
);

/// The lion placements the solver's table numbers.
const LIONS: Placements = lions(false);
/// Every lion placement, for counting what is reachable.
const EVERY_LIONS: Placements = lions(true);

const fn lions(every: bool) -> Placements {
    let mut id = [[255u8; 12]; 12];
    let mut flip = [[false; 12]; 12];
    let mut list = [(0u8, 0u8); EVERY_PLACEMENT];
    let mut next = 0;
    let mut t = 0;
    while t < 12 {
        let mut m = 0;
        while m < 12 {
            let (mt, mm) = (mirror(t), mirror(m));
            // The placement or its mirror, whichever has the smaller (t, m), is the one numbered.
            let canonical = t * 12 + m <= mt * 12 + mm;
            if numbered(m, t, every) && canonical {
                id[m][t] = next as u8;
                list[next] = (m as u8, t as u8);
                next += 1;
            }
            m += 1;
        }
        t += 1;
    }
    // The mirrored placements take their image's number.
    let mut t = 0;
    while t < 12 {
        let mut m = 0;
        while m < 12 {
            if numbered(m, t, every) && id[m][t] == 255 {
                id[m][t] = id[mirror(m)][mirror(t)];
                flip[m][t] = true;
            }
            m += 1;
        }
        t += 1;
    }
    assert!(next == if every { EVERY_PLACEMENT } else { PLACEMENTS });
    (id, flip, list, next)
}

const fn choose(n: u32, k: u32) -> u32 {
    match k {
        0 => 1,
        1 => n,
        _ => n * n.saturating_sub(1) / 2,
    }
}

/// Ways to place `k` of a kind of `n` pieces on `free` squares, each piece in one of `own`
/// states, the rest split between the hands.
const fn kind_size(n: u32, k: u32, free: u32, own: u32) -> u32 {
    if k > n {
        return 0;
    }
    choose(free, k) * own.pow(k) * (n - k + 1)
}

/// The sizes of the three kinds' parts for material `(ng, ne, nc)` and `k` of each on the
/// board (with 10 squares free of lions).
const fn parts(mat: usize, combo: usize) -> [u32; 3] {
    let (ng, ne, nc) = ((mat / 9) as u32, (mat / 3 % 3) as u32, (mat % 3) as u32);
    let (kg, ke, kc) = (
        (combo / 9) as u32,
        (combo / 3 % 3) as u32,
        (combo % 3) as u32,
    );
    [
        kind_size(ng, kg, 10, 2),
        kind_size(ne, ke, 10 - kg, 2),
        kind_size(nc, kc, 10 - kg - ke, 4),
    ]
}

/// `OFFSETS[material][combo]`: where a combination of pieces on the board starts within a lion
/// placement; `OFFSETS[material][27]` is a placement's size.
const OFFSETS: [[u32; 28]; 27] = offsets();

const fn offsets() -> [[u32; 28]; 27] {
    let mut t = [[0u32; 28]; 27];
    let mut mat = 0;
    while mat < 27 {
        let mut combo = 0;
        while combo < 27 {
            let [g, e, c] = parts(mat, combo);
            t[mat][combo + 1] = t[mat][combo] + g * e * c;
            combo += 1;
        }
        mat += 1;
    }
    t
}

/// The hand slot and the number of states of each kind's pieces on the board.
const KINDS: [(u8, u32); 3] = [(GIRAFFE, 2), (ELEPHANT, 2), (CHICK, 4)];
/// `OWN_POW[kind][k]`: the states of `k` pieces of a kind on the board.
const OWN_POW: [[u32; 3]; 3] = [[1, 2, 4], [1, 2, 4], [1, 4, 16]];

/// [`parts`] for every material and combination, looked up instead of computed.
const PARTS: [[[u32; 3]; 27]; 27] = {
    let mut t = [[[0u32; 3]; 27]; 27];
    let mut mat = 0;
    while mat < 27 {
        let mut combo = 0;
        while combo < 27 {
            t[mat][combo] = parts(mat, combo);
            combo += 1;
        }
        mat += 1;
    }
    t
};

/// The pair of ranks `(a, b)`, `a < b`, whose combinatorial number is `PAIRS[b(b-1)/2 + a]`
/// (two of at most ten free squares).
const PAIRS: [(u8, u8); 45] = {
    let mut t = [(0u8, 0u8); 45];
    let mut b = 1;
    while b < 10 {
        let mut a = 0;
        while a < b {
            t[b * (b - 1) / 2 + a] = (a as u8, b as u8);
            a += 1;
        }
        b += 1;
    }
    t
};

impl Dobutsu {
    /// The name of the dense table of this position's pieces: `dobutsu` for the whole set (a
    /// lion, a giraffe, an elephant and a chick a side), else `dobutsu-gGeEcC` with how many
    /// giraffes, elephants and chicks are in play. A dense solution is of one set of pieces.
    ///
    /// ```
    /// use gamesearch_games::Dobutsu;
    /// assert_eq!(Dobutsu::start().table_name(), "dobutsu");
    /// let p: Dobutsu = "dobutsu:board=.l./.c./.C./.L./s".parse().unwrap();
    /// assert_eq!(p.table_name(), "dobutsu-g0e0c2");
    /// ```
    pub fn table_name(&self) -> String {
        match self.material() {
            Some(26) => "dobutsu".into(),
            Some(mat) => format!("dobutsu-g{}e{}c{}", mat / 9, mat / 3 % 3, mat % 3),
            None => "dobutsu-impossible".into(),
        }
    }

    /// The material's number: giraffes, elephants and chicks (board and hands) in base 3.
    fn material(&self) -> Option<usize> {
        let mut on_board = [0u8; 8];
        for &c in &self.board {
            on_board[usize::from(c & 7)] += 1;
        }
        let [h, o] = self.hands;
        let n = [
            on_board[usize::from(GIRAFFE)] + h[0] + o[0],
            on_board[usize::from(ELEPHANT)] + h[1] + o[1],
            on_board[usize::from(CHICK)] + on_board[usize::from(HEN)] + h[2] + o[2],
        ];
        n.iter()
            .all(|&k| k <= 2)
            .then(|| usize::from(n[0]) * 9 + usize::from(n[1]) * 3 + usize::from(n[2]))
    }
}

impl Dobutsu {
    /// Whether the board's mirror image reads smaller, square by square from a1.
    #[inline]
    fn mirror_reads_smaller(&self) -> bool {
        // File b is its own image: the first rank whose files a and c differ decides.
        (0..4)
            .map(|rank| (self.board[3 * rank + 2], self.board[3 * rank]))
            .find(|(image, here)| image != here)
            .is_some_and(|(image, here)| image < here)
    }
}

/// The `a`-th square (from 0) of the set `free`.
#[inline]
fn select(mut free: u16, a: u32) -> usize {
    for _ in 0..a {
        free &= free - 1;
    }
    free.trailing_zeros() as usize
}

impl DenseIndex for Dobutsu {
    fn index_len(&self) -> u64 {
        self.material()
            .map_or(0, |mat| PLACEMENTS as u64 * u64::from(OFFSETS[mat][27]))
    }

    #[inline]
    fn index(&self) -> Option<u64> {
        let at = self.squares_of_codes();
        let lions = (at[usize::from(LION)], at[usize::from(LION | THEIRS)]);
        if lions.0 == 0 || lions.1 == 0 {
            return None; // the mover's lion is taken: over
        }
        let (m, t) = (
            lions.0.trailing_zeros() as usize,
            lions.1.trailing_zeros() as usize,
        );
        let id = LIONS.0[m][t];
        if id == 255 {
            // The lions side by side, or the opponent's on the mover's home rank: won at once,
            // or over; the mover's lion on its far rank: met by no play, past the table.
            return if m >= 9 && t >= 3 && !adjacent(m, t) {
                Some(u64::MAX)
            } else {
                None
            };
        }
        Some(self.number(&at, &LIONS, m, t))
    }

    fn position_at(&self, index: u64) -> Option<Self> {
        self.placed(&LIONS, index)
    }

    /// Every move passes the turn.
    fn turn_always_passes(&self) -> bool {
        true
    }

    /// A capture of the lion, or a safe step of the lion onto the far rank.
    fn wins_at_once(&self) -> bool {
        self.winning_move().is_some()
    }
}

impl Dobutsu {
    /// One pass over the board: the squares of each code, as bit sets.
    #[inline]
    fn squares_of_codes(&self) -> [u16; 16] {
        let mut at = [0u16; 16];
        for (s, &c) in self.board.iter().enumerate() {
            at[usize::from(c & 15)] |= 1 << s;
        }
        at
    }

    /// The number of a position with both lions by the numbering of every placement.
    #[inline]
    fn reach_number(&self) -> Option<u64> {
        let at = self.squares_of_codes();
        let (m, t) = (at[usize::from(LION)], at[usize::from(LION | THEIRS)]);
        if m == 0 || t == 0 {
            return None;
        }
        let (m, t) = (m.trailing_zeros() as usize, t.trailing_zeros() as usize);
        Some(self.number(&at, &EVERY_LIONS, m, t))
    }

    /// How many positions with both lions on the board are reachable from this one, counted
    /// as Tanaka (2009) counts (246,803,167 from the start): a position and its mirror image
    /// as one, each from its side to move; a position whose mover can take the opponent's
    /// lion, or whose opponent's lion stands on the mover's home rank, is not looked past
    /// (here its moves are the captures of the lion, which leave one lion). Breadth first over
    /// a numbering of every placement of these pieces, three bits a number (seen, this ply,
    /// the next: 321 MB for the whole set), on the current rayon pool; `None` when `stop` is
    /// raised first.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use gamesearch_games::Dobutsu;
    /// let p: Dobutsu = "dobutsu:board=.l./.c./.C./.L./s".parse().unwrap();
    /// assert_eq!(p.count_with_both_lions(&AtomicBool::new(false)), Some(24_789));
    /// ```
    pub fn count_with_both_lions(&self, stop: &AtomicBool) -> Option<u64> {
        let mat = self.material()?;
        let n = EVERY_PLACEMENT as u64 * u64::from(OFFSETS[mat][27]);
        let words = usize::try_from(n.div_ceil(64)).ok()?;
        let bits = || -> Vec<AtomicU64> { (0..words).map(|_| AtomicU64::new(0)).collect() };
        let (seen, mut ply, mut next) = (bits(), bits(), bits());
        // (Read first: most children are seen already, and a locked write costs more.)
        let mark = |set: &[AtomicU64], i: u64| -> bool {
            let (bit, word) = (1u64 << (i % 64), &set[(i / 64) as usize]);
            word.load(Ordering::Relaxed) & bit == 0
                && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
        };
        let root = self.reach_number().filter(|&i| i < n)?;
        mark(&seen, root);
        mark(&ply, root);
        loop {
            let grew = AtomicBool::new(false);
            ply.par_chunks(1024).enumerate().for_each(|(chunk, words)| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                for (w, word) in words.iter().enumerate() {
                    if word.load(Ordering::Relaxed) == 0 {
                        continue;
                    }
                    let mut here = word.swap(0, Ordering::Relaxed);
                    while here != 0 {
                        let i = ((chunk * 1024 + w) * 64) as u64 + u64::from(here.trailing_zeros());
                        here &= here - 1;
                        let Some(p) = self.placed(&EVERY_LIONS, i) else {
                            continue;
                        };
                        if p.can_take_lion() {
                            continue; // its moves take the lion
                        }
                        for m in p.moves() {
                            let Some(j) = p.play(m).reach_number().filter(|&j| j < n) else {
                                continue; // a lion taken
                            };
                            if mark(&seen, j) {
                                mark(&next, j);
                                grew.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
            });
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if !grew.load(Ordering::Relaxed) {
                break;
            }
            std::mem::swap(&mut ply, &mut next);
        }
        Some(
            seen.par_iter()
                .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
                .sum(),
        )
    }

    /// The number of a position with both lions on `m` (the mover's) and `t`, numbered by
    /// `table`, from the squares of each code (`at`).
    #[inline]
    fn number(&self, at: &[u16; 16], table: &Placements, m: usize, t: usize) -> u64 {
        let id = table.0[m][t];
        // The lions' placement says whether to mirror; with both lions on file b, the board
        // does (the image whose squares read smaller).
        let flip =
            table.1[m][t] || (mirror(m) == m && mirror(t) == t && self.mirror_reads_smaller());
        let image = |x: u16| {
            if flip {
                (x & 0o1111) << 2 | (x & 0o2222) | (x >> 2) & 0o1111
            } else {
                x
            }
        };
        let theirs = |k: u8| image(at[usize::from(k | THEIRS)]);
        // Each kind's squares, whose of them are the opponent's, which are promoted.
        let kinds = [
            (
                theirs(GIRAFFE) | image(at[usize::from(GIRAFFE)]),
                theirs(GIRAFFE),
                0,
            ),
            (
                theirs(ELEPHANT) | image(at[usize::from(ELEPHANT)]),
                theirs(ELEPHANT),
                0,
            ),
            (
                theirs(CHICK) | theirs(HEN) | image(at[usize::from(CHICK)] | at[usize::from(HEN)]),
                theirs(CHICK) | theirs(HEN),
                theirs(HEN) | image(at[usize::from(HEN)]),
            ),
        ];
        let (m, t) = if flip { (mirror(m), mirror(t)) } else { (m, t) };
        let mut free: u16 = 0xFFF & !(1 << m) & !(1 << t);
        let mut sub = [0u32; 3];
        let mut count = [0usize; 3];
        let mut mat = 0;
        for (kind, &(squares, opp, hens)) in kinds.iter().enumerate() {
            let k = squares.count_ones() as usize;
            let in_hand = usize::from(self.hands[0][kind] + self.hands[1][kind]);
            if k + in_hand > 2 {
                return u64::MAX; // not a position of this game: past any table
            }
            mat = mat * 3 + k + in_hand;
            count[kind] = k;
            let own = KINDS[kind].1;
            let state = |s: u32| u32::from(opp >> s & 1) + 2 * u32::from(hens >> s & 1);
            let below = |s: u32| (free & ((1u16 << s) - 1)).count_ones();
            let (rank, owners) = match k {
                0 => (0, 0),
                1 => {
                    let a = squares.trailing_zeros();
                    (below(a), state(a))
                }
                _ => {
                    let a = squares.trailing_zeros();
                    let b = 15 - squares.leading_zeros();
                    let (ra, rb) = (below(a), below(b));
                    (rb * (rb - 1) / 2 + ra, state(a) + own * state(b))
                }
            };
            sub[kind] = (rank * OWN_POW[kind][k] + owners) * (in_hand as u32 + 1)
                + u32::from(self.hands[0][kind]);
            free &= !squares;
        }
        let combo = count[0] * 9 + count[1] * 3 + count[2];
        let [_, e, c] = PARTS[mat][combo];
        let within = (sub[0] * e + sub[1]) * c + sub[2];
        u64::from(id) * u64::from(OFFSETS[mat][27])
            + u64::from(OFFSETS[mat][combo])
            + u64::from(within)
    }

    /// The position numbered `index` by `table` (of this position's pieces).
    fn placed(&self, table: &Placements, index: u64) -> Option<Self> {
        let mat = self.material()?;
        let per = u64::from(OFFSETS[mat][27]);
        let id = usize::try_from(index / per).ok()?;
        if id >= table.3 {
            return None;
        }
        let rest = (index % per) as u32;
        let combo = OFFSETS[mat][1..].partition_point(|&end| end <= rest);
        let sizes = *PARTS[mat].get(combo)?;
        let mut within = rest - OFFSETS[mat][combo];
        let mut sub = [0u32; 3];
        for kind in (0..3).rev() {
            sub[kind] = within % sizes[kind];
            within /= sizes[kind];
        }
        let (m, t) = table.2[id];
        let mut p = Dobutsu {
            board: [0; 12],
            hands: [[0; 3]; 2],
            sente_to_move: true,
        };
        p.board[usize::from(m)] = LION;
        p.board[usize::from(t)] = LION | THEIRS;
        let mut free: u16 = 0xFFF & !(1 << m) & !(1 << t);
        let n = [mat / 9, mat / 3 % 3, mat % 3];
        let ks = [combo / 9, combo / 3 % 3, combo % 3];
        for kind in 0..3 {
            let (piece, own) = KINDS[kind];
            let (n, k) = (n[kind] as u32, ks[kind] as u32);
            let mut s = sub[kind];
            // Divided by constants (1 to 3 ways to split the hand; the owners' states a power
            // of two): a multiplication or a shift, not a division.
            let mover_hand = match n - k {
                0 => 0,
                1 => {
                    let h = s % 2;
                    s /= 2;
                    h
                }
                _ => {
                    let h = s % 3;
                    s /= 3;
                    h
                }
            };
            let bits = OWN_POW[kind][k as usize].trailing_zeros();
            let owners = s & ((1 << bits) - 1);
            let rank = s >> bits;
            let at = match k {
                0 => [0, 0],
                1 => [select(free, rank), 0],
                _ => {
                    let (a, b) = PAIRS[rank as usize];
                    [select(free, a.into()), select(free, b.into())]
                }
            };
            for (i, &sq) in at[..k as usize].iter().enumerate() {
                let state = if i == 0 {
                    owners & (own - 1)
                } else {
                    owners >> own.trailing_zeros()
                };
                let mut code = piece;
                if state & 2 != 0 {
                    code = HEN;
                }
                if state & 1 != 0 {
                    code |= THEIRS;
                }
                p.board[sq] = code;
                free &= !(1 << sq);
            }
            p.hands[0][kind] = mover_hand as u8;
            p.hands[1][kind] = (n - k - mover_hand) as u8;
        }
        // With both lions on file b, the image that reads smaller has the number; the other's
        // is a hole.
        if mirror(usize::from(m)) == usize::from(m)
            && mirror(usize::from(t)) == usize::from(t)
            && p.mirror_reads_smaller()
        {
            return None;
        }
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamesearch::Game;

    #[test]
    fn the_whole_material_has_the_documented_size() {
        assert_eq!(Dobutsu::start().index_len(), 249_442_767);
    }

    #[test]
    fn every_number_reads_back_and_positions_played_are_numbered_alike() {
        let root = Dobutsu::start();
        let n = root.index_len();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = x % n;
            let Some(p) = root.position_at(i) else {
                // A hole: the image of a position numbered with both lions on file b.
                continue;
            };
            assert!(p.consistent(), "{i}");
            assert_eq!(p.index(), Some(i), "{i}: {p}");
            // Its children and predecessors are numbered within the table, or left out as the
            // contract allows.
            for m in p.moves() {
                let c = p.play(m);
                match c.index() {
                    Some(j) => assert!(j < n),
                    None => assert!(c.moves().next().is_none() || c.wins_at_once(), "{c}"),
                }
            }
        }
    }
}
