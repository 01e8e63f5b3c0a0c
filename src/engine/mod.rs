//! An anytime engine: "the best move within N milliseconds" for any game with a
//! [`PositionKey`].
//!
//! Iterative deepening over the depth-first search, depth 1, 2, 3, … until a budget (time,
//! nodes, depth or a stop flag) ends it. What each iteration leaves behind makes the next one
//! cheaper — the answer to Hsu's question "when iterative deepening is used, can we use previous
//! results?" (*Scout and NegaScout*):
//! - the transposition table (the exact solver's [`TranspositionTable`]) keeps bounds and the best
//!   move of every position searched, between iterations and between the moves of a game;
//! - the table's move is tried first, then the killer moves of the ply, then the rest by history
//!   ([`MoveOrder`]: generic, no game knowledge);
//! - the previous iteration's value centres the next one: an aspiration window for
//!   principal-variation search ([`Driver::Pvs`]), or the first guess of MTD(f) (Plaat et al.
//!   1996, [`Driver::Mtdf`]).
//!
//! Positions at the horizon are scored by the game's [`Heuristic`] (default: `f(p)`); finished
//! games by their result, as proven wins and losses (`WIN - plies`, so quicker wins score
//! higher), which end the deepening and are reported as "win in N" ([`Iteration::mate`]); so
//! are positions whose value an endgame database knows ([`Heuristic::proven_value`]).
//!
//! ```
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! use gamesearch::engine::{Engine, EngineConfig};
//! use gamesearch::Limits;
//! use std::time::Duration;
//!
//! let mut engine: Engine<Nim> = Engine::new(&EngineConfig::default()).unwrap();
//! // Three stones: take them all and win at once.
//! let t = engine.think(&Nim::new(3), &Limits::none().with_max_time(Duration::from_millis(100)), |_| {});
//! assert_eq!((t.mate, t.best_move), (Some(1), Some(3))); // win in 1 ply
//! // Seven stones: take 3, leave 4, win in 3 plies.
//! let t = engine.think(&Nim::new(7), &Limits::none().with_max_time(Duration::from_millis(100)), |_| {});
//! assert_eq!((t.mate, t.best_move), (Some(3), Some(3)));
//! ```

mod ordering;
mod search;
mod table;

use std::time::{Duration, Instant};

pub use ordering::MoveOrder;
pub use search::{ByPath, ByPosition, Keys, Plain, Playing, Scoring, HEURISTIC_MAX, PROVEN, WIN};
pub use table::{Table, WideTable};

use crate::error::Error;
use crate::game::{Adapter, Game, PositionKey, Score, INF};
use crate::limits::{Budget, Limits};
use crate::solver::table::TranspositionTable;
use crate::stats::Stats;
use search::{PlainToDepth, Searcher};

/// What the engine knows beyond the rules: a heuristic value for positions where it stops
/// searching (MAX's view, within `±HEURISTIC_MAX`). Default: the game's own `f(p)`. Like
/// [`crate::SolverKnowledge`], a game opts in with an empty `impl` and adapters forward it.
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::engine::Heuristic;
/// use gamesearch::Game;
/// // impl Heuristic for Nim {}: the default, the game's own f(p).
/// assert_eq!(Nim::new(6).heuristic(), Nim::new(6).evaluate());
/// assert_eq!(Nim::new(0).heuristic(), -1); // MAX faces an empty pile: lost
/// ```
///
/// Without the (empty) impl the engine does not compile, and the message names this trait:
/// "the engine needs `impl gamesearch::engine::Heuristic for Nim {}`".
///
/// ```compile_fail
/// use gamesearch::{Game, Player, Score};
/// #[derive(Clone, Copy)]
/// struct Nim { pile: u8, to_move: Player }
/// impl Game for Nim {
///     type Move = u8;
///     type Moves = std::iter::Take<std::ops::RangeInclusive<u8>>;
///     fn to_move(&self) -> Player { self.to_move }
///     fn moves(&self) -> Self::Moves { (1..=2).take(self.pile.min(2) as usize) }
///     fn play(&self, m: u8) -> Self { Nim { pile: self.pile - m, to_move: self.to_move.opponent() } }
///     fn evaluate(&self) -> Score { if self.pile == 0 { -self.to_move.sign() } else { 0 } }
/// }
/// impl gamesearch::PositionKey for Nim { fn key(&self) -> u64 { self.pile.into() } }
/// // error[E0277]: `Nim` lacks a trait this search needs … the engine needs `impl Heuristic`
/// let mut e: gamesearch::engine::Engine<Nim> =
///     gamesearch::engine::Engine::new(&Default::default()).unwrap();
/// ```
#[diagnostic::on_unimplemented(
    message = "the engine needs `{Self}: gamesearch::engine::Heuristic`",
    label = "needs `impl Heuristic for {Self} {{}}`",
    note = "add `impl gamesearch::engine::Heuristic for {Self} {{}}` (an empty impl uses `evaluate`, f(p))"
)]
pub trait Heuristic: Game {
    /// The position's heuristic value, MAX's view.
    fn heuristic(&self) -> Score {
        self.evaluate()
    }

