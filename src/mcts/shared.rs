//! [`Parallel::Tree`](super::Parallel::Tree): one tree that every thread grows at once, without
//! a lock (the "lock-free" tree parallelisation of Enzenberger & Müller 2009, with virtual loss).
//!
//! Every statistic of a node is an atomic: its visits, its rewards (counted in half points, so
//! that a draw's ½ adds up exactly), its proven result, how many of its children have joined the
//! tree. A thread going down adds a visit at every node of its path at once (the *virtual
//! loss*: the other threads see a lower mean there and go elsewhere) and its reward on the way
//! back. A node is expanded by the one thread that changes its state from *leaf* to
//! *expanding*; that thread writes the children into slots it alone reserved and then publishes
//! them with the state *expanded* (release); a thread that finds a node being expanded plays
//! out from it instead of waiting. Proofs are facts: two threads that prove the same node write
//! the same result.
//!
//! The nodes live in chunks of 2^16, each made when first reached; the tree's own arena
//! ([`super::Mcts`]) is copied in before the search and back after it, so that reuse and the
//! final choice read it as after a search on one thread.

use std::sync::atomic::{AtomicI8, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::game::{Game, Player};
use crate::limits::Limits;

use super::{
    best_proven, reward_for, simulate, MctsConfig, Node, Shared, SplitMix, OPEN, TOO_LONG,
};

/// A node's expansion state.
const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// Nodes a chunk (a power of two).
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// One node, every field shared.
struct SharedNode<M> {
    /// The move into it, the side that played it, its parent: written once, before the node
    /// is published.
    info: OnceLock<(M, Player, u32)>,
    first_child: AtomicU32,
    n_children: AtomicU32,
    state: AtomicU8,
    /// Children that joined the tree (may pass `n_children`: a claim past the end is void).
    visited: AtomicU32,
    visits: AtomicU64,
    /// Twice the sum of the rewards for the mover.
    half_points: AtomicU64,
    proven: AtomicI8,
}

impl<M> SharedNode<M> {
    fn new() -> Self {
        SharedNode {
            info: OnceLock::new(),
            first_child: AtomicU32::new(0),
            n_children: AtomicU32::new(0),
            state: AtomicU8::new(LEAF),
            visited: AtomicU32::new(0),
            visits: AtomicU64::new(0),
            half_points: AtomicU64::new(0),
            proven: AtomicI8::new(OPEN),
        }
    }

    /// Children in the tree: the claims that fell within the children.
    fn joined(&self) -> u32 {
        self.visited
            .load(Ordering::Relaxed)
            .min(self.n_children.load(Ordering::Relaxed))
    }
}

/// A chunk of nodes, made when first reached.
type Chunk<M> = OnceLock<Box<[SharedNode<M>]>>;

/// The tree the threads share.
pub(super) struct SharedTree<M> {
    chunks: Box<[Chunk<M>]>,
    /// Slots handed out.
    len: AtomicUsize,
    capacity: usize,
}

impl<M: Copy> SharedTree<M> {
    /// A tree holding a copy of `nodes` (the arena of a search on one thread), with room for
    /// `capacity` nodes in all.
    pub(super) fn from_arena(nodes: &[Node<M>], capacity: usize) -> Self {
        let capacity = capacity.max(nodes.len()).min(u32::MAX as usize);
        let tree = SharedTree {
            chunks: (0..capacity.div_ceil(CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            len: AtomicUsize::new(nodes.len()),
            capacity,
        };
        for (i, n) in nodes.iter().enumerate() {
            let s = tree.node(i);
            let _ = s.info.set((n.mv, n.mover, n.parent));
            s.first_child.store(n.first_child, Ordering::Relaxed);
            s.n_children.store(n.n_children, Ordering::Relaxed);
            s.state
                .store(if n.expanded { EXPANDED } else { LEAF }, Ordering::Relaxed);
            s.visited.store(n.visited, Ordering::Relaxed);
            s.visits.store(n.visits, Ordering::Relaxed);
            s.half_points
                .store((n.reward * 2.0).round() as u64, Ordering::Relaxed);
            s.proven.store(n.proven, Ordering::Relaxed);
        }
        tree
    }

    /// The tree as an arena again (after every thread has stopped).
    pub(super) fn into_arena(self) -> Vec<Node<M>> {
        let len = self.len.load(Ordering::Relaxed).min(self.capacity);
        (0..len)
            .map(|i| {
                let s = self.node(i);
                let &(mv, mover, parent) = s.info.get().expect("every slot handed out is written");
                let mut n = Node::new(mv, mover, parent);
                n.first_child = s.first_child.load(Ordering::Relaxed);
                n.n_children = s.n_children.load(Ordering::Relaxed);
                n.expanded = s.state.load(Ordering::Relaxed) == EXPANDED;
                n.visited = s.joined();
                n.visits = s.visits.load(Ordering::Relaxed);
                n.reward = s.half_points.load(Ordering::Relaxed) as f64 / 2.0;
                n.proven = s.proven.load(Ordering::Relaxed);
                n
            })
            .collect()
    }

    fn node(&self, i: usize) -> &SharedNode<M> {
        let chunk = self.chunks[i >> CHUNK_BITS]
            .get_or_init(|| (0..CHUNK).map(|_| SharedNode::new()).collect());
        &chunk[i & (CHUNK - 1)]
    }

    /// `count` fresh slots, contiguous, from the first; when the tree is full, the error gives
    /// the slots handed out all the same (those below the capacity must still be written).
    fn reserve(&self, count: usize) -> Result<usize, std::ops::Range<usize>> {
        let first = self.len.fetch_add(count, Ordering::Relaxed);
        if first + count <= self.capacity {
            Ok(first)
        } else {
            Err(first.min(self.capacity)..(first + count).min(self.capacity))
        }
    }

    fn mv(&self, i: usize) -> M {
        self.node(i).info.get().expect("a published node").0
    }

    fn parent(&self, i: usize) -> u32 {
        self.node(i).info.get().expect("a published node").2
    }
}

/// One thread's iterations in the shared tree, until `shared` says the search is over.
pub(super) fn grow<G: Game>(
    tree: &SharedTree<G::Move>,
    thread: usize,
    cfg: &MctsConfig,
    root: &G,
    limits: &Limits,
    shared: &Shared,
) {
    let mut rng = SplitMix(cfg.seed ^ (thread as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut moves = Vec::new();
    shared.drive(limits, || {
        if cfg.solver && tree.node(0).proven.load(Ordering::Relaxed) != OPEN {
            shared.done.store(true, Ordering::Relaxed);
            return false;
        }
        iterate(tree, cfg, root, &mut rng, &mut moves, shared)
    });
}

/// One iteration; false when the tree is full (then `done` is raised).
fn iterate<G: Game>(
    tree: &SharedTree<G::Move>,
    cfg: &MctsConfig,
    root: &G,
    rng: &mut SplitMix,
    moves: &mut Vec<G::Move>,
    shared: &Shared,
) -> bool {
    let done = &shared.done;
    let mut p = root.clone();
    let mut n = 0usize;
    let mut depth = 0u32;
    // 1-2. Selection and expansion.
    let known = loop {
        let node = tree.node(n);
        let proven = node.proven.load(Ordering::Relaxed);
        if proven != OPEN {
            break Some(proven);
        }
        if node.state.load(Ordering::Acquire) == LEAF {
            if depth >= cfg.depth {
                break Some(settle(node, &p));
            }
            moves.clear();
            moves.extend(p.moves());
            if moves.is_empty() {
                break Some(settle(node, &p));
            }
            if node
                .state
                .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                // Another thread is expanding it: a playout from here.
                break None;
            }
            for i in (1..moves.len()).rev() {
                let j = rng.below(i + 1);
                moves.swap(i, j);
            }
            let mover = p.to_move();
            let first = match tree.reserve(moves.len()) {
                Ok(first) => first,
                Err(unused) => {
                    // Full. The slots this thread was handed stay out of the tree (no parent
                    // names them), written so that the copy back to the arena can read them.
                    for i in unused {
                        let _ = tree.node(i).info.set((moves[0], mover, n as u32));
                    }
                    node.state.store(LEAF, Ordering::Release);
                    done.store(true, Ordering::Relaxed);
                    return false;
                }
            };
            for (i, &mv) in moves.iter().enumerate() {
                let _ = tree.node(first + i).info.set((mv, mover, n as u32));
            }
            node.first_child.store(first as u32, Ordering::Relaxed);
            node.n_children.store(moves.len() as u32, Ordering::Relaxed);
            node.state.store(EXPANDED, Ordering::Release);
        } else if node.state.load(Ordering::Acquire) == EXPANDING {
            break None;
        }
        let first = node.first_child.load(Ordering::Relaxed) as usize;
        let count = node.n_children.load(Ordering::Relaxed);
        if node.visited.load(Ordering::Relaxed) < count {
            let claim = node.visited.fetch_add(1, Ordering::Relaxed);
            if claim < count {
                // 2. Expansion: this child joins the tree.
                n = first + claim as usize;
                p = p.play(tree.mv(n));
                depth += 1;
                break None;
            }
        }
        n = select(tree, cfg, n);
        p = p.play(tree.mv(n));
        depth += 1;
    };
    // The virtual loss: a visit at every node of the path now, the reward to come.
    let mut up = n;
    loop {
        tree.node(up).visits.fetch_add(1, Ordering::Relaxed);
        if up == 0 {
            break;
        }
        up = tree.parent(up) as usize;
    }
    // 3. Simulation.
    let (result, terminal) = match known {
        Some(r) => (r, false),
        None => simulate(cfg, rng, moves, &mut p, depth),
    };
    if result == TOO_LONG {
        shared.too_long.store(true, Ordering::Relaxed);
        done.store(true, Ordering::Relaxed);
        return false;
    }
    // 4. Backpropagation, and the proofs the result completes.
    if terminal {
        tree.node(n).proven.store(result, Ordering::Relaxed);
    }
    let mut up = n;
    loop {
        let node = tree.node(up);
        let mover = node.info.get().expect("a published node").1;
        let half = (reward_for(result, mover) * 2.0) as u64;
        node.half_points.fetch_add(half, Ordering::Relaxed);
        if up == 0 {
            break;
        }
        up = tree.parent(up) as usize;
    }
    if cfg.solver && tree.node(n).proven.load(Ordering::Relaxed) != OPEN {
        prove_upwards(tree, n);
    }
    true
}

/// A terminal node (or one at the horizon): its result, proven.
fn settle<M, G: Game>(node: &SharedNode<M>, p: &G) -> i8 {
    let result = p.evaluate().signum() as i8;
    node.proven.store(result, Ordering::Relaxed);
    result
}

/// UCT's choice among `n`'s children in the tree (MCTS-Solver: proven children left out while
/// another is open), as [`super::Mcts`] chooses on one thread.
fn select<M: Copy>(tree: &SharedTree<M>, cfg: &MctsConfig, n: usize) -> usize {
    let node = tree.node(n);
    let first = node.first_child.load(Ordering::Relaxed) as usize;
    let joined = node.joined() as usize;
    let log_n = (node.visits.load(Ordering::Relaxed).max(1) as f64).ln();
    let mut best = (f64::NEG_INFINITY, first);
    for i in first..first + joined {
        let child = tree.node(i);
        if cfg.solver && child.proven.load(Ordering::Relaxed) != OPEN {
            continue;
        }
        let v = child.visits.load(Ordering::Relaxed).max(1) as f64;
        let mean = child.half_points.load(Ordering::Relaxed) as f64 / 2.0 / v;
        let score = mean + cfg.exploration * (log_n / v).sqrt();
        if score > best.0 {
            best = (score, i);
        }
    }
    best.1
}

/// MCTS-Solver: from the newly proven node `n` upwards, each parent that its children now
/// prove (a proven win for the parent's mover, or every child proven: the best of them).
fn prove_upwards<M: Copy>(tree: &SharedTree<M>, mut n: usize) {
    while n != 0 {
        let parent = tree.parent(n) as usize;
        let child = tree.node(n);
        let side = child.info.get().expect("a published node").1;
        let result = child.proven.load(Ordering::Relaxed);
        let proven = if reward_for(result, side) == 1.0 {
            Some(result)
        } else {
            all_children_proven(tree, parent, side)
        };
        match proven {
            Some(v) => {
                tree.node(parent).proven.store(v, Ordering::Relaxed);
                n = parent;
            }
            None => return,
        }
    }
}

/// The best result for `side` among `n`'s children if every one of them is in the tree and
/// proven.
fn all_children_proven<M: Copy>(tree: &SharedTree<M>, n: usize, side: Player) -> Option<i8> {
    let node = tree.node(n);
    let count = node.n_children.load(Ordering::Relaxed);
    if node.joined() < count {
        return None;
    }
    let first = node.first_child.load(Ordering::Relaxed) as usize;
    best_proven(
        (first..first + count as usize).map(|i| tree.node(i).proven.load(Ordering::Relaxed)),
        side,
    )
}
