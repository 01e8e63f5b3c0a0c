//! The `gamesearch` command line: parses (clap), calls the library, prints text or `--json`.
//! No search logic lives here.
//!
//! Exit status: 0 done (a `--max-nodes`/`--max-time` budget that ran out still prints its result
//! with `complete: false`); 2 bad input, one line on stderr, before any search runs; 130 stopped
//! by Ctrl-C or SIGTERM, after printing the result so far.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use gamesearch::conspiracy::CnTree;
use gamesearch::engine::{Driver, Engine, EngineConfig, Heuristic, Iteration};
use gamesearch::games::{Kalah, Values};
use gamesearch::proof_number::dfpn::{self, DfpnConfig};
use gamesearch::proof_number::{Initial, PnConfig, PnTree};
use gamesearch::solver::{solve_report, Progress, SolveConfig};
use gamesearch::PositionKey;
use gamesearch::{run_report, Algorithm, CnsParams, Error, Game, GameSpec, Limits, Report};
use gamesearch::{SearchConfig, SolveReport};
use gamesearch_cli::experiments::pearl_kalah::{self, PearlKalah};
use gamesearch_cli::experiments::ratios::{self, minimal_tree, RatioExperiment, RatioRow};
use gamesearch_cli::play::{
    self as playing, describe, Board, EngineSettings, EngineSpec, Human, Match,
};
use gamesearch_cli::progress::{self, Activity};

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
    Search {
        /// random:b=B,h=H,seed=S[,values=continuous|discrete:M][,order=random|perfect|first:P][,turns=alternate|random],
        /// tree:FILE, tree:TEXT (e.g. "tree:(A max (B min D=7 E=4) (C min F=2 G=3))"),
        /// kalah:M,N, kalah:POSITION, tictactoe[:CELLS] or connect4:WxH[:MOVES].
        game: String,
        /// The algorithm, searched to a fixed depth (default negascout). Without it, and with
        /// --max-time or --driver, the engine deepens until the budget instead.
        #[arg(long)]
        algo: Option<AlgoArg>,
        #[command(flatten)]
        opts: SearchOpts,
        #[command(flatten)]
        engine: EngineOpts,
        /// Also print the leaves evaluated, in order (explicit trees only).
        #[arg(long)]
        trace: bool,
    },
    /// Play against the engine in the terminal (moves in the game's notation, `undo`, `hint`,
    /// `quit`; also read from standard input, so it can be scripted), or `--match N`: engine A
    /// against engine B over N seeded openings, colours swapped.
    Play {
        /// kalah:M,N, kalah:POSITION, tictactoe[:CELLS] or connect4:WxH[:MOVES].
        game: String,
        /// Which side you play.
        #[arg(long, value_enum, default_value_t = HumanArg::First)]
        human: HumanArg,
        /// The engine: time=SECS,depth=D,driver=pvs|mtdf,tt=MB (any subset; the rest: time=1,
        /// pvs, tt=64; a depth without a time means no time limit).
        #[arg(long)]
        engine: Option<EngineSettings>,
        /// Engine against engine over this many openings (each played twice, colours swapped).
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
        r#match: Option<u64>,
        /// Match: engine A (scored), as --engine; the fields not given keep A's defaults
        /// (time=0.01, pvs, tt=64).
        #[arg(long, requires = "match")]
        a: Option<EngineSettings>,
        /// Match: engine B, as --engine; the fields not given keep B's defaults (time=0.1, pvs,
        /// tt=64).
        #[arg(long, requires = "match")]
        b: Option<EngineSettings>,
        /// Match: random plies that make each opening.
        #[arg(long, default_value_t = 2, requires = "match", allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX.into()))]
        opening_plies: u32,
        /// Match: seed of the openings.
        #[arg(long, default_value_t = 1, requires = "match", allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Match: print JSON.
        #[arg(long, requires = "match")]
        json: bool,
    },
    /// Record searches step by step and draw them: the JSON trace, the searched tree as DOT or
    /// SVG, and a self-contained HTML page that steps through the search (several algorithms
    /// side by side).
    Trace {
        /// As for `search`, or a tree file such as examples/trees/scout-test.tree.
        game: String,
        /// Comma-separated algorithms (several: side by side in the HTML page).
        #[arg(long, value_delimiter = ',', default_value = "alphabeta")]
        algo: Vec<AlgoArg>,
        #[command(flatten)]
        opts: SearchOpts,
        /// A file to write, its format by extension: .html (the step-through page), .json (the
        /// trace), .dot (Graphviz), .svg (drawn without Graphviz). Repeat for several; without
        /// one, nothing is written (a summary is printed; --json prints the trace). With several
        /// algorithms, .dot and .svg get one file each (NAME-ALGO.svg).
        #[arg(long, short)]
        out: Vec<std::path::PathBuf>,
        /// Most nodes recorded per algorithm; past it the recording stops (marked truncated in
        /// every output) while the search runs to its end.
        #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1_000_000))]
        node_cap: u64,
    },
    /// Run several algorithms on the same game and print a table of values and node counts.
    Compare {
        /// As for `search`.
        game: String,
        /// Comma-separated algorithms (default: every algorithm whose cost can be bounded on
        /// this tree; the others are named with the flag that runs them).
        #[arg(long, value_delimiter = ',', conflicts_with = "all")]
        algos: Option<Vec<AlgoArg>>,
        /// Every algorithm, also those that keep the whole tree in memory on a large tree.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        opts: SearchOpts,
    },
    /// Solve a game exactly (to the end, no horizon): value, best move, nodes.
    Solve {
        /// kalah:M,N, kalah:POSITION, tictactoe, connect4:WxH[:MOVES], random:… or tree:….
        game: String,
        /// The solver.
        #[arg(long, value_enum, default_value_t = Solver::AlphabetaTt)]
        algo: Solver,
        /// Memory budget for proof-number search's tree, e.g. 512M, 2G (bytes if no suffix;
        /// default: three quarters of the memory available when the search starts, MemAvailable).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_size)]
        max_memory: Option<usize>,
        /// df-pn: the 1+ε trick's ε (0: plain df-pn).
        #[arg(long, default_value_t = 0.25, allow_negative_numbers = true, value_parser = parse_epsilon)]
        epsilon: f64,
        /// df-pn: extract the proof (or disproof) tree of the answer and verify it.
        #[arg(long)]
        check: bool,
        /// df-pn: initial numbers from the number of moves (Allis' mobility) instead of 1.
        #[arg(long)]
        mobility: bool,
        /// Transposition table size in MiB (alphabeta-tt, dfpn).
        #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
        tt_mb: u64,
        /// alphabeta-tt: threads sharing the table (default: the machine's cores).
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>(1, 256))]
        threads: Option<usize>,
        /// Deepest iterative-deepening pass (for move ordering) before the exact search.
        #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = whole::<u32>(0, 64))]
        id_depth: u32,
        /// alphabeta-tt: enhanced transposition cutoffs in the first N plies (0: none; default:
        /// the game's, 12 for Connect-Four, 0 for the others).
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 255))]
        etc_plies: Option<u32>,
        /// alphabeta-tt with --id-depth 0: the first null-window test's value (then galloping);
        /// default: bisection biased towards 0.
        #[arg(long, allow_hyphen_values = true)]
        guess: Option<i32>,
        #[command(flatten)]
        budget: Budgets,
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

