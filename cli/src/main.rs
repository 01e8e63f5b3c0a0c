//! The `gamesearch` command line: parses (clap), calls the library, prints text or `--json`.
//! No search logic lives here.
//!
//! Exit status: 0 done (a `--max-nodes`/`--max-time` budget that ran out still prints its result
//! with `complete: false`); 2 bad input, one line on stderr, before any search runs; 130 stopped
//! by Ctrl-C or SIGTERM, after printing the result so far.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod args;
mod commands;
mod output;

use commands::{
    bench, combine, compare, experiment, gtp, learn, play, search, serve, solve, split, tablebase,
    trace,
};

/// Two-player game-tree search: minimax, alpha-beta, SCOUT, NegaScout, PVS, proof-number and
/// conspiracy-number search, an exact solver.
#[derive(Parser)]
#[command(name = "gamesearch", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No progress display on stderr (it is shown only on a terminal anyway).
    #[arg(long, short, global = true)]
    quiet: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Search one game with one algorithm.
    Search(search::SearchArgs),
    /// Play against the engine in the terminal (moves in the game's notation, `undo`, `hint`,
    /// `quit`; also read from standard input, so it can be scripted), or `--match N`: engine A
    /// against engine B over N seeded openings, colours swapped.
    Play(Box<play::PlayArgs>),
    /// The engine as a GTP engine (Go Text Protocol, version 2) on standard input and output,
    /// for GUIs and match programs: `boardsize`, `clear_board`, `play`, `genmove`, `undo`,
    /// `showboard`. Black is the first player.
    Gtp(gtp::GtpArgs),
    /// Record searches step by step and draw them: the JSON trace, the searched tree as DOT or
    /// SVG, and a self-contained HTML page that steps through the search (several algorithms
    /// side by side).
    Trace(trace::TraceArgs),
    /// Run several algorithms on the same game and print a table of values and node counts.
    Compare(compare::CompareArgs),
    /// Solve a game exactly (to the end, no horizon): value, best move, nodes. Values are the
    /// first player's (MAX's) point of view, as everywhere in gamesearch (Pons' and c4's scores
    /// are the side to move's: negate them when the second player is to move).
    Solve(solve::SolveArgs),
    Split(split::SplitArgs),
    Combine(combine::CombineArgs),
    /// Endgame databases (Kalah): `tablebase build kalah:6 --seeds N --out DIR` builds every
    /// class up to N seeds in the pits; `tablebase probe kalah:POSITION --tablebase DIR` looks a
    /// position up. `solve … --tablebase DIR` solves with them.
    Tablebase {
        #[command(subcommand)]
        which: tablebase::TablebaseCommand,
    },
    /// The analysis board in the browser and its JSON API: every move's value (exact from the
    /// solver within a budget, else the engine's), play against the engine
    /// (http://127.0.0.1:8080/ by default; docs/guide/server-api.md).
    Serve(serve::ServeArgs),
    /// Benchmarks: `bench connect4 FILE` solves every `<moves> <score>` line and checks it.
    Bench {
        #[command(subcommand)]
        which: bench::BenchKind,
    },
    /// Learn a game's evaluation from self-play (positions labelled by the exact solver near
    /// the end, by searches above) and write its checksummed weights file.
    Learn(learn::LearnArgs),
    /// Reproduce a published experiment.
    Experiment {
        #[command(subcommand)]
        which: experiment::ExperimentKind,
    },
}

fn main() -> ExitCode {
    // A closed stdout (`gamesearch compare … | head -1`) ends the program quietly, as it ends
    // `ls`: the default action of SIGPIPE, which Rust's runtime ignores so that `println!`
    // would panic on the broken pipe instead.
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help, --version
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let msg = e.to_string();
            let mut lines = msg.lines().filter(|l| !l.trim().is_empty());
            let mut first = lines.next().unwrap_or("bad arguments").to_string();
            // "the following required arguments were not provided:" names them on the next line.
            if first.ends_with(':') {
                if let Some(next) = lines.next() {
                    first = format!("{first} {}", next.trim());
                }
            }
            eprintln!("{first} (see gamesearch --help)");
            return ExitCode::from(2);
        }
    };
    commands::stop_flag();
    // A server stopped by a signal says so itself; it printed no partial result.
    let serving = matches!(cli.command, Command::Serve(_));
    match run(cli) {
        Ok(()) if commands::interrupted() && serving => ExitCode::from(130),
        Ok(()) if commands::interrupted() => {
            eprintln!("interrupted: what is printed above is what was finished before the signal");
            ExitCode::from(130)
        }
        Ok(()) => ExitCode::SUCCESS,
        // A command that stops on the signal with an error ("stopped: classes 0..5 are in
        // DIR") was interrupted, not given bad input.
        Err(e) if commands::interrupted() => {
            eprintln!("interrupted: {e:#}");
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Dispatches to the subcommand's file.
fn run(cli: Cli) -> Result<()> {
    let show = gamesearch_cli::progress::visible(cli.quiet);
    match cli.command {
        Command::Search(a) => search::run(a, show),
        Command::Play(a) => play::run(*a, show),
        Command::Gtp(a) => gtp::run(a),
        Command::Trace(a) => trace::run(a),
        Command::Compare(a) => compare::run(a, show),
        Command::Solve(a) => solve::run(a, show),
        Command::Split(a) => split::run(a, show),
        Command::Combine(a) => combine::run(a),
        // Its line a class is a log, not a progress display: shown off a terminal too, but for -q.
        Command::Tablebase { which } => tablebase::run(which, !cli.quiet),
        Command::Serve(a) => serve::run(a),
        Command::Bench { which } => bench::run(which, show),
        Command::Learn(a) => learn::run(a, show, !cli.quiet),
        Command::Experiment { which } => experiment::run(which, show),
    }
}
