//! # gamesearch
//!
//! Two-player game-tree search, generically and fast: the algorithms of the classic literature
//! (minimax, alpha-beta, Pearl's SCOUT, NegaScout, PVS), checked against plain minimax.
//!
//! Implement [`Game`] for your game (or use one of [`games`]), then call
//! [`depth_first::search`]:
//!
//! ```
//! use gamesearch::{games::RandomTreeSpec, Algorithm, Limits};
//! let root = RandomTreeSpec::new(4, 6, 42).root().unwrap();
//! let ab = gamesearch::depth_first::search(&root, Algorithm::AlphaBeta, 6, &Limits::none());
//! let ns = gamesearch::depth_first::search(&root, Algorithm::NegaScout, 6, &Limits::none());
//! assert_eq!(ab.value, ns.value);
//! println!("alpha-beta {} leaves, NegaScout {}", ab.stats.leaves, ns.stats.leaves);
//! ```
#![warn(missing_docs)]

mod arena;
pub mod conspiracy;
pub mod depth_first;
pub mod error;
pub mod experiments;
pub mod game;
pub mod games;
pub mod limits;
pub mod proof_number;
pub mod spec;
pub mod stats;

pub use depth_first::{Algorithm, Outcome, Report, SearchConfig};
pub use error::Error;
pub use game::{Game, Player, Score, INF};
pub use limits::Limits;
pub use spec::GameSpec;
pub use stats::Stats;
