//! `gamesearch solve`: a game solved exactly, by the alpha-beta solver, tree PN or df-pn.

use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use gamesearch::exact::{solve_report, Method};
use gamesearch::solver::{Progress, SolveConfig};
use gamesearch::split::JobLine;
use gamesearch::tablebase::Probed;
use gamesearch_cli::progress::Activity;
use gamesearch_games::GameSpec;

use super::limits;
use crate::args::{parse_epsilon, parse_focus, parse_size, whole, Budgets};
use crate::output::{game_title, print_solve};

/// The exact solvers of `solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Solver {
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

/// Solve a game exactly (to the end, no horizon): value, best move, nodes.
#[derive(Args)]
pub struct SolveArgs {
    #[arg(required_unless_present = "job", help = crate::args::game_help(|_| true), long_help = crate::args::game_long_help(|_| true))]
    pub game: Option<String>,
    /// Solve one job of `gamesearch split` (its JSON line, or `-` to read it from standard
    /// input) with the alpha-beta solver, and print its result line for `gamesearch combine`.
    #[arg(long, conflicts_with = "game")]
    pub job: Option<String>,
    /// The solver.
    #[arg(long, value_enum, default_value_t = Solver::AlphabetaTt)]
    pub algo: Solver,
    /// Memory budget for proof-number search's tree, e.g. 512M, 2G (bytes if no suffix;
    /// default: three quarters of the memory available when the search starts, MemAvailable).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_size)]
    pub max_memory: Option<usize>,
    /// df-pn: the 1+ε trick's ε (0: plain df-pn).
    #[arg(long, default_value_t = 0.25, allow_negative_numbers = true, value_parser = parse_epsilon)]
    pub epsilon: f64,
    /// df-pn: extract the proof (or disproof) tree of the answer and verify it.
    #[arg(long)]
    pub check: bool,
    /// df-pn: initial numbers from the number of moves (Allis' mobility) instead of 1.
    #[arg(long)]
    pub mobility: bool,
    /// df-pn: focused search — a node weighs its first 1 + SHARE × (live children) children in
    /// the game's order until they are refuted (1: every child). Default: the game's
    /// (Hex: 0.25; Domineering: 0.01, two live children; the others: every child).
    #[arg(long, value_name = "SHARE", value_parser = parse_focus)]
    pub focus: Option<f64>,
    /// Transposition table size in MiB (alphabeta-tt, dfpn).
    #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
    pub tt_mb: u64,
    /// alphabeta-tt: threads sharing the table (default: the machine's cores).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>(1, 256))]
    pub threads: Option<usize>,
    /// Deepest iterative-deepening pass (for move ordering) before the exact search.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = whole::<u32>(0, 64))]
    pub id_depth: u32,
    /// alphabeta-tt: enhanced transposition cutoffs in the first N plies (0: none; default:
    /// the game's, 26 for Connect-Four, 0 for the others).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 255))]
    pub etc_plies: Option<u32>,
    /// alphabeta-tt with --id-depth 0: the first null-window test's value (then galloping);
    /// default: bisection biased towards 0.
    #[arg(long, allow_hyphen_values = true)]
    pub guess: Option<i32>,
    /// alphabeta-tt: an opening book (`gamesearch combine … --book`): a position in it with an
    /// exact value is answered at once, and the search reads its entries first. Default: none,
    /// every position searched (`play` uses the book shipped for 7x6 Connect-Four,
    /// books/connect4-7x6-ply4.book, unless told --no-book; give it here to use it).
    #[arg(long)]
    pub book: Option<String>,
    /// alphabeta-tt, Kalah: endgame databases (`gamesearch tablebase build`): a position of a
    /// class in DIR is a leaf with its exact value.
    #[arg(long, value_name = "DIR")]
    pub tablebase: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub budget: Budgets,
    /// Print JSON for tools instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gamesearch solve`.
pub fn run(args: SolveArgs, show: bool) -> Result<()> {
    let SolveArgs {
        game,
        job,
        algo,
        max_memory,
        epsilon,
        check,
        mobility,
        focus,
        tt_mb,
        threads,
        id_depth,
        etc_plies,
        guess,
        book,
        tablebase,
        budget,
        json,
    } = args;
    if check && !matches!(algo, Solver::Dfpn | Solver::DfpnMulti) {
        bail!("--check verifies df-pn's proofs: use --algo dfpn or dfpn-multi");
    }
    if focus.is_some() && !matches!(algo, Solver::Dfpn | Solver::DfpnMulti) {
        bail!("--focus is df-pn's: use --algo dfpn or dfpn-multi");
    }
    if book.is_some() && algo != Solver::AlphabetaTt {
        bail!("--book is read by the alpha-beta solver (leave out --algo)");
    }
    if tablebase.is_some() && (algo != Solver::AlphabetaTt || job.is_some()) {
        bail!("--tablebase is read by the alpha-beta solver on a Kalah position (leave out --algo and --job)");
    }
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
        window: None,
        book: None,
        max_memory,
        epsilon,
        mobility,
        focus,
        check,
        ..SolveConfig::default()
    };
    if let Some(line) = job {
        if algo != Solver::AlphabetaTt {
            bail!("--job solves with the alpha-beta solver (leave out --algo)");
        }
        return solve_job(&line, cfg, book.as_deref(), activity);
    }
    let game = game.expect("clap requires GAME without --job");
    let cfg = with_book(cfg, book.as_deref(), &game)?;
    let spec: GameSpec = game.parse()?;
    let method = match algo {
        Solver::AlphabetaTt => Method::AlphaBetaTt,
        Solver::Pn => Method::Pn,
        Solver::PnMulti => Method::PnMulti,
        Solver::Dfpn => Method::Dfpn,
        Solver::DfpnMulti => Method::DfpnMulti,
    };
    if matches!(method, Method::Pn | Method::PnMulti) {
        activity.message("growing the proof tree".into());
    }
    // The one front door for every solver; the progress line shows the bounds proven so far.
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
    // Dōbutsu shōgi is solved strongly (retrograde analysis, every position with its
    // remoteness) unless df-pn is asked for, which solves the one position weakly.
    let weakly = matches!(algo, Solver::Dfpn | Solver::DfpnMulti);
    if let (GameSpec::Dobutsu(p), false) = (&spec, weakly) {
        activity.finish();
        if algo != Solver::AlphabetaTt {
            bail!("Dōbutsu shōgi's positions repeat: it is solved strongly, by retrograde analysis (leave out --algo), or weakly by --algo dfpn or dfpn-multi");
        }
        let start = std::time::Instant::now();
        let s = match &tablebase {
            Some(dir) => super::tablebase::open_strong(dir, p)?,
            None => super::tablebase::solve_strong(
                p,
                threads,
                max_memory,
                super::tablebase::By::Index,
                show,
            )?,
        };
        return print_strong(&game, p, &s, start.elapsed().as_secs_f64(), json);
    }
    let r = match (&tablebase, &spec) {
        (Some(dir), GameSpec::Kalah(p)) => {
            let tables = super::tablebase::load(p, dir)?;
            let last = tables.classes().last().copied().unwrap_or(0);
            activity.message(format!("tablebase: classes 0..={last}"));
            solve_report(&Probed::new(*p, &tables), method, &cfg, step)?
        }
        (Some(_), _) => bail!("--tablebase: the databases are Kalah's, not `{game}`'s"),
        (None, _) => on_game!(&spec, g => solve_report(g, method, &cfg, step)?),
    };
    activity.finish();
    if json {
        let mut v = serde_json::to_value(&r)?;
        if let Some(rules) = spec.rules_note() {
            v["rules"] = serde_json::json!(rules);
        }
        // A game whose positions repeat always says its remoteness (null: a draw or unknown).
        if on_game!(&spec, g => repeats(g)) {
            v["remoteness"] = serde_json::json!(r.remoteness);
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_solve(&game_title(&game, &spec), &r);
    }
    Ok(())
}

/// Whether `g`'s positions can repeat ([`gamesearch::Game::REPEATS`]).
fn repeats<G: gamesearch::Game>(_: &G) -> bool {
    G::REPEATS
}

/// `cfg` with the book at `path` (if any), which must be one for `game`'s rules.
fn with_book(cfg: SolveConfig, path: Option<&str>, game: &str) -> Result<SolveConfig> {
    let book = match path {
        Some(path) => Some(Arc::new(gamesearch_games::split::read_book(path, game)?)),
        None => None,
    };
    Ok(SolveConfig { book, ..cfg })
}

/// `--job LINE`: one job of a split, solved; its result as one JSON line.
fn solve_job(line: &str, cfg: SolveConfig, book: Option<&str>, activity: Activity) -> Result<()> {
    let text = if line == "-" {
        let mut l = String::new();
        std::io::stdin().read_line(&mut l)?;
        l
    } else {
        line.to_string()
    };
    let job: JobLine = serde_json::from_str(text.trim())
        .context("--job: expected a line of `gamesearch split`, {\"key\": …, \"game\": …}")?;
    let cfg = with_book(cfg, book, &job.game)?;
    activity.message(format!("job {}", job.key));
    let r = gamesearch_games::split::solve_job(&job, &cfg)?;
    activity.finish();
    match r {
        Some(r) => println!("{}", serde_json::to_string(&r)?),
        None if super::interrupted() => {}
        None => bail!("job {}: the budget ran out before it was solved", job.key),
    }
    Ok(())
}

/// A cyclic game's answer from its strong solution: the value (MAX's view), the remoteness
/// (plies to the end: the winner's shortest, the loser's longest; none for a draw), the best
/// move and the line that follows from it.
fn print_strong(
    game: &str,
    p: &gamesearch_games::Dobutsu,
    s: &super::tablebase::Strong,
    seconds: f64,
    json: bool,
) -> Result<()> {
    use gamesearch::Game;
    let Some(here) = s.probe(p) else {
        bail!("{game} is not in the strong solution (not reachable from the position it was built from, or not a placement the table numbers)");
    };
    // The principal variation: best moves until the end (a draw's line stops after 20 plies).
    let mut pv = Vec::new();
    let mut at = *p;
    let plies = here.remoteness.unwrap_or(20);
    while (pv.len() as u32) < plies {
        let Some(m) = s.best_move(&at) else { break };
        pv.push(at.move_name(m));
        at = at.play(m);
    }
    let st = s.stats();
    if json {
        let v = serde_json::json!({"game": game, "algorithm": "retrograde", "value": here.value,
            "remoteness": here.remoteness, "best_move": pv.first(), "pv": pv,
            "positions": st.positions, "complete": s.complete(), "seconds": seconds});
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "{game}: solved strongly (retrograde analysis over {} positions)",
            st.positions
        );
        println!(
            "value {} (first player's view)",
            super::tablebase::describe(&here)
        );
        if let Some(m) = pv.first() {
            println!("best move: {m}");
            println!("line: {}", pv.join(" "));
        }
        println!("{seconds:.2} s");
    }
    Ok(())
}
