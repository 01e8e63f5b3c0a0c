//! The depth-first family: plain minimax (the oracle), alpha-beta fail-hard (F2) and fail-soft
//! (F3), Pearl's SCOUT (TEST and EVAL), NegaScout (nega-max F4 and mini-max F4'/G4') and PVS.
//!
//! Every algorithm is generic over [`Game`], takes a horizon `depth`, fills the same [`Stats`],
//! and returns an [`Outcome`]: value, best move, principal variation, whether it completed.
//! [`search`] picks an algorithm by [`Algorithm`]; the modules hold one algorithm each.

pub mod alphabeta;
pub mod minimax;
pub mod negascout;
pub mod pvs;
pub mod scout;
pub mod solve;
pub mod tt;

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use serde::Serialize;

use crate::error::Error;
use crate::game::{Game, Score, INF};
use crate::limits::{Budget, Limits};
use crate::stats::Stats;

/// The algorithms of the depth-first family, by their CLI names.
///
/// ```
/// use gamesearch::Algorithm;
/// let a: Algorithm = "negascout".parse().unwrap();
/// assert_eq!(a, Algorithm::NegaScout);
/// assert_eq!(a.to_string(), "negascout");
/// assert!("alphabeta-soft".parse::<Algorithm>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain minimax: visits every node; the oracle.
    Minimax,
    /// Alpha-beta, fail-soft (F3).
    AlphaBeta,
    /// Alpha-beta, fail-hard (F2).
    AlphaBetaHard,
    /// Pearl's SCOUT: EVAL with TEST (seed 003).
    Scout,
    /// NegaScout, nega-max form F4 (seed 002).
    NegaScout,
    /// NegaScout, mini-max form F4'/G4' (seed 000/002).
    NegaScoutMinimax,
    /// Principal-variation search (seed 004).
    Pvs,
    /// Multi-valued proof-number search (seed 000), run through the same interface: the PV is
    /// the best move alone, `interior` counts expansions, `tests` the PN(v) runs.
    PnMulti,
    /// Conspiracy-number search (seed 001): with the default ε = 0 and unlimited threshold it
    /// returns the minimax value; the PV is the best move alone.
    Cns,
}

impl Algorithm {
    /// Every algorithm, in the order `compare` lists them.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::AlphaBetaHard,
        Algorithm::Scout,
        Algorithm::NegaScout,
        Algorithm::NegaScoutMinimax,
        Algorithm::Pvs,
        Algorithm::PnMulti,
        Algorithm::Cns,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::AlphaBetaHard => "alphabeta-hard",
            Algorithm::Scout => "scout",
            Algorithm::NegaScout => "negascout",
            Algorithm::NegaScoutMinimax => "negascout-minimax",
            Algorithm::Pvs => "pvs",
            Algorithm::PnMulti => "pn-multi",
            Algorithm::Cns => "cns",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| Error::UnknownAlgorithm {
                name: s.to_string(),
                known: Algorithm::ALL.map(Algorithm::name).join(", "),
            })
    }
}

/// Everything a search is told besides the game.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// The horizon: nodes at this depth are leaves valued by `f(p)`.
    pub depth: u32,
    /// Node / time / stop-flag budgets.
    pub limits: Limits,
    /// NegaScout's refinement of seed 002 line 11: below depth 3 a null-window fail-high is taken
    /// as exact and not re-searched. On by default; off gives the plain algorithm.
    pub shallow_refinement: bool,
    /// Conspiracy-number search: accuracy ε (stop when `Vmax - Vmin <= ε`).
    pub cns_accuracy: Score,
    /// Conspiracy-number search: threshold NT (`None`: unlimited).
    pub cns_threshold: Option<usize>,
}

impl SearchConfig {
    /// Depth `depth`, no limits, refinement on.
    pub fn new(depth: u32) -> Self {
        SearchConfig {
            depth,
            limits: Limits::none(),
            shallow_refinement: true,
            cns_accuracy: 0,
            cns_threshold: None,
        }
    }
}

