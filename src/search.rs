//! The front door: one [`Algorithm`] enum naming every algorithm of every family, one
//! [`search()`] that dispatches to [`crate::depth_first`], [`crate::proof_number`] and
//! [`crate::conspiracy`], one [`Outcome`] they all return. Parameters that belong to one
//! algorithm travel inside its variant ([`Algorithm::Cns`]'s accuracy and threshold), so a search
//! carries nothing it does not use.
//!
//! ```
//! use gamesearch::{trees::RandomTreeSpec, search, Algorithm, CnsParams, SearchConfig};
//! let root = RandomTreeSpec::new(3, 4, 7).root().unwrap();
//! let cfg = SearchConfig::new(4);
//! let oracle = search(&root, Algorithm::Minimax, &cfg).value;
//! for algo in [Algorithm::NegaScout, Algorithm::PnMulti, Algorithm::Cns(CnsParams::default())] {
//!     assert_eq!(search(&root, algo, &cfg).value, oracle, "{algo}");
//! }
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use crate::conspiracy::CnConfig;
use crate::depth_first::{self, DepthFirst};
use crate::error::Error;
use crate::game::{Game, Score};
use crate::observe::{NoObserver, Observer};
pub use crate::outcome::{Details, Outcome, SearchConfig};
use crate::proof_number::PnConfig;
use crate::report::Report;
use crate::stats::Stats;

/// Conspiracy-number search's parameters (McAllester 1988): it stops when the root's likely
/// range `[Vmin, Vmax]` is at most `accuracy` wide, or when every value but the root's needs at
/// least `threshold` leaves to change its mind. The defaults (ε = 0, no threshold) give the
/// minimax value.
///
/// ```
/// use gamesearch::CnsParams;
/// assert_eq!(CnsParams::default(), CnsParams { accuracy: 0, threshold: None });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CnsParams {
    /// ε: stop when `Vmax - Vmin <= accuracy`.
    pub accuracy: Score,
    /// NT, the conspiracy threshold (`None`: unlimited).
    pub threshold: Option<usize>,
}

/// Every search algorithm, by its CLI name.
///
/// ```
/// use gamesearch::{Algorithm, CnsParams};
/// let a: Algorithm = "negascout".parse().unwrap();
/// assert_eq!(a, Algorithm::NegaScout);
/// assert_eq!(a.to_string(), "negascout");
/// assert_eq!("cns".parse::<Algorithm>().unwrap(), Algorithm::Cns(CnsParams::default()));
/// assert!("alphabeta-soft".parse::<Algorithm>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain minimax: visits every node; the oracle.
    Minimax,
    /// Alpha-beta, fail-soft (F3; Knuth & Moore 1975).
    AlphaBeta,
    /// Alpha-beta, fail-hard (F2; Knuth & Moore 1975).
    AlphaBetaHard,
    /// Pearl's SCOUT: EVAL with TEST (Pearl 1980).
    Scout,
    /// NegaScout, nega-max form F4 (Reinefeld 1983).
    NegaScout,
    /// NegaScout, mini-max form F4'/G4'.
    NegaScoutMinimax,
    /// Principal-variation search (Marsland & Campbell 1982).
    Pvs,
    /// MTD(f) (Plaat et al. 1996): null-window alpha-beta passes with a transposition table
    /// (keyed by path, so any game) until the bounds meet; `tests` counts the passes.
    Mtdf,
    /// Multi-valued proof-number search (Allis et al. 1994; the value by doubling then binary
    /// search over PN(v) runs): the PV is the best move alone, `interior` counts expansions,
    /// `tests` the PN(v) runs.
    PnMulti,
    /// Conspiracy-number search (McAllester 1988); the PV is the best move alone, and
    /// [`Outcome::details`] holds the likely range and conspiracy numbers.
    Cns(CnsParams),
    /// Monte-Carlo tree search, UCT (Kocsis & Szepesvári 2006), MCTS-Solver (Winands et al.
    /// 2008) with `solver`, or PN-MCTS (Kowalski et al. 2024) with `pn_constant`: see
    /// [`crate::mcts`]. Not a minimax search: its value is the
    /// proven result (+1, 0, −1: the sign of minimax's) when MCTS-Solver proves the root, none
    /// otherwise; the budget's nodes count playouts; without a budget, plain UCT runs
    /// [`MctsParams::DEFAULT_PLAYOUTS`].
    Mcts(MctsParams),
    /// B* (Berliner 1979): best-first until one root move is proven best by the intervals of
    /// its tree; see [`crate::bstar`]. A leaf's interval is its `f(p)` ± `margin`, or with no
    /// margin the game's [`Game::value_bounds`] (±[`crate::INF`] where it has none). Its value
    /// is known only when the best move's interval closes; `complete` means separated.
    BStar(BStarParams),
}

