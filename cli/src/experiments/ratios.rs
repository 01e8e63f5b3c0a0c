//! SCOUT and NegaScout against alpha-beta on Pearl's random (h, d, F) trees.
//!
//! Hsu, *Scout and NegaScout* ("Performance of SCOUT (3/3)") quotes Pearl 1984: `r = N_scout / N_AB` satisfies
//! `1 <= r <= 1.275` on random uniform trees, closer to 1 for larger b and d. Hsu, *Scout and NegaScout*
//! ("Performances") quotes Reinefeld 1983: NegaScout evaluates about 10-20 % fewer leaves than
//! alpha-beta for b from 20 to 60. This experiment measures both ratios, leaves evaluated
//! (Pearl's "node inspections") averaged over seeds, each search on the same tree.

use rayon::prelude::*;
use serde::Serialize;

use gamesearch::depth_first::search_with;
use gamesearch::depth_first::DepthFirst;
use gamesearch::trees::{RandomTreeSpec, TreeOrder, Values};
use gamesearch::Error;
use gamesearch::{Limits, SearchConfig};

/// One cell of the table: a (b, h) pair averaged over seeds.
#[derive(Clone, Debug, Serialize)]
pub struct RatioRow {
    /// Branching factor.
    pub b: u32,
    /// Depth.
    pub h: u32,
    /// How many trees (seeds `first_seed .. first_seed + seeds`).
    pub seeds: u64,
    /// Mean leaves evaluated by alpha-beta (fail-soft F3).
    pub alphabeta: f64,
    /// Mean leaves evaluated by SCOUT.
    pub scout: f64,
    /// Mean leaves evaluated by NegaScout (F4, with the depth < 3 refinement).
    pub negascout: f64,
    /// `scout / alphabeta` (ratio of the means).
    pub scout_ratio: f64,
    /// `negascout / alphabeta` (ratio of the means).
    pub negascout_ratio: f64,
    /// `scout / alphabeta` counting every node visited (leaves + interior), not only leaves.
    pub scout_nodes_ratio: f64,
    /// `negascout / alphabeta` counting every node visited.
    pub negascout_nodes_ratio: f64,
    /// Smallest and largest per-tree `scout / alphabeta`.
    pub scout_ratio_range: (f64, f64),
    /// Smallest and largest per-tree `negascout / alphabeta`.
    pub negascout_ratio_range: (f64, f64),
}

/// Parameters of the experiment.
#[derive(Clone, Debug)]
pub struct RatioExperiment {
    /// Branching factors.
    pub bs: Vec<u32>,
    /// Depths.
    pub hs: Vec<u32>,
    /// Trees per cell.
    pub seeds: u64,
    /// The first seed.
    pub first_seed: u64,
    /// Leaf values.
    pub values: Values,
    /// Cells whose *minimal* tree (`b^ceil(h/2) + b^floor(h/2) - 1` leaves) is larger than this
    /// are skipped: a random-order alpha-beta search costs many times the minimal tree.
    pub max_minimal_tree: u64,
}

impl RatioExperiment {
    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), Error> {
        if self.seeds == 0 {
            return Err(Error::BadParameter("seeds must be at least 1".into()));
        }
        if self.bs.iter().any(|&b| b < 2) {
            return Err(Error::BadParameter("every b must be at least 2".into()));
        }
        Ok(())
    }
}

/// The Knuth–Moore minimal tree size `b^ceil(h/2) + b^floor(h/2) - 1` (saturating).
pub fn minimal_tree(b: u32, h: u32) -> u64 {
    let p = |e: u32| u64::from(b).checked_pow(e).unwrap_or(u64::MAX);
    p(h.div_ceil(2)).saturating_add(p(h / 2)).saturating_sub(1)
}

/// Runs one cell: every seed in parallel. `limits` carries the stop flag (Ctrl-C): the searches
/// in progress stop within a few thousand nodes and the unfinished cell is `None`.
pub fn ratio_cell(exp: &RatioExperiment, b: u32, h: u32, limits: &Limits) -> Option<RatioRow> {
    let per_seed: Vec<[u64; 6]> = (exp.first_seed..exp.first_seed + exp.seeds)
        .into_par_iter()
        .map(|seed| {
            if limits.stop_requested() {
                return [0; 6];
            }
            let spec = RandomTreeSpec {
                values: exp.values,
                order: TreeOrder::Random,
                ..RandomTreeSpec::new(b, h, seed)
            };
            let root = spec.root().expect("validated spec");
            let cfg = SearchConfig::new(h).with_limits(limits.clone());
            let run = |a| {
                let r = search_with(&root, a, &cfg);
                (r.value, r.stats.leaves, r.stats.nodes())
            };
            let (v, ab, ab_n) = run(DepthFirst::AlphaBeta);
            let (vs, sc, sc_n) = run(DepthFirst::Scout);
            let (vn, ns, ns_n) = run(DepthFirst::NegaScout);
            if limits.stop_requested() {
                return [0; 6];
            }
            assert!(v == vs && v == vn, "algorithms disagree on {spec}");
            [ab, sc, ns, ab_n, sc_n, ns_n]
        })
        .collect();
    if limits.stop_requested() {
        return None;
    }
    let n = per_seed.len() as f64;
    let mean = |i: usize| per_seed.iter().map(|r| r[i] as f64).sum::<f64>() / n;
    let range = |i: usize| {
        per_seed
            .iter()
            .map(|r| r[i] as f64 / r[0] as f64)
            .fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
    };
    let (ab, sc, ns) = (mean(0), mean(1), mean(2));
    Some(RatioRow {
        b,
        h,
        seeds: exp.seeds,
        alphabeta: ab,
        scout: sc,
        negascout: ns,
        scout_ratio: sc / ab,
        negascout_ratio: ns / ab,
        scout_nodes_ratio: mean(4) / mean(3),
        negascout_nodes_ratio: mean(5) / mean(3),
        scout_ratio_range: range(1),
        negascout_ratio_range: range(2),
    })
}

/// A `(b, h)` cell of the grid.
pub type Cell = (u32, u32);

/// The cells of the grid that fit the size limit, in order, and those skipped.
pub fn plan(exp: &RatioExperiment) -> (Vec<Cell>, Vec<Cell>) {
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    for &b in &exp.bs {
        for &h in &exp.hs {
            if minimal_tree(b, h) <= exp.max_minimal_tree {
                run.push((b, h));
            } else {
                skipped.push((b, h));
            }
        }
    }
    (run, skipped)
}
