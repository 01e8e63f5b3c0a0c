//! Splits given as text: a `GAME` argument of the shipped games split into jobs (each a line any
//! process can solve), a job solved from its line, the results combined, a book checked against
//! the position's rules. The generic machinery ([`split`], [`Plan`], [`Master`]) is the
//! library's; this module dispatches on [`GameSpec`] to the shipped games.

use std::collections::HashMap;

use gamesearch::solver::book::Book;
use gamesearch::split::{
    solver_key, split, Combined, JobAnswer, JobLine, JobResult, Master, Plan, Splittable,
};
use gamesearch::{Error, Game, Score};

use crate::{Connect4, Domineering, GameSpec, Hex, Kalah, Othello, TicTacToe};

/// A plan of one of the shipped splittable games, chosen by its `GAME` argument.
#[derive(Clone, Debug)]
enum AnyPlan {
    Connect4(Plan<Connect4>),
    Connect4Wide(Plan<Connect4<u128>>),
    Kalah(Plan<Kalah>),
    TicTacToe(Plan<TicTacToe>),
    Othello(Plan<Othello>),
    Domineering(Plan<Domineering>),
    Hex(Plan<Hex>),
}

/// Evaluates `$body` with `$p` bound to the plan inside, whichever game it is.
macro_rules! on_plan {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            AnyPlan::Connect4($p) => $body,
            AnyPlan::Connect4Wide($p) => $body,
            AnyPlan::Kalah($p) => $body,
            AnyPlan::TicTacToe($p) => $body,
            AnyPlan::Othello($p) => $body,
            AnyPlan::Domineering($p) => $body,
            AnyPlan::Hex($p) => $body,
        }
    };
}

/// Binds `$p` to the shipped position a `GameSpec` names and evaluates `$body`; other games
/// are an error.
macro_rules! on_splittable {
    ($spec:expr, $p:ident => $body:expr) => {
        match $spec {
            GameSpec::Connect4($p) => $body,
            GameSpec::Connect4Wide($p) => $body,
            GameSpec::Kalah($p) => $body,
            GameSpec::TicTacToe($p) => $body,
            GameSpec::Othello($p) => $body,
            GameSpec::Domineering($p) => $body,
            GameSpec::Hex($p) => $body,
            _ => Err(not_splittable()),
        }
    };
}

/// The error for a game that has no text form for its positions.
fn not_splittable() -> Error {
    let boards: Vec<&str> = crate::spec::GAMES
        .iter()
        .filter(|k| k.splits)
        .map(|k| k.name)
        .collect();
    Error::BadParameter(format!(
        "only {} positions can be split into jobs (a job is sent as its position's text)",
        crate::spec::listed(&boards, "and")
    ))
}

/// A split of the position a `GAME` argument names (Connect-Four, Kalah, tic-tac-toe): its
/// jobs as lines, and the top tree to combine their results.
///
/// ```
/// use gamesearch_games::split::split_text;
/// let s = split_text("connect4:5x4", 2, 1000).unwrap();
/// assert_eq!(s.jobs().len(), 13); // 25 positions, 12 mirror pairs
/// assert_eq!(s.jobs()[0].game, "connect4:5x4:11");
/// ```
#[derive(Clone, Debug)]
pub struct SplitText {
    plan: AnyPlan,
    lines: Vec<JobLine>,
}

/// Splits the position `game` names at `plies` (see [`split`]).
pub fn split_text(game: &str, plies: u32, max_jobs: usize) -> Result<SplitText, Error> {
    fn lines<G: Splittable>(plan: &Plan<G>, root_text: &str) -> Vec<JobLine> {
        plan.jobs()
            .iter()
            .map(|j| JobLine {
                key: plan.job_key(j),
                game: plan.job_text(j, root_text),
            })
            .collect()
    }
    let spec: GameSpec = game.parse()?;
    let plan = match spec {
        GameSpec::Connect4(p) => AnyPlan::Connect4(split(&p, plies, max_jobs)?),
        GameSpec::Connect4Wide(p) => AnyPlan::Connect4Wide(split(&p, plies, max_jobs)?),
        GameSpec::Kalah(p) => AnyPlan::Kalah(split(&p, plies, max_jobs)?),
        GameSpec::TicTacToe(p) => AnyPlan::TicTacToe(split(&p, plies, max_jobs)?),
        GameSpec::Othello(p) => AnyPlan::Othello(split(&p, plies, max_jobs)?),
        GameSpec::Domineering(p) => AnyPlan::Domineering(split(&p, plies, max_jobs)?),
        GameSpec::Hex(p) => AnyPlan::Hex(split(&p, plies, max_jobs)?),
        _ => return Err(not_splittable()),
    };
    let lines = on_plan!(&plan, p => lines(p, game));
    Ok(SplitText { plan, lines })
}

