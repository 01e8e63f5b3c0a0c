//! `gamesearch bench connect4 FILE`: every `<moves> <score>` line solved and checked.

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use gamesearch::Error;
use gamesearch_cli::progress;

use super::limits;
use crate::args::{board_size, whole, Budgets};

#[derive(Subcommand)]
pub enum BenchKind {
    /// Solve a file of Connect-Four positions (`<moves> <score>` per line, score for the side
    /// to move, Pons' convention) and print positions, mismatches, mean time and mean nodes.
    Connect4 {
        /// The file (e.g. tests/data/connect4/Test_L2_R2).
        file: String,
        /// The board, WIDTH x HEIGHT; its moves as in `connect4:WxH:MOVES` (past 9 columns:
        /// numbers separated by commas, `10,1,3`).
        #[arg(long, default_value = "7x6", value_parser = board_size)]
        board: (usize, usize),
        /// Win/draw/loss only (compare the score's sign).
        #[arg(long)]
        weak: bool,
        /// Only the first N lines.
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
        limit: Option<u64>,
        /// Transposition table size in MiB (kept across positions).
        #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
        tt_mb: u64,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `gamesearch bench`.
pub fn run(which: BenchKind, show: bool) -> Result<()> {
    let BenchKind::Connect4 {
        file,
        board: (width, height),
        weak,
        limit,
        tt_mb,
        json,
    } = which;
    let tt_bytes = usize::try_from(tt_mb << 20).context("--tt-mb: too large")?;
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?;
    let in_file = |e: Error| match e {
        Error::BadParameter(m) => Error::BadParameter(format!("{file}, {m}")),
        other => other,
    };
    let mut lines = gamesearch_games::benchmark::parse(&text).map_err(in_file)?;
    if lines.is_empty() {
        bail!("no positions in {file} (expected lines `<moves> <score>`)");
    }
    if let Some(n) = limit {
        lines.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let bar = progress::steps(show, lines.len() as u64, "connect4");
    // Ctrl-C ends the run after the positions done; their figures are still printed.
    let budget = limits(Budgets::none())?;
    let r = gamesearch_games::benchmark::run_on_board(
        &lines,
        width,
        height,
        weak,
        tt_bytes,
        &budget,
        |r| {
            bar.set_position(r.positions as u64);
            // No mean before the first position is done (it was the running one's clock).
            if r.positions > 0 {
                bar.set_message(format!(
                    "mismatches {}  mean {:.1} µs  {:.0} nodes",
                    r.mismatches, r.mean_time_us, r.mean_nodes
                ));
            }
        },
    )
    .map_err(in_file)?;
    bar.finish_and_clear();
    if r.stopped {
        eprintln!(
            "interrupted: figures for the {} positions solved",
            r.positions
        );
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        println!("file        {file}{}", if weak { "  (weak)" } else { "" });
        println!("board       {width}x{height}");
        println!("positions   {}", r.positions);
        println!(
            "mismatches  {}{}",
            r.mismatches,
            if r.mismatches > 0 {
                format!("  lines {:?}", r.mismatch_lines)
            } else {
                String::new()
            }
        );
        println!("mean time   {:.1} µs", r.mean_time_us);
        println!("mean nodes  {:.0}", r.mean_nodes);
    }
    Ok(())
}
