// The small game the library's doctests use, written as a user's crate would write one: only the
// library's public traits. A doctest brings it in with
//
//     # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//
// Nim with one pile: take 1, 2 or 3 stones; whoever takes the last stone wins (+1 when the first
// player, MAX, does). A pile that is a multiple of 4 is lost for the side to move. Different
// lines reach the same pile (transpositions), and a side with 1 to 3 stones before it wins at
// once.

use gamesearch::engine::Heuristic;
use gamesearch::retrograde::{DenseIndex, UnMoves};
use gamesearch::split::Splittable;
use gamesearch::tablebase::Tablebase;
use gamesearch::{Game, Player, PositionKey, Score, SolverKnowledge};

/// A pile and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    /// Stones left.
    pub pile: u8,
    /// Who takes next.
    pub to_move: Player,
}

impl Nim {
    /// A pile of `pile` stones, the first player (MAX) to move.
    pub fn new(pile: u8) -> Nim {
        Nim { pile, to_move: Player::Max }
    }
}

impl Game for Nim {
    type Move = u8;
    type Moves = std::ops::RangeInclusive<u8>;
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn moves(&self) -> Self::Moves {
        1..=self.pile.min(3)
    }
    fn play(&self, m: u8) -> Self {
        Nim { pile: self.pile - m, to_move: self.to_move.opponent() }
    }
    fn evaluate(&self) -> Score {
        // Game over: the player who just moved took the last stone and won.
        if self.pile == 0 {
            -self.to_move.sign()
        } else {
            0
        }
    }
    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }
}

impl PositionKey for Nim {
    fn key(&self) -> u64 {
        u64::from(self.pile) << 1 | u64::from(self.to_move == Player::Max)
    }
}

impl SolverKnowledge for Nim {
    fn immediate_win(&self) -> Option<u8> {
        (1..=3).contains(&self.pile).then_some(self.pile)
    }
}

// The engine's knowledge: none beyond the rules (a position's heuristic value is 0).
impl Heuristic for Nim {}

// An endgame database: the class is the pile (moves only lower it), the rank the side to move,
// the values the mover's.
impl Tablebase for Nim {
    fn tablebase_rules(&self) -> String {
        "nim".into()
    }
    fn class(&self) -> u32 {
        u32::from(self.pile)
    }
    fn class_size(&self, _: u32) -> Option<u64> {
        Some(2)
    }
    fn rank(&self) -> u64 {
        u64::from(self.to_move == Player::Min)
    }
    fn unrank(&self, class: u32, rank: u64) -> Self {
        let to_move = if rank == 0 { Player::Max } else { Player::Min };
        Nim { pile: class as u8, to_move }
    }
    fn relative_value(&self, score: Score) -> i32 {
        score * self.to_move.sign()
    }
    fn absolute_value(&self, relative: i32) -> Score {
        relative * self.to_move.sign()
    }
}

// Job-level solving: a position as text another process could read back.
impl Splittable for Nim {
    fn rules(&self) -> String {
        "nim".into()
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("nim:{}:{}", self.pile, if self.to_move == Player::Max { "max" } else { "min" })
    }
}

// Strong solving from un-moves: a key read back, and the piles one move before (1 to 3 more
// stones, the other side to move; those past the root's pile are never reached and skipped).
impl UnMoves for Nim {
    fn position_of(&self, key: u64) -> Option<Self> {
        let pile = u8::try_from(key >> 1).ok()?;
        let to_move = if key & 1 == 1 { Player::Max } else { Player::Min };
        Some(Nim { pile, to_move })
    }
    fn unmoves(&self, mut each: impl FnMut(Self)) {
        for m in 1..=3u8 {
            if let Some(pile) = self.pile.checked_add(m) {
                each(Nim { pile, to_move: self.to_move.opponent() });
            }
        }
    }
}

// Strong solving over a dense index: a number for each pile up to the root's and side to move;
// a pile of 3 or fewer stones is won at once (the turn passed to its mover) and goes unnumbered,
// as the empty pile (over) does.
impl DenseIndex for Nim {
    fn index_len(&self) -> u64 {
        2 * (u64::from(self.pile) + 1)
    }
    fn index(&self) -> Option<u64> {
        (self.pile > 3).then(|| u64::from(self.pile) << 1 | u64::from(self.to_move == Player::Max))
    }
    fn position_at(&self, index: u64) -> Option<Self> {
        let pile = u8::try_from(index >> 1).ok().filter(|&p| p > 3)?;
        let to_move = if index & 1 == 1 { Player::Max } else { Player::Min };
        Some(Nim { pile, to_move })
    }
    fn wins_at_once(&self) -> bool {
        (1..=3).contains(&self.pile)
    }
}
