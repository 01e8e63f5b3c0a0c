//! One exact solve split into many independent ones: job-level search (Wu et al. 2013, job-level
//! proof-number search), in its simplest form as Steininger's and Pons' opening-book builders use
//! it. The positions `plies` moves below a root become **jobs**, each solved exactly by any
//! process on any machine; their values are backed up the **top tree** (the positions above
//! them) by minimax. Nothing here runs a job or knows where one runs: the command line writes
//! the jobs as JSON lines for any batch system, and the Python package runs them on Ray.
//!
//! The top tree is enumerated breadth first and merged by the solver's table key
//! ([`SolverKnowledge::canonical_key`], else [`PositionKey::key`]), so transpositions and mirror
//! images (Connect-Four) are one node and one job. A position whose game ended above the
//! frontier is a leaf with its own value; a mover with a win at once
//! ([`SolverKnowledge::immediate_win`]) needs no job below it.
//!
//! ```
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! use gamesearch::split::{split, Splittable};
//! use gamesearch::{solver::solve_alphabeta, SolveConfig};
//!
//! let root = Nim::new(14);
//! let plan = split(&root, 3, 1_000).unwrap();
//! // 27 lines of 3 plies reach 7 piles (5 to 11), merged as transpositions; and 11, one ply
//! // away too (take 3), is a node of the top tree, not a job.
//! assert_eq!(plan.jobs().len(), 6);
//! // Solve every job (here, in turn), then back their values up the top tree.
//! let cfg = SolveConfig::default();
//! let values: Vec<i32> = plan.jobs().iter()
//!     .map(|j| solve_alphabeta(&j.position, &cfg, |_| {}).unwrap().value.unwrap())
//!     .collect();
//! let root_value = plan.combine(|i| Some(values[i]));
//! assert_eq!(root_value.value, solve_alphabeta(&root, &cfg, |_| {}).unwrap().value);
//! // Each job is a position as text any process can read back (its game's `game_text`).
//! assert_eq!(plan.job_text(&plan.jobs()[0], "nim:14:max"), "nim:10:min");
//! ```

use std::collections::HashMap;

mod master;
pub use master::Master;

use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score, INF};
use crate::solver::book::Book;
use crate::solver::SolverKnowledge;

/// What splitting needs beyond the solver's knowledge: the rules a position belongs to, and its
/// position as text another process can read back (a `GAME` argument of the command line).
pub trait Splittable: SolverKnowledge + PositionKey {
    /// The rules, as the first part of every job's key: positions of two games with different
    /// rules never share a job (`connect4:7x6`, `kalah:6` for six pits, `tictactoe`).
    fn rules(&self) -> String;

    /// This position as a `GAME` argument, given the argument `root_text` of the position it
    /// was reached from and the moves `path` that reach it.
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::{split::Splittable, Game};
    /// let p = Nim::new(9).play(2).play(3);
    /// assert_eq!(p.game_text("nim:9:max", &[2, 3]), "nim:4:max");
    /// ```
    fn game_text(&self, root_text: &str, path: &[Self::Move]) -> String;
}

/// A position of the top tree's frontier, to be solved exactly on its own.
#[derive(Clone, Debug)]
pub struct Job<G: Game> {
    /// The position.
    pub position: G,
    /// One way to it from the root (the first the enumeration found).
    pub path: Vec<G::Move>,
    /// The solver's table key: shared by its transpositions and its mirror image.
    pub key: u64,
}

/// What a top-tree node's move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Child {
    /// Another node of the top tree.
    Node(usize),
    /// A job.
    Job(usize),
    /// A finished game, with its value (MAX's view).
    Over(Score),
}

/// What a job's solve proved: bounds on its value (MAX's view; equal when exact) and a best
/// move of its position (one that achieves the value, when exact).
pub type JobAnswer<M> = ((Score, Score), Option<M>);

/// A position above the frontier: who moves, and where each move leads.
#[derive(Clone, Debug)]
struct Node<G: Game> {
    position: G,
    player: Player,
    children: Vec<(G::Move, Child)>,
}

/// The top tree of a position split at some ply, and the jobs at its frontier.
#[derive(Clone, Debug)]
pub struct Plan<G: Game> {
    root_position: G,
    root: Child,
    nodes: Vec<Node<G>>,
    jobs: Vec<Job<G>>,
    rules: String,
}

