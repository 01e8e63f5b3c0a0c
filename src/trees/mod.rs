//! The literature's abstract game trees: Pearl's random (h, d, F) trees, whose leaves are a
//! hash of a seed and a path (so huge trees need no memory), and explicit trees written as text
//! (the worked examples of the papers). Neither is a game's rules; the crate `gamesearch-games`
//! holds those.

pub mod explicit;
pub mod random_tree;

pub use explicit::{ExplicitNode, ExplicitTree};
pub use random_tree::{RandomTree, RandomTreeSpec, TreeOrder, Turns, Values};
