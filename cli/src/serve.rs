//! `gamesearch serve`'s library half: the analysis of a position (every move's value, exact
//! from the solver when it finishes within the budget, else the engine's evaluation), and the
//! HTTP server (axum on tokio) that answers it as JSON.
//!
//! The server is built to be left running: it binds where it is told (the command's default is
//! 127.0.0.1), every request runs under a time and node budget no larger than the server's, at
//! most `queue` requests are in the house at once (one more gets 503, not a thread), `workers`
//! of them searching (the budget starts when a worker takes the request), query
//! strings are limited in size, and a client that goes away stops its search. One solver table
//! serves every request of the same rules, the workers' solvers sharing it (a request of other
//! rules starts it afresh: positions of different boards must not share keys); each worker has
//! an engine of its own.
//!
//! The API (every answer JSON; a bad position or parameter is 400 with `{"error": "…"}`):
//! - `GET /api/legal?game=G`: whose move it is, the legal moves and each one's resulting
//!   position, whether the game is over and its value then;
//! - `GET /api/play?game=G&move=M`: the position after a move;
//! - `GET /api/analyse?game=G[&time=SECS][&nodes=N]`: every move's value (exact, or the
//!   engine's evaluation and depth with its line), the position's value and best move, found in
//!   rounds that give the moves not yet exact twice the last round's share;
//! - `GET /api/analyse/stream?…`: the same as server-sent events, one per round, then `done`;
//! - `GET /api/engine?game=G[&time=SECS]`: the engine's move;
//! - `GET /api/status`: searches running and queued, the budgets;
//! - `GET /trace?game=G[&algo=A][&depth=D]`: the step-through viewer of one search (HTML).
//!
//! `G` is a game as the command line writes it: `connect4:7x6:4453`, `kalah:6,4`,
//! `kalah:POSITION`, `tictactoe[:CELLS]`. Values are the first player's view (MAX), as
//! everywhere in gamesearch.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Query, RawQuery, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::Stream;
use gamesearch::engine::{Engine, EngineConfig};
use gamesearch::solver::{ExactSolver, SolveConfig};
use gamesearch::tablebase::Tablebase;
use gamesearch::{line_names, Game, Limits, Player, Score, INF};
use gamesearch_games::GameSpec;
use gamesearch_games::{Connect4, Kalah, TicTacToe};
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::play::Board;

/// The longest query string a request may carry.
pub const MAX_QUERY: usize = 2048;

/// What the server allows each request, and how many it holds at once.
#[derive(Clone, Copy, Debug)]
pub struct ServeConfig {
    /// The most time one request may search (and its default).
    pub max_time: Duration,
    /// The most nodes one request may search (and its default).
    pub max_nodes: u64,
    /// Requests searching or waiting to; one more is answered 503.
    pub queue: usize,
    /// Requests searching at once (the rest of the queue waits for one to finish).
    pub workers: usize,
    /// The solver's table, bytes (one per rules in use).
    pub tt_bytes: usize,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            max_time: Duration::from_secs(3),
            max_nodes: 200_000_000,
            queue: 8,
            workers: 2,
            tt_bytes: 256 << 20,
        }
    }
}

