//! Kalah's knowledge for the exact solver: a move order.

use gamesearch::SolverKnowledge;

use super::{Kalah, Rule};

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
                let opposite = 2 * m - land;
                if self.holes[land] == 0
                    && (self.holes[opposite] > 0 || self.rule == Rule::EmptyCapture)
                {
                    return 100 + i32::from(self.holes[opposite]) * 8 + pit as i32;
                }
            }
            pit as i32
        };
        moves.sort_by_key(|mv| std::cmp::Reverse(key(mv)));
    }
}
