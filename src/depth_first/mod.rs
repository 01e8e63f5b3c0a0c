//! The depth-first family: plain minimax (the oracle), alpha-beta fail-hard (F2) and fail-soft
//! (F3), Pearl's SCOUT (TEST and EVAL), NegaScout (nega-max F4 and mini-max F4'/G4') and PVS.
//!
//! Every algorithm is generic over [`Game`], takes a horizon `depth`, fills the same [`Stats`],
//! and returns an [`Outcome`]: value, best move, principal variation, whether it completed.
//! [`search`] picks one by [`DepthFirst`]; the modules hold one algorithm each. (The crate's
//! front door, [`crate::search()`], dispatches here and to the other families.)

pub mod alphabeta;
pub mod minimax;
pub mod negascout;
pub mod pvs;
pub mod scout;

use std::fmt;

use crate::error::Error;
use crate::game::{relative, Game, Player, Score, INF};
use crate::limits::{Budget, Limits};
use crate::observe::{Bound, Event, NoObserver, Observer, Window};
use crate::outcome::{Details, Outcome, SearchConfig};
use crate::stats::Stats;

/// The algorithms of the depth-first family. [`crate::Algorithm`] names every algorithm of every
/// family; this enum only these.
///
/// ```
/// use gamesearch::{depth_first::DepthFirst, Algorithm};
/// assert_eq!(DepthFirst::NegaScout.name(), "negascout");
/// assert_eq!(Algorithm::from(DepthFirst::Pvs), Algorithm::Pvs);
/// assert_eq!(DepthFirst::ALL.len(), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthFirst {
    /// [`crate::Algorithm::Minimax`]: the oracle.
    Minimax,
    /// [`crate::Algorithm::AlphaBeta`] (F3).
    AlphaBeta,
    /// [`crate::Algorithm::AlphaBetaHard`] (F2).
    AlphaBetaHard,
    /// [`crate::Algorithm::Scout`].
    Scout,
    /// [`crate::Algorithm::NegaScout`] (F4).
    NegaScout,
    /// [`crate::Algorithm::NegaScoutMinimax`] (F4'/G4').
    NegaScoutMinimax,
    /// [`crate::Algorithm::Pvs`].
    Pvs,
}

impl DepthFirst {
    /// Every depth-first algorithm, in the order `compare` lists them.
    pub const ALL: [DepthFirst; 7] = [
        DepthFirst::Minimax,
        DepthFirst::AlphaBeta,
        DepthFirst::AlphaBetaHard,
        DepthFirst::Scout,
        DepthFirst::NegaScout,
        DepthFirst::NegaScoutMinimax,
        DepthFirst::Pvs,
    ];

    /// The CLI name (the same as [`crate::Algorithm`]'s for it).
    pub fn name(self) -> &'static str {
        match self {
            DepthFirst::Minimax => "minimax",
            DepthFirst::AlphaBeta => "alphabeta",
            DepthFirst::AlphaBetaHard => "alphabeta-hard",
            DepthFirst::Scout => "scout",
            DepthFirst::NegaScout => "negascout",
            DepthFirst::NegaScoutMinimax => "negascout-minimax",
            DepthFirst::Pvs => "pvs",
        }
    }

    /// Whether the algorithm works in nega-max form (values from the side to move's view).
    fn is_negamax(self) -> bool {
        matches!(
            self,
            DepthFirst::AlphaBeta
                | DepthFirst::AlphaBetaHard
                | DepthFirst::NegaScout
                | DepthFirst::Pvs
        )
    }
}

