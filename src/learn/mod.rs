//! Evaluations learned from the game itself: a sum of weights looked up by the features the game
//! enumerates, one table of weights per stage of the game, fitted by least squares to values
//! the library computes itself.
//!
//! This is the pattern evaluation of Buro's Logistello (Buro 1997, "Experiments with
//! Multi-ProbCut and a new high-quality evaluation function for Othello"; Buro 2002,
//! "Improving heuristic mini-max search by supervised learning"), made generic:
//!
//! - **The game says what it sees** ([`Features`]): for each position a stage (0 nearest the
//!   end) and the indices of the features present — for Othello, the configuration of each
//!   edge, corner and diagonal; for another game whatever it chooses. The evaluation is the
//!   sum of the stage's weights at those indices: the value from the side to move's view.
//! - **The library makes its own data** ([`learn`]): positions from seeded self-play with noise
//!   (so that they vary), each labelled by the exact solver where the game is near enough its
//!   end, and above that by a search whose leaves the stages below have already learned —
//!   bootstrapping stage by stage from the end, as the Othello engines do.
//! - **The fit** is least squares per stage, started from the stage below (a feature the
//!   stage never saw keeps its neighbour's weight), stopped where the error on held-out games
//!   is least; that error is reported per stage.
//! - **The weights** ([`Weights`]) are 16-bit integers, saved to a checksummed file bound to
//!   the game's feature set ([`Features::feature_set`]); a file for another game, a truncated
//!   one or one whose checksum is wrong is refused with one clear line.
//!
//! ```
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! use gamesearch::learn::{learn, Features, LearnConfig};
//! use gamesearch::Game;
//! // Nim (take 1-3, the last stone wins) sees one feature: the pile modulo 4.
//! impl Features for Nim {
//!     fn feature_set(&self) -> String { "nim-mod4".into() }
//!     fn stages(&self) -> usize { 1 }
//!     fn weights_per_stage(&self) -> usize { 4 }
//!     fn stage(&self) -> usize { 0 }
//!     fn features(&self, out: &mut impl FnMut(u32)) { out(u32::from(self.pile % 4)) }
//! }
//! let cfg = LearnConfig { games: 200, seed: 7, exact_stages: 1, ..LearnConfig::default() };
//! let learned = learn(&Nim::new(21), &cfg, &Default::default(), |_| {}).unwrap();
//! // The side to move loses exactly when the pile is a multiple of 4.
//! let w = &learned.weights;
//! assert!(w.value(&Nim::new(8)) < 0 && w.value(&Nim::new(9)) > 0);
//! ```

mod train;
mod weights;

pub use train::{learn, LearnConfig, LearnProgress, Learned, StageReport};
pub use weights::Weights;

use crate::game::Game;

/// What a game shows the learned evaluation: a stage and the features present. The weighted
/// sum predicts the value **from the side to move's view** (nega-max), in the game's own units
/// ([`Game::evaluate`]'s).
///
/// The indices a position gives must be below [`Features::weights_per_stage`]; one index may
/// come more than once (its weight then counts each time: symmetric instances of one pattern
/// share a table by giving indices into the same range).
pub trait Features: Game {
    /// A name for the features' layout, stored in a weights file and checked when it is read
    /// back (a file learned for another game or another layout is refused): e.g.
    /// `"othello-8x8-patterns-1"`.
    fn feature_set(&self) -> String;

    /// How many stages the game has (at least 1): each has its own table of weights.
    fn stages(&self) -> usize;

    /// How many weights one stage holds: every feature index is below it.
    fn weights_per_stage(&self) -> usize;

    /// The position's stage, below [`Features::stages`]: 0 nearest the game's end, rising
    /// towards the start (the learning labels stage 0 first and each later stage from the
    /// ones below it).
    fn stage(&self) -> usize;

    /// Calls `out` with the index of each feature the position has.
    fn features(&self, out: &mut impl FnMut(u32));
}
