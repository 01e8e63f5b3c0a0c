//! The `gamesearch` command line: parses, calls the library, prints (or `--json`). No search
//! logic lives here.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use gamesearch::depth_first::run_report;
use gamesearch::depth_first::solve::{solve_report, Progress, SolveConfig};
use gamesearch::experiments::pearl_kalah::{self, PearlKalah};
use gamesearch::experiments::ratios::{self, minimal_tree, RatioExperiment, RatioRow};
use gamesearch::games::{Kalah, Values};
use gamesearch::proof_number::PnConfig;
use gamesearch::{Algorithm, Error, GameSpec, Limits, Report, SearchConfig};

/// Two-player game-tree search: minimax, alpha-beta, SCOUT, NegaScout, PVS.
#[derive(Parser)]
#[command(name = "gamesearch", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Search one game with one algorithm.
    Search {
        /// random:b=B,h=H,seed=S[,values=continuous|discrete:M][,order=random|perfect|first:P][,turns=alternate|random]
        /// or tree:FILE or tree:TEXT, e.g. "tree:(A max (B min D=7 E=4) (C min F=2 G=3))".
        game: String,
        /// minimax, alphabeta, alphabeta-hard, scout, negascout, negascout-minimax, pvs,
        /// pn-multi, cns.
        #[arg(long, default_value = "negascout")]
        algo: String,
        #[command(flatten)]
        opts: SearchOpts,
        /// Also print the leaves evaluated, in order (explicit trees only).
        #[arg(long)]
        trace: bool,
    },
    /// Run several algorithms on the same game and print a table of values and node counts.
    Compare {
        /// As for `search`.
        game: String,
        /// Comma-separated algorithm names (default: all).
        #[arg(long, value_delimiter = ',')]
        algos: Option<Vec<String>>,
        #[command(flatten)]
        opts: SearchOpts,
    },
    /// Solve a game exactly (to the end, no horizon): value, best move, nodes.
    Solve {
        /// kalah:M,N, kalah:POSITION, tictactoe, connect4:WxH[:MOVES], random:… or tree:….
        game: String,
        /// negascout (TT alpha-beta, exact value), pn (binary proof-number search: win, draw
        /// or loss) or pn-multi (multi-valued proof-number search: exact value).
        #[arg(long, default_value = "negascout")]
        algo: String,
        /// Memory budget for proof-number search's tree, e.g. 512M, 2G (bytes if no suffix).
        #[arg(long)]
        max_memory: Option<String>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        tt_mb: usize,
        /// Deepest iterative-deepening pass (for move ordering) before the exact search.
        #[arg(long, default_value_t = 8)]
        id_depth: u32,
        /// Stop after this many nodes (the bounds proven so far are printed).
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Stop after this many seconds.
        #[arg(long)]
        max_time: Option<f64>,
        /// Print JSON for tools instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Benchmarks: `bench connect4 FILE` solves every `<moves> <score>` line and checks it.
    Bench {
        #[command(subcommand)]
        which: BenchKind,
    },
    /// Reproduce a published experiment.
    Experiment {
        #[command(subcommand)]
        which: ExperimentKind,
    },
}

