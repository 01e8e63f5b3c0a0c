//! Monte-Carlo tree search: UCT (Kocsis & Szepesvári 2006) and MCTS-Solver (Winands, Björnsson
//! & Saito 2008), best-first searches that need no evaluation function, only the rules.
//!
//! **One iteration** (a *playout*) has four steps:
//! 1. *Selection*: from the root, each node's child with the highest upper confidence bound
//!    `mean + C·sqrt(ln N / n)` (`mean`: the child's average reward for the side that moved into
//!    it, `n` its visits, `N` the parent's), until a node with a child never visited.
//! 2. *Expansion*: one child, the next of the node's children in a seeded random order, joins
//!    the tree.
//! 3. *Simulation*: uniformly random moves from there (the game's own move generator, a seeded
//!    generator) to the end of the game or the horizon; the reward is 1 for a win, ½ for a draw,
//!    0 for a loss (the sign of [`Game::evaluate`] there: a margin counts as a win or a loss).
//! 4. *Backpropagation*: every node on the path gains a visit and the reward, seen from the side
//!    that moved into it (turns need not alternate: each node knows who moved into it).
//!
//! **MCTS-Solver** also backs up proven results. A terminal node is proven. A node whose mover
//! has a child proven won for it is proven won; a node all of whose children are proven takes
//! the best of their results for its mover (so draws are proven too, once every child is). A
//! proven child is not selected again while a sibling is open: its result is known, and a visit
//! would teach nothing (Winands et al. prove wins and losses only; a proven draw selected by its
//! mean would take most visits from the open siblings whose proofs the parent waits for). So
//! every iteration adds a node, and the search, run to the end, proves the root, when it stops. The move
//! finally chosen is the *secure child* (the highest `mean + A/sqrt(n)`, A = 1), or a proven
//! best move.
//!
//! **PN-MCTS** (Kowalski et al. 2024) is MCTS-Solver that also keeps
//! proof and disproof numbers (Allis et al. 1994) in its tree, for the proposition "the side to move at
//! the root wins": a node not yet expanded has 1 and 1, a proven node 0 and ∞ (a win for that
//! side) or ∞ and 0 (a draw or a loss); an expanded node where that side moves takes the least
//! proof number and the sum of the disproof numbers of its children, the other side's node the
//! sum of the proof numbers and the least disproof number. Selection adds to UCT's bound
//! `C_pn · (1 − rank / children)`, the rank (1 the best; ties share one) of the child's proof
//! number where the root's side moves and of its disproof number where the other side does:
//! the search leans to the subtrees closest to a proof. The move finally chosen is the *robust
//! child* (the most visits), a proven best move first, as published.
//!
//! **Playouts cut off** (`playout_plies`): a playout stops that many random plies below the node
//! it starts from and takes the sign of [`Game::evaluate`] there as its result (Winands et
//! al. 2010 stopped Lines of Action's playouts by an evaluation). Wrap the game in
//! [`crate::adapters::AtHorizon`] to have its engine heuristic as that evaluation. Unlike the
//! horizon `depth`, a cut-off proves nothing.
//!
//! **Threads** (`threads`, `parallel`; Chaslot, Winands & van den Herik 2008 compare the ways):
//! - [`Parallel::Root`]: each thread grows a tree of its own from its own seed, without locks;
//!   at the end the root children's visits and rewards are summed over the trees and the move
//!   is chosen from the sums. A tree that proves the root ends every thread's search.
//! - [`Parallel::Tree`]: the threads grow one tree at once, without a lock: every statistic
//!   is an atomic, and a thread going down counts a visit at every node of its path before its
//!   result is in (a *virtual loss*), so that the others, seeing a lower mean there, go
//!   elsewhere (Enzenberger & Müller 2009). Not for PN-MCTS, whose numbers one thread keeps.
//!
//! With threads the playout budget (`max_nodes`) is kept to within 16 playouts a thread.
//!
//! The tree is an arena of nodes (children contiguous, allocated when their parent is first
//! expanded); an iteration replays its moves from the root, so positions are not stored.
//! [`Mcts`] keeps its tree between searches: [`Mcts::search`] from a position two plies below the
//! last root reuses the subtree found there.
//!
//! ```
//! use gamesearch::mcts::{Mcts, MctsConfig};
//! use gamesearch::Limits;
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! let cfg = MctsConfig { solver: true, ..MctsConfig::default() };
//! let mut m = Mcts::new(&cfg);
//! let r = m.search(&Nim::new(7), &Limits::none().with_max_nodes(100_000)).unwrap();
//! assert_eq!(r.proven, Some(1)); // 7 stones: take 3, leave a multiple of 4
//! assert_eq!(r.best_move, Some(3));
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::limits::{Budget, Limits};
use crate::observe::{Event, NoObserver, Observer};
use crate::random::SplitMix;

mod shared;

/// How several threads share one search (see the module's documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Parallel {
    /// A tree a thread, the root's statistics summed at the end.
    Root,
    /// One tree grown by every thread at once: atomic statistics, virtual loss, no lock. The
    /// default: it measures stronger (docs/results/mcts-and-matches.md).
    #[default]
    Tree,
}

