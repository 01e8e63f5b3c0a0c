//! `gamesearch._core`: the Python face of the Rust library, kept thin — it parses what Python
//! passes, calls the library's front doors (`search`, `exact::solve_report`) with the GIL
//! released, and turns their reports into Python objects. No search logic lives here.
//!
//! A `Game` is its spec and the moves played from it (move names, as the command line prints
//! them); each call rebuilds the position from them, so a `Game` is an immutable value that is
//! cheap to copy and safe to share between threads.

// `with_position!` clones each game's position into the work run without the GIL; for most
// games that clone is a copy.
#![allow(clippy::clone_on_copy)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use gamesearch::exact::{self, Method};
use gamesearch::{Algorithm, Game as _, Limits, MctsParams, SearchConfig, SolveConfig};
use gamesearch_cli::play::Board;
use gamesearch_games::GameSpec;
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod book;
mod protocol;
mod solver;
mod split;

create_exception!(
    gamesearch,
    GameSearchError,
    PyValueError,
    "Bad input to gamesearch: an unknown game or algorithm, an illegal move, an impossible parameter."
);

pub(crate) fn bad(e: impl std::fmt::Display) -> PyErr {
    GameSearchError::new_err(e.to_string())
}

/// Binds `$g` to the position of `$game` (its spec with its moves played) and evaluates `$body`,
/// monomorphised per game as the command line does.
macro_rules! with_position {
    ($game:expr, $g:ident => $body:expr) => {{
        let game: &Game = $game;
        let spec: GameSpec = game.spec.parse().map_err(bad)?;
        match spec {
            GameSpec::Random(r) => {
                let root = r.root().map_err(bad)?;
                let $g = &replay(&root, &game.moves)?;
                $body
            }
            GameSpec::Tree(t) => {
                let $g = &replay(&t.root(), &game.moves)?;
                $body
            }
            GameSpec::Kalah(k) => {
                let $g = &replay(&k, &game.moves)?;
                $body
            }
            GameSpec::TicTacToe(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
            GameSpec::Connect4(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
            GameSpec::Connect4Wide(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
            GameSpec::Othello(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
            GameSpec::Domineering(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
            GameSpec::Hex(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
            GameSpec::Dobutsu(p) => {
                let $g = &replay(&p, &game.moves)?;
                $body
            }
        }
    }};
}

/// `start` with the moves named in `moves` played, or an error naming the illegal one.
pub(crate) fn replay<G: gamesearch::Game>(start: &G, moves: &[String]) -> PyResult<G> {
    let mut p = start.clone();
    for (i, name) in moves.iter().enumerate() {
        let mv = p
            .moves()
            .find(|&m| p.move_name(m) == *name)
            .ok_or_else(|| {
                let legal: Vec<String> = p.moves().map(|m| p.move_name(m)).collect();
                bad(format!(
                    "move {} `{name}` is not legal here; legal moves: {}",
                    i + 1,
                    if legal.is_empty() {
                        "none (the game is over)".to_string()
                    } else {
                        legal.join(" ")
                    }
                ))
            })?;
        p = p.play(mv);
    }
    Ok(p)
}

/// A game position: a `GAME` spec as the command line takes it, and the moves played from it.
#[pyclass(frozen, module = "gamesearch._core")]
#[derive(Clone)]
pub(crate) struct Game {
    pub(crate) spec: String,
    pub(crate) moves: Vec<String>,
}

#[pymethods]
impl Game {
    #[new]
    fn new(spec: &str) -> PyResult<Self> {
        let g = Game {
            spec: spec.to_string(),
            moves: Vec::new(),
        };
        with_position!(&g, _p => ());
        Ok(g)
    }

    /// The spec this game started from.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The rule set where the game's name leaves it open — Kalah's capture rule
    /// (`"kalah:6,4"` is Irving et al.'s empty-capture rule, `"kalah:6,4:standard"` the standard
    /// one) — in one line; `None` for the other games.
    #[getter]
    fn rules(&self) -> PyResult<Option<&'static str>> {
        Ok(self.spec.parse::<GameSpec>().map_err(bad)?.rules_note())
    }

    /// The moves played since the spec, by name.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// The legal moves, by name (empty when the game is over).
    fn moves(&self) -> PyResult<Vec<String>> {
        with_position!(self, p => Ok(p.moves().map(|m| p.move_name(m)).collect()))
    }

    /// The game after `move` (a name from `moves()`; an int is taken as its name).
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Game> {
        let name = r#move.str()?.to_string();
        let mut next = self.clone();
        next.moves.push(name);
        with_position!(&next, _p => ());
        Ok(next)
    }

    /// +1 when MAX (the first player) moves, -1 for MIN: what a game written in Python returns
    /// (so a shipped game can stand where the protocol asks for one).
    fn to_move(&self) -> PyResult<i32> {
        with_position!(self, p => Ok(p.to_move().sign()))
    }

    /// Whether the game is over (no legal move).
    fn is_over(&self) -> PyResult<bool> {
        with_position!(self, p => Ok(p.moves().next().is_none()))
    }

    /// `f(p)`: the value from the first player's view (exact when the game is over).
    fn evaluate(&self) -> PyResult<i32> {
        with_position!(self, p => Ok(p.evaluate()))
    }

    /// The board as the command line draws it (trees and random trees have none to draw).
    fn __str__(&self) -> PyResult<String> {
        Ok(match self.spec.parse::<GameSpec>().map_err(bad)? {
            GameSpec::Connect4(p) => replay(&p, &self.moves)?.board(),
            GameSpec::Connect4Wide(p) => replay(&p, &self.moves)?.board(),
            GameSpec::Kalah(p) => replay(&p, &self.moves)?.board(),
            GameSpec::TicTacToe(p) => replay(&p, &self.moves)?.board(),
            GameSpec::Othello(p) => replay(&p, &self.moves)?.board(),
            GameSpec::Domineering(p) => replay(&p, &self.moves)?.board(),
            GameSpec::Hex(p) => replay(&p, &self.moves)?.board(),
            GameSpec::Dobutsu(p) => replay(&p, &self.moves)?.to_string(),
            GameSpec::Random(_) | GameSpec::Tree(_) => format!(
                "{} after {} moves (a tree: no board to draw)",
                self.spec,
                self.moves.len()
            ),
        })
    }

    fn __repr__(&self) -> String {
        if self.moves.is_empty() {
            format!("Game({:?})", self.spec)
        } else {
            format!("Game({:?}).play(…{} moves)", self.spec, self.moves.len())
        }
    }

    fn __eq__(&self, other: &Game) -> bool {
        self.spec == other.spec && self.moves == other.moves
    }
}

/// How often Python's thread wakes to look for Ctrl-C while a search runs: rarely enough not to
/// disturb the search's core, often enough that a stop feels at once (L1_R2 first 100 through
/// `Solver`, alternated: a 200 ms poll 82.9 ms a position, 20 ms 85.1).
const POLL_MS: u64 = 100;

/// Runs `job` on a thread of its own with the GIL released, while this (Python's) thread checks
/// for Ctrl-C every [`POLL_MS`]: a KeyboardInterrupt raises `stop`, the search ends cleanly with
/// its result so far, and the caller learns it was interrupted.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    job: impl FnOnce() -> T + Send,
) -> PyResult<(T, bool)> {
    let mut interrupted = false;
    let out = py.allow_threads(|| {
        std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel();
            // A deep stack: a Python game may go PLY_LIMIT plies deep.
            let worker = std::thread::Builder::new()
                .name("gamesearch".into())
                .stack_size(protocol::STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let v = job();
                    let _ = done.send(());
                    v
                })?;
            // Wakes as soon as the job is done, else every POLL_MS to look for a signal.
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                finished.recv_timeout(Duration::from_millis(POLL_MS))
            {
                if !interrupted && Python::with_gil(|py| py.check_signals()).is_err() {
                    interrupted = true;
                    stop.store(true, Ordering::Relaxed);
                }
            }
            Ok::<_, std::io::Error>(worker.join())
        })
    });
    match out {
        Ok(Ok(v)) => Ok((v, interrupted)),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => Err(bad(format!("could not start the search's thread: {e}"))),
    }
}

/// The stop flag of the search running on Python's main thread, for [`on_sigint`].
static SIGINT_STOP: std::sync::atomic::AtomicPtr<AtomicBool> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

extern "C" fn on_sigint(_: libc::c_int) {
    // Async-signal-safe: one atomic load and one atomic store.
    let flag = SIGINT_STOP.load(Ordering::SeqCst);
    if !flag.is_null() {
        // SAFETY: the pointer is set only while `on_this_thread` holds the Arc it points into.
        unsafe { (*flag).store(true, Ordering::SeqCst) };
    }
}

/// Runs `job` on this thread with the GIL released — no thread of its own, so the search runs
/// exactly as the command line runs it (the worker thread cost 5-8 % on L1_R2) — catching Ctrl-C
/// with a SIGINT handler of its own for the job's duration. Only on Python's main thread, and only
/// while Python's own handler is the default one (a handler the user installed is left alone):
/// elsewhere, [`interruptible`].
pub(crate) fn on_this_thread<T: Send>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    job: impl FnOnce() -> T + Send,
) -> PyResult<(T, bool)> {
    #[cfg(unix)]
    {
        let threading = py.import("threading")?;
        let main = threading
            .call_method0("current_thread")?
            .is(&threading.call_method0("main_thread")?);
        let signal = py.import("signal")?;
        let default = signal
            .call_method1("getsignal", (libc::SIGINT,))?
            .is(&signal.getattr("default_int_handler")?);
        if main && default && SIGINT_STOP.load(Ordering::SeqCst).is_null() {
            // SAFETY: sigaction with a handler that only touches atomics; the old action is
            // restored before returning.
            let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
            let mut new: libc::sigaction = unsafe { std::mem::zeroed() };
            new.sa_sigaction = on_sigint as *const () as usize;
            SIGINT_STOP.store(Arc::as_ptr(stop) as *mut AtomicBool, Ordering::SeqCst);
            if unsafe { libc::sigaction(libc::SIGINT, &new, &mut old) } == 0 {
                let out = py.allow_threads(job);
                unsafe { libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut()) };
                SIGINT_STOP.store(std::ptr::null_mut(), Ordering::SeqCst);
                return Ok((out, stop.load(Ordering::SeqCst)));
            }
            SIGINT_STOP.store(std::ptr::null_mut(), Ordering::SeqCst);
        }
    }
    interruptible(py, stop, job)
}