/// The root's value backed up from the jobs' values: exact when every job that matters has
/// one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combined<M> {
    /// The root's value (MAX's view), `None` while a job it needs has no value.
    pub value: Option<Score>,
    /// A root move that achieves it (`None` for a finished game, a root that is itself a job,
    /// or a value not known).
    pub best_move: Option<M>,
    /// Jobs without a value that the root's value waits for.
    pub missing: usize,
}

/// The solver's table key of `p` (its mirror image's, where that is the canonical one): what
/// merges transpositions and mirror images into one job, and the number in a job's key.
///
/// ```
/// use gamesearch::{split::solver_key, trees::ExplicitTree, PositionKey};
/// let t = ExplicitTree::parse("(max 1 2)").unwrap();
/// assert_eq!(solver_key(&t.root()), t.root().key()); // no mirror image: its own key
/// ```
pub fn solver_key<G: PositionKey + SolverKnowledge>(p: &G) -> u64 {
    p.canonical_key().map_or_else(|| p.key(), |(k, _)| k)
}

/// Splits `root` at `plies` moves: the top tree above, the jobs at the frontier (positions
/// reached in `plies` moves whose game is not over). `plies = 0` makes the root the only job.
/// More than `max_jobs` jobs, or a position met again below itself (a game that repeats), is an
/// error.
pub fn split<G: Splittable>(root: &G, plies: u32, max_jobs: usize) -> Result<Plan<G>, Error> {
    let mut plan = Plan {
        root_position: root.clone(),
        root: Child::Over(0),
        nodes: Vec::new(),
        jobs: Vec::new(),
        rules: root.rules(),
    };
    // Every position met, by its solver key: what it became.
    let mut seen: HashMap<u64, Child> = HashMap::new();
    // The positions to expand at the next ply: (node index, position, path).
    let mut level: Vec<(usize, G, Vec<G::Move>)> = Vec::new();
    plan.root = plan.place(
        root.clone(),
        Vec::new(),
        plies,
        &mut seen,
        &mut level,
        max_jobs,
    )?;
    for ply in 1..=plies {
        let mut next = Vec::new();
        for (index, p, path) in std::mem::take(&mut level) {
            // A win at once is the best the mover can do: its one child settles the node.
            let moves: Vec<G::Move> = match p.immediate_win() {
                Some(m) => vec![m],
                None => p.moves().collect(),
            };
            for m in moves {
                let child = p.play(m);
                let mut child_path = path.clone();
                child_path.push(m);
                let c = match seen.get(&solver_key(&child)) {
                    Some(&c) => c,
                    None => plan.place(
                        child,
                        child_path,
                        plies - ply,
                        &mut seen,
                        &mut next,
                        max_jobs,
                    )?,
                };
                plan.nodes[index].children.push((m, c));
            }
        }
        level = next;
    }
    // A game that repeats a position: a cycle in the top tree.
    let mut state = vec![0u8; plan.nodes.len()];
    if let Child::Node(i) = plan.root {
        plan.acyclic(i, &mut state)?;
    }
    Ok(plan)
}

impl<G: Splittable> Plan<G> {
    /// Makes a newly met position a finished game, a job (no plies left) or a node to expand.
    fn place(
        &mut self,
        p: G,
        path: Vec<G::Move>,
        left: u32,
        seen: &mut HashMap<u64, Child>,
        level: &mut Vec<(usize, G, Vec<G::Move>)>,
        max_jobs: usize,
    ) -> Result<Child, Error> {
        let key = solver_key(&p);
        let c = if p.moves().next().is_none() {
            Child::Over(p.evaluate())
        } else if left == 0 {
            if self.jobs.len() >= max_jobs {
                return Err(Error::BadParameter(format!(
                    "the split makes more than {max_jobs} jobs: split at fewer plies"
                )));
            }
            self.jobs.push(Job {
                position: p,
                path,
                key,
            });
            Child::Job(self.jobs.len() - 1)
        } else {
            self.nodes.push(Node {
                position: p.clone(),
                player: p.to_move(),
                children: Vec::new(),
            });
            level.push((self.nodes.len() - 1, p, path));
            Child::Node(self.nodes.len() - 1)
        };
        seen.insert(key, c);
        Ok(c)
    }