/// What a search found.
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
    /// Conspiracy-number search only: the likely range `[Vmin, Vmax]` and the conspiracy size
    /// for each value in it.
    pub conspiracy: Option<((Score, Score), crate::conspiracy::ConspiracyNumbers)>,
}

/// An [`Outcome`] with its moves named, ready for people or `--json`.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The algorithm's CLI name.
    pub algo: String,
    /// The horizon searched to.
    pub depth: u32,
    /// See [`Outcome::value`].
    pub value: Option<Score>,
    /// See [`Outcome::best_move`].
    pub best_move: Option<String>,
    /// See [`Outcome::pv`].
    pub pv: Vec<String>,
    /// See [`Outcome::complete`].
    pub complete: bool,
    /// The counters.
    pub stats: Stats,
    /// Wall-clock time of the search, milliseconds.
    pub time_ms: f64,
    /// Conspiracy-number search: `[Vmin, Vmax]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(Score, Score)>,
    /// Conspiracy-number search: `[value, conspiracy size]` for each value in the range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conspiracy: Option<Vec<(Score, usize)>>,
}

/// Runs `algo` on `game` to `depth` within `limits` (NegaScout's refinement on).
pub fn search<G: Game>(game: &G, algo: Algorithm, depth: u32, limits: &Limits) -> Outcome<G::Move> {
    let mut cfg = SearchConfig::new(depth);
    cfg.limits = limits.clone();
    search_with(game, algo, &cfg)
}

/// Runs `algo` on `game` as `cfg` says.
pub fn search_with<G: Game>(game: &G, algo: Algorithm, cfg: &SearchConfig) -> Outcome<G::Move> {
    if algo == Algorithm::PnMulti {
        let mut pn = crate::proof_number::PnConfig::new(cfg.depth);
        pn.limits = cfg.limits.clone();
        let r = crate::proof_number::pn_value(game, &pn);
        return Outcome {
            value: r.value,
            best_move: r.best_move,
            pv: r.best_move.into_iter().collect(),
            complete: r.complete,
            stats: r.stats,
            conspiracy: None,
        };
    }
    if algo == Algorithm::Cns {
        let mut cn = crate::conspiracy::CnConfig::new(cfg.depth);
        cn.limits = cfg.limits.clone();
        cn.accuracy = cfg.cns_accuracy;
        cn.threshold = cfg.cns_threshold;
        let r = crate::conspiracy::cns(game, &cn);
        return Outcome {
            value: Some(r.value),
            best_move: r.best_move,
            pv: r.best_move.into_iter().collect(),
            complete: r.complete,
            stats: r.stats,
            conspiracy: Some((r.range, r.conspiracy)),
        };
    }
    let mut ctx = Ctx::new(game, cfg);
    let d = cfg.depth;
    let value = match algo {
        Algorithm::Minimax => minimax::minimax(&mut ctx, game, d, 0),
        Algorithm::AlphaBeta => alphabeta::fail_soft(&mut ctx, game, -INF, INF, d, 0),
        Algorithm::AlphaBetaHard => alphabeta::fail_hard(&mut ctx, game, -INF, INF, d, 0),
        Algorithm::Scout => scout::eval(&mut ctx, game, d, 0),
        Algorithm::NegaScout => negascout::f4(&mut ctx, game, -INF, INF, d, 0),
        Algorithm::NegaScoutMinimax => negascout::minimax_form(&mut ctx, game, -INF, INF, d, 0),
        Algorithm::Pvs => pvs::pvs(&mut ctx, game, -INF, INF, d, 0),
        Algorithm::PnMulti | Algorithm::Cns => unreachable!("handled above"),
    };
    // Negamax forms return (and record at the root) values from the root mover's view.
    let sign = if algo.is_negamax() {
        game.to_move().sign()
    } else {
        1
    };
    ctx.finish(sign * value, sign)
}

