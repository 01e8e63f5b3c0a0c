//! Proof-number search (Allis, van der Meulen & van den Herik 1994) on an explicit tree.
//!
//! **Binary PN search** (Cater, *CN and PN search*, "And/Or Tree" to "Most Proving Node"; Hsu, *Scout, NegaScout and PN search*, "Proof or
//! Disproof Number" to "PN-search: algorithm") answers `V(root) >= v` for a threshold `v` on `f`
//! (MAX's view) of the depth-limited tree: MAX nodes are OR nodes (the prover, MAX, to move), MIN
//! nodes AND nodes — turns need not alternate. A leaf (horizon or game end) is proven (0, ∞) when
//! `f >= v`, disproven (∞, 0) otherwise; an unexpanded node gets (1, 1), or Allis' mobility
//! estimate ([`Initial::Mobility`]). OR: proof = min, disproof = sum; AND the reverse, with
//! saturating arithmetic so ∞ never overflows. Each iteration descends to the most-proving node
//! (OR: leftmost child of least proof number; AND: leftmost child of least disproof number —
//! Cater's rule), expands it, updates its ancestors bottom-up, stops at the first ancestor
//! whose numbers do not change and resumes the next descent there (Cater, *CN and PN search*, "Most Proving
//! Node").
//!
//! **Multi-valued PN search** (Hsu, *Scout, NegaScout and PN search*, "Multi-Valued game Tree" to "Multi-valued PN-search:
//! algorithm") finds the minimax value with PN(v) for `proof_v`/`disproof_v`: `v = 1` first, then
//! doubling (1, 2, 4, …) while proven, or — our generalisation to values of either sign —
//! `0, -1, -3, -7, …` (v ← 2v − 1) while disproven, then binary search between the last proven and disproven
//! thresholds. Two corrections to the lecture's loop: the binary search takes the *upper* middle
//! `ceil((low + high) / 2)` (with `floor`, "proved ⇒ low ← mid" never ends once
//! `high = low + 1`), and the game's value bounds, when known, cut the doubling short.
//!
//! **What is reused between thresholds**: the whole explicit tree — every expansion, every child
//! position and every leaf's `f` — since the tree's shape does not depend on `v`. Only the
//! numbers depend on `v`; they are recomputed bottom-up for the new threshold in one pass over
//! the arena (children are always stored after their parents), which is sound because each
//! number is a function of the leaves' values and `v` alone.
//!
//! **The game's knowledge**: the tree search reads only [`Game`]; [`crate::exact::solve`]
//! gives it a game's [`crate::SolverKnowledge`] through [`Informed`] (moves kept and ordered by
//! it, positions it settles as leaves), as df-pn reads the hooks itself.
//!
//! **Budgets**: a node budget (expansions), a memory budget (bytes of the tree, checked before
//! every expansion, so the tree never outgrows it) and the time/stop-flag limits. When one runs
//! out the search reports [`Answer::Unknown`] with the root's (finite) numbers.

pub mod dfpn;
pub mod informed;
mod proof_tree;

pub use informed::Informed;
pub use proof_tree::{check_proof, ProofTree};

use crate::error::Error;
use crate::game::{Game, Player, Score};
use crate::limits::{Budget, Limits};
use crate::observe::{Event, NoObserver, Observer};
use crate::stats::Stats;

pub use crate::observe::Number;
/// ∞ for proof and disproof numbers.
pub const INFINITE: Number = u32::MAX;

/// How unexpanded, unknown nodes are initialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Initial {
    /// proof = disproof = 1 (Allis et al. 1994).
    #[default]
    Unit,
    /// Allis' mobility: at an OR node (prover to move) proof 1, disproof = number of moves; at
    /// an AND node proof = number of moves, disproof 1.
    Mobility,
}

/// The outcome of PN(v).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Answer {
    /// `V >= v`.
    Proven,
    /// `V < v`.
    Disproven,
    /// A budget ran out first.
    Unknown,
}

