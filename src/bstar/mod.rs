//! B* (Berliner 1979): a best-first search that stops as soon as one move at the root is
//! *proven* best, without computing any value exactly.
//!
//! Every node carries an interval `[pessimistic, optimistic]` that holds its minimax value: a
//! leaf's comes from the game (a bound function: the solver's static bounds, or a heuristic ±
//! a margin), a finished game's is its exact value, and an expanded node's is backed up from its
//! children — where MAX moves the largest lower bound and the largest upper bound, where MIN
//! moves the smallest of each.
//!
//! **One iteration** (values seen by the side to move at the root):
//! 1. *The root's choice*: `best` is the child with the highest optimistic bound, `rival` the
//!    highest optimistic bound among the others. When `best`'s pessimistic bound reaches
//!    `rival`'s optimistic one, `best` is proven no worse than any other move: the search
//!    stops (*separation*).
//! 2. *The strategy*: **prove-best** works in `best`'s subtree to raise its pessimistic bound;
//!    **disprove-rest** works in `rival`'s to lower its optimistic bound. Berliner leaves the
//!    choice to the program; this one takes prove-best when `best`'s interval is at least as
//!    wide as `rival`'s (the more uncertain of the two is searched), disprove-rest otherwise,
//!    and whichever is left when one of them is exact.
//! 3. *The descent*: below the chosen child, at every node the open child (interval not yet a
//!    point) with the best optimistic bound for the side to move there — which, for both
//!    strategies, is the child whose bound can move the one the strategy needs to move.
//! 4. *Expansion and backup*: the leaf reached gets its children, each with its interval, and
//!    the intervals are backed up to the root.
//!
//! With bounds that truly hold the minimax values, the move B* returns on separation is a best
//! move; the property tests check this against plain minimax with bounds of random width.
//!
//! ```
//! use gamesearch::bstar::{search, BStarConfig};
//! use gamesearch::{trees::ExplicitTree, Game, Limits};
//! // MAX's second move is worth 3, its first at most 2: the bounds of the unexpanded nodes are
//! // the tree's value range, [-9, 9], so B* must look at the leaves, but not at all of them.
//! let t = ExplicitTree::parse("(max (min 2 -5 1) (min 3 4) (min 7 -9))").unwrap();
//! let r = search(&t.root(), &BStarConfig::default(), |_| (-9, 9), &Limits::none()).unwrap();
//! assert!(r.separated);
//! assert_eq!(t.root().move_name(r.best_move.unwrap()), "2");
//! assert_eq!(r.best_range.0, 3); // the second move is proven worth at least 3
//! ```

use crate::error::Error;
use crate::game::{Game, Player, Score, INF};
use crate::limits::{Budget, Limits};
use crate::observe::{Event, NoObserver, Observer};

/// How B* searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BStarConfig {
    /// The horizon: a position this many plies below the root counts as finished, its
    /// [`Game::evaluate`] its exact value. `u32::MAX`: the end of the game.
    pub depth: u32,
    /// The most nodes the tree may hold; past it the search stops (as if out of budget).
    pub max_tree_nodes: usize,
}

impl Default for BStarConfig {
    fn default() -> Self {
        BStarConfig {
            depth: u32::MAX,
            max_tree_nodes: 1 << 24,
        }
    }
}

/// What a B* search found.
#[derive(Clone, Debug, PartialEq)]
pub struct BStarResult<M> {
    /// The move: on separation the proven best; otherwise the one with the highest pessimistic
    /// bound for the side to move.
    pub best_move: Option<M>,
    /// Whether the search separated the best move from the rest (else a budget stopped it).
    pub separated: bool,
    /// The best move's interval, MAX's view.
    pub best_range: (Score, Score),
    /// The root's interval, MAX's view.
    pub root_range: (Score, Score),
    /// Nodes expanded (iterations).
    pub expansions: u64,
    /// Nodes in the tree.
    pub tree_nodes: usize,
    /// Iterations that proved the best move, and iterations that disproved the rest.
    pub strategies: (u64, u64),
}

/// One node: its move, interval (MAX's view) and children.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    /// The side to move at this node.
    to_move: Player,
    first_child: u32,
    n_children: u32,
    expanded: bool,
    lo: Score,
    hi: Score,
}

/// The B* tree of one search.
struct Tree<M> {
    nodes: Vec<Node<M>>,
}

