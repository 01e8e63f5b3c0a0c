//! Conspiracy-number search against alpha-beta and NegaScout: leaves evaluated for several
//! thresholds NT and accuracies ε, how often CNS's move is a minimax-optimal move at the same
//! depth, and how far its value is from the minimax value — on random trees, Kalah and
//! Connect-Four positions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use gamesearch::conspiracy::{cns, CnConfig};
use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::game::{Game, Score};
use gamesearch::trees::{RandomTreeSpec, Values};
use gamesearch::Limits;
use gamesearch_games::{Connect4, Kalah};

/// The (NT, ε) settings measured; NT `None` = unlimited.
pub const SETTINGS: [(Option<usize>, Score); 6] = [
    (Some(1), 0),
    (Some(2), 0),
    (Some(3), 0),
    (None, 0),
    (Some(2), 2),
    (None, 2),
];

/// One row: a game family and a CNS setting, averaged over positions.
#[derive(Clone, Debug, Serialize)]
pub struct CnsRow {
    /// Which positions.
    pub family: String,
    /// Search depth.
    pub depth: u32,
    /// Conspiracy threshold (None: unlimited).
    pub threshold: Option<usize>,
    /// Accuracy ε.
    pub accuracy: Score,
    /// Mean static evaluations by CNS (every node it creates is evaluated once).
    pub cns_leaves: f64,
    /// Mean leaves evaluated by alpha-beta (F3) for the exact value.
    pub alphabeta_leaves: f64,
    /// Mean leaves evaluated by NegaScout.
    pub negascout_leaves: f64,
    /// Share of positions where CNS's move is optimal by minimax at the same depth.
    pub move_agreement: f64,
    /// Mean |CNS value − minimax value|.
    pub mean_value_error: f64,
    /// Positions.
    pub positions: usize,
}

fn rows_for<G: Game + Send + Sync>(
    family: &str,
    positions: &[G],
    depth: u32,
    limits: &Limits,
) -> Vec<CnsRow>
where
    G::Move: Send + Sync,
{
    // Per position: minimax value, alpha-beta and NegaScout leaves, then per setting (leaves,
    // optimal move?, |error|).
    type PerPosition = (u64, u64, Vec<(u64, bool, i64)>);
    let per: Vec<PerPosition> = positions
        .par_iter()
        .map(|p| {
            let none = limits.clone();
            if limits.stop_requested() {
                return (0, 0, Vec::new());
            }
            let Some(mm) = search(p, DepthFirst::Minimax, depth, &none).value else {
                return (0, 0, Vec::new()); // stopped
            };
            let ab = search(p, DepthFirst::AlphaBeta, depth, &none).stats.leaves;
            let ns = search(p, DepthFirst::NegaScout, depth, &none).stats.leaves;
            let settings = SETTINGS
                .iter()
                .map(|&(nt, eps)| {
                    let mut cfg = CnConfig::new(depth);
                    cfg.threshold = nt;
                    cfg.accuracy = eps;
                    cfg.limits = limits.clone();
                    let r = cns(p, &cfg);
                    let optimal = r.best_move.is_none_or(|m| {
                        search(&p.play(m), DepthFirst::Minimax, depth - 1, &none).value == Some(mm)
                    });
                    (
                        r.stats.leaves,
                        optimal,
                        (i64::from(r.value) - i64::from(mm)).abs(),
                    )
                })
                .collect();
            (ab, ns, settings)
        })
        .collect();
    if limits.stop_requested() {
        return Vec::new(); // the family's rows unfinished: dropped
    }
    let n = per.len().max(1) as f64;
    let ab = per.iter().map(|r| r.0 as f64).sum::<f64>() / n;
    let ns = per.iter().map(|r| r.1 as f64).sum::<f64>() / n;
    SETTINGS
        .iter()
        .enumerate()
        .map(|(i, &(nt, eps))| CnsRow {
            family: family.to_string(),
            depth,
            threshold: nt,
            accuracy: eps,
            cns_leaves: per.iter().map(|r| r.2[i].0 as f64).sum::<f64>() / n,
            alphabeta_leaves: ab,
            negascout_leaves: ns,
            move_agreement: per.iter().filter(|r| r.2[i].1).count() as f64 / n,
            mean_value_error: per.iter().map(|r| r.2[i].2 as f64).sum::<f64>() / n,
            positions: per.len(),
        })
        .collect()
}

/// Positions reached by `plies` (a range) random moves from `start` (game-over ones skipped).
fn random_positions<G: Game>(
    start: &G,
    n: usize,
    plies: std::ops::RangeInclusive<u32>,
    rng: &mut ChaCha8Rng,
) -> Vec<G> {
    let mut out = Vec::with_capacity(n);
    let mut tries = 0;
    while out.len() < n && tries < 100 * n + 100 {
        tries += 1;
        let k = rng.gen_range(plies.clone());
        out.extend(super::random_play(start, k, rng));
    }
    out
}

/// Runs the experiment: random trees (b=4, h=6, 16 discrete values), Kalah(6,4) at depth 6 and
/// Connect-Four 5x4 (after 6-12 random plies) at depth 8, `positions` of each, from `seed`.
/// `limits` carries the stop flag (Ctrl-C): the searches in progress stop and the rows of the
/// families finished are returned.
pub fn run(positions: usize, seed: u64, limits: &Limits) -> Vec<CnsRow> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let trees: Vec<_> = (0..positions as u64)
        .map(|i| {
            RandomTreeSpec {
                values: Values::Discrete(16),
                ..RandomTreeSpec::new(4, 6, seed.wrapping_add(i))
            }
            .root()
            .expect("valid spec")
        })
        .collect();
    let kalah = random_positions(
        &Kalah::new(6, 4).expect("valid"),
        positions,
        0..=10,
        &mut rng,
    );
    let c4 = random_positions(
        &Connect4::new(5, 4).expect("valid"),
        positions,
        6..=12,
        &mut rng,
    );
    let mut rows = rows_for("random b=4 h=6 discrete:16", &trees, 6, limits);
    rows.extend(rows_for("Kalah(6,4), 0-10 random plies", &kalah, 6, limits));
    rows.extend(rows_for(
        "Connect-Four 5x4, 6-12 random plies",
        &c4,
        8,
        limits,
    ));
    rows
}

/// The rows as a Markdown table.
pub fn table(rows: &[CnsRow]) -> String {
    let mut s = String::from(
        "| positions | depth | NT | ε | CNS leaves | α-β leaves | NegaScout leaves | CNS/α-β | optimal move | mean |value error| |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        s.push_str(&format!(
            "| {} ({}) | {} | {} | {} | {:.0} | {:.0} | {:.0} | {:.2} | {:.0} % | {:.2} |\n",
            r.family,
            r.positions,
            r.depth,
            r.threshold.map_or("∞".to_string(), |n| n.to_string()),
            r.accuracy,
            r.cns_leaves,
            r.alphabeta_leaves,
            r.negascout_leaves,
            r.cns_leaves / r.alphabeta_leaves,
            100.0 * r.move_agreement,
            r.mean_value_error
        ));
    }
    s
}