/// B*'s parameter: the half-width of a leaf's interval around its `f(p)` (`None`: the game's
/// whole value range, which holds every value, so that a separation is a proof).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BStarParams {
    /// The margin around `f(p)`.
    pub margin: Option<Score>,
}

/// MCTS's parameters (the rest of [`crate::mcts::MctsConfig`] comes from the search's).
///
/// ```
/// use gamesearch::{Algorithm, MctsParams};
/// let a: Algorithm = "mcts-solver".parse().unwrap();
/// assert_eq!(a, Algorithm::Mcts(MctsParams { solver: true, ..MctsParams::default() }));
/// assert_eq!(MctsParams::default().exploration, std::f64::consts::SQRT_2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// MCTS-Solver: back proven results up.
    pub solver: bool,
    /// UCT's exploration constant C.
    pub exploration: f64,
    /// Seed of the playouts.
    pub seed: u64,
    /// PN-MCTS: the proof-number term's weight `C_pn` (implies `solver`).
    pub pn_constant: Option<f64>,
    /// Random plies a playout makes before it takes the evaluation's sign (`u32::MAX`: to the
    /// end; see [`crate::mcts::MctsConfig::playout_plies`]).
    pub playout_plies: u32,
    /// Threads (1: one). More than one runs only through [`search_parallel`], which needs a
    /// game that may cross threads; [`search`] answers such a search with no result.
    pub threads: usize,
    /// How the threads share the work.
    pub parallel: crate::mcts::Parallel,
}

impl MctsParams {
    /// Playouts of plain UCT when the search has no budget.
    pub const DEFAULT_PLAYOUTS: u64 = 100_000;

    /// Plain UCT, C = √2, seed 1: the default (a constant, for [`Algorithm::NAMED`]).
    pub const UCT: MctsParams = MctsParams {
        solver: false,
        exploration: std::f64::consts::SQRT_2,
        seed: 1,
        pn_constant: None,
        playout_plies: u32::MAX,
        threads: 1,
        parallel: crate::mcts::Parallel::Tree,
    };

    /// The search's configuration at horizon `depth` (the rest as [`crate::mcts::MctsConfig`]'s
    /// default).
    pub fn config(&self, depth: u32) -> crate::mcts::MctsConfig {
        crate::mcts::MctsConfig {
            exploration: self.exploration,
            solver: self.solver,
            seed: self.seed,
            depth,
            pn_constant: self.pn_constant,
            playout_plies: self.playout_plies,
            threads: self.threads,
            parallel: self.parallel,
            ..crate::mcts::MctsConfig::default()
        }
    }

    /// A typed error for parameters no search can run with ([`crate::mcts::MctsConfig::check`]):
    /// the front doors answer such a search with no result.
    ///
    /// ```
    /// use gamesearch::MctsParams;
    /// assert!(MctsParams { threads: 2, ..MctsParams::PN_MCTS }.check().is_ok());
    /// assert!(MctsParams { exploration: -1.0, ..MctsParams::UCT }.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        self.config(u32::MAX).check()
    }

    /// PN-MCTS with Kowalski et al.'s `C_pn` = 1 (its threads grow a tree each: its proof
    /// numbers are one thread's).
    pub const PN_MCTS: MctsParams = MctsParams {
        solver: true,
        pn_constant: Some(1.0),
        parallel: crate::mcts::Parallel::Root,
        ..MctsParams::UCT
    };
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams::UCT
    }
}