/// The result as a dict, or, after Ctrl-C, a KeyboardInterrupt carrying it (`args[1]`).
pub(crate) fn finish<'py>(
    py: Python<'py>,
    v: serde_json::Value,
    interrupted: bool,
) -> PyResult<Bound<'py, PyDict>> {
    finish_dict(to_dict(py, &v)?, interrupted)
}

/// The result dict, or, after Ctrl-C, a KeyboardInterrupt carrying it.
fn finish_dict(d: Bound<'_, PyDict>, interrupted: bool) -> PyResult<Bound<'_, PyDict>> {
    if interrupted {
        return Err(PyKeyboardInterrupt::new_err((
            "interrupted: the result so far is the exception's second argument",
            d.unbind(),
        )));
    }
    Ok(d)
}

/// Node and time budgets as the library's limits, with the stop flag Ctrl-C raises.
pub(crate) fn limits(
    max_nodes: Option<u64>,
    max_time: Option<f64>,
    stop: &Arc<AtomicBool>,
) -> PyResult<Limits> {
    let mut l = Limits::none().with_stop_flag(stop.clone());
    if let Some(n) = max_nodes {
        if n == 0 {
            return Err(bad("max_nodes must be at least 1"));
        }
        l = l.with_max_nodes(n);
    }
    if let Some(t) = max_time {
        if !(t > 0.0 && t <= 1e9) {
            return Err(bad(
                "max_time must be a positive number of seconds (at most 1e9)",
            ));
        }
        l = l.with_max_time(Duration::from_secs_f64(t));
    }
    Ok(l)
}

/// A JSON-able report as a Python dict (through serde_json: one description of every field).
fn to_dict<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyDict>> {
    let json = py.import("json")?;
    let text = serde_json::to_string(v).map_err(bad)?;
    json.call_method1("loads", (text,))?
        .downcast_into()
        .map_err(Into::into)
}

/// The horizon of a search of `depth` on `game` (see `GameSpec::horizon`).
fn horizon(game: &Game, depth: Option<u32>) -> PyResult<u32> {
    let spec: GameSpec = game.spec.parse().map_err(bad)?;
    spec.horizon(depth)
        .ok_or_else(|| bad("this game needs a horizon: give depth=D (or use solve())"))
}

/// The depth of a search of a game written in Python: `depth`, or to the end of the game.
fn python_depth(depth: Option<u32>) -> PyResult<u32> {
    if depth == Some(0) {
        return Err(bad("depth must be at least 1"));
    }
    Ok(depth.unwrap_or(u32::MAX))
}

/// Searches `game` with `algo` to `depth` (the whole tree where it is finite). `game` is a
/// `Game` (the GIL released while it runs) or an object of the game protocol (see `protocol`:
/// the Rust algorithm drives its methods on a thread that holds the GIL, while Python's thread
/// watches for Ctrl-C).
///
/// MCTS (`mcts`, `mcts-solver`) takes `seed` and `exploration` (UCT's C), runs to the end of
/// the game unless `depth` is given, and counts `max_nodes` as playouts; a game written in
/// Python is played out by its own `moves()` and `play()`. On a `Game`, `threads` threads
/// share it, `parallel` saying how (`"root"`: a tree each; `"tree"`, the default but for
/// PN-MCTS: one tree, no lock).
#[pyfunction]
#[pyo3(signature = (game, algo = "negascout", depth = None, max_nodes = None, max_time = None, seed = 1, exploration = std::f64::consts::SQRT_2, threads = 1, parallel = None))]
#[allow(clippy::too_many_arguments)]
fn search<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    algo: &str,
    depth: Option<u32>,
    max_nodes: Option<u64>,
    max_time: Option<f64>,
    seed: u64,
    exploration: f64,
    threads: usize,
    parallel: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let parallel = match parallel {
        None => None,
        Some("root") => Some(gamesearch::mcts::Parallel::Root),
        Some("tree") => Some(gamesearch::mcts::Parallel::Tree),
        Some(other) => {
            return Err(bad(format!(
                "parallel must be \"root\" or \"tree\", not {other:?}"
            )))
        }
    };
    let algorithm = match algo.parse::<Algorithm>().map_err(bad)? {
        Algorithm::Mcts(p) => {
            let p = MctsParams {
                exploration,
                seed,
                threads,
                parallel: parallel.unwrap_or(p.parallel),
                ..p
            };
            // The library's own refusals (a bad constant, PN-MCTS on one shared tree, …).
            p.check().map_err(bad)?;
            Algorithm::Mcts(p)
        }
        _ if threads != 1 => {
            return Err(bad(
                "threads are MCTS's: give algo=\"mcts\" (or mcts-solver, pn-mcts)",
            ))
        }
        other => other,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let lim = limits(max_nodes, max_time, &stop)?;
    if let Ok(game) = game.downcast::<Game>() {
        let game = game.get();
        let depth = match (algorithm, depth) {
            // Monte-Carlo playouts run to the end of the game.
            (Algorithm::Mcts(_), None) => {
                let spec: GameSpec = game.spec.parse().map_err(bad)?;
                spec.horizon(None).unwrap_or(u32::MAX)
            }
            _ => horizon(game, depth)?,
        };
        let cfg = SearchConfig::new(depth).with_limits(lim);
        let (report, interrupted) = with_position!(game, p => {
            let p = p.clone();
            interruptible(py, &stop, move || gamesearch::run_report_parallel(&p, algorithm, &cfg))?
        });
        if let Some(e) = &report.error {
            return Err(bad(e));
        }
        return finish(py, serde_json::to_value(&report).map_err(bad)?, interrupted);
    }
    if threads != 1 {
        return Err(bad(
            "a game written in Python searches on one thread (its moves run under the GIL)",
        ));
    }
    let cfg = SearchConfig::new(python_depth(depth)?).with_limits(lim);
    let root = protocol::Root::new(game)?;
    // With key(), MTD(f)'s table is keyed by position: transpositions searched once a pass.
    let by_position = algorithm == Algorithm::Mtdf && root.keyed();
    let flag = stop.clone();
    let (out, interrupted) = interruptible(py, &stop, move || {
        root.run(flag, |p| {
            let start = std::time::Instant::now();
            let out = if by_position {
                gamesearch::engine::mtdf_to_depth_by_position(p, cfg.depth, &cfg.limits)
            } else {
                gamesearch::search(p, algorithm, &cfg)
            };
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let report = out.report(p, algorithm.name(), cfg.depth, ms);
            let (best, pv) = protocol::move_objects(p, out.best_move, &out.pv);
            (report, best, pv)
        })
    })?;
    let (report, best, pv) = out?;
    if let Some(e) = &report.error {
        return Err(bad(e));
    }
    with_objects(
        py,
        serde_json::to_value(&report).map_err(bad)?,
        best,
        Some(pv),
        interrupted,
    )
}

/// A match's statistics from its pentanomial `pairs` (the openings' two games by A's score in
/// them: 0, ½, 1, 1½, 2), computed as `play --match` computes them: A's score a game, its Elo
/// and 95 % interval, and with `sprt = (elo0, elo1, alpha, beta)` the GSPRT's log-likelihood
/// ratio and verdict (`"h1"`, `"h0"` or `"continue"`).
#[pyfunction]
#[pyo3(signature = (pairs, sprt = None))]
#[allow(clippy::type_complexity)]
fn pentanomial(
    pairs: [u64; 5],
    sprt: Option<(f64, f64, f64, f64)>,
) -> PyResult<(f64, f64, f64, f64, Option<f64>, Option<String>)> {
    use gamesearch_cli::sprt::{Pentanomial, Sprt, Verdict};
    let p = Pentanomial(pairs);
    let (elo, lo, hi) = p.elo();
    let test = match sprt {
        None => None,
        Some((elo0, elo1, alpha, beta)) => {
            let ok = |x: f64| x > 0.0 && x < 1.0;
            if !(ok(alpha) && ok(beta) && elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
                return Err(bad(
                    "sprt must be (elo0, elo1, alpha, beta) with elo0 < elo1 and alpha, beta in (0, 1)",
                ));
            }
            let (v, llr) = Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            }
            .verdict(&p);
            let v = match v {
                Verdict::H1 => "h1",
                Verdict::H0 => "h0",
                Verdict::Continue => "continue",
            };
            Some((llr, v.to_string()))
        }
    };
    let (llr, verdict) = test.unzip();
    Ok((p.score(), elo, lo, hi, llr, verdict))
}