/// An error a request gets: its status and one line.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl ApiError {
    fn bad(message: impl Into<String>) -> Self {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

impl From<gamesearch::Error> for ApiError {
    fn from(e: gamesearch::Error) -> Self {
        ApiError::bad(e.to_string())
    }
}

/// One move and its value.
#[derive(Clone, Debug, Serialize)]
pub struct MoveValue {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it (a `game` argument).
    pub game: String,
    /// The exact value after the move (MAX's view) when the solver finished.
    pub value: Option<Score>,
    /// The proven bounds on that value.
    pub bounds: (Score, Score),
    /// The engine's evaluation when the value is not exact (MAX's view; `±(32000 - plies)` is a
    /// proven win or loss).
    pub eval: Option<Score>,
    /// The engine's depth.
    pub depth: u32,
    /// The engine's line after the move.
    pub pv: Vec<String>,
    /// Nodes spent on this move.
    pub nodes: u64,
}

/// A position analysed: each move's value, and the position's.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The position (as asked).
    pub game: String,
    /// `max` (the first player) or `min`.
    pub to_move: Player,
    /// The game is over.
    pub over: bool,
    /// The position's exact value (MAX's view): when it is over, or every move's value is exact.
    pub value: Option<Score>,
    /// The best move: by exact value where every move has one, else by exact win, then the
    /// engine's evaluation.
    pub best_move: Option<String>,
    /// Every legal move, in the game's order.
    pub moves: Vec<MoveValue>,
    /// Nodes in all.
    pub nodes: u64,
    /// Milliseconds in all.
    pub time_ms: f64,
    /// True when every move has an exact value or the engine's evaluation and no stop (the
    /// client going away) cut the analysis short.
    pub complete: bool,
}

/// The solver and engine kept for one game type, with the rules their tables hold.
struct Analyst<G: Game> {
    rules: String,
    solver: ExactSolver<G>,
    engine: Engine<G>,
}

/// A game the server analyses.
trait Served: Board + Send + Sync + 'static {
    /// The rules, for keeping one table per rules.
    fn rules(&self) -> String;
    /// The `game` argument of the position after `mv` from this one, written `game`.
    fn game_after(&self, game: &str, mv: Self::Move) -> String;
    /// This game type's analysts.
    fn pool(shared: &Shared) -> &Slot<Self>;
}