/// How MCTS searches.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// C, the exploration constant of UCT (rewards are in [0, 1]). Default √2 (Kocsis &
    /// Szepesvári's bound for rewards in [0, 1]).
    pub exploration: f64,
    /// MCTS-Solver: back up proven results, stop when the root is proven.
    pub solver: bool,
    /// Seed of the playouts and of the children's order.
    pub seed: u64,
    /// The horizon: a position this many plies below the root counts as the end (its
    /// evaluation's sign the result). `u32::MAX`: play to the end of the game.
    pub depth: u32,
    /// The most nodes the tree may hold; past it the search stops (as if out of budget).
    pub max_tree_nodes: usize,
    /// PN-MCTS: the weight `C_pn` of the proof-number term in selection (Kowalski et al. use 1).
    /// Implies `solver`.
    pub pn_constant: Option<f64>,
    /// A playout's most random plies below the node it starts from; there the sign of
    /// [`Game::evaluate`] is its result. `u32::MAX`: to the end of the game (or the horizon).
    pub playout_plies: u32,
    /// Threads searching (1: this one alone). More than one needs a game that is `Send` and
    /// `Sync`: [`search_parallel`] or [`Mcts::search`].
    pub threads: usize,
    /// How the threads share the work.
    pub parallel: Parallel,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            solver: false,
            seed: 1,
            depth: u32::MAX,
            max_tree_nodes: 1 << 24,
            pn_constant: None,
            playout_plies: u32::MAX,
            threads: 1,
            parallel: Parallel::Tree,
        }
    }
}

impl MctsConfig {
    /// A typed error for a setting no search can run with.
    ///
    /// ```
    /// use gamesearch::mcts::{MctsConfig, Parallel};
    /// assert!(MctsConfig::default().check().is_ok());
    /// let pn_on_one_tree = MctsConfig { pn_constant: Some(1.0), threads: 2, parallel: Parallel::Tree, ..MctsConfig::default() };
    /// assert!(pn_on_one_tree.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(Error::BadParameter(format!(
                "the exploration constant must be a finite number ≥ 0, not {}",
                self.exploration
            )));
        }
        if let Some(c) = self.pn_constant {
            if !(c.is_finite() && c >= 0.0) {
                return Err(Error::BadParameter(format!(
                    "the proof-number constant must be a finite number ≥ 0, not {c}"
                )));
            }
        }
        if self.max_tree_nodes == 0 {
            return Err(Error::BadParameter(
                "the tree must be allowed at least one node".into(),
            ));
        }
        if self.pn_constant.is_some() && self.threads > 1 && self.parallel == Parallel::Tree {
            return Err(Error::BadParameter(
                "PN-MCTS keeps its proof numbers on one thread's tree: give it parallel root"
                    .into(),
            ));
        }
        if self.threads == 0 || self.threads > 1024 {
            return Err(Error::BadParameter(format!(
                "threads must be from 1 to 1024, not {}",
                self.threads
            )));
        }
        Ok(())
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move chosen: the proven best move, else the secure child.
    pub best_move: Option<M>,
    /// The root's result if proven (MCTS-Solver): +1 the first player (MAX) wins, 0 a draw, −1
    /// MAX loses.
    pub proven: Option<Score>,
    /// The root's mean reward for MAX (win 1, draw ½, loss 0) over its playouts.
    pub mean: f64,
    /// Playouts this search ran.
    pub playouts: u64,
    /// The root's visits, those of earlier searches kept by reuse included.
    pub root_visits: u64,
    /// Nodes in the tree.
    pub tree_nodes: usize,
    /// Each root move: its visits and mean reward for the side to move at the root.
    pub children: Vec<(M, u64, f64)>,
}

/// One search from a fresh tree (any game: no keys needed), within `limits` (`max_nodes`:
/// playouts).
///
/// ```
/// use gamesearch::mcts::{search, MctsConfig};
/// use gamesearch::{trees::ExplicitTree, Limits};
/// let t = ExplicitTree::parse("(max (min 1 -1) (min 1 1))").unwrap();
/// let cfg = MctsConfig { solver: true, ..MctsConfig::default() };
/// let r = search(&t.root(), &cfg, &Limits::none()).unwrap();
/// assert_eq!(r.proven, Some(1)); // the second move wins
/// ```
pub fn search<G: Game>(
    root: &G,
    cfg: &MctsConfig,
    limits: &Limits,
) -> Result<MctsResult<G::Move>, Error> {
    search_observed(root, cfg, limits, &mut NoObserver)
}

/// [`search`] reporting each iteration to `obs`: the path selected ([`Event::Select`]), the
/// child added ([`Event::Expand`], one at a time), the playout's result ([`Event::Playout`]),
/// then every node of the path, leaf first, with its visits, mean and proof
/// ([`Event::Visits`]; PN-MCTS adds [`Event::Numbers`]).
pub fn search_observed<G: Game, O: Observer<G::Move>>(
    root: &G,
    cfg: &MctsConfig,
    limits: &Limits,
    obs: &mut O,
) -> Result<MctsResult<G::Move>, Error> {
    if cfg.threads != 1 {
        return Err(Error::BadParameter(format!(
            "{} threads: mcts::search runs one; call mcts::search_parallel (the game must be \
             Send and Sync)",
            cfg.threads
        )));
    }
    let mut m = Mcts::new(cfg);
    m.check()?;
    m.plant(root);
    m.run_observed(root, limits, obs)
}

/// [`search`] with `cfg.threads` threads (any number from 1), sharing the work as
/// `cfg.parallel` says.
///
/// ```
/// use gamesearch::mcts::{search_parallel, MctsConfig, Parallel};
/// use gamesearch::{trees::ExplicitTree, Limits};
/// let t = ExplicitTree::parse("(max (min 1 -1) (min 1 1))").unwrap();
/// for parallel in [Parallel::Root, Parallel::Tree] {
///     let cfg = MctsConfig { solver: true, threads: 2, parallel, ..MctsConfig::default() };
///     let r = search_parallel(&t.root(), &cfg, &Limits::none()).unwrap();
///     assert_eq!(r.proven, Some(1));
/// }
/// ```
pub fn search_parallel<G>(
    root: &G,
    cfg: &MctsConfig,
    limits: &Limits,
) -> Result<MctsResult<G::Move>, Error>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    let mut m = Mcts::new(cfg);
    m.check()?;
    m.plant(root);
    m.run_threads(root, limits)
}

