//! The literature's abstract game trees: Pearl's random (h, d, F) trees, whose leaves are a
//! hash of a seed and a path (so huge trees need no memory), explicit trees written as text
//! (the worked examples of the papers), and random game graphs with cycles (the test bed of the
//! solvers on games whose positions repeat). Neither is a game's rules; the crate `gamesearch-games`
//! holds those.

pub mod explicit;
pub mod graph;
pub mod random_tree;

pub use explicit::{ExplicitNode, ExplicitTree};
pub use graph::{GraphPosition, RandomGraph};
pub use random_tree::{RandomTree, RandomTreeSpec, TreeOrder, Turns, Values};