    /// The position's exact game value (MAX's view) when it is known without a search — an
    /// endgame database's ([`crate::tablebase::Probed`]). Below the root the engine scores such
    /// a position as a finished game with that value: a proven win, loss or draw, `n` plies
    /// from the root ([`Iteration::mate`] then counts the plies to the database's position,
    /// not to the end of the game). Default: none.
    ///
    /// ```
    /// use gamesearch::engine::Heuristic;
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::tablebase::{Probed, Tables};
    /// use gamesearch::{solver::solve_alphabeta, SolveConfig};
    /// // Nim's class is its pile.
    /// let p = Nim::new(8);
    /// let mut tables = Tables::new(&p);
    /// for class in 0..=8 {
    ///     tables.build_class(class).unwrap();
    /// }
    /// assert_eq!(p.proven_value(), None);
    /// let cfg = SolveConfig { tt_bytes: 1 << 20, ..SolveConfig::default() };
    /// let exact = solve_alphabeta(&p, &cfg, |_| {}).unwrap().value;
    /// assert_eq!(Probed::new(p, &tables).proven_value(), exact);
    /// ```
    fn proven_value(&self) -> Option<Score> {
        None
    }
}

impl<A: Adapter> Heuristic for A
where
    A::Inner: Heuristic,
{
    fn heuristic(&self) -> Score {
        A::map_value(self.inner().heuristic())
    }

    fn proven_value(&self) -> Option<Score> {
        self.known_value()
            .or_else(|| self.inner().proven_value().map(A::map_value))
    }
}

/// How each iteration searches from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// Principal-variation search within an aspiration window of `±aspiration` around the
    /// previous iteration's value (widened to the full window on the side that fails).
    Pvs {
        /// Half-width of the window (0: the full window).
        aspiration: Score,
    },
    /// MTD(f): null-window searches from the previous iteration's value until the bounds meet.
    Mtdf,
}

/// How the engine is built and how far it may search.
///
/// ```
/// use gamesearch::engine::{Driver, EngineConfig};
/// let cfg = EngineConfig { driver: Driver::Mtdf, ..EngineConfig::default() };
/// assert_eq!(cfg.max_depth, 128);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct EngineConfig {
    /// Transposition table size in bytes (kept for the engine's life).
    pub tt_bytes: usize,
    /// The root driver.
    pub driver: Driver,
    /// The deepest iteration.
    pub max_depth: u32,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            tt_bytes: 16 << 20,
            driver: Driver::Pvs { aspiration: 16 },
            max_depth: 128,
        }
    }
}

/// One completed iteration, as the callback of [`Engine::think`] sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<M> {
    /// The depth searched.
    pub depth: u32,
    /// The value, MAX's view: a heuristic value, or `±(WIN - plies)` for a proven result.
    pub value: Score,
    /// A proven result for the side to move: `Some(n)` wins in `n` plies, `Some(-n)` loses in
    /// `n` plies.
    pub mate: Option<i32>,
    /// The best move and the line the search expects.
    pub pv: Vec<M>,
    /// Nodes searched so far (all iterations).
    pub nodes: u64,
    /// Table hits so far.
    pub tt_hits: u64,
    /// Time since the start of the search.
    pub elapsed: Duration,
}