/// Not proven.
const OPEN: i8 = 2;

/// An infinite proof or disproof number.
const INFINITE: u32 = u32::MAX;

/// Playouts between two looks at the clock.
const CLOCK_EVERY: u64 = 16;

/// One node of the tree.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// The move into it (the root's is never read).
    mv: M,
    /// The side that played `mv`: rewards are summed for it.
    mover: Player,
    parent: u32,
    /// Its children: `first_child..first_child + n_children`, shuffled, the first `visited`
    /// of them in the tree.
    first_child: u32,
    n_children: u32,
    visited: u32,
    expanded: bool,
    visits: u64,
    /// Sum of the rewards for `mover`.
    reward: f64,
    /// The proven result (MAX's view: −1, 0, +1), or `OPEN`.
    proven: i8,
    /// PN-MCTS: the proof and disproof numbers of "the root's side to move wins" (`INFINITE`:
    /// ∞).
    pn: u32,
    dn: u32,
}

impl<M> Node<M> {
    /// A node not yet visited nor expanded: `mv` played by `mover`, below `parent`.
    fn new(mv: M, mover: Player, parent: u32) -> Self {
        Node {
            mv,
            mover,
            parent,
            first_child: 0,
            n_children: 0,
            visited: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
            proven: OPEN,
            pn: 1,
            dn: 1,
        }
    }

    /// The mean reward for MAX of the playouts through it (½ before any).
    fn mean_for_max(&self) -> f64 {
        match (self.visits, self.mover) {
            (0, _) => 0.5,
            (v, Player::Max) => self.reward / v as f64,
            (v, Player::Min) => 1.0 - self.reward / v as f64,
        }
    }
}

/// A Monte-Carlo tree search, its tree kept between searches.
pub struct Mcts<G: Game> {
    cfg: MctsConfig,
    nodes: Vec<Node<G::Move>>,
    root: Option<G>,
    rng: SplitMix,
    /// A reused buffer: the moves of a position.
    moves: Vec<G::Move>,
    /// PN-MCTS: the side whose win the proof numbers are about (the root's side to move).
    proof_player: Player,
    /// PN-MCTS: a reused buffer, the children's proof or disproof numbers sorted.
    ranks: Vec<u32>,
    /// [`Parallel::Root`]: the other threads' trees, kept between searches as this one is.
    helpers: Vec<Mcts<G>>,
}

/// What the threads of one search share.
struct Shared {
    /// Playouts so far, added up every `CLOCK_EVERY` of a thread's.
    playouts: AtomicU64,
    /// Raised when the search must end (a budget spent, the root proven).
    done: AtomicBool,
    /// Raised (with `done`) when a playout went on past [`LONGEST_PLAYOUT`].
    too_long: AtomicBool,
    deadline: Option<Instant>,
}

impl Shared {
    fn new(limits: &Limits) -> Self {
        Shared {
            playouts: AtomicU64::new(0),
            done: AtomicBool::new(false),
            too_long: AtomicBool::new(false),
            deadline: limits.max_time.map(|t| Instant::now() + t),
        }
    }

    /// One thread's loop: `iteration` (one playout; false: this thread stops) until the search
    /// must end, its playouts added to the count every `CLOCK_EVERY`.
    fn drive(&self, limits: &Limits, mut iteration: impl FnMut() -> bool) {
        let mut budget = Budget::new(limits);
        let mut pending = 0u64;
        loop {
            if pending == CLOCK_EVERY {
                if self.tally(pending, &mut budget) {
                    return;
                }
                pending = 0;
            }
            if self.done.load(Ordering::Relaxed) || !iteration() {
                break;
            }
            pending += 1;
        }
        self.playouts.fetch_add(pending, Ordering::Relaxed);
    }

    /// Adds a thread's `pending` playouts; whether the search must end (then it says so to
    /// every thread).
    fn tally(&self, pending: u64, budget: &mut Budget) -> bool {
        let total = self.playouts.fetch_add(pending, Ordering::Relaxed) + pending;
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if late || budget.exhausted(total) {
            self.done.store(true, Ordering::Relaxed);
        }
        self.done.load(Ordering::Relaxed)
    }
}

/// Where an iteration's selection stopped: node `n`, its position `p`, `depth` plies below the
/// root, and its result when it is proven or terminal (else a playout gives one).
struct Leaf<G> {
    n: usize,
    p: G,
    depth: u32,
    result: Option<i8>,
}

/// A root child's statistics, as the final choice reads them.
#[derive(Clone, Copy)]
struct RootChild<M> {
    mv: M,
    visits: u64,
    /// Sum of the rewards for the side to move at the root.
    reward: f64,
    proven: i8,
}

/// The reward of a result (MAX's view) for `side`.
#[inline]
fn reward_for(result: i8, side: Player) -> f64 {
    let max = f64::from(result + 1) / 2.0;
    match side {
        Player::Max => max,
        Player::Min => 1.0 - max,
    }
}

impl<G: Game> Mcts<G> {
    /// A searcher with an empty tree.
    pub fn new(cfg: &MctsConfig) -> Self {
        let mut cfg = cfg.clone();
        // PN-MCTS backs proofs up as MCTS-Solver does.
        cfg.solver |= cfg.pn_constant.is_some();
        let seed = cfg.seed;
        Mcts {
            cfg,
            nodes: Vec::new(),
            root: None,
            rng: SplitMix(seed),
            moves: Vec::new(),
            proof_player: Player::Max,
            ranks: Vec::new(),
            helpers: Vec::new(),
        }
    }

