//! Conspiracy-number search (McAllester 1988), as Cater's slides specify it (slides "Conspiracy
//! Numbers" to "Conspiracy Numbers: Summary").
//!
//! The tree is grown one leaf at a time. Every node keeps its current minimax value (from static
//! evaluations at the frontier) and two **bounds sequences**: the ascending sequence `asc`, whose
//! k-th element is the largest value the node can reach if k leaves conspire (change their
//! values), and its mirror `desc`. Game-terminal and horizon nodes cannot change (`asc = [v]`);
//! an unexpanded leaf can become anything (`asc = [v, +∞]`); a MAX node takes, conspirator count
//! by conspirator count, the best of its children ([`asc_seq_max`], the slides' AscSeqMax); a
//! MIN node must raise *all* its children, so its k-th value is the largest `t` whose costs over
//! the children add up to at most k ([`asc_seq_min`], AscSeqMin). A sequence ends at the largest
//! reachable value; past its end it stays there. `upsize(node, t)` — the size of the smallest
//! conspiracy raising the node to `t` — is the first index of `asc` reaching `t` ([`upsize`] is
//! also written out as the slide's recursive definition, as the test oracle).
//!
//! With a conspiracy threshold NT (conspiracies of more than NT leaves are "unlikely"), the likely
//! values of the root are `[Vmin, Vmax] = [desc[NT], asc[NT]]`: the values some conspiracy of at
//! most NT leaves can bring about. This is the convention of the slides' tree-growth example
//! (ε = 0, NT = 2): there the root's range after the third expansion is `[-1, +1]`, which takes
//! conspiracies of two ("bringing any of {E F G} and any of {L M N} to -1 … would bring A to -1"). Tree growth (slide "CN Tree
//! Growth Procedure") rules out Vmax or Vmin — whichever is further from the current value,
//! ties → Vmin — by expanding a leaf of a minimal conspiracy set found by MIN-LEAF / MAX-LEAF,
//! until `Vmax - Vmin <= ε` or a budget runs out. After each expansion the values and sequences
//! are recomputed only along the path to the root ([`CnTree::expand`]); [`CnTree::recompute_all`]
//! is the from-scratch version kept as the test oracle.
//!
//! With NT unlimited ([`CnConfig::threshold`] = `None`) and ε = 0 the search stops only when no
//! conspiracy at all can change the root: the value is then the minimax value of the
//! depth-limited tree. With a finite NT it is an estimate with a confidence: no conspiracy
//! smaller than NT can move it out of the reported range.

use smallvec::SmallVec;

use crate::game::{Game, Player, Score, INF};
use crate::limits::{Budget, Limits};
use crate::observe::{Event, NoObserver, Observer};
use crate::stats::Stats;

/// A bounds sequence: element k = the value reachable with k conspirators.
pub type Seq = SmallVec<[Score; 4]>;

/// The k-th element of a sequence (its last element past the end).
#[inline]
pub fn at(seq: &[Score], k: usize) -> Score {
    seq[k.min(seq.len() - 1)]
}

/// First k with `seq[k] >= t` (ascending sequence), or `None`: the conspiracy size needed.
#[inline]
pub fn cost_up(seq: &[Score], t: Score) -> Option<usize> {
    seq.iter().position(|&x| x >= t)
}

/// First k with `seq[k] <= t` (descending sequence).
#[inline]
pub fn cost_down(seq: &[Score], t: Score) -> Option<usize> {
    seq.iter().position(|&x| x <= t)
}

/// AscSeqMax: a MAX node's ascending sequence from its value and its children's — at each
/// conspiracy size the best any one child reaches (one child's conspiracy suffices).
pub fn asc_seq_max(value: Score, children: &[&[Score]]) -> Seq {
    best_child_per_size(value, children, Score::max)
}

/// AscSeqMin: a MIN node's ascending sequence — to reach `t` every child below `t` must reach
/// it, so the cost of `t` is the sum of the children's costs; element k is the largest `t`
/// costing at most k. The sequence stops at the lowest of the children's maxima.
pub fn asc_seq_min(value: Score, children: &[&[Score]]) -> Seq {
    merge_costs(value, children, cost_up, Score::max, true)
}