/// Connect-Four on boards of 64 bits and on wider ones (u128 bitboards): the same but for the
/// pool.
macro_rules! served_connect4 {
    ($t:ty, $pool:ident) => {
        impl Served for $t {
            fn rules(&self) -> String {
                format!("connect4:{}x{}", self.width(), self.height())
            }
            /// The moves so far, and this one (in the text's notation).
            fn game_after(&self, game: &str, mv: u8) -> String {
                self.notation_after(game, &[mv])
            }
            fn pool(shared: &Shared) -> &Slot<Self> {
                &shared.$pool
            }
        }
    };
}
served_connect4!(Connect4, connect4);
served_connect4!(Connect4<u128>, connect4_wide);
impl Served for Kalah {
    fn rules(&self) -> String {
        self.tablebase_rules()
    }
    fn game_after(&self, _: &str, mv: u8) -> String {
        format!("kalah:{}", self.play(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.kalah
    }
}
impl Served for TicTacToe {
    fn rules(&self) -> String {
        "tictactoe".into()
    }
    fn game_after(&self, _: &str, mv: Self::Move) -> String {
        format!("tictactoe:{}", self.play(mv))
    }
    fn pool(shared: &Shared) -> &Slot<Self> {
        &shared.tictactoe
    }
}

/// The analysts of one game type: the solver that owns the shared table (for the rules in use)
/// and the analysts not at work, each with a solver over that table and an engine of its own.
struct Pool<G: Game> {
    rules: String,
    table: Option<ExactSolver<G>>,
    free: Vec<Analyst<G>>,
}

type Slot<G> = Mutex<Pool<G>>;

/// An analyst for `p`'s rules, taken from the pool (or made, over the pool's table; a pool of
/// other rules is emptied first, and its table replaced).
fn take<G: Served>(slot: &Slot<G>, p: &G, cfg: &ServeConfig) -> Result<Analyst<G>, ApiError> {
    let mut pool = slot.lock().unwrap_or_else(|e| e.into_inner());
    let rules = p.rules();
    if pool.rules != rules || pool.table.is_none() {
        pool.free.clear();
        pool.table = None; // the old table goes before the new one is allocated
        pool.table = Some(ExactSolver::new(&SolveConfig {
            tt_bytes: cfg.tt_bytes,
            ..SolveConfig::default()
        })?);
        pool.rules = rules.clone();
    }
    if let Some(a) = pool.free.pop() {
        return Ok(a);
    }
    Ok(Analyst {
        rules,
        solver: pool.table.as_ref().expect("made above").sharing_table(),
        engine: Engine::new(&EngineConfig {
            tt_bytes: (cfg.tt_bytes / 4).max(1 << 20),
            ..EngineConfig::default()
        })?,
    })
}

/// Puts `a` back in the pool, unless the pool has moved on to other rules.
fn give_back<G: Game>(slot: &Slot<G>, a: Analyst<G>) {
    let mut pool = slot.lock().unwrap_or_else(|e| e.into_inner());
    if pool.rules == a.rules {
        pool.free.push(a);
    }
}

/// A pool with nothing in it yet.
fn empty<G: Game>() -> Slot<G> {
    Mutex::new(Pool {
        rules: String::new(),
        table: None,
        free: Vec::new(),
    })
}

/// What every request shares.
pub struct Shared {
    cfg: ServeConfig,
    queue: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    running: AtomicUsize,
    connect4: Slot<Connect4>,
    connect4_wide: Slot<Connect4<u128>>,
    kalah: Slot<Kalah>,
    tictactoe: Slot<TicTacToe>,
}

impl Shared {
    /// Nothing searched yet.
    pub fn new(cfg: ServeConfig) -> Arc<Self> {
        Arc::new(Shared {
            cfg,
            queue: Arc::new(Semaphore::new(cfg.queue)),
            workers: Arc::new(Semaphore::new(cfg.workers.clamp(1, cfg.queue))),
            running: AtomicUsize::new(0),
            connect4: empty(),
            connect4_wide: empty(),
            kalah: empty(),
            tictactoe: empty(),
        })
    }
}

/// Sets the flag when dropped: the request's future is dropped when its client goes away.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A position on a board the server plays.
enum Position {
    Connect4(Connect4),
    Connect4Wide(Connect4<u128>),
    Kalah(Kalah),
    TicTacToe(TicTacToe),
}

/// Binds `$p` to the position's game and evaluates `$body` (monomorphised per game).
macro_rules! on_board {
    ($position:expr, $p:ident => $body:expr) => {
        match $position {
            Position::Connect4($p) => $body,
            Position::Connect4Wide($p) => $body,
            Position::Kalah($p) => $body,
            Position::TicTacToe($p) => $body,
        }
    };
}

/// The position a `game` argument names, on a board the server plays.
fn position(game: &str) -> Result<Position, ApiError> {
    if game.is_empty() {
        return Err(ApiError::bad(
            "missing `game` (e.g. game=connect4:7x6:4453)",
        ));
    }
    let other = || {
        ApiError::bad(format!(
            "`{game}`: the server plays connect4:WxH[:MOVES], kalah:M,N or kalah:POSITION, tictactoe[:CELLS]"
        ))
    };
    let board = ["connect4:", "kalah:", "tictactoe:"];
    if game != "tictactoe" && !board.iter().any(|b| game.starts_with(b)) {
        return Err(other());
    }
    match game.parse()? {
        GameSpec::Connect4(p) => Ok(Position::Connect4(p)),
        GameSpec::Connect4Wide(p) => Ok(Position::Connect4Wide(p)),
        GameSpec::Kalah(p) => Ok(Position::Kalah(p)),
        GameSpec::TicTacToe(p) => Ok(Position::TicTacToe(p)),
        GameSpec::Random(_) | GameSpec::Tree(_) => Err(other()),
    }
}

/// Each node's position in the `game` notation (what the boards of the page and the viewer
/// read), for a trace recorded from `game`; `None` for a game with no board (random trees,
/// tree files). A node whose label is not a move of its parent's position (the root, or a
/// trace from another position) gets an empty string: the viewer then draws no board.
///
/// ```
/// use gamesearch::trace::{search_observed, Recorder};
/// use gamesearch::{Algorithm, SearchConfig};
/// use gamesearch_games::GameSpec;
/// let GameSpec::Connect4(game) = "connect4:4x4:1234".parse().unwrap() else { unreachable!() };
/// let mut rec = Recorder::new(&game, 100);
/// let out = search_observed(&game, Algorithm::AlphaBeta, &SearchConfig::new(2), &mut rec);
/// let trace = rec.finish("alphabeta", &out);
/// let boards = gamesearch_cli::serve::trace_boards("connect4:4x4:1234", &trace).unwrap();
/// assert_eq!(boards[0], "connect4:4x4:1234");
/// assert_eq!(boards[1], format!("connect4:4x4:1234{}", trace.nodes[1].label));
/// assert!(gamesearch_cli::serve::trace_boards("random:b=2,h=2,seed=1", &trace).is_none());
/// ```
pub fn trace_boards(game: &str, trace: &gamesearch::trace::Trace) -> Option<Vec<String>> {
    fn walk<G: Served>(game: &str, root: G, trace: &gamesearch::trace::Trace) -> Vec<String> {
        let mut at: Vec<Option<G>> = Vec::with_capacity(trace.nodes.len());
        let mut names: Vec<String> = Vec::with_capacity(trace.nodes.len());
        for node in &trace.nodes {
            let here = match node.parent {
                None => Some((root.clone(), game.to_string())),
                Some(p) => at[p as usize].as_ref().and_then(|g: &G| {
                    let m = g.parse_move(&node.label)?;
                    Some((g.play(m), g.game_after(&names[p as usize], m)))
                }),
            };
            match here {
                Some((g, name)) => {
                    at.push(Some(g));
                    names.push(name);
                }
                None => {
                    at.push(None);
                    names.push(String::new());
                }
            }
        }
        names
    }
    let p = position(game).ok()?;
    Some(on_board!(p, p => walk(game, p, trace)))
}

/// A search's limits: the request's budget and its stop flag.
fn limits(time: Duration, nodes: u64, stop: &Arc<AtomicBool>) -> Limits {
    Limits::none()
        .with_max_time(time)
        .with_max_nodes(nodes)
        .with_stop_flag(Arc::clone(stop))
}

/// The `game` argument of the position after `mv` from `p` (named `game`).
fn game_after<G: Served>(game: &str, p: &G, mv: G::Move) -> String {
    p.game_after(game, mv)
}

/// The query's parameters; `None` where absent.
type Params = HashMap<String, String>;

fn budget(params: &Params, cfg: &ServeConfig) -> Result<(Duration, u64), ApiError> {
    let time = match params.get("time") {
        None => cfg.max_time,
        Some(t) => {
            let secs: f64 = t
                .parse()
                .map_err(|_| ApiError::bad(format!("time={t}: not a number of seconds")))?;
            if !(secs > 0.0 && secs.is_finite()) {
                return Err(ApiError::bad(format!("time={t}: must be more than 0")));
            }
            if secs > cfg.max_time.as_secs_f64() {
                return Err(ApiError::bad(format!(
                    "time={t}: this server allows at most {} s a request",
                    cfg.max_time.as_secs_f64()
                )));
            }
            Duration::from_secs_f64(secs)
        }
    };
    let nodes = match params.get("nodes") {
        None => cfg.max_nodes,
        Some(n) => {
            let n: u64 = n
                .parse()
                .map_err(|_| ApiError::bad(format!("nodes={n}: not a whole number")))?;
            if n == 0 || n > cfg.max_nodes {
                return Err(ApiError::bad(format!(
                    "nodes={n}: must be 1 to {} on this server",
                    cfg.max_nodes
                )));
            }
            n
        }
    };
    Ok((time, nodes))
}

/// Analyses `p` within `time` and `nodes`, stopping early when `stop` is set, in rounds: each
/// round gives every move not yet exact a share (the first round an eighth of the budget, each
/// next one twice the last), half to the solver and, when it does not finish, half to the
/// engine; the tables keep what earlier rounds found. `on_round` sees the analysis after each
/// round and may end it (`false`).
fn analyse<G: Served>(
    game: &str,
    p: &G,
    shared: &Shared,
    (time, nodes): (Duration, u64),
    stop: &Arc<AtomicBool>,
    mut on_round: impl FnMut(&Analysis) -> bool,
) -> Result<Analysis, ApiError> {
    let (slot, cfg) = (G::pool(shared), &shared.cfg);
    let start = Instant::now();
    let moves: Vec<G::Move> = p.moves().collect();
    // What is known of a move before any search: the game's range of values.
    let unknown = p.value_bounds().unwrap_or((-INF, INF));
    let mut out = Analysis {
        game: game.to_string(),
        to_move: p.to_move(),
        over: moves.is_empty(),
        value: moves.is_empty().then(|| p.evaluate()),
        best_move: None,
        moves: moves
            .iter()
            .map(|&m| MoveValue {
                mv: p.move_name(m),
                game: game_after(game, p, m),
                value: None,
                bounds: unknown,
                eval: None,
                depth: 0,
                pv: Vec::new(),
                nodes: 0,
            })
            .collect(),
        nodes: 0,
        time_ms: 0.0,
        complete: true,
    };
    if moves.is_empty() {
        return Ok(out);
    }
    let mut taken = take(slot, p, cfg)?;
    let analyst = &mut taken;
    let n = moves.len() as u32;
    let (mut share, mut node_share) = (time / (8 * n), (nodes / (8 * u64::from(n))).max(1));
    let spent =
        |used: u64| stop.load(Ordering::Relaxed) || start.elapsed() >= time || used >= nodes;
    // This round's share for one search, or what is left of the budget if less.
    let share_now = |share: Duration, node_share: u64, used: u64| {
        let left = time.saturating_sub(start.elapsed());
        let nodes_left = nodes.saturating_sub(used).max(1);
        limits(
            (share / 2).min(left),
            (node_share / 2).min(nodes_left),
            stop,
        )
    };
    'rounds: loop {
        for (&m, mv) in moves.iter().zip(out.moves.iter_mut()) {
            if mv.value.is_some() {
                continue;
            }
            if spent(out.nodes) {
                break 'rounds;
            }
            let child = p.play(m);
            if child.moves().next().is_none() {
                let v = child.evaluate();
                (mv.value, mv.bounds) = (Some(v), (v, v));
                continue;
            }
            let solve_cfg = SolveConfig {
                tt_bytes: cfg.tt_bytes,
                limits: share_now(share, node_share, out.nodes),
                threads: 1,
                id_depth: 4,
                ..SolveConfig::default()
            };
            let s = match analyst.solver.solve(&child, &solve_cfg, |_| {}) {
                Ok(s) => s,
                Err(e) => {
                    give_back(slot, taken);
                    return Err(e.into());
                }
            };
            mv.nodes += s.stats.nodes();
            out.nodes += s.stats.nodes();
            (mv.value, mv.bounds) = (s.value, s.bounds);
            if s.value.is_none() {
                let t =
                    analyst
                        .engine
                        .think(&child, &share_now(share, node_share, out.nodes), |_| {});
                mv.nodes += t.stats.nodes();
                out.nodes += t.stats.nodes();
                if t.depth >= mv.depth {
                    mv.eval = t.value;
                    mv.depth = t.depth;
                    mv.pv = line_names(&child, &t.pv);
                }
            } else {
                (mv.eval, mv.depth) = (None, 0);
                mv.pv.clear();
            }
        }
        settle(p.to_move(), &mut out);
        out.time_ms = start.elapsed().as_secs_f64() * 1e3;
        if out.value.is_some() || !on_round(&out) || spent(out.nodes) {
            break;
        }
        (share, node_share) = (share * 2, node_share.saturating_mul(2));
    }
    give_back(slot, taken);
    settle(p.to_move(), &mut out);
    out.complete = out.value.is_some()
        || !stop.load(Ordering::Relaxed)
            && out.moves.iter().all(|m| m.value.is_some() || m.depth > 0);
    out.time_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(out)
}

/// The position's value (when every move's is exact) and best move, from its moves'.
fn settle(mover: Player, out: &mut Analysis) {
    let sign = mover.sign();
    if out.moves.iter().all(|m| m.value.is_some()) {
        let best = out
            .moves
            .iter()
            .max_by_key(|m| sign * m.value.expect("all exact"))
            .expect("a move");
        out.value = best.value;
        out.best_move = Some(best.mv.clone());
    } else {
        // A proven win first (exact, or bounds above 0 for the mover), then the engine's
        // evaluation, then a proven loss.
        let key = |m: &MoveValue| {
            let (lo, hi) = m.bounds;
            let (lo, hi) = if sign > 0 { (lo, hi) } else { (-hi, -lo) };
            match (m.value, m.eval) {
                (Some(v), _) if sign * v > 0 => (2, sign * v),
                (Some(v), _) if sign * v < 0 => (-2, sign * v),
                (Some(_), _) => (0, 0),
                (None, _) if lo > 0 => (2, lo),
                (None, _) if hi < 0 => (-2, hi),
                (None, Some(e)) => (0, sign * e),
                (None, None) => (-1, 0),
            }
        };
        out.best_move = out
            .moves
            .iter()
            .max_by_key(|m| key(m))
            .map(|m| m.mv.clone());
    }
}

/// The engine's move for `p`.
fn engine_move<G: Served>(
    p: &G,
    shared: &Shared,
    (time, nodes): (Duration, u64),
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    if p.moves().next().is_none() {
        return Err(ApiError::bad("the game is over: no move to make"));
    }
    let slot = G::pool(shared);
    let mut analyst = take(slot, p, &shared.cfg)?;
    let t = analyst.engine.think(p, &limits(time, nodes, stop), |_| {});
    give_back(slot, analyst);
    let pv = line_names(p, &t.pv);
    Ok(serde_json::json!({
        "move": t.best_move.map(|m| p.move_name(m)),
        "value": t.value, "mate": t.mate, "depth": t.depth, "pv": pv,
        "nodes": t.stats.nodes(), "time_ms": t.elapsed.as_secs_f64() * 1e3,
    }))
}

/// A place in the queue, or 503 when it is full.
fn place(shared: &Arc<Shared>) -> Result<OwnedSemaphorePermit, ApiError> {
    Arc::clone(&shared.queue).try_acquire_owned().map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} requests are already searching or waiting; try again",
                shared.cfg.queue
            ),
        )
    })
}