/// Parameters of a proof-number search.
///
/// ```
/// use gamesearch::{pn_value, trees::ExplicitTree, PnConfig};
/// let t = ExplicitTree::parse("(max (min 3 5) (min 2 9) (min 4 6))").unwrap();
/// let mut cfg = PnConfig::new(2);
/// cfg.max_memory = Some(64 << 20);
/// assert_eq!(pn_value(&t.root(), &cfg).value, Some(4));
/// ```
#[derive(Clone, Debug)]
pub struct PnConfig {
    /// The horizon (nodes at this depth are leaves valued by `f`).
    pub depth: u32,
    /// Initialisation of unknown nodes.
    pub initial: Initial,
    /// Most bytes the tree may take.
    pub max_memory: Option<usize>,
    /// Node budget (`max_nodes`: leaves + expansions), time budget and stop flag.
    pub limits: Limits,
}

impl PnConfig {
    /// Depth `depth`, unit initialisation, no budgets.
    pub fn new(depth: u32) -> Self {
        PnConfig {
            depth,
            initial: Initial::Unit,
            max_memory: None,
            limits: Limits::none(),
        }
    }
}

/// What PN(v) found.
#[derive(Clone, Debug, PartialEq)]
pub struct PnResult<M> {
    /// The threshold.
    pub threshold: Score,
    /// Proven, disproven or unknown.
    pub answer: Answer,
    /// The root's proof number when the search stopped.
    pub proof: Number,
    /// The root's disproof number.
    pub disproof: Number,
    /// Proven with MAX to move, or disproven with MIN to move: the root move that does it.
    pub best_move: Option<M>,
    /// `leaves`: static evaluations; `interior`: expansions.
    pub stats: Stats,
    /// Nodes in the tree at the end (the peak: the tree only grows).
    pub tree_nodes: usize,
    /// Bytes of the tree at its peak.
    pub peak_bytes: usize,
}

/// The multi-valued search's result.
#[derive(Clone, Debug, PartialEq)]
pub struct PnValue<M> {
    /// The minimax value of the depth-limited tree, when found.
    pub value: Option<Score>,
    /// Proven bounds `(lo, hi)` on the value (MAX's view).
    pub bounds: (Score, Score),
    /// A root move achieving the value.
    pub best_move: Option<M>,
    /// False when a budget stopped it.
    pub complete: bool,
    /// Totals over all thresholds (`tests`: PN(v) runs).
    pub stats: Stats,
    /// The thresholds tried, in order, with their answers.
    pub runs: Vec<(Score, Answer)>,
    /// Peak bytes of the tree.
    pub peak_bytes: usize,
}

/// One node of the explicit tree.
#[derive(Clone, Debug)]
struct Node<G: Game> {
    pos: G,
    /// The move from the parent (root: unused).
    mv: Option<G::Move>,
    parent: u32,
    first_child: u32,
    children: u32,
    depth: u32,
    /// `f` for a leaf (horizon or game end).
    value: Option<Score>,
    /// Moves available (for the mobility estimate), 0 for leaves.
    mobility: u32,
    proof: Number,
    disproof: Number,
}

/// The explicit AND/OR tree: an arena, root at index 0, children stored contiguously and
/// always after their parent.
pub struct PnTree<G: Game> {
    nodes: Vec<Node<G>>,
    threshold: Score,
    initial: Initial,
    /// Most nodes the memory budget allows.
    max_nodes: usize,
    stats: Stats,
}

use crate::arena::NO_CHILD as NONE;

impl<G: Game> PnTree<G> {
    /// Bytes one node takes.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node<G>>();