/// DescSeqMin: a MIN node's descending sequence (mirror of [`asc_seq_max`]).
pub fn desc_seq_min(value: Score, children: &[&[Score]]) -> Seq {
    best_child_per_size(value, children, Score::min)
}

/// The element-wise merge shared by AscSeqMax and DescSeqMin: at each conspiracy size the best
/// (by `better`) that any one child reaches, never worse than at the previous size.
fn best_child_per_size(
    value: Score,
    children: &[&[Score]],
    better: fn(Score, Score) -> Score,
) -> Seq {
    let len = children.iter().map(|c| c.len()).max().unwrap_or(1);
    let mut out = Seq::new();
    let mut best = value;
    for k in 0..len {
        for c in children {
            if k < c.len() {
                best = better(best, c[k]);
            }
        }
        out.push(best);
    }
    out
}

/// DescSeqMax: a MAX node's descending sequence (mirror of [`asc_seq_min`]).
pub fn desc_seq_max(value: Score, children: &[&[Score]]) -> Seq {
    merge_costs(value, children, cost_down, Score::min, false)
}

/// The sum-of-costs merge shared by AscSeqMin and DescSeqMax.
fn merge_costs(
    value: Score,
    children: &[&[Score]],
    cost: impl Fn(&[Score], Score) -> Option<usize>,
    better: impl Fn(Score, Score) -> Score,
    ascending: bool,
) -> Seq {
    // The furthest value every child can reach: the lowest maximum (ascending).
    let limit = children
        .iter()
        .map(|c| *c.last().expect("non-empty"))
        .reduce(|a, b| if ascending { a.min(b) } else { a.max(b) })
        .unwrap_or(value);
    let mut candidates: SmallVec<[Score; 16]> = children
        .iter()
        .flat_map(|c| c.iter().copied())
        .filter(|&t| {
            if ascending {
                t > value && t <= limit
            } else {
                t < value && t >= limit
            }
        })
        .collect();
    candidates.sort_unstable_by(|a, b| if ascending { a.cmp(b) } else { b.cmp(a) });
    candidates.dedup();
    let mut out = Seq::new();
    out.push(value);
    for t in candidates {
        let total: usize = children
            .iter()
            .map(|c| cost(c, t).expect("t within every child's reach"))
            .sum();
        // Values costing `total` conspirators: fill the sizes in between with the previous best.
        let prev = *out.last().expect("non-empty");
        while out.len() < total {
            out.push(prev);
        }
        if out.len() == total {
            out.push(t);
        } else {
            let last = out.len() - 1;
            out[last] = better(out[last], t);
        }
    }
    out
}

/// Parameters of a conspiracy-number search.
///
/// ```
/// use gamesearch::{cns, trees::RandomTreeSpec, search, Algorithm, CnConfig, SearchConfig};
/// let root = RandomTreeSpec::new(3, 4, 2).root().unwrap();
/// let mut cfg = CnConfig::new(4);
/// cfg.accuracy = 0; // the exact minimax value
/// assert_eq!(Some(cns(&root, &cfg).value), search(&root, Algorithm::Minimax, &SearchConfig::new(4)).value);
/// ```
#[derive(Clone, Debug)]
pub struct CnConfig {
    /// The horizon: nodes at this depth are game-terminal for the search.
    pub depth: u32,
    /// Accuracy ε: stop when `Vmax - Vmin <= ε`.
    pub accuracy: Score,
    /// Conspiracy threshold NT: conspiracies of at most NT leaves are likely; `None`: unlimited
    /// (only certainty stops the search).
    pub threshold: Option<usize>,
    /// Node budget (expansions + leaves), time budget, stop flag.
    pub limits: Limits,
    /// Most bytes the tree may take.
    pub max_memory: Option<usize>,
}

impl CnConfig {
    /// Depth `depth`, ε = 0, NT unlimited.
    pub fn new(depth: u32) -> Self {
        CnConfig {
            depth,
            accuracy: 0,
            threshold: None,
            limits: Limits::none(),
            max_memory: None,
        }
    }
}

