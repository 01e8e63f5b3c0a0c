//! The engine's move ordering, with no game knowledge: the table's move first, then the two
//! killer moves of the ply (moves that caused a cutoff at the same ply elsewhere), then the rest by
//! their history score (how often, weighted by depth², a move caused a cutoff for that side),
//! ties in generation order. Kept between searches and between moves of a game.

use std::hash::{Hash, Hasher};

use smallvec::SmallVec;

use crate::game::Player;

/// Slots of the history table per side (moves hash into them).
const HISTORY_SLOTS: usize = 4096;

/// Killers and history.
///
/// ```
/// use gamesearch::engine::MoveOrder;
/// use gamesearch::Player;
/// let mut order = MoveOrder::new();
/// order.cutoff(7u8, 3, Player::Max, 4);
/// let mut moves = [(1u8, 0u8), (7, 1), (2, 2)];
/// order.sort(&mut moves, Some(2), 3, Player::Max);
/// assert_eq!(moves.map(|m| m.0), [2, 7, 1]); // the table's move, the killer, the rest
/// ```
#[derive(Clone, Debug)]
pub struct MoveOrder<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<u32>,
}

impl<M: Copy + Eq + Hash> Default for MoveOrder<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Eq + Hash> MoveOrder<M> {
    /// Empty killers and history.
    pub fn new() -> Self {
        MoveOrder {
            killers: Vec::new(),
            history: vec![0; 2 * HISTORY_SLOTS],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.clear();
        self.history.fill(0);
    }

    /// Halves the history, so that a new search weighs its own cutoffs more.
    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
    }

    #[inline]
    fn slot(m: M, side: Player) -> usize {
        let mut h = FxHasher(0);
        m.hash(&mut h);
        let side = usize::from(side == Player::Min);
        side * HISTORY_SLOTS + (h.finish() as usize & (HISTORY_SLOTS - 1))
    }

    /// Records that `m` caused a cutoff at `ply` for `side`, `depth` plies from the horizon.
    #[inline]
    pub fn cutoff(&mut self, m: M, ply: usize, side: Player, depth: u32) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let h = &mut self.history[Self::slot(m, side)];
        *h = h.saturating_add(depth * depth);
    }

    /// Orders `moves` (each with its generation index): `first` (the table's move), the killers
    /// of `ply`, then by history for `side`; stable, so ties keep generation order.
    #[inline]
    pub fn sort<I: Copy>(&self, moves: &mut [(M, I)], first: Option<M>, ply: usize, side: Player) {
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        let key = |m: M| -> u64 {
            if Some(m) == first {
                u64::MAX
            } else if Some(m) == killers[0] {
                u64::MAX - 1
            } else if Some(m) == killers[1] {
                u64::MAX - 2
            } else {
                u64::from(self.history[Self::slot(m, side)])
            }
        };
        // Insertion sort on keys computed once: a handful of moves, stable, and no allocation
        // up to 32 moves.
        let mut keys: SmallVec<[u64; 32]> = moves.iter().map(|m| key(m.0)).collect();
        crate::sort::by_key_descending(moves, &mut keys);
    }
}

/// A fast multiplicative hasher for small keys (moves are integers or small structs).
struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}