/// What [`Engine::think`] decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought<M> {
    /// The move to play (`None` only when the game is over).
    pub best_move: Option<M>,
    /// The last completed iteration's value (MAX's view); see [`Iteration::value`].
    pub value: Option<Score>,
    /// See [`Iteration::mate`].
    pub mate: Option<i32>,
    /// The last completed iteration's principal variation (its first move is `best_move`
    /// unless the partial iteration proved a better one).
    pub pv: Vec<M>,
    /// The deepest completed iteration (0: none completed).
    pub depth: u32,
    /// Every completed iteration.
    pub iterations: Vec<Iteration<M>>,
    /// Counters over all iterations.
    pub stats: Stats,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// True when the search ended by itself (a proven result, a tree searched to its end, or
    /// the maximum depth), false when a budget cut it.
    pub complete: bool,
    /// Why the search could not go on, when it could not: an iteration's line deeper than the
    /// thread's stack allows ([`Error::LineTooDeep`]: a game that does not end). The move is
    /// then the last completed iteration's.
    pub error: Option<Error>,
}

impl<M> Thought<M> {
    /// Nodes per second over the whole search.
    pub fn nodes_per_second(&self) -> f64 {
        self.stats.nodes() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The engine: a table and move-ordering memory that survive between searches.
pub struct Engine<G: Game, S = Playing> {
    tt: TranspositionTable,
    order: MoveOrder<G::Move>,
    cfg: EngineConfig,
    scoring: std::marker::PhantomData<S>,
}

/// Converts a side-to-move score at the root to MAX's view.
fn max_view(p: &impl Game, s: Score) -> Score {
    p.to_move().sign() * s
}

/// `Some(±plies)` for a proven score (side to move's view).
fn mate_of(s: Score) -> Option<i32> {
    if s >= PROVEN {
        Some(WIN - s)
    } else if s <= -PROVEN {
        Some(-(WIN + s))
    } else {
        None
    }
}

// The scoring bound sits on each method, not on the impl: a game without `Heuristic` then
// gets the trait's own message ("add `impl Heuristic for …`") instead of one about `Adapter`.
impl<G: PositionKey, S> Engine<G, S> {
    /// An engine with a table of `cfg.tt_bytes`; [`Error::OutOfMemory`] when it cannot be had.
    pub fn new(cfg: &EngineConfig) -> Result<Self, Error>
    where
        S: Scoring<G>,
    {
        if cfg.max_depth == 0 {
            return Err(Error::BadParameter(
                "the engine's maximum depth must be at least 1".into(),
            ));
        }
        Ok(Engine {
            tt: TranspositionTable::try_with_bytes(cfg.tt_bytes)?,
            order: MoveOrder::new(),
            cfg: *cfg,
            scoring: std::marker::PhantomData,
        })
    }

    /// Forgets the table and the move-ordering memory (a new game; not needed between the
    /// moves of one game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.order.clear();
    }

    /// Deepens from `p` until `limits` end it, the maximum depth is reached, a result is
    /// proven, or the tree is searched to its end; calls `on_iteration` after each completed
    /// iteration. On a budget it returns the last completed iteration's move, value and PV —
    /// or the partial iteration's move where that one was proven better than the others.
    pub fn think(
        &mut self,
        p: &G,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> Thought<G::Move>
    where
        S: Scoring<G>,
    {
        let start = Instant::now();
        self.tt.new_search();
        self.order.age();
        let (limits, watch) = limits.watched();
        let mut s = Searcher::new(&mut self.tt, &mut self.order, Budget::new(&limits));
        let mut out = Thought {
            best_move: p.moves().next(),
            value: None,
            mate: None,
            pv: Vec::new(),
            depth: 0,
            iterations: Vec::new(),
            stats: Stats::default(),
            elapsed: Duration::ZERO,
            complete: false,
            error: None,
        };
        if out.best_move.is_none() {
            out.complete = true;
            return out;
        }
        let key = ByPosition::root(p);
        let mut prev: Option<Score> = None;
        for depth in 1..=self.cfg.max_depth {
            let horizon_before = s.horizon_hits;
            s.root_best = None;
            let (value, pv) = match self.cfg.driver {
                Driver::Pvs { aspiration } => {
                    let v = Self::aspiration(&mut s, p, key, prev, aspiration, depth);
                    (v, s.pv().to_vec())
                }
                Driver::Mtdf => {
                    let guess = prev.unwrap_or(0);
                    let v = s.mtdf::<ByPosition, S>(p, guess, depth);
                    let pv = if s.budget.stopped {
                        Vec::new()
                    } else {
                        s.pv_by_tests::<ByPosition, S>(p, v, depth)
                    };
                    (v, pv)
                }
            };
            if s.budget.stopped {
                // A stopped PVS iteration: its best move counts only if it was searched to the
                // end and beat the previous best, searched first (so also to the end). (An MTD(f)
                // pass's root values are bounds around its test value: no such proof.)
                let pvs = matches!(self.cfg.driver, Driver::Pvs { .. });
                if let (true, Some((mv, v)), Some(prev_v)) = (pvs, s.root_best, prev) {
                    if v > prev_v && Some(mv) != out.best_move {
                        out.best_move = Some(mv);
                        out.pv = vec![mv];
                    }
                }
                break;
            }
            let pv = if !pv.is_empty() {
                pv
            } else {
                s.root_best.map(|(m, _)| vec![m]).unwrap_or_default()
            };
            let it = Iteration {
                depth,
                value: max_view(p, value),
                mate: mate_of(value),
                pv: pv.clone(),
                nodes: s.stats.nodes(),
                tt_hits: s.stats.tt_hits,
                elapsed: start.elapsed(),
            };
            on_iteration(&it);
            out.best_move = pv.first().copied().or(out.best_move);
            out.value = Some(it.value);
            out.mate = it.mate;
            out.pv = pv;
            out.depth = depth;
            out.iterations.push(it);
            prev = Some(value);
            if out.mate.is_some() || s.horizon_hits == horizon_before {
                out.complete = true;
                break;
            }
            if depth == self.cfg.max_depth {
                out.complete = true;
            }
        }
        out.stats = s.stats;
        out.elapsed = start.elapsed();
        out.error = watch.error();
        out.complete &= out.error.is_none();
        out
    }

    /// PVS from the root within `prev ± width`, widened on the side that fails.
    fn aspiration(
        s: &mut Searcher<'_, G, TranspositionTable>,
        p: &G,
        key: u64,
        prev: Option<Score>,
        width: Score,
        depth: u32,
    ) -> Score
    where
        S: Scoring<G>,
    {
        let (mut alpha, mut beta) = match prev {
            Some(v) if width > 0 && v.abs() < PROVEN => (v - width, v + width),
            _ => (-INF, INF),
        };
        loop {
            let v = s.node::<ByPosition, S>(p, key, alpha, beta, depth, 0);
            if s.budget.stopped {
                return v;
            }
            if v <= alpha && alpha > -INF {
                alpha = -INF;
            } else if v >= beta && beta < INF {
                beta = INF;
            } else {
                return v;
            }
            s.stats.re_searches += 1;
        }
    }
}

/// MTD(f) to a fixed depth on any game (the `mtdf` algorithm of [`crate::search()`]): a table
/// keyed by path (no [`PositionKey`] needed; transpositions are not merged), `f(p)` at every
/// leaf, so the value is the minimax value of the depth-limited tree. The PV is found with one
/// null-window test per child tried along it (not counted in the statistics).
///
/// ```
/// use gamesearch::{engine::mtdf_to_depth, trees::RandomTreeSpec, search, Algorithm, Limits, SearchConfig};
/// let root = RandomTreeSpec::new(4, 6, 3).root().unwrap();
/// let m = mtdf_to_depth(&root, 6, &Limits::none());
/// assert_eq!(m.value, search(&root, Algorithm::Minimax, &SearchConfig::new(6)).value);
/// assert_eq!(m.pv.len(), 6);
/// ```
pub fn mtdf_to_depth<G: Game>(
    game: &G,
    depth: u32,
    limits: &Limits,
) -> crate::outcome::Outcome<G::Move> {
    mtdf_to_depth_observed(game, depth, limits, &mut crate::observe::NoObserver)
}

/// [`mtdf_to_depth`] with a table keyed by position ([`PositionKey`]): transpositions share an
/// entry, so a game that reaches one position by several orders of moves (Connect-Four,
/// tic-tac-toe) searches it once per pass. The value is the same; the nodes fewer (on ten
/// Connect-Four middle-game positions to depth 9, about half). The key must tell apart
/// positions whose depth-limited trees differ (the side to move included).
///
/// ```
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// use gamesearch::engine::{mtdf_to_depth, mtdf_to_depth_by_position};
/// use gamesearch::Limits;
/// let p = Nim::new(30); // 3^8 lines to depth 8, far fewer piles
/// let by_path = mtdf_to_depth(&p, 8, &Limits::none());
/// let by_position = mtdf_to_depth_by_position(&p, 8, &Limits::none());
/// assert_eq!(by_position.value, by_path.value);
/// assert!(by_position.stats.nodes() < by_path.stats.nodes());
/// ```
pub fn mtdf_to_depth_by_position<G: PositionKey>(
    game: &G,
    depth: u32,
    limits: &Limits,
) -> crate::outcome::Outcome<G::Move> {
    mtdf_keyed::<ByPosition, G, _>(game, depth, limits, &mut crate::observe::NoObserver)
}

/// [`mtdf_to_depth`] reporting every step to `obs` (see [`crate::trace`]); the PV's tests are
/// not reported (nor counted).
pub fn mtdf_to_depth_observed<G: Game, O: crate::observe::Observer<G::Move>>(
    game: &G,
    depth: u32,
    limits: &Limits,
    obs: &mut O,
) -> crate::outcome::Outcome<G::Move> {
    mtdf_keyed::<ByPath, G, O>(game, depth, limits, obs)
}

/// MTD(f) to `depth` with the table keyed by `K`.
fn mtdf_keyed<K: Keys<G>, G: Game, O: crate::observe::Observer<G::Move>>(
    game: &G,
    depth: u32,
    limits: &Limits,
    obs: &mut O,
) -> crate::outcome::Outcome<G::Move> {
    // A table about the size of the tree's interior (the root's branching to depth - 1), 256
    // to 2^20 entries (24 MiB), with full i32 bounds: f(p) may have any range.
    let b = game.moves().count().max(2) as u64;
    let entries = b
        .checked_pow(depth.saturating_sub(1))
        .unwrap_or(u64::MAX)
        .min(1 << 20);
    let mut tt = WideTable::with_entries((entries as usize).max(256));
    let mut order = MoveOrder::new();
    let (limits, watch) = limits.watched();
    let mut s = Searcher::with_observer(&mut tt, &mut order, Budget::new(&limits), obs);
    let guess = game.to_move().sign() * game.evaluate();
    let v = s.mtdf::<K, PlainToDepth>(game, guess, depth);
    let error = watch.error();
    let complete = !s.budget.stopped && error.is_none();
    let pv = if complete {
        s.pv_by_tests::<K, PlainToDepth>(game, v, depth)
    } else {
        Vec::new()
    };
    let best_move = if complete {
        pv.first().copied()
    } else {
        s.root_best.map(|(m, _)| m)
    };
    let sign = game.to_move().sign();
    crate::outcome::Outcome {
        // Stopped: the value of the best root move of the pass in progress (a bound), as the
        // other algorithms report.
        value: if complete {
            Some(sign * v)
        } else if error.is_some() {
            None
        } else {
            s.root_best.map(|(_, v)| sign * v)
        },
        best_move,
        pv,
        complete,
        stats: s.stats,
        details: crate::outcome::Details::None,
        error,
    }
}

/// Engines for tests and benchmarks that want the exact depth-limited minimax value at every
/// iteration: [`Plain`] scoring.
pub type PlainEngine<G> = Engine<G, Plain>;
