//! Kalah(m, n): m pits a side, n seeds a pit, with the rules of Irving, Donkers & Uiterwijk,
//! "Solving Kalah", ICGA Journal 23(3), 2000 — the variant whose first-player margins they
//! publish (their Table 9), which our tests check.
//!
//! # Rules implemented
//! - The board: South's pits `1..=m` (left to right from South), South's store, North's pits
//!   `1..=m` (left to right from North), North's store. South moves first and is MAX.
//! - A move takes all seeds of one of the mover's non-empty pits and sows them one by one
//!   anticlockwise into the following pits, the mover's own store included, skipping the
//!   opponent's store. With more than `2m` seeds the sowing laps the board and the starting pit
//!   is *not* skipped.
//! - Last seed in the mover's store: the mover moves again (turns do not alternate).
//! - Last seed in an empty pit on the mover's side: that seed and all seeds of the opposite pit
//!   (even if there are none) go to the mover's store.
//! - When a move leaves one side without seeds, the game ends and each player puts the seeds
//!   left on their own side into their store (so the player with seeds left takes them all).
//! - `f(p)` = South's store − North's store: exact at game end, the heuristic elsewhere.
//!
//! # Text form
//! `S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N`: South's pits left to right, North's pits in sowing
//! order (North's pit 1 is opposite South's pit m), the two stores, and who is to move. E.g. the
//! start of Kalah(4, 3) is `3,3,3,3/3,3,3,3/0,0/S`. [`Kalah::new`] builds the start position;
//! `Display` prints this form and `FromStr` reads it.

use std::fmt;
use std::str::FromStr;

use crate::engine::Heuristic;
use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::solver::SolverKnowledge;

/// Most pits a side.
pub const MAX_PITS: usize = 8;
/// Most seeds on the board (a pit holds a byte).
pub const MAX_SEEDS: u32 = 255;

/// A Kalah position: 2m + 2 holes, 14 bytes for Kalah(6, n). Copy-made.
///
/// ```
/// use gamesearch::games::Kalah;
/// use gamesearch::Game;
/// let start = Kalah::new(6, 4).unwrap();
/// assert_eq!(start.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
/// // Pit 3 of 6 with 4 seeds ends in South's store: South moves again.
/// let p = start.play(2);
/// assert_eq!(p.to_string(), "4,4,0,5,5,5/4,4,4,4,4,4/1,0/S");
/// assert_eq!(p.evaluate(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kalah {
    /// `holes[0..m]` South's pits, `holes[m]` South's store, `holes[m+1..=2m]` North's pits,
    /// `holes[2m+1]` North's store.
    holes: [u8; 2 * MAX_PITS + 2],
    m: u8,
    south_to_move: bool,
}

impl Kalah {
    /// The start position of Kalah(m, n), South to move.
    pub fn new(m: usize, n: u32) -> Result<Kalah, Error> {
        if !(1..=MAX_PITS).contains(&m) {
            return Err(Error::BadParameter(format!(
                "Kalah needs 1 to {MAX_PITS} pits a side, not {m}"
            )));
        }
        // In u64: `2·m·n` in u32 wrapped for n = 2^31 and let an empty board through.
        if n == 0 || 2 * m as u64 * u64::from(n) > u64::from(MAX_SEEDS) {
            return Err(Error::BadParameter(format!(
                "Kalah({m},{n}): seeds a pit must be at least 1 and 2·m·n at most {MAX_SEEDS}"
            )));
        }
        let mut holes = [0u8; 2 * MAX_PITS + 2];
        for i in 0..m {
            holes[i] = n as u8;
            holes[m + 1 + i] = n as u8;
        }
        Ok(Kalah {
            holes,
            m: m as u8,
            south_to_move: true,
        })
    }

    /// Pits a side.
    pub fn pits(&self) -> usize {
        self.m as usize
    }

    /// South's pits, left to right.
    pub fn south(&self) -> &[u8] {
        &self.holes[..self.pits()]
    }

    /// North's pits, in sowing order.
    pub fn north(&self) -> &[u8] {
        let m = self.pits();
        &self.holes[m + 1..=2 * m]
    }

    /// (South's store, North's store).
    pub fn stores(&self) -> (u8, u8) {
        let m = self.pits();
        (self.holes[m], self.holes[2 * m + 1])
    }