impl SplitText {
    /// The jobs, one line each.
    pub fn jobs(&self) -> &[JobLine] {
        &self.lines
    }

    /// Positions above the frontier.
    pub fn top_nodes(&self) -> usize {
        on_plan!(&self.plan, p => p.top_nodes())
    }

    /// The root's value and best move (named) from the jobs' values by key.
    pub fn combine(&self, values: &HashMap<String, Score>) -> Combined<String> {
        fn go<G: Splittable>(
            plan: &Plan<G>,
            lines: &[JobLine],
            values: &HashMap<String, Score>,
        ) -> Combined<String> {
            let c = plan.combine(|i| values.get(&lines[i].key).copied());
            let root = plan.root_position();
            Combined {
                value: c.value,
                best_move: c.best_move.map(|m| root.move_name(m)),
                missing: c.missing,
            }
        }
        on_plan!(&self.plan, p => go(p, &self.lines, values))
    }
}

impl SplitText {
    /// The opening book of this split ([`Plan::book`]) from the jobs' answers by key: their
    /// bounds (MAX's view) and best moves, named. A move that is not its job's is an error.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use gamesearch_games::split::{solve_job, split_text};
    /// use gamesearch::SolveConfig;
    /// let s = split_text("tictactoe", 2, 100).unwrap();
    /// let answers: HashMap<_, _> = s.jobs().iter().map(|j| {
    ///     let r = solve_job(j, &SolveConfig::default()).unwrap().unwrap();
    ///     (r.key, ((r.lower, r.upper), r.best_move))
    /// }).collect();
    /// let book = s.book(&answers, "tic-tac-toe, ply 2").unwrap();
    /// assert_eq!(book.rules(), "tictactoe");
    /// // Every position solved: 72 jobs and the 10 positions above them.
    /// assert_eq!((book.len(), book.exact()), (82, 82));
    /// ```
    pub fn book(
        &self,
        answers: &HashMap<String, JobAnswer<String>>,
        source: &str,
    ) -> Result<Book, Error> {
        fn go<G: Splittable>(
            plan: &Plan<G>,
            lines: &[JobLine],
            answers: &HashMap<String, JobAnswer<String>>,
            source: &str,
        ) -> Result<Book, Error> {
            let mut known = Vec::with_capacity(lines.len());
            for (job, line) in plan.jobs().iter().zip(lines) {
                let Some((bounds, name)) = answers.get(&line.key) else {
                    known.push(None);
                    continue;
                };
                let p = &job.position;
                let best = match name {
                    None => None,
                    Some(n) => {
                        Some(p.moves().find(|&m| p.move_name(m) == *n).ok_or_else(|| {
                            Error::BadParameter(format!(
                                "job {}: `{n}` is not a move of its position",
                                line.key
                            ))
                        })?)
                    }
                };
                known.push(Some((*bounds, best)));
            }
            Ok(plan.book(|i| known[i], source))
        }
        on_plan!(&self.plan, p => go(p, &self.lines, answers, source))
    }
}

/// Checks that `book` is one of the rules of the position `game` names (its keys would name
/// other positions otherwise).
///
/// ```
/// use gamesearch::solver::book::Book;
/// use gamesearch_games::split::check_book;
/// let book = Book::builder("connect4:7x6", "").build();
/// assert!(check_book(&book, "connect4:7x6:44").is_ok());
/// let e = check_book(&book, "connect4:6x5").unwrap_err().to_string();
/// assert!(e.contains("a book of connect4:7x6"), "{e}");
/// ```
pub fn check_book(book: &Book, game: &str) -> Result<(), Error> {
    match rules_mismatch(book, game)? {
        Some(m) => Err(Error::BadParameter(format!("this is {m}"))),
        None => Ok(()),
    }
}