    /// Forgets the tree (a new game).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.root = None;
        self.helpers.clear();
    }

    fn check(&self) -> Result<(), Error> {
        self.cfg.check()
    }

    /// A fresh tree holding `root` alone; none for a finished game (there is nothing to
    /// search, and no move to put in the root's slot).
    fn plant(&mut self, root: &G) {
        self.nodes.clear();
        self.root = Some(root.clone());
        self.proof_player = root.to_move();
        let Some(mv) = root.moves().next() else {
            return;
        };
        // The root's move is never read.
        self.nodes
            .push(Node::new(mv, root.to_move().opponent(), u32::MAX));
    }

    /// Runs iterations from `root` within `limits` (`max_nodes`: playouts), keeping the tree:
    /// a root found within two plies below the last one keeps its subtree. With
    /// `cfg.threads` above 1 the threads share the work as `cfg.parallel` says.
    pub fn search(&mut self, root: &G, limits: &Limits) -> Result<MctsResult<G::Move>, Error>
    where
        G: PositionKey + Send + Sync,
        G::Move: Send + Sync,
    {
        self.check()?;
        self.reroot(root);
        if self.cfg.threads == 1 {
            return self.run(root, limits);
        }
        if self.cfg.parallel == Parallel::Root {
            for h in &mut self.helpers {
                h.reroot(root);
            }
        }
        self.run_threads(root, limits)
    }

    /// [`Parallel::Root`]'s helper trees, made on first need: thread `i`'s seed is the
    /// search's plus `i`.
    fn make_helpers(&mut self, root: &G) {
        let threads = self.cfg.threads;
        if self.helpers.len() != threads - 1 {
            self.helpers = (1..threads)
                .map(|i| {
                    Mcts::new(&MctsConfig {
                        seed: self.cfg.seed.wrapping_add(i as u64),
                        threads: 1,
                        ..self.cfg.clone()
                    })
                })
                .collect();
        }
        for h in &mut self.helpers {
            if h.root.is_none() {
                h.plant(root);
            }
        }
    }

    /// Iterations from the tree's root, `root`, on `cfg.threads` threads.
    fn run_threads(&mut self, root: &G, limits: &Limits) -> Result<MctsResult<G::Move>, Error>
    where
        G: Send + Sync,
        G::Move: Send + Sync,
    {
        if self.nodes.is_empty() || self.cfg.threads == 1 {
            return self.run(root, limits);
        }
        let shared = Shared::new(limits);
        if self.cfg.parallel == Parallel::Tree {
            let tree = shared::SharedTree::from_arena(&self.nodes, self.cfg.max_tree_nodes);
            let cfg = self.cfg.clone();
            std::thread::scope(|s| {
                for t in 1..cfg.threads {
                    let (tree, shared, cfg) = (&tree, &shared, &cfg);
                    s.spawn(move || shared::grow(tree, t, cfg, root, limits, shared));
                }
                shared::grow(&tree, 0, &cfg, root, limits, &shared);
            });
            self.nodes = tree.into_arena();
            if shared.too_long.load(Ordering::Relaxed) {
                return Err(too_long());
            }
            let playouts = shared.playouts.load(Ordering::Relaxed);
            return Ok(self.result(root, playouts));
        }
        self.make_helpers(root);
        let mut helpers = std::mem::take(&mut self.helpers);
        // Each tree may hold its share of the nodes.
        let cap = (self.cfg.max_tree_nodes / self.cfg.threads).max(1);
        std::thread::scope(|s| {
            for h in &mut helpers {
                let shared = &shared;
                s.spawn(move || h.run_shared(root, limits, shared, cap));
            }
            self.run_shared(root, limits, &shared, cap);
        });
        let playouts = shared.playouts.load(Ordering::Relaxed);
        let result = self.merged(root, &helpers, playouts);
        self.helpers = helpers;
        if shared.too_long.load(Ordering::Relaxed) {
            return Err(too_long());
        }
        Ok(result)
    }

    /// [`Parallel::Root`]: one thread's iterations in its own tree of at most about `cap`
    /// nodes, until `shared` says the search is over; a proven root ends it for every thread.
    fn run_shared(&mut self, root: &G, limits: &Limits, shared: &Shared, cap: usize) {
        shared.drive(limits, || {
            if self.cfg.solver && self.nodes[0].proven != OPEN {
                shared.done.store(true, Ordering::Relaxed);
                return false;
            }
            if self.nodes.len() >= cap {
                return false;
            }
            if !self.iterate(root, &mut NoObserver) {
                shared.too_long.store(true, Ordering::Relaxed);
                shared.done.store(true, Ordering::Relaxed);
                return false;
            }
            true
        });
    }

    /// Iterations from the tree's root, `root`.
    fn run(&mut self, root: &G, limits: &Limits) -> Result<MctsResult<G::Move>, Error> {
        self.run_observed(root, limits, &mut NoObserver)
    }

    /// [`Mcts::run`], each iteration reported to `obs`.
    fn run_observed<O: Observer<G::Move>>(
        &mut self,
        root: &G,
        limits: &Limits,
        obs: &mut O,
    ) -> Result<MctsResult<G::Move>, Error> {
        if self.nodes.is_empty() {
            // The game is over: nothing to choose.
            let result = root.evaluate().signum() as Score;
            return Ok(MctsResult {
                best_move: None,
                proven: Some(result),
                mean: reward_for(result as i8, Player::Max),
                playouts: 0,
                root_visits: 0,
                tree_nodes: 0,
                children: Vec::new(),
            });
        }
        let mut budget = Budget::new(limits);
        // The budget reads the clock every 1,024 of what it counts, here playouts: up to
        // 10 ms apart on Kalah. A move of 20 ms needs a closer look.
        let deadline = limits.max_time.map(|t| std::time::Instant::now() + t);
        let mut playouts = 0u64;
        loop {
            let proven = self.cfg.solver && self.nodes[0].proven != OPEN;
            let late = playouts % CLOCK_EVERY == 0
                && deadline.is_some_and(|d| std::time::Instant::now() >= d);
            if proven
                || late
                || budget.exhausted(playouts)
                || self.nodes.len() >= self.cfg.max_tree_nodes
            {
                break;
            }
            if !self.iterate(root, obs) {
                return Err(too_long());
            }
            playouts += 1;
        }
        Ok(self.result(root, playouts))
    }

    /// Makes `root` the tree's root: the subtree of a node within two plies of the last root
    /// whose position has `root`'s key, copied to the front; else a fresh tree.
    fn reroot(&mut self, root: &G)
    where
        G: PositionKey,
    {
        let Some(old) = self.root.clone() else {
            self.plant(root);
            return;
        };
        let key = root.key();
        let mut found = None;
        if !self.nodes.is_empty() {
            if old.key() == key {
                found = Some(0);
            } else {
                'search: for c in self.children(0) {
                    let p = old.play(self.nodes[c].mv);
                    if p.key() == key {
                        found = Some(c);
                        break;
                    }
                    for g in self.children(c) {
                        if p.play(self.nodes[g].mv).key() == key {
                            found = Some(g);
                            break 'search;
                        }
                    }
                }
            }
        }
        match found {
            Some(0) => self.root = Some(root.clone()),
            Some(n) => {
                self.keep_subtree(n);
                self.root = Some(root.clone());
            }
            None => self.plant(root),
        }
        if self.cfg.pn_constant.is_some() && self.proof_player != root.to_move() {
            // The proposition changed sides: every number anew, children before parents (an
            // arena's children always come after their parent).
            self.proof_player = root.to_move();
            for n in (0..self.nodes.len()).rev() {
                let (pn, dn) = self.numbers(n);
                self.nodes[n].pn = pn;
                self.nodes[n].dn = dn;
            }
        }
    }

    /// The node indices of `n`'s children in the tree.
    fn children(&self, n: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[n];
        let first = node.first_child as usize;
        first..first + node.visited as usize
    }

    /// Keeps only the subtree of `n`, renumbered from 0 (breadth first, children contiguous).
    fn keep_subtree(&mut self, n: usize) {
        let mut kept: Vec<Node<G::Move>> = Vec::new();
        let mut root = self.nodes[n];
        root.parent = u32::MAX;
        kept.push(root);
        let mut i = 0;
        while i < kept.len() {
            let old = kept[i];
            if old.expanded {
                let first = kept.len() as u32;
                for c in 0..old.n_children as usize {
                    let mut child = self.nodes[old.first_child as usize + c];
                    child.parent = i as u32;
                    kept.push(child);
                }
                kept[i].first_child = first;
            }
            i += 1;
        }
        self.nodes = kept;
    }

    /// One iteration: selection, expansion, simulation, backpropagation, each reported to
    /// `obs`.
    #[inline(always)]
    /// False when the playout went on past [`LONGEST_PLAYOUT`] (the search then ends with an
    /// error; nothing is backed up).
    fn iterate<O: Observer<G::Move>>(&mut self, root: &G, obs: &mut O) -> bool {
        let Leaf {
            n,
            mut p,
            depth,
            result,
        } = self.descend(root);
        let path = if O::ACTIVE {
            self.path_to(n)
        } else {
            Vec::new()
        };
        if O::ACTIVE {
            obs.event(Event::Select { path: path.clone() });
            if let (None, Some((&child, above))) = (result, path.split_last()) {
                obs.event(Event::Expand {
                    path: above.to_vec(),
                    children: vec![child],
                });
            }
        }
        // 3. Simulation, from a node just added.
        let (result, terminal) = match result {
            Some(r) => (r, false),
            None => simulate(&self.cfg, &mut self.rng, &mut self.moves, &mut p, depth),
        };
        if result == TOO_LONG {
            return false;
        }
        self.backup(n, result, terminal);
        if O::ACTIVE {
            self.report_backup(n, path, result, obs);
        }
        true
    }

    /// The moves from the root to node `n`.
    fn path_to(&self, mut n: usize) -> Vec<G::Move> {
        let mut path = Vec::new();
        while self.nodes[n].parent != u32::MAX {
            path.push(self.nodes[n].mv);
            n = self.nodes[n].parent as usize;
        }
        path.reverse();
        path
    }

    /// Reports a backpropagation from `n` (at `path`): the playout's result, then each node of
    /// the path, leaf first.
    fn report_backup<O: Observer<G::Move>>(
        &self,
        mut n: usize,
        mut path: Vec<G::Move>,
        result: i8,
        obs: &mut O,
    ) {
        obs.event(Event::Playout {
            path: path.clone(),
            result: Score::from(result),
        });
        loop {
            let node = &self.nodes[n];
            obs.event(Event::Visits {
                path: path.clone(),
                visits: node.visits,
                mean: node.mean_for_max(),
                proven: (node.proven != OPEN).then_some(Score::from(node.proven)),
            });
            if self.cfg.pn_constant.is_some() {
                obs.event(Event::Numbers {
                    path: path.clone(),
                    proof: node.pn,
                    disproof: node.dn,
                });
            }
            if node.parent == u32::MAX {
                return;
            }
            n = node.parent as usize;
            path.pop();
        }
    }

    /// Steps 1 and 2, selection down to a node with a child never visited (which joins the
    /// tree), or a proven or terminal one.
    #[inline(always)]
    fn descend(&mut self, root: &G) -> Leaf<G> {
        let mut p = root.clone();
        let mut n = 0usize;
        let mut depth = 0u32;
        let result = loop {
            let node = self.nodes[n];
            if node.proven != OPEN {
                break Some(node.proven);
            }
            if !node.expanded {
                if depth >= self.cfg.depth {
                    break Some(self.settle(n, &p));
                }
                self.moves.clear();
                self.moves.extend(p.moves());
                if self.moves.is_empty() {
                    break Some(self.settle(n, &p));
                }
                self.expand(n, p.to_move());
            }
            let node = self.nodes[n];
            if node.visited < node.n_children {
                // 2. Expansion: the next child joins the tree.
                self.nodes[n].visited += 1;
                let c = (node.first_child + node.visited) as usize;
                p = p.play(self.nodes[c].mv);
                depth += 1;
                n = c;
                break None;
            }
            let c = self.select(n);
            p = p.play(self.nodes[c].mv);
            depth += 1;
            n = c;
        };
        Leaf {
            n,
            p,
            depth,
            result,
        }
    }

    /// Step 4, backpropagation of `result` from `n` (`terminal`: the playout found `n` itself
    /// at the end, which proves it), and the proofs that the result completes.
    #[inline(always)]
    fn backup(&mut self, n: usize, result: i8, terminal: bool) {
        if terminal {
            self.nodes[n].proven = result;
        }
        let mut up = n;
        loop {
            let node = &mut self.nodes[up];
            node.visits += 1;
            node.reward += reward_for(result, node.mover);
            if node.parent == u32::MAX {
                break;
            }
            up = node.parent as usize;
        }
        if self.cfg.solver && self.nodes[n].proven != OPEN {
            self.prove_upwards(n);
        }
        if self.cfg.pn_constant.is_some() {
            self.update_numbers(n);
        }
    }

    /// PN-MCTS: `n`'s proof and disproof numbers from its state and its children's.
    fn numbers(&self, n: usize) -> (u32, u32) {
        let node = &self.nodes[n];
        if node.proven != OPEN {
            return if reward_for(node.proven, self.proof_player) == 1.0 {
                (0, INFINITE)
            } else {
                (INFINITE, 0)
            };
        }
        if !node.expanded || node.n_children == 0 {
            return (1, 1);
        }
        let first = node.first_child as usize;
        let children = &self.nodes[first..first + node.n_children as usize];
        let (mut least, mut sum) = (INFINITE, 0u32);
        let or_node = children[0].mover == self.proof_player;
        for c in children {
            let (smallest, summed) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
            least = least.min(smallest);
            sum = sum.saturating_add(summed);
        }
        if or_node {
            (least, sum)
        } else {
            (sum, least)
        }
    }

    /// PN-MCTS: the numbers of `n` and its ancestors, up to the first that does not change.
    fn update_numbers(&mut self, mut n: usize) {
        loop {
            let (pn, dn) = self.numbers(n);
            let node = &mut self.nodes[n];
            if (node.pn, node.dn) == (pn, dn) && node.expanded {
                return;
            }
            node.pn = pn;
            node.dn = dn;
            if node.parent == u32::MAX {
                return;
            }
            n = node.parent as usize;
        }
    }

    /// A terminal node (or one at the horizon): its result, proven.
    fn settle(&mut self, n: usize, p: &G) -> i8 {
        let result = p.evaluate().signum() as i8;
        self.nodes[n].proven = result;
        result
    }

    /// Allocates `n`'s children (its moves in `self.moves`), in a random order.
    fn expand(&mut self, n: usize, to_move: Player) {
        let count = self.moves.len();
        for i in (1..count).rev() {
            let j = self.rng.below(i + 1);
            self.moves.swap(i, j);
        }
        let first = self.nodes.len() as u32;
        for &mv in &self.moves {
            self.nodes.push(Node::new(mv, to_move, n as u32));
        }
        let node = &mut self.nodes[n];
        node.first_child = first;
        node.n_children = count as u32;
        node.expanded = true;
    }

    /// UCT's choice among `n`'s children, all visited (MCTS-Solver: proven children left out
    /// while another child is open — their results are known, and a visit would teach nothing;
    /// a proven win would have proven `n`). PN-MCTS adds `C_pn · (1 − rank / children)` to the
    /// bound, the rank of the child's proof number where the root's side moves, of its disproof
    /// number where the other side does (1 the least; equal numbers share a rank).
    #[inline(always)]
    fn select(&mut self, n: usize) -> usize {
        let node = self.nodes[n];
        let first = node.first_child as usize;
        let children = &self.nodes[first..first + node.n_children as usize];
        let or_node = children[0].mover == self.proof_player;
        let key = |c: &Node<G::Move>| if or_node { c.pn } else { c.dn };
        let (pn_constant, solver, c) =
            (self.cfg.pn_constant, self.cfg.solver, self.cfg.exploration);
        let mut ranks = Vec::new();
        if pn_constant.is_some() {
            ranks = std::mem::take(&mut self.ranks);
            ranks.clear();
            ranks.extend(children.iter().map(key));
            ranks.sort_unstable();
        }
        let log_n = (node.visits.max(1) as f64).ln();
        let total = f64::from(node.n_children);
        let uct = |child: &Node<G::Move>| {
            let v = child.visits.max(1) as f64;
            child.reward / v + c * (log_n / v).sqrt()
        };
        // One loop for each kind, so that the plain one tests nothing of PN-MCTS per child.
        let best = match pn_constant {
            None => best_child(children, solver, uct),
            Some(c_pn) => best_child(children, solver, |child| {
                let rank = 1 + ranks.partition_point(|&x| x < key(child));
                uct(child) + c_pn * (1.0 - rank as f64 / total)
            }),
        };
        if pn_constant.is_some() {
            self.ranks = ranks;
        }
        first + best
    }

    /// MCTS-Solver: from the newly proven node `n` upwards, each parent that its children now
    /// prove.
    fn prove_upwards(&mut self, mut n: usize) {
        while self.nodes[n].parent != u32::MAX {
            let parent = self.nodes[n].parent as usize;
            let child = self.nodes[n];
            // The side to move at the parent is the one that moved into the child.
            let side = child.mover;
            let proven = if reward_for(child.proven, side) == 1.0 {
                Some(child.proven)
            } else {
                self.all_children_proven(parent, side)
            };
            match proven {
                Some(v) => {
                    self.nodes[parent].proven = v;
                    n = parent;
                }
                None => return,
            }
        }
    }

    /// The best result for `side` among `n`'s children if every one of them is proven.
    fn all_children_proven(&self, n: usize, side: Player) -> Option<i8> {
        let node = &self.nodes[n];
        if node.visited < node.n_children {
            return None;
        }
        best_proven(self.children(n).map(|i| self.nodes[i].proven), side)
    }

    /// The root's children as the final choice reads them.
    fn root_children(&self) -> Vec<RootChild<G::Move>> {
        self.children(0)
            .map(|i| {
                let c = &self.nodes[i];
                RootChild {
                    mv: c.mv,
                    visits: c.visits,
                    reward: c.reward,
                    proven: c.proven,
                }
            })
            .collect()
    }

    /// The result of the search: the proven best move, else the secure child.
    fn result(&self, root: &G, playouts: u64) -> MctsResult<G::Move> {
        let node = &self.nodes[0];
        let children = self.root_children();
        self.decide(root, node, children, playouts, self.nodes.len())
    }

    /// [`Parallel::Root`]'s result: the roots' and their children's statistics summed over
    /// this tree and the `helpers`' (children matched by move), a proof from any tree (each
    /// is exact).
    fn merged(&self, root: &G, helpers: &[Mcts<G>], playouts: u64) -> MctsResult<G::Move> {
        let mut node = self.nodes[0];
        let mut children = self.root_children();
        let mut tree_nodes = self.nodes.len();
        for h in helpers.iter().filter(|h| !h.nodes.is_empty()) {
            let theirs = &h.nodes[0];
            node.visits += theirs.visits;
            node.reward += theirs.reward;
            if node.proven == OPEN {
                node.proven = theirs.proven;
            }
            tree_nodes += h.nodes.len();
            for c in h.root_children() {
                match children.iter_mut().find(|m| m.mv == c.mv) {
                    Some(m) => {
                        m.visits += c.visits;
                        m.reward += c.reward;
                        if m.proven == OPEN {
                            m.proven = c.proven;
                        }
                    }
                    None => children.push(c),
                }
            }
        }
        self.decide(root, &node, children, playouts, tree_nodes)
    }

    /// The move to play from the root's statistics (`node`) and its children's: a proven best
    /// move, else the secure child (PN-MCTS: the robust child).
    fn decide(
        &self,
        root: &G,
        node: &Node<G::Move>,
        children: Vec<RootChild<G::Move>>,
        playouts: u64,
        tree_nodes: usize,
    ) -> MctsResult<G::Move> {
        let side = root.to_move();
        let proven = (node.proven != OPEN).then_some(node.proven);
        let proven_move = proven.and_then(|v| {
            children
                .iter()
                .filter(|c| c.proven == v)
                .max_by_key(|c| c.visits)
                .map(|c| c.mv)
        });
        // The secure child, among the children not proven lost for the mover (all of them if
        // every one is).
        let lost = |c: &RootChild<G::Move>| c.proven != OPEN && reward_for(c.proven, side) == 0.0;
        let every_one_lost = children.iter().all(lost);
        // PN-MCTS: the robust child (the most visits), as Kowalski et al. choose.
        let robust = self.cfg.pn_constant.is_some();
        let secure = children
            .iter()
            .filter(|c| every_one_lost || !lost(c))
            .map(|c| {
                let v = c.visits.max(1) as f64;
                let score = if robust {
                    v
                } else {
                    c.reward / v + 1.0 / v.sqrt()
                };
                (score, c.mv)
            })
            .fold(None, |best: Option<(f64, G::Move)>, (s, m)| match best {
                Some((b, _)) if b >= s => best,
                _ => Some((s, m)),
            })
            .map(|(_, m)| m);
        MctsResult {
            best_move: proven_move.or(secure),
            proven: proven.map(Score::from),
            mean: node.mean_for_max(),
            playouts,
            root_visits: node.visits,
            tree_nodes,
            children: children
                .iter()
                .map(|c| (c.mv, c.visits, c.reward / c.visits.max(1) as f64))
                .collect(),
        }
    }
}