impl<M: Copy> Tree<M> {
    /// Reports the expansion of the last node of `path` (node indices from the root): its
    /// selection, its children and their intervals, then the intervals of `path`, leaf first.
    fn report<O: Observer<M>>(&self, path: &[usize], obs: &mut O) {
        let moves: Vec<M> = path[1..].iter().map(|&i| self.nodes[i].mv).collect();
        let leaf = *path.last().expect("the root at least");
        obs.event(Event::Select {
            path: moves.clone(),
        });
        obs.event(Event::Expand {
            path: moves.clone(),
            children: self.children(leaf).map(|c| self.nodes[c].mv).collect(),
        });
        let mut child_path = moves.clone();
        for c in self.children(leaf) {
            child_path.push(self.nodes[c].mv);
            obs.event(Event::Interval {
                path: child_path.clone(),
                lower: self.nodes[c].lo,
                upper: self.nodes[c].hi,
            });
            child_path.pop();
        }
        for (k, &a) in path.iter().enumerate().rev() {
            obs.event(Event::Interval {
                path: moves[..k].to_vec(),
                lower: self.nodes[a].lo,
                upper: self.nodes[a].hi,
            });
        }
    }

    fn children(&self, n: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[n];
        node.first_child as usize..(node.first_child + node.n_children) as usize
    }

    /// `n`'s interval from its children.
    fn back_up(&mut self, n: usize) {
        let max = self.nodes[n].to_move == Player::Max;
        let (mut lo, mut hi) = if max {
            (Score::MIN, Score::MIN)
        } else {
            (Score::MAX, Score::MAX)
        };
        for c in self.children(n) {
            let child = &self.nodes[c];
            if max {
                lo = lo.max(child.lo);
                hi = hi.max(child.hi);
            } else {
                lo = lo.min(child.lo);
                hi = hi.min(child.hi);
            }
        }
        self.nodes[n].lo = lo;
        self.nodes[n].hi = hi;
    }

    /// The interval of `n` as `side` sees it: (pessimistic, optimistic).
    fn seen_by(&self, n: usize, side: Player) -> (Score, Score) {
        let node = &self.nodes[n];
        match side {
            Player::Max => (node.lo, node.hi),
            Player::Min => (-node.hi, -node.lo),
        }
    }

    fn open(&self, n: usize) -> bool {
        self.nodes[n].lo < self.nodes[n].hi
    }

    /// Step 3's choice: the open child of `n` with the best optimistic bound for the side to
    /// move at `n` (the first of equals).
    fn most_optimistic_open_child(&self, n: usize) -> Option<usize> {
        let side = self.nodes[n].to_move;
        self.children(n)
            .filter(|&c| self.open(c))
            .fold(None, |best: Option<usize>, c| match best {
                Some(b) if self.seen_by(b, side).1 >= self.seen_by(c, side).1 => Some(b),
                _ => Some(c),
            })
    }
}

/// B* from `root`: `bounds(p)` gives an unfinished position's interval (pessimistic and
/// optimistic value, MAX's view, `lo ≤ hi`), which must hold the position's minimax value for
/// the returned move to be proven best. Stops on separation, on the budget (`max_nodes`:
/// expansions) or on the tree's node cap.
///
/// Errors: an interval with `lo > hi`.
pub fn search<G: Game>(
    root: &G,
    cfg: &BStarConfig,
    bounds: impl FnMut(&G) -> (Score, Score),
    limits: &Limits,
) -> Result<BStarResult<G::Move>, Error> {
    search_observed(root, cfg, bounds, limits, &mut NoObserver)
}