/// A worker, once one is free (the request holds its place in the queue meanwhile).
async fn worker(shared: &Arc<Shared>) -> OwnedSemaphorePermit {
    Arc::clone(&shared.workers)
        .acquire_owned()
        .await
        .expect("the semaphore is never closed")
}

/// A request let in: its place in the queue and its worker (held until the work ends), and the
/// stop flag that dropping `on_drop` (the client going away) sets.
struct Admitted {
    permits: (OwnedSemaphorePermit, OwnedSemaphorePermit),
    stop: Arc<AtomicBool>,
    on_drop: StopOnDrop,
}

/// Lets a request in once the queue has room (503 when it has none) and a worker is free.
async fn admit(shared: &Arc<Shared>) -> Result<Admitted, ApiError> {
    let place = place(shared)?;
    let busy = worker(shared).await;
    let stop = Arc::new(AtomicBool::new(false));
    Ok(Admitted {
        permits: (place, busy),
        on_drop: StopOnDrop(Arc::clone(&stop)),
        stop,
    })
}

/// Runs `work` on a blocking thread holding `permits`, counted as running meanwhile.
fn run_blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    permits: (OwnedSemaphorePermit, OwnedSemaphorePermit),
    work: impl FnOnce(&Shared) -> T + Send + 'static,
) -> tokio::task::JoinHandle<T> {
    let s = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        let _permits = permits;
        s.running.fetch_add(1, Ordering::Relaxed);
        let r = work(&s);
        s.running.fetch_sub(1, Ordering::Relaxed);
        r
    })
}

