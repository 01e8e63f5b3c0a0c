//! The routes: the position a `game` argument names, and each endpoint's handler.

use super::*;

/// A position on a board the server plays.
pub(super) enum Position {
    Connect4(Connect4),
    Connect4Wide(Connect4<u128>),
    Kalah(Kalah),
    TicTacToe(TicTacToe),
    Othello(Othello),
    Domineering(Domineering),
    Hex(Hex),
    Dobutsu(Dobutsu),
}

/// Binds `$p` to the position's game and evaluates `$body` (monomorphised per game).
macro_rules! on_board {
    ($position:expr, $p:ident => $body:expr) => {
        match $position {
            Position::Connect4($p) => $body,
            Position::Connect4Wide($p) => $body,
            Position::Kalah($p) => $body,
            Position::TicTacToe($p) => $body,
            Position::Othello($p) => $body,
            Position::Domineering($p) => $body,
            Position::Hex($p) => $body,
            Position::Dobutsu($p) => $body,
        }
    };
}

/// The position a `game` argument names, on a board the server plays.
pub(super) fn position(game: &str) -> Result<Position, ApiError> {
    if game.is_empty() {
        return Err(ApiError::bad(
            "missing `game` (e.g. game=connect4:7x6:4453)",
        ));
    }
    let other = || {
        ApiError::bad(format!(
            "`{game}`: the server plays {}",
            gamesearch_games::spec::forms(|k| k.board)
        ))
    };
    let board = [
        "connect4:",
        "kalah:",
        "tictactoe:",
        "othello:",
        "domineering:",
        "hex:",
        "dobutsu:",
    ];
    if !["tictactoe", "othello", "domineering", "hex", "dobutsu"].contains(&game)
        && !board.iter().any(|b| game.starts_with(b))
    {
        return Err(other());
    }
    match game.parse()? {
        GameSpec::Connect4(p) => Ok(Position::Connect4(p)),
        GameSpec::Connect4Wide(p) => Ok(Position::Connect4Wide(p)),
        GameSpec::Kalah(p) => Ok(Position::Kalah(p)),
        GameSpec::TicTacToe(p) => Ok(Position::TicTacToe(p)),
        GameSpec::Othello(p) => Ok(Position::Othello(p)),
        GameSpec::Domineering(p) => Ok(Position::Domineering(p)),
        GameSpec::Hex(p) => Ok(Position::Hex(p)),
        GameSpec::Dobutsu(p) => Ok(Position::Dobutsu(p)),
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
                None => Some((root.clone(), root.board_form().unwrap_or(game.to_string()))),
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

/// The `game` argument of the position after `mv` from `p` (named `game`).
pub(super) fn game_after<G: Served>(game: &str, p: &G, mv: G::Move) -> String {
    p.game_after(game, mv)
}

pub(super) fn param<'p>(params: &'p Params, name: &str) -> Result<&'p str, ApiError> {
    params
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad(format!("missing `{name}`")))
}

pub(super) async fn legal(
    Query(params): Query<Params>,
) -> Result<Json<serde_json::Value>, ApiError> {
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
            "board": p.board_form(),
        })
    }
    let mut answer = on_board!(position(game)?, p => list(game, &p));
    // The rule set where the game's name leaves it open (Kalah's capture rule), for the page.
    if let Some(rules) = game.parse::<GameSpec>().ok().and_then(|s| s.rules_note()) {
        answer["rules"] = serde_json::json!(rules);
    }
    Ok(Json(answer))
}

pub(super) async fn play(
    Query(params): Query<Params>,
) -> Result<Json<serde_json::Value>, ApiError> {
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

pub(super) async fn analyse_route(
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
pub(super) async fn analyse_stream(
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
        let last = match on_board!(&spec, p => analyse(&game, p, s, b, &stop, round))
            .and_then(|a| s.check_running().map(|()| a))
        {
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
pub(super) fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .data(serde_json::to_string(data).expect("plain data serialises"))
}

pub(super) async fn engine_route(
    State(shared): State<Arc<Shared>>,
    Query(params): Query<Params>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let game = param(&params, "game")?.to_string();
    let spec = position(&game)?;
    let b = budget(&params, &shared.cfg)?;
    let mcts = mcts_driver(&params)?;
    let r = queued(&shared, move |s, stop| match mcts {
        Some(cfg) => on_board!(&spec, p => mcts_move(p, &cfg, b, stop)),
        None => on_board!(&spec, p => engine_move(p, s, b, stop)),
    })
    .await?;
    Ok(Json(r))
}

/// `/trace?game=G[&algo=A][&depth=D]`: the step-through viewer of one search of the position
/// (the page `gamesearch trace -o x.html` writes), recorded up to 2,000 nodes, under the
/// server's budgets.
pub(super) async fn trace_route(
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
        fn record<G: gamesearch::PositionKey>(
            g: &G,
            algo: Algorithm,
            cfg: &SearchConfig,
        ) -> gamesearch::trace::Trace {
            let mut rec = Recorder::new(g, TRACE_NODES).with_repetitions();
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
pub(super) const MAX_TRACE_DEPTH: u32 = 12;
/// The most nodes `/trace` records (the search itself runs to its end or its budget).
pub(super) const TRACE_NODES: usize = 2000;