/// A solver's settings from Python's arguments, checked.
pub(crate) fn solve_config(
    tt_mb: u64,
    threads: usize,
    limits: Limits,
    check: bool,
) -> PyResult<SolveConfig> {
    if !(1..=1 << 30).contains(&tt_mb) {
        return Err(bad("tt_mb must be from 1 to 2^30"));
    }
    if !(1..=256).contains(&threads) {
        return Err(bad("threads must be from 1 to 256"));
    }
    Ok(SolveConfig {
        tt_bytes: usize::try_from(tt_mb << 20).map_err(bad)?,
        threads,
        limits,
        check,
        ..SolveConfig::default()
    })
}

/// Solves `game` exactly with `method` (alphabeta-tt, pn, pn-multi, dfpn, dfpn-multi). `game` is
/// a `Game` (the GIL released while it runs) or an object of the game protocol (one thread).
#[pyfunction]
#[pyo3(signature = (game, method = "alphabeta-tt", tt_mb = 64, threads = 1, max_nodes = None, max_time = None, check = false, id_depth = 8, book = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    method: &str,
    tt_mb: u64,
    threads: usize,
    max_nodes: Option<u64>,
    max_time: Option<f64>,
    check: bool,
    id_depth: u32,
    book: Option<PyRef<'py, book::Book>>,
) -> PyResult<Bound<'py, PyDict>> {
    let method: Method = method.parse().map_err(bad)?;
    let stop = Arc::new(AtomicBool::new(false));
    let mut cfg = SolveConfig {
        id_depth,
        ..solve_config(tt_mb, threads, limits(max_nodes, max_time, &stop)?, check)?
    };
    if let Some(book) = &book {
        if method != Method::AlphaBetaTt {
            return Err(bad(
                "book is read by the alpha-beta solver (method=\"alphabeta-tt\")",
            ));
        }
        let Ok(game) = game.downcast::<Game>() else {
            return Err(bad("a book holds positions of the shipped games (Connect-Four, Kalah, Othello, Domineering, Hex, tic-tac-toe), not a game written in Python"));
        };
        cfg.book = Some(book.for_game(&game.get().spec)?);
    }
    if let Ok(game) = game.downcast::<Game>() {
        let (report, interrupted) = with_position!(game.get(), p => {
            let p = p.clone();
            on_this_thread(py, &stop, move || exact::solve_report(&p, method, &cfg, |_| {}))?
        });
        let report = report.map_err(bad)?;
        return finish(py, serde_json::to_value(&report).map_err(bad)?, interrupted);
    }
    let root = python_root(game, threads)?;
    if root.repeats() {
        let r = root.repetition();
        return solve_python(py, root, &stop, method.name(), move |p| {
            exact::solve(&protocol::Repeating(p.clone(), r), method, &cfg)
        });
    }
    solve_python(py, root, &stop, method.name(), |p| {
        exact::solve(p, method, &cfg)
    })
}

