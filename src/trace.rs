//! Watching a search: every algorithm reports what it does, step by step, to an [`Observer`].
//!
//! The algorithms call their observer at each step the literature draws on its slides — entering
//! a node with its window or TEST threshold, evaluating a leaf, cutting off, returning a value
//! (exact or a bound), starting a re-search, selecting the most-proving node, updating proof and
//! disproof numbers, recomputing conspiracy numbers, a table hit. [`NoObserver`], the default,
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
//! use gamesearch::{games::ExplicitTree, trace::{Recorder, Step}, Algorithm, SearchConfig};
//! let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
//! let mut rec = Recorder::new(&tree.root(), 1000);
//! let out = gamesearch::trace::search_observed(&tree.root(), Algorithm::AlphaBeta, &SearchConfig::new(2), &mut rec);
//! let trace = rec.finish("alphabeta", &out);
//! let leaves = trace.steps.iter().filter(|s| matches!(s, Step::Leaf { .. })).count();
//! assert_eq!(leaves as u64, out.stats.leaves); // D, E, F: G is cut off
//! assert!(trace.steps.iter().any(|s| matches!(s, Step::Cutoff { .. })));
//! ```

use std::collections::HashMap;

use crate::depth_first::scout::Condition;
use crate::game::{Game, Player, Score, INF};
use crate::proof_number::Number;
use crate::search::{Algorithm, Outcome, SearchConfig};
use crate::stats::Stats;

/// The window a node is searched with, from MAX's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "lowercase"))]
pub enum Window {
    /// No window: plain minimax, SCOUT's EVAL.
    None,
    /// Alpha-beta's `(alpha, beta)` (a null window when `beta = alpha + 1`); ±[`INF`] for open.
    Range {
        /// Lower end.
        alpha: Score,
        /// Upper end.
        beta: Score,
    },
    /// Pearl's TEST(p, v, cond).
    Test {
        /// The threshold.
        v: Score,
        /// The inequality tested.
        cond: Condition,
    },
}

impl Window {
    /// A nega-max window `(alpha, beta)` of a node where `mover` is to move, in MAX's view.
    ///
    /// ```
    /// use gamesearch::{trace::Window, Player};
    /// assert_eq!(Window::negamax(Player::Min, 3, 4), Window::Range { alpha: -4, beta: -3 });
    /// ```
    pub fn negamax(mover: Player, alpha: Score, beta: Score) -> Window {
        match mover {
            Player::Max => Window::Range { alpha, beta },
            Player::Min => Window::Range {
                alpha: -beta,
                beta: -alpha,
            },
        }
    }
}

/// What a returned value says about the node's true value (MAX's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Bound {
    /// `V = value`.
    Exact,
    /// `V >= value` (a fail-high).
    Lower,
    /// `V <= value` (a fail-low).
    Upper,
}