/// The engine's settings for `search` without `--algo`.
#[derive(Args, Clone, Copy)]
struct EngineOpts {
    /// The engine's root driver: pvs (aspiration window) or mtdf (implies the engine).
    #[arg(long, value_enum)]
    driver: Option<DriverArg>,
    /// Half-width of the aspiration window (pvs driver; 0: full window).
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = whole::<i32>(0, i32::MAX as u64))]
    aspiration: i32,
    /// The engine's table, MiB.
    #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
    tt_mb: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DriverArg {
    /// Principal-variation search with an aspiration window.
    Pvs,
    /// MTD(f) from the previous iteration's value.
    Mtdf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HumanArg {
    /// You move first.
    First,
    /// The engine moves first.
    Second,
    /// You play both sides (the engine gives hints).
    Both,
    /// The engine plays itself.
    None,
}

/// The exact solvers of `solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Solver {
    /// Alpha-beta with a transposition table to the end of the game, iterative deepening for
    /// move ordering, null-window tests (MTD(f), then bisection) for the exact value.
    #[value(alias = "negascout")]
    AlphabetaTt,
    /// Binary proof-number search: win, draw or loss.
    Pn,
    /// Multi-valued proof-number search: the exact value.
    PnMulti,
    /// Depth-first proof-number search over a fixed table (--tt-mb): win, draw or loss.
    Dfpn,
    /// Multi-valued df-pn: the exact value, one table for every threshold.
    DfpnMulti,
}

/// An algorithm name as clap parses it: the library's names, one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AlgoArg(Algorithm);

