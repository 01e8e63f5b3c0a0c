//! Whole turns as moves: [`WholeTurns`] turns a game whose side may move several times in a row
//! (Kalah's extra move) into one where every move is a whole turn — the plies a side plays until
//! the other side is to move or the game ends. A horizon then counts turns, not plies, which is
//! one reading of "search depth" in Pearl's Kalah experiment (Pearl 1980).

use smallvec::SmallVec;

use crate::engine::Heuristic;
use crate::game::{Game, Player, PositionKey, Score};
use crate::solver::SolverKnowledge;

/// Most plies in one turn; a longer run is cut there and the same side simply moves again.
pub const MAX_TURN_PLIES: u32 = 15;

/// A turn: up to 15 plies, each the index of the ply's move in generation order (4 bits each),
/// and the count in the top nibble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn(u64);

impl Turn {
    fn push(self, index: usize) -> Turn {
        let len = self.len();
        Turn((self.0 & !(0xF << 60)) | ((index as u64) << (4 * len)) | ((len as u64 + 1) << 60))
    }

    /// Number of plies.
    pub fn len(self) -> u32 {
        (self.0 >> 60) as u32
    }

    /// True for the empty turn (never generated).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    fn index(self, i: u32) -> usize {
        ((self.0 >> (4 * i)) & 0xF) as usize
    }
}

/// `G` with whole turns as moves.
///
/// ```
/// use gamesearch::adapters::WholeTurns;
/// use gamesearch::{trees::ExplicitTree, Game};
/// // MAX moves twice in a row through B; through E, MIN moves next.
/// let tree = ExplicitTree::parse("(A max (B max C=1 D=2) (E min F=3 G=4))").unwrap();
/// let t = WholeTurns::new(tree.root());
/// // Three whole turns: B then C, B then D, and E.
/// assert_eq!(t.moves().count(), 3);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct WholeTurns<G> {
    inner: G,
}

impl<G: Game> WholeTurns<G> {
    /// Wraps `inner`.
    pub fn new(inner: G) -> Self {
        WholeTurns { inner }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.inner
    }

    fn collect(&self, p: &G, turn: Turn, me: Player, out: &mut SmallVec<[Turn; 16]>) {
        for (i, m) in p.moves().enumerate() {
            let next = turn.push(i);
            let child = p.play(m);
            if child.to_move() == me
                && next.len() < MAX_TURN_PLIES
                && child.moves().next().is_some()
            {
                self.collect(&child, next, me, out);
            } else {
                out.push(next);
            }
        }
    }
}

impl<G: Game> Game for WholeTurns<G> {
    type Move = Turn;
    type Moves = smallvec::IntoIter<[Turn; 16]>;

    fn to_move(&self) -> Player {
        self.inner.to_move()
    }

    fn moves(&self) -> Self::Moves {
        let mut out = SmallVec::new();
        if self.inner.moves().next().is_some() {
            self.collect(&self.inner, Turn(0), self.inner.to_move(), &mut out);
        }
        out.into_iter()
    }

    fn play(&self, t: Turn) -> Self {
        let mut p = self.inner.clone();
        for i in 0..t.len() {
            let m = p.moves().nth(t.index(i)).expect("a turn generated here");
            p = p.play(m);
        }
        WholeTurns { inner: p }
    }

    fn evaluate(&self) -> Score {
        self.inner.evaluate()
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        self.inner.value_bounds()
    }

    fn move_name(&self, t: Turn) -> String {
        let mut p = self.inner.clone();
        let mut names = Vec::new();
        for i in 0..t.len() {
            let m = p.moves().nth(t.index(i)).expect("a turn generated here");
            names.push(p.move_name(m));
            p = p.play(m);
        }
        names.join("+")
    }
    const REPEATS: bool = G::REPEATS;
    fn repetition_value(&self) -> Score {
        self.inner.repetition_value()
    }
}

/// A position is the inner game's position: the same key.
impl<G: PositionKey> PositionKey for WholeTurns<G> {
    fn key(&self) -> u64 {
        self.inner.key()
    }
}

/// Whole turns are moves the inner game's knowledge does not know: the solver's defaults.
impl<G: PositionKey> SolverKnowledge for WholeTurns<G> {}

/// The inner game's heuristic: a whole turn ends in one of its positions.
impl<G: PositionKey + Heuristic> Heuristic for WholeTurns<G> {
    fn heuristic(&self) -> Score {
        self.inner.heuristic()
    }
}
