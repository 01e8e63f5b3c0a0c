//! `gamesearch search`: one algorithm to a fixed depth, or (without `--algo`, with `--max-time`
//! or `--driver`) the engine deepening until its budget.

use anyhow::{bail, Context, Result};
use clap::Args;
use gamesearch::engine::{Driver, Engine, EngineConfig, Heuristic, Iteration};
use gamesearch::{Algorithm, PositionKey};
use gamesearch_cli::play::{describe, describe_result};
use gamesearch_cli::progress::Activity;
use gamesearch_games::GameSpec;

use super::{check_feasible, horizon, limits, run_all, warn_if_long};
use crate::args::Horizon;
use crate::args::{AlgoArg, DriverArg, EngineOpts, SearchOpts};
use crate::output::{game_title, print_report};

/// The sides as `search` names them in a proven result (it prints any game).
const NAMES: [&str; 2] = ["the first player", "the second player"];

/// Search one game with one algorithm.
#[derive(Args)]
pub struct SearchArgs {
    #[arg(help = crate::args::game_help(|_| true), long_help = crate::args::game_long_help(|_| true))]
    pub game: String,
    /// The algorithm, searched to a fixed depth (default negascout). Without it, and with
    /// --max-time or --driver, the engine deepens until the budget instead.
    #[arg(long)]
    pub algo: Option<AlgoArg>,
    #[command(flatten)]
    pub opts: SearchOpts,
    #[command(flatten)]
    pub engine: EngineOpts,
    /// Also print the leaves evaluated, in order (explicit trees only).
    #[arg(long)]
    pub trace: bool,
}