    /// A tree holding only `root`, searched to `depth`.
    pub fn new(root: &G, cfg: &PnConfig) -> Self {
        let max_nodes = cfg
            .max_memory
            .or_else(crate::memory::default_tree_budget)
            .map_or(usize::MAX, |b| (b / Self::NODE_BYTES).max(1));
        let mut t = PnTree {
            nodes: Vec::new(),
            threshold: 0,
            initial: cfg.initial,
            max_nodes,
            stats: Stats::default(),
        };
        let n = t.make_node(root.clone(), None, NONE, cfg.depth);
        t.nodes.push(n);
        t
    }

    fn make_node(&mut self, pos: G, mv: Option<G::Move>, parent: u32, depth: u32) -> Node<G> {
        let mobility = if depth == 0 {
            0
        } else {
            pos.moves().count() as u32
        };
        let value = if mobility == 0 {
            self.stats.leaves += 1;
            Some(pos.evaluate())
        } else {
            None
        };
        Node {
            pos,
            mv,
            parent,
            first_child: NONE,
            children: 0,
            depth,
            value,
            mobility,
            proof: 1,
            disproof: 1,
        }
    }

    /// The numbers of a node that has no children in the tree.
    fn leaf_numbers(&self, n: &Node<G>) -> (Number, Number) {
        match n.value {
            Some(f) if f >= self.threshold => (0, INFINITE),
            Some(_) => (INFINITE, 0),
            None => match self.initial {
                Initial::Unit => (1, 1),
                Initial::Mobility => match n.pos.to_move() {
                    Player::Max => (1, n.mobility.max(1)),
                    Player::Min => (n.mobility.max(1), 1),
                },
            },
        }
    }

    /// Recomputes node `i`'s numbers from its children (or as a leaf).
    fn compute(&self, i: usize) -> (Number, Number) {
        let n = &self.nodes[i];
        if n.first_child == NONE {
            return self.leaf_numbers(n);
        }
        let kids = &self.nodes[n.first_child as usize..(n.first_child + n.children) as usize];
        let (mut min_p, mut sum_p, mut min_d, mut sum_d) = (INFINITE, 0u32, INFINITE, 0u32);
        for c in kids {
            min_p = min_p.min(c.proof);
            min_d = min_d.min(c.disproof);
            sum_p = sum_p.saturating_add(c.proof);
            sum_d = sum_d.saturating_add(c.disproof);
        }
        match n.pos.to_move() {
            Player::Max => (min_p, sum_d), // OR
            Player::Min => (sum_p, min_d), // AND
        }
    }

    /// Sets the threshold `v` and recomputes every number bottom-up (children come after their
    /// parents in the arena, so one backward pass suffices). The tree itself is kept.
    pub fn set_threshold(&mut self, v: Score) {
        self.threshold = v;
        for i in (0..self.nodes.len()).rev() {
            let (p, d) = self.compute(i);
            self.nodes[i].proof = p;
            self.nodes[i].disproof = d;
        }
    }