// The exploration constant compared by its bits, so that an algorithm is a key.
impl Eq for MctsParams {}

impl std::hash::Hash for MctsParams {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let pn = self.pn_constant.map(f64::to_bits);
        let (solver, plies) = (self.solver, self.playout_plies);
        (solver, self.exploration.to_bits(), self.seed, pn, plies).hash(h);
        (self.threads, self.parallel).hash(h);
    }
}

impl From<DepthFirst> for Algorithm {
    fn from(a: DepthFirst) -> Self {
        match a {
            DepthFirst::Minimax => Algorithm::Minimax,
            DepthFirst::AlphaBeta => Algorithm::AlphaBeta,
            DepthFirst::AlphaBetaHard => Algorithm::AlphaBetaHard,
            DepthFirst::Scout => Algorithm::Scout,
            DepthFirst::NegaScout => Algorithm::NegaScout,
            DepthFirst::NegaScoutMinimax => Algorithm::NegaScoutMinimax,
            DepthFirst::Pvs => Algorithm::Pvs,
        }
    }
}

impl Algorithm {
    /// Every algorithm (CNS with its default parameters), in the order `compare` lists them.
    pub const ALL: [Algorithm; 10] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaHard,
        Algorithm::Scout,
        Algorithm::NegaScout,
        Algorithm::NegaScoutMinimax,
        Algorithm::Pvs,
        Algorithm::Mtdf,
        Algorithm::PnMulti,
        Algorithm::Cns(CnsParams {
            accuracy: 0,
            threshold: None,
        }),
    ];

    /// Every algorithm by name: [`Algorithm::ALL`], which give minimax's value, then the
    /// Monte-Carlo searches (default parameters), which do not.
    pub const NAMED: [Algorithm; 14] = {
        let mut out = [Algorithm::Minimax; 14];
        let mut i = 0;
        while i < Algorithm::ALL.len() {
            out[i] = Algorithm::ALL[i];
            i += 1;
        }
        out[i] = Algorithm::Mcts(MctsParams::UCT);
        out[i + 1] = Algorithm::Mcts(MctsParams {
            solver: true,
            ..MctsParams::UCT
        });
        out[i + 2] = Algorithm::Mcts(MctsParams::PN_MCTS);
        out[i + 3] = Algorithm::BStar(BStarParams { margin: None });
        out
    };

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => DepthFirst::Minimax.name(),
            Algorithm::AlphaBeta => DepthFirst::AlphaBeta.name(),
            Algorithm::AlphaBetaHard => DepthFirst::AlphaBetaHard.name(),
            Algorithm::Scout => DepthFirst::Scout.name(),
            Algorithm::NegaScout => DepthFirst::NegaScout.name(),
            Algorithm::NegaScoutMinimax => DepthFirst::NegaScoutMinimax.name(),
            Algorithm::Pvs => DepthFirst::Pvs.name(),
            Algorithm::Mtdf => "mtdf",
            Algorithm::PnMulti => "pn-multi",
            Algorithm::Cns(_) => "cns",
            Algorithm::Mcts(p) if p.pn_constant.is_some() => "pn-mcts",
            Algorithm::Mcts(p) if p.solver => "mcts-solver",
            Algorithm::Mcts(_) => "mcts",
            Algorithm::BStar(_) => "bstar",
        }
    }

    /// The depth-first algorithm this is, if it is one.
    ///
    /// ```
    /// use gamesearch::{depth_first::DepthFirst, Algorithm};
    /// assert_eq!(Algorithm::Scout.depth_first(), Some(DepthFirst::Scout));
    /// assert_eq!(Algorithm::PnMulti.depth_first(), None);
    /// ```
    pub fn depth_first(self) -> Option<DepthFirst> {
        DepthFirst::ALL
            .into_iter()
            .find(|&d| Algorithm::from(d) == self)
    }

    /// Whether the algorithm keeps its whole search tree in memory (proof-number and
    /// conspiracy-number search): its memory grows with the nodes it visits.
    pub fn keeps_tree(self) -> bool {
        matches!(self, Algorithm::PnMulti | Algorithm::Cns(_))
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Algorithm::NAMED
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| Error::UnknownAlgorithm {
                name: s.to_string(),
                known: Algorithm::NAMED.map(Algorithm::name).join(", "),
            })
    }
}

