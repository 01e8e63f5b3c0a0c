//! Pearl's Kalah table (Pearl 1980, end of section III): node inspections of SCOUT and alpha-beta
//! on Kalah at depths 2-6, with random and with dynamic move ordering, reproduced side by side
//! with the published figures (which came from Noe 1980, UCLA-ENG-CSL-8017).
//!
//! Our set-up, as far as Pearl 1980 leaves it open: positions reached by seeded random play from
//! the start of Kalah(m, n) (default Kalah(6, 1), the "1-in-a-hole version"); one ply = one
//! sowing (an extra move is a ply of the same side); the evaluation is the store difference;
//! "node inspections" = static evaluations at the horizon or game end; random ordering = a fixed
//! pseudo-random permutation per position; dynamic ordering = children sorted by their static
//! value (the ordering's own evaluations are not counted).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use super::svg::{line_plot, Series};
use gamesearch::adapters::{MoveOrder, Ordered, WholeTurns};
use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::Error;
use gamesearch::Limits;
use gamesearch_games::Kalah;

/// Pearl's published figures: (depth, SCOUT random, alpha-beta random, SCOUT dynamic,
/// alpha-beta dynamic).
pub const PEARL: [(u32, f64, f64, f64, f64); 5] = [
    (2, 82.0, 70.0, 39.0, 37.0),
    (3, 394.0, 380.0, 62.0, 61.0),
    (4, 1173.0, 1322.0, 91.0, 96.0),
    (5, 2514.0, 4198.0, 279.0, 336.0),
    (6, 5111.0, 6944.0, 371.0, 440.0),
];

/// Pearl's printed "% improvement" columns (random, dynamic), as published.
pub const PEARL_IMPROVEMENT: [(f64, f64); 5] = [
    (-17.0, -5.4),
    (-3.7, -1.6),
    (11.3, -1.1),
    (40.1, 17.0),
    (26.4, 15.7),
];

/// The algorithms measured, in column order.
pub const ALGOS: [DepthFirst; 4] = [
    DepthFirst::Scout,
    DepthFirst::AlphaBeta,
    DepthFirst::NegaScout,
    DepthFirst::Pvs,
];

/// Parameters.
#[derive(Clone, Debug)]
pub struct PearlKalah {
    /// The board: `Kalah::new(m, n)`.
    pub m: usize,
    /// Seeds a pit.
    pub n: u32,
    /// Positions averaged over.
    pub positions: usize,
    /// Seed of the random play (and of the random orderings).
    pub seed: u64,
    /// Random plies played from the start: uniform in `0..=max_plies`.
    pub max_plies: u32,
    /// Count depth in whole turns ([`WholeTurns`]: a side's extra moves belong to its turn)
    /// instead of single sowings.
    pub whole_turns: bool,
}

/// Mean leaves for one depth and one ordering.
#[derive(Clone, Debug, Serialize)]
pub struct PearlRow {
    /// Search depth.
    pub depth: u32,
    /// `"random"` or `"dynamic"`.
    pub ordering: &'static str,
    /// Mean leaves of SCOUT, alpha-beta, NegaScout, PVS (the order of [`ALGOS`]).
    pub leaves: [f64; 4],
    /// `(alpha-beta - SCOUT) / alpha-beta`, percent (Pearl's "% improvement").
    pub improvement: f64,
    /// Pearl's SCOUT and alpha-beta figures for this cell.
    pub pearl: (f64, f64),
    /// Pearl's printed improvement.
    pub pearl_improvement: f64,
}

impl PearlKalah {
    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), Error> {
        Kalah::new(self.m, self.n)?;
        if self.positions == 0 {
            return Err(Error::BadParameter("positions must be at least 1".into()));
        }
        Ok(())
    }

    /// The test positions: seeded random play, game-over positions skipped.
    pub fn positions(&self) -> Result<Vec<Kalah>, Error> {
        let start = Kalah::new(self.m, self.n)?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut out = Vec::with_capacity(self.positions);
        let mut tries = 0;
        while out.len() < self.positions {
            tries += 1;
            if tries > 100 * self.positions + 1000 {
                return Err(Error::BadParameter(format!(
                    "random play from Kalah({},{}) keeps ending the game; lower --max-plies",
                    self.m, self.n
                )));
            }
            let plies = rng.gen_range(0..=self.max_plies);
            out.extend(super::random_play(&start, plies, &mut rng));
        }
        Ok(out)
    }

    /// Runs every depth 2..=6 for both orderings; rows in Pearl's order. `limits` carries the
    /// stop flag (Ctrl-C): the searches in progress stop, the unfinished row is dropped and the
    /// rows finished are returned.
    pub fn run(
        &self,
        limits: &Limits,
        mut on_row: impl FnMut(&PearlRow),
    ) -> Result<Vec<PearlRow>, Error> {
        self.validate()?;
        let positions = self.positions()?;
        let mut rows = Vec::new();
        for (i, &(depth, sr, ar, sd, ad)) in PEARL.iter().enumerate() {
            for (ordering, pearl, pearl_improvement) in [
                ("random", (sr, ar), PEARL_IMPROVEMENT[i].0),
                ("dynamic", (sd, ad), PEARL_IMPROVEMENT[i].1),
            ] {
                let sums: Vec<[u64; 4]> = positions
                    .par_iter()
                    .enumerate()
                    .map(|(k, &p)| {
                        let order = match ordering {
                            "random" => {
                                MoveOrder::Random(self.seed ^ (k as u64).wrapping_mul(0x9E37_79B9))
                            }
                            _ => MoveOrder::Dynamic,
                        };
                        let mut leaves = [0u64; 4];
                        let mut value = None;
                        for (j, &a) in ALGOS.iter().enumerate() {
                            let (v, l) = if self.whole_turns {
                                let r = search(
                                    &Ordered::new(WholeTurns::new(p), order),
                                    a,
                                    depth,
                                    limits,
                                );
                                (r.value, r.stats.leaves)
                            } else {
                                let r = search(&Ordered::new(p, order), a, depth, limits);
                                (r.value, r.stats.leaves)
                            };
                            if limits.stop_requested() {
                                break;
                            }
                            assert!(value.is_none() || value == v, "{a} disagrees on {p}");
                            value = v;
                            leaves[j] = l;
                        }
                        leaves
                    })
                    .collect();
                if limits.stop_requested() {
                    return Ok(rows);
                }
                let n = sums.len() as f64;
                let mut leaves = [0.0; 4];
                for (j, l) in leaves.iter_mut().enumerate() {
                    *l = sums.iter().map(|s| s[j] as f64).sum::<f64>() / n;
                }
                let row = PearlRow {
                    depth,
                    ordering,
                    leaves,
                    improvement: 100.0 * (leaves[1] - leaves[0]) / leaves[1],
                    pearl,
                    pearl_improvement,
                };
                on_row(&row);
                rows.push(row);
            }
        }
        Ok(rows)
    }
}

