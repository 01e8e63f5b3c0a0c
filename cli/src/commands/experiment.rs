//! `gamesearch experiment`: the published experiments reproduced (ratios, pearl-kalah, cns).

use anyhow::{Context, Result};
use clap::Subcommand;
use gamesearch::trees::Values;
use gamesearch_cli::experiments::pearl_kalah::{self, PearlKalah};
use gamesearch_cli::experiments::ratios::{self, RatioExperiment, RatioRow};
use gamesearch_cli::progress::{self, Activity};
use gamesearch_games::Kalah;

use super::{interrupted, limits};
use crate::args::{board_size, parse_seconds, parse_values, values_text, whole, Budgets};
use anyhow::bail;
use gamesearch_cli::experiments::engines::{self, Pairing, Standing};
use gamesearch_cli::play::{Board, EngineSettings, EngineSpec};
use gamesearch_games::GameSpec;

#[derive(Subcommand)]
pub enum ExperimentKind {
    /// Empty Connect-Four boards solved one after another: value, outcome, the ply on which
    /// the game ends with perfect play, nodes and time (Tromp's and Steininger's tables).
    Boards {
        /// The boards, e.g. 7x6,6x7,8x5 (default: every board from 4x4 with width + height
        /// up to --max-sum).
        #[arg(long, value_delimiter = ',', value_parser = board_size)]
        boards: Vec<(usize, usize)>,
        /// Without --boards: every board of at least 4x4 with width + height up to this.
        #[arg(long, default_value_t = 11, allow_negative_numbers = true, value_parser = whole::<u64>(8, 30))]
        max_sum: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 1024, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
        tt_mb: u64,
        /// Threads per solve.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1024))]
        threads: u64,
        /// The first null-window test's value (then galloping), as `solve --guess` (default:
        /// bisection biased towards 0, whose first test near 0 asks whether the first player
        /// wins, or on boards of even width and height and of height 4 whether it loses);
        /// `--guess -1` asks first whether the first player loses on every board, as c4 does.
        #[arg(long, allow_negative_numbers = true)]
        guess: Option<i32>,
        /// Enhanced transposition cutoffs in the first N plies, as `solve --etc-plies` (default:
        /// Connect-Four's own).
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 255))]
        etc_plies: Option<u32>,
        #[command(flatten)]
        budget: Budgets,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Empty Domineering boards solved with each player first: the outcome class of each
    /// board of the published table (Lachmann, Moore & Rapaport 2002; Breuker, Uiterwijk & van
    /// den Herik 2000) beside the published one, with nodes and time.
    Domineering {
        /// Every board of the table with at most this many cells.
        #[arg(long, default_value_t = 40, allow_negative_numbers = true, value_parser = whole::<u64>(1, 128))]
        max_cells: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
        tt_mb: u64,
        /// Threads per solve.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1024))]
        threads: u64,
        #[command(flatten)]
        budget: Budgets,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Every opening of an n×n Hex board solved (no swap): the board of Black's winning (B) and
    /// losing (W) first moves beside the published one (4x4 to 7x7), with nodes and time. An
    /// opening whose half turn came first is read from it (the half turn keeps both players'
    /// edges).
    Hex {
        /// The board's size n.
        #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = whole::<u64>(1, 11))]
        size: u64,
        /// The exact solver: dfpn (the default), dfpn-multi, pn, pn-multi or alphabeta-tt.
        #[arg(long, default_value = "dfpn")]
        algo: String,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1 << 30))]
        tt_mb: u64,
        /// Threads per solve (alphabeta-tt only).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1024))]
        threads: u64,
        /// df-pn's focus: a node weighs its first 1 + SHARE × (live children) children in the
        /// move order until they are refuted (1: every child; default: Hex's, 0.25).
        #[arg(long, value_name = "SHARE", value_parser = crate::args::parse_focus)]
        focus: Option<f64>,
        #[command(flatten)]
        budget: Budgets,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
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
    /// A round robin of engines at a fixed time a move on each game — every pair over the same
    /// seeded openings, both colours — and an Elo table with 95 % intervals per game.
    Engines {
        /// A game to play (repeatable): a board game's GAME text (default: connect4:7x6,
        /// kalah:6,4 and othello).
        #[arg(long = "game")]
        games: Vec<String>,
        /// An engine (repeatable), as `play --engine`: time=SECS,driver=pvs|mtdf|mcts|
        /// mcts-solver|pn-mcts,tt=MB,plies=N over `time=--time` (default: pvs, mcts,
        /// mcts-solver and pn-mcts).
        #[arg(long = "engine")]
        engines: Vec<EngineSettings>,
        /// Seconds a move, for every engine that does not give its own.
        #[arg(long, default_value_t = 0.02, allow_negative_numbers = true, value_parser = parse_seconds)]
        time: f64,
        /// Openings per pairing (each played twice, colours swapped).
        #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = whole::<u64>(1, 1_000_000))]
        openings: u64,
        /// Random plies that make an opening.
        #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = whole::<u32>(0, 1000))]
        opening_plies: u32,
        /// Seed of the openings (and of the Monte-Carlo engines' playouts).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Print JSON instead of tables.
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

/// Whether the notes on standard error are shown: the progress display's rule (a terminal,
/// no `--quiet`). A header or a row as it is found is such a note; the results go to stdout.
static NOTES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `eprintln!` when notes are shown ([`NOTES`]).
macro_rules! note {
    ($($t:tt)*) => {
        if NOTES.load(std::sync::atomic::Ordering::Relaxed) {
            eprintln!($($t)*);
        }
    };
}

/// Runs `gamesearch experiment`.
pub fn run(which: ExperimentKind, show: bool) -> Result<()> {
    NOTES.store(show, std::sync::atomic::Ordering::Relaxed);
    match which {
        ExperimentKind::Boards {
            boards,
            max_sum,
            tt_mb,
            threads,
            guess,
            etc_plies,
            budget,
            json,
        } => experiment_boards(
            &boards,
            max_sum as usize,
            tt_mb,
            threads,
            (guess, etc_plies),
            budget,
            json,
        )?,
        ExperimentKind::Domineering {
            max_cells,
            tt_mb,
            threads,
            budget,
            json,
        } => experiment_domineering(max_cells as usize, tt_mb, threads, budget, json)?,
        ExperimentKind::Hex {
            size,
            algo,
            tt_mb,
            threads,
            focus,
            budget,
            json,
        } => experiment_hex(size as usize, &algo, tt_mb, threads, focus, budget, json)?,
        ExperimentKind::Cns {
            positions,
            seed,
            json,
        } => {
            note!("cns: {positions} positions of each kind, seed {seed}");
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
            note!(
                "pearl-kalah: Kalah({},{}), {positions} positions, seed {seed}",
                exp.m,
                exp.n
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
                note!("plot written to {}", path.display());
            }
        }
        ExperimentKind::Engines {
            games,
            engines,
            time,
            openings,
            opening_plies,
            seed,
            json,
        } => {
            let base = EngineSpec {
                time: Some(time),
                ..EngineSpec::default()
            };
            let engines: Vec<EngineSpec> = if engines.is_empty() {
                [
                    "driver=pvs",
                    "driver=mcts",
                    "driver=mcts-solver",
                    "driver=pn-mcts",
                ]
                .iter()
                .map(|s| s.parse::<EngineSettings>().map(|e| e.over(base)))
                .collect::<Result<_, _>>()
                .map_err(anyhow::Error::msg)?
            } else {
                engines.iter().map(|e| e.over(base)).collect()
            };
            if engines.len() < 2 {
                bail!("a round robin needs at least two engines (--engine, twice or more)");
            }
            let games = if games.is_empty() {
                ["connect4:7x6", "kalah:6,4", "othello"]
                    .map(String::from)
                    .to_vec()
            } else {
                games
            };
            // Every game checked before any is played.
            let specs: Vec<GameSpec> = games
                .iter()
                .map(|g| {
                    let spec: GameSpec = g.parse()?;
                    if matches!(spec, GameSpec::Random(_) | GameSpec::Tree(_)) {
                        bail!("experiment engines plays board games, not `{g}`");
                    }
                    Ok(spec)
                })
                .collect::<Result<_>>()?;
            let run = EngineRun {
                engines: &engines,
                openings: openings as usize,
                opening_plies,
                seed,
                show,
            };
            let mut results = Vec::new();
            for (game, spec) in games.iter().zip(&specs) {
                if interrupted() {
                    break;
                }
                let r = match spec {
                    GameSpec::Connect4(p) => run.play(game, p)?,
                    GameSpec::Connect4Wide(p) => run.play(game, p)?,
                    GameSpec::Kalah(p) => run.play(game, p)?,
                    GameSpec::TicTacToe(p) => run.play(game, p)?,
                    GameSpec::Othello(p) => run.play(game, p)?,
                    GameSpec::Domineering(p) => run.play(game, p)?,
                    GameSpec::Hex(p) => run.play(game, p)?,
                    GameSpec::Dobutsu(p) => run.play(game, p)?,
                    GameSpec::Random(_) | GameSpec::Tree(_) => {
                        bail!("experiment engines plays board games, not `{game}`")
                    }
                };
                if !json {
                    println!(
                        "{game}: {time} s a move (unless an engine says otherwise), {openings} \
                         openings of {opening_plies} random plies a pairing, each played \
                         twice, seed {seed}"
                    );
                    println!("{}", r.table);
                }
                results.push(serde_json::json!({
                    "game": game, "standings": r.standings, "pairings": r.pairings,
                }));
            }
            if json {
                let names: Vec<String> = engines.iter().map(|e| e.to_string()).collect();
                let out = serde_json::json!({
                    "engines": names, "time": time, "openings": openings,
                    "opening_plies": opening_plies, "seed": seed, "games": results,
                });
                println!("{}", serde_json::to_string_pretty(&out)?);
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

fn experiment_ratios(exp: &RatioExperiment, json: bool, show: bool) -> Result<()> {
    exp.validate()?;
    let (cells, skipped) = ratios::plan(exp);
    let (seeds, first_seed, values) = (exp.seeds, exp.first_seed, exp.values);
    note!(
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

/// `experiment boards`: each board solved in turn, its row printed as it is found (Ctrl-C stops
/// the board in progress; the rows found are kept).
fn experiment_domineering(
    max_cells: usize,
    tt_mb: u64,
    threads: u64,
    budget: Budgets,
    json: bool,
) -> Result<()> {
    use gamesearch_cli::experiments::domineering as dom;
    let list = dom::board_list(max_cells);
    let cfg = dom::config(
        usize::try_from(tt_mb).context("--tt-mb")?,
        threads as usize,
        limits(budget)?,
    );
    note!(
        "domineering: {} empty board(s) of at most {max_cells} cells, each player first, {tt_mb} MiB, {threads} thread(s), budget per game: {}",
        list.len(),
        if budget.given() { "as given" } else { "none" }
    );
    let mut rows = Vec::new();
    for &(r, c, published) in &list {
        let row = dom::solve_board(r, c, published, &cfg)?;
        if !json {
            let table = dom::table(std::slice::from_ref(&row));
            note!("{}", table.lines().nth(1).unwrap_or_default());
        }
        let stopped = row.class.is_none();
        rows.push(row);
        if stopped && super::interrupted() {
            break;
        }
    }
    let disagree = rows.iter().filter(|r| r.agrees == Some(false)).count();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", dom::table(&rows));
        let solved = rows.iter().filter(|r| r.class.is_some()).count();
        println!(
            "{solved} of {} boards solved, {} agree with the published class, {disagree} do not",
            rows.len(),
            rows.iter().filter(|r| r.agrees == Some(true)).count()
        );
    }
    if disagree > 0 {
        bail!("{disagree} board(s) disagree with the published class");
    }
    Ok(())
}

/// `experiment hex`: each opening solved in turn, its row printed as it is found (Ctrl-C stops
/// the opening in progress; the rows found are kept).
fn experiment_hex(
    size: usize,
    algo: &str,
    tt_mb: u64,
    threads: u64,
    focus: Option<f64>,
    budget: Budgets,
    json: bool,
) -> Result<()> {
    use gamesearch::exact::Method;
    use gamesearch_cli::experiments::hex;
    let method: Method = algo.parse()?;
    if focus.is_some() && !matches!(method, Method::Dfpn | Method::DfpnMulti) {
        bail!("--focus is df-pn's: use --algo dfpn or dfpn-multi");
    }
    let cfg = gamesearch::SolveConfig {
        focus,
        ..hex::config(
            usize::try_from(tt_mb).context("--tt-mb")?,
            threads as usize,
            limits(budget)?,
        )
    };
    note!(
        "hex: every opening of {size}x{size} (no swap) by {algo}, {tt_mb} MiB, {threads} thread(s), budget per opening: {}",
        if budget.given() { "as given" } else { "none" }
    );
    let rows = hex::solve_openings(size, method, &cfg, |row| {
        if !json {
            let result = match row.black_wins {
                Some(true) => "Black wins",
                Some(false) => "White wins",
                None => "not solved",
            };
            let from = if row.solved_as == row.cell {
                format!("{:>12} nodes {:>8.2} s", row.nodes, row.seconds)
            } else {
                format!("as its half turn {}", row.solved_as)
            };
            note!("{:<4} {result:<10}  {from}", row.cell);
        }
        !(row.black_wins.is_none() && super::interrupted())
    })?;
    let disagree = rows.iter().filter(|r| r.agrees == Some(false)).count();
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", hex::board(size, &rows));
        let solved = rows.iter().filter(|r| r.black_wins.is_some()).count();
        let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
        let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
        println!(
            "{solved} of {} openings solved ({nodes} nodes, {seconds:.2} s), {} agree with the published result, {disagree} do not",
            rows.len(),
            rows.iter().filter(|r| r.agrees == Some(true)).count()
        );
    }
    if disagree > 0 {
        bail!("{disagree} opening(s) disagree with the published result");
    }
    Ok(())
}

fn experiment_boards(
    boards: &[(usize, usize)],
    max_sum: usize,
    tt_mb: u64,
    threads: u64,
    (guess, etc_plies): (Option<i32>, Option<u32>),
    budget: Budgets,
    json: bool,
) -> Result<()> {
    use gamesearch_cli::experiments::boards;
    let list: Vec<(usize, usize)> = if boards.is_empty() {
        boards::up_to(max_sum)
    } else {
        boards.to_vec()
    };
    // Every board is checked before the first is solved.
    for &(w, h) in &list {
        format!("connect4:{w}x{h}").parse::<gamesearch_games::GameSpec>()?;
    }
    let cfg = gamesearch::solver::SolveConfig {
        guess,
        etc_plies,
        ..boards::config(
            usize::try_from(tt_mb).context("--tt-mb")?,
            threads as usize,
            limits(budget)?,
        )
    };
    note!(
        "boards: {} empty board(s), {tt_mb} MiB, {threads} thread(s), first test {}, budget per board: {}",
        list.len(),
        guess.map_or("near 0 (zero-biased bisection)".to_string(), |g| format!("at {g}")),
        if budget.given() { "as given" } else { "none" }
    );
    let mut rows = Vec::new();
    for &(w, h) in &list {
        let row = boards::solve_board(w, h, &cfg)?;
        if !json {
            // The row as soon as it is found (the whole table follows on stdout).
            let table = boards::table(std::slice::from_ref(&row));
            note!("{}", table.lines().nth(1).unwrap_or_default());
        }
        let stopped = row.value.is_none();
        rows.push(row);
        if stopped && super::interrupted() {
            break;
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", boards::table(&rows));
    }
    Ok(())
}

/// One game's round robin: its results and its table as text.
struct RoundRobin {
    pairings: Vec<Pairing>,
    standings: Vec<Standing>,
    table: String,
}

/// One `experiment engines` run's settings, shared by its games.
struct EngineRun<'a> {
    engines: &'a [EngineSpec],
    openings: usize,
    opening_plies: u32,
    seed: u64,
    show: bool,
}

impl EngineRun<'_> {
    /// The round robin on `start`: the pairings and standings, and the table as text.
    fn play<G: Board>(&self, game: &str, start: &G) -> Result<RoundRobin> {
        let names: Vec<String> = self.engines.iter().map(|e| e.to_string()).collect();
        let n = self.engines.len();
        let pairs = n * (n - 1) / 2;
        note!(
            "{game}: {n} engines, {pairs} pairings of {} games",
            2 * self.openings
        );
        let bar = progress::steps(self.show, (pairs * 2 * self.openings) as u64, "games");
        let base = limits(Budgets::none())?;
        let pairings = engines::round_robin(
            start,
            self.engines,
            self.openings,
            self.opening_plies,
            self.seed,
            &base,
            |k, t| {
                bar.inc(1);
                bar.set_message(format!(
                    "pairing {}/{pairs}: +{} ={} -{}",
                    k + 1,
                    t.wins,
                    t.draws,
                    t.losses
                ));
            },
        )?;
        bar.finish_and_clear();
        let standings = engines::standings(&names, &pairings);
        let table = engines::table(&names, &standings, &pairings);
        Ok(RoundRobin {
            pairings,
            standings,
            table,
        })
    }
}
