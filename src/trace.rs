//! Watching a search: every algorithm reports what it does, step by step, to an [`Observer`].
//!
//! The algorithms call their observer at each step the literature draws on its slides — entering
//! a node with its window or TEST threshold, evaluating a leaf, cutting off, returning a value
//! (exact or a bound), starting a re-search, selecting the most-proving node, updating proof and
//! disproof numbers, recomputing conspiracy numbers, a table hit, a B* interval, an MCTS
//! playout and the visits it adds. [`NoObserver`], the default,
//! has `ACTIVE = false`: every call site is guarded by that constant, so with it the events are
//! never built and the searches compile to what they were without tracing (`cargo bench --bench
//! leaves` measures both in one run).
//!
//! [`Recorder`] is the observer that keeps it all: it names the nodes (by the game's move names),
//! gives each an id, and records the events against those ids as a [`Trace`] — the data behind
//! `gamesearch trace` (JSON, DOT, SVG and a step-through HTML page). It stops recording past a
//! node cap (the search itself runs on; [`Trace::truncated`] says so).
//!
//! ```
//! use gamesearch::{trees::ExplicitTree, trace::{Recorder, Step}, Algorithm, SearchConfig};
//! let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
//! let mut rec = Recorder::new(&tree.root(), 1000);
//! let out = gamesearch::trace::search_observed(&tree.root(), Algorithm::AlphaBeta, &SearchConfig::new(2), &mut rec);
//! let trace = rec.finish("alphabeta", &out);
//! let leaves = trace.steps.iter().filter(|s| matches!(s, Step::Leaf { .. })).count();
//! assert_eq!(leaves as u64, out.stats.leaves); // D, E, F: G is cut off
//! assert!(trace.steps.iter().any(|s| matches!(s, Step::Cutoff { .. })));
//! ```

use std::collections::HashMap;

pub use crate::observe::{Bound, Event, NoObserver, Number, Observer, Window};

use crate::game::{Game, Player, Score};
use crate::search::{Algorithm, Outcome, SearchConfig};
use crate::stats::Stats;

/// [`crate::search()`] with an observer watching.
pub fn search_observed<G: Game, O: Observer<G::Move>>(
    game: &G,
    algo: Algorithm,
    cfg: &SearchConfig,
    obs: &mut O,
) -> Outcome<G::Move> {
    crate::search::search_with_observer(game, algo, cfg, obs)
}

/// A node of a [`Trace`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TraceNode {
    /// Its id: its index in [`Trace::nodes`].
    pub id: u32,
    /// The parent's id (`None` for the root).
    pub parent: Option<u32>,
    /// The move's name from the parent (the root: `"root"`, or what the caller named it).
    pub label: String,
    /// Who moves here.
    pub to_move: Player,
    /// Plies from the root.
    pub ply: u32,
    /// The ancestor whose position this node's repeats, where the search met a repetition (a
    /// game whose positions repeat, recorded [`with_repetitions`](Recorder::with_repetitions)).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub repeats: Option<u32>,
}

/// One recorded step, with nodes named by id (the JSON form of [`Event`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "lowercase"))]
pub enum Step {
    /// The search enters `node` with `window`.
    Enter {
        /// Node id.
        node: u32,
        /// Its window or TEST.
        window: Window,
    },
    /// `node` is a leaf with `f = value`.
    Leaf {
        /// Node id.
        node: u32,
        /// `f(p)`.
        value: Score,
    },
    /// `node` cut off: `pruned` are the children never searched.
    Cutoff {
        /// Node id.
        node: u32,
        /// Ids of the children left out.
        pruned: Vec<u32>,
    },
    /// `node` (a child of the current node) is about to be searched again.
    #[cfg_attr(feature = "serde", serde(rename = "research"))]
    ReSearch {
        /// The child re-searched.
        node: u32,
    },
    /// `node` returns `value` with `bound`.
    Exit {
        /// Node id.
        node: u32,
        /// The value.
        value: Score,
        /// Exact, lower or upper.
        bound: Bound,
    },
    /// TEST at `node` answered `holds`.
    Tested {
        /// Node id.
        node: u32,
        /// The answer.
        holds: bool,
    },
    /// A table entry for `node`.
    #[cfg_attr(feature = "serde", serde(rename = "tablehit"))]
    TableHit {
        /// Node id.
        node: u32,
        /// The stored value.
        value: Score,
        /// Its bound.
        bound: Bound,
    },
    /// PN(v) starts.
    Threshold {
        /// The threshold.
        v: Score,
    },
    /// The nodes from the root to the selected node.
    Select {
        /// Node ids, root first.
        path: Vec<u32>,
    },
    /// `node` is expanded into `children`.
    Expand {
        /// Node id.
        node: u32,
        /// The new children's ids.
        children: Vec<u32>,
    },
    /// `node`'s proof and disproof numbers (`u32::MAX` = ∞).
    Numbers {
        /// Node id.
        node: u32,
        /// Proof number.
        proof: Number,
        /// Disproof number.
        disproof: Number,
    },
    /// `node`'s value and conspiracy bounds sequences.
    Conspiracy {
        /// Node id.
        node: u32,
        /// Current value.
        value: Score,
        /// Ascending sequence.
        asc: Vec<Score>,
        /// Descending sequence.
        desc: Vec<Score>,
    },
    /// B*: `node`'s interval (MAX's view).
    Interval {
        /// Node id.
        node: u32,
        /// The pessimistic bound.
        lower: Score,
        /// The optimistic bound.
        upper: Score,
    },
    /// MCTS: a playout from `node` ended in `result` (MAX's view).
    Playout {
        /// Node id.
        node: u32,
        /// +1, 0 or −1.
        result: Score,
    },
    /// MCTS: `node`'s playouts, their mean reward for MAX, its proven result.
    Visits {
        /// Node id.
        node: u32,
        /// Playouts through it.
        visits: u64,
        /// Mean reward for MAX (win 1, draw ½, loss 0).
        mean: f64,
        /// Proven result (MAX's view), if any.
        proven: Option<Score>,
    },
}