    /// Total seeds on the board and in the stores.
    pub fn total_seeds(&self) -> u32 {
        self.holes[..2 * self.pits() + 2]
            .iter()
            .map(|&s| u32::from(s))
            .sum()
    }

    /// True when the game is over (one side is empty; the seeds have been swept).
    pub fn is_over(&self) -> bool {
        self.south().iter().all(|&s| s == 0) || self.north().iter().all(|&s| s == 0)
    }

    /// The mover's pit `pit` (0-based) as an index into `holes`.
    #[inline]
    fn hole_of(&self, pit: u8) -> usize {
        if self.south_to_move {
            pit as usize
        } else {
            self.m as usize + 1 + pit as usize
        }
    }

    /// Whether `pit` (0-based, the mover's) is a legal move: on the board and not empty.
    pub fn is_legal(&self, pit: u8) -> bool {
        pit < self.m && !self.is_over() && self.holes[self.hole_of(pit)] > 0
    }

    /// Plays the mover's pit `pit` (0-based), or says why it is illegal.
    pub fn try_play(&self, pit: u8) -> Result<Kalah, Error> {
        if pit >= self.m {
            return Err(Error::BadParameter(format!(
                "pit {} does not exist (1..={})",
                pit + 1,
                self.m
            )));
        }
        if self.is_over() {
            return Err(Error::BadParameter("the game is over".into()));
        }
        if self.holes[self.hole_of(pit)] == 0 {
            return Err(Error::BadParameter(format!("pit {} is empty", pit + 1)));
        }
        Ok(self.play(pit))
    }
}

/// The mover's non-empty pits, as a bit set iterated low to high.
#[derive(Clone, Copy, Debug)]
pub struct KalahMoves(u16);

impl Iterator for KalahMoves {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

impl Game for Kalah {
    /// The mover's pit, 0-based (shown 1-based).
    type Move = u8;
    type Moves = KalahMoves;

    #[inline]
    fn to_move(&self) -> Player {
        if self.south_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn moves(&self) -> KalahMoves {
        if self.is_over() {
            return KalahMoves(0);
        }
        let start = self.hole_of(0);
        let mut set = 0u16;
        for i in 0..self.m as usize {
            if self.holes[start + i] > 0 {
                set |= 1 << i;
            }
        }
        KalahMoves(set)
    }

    fn play(&self, pit: u8) -> Kalah {
        let m = self.m as usize;
        let n_holes = 2 * m + 2;
        let (own_store, opp_store) = if self.south_to_move {
            (m, 2 * m + 1)
        } else {
            (2 * m + 1, m)
        };
        let mut next = *self;
        let h = &mut next.holes;
        let start = self.hole_of(pit);
        let mut seeds = h[start];
        h[start] = 0;
        let mut pos = start;
        // Whole laps first (each lap puts one seed in every hole but the opponent's store).
        let per_lap = n_holes as u8 - 1;
        if seeds > per_lap {
            let laps = (seeds - 1) / per_lap;
            for (i, x) in h.iter_mut().enumerate().take(n_holes) {
                if i != opp_store {
                    *x += laps;
                }
            }
            seeds -= laps * per_lap;
        }
        while seeds > 0 {
            pos += 1;
            if pos == n_holes {
                pos = 0;
            }
            if pos != opp_store {
                h[pos] += 1;
                seeds -= 1;
            }
        }
        let own_side = if self.south_to_move {
            0..m
        } else {
            m + 1..2 * m + 1
        };
        if pos == own_store {
            // Extra move: the same side moves again.
        } else {
            if own_side.contains(&pos) && h[pos] == 1 {
                // Capture: this seed and the opposite pit's seeds (even none).
                let opposite = 2 * m - pos;
                h[own_store] += 1 + h[opposite];
                h[pos] = 0;
                h[opposite] = 0;
            }
            next.south_to_move = !self.south_to_move;
        }
        // A side left empty ends the game: everyone sweeps their own side.
        let south_empty = h[..m].iter().all(|&s| s == 0);
        let north_empty = h[m + 1..=2 * m].iter().all(|&s| s == 0);
        if south_empty || north_empty {
            let s: u8 = h[..m].iter().sum();
            let n: u8 = h[m + 1..=2 * m].iter().sum();
            h[m] += s;
            h[2 * m + 1] += n;
            h[..m].fill(0);
            h[m + 1..=2 * m].fill(0);
        }
        next
    }

    #[inline]
    fn evaluate(&self) -> Score {
        let (s, n) = self.stores();
        Score::from(s) - Score::from(n)
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        let t = self.total_seeds() as Score;
        Some((-t, t))
    }

    fn move_name(&self, pit: u8) -> String {
        (pit + 1).to_string()
    }
}

impl PositionKey for Kalah {
    #[inline]
    fn key(&self) -> u64 {
        // The holes (18 bytes) and the mover, mixed.
        let mut a = [0u8; 8];
        let mut b = [0u8; 8];
        let mut c = [0u8; 8];
        a.copy_from_slice(&self.holes[0..8]);
        b.copy_from_slice(&self.holes[8..16]);
        c[..2].copy_from_slice(&self.holes[16..18]);
        c[2] = self.south_to_move as u8;
        c[3] = self.m;
        let mut z = u64::from_le_bytes(a).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z.rotate_left(29) ^ u64::from_le_bytes(b)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z.rotate_left(31) ^ u64::from_le_bytes(c)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 29)
    }
}

/// The solver's Kalah knowledge: a move order.
impl SolverKnowledge for Kalah {
    /// Extra moves first, then captures (by size), then pits nearer the store.
    fn order_moves(&self, moves: &mut [u8]) {
        let m = self.m as usize;
        let key = |&pit: &u8| -> i32 {
            let seeds = self.holes[self.hole_of(pit)] as usize;
            let to_store = m - pit as usize; // sowing distance to the own store
            if seeds == to_store {
                return 1000 + pit as i32;
            }
            if seeds < to_store {
                let land = self.hole_of(pit) + seeds;
                if self.holes[land] == 0 {
                    let opposite = 2 * m - land;
                    return 100 + i32::from(self.holes[opposite]) * 8 + pit as i32;
                }
            }
            pit as i32
        };
        moves.sort_by_key(|mv| std::cmp::Reverse(key(mv)));
    }
}

/// `C(n, k)`, saturating at `u64::MAX`, from a table built once (n < 300, k ≤ 2·MAX_PITS).
fn binomial(n: usize, k: usize) -> u64 {
    static TABLE: std::sync::OnceLock<Vec<[u64; 2 * MAX_PITS + 1]>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = vec![[0u64; 2 * MAX_PITS + 1]; 300];
        for n in 0..300 {
            t[n][0] = 1;
            for k in 1..=2 * MAX_PITS {
                t[n][k] = if n == 0 {
                    0
                } else {
                    t[n - 1][k - 1].saturating_add(t[n - 1][k])
                };
            }
        }
        t
    });
    t[n][k]
}

