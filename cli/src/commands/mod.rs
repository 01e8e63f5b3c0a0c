//! One file per subcommand (`gamesearch search` is `search.rs`, …), and what they share: the
//! stop flag, budgets as limits, the game dispatch, the horizon and the feasibility checks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::{bail, Result};
use gamesearch::adapters::AtHorizon;
use gamesearch::conspiracy::CnTree;
use gamesearch::proof_number::PnTree;
use gamesearch::{run_report_parallel, Algorithm, Error, Game, Limits, Report, SearchConfig};
use gamesearch_cli::experiments::ratios::minimal_tree;
use gamesearch_cli::progress::Activity;
use gamesearch_games::GameSpec;

use crate::args::{Budgets, Horizon, SearchOpts};

/// Binds `$g` to the root position of whatever game `$spec` names and evaluates `$body` (each
/// game is its own type, so the body is monomorphised per game).
macro_rules! on_game {
    ($spec:expr, $g:ident => $body:expr) => {
        match $spec {
            GameSpec::Random(r) => {
                let root = r.root()?;
                let $g = &root;
                $body
            }
            GameSpec::Tree(t) => {
                let root = t.root();
                let $g = &root;
                $body
            }
            GameSpec::Kalah(k) => {
                let $g = k;
                $body
            }
            GameSpec::TicTacToe(p) => {
                let $g = p;
                $body
            }
            GameSpec::Connect4(p) => {
                let $g = p;
                $body
            }
            GameSpec::Connect4Wide(p) => {
                let $g = p;
                $body
            }
            GameSpec::Othello(p) => {
                let $g = p;
                $body
            }
            GameSpec::Domineering(p) => {
                let $g = p;
                $body
            }
            GameSpec::Hex(p) => {
                let $g = p;
                $body
            }
            GameSpec::Dobutsu(p) => {
                let $g = p;
                $body
            }
        }
    };
}

pub mod bench;
pub mod combine;
pub mod compare;
pub mod experiment;
pub mod gtp;
pub mod learn;
pub mod play;
pub mod search;
pub mod serve;
pub mod solve;
pub mod split;
pub mod tablebase;
pub mod trace;

/// Raised by Ctrl-C, SIGTERM or SIGHUP; every search polls it and stops cleanly.
pub(crate) fn stop_flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // A second signal while the first is being honoured ends the process at once.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::Relaxed) {
                std::process::exit(130);
            }
        });
        flag
    })
}

pub(crate) fn interrupted() -> bool {
    stop_flag().load(Ordering::Relaxed)
}

/// `--weights FILE|none`: the learned evaluation of `spec`'s game for the rest of the run,
/// chosen before any search — a weights file from `gamesearch learn` (refused with one line
/// when it is damaged, truncated or for another game), or `none` for the hand-written
/// evaluation. Othello and Kalah have one; another game is refused.
pub(crate) fn use_weights(spec: &GameSpec, arg: Option<&str>) -> Result<()> {
    fn read<G: gamesearch::learn::Features>(
        arg: &str,
        board: &G,
    ) -> Result<Option<gamesearch::learn::Weights>> {
        if arg == "none" {
            return Ok(None);
        }
        let path = std::path::Path::new(arg);
        Ok(Some(gamesearch::learn::Weights::load(path, board)?))
    }
    let Some(arg) = arg else {
        return Ok(());
    };
    match spec {
        GameSpec::Othello(p) => {
            gamesearch_games::othello::use_weights(p.size() as u8, read(arg, p)?)?
        }
        GameSpec::Kalah(k) => {
            gamesearch_games::kalah::use_weights(k.pits(), k.rule(), read(arg, k)?)?
        }
        _ => bail!(
            "--weights is for the games with a learned evaluation (othello, kalah), not this one"
        ),
    }
    Ok(())
}

/// Node and time budgets from the command line, plus the stop flag (Ctrl-C, SIGTERM).
pub(crate) fn limits(b: Budgets) -> Result<Limits> {
    let mut limits = Limits::none().with_stop_flag(stop_flag().clone());
    if let Some(n) = b.max_nodes {
        limits = limits.with_max_nodes(n);
    }
    if let Some(t) = b.max_time {
        limits = limits.with_max_time(Duration::from_secs_f64(t));
    }
    Ok(limits)
}

/// The horizon: `--depth` (no deeper than the tree), or the whole tree where it is finite.
pub(crate) fn horizon(spec: &GameSpec, depth: Option<u32>) -> Result<u32> {
    match spec.horizon(depth) {
        Some(d) => Ok(d),
        None => bail!("this game needs a horizon: give --depth D (or use `solve`)"),
    }
}

/// Runs each algorithm on the game, with the budgets, the stop flag and a progress line.
pub(crate) fn run_all(
    spec: &GameSpec,
    opts: &SearchOpts,
    depth: u32,
    algos: &[Algorithm],
    show: bool,
) -> Result<Vec<Report>> {
    let base = limits(opts.budget)?;
    let clear_log = || {
        if let GameSpec::Tree(t) = spec {
            t.clear_log();
        }
    };
    let mut reports = Vec::with_capacity(algos.len());
    for (i, &a) in algos.iter().enumerate() {
        if interrupted() {
            break;
        }
        let what = if algos.len() > 1 {
            format!("[{}/{}] {a}", i + 1, algos.len())
        } else {
            a.to_string()
        };
        let activity = Activity::start(show, &what);
        let mut cfg = SearchConfig::new(depth)
            .with_limits(base.clone().with_node_counter(activity.counter()));
        cfg.shallow_refinement = !opts.no_shallow_refinement;
        clear_log();
        let report = match opts.horizon {
            Horizon::F => on_game!(spec, g => run_report_parallel(g, a, &cfg)),
            Horizon::Heuristic => {
                on_game!(spec, g => run_report_parallel(&AtHorizon::new(*g), a, &cfg))
            }
        };
        activity.finish();
        if let Some(e) = &report.error {
            bail!("{a}: {e}");
        }
        reports.push(report);
    }
    Ok(reports)
}