/// A recorded search: the nodes it touched and what it did, in order.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Trace {
    /// `"gamesearch-trace/1"`.
    pub format: &'static str,
    /// The algorithm's name.
    pub algorithm: String,
    /// Every node that appears in a step (searched or pruned), root first.
    pub nodes: Vec<TraceNode>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// True when the node cap stopped the recording (the search itself ran to its end).
    pub truncated: bool,
    /// The node cap in force.
    pub node_cap: usize,
    /// The search's result (MAX's view).
    pub value: Option<Score>,
    /// Its best move's name.
    pub best_move: Option<String>,
    /// The search's counters.
    pub stats: Stats,
}

/// The observer that records a [`Trace`], naming nodes by the game's move names.
pub struct Recorder<G: Game> {
    nodes: Vec<TraceNode>,
    positions: Vec<G>,
    /// (parent id, move) → child id.
    children: HashMap<(u32, G::Move), u32>,
    /// The depth-first walk: ids from the root to the current node.
    stack: Vec<u32>,
    /// The node last left (what a re-search enters again).
    last_left: u32,
    steps: Vec<Step>,
    cap: usize,
    truncated: bool,
    root_label: String,
    /// With [`Recorder::with_repetitions`]: how a position's key is made, and each node's key.
    key_of: Option<fn(&G) -> u64>,
    keys: Vec<u64>,
}

impl<G: Game> Recorder<G> {
    /// Records the search of `root`, at most `cap` nodes (past that, `truncated`).
    pub fn new(root: &G, cap: usize) -> Self {
        Recorder {
            nodes: Vec::new(),
            positions: vec![root.clone()],
            children: HashMap::new(),
            stack: Vec::new(),
            last_left: 0,
            steps: Vec::new(),
            cap: cap.max(1),
            truncated: false,
            root_label: "root".to_string(),
            key_of: None,
            keys: Vec::new(),
        }
        .with_root()
    }

    /// Marks each node whose position repeats one above it on its line
    /// ([`TraceNode::repeats`]), for a game whose positions repeat ([`Game::REPEATS`]; for
    /// any other, nothing to mark and nothing done).
    ///
    /// ```
    /// use gamesearch::trace::{search_observed, Recorder};
    /// use gamesearch::{Algorithm, Game, Player, PositionKey, Score, SearchConfig};
    /// // A token shuttled between two squares, for ever: the position after two moves is the
    /// // first again.
    /// #[derive(Clone)]
    /// struct Shuttle(bool);
    /// impl Game for Shuttle {
    ///     type Move = ();
    ///     type Moves = std::iter::Once<()>;
    ///     fn to_move(&self) -> Player { if self.0 { Player::Max } else { Player::Min } }
    ///     fn moves(&self) -> Self::Moves { std::iter::once(()) }
    ///     fn play(&self, _: ()) -> Self { Shuttle(!self.0) }
    ///     fn evaluate(&self) -> Score { 0 }
    ///     const REPEATS: bool = true;
    /// }
    /// impl PositionKey for Shuttle {
    ///     fn key(&self) -> u64 { u64::from(self.0) }
    /// }
    /// let root = Shuttle(true);
    /// let mut rec = Recorder::new(&root, 100).with_repetitions();
    /// let out = search_observed(&root, Algorithm::AlphaBeta, &SearchConfig::new(3), &mut rec);
    /// let trace = rec.finish("alphabeta", &out);
    /// let again = trace.nodes.iter().find(|n| n.repeats.is_some()).unwrap();
    /// assert_eq!((again.ply, again.repeats), (2, Some(0)));
    /// ```
    pub fn with_repetitions(mut self) -> Self
    where
        G: crate::game::PositionKey,
    {
        if G::REPEATS {
            self.key_of = Some(<G as crate::game::PositionKey>::key);
            self.keys = vec![self.positions[0].key()];
        }
        self
    }

    /// The nearest node above `parent` (or `parent` itself) whose key is `key`.
    fn repeated(&self, parent: u32, key: u64) -> Option<u32> {
        let mut at = Some(parent);
        while let Some(u) = at {
            if self.keys[u as usize] == key {
                return Some(u);
            }
            at = self.nodes[u as usize].parent;
        }
        None
    }