/// One node of the conspiracy tree.
#[derive(Clone, Debug)]
struct Node<G: Game> {
    pos: G,
    mv: Option<G::Move>,
    parent: u32,
    first_child: u32,
    children: u32,
    depth: u32,
    /// Game end or horizon: the value cannot change.
    terminal: bool,
    value: Score,
    asc: Seq,
    desc: Seq,
}

use crate::arena::NO_CHILD as NONE;

/// The explicit tree grown by conspiracy-number search.
pub struct CnTree<G: Game> {
    nodes: Vec<Node<G>>,
    max_nodes: usize,
    stats: Stats,
}

pub use crate::outcome::ConspiracyNumbers;

/// What a conspiracy-number search found.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CnResult<M> {
    /// The root's current minimax value.
    pub value: Score,
    /// `[Vmin, Vmax]` at the threshold.
    pub range: (Score, Score),
    /// The root move leading to the value.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub best_move: Option<M>,
    /// True when `Vmax - Vmin <= ε` (false: a budget stopped it).
    pub complete: bool,
    /// For each value `t` in the range (clamped to ±`span` around the value when infinite): the
    /// size of the smallest conspiracy that makes the root's value `t` (upsize above the value,
    /// downsize below, 0 at it).
    pub conspiracy: ConspiracyNumbers,
    /// `leaves`: static evaluations; `interior`: expansions.
    pub stats: Stats,
    /// Nodes in the tree.
    pub tree_nodes: usize,
}

impl<G: Game> CnTree<G> {
    /// Bytes one node takes (its sequences inline up to 4 elements each).
    pub const NODE_BYTES: usize = std::mem::size_of::<Node<G>>();

    /// A tree holding the unexpanded root.
    pub fn new(root: &G, cfg: &CnConfig) -> Self {
        let mut t = CnTree {
            nodes: Vec::new(),
            max_nodes: cfg
                .max_memory
                .or_else(crate::memory::default_tree_budget)
                .map_or(usize::MAX, |b| (b / Self::NODE_BYTES).max(1)),
            stats: Stats::default(),
        };
        let n = t.make_node(root.clone(), None, NONE, cfg.depth);
        t.nodes.push(n);
        t
    }

    fn make_node(&mut self, pos: G, mv: Option<G::Move>, parent: u32, depth: u32) -> Node<G> {
        self.stats.leaves += 1;
        let value = pos.evaluate();
        let terminal = depth == 0 || pos.moves().next().is_none();
        let (asc, desc) = if terminal {
            (Seq::from_slice(&[value]), Seq::from_slice(&[value]))
        } else {
            (
                Seq::from_slice(&[value, INF]),
                Seq::from_slice(&[value, -INF]),
            )
        };
        Node {
            pos,
            mv,
            parent,
            first_child: NONE,
            children: 0,
            depth,
            terminal,
            value,
            asc,
            desc,
        }
    }

    /// The root's value.
    pub fn value(&self) -> Score {
        self.nodes[0].value
    }

    /// The root's ascending bounds sequence.
    pub fn asc(&self) -> &[Score] {
        &self.nodes[0].asc
    }

