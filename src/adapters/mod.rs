//! Adapters over any [`Game`](crate::Game): its moves in another order ([`Ordered`]), whole
//! turns as moves where a side may move several times in a row ([`WholeTurns`]), and its value
//! reduced to win/draw/loss ([`Weak`]).

pub mod ordered;
pub mod turns;
pub mod weak;

pub use ordered::{MoveOrder, Ordered};
pub use turns::{Turn, WholeTurns};
pub use weak::Weak;