const ALGO_ARGS: [AlgoArg; Algorithm::ALL.len()] = {
    let mut out = [AlgoArg(Algorithm::Minimax); Algorithm::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = AlgoArg(Algorithm::ALL[i]);
        i += 1;
    }
    out
};

impl ValueEnum for AlgoArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ALGO_ARGS
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()))
    }
}

#[derive(Subcommand)]
enum BenchKind {
    /// Solve a file of 7x6 Connect-Four positions (`<moves> <score>` per line, score for the side
    /// to move) and print positions, mismatches, mean time and mean nodes.
    Connect4 {
        /// The file (e.g. tests/data/connect4/Test_L2_R2).
        file: String,
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

#[derive(Subcommand)]
enum ExperimentKind {
    /// Conspiracy-number search vs alpha-beta/NegaScout: leaves for several NT and ε, move
    /// agreement with minimax, value error — random trees, Kalah(6,4), Connect-Four 5x4.
    Cns {
        /// Positions of each kind.
        #[arg(long, default_value_t = 100, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1_000_000))]
        positions: u64,
        /// Seed of trees and random play.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Pearl's Kalah table (Pearl 1980): SCOUT vs alpha-beta (and NegaScout, PVS) at depths
    /// 2-6, random and dynamic ordering, beside the published figures; writes an SVG plot.
    PearlKalah {
        /// Positions averaged over.
        #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1_000_000))]
        positions: u64,
        /// Seed of the random play and orderings.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// The board, M,N (Kalah(M, N)); Pearl's is the "1-in-a-hole version".
        #[arg(long, default_value = "6,1")]
        kalah: String,
        /// Random plies from the start: uniform in 0..=this.
        #[arg(long, default_value_t = 6, allow_negative_numbers = true, value_parser = whole::<u32>(0, 1000))]
        max_plies: u32,
        /// Count depth in single sowings (plies) instead of whole turns (a turn = a side's
        /// sowings until the other side moves).
        #[arg(long)]
        plies: bool,
        /// Also write the plot as SVG to this file (checked before the work starts).
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// leaves(SCOUT)/leaves(alpha-beta) and leaves(NegaScout)/leaves(alpha-beta) on random trees
    /// (Pearl 1984: 1 <= r <= 1.275; Reinefeld 1983: NegaScout 10-20 % fewer for b = 20..60).
    Ratios {
        /// Branching factors.
        #[arg(long, value_delimiter = ',', default_value = "2,4,8,20,40", allow_negative_numbers = true, value_parser = whole::<u32>(1, u32::MAX.into()))]
        b: Vec<u32>,
        /// Depths.
        #[arg(long, value_delimiter = ',', default_value = "4,5,6,7,8,9,10", allow_negative_numbers = true, value_parser = whole::<u32>(1, u32::MAX.into()))]
        h: Vec<u32>,
        /// Trees per cell.
        #[arg(long, default_value_t = 40, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1_000_000))]
        seeds: u64,
        /// The first seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Leaf values: continuous or discrete:M.
        #[arg(long, default_value = "continuous", value_parser = parse_values)]
        values: Values,
        /// Skip cells whose minimal tree has more leaves than this.
        #[arg(long, default_value_t = 3_000_000, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
        max_minimal_tree: u64,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Node and time budgets: a search that hits one stops cleanly and prints its result so far.
#[derive(Args, Clone, Copy)]
struct Budgets {
    /// Stop after this many nodes (the result is then marked incomplete).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seconds)]
    max_time: Option<f64>,
}

#[derive(Args, Clone)]
struct SearchOpts {
    /// Horizon (default: the whole tree; real games need one).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX.into()))]
    depth: Option<u32>,
    #[command(flatten)]
    budget: Budgets,
    /// Turn off NegaScout's depth < 3 refinement (re-search every fail-high).
    #[arg(long)]
    no_shallow_refinement: bool,
    /// Conspiracy-number search: accuracy ε (stop when Vmax - Vmin <= ε).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = whole::<i32>(0, i32::MAX as u64))]
    accuracy: i32,
    /// Conspiracy-number search: conspiracy threshold NT (default: unlimited).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    threshold: Option<u64>,
    /// Print JSON for tools instead of text.
    #[arg(long)]
    json: bool,
}

impl SearchOpts {
    /// The algorithm as the library runs it: CNS with this command line's parameters.
    fn algorithm(&self, a: AlgoArg) -> Algorithm {
        match a.0 {
            Algorithm::Cns(_) => Algorithm::Cns(CnsParams {
                accuracy: self.accuracy,
                threshold: self.threshold.map(|t| t as usize),
            }),
            other => other,
        }
    }
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

/// Raised by Ctrl-C, SIGTERM or SIGHUP; every search polls it and stops cleanly.
fn stop_flag() -> &'static Arc<AtomicBool> {
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

fn interrupted() -> bool {
    stop_flag().load(Ordering::Relaxed)
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
            let first = msg.lines().next().unwrap_or("bad arguments");
            eprintln!("{first} (see gamesearch --help)");
            return ExitCode::from(2);
        }
    };
    stop_flag();
    match run(cli) {
        Ok(()) if interrupted() => {
            eprintln!("interrupted: what is printed above is what was finished before the signal");
            ExitCode::from(130)
        }
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    let show = progress::visible(cli.quiet);
    match cli.command {
        Command::Search {
            game,
            algo,
            opts,
            engine,
            trace,
        } => {
            let spec: GameSpec = game.parse()?;
            if trace && !matches!(spec, GameSpec::Tree(_)) {
                bail!("--trace lists the leaves of an explicit tree: use a tree:… game");
            }
            if algo.is_none() && (opts.budget.max_time.is_some() || engine.driver.is_some()) {
                if trace {
                    bail!("--trace is for a fixed-depth --algo, not the engine");
                }
                return on_game!(&spec, g => run_engine(g, &game, &opts, &engine, show));
            }
            let algo = opts.algorithm(algo.unwrap_or(AlgoArg(Algorithm::NegaScout)));
            let depth = horizon(&spec, opts.depth)?;
            check_feasible(&spec, depth, &[algo], opts.budget)?;
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
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print_report(&game, &report);
                if let Some(e) = evaluated {
                    println!("evaluated   {}", e.join(" "));
                }
            }
        }
        Command::Trace {
            game,
            algo,
            opts,
            out,
            node_cap,
        } => trace(&game, &algo, &opts, &out, node_cap as usize)?,
        Command::Compare {
            game,
            algos,
            all,
            opts,
        } => {
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
                print_table(&game, &reports);
                if let Some(n) = note {
                    println!("{n}");
                }
            }
        }
        Command::Solve {
            game,
            algo,
            max_memory,
            epsilon,
            check,
            mobility,
            tt_mb,
            threads,
            id_depth,
            etc_plies,
            guess,
            budget,
            json,
        } => {
            if check && !matches!(algo, Solver::Dfpn | Solver::DfpnMulti) {
                bail!("--check verifies df-pn's proofs: use --algo dfpn or dfpn-multi");
            }
            let spec: GameSpec = game.parse()?;
            let tt_bytes = usize::try_from(tt_mb << 20).context("--tt-mb: too large")?;
            let activity = Activity::start(show, algo.to_possible_value().unwrap().get_name());
            let cfg = SolveConfig {
                tt_bytes,
                id_depth,
                limits: limits(budget)?.with_node_counter(activity.counter()),
                best_move: true,
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
                etc_plies,
                guess,
            };
            let r = match algo {
                Solver::AlphabetaTt => {
                    let step = |p: &Progress| {
                        let depth = if p.depth > 0 {
                            format!(" {}", p.depth)
                        } else {
                            String::new()
                        };
                        activity.message(format!(
                            "{}{depth} done: value in [{}, {}]",
                            p.phase, p.lower, p.upper
                        ));
                    };
                    on_game!(&spec, g => solve_report(g, &cfg, step)?)
                }
                Solver::Pn | Solver::PnMulti => {
                    let mut pn = PnConfig::new(u32::MAX);
                    pn.limits = cfg.limits.clone();
                    pn.max_memory = max_memory;
                    gamesearch::proof_number::validate(&pn)?;
                    activity.message("growing the proof tree".into());
                    on_game!(&spec, g => gamesearch::proof_number::solve_report(g, &pn, algo == Solver::PnMulti))
                }
                Solver::Dfpn | Solver::DfpnMulti => {
                    let d = DfpnConfig {
                        tt_bytes,
                        epsilon,
                        initial: if mobility {
                            Initial::Mobility
                        } else {
                            Initial::Unit
                        },
                        limits: cfg.limits.clone(),
                        ..DfpnConfig::default()
                    };
                    let multi = algo == Solver::DfpnMulti;
                    on_game!(&spec, g => dfpn::solve_report(g, &d, multi, check, |r| {
                        activity.message(format!(
                            "V >= {}: {} (root pn {}, dn {})",
                            r.threshold,
                            match r.answer {
                                gamesearch::proof_number::Answer::Proven => "proven",
                                gamesearch::proof_number::Answer::Disproven => "disproven",
                                gamesearch::proof_number::Answer::Unknown => "unknown",
                            },
                            r.proof,
                            r.disproof
                        ))
                    })?)
                }
            };
            activity.finish();
            print_solve(&game, &r, json)?;
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
            let tt_bytes = usize::try_from(tt_mb << 20).context("--tt-mb: too large")?;
            let text =
                std::fs::read_to_string(&file).with_context(|| format!("cannot read {file}"))?;
            let in_file = |e: Error| match e {
                Error::BadParameter(m) => Error::BadParameter(format!("{file}, {m}")),
                other => other,
            };
            let mut lines = gamesearch::benchmark::parse(&text).map_err(in_file)?;
            if lines.is_empty() {
                bail!("no positions in {file} (expected lines `<moves> <score>`)");
            }
            if let Some(n) = limit {
                lines.truncate(usize::try_from(n).unwrap_or(usize::MAX));
            }
            let bar = progress::steps(show, lines.len() as u64, "connect4");
            // Ctrl-C ends the run after the positions done; their figures are still printed.
            let r = gamesearch::benchmark::run(
                &lines,
                weak,
                tt_bytes,
                &limits(Budgets::none())?,
                |r| {
                    bar.set_position(r.positions as u64);
                    bar.set_message(format!(
                        "mismatches {}  mean {:.1} µs  {:.0} nodes",
                        r.mismatches, r.mean_time_us, r.mean_nodes
                    ));
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
        Command::Experiment { which } => experiment(which, show)?,
        Command::Play {
            game,
            human,
            engine,
            r#match,
            a,
            b,
            opening_plies,
            seed,
            json,
        } => {
            let spec: GameSpec = game.parse()?;
            let human = match human {
                HumanArg::First => Human::First,
                HumanArg::Second => Human::Second,
                HumanArg::Both => Human::Both,
                HumanArg::None => Human::None,
            };
            let base = limits(Budgets::none())?;
            let with_time = |t: f64| EngineSpec {
                time: Some(t),
                ..EngineSpec::default()
            };
            let engine = engine.unwrap_or_default().over(EngineSpec::default());
            let (a, b) = (
                a.unwrap_or_default().over(with_time(0.01)),
                b.unwrap_or_default().over(with_time(0.1)),
            );
            if r#match.is_some() {
                if let Some(most) = spec.max_plies() {
                    if opening_plies >= most {
                        bail!(
                            "opening plies ({opening_plies}) exceed the game: {game} ends within {most} plies, \
                             so no opening of {opening_plies} random plies leaves a game to play"
                        );
                    }
                }
            }
            let matched = r#match.map(|n| Match {
                a,
                b,
                openings: n as usize,
                opening_plies,
                seed,
            });
            match spec {
                GameSpec::Connect4(p) => play(&p, human, &engine, matched, json, &base, show)?,
                GameSpec::Kalah(p) => play(&p, human, &engine, matched, json, &base, show)?,
                GameSpec::TicTacToe(p) => play(&p, human, &engine, matched, json, &base, show)?,
                GameSpec::Random(_) | GameSpec::Tree(_) => {
                    bail!("play needs a game with a board: kalah:…, tictactoe or connect4:…")
                }
            }
        }
    }
    Ok(())
}

fn experiment(which: ExperimentKind, show: bool) -> Result<()> {
    match which {
        ExperimentKind::Cns {
            positions,
            seed,
            json,
        } => {
            eprintln!("cns: {positions} positions of each kind, seed {seed}");
            let activity = Activity::start(show, "cns experiment");
            let rows = gamesearch_cli::experiments::cns::run(
                positions as usize,
                seed,
                &limits(Budgets::none())?,
            );
            activity.finish();
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                print!("{}", gamesearch_cli::experiments::cns::table(&rows));
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
            // The output is checked before the work, not after it.
            if let Some(path) = &svg {
                std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .open(path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            let exp = PearlKalah {
                m: board.pits(),
                n: board.south()[0].into(),
                positions: positions as usize,
                seed,
                max_plies,
                whole_turns: !plies,
            };
            eprintln!(
                "pearl-kalah: Kalah({},{}), {positions} positions, seed {seed}",
                exp.m, exp.n
            );
            let bar = progress::steps(show, 2 * pearl_kalah::PEARL.len() as u64, "rows");
            let rows = exp.run(&limits(Budgets::none())?, |r| {
                bar.inc(1);
                bar.println(format!(
                    "  depth {} {:<7} SCOUT {:.1}  alpha-beta {:.1}",
                    r.depth, r.ordering, r.leaves[0], r.leaves[1]
                ));
            })?;
            bar.finish_and_clear();
            if json {
                let out = serde_json::json!({"kalah": [exp.m, exp.n], "positions": positions, "seed": seed, "max_plies": max_plies, "rows": rows});
                println!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                print!("{}", pearl_kalah::table(&exp, &rows));
            }
            // After the table: a plot that cannot be written loses nothing else.
            if let Some(path) = &svg {
                std::fs::write(path, pearl_kalah::plot(&exp, &rows))
                    .with_context(|| format!("cannot write {}", path.display()))?;
                eprintln!("plot written to {}", path.display());
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
        } => {
            let exp = RatioExperiment {
                bs: b,
                hs: h,
                seeds,
                first_seed: seed,
                values,
                max_minimal_tree,
            };
            experiment_ratios(&exp, json, show)?
        }
    }
    Ok(())
}

impl Budgets {
    fn none() -> Self {
        Budgets {
            max_nodes: None,
            max_time: None,
        }
    }
    fn given(self) -> bool {
        self.max_nodes.is_some() || self.max_time.is_some()
    }
}

/// `search` without `--algo`: the engine deepens until the budget (or `--depth`), printing one
/// line per iteration.
fn run_engine<G: PositionKey + Heuristic>(
    g: &G,
    game: &str,
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
    let name = |pv: &[G::Move]| {
        let mut p = g.clone();
        pv.iter()
            .map(|&m| {
                let n = p.move_name(m);
                p = p.play(m);
                n
            })
            .collect::<Vec<_>>()
    };
    if !opts.json {
        println!("game        {game}");
    }
    let value_text = |it: &Iteration<G::Move>| match it.mate {
        Some(n) if n > 0 => format!("win in {n}"),
        Some(n) => format!("loss in {}", -n),
        None => format!("{:+}", it.value),
    };
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
            "driver": match driver { Driver::Mtdf => "mtdf", Driver::Pvs { .. } => "pvs" },
            "depth": t.depth, "value": t.value, "mate": t.mate, "best_move": best,
            "pv": name(&t.pv), "complete": t.complete, "stats": t.stats,
            "nodes_per_second": t.nodes_per_second(),
            "time_ms": t.elapsed.as_secs_f64() * 1e3, "iterations": iterations,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "best move   {}  ({} for the side to move, depth {}{})",
            best.as_deref().unwrap_or("-"),
            describe(&t, g.to_move()),
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

/// `play`: one game in the terminal, or a match between two engines.
fn play<G: Board>(
    start: &G,
    human: Human,
    engine: &EngineSpec,
    matched: Option<Match>,
    json: bool,
    base: &Limits,
    show: bool,
) -> Result<()> {
    let Some(m) = matched else {
        let stdin = std::io::stdin();
        playing::play_game(
            start,
            human,
            engine,
            base,
            &mut stdin.lock(),
            &mut std::io::stdout(),
        )?;
        return Ok(());
    };
    eprintln!(
        "match: {} openings of {} random plies (seed {}), each played twice; A: {}; B: {}",
        m.openings, m.opening_plies, m.seed, m.a, m.b
    );
    let bar = progress::steps(show, 2 * m.openings as u64, "games");
    let tally = playing::play_match(start, &m, base, |t| {
        bar.inc(1);
        bar.set_message(format!("A: +{} ={} -{}", t.wins, t.draws, t.losses));
    })?;
    bar.finish_and_clear();
    let (score, lo, hi) = tally.score();
    let games = tally.wins + tally.draws + tally.losses;
    if json {
        let out = serde_json::json!({
            "games": games, "a": m.a.to_string(), "b": m.b.to_string(),
            "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
            "score": score, "ci95": [lo, hi], "seed": m.seed, "opening_plies": m.opening_plies,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "A wins {}  draws {}  losses {}  (of {games} games)",
            tally.wins, tally.draws, tally.losses
        );
        println!("A's score {score:.3}  95% CI [{lo:.3}, {hi:.3}]");
    }
    Ok(())
}

/// The horizon: `--depth` (no deeper than the tree), or the whole tree where it is finite.
fn horizon(spec: &GameSpec, depth: Option<u32>) -> Result<u32> {
    Ok(match (depth, spec.full_depth()) {
        (Some(d), Some(full)) => d.min(full),
        (None, Some(full)) => full,
        (Some(d), None) => d,
        (None, None) => bail!("this game needs a horizon: give --depth D (or use `solve`)"),
    })
}

/// Runs each algorithm on the game, with the budgets, the stop flag and a progress line.
fn run_all(
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
        reports.push(on_game!(spec, g => run_report(g, a, &cfg)));
        activity.finish();
    }
    Ok(reports)
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
    let depth = horizon(&spec, opts.depth)?;
    check_feasible(&spec, depth, &algos, opts.budget)?;
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
        let mut cfg = SearchConfig::new(depth).with_limits(base.clone());
        cfg.shallow_refinement = !opts.no_shallow_refinement;
        let t = on_game!(&spec, g => {
            let mut rec = Recorder::new(g, cap).root_label(&root_label);
            let outcome = search_observed(g, a, &cfg, &mut rec);
            rec.finish(a.name(), &outcome)
        });
        if t.truncated {
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
            Some("html") => write(o, &view::html(&title, &traces)?)?,
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

/// Node and time budgets from the command line, plus the stop flag (Ctrl-C, SIGTERM).
fn limits(b: Budgets) -> Result<Limits> {
    let mut limits = Limits::none().with_stop_flag(stop_flag().clone());
    if let Some(n) = b.max_nodes {
        limits = limits.with_max_nodes(n);
    }
    if let Some(t) = b.max_time {
        limits = limits.with_max_time(Duration::from_secs_f64(t));
    }
    Ok(limits)
}

/// The node budget `compare`'s hint gives for the algorithms it leaves out: seconds, not hours.
const HINT_NODES: u64 = 200_000;

/// Proof-number and conspiracy search keep the searched tree in memory; `compare` runs them by
/// default only on trees of at most this many nodes (they finish in seconds there).
const TREE_DEFAULT_LIMIT: u64 = 1_000_000;
/// Above this many nodes they are refused without a budget (hours, gigabytes).
const TREE_LIMIT: u64 = 5_000_000;

/// `compare`'s default algorithms: every one whose cost is bounded on this tree, and those left
/// out.
fn default_algorithms(
    spec: &GameSpec,
    depth: u32,
    budget: Budgets,
) -> (Vec<Algorithm>, Vec<Algorithm>) {
    let small = budget.given() || spec.max_nodes(depth) <= TREE_DEFAULT_LIMIT;
    Algorithm::ALL
        .into_iter()
        .partition(|a| !a.keeps_tree() || small)
}

/// Refuses searches that cannot finish (unless a budget was given): minimax beyond 10^10
/// leaves, any algorithm whose minimal tree exceeds 10^12 leaves, proof-number and conspiracy
/// search on trees of more than [`TREE_LIMIT`] nodes.
fn check_feasible(spec: &GameSpec, depth: u32, algos: &[Algorithm], budget: Budgets) -> Result<()> {
    if budget.given() {
        return Ok(());
    }
    let b = match spec {
        GameSpec::Random(r) => Some(r.b),
        GameSpec::Kalah(k) => Some(k.pits() as u32),
        GameSpec::Connect4(c) => Some(c.width() as u32),
        GameSpec::Tree(_) | GameSpec::TicTacToe(_) => None,
    };
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
fn tree_node_bytes<G: Game>(_: &G) -> usize {
    PnTree::<G>::NODE_BYTES.max(CnTree::<G>::NODE_BYTES)
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

fn print_solve(game: &str, r: &SolveReport, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(r)?);
        return Ok(());
    }
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
    if let Some(n) = r.proof_nodes {
        println!("proof       {n} nodes, checked");
    }
    if let (Some((pn, dn)), false) = (r.root_numbers, r.complete) {
        let show = |n: u32| {
            if n == u32::MAX {
                "inf".to_string()
            } else {
                n.to_string()
            }
        };
        println!(
            "root        proof number {}  disproof number {}",
            show(pn),
            show(dn)
        );
    }
    let memory = match r.peak_tree_bytes {
        Some(b) => format!("peak tree {}", gamesearch::error::human_bytes(b)),
        None => format!("tt {}", gamesearch::error::human_bytes(r.tt_bytes)),
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
    Ok(())
}

fn experiment_ratios(exp: &RatioExperiment, json: bool, show: bool) -> Result<()> {
    exp.validate()?;
    let (cells, skipped) = ratios::plan(exp);
    let (seeds, first_seed, values) = (exp.seeds, exp.first_seed, exp.values);
    eprintln!(
        "ratios: {} cells x {} seeds (seeds {}..={}), {} skipped (minimal tree > {})",
        cells.len(),
        seeds,
        first_seed,
        first_seed + seeds - 1,
        skipped.len(),
        exp.max_minimal_tree
    );
    // Ctrl-C stops the searches of the cell in progress at once; the cells finished are
    // still printed.
    let bar = progress::steps(show, cells.len() as u64, "cells");
    let stop = limits(Budgets::none())?;
    let mut rows: Vec<RatioRow> = Vec::new();
    for &(b, h) in &cells {
        bar.set_message(format!("b={b} h={h}"));
        match ratios::ratio_cell(exp, b, h, &stop) {
            Some(row) => rows.push(row),
            None => break,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if json {
        let out = serde_json::json!({
            "seeds": seeds, "first_seed": first_seed, "values": values_text(values),
            "rows": rows, "skipped": skipped,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "leaves evaluated on random (h, d, F) trees, {} values, mean of {seeds} seeds from {first_seed}",
        values_text(values)
    );
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
            "skipped (minimal tree > {}): {}",
            exp.max_minimal_tree,
            s.join(", ")
        );
    }
    Ok(())
}

/// A whole number in `min..=max`, with a message in words when it is not (clap's own says
/// "-1 is not in 0..=4294967295", or takes `-1` for an unknown flag).
fn whole<T: TryFrom<u64> + Clone + Send + Sync + 'static>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let t = s.trim();
        if t.starts_with('-') && t[1..].chars().all(|c| c.is_ascii_digit()) && t.len() > 1 {
            return Err(format!("must be {}", at_least(min)));
        }
        let n: u64 = t
            .parse()
            .map_err(|_| format!("`{s}` is not a whole number (must be {})", at_least(min)))?;
        if n < min {
            return Err(format!("must be {}", at_least(min)));
        }
        if n > max {
            return Err(format!("{n} is too large: at most {max}"));
        }
        T::try_from(n).map_err(|_| format!("{n} is too large"))
    }
}

fn at_least(min: u64) -> String {
    match min {
        0 => "≥ 0".to_string(),
        1 => "at least 1".to_string(),
        m => format!("at least {m}"),
    }
}

/// `--max-time`: a positive, finite number of seconds, at most 10^9 (about 31 years).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_nan() => Err("must be a number of seconds".into()),
        Ok(t) if t <= 0.0 => Err("must be more than 0 seconds".into()),
        Ok(t) if t > 1e9 => Err(format!(
            "{s} seconds is longer than the limit of 10^9 seconds (about 31 years)"
        )),
        Ok(t) => Ok(t),
        Err(_) => Err(format!("`{s}` is not a number of seconds (e.g. 0.5, 10)")),
    }
}

/// `--epsilon`: a finite number >= 0.
fn parse_epsilon(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(e) if e.is_finite() && e >= 0.0 => Ok(e),
        Ok(e) if e < 0.0 => Err("must be ≥ 0".into()),
        _ => Err(format!("`{s}` is not a finite number ≥ 0")),
    }
}

/// `512M`, `2G`, `64k` or plain bytes.
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.starts_with('-') {
        return Err("must be a positive size (e.g. 512M, 2G)".into());
    }
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: usize = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(format!("`{s}`: the suffix must be K, M or G")),
            };
            (&t[..i], m)
        }
        _ => (t, 1),
    };
    let n: usize = num
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 512M, 2G)"))?;
    n.checked_mul(mult)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{s}`: must be positive and fit in memory"))
}

/// `continuous` or `discrete:M`, as the `--values` flag takes them.
fn values_text(v: Values) -> String {
    match v {
        Values::Continuous => "continuous".into(),
        Values::Discrete(m) => format!("discrete:{m}"),
    }
}

/// `continuous` or `discrete:M` (M >= 2).
fn parse_values(s: &str) -> Result<Values, String> {
    match s.split_once(':') {
        None if s == "continuous" => Ok(Values::Continuous),
        Some(("discrete", m)) => match m.parse::<u32>() {
            Ok(m) if (2..=gamesearch::games::random_tree::MAX_LEVELS).contains(&m) => {
                Ok(Values::Discrete(m))
            }
            _ => Err(format!(
                "discrete:{m}: M must be a whole number from 2 to {}",
                gamesearch::games::random_tree::MAX_LEVELS
            )),
        },
        _ => Err(format!("`{s}`: expected continuous or discrete:M")),
    }
}