impl Bound {
    /// The bound a fail-soft (or fail-hard) result `t` of a `(alpha, beta)` search gives, all in
    /// MAX's view.
    ///
    /// ```
    /// use gamesearch::trace::Bound;
    /// assert_eq!(Bound::of(4, 4, 5), Bound::Upper);
    /// assert_eq!(Bound::of(5, 4, 5), Bound::Lower);
    /// assert_eq!(Bound::of(4, 3, 5), Bound::Exact);
    /// ```
    pub fn of(t: Score, alpha: Score, beta: Score) -> Bound {
        if t <= alpha && alpha > -INF {
            Bound::Upper
        } else if t >= beta && beta < INF {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// The same bound seen from the other side (`-V`).
    pub fn flip(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }

    /// A nega-max result `t` of window `(alpha, beta)` at a node where `mover` moves, in MAX's
    /// view: `(value, bound)`.
    pub fn negamax(mover: Player, t: Score, alpha: Score, beta: Score) -> (Score, Bound) {
        let b = Bound::of(t, alpha, beta);
        match mover {
            Player::Max => (t, b),
            Player::Min => (-t, b.flip()),
        }
    }
}

/// One step of a search, as the algorithm reports it. Depth-first algorithms report a walk:
/// `Enter` goes down to a child (the root first), `Exit` comes back up; the tree families name
/// nodes by their path of moves from the root.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<M> {
    /// Down to the child reached by `mv` (`None`: the root), searched with `window`.
    Enter {
        /// The move from the current node (`None` for the root).
        mv: Option<M>,
        /// The window or TEST the node is searched with.
        window: Window,
    },
    /// The current node is a leaf (horizon or game end) and `f(p) = value` was evaluated.
    Leaf {
        /// `f(p)`, MAX's view.
        value: Score,
    },
    /// The current node stops before searching `pruned` (a cut-off, or TEST answered early).
    Cutoff {
        /// The moves left unsearched.
        pruned: Vec<M>,
    },
    /// The next `Enter` searches the child just searched again (after a test failed high).
    ReSearch,
    /// Back up from the current node with `value` (MAX's view).
    Exit {
        /// The value returned.
        value: Score,
        /// What it says about the true value.
        bound: Bound,
    },
    /// Back up from a TEST node with its answer.
    Tested {
        /// Whether `V cond v` holds.
        holds: bool,
    },
    /// A transposition-table entry answered (or narrowed) the current node.
    TableHit {
        /// The stored bound's value (MAX's view).
        value: Score,
        /// Which bound it is.
        bound: Bound,
    },
    /// Proof-number search starts PN(v) (the tree is kept; its numbers are recomputed for v).
    Threshold {
        /// The threshold `v`: prove `V >= v`.
        v: Score,
    },
    /// The node at `path` is selected for expansion (PN: the most-proving node; CNS: a leaf of a
    /// smallest conspiracy).
    Select {
        /// Moves from the root.
        path: Vec<M>,
    },
    /// The node at `path` is expanded: its children join the tree (leaf values follow as
    /// `LeafAt`).
    Expand {
        /// Moves from the root.
        path: Vec<M>,
        /// The children's moves, in order.
        children: Vec<M>,
    },
    /// The node at `path` was evaluated: `f(p) = value` (tree families).
    LeafAt {
        /// Moves from the root.
        path: Vec<M>,
        /// `f(p)`, MAX's view.
        value: Score,
    },
    /// The node at `path` now has these proof and disproof numbers.
    Numbers {
        /// Moves from the root.
        path: Vec<M>,
        /// Proof number ([`crate::proof_number::INFINITE`] for ∞).
        proof: Number,
        /// Disproof number.
        disproof: Number,
    },
    /// The node at `path` now has this value and these bounds sequences (conspiracy numbers:
    /// `asc[k]` is the highest value `k` conspirators reach, `desc[k]` the lowest).
    Conspiracy {
        /// Moves from the root.
        path: Vec<M>,
        /// The current minimax value.
        value: Score,
        /// The ascending sequence.
        asc: Vec<Score>,
        /// The descending sequence.
        desc: Vec<Score>,
    },
}

/// Receives a search's events.
///
/// ```
/// use gamesearch::trace::{Event, Observer};
/// struct Leaves(u64);
/// impl<M> Observer<M> for Leaves {
///     fn event(&mut self, e: Event<M>) {
///         if let Event::Leaf { .. } = e { self.0 += 1 }
///     }
/// }
/// use gamesearch::{games::RandomTreeSpec, trace::search_observed, Algorithm, SearchConfig};
/// let root = RandomTreeSpec::new(3, 4, 7).root().unwrap();
/// let mut obs = Leaves(0);
/// let out = search_observed(&root, Algorithm::Scout, &SearchConfig::new(4), &mut obs);
/// assert_eq!(obs.0, out.stats.leaves);
/// ```
pub trait Observer<M> {
    /// False only for [`NoObserver`]: the searches build no event at all.
    const ACTIVE: bool = true;
    /// One step of the search.
    fn event(&mut self, event: Event<M>);
}

/// The observer that sees nothing and costs nothing (the default of every search).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<M> Observer<M> for NoObserver {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event<M>) {}
}

impl<M, O: Observer<M>> Observer<M> for &mut O {
    const ACTIVE: bool = O::ACTIVE;
    #[inline(always)]
    fn event(&mut self, event: Event<M>) {
        (**self).event(event)
    }
}

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
        }
        .with_root()
    }

    fn with_root(mut self) -> Self {
        let root = &self.positions[0];
        self.nodes.push(TraceNode {
            id: 0,
            parent: None,
            label: self.root_label.clone(),
            to_move: root.to_move(),
            ply: 0,
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
        self.nodes.push(TraceNode {
            id,
            parent: Some(parent),
            label,
            to_move: child.to_move(),
            ply: self.nodes[parent as usize].ply + 1,
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