    /// The root's (proof, disproof).
    pub fn root_numbers(&self) -> (Number, Number) {
        (self.nodes[0].proof, self.nodes[0].disproof)
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true (the root is always there).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes the tree's nodes take.
    pub fn bytes(&self) -> usize {
        self.nodes.len() * Self::NODE_BYTES
    }

    /// The most-proving node below `from` (Cater, *CN and PN search*: OR → least proof number, AND → least
    /// disproof number, leftmost on ties).
    fn most_proving_node(&self, mut i: usize) -> usize {
        loop {
            let n = &self.nodes[i];
            if n.first_child == NONE {
                return i;
            }
            let first = n.first_child as usize;
            let kids = &self.nodes[first..first + n.children as usize];
            let pick = match n.pos.to_move() {
                Player::Max => kids.iter().enumerate().min_by_key(|(_, c)| c.proof),
                Player::Min => kids.iter().enumerate().min_by_key(|(_, c)| c.disproof),
            };
            i = first + pick.expect("an expanded node has children").0;
        }
    }

    /// Expands node `i`; false when the memory budget forbids it.
    fn expand(&mut self, i: usize) -> bool {
        let k = self.nodes[i].mobility as usize;
        if self.nodes.len() + k > self.max_nodes {
            return false;
        }
        if self.nodes.len() + k > self.nodes.capacity() {
            // Grow by doubling, but never past what the memory budget allows.
            let want = (self.nodes.capacity() * 2)
                .max(self.nodes.len() + k)
                .min(self.max_nodes);
            if self
                .nodes
                .try_reserve_exact(want - self.nodes.len())
                .is_err()
            {
                return false; // the allocator said no: as if the budget ran out
            }
        }
        self.stats.interior += 1;
        let first = self.nodes.len() as u32;
        let (pos, depth) = (self.nodes[i].pos.clone(), self.nodes[i].depth);
        for m in pos.moves() {
            let n = self.make_node(pos.play(m), Some(m), i as u32, depth - 1);
            let mut n = n;
            let (p, d) = self.leaf_numbers(&n);
            n.proof = p;
            n.disproof = d;
            self.nodes.push(n);
        }
        self.nodes[i].first_child = first;
        self.nodes[i].children = self.nodes.len() as u32 - first;
        true
    }

    /// The moves from the root to node `i`.
    fn path(&self, i: usize) -> Vec<G::Move> {
        crate::arena::path_to(i, |k| self.nodes[k].parent as usize, |k| self.nodes[k].mv)
    }

    /// Reports node `i`'s numbers.
    fn report_numbers<O: Observer<G::Move>>(&self, i: usize, obs: &mut O) {
        obs.event(Event::Numbers {
            path: self.path(i),
            proof: self.nodes[i].proof,
            disproof: self.nodes[i].disproof,
        });
    }

    /// Reports the expansion of node `i`: its children, their leaf values and numbers.
    fn report_expansion<O: Observer<G::Move>>(&self, i: usize, obs: &mut O) {
        let path = self.path(i);
        let kids = crate::arena::child_range(self.nodes[i].first_child, self.nodes[i].children);
        obs.event(Event::Expand {
            path: path.clone(),
            children: kids.clone().filter_map(|k| self.nodes[k].mv).collect(),
        });
        for k in kids {
            if let Some(value) = self.nodes[k].value {
                obs.event(Event::LeafAt {
                    path: self.path(k),
                    value,
                });
            }
            self.report_numbers(k, obs);
        }
    }

    /// Updates `i` and its ancestors; returns the first ancestor whose numbers did not change
    /// (where the next descent starts), or the root.
    fn update_ancestors<O: Observer<G::Move>>(&mut self, mut i: usize, obs: &mut O) -> usize {
        let expanded = i;
        loop {
            let (p, d) = self.compute(i);
            let n = &mut self.nodes[i];
            let changed = (n.proof, n.disproof) != (p, d);
            n.proof = p;
            n.disproof = d;
            if O::ACTIVE && (changed || i == expanded) {
                self.report_numbers(i, obs);
            }
            let n = &self.nodes[i];
            if (!changed && i != expanded) || n.parent == NONE {
                return i;
            }
            i = n.parent as usize;
        }
    }

    /// Runs PN search for the current threshold until the root is solved or a budget ends it.
    fn run<O: Observer<G::Move>>(&mut self, budget: &mut Budget, obs: &mut O) -> Answer {
        let mut current = 0;
        loop {
            let (p, d) = self.root_numbers();
            if p == 0 {
                return Answer::Proven;
            }
            if d == 0 {
                return Answer::Disproven;
            }
            let mpn = self.most_proving_node(current);
            if O::ACTIVE {
                obs.event(Event::Select {
                    path: self.path(mpn),
                });
            }
            // The budget counts nodes like the depth-first searches (leaves + interior): stop
            // before an expansion that would pass it.
            let k = u64::from(self.nodes[mpn].mobility);
            if budget.exhausted(self.stats.nodes() + k + 1) {
                return Answer::Unknown;
            }
            if !self.expand(mpn) {
                return Answer::Unknown;
            }
            if O::ACTIVE {
                self.report_expansion(mpn, obs);
            }
            current = self.update_ancestors(mpn, obs);
        }
    }

    /// The node reached from the root by `path`, if it is in the tree.
    fn find(&self, path: &[G::Move]) -> Option<usize> {
        let kids =
            |i: usize| crate::arena::child_range(self.nodes[i].first_child, self.nodes[i].children);
        crate::arena::find_path(path, kids, |k| self.nodes[k].mv)
    }

    /// (proof, disproof) of the node reached by `path`, if it is in the tree.
    pub fn numbers_at(&self, path: &[G::Move]) -> Option<(Number, Number)> {
        self.find(path)
            .map(|i| (self.nodes[i].proof, self.nodes[i].disproof))
    }

    /// Expands the unexpanded, unsolved-leaf node reached by `path` by hand and updates its
    /// ancestors — to build the lectures' worked examples step by step, or to watch a search grow.
    /// False if there is no such node (or the memory budget is spent).
    pub fn expand_at(&mut self, path: &[G::Move]) -> bool {
        match self.find(path) {
            Some(i) if self.nodes[i].first_child == NONE && self.nodes[i].value.is_none() => {
                let ok = self.expand(i);
                if ok {
                    self.update_ancestors(i, &mut NoObserver);
                }
                ok
            }
            _ => false,
        }
    }

    /// The proof tree (root proven) or disproof tree (root disproven) of the current threshold:
    /// at the chooser's nodes (MAX for a proof, MIN for a disproof) one solved child, at the
    /// others every child.
    pub fn proof_tree(&self) -> Option<ProofTree<G::Move>> {
        let (p, d) = self.root_numbers();
        if p != 0 && d != 0 {
            return None;
        }
        Some(self.extract(0, p == 0))
    }

    fn extract(&self, i: usize, proving: bool) -> ProofTree<G::Move> {
        let n = &self.nodes[i];
        let mut children = Vec::new();
        if n.first_child != NONE {
            let first = n.first_child as usize;
            let range = first..first + n.children as usize;
            let solved = |c: &Node<G>| {
                if proving {
                    c.proof == 0
                } else {
                    c.disproof == 0
                }
            };
            let chooser = (n.pos.to_move() == Player::Max) == proving;
            if chooser {
                let k = range
                    .clone()
                    .find(|&k| solved(&self.nodes[k]))
                    .expect("a solved child");
                children.push(self.extract(k, proving));
            } else {
                children.extend(range.map(|k| self.extract(k, proving)));
            }
        }
        ProofTree { mv: n.mv, children }
    }

    /// The root move that proves (MAX to move) or disproves (MIN to move) the threshold, if the
    /// root is solved that way.
    fn deciding_root_move(&self) -> Option<G::Move> {
        let root = &self.nodes[0];
        if root.first_child == NONE {
            return None;
        }
        let first = root.first_child as usize;
        let kids = &self.nodes[first..first + root.children as usize];
        match root.pos.to_move() {
            Player::Max if root.proof == 0 => kids.iter().find(|c| c.proof == 0).and_then(|c| c.mv),
            Player::Min if root.disproof == 0 => {
                kids.iter().find(|c| c.disproof == 0).and_then(|c| c.mv)
            }
            _ => None,
        }
    }
}

/// PN(v): is `V(game) >= v` for the tree cut at `cfg.depth`?
///
/// ```
/// use gamesearch::proof_number::{pn_search, Answer, PnConfig};
/// use gamesearch::trees::ExplicitTree;
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let cfg = PnConfig::new(2);
/// assert_eq!(pn_search(&tree.root(), 4, &cfg).answer, Answer::Proven);
/// assert_eq!(pn_search(&tree.root(), 5, &cfg).answer, Answer::Disproven);
/// ```
pub fn pn_search<G: Game>(game: &G, v: Score, cfg: &PnConfig) -> PnResult<G::Move> {
    pn_search_tree(game, v, cfg).0
}

/// PN(v), also returning the explicit tree (for [`PnTree::proof_tree`]).
pub fn pn_search_tree<G: Game>(
    game: &G,
    v: Score,
    cfg: &PnConfig,
) -> (PnResult<G::Move>, PnTree<G>) {
    let mut tree = PnTree::new(game, cfg);
    let mut budget = Budget::new(&cfg.limits);
    let r = run_threshold(&mut tree, v, &mut budget, &mut NoObserver);
    (r, tree)
}

fn run_threshold<G: Game, O: Observer<G::Move>>(
    tree: &mut PnTree<G>,
    v: Score,
    budget: &mut Budget,
    obs: &mut O,
) -> PnResult<G::Move> {
    tree.set_threshold(v);
    tree.stats.tests += 1;
    if O::ACTIVE {
        obs.event(Event::Threshold { v });
        for i in 0..tree.nodes.len() {
            tree.report_numbers(i, obs);
        }
    }
    let answer = tree.run(budget, obs);
    let (proof, disproof) = tree.root_numbers();
    PnResult {
        threshold: v,
        answer,
        proof,
        disproof,
        best_move: tree.deciding_root_move(),
        stats: tree.stats,
        tree_nodes: tree.len(),
        peak_bytes: tree.bytes(),
    }
}

/// Multi-valued PN search: the minimax value of the tree cut at `cfg.depth` (see the module
/// doc for the threshold sequence and what is reused).
///
/// ```
/// use gamesearch::proof_number::{pn_value, PnConfig};
/// use gamesearch::trees::ExplicitTree;
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let r = pn_value(&tree.root(), &PnConfig::new(2));
/// assert_eq!(r.value, Some(4));
/// assert_eq!(r.best_move, Some(0));
/// ```
pub fn pn_value<G: Game>(game: &G, cfg: &PnConfig) -> PnValue<G::Move> {
    pn_value_observed(game, cfg, &mut NoObserver)
}

/// [`pn_value`] reporting every step to `obs` (see [`crate::trace`]).
pub fn pn_value_observed<G: Game, O: Observer<G::Move>>(
    game: &G,
    cfg: &PnConfig,
    obs: &mut O,
) -> PnValue<G::Move> {
    let mut tree = PnTree::new(game, cfg);
    if let (true, Some(value)) = (O::ACTIVE, tree.nodes[0].value) {
        obs.event(Event::LeafAt {
            path: Vec::new(),
            value,
        });
    }
    let mut budget = Budget::new(&cfg.limits);
    let mut runs = Vec::new();
    let mut best_move = None;
    let search = value_by_thresholds(game.value_bounds(), |v| {
        let r = run_threshold(&mut tree, v, &mut budget, obs);
        runs.push((v, r.answer));
        match r.answer {
            Answer::Proven => {
                if game.to_move() == Player::Max {
                    best_move = r.best_move.or(best_move);
                }
                Some(true)
            }
            Answer::Disproven => {
                if game.to_move() == Player::Min {
                    best_move = r.best_move.or(best_move);
                }
                Some(false)
            }
            Answer::Unknown => None,
        }
    });
    let (lo, hi) = (search.lo, search.hi);
    let solved = search.solved();
    // The deciding root move of the final answer: MAX proves V >= lo, MIN disproves V >= hi.
    if solved && tree.nodes[0].first_child != NONE {
        let v = if game.to_move() == Player::Max {
            lo
        } else {
            hi
        };
        let r = run_threshold(&mut tree, v, &mut budget, obs);
        best_move = r.best_move;
        runs.push((v, r.answer));
    } else if !solved {
        best_move = None;
    }
    PnValue {
        value: solved.then_some(lo),
        bounds: (lo, hi - 1),
        best_move,
        complete: solved,
        stats: tree.stats,
        runs,
        peak_bytes: tree.bytes(),
    }
}

/// Where a threshold search stands: `V >= lo` proven (or `lo` the game's lower bound) and
/// `V < hi` proven (or `hi - 1` its upper bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// The proven lower bound.
    pub lo: Score,
    /// One more than the proven upper bound.
    pub hi: Score,
    /// False when a test answered "unknown" (a budget).
    pub complete: bool,
}

