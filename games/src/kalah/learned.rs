//! Kalah's features for the library's learned evaluation ([`gamesearch::learn`]), seen from the
//! side to move: each pit's seeds (its own table for each pit of each side, so that a pit that
//! ends exactly in the store is told apart), each of the mover's pits with the pit opposite (a
//! capture's two pits), and the store difference in binary (one feature a bit set, so that a
//! linear term is learned exactly); the stage is the seeds left in the pits, in fours.
//!
//! The weights the repository ships (`games/weights/`) were learned by `gamesearch learn`
//! (docs/results/kalah.md says with what command, seed and time).

use std::sync::OnceLock;

use gamesearch::learn::{Features, Weights};

use super::{Kalah, Rule, MAX_PITS};
use crate::learned::{shipped, Choice};

/// Seeds in the pits a stage spans.
const STAGE_WIDTH: u32 = 4;
/// Stages: the last takes every position with at least `(STAGES - 1) · STAGE_WIDTH` seeds in
/// its pits (Kalah(6, 4) starts there).
const STAGES: usize = 13;
/// The most seeds a pit's feature tells apart (more count as this many).
const PIT_CAP: u8 = 15;
/// The most seeds the mover's pit tells apart in a capture's pair.
const PAIR_CAP: u8 = 3;
/// Bits of the store difference (offset by half their range, clamped).
const STORE_BITS: u32 = 7;

impl Kalah {
    /// The mover's pits and the other side's, each in sowing order (the mover's pit `i` lies
    /// opposite the other side's `m − 1 − i`), and the stores' difference, mover's view.
    fn mover_view(&self) -> (&[u8], &[u8], i32) {
        let (south, north) = (self.south(), self.north());
        let (s, n) = self.stores();
        let difference = i32::from(s) - i32::from(n);
        if self.south_to_move {
            (south, north, difference)
        } else {
            (north, south, -difference)
        }
    }
}

impl Features for Kalah {
    fn feature_set(&self) -> String {
        let rule = match self.rule() {
            Rule::EmptyCapture => "",
            Rule::Standard => "-standard",
        };
        format!("kalah-{}{rule}-pits-1", self.pits())
    }

    fn stages(&self) -> usize {
        STAGES
    }

    fn weights_per_stage(&self) -> usize {
        let m = self.pits();
        let pit = usize::from(PIT_CAP) + 1;
        2 * m * pit + m * (usize::from(PAIR_CAP) + 1) * pit + STORE_BITS as usize + 1
    }

    #[inline]
    fn stage(&self) -> usize {
        let seeds: u32 = self
            .south()
            .iter()
            .chain(self.north())
            .map(|&s| u32::from(s))
            .sum();
        ((seeds / STAGE_WIDTH) as usize).min(STAGES - 1)
    }

    #[inline]
    fn features(&self, out: &mut impl FnMut(u32)) {
        let (mine, theirs, difference) = self.mover_view();
        let m = mine.len() as u32;
        let pit = u32::from(PIT_CAP) + 1;
        for (i, &s) in mine.iter().enumerate() {
            out(i as u32 * pit + u32::from(s.min(PIT_CAP)));
        }
        for (i, &s) in theirs.iter().enumerate() {
            out((m + i as u32) * pit + u32::from(s.min(PIT_CAP)));
        }
        let pairs = 2 * m * pit;
        for (i, &s) in mine.iter().enumerate() {
            let opposite = theirs[mine.len() - 1 - i];
            let pair = u32::from(s.min(PAIR_CAP)) * pit + u32::from(opposite.min(PIT_CAP));
            out(pairs + (i as u32 * (u32::from(PAIR_CAP) + 1)) * pit + pair);
        }
        let bits = pairs + m * (u32::from(PAIR_CAP) + 1) * pit;
        let half = 1 << (STORE_BITS - 1);
        let offset = (difference + half).clamp(0, 2 * half - 1) as u32;
        for bit in 0..STORE_BITS {
            if offset >> bit & 1 != 0 {
                out(bits + bit);
            }
        }
        out(bits + STORE_BITS);
    }
}

/// The positions of Kalah with `m` pits under `rule` that the tests value against published
/// figures: the starts of Kalah(m, 1) to Kalah(m, 6) (Irving et al.'s Table 9). `gamesearch
/// learn` keeps them out of its training data.
pub fn test_suite_positions(m: usize, rule: Rule) -> Vec<Kalah> {
    (1..=6)
        .filter_map(|n| Kalah::new(m, n).ok())
        .map(|start| start.with_rule(rule))
        .collect()
}

/// The weights the repository ships for Kalah with `m` pits a side under `rule`
/// (`games/weights/`), read and checked once: `None` where there are none (the engine then uses
/// its hand-written heuristic). Six pits under Irving et al.'s rule have them.
///
/// ```
/// use gamesearch::learn::Features;
/// use gamesearch_games::kalah::shipped_weights;
/// use gamesearch_games::{Kalah, Rule};
/// let start = Kalah::new(6, 4).unwrap();
/// let w = shipped_weights(6, Rule::EmptyCapture).unwrap();
/// assert_eq!(w.feature_set(), start.feature_set());
/// assert!(shipped_weights(6, Rule::Standard).is_none());
/// ```
pub fn shipped_weights(m: usize, rule: Rule) -> Option<&'static Weights> {
    static SIX: OnceLock<Weights> = OnceLock::new();
    (m == 6 && rule == Rule::EmptyCapture).then(|| {
        shipped(
            &SIX,
            include_bytes!("../../weights/kalah-6.gsw"),
            "kalah-6-pits-1",
            "games/weights/kalah-6.gsw",
        )
    })
}

/// The weights Kalah's engine uses with `m` pits a side under `rule`: those given to
/// [`use_weights`] first, else the shipped ones ([`shipped_weights`]). `None`: the hand-written
/// heuristic (also inside [`crate::learned::hand_written`]).
#[inline]
pub fn active_weights(m: usize, rule: Rule) -> Option<&'static Weights> {
    CHOSEN[slot(m, rule)].active(|| shipped_weights(m, rule))
}

/// Chooses the weights of Kalah with `m` pits a side under `rule` for the rest of the process
/// (`None`: the hand-written heuristic): a file from `gamesearch learn` checked against the
/// board ([`Weights::load`]). Once only, before any search; an error after.
pub fn use_weights(
    m: usize,
    rule: Rule,
    weights: Option<Weights>,
) -> Result<(), gamesearch::Error> {
    let board = Kalah::new(m, 1)?.with_rule(rule);
    CHOSEN[slot(m, rule)].choose(
        &board,
        weights,
        &format!("Kalah with {m} pits ({})", rule.name()),
    )
}

/// Each pit count's and rule's chosen weights.
static CHOSEN: [Choice; 2 * MAX_PITS] = [const { Choice::new() }; 2 * MAX_PITS];

/// Where Kalah with `m` pits (1 to [`MAX_PITS`]) under `rule` lies in [`CHOSEN`].
fn slot(m: usize, rule: Rule) -> usize {
    2 * (m.clamp(1, MAX_PITS) - 1) + rule as usize
}
