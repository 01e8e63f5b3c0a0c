//! `gamesearch compare`: several algorithms on the same game, one table of values and counts.

use anyhow::Result;
use clap::Args;
use gamesearch::Algorithm;
use gamesearch_games::GameSpec;

use super::{check_feasible, default_algorithms, horizon, run_all, HINT_NODES};
use crate::args::{AlgoArg, SearchOpts};
use crate::output::{game_title, print_table};

/// Run several algorithms on the same game and print a table of values and node counts.
#[derive(Args)]
pub struct CompareArgs {
    #[arg(help = crate::args::game_help(|_| true), long_help = crate::args::game_long_help(|_| true))]
    pub game: String,
    /// Comma-separated algorithms (default: every algorithm whose cost can be bounded on
    /// this tree; the others are named with the flag that runs them).
    #[arg(long, value_delimiter = ',', conflicts_with = "all")]
    pub algos: Option<Vec<AlgoArg>>,
    /// Every algorithm, also those that keep the whole tree in memory on a large tree.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub opts: SearchOpts,
}

/// Runs `gamesearch compare`.
pub fn run(args: CompareArgs, show: bool) -> Result<()> {
    let CompareArgs {
        game,
        algos,
        all,
        opts,
    } = args;
    let spec: GameSpec = game.parse()?;
    let depth = horizon(&spec, opts.depth)?;
    let (algos, left_out) = match algos {
        Some(list) => (list.iter().map(|&a| opts.algorithm(a)).collect(), vec![]),
        None if all => (
            Algorithm::ALL.map(|a| opts.algorithm(AlgoArg(a))).to_vec(),
            vec![],
        ),
        None => default_algorithms(&spec, depth, opts.budget),
    };
    check_feasible(&spec, depth, &algos, opts.budget)?;
    let reports = run_all(&spec, &opts, depth, &algos, show)?;
    let note = (!left_out.is_empty()).then(|| {
            let names: Vec<&str> = left_out.iter().map(|a: &Algorithm| a.name()).collect();
            format!(
                "not run by default: {} (they keep the searched tree in memory; this one has up to {:.1e} nodes); \
                 run them with a budget: --algos {} --max-nodes {HINT_NODES} (or --all --max-nodes {HINT_NODES})",
                names.join(", "),
                spec.max_nodes(depth) as f64,
                names.join(",")
            )
        });
    if opts.json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
        if let Some(n) = note {
            eprintln!("{n}");
        }
    } else {
        print_table(&game_title(&game, &spec), &reports);
        if let Some(n) = note {
            println!("{n}");
        }
    }
    Ok(())
}