impl Thresholds {
    /// The value is known: `lo`.
    pub fn solved(&self) -> bool {
        self.complete && self.lo + 1 == self.hi
    }
}

/// The threshold sequence of multi-valued proof-number search (see the module doc): `test(v)`
/// answers `V >= v` (`None`: unknown), first at 1, 2, 4, … while proven or 0, −1, −3, … while
/// disproven, then binary search with the upper middle, within the game's `bounds` if known.
/// Shared by [`pn_value`] and df-pn's [`dfpn::Dfpn::value`].
///
/// ```
/// use gamesearch::proof_number::value_by_thresholds;
/// let mut asked = Vec::new();
/// let t = value_by_thresholds(Some((-10, 10)), |v| { asked.push(v); Some(7 >= v) });
/// assert!(t.solved() && t.lo == 7);
/// assert_eq!(asked, [1, 2, 4, 8, 6, 7]);
/// ```
pub fn value_by_thresholds(
    bounds: Option<(Score, Score)>,
    mut test: impl FnMut(Score) -> Option<bool>,
) -> Thresholds {
    let (min, max) = bounds.unwrap_or(crate::game::VALUE_RANGE);
    let (mut lo, mut hi) = (min, max.saturating_add(1));
    let mut complete = true;
    // Open search: 1, 2, 4, … while proven; 0, -1, -3, -7, … while disproven.
    let mut v: Score = 1.clamp(lo, hi - 1);
    let mut going_up: Option<bool> = None;
    while lo + 1 < hi {
        match test(v) {
            None => {
                complete = false;
                break;
            }
            Some(true) => {
                lo = v;
                if going_up == Some(false) {
                    break;
                }
                going_up = Some(true);
                v = (if v <= 0 { 1 } else { v.saturating_mul(2) }).min(hi - 1);
            }
            Some(false) => {
                hi = v;
                if going_up == Some(true) {
                    break;
                }
                going_up = Some(false);
                v = (if v == 1 {
                    0
                } else {
                    v.saturating_mul(2).saturating_sub(1)
                })
                .max(lo);
            }
        }
        if v <= lo || v >= hi {
            break;
        }
    }
    // Binary search in [lo, hi - 1] with the upper middle (see the module doc).
    while complete && lo + 1 < hi {
        let mid = lo + (hi - lo) / 2; // upper middle of [lo, hi - 1]
        match test(mid) {
            None => complete = false,
            Some(true) => lo = mid,
            Some(false) => hi = mid,
        }
    }
    Thresholds { lo, hi, complete }
}

