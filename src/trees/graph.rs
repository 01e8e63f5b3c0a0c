//! Random game graphs whose positions repeat: the test bed of the solvers that must be sound on
//! cycles ([`crate::Game::REPEATS`]). A graph of `n` positions, each with its side to move and
//! up to `b` moves to positions drawn at random (itself included), or none (an end worth −1, 0
//! or +1 for MAX), all drawn from a seed: small enough to be solved strongly by
//! [`crate::retrograde::solve_strongly`], with cycles everywhere.
//!
//! ```
//! use gamesearch::trees::RandomGraph;
//! use gamesearch::Game;
//! let g = RandomGraph::new(40, 3, 7);
//! let p = g.position(0);
//! assert!(<gamesearch::trees::GraphPosition as Game>::REPEATS);
//! assert_eq!(g.to_string(), "graph:n=40,b=3,seed=7");
//! assert!(p.moves().count() <= 3);
//! ```

use std::fmt;
use std::ops::Range;

use super::random_tree::{below, mix};
use crate::game::{Game, Player, PositionKey, Score};
use crate::solver::SolverKnowledge;

/// One position of a [`RandomGraph`].
#[derive(Clone, Debug)]
struct Vertex {
    to_move: Player,
    /// The positions its moves lead to (empty: an end).
    next: Vec<u32>,
    /// MAX's value at an end.
    value: Score,
}

/// A random game graph with cycles, drawn from `(n, b, seed)` (see the module's docs).
#[derive(Clone, Debug)]
pub struct RandomGraph {
    vertices: Vec<Vertex>,
    b: u32,
    seed: u64,
}

impl RandomGraph {
    /// `n` positions (at least 1), up to `b` moves each (1 to 16); about one position in five
    /// is an end.
    pub fn new(n: u32, b: u32, seed: u64) -> RandomGraph {
        let n = n.max(1);
        let b = b.clamp(1, 16);
        let vertices = (0..n)
            .map(|i| {
                let h = mix(seed ^ mix(u64::from(i) + 1));
                let to_move = if h & 1 == 0 { Player::Max } else { Player::Min };
                let end = below(mix(h ^ 0x5EED), 5) == 0;
                let degree = if end {
                    0
                } else {
                    1 + below(mix(h ^ 0xDE6), u64::from(b))
                };
                let next = (0..degree)
                    .map(|j| below(mix(h ^ mix(j + 0x1234)), u64::from(n)) as u32)
                    .collect();
                let value = below(mix(h ^ 0x7A1), 3) as Score - 1;
                Vertex {
                    to_move,
                    next,
                    value,
                }
            })
            .collect();
        RandomGraph { vertices, b, seed }
    }

    /// The number of positions.
    pub fn len(&self) -> u32 {
        self.vertices.len() as u32
    }

    /// Never: a graph has at least one position.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Position `i` (taken modulo the number of positions).
    pub fn position(&self, i: u32) -> GraphPosition<'_> {
        GraphPosition {
            graph: self,
            at: i % self.len(),
        }
    }
}

impl fmt::Display for RandomGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "graph:n={},b={},seed={}", self.len(), self.b, self.seed)
    }
}

/// A position of a [`RandomGraph`]: a game whose positions repeat; a repetition is a draw.
#[derive(Clone, Copy, Debug)]
pub struct GraphPosition<'g> {
    graph: &'g RandomGraph,
    at: u32,
}

impl GraphPosition<'_> {
    /// Which position of the graph this is.
    pub fn index(&self) -> u32 {
        self.at
    }

    fn vertex(&self) -> &Vertex {
        &self.graph.vertices[self.at as usize]
    }
}

impl Game for GraphPosition<'_> {
    /// The move's place among the position's moves.
    type Move = u32;
    type Moves = Range<u32>;

    fn to_move(&self) -> Player {
        self.vertex().to_move
    }

    fn moves(&self) -> Range<u32> {
        0..self.vertex().next.len() as u32
    }

    fn play(&self, m: u32) -> Self {
        GraphPosition {
            graph: self.graph,
            at: self.vertex().next[m as usize],
        }
    }

    fn evaluate(&self) -> Score {
        if self.vertex().next.is_empty() {
            self.vertex().value
        } else {
            0
        }
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }

    fn move_name(&self, m: u32) -> String {
        format!("{}>{}", self.at, self.vertex().next[m as usize])
    }

    const REPEATS: bool = true;
}

impl PositionKey for GraphPosition<'_> {
    fn key(&self) -> u64 {
        u64::from(self.at)
    }
}

impl SolverKnowledge for GraphPosition<'_> {}
