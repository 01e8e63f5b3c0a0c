//! `gamesearch bench connect4 FILE`: every `<moves> <score>` line solved and checked;
//! `gamesearch bench othello FILE`: every position of an obf suite (FFO) solved and checked.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use gamesearch::Error;
use gamesearch_cli::progress;
use gamesearch_games::GameSpec;

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
    /// Solve an Othello suite in the obf text (`CELLS SIDE; MOVE:SCORE; …` per line, as Edax's
    /// problem/fforum-40-59.obf, or tests/data/ffo-40-59.txt) with the alpha-beta solver, a
    /// fresh table per position: each position's score, best move, nodes and time, checked
    /// against the published score and best moves.
    Othello(OthelloBench),
}

/// Runs `gamesearch bench`.
pub fn run(which: BenchKind, show: bool) -> Result<()> {
    let (file, (width, height), weak, limit, tt_mb, json) = match which {
        BenchKind::Connect4 {
            file,
            board,
            weak,
            limit,
            tt_mb,
            json,
        } => (file, board, weak, limit, tt_mb, json),
        BenchKind::Othello(settings) => return othello(&settings, show),
    };
    let tt_bytes = usize::try_from(tt_mb << 20).context("--tt-mb: too large")?;
    let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?;
    let mut lines = gamesearch_games::benchmark::parse(&text).map_err(|e| in_file(&file, e))?;
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
    .map_err(|e| in_file(&file, e))?;
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

/// A parse error of `file`'s text, the file named first.
fn in_file(file: &str, e: Error) -> Error {
    match e {
        Error::BadParameter(m) => Error::BadParameter(format!("{file}, {m}")),
        other => other,
    }
}

/// `bench othello`'s arguments.
#[derive(Args)]
pub struct OthelloBench {
    /// The file (e.g. tests/data/ffo-40-59.txt).
    file: String,
    /// Threads sharing the table.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<usize>(1, 256))]
    threads: usize,
    /// Transposition table size in MiB (a fresh table per position).
    #[arg(long, default_value_t = 1024, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
    tt_mb: u64,
    /// Deepest iterative-deepening pass (the first guess) before the exact search.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<u32>(0, 64))]
    id_depth: u32,
    /// Leave out the first N positions (with --limit, a slice: `--skip 17 --limit 1` is the
    /// 18th line alone).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
    skip: u64,
    /// Only the first N positions (after --skip).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    limit: Option<u64>,
    /// Stop a position after this many seconds (the run ends there, with the positions
    /// done).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::parse_seconds)]
    max_time: Option<f64>,
    /// The evaluation that orders the solver's moves: a weights file from `gamesearch learn`,
    /// or `none` for the hand-written one (default: the weights the repository ships).
    #[arg(long)]
    weights: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `bench othello FILE`: a table of the positions solved, then the totals.
fn othello(o: &OthelloBench, show: bool) -> Result<()> {
    use gamesearch_games::othello::suite;
    let file = o.file.as_str();
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
    let mut lines = suite::parse(&text).map_err(|e| in_file(file, e))?;
    if lines.is_empty() {
        bail!("no positions in {file} (expected lines `CELLS SIDE; MOVE:SCORE; …`)");
    }
    let skip = usize::try_from(o.skip).unwrap_or(usize::MAX);
    if skip >= lines.len() {
        bail!(
            "--skip {skip}: {file} has {} positions, so nothing is left to solve",
            lines.len()
        );
    }
    lines.drain(..skip);
    super::use_weights(
        &GameSpec::Othello(gamesearch_games::Othello::new(8)?),
        o.weights.as_deref(),
    )?;
    if let Some(n) = o.limit {
        lines.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let cfg = gamesearch::solver::SolveConfig {
        tt_bytes: usize::try_from(o.tt_mb << 20).context("--tt-mb: too large")?,
        threads: o.threads,
        id_depth: o.id_depth,
        limits: limits(Budgets {
            max_time: o.max_time,
            ..Budgets::none()
        })?,
        ..gamesearch::solver::SolveConfig::default()
    };
    let bar = progress::steps(show, lines.len() as u64, "othello");
    if !o.json {
        println!("file        {file}");
        println!(
            "threads     {}  table {} MiB (fresh per position)",
            o.threads, o.tt_mb
        );
        println!(
            "{:>5} {:>7} {:>6} {:>6} {:>5} {:>3} {:>14} {:>10}",
            "line", "empties", "score", "want", "move", "ok", "nodes", "seconds"
        );
    }
    let results = suite::run(&lines, &cfg, |r| {
        bar.inc(1);
        if !o.json {
            let num = |v: Option<i32>| v.map_or("-".into(), |v| format!("{v:+}"));
            // A position stopped by a budget shows the bounds proven on its score.
            let score = match r.score {
                Some(v) => format!("{v:+}"),
                None => format!("[{:+},{:+}]", r.bounds.0, r.bounds.1),
            };
            bar.suspend(|| {
                println!(
                    "{:>5} {:>7} {:>6} {:>6} {:>5} {:>3} {:>14} {:>10.3}",
                    r.line,
                    r.empties,
                    score,
                    num(r.expected),
                    r.best_move.as_deref().unwrap_or("-"),
                    if r.ok {
                        "ok"
                    } else if r.score.is_none() {
                        "-"
                    } else {
                        "NO"
                    },
                    r.nodes,
                    r.seconds
                )
            });
        }
    })?;
    bar.finish_and_clear();
    let solved = results.iter().filter(|r| r.score.is_some()).count();
    let failed: Vec<usize> = results
        .iter()
        .filter(|r| r.score.is_some() && !r.ok)
        .map(|r| r.line)
        .collect();
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let seconds: f64 = results.iter().map(|r| r.seconds).sum();
    if solved < lines.len() {
        eprintln!(
            "stopped: {solved} of {} positions solved (a budget or a signal; the one stopped is listed with the bounds proven on its score)",
            lines.len()
        );
    }
    if o.json {
        let json = serde_json::json!({
            "file": file,
            "threads": o.threads,
            "tt_mb": o.tt_mb,
            "positions": results,
            "solved": solved,
            "failed_lines": failed,
            "nodes": nodes,
            "seconds": seconds,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "total       {solved} positions  {} wrong{}  nodes {nodes}  time {seconds:.3} s",
            failed.len(),
            if failed.is_empty() {
                String::new()
            } else {
                format!(" (lines {failed:?})")
            }
        );
    }
    if !failed.is_empty() {
        bail!(
            "{} of {solved} positions disagree with the published scores or best moves",
            failed.len()
        );
    }
    Ok(())
}