    /// The root's descending bounds sequence.
    pub fn desc(&self) -> &[Score] {
        &self.nodes[0].desc
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node's (value, asc, desc), in arena order: to compare the incremental sequences
    /// with [`CnTree::recompute_all`]'s.
    pub fn snapshot(&self) -> Vec<(Score, Vec<Score>, Vec<Score>)> {
        self.nodes
            .iter()
            .map(|n| (n.value, n.asc.to_vec(), n.desc.to_vec()))
            .collect()
    }

    /// `[Vmin, Vmax]` at threshold `nt` (None: unlimited).
    pub fn range(&self, nt: Option<usize>) -> (Score, Score) {
        let r = &self.nodes[0];
        match nt {
            None => (*r.desc.last().unwrap(), *r.asc.last().unwrap()),
            Some(nt) => (at(&r.desc, nt), at(&r.asc, nt)),
        }
    }

    /// Recomputes node `i`'s value and sequences from its children.
    fn recompute(&mut self, i: usize) {
        let n = &self.nodes[i];
        if n.first_child == NONE {
            return;
        }
        let (value, asc, desc) = {
            let kids = &self.nodes[n.first_child as usize..(n.first_child + n.children) as usize];
            let ascs: SmallVec<[&[Score]; 16]> = kids.iter().map(|c| &c.asc[..]).collect();
            let descs: SmallVec<[&[Score]; 16]> = kids.iter().map(|c| &c.desc[..]).collect();
            match n.pos.to_move() {
                Player::Max => {
                    let v = kids.iter().map(|c| c.value).max().expect("children");
                    (v, asc_seq_max(v, &ascs), desc_seq_max(v, &descs))
                }
                Player::Min => {
                    let v = kids.iter().map(|c| c.value).min().expect("children");
                    (v, asc_seq_min(v, &ascs), desc_seq_min(v, &descs))
                }
            }
        };
        let n = &mut self.nodes[i];
        n.value = value;
        n.asc = asc;
        n.desc = desc;
    }

    /// From scratch: every node's value and sequences recomputed bottom-up (the test oracle for
    /// the incremental update).
    pub fn recompute_all(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            self.recompute(i);
        }
    }

    /// Expands leaf `i` (unexpanded, not terminal) and updates values and sequences along the
    /// path to the root only. False when the memory budget forbids it.
    pub fn expand(&mut self, i: usize) -> bool {
        let n = &self.nodes[i];
        if n.terminal || n.first_child != NONE {
            return false;
        }
        let (pos, depth) = (n.pos.clone(), n.depth);
        let k = pos.moves().count();
        if self.nodes.len() + k > self.max_nodes || self.nodes.try_reserve(k).is_err() {
            return false;
        }
        self.stats.interior += 1;
        let first = self.nodes.len() as u32;
        for m in pos.moves() {
            let c = self.make_node(pos.play(m), Some(m), i as u32, depth - 1);
            self.nodes.push(c);
        }
        self.nodes[i].first_child = first;
        self.nodes[i].children = k as u32;
        let mut j = i;
        loop {
            self.recompute(j);
            match self.nodes[j].parent {
                NONE => break,
                p => j = p as usize,
            }
        }
        true
    }

    /// The moves from the root to node `i`.
    fn path(&self, i: usize) -> Vec<G::Move> {
        crate::arena::path_to(i, |k| self.nodes[k].parent as usize, |k| self.nodes[k].mv)
    }

    /// Reports node `i`'s value and bounds sequences.
    fn report_node<O: Observer<G::Move>>(&self, i: usize, obs: &mut O) {
        let n = &self.nodes[i];
        obs.event(Event::Conspiracy {
            path: self.path(i),
            value: n.value,
            asc: n.asc.to_vec(),
            desc: n.desc.to_vec(),
        });
    }

    /// Reports the expansion of node `i`: its children's values and sequences, then every
    /// ancestor's (all recomputed by [`CnTree::expand`]).
    fn report_expansion<O: Observer<G::Move>>(&self, i: usize, obs: &mut O) {
        let kids = self.kids(i);
        obs.event(Event::Expand {
            path: self.path(i),
            children: kids.clone().filter_map(|k| self.nodes[k].mv).collect(),
        });
        for k in kids {
            obs.event(Event::LeafAt {
                path: self.path(k),
                value: self.nodes[k].value,
            });
            self.report_node(k, obs);
        }
        let mut j = i;
        loop {
            self.report_node(j, obs);
            match self.nodes[j].parent {
                NONE => break,
                p => j = p as usize,
            }
        }
    }

    /// Expands the node reached by `path` (for worked examples).
    pub fn expand_at(&mut self, path: &[G::Move]) -> bool {
        match self.find(path) {
            Some(i) => self.expand(i),
            None => false,
        }
    }

    fn find(&self, path: &[G::Move]) -> Option<usize> {
        crate::arena::find_path(path, |i| self.kids(i), |k| self.nodes[k].mv)
    }