/// Solves `game`, a game written in Python whose positions repeat (`repeats = True`), strongly:
/// every position reachable from it by retrograde analysis (one thread), and returns the
/// root's answer: `value` (+1, 0 or −1, the first player's view), `remoteness` (plies to the
/// end; None for a draw), `best_move` (the game's object), `positions` reachable, `complete`.
#[pyfunction]
#[pyo3(signature = (game, max_positions = 1 << 26, max_time = None))]
pub(crate) fn solve_strongly<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    max_positions: u64,
    max_time: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    use gamesearch::retrograde::{self, RetrogradeConfig};
    let stop = Arc::new(AtomicBool::new(false));
    let root = python_root(game, 1)?;
    if !root.keyed() {
        return Err(bad(
            "a strong solve needs the game's key(), equal for equal positions",
        ));
    }
    let cfg = RetrogradeConfig {
        max_positions,
        limits: limits(None, max_time, &stop)?,
        ..RetrogradeConfig::default()
    };
    let flag = stop.clone();
    let (repeats, repetition) = (root.repeats(), root.repetition());
    let (out, interrupted) = interruptible(py, &stop, move || {
        root.run(flag, |p| {
            // (A game whose repetition is not a draw is refused: retrograde analysis values
            // endless play as one.)
            let s = if repeats {
                retrograde::solve_strongly(&protocol::Repeating(p.clone(), repetition), &cfg)?
            } else {
                retrograde::solve_strongly(p, &cfg)?
            };
            let here = s.probe(p);
            let best = s.best_move(p);
            let best = Python::with_gil(|py| best.and_then(|m| p.move_object(py, m)));
            Ok::<_, gamesearch::Error>((s.stats(), s.complete(), here, best))
        })
    })?;
    let (stats, complete, here, best) = out?.map_err(bad)?;
    let report = serde_json::json!({
        "algo": "retrograde",
        "value": here.map(|h| h.value),
        "remoteness": here.and_then(|h| h.remoteness),
        "positions": stats.positions,
        "complete": complete,
        "time_ms": stats.seconds * 1e3,
    });
    with_objects(py, report, best, None, interrupted)
}

