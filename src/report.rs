//! Results with their moves named, ready for people or `--json`: [`Report`] for a search,
//! [`SolveReport`] for a solve (by any solver).

use crate::game::Score;
use crate::stats::Stats;

/// An [`crate::Outcome`] with its moves named, ready for people or `--json`.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::{run_report, Algorithm, SearchConfig};
/// let r = run_report(&Nim::new(7), Algorithm::AlphaBeta, &SearchConfig::new(7));
/// assert_eq!((r.algo.as_str(), r.value), ("alphabeta", Some(1)));
/// assert_eq!(r.pv[0], "3"); // moves named by the game's move_name: take 3, leave 4
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The algorithm's CLI name.
    pub algo: String,
    /// The horizon searched to.
    pub depth: u32,
    /// See [`crate::Outcome::value`].
    pub value: Option<Score>,
    /// See [`crate::Outcome::best_move`].
    pub best_move: Option<String>,
    /// See [`crate::Outcome::pv`].
    pub pv: Vec<String>,
    /// See [`crate::Outcome::complete`].
    pub complete: bool,
    /// The counters.
    pub stats: Stats,
    /// Wall-clock time of the search, milliseconds.
    pub time_ms: f64,
    /// Conspiracy-number search: `[Vmin, Vmax]`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub range: Option<(Score, Score)>,
    /// Conspiracy-number search: `[value, conspiracy size]` for each value in the range.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub conspiracy: Option<Vec<(Score, usize)>>,
    /// Monte-Carlo tree search: the root's mean reward for MAX (win 1, draw ½, loss 0).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub mcts_mean: Option<f64>,
    /// Why the search could not go on, when it could not ([`crate::Error::LineTooDeep`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub error: Option<String>,
}

/// A [`crate::Solution`] with its move named, ready for people or `--json`.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::{solver::solve_alphabeta_report, SolveConfig};
/// let r = solve_alphabeta_report(&Nim::new(6), &SolveConfig::default(), |_| {}).unwrap();
/// assert_eq!((r.value, r.outcome, r.algo.as_str()), (Some(1), Some("win"), "alphabeta-tt"));
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SolveReport {
    /// The solver used.
    pub algo: String,
    /// See [`crate::Solution::value`].
    pub value: Option<Score>,
    /// See [`crate::Solution::bounds`].
    pub bounds: (Score, Score),
    /// See [`crate::Solution::best_move`].
    pub best_move: Option<String>,
    /// See [`crate::Solution::complete`].
    pub complete: bool,
    /// `"win"`, `"draw"` or `"loss"` from MAX's view (not the side to move's): the sign of the
    /// value, once the bounds decide it; `None` while they do not.
    pub outcome: Option<&'static str>,
    /// The counters (`interior`: nodes expanded).
    pub stats: Stats,
    /// Bytes of the transposition table (0 for proof-number search).
    pub tt_bytes: usize,
    /// Proof-number search: the tree's peak size in bytes.
    pub peak_tree_bytes: Option<usize>,
    /// df-pn with a check: nodes of the proof (or disproof) tree that passed the checker.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub proof_nodes: Option<usize>,
    /// df-pn: the root's proof and disproof numbers after the last threshold (∞ = u32::MAX):
    /// how far an unfinished search got.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub root_numbers: Option<(u32, u32)>,
    /// True when the opening book answered without a search.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub from_book: bool,
    /// See [`crate::Solution::remoteness`].
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub remoteness: Option<u32>,
    /// Wall-clock time, milliseconds.
    pub time_ms: f64,
}

/// Win, draw or loss (MAX's view) when the bounds `(lo, hi)` decide the value's sign.
///
/// ```
/// assert_eq!(gamesearch::report::outcome((1, 3)), Some("win"));
/// assert_eq!(gamesearch::report::outcome((-1, 2)), None);
/// ```
pub fn outcome((lo, hi): (Score, Score)) -> Option<&'static str> {
    if lo > 0 {
        Some("win")
    } else if hi < 0 {
        Some("loss")
    } else if lo == 0 && hi == 0 {
        Some("draw")
    } else {
        None
    }
}
