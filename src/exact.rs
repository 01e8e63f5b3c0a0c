//! The front door to solve, beside [`crate::search()`]'s to search: one [`Method`] naming every
//! exact solver — alpha-beta with a table ([`crate::solver`]), tree PN and df-pn, binary or
//! multi-valued ([`crate::proof_number`]) — one [`solve`] that runs any of them to the end of the
//! game, one [`Solution`] they all return (value or proven bounds, best move, complete or
//! stopped, proof checked or not, counters). The specialised entry points stay public for those
//! who need their own types.
//!
//! ```
//! use gamesearch::exact::{solve, Method};
//! use gamesearch::{trees::ExplicitTree, SolveConfig};
//! let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
//! let cfg = SolveConfig { tt_bytes: 16 << 20, ..SolveConfig::default() };
//! for method in Method::ALL {
//!     let s = solve(&t.root(), method, &cfg).unwrap();
//!     assert_eq!((s.bounds, s.complete), ((0, 0), true), "{method}"); // a draw
//! }
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::proof_number::dfpn::{self, DfpnConfig};
use crate::proof_number::{self, Answer, Informed, Initial, PnConfig};
use crate::report::SolveReport;
use crate::solver::{self, Progress, Solution, SolveConfig, SolverKnowledge};

/// Every exact solver, by its command-line name.
///
/// ```
/// use gamesearch::exact::Method;
/// assert_eq!("dfpn-multi".parse::<Method>().unwrap(), Method::DfpnMulti);
/// assert_eq!(format!("{:>14}", Method::AlphaBetaTt), "  alphabeta-tt");
/// assert!("dfs".parse::<Method>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Alpha-beta with a transposition table to the end of the game, iterative deepening for
    /// move ordering, null-window tests for the value ([`crate::solver`]).
    AlphaBetaTt,
    /// Binary proof-number search: win, draw or loss (the tree in memory).
    Pn,
    /// Multi-valued proof-number search: the exact value.
    PnMulti,
    /// Depth-first proof-number search over a fixed table: win, draw or loss.
    Dfpn,
    /// Multi-valued df-pn: the exact value, one table for every threshold.
    DfpnMulti,
}

impl Method {
    /// Every method, in the order the command line lists them.
    pub const ALL: [Method; 5] = [
        Method::AlphaBetaTt,
        Method::Pn,
        Method::PnMulti,
        Method::Dfpn,
        Method::DfpnMulti,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Method::AlphaBetaTt => "alphabeta-tt",
            Method::Pn => "pn",
            Method::PnMulti => "pn-multi",
            Method::Dfpn => "dfpn",
            Method::DfpnMulti => "dfpn-multi",
        }
    }

    /// Whether it finds only win, draw or loss (not the margin).
    pub fn is_binary(self) -> bool {
        matches!(self, Method::Pn | Method::Dfpn)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Method {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                Error::BadParameter(format!(
                    "unknown solver `{s}`; known: {}",
                    Method::ALL.map(Method::name).join(", ")
                ))
            })
    }
}

/// Solves `game` to the end with `method`.
///
/// ```
/// use gamesearch::exact::{solve, Method};
/// use gamesearch::{trees::ExplicitTree, SolveConfig};
/// let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
/// let s = solve(&t.root(), Method::Dfpn, &SolveConfig::default()).unwrap();
/// assert_eq!((s.value, s.complete), (Some(0), true)); // a draw
/// ```
pub fn solve<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    method: Method,
    cfg: &SolveConfig,
) -> Result<Solution<G::Move>, Error> {
    solve_with(game, method, cfg, |_| {})
}