#[derive(Subcommand)]
enum BenchKind {
    /// Solve a file of 7x6 Connect-Four positions (`<moves> <score>` per line, score for the side
    /// to move) and print positions, mismatches, mean time and mean nodes.
    Connect4 {
        /// The file (e.g. ../shared/data/connect4/Test_L3_R1).
        file: String,
        /// Win/draw/loss only (compare the score's sign).
        #[arg(long)]
        weak: bool,
        /// Only the first N lines.
        #[arg(long)]
        limit: Option<usize>,
        /// Transposition table size in MiB (kept across positions).
        #[arg(long, default_value_t = 64)]
        tt_mb: usize,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum ExperimentKind {
    /// Conspiracy-number search vs alpha-beta/NegaScout: leaves for several NT and ε, move
    /// agreement with minimax, value error — random trees, Kalah(6,4), Connect-Four 5x4.
    Cns {
        /// Positions of each kind.
        #[arg(long, default_value_t = 100)]
        positions: usize,
        /// Seed of trees and random play.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Pearl's Kalah table (seed 003): SCOUT vs alpha-beta (and NegaScout, PVS) at depths 2-6,
    /// random and dynamic ordering, beside the published figures; writes an SVG plot.
    PearlKalah {
        /// Positions averaged over.
        #[arg(long, default_value_t = 200)]
        positions: usize,
        /// Seed of the random play and orderings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The board, M,N (Kalah(M, N)); Pearl's is the "1-in-a-hole version".
        #[arg(long, default_value = "6,1")]
        kalah: String,
        /// Random plies from the start: uniform in 0..=this.
        #[arg(long, default_value_t = 6)]
        max_plies: u32,
        /// Count depth in single sowings (plies) instead of whole turns (a turn = a side's
        /// sowings until the other side moves).
        #[arg(long)]
        plies: bool,
        /// Where to write the SVG plot.
        #[arg(long, default_value = "pearl-kalah.svg")]
        svg: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// leaves(SCOUT)/leaves(alpha-beta) and leaves(NegaScout)/leaves(alpha-beta) on random trees
    /// (Pearl 1984: 1 <= r <= 1.275; Reinefeld 1983: NegaScout 10-20 % fewer for b = 20..60).
    Ratios {
        /// Branching factors.
        #[arg(long, value_delimiter = ',', default_value = "2,4,8,20,40")]
        b: Vec<u32>,
        /// Depths.
        #[arg(long, value_delimiter = ',', default_value = "4,5,6,7,8,9,10")]
        h: Vec<u32>,
        /// Trees per cell.
        #[arg(long, default_value_t = 40)]
        seeds: u64,
        /// The first seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Leaf values: continuous or discrete:M.
        #[arg(long, default_value = "continuous")]
        values: String,
        /// Skip cells whose minimal tree has more leaves than this.
        #[arg(long, default_value_t = 3_000_000)]
        max_minimal_tree: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Clone)]
struct SearchOpts {
    /// Horizon (default: the whole tree).
    #[arg(long)]
    depth: Option<u32>,
    /// Stop after this many nodes (the result is then marked incomplete).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    max_time: Option<f64>,
    /// Turn off NegaScout's depth < 3 refinement (re-search every fail-high).
    #[arg(long)]
    no_shallow_refinement: bool,
    /// Conspiracy-number search: accuracy ε (stop when Vmax - Vmin <= ε).
    #[arg(long, default_value_t = 0)]
    accuracy: i32,
    /// Conspiracy-number search: conspiracy threshold NT (default: unlimited).
    #[arg(long)]
    threshold: Option<usize>,
    /// Print JSON for tools instead of text.
    #[arg(long)]
    json: bool,
}

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
        }
    };
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help, --version
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let msg = e.to_string();
            let first = msg.lines().next().unwrap_or("bad arguments");
            eprintln!("{first} (see gamesearch --help)");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Search {
            game,
            algo,
            opts,
            trace,
        } => {
            let spec: GameSpec = game.parse()?;
            let algo: Algorithm = algo.parse()?;
            let report = with_game(&spec, &opts, &[algo])?.remove(0);
            if opts.json {
                let mut v = serde_json::to_value(&report)?;
                if trace {
                    if let GameSpec::Tree(t) = &spec {
                        v["evaluated"] = serde_json::json!(t.evaluated());
                    }
                }
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print_report(&game, &report);
                if trace {
                    match &spec {
                        GameSpec::Tree(t) => println!("evaluated   {}", t.evaluated().join(" ")),
                        _ => bail!("--trace is for explicit trees (tree:…)"),
                    }
                }
            }
        }
        Command::Compare { game, algos, opts } => {
            let spec: GameSpec = game.parse()?;
            let algos: Vec<Algorithm> = match algos {
                None => Algorithm::ALL.to_vec(),
                Some(names) => names
                    .iter()
                    .map(|n| n.parse())
                    .collect::<Result<_, Error>>()?,
            };
            let reports = with_game(&spec, &opts, &algos)?;
            if opts.json {
                println!("{}", serde_json::to_string_pretty(&reports)?);
            } else {
                print_table(&game, &reports);
            }
        }
        Command::Solve {
            game,
            algo,
            max_memory,
            tt_mb,
            id_depth,
            max_nodes,
            max_time,
            json,
        } => {
            let spec: GameSpec = game.parse()?;
            if tt_mb == 0 || tt_mb > 1 << 20 {
                bail!("--tt-mb must be between 1 and 1048576");
            }
            let cfg = SolveConfig {
                tt_bytes: tt_mb << 20,
                id_depth,
                limits: limits(max_nodes, max_time)?,
                best_move: true,
            };
            let show = std::io::stderr().is_terminal()
                || std::env::var_os("GAMESEARCH_PROGRESS").is_some();
            let progress = |p: &Progress| {
                if show {
                    eprintln!(
                        "[{:>8.2}s] {:<9} {}value in [{}, {}]  {} nodes",
                        p.elapsed.as_secs_f64(),
                        p.phase,
                        if p.depth > 0 {
                            format!("depth {:>2}  ", p.depth)
                        } else {
                            String::new()
                        },
                        p.lower,
                        p.upper,
                        p.nodes
                    );
                }
            };
            let r = match algo.as_str() {
                "negascout" => on_game!(&spec, g => solve_report(g, &cfg, progress)?),
                "pn" | "pn-multi" => {
                    let mut pn = PnConfig::new(u32::MAX);
                    pn.limits = cfg.limits.clone();
                    pn.max_memory = max_memory.as_deref().map(parse_size).transpose()?;
                    gamesearch::proof_number::validate(&pn)?;
                    on_game!(&spec, g => gamesearch::proof_number::solve_report(g, &pn, algo == "pn-multi"))
                }
                other => bail!("unknown solver `{other}`; known: negascout, pn, pn-multi"),
            };
            if json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                println!("game        {game}");
                let status = if r.complete {
                    ""
                } else {
                    "  (INCOMPLETE: budget or Ctrl-C)"
                };
                match r.value {
                    Some(v) => println!("value       {v:+}{status}"),
                    None => println!("value       in [{}, {}]{status}", r.bounds.0, r.bounds.1),
                }
                println!("outcome     {}", r.outcome.unwrap_or("unknown"));
                println!("best move   {}", r.best_move.as_deref().unwrap_or("-"));
                let s = &r.stats;
                let memory = match r.peak_tree_bytes {
                    Some(b) => format!("peak tree {:.1} MiB", b as f64 / (1 << 20) as f64),
                    None => format!("tt {} MiB", r.tt_bytes >> 20),
                };
                println!(
                    "stats       {}  nodes {}  leaves {}  expanded {}  tests {}  tt hits {}  {memory}  time {:.3} s",
                    r.algo,
                    s.nodes(),
                    s.leaves,
                    s.interior,
                    s.tests,
                    s.tt_hits,
                    r.time_ms / 1e3
                );
            }
        }
        Command::Bench {
            which:
                BenchKind::Connect4 {
                    file,
                    weak,
                    limit,
                    tt_mb,
                    json,
                },
        } => {
            if tt_mb == 0 || tt_mb > 1 << 20 {
                bail!("--tt-mb must be between 1 and 1048576");
            }
            let text =
                std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?;
            let mut lines = gamesearch::experiments::connect4_bench::parse(&text)?;
            if let Some(n) = limit {
                lines.truncate(n);
            }
            let show = std::io::stderr().is_terminal()
                || std::env::var_os("GAMESEARCH_PROGRESS").is_some();
            let total = lines.len();
            // Ctrl-C ends the run after the positions done; their figures are still printed.
            let limits = limits(None, None)?;
            let mut last = std::time::Instant::now();
            let r = gamesearch::experiments::connect4_bench::run(
                &lines,
                weak,
                tt_mb << 20,
                &limits,
                |r| {
                    if show && (last.elapsed().as_secs_f64() >= 1.0 || r.positions == total) {
                        last = std::time::Instant::now();
                        eprintln!(
                            "  {}/{total}  mismatches {}  mean {:.1} µs  {:.0} nodes",
                            r.positions, r.mismatches, r.mean_time_us, r.mean_nodes
                        );
                    }
                },
            )?;
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
        }
        Command::Experiment { which } => match which {
            ExperimentKind::Cns {
                positions,
                seed,
                json,
            } => {
                if positions == 0 {
                    bail!("--positions must be at least 1");
                }
                eprintln!("cns: {positions} positions of each kind, seed {seed}");
                let rows = gamesearch::experiments::cns::run(positions, seed);
                if json {
                    println!("{}", serde_json::to_string_pretty(&rows)?);
                } else {
                    print!("{}", gamesearch::experiments::cns::table(&rows));
                }
            }
            ExperimentKind::PearlKalah {
                positions,
                seed,
                kalah,
                max_plies,
                plies,
                svg,
                json,
            } => {
                let board: Kalah = kalah.parse()?;
                let exp = PearlKalah {
                    m: board.pits(),
                    n: board.south()[0].into(),
                    positions,
                    seed,
                    max_plies,
                    whole_turns: !plies,
                };
                eprintln!(
                    "pearl-kalah: Kalah({},{}), {positions} positions, seed {seed}",
                    exp.m, exp.n
                );
                let rows = exp.run(|r| {
                    eprintln!(
                        "  depth {} {:<7} SCOUT {:.1}  alpha-beta {:.1}",
                        r.depth, r.ordering, r.leaves[0], r.leaves[1]
                    )
                })?;
                std::fs::write(&svg, pearl_kalah::plot(&exp, &rows))
                    .with_context(|| format!("writing {svg}"))?;
                eprintln!("plot written to {svg}");
                if json {
                    let out = serde_json::json!({"kalah": [exp.m, exp.n], "positions": positions, "seed": seed, "max_plies": max_plies, "rows": rows});
                    println!("{}", serde_json::to_string_pretty(&out)?);
                } else {
                    print!("{}", pearl_kalah::table(&exp, &rows));
                }
            }
            ExperimentKind::Ratios {
                b,
                h,
                seeds,
                seed,
                values,
                max_minimal_tree,
                json,
            } => experiment_ratios(b, h, seeds, seed, &values, max_minimal_tree, json)?,
        },
    }
    Ok(())
}

