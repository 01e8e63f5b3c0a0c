//! `gamesearch trace`: record searches step by step and write them as JSON, DOT, SVG or the
//! step-through page.

use anyhow::{bail, Context, Result};
use clap::Args;
use gamesearch::{Algorithm, SearchConfig};
use gamesearch_games::GameSpec;

use super::{check_feasible, horizon, limits};
use crate::args::{whole, AlgoArg, SearchOpts};

/// Record searches step by step and draw them: the JSON trace, the searched tree as DOT or
/// SVG, and a self-contained HTML page that steps through the search (several algorithms
/// side by side).
#[derive(Args)]
pub struct TraceArgs {
    #[arg(help = crate::args::game_help(|_| true), long_help = crate::args::game_long_help(|_| true))]
    pub game: String,
    /// Comma-separated algorithms (several: side by side in the HTML page).
    #[arg(long, value_delimiter = ',', default_value = "alphabeta")]
    pub algo: Vec<AlgoArg>,
    #[command(flatten)]
    pub opts: SearchOpts,
    /// A file to write, its format by extension: .html (the step-through page), .json (the
    /// trace), .dot (Graphviz), .svg (drawn without Graphviz). Repeat for several; without
    /// one, nothing is written (a summary is printed; --json prints the trace). With several
    /// algorithms, .dot and .svg get one file each (NAME-ALGO.svg).
    #[arg(long, short)]
    pub out: Vec<std::path::PathBuf>,
    /// Most nodes recorded per algorithm; past it the recording stops (marked truncated in
    /// every output) while the search runs to its end.
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1_000_000))]
    pub node_cap: u64,
}

/// Runs `gamesearch trace`.
pub fn run(args: TraceArgs) -> Result<()> {
    let TraceArgs {
        game,
        algo,
        opts,
        out,
        node_cap,
    } = args;
    trace(&game, &algo, &opts, &out, node_cap as usize)
}

/// `gamesearch trace`: records each algorithm's search and writes the pictures.
fn trace(
    game: &str,
    algos: &[AlgoArg],
    opts: &SearchOpts,
    out: &[std::path::PathBuf],
    cap: usize,
) -> Result<()> {
    use gamesearch::trace::{search_observed, Recorder};
    use gamesearch_cli::view;
    let spec: GameSpec = game.parse()?;
    let algos: Vec<Algorithm> = algos.iter().map(|&a| opts.algorithm(a)).collect();
    if opts.threads != 1 {
        bail!("trace records one thread: leave out --threads");
    }
    let monte_carlo = |a: &Algorithm| matches!(a, Algorithm::Mcts(_));
    let depth = if algos.iter().all(monte_carlo) && opts.depth.is_none() {
        // Playouts run to the end of the game, as in `search`.
        spec.horizon(None).unwrap_or(u32::MAX)
    } else {
        let depth = horizon(&spec, opts.depth)?;
        check_feasible(&spec, depth, &algos, opts.budget)?;
        depth
    };
    let root_label = match &spec {
        GameSpec::Tree(t) => t.nodes()[0].name.clone(),
        _ => None,
    }
    .unwrap_or_else(|| "root".to_string());
    // Nothing is written that was not asked for: files only with -o.
    let outputs = out;
    for o in outputs {
        match o.extension().and_then(|e| e.to_str()) {
            Some("html" | "json" | "dot" | "svg") => {}
            _ => bail!(
                "{}: the output's extension must be .html, .json, .dot or .svg",
                o.display()
            ),
        }
    }
    let base = limits(opts.budget)?;
    let mut traces = Vec::new();
    for &a in &algos {
        let mut limits = base.clone();
        if monte_carlo(&a) && !opts.budget.given() {
            // One node joins MCTS's tree a playout: past the cap nothing more is recorded.
            limits.max_nodes = Some(cap as u64);
        }
        let mut cfg = SearchConfig::new(depth).with_limits(limits);
        cfg.shallow_refinement = !opts.no_shallow_refinement;
        let t = on_game!(&spec, g => {
            let mut rec = Recorder::new(g, cap)
                .root_label(&root_label)
                .with_repetitions();
            let outcome = search_observed(g, a, &cfg, &mut rec);
            rec.finish(a.name(), &outcome)
        });
        if t.truncated && monte_carlo(&a) && !opts.budget.given() {
            eprintln!(
                "note: {}: recorded its first {cap} playouts (--node-cap); --max-nodes or --max-time searches on past the recording",
                a.name()
            );
        } else if t.truncated {
            eprintln!(
                "note: {}: the recording stopped at {cap} nodes (--node-cap); the search ran to its end",
                a.name()
            );
        }
        traces.push(t);
    }
    let names: Vec<&str> = algos.iter().map(|a| a.name()).collect();
    let title = format!("{} on {game} (depth {depth})", names.join(" vs "));
    let per_algo = |path: &std::path::Path, i: usize| -> std::path::PathBuf {
        if traces.len() == 1 {
            return path.to_path_buf();
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("trace");
        let ext = path.extension().and_then(|s| s.to_str()).unwrap_or("");
        path.with_file_name(format!("{stem}-{}.{ext}", names[i]))
    };
    let write = |path: &std::path::Path, text: &str| -> Result<()> {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
        Ok(())
    };
    for o in outputs {
        match o.extension().and_then(|e| e.to_str()) {
            Some("html") => {
                let boards: Vec<_> = traces
                    .iter()
                    .map(|t| gamesearch_cli::serve::trace_boards(game, t))
                    .collect();
                write(o, &view::html(&title, &traces, &boards)?)?
            }
            Some("json") if traces.len() == 1 => {
                write(o, &serde_json::to_string_pretty(&traces[0])?)?
            }
            Some("json") => write(o, &serde_json::to_string_pretty(&traces)?)?,
            Some("dot") => {
                for (i, t) in traces.iter().enumerate() {
                    write(&per_algo(o, i), &view::dot(t))?;
                }
            }
            _ => {
                for (i, t) in traces.iter().enumerate() {
                    write(&per_algo(o, i), &view::svg(t))?;
                }
            }
        }
    }
    if opts.json {
        println!("{}", serde_json::to_string_pretty(&traces)?);
        return Ok(());
    }
    if outputs.is_empty() {
        eprintln!(
            "(no file written: -o trace.html writes the step-through page, -o t.svg the tree)"
        );
    }
    for t in &traces {
        let s = t.stats;
        println!(
            "{:<18} value {:>6}  steps {:>6}  nodes shown {:>5}{}  leaves {:>6}  re-searches {:>4}",
            t.algorithm,
            t.value.map_or("none".into(), |v| v.to_string()),
            t.steps.len(),
            t.nodes.len(),
            if t.truncated { " (cap)" } else { "" },
            s.leaves,
            s.re_searches
        );
    }
    Ok(())
}