const ONE_THREAD: &str =
    "a game written in Python is solved on one thread (its methods need the GIL): threads=1";

/// The root of a game written in Python that is to be solved on `threads` threads (one).
pub(crate) fn python_root(game: &Bound<'_, PyAny>, threads: usize) -> PyResult<protocol::Root> {
    if threads != 1 {
        return Err(bad(ONE_THREAD));
    }
    protocol::Root::new(game)
}

/// Solves a game written in Python with `solve` (named `name` in the report) on a thread that
/// holds the GIL while Python's thread watches for Ctrl-C; the best move is the game's object.
pub(crate) fn solve_python<'py>(
    py: Python<'py>,
    root: protocol::Root,
    stop: &Arc<AtomicBool>,
    name: &str,
    solve: impl FnOnce(&protocol::PyGame) -> Result<gamesearch::Solution<u32>, gamesearch::Error> + Send,
) -> PyResult<Bound<'py, PyDict>> {
    let flag = stop.clone();
    let (out, interrupted) = interruptible(py, stop, move || {
        root.run(flag, |p| {
            let start = std::time::Instant::now();
            solve(p).map(|s| {
                let report = s.report(p, name, start.elapsed().as_secs_f64() * 1e3);
                let best = Python::with_gil(|py| s.best_move.and_then(|m| p.move_object(py, m)));
                (report, best)
            })
        })
    })?;
    let (report, best) = out?.map_err(bad)?;
    with_objects(
        py,
        serde_json::to_value(&report).map_err(bad)?,
        best,
        None,
        interrupted,
    )
}