    /// The node reached by `path`: (value, asc, desc).
    pub fn node_at(&self, path: &[G::Move]) -> Option<(Score, Vec<Score>, Vec<Score>)> {
        self.find(path).map(|i| {
            let n = &self.nodes[i];
            (n.value, n.asc.to_vec(), n.desc.to_vec())
        })
    }

    fn kids(&self, i: usize) -> std::ops::Range<usize> {
        crate::arena::child_range(self.nodes[i].first_child, self.nodes[i].children)
    }

    /// MIN-LEAF(node, Vmax): a leaf of a minimal conspiracy raising the node to `target`. At a
    /// MAX node follow the child of least upsize; at a MIN node any child still below `target`
    /// (we take the one of least upsize, leftmost on ties).
    pub fn min_leaf(&self, mut i: usize, target: Score) -> usize {
        loop {
            if self.nodes[i].first_child == NONE {
                return i;
            }
            let up = |k: usize| cost_up(&self.nodes[k].asc, target).unwrap_or(usize::MAX);
            i = match self.nodes[i].pos.to_move() {
                Player::Max => self.kids(i).min_by_key(|&k| up(k)),
                Player::Min => self
                    .kids(i)
                    .filter(|&k| self.nodes[k].value < target)
                    .min_by_key(|&k| up(k)),
            }
            .expect("a conspiracy exists below");
        }
    }

    /// MAX-LEAF(node, Vmin): the mirror of [`CnTree::min_leaf`].
    pub fn max_leaf(&self, mut i: usize, target: Score) -> usize {
        loop {
            if self.nodes[i].first_child == NONE {
                return i;
            }
            let down = |k: usize| cost_down(&self.nodes[k].desc, target).unwrap_or(usize::MAX);
            i = match self.nodes[i].pos.to_move() {
                Player::Min => self.kids(i).min_by_key(|&k| down(k)),
                Player::Max => self
                    .kids(i)
                    .filter(|&k| self.nodes[k].value > target)
                    .min_by_key(|&k| down(k)),
            }
            .expect("a conspiracy exists below");
        }
    }

    /// One step of the tree-growth procedure: the leaf to expand next, or `None` when the range
    /// is already within `accuracy`.
    pub fn next_leaf(&self, accuracy: Score, nt: Option<usize>) -> Option<usize> {
        let (vmin, vmax) = self.range(nt);
        if i64::from(vmax) - i64::from(vmin) <= i64::from(accuracy) {
            return None;
        }
        let v = self.value();
        let up = i64::from(vmax) - i64::from(v);
        let down = i64::from(v) - i64::from(vmin);
        // Rule out whichever is further from the current value; ties → Vmin (slide 28).
        Some(if up > down {
            self.min_leaf(0, vmax)
        } else {
            self.max_leaf(0, vmin)
        })
    }

    /// The root move whose child has the root's value: preferably one whose value no conspiracy
    /// can move against the mover (at a MAX root a child that cannot drop below the value — an
    /// unexpanded sibling may show the same static value without deserving it), else the
    /// leftmost child with the value.
    pub fn best_move(&self) -> Option<G::Move> {
        if self.nodes[0].first_child == NONE {
            return None;
        }
        let v = self.value();
        let max = self.nodes[0].pos.to_move() == Player::Max;
        let certain = |k: &usize| {
            let n = &self.nodes[*k];
            if max {
                *n.desc.last().expect("non-empty") >= v
            } else {
                *n.asc.last().expect("non-empty") <= v
            }
        };
        let with_value = || self.kids(0).filter(|&k| self.nodes[k].value == v);
        with_value()
            .find(certain)
            .or_else(|| with_value().next())
            .and_then(|k| self.nodes[k].mv)
    }

    /// Conspiracy sizes for each value in `[lo, hi]`.
    pub fn conspiracy_numbers(&self, lo: Score, hi: Score) -> Vec<(Score, usize)> {
        let r = &self.nodes[0];
        (lo..=hi)
            .map(|t| {
                let c = if t > r.value {
                    cost_up(&r.asc, t)
                } else if t < r.value {
                    cost_down(&r.desc, t)
                } else {
                    Some(0)
                };
                (t, c.unwrap_or(usize::MAX))
            })
            .collect()
    }
}