/// Runs `work` on a blocking thread once the request is let in ([`admit`]); the flag is set
/// when the client goes away.
async fn queued<T: Send + 'static>(
    shared: &Arc<Shared>,
    work: impl FnOnce(&Shared, &Arc<AtomicBool>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let Admitted {
        permits,
        stop,
        on_drop: _on_drop,
    } = admit(shared).await?;
    let joined = run_blocking(shared, permits, move |s| work(s, &stop)).await;
    joined.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

fn param<'p>(params: &'p Params, name: &str) -> Result<&'p str, ApiError> {
    params
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad(format!("missing `{name}`")))
}

async fn legal(Query(params): Query<Params>) -> Result<Json<serde_json::Value>, ApiError> {
    let game = param(&params, "game")?;
    fn list<G: Served>(game: &str, p: &G) -> serde_json::Value {
        let moves: Vec<serde_json::Value> = p
            .moves()
            .map(|m| serde_json::json!({ "move": p.move_name(m), "game": game_after(game, p, m) }))
            .collect();
        let over = moves.is_empty();
        serde_json::json!({
            "game": game, "to_move": p.to_move(), "over": over,
            "value": over.then(|| p.evaluate()), "moves": moves,
        })
    }
    Ok(Json(on_board!(position(game)?, p => list(game, &p))))
}

