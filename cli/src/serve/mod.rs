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
//! `kalah:POSITION`, `tictactoe[:CELLS]`, `othello[:NxN[:MOVES]]`,
//! `othello:NxN:board=CELLS/SIDE`, `domineering[:MxN[:v|:h][:MOVES]]`,
//! `domineering:MxN:v|h:board=CELLS/SIDE`, `hex[:NxN[:swap][:MOVES]]`,
//! `hex:NxN[:swap]:board=CELLS/SIDE`, `dobutsu[:MOVES]`, `dobutsu:board=RANKS/SIDE[/HANDS]`.
//! Values are the first player's view (MAX), as everywhere in gamesearch.

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
use gamesearch::mcts::MctsConfig;
use gamesearch::solver::{ExactSolver, SolveConfig};
use gamesearch::tablebase::Tablebase;
use gamesearch::{line_names, Algorithm, Game, Limits, Player, Score, INF};
use gamesearch_games::GameSpec;
use gamesearch_games::{Connect4, Dobutsu, Domineering, Hex, Kalah, Othello, TicTacToe};
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::play::Board;

mod analysis;
mod analysts;
pub mod bare_errors;
mod queue;
mod routes;

use analysis::*;
pub use analysis::{Analysis, MoveValue};
use analysts::*;
use queue::*;
pub use routes::trace_boards;
use routes::*;

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
    /// 503: the server is stopping (a signal), the request's search stopped or not started.
    fn stopping() -> Self {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is stopping: the search was not finished".into(),
        )
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

/// What every request shares.
pub struct Shared {
    cfg: ServeConfig,
    queue: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    running: AtomicUsize,
    /// Raised when the server is told to stop (Ctrl-C, SIGTERM): new requests are refused and
    /// the searches in hand stop and answer 503 at once.
    stopping: AtomicBool,
    /// The stop flags of the requests in hand, raised by [`Shared::stop_all`].
    live: std::sync::Mutex<Vec<std::sync::Weak<AtomicBool>>>,
    connect4: Slot<Connect4>,
    connect4_wide: Slot<Connect4<u128>>,
    kalah: Slot<Kalah>,
    tictactoe: Slot<TicTacToe>,
    othello: Slot<Othello>,
    domineering: Slot<Domineering>,
    hex: Slot<Hex>,
    dobutsu: Slot<Dobutsu>,
}

impl Shared {
    /// Nothing searched yet.
    pub fn new(cfg: ServeConfig) -> Arc<Self> {
        Arc::new(Shared {
            cfg,
            queue: Arc::new(Semaphore::new(cfg.queue)),
            workers: Arc::new(Semaphore::new(cfg.workers.clamp(1, cfg.queue))),
            running: AtomicUsize::new(0),
            stopping: AtomicBool::new(false),
            live: std::sync::Mutex::new(Vec::new()),
            connect4: empty(),
            connect4_wide: empty(),
            kalah: empty(),
            tictactoe: empty(),
            othello: empty(),
            domineering: empty(),
            hex: empty(),
            dobutsu: empty(),
        })
    }
}

impl Shared {
    /// The server is stopping: every search in hand stops (its request answers 503 with a JSON
    /// error) and every new request is refused the same way.
    pub fn stop_all(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        let live = self
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for flag in live.iter().filter_map(std::sync::Weak::upgrade) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// A new request's stop flag, raised when the server stops; refused once it is stopping.
    fn request_flag(&self) -> Result<Arc<AtomicBool>, ApiError> {
        let flag = Arc::new(AtomicBool::new(false));
        let mut live = self
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.stopping.load(Ordering::Relaxed) {
            return Err(ApiError::stopping());
        }
        live.retain(|w| w.strong_count() > 0);
        live.push(Arc::downgrade(&flag));
        Ok(flag)
    }

    /// [`ApiError::stopping`] once the server is stopping (a search it stopped answers so).
    fn check_running(&self) -> Result<(), ApiError> {
        if self.stopping.load(Ordering::Relaxed) {
            return Err(ApiError::stopping());
        }
        Ok(())
    }
}

/// Sets the flag when dropped: the request's future is dropped when its client goes away.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

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
        include_str!("../board.html").replace("{{BOARDS_JS}}", include_str!("../boards.js"))
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

/// A path the server does not serve: 404 with a JSON error, as every error is.
async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!(
            "no such page: {} (see docs/guide/server-api.md)",
            uri.path()
        ),
    )
}

/// A method other than GET on a route: 405 with a JSON error.
async fn method_not_allowed(method: axum::http::Method) -> ApiError {
    ApiError(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed: every route answers GET"),
    )
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
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(limit_query))
        .layer(axum::extract::DefaultBodyLimit::max(4096))
        .with_state(shared)
}