/// The report of a search of a game written in Python, with its best move and PV as the
/// objects the game's `moves()` gave (the names in the report are their `str()`).
fn with_objects<'py>(
    py: Python<'py>,
    report: serde_json::Value,
    best_move: Option<Py<PyAny>>,
    pv: Option<Vec<Py<PyAny>>>,
    interrupted: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = to_dict(py, &report)?;
    d.set_item("best_move", best_move)?;
    if let Some(pv) = pv {
        d.set_item("pv", pv)?;
    }
    finish_dict(d, interrupted)
}

/// The algorithms of a trace, checked.
fn trace_algorithms(algos: &[String], node_cap: usize) -> PyResult<Vec<Algorithm>> {
    if algos.is_empty() {
        return Err(bad("give at least one algorithm"));
    }
    if !(1..=1_000_000).contains(&node_cap) {
        return Err(bad("node_cap must be from 1 to 1,000,000"));
    }
    algos
        .iter()
        .map(|a| a.parse::<Algorithm>().map_err(bad))
        .collect()
}

/// Each of `algorithms` searching `p` to `depth`, recorded (at most `node_cap` nodes each).
fn record<G: gamesearch::Game>(
    p: &G,
    algorithms: &[Algorithm],
    depth: u32,
    node_cap: usize,
    limits: &Limits,
) -> Vec<gamesearch::trace::Trace> {
    use gamesearch::trace::{search_observed, Recorder};
    algorithms
        .iter()
        .map(|&a| {
            let mut rec = Recorder::new(p, node_cap);
            let cfg = SearchConfig::new(depth).with_limits(limits.clone());
            let out = search_observed(p, a, &cfg, &mut rec);
            rec.finish(a.name(), &out)
        })
        .collect()
}

/// The step-through page (HTML), the trace (JSON) and each search's tree as SVG; `spec`, the
/// game's notation where it has one, gives the page its boards.
fn trace_pages(
    title: &str,
    traces: &[gamesearch::trace::Trace],
    spec: Option<&str>,
) -> PyResult<(String, String, Vec<String>)> {
    let boards: Vec<_> = traces
        .iter()
        .map(|t| spec.and_then(|s| gamesearch_cli::serve::trace_boards(s, t)))
        .collect();
    let html = gamesearch_cli::view::html(title, traces, &boards).map_err(bad)?;
    let json = serde_json::to_string_pretty(traces).map_err(bad)?;
    let svgs = traces.iter().map(gamesearch_cli::view::svg).collect();
    Ok((html, json, svgs))
}

/// Records `algos` searching `game` (a `Game`, or an object of the game protocol, its moves
/// named by their `str()`) step by step (at most `node_cap` nodes each: the search runs to its
/// end, the recording stops) and returns the step-through page (HTML), the trace (JSON) and
/// each search's tree as SVG.
#[pyfunction]
#[pyo3(signature = (game, algos, depth = None, node_cap = 2000))]
fn trace(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    algos: Vec<String>,
    depth: Option<u32>,
    node_cap: usize,
) -> PyResult<(String, String, Vec<String>)> {
    let algorithms = trace_algorithms(&algos, node_cap)?;
    if let Ok(game) = game.downcast::<Game>() {
        let game = game.get();
        let depth = horizon(game, depth)?;
        let traces = with_position!(game, p => {
            let p = p.clone();
            py.allow_threads(move || record(&p, &algorithms, depth, node_cap, &Limits::none()))
        });
        return trace_pages(
            &format!("{} on {} (depth {depth})", algos.join(" vs "), game.spec),
            &traces,
            Some(&game.spec),
        );
    }
    let depth = python_depth(depth)?;
    let root = protocol::Root::new(game)?;
    let name = game.get_type().name()?.to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let lim = Limits::none().with_stop_flag(stop.clone());
    let (traces, interrupted) = interruptible(py, &stop, move || {
        root.run(flag, |p| record(p, &algorithms, depth, node_cap, &lim))
    })?;
    if interrupted {
        return Err(PyKeyboardInterrupt::new_err(
            "interrupted: the trace was not finished",
        ));
    }
    let shown = if depth == u32::MAX {
        "to the end".to_string()
    } else {
        format!("depth {depth}")
    };
    trace_pages(
        &format!("{} on {name} ({shown})", algos.join(" vs ")),
        &traces?,
        None,
    )
}

/// The engine's table and move-ordering memory, for the game it plays.
enum Engines {
    Connect4(gamesearch::engine::Engine<gamesearch_games::Connect4>),
    Connect4Wide(gamesearch::engine::Engine<gamesearch_games::Connect4<u128>>),
    Kalah(gamesearch::engine::Engine<gamesearch_games::Kalah>),
    TicTacToe(gamesearch::engine::Engine<gamesearch_games::TicTacToe>),
    Othello(gamesearch::engine::Engine<gamesearch_games::Othello>),
    Domineering(gamesearch::engine::Engine<gamesearch_games::Domineering>),
    Hex(gamesearch::engine::Engine<gamesearch_games::Hex>),
    /// A game written in Python (its `evaluate()` is the heuristic; with `key()` the table
    /// finds transpositions, from one move to the next too).
    Python(gamesearch::engine::Engine<protocol::PyGame>),
}