/// Runs `gamesearch search`.
pub fn run(args: SearchArgs, show: bool) -> Result<()> {
    let SearchArgs {
        game,
        algo,
        opts,
        engine,
        trace,
    } = args;
    let spec: GameSpec = game.parse()?;
    if trace && !matches!(spec, GameSpec::Tree(_)) {
        bail!("--trace lists the leaves of an explicit tree: use a tree:… game");
    }
    // `--driver mcts` (and the other Monte-Carlo drivers) is `--algo mcts`.
    let algo = match (algo, engine.driver.and_then(|d| d.mcts())) {
        (Some(a), Some(_)) if !matches!(a.0, Algorithm::Mcts(_)) => {
            bail!(
                "--driver {:?} is a Monte-Carlo search of its own, not a driver of --algo {}: \
                 give one of them",
                engine.driver.unwrap_or(crate::args::DriverArg::Mcts),
                a.0.name()
            )
        }
        (None, Some(m)) => Some(AlgoArg(m)),
        (a, _) => a,
    };
    if (opts.threads != 1 || opts.parallel.is_some())
        && !matches!(algo, Some(AlgoArg(Algorithm::Mcts(_))))
    {
        bail!("--threads and --parallel are MCTS's: give --algo mcts, mcts-solver or pn-mcts (or --driver)");
    }
    if algo.is_none() && (opts.budget.max_time.is_some() || engine.driver.is_some()) {
        if trace {
            bail!("--trace is for a fixed-depth --algo, not the engine");
        }
        let title = game_title(&game, &spec);
        let unit = gamesearch_cli::play::heuristic_unit(&spec);
        return on_game!(&spec, g => run_engine(g, &title, unit, &opts, &engine, show));
    }
    let algo = opts.algorithm(algo.unwrap_or(AlgoArg(Algorithm::NegaScout)));
    if let Algorithm::Mcts(p) = algo {
        // The library answers a search it cannot run with no result: say why instead.
        p.check()?;
    }
    let depth = if let (Algorithm::Mcts(_), None) = (algo, opts.depth) {
        // Playouts run to the game's end; the tree is bounded by its node cap, plain UCT by
        // its default playouts.
        spec.horizon(None).unwrap_or(u32::MAX)
    } else {
        let depth = horizon(&spec, opts.depth)?;
        check_feasible(&spec, depth, &[algo], opts.budget)?;
        warn_if_long(&spec, depth, algo, opts.budget);
        depth
    };
    let report = run_all(&spec, &opts, depth, &[algo], show)?.remove(0);
    let evaluated = match &spec {
        GameSpec::Tree(t) if trace => Some(t.evaluated()),
        _ => None,
    };
    if opts.json {
        let mut v = serde_json::to_value(&report)?;
        if let Some(e) = evaluated {
            v["evaluated"] = serde_json::json!(e);
        }
        v["horizon"] = serde_json::json!(match opts.horizon {
            Horizon::F => "f",
            Horizon::Heuristic => "heuristic",
        });
        if let Some(rules) = spec.rules_note() {
            v["rules"] = serde_json::json!(rules);
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_report(&game_title(&game, &spec), &report);
        println!("horizon     {}", opts.horizon.describe());
        if let Some(e) = evaluated {
            println!("evaluated   {}", e.join(" "));
        }
    }
    Ok(())
}

/// `search` without `--algo`: the engine deepens until the budget (or `--depth`), printing one
/// line per iteration.
fn run_engine<G: PositionKey + Heuristic>(
    g: &G,
    game: &str,
    unit: Option<&str>,
    opts: &SearchOpts,
    eo: &EngineOpts,
    show: bool,
) -> Result<()> {
    let driver = match eo.driver {
        Some(DriverArg::Mtdf) => Driver::Mtdf,
        _ => Driver::Pvs {
            aspiration: eo.aspiration,
        },
    };
    let cfg = EngineConfig {
        tt_bytes: usize::try_from(eo.tt_mb << 20).context("--tt-mb: too large")?,
        driver,
        max_depth: opts.depth.unwrap_or(128).max(1),
    };
    let mut engine: Engine<G> = Engine::new(&cfg)?;
    let activity = Activity::start(show, "engine");
    let lim = limits(opts.budget)?.with_node_counter(activity.counter());
    let name = |pv: &[G::Move]| gamesearch::line_names(g, pv);
    if !opts.json {
        println!("game        {game}");
        if let Some(unit) = unit {
            println!("values      the first player's view; estimates in {unit}");
        }
    }
    // Values the first player's; a proven result names its winner.
    let value_text =
        |it: &Iteration<G::Move>| describe_result(it.mate, Some(it.value), g.to_move(), NAMES);
    let t = engine.think(g, &lim, |it| {
        if !opts.json {
            activity.message(String::new());
            println!(
                "depth {:>3}  value {:>10}  nodes {:>11}  time {:>8.3} s  pv {}",
                it.depth,
                value_text(it),
                it.nodes,
                it.elapsed.as_secs_f64(),
                name(&it.pv).join(" ")
            );
        }
        activity.message(format!("depth {} done", it.depth));
    });
    activity.finish();
    let best = t.best_move.map(|m| g.move_name(m));
    if opts.json {
        let iterations: Vec<serde_json::Value> = t
            .iterations
            .iter()
            .map(|it| {
                serde_json::json!({
                    "depth": it.depth, "value": it.value, "mate": it.mate, "pv": name(&it.pv),
                    "nodes": it.nodes, "tt_hits": it.tt_hits,
                    "time_ms": it.elapsed.as_secs_f64() * 1e3,
                })
            })
            .collect();
        let out = serde_json::json!({
            "algo": "engine",
            "unit": unit,
            "driver": match driver { Driver::Mtdf => "mtdf", Driver::Pvs { .. } => "pvs" },
            "depth": t.depth, "value": t.value, "mate": t.mate, "best_move": best,
            "pv": name(&t.pv), "complete": t.complete, "stats": t.stats,
            "nodes_per_second": t.nodes_per_second(),
            "time_ms": t.elapsed.as_secs_f64() * 1e3, "iterations": iterations,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        // One convention: a value is the first player's, a proven result names its winner.
        let what = match (t.mate, t.value) {
            (None, Some(_)) => format!(
                "value {}, the first player's view",
                describe(&t, g.to_move(), NAMES)
            ),
            _ => describe(&t, g.to_move(), NAMES),
        };
        println!(
            "best move   {}  ({what}, depth {}{})",
            best.as_deref().unwrap_or("-"),
            t.depth,
            if t.complete { ", complete" } else { "" }
        );
        println!(
            "stats       nodes {}  {:.0} nodes/s  tt hits {}  time {:.3} s",
            t.stats.nodes(),
            t.nodes_per_second(),
            t.stats.tt_hits,
            t.elapsed.as_secs_f64()
        );
    }
    Ok(())
}
