//! Games and game trees: Pearl's random (h, d, F) trees and explicit trees written as text.

pub mod explicit;
pub mod random_tree;

pub use explicit::{ExplicitNode, ExplicitTree};
pub use random_tree::{RandomTree, RandomTreeSpec, TreeOrder, Turns, Values};
