//! One position analysed: every move's value, exact from the solver when it finishes within its
//! share of the budget, else the engine's evaluation, found in rounds.

use super::*;

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

/// A search's limits: the request's budget and its stop flag.
pub(super) fn limits(time: Duration, nodes: u64, stop: &Arc<AtomicBool>) -> Limits {
    Limits::none()
        .with_max_time(time)
        .with_max_nodes(nodes)
        .with_stop_flag(Arc::clone(stop))
}

/// The query's parameters; `None` where absent.
pub(super) type Params = HashMap<String, String>;

pub(super) fn budget(params: &Params, cfg: &ServeConfig) -> Result<(Duration, u64), ApiError> {
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
pub(super) fn analyse<G: Served>(
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
            // Where positions repeat, df-pn (the weak solver for such games: the exact
            // solver searches again every value a repetition decided, on lines that may run
            // past its stack); a line too deep for it is a move left to the engine.
            let solved = if G::REPEATS {
                gamesearch::solve(&child, gamesearch::Method::Dfpn, &solve_cfg)
            } else {
                analyst.solver.solve(&child, &solve_cfg, |_| {})
            };
            let s = match solved {
                Ok(s) => Some(s),
                Err(gamesearch::Error::LineTooDeep { .. }) if G::REPEATS => None,
                Err(e) => {
                    give_back(slot, taken);
                    return Err(e.into());
                }
            };
            if let Some(s) = &s {
                mv.nodes += s.stats.nodes();
                out.nodes += s.stats.nodes();
                (mv.value, mv.bounds) = (s.value, s.bounds);
            }
            if mv.value.is_none() {
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
pub(super) fn settle(mover: Player, out: &mut Analysis) {
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

/// A finished game has no move to make: a 400.
fn game_goes_on<G: Game>(p: &G) -> Result<(), ApiError> {
    match p.moves().next() {
        Some(_) => Ok(()),
        None => Err(ApiError::bad("the game is over: no move to make")),
    }
}

/// The engine's move for `p`.
pub(super) fn engine_move<G: Served>(
    p: &G,
    shared: &Shared,
    (time, nodes): (Duration, u64),
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    game_goes_on(p)?;
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

/// `driver=pvs|mcts|mcts-solver|pn-mcts` and `seed=S` of `/api/engine`: the Monte-Carlo search
/// asked for, if one is.
pub(super) fn mcts_driver(params: &Params) -> Result<Option<MctsConfig>, ApiError> {
    // The Monte-Carlo drivers are the library's algorithms of those names.
    let p = match params.get("driver").map(String::as_str) {
        None | Some("pvs") => return Ok(None),
        Some(d) => match d.parse() {
            Ok(Algorithm::Mcts(p)) => p,
            _ => {
                return Err(ApiError::bad(format!(
                    "driver={d}: expected pvs, mcts, mcts-solver or pn-mcts"
                )))
            }
        },
    };
    let seed = match params.get("seed") {
        None => 1,
        Some(s) => s
            .parse()
            .map_err(|_| ApiError::bad(format!("seed={s}: a whole number ≥ 0")))?,
    };
    Ok(Some(MctsConfig {
        seed,
        // A request's tree stays within what one request may hold.
        max_tree_nodes: 1 << 22,
        ..p.config(u32::MAX)
    }))
}

/// `/api/engine` with a Monte-Carlo driver: a fresh tree searched within the budget (nodes:
/// playouts); the move, the proven result or the mean reward for the side to move, and each
/// move's visits and mean.
pub(super) fn mcts_move<G: Served>(
    p: &G,
    cfg: &MctsConfig,
    (time, nodes): (Duration, u64),
    stop: &Arc<AtomicBool>,
) -> Result<serde_json::Value, ApiError> {
    game_goes_on(p)?;
    let start = std::time::Instant::now();
    let r = gamesearch::mcts::search(p, cfg, &limits(time, nodes, stop))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    let for_mover = |mean_for_max: f64| match p.to_move() {
        Player::Max => mean_for_max,
        Player::Min => 1.0 - mean_for_max,
    };
    let children: Vec<serde_json::Value> = r
        .children
        .iter()
        .map(|&(m, visits, mean)| serde_json::json!({"move": p.move_name(m), "visits": visits, "mean": mean}))
        .collect();
    Ok(serde_json::json!({
        "move": r.best_move.map(|m| p.move_name(m)),
        "proven": r.proven, "mean": for_mover(r.mean), "playouts": r.playouts,
        "tree_nodes": r.tree_nodes, "children": children,
        "time_ms": start.elapsed().as_secs_f64() * 1e3,
    }))
}
