//! Games and game trees: Pearl's random (h, d, F) trees, explicit trees written as text, Kalah,
//! tic-tac-toe and Connect-Four.

pub mod connect4;
pub mod explicit;
pub mod kalah;
pub mod ordered;
pub mod random_tree;
pub mod tictactoe;
pub mod turns;
pub mod weak;

pub use connect4::{Bitboard, Connect4};
pub use explicit::{ExplicitNode, ExplicitTree};
pub use kalah::Kalah;
pub use ordered::{MoveOrder, Ordered};
pub use random_tree::{RandomTree, RandomTreeSpec, TreeOrder, Turns, Values};
pub use tictactoe::TicTacToe;
pub use turns::{Turn, WholeTurns};
pub use weak::Weak;