/// Upsize(node, target) written out as the slide's recursive definition (slide "How big is the
/// minimal conspiracy set?"), over the tree as grown: the oracle for the sequences.
pub fn upsize<G: Game>(tree: &CnTree<G>, path: &[G::Move], target: Score) -> Option<usize> {
    let i = tree.find(path)?;
    Some(upsize_at(tree, i, target))
}

fn upsize_at<G: Game>(t: &CnTree<G>, i: usize, target: Score) -> usize {
    let n = &t.nodes[i];
    if n.value >= target {
        0
    } else if n.terminal {
        usize::MAX
    } else if n.first_child == NONE {
        1
    } else if n.pos.to_move() == Player::Max {
        t.kids(i)
            .map(|k| upsize_at(t, k, target))
            .min()
            .unwrap_or(usize::MAX)
    } else {
        t.kids(i)
            .map(|k| upsize_at(t, k, target))
            .fold(0usize, |a, b| a.saturating_add(b))
    }
}

/// Downsize(node, target), the mirror.
pub fn downsize<G: Game>(tree: &CnTree<G>, path: &[G::Move], target: Score) -> Option<usize> {
    let i = tree.find(path)?;
    Some(downsize_at(tree, i, target))
}

fn downsize_at<G: Game>(t: &CnTree<G>, i: usize, target: Score) -> usize {
    let n = &t.nodes[i];
    if n.value <= target {
        0
    } else if n.terminal {
        usize::MAX
    } else if n.first_child == NONE {
        1
    } else if n.pos.to_move() == Player::Min {
        t.kids(i)
            .map(|k| downsize_at(t, k, target))
            .min()
            .unwrap_or(usize::MAX)
    } else {
        t.kids(i)
            .map(|k| downsize_at(t, k, target))
            .fold(0usize, |a, b| a.saturating_add(b))
    }
}

/// Conspiracy-number search: grows the tree until the likely range at the threshold is within
/// the accuracy, or a budget runs out.
///
/// ```
/// use gamesearch::conspiracy::{cns, CnConfig};
/// use gamesearch::trees::ExplicitTree;
/// let t = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let r = cns(&t.root(), &CnConfig::new(2));
/// assert_eq!((r.value, r.range), (4, (4, 4)));
/// assert_eq!(r.best_move, Some(0));
/// ```
pub fn cns<G: Game>(game: &G, cfg: &CnConfig) -> CnResult<G::Move> {
    cns_observed(game, cfg, &mut NoObserver)
}

/// [`cns`] reporting every step to `obs` (see [`crate::trace`]).
pub fn cns_observed<G: Game, O: Observer<G::Move>>(
    game: &G,
    cfg: &CnConfig,
    obs: &mut O,
) -> CnResult<G::Move> {
    let mut tree = CnTree::new(game, cfg);
    if O::ACTIVE {
        obs.event(Event::LeafAt {
            path: Vec::new(),
            value: tree.value(),
        });
        tree.report_node(0, obs);
    }
    let mut budget = Budget::new(&cfg.limits);
    let nt = cfg.threshold;
    let mut complete = true;
    while let Some(leaf) = tree.next_leaf(cfg.accuracy, nt) {
        if O::ACTIVE {
            obs.event(Event::Select {
                path: tree.path(leaf),
            });
        }
        let k = tree.nodes[leaf].pos.moves().count() as u64;
        if budget.exhausted(tree.stats.nodes() + k) || !tree.expand(leaf) {
            complete = false;
            break;
        }
        if O::ACTIVE {
            tree.report_expansion(leaf, obs);
        }
    }
    let range = tree.range(nt);
    let v = tree.value();
    let span = 8;
    let lo = if range.0 <= -INF {
        v - span
    } else {
        range.0.max(v - 64)
    };
    let hi = if range.1 >= INF {
        v + span
    } else {
        range.1.min(v + 64)
    };
    CnResult {
        value: v,
        range,
        best_move: tree.best_move(),
        complete,
        conspiracy: tree.conspiracy_numbers(lo, hi),
        stats: tree.stats,
        tree_nodes: tree.len(),
    }
}