/// The table in Pearl's layout, ours beside his, as Markdown.
pub fn table(exp: &PearlKalah, rows: &[PearlRow]) -> String {
    let mut s = format!(
        "Node inspections (leaves evaluated), mean of {} Kalah({},{}) positions (seed {}, 0-{} random plies), depth in {}; Pearl's published figures in brackets\n\n",
        exp.positions,
        exp.m,
        exp.n,
        exp.seed,
        exp.max_plies,
        if exp.whole_turns { "whole turns" } else { "plies (sowings)" }
    );
    s.push_str("| depth | random: SCOUT | α-β | % impr. | dynamic: SCOUT | α-β | % impr. |\n");
    s.push_str("|---:|---:|---:|---:|---:|---:|---:|\n");
    for d in 2..=6 {
        let r = rows.iter().find(|r| r.depth == d && r.ordering == "random");
        let y = rows
            .iter()
            .find(|r| r.depth == d && r.ordering == "dynamic");
        let cell = |r: Option<&PearlRow>| match r {
            Some(r) => format!(
                "{:.0} [{}] | {:.0} [{}] | {:+.1} [{:+.1}]",
                r.leaves[0], r.pearl.0, r.leaves[1], r.pearl.1, r.improvement, r.pearl_improvement
            ),
            None => "- | - | -".into(),
        };
        s.push_str(&format!("| {d} | {} | {} |\n", cell(r), cell(y)));
    }
    s.push_str("\nThe other depth-first algorithms on the same positions (mean leaves):\n\n");
    s.push_str(
        "| depth | ordering | SCOUT | α-β | NegaScout | PVS |\n|---:|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} |\n",
            r.depth, r.ordering, r.leaves[0], r.leaves[1], r.leaves[2], r.leaves[3]
        ));
    }
    s
}

/// The SVG plot: leaves vs depth, ours solid, Pearl's dashed.
pub fn plot(exp: &PearlKalah, rows: &[PearlRow]) -> String {
    let pick = |ordering: &str, f: &dyn Fn(&PearlRow) -> f64| -> Vec<(f64, f64)> {
        rows.iter()
            .filter(|r| r.ordering == ordering)
            .map(|r| (f64::from(r.depth), f(r)))
            .collect()
    };
    let series = vec![
        Series {
            name: "SCOUT, random".into(),
            points: pick("random", &|r| r.leaves[0]),
            color: "#d62728",
            dashed: false,
        },
        Series {
            name: "α-β, random".into(),
            points: pick("random", &|r| r.leaves[1]),
            color: "#1f77b4",
            dashed: false,
        },
        Series {
            name: "SCOUT, dynamic".into(),
            points: pick("dynamic", &|r| r.leaves[0]),
            color: "#ff9896",
            dashed: false,
        },
        Series {
            name: "α-β, dynamic".into(),
            points: pick("dynamic", &|r| r.leaves[1]),
            color: "#aec7e8",
            dashed: false,
        },
        Series {
            name: "Pearl SCOUT, random".into(),
            points: pick("random", &|r| r.pearl.0),
            color: "#d62728",
            dashed: true,
        },
        Series {
            name: "Pearl α-β, random".into(),
            points: pick("random", &|r| r.pearl.1),
            color: "#1f77b4",
            dashed: true,
        },
        Series {
            name: "Pearl SCOUT, dynamic".into(),
            points: pick("dynamic", &|r| r.pearl.0),
            color: "#ff9896",
            dashed: true,
        },
        Series {
            name: "Pearl α-β, dynamic".into(),
            points: pick("dynamic", &|r| r.pearl.1),
            color: "#aec7e8",
            dashed: true,
        },
    ];
    line_plot(
        &format!(
            "SCOUT vs alpha-beta on Kalah({},{}), {} positions",
            exp.m, exp.n, exp.positions
        ),
        "search depth",
        "leaves evaluated (log scale)",
        &series,
    )
}
