//! A game as the solver's knowledge sees it: [`Informed`] plays `G` with only the moves its
//! [`SolverKnowledge`] keeps, in the order it gives, and ends a position whose value that
//! knowledge settles. A search that reads only [`Game`] — the tree proof-number search — then
//! uses what df-pn and the alpha-beta solver use: Hex's must-play region and virtual
//! connections, Connect-Four's blocked threats.
//!
//! A position's value is settled, in this order, by [`SolverKnowledge::exact_value`], a move
//! that wins at once ([`SolverKnowledge::immediate_win`]: the value after it), every move
//! losing at once with a known value ([`SolverKnowledge::forced_loss_value`]), or
//! [`SolverKnowledge::quiet_bounds`] that meet. Otherwise its moves are those
//! [`SolverKnowledge::non_losing_moves`] keeps (one, when it keeps none), ordered by
//! [`SolverKnowledge::order_moves`]. The values are the game's: a search of the informed game
//! finds the value of the game itself.

use smallvec::SmallVec;

use crate::game::{Game, Player, PositionKey, Score};
use crate::solver::SolverKnowledge;

/// `G` with its solver knowledge applied to its moves and its ends.
///
/// ```
/// use gamesearch::proof_number::Informed;
/// use gamesearch::{Game, SolverKnowledge};
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// // Nim's knowledge: taking the last stones wins at once, so 2 stones are settled, won.
/// let p = Informed::new(Nim::new(2));
/// assert_eq!(p.moves().count(), 0);
/// assert_eq!(p.evaluate(), 1);
/// // 5 stones: no move wins at once; all three moves are kept.
/// assert_eq!(Informed::new(Nim::new(5)).moves().count(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct Informed<G> {
    inner: G,
    /// The value the knowledge settles, if it does.
    settled: Option<Score>,
}

impl<G: SolverKnowledge> Informed<G> {
    /// Wraps `inner`, asking its knowledge whether its value is settled.
    pub fn new(inner: G) -> Self {
        let settled = settle(&inner);
        Informed { inner, settled }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// The value the knowledge settles without a search, if it does.
    pub fn settled(&self) -> Option<Score> {
        self.settled
    }
}

/// The value of `p` when its knowledge settles it (see the module's doc).
fn settle<G: SolverKnowledge>(p: &G) -> Option<Score> {
    if let Some(v) = p.exact_value() {
        return Some(v);
    }
    let mut moves: SmallVec<[G::Move; 16]> = p.moves().collect();
    if moves.is_empty() {
        return None; // the game's own end: its evaluation
    }
    if let Some(win) = p.immediate_win() {
        return Some(p.play(win).evaluate());
    }
    if p.non_losing_moves(&mut moves) == 0 {
        return p.forced_loss_value();
    }
    match p.quiet_bounds() {
        Some((lo, hi)) if lo == hi => Some(lo),
        _ => None,
    }
}

impl<G: SolverKnowledge> Game for Informed<G> {
    type Move = G::Move;
    type Moves = smallvec::IntoIter<[G::Move; 16]>;

    fn to_move(&self) -> Player {
        self.inner.to_move()
    }

    fn moves(&self) -> Self::Moves {
        let mut moves: SmallVec<[G::Move; 16]> = SmallVec::new();
        if self.settled.is_none() {
            moves.extend(self.inner.moves());
            if !moves.is_empty() {
                // Every move loses at once and the game cannot say by how much: one stands
                // for all (the one the game put first).
                let kept = self.inner.non_losing_moves(&mut moves).max(1);
                moves.truncate(kept);
                self.inner.order_moves(&mut moves);
            }
        }
        moves.into_iter()
    }

    fn play(&self, m: G::Move) -> Self {
        Informed::new(self.inner.play(m))
    }

    fn evaluate(&self) -> Score {
        self.settled.unwrap_or_else(|| self.inner.evaluate())
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

impl<G: SolverKnowledge + PositionKey> PositionKey for Informed<G> {
    fn key(&self) -> u64 {
        self.inner.key()
    }
}