impl Algorithm {
    fn is_negamax(self) -> bool {
        matches!(
            self,
            Algorithm::AlphaBeta | Algorithm::AlphaBetaHard | Algorithm::NegaScout | Algorithm::Pvs
        )
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
        let mut pos = game.clone();
        let mut pv = Vec::with_capacity(self.pv.len());
        for &m in &self.pv {
            pv.push(pos.move_name(m));
            pos = pos.play(m);
        }
        Report {
            algo: algo.to_string(),
            depth,
            value: self.value,
            best_move: self.best_move.map(|m| game.move_name(m)),
            pv,
            complete: self.complete,
            stats: self.stats,
            time_ms,
            range: self.conspiracy.as_ref().map(|c| c.0),
            conspiracy: self.conspiracy.as_ref().map(|c| c.1.clone()),
        }
    }
}

/// Runs a search, times it and names its moves: what `search` and `compare` print.
pub fn run_report<G: Game>(game: &G, algo: Algorithm, cfg: &SearchConfig) -> Report {
    let start = Instant::now();
    let out = search_with(game, algo, cfg);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    out.report(game, algo.name(), cfg.depth, ms)
}

/// The state one search carries: counters, budget, the triangular PV table, the game's bounds.
pub(crate) struct Ctx<M> {
    pub(crate) stats: Stats,
    budget: Budget,
    /// `pv[ply]` is the best line found from the node at `ply`; preallocated so that updating
    /// it allocates nothing.
    pv: Vec<Vec<M>>,
    /// Best (value, move) at the root from children searched to completion; what a stopped
    /// search reports.
    root_best: Option<(Score, M)>,
    /// `(lo, hi)` on `f`, for the "m is max possible" cut.
    pub(crate) bounds: Option<(Score, Score)>,
    pub(crate) shallow_refinement: bool,
}

impl<M: Copy> Ctx<M> {
    pub(crate) fn new<G: Game<Move = M>>(game: &G, cfg: &SearchConfig) -> Self {
        // Rows for the usual depths up front; deeper searches grow the table once, on the way
        // down, not per node.
        let plies = (cfg.depth as usize).min(126) + 2;
        Ctx {
            stats: Stats::default(),
            budget: Budget::new(&cfg.limits),
            pv: (0..plies).map(|i| Vec::with_capacity(plies - i)).collect(),
            root_best: None,
            bounds: game.value_bounds(),
            shallow_refinement: cfg.shallow_refinement,
        }
    }

    /// True once a budget ran out; every algorithm unwinds when it sees it.
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.budget.stopped
    }

    /// Counts a static evaluation at a leaf and returns `f(p)` (MAX's view).
    #[inline]
    pub(crate) fn leaf<G: Game<Move = M>>(&mut self, p: &G, ply: usize) -> Score {
        if self.budget.stopped {
            return 0; // unwinding: the value is never used
        }
        self.stats.leaves += 1;
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.budget.exhausted(self.stats.nodes());
        p.evaluate()
    }

    /// Counts an interior node and clears its PV.
    #[inline]
    pub(crate) fn interior(&mut self, ply: usize) {
        if self.budget.stopped {
            return; // unwinding: the caller returns after its first child
        }
        self.stats.interior += 1;
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.budget.exhausted(self.stats.nodes());
    }

    /// Makes sure the PV table has rows for `ply` and its child.
    #[inline]
    fn ensure_ply(&mut self, ply: usize) {
        if ply + 1 >= self.pv.len() {
            self.pv.resize_with(ply + 2, Vec::new);
        }
    }

    /// Records `m` followed by the child's line as the best line at `ply`; at the root, also the
    /// best result so far (when the child's search completed).
    #[inline]
    pub(crate) fn set_pv(&mut self, ply: usize, m: M, value: Score) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
        if ply == 0 && !self.budget.stopped {
            self.root_best = Some((value, m));
        }
    }

    /// The best value the side to move (negamax view) could possibly reach, from the game's
    /// bounds; `INF` when unknown.
    #[inline]
    pub(crate) fn max_possible(&self, sign: Score) -> Score {
        match self.bounds {
            Some((lo, hi)) => {
                if sign > 0 {
                    hi
                } else {
                    -lo
                }
            }
            None => INF,
        }
    }

    /// `value` is from MAX's view; `sign` turns the values recorded at the root (by `set_pv`)
    /// into MAX's view.
    fn finish(mut self, value: Score, sign: Score) -> Outcome<M> {
        let complete = !self.budget.stopped;
        let pv = std::mem::take(&mut self.pv[0]);
        if complete {
            Outcome {
                value: Some(value),
                best_move: pv.first().copied(),
                pv,
                complete,
                stats: self.stats,
                conspiracy: None,
            }
        } else {
            Outcome {
                value: self.root_best.map(|(v, _)| sign * v),
                best_move: self.root_best.map(|(_, m)| m),
                pv: self.root_best.map(|(_, m)| vec![m]).unwrap_or_default(),
                complete,
                stats: self.stats,
                conspiracy: None,
            }
        }
    }
}