/// [`solve`], calling `progress` as the proven bounds move: after every deepening pass and
/// null-window test (alpha-beta), every threshold (df-pn); tree PN reports at its end.
///
/// ```
/// use gamesearch::exact::{solve_with, Method};
/// use gamesearch::{trees::ExplicitTree, SolveConfig};
/// let t = ExplicitTree::parse("(max (min 3 -5) (min 6 9) (min -2 7))").unwrap();
/// let mut steps = Vec::new();
/// let cfg = SolveConfig { check: true, ..SolveConfig::default() };
/// let s = solve_with(&t.root(), Method::DfpnMulti, &cfg, |p| {
///     steps.push((p.lower, p.upper))
/// })
/// .unwrap();
/// assert_eq!(s.value, Some(6));
/// assert!(s.proof_nodes.is_some()); // the last answer's proof passed the checker
/// assert_eq!(steps.last(), Some(&(6, 6)));
/// ```
pub fn solve_with<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    method: Method,
    cfg: &SolveConfig,
    mut progress: impl FnMut(&Progress),
) -> Result<Solution<G::Move>, Error> {
    let start = Instant::now();
    // A line deeper than a solver can follow (a game that does not end) is an error.
    let (limits, watch) = cfg.limits.watched();
    let cfg = &SolveConfig {
        limits,
        ..cfg.clone()
    };
    let s = match method {
        Method::AlphaBetaTt => solver::solve_alphabeta(game, cfg, progress),
        Method::Pn | Method::PnMulti if G::REPEATS => Err(Error::Repeats {
            method: method.name(),
            instead: "alphabeta-tt, dfpn or dfpn-multi",
        }),
        Method::Pn | Method::PnMulti => {
            let pn = PnConfig {
                max_memory: cfg.max_memory,
                limits: cfg.limits.clone(),
                ..PnConfig::new(u32::MAX)
            };
            proof_number::validate(&pn)?;
            // The tree search reads only `Game`: the game's solver knowledge comes in as the
            // informed game's moves and ends, as df-pn and alpha-beta read it.
            let informed = Informed::new(game.clone());
            let s = proof_number::solution(&informed, &pn, method == Method::PnMulti);
            progress(&Progress {
                lower: s.bounds.0,
                upper: s.bounds.1,
                phase: "proof tree",
                depth: 0,
                nodes: s.stats.nodes(),
                elapsed: start.elapsed(),
            });
            Ok(s)
        }
        Method::Dfpn | Method::DfpnMulti => {
            let d = DfpnConfig {
                tt_bytes: cfg.tt_bytes,
                epsilon: cfg.epsilon,
                focus: cfg.focus.or(G::DFPN_FOCUS),
                initial: if cfg.mobility {
                    Initial::Mobility
                } else {
                    Initial::Unit
                },
                limits: cfg.limits.clone(),
                ..DfpnConfig::default()
            };
            // The bounds each threshold proves: V >= v, or V < v.
            let (mut lo, mut hi): (Score, Score) =
                game.value_bounds().unwrap_or(crate::game::VALUE_RANGE);
            let multi = method == Method::DfpnMulti;
            let s = dfpn::solve(game, &d, multi, cfg.check, |r| {
                match r.answer {
                    Answer::Proven => lo = lo.max(r.threshold),
                    Answer::Disproven => hi = hi.min(r.threshold - 1),
                    Answer::Unknown => {}
                }
                progress(&Progress {
                    lower: lo,
                    upper: hi,
                    phase: "threshold",
                    depth: 0,
                    nodes: r.stats.nodes(),
                    elapsed: start.elapsed(),
                });
            })?;
            Ok(s.into_solution())
        }
    };
    if let Some(e) = watch.error() {
        return Err(e);
    }
    let mut s = s?;
    if cfg.best_move && s.complete && s.best_move.is_none() {
        s.best_move = keeping_move(game, method, cfg, &s);
    }
    // Remoteness counts plies to an end: where a repetition is worth more than a draw, a win
    // may rest on endless play and have none.
    if G::REPEATS && s.complete && game.repetition_value() == 0 {
        let winner = match s.bounds {
            (lo, _) if lo > 0 => Some(Player::Max),
            (_, hi) if hi < 0 => Some(Player::Min),
            _ => None,
        };
        if let Some(winner) = winner {
            s.remoteness = remoteness(game, winner, cfg);
        }
    }
    Ok(s)
}

/// A game seen only for its ends: a position with no move is worth the sign of its value, any
/// other 0 (a horizon is no end). What [`remoteness`] searches.
#[derive(Clone)]
struct EndsOnly<G>(G);