    /// Depth-first over the top tree: an error if a node is its own descendant.
    fn acyclic(&self, i: usize, state: &mut [u8]) -> Result<(), Error> {
        state[i] = 1;
        for &(_, c) in &self.nodes[i].children {
            if let Child::Node(j) = c {
                match state[j] {
                    0 => self.acyclic(j, state)?,
                    1 => {
                        return Err(Error::BadParameter(
                            "the game repeats a position: it cannot be split".into(),
                        ))
                    }
                    _ => {}
                }
            }
        }
        state[i] = 2;
        Ok(())
    }

    /// The position split.
    pub fn root_position(&self) -> &G {
        &self.root_position
    }

    /// The jobs, in the order the enumeration met them (by ply, then move order).
    pub fn jobs(&self) -> &[Job<G>] {
        &self.jobs
    }

    /// Positions above the frontier (the top tree's nodes, merged).
    pub fn top_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The job's stable key: the rules and the solver's key in hex (`connect4:7x6/00a1…`), the
    /// same in every process and every run.
    pub fn job_key(&self, job: &Job<G>) -> String {
        format!("{}/{:016x}", self.rules, job.key)
    }

    /// The job's position as a `GAME` argument, the root's being `root_text`.
    pub fn job_text(&self, job: &Job<G>, root_text: &str) -> String {
        job.position.game_text(root_text, &job.path)
    }

    /// Backs the jobs' values (`value(i)`: job `i`'s exact value, MAX's view, if known) up the
    /// top tree by minimax.
    pub fn combine(&self, value: impl Fn(usize) -> Option<Score>) -> Combined<G::Move> {
        let mut memo: Vec<Option<(Option<Score>, usize)>> = vec![None; self.nodes.len()];
        let (v, missing) = self.value_of(self.root, &value, &mut memo);
        let best_move = match (self.root, v) {
            (Child::Node(i), Some(v)) => self.nodes[i]
                .children
                .iter()
                .find(|&&(_, c)| self.value_of(c, &value, &mut memo).0 == Some(v))
                .map(|&(m, _)| m),
            _ => None,
        };
        Combined {
            value: v,
            best_move,
            missing,
        }
    }

    /// Bounds on a child's value (MAX's view) backed up by minimax from the jobs' bounds
    /// (`job(i)`), memoised per node.
    fn bounds_of(
        &self,
        c: Child,
        job: &impl Fn(usize) -> (Score, Score),
        memo: &mut Vec<Option<(Score, Score)>>,
    ) -> (Score, Score) {
        match c {
            Child::Over(v) => (v, v),
            Child::Job(j) => job(j),
            Child::Node(i) => {
                if let Some(b) = memo[i] {
                    return b;
                }
                let node = &self.nodes[i];
                let mut b = match node.player {
                    Player::Max => (-INF, -INF),
                    Player::Min => (INF, INF),
                };
                for &(_, c) in &node.children {
                    let (lo, hi) = self.bounds_of(c, job, memo);
                    b = match node.player {
                        Player::Max => (b.0.max(lo), b.1.max(hi)),
                        Player::Min => (b.0.min(lo), b.1.min(hi)),
                    };
                }
                memo[i] = Some(b);
                b
            }
        }
    }

    /// A move of node `i` that achieves its proven bound (MAX: the lower, MIN: the upper; an
    /// exact value, both), `None` when no bound is proven.
    fn achieving_move(
        &self,
        i: usize,
        (lo, hi): (Score, Score),
        job: &impl Fn(usize) -> (Score, Score),
        memo: &mut Vec<Option<(Score, Score)>>,
    ) -> Option<G::Move> {
        let node = &self.nodes[i];
        let (game_lo, game_hi) = node
            .position
            .value_bounds()
            .unwrap_or(crate::game::VALUE_RANGE);
        node.children.iter().find_map(|&(m, c)| {
            let (clo, chi) = self.bounds_of(c, job, memo);
            let reaches = match node.player {
                Player::Max => (lo > game_lo || lo == hi) && clo >= lo,
                Player::Min => (hi < game_hi || lo == hi) && chi <= hi,
            };
            reaches.then_some(m)
        })
    }

    /// What a job is known to be worth before any answer: its game's bounds.
    fn job_prior(&self, j: usize) -> (Score, Score) {
        self.jobs[j]
            .position
            .value_bounds()
            .unwrap_or(crate::game::VALUE_RANGE)
    }

