//! Job-level proof-number search (Wu et al. 2013): the master of a split that asks each job only
//! what the root needs. The root's value is found by null-window tests, as MTD(f) finds it (a
//! first guess, then the bound that moved): "is the root's value at least `v`?". A test is
//! answered by the jobs' answers to the same question — one null-window solve each
//! ([`crate::SolveConfig::window`] `(v - 1, v)`), far cheaper than an exact value — combined up
//! the top tree (MAX to move: any child; MIN: every child). Proof and disproof numbers over the
//! top tree choose the jobs to ask first (the most-proving ones), and a test ends as soon as the
//! root's answer is known: the jobs still out can no longer change it.
//!
//! A job's answers are kept as proven bounds, so a later test reuses them: "at least 1" proven
//! also answers "at least 0".

use std::collections::HashSet;

use super::{Child, Plan, Splittable};
use crate::game::{Player, Score};

/// Proof and disproof numbers: how many jobs must still answer to prove (disprove) the test.
type Numbers = (u64, u64);
const PROVEN: Numbers = (0, u64::MAX);
const DISPROVEN: Numbers = (u64::MAX, 0);

/// The master's state: what each job is known to be worth, the test under way, the jobs out.
/// On Connect-Four 7x5 split at ply 4 (568 jobs) it asks 124 null-window jobs, 20.6 M nodes in
/// all, where solving every job exactly takes 309 M (`docs/results/distributed.md`).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::split::{split, Master};
/// use gamesearch::{solver::solve_alphabeta, SolveConfig};
///
/// let root = Nim::new(17);
/// let plan = split(&root, 3, 1_000).unwrap();
/// let mut master = Master::new(plan.clone(), 0);
/// let mut asked = 0;
/// while master.value().is_none() {
///     // Ask two jobs at a time, as two workers would; answer them in turn.
///     for (job, v) in master.next_jobs(2) {
///         let cfg = SolveConfig { window: Some((v - 1, v)), ..SolveConfig::default() };
///         let s = solve_alphabeta(&plan.jobs()[job].position, &cfg, |_| {}).unwrap();
///         master.record(job, s.bounds);
///         asked += 1;
///     }
/// }
/// assert_eq!(master.value(), solve_alphabeta(&root, &SolveConfig::default(), |_| {}).unwrap().value);
/// assert!(asked < 2 * plan.jobs().len()); // two tests (at 0 and 1), not every job in each
/// ```
#[derive(Clone, Debug)]
pub struct Master<G: Splittable> {
    plan: Plan<G>,
    bounds: Vec<(Score, Score)>,
    /// Jobs asked and not answered yet, with the test value they were asked.
    out: HashSet<usize>,
    /// The test under way: "is the root's value at least `v`?".
    v: Score,
    /// The root's proven bounds.
    root: (Score, Score),
    /// Null-window tests at the root answered so far.
    tests: u32,
}

impl<G: Splittable> Master<G> {
    /// A master for `plan`, its first test at `guess` (clamped into the root's range).
    pub fn new(plan: Plan<G>, guess: Score) -> Self {
        let whole = plan
            .root_position()
            .value_bounds()
            .unwrap_or(crate::game::VALUE_RANGE);
        let bounds = (0..plan.jobs().len()).map(|j| plan.job_prior(j)).collect();
        let mut m = Master {
            plan,
            bounds,
            out: HashSet::new(),
            v: 0,
            root: whole,
            tests: 0,
        };
        m.root = m.root_bounds();
        m.v = guess.clamp(m.root.0 + 1, m.root.1.max(m.root.0 + 1));
        m
    }

    /// The plan it masters.
    pub fn plan(&self) -> &Plan<G> {
        &self.plan
    }

    /// The root's value, once proven.
    pub fn value(&self) -> Option<Score> {
        (self.root.0 == self.root.1).then_some(self.root.0)
    }

    /// The root's proven bounds.
    pub fn bounds(&self) -> (Score, Score) {
        self.root
    }

    /// Null-window tests at the root so far (finished ones).
    pub fn tests(&self) -> u32 {
        self.tests
    }

    /// What is known of job `i`'s value.
    pub fn job_bounds(&self, i: usize) -> (Score, Score) {
        self.bounds[i]
    }

    /// A root move achieving the value, once proven (`None` for a root that is itself a job or
    /// a finished game).
    pub fn best_move(&self) -> Option<G::Move> {
        let v = self.value()?;
        let Child::Node(r) = self.plan.root else {
            return None;
        };
        let mut memo = vec![None; self.plan.nodes.len()];
        self.plan
            .achieving_move(r, (v, v), &|j| self.bounds[j], &mut memo)
    }

    /// Up to `k` more jobs to ask, with the value `v` to ask each ("is your value at least
    /// `v`?": solve it with the window `(v - 1, v)`), most-proving first; none once the value
    /// is proven. Every job returned counts as out until [`Master::record`] or
    /// [`Master::forget`].
    pub fn next_jobs(&mut self, k: usize) -> Vec<(usize, Score)> {
        let mut chosen: Vec<usize> = Vec::new();
        if self.value().is_some() {
            return Vec::new();
        }
        let mut numbers = vec![None; self.plan.nodes.len()];
        let mut seen = vec![false; self.plan.nodes.len()];
        self.collect(self.plan.root, k, &mut numbers, &mut seen, &mut chosen);
        for &j in &chosen {
            self.out.insert(j);
        }
        chosen.into_iter().map(|j| (j, self.v)).collect()
    }