/// Where the engine is: a shipped game's position, or a game written in Python's object.
enum At {
    Shipped(Game),
    Python(Py<PyAny>),
}

/// The anytime engine: iterative deepening within a time (or depth) budget, on a shipped game
/// or one written in Python; its table and move-ordering memory persist from move to move.
#[pyclass(module = "gamesearch._core")]
struct Engine {
    at: At,
    time: Option<f64>,
    /// The opening book, checked against the game's rules.
    book: Option<Arc<gamesearch::solver::book::Book>>,
    engine: std::sync::Mutex<Engines>,
}

/// A thought's report: the move and PV by name, the value for the side to move, each
/// iteration's depth, value and PV.
fn thought_json<G: gamesearch::Game>(
    p: &G,
    t: &gamesearch::engine::Thought<G::Move>,
) -> serde_json::Value {
    let name = |pv: &[G::Move]| gamesearch::line_names(p, pv);
    let iterations: Vec<serde_json::Value> = t
        .iterations
        .iter()
        .map(|it| {
            serde_json::json!({"depth": it.depth, "value": it.value, "mate": it.mate,
                "pv": name(&it.pv), "nodes": it.nodes, "time_ms": it.elapsed.as_secs_f64() * 1e3})
        })
        .collect();
    serde_json::json!({
        "best_move": t.best_move.map(|m| p.move_name(m)), "value": t.value, "mate": t.mate,
        "pv": name(&t.pv), "depth": t.depth, "complete": t.complete, "nodes": t.stats.nodes(),
        "time_ms": t.elapsed.as_secs_f64() * 1e3, "iterations": iterations,
    })
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (game, time = Some(0.1), depth = 128, tt_mb = 64, driver = "pvs", book = None))]
    fn new(
        game: &Bound<'_, PyAny>,
        time: Option<f64>,
        depth: u32,
        tt_mb: u64,
        driver: &str,
        book: Option<PyRef<'_, book::Book>>,
    ) -> PyResult<Self> {
        use gamesearch::engine::{Driver, EngineConfig};
        if let Some(t) = time {
            if !(t > 0.0 && t <= 1e9) {
                return Err(bad(
                    "time must be a positive number of seconds (at most 1e9)",
                ));
            }
        }
        if depth == 0 {
            return Err(bad("depth must be at least 1"));
        }
        if !(1..=1 << 30).contains(&tt_mb) {
            return Err(bad("tt_mb must be from 1 to 2^30"));
        }
        let cfg = EngineConfig {
            tt_bytes: usize::try_from(tt_mb << 20).map_err(bad)?,
            driver: match driver {
                "pvs" => Driver::Pvs { aspiration: 16 },
                "mtdf" => Driver::Mtdf,
                _ => return Err(bad(format!("driver `{driver}`: expected pvs or mtdf"))),
            },
            max_depth: depth,
        };
        let Ok(game) = game.downcast::<Game>() else {
            // A game written in Python: checked as every search checks it.
            protocol::Root::new(game)?;
            if book.is_some() {
                return Err(bad("a book holds positions of the shipped games (Connect-Four, Kalah, Othello, Domineering, Hex, tic-tac-toe), not a game written in Python"));
            }
            return Ok(Engine {
                at: At::Python(game.clone().unbind()),
                time,
                book: None,
                engine: std::sync::Mutex::new(Engines::Python(
                    gamesearch::engine::Engine::new(&cfg).map_err(bad)?,
                )),
            });
        };
        let game = game.get().clone();
        let engine = match game.spec.parse::<GameSpec>().map_err(bad)? {
            GameSpec::Connect4(_) => {
                Engines::Connect4(gamesearch::engine::Engine::new(&cfg).map_err(bad)?)
            }
            GameSpec::Connect4Wide(_) => {
                Engines::Connect4Wide(gamesearch::engine::Engine::new(&cfg).map_err(bad)?)
            }
            GameSpec::Kalah(_) => {
                Engines::Kalah(gamesearch::engine::Engine::new(&cfg).map_err(bad)?)
            }
            GameSpec::TicTacToe(_) => {
                Engines::TicTacToe(gamesearch::engine::Engine::new(&cfg).map_err(bad)?)
            }
            GameSpec::Othello(_) => {
                Engines::Othello(gamesearch::engine::Engine::new(&cfg).map_err(bad)?)
            }
            GameSpec::Domineering(_) => {
                Engines::Domineering(gamesearch::engine::Engine::new(&cfg).map_err(bad)?)
            }
            GameSpec::Hex(_) => Engines::Hex(gamesearch::engine::Engine::new(&cfg).map_err(bad)?),
            _ => {
                return Err(bad(
                    "the engine plays games (connect4, kalah, tictactoe, othello, domineering, hex, or one written in Python), not random or explicit trees",
                ))
            }
        };
        let book = match book {
            Some(b) => Some(b.for_game(&game.spec)?),
            None => None,
        };
        Ok(Engine {
            at: At::Shipped(game),
            time,
            book,
            engine: std::sync::Mutex::new(engine),
        })
    }

    /// The position the engine is at: a Game, or the object of a game written in Python.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match &self.at {
            At::Shipped(g) => Py::new(py, g.clone())?.into_any(),
            At::Python(obj) => obj.clone_ref(py),
        })
    }

    /// Follows the game: the engine is now at the position after `move` (for a game written in
    /// Python, one of the objects its `moves()` returns).
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.at = match &self.at {
            At::Shipped(g) => At::Shipped(g.play(r#move)?),
            At::Python(obj) => {
                let obj = obj.bind(py);
                let legal = obj.call_method0("moves")?;
                if !legal.contains(r#move)? {
                    return Err(bad(format!(
                        "move {} is not legal here: the legal moves are {}",
                        r#move.repr()?,
                        legal.repr()?
                    )));
                }
                At::Python(obj.call_method1("play", (r#move,))?.unbind())
            }
        };
        Ok(())
    }

    /// Thinks about the current position within the budget: the best move, value (for the
    /// side to move), PV and each iteration, as a dict (gamesearch.Engine wraps it).
    fn think<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let game = match &self.at {
            At::Shipped(g) => g,
            At::Python(obj) => return self.think_python(py, obj.bind(py)),
        };
        // A position the book has exactly, with a move: its move, no search.
        if let Some(book) = &self.book {
            if let Some((lo, hi, Some(mv))) = book::lookup(book, game)? {
                if lo == hi {
                    let v = serde_json::json!({
                        "best_move": mv, "value": null, "mate": null, "pv": [mv], "depth": 0,
                        "complete": true, "nodes": 0, "time_ms": 0.0, "iterations": [],
                        "book_value": lo,
                    });
                    return finish(py, v, false);
                }
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let lim = limits(None, self.time, &stop)?;
        let mut guard = self
            .engine
            .lock()
            .map_err(|_| bad("the engine was poisoned by a panic"))?;
        let moves = &game.moves;
        let (v, interrupted) = match (game.spec.parse::<GameSpec>().map_err(bad)?, &mut *guard) {
            (GameSpec::Connect4(p), Engines::Connect4(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            (GameSpec::Connect4Wide(p), Engines::Connect4Wide(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            (GameSpec::Kalah(p), Engines::Kalah(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            (GameSpec::TicTacToe(p), Engines::TicTacToe(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            (GameSpec::Othello(p), Engines::Othello(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            (GameSpec::Domineering(p), Engines::Domineering(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            (GameSpec::Hex(p), Engines::Hex(e)) => {
                let p = replay(&p, moves)?;
                interruptible(py, &stop, || thought_json(&p, &e.think(&p, &lim, |_| {})))?
            }
            _ => return Err(bad("the engine's game changed kind")),
        };
        finish(py, v, interrupted)
    }
}

impl Engine {
    /// `think()` on a game written in Python: the search on a thread of its own, as every search
    /// of such a game; the best move and PV are the objects the game's `moves()` gave.
    fn think_python<'py>(
        &self,
        py: Python<'py>,
        obj: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let stop = Arc::new(AtomicBool::new(false));
        let lim = limits(None, self.time, &stop)?;
        let root = protocol::Root::new(obj)?;
        let mut guard = self
            .engine
            .lock()
            .map_err(|_| bad("the engine was poisoned by a panic"))?;
        let Engines::Python(engine) = &mut *guard else {
            return Err(bad("the engine's game changed kind"));
        };
        let flag = stop.clone();
        let (out, interrupted) = interruptible(py, &stop, move || {
            root.run(flag, |p| {
                let t = engine.think(p, &lim, |_| {});
                let v = thought_json(p, &t);
                let (best, pv) = protocol::move_objects(p, t.best_move, &t.pv);
                (v, best, pv)
            })
        })?;
        let (v, best, pv) = out?;
        with_objects(py, v, best, Some(pv), interrupted)
    }
}

/// Every search algorithm's name that `search()` takes, in the order `compare` lists them; with
/// `exact=True` only those whose value is the depth-limited minimax value on every game (not
/// MCTS's estimates, nor B*, which stops once its best move is separated).
#[pyfunction]
#[pyo3(signature = (exact = false))]
fn algorithms(exact: bool) -> Vec<&'static str> {
    let all: &[Algorithm] = if exact {
        &Algorithm::ALL
    } else {
        &Algorithm::NAMED
    };
    all.iter().map(|a| a.name()).collect()
}

/// Every form a game's text may take (`connect4:WxH[:MOVES]`, …), from the registry the
/// command line's help and errors read.
#[pyfunction]
fn games() -> Vec<&'static str> {
    gamesearch_games::spec::GAMES
        .iter()
        .flat_map(|k| k.forms.iter().copied())
        .collect()
}

/// Every exact solver's name.
#[pyfunction]
fn methods() -> Vec<&'static str> {
    Method::ALL.iter().map(|m| m.name()).collect()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<book::Book>()?;
    m.add_class::<Engine>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<split::Split>()?;
    m.add_class::<split::Master>()?;
    m.add_function(wrap_pyfunction!(split::job_key, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(pentanomial, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_strongly, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(trace, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add("GameSearchError", m.py().get_type::<GameSearchError>())?;
    Ok(())
}