/// Builds the limits (with a Ctrl-C flag), checks the search is feasible, and runs each
/// algorithm on the game.
fn with_game(spec: &GameSpec, opts: &SearchOpts, algos: &[Algorithm]) -> Result<Vec<Report>> {
    // Beyond the tree's height a horizon changes nothing.
    let depth = match (opts.depth, spec.full_depth()) {
        (Some(d), Some(full)) => d.min(full),
        (None, Some(full)) => full,
        (Some(d), None) => d,
        (None, None) => bail!("this game needs a horizon: give --depth D (or use `solve`)"),
    };
    let limits = limits(opts.max_nodes, opts.max_time)?;
    let mut cfg = SearchConfig::new(depth);
    cfg.limits = limits;
    cfg.shallow_refinement = !opts.no_shallow_refinement;
    if opts.accuracy < 0 {
        bail!("--accuracy must be >= 0");
    }
    if opts.threshold == Some(0) {
        bail!("--threshold must be at least 1 (a conspiracy of 0 leaves changes nothing)");
    }
    cfg.cns_accuracy = opts.accuracy;
    cfg.cns_threshold = opts.threshold;

    if opts.max_nodes.is_none() && opts.max_time.is_none() {
        match spec {
            GameSpec::Random(r) => check_feasible(r.b, depth.min(r.h), algos)?,
            GameSpec::Kalah(k) => check_feasible(k.pits() as u32, depth, algos)?,
            GameSpec::Connect4(c) => check_feasible(c.width() as u32, depth, algos)?,
            GameSpec::Tree(_) | GameSpec::TicTacToe(_) => {}
        }
    }
    let clear_log = || {
        if let GameSpec::Tree(t) = spec {
            t.clear_log();
        }
    };
    Ok(on_game!(spec, g => algos
        .iter()
        .map(|&a| {
            clear_log();
            run_report(g, a, &cfg)
        })
        .collect()))
}