async fn play(Query(params): Query<Params>) -> Result<Json<serde_json::Value>, ApiError> {
    let game = param(&params, "game")?;
    let mv = param(&params, "move")?;
    fn after<G: Served>(game: &str, p: &G, mv: &str) -> Result<serde_json::Value, ApiError> {
        let m = p.parse_move(mv).ok_or_else(|| {
            ApiError::bad(format!(
                "move `{mv}` is not legal in {game}: legal moves are {}",
                p.move_help()
            ))
        })?;
        let child = p.play(m);
        let over = child.moves().next().is_none();
        Ok(serde_json::json!({
            "game": game_after(game, p, m), "to_move": child.to_move(), "over": over,
            "value": over.then(|| child.evaluate()),
        }))
    }
    Ok(Json(on_board!(position(game)?, p => after(game, &p, mv)?)))
}

async fn analyse_route(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<Params>,
) -> Result<Json<Analysis>, ApiError> {
    let game = param(&params, "game")?.to_string();
    let spec = position(&game)?;
    let b = budget(&params, &shared.cfg)?;
    let a = queued(
        &shared,
        move |s, stop| on_board!(&spec, p => analyse(&game, p, s, b, stop, |_| true)),
    )
    .await?;
    Ok(Json(a))
}

/// `/api/analyse/stream`: the analysis as server-sent events, a `round` event after every
/// round (each move's value or evaluation so far) and a last `done` (or `error`) event. A client
/// that closes the stream stops the search.
async fn analyse_stream(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<Params>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let game = param(&params, "game")?.to_string();
    let spec = position(&game)?;
    let b = budget(&params, &shared.cfg)?;
    let Admitted {
        permits,
        stop,
        on_drop,
    } = admit(&shared).await?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(4);
    run_blocking(&shared, permits, move |s| {
        let round = |a: &Analysis| tx.blocking_send(event("round", a)).is_ok();
        let last = match on_board!(&spec, p => analyse(&game, p, s, b, &stop, round)) {
            Ok(a) => event("done", &a),
            Err(e) => event("error", &serde_json::json!({ "error": e.1 })),
        };
        let _ = tx.blocking_send(last);
    });
    let events = futures_util::stream::unfold((rx, on_drop), |(mut rx, on_drop)| async move {
        rx.recv().await.map(|e| (Ok(e), (rx, on_drop)))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// A server-sent event named `name` with `data` as JSON.
fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .data(serde_json::to_string(data).expect("plain data serialises"))
}

async fn engine_route(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<Params>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let game = param(&params, "game")?.to_string();
    let spec = position(&game)?;
    let b = budget(&params, &shared.cfg)?;
    let r = queued(
        &shared,
        move |s, stop| on_board!(&spec, p => engine_move(p, s, b, stop)),
    )
    .await?;
    Ok(Json(r))
}

/// `/trace?game=G[&algo=A][&depth=D]`: the step-through viewer of one search of the position
/// (the page `gamesearch trace -o x.html` writes), recorded up to 2,000 nodes, under the
/// server's budgets.
async fn trace_route(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<Params>,
) -> Result<Html<String>, ApiError> {
    use gamesearch::trace::{search_observed, Recorder};
    use gamesearch::{Algorithm, SearchConfig};
    let game = param(&params, "game")?.to_string();
    let spec = position(&game)?;
    let algo: Algorithm = params
        .get("algo")
        .map_or("alphabeta", String::as_str)
        .parse()
        .map_err(|e: gamesearch::Error| ApiError::bad(e.to_string()))?;
    let depth: u32 = match params.get("depth") {
        None => 4,
        Some(d) => d
            .parse()
            .ok()
            .filter(|d| (1..=MAX_TRACE_DEPTH).contains(d))
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "depth={d}: a whole number from 1 to {MAX_TRACE_DEPTH}"
                ))
            })?,
    };
    let (time, nodes) = budget(&params, &shared.cfg)?;
    let page = queued(&shared, move |_, stop| {
        let cfg = SearchConfig::new(depth).with_limits(limits(time, nodes, stop));
        fn record<G: Game>(g: &G, algo: Algorithm, cfg: &SearchConfig) -> gamesearch::trace::Trace {
            let mut rec = Recorder::new(g, TRACE_NODES);
            let outcome = search_observed(g, algo, cfg, &mut rec);
            rec.finish(algo.name(), &outcome)
        }
        let t = on_board!(&spec, p => record(p, algo, &cfg));
        let title = format!("{} on {game} (depth {depth})", algo.name());
        let boards = trace_boards(&game, &t);
        crate::view::html(&title, &[t], &[boards])
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
    })
    .await?;
    Ok(Html(page))
}