    fn with_root(mut self) -> Self {
        let root = &self.positions[0];
        self.nodes.push(TraceNode {
            id: 0,
            parent: None,
            label: self.root_label.clone(),
            to_move: root.to_move(),
            ply: 0,
            repeats: None,
        });
        self
    }

    /// Names the root (e.g. an explicit tree's root name).
    pub fn root_label(mut self, label: &str) -> Self {
        self.root_label = label.to_string();
        self.nodes[0].label = self.root_label.clone();
        self
    }

    /// The child of `parent` by `mv`, created on first sight; `None` past the cap.
    fn child(&mut self, parent: u32, mv: G::Move) -> Option<u32> {
        if let Some(&id) = self.children.get(&(parent, mv)) {
            return Some(id);
        }
        if self.nodes.len() >= self.cap {
            self.truncated = true;
            return None;
        }
        let pos = &self.positions[parent as usize];
        let label = pos.move_name(mv);
        let child = pos.play(mv);
        let id = self.nodes.len() as u32;
        let repeats = self.key_of.and_then(|key_of| {
            let key = key_of(&child);
            let again = self.repeated(parent, key);
            self.keys.push(key);
            again
        });
        self.nodes.push(TraceNode {
            id,
            parent: Some(parent),
            label,
            to_move: child.to_move(),
            ply: self.nodes[parent as usize].ply + 1,
            repeats,
        });
        self.positions.push(child);
        self.children.insert((parent, mv), id);
        Some(id)
    }

    /// The node at `path` from the root (created as needed).
    fn at(&mut self, path: &[G::Move]) -> Option<u32> {
        let mut id = 0;
        for &m in path {
            id = self.child(id, m)?;
        }
        Some(id)
    }

    /// The trace, with the search's result.
    pub fn finish(self, algorithm: &str, outcome: &Outcome<G::Move>) -> Trace {
        Trace {
            format: "gamesearch-trace/1",
            algorithm: algorithm.to_string(),
            best_move: outcome.best_move.map(|m| self.positions[0].move_name(m)),
            nodes: self.nodes,
            steps: self.steps,
            truncated: self.truncated,
            node_cap: self.cap,
            value: outcome.value,
            stats: outcome.stats,
        }
    }

    fn record(&mut self, event: Event<G::Move>) -> Option<()> {
        let current = self.stack.last().copied();
        let step = match event {
            Event::Enter { mv, window } => {
                let node = match (mv, current) {
                    (Some(m), Some(parent)) => self.child(parent, m)?,
                    _ => 0,
                };
                self.stack.push(node);
                Step::Enter { node, window }
            }
            Event::Leaf { value } => Step::Leaf {
                node: current?,
                value,
            },
            Event::Cutoff { pruned } => {
                let node = current?;
                let pruned = pruned
                    .into_iter()
                    .map(|m| self.child(node, m))
                    .collect::<Option<Vec<_>>>()?;
                Step::Cutoff { node, pruned }
            }
            Event::ReSearch => Step::ReSearch {
                node: self.last_left,
            },
            Event::Exit { value, bound } => {
                let node = self.stack.pop()?;
                self.last_left = node;
                Step::Exit { node, value, bound }
            }
            Event::Tested { holds } => {
                let node = self.stack.pop()?;
                self.last_left = node;
                Step::Tested { node, holds }
            }
            Event::TableHit { value, bound } => Step::TableHit {
                node: current?,
                value,
                bound,
            },
            Event::Threshold { v } => Step::Threshold { v },
            Event::Select { path } => {
                let mut ids = vec![0];
                let mut id = 0;
                for m in path {
                    id = self.child(id, m)?;
                    ids.push(id);
                }
                Step::Select { path: ids }
            }
            Event::Expand { path, children } => {
                let node = self.at(&path)?;
                let children = children
                    .into_iter()
                    .map(|m| self.child(node, m))
                    .collect::<Option<Vec<_>>>()?;
                Step::Expand { node, children }
            }
            Event::LeafAt { path, value } => Step::Leaf {
                node: self.at(&path)?,
                value,
            },
            Event::Numbers {
                path,
                proof,
                disproof,
            } => Step::Numbers {
                node: self.at(&path)?,
                proof,
                disproof,
            },
            Event::Conspiracy {
                path,
                value,
                asc,
                desc,
            } => Step::Conspiracy {
                node: self.at(&path)?,
                value,
                asc,
                desc,
            },
            Event::Interval { path, lower, upper } => Step::Interval {
                node: self.at(&path)?,
                lower,
                upper,
            },
            Event::Playout { path, result } => Step::Playout {
                node: self.at(&path)?,
                result,
            },
            Event::Visits {
                path,
                visits,
                mean,
                proven,
            } => Step::Visits {
                node: self.at(&path)?,
                visits,
                mean,
                proven,
            },
        };
        self.steps.push(step);
        Some(())
    }
}

impl<G: Game> Observer<G::Move> for Recorder<G> {
    fn event(&mut self, event: Event<G::Move>) {
        if self.truncated {
            return;
        }
        if self.record(event).is_none() {
            self.truncated = true;
        }
    }
}