/// "a book of R, and `game` is a position of S" when the rules differ.
fn rules_mismatch(book: &Book, game: &str) -> Result<Option<String>, Error> {
    let spec: GameSpec = game.parse()?;
    let rules = on_splittable!(spec, p => Ok(p.rules())).map_err(|_| {
        Error::BadParameter("a book holds connect4, kalah or tictactoe positions".into())
    })?;
    Ok((book.rules() != rules).then(|| {
        format!(
            "a book of {}, and `{game}` is a position of {rules}",
            book.rules()
        )
    }))
}

/// Reads the opening book at `path` for the position `game` names: an error when it is not a
/// book, or a book of other rules ([`check_book`]).
///
/// ```
/// use gamesearch_games::split::read_book;
/// let path = std::env::temp_dir().join("gamesearch-doctest-read-book.book");
/// gamesearch::solver::book::Book::builder("tictactoe", "").build().write(&path).unwrap();
/// assert!(read_book(&path, "tictactoe").is_ok());
/// assert!(read_book(&path, "kalah:4,2").is_err());
/// ```
pub fn read_book(path: impl AsRef<std::path::Path>, game: &str) -> Result<Book, Error> {
    let book = Book::read(&path)?;
    match rules_mismatch(&book, game)? {
        Some(m) => Err(Error::BookFile {
            path: path.as_ref().display().to_string(),
            message: format!("it is {m}"),
        }),
        None => Ok(book),
    }
}

/// The job key of the position `game` names (what [`split_text`] gives it).
///
/// ```
/// use gamesearch_games::split::{job_key, split_text};
/// let s = split_text("kalah:4,2", 1, 100).unwrap();
/// assert_eq!(job_key(&s.jobs()[0].game).unwrap(), s.jobs()[0].key);
/// ```
pub fn job_key(game: &str) -> Result<String, Error> {
    let spec: GameSpec = game.parse()?;
    on_splittable!(spec, p => Ok(format!("{}/{:016x}", p.rules(), solver_key(&p))))
}

/// Solves one job exactly (or within `cfg.window`): its result, or `None` when a budget or the
/// stop flag ended the solve first. A line whose key is not its position's is an error (a corrupted or edited
/// line would otherwise store a value under another position's key).
///
/// ```
/// use gamesearch_games::split::{solve_job, split_text};
/// use gamesearch::SolveConfig;
/// let s = split_text("tictactoe", 1, 100).unwrap();
/// let r = solve_job(&s.jobs()[0], &SolveConfig::default()).unwrap().unwrap();
/// assert_eq!(r.value, Some(0)); // X in a corner: a draw
/// ```
pub fn solve_job(
    job: &JobLine,
    cfg: &gamesearch::solver::SolveConfig,
) -> Result<Option<JobResult>, Error> {
    let key = job_key(&job.game)?;
    if key != job.key {
        return Err(Error::BadParameter(format!(
            "job {}: its game `{}` has the key {key}",
            job.key, job.game
        )));
    }
    let spec: GameSpec = job.game.parse()?;
    let start = std::time::Instant::now();
    on_splittable!(spec, p => {
        let s = gamesearch::solver::solve_alphabeta(&p, cfg, |_| {})?;
        Ok(s.complete.then(|| JobResult {
            key,
            value: s.value,
            lower: s.bounds.0,
            upper: s.bounds.1,
            best_move: s.best_move.map(|m| p.move_name(m)),
            nodes: s.stats.nodes(),
            seconds: start.elapsed().as_secs_f64(),
        }))
    })
}

/// A [`Master`] of one of the shipped splittable games.
#[derive(Clone, Debug)]
enum AnyMaster {
    Connect4(Master<Connect4>),
    Connect4Wide(Master<Connect4<u128>>),
    Kalah(Master<Kalah>),
    TicTacToe(Master<TicTacToe>),
    Othello(Master<Othello>),
    Domineering(Master<Domineering>),
    Hex(Master<Hex>),
}