impl fmt::Display for DepthFirst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Runs `algo` on `game` to `depth` within `limits` (NegaScout's refinement on).
///
/// ```
/// use gamesearch::{depth_first::{search, DepthFirst}, trees::RandomTreeSpec, Limits};
/// let root = RandomTreeSpec::new(4, 6, 42).root().unwrap();
/// let ab = search(&root, DepthFirst::AlphaBeta, 6, &Limits::none());
/// let ns = search(&root, DepthFirst::NegaScout, 6, &Limits::none());
/// assert_eq!(ab.value, ns.value);
/// assert!(ns.stats.leaves <= ab.stats.leaves * 2);
/// ```
pub fn search<G: Game>(
    game: &G,
    algo: DepthFirst,
    depth: u32,
    limits: &Limits,
) -> Outcome<G::Move> {
    search_with(
        game,
        algo,
        &SearchConfig::new(depth).with_limits(limits.clone()),
    )
}

/// Runs `algo` on `game` as `cfg` says.
pub fn search_with<G: Game>(game: &G, algo: DepthFirst, cfg: &SearchConfig) -> Outcome<G::Move> {
    search_observed(game, algo, cfg, NoObserver)
}

/// Runs `algo` on `game` as `cfg` says, reporting every step to `obs` (see [`crate::trace`]).
pub fn search_observed<G: Game, O: Observer<G::Move>>(
    game: &G,
    algo: DepthFirst,
    cfg: &SearchConfig,
    obs: O,
) -> Outcome<G::Move> {
    let mut ctx = Ctx::with_observer(game, cfg, obs);
    let d = cfg.depth;
    let value = match algo {
        DepthFirst::Minimax => minimax::minimax(&mut ctx, game, d, 0),
        DepthFirst::AlphaBeta => alphabeta::fail_soft(&mut ctx, game, -INF, INF, d, 0),
        DepthFirst::AlphaBetaHard => alphabeta::fail_hard(&mut ctx, game, -INF, INF, d, 0),
        DepthFirst::Scout => scout::eval(&mut ctx, game, d, 0),
        DepthFirst::NegaScout => negascout::f4(&mut ctx, game, -INF, INF, d, 0),
        DepthFirst::NegaScoutMinimax => negascout::minimax_form(&mut ctx, game, -INF, INF, d, 0),
        DepthFirst::Pvs => pvs::pvs(&mut ctx, game, -INF, INF, d, 0),
    };
    // Negamax forms return (and record at the root) values from the root mover's view.
    let sign = if algo.is_negamax() {
        game.to_move().sign()
    } else {
        1
    };
    ctx.finish(sign * value, sign)
}

/// The state one search carries: counters, budget, the triangular PV table, the game's bounds,
/// the observer.
pub(crate) struct Ctx<M, O = NoObserver> {
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
    obs: O,
    /// The move to the child about to be entered (written only when the observer is active).
    pending: Option<M>,
}

impl<M: Copy> Ctx<M> {
    pub(crate) fn new<G: Game<Move = M>>(game: &G, cfg: &SearchConfig) -> Self {
        Ctx::with_observer(game, cfg, NoObserver)
    }
}

impl<M: Copy, O: Observer<M>> Ctx<M, O> {
    pub(crate) fn with_observer<G: Game<Move = M>>(game: &G, cfg: &SearchConfig, obs: O) -> Self {
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
            obs,
            pending: None,
        }
    }

    /// The next node entered is the child reached by `mv`.
    #[inline(always)]
    pub(crate) fn descend(&mut self, mv: M) {
        if O::ACTIVE {
            self.pending = Some(mv);
        }
    }

    /// Searches one node: reports entering it with `window`, runs `body`, and reports leaving
    /// it with what `leave` makes of the result — all built only when observed.
    #[inline(always)]
    pub(crate) fn observed<T: Copy>(
        &mut self,
        window: impl FnOnce() -> Window,
        body: impl FnOnce(&mut Self) -> T,
        leave: impl FnOnce(T) -> Event<M>,
    ) -> T {
        if O::ACTIVE && !self.budget.stopped {
            let mv = self.pending.take();
            self.obs.event(Event::Enter {
                mv,
                window: window(),
            });
        }
        let t = body(self);
        if O::ACTIVE && !self.budget.stopped {
            self.obs.event(leave(t));
        }
        t
    }

    /// [`Self::observed`] for a nega-max node of `mover` searched with `(alpha, beta)` (its
    /// view): window and result reported in MAX's view.
    #[inline(always)]
    pub(crate) fn negamax_node(
        &mut self,
        mover: Player,
        alpha: Score,
        beta: Score,
        body: impl FnOnce(&mut Self) -> Score,
    ) -> Score {
        self.observed(
            || Window::negamax(mover, alpha, beta),
            body,
            |t| {
                let (value, bound) = Bound::negamax(mover, t, alpha, beta);
                Event::Exit { value, bound }
            },
        )
    }

    /// [`Self::observed`] for a node searched without a window, whose result is exact
    /// (minimax, SCOUT's EVAL).
    #[inline(always)]
    pub(crate) fn exact_node(&mut self, body: impl FnOnce(&mut Self) -> Score) -> Score {
        self.observed(
            || Window::None,
            body,
            |value| Event::Exit {
                value,
                bound: Bound::Exact,
            },
        )
    }

    /// The node stops before the moves left in `rest` (reported only when some are left).
    #[inline(always)]
    pub(crate) fn cutoff(&mut self, rest: impl Iterator<Item = M>) {
        if O::ACTIVE && !self.budget.stopped {
            let pruned: Vec<M> = rest.collect();
            if !pruned.is_empty() {
                self.obs.event(Event::Cutoff { pruned });
            }
        }
    }

    /// Counts a re-search of the child just searched (and reports it).
    #[inline(always)]
    pub(crate) fn re_search(&mut self) {
        self.stats.re_searches += 1;
        if O::ACTIVE && !self.budget.stopped {
            self.obs.event(Event::ReSearch);
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
        let value = p.evaluate();
        if O::ACTIVE {
            self.obs.event(Event::Leaf { value });
        }
        value
    }

    /// Counts an interior node and clears its PV; true when the search is unwinding after a
    /// stop, and the caller must return at once (its value unused) rather than go down its
    /// first child — which, on a game that does not end, would go down without end.
    #[inline]
    #[must_use]
    pub(crate) fn interior(&mut self, ply: usize) -> bool {
        if self.budget.stopped {
            return true;
        }
        self.stats.interior += 1;
        self.ensure_ply(ply);
        self.pv[ply].clear();
        self.budget.exhausted(self.stats.nodes());
        false
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
                details: Details::None,
                error: None,
            }
        } else {
            Outcome {
                value: self.root_best.map(|(v, _)| sign * v),
                best_move: self.root_best.map(|(_, m)| m),
                pv: self.root_best.map(|(_, m)| vec![m]).unwrap_or_default(),
                complete,
                stats: self.stats,
                details: Details::None,
                error: None,
            }
        }
    }
}