/// Endgame databases for Kalah: the class is the seeds still in the pits; a position is ranked
/// by the combinatorial number system over its 2m pits, the mover's side first (so South and
/// North to move share the index), and valued by the mover's final margin less its margin now
/// (the stores never enter the index).
///
/// ```
/// use gamesearch::games::Kalah;
/// use gamesearch::tablebase::Tablebase;
/// use gamesearch::Game;
/// let p: Kalah = "1,0,2/0,3,1/5,4/N".parse().unwrap();
/// assert_eq!(p.class(), 7);
/// let q = p.unrank(p.class(), p.rank()); // the mover's side first: South to move
/// assert_eq!(q.to_string(), "0,3,1/1,0,2/0,0/S");
/// assert_eq!(p.class_size(7), Some(792)); // C(7 + 5, 5) ways to lay 7 seeds in 6 pits
/// ```
impl crate::tablebase::Tablebase for Kalah {
    fn tablebase_rules(&self) -> String {
        format!("kalah:{}", self.m)
    }

    #[inline]
    fn class(&self) -> u32 {
        let (s, n) = self.stores();
        self.total_seeds() - u32::from(s) - u32::from(n)
    }

    fn class_size(&self, class: u32) -> Option<u64> {
        // Relative values lie in [-class, class] and must fit an i8 (i8::MIN marks "unknown").
        if class > 127 {
            return None;
        }
        let holes = 2 * self.pits();
        let n = class as usize + holes - 1;
        let size = binomial(n, holes - 1);
        (size < u64::MAX).then_some(size)
    }

    #[inline]
    fn rank(&self) -> u64 {
        let m = self.pits();
        let (first, second) = if self.south_to_move {
            (&self.holes[..m], &self.holes[m + 1..=2 * m])
        } else {
            (&self.holes[m + 1..=2 * m], &self.holes[..m])
        };
        // The bars between the 2m pits: the i-th sits after the seeds of pits 0..i and i - 1
        // bars before it; the combination's colex rank.
        let mut rank = 0u64;
        let mut seeds = 0usize;
        for (i, &a) in first.iter().chain(second).take(2 * m - 1).enumerate() {
            seeds += a as usize;
            rank += binomial(seeds + i, i + 1);
        }
        rank
    }