/// The best of `results` for `side` (MAX's view: −1, 0, +1); none if one of them is open.
fn best_proven(results: impl Iterator<Item = i8>, side: Player) -> Option<i8> {
    let mut best: Option<i8> = None;
    for v in results {
        if v == OPEN {
            return None;
        }
        best = Some(match (best, side) {
            (None, _) => v,
            (Some(b), Player::Max) => b.max(v),
            (Some(b), Player::Min) => b.min(v),
        });
    }
    best
}

/// The index in `children` of the highest `score` (MCTS-Solver: among those not proven; the
/// first if every one is).
#[inline(always)]
fn best_child<M>(children: &[Node<M>], solver: bool, score: impl Fn(&Node<M>) -> f64) -> usize {
    let mut best = (f64::NEG_INFINITY, 0);
    for (k, child) in children.iter().enumerate() {
        if solver && child.proven != OPEN {
            continue;
        }
        let s = score(child);
        if s > best.0 {
            best = (s, k);
        }
    }
    best.1
}

/// The longest playout: a game still not over after this many random plies is taken not to end
/// (its positions repeat), and the search stops with [`Error::LineTooDeep`].
pub const LONGEST_PLAYOUT: u32 = 100_000;

/// What [`simulate`] answers for a playout longer than [`LONGEST_PLAYOUT`].
const TOO_LONG: i8 = i8::MIN;