/// Win, draw or loss (MAX's view) by at most two tests: "win?" (`V >= 1`) and, if not,
/// "draw?" (`V >= 0`). `test(v)` answers with the deciding root move; the result is the proven
/// bounds within the game's `(lo, hi)`, the deciding move, and whether both answers came.
/// Shared by binary PN and binary df-pn.
///
/// ```
/// use gamesearch::proof_number::{win_draw_loss, Answer};
/// let draw = |v: i32| (if 0 >= v { Answer::Proven } else { Answer::Disproven }, Some(3));
/// assert_eq!(win_draw_loss((-5, 5), draw), ((0, 0), Some(3), true));
/// ```
pub fn win_draw_loss<M: Copy>(
    (lo, hi): (Score, Score),
    mut test: impl FnMut(Score) -> (Answer, Option<M>),
) -> ((Score, Score), Option<M>, bool) {
    let (win, win_move) = test(1);
    match win {
        Answer::Proven => ((1.max(lo), hi), win_move, true),
        Answer::Unknown => ((lo, hi), None, false),
        Answer::Disproven => {
            let (draw, draw_move) = test(0);
            match draw {
                Answer::Proven => ((0, 0.min(hi)), draw_move.or(win_move), true),
                Answer::Disproven => ((lo, (-1).min(hi)), draw_move, true),
                Answer::Unknown => ((lo, 0.min(hi)), None, false),
            }
        }
    }
}

