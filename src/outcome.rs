//! What every family is asked and what it returns: [`SearchConfig`] (horizon, budgets) and
//! [`Outcome`] (value, best move, PV, complete, statistics, and the [`Details`] one family adds).
//! Vocabulary: the families import it, it imports none of them. The front door
//! ([`crate::search()`]) re-exports it.

use crate::game::{Game, Score};
use crate::limits::Limits;
use crate::report::Report;
use crate::stats::Stats;

/// For each value, the size of the smallest conspiracy that gives the root that value.
pub type ConspiracyNumbers = Vec<(Score, usize)>;

/// Everything a search is told besides the game and the algorithm.
///
/// ```
/// use gamesearch::{Limits, SearchConfig};
/// let cfg = SearchConfig::new(6).with_limits(Limits::none().with_max_nodes(10_000));
/// assert_eq!((cfg.depth, cfg.limits.max_nodes), (6, Some(10_000)));
/// ```
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// The horizon: nodes at this depth are leaves valued by `f(p)`.
    pub depth: u32,
    /// Node / time / stop-flag budgets.
    pub limits: Limits,
    /// NegaScout's refinement (Reinefeld 1983): below depth 3 a null-window fail-high is taken
    /// as exact and not re-searched. On by default; off gives the plain algorithm. Only the two
    /// NegaScout forms read it.
    pub shallow_refinement: bool,
}

impl SearchConfig {
    /// Depth `depth`, no limits, refinement on.
    pub fn new(depth: u32) -> Self {
        SearchConfig {
            depth,
            limits: Limits::none(),
            shallow_refinement: true,
        }
    }

    /// The same, with these limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// What one family adds to an [`Outcome`].
///
/// ```
/// use gamesearch::{trees::RandomTreeSpec, search, Algorithm, CnsParams, Details, SearchConfig};
/// let root = RandomTreeSpec::new(3, 3, 5).root().unwrap();
/// let r = search(&root, Algorithm::Cns(CnsParams::default()), &SearchConfig::new(3));
/// match r.details {
///     Details::Conspiracy { range, .. } => assert_eq!(range, (r.value.unwrap(), r.value.unwrap())),
///     _ => unreachable!("CNS reports its range"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Details {
    /// Nothing beyond the common fields.
    None,
    /// Conspiracy-number search: the likely range `[Vmin, Vmax]` and the conspiracy size of each
    /// value in it.
    Conspiracy {
        /// `[Vmin, Vmax]`.
        range: (Score, Score),
        /// `(value, conspiracy size)` for each value of the range.
        numbers: ConspiracyNumbers,
    },
    /// Monte-Carlo tree search: the root's mean reward for MAX (win 1, draw ½, loss 0) and
    /// its visits.
    Mcts {
        /// Mean reward for MAX over the root's playouts.
        mean: f64,
        /// The root's visits.
        visits: u64,
    },
    /// B*: the root's interval and the best move's (MAX's view).
    BStar {
        /// The root's `[pessimistic, optimistic]`.
        range: (Score, Score),
        /// The chosen move's.
        best: (Score, Score),
    },
}

/// What a search found.
///
/// ```
/// use gamesearch::{trees::RandomTreeSpec, search, Algorithm, Limits, SearchConfig};
/// let root = RandomTreeSpec::new(8, 8, 1).root().unwrap();
/// let cfg = SearchConfig::new(8).with_limits(Limits::none().with_max_nodes(10_000));
/// let r = search(&root, Algorithm::AlphaBeta, &cfg);
/// assert!(!r.complete); // the budget ran out: the best root move among those finished
/// assert!(r.stats.nodes() <= 10_000);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome<M> {
    /// The minimax value of the depth-limited tree (MAX's view), when complete. When a budget
    /// stopped the search early: the best value found at the root so far (a bound), or `None`.
    pub value: Option<Score>,
    /// The move leading to the value.
    pub best_move: Option<M>,
    /// The principal variation, from the root.
    pub pv: Vec<M>,
    /// False when a budget or the stop flag cut the search short.
    pub complete: bool,
    /// What the search did.
    pub stats: Stats,
    /// What the algorithm's family adds.
    pub details: Details,
    /// Why the search could not go on, when it could not: a line of play deeper than it can
    /// follow ([`crate::Error::LineTooDeep`]: a game that does not end, or a horizon deeper
    /// than the thread's stack). The search is then incomplete and has no value.
    pub error: Option<crate::Error>,
}

impl<M> Outcome<M> {
    /// No search and no result: what a family whose parameters it refused reports.
    pub(crate) fn nothing() -> Self {
        Outcome {
            value: None,
            best_move: None,
            pv: Vec::new(),
            complete: false,
            stats: Stats::default(),
            details: Details::None,
            error: None,
        }
    }
}

impl<M: Copy> Outcome<M> {
    /// Names the moves (playing the PV from `game` so each is named in its position).
    pub fn report<G: Game<Move = M>>(
        &self,
        game: &G,
        algo: &str,
        depth: u32,
        time_ms: f64,
    ) -> Report {
        let pv = crate::game::line_names(game, &self.pv);
        let (range, conspiracy) = match &self.details {
            Details::Conspiracy { range, numbers } => (Some(*range), Some(numbers.clone())),
            Details::BStar { range, .. } => (Some(*range), None),
            _ => (None, None),
        };
        let mcts_mean = match self.details {
            Details::Mcts { mean, .. } => Some(mean),
            _ => None,
        };
        Report {
            algo: algo.to_string(),
            depth,
            value: self.value,
            best_move: self.best_move.map(|m| game.move_name(m)),
            pv,
            complete: self.complete,
            stats: self.stats,
            time_ms,
            range,
            conspiracy,
            mcts_mean,
            error: self.error.as_ref().map(ToString::to_string),
        }
    }
}