/// The deepest search `/trace` records.
const MAX_TRACE_DEPTH: u32 = 12;
/// The most nodes `/trace` records (the search itself runs to its end or its budget).
const TRACE_NODES: usize = 2000;

async fn status(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    let waiting_or_running = shared.cfg.queue - shared.queue.available_permits();
    Json(serde_json::json!({
        "running": shared.running.load(Ordering::Relaxed),
        "in_queue": waiting_or_running,
        "queue": shared.cfg.queue,
        "workers": shared.cfg.workers,
        "max_time": shared.cfg.max_time.as_secs_f64(),
        "max_nodes": shared.cfg.max_nodes,
        "tt_bytes": shared.cfg.tt_bytes,
    }))
}

async fn index() -> Html<&'static str> {
    static PAGE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("board.html").replace("{{BOARDS_JS}}", include_str!("boards.js"))
    });
    Html(PAGE.as_str())
}

/// Refuses a query string longer than [`MAX_QUERY`] before any handler reads it.
async fn limit_query(
    RawQuery(q): RawQuery,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if q.as_ref().is_some_and(|q| q.len() > MAX_QUERY) {
        return ApiError(
            StatusCode::URI_TOO_LONG,
            format!("the query string is longer than {MAX_QUERY} bytes"),
        )
        .into_response();
    }
    next.run(req).await
}

/// The server's routes.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/api/legal", get(legal))
        .route("/api/play", get(play))
        .route("/api/analyse", get(analyse_route))
        .route("/api/analyse/stream", get(analyse_stream))
        .route("/api/engine", get(engine_route))
        .route("/api/status", get(status))
        .route("/trace", get(trace_route))
        .layer(axum::middleware::from_fn(limit_query))
        .layer(axum::extract::DefaultBodyLimit::max(4096))
        .with_state(shared)
}