/// Checks the parameters of a PN search.
pub fn validate(cfg: &PnConfig) -> Result<(), Error> {
    if cfg.max_memory == Some(0) {
        return Err(Error::BadParameter(
            "the memory budget must be at least one node".into(),
        ));
    }
    match cfg.max_memory {
        Some(b) => crate::memory::check_budget("a proof-number tree", b),
        None => Ok(()),
    }
}

/// Solves `game` to the end with proof-number search: `multi`, the exact value by
/// [`pn_value`]; otherwise binary PN answers "win?" (`V >= 1`) and, if not, "draw?" (`V >= 0`).
///
/// ```
/// use gamesearch::{proof_number::{solve, PnConfig}, trees::ExplicitTree};
/// let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
/// let r = solve(&t.root(), &PnConfig::new(u32::MAX), false);
/// assert_eq!((r.value, r.complete), (Some(0), true)); // a draw
/// ```
pub fn solve<G: Game>(game: &G, cfg: &PnConfig, multi: bool) -> PnValue<G::Move> {
    let mut cfg = cfg.clone();
    cfg.depth = u32::MAX;
    if multi {
        return pn_value(game, &cfg);
    }
    let (lo, hi) = game.value_bounds().unwrap_or(crate::game::VALUE_RANGE);
    let mut tree = PnTree::new(game, &cfg);
    let mut budget = Budget::new(&cfg.limits);
    let mut runs = Vec::new();
    let (bounds, best_move, complete) = win_draw_loss((lo, hi), |v| {
        let r = run_threshold(&mut tree, v, &mut budget, &mut NoObserver);
        runs.push((v, r.answer));
        (r.answer, r.best_move)
    });
    PnValue {
        value: (bounds.0 == bounds.1).then_some(bounds.0),
        bounds,
        best_move,
        complete,
        stats: tree.stats,
        runs,
        peak_bytes: tree.bytes(),
    }
}

