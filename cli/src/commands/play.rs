//! `gamesearch play`: a game against the engine in the terminal, or a match between two engines.

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use gamesearch::solver::book::Book;
use gamesearch::tablebase::{Probed, Tablebase};
use gamesearch::Limits;
use gamesearch_cli::play::{
    self as playing, Board, ContenderSettings, EngineSettings, EngineSpec, Human, Match,
};
use gamesearch_cli::progress;
use gamesearch_cli::sprt::Sprt;
use gamesearch_games::GameSpec;

use super::limits;
use crate::args::{whole, Budgets};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HumanArg {
    /// You move first.
    First,
    /// The engine moves first.
    Second,
    /// You play both sides (the engine gives hints).
    Both,
    /// The engine plays itself.
    None,
}

/// Play against the engine in the terminal (moves in the game's notation, `undo`, `hint`,
/// `quit`; also read from standard input, so it can be scripted), or `--match N`: engine A
/// against engine B over N seeded openings, colours swapped.
#[derive(Args)]
pub struct PlayArgs {
    #[arg(help = crate::args::game_help(|k| k.board))]
    pub game: String,
    /// Which side you play.
    #[arg(long, value_enum, default_value_t = HumanArg::First)]
    pub human: HumanArg,
    /// The engine: time=SECS,depth=D,driver=pvs|mtdf|mcts|mcts-solver|pn-mcts,tt=MB,plies=N,
    /// eval=learned|hand (any subset; the rest: time=1, pvs, tt=64, learned; a depth without a
    /// time means no time limit; plies=N cuts MCTS's playouts off after N random plies, valued
    /// there by the game's heuristic; eval=hand: Othello's or Kalah's hand-written evaluation).
    #[arg(long)]
    pub engine: Option<EngineSettings>,
    /// Engine against engine over this many openings (each played twice, colours swapped).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u64>(1, u64::MAX))]
    pub r#match: Option<u64>,
    /// Match: engine A (scored), as --engine; the fields not given keep A's defaults
    /// (time=0.01, pvs, tt=64); `driver=mcts`, `driver=mcts-solver` or `driver=pn-mcts` makes it
    /// Monte-Carlo tree search (UCT, MCTS-Solver, or PN-MCTS) for its time a move, `plies=N`
    /// cutting its playouts off (valued by the heuristic). Or `gtp:COMMAND`: an outside
    /// engine started by COMMAND in GTP mode (e.g. `gtp:edax -gtp -l 10`), told every move, from
    /// the game's start.
    #[arg(long, requires = "match")]
    pub a: Option<ContenderSettings>,
    /// Match: engine B, as --engine; the fields not given keep B's defaults (time=0.1, pvs,
    /// tt=64); `driver=mcts|mcts-solver|pn-mcts[,plies=N]` or `gtp:COMMAND`, as for A.
    #[arg(long, requires = "match")]
    pub b: Option<ContenderSettings>,
    /// Match: random plies that make each opening.
    #[arg(long, default_value_t = 2, requires = "match", allow_negative_numbers = true, value_parser = whole::<u32>(0, u32::MAX.into()))]
    pub opening_plies: u32,
    /// Match: the openings from this file instead of random ones — one a line, its moves from
    /// the start in the game's notation separated by spaces or commas (`#` comments); --match N
    /// plays the first N.
    #[arg(long, requires = "match", conflicts_with = "opening_plies")]
    pub openings: Option<std::path::PathBuf>,
    /// Match: seed of the openings.
    #[arg(long, default_value_t = 1, requires = "match", allow_negative_numbers = true, value_parser = whole::<u64>(0, u64::MAX))]
    pub seed: u64,
    /// Match: a sequential probability ratio test, `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`
    /// (normalised Elo, pentanomial pairs): the match stops as soon as it decides, or after
    /// --match openings, and prints the log-likelihood ratio and the verdict.
    #[arg(long, requires = "match")]
    pub sprt: Option<Sprt>,
    /// Match: print JSON.
    #[arg(long, requires = "match")]
    pub json: bool,
    /// An opening book (`gamesearch combine … --book`): the engine plays the book's move in a
    /// position the book has exactly, without thinking (and gives it as the hint). Default: 7x6
    /// Connect-Four plays with the book built in (books/connect4-7x6-ply4.book: every position
    /// of at most four moves, exact); no other game has one.
    #[arg(long, conflicts_with_all = ["match", "no_book"])]
    pub book: Option<String>,
    /// Play without the built-in book (7x6 Connect-Four): the engine thinks from the first move.
    #[arg(long, conflicts_with = "match")]
    pub no_book: bool,
    /// Kalah: endgame databases (`gamesearch tablebase build`): the engine (both engines of a
    /// match) scores a position of a class they hold as the win, draw or loss they prove.
    #[arg(long)]
    pub tablebase: Option<std::path::PathBuf>,
    /// Othello, Kalah: the engine's evaluation (of both engines of a match, but a side given
    /// `eval=hand`): a weights file from `gamesearch learn`, or `none` for the hand-written one
    /// (default: the weights the repository ships).
    #[arg(long)]
    pub weights: Option<String>,
}

