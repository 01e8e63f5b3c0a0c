//! Kalah(m, n): m pits a side, n seeds a pit, under either of the two capture rules in use
//! ([`Rule`]): by default the "empty capture" rule of Irving, Donkers & Uiterwijk, "Solving
//! Kalah", ICGA Journal 23(3), 2000 — the variant whose first-player margins they publish (their
//! Table 9), which our tests check — or the standard rule most boards and players use.
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
//!   go to the mover's store — under [`Rule::EmptyCapture`] even if the opposite pit is empty,
//!   under [`Rule::Standard`] only if it holds seeds (otherwise the seed stays).
//! - When a move leaves one side without seeds, the game ends and each player puts the seeds
//!   left on their own side into their store (so the player with seeds left takes them all).
//! - `f(p)` = South's store − North's store: exact at game end, the heuristic elsewhere.
//!
//! # Text form
//! `S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N`: South's pits left to right, North's pits in sowing
//! order (North's pit 1 is opposite South's pit m), the two stores, and who is to move. E.g. the
//! start of Kalah(4, 3) is `3,3,3,3/3,3,3,3/0,0/S`. A position under the standard rule ends in
//! `:standard` (`3,3,3,3/3,3,3,3/0,0/S:standard`, or `4,3:standard` for the start); without it
//! the rule is Irving et al.'s. [`Kalah::new`] builds the start position; `Display` prints this
//! form and `FromStr` reads it.

pub use learned::{active_weights, shipped_weights, test_suite_positions, use_weights};

use gamesearch::error::Error;
use gamesearch::game::{Game, Player, PositionKey, Score};

/// Most pits a side.
pub const MAX_PITS: usize = 8;
/// Most seeds on the board (a pit holds a byte).
pub const MAX_SEEDS: u32 = 255;

/// Which last seeds capture: the one rule the published Kalah analyses differ on.
///
/// Both rules capture a last seed sown into an empty pit of the mover's own side together with
/// the seeds of the pit opposite. They differ when that opposite pit is empty.
///
/// ```
/// use gamesearch_games::{Kalah, Rule};
/// use gamesearch::Game;
/// // South's pit 1 (one seed) lands in its empty pit 2; North's pit opposite is empty.
/// let empty: Kalah = "1,0,3/1,0,1/0,0/S".parse().unwrap();
/// assert_eq!(empty.rule(), Rule::EmptyCapture);
/// assert_eq!(empty.play(0).to_string(), "0,0,3/1,0,1/1,0/N"); // the seed is captured
/// let standard: Kalah = "1,0,3/1,0,1/0,0/S:standard".parse().unwrap();
/// assert_eq!(standard.play(0).to_string(), "0,1,3/1,0,1/0,0/N:standard"); // it stays
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Irving, Donkers & Uiterwijk's (2000): the last seed is captured even when the pit
    /// opposite is empty. The default, and the rule of their published values.
    #[default]
    EmptyCapture,
    /// The rule most players know (and Wikipedia's): a capture needs seeds in the pit opposite;
    /// otherwise the last seed stays in its pit.
    Standard,
}

impl Rule {
    /// The rule's name in the text form: `empty-capture` or `standard`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::EmptyCapture => "empty-capture",
            Rule::Standard => "standard",
        }
    }

    /// One line for people: the rule, and what a capture takes under it.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::EmptyCapture => "empty-capture rule (Irving et al. 2000): a last seed in an own empty pit is taken even with the pit opposite empty",
            Rule::Standard => "standard rule: a last seed in an own empty pit is taken only with seeds in the pit opposite",
        }
    }
}

/// A Kalah position: 2m + 2 holes, the mover and the capture [`Rule`]; 21 bytes. Copy-made.
///
/// ```
/// use gamesearch_games::Kalah;
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
    rule: Rule,
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
            rule: Rule::default(),
        })
    }

    /// This position under the capture rule `rule`.
    ///
    /// ```
    /// use gamesearch_games::{Kalah, Rule};
    /// let k = Kalah::new(4, 3).unwrap().with_rule(Rule::Standard);
    /// assert_eq!(k.to_string(), "3,3,3,3/3,3,3,3/0,0/S:standard");
    /// ```
    pub fn with_rule(self, rule: Rule) -> Kalah {
        Kalah { rule, ..self }
    }

    /// The capture rule this game is played under.
    pub fn rule(&self) -> Rule {
        self.rule
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
                // Capture: this seed and the opposite pit's seeds — under the empty-capture
                // rule even when there are none.
                let opposite = 2 * m - pos;
                if h[opposite] > 0 || self.rule == Rule::EmptyCapture {
                    h[own_store] += 1 + h[opposite];
                    h[pos] = 0;
                    h[opposite] = 0;
                }
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
        // The holes (18 bytes), the mover and the rule, mixed.
        let mut a = [0u8; 8];
        let mut b = [0u8; 8];
        let mut c = [0u8; 8];
        a.copy_from_slice(&self.holes[0..8]);
        b.copy_from_slice(&self.holes[8..16]);
        c[..2].copy_from_slice(&self.holes[16..18]);
        c[2] = self.south_to_move as u8;
        c[3] = self.m;
        c[4] = self.rule as u8;
        let mut z = u64::from_le_bytes(a).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z.rotate_left(29) ^ u64::from_le_bytes(b)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z.rotate_left(31) ^ u64::from_le_bytes(c)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 29)
    }
}

mod heuristic;
mod jobs;
mod knowledge;
mod learned;
mod notation;
mod tablebase;
#[cfg(test)]
mod tests;
