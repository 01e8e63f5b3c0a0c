//! Move-ordering adapters: any [`Game`] with its successors put in another order, as Pearl's
//! Kalah experiment compares (Pearl 1980, section III: "random ordering" and "dynamic ordering").
//!
//! - [`MoveOrder::Random`]: a pseudo-random permutation, fixed per position (a hash of the
//!   position's [`PositionKey::key`] and a seed), so every algorithm sees the same tree.
//! - [`MoveOrder::Dynamic`]: children sorted best-first for the side to move by a one-ply
//!   shallow evaluation `f(p_i)` (stable, so ties keep generation order). These evaluations
//!   order the tree; they are not counted as the search's leaf evaluations.

use smallvec::SmallVec;

use crate::game::{Adapter, Game, Player, PositionKey, Score};

/// How to reorder the successors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// Generation order (the adapter changes nothing).
    Natural,
    /// A fixed pseudo-random permutation per position, from this seed.
    Random(u64),
    /// Best-first by the static evaluation of each child.
    Dynamic,
}

/// `G` with its moves reordered.
///
/// ```
/// use gamesearch::adapters::{MoveOrder, Ordered};
/// use gamesearch::{trees::ExplicitTree, Game};
/// let t = ExplicitTree::parse("(max 1 5 3)").unwrap();
/// let dynamic = Ordered::new(t.root(), MoveOrder::Dynamic);
/// // The second child's f is the highest for MAX, so it comes first.
/// assert_eq!(dynamic.moves().collect::<Vec<_>>(), [1, 2, 0]);
/// assert_eq!(Ordered::new(t.root(), MoveOrder::Random(7)).moves().count(), 3);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Ordered<G> {
    inner: G,
    order: MoveOrder,
}

impl<G: Game> Ordered<G> {
    /// Wraps `inner`.
    pub fn new(inner: G, order: MoveOrder) -> Self {
        Ordered { inner, order }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<G: PositionKey> Game for Ordered<G> {
    type Move = G::Move;
    type Moves = smallvec::IntoIter<[G::Move; 16]>;

    fn to_move(&self) -> Player {
        self.inner.to_move()
    }

    fn moves(&self) -> Self::Moves {
        let mut moves: SmallVec<[G::Move; 16]> = self.inner.moves().collect();
        match self.order {
            MoveOrder::Natural => {}
            MoveOrder::Random(seed) => {
                // Fisher–Yates driven by a hash of (position, seed).
                let mut z = mix(self.inner.key() ^ mix(seed));
                for i in (1..moves.len()).rev() {
                    z = mix(z);
                    let j = ((z as u128 * (i as u128 + 1)) >> 64) as usize;
                    moves.swap(i, j);
                }
            }
            MoveOrder::Dynamic => {
                let sign = self.inner.to_move().sign();
                let mut keyed: SmallVec<[(Score, G::Move); 16]> = moves
                    .iter()
                    .map(|&m| (-sign * self.inner.play(m).evaluate(), m))
                    .collect();
                keyed.sort_by_key(|&(k, _)| k);
                moves = keyed.into_iter().map(|(_, m)| m).collect();
            }
        }
        moves.into_iter()
    }

    fn play(&self, m: G::Move) -> Self {
        Ordered {
            inner: self.inner.play(m),
            order: self.order,
        }
    }

    fn evaluate(&self) -> Score {
        self.inner.evaluate()
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        self.inner.value_bounds()
    }

    fn move_name(&self, m: G::Move) -> String {
        self.inner.move_name(m)
    }
    const REPEATS: bool = G::REPEATS;
    fn repetition_value(&self) -> Score {
        self.inner.repetition_value()
    }
}

/// The inner game's key and solver knowledge (the solver orders moves its own way).
impl<G: PositionKey> Adapter for Ordered<G> {
    type Inner = G;
    fn inner(&self) -> &G {
        &self.inner
    }
}