/// Evaluates `$body` with `$m` bound to the master inside, whichever game it is.
macro_rules! on_master {
    ($any:expr, $m:ident => $body:expr) => {
        match $any {
            AnyMaster::Connect4($m) => $body,
            AnyMaster::Connect4Wide($m) => $body,
            AnyMaster::Kalah($m) => $body,
            AnyMaster::TicTacToe($m) => $body,
            AnyMaster::Othello($m) => $body,
            AnyMaster::Domineering($m) => $body,
            AnyMaster::Hex($m) => $body,
        }
    };
}

/// Job-level proof-number search ([`Master`]) over a split given as text: jobs by their index in
/// [`SplitText::jobs`], the best move named.
///
/// ```
/// use gamesearch_games::split::{solve_job, split_text};
/// use gamesearch::SolveConfig;
/// let s = split_text("connect4:5x4", 3, 1000).unwrap();
/// let mut m = s.master(0);
/// while m.value().is_none() {
///     for (i, v) in m.next_jobs(4) {
///         let cfg = SolveConfig { window: Some((v - 1, v)), ..SolveConfig::default() };
///         let r = solve_job(&s.jobs()[i], &cfg).unwrap().unwrap();
///         m.record(i, (r.lower, r.upper));
///     }
/// }
/// assert_eq!(m.value(), Some(0));
/// assert!(m.best_move().is_some());
/// ```
#[derive(Clone, Debug)]
pub struct TextMaster {
    inner: AnyMaster,
}

impl SplitText {
    /// A job-level proof-number master over this split, its first test at `guess`.
    pub fn master(&self, guess: Score) -> TextMaster {
        let inner = match &self.plan {
            AnyPlan::Connect4(p) => AnyMaster::Connect4(Master::new(p.clone(), guess)),
            AnyPlan::Connect4Wide(p) => AnyMaster::Connect4Wide(Master::new(p.clone(), guess)),
            AnyPlan::Kalah(p) => AnyMaster::Kalah(Master::new(p.clone(), guess)),
            AnyPlan::TicTacToe(p) => AnyMaster::TicTacToe(Master::new(p.clone(), guess)),
            AnyPlan::Othello(p) => AnyMaster::Othello(Master::new(p.clone(), guess)),
            AnyPlan::Domineering(p) => AnyMaster::Domineering(Master::new(p.clone(), guess)),
            AnyPlan::Hex(p) => AnyMaster::Hex(Master::new(p.clone(), guess)),
        };
        TextMaster { inner }
    }
}

impl TextMaster {
    /// See [`Master::next_jobs`].
    pub fn next_jobs(&mut self, k: usize) -> Vec<(usize, Score)> {
        on_master!(&mut self.inner, m => m.next_jobs(k))
    }
    /// See [`Master::record`].
    pub fn record(&mut self, i: usize, bounds: (Score, Score)) -> bool {
        on_master!(&mut self.inner, m => m.record(i, bounds))
    }
    /// See [`Master::forget`].
    pub fn forget(&mut self, i: usize) {
        on_master!(&mut self.inner, m => m.forget(i))
    }
    /// See [`Master::needless`].
    pub fn needless(&mut self) -> Vec<usize> {
        on_master!(&mut self.inner, m => m.needless())
    }
    /// See [`Master::value`].
    pub fn value(&self) -> Option<Score> {
        on_master!(&self.inner, m => m.value())
    }
    /// See [`Master::bounds`].
    pub fn bounds(&self) -> (Score, Score) {
        on_master!(&self.inner, m => m.bounds())
    }
    /// See [`Master::tests`].
    pub fn tests(&self) -> u32 {
        on_master!(&self.inner, m => m.tests())
    }
    /// See [`Master::best_move`], named.
    pub fn best_move(&self) -> Option<String> {
        on_master!(&self.inner, m => m.best_move().map(|mv| m.plan().root_position().move_name(mv)))
    }
}