/// Searches with the window `(alpha, beta)` (MAX's point of view) instead of `(-INF, INF)`:
/// aspiration windows, null windows `(m, m + 1)`, or testing fail-soft contracts. For the
/// fail-soft algorithms (`alphabeta`, `negascout`, `negascout-minimax`, `pvs`) the value `t`
/// returned is a true bound: `t <= alpha ⇒ V <= t`, `t >= beta ⇒ V >= t`, otherwise `V = t`;
/// for `alphabeta-hard` it is clamped to `[alpha, beta]`. SCOUT and minimax take no window.
///
/// ```
/// use gamesearch::{depth_first::{search_window, DepthFirst}, trees::ExplicitTree, SearchConfig};
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let cfg = SearchConfig::new(2);
/// let r = search_window(&tree.root(), DepthFirst::NegaScout, 5, 6, &cfg).unwrap();
/// assert!(r.value.unwrap() <= 5); // fails low: V(A) = 4 <= 5
/// ```
pub fn search_window<G: Game>(
    game: &G,
    algo: DepthFirst,
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
        DepthFirst::AlphaBeta => relative(root_max, alpha, beta, |a, b| {
            alphabeta::fail_soft(&mut ctx, game, a, b, d, 0)
        }),
        DepthFirst::AlphaBetaHard => relative(root_max, alpha, beta, |a, b| {
            alphabeta::fail_hard(&mut ctx, game, a, b, d, 0)
        }),
        DepthFirst::NegaScout => relative(root_max, alpha, beta, |a, b| {
            negascout::f4(&mut ctx, game, a, b, d, 0)
        }),
        DepthFirst::Pvs => relative(root_max, alpha, beta, |a, b| {
            pvs::pvs(&mut ctx, game, a, b, d, 0)
        }),
        DepthFirst::NegaScoutMinimax => negascout::minimax_form(&mut ctx, game, alpha, beta, d, 0),
        DepthFirst::Minimax | DepthFirst::Scout => {
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