/// Runs `algo` on `game` as `cfg` says: the one call for every algorithm.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::{search, Algorithm, SearchConfig};
/// let r = search(&Nim::new(6), Algorithm::Pvs, &SearchConfig::new(6));
/// assert_eq!((r.value, r.best_move), (Some(1), Some(2))); // leave 4
/// assert!(r.complete);
/// ```
pub fn search<G: Game>(game: &G, algo: Algorithm, cfg: &SearchConfig) -> Outcome<G::Move> {
    search_with_observer(game, algo, cfg, &mut NoObserver)
}

/// [`search`] reporting to `obs` (the front door of [`crate::trace::search_observed`]).
pub(crate) fn search_with_observer<G: Game, O: Observer<G::Move>>(
    game: &G,
    algo: Algorithm,
    cfg: &SearchConfig,
    obs: &mut O,
) -> Outcome<G::Move> {
    let (limits, watch) = cfg.limits.watched();
    let cfg = &SearchConfig {
        limits,
        ..cfg.clone()
    };
    let mut out = match algo {
        Algorithm::Mtdf => crate::engine::mtdf_to_depth_observed(game, cfg.depth, &cfg.limits, obs),
        Algorithm::PnMulti => {
            let mut pn = PnConfig::new(cfg.depth);
            pn.limits = cfg.limits.clone();
            let r = crate::proof_number::pn_value_observed(game, &pn, obs);
            Outcome {
                value: r.value,
                best_move: r.best_move,
                pv: r.best_move.into_iter().collect(),
                complete: r.complete,
                stats: r.stats,
                details: Details::None,
                error: None,
            }
        }
        Algorithm::Cns(p) => {
            let mut cn = CnConfig::new(cfg.depth);
            cn.limits = cfg.limits.clone();
            cn.accuracy = p.accuracy;
            cn.threshold = p.threshold;
            let r = crate::conspiracy::cns_observed(game, &cn, obs);
            Outcome {
                // As every other algorithm: no value from a search a budget stopped (the range
                // proven so far is in the details).
                value: r.complete.then_some(r.value),
                best_move: r.best_move,
                pv: r.best_move.into_iter().collect(),
                complete: r.complete,
                stats: r.stats,
                details: Details::Conspiracy {
                    range: r.range,
                    numbers: r.conspiracy,
                },
                error: None,
            }
        }
        Algorithm::BStar(p) => {
            let b = crate::bstar::BStarConfig {
                depth: cfg.depth,
                ..crate::bstar::BStarConfig::default()
            };
            let range = game
                .value_bounds()
                .unwrap_or((-crate::game::INF, crate::game::INF));
            let bounds = |q: &G| match p.margin {
                Some(m) => {
                    let f = q.evaluate();
                    (f.saturating_sub(m), f.saturating_add(m))
                }
                None => range,
            };
            match crate::bstar::search_observed(game, &b, bounds, &cfg.limits, obs) {
                Ok(r) => Outcome {
                    value: (r.best_range.0 == r.best_range.1).then_some(r.best_range.0),
                    best_move: r.best_move,
                    pv: r.best_move.into_iter().collect(),
                    complete: r.separated,
                    stats: Stats {
                        interior: r.expansions,
                        leaves: (r.tree_nodes as u64).saturating_sub(r.expansions),
                        ..Stats::default()
                    },
                    details: Details::BStar {
                        range: r.root_range,
                        best: r.best_range,
                    },
                    error: None,
                },
                // Only a reversed interval fails, which these bounds never are.
                Err(_) => Outcome::nothing(),
            }
        }
        Algorithm::Mcts(p) => {
            let (mcts, limits) = mcts_setup(&p, cfg);
            // A bad exploration constant, or threads this game cannot cross: no search, no
            // result.
            mcts_outcome(crate::mcts::search_observed(game, &mcts, &limits, obs))
        }
        _ => {
            let df = algo
                .depth_first()
                .expect("every other algorithm is depth-first");
            depth_first::search_observed(game, df, cfg, obs)
        }
    };
    if let Some(e) = watch.error().or(out.error.take()) {
        out.value = None;
        out.complete = false;
        out.error = Some(e);
    }
    out
}