    /// Job `i`'s answer: the bounds its solve proved (for a test at `v`: at least `v`, or at
    /// most `v - 1`, or its exact value). Returns whether the root's bounds moved. The next
    /// test starts when the root's answer to this one is known.
    pub fn record(&mut self, i: usize, (lo, hi): (Score, Score)) -> bool {
        self.out.remove(&i);
        let (a, b) = self.bounds[i];
        self.bounds[i] = (a.max(lo), b.min(hi));
        let before = self.root;
        self.root = self.root_bounds();
        if self.root.0 >= self.v || self.root.1 < self.v {
            // The test is answered: MTD(f)'s next value is next to the bound that moved.
            self.tests += 1;
            if self.root.0 < self.root.1 {
                self.v = if self.root.0 >= self.v {
                    self.root.0 + 1
                } else {
                    self.root.1
                };
            }
        }
        self.root != before
    }

    /// Job `i` will not answer (its task was cancelled or lost): it may be asked again.
    pub fn forget(&mut self, i: usize) {
        self.out.remove(&i);
    }

    /// Jobs out whose answer can no longer change the test under way (its answer is known
    /// without them, or theirs is): cancel them. They count as no longer out.
    pub fn needless(&mut self) -> Vec<usize> {
        let mut numbers = vec![None; self.plan.nodes.len()];
        let decided = self.value().is_some() || {
            let n = self.numbers(self.plan.root, &mut numbers);
            n.0 == 0 || n.1 == 0
        };
        let needless: Vec<usize> = if decided {
            self.out.iter().copied().collect()
        } else {
            let mut live = vec![false; self.plan.jobs().len()];
            let mut seen = vec![false; self.plan.nodes.len()];
            self.mark_live(self.plan.root, &mut numbers, &mut seen, &mut live);
            self.out.iter().copied().filter(|&j| !live[j]).collect()
        };
        for j in &needless {
            self.out.remove(j);
        }
        needless
    }

    /// The root's bounds from the jobs' bounds, by minimax.
    fn root_bounds(&self) -> (Score, Score) {
        let mut memo = vec![None; self.plan.nodes.len()];
        self.child_bounds(self.plan.root, &mut memo)
    }

    fn child_bounds(&self, c: Child, memo: &mut Vec<Option<(Score, Score)>>) -> (Score, Score) {
        self.plan.bounds_of(c, &|j| self.bounds[j], memo)
    }

    /// A job's numbers for the test under way: proven, disproven, or one job to ask.
    fn job_numbers(&self, j: usize) -> Numbers {
        let (lo, hi) = self.bounds[j];
        if lo >= self.v {
            PROVEN
        } else if hi < self.v {
            DISPROVEN
        } else {
            (1, 1)
        }
    }

    /// Proof and disproof numbers of `c` for "at least `v`" (MAX to move: any child proves it;
    /// MIN: every child must), memoised per node of the top tree.
    fn numbers(&self, c: Child, memo: &mut Vec<Option<Numbers>>) -> Numbers {
        match c {
            Child::Over(v) if v >= self.v => PROVEN,
            Child::Over(_) => DISPROVEN,
            Child::Job(j) => self.job_numbers(j),
            Child::Node(i) => {
                if let Some(n) = memo[i] {
                    return n;
                }
                let node = &self.plan.nodes[i];
                let or = node.player == Player::Max;
                let (mut first, mut sum) = (u64::MAX, 0u64);
                for &(_, c) in &node.children {
                    let (pn, dn) = self.numbers(c, memo);
                    let (f, s) = if or { (pn, dn) } else { (dn, pn) };
                    first = first.min(f);
                    sum = sum.saturating_add(s);
                }
                let n = if or { (first, sum) } else { (sum, first) };
                memo[i] = Some(n);
                n
            }
        }
    }

    /// Collects up to `k` jobs to ask below `c`, most-proving first: at MAX's nodes the child
    /// with the smallest proof number first, at MIN's the smallest disproof number; decided
    /// subtrees and jobs already out are passed over.
    fn collect(
        &self,
        c: Child,
        k: usize,
        memo: &mut Vec<Option<Numbers>>,
        seen: &mut Vec<bool>,
        chosen: &mut Vec<usize>,
    ) {
        if chosen.len() >= k {
            return;
        }
        match c {
            Child::Over(_) => {}
            Child::Job(j) => {
                if self.job_numbers(j) == (1, 1) && !self.out.contains(&j) && !chosen.contains(&j) {
                    chosen.push(j);
                }
            }
            Child::Node(i) => {
                let (pn, dn) = self.numbers(c, memo);
                if pn == 0 || dn == 0 || seen[i] {
                    return;
                }
                seen[i] = true;
                let or = self.plan.nodes[i].player == Player::Max;
                let mut kids: Vec<(u64, Child)> = self.plan.nodes[i]
                    .children
                    .iter()
                    .map(|&(_, c)| {
                        let (pn, dn) = self.numbers(c, memo);
                        (if or { pn } else { dn }, c)
                    })
                    .collect();
                kids.sort_by_key(|&(n, _)| n);
                for (_, c) in kids {
                    self.collect(c, k, memo, seen, chosen);
                }
            }
        }
    }

    /// Marks the jobs below `c` whose answer could still change the test (those of undecided
    /// subtrees).
    fn mark_live(
        &self,
        c: Child,
        memo: &mut Vec<Option<Numbers>>,
        seen: &mut Vec<bool>,
        live: &mut [bool],
    ) {
        match c {
            Child::Over(_) => {}
            Child::Job(j) => live[j] = self.job_numbers(j) == (1, 1),
            Child::Node(i) => {
                let (pn, dn) = self.numbers(c, memo);
                if pn == 0 || dn == 0 || seen[i] {
                    return;
                }
                seen[i] = true;
                for &(_, c) in &self.plan.nodes[i].children {
                    self.mark_live(c, memo, seen, live);
                }
            }
        }
    }
}
