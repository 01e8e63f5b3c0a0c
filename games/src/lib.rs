//! # gamesearch-games
//!
//! Games for [`gamesearch`], each written as a user's crate would write one: against the
//! library's public traits only ([`Game`](gamesearch::Game) for the rules,
//! [`PositionKey`](gamesearch::PositionKey) and [`SolverKnowledge`](gamesearch::SolverKnowledge)
//! for the exact solver, [`Heuristic`](gamesearch::engine::Heuristic) for the engine,
//! [`Tablebase`](gamesearch::tablebase::Tablebase) for endgame databases,
//! [`Splittable`](gamesearch::split::Splittable) for job-level solving).
//!
//! - [`connect4`]: Connect-Four on any board up to 128 bits (Pons' bitboards, u64 or u128);
//! - [`kalah`]: Kalah(m, n) with Irving, Donkers & Uiterwijk's rules or the standard one ([`Rule`]);
//! - [`dobutsu`]: Dōbutsu shōgi, whose positions repeat (strongly solved by retrograde analysis);
//! - [`domineering`]: Domineering on m×n boards up to 128 cells (u128 bitboards, safe-move bounds);
//! - [`hex`]: Hex on n×n boards up to 11x11 (u128 bitboards, the swap rule, dead cells);
//! - [`othello`]: Othello on 4x4, 6x6 and 8x8 boards (bitboards, passes, disc margins);
//! - [`tictactoe`];
//! - [`learned`]: the learned evaluations' weights in use (shipped, chosen, or none on a thread);
//! - [`spec`]: the `GAME` text of the command line ([`GameSpec`]), which also names the
//!   library's abstract trees;
//! - [`benchmark`]: Connect-Four benchmark files (`MOVES SCORE` lines) solved and checked;
//! - [`split`]: splits of a `GAME` text into jobs, solved and combined by text.
//!
//! ```
//! use gamesearch::{solver::solve_alphabeta, SolveConfig};
//! use gamesearch_games::Connect4;
//! let p = Connect4::new(7, 6).unwrap().play_moves("4453").unwrap();
//! let s = solve_alphabeta(&p, &SolveConfig::default(), |_| {}).unwrap();
//! assert!(s.value.is_some());
//! ```
#![warn(missing_docs)]

pub mod benchmark;
pub mod connect4;
pub mod dobutsu;
pub mod domineering;
pub mod hex;
pub mod kalah;
pub mod learned;
pub mod othello;
pub mod spec;
pub mod split;
pub mod tictactoe;

pub use connect4::{Bitboard, Connect4};
pub use dobutsu::{Dobutsu, DobutsuMove};
pub use domineering::Domineering;
pub use hex::Hex;
pub use kalah::{Kalah, Rule};
pub use othello::Othello;
pub use spec::GameSpec;
pub use tictactoe::TicTacToe;