/// [`search`] reporting each iteration to `obs`: the leaf selected ([`Event::Select`]) and
/// expanded ([`Event::Expand`]), its children's intervals, then the intervals backed up from
/// it to the root ([`Event::Interval`]).
pub fn search_observed<G: Game, O: Observer<G::Move>>(
    root: &G,
    cfg: &BStarConfig,
    mut bounds: impl FnMut(&G) -> (Score, Score),
    limits: &Limits,
    obs: &mut O,
) -> Result<BStarResult<G::Move>, Error> {
    let side = root.to_move();
    let first = root.moves().next();
    let Some(first) = first.filter(|_| cfg.depth > 0) else {
        let v = root.evaluate();
        return Ok(BStarResult {
            best_move: None,
            separated: true,
            best_range: (v, v),
            root_range: (v, v),
            expansions: 0,
            tree_nodes: 0,
            strategies: (0, 0),
        });
    };
    let mut tree = Tree {
        nodes: vec![Node {
            mv: first,
            to_move: side,
            first_child: 0,
            n_children: 0,
            expanded: false,
            lo: -INF,
            hi: INF,
        }],
    };
    let mut leaf_interval = |p: &G, plies: u32| -> Result<(Score, Score), Error> {
        if plies >= cfg.depth || p.moves().next().is_none() {
            let v = p.evaluate();
            return Ok((v, v));
        }
        let (lo, hi) = bounds(p);
        // Wider than ±INF says nothing more (and could not be negated).
        let (lo, hi) = (lo.clamp(-INF, INF), hi.clamp(-INF, INF));
        if lo > hi {
            return Err(Error::BadParameter(format!(
                "B*: a position's bounds must have pessimistic ≤ optimistic, not [{lo}, {hi}]"
            )));
        }
        Ok((lo, hi))
    };
    let mut budget = Budget::new(limits);
    let mut expansions = 0u64;
    let mut strategies = (0u64, 0u64);
    // The nodes from the root to the leaf being expanded.
    let mut path: Vec<usize> = vec![0];
    let mut leaf = 0usize;
    let mut position = root.clone();
    let mut plies = 0u32;
    let separated = loop {
        // 4. Expansion of `leaf` (the root, the first time) and backup.
        let n = tree.nodes.len();
        tree.nodes[leaf].first_child = n as u32;
        for m in position.moves() {
            let child = position.play(m);
            let (lo, hi) = leaf_interval(&child, plies + 1)?;
            tree.nodes.push(Node {
                mv: m,
                to_move: child.to_move(),
                first_child: 0,
                n_children: 0,
                expanded: false,
                lo,
                hi,
            });
        }
        tree.nodes[leaf].n_children = (tree.nodes.len() - n) as u32;
        tree.nodes[leaf].expanded = true;
        expansions += 1;
        for &a in path.iter().rev() {
            tree.back_up(a);
        }
        if O::ACTIVE {
            tree.report(&path, obs);
        }
        // 1. The root's choice, and separation.
        let (best, rival) = root_choice(&tree, side);
        let Some(rival) = rival else {
            break true; // one move: nothing to separate it from
        };
        let (best_lo, best_hi) = tree.seen_by(best, side);
        let (rival_lo, rival_hi) = tree.seen_by(rival, side);
        if best_lo >= rival_hi {
            break true;
        }
        if budget.exhausted(expansions) || tree.nodes.len() >= cfg.max_tree_nodes {
            break false;
        }
        // 2. The strategy: an exact child cannot move, so the other works.
        let prove_best = if !tree.open(best) {
            false
        } else if !tree.open(rival) {
            true
        } else {
            best_hi - best_lo >= rival_hi - rival_lo
        };
        let target = if prove_best {
            strategies.0 += 1;
            best
        } else {
            strategies.1 += 1;
            rival
        };
        // 3. The descent.
        path.clear();
        path.push(0);
        position = root.play(tree.nodes[target].mv);
        plies = 1;
        let mut n = target;
        while tree.nodes[n].expanded {
            path.push(n);
            // An open node's children are not all exact (their backed-up interval would be).
            let c = tree
                .most_optimistic_open_child(n)
                .expect("an open node has an open child");
            position = position.play(tree.nodes[c].mv);
            plies += 1;
            n = c;
        }
        path.push(n);
        leaf = n;
    };
    let (best, _) = root_choice(&tree, side);
    let chosen = if separated {
        best
    } else {
        // Stopped: the move with the highest pessimistic bound.
        tree.children(0)
            .max_by_key(|&c| (tree.seen_by(c, side).0, std::cmp::Reverse(c)))
            .unwrap_or(best)
    };
    Ok(BStarResult {
        best_move: Some(tree.nodes[chosen].mv),
        separated,
        best_range: (tree.nodes[chosen].lo, tree.nodes[chosen].hi),
        root_range: (tree.nodes[0].lo, tree.nodes[0].hi),
        expansions,
        tree_nodes: tree.nodes.len(),
        strategies,
    })
}

/// Step 1: the root's child with the highest optimistic bound for `side` (higher pessimistic
/// bound, then the first, among equals), and the highest optimistic bound among the others.
fn root_choice<M: Copy>(tree: &Tree<M>, side: Player) -> (usize, Option<usize>) {
    let key = |c: usize| {
        let (lo, hi) = tree.seen_by(c, side);
        (hi, lo, std::cmp::Reverse(c))
    };
    let best = tree
        .children(0)
        .max_by_key(|&c| key(c))
        .expect("the root has children");
    let rival = tree
        .children(0)
        .filter(|&c| c != best)
        .max_by_key(|&c| key(c));
    (best, rival)
}
