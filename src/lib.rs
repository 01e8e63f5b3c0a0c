//! # gamesearch
//!
//! Two-player game-tree search, generically and fast: the algorithms of the classic literature
//! (minimax, alpha-beta, Pearl's SCOUT, NegaScout, PVS, proof-number and conspiracy-number
//! search, an exact solver), each checked against plain minimax.
//!
//! Implement [`Game`] (the rules) for your game (the crate `gamesearch-games` holds
//! Connect-Four, Kalah and tic-tac-toe written so), or take one of the literature's abstract
//! [`trees`]; then
//! - [`search()`] runs any [`Algorithm`] to a horizon and returns an [`Outcome`];
//! - [`solve()`] solves a game exactly with any [`Method`] (alpha-beta with a transposition
//!   table and null-window tests, tree PN, df-pn; binary or multi-valued), for games with a
//!   [`PositionKey`] and [`SolverKnowledge`] (an empty `impl` will do); the alpha-beta solver's
//!   own API is [`solver`] ([`ExactSolver`] keeps its table between solves);
//! - [`pn_value`] and [`cns`] are proof-number and conspiracy-number search with their own
//!   configurations.
//! - [`trace::search_observed`] runs any algorithm with an [`trace::Observer`] watching every
//!   step (windows, leaves, cut-offs, re-searches, bounds, proof and conspiracy numbers); a
//!   [`trace::Recorder`] keeps them as a [`trace::Trace`] (what `gamesearch trace` draws).
//!
//! ```
//! use gamesearch::{search, trees::RandomTreeSpec, Algorithm, SearchConfig};
//! let root = RandomTreeSpec::new(4, 6, 42).root().unwrap();
//! let cfg = SearchConfig::new(6);
//! let ab = search(&root, Algorithm::AlphaBeta, &cfg);
//! let ns = search(&root, Algorithm::NegaScout, &cfg);
//! assert_eq!(ab.value, ns.value);
//! println!("alpha-beta {} leaves, NegaScout {}", ab.stats.leaves, ns.stats.leaves);
//! ```
//!
//! Every algorithm's literature is listed in `REFERENCES.md`; the modules cite it.
#![warn(missing_docs)]

pub mod adapters;
mod arena;
pub mod bstar;
pub mod conspiracy;
pub mod depth_first;
pub mod engine;
pub mod error;
pub mod exact;
pub mod game;
pub mod learn;
pub mod limits;
pub mod mcts;
mod memory;
pub mod observe;
pub mod outcome;
pub mod proof_number;
mod random;
pub mod report;
pub mod retrograde;
pub mod search;
pub mod solver;
pub mod sort;
pub mod split;
mod stack;
pub mod stats;
pub mod tablebase;
pub mod trace;
pub mod trees;

pub use conspiracy::{cns, CnConfig};
pub use error::Error;
pub use exact::{solve, Method};
pub use game::{line_names, Adapter, Game, Player, PositionKey, Score, INF, VALUE_RANGE};
pub use limits::Limits;
pub use proof_number::{pn_value, PnConfig};
pub use report::{Report, SolveReport};
pub use search::{
    run_report, run_report_parallel, search, search_parallel, Algorithm, BStarParams, CnsParams,
    Details, MctsParams, Outcome, SearchConfig,
};
pub use solver::{ExactSolver, Solution, SolveConfig, SolverKnowledge, ANY_SUPPORT};
pub use stats::Stats;

/// The README's code, compiled and run as a doctest (its `rust` block; the `sh` and `text`
/// blocks are not Rust and are skipped), so the snippet a newcomer copies cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../docs/guide/library.md")]
pub struct GuideLibraryDoctests;

#[cfg(doctest)]
#[doc = include_str!("../docs/guide/your-own-game.md")]
pub struct GuideYourOwnGameDoctests;
