//! `gamesearch split`: a position's exact solve as independent jobs, one JSON line each, for
//! any batch system (a Slurm array, Kubernetes Jobs, a shell loop, Ray through the Python
//! package). Each line is `{"key": …, "game": …}`; `gamesearch solve --job LINE` solves one
//! and prints its result line; `gamesearch combine` backs the results up to the root.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use gamesearch_games::split::split_text;

use crate::args::whole;

/// Split a position's solve into jobs at a ply (JSON lines on stdout).
#[derive(Args)]
pub struct SplitArgs {
    #[arg(help = crate::args::game_help(|k| k.splits))]
    pub game: String,
    /// The frontier: positions this many moves below become the jobs (0: the position itself).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 64))]
    pub plies: u32,
    /// Refuse a split that makes more jobs than this.
    #[arg(long, default_value_t = 10_000_000, allow_negative_numbers = true, value_parser = whole::<usize>(1, 1 << 32))]
    pub max_jobs: usize,
}

/// Runs `gamesearch split`.
pub fn run(args: SplitArgs, show: bool) -> Result<()> {
    let s = split_text(&args.game, args.plies, args.max_jobs)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for job in s.jobs() {
        serde_json::to_writer(&mut out, job)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    if show {
        eprintln!(
            "{}: {} jobs at ply {}, {} positions above them",
            args.game,
            s.jobs().len(),
            args.plies,
            s.top_nodes()
        );
    }
    Ok(())
}