/// Searches `child` from its parent's point of view in negamax form: the window is negated and
/// the result negated only when the side to move changes (turns need not alternate).
#[inline]
pub(crate) fn relative(
    same_side: bool,
    alpha: Score,
    beta: Score,
    search: impl FnOnce(Score, Score) -> Score,
) -> Score {
    if same_side {
        search(alpha, beta)
    } else {
        -search(-beta, -alpha)
    }
}

/// Searches with the window `(alpha, beta)` (MAX's point of view) instead of `(-INF, INF)`:
/// aspiration windows, null windows `(m, m + 1)`, or testing fail-soft contracts. For the
/// fail-soft algorithms (`alphabeta`, `negascout`, `negascout-minimax`, `pvs`) the value `t`
/// returned is a true bound: `t <= alpha ⇒ V <= t`, `t >= beta ⇒ V >= t`, otherwise `V = t`;
/// for `alphabeta-hard` it is clamped to `[alpha, beta]`. SCOUT and minimax take no window.
///
/// ```
/// use gamesearch::{depth_first::search_window, games::ExplicitTree, Algorithm, SearchConfig};
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let cfg = SearchConfig::new(2);
/// let r = search_window(&tree.root(), Algorithm::NegaScout, 5, 6, &cfg).unwrap();
/// assert!(r.value.unwrap() <= 5); // fails low: V(A) = 4 <= 5
/// ```
pub fn search_window<G: Game>(
    game: &G,
    algo: Algorithm,
    alpha: Score,
    beta: Score,
    cfg: &SearchConfig,
) -> Result<Outcome<G::Move>, Error> {
    if !(-INF <= alpha && alpha < beta && beta <= INF) {
        return Err(Error::BadParameter(format!(
            "window ({alpha}, {beta}) must satisfy -INF <= alpha < beta <= INF"
        )));
    }
    let mut ctx = Ctx::new(game, cfg);
    let d = cfg.depth;
    let root_max = game.to_move() == crate::game::Player::Max;
    let value = match algo {
        Algorithm::AlphaBeta => relative(root_max, alpha, beta, |a, b| {
            alphabeta::fail_soft(&mut ctx, game, a, b, d, 0)
        }),
        Algorithm::AlphaBetaHard => relative(root_max, alpha, beta, |a, b| {
            alphabeta::fail_hard(&mut ctx, game, a, b, d, 0)
        }),
        Algorithm::NegaScout => relative(root_max, alpha, beta, |a, b| {
            negascout::f4(&mut ctx, game, a, b, d, 0)
        }),
        Algorithm::Pvs => relative(root_max, alpha, beta, |a, b| {
            pvs::pvs(&mut ctx, game, a, b, d, 0)
        }),
        Algorithm::NegaScoutMinimax => negascout::minimax_form(&mut ctx, game, alpha, beta, d, 0),
        Algorithm::Minimax | Algorithm::Scout | Algorithm::PnMulti | Algorithm::Cns => {
            return Err(Error::BadParameter(format!(
                "{algo} takes no search window"
            )))
        }
    };
    // `relative` already turned the value into MAX's view.
    let sign = if algo.is_negamax() {
        game.to_move().sign()
    } else {
        1
    };
    Ok(ctx.finish(value, sign))
}
