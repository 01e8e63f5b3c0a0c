//! Kalah's endgame databases: classes by the seeds in the pits, ranked by the combinatorial
//! number system.

use gamesearch::tablebase::Tablebase;
use gamesearch::{Game, Score};

use super::{Kalah, MAX_PITS};

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
/// use gamesearch_games::Kalah;
/// use gamesearch::tablebase::Tablebase;
/// use gamesearch::Game;
/// let p: Kalah = "1,0,2/0,3,1/5,4/N".parse().unwrap();
/// assert_eq!(p.class(), 7);
/// let q = p.unrank(p.class(), p.rank()); // the mover's side first: South to move
/// assert_eq!(q.to_string(), "0,3,1/1,0,2/0,0/S");
/// assert_eq!(p.class_size(7), Some(792)); // C(7 + 5, 5) ways to lay 7 seeds in 6 pits
/// ```
impl Tablebase for Kalah {
    fn tablebase_rules(&self) -> String {
        super::jobs::rules_of(self)
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
            rule: self.rule,
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