    fn unrank(&self, class: u32, mut rank: u64) -> Kalah {
        let m = self.pits();
        let holes = 2 * m;
        let mut bars = [0usize; 2 * MAX_PITS];
        let mut top = class as usize + holes - 1; // every bar lies below this
        for i in (1..holes).rev() {
            let mut c = top - 1;
            while binomial(c, i) > rank {
                c -= 1;
            }
            rank -= binomial(c, i);
            bars[i] = c;
            top = c;
        }
        let mut pits = [0u8; 2 * MAX_PITS];
        let end = class as usize + holes - 1;
        for i in 0..holes {
            let from = if i == 0 { 0 } else { bars[i] + 1 };
            let to = if i + 1 < holes { bars[i + 1] } else { end };
            pits[i] = (to - from) as u8;
        }
        let mut p = Kalah {
            holes: [0u8; 2 * MAX_PITS + 2],
            m: self.m,
            south_to_move: true,
        };
        p.holes[..m].copy_from_slice(&pits[..m]);
        p.holes[m + 1..=2 * m].copy_from_slice(&pits[m..holes]);
        p
    }

    #[inline]
    fn relative_value(&self, score: Score) -> i32 {
        let (s, n) = self.stores();
        let now = Score::from(s) - Score::from(n);
        self.to_move().sign() * (score - now)
    }

    #[inline]
    fn absolute_value(&self, relative: i32) -> Score {
        let (s, n) = self.stores();
        Score::from(s) - Score::from(n) + self.to_move().sign() * relative
    }
}

impl fmt::Display for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |s: &[u8]| s.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let (s, n) = self.stores();
        write!(
            f,
            "{}/{}/{s},{n}/{}",
            list(self.south()),
            list(self.north()),
            if self.south_to_move { 'S' } else { 'N' }
        )
    }
}

impl fmt::Debug for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Kalah({self})")
    }
}

impl FromStr for Kalah {
    type Err = Error;
    /// Reads `M,N` (the start of Kalah(M, N)) or the full text form.
    ///
    /// ```
    /// use gamesearch::games::Kalah;
    /// let p: Kalah = "0,0,1/2,0,0/5,4/N".parse().unwrap();
    /// assert_eq!(p.pits(), 3);
    /// assert_eq!("6,4".parse::<Kalah>().unwrap(), Kalah::new(6, 4).unwrap());
    /// assert!("1,2/3/0,0/S".parse::<Kalah>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Kalah, Error> {
        let bad = |m: String| Error::BadParameter(format!("Kalah position `{s}`: {m}"));
        let nums = |part: &str| -> Result<Vec<u32>, Error> {
            part.split(',')
                .map(|x| {
                    x.trim()
                        .parse::<u32>()
                        .map_err(|_| bad(format!("`{x}` is not a seed count")))
                })
                .collect()
        };
        let parts: Vec<&str> = s.trim().split('/').collect();
        if parts.len() == 1 {
            let v = nums(parts[0])?;
            if v.len() != 2 {
                return Err(bad(
                    "expected M,N or S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N".into()
                ));
            }
            return Kalah::new(v[0] as usize, v[1]);
        }
        if parts.len() != 4 {
            return Err(bad("expected 4 parts separated by `/`".into()));
        }
        let (south, north, stores) = (nums(parts[0])?, nums(parts[1])?, nums(parts[2])?);
        let m = south.len();
        if north.len() != m {
            return Err(bad(format!(
                "South has {m} pits but North has {}",
                north.len()
            )));
        }
        if !(1..=MAX_PITS).contains(&m) {
            return Err(bad(format!("1 to {MAX_PITS} pits a side")));
        }
        if stores.len() != 2 {
            return Err(bad("two stores expected, `S,N`".into()));
        }
        let total: u32 = south.iter().chain(&north).chain(&stores).sum();
        if total > MAX_SEEDS {
            return Err(bad(format!("{total} seeds; at most {MAX_SEEDS}")));
        }
        let south_to_move = match parts[3].trim() {
            "S" | "s" => true,
            "N" | "n" => false,
            other => return Err(bad(format!("`{other}`: the side to move is S or N"))),
        };
        let mut holes = [0u8; 2 * MAX_PITS + 2];
        for i in 0..m {
            holes[i] = south[i] as u8;
            holes[m + 1 + i] = north[i] as u8;
        }
        holes[m] = stores[0] as u8;
        holes[2 * m + 1] = stores[1] as u8;
        let p = Kalah {
            holes,
            m: m as u8,
            south_to_move,
        };
        if p.is_over() && (p.south().iter().any(|&x| x > 0) || p.north().iter().any(|&x| x > 0)) {
            return Err(bad(
                "one side is empty but the other still has seeds (they belong in the store)".into(),
            ));
        }
        Ok(p)
    }
}