/// The node budget `compare`'s hint gives for the algorithms it leaves out: seconds, not hours.
pub(crate) const HINT_NODES: u64 = 200_000;

/// Proof-number and conspiracy search keep the searched tree in memory; `compare` runs them by
/// default only on trees of at most this many nodes (they finish in seconds there).
pub(crate) const TREE_DEFAULT_LIMIT: u64 = 1_000_000;

/// Above this many nodes they are refused without a budget (hours, gigabytes).
pub(crate) const TREE_LIMIT: u64 = 5_000_000;

/// `compare`'s default algorithms: every one whose cost is bounded on this tree, and those left
/// out.
pub(crate) fn default_algorithms(
    spec: &GameSpec,
    depth: u32,
    budget: Budgets,
) -> (Vec<Algorithm>, Vec<Algorithm>) {
    let small = budget.given() || spec.max_nodes(depth) <= TREE_DEFAULT_LIMIT;
    Algorithm::ALL
        .into_iter()
        .partition(|a| !a.keeps_tree() || small)
}

/// The game's branching factor, where it has a fixed one.
pub(crate) fn branching(spec: &GameSpec) -> Option<u32> {
    match spec {
        GameSpec::Random(r) => Some(r.b),
        GameSpec::Kalah(k) => Some(k.pits() as u32),
        GameSpec::Connect4(c) => Some(c.width() as u32),
        GameSpec::Connect4Wide(c) => Some(c.width() as u32),
        GameSpec::Tree(_)
        | GameSpec::TicTacToe(_)
        | GameSpec::Othello(_)
        | GameSpec::Domineering(_)
        | GameSpec::Hex(_)
        | GameSpec::Dobutsu(_) => None,
    }
}

/// A line on stderr before a search without a budget that may run long (its minimal tree past
/// a million leaves): what it will cost at least and at most, and how to bound it.
pub(crate) fn warn_if_long(spec: &GameSpec, depth: u32, algo: Algorithm, budget: Budgets) {
    if budget.given() {
        return;
    }
    let Some(b) = branching(spec) else { return };
    let depth = depth.min(spec.max_plies().unwrap_or(depth));
    let minimal = minimal_tree(b, depth);
    if minimal <= 1_000_000 {
        return;
    }
    let full = (b as f64).powi(depth as i32);
    eprintln!(
        "note: {algo} to depth {depth} with b={b}: between {:.1e} leaves (the minimal tree) and {:.1e} (every line); \
         --max-time or --max-nodes bounds it, Ctrl-C stops it with the best root move searched to the end",
        minimal as f64, full
    );
}

/// Refuses searches that cannot finish (unless a budget was given): minimax beyond 10^10
/// leaves, any algorithm whose minimal tree exceeds 10^12 leaves, proof-number and conspiracy
/// search on trees of more than [`TREE_LIMIT`] nodes.
pub(crate) fn check_feasible(
    spec: &GameSpec,
    depth: u32,
    algos: &[Algorithm],
    budget: Budgets,
) -> Result<()> {
    if budget.given() {
        return Ok(());
    }
    let b = branching(spec);
    // No deeper than the game can last (Connect-Four 5x4 ends within 20 plies).
    let depth_b = depth.min(spec.max_plies().unwrap_or(depth));
    if let Some(b) = b {
        let full = u64::from(b).checked_pow(depth_b);
        if algos.contains(&Algorithm::Minimax) && full.is_none_or(|n| n > 10_000_000_000) {
            return Err(Error::TooLarge(format!(
                "minimax on b={b} to depth {depth_b} would evaluate b^depth = {} leaves (limit 10^10); \
                 lower the depth or give --max-nodes/--max-time",
                full.map_or("more than 1.8e19".to_string(), |n| format!("{:.2e}", n as f64))
            ))
            .into());
        }
        let minimal = minimal_tree(b, depth_b);
        if minimal > 1_000_000_000_000 {
            return Err(Error::TooLarge(format!(
                "b={b} to depth {depth_b}: even the minimal tree has {:.2e} leaves (limit 10^12); \
                 lower the depth or give --max-nodes/--max-time",
                minimal as f64
            ))
            .into());
        }
    }
    let nodes = spec.max_nodes(depth);
    if let Some(a) = algos.iter().find(|a| a.keeps_tree()) {
        if nodes > TREE_LIMIT {
            let bytes = on_game!(spec, g => tree_node_bytes(g));
            return Err(Error::TooLarge(format!(
                "{a} keeps the searched tree in memory: up to {:.1e} nodes ({}) here (limit {:.0e} nodes); \
                 lower the depth or give --max-nodes/--max-time",
                nodes as f64,
                gamesearch::error::human_bytes(usize::try_from(nodes).unwrap_or(usize::MAX).saturating_mul(bytes)),
                TREE_LIMIT as f64
            ))
            .into());
        }
    }
    Ok(())
}

/// Bytes of one node of the larger of the two in-memory trees, for this game.
pub(crate) fn tree_node_bytes<G: Game>(_: &G) -> usize {
    PnTree::<G>::NODE_BYTES.max(CnTree::<G>::NODE_BYTES)
}