    /// An opening book of this split: every job with an answer (`job(i)`: its bounds, MAX's
    /// view, and a best move), and every position of the top tree whose backed-up bounds say
    /// more than its game's, with a move that achieves them. `source` says how it was made.
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::split::split;
    /// use gamesearch::{solver::solve_alphabeta, SolveConfig};
    ///
    /// let root = Nim::new(8);
    /// let plan = split(&root, 2, 1_000).unwrap();
    /// let cfg = SolveConfig::default();
    /// let answers: Vec<_> = plan.jobs().iter()
    ///     .map(|j| solve_alphabeta(&j.position, &cfg, |_| {}).unwrap())
    ///     .collect();
    /// let book = plan.book(|i| Some((answers[i].bounds, answers[i].best_move)), "nim 8, ply 2");
    /// let at_root = book.lookup(&root).unwrap();
    /// assert_eq!(at_root.value(), Some(-1)); // 8 stones: lost for the side to move
    /// assert!(book.len() > plan.jobs().len()); // the jobs and the top tree
    /// ```
    pub fn book(&self, job: impl Fn(usize) -> Option<JobAnswer<G::Move>>, source: &str) -> Book {
        let answers: Vec<Option<JobAnswer<G::Move>>> = (0..self.jobs.len()).map(job).collect();
        let bounds = |j: usize| answers[j].map_or_else(|| self.job_prior(j), |(b, _)| b);
        let mut book = Book::builder(&self.rules, source);
        for (j, a) in answers.iter().enumerate() {
            if let Some((b, best)) = *a {
                book.insert(&self.jobs[j].position, b, best);
            }
        }
        let mut memo = vec![None; self.nodes.len()];
        for i in 0..self.nodes.len() {
            let (lo, hi) = self.bounds_of(Child::Node(i), &bounds, &mut memo);
            let p = &self.nodes[i].position;
            let (game_lo, game_hi) = p.value_bounds().unwrap_or(crate::game::VALUE_RANGE);
            if lo > game_lo || hi < game_hi {
                let best = self.achieving_move(i, (lo, hi), &bounds, &mut memo);
                book.insert(p, (lo.max(game_lo), hi.min(game_hi)), best);
            }
        }
        book.build()
    }

    /// A child's value (if known) and the number of jobs without a value below it (each
    /// counted once per path: an upper bound when jobs are shared).
    fn value_of(
        &self,
        c: Child,
        value: &impl Fn(usize) -> Option<Score>,
        memo: &mut Vec<Option<(Option<Score>, usize)>>,
    ) -> (Option<Score>, usize) {
        match c {
            Child::Over(v) => (Some(v), 0),
            Child::Job(j) => match value(j) {
                Some(v) => (Some(v), 0),
                None => (None, 1),
            },
            Child::Node(i) => {
                if let Some(r) = memo[i] {
                    return r;
                }
                let node = &self.nodes[i];
                let sign = node.player.sign();
                let mut best: Option<Score> = None;
                let mut missing = 0;
                for &(_, child) in &node.children {
                    let (v, m) = self.value_of(child, value, memo);
                    missing += m;
                    if let Some(v) = v {
                        best = Some(best.map_or(v, |b| if sign * v > sign * b { v } else { b }));
                    }
                }
                let r = (if missing == 0 { best } else { None }, missing);
                memo[i] = Some(r);
                r
            }
        }
    }
}

/// A job as the command line writes it (one JSON line each) and a worker reads it back: its
/// stable key and its position as a `GAME` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JobLine {
    /// [`Plan::job_key`].
    pub key: String,
    /// [`Plan::job_text`].
    pub game: String,
}

/// A solved job, as a worker reports it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JobResult {
    /// The job's key.
    pub key: String,
    /// The job's exact value, MAX's view (`None` when it was asked a window and its value lies
    /// at or beyond an edge: then only the bounds).
    pub value: Option<Score>,
    /// Proven bounds on its value (equal to it when exact).
    pub lower: Score,
    /// See `lower`.
    pub upper: Score,
    /// A best move of the job's position, named.
    pub best_move: Option<String>,
    /// Nodes the solve searched.
    pub nodes: u64,
    /// Seconds it took.
    pub seconds: f64,
}