/// The engine's heuristic (MAX = South's view): the store difference, counted four times, plus
/// the difference of the seeds still in each side's pits — under Irving et al.'s rules a side
/// keeps the seeds left on its side when the other side runs out, so they are likely its own.
/// A finished game is its exact value.
impl Heuristic for Kalah {
    fn heuristic(&self) -> Score {
        if self.is_over() {
            return self.evaluate();
        }
        let side = |pits: &[u8]| pits.iter().map(|&s| Score::from(s)).sum::<Score>();
        4 * self.evaluate() + side(self.south()) - side(self.north())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> Kalah {
        s.parse().unwrap()
    }

    #[test]
    fn sowing_skips_the_opponents_store_and_laps_into_the_start_pit() {
        // South pit 3 of 3 with 8 seeds: store, N1..N3, (skip N store), S1, S2, S3 (start), store.
        let p = k("1,1,8/1,1,1/0,0/S").play(2);
        assert_eq!(p.to_string(), "2,2,1/2,2,2/2,0/S"); // last seed in the store: moves again
                                                        // 14 seeds from South's pit 1 of 3 (7 holes a lap): two full laps.
        let p = k("14,1,1/1,1,1/0,0/S").play(0);
        assert_eq!(p.stores().1, 0, "North's store is skipped");
        assert_eq!(p.total_seeds(), 19);
    }

    #[test]
    fn capture_takes_the_seed_and_the_opposite_pit_even_if_empty() {
        // South pit 1 (1 seed) lands in empty pit 2; opposite is North's pit 2 (index 2m-1 = 5-1).
        let p = k("1,0,3/1,4,1/0,0/S").play(0);
        assert_eq!(p.to_string(), "0,0,3/1,0,1/5,0/N");
        // Opposite pit empty: the single seed still goes to the store.
        let p = k("1,0,3/1,0,1/0,0/S").play(0);
        assert_eq!(p.to_string(), "0,0,3/1,0,1/1,0/N");
        // Landing in an empty pit on the opponent's side captures nothing.
        let p = k("1,0,2/0,1,1/0,0/S").play(2);
        assert_eq!(p.to_string(), "1,0,0/1,1,1/1,0/N");
    }

    #[test]
    fn empty_side_ends_the_game_and_each_side_sweeps_its_own() {
        // South empties its side with a capture-free move into North's side.
        let p = k("0,0,2/3,1,0/4,1/S").play(2);
        assert!(p.is_over());
        assert_eq!(p.stores(), (5, 1 + 3 + 1 + 1));
        assert_eq!(p.moves().count(), 0);
        assert_eq!(p.evaluate(), 5 - 6);
    }

    #[test]
    fn north_moves_and_captures_on_its_side() {
        // North pit 1 (index m+1) with 1 seed into empty North pit 2; opposite is South pit 2.
        let p = k("1,7,1/1,0,2/0,0/N").play(0);
        assert_eq!(p.to_string(), "1,0,1/0,0,2/0,8/S");
    }

    #[test]
    fn illegal_moves_and_bad_text_are_errors() {
        let p = k("0,1,1/1,1,1/0,0/S");
        assert!(p.try_play(0).is_err());
        assert!(p.try_play(3).is_err());
        assert!(p.try_play(1).is_ok());
        for bad in [
            "",
            "6",
            "9,1",
            "0,4",
            "1,2/3/0,0/S",
            "1,1/1,1/0/S",
            "1,1/1,1/0,0/X",
            "a,1/1,1/0,0/S",
            "0,0/1,1/0,0/S",
            "200,200/1,1/0,0/S",
        ] {
            assert!(bad.parse::<Kalah>().is_err(), "{bad}");
        }
    }
}