impl<G: Game> Game for EndsOnly<G> {
    type Move = G::Move;
    type Moves = G::Moves;
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn moves(&self) -> G::Moves {
        self.0.moves()
    }
    fn play(&self, m: G::Move) -> Self {
        EndsOnly(self.0.play(m))
    }
    fn evaluate(&self) -> Score {
        if self.0.moves().next().is_none() {
            self.0.evaluate().signum()
        } else {
            0
        }
    }
    const REPEATS: bool = G::REPEATS;
}

impl<G: PositionKey> PositionKey for EndsOnly<G> {
    fn key(&self) -> u64 {
        self.0.key()
    }
}

impl<G: PositionKey> SolverKnowledge for EndsOnly<G> {}

/// The remoteness of `game`, won by `winner`: the fewest plies `d` in which the winner forces
/// an end it wins, the game cut at `d` plies (df-pn at `d` = 1, 2, …, each with its own
/// table). Under perfect play that is the winner's shortest win against the loser's longest
/// defence — retrograde analysis' remoteness: a win in `d` never repeats a position (each step
/// brings the end nearer), so a repetition, worth no more than a draw, is no way out of it.
/// `None` when a budget stops it.
fn remoteness<G: PositionKey + SolverKnowledge>(
    game: &G,
    winner: Player,
    cfg: &SolveConfig,
) -> Option<u32> {
    if game.moves().next().is_none() {
        return Some(0);
    }
    let root = EndsOnly(game.clone());
    for depth in 1..=u32::from(u16::MAX) {
        let d = DfpnConfig {
            tt_bytes: cfg.tt_bytes.min(64 << 20),
            depth,
            limits: cfg.limits.clone(),
            ..DfpnConfig::default()
        };
        let mut dfpn = dfpn::Dfpn::new(&d).ok()?;
        // MAX wins by d: V >= 1 proven; MIN wins by d: V >= 0 disproven.
        let r = dfpn.prove(&root, i32::from(winner == Player::Max));
        match (winner, r.answer) {
            (Player::Max, Answer::Proven) | (Player::Min, Answer::Disproven) => return Some(depth),
            (_, Answer::Unknown) => return None,
            _ => {}
        }
    }
    None
}

/// A move that keeps the proven result `s` of `game`, found by solving the children in turn
/// with the same method: for a root that the solver settled without searching any move (the
/// game's knowledge answered at the root, a proof-number tree of one node). A solver that
/// proves a result names a move that keeps it.
fn keeping_move<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    method: Method,
    cfg: &SolveConfig,
    s: &Solution<G::Move>,
) -> Option<G::Move> {
    let child_cfg = SolveConfig {
        best_move: false,
        ..cfg.clone()
    };
    let (lo, hi) = s.bounds;
    for m in game.moves() {
        let c = solve_with(&game.play(m), method, &child_cfg, |_| {}).ok()?;
        if !c.complete {
            return None;
        }
        // The child proves at least what the root does, for the side choosing.
        let keeps = match game.to_move() {
            Player::Max => c.bounds.0 >= lo,
            Player::Min => c.bounds.1 <= hi,
        };
        if keeps {
            return Some(m);
        }
    }
    None
}

/// [`solve_with`] with the moves named and the time taken: what `gamesearch solve` prints.
///
/// ```
/// use gamesearch::exact::{solve_report, Method};
/// use gamesearch::{trees::ExplicitTree, SolveConfig};
/// let t = ExplicitTree::parse("(max (min 3 -5) (min 6 9) (min -2 7))").unwrap();
/// let r = solve_report(&t.root(), Method::PnMulti, &SolveConfig::default(), |_| {}).unwrap();
/// assert_eq!((r.value, r.outcome, r.algo.as_str()), (Some(6), Some("win"), "pn-multi"));
/// ```
pub fn solve_report<G: PositionKey + SolverKnowledge + Sync>(
    game: &G,
    method: Method,
    cfg: &SolveConfig,
    progress: impl FnMut(&Progress),
) -> Result<SolveReport, Error> {
    let start = Instant::now();
    let s = solve_with(game, method, cfg, progress)?;
    Ok(s.report(game, method.name(), start.elapsed().as_secs_f64() * 1e3))
}