/// Runs `gamesearch play`.
pub fn run(args: PlayArgs, show: bool) -> Result<()> {
    let PlayArgs {
        game,
        human,
        engine,
        r#match,
        a,
        b,
        opening_plies,
        seed,
        sprt,
        openings,
        json,
        book,
        no_book,
        tablebase,
        weights,
    } = args;
    let book = match &book {
        Some(path) => Some(gamesearch_games::split::read_book(path, &game)?),
        None if no_book || r#match.is_some() => None,
        // 7x6 Connect-Four comes with its book (books/connect4-7x6-ply4.book, 9 KiB): every
        // position of four moves or fewer, exact, so the engine's opening and the hints are the
        // proven ones (the engine's estimate of the empty board can pick a losing column).
        // (`play` says so as the game starts.)
        None => default_book(&game),
    };
    let spec: GameSpec = game.parse()?;
    super::use_weights(&spec, weights.as_deref())?;
    if let Some(rules) = spec.rules_note() {
        // On standard error: a match's standard output is its result (JSON with --json).
        eprintln!("rules: {rules}");
    }
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
        sprt,
    });
    let session = match matched {
        Some(m) => Session::Match {
            m: Box::new(m),
            json,
            openings: match &openings {
                Some(path) => Some((
                    path.display().to_string(),
                    std::fs::read_to_string(path)
                        .map_err(|e| anyhow::anyhow!("--openings {}: {e}", path.display()))?,
                )),
                None => None,
            },
        },
        None => Session::Game {
            human,
            book: book.as_ref(),
        },
    };
    match (spec, &tablebase) {
        (GameSpec::Kalah(p), Some(dir)) => {
            let tables = super::tablebase::load(&p, dir)?;
            let last = tables.classes().last().copied().unwrap_or(0);
            eprintln!(
                "tablebase: classes 0..={last} of {} from {}",
                p.tablebase_rules(),
                dir.display()
            );
            play(&Probed::new(p, &tables), &engine, session, &base, show)?
        }
        (_, Some(_)) => bail!("--tablebase: the databases are Kalah's, not `{game}`'s"),
        (GameSpec::Connect4(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Connect4Wide(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Kalah(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::TicTacToe(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Othello(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Domineering(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Hex(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Dobutsu(p), None) => play(&p, &engine, session, &base, show)?,
        (GameSpec::Random(_) | GameSpec::Tree(_), None) => {
            bail!(
                "play needs a game with a board: {}",
                gamesearch_games::spec::forms(|k| k.board)
            )
        }
    }
    Ok(())
}

/// The shipped book of `game`'s rules, if there is one.
fn default_book(game: &str) -> Option<Book> {
    const CONNECT4_7X6: &[u8] = include_bytes!("../../../books/connect4-7x6-ply4.book");
    let book = Book::from_bytes(CONNECT4_7X6).ok()?;
    gamesearch_games::split::check_book(&book, game).ok()?;
    Some(book)
}

/// What `play` does.
enum Session<'a> {
    /// One game in the terminal: the sides the person plays, the engine's opening book.
    Game {
        human: Human,
        book: Option<&'a Book>,
    },
    /// A match between two engines, its result printed as JSON or text; the openings file's
    /// name and text, if one was given.
    Match {
        m: Box<Match>,
        json: bool,
        openings: Option<(String, String)>,
    },
}

/// `play`: one game in the terminal, or a match between two engines.
fn play<G: Board + Sync>(
    start: &G,
    engine: &EngineSpec,
    session: Session<'_>,
    base: &Limits,
    show: bool,
) -> Result<()> {
    let (m, json, openings) = match session {
        Session::Match { m, json, openings } => (m, json, openings),
        Session::Game { human, book } => {
            let stdin = std::io::stdin();
            playing::play_game(
                start,
                human,
                engine,
                book,
                base,
                &mut stdin.lock(),
                &mut std::io::stdout(),
            )?;
            return Ok(());
        }
    };
    let given = match &openings {
        Some((name, text)) => {
            let list = playing::read_openings(start, text)
                .map_err(|e| anyhow::anyhow!("--openings {name}: {e}"))?;
            if list.len() < m.openings {
                bail!(
                    "--openings {name}: {} openings, fewer than the {} of --match",
                    list.len(),
                    m.openings
                );
            }
            Some(list)
        }
        None => None,
    };
    let mut seats = playing::Seats::start(&m, start)?;
    match &openings {
        Some((name, _)) => eprintln!(
            "match: the first {} openings of {name}, each played twice; A: {}; B: {}",
            m.openings, m.a, m.b
        ),
        None => eprintln!(
            "match: {} openings of {} random plies (seed {}), each played twice; A: {}; B: {}",
            m.openings, m.opening_plies, m.seed, m.a, m.b
        ),
    }
    let bar = progress::steps(show, 2 * m.openings as u64, "games");
    let tally = playing::play_match(start, &m, given.as_deref(), &mut seats, base, |t| {
        bar.inc(1);
        bar.set_message(format!("A: +{} ={} -{}", t.wins, t.draws, t.losses));
    })?;
    bar.finish_and_clear();
    let gtp = seats.gtp_times();
    let (score, lo, hi) = tally.score();
    let games = tally.wins + tally.draws + tally.losses;
    let (elo, elo_lo, elo_hi) = tally.pairs.elo();
    let test = m.sprt.map(|t| {
        let (verdict, llr) = t.verdict(&tally.pairs);
        (t, verdict, llr)
    });
    if json {
        let out = serde_json::json!({
            "games": games, "a": m.a.to_string(), "b": m.b.to_string(),
            "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
            "score": score, "ci95": [lo, hi], "seed": m.seed, "opening_plies": m.opening_plies,
            "gtp_a": gtp[0], "gtp_b": gtp[1],
            "pairs": tally.pairs, "elo": elo, "elo_ci95": [elo_lo, elo_hi],
            "sprt": test.map(|(t, verdict, llr)| serde_json::json!({
                "elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta,
                "llr": llr, "bounds": [t.bounds().0, t.bounds().1], "verdict": verdict,
            })),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "A wins {}  draws {}  losses {}  (of {games} games)",
            tally.wins, tally.draws, tally.losses
        );
        println!("A's score {score:.3}  95% CI [{lo:.3}, {hi:.3}]");
        let p = tally.pairs.0;
        println!(
            "pairs (A's score 0, 1/2, 1, 3/2, 2): {} {} {} {} {}   Elo {elo:+.1}  95% CI [{elo_lo:+.1}, {elo_hi:+.1}]",
            p[0], p[1], p[2], p[3], p[4]
        );
        if let Some((t, verdict, llr)) = test {
            let (lower, upper) = t.bounds();
            println!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} in [{lower:.2}, {upper:.2}]  {verdict}",
                t.elo0, t.elo1, t.alpha, t.beta
            );
        }
        for (side, t) in ["A", "B"].iter().zip(gtp) {
            if let Some(t) = t {
                println!(
                    "{side} (GTP) took {:.3} s a move over {} moves",
                    t.seconds_a_move, t.moves
                );
            }
        }
    }
    Ok(())
}