impl<M> PnValue<M> {
    /// The exact solvers' common result: value, bounds, move, complete, counters (no table; the
    /// tree's peak size is tree PN's to add, df-pn keeps no tree).
    pub fn into_solution(self) -> crate::solver::Solution<M> {
        crate::solver::Solution {
            value: self.value,
            bounds: self.bounds,
            best_move: self.best_move,
            complete: self.complete,
            stats: self.stats,
            tt_bytes: 0,
            peak_tree_bytes: None,
            proof_nodes: None,
            root_numbers: None,
            from_book: false,
            remoteness: None,
        }
    }
}

/// [`solve`] as a [`crate::solver::Solution`]: the tree's peak size with it.
pub fn solution<G: Game>(
    game: &G,
    cfg: &PnConfig,
    multi: bool,
) -> crate::solver::Solution<G::Move> {
    let r = solve(game, cfg, multi);
    let peak = r.peak_bytes;
    crate::solver::Solution {
        peak_tree_bytes: Some(peak),
        ..r.into_solution()
    }
}

/// [`solve`] with its moves named (what `gamesearch solve --algo pn|pn-multi` prints).
pub fn solve_report<G: Game>(game: &G, cfg: &PnConfig, multi: bool) -> crate::report::SolveReport {
    let start = std::time::Instant::now();
    let algo = if multi { "pn-multi" } else { "pn" };
    solution(game, cfg, multi).report(game, algo, start.elapsed().as_secs_f64() * 1e3)
}