/// Node and time budgets from the command line, plus a Ctrl-C flag: Ctrl-C stops the search
/// cleanly and the best result so far is still printed.
fn limits(max_nodes: Option<u64>, max_time: Option<f64>) -> Result<Limits> {
    let mut limits = Limits::none();
    if let Some(n) = max_nodes {
        if n == 0 {
            bail!("--max-nodes must be at least 1");
        }
        limits = limits.with_max_nodes(n);
    }
    if let Some(t) = max_time {
        if !(t > 0.0 && t.is_finite()) {
            bail!("--max-time must be a positive number of seconds");
        }
        limits = limits.with_max_time(Duration::from_secs_f64(t));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    Ok(limits.with_stop_flag(stop))
}

/// Refuses searches that cannot finish: minimax beyond 10^10 leaves, any algorithm whose
/// minimal tree exceeds 10^12 leaves (unless a budget was given).
fn check_feasible(b: u32, depth: u32, algos: &[Algorithm]) -> Result<()> {
    let full = u64::from(b).checked_pow(depth);
    if algos.contains(&Algorithm::Minimax) && full.is_none_or(|n| n > 10_000_000_000) {
        return Err(Error::TooLarge(format!(
            "minimax on b={b} to depth {depth} would evaluate b^depth = {} leaves (limit 10^10); \
             lower the depth or give --max-nodes/--max-time",
            full.map_or("more than 1.8e19".to_string(), |n| format!(
                "{:.2e}",
                n as f64
            ))
        ))
        .into());
    }
    let minimal = minimal_tree(b, depth);
    if minimal > 1_000_000_000_000 {
        return Err(Error::TooLarge(format!(
            "b={b} to depth {depth}: even the minimal tree has {:.2e} leaves (limit 10^12); \
             lower the depth or give --max-nodes/--max-time",
            minimal as f64
        ))
        .into());
    }
    Ok(())
}

fn print_report(game: &str, r: &Report) {
    println!("game        {game}");
    println!("algorithm   {}  (depth {})", r.algo, r.depth);
    let status = if r.complete {
        ""
    } else {
        "  (INCOMPLETE: budget or Ctrl-C; best so far)"
    };
    match r.value {
        Some(v) => println!("value       {v}{status}"),
        None => println!("value       unknown{status}"),
    }
    println!("best move   {}", r.best_move.as_deref().unwrap_or("-"));
    println!("pv          {}", r.pv.join(" "));
    if let (Some((lo, hi)), Some(c)) = (r.range, &r.conspiracy) {
        println!("range       [{lo}, {hi}]");
        let list: Vec<String> = c
            .iter()
            .map(|(v, n)| {
                if *n == usize::MAX {
                    format!("{v}:inf")
                } else {
                    format!("{v}:{n}")
                }
            })
            .collect();
        println!("conspiracy  {}", list.join(" "));
    }
    let s = &r.stats;
    println!(
        "stats       leaves {}  interior {}  tests {}  re-searches {}  time {:.3} ms",
        s.leaves, s.interior, s.tests, s.re_searches, r.time_ms
    );
}

fn print_table(game: &str, reports: &[Report]) {
    println!(
        "game: {game}  depth: {}",
        reports.first().map_or(0, |r| r.depth)
    );
    let ab = reports
        .iter()
        .find(|r| r.algo == "alphabeta" && r.complete)
        .map(|r| r.stats.leaves as f64);
    println!(
        "{:<18} {:>12} {:>12} {:>12} {:>10} {:>11} {:>10} {:>8}",
        "algorithm", "value", "leaves", "interior", "tests", "re-searches", "time ms", "vs a-b"
    );
    for r in reports {
        let value = match (r.value, r.complete) {
            (Some(v), true) => v.to_string(),
            (Some(v), false) => format!("{v}?"),
            (None, _) => "?".to_string(),
        };
        let ratio = ab.map_or("-".to_string(), |a| {
            format!("{:.3}", r.stats.leaves as f64 / a)
        });
        let s = &r.stats;
        println!(
            "{:<18} {:>12} {:>12} {:>12} {:>10} {:>11} {:>10.3} {:>8}",
            r.algo, value, s.leaves, s.interior, s.tests, s.re_searches, r.time_ms, ratio
        );
    }
    if reports.iter().any(|r| !r.complete) {
        println!("? = incomplete (budget or Ctrl-C): best value found so far");
    }
}

fn experiment_ratios(
    bs: Vec<u32>,
    hs: Vec<u32>,
    seeds: u64,
    first_seed: u64,
    values: &str,
    max_minimal_tree: u64,
    json: bool,
) -> Result<()> {
    let values = parse_values(values)?;
    let exp = RatioExperiment {
        bs,
        hs,
        seeds,
        first_seed,
        values,
        max_minimal_tree,
    };
    exp.validate()?;
    let (cells, skipped) = ratios::plan(&exp);
    let progress =
        std::io::stderr().is_terminal() || std::env::var_os("GAMESEARCH_PROGRESS").is_some();
    eprintln!(
        "ratios: {} cells x {} seeds (seeds {}..={}), {} skipped (minimal tree > {})",
        cells.len(),
        seeds,
        first_seed,
        first_seed + seeds - 1,
        skipped.len(),
        max_minimal_tree
    );
    // Ctrl-C stops after the cell in progress; the rows done so far are still printed.
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    let mut rows: Vec<RatioRow> = Vec::new();
    for (i, &(b, h)) in cells.iter().enumerate() {
        if interrupted.load(Ordering::Relaxed) {
            eprintln!("interrupted: printing the {} cells finished", rows.len());
            break;
        }
        let start = std::time::Instant::now();
        rows.push(ratios::ratio_cell(&exp, b, h));
        if progress {
            eprintln!(
                "  [{}/{}] b={b} h={h} done in {:.1}s",
                i + 1,
                cells.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    if json {
        let out = serde_json::json!({
            "seeds": seeds, "first_seed": first_seed, "values": format!("{values:?}"),
            "rows": rows, "skipped": skipped,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!("leaves evaluated on random (h, d, F) trees, {values:?} values, mean of {seeds} seeds from {first_seed}");
    println!(
        "| b | h | alpha-beta | SCOUT | NegaScout | SCOUT/a-b (min–max) | NegaScout/a-b (min–max) | nodes: SCOUT/a-b | nodes: NegaScout/a-b |"
    );
    println!("|---:|---:|---:|---:|---:|---|---|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {:.3} ({:.2}–{:.2}) | {:.3} ({:.2}–{:.2}) | {:.3} | {:.3} |",
            r.b,
            r.h,
            r.alphabeta,
            r.scout,
            r.negascout,
            r.scout_ratio,
            r.scout_ratio_range.0,
            r.scout_ratio_range.1,
            r.negascout_ratio,
            r.negascout_ratio_range.0,
            r.negascout_ratio_range.1,
            r.scout_nodes_ratio,
            r.negascout_nodes_ratio
        );
    }
    if !skipped.is_empty() {
        let s: Vec<String> = skipped
            .iter()
            .map(|(b, h)| format!("b={b} h={h}"))
            .collect();
        println!(
            "skipped (minimal tree > {max_minimal_tree} leaves): {}",
            s.join(", ")
        );
    }
    Ok(())
}

/// `512M`, `2G`, `64k` or plain bytes.
fn parse_size(s: &str) -> Result<usize> {
    let t = s.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: usize = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => bail!("--max-memory {s}: the suffix must be K, M or G"),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    let n: usize = num
        .trim()
        .parse()
        .with_context(|| format!("--max-memory {s}: not a size"))?;
    n.checked_mul(mult)
        .filter(|&b| b > 0)
        .with_context(|| format!("--max-memory {s}: must be positive and fit in memory"))
}

fn parse_values(s: &str) -> Result<Values> {
    match s.split_once(':') {
        None if s == "continuous" => Ok(Values::Continuous),
        Some(("discrete", m)) => {
            let m: u32 = m
                .parse()
                .with_context(|| format!("values={s}: M must be an integer"))?;
            if m < 2 {
                bail!("values=discrete:{m} needs at least 2 levels");
            }
            Ok(Values::Discrete(m))
        }
        _ => bail!("values={s}: expected continuous or discrete:M"),
    }
}