/// The error of a playout longer than [`LONGEST_PLAYOUT`].
fn too_long() -> Error {
    Error::LineTooDeep {
        limit: format!("a playout's {LONGEST_PLAYOUT} random plies"),
    }
}

/// Step 3, simulation: random moves from `p` (`depth` plies below the root) to the end, the
/// horizon or the cut-off, drawn by `rng` (`moves` a reused buffer); the result (MAX's view),
/// and whether `p` was itself the end (terminal or at the horizon: its node is proven);
/// [`TOO_LONG`] for a playout that went on past [`LONGEST_PLAYOUT`] plies.
#[inline(always)]
fn simulate<G: Game>(
    cfg: &MctsConfig,
    rng: &mut SplitMix,
    moves: &mut Vec<G::Move>,
    p: &mut G,
    mut depth: u32,
) -> (i8, bool) {
    let mut plies = 0u32;
    let ended = loop {
        if depth >= cfg.depth {
            break true;
        }
        moves.clear();
        moves.extend(p.moves());
        if moves.is_empty() {
            break true;
        }
        if plies >= cfg.playout_plies {
            break false;
        }
        if plies >= LONGEST_PLAYOUT {
            return (TOO_LONG, false);
        }
        let m = moves[rng.below(moves.len())];
        *p = p.play(m);
        depth += 1;
        plies += 1;
    };
    (p.evaluate().signum() as i8, ended && plies == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pile; each move takes 1, 2 or 3 stones. Whoever takes the last stone wins, unless
    /// taking two: then the game is drawn. Turns alternate.
    #[derive(Clone, Copy, Debug)]
    struct Pile {
        stones: u8,
        last: u8,
        to_move: Player,
    }

    impl Game for Pile {
        type Move = u8;
        type Moves = std::ops::RangeInclusive<u8>;
        fn to_move(&self) -> Player {
            self.to_move
        }
        fn moves(&self) -> Self::Moves {
            1..=self.stones.min(3)
        }
        fn play(&self, m: u8) -> Self {
            Pile {
                stones: self.stones - m,
                last: m,
                to_move: self.to_move.opponent(),
            }
        }
        fn evaluate(&self) -> Score {
            match (self.stones, self.last) {
                (0, 2) => 0,
                (0, _) => -self.to_move.sign(),
                _ => 0,
            }
        }
    }

    impl PositionKey for Pile {
        fn key(&self) -> u64 {
            u64::from(self.stones) << 8 | u64::from(self.last) << 1 | (self.to_move as u64 & 1)
        }
    }

    /// The proof and disproof numbers of node `n` by their definition, recursively.
    fn defined(m: &Mcts<Pile>, n: usize) -> (u32, u32) {
        let node = &m.nodes[n];
        if node.proven != OPEN {
            let won = reward_for(node.proven, m.proof_player) == 1.0;
            return if won { (0, u32::MAX) } else { (u32::MAX, 0) };
        }
        if !node.expanded {
            return (1, 1);
        }
        let first = node.first_child as usize;
        let kids: Vec<(u32, u32)> = (first..first + node.n_children as usize)
            .map(|c| {
                if c < first + node.visited as usize {
                    defined(m, c)
                } else {
                    (1, 1)
                }
            })
            .collect();
        let sum = |f: fn(&(u32, u32)) -> u32| kids.iter().map(f).fold(0u32, u32::saturating_add);
        let least = |f: fn(&(u32, u32)) -> u32| kids.iter().map(f).min().unwrap();
        if m.nodes[first].mover == m.proof_player {
            (least(|k| k.0), sum(|k| k.1))
        } else {
            (sum(|k| k.0), least(|k| k.1))
        }
    }

    #[test]
    fn pn_mcts_keeps_every_node_s_numbers_as_defined() {
        for (seed, stones) in (1..=12).zip((7..=18).rev()) {
            let cfg = MctsConfig {
                pn_constant: Some(1.0),
                seed,
                ..MctsConfig::default()
            };
            let mut m = Mcts::new(&cfg);
            let root = Pile {
                stones,
                last: 0,
                to_move: Player::Max,
            };
            for _ in 0..400 {
                let r = m.search(&root, &Limits::none().with_max_nodes(1)).unwrap();
                for n in 0..m.nodes.len() {
                    let reached = n == 0 || {
                        let p = m.nodes[n].parent as usize;
                        n < (m.nodes[p].first_child + m.nodes[p].visited) as usize
                    };
                    if reached {
                        let node = &m.nodes[n];
                        assert_eq!((node.pn, node.dn), defined(&m, n), "seed {seed} node {n}");
                    }
                }
                if r.proven.is_some() {
                    let root_numbers = (m.nodes[0].pn, m.nodes[0].dn);
                    assert!(root_numbers.0 == 0 || root_numbers.1 == 0);
                    break;
                }
            }
        }
    }
}
