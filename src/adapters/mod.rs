//! Adapters over any [`Game`](crate::Game): its moves in another order ([`Ordered`]), whole
//! turns as moves where a side may move several times in a row ([`WholeTurns`]), its value
//! reduced to win/draw/loss ([`Weak`]), and its heuristic as its `f` ([`AtHorizon`]).

pub mod horizon;
pub mod ordered;
pub mod turns;
pub mod weak;

pub use horizon::AtHorizon;
pub use ordered::{MoveOrder, Ordered};
pub use turns::{Turn, WholeTurns};
pub use weak::Weak;
