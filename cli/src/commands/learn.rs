//! `gamesearch learn GAME`: learns the game's evaluation from self-play ([`gamesearch::learn`])
//! and writes its checksummed weights file; the positions of every test suite the repository
//! runs are kept out of the training data.

use std::collections::HashSet;
use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use gamesearch::learn::{learn, Features, LearnConfig, Learned};
use gamesearch::{PositionKey, SolverKnowledge};
use gamesearch_cli::progress::Activity;
use gamesearch_games::othello::suite::test_suite_positions;
use gamesearch_games::{kalah, GameSpec};

use crate::args::whole;

/// `gamesearch learn`.
#[derive(Args)]
pub struct LearnArgs {
    /// The game: othello:NxN (N×N Othello's patterns, N 4, 6 or 8) or kalah:M,N (Kalah's pits,
    /// from the start of Kalah(M, N) or any kalah:POSITION).
    pub game: String,
    /// Where the weights file goes.
    #[arg(long)]
    pub out: PathBuf,
    /// Games of self-play a round.
    #[arg(long, default_value_t = 20_000, value_parser = whole::<usize>(1, 1 << 30))]
    pub games: usize,
    /// Rounds: the first plays at random, each later one by the weights learned before.
    #[arg(long, default_value_t = 2, value_parser = whole::<usize>(1, 100))]
    pub rounds: usize,
    /// The seed of every game played (printed with the result).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stages labelled by the exact solver (the rest by searches).
    #[arg(long, default_value_t = 3, value_parser = whole::<usize>(0, 1000))]
    pub exact_stages: usize,
    /// The labelling search's least depth in plies.
    #[arg(long, default_value_t = 4, value_parser = whole::<u32>(1, 64))]
    pub search_depth: u32,
    /// Most positions kept a stage.
    #[arg(long, default_value_t = 1_000_000, value_parser = whole::<usize>(1, 1 << 32))]
    pub max_per_stage: usize,
    /// Most conjugate-gradient iterations of a stage's fit.
    #[arg(long, default_value_t = 60, value_parser = whole::<usize>(1, 100_000))]
    pub iterations: usize,
    /// Threads (default: every core).
    #[arg(long, value_parser = whole::<usize>(1, 1024))]
    pub threads: Option<usize>,
    /// Stop after this many seconds, keeping the stages learned so far.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::parse_seconds)]
    pub max_time: Option<f64>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gamesearch learn`.
///
/// `show`: the live line on a terminal; `log`: otherwise, a line on stderr as each stage is
/// fitted (what a long run in the background leaves to read).
pub fn run(a: LearnArgs, show: bool, log: bool) -> Result<()> {
    let spec: GameSpec = a.game.parse()?;
    match spec {
        GameSpec::Othello(p) => {
            let mut exclude = HashSet::new();
            for q in test_suite_positions()
                .into_iter()
                .filter(|q| q.size() == p.size())
            {
                exclude.insert(q.key());
            }
            learn_game(&p, &a, &exclude, show, log && !show)
        }
        GameSpec::Kalah(k) => {
            let exclude = kalah::test_suite_positions(k.pits(), k.rule())
                .iter()
                .map(|s| s.key())
                .collect();
            learn_game(&k, &a, &exclude, show, log && !show)
        }
        _ => bail!(
            "`{}` has no features to learn from: learn takes othello:NxN (N 4, 6 or 8) or kalah:M,N",
            a.game
        ),
    }
}

fn learn_game<G>(
    root: &G,
    a: &LearnArgs,
    exclude: &HashSet<u64>,
    show: bool,
    log: bool,
) -> Result<()>
where
    G: Features + PositionKey + SolverKnowledge + Send + Sync,
{
    let limits = super::limits(crate::args::Budgets {
        max_nodes: None,
        max_time: a.max_time,
    })?;
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cfg = LearnConfig {
        seed: a.seed,
        games: a.games,
        rounds: a.rounds,
        exact_stages: a.exact_stages,
        search_depth: a.search_depth,
        max_per_stage: a.max_per_stage,
        iterations: a.iterations,
        threads,
        limits,
        ..LearnConfig::default()
    };
    // The folder must take the file before hours of work go into it; a file already at --out
    // is replaced only by a finished write (a partial file, then renamed).
    let partial = a.out.with_extension("gsw.partial");
    std::fs::write(&partial, b"")
        .map_err(|e| anyhow::anyhow!("cannot write the weights file {}: {e}", partial.display()))?;
    let activity = Activity::start(show, "learn");
    let learned = learn(root, &cfg, exclude, |p| {
        activity.message(format!(
            "round {}/{}  {} stage {}  {}/{}",
            p.round, cfg.rounds, p.phase, p.stage, p.done, p.total
        ));
        if let (true, Some(r)) = (log, p.report) {
            eprintln!(
                "round {}/{} stage {:>2}: {} positions, error {:.2}, held out {:.2} (zero's {:.2}), labelled in {:.1} s; {:.0} s in all",
                p.round, cfg.rounds, r.stage, r.positions, r.train_error, r.held_out_error,
                r.held_out_error_of_zero, r.label_seconds, p.seconds
            );
        }
    });
    activity.finish();
    let learned = learned.inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })?;
    learned.weights.save(&partial)?;
    std::fs::rename(&partial, &a.out).map_err(|e| {
        anyhow::anyhow!(
            "cannot move {} to {}: {e}",
            partial.display(),
            a.out.display()
        )
    })?;
    let bytes = std::fs::metadata(&a.out).map_or(0, |m| m.len());
    if a.json {
        print_json(a, &cfg, &learned, bytes);
    } else {
        print_text(a, &cfg, &learned, bytes);
    }
    Ok(())
}

fn print_text(a: &LearnArgs, cfg: &LearnConfig, l: &Learned, bytes: u64) {
    println!(
        "{}: seed {}, {} games, {} positions ({} of test suites excluded), {} labels; {} threads",
        l.weights.feature_set(),
        cfg.seed,
        l.games,
        l.positions,
        l.excluded,
        l.labelled,
        cfg.threads
    );
    println!("stage  positions  held out  labels    error  held-out error  (zero's)  iterations");
    for s in &l.stages {
        println!(
            "{:>5}  {:>9}  {:>8}  {:<8} {:>6.2}  {:>14.2}  {:>8.2}  {:>10}",
            s.stage,
            s.positions,
            s.held_out,
            if s.exact { "exact" } else { "searched" },
            s.train_error,
            s.held_out_error,
            s.held_out_error_of_zero,
            s.iterations
        );
    }
    let (play, label, fit) = l.seconds;
    println!(
        "playing {play:.1} s, labelling {label:.1} s ({:.0} labels/s), fitting {fit:.1} s; {} bytes in {}{}",
        l.labelled as f64 / label.max(1e-9),
        bytes,
        a.out.display(),
        if l.complete { "" } else { " (stopped early: the stages above are the ones learned)" }
    );
}

fn print_json(a: &LearnArgs, cfg: &LearnConfig, l: &Learned, bytes: u64) {
    let stages: Vec<serde_json::Value> = l
        .stages
        .iter()
        .map(|s| {
            serde_json::json!({
                "stage": s.stage, "positions": s.positions, "held_out": s.held_out,
                "exact": s.exact, "train_error": s.train_error,
                "held_out_error": if s.held_out_error.is_nan() { None } else { Some(s.held_out_error) },
                "held_out_error_of_zero": if s.held_out_error_of_zero.is_nan() { None } else { Some(s.held_out_error_of_zero) },
                "label_seconds": s.label_seconds, "fit_seconds": s.fit_seconds, "iterations": s.iterations,
            })
        })
        .collect();
    let (play, label, fit) = l.seconds;
    println!(
        "{}",
        serde_json::json!({
            "feature_set": l.weights.feature_set(), "seed": cfg.seed, "games": l.games,
            "positions": l.positions, "excluded": l.excluded, "labelled": l.labelled,
            "threads": cfg.threads, "stages": stages,
            "seconds": {"playing": play, "labelling": label, "fitting": fit},
            "out": a.out.display().to_string(), "bytes": bytes, "complete": l.complete,
        })
    );
}
