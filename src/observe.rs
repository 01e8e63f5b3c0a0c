//! What a search tells an observer: the [`Event`]s every algorithm reports step by step, their
//! small types (a [`Window`], a [`Bound`], a TEST [`Condition`], a proof [`Number`]), and the
//! [`Observer`] trait with [`NoObserver`], which costs nothing. This is vocabulary: every family
//! imports it and it imports no family. [`crate::trace`] records these events as a `Trace`.

use crate::game::{Player, Score, INF};

/// Proof and disproof numbers: `u32`, with `u32::MAX` for ∞ (`proof_number::INFINITE`).
pub type Number = u32;

/// The inequality TEST verifies: `V(p) cond v`.
///
/// ```
/// use gamesearch::depth_first::scout::Condition;
/// assert!(Condition::Ge.holds(5, 5));
/// assert!(!Condition::Gt.holds(5, 5));
/// assert_eq!(Condition::Gt.negation(), Condition::Le);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Condition {
    /// `V(p) > v`
    Gt,
    /// `V(p) >= v`
    Ge,
    /// `V(p) < v`
    Lt,
    /// `V(p) <= v`
    Le,
}

impl Condition {
    /// Whether `x cond v`.
    #[inline]
    pub fn holds(self, x: Score, v: Score) -> bool {
        match self {
            Condition::Gt => x > v,
            Condition::Ge => x >= v,
            Condition::Lt => x < v,
            Condition::Le => x <= v,
        }
    }

    /// The complementary condition: TEST(p, v, >) is TRUE ≡ TEST(p, v, <=) is FALSE (Hsu, *Scout, NegaScout and PN search*,
    /// "How to TEST — Discussions").
    pub fn negation(self) -> Condition {
        match self {
            Condition::Gt => Condition::Le,
            Condition::Ge => Condition::Lt,
            Condition::Lt => Condition::Ge,
            Condition::Le => Condition::Gt,
        }
    }

    /// True for `>`/`>=`, which hold at a MAX node as soon as *one* successor satisfies them;
    /// for `<`/`<=` it is the MIN node that needs just one.
    #[inline]
    pub(crate) fn upward(self) -> bool {
        matches!(self, Condition::Gt | Condition::Ge)
    }
}

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
    /// MCTS: a playout from the node at `path` (the node just added, or a proven or terminal
    /// one) ended in `result` (MAX's view: +1 a win, 0 a draw, −1 a loss).
    Playout {
        /// Moves from the root.
        path: Vec<M>,
        /// The playout's result.
        result: Score,
    },
    /// B*: the node at `path` now has this interval (MAX's view) holding its minimax value.
    Interval {
        /// Moves from the root.
        path: Vec<M>,
        /// The pessimistic bound.
        lower: Score,
        /// The optimistic bound.
        upper: Score,
    },
    /// MCTS: the node at `path` after a backpropagation.
    Visits {
        /// Moves from the root.
        path: Vec<M>,
        /// Playouts through it.
        visits: u64,
        /// Their mean reward for MAX (a win 1, a draw ½, a loss 0).
        mean: f64,
        /// Its proven result (MCTS-Solver), MAX's view.
        proven: Option<Score>,
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
/// use gamesearch::{trees::RandomTreeSpec, trace::search_observed, Algorithm, SearchConfig};
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