/// Runs a search, times it and names its moves: what `search` and `compare` print.
///
/// ```
/// use gamesearch::{trees::RandomTreeSpec, run_report, Algorithm, SearchConfig};
/// let root = RandomTreeSpec::new(2, 3, 1).root().unwrap();
/// let r = run_report(&root, Algorithm::Scout, &SearchConfig::new(3));
/// assert_eq!((r.algo.as_str(), r.pv.len(), r.complete), ("scout", 3, true));
/// ```
pub fn run_report<G: Game>(game: &G, algo: Algorithm, cfg: &SearchConfig) -> Report {
    timed_report(game, algo, cfg, search)
}

/// `run` timed, its moves named.
fn timed_report<G: Game>(
    game: &G,
    algo: Algorithm,
    cfg: &SearchConfig,
    run: impl FnOnce(&G, Algorithm, &SearchConfig) -> Outcome<G::Move>,
) -> Report {
    let start = Instant::now();
    let out = run(game, algo, cfg);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    out.report(game, algo.name(), cfg.depth, ms)
}

/// [`search`] for a game whose positions and moves may cross threads: MCTS then runs on
/// [`MctsParams::threads`] threads (every other algorithm as in [`search`]).
///
/// ```
/// use gamesearch::{trees::ExplicitTree, search_parallel, Algorithm, MctsParams, SearchConfig};
/// let t = ExplicitTree::parse("(max (min 1 -1) (min 1 1))").unwrap();
/// let algo = Algorithm::Mcts(MctsParams { solver: true, threads: 2, ..MctsParams::UCT });
/// let r = search_parallel(&t.root(), algo, &SearchConfig::new(2));
/// assert_eq!(r.value, Some(1));
/// ```
pub fn search_parallel<G>(game: &G, algo: Algorithm, cfg: &SearchConfig) -> Outcome<G::Move>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    match algo {
        Algorithm::Mcts(p) if p.threads != 1 => {
            let (mcts, limits) = mcts_setup(&p, cfg);
            mcts_outcome(crate::mcts::search_parallel(game, &mcts, &limits))
        }
        _ => search(game, algo, cfg),
    }
}

/// [`run_report`] through [`search_parallel`].
pub fn run_report_parallel<G>(game: &G, algo: Algorithm, cfg: &SearchConfig) -> Report
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    timed_report(game, algo, cfg, search_parallel)
}

/// MCTS's configuration and budget for `p` in a search of `cfg` (plain UCT without a budget
/// runs its default playouts).
fn mcts_setup(p: &MctsParams, cfg: &SearchConfig) -> (crate::mcts::MctsConfig, crate::Limits) {
    let mcts = p.config(cfg.depth);
    let mut limits = cfg.limits.clone();
    if !p.solver && limits.max_nodes.is_none() && limits.max_time.is_none() {
        limits.max_nodes = Some(MctsParams::DEFAULT_PLAYOUTS);
    }
    (mcts, limits)
}

/// An MCTS search's result as an [`Outcome`]; none for a search that could not start.
fn mcts_outcome<M: Copy>(r: Result<crate::mcts::MctsResult<M>, Error>) -> Outcome<M> {
    match r {
        Ok(r) => Outcome {
            value: r.proven,
            best_move: r.best_move,
            pv: r.best_move.into_iter().collect(),
            complete: r.proven.is_some(),
            stats: Stats {
                leaves: r.playouts,
                interior: r.tree_nodes as u64,
                ..Stats::default()
            },
            details: Details::Mcts {
                mean: r.mean,
                visits: r.root_visits,
            },
            error: None,
        },
        Err(e) => Outcome {
            error: Some(e),
            ..Outcome::nothing()
        },
    }
}
