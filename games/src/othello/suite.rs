//! Othello test suites in the "obf" text the endgame suites are published in (the FFO suite in
//! Edax's `problem/fforum-40-59.obf`): a position per line, its moves' exact scores after it,
//! each solved and checked ([`run`]).
//!
//! A line is `CELLS SIDE` (the 64 cells from a1 row by row, `X` Black, `O` White, `-` empty, and
//! the side to move) then, after `;`, entries `MOVES:SCORE` separated by `;` — one square or
//! several (`G3 C7:-12`, moves that share the score), the score the side to move's final margin
//! after it. The best score is the largest listed; its moves are the best moves. A line without
//! entries is solved and not checked. Empty lines and text after `#` or `%` are skipped.

use std::time::Instant;

use gamesearch::error::Error;
use gamesearch::game::{Game, Score};
use gamesearch::solver::{ExactSolver, SolveConfig};

use super::notation::words;
use super::Othello;

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position.
    pub position: Othello,
    /// The published exact score for the side to move, when the line gives scores.
    pub score: Option<Score>,
    /// The moves that reach it (empty without scores).
    pub best_moves: Vec<u8>,
}

/// Parses a suite's text.
///
/// ```
/// use gamesearch_games::othello::suite::parse;
/// let text = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;\n";
/// let lines = parse(text).unwrap();
/// assert_eq!(lines[0].score, Some(38));
/// assert_eq!(lines[0].position.move_name(lines[0].best_moves[0]), "a2");
/// # use gamesearch::Game;
/// assert!(parse("O--OOOOX X; A2:+38").is_err());
/// ```
pub fn parse(text: &str) -> Result<Vec<SuiteLine>, Error> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split(['#', '%']).next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        out.push(
            parse_line(i + 1, content)
                .map_err(|why| Error::BadParameter(format!("line {}: {why}", i + 1)))?,
        );
    }
    Ok(out)
}

/// Line `line` without its comment.
fn parse_line(line: usize, content: &str) -> Result<SuiteLine, String> {
    let mut fields = content.split(';');
    let board = fields.next().unwrap_or_default().trim();
    let (cells, side) = board
        .rsplit_once(char::is_whitespace)
        .ok_or_else(|| format!("expected `CELLS SIDE` before the first `;`, found `{board}`"))?;
    let position: Othello = format!("8x8:board={}/{}", cells.trim(), side.trim())
        .parse()
        .map_err(words)?;
    let mut best: Option<(Score, Vec<u8>)> = None;
    for entry in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let (moves, score) = entry
            .split_once(':')
            .ok_or_else(|| format!("expected `MOVE:SCORE`, found `{entry}`"))?;
        let score: Score = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .ok()
            .filter(|s: &Score| s.abs() <= 64)
            .ok_or_else(|| format!("`{}` is not a score from -64 to +64", score.trim()))?;
        let mut squares = Vec::new();
        for name in moves.split_whitespace() {
            let mv = position
                .parse_move(name)
                .filter(|&m| position.moves().any(|x| x == m))
                .ok_or_else(|| format!("`{name}` is not a legal move of the position"))?;
            squares.push(mv);
        }
        if squares.is_empty() {
            return Err(format!("no move before the score in `{entry}`"));
        }
        match &mut best {
            Some((s, m)) if *s == score => m.extend(squares),
            Some((s, _)) if *s > score => {}
            _ => best = Some((score, squares)),
        }
    }
    let (score, best_moves) = match best {
        Some((s, m)) => (Some(s), m),
        None => (None, Vec::new()),
    };
    Ok(SuiteLine {
        line,
        position,
        score,
        best_moves,
    })
}

/// One position solved.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SuiteResult {
    /// 1-based line number in the file.
    pub line: usize,
    /// Empty squares.
    pub empties: u32,
    /// The exact score found, the side to move's view (none when stopped).
    pub score: Option<Score>,
    /// The bounds proven on the score, the side to move's view: the score twice when solved,
    /// what the search had proven when a budget or a signal stopped it.
    pub bounds: (Score, Score),
    /// The published score, when the line gives one.
    pub expected: Option<Score>,
    /// The best move found (`a2`; `pass`).
    pub best_move: Option<String>,
    /// Whether the score equals the published one and the move is among the published best
    /// moves (true for a line without scores that was solved).
    pub ok: bool,
    /// Positions searched (interior + leaves, the game's own small searches included).
    pub nodes: u64,
    /// Wall-clock time, seconds.
    pub seconds: f64,
}

/// Solves every line with the alpha-beta solver (`cfg`: threads, table size, limits; a fresh
/// table for each position, so that each one's figures are its own) and checks each against
/// its published score and best moves. `on_line` sees each result as it comes; a stop (the
/// limits' flag or budget) ends the run with the positions done and the one stopped (its score
/// none, its bounds what was proven).
pub fn run(
    lines: &[SuiteLine],
    cfg: &SolveConfig,
    mut on_line: impl FnMut(&SuiteResult),
) -> Result<Vec<SuiteResult>, Error> {
    let cfg = SolveConfig {
        best_move: true,
        ..cfg.clone()
    };
    let mut out = Vec::new();
    for l in lines {
        if cfg.limits.stop_requested() {
            break;
        }
        let mut solver = ExactSolver::<Othello>::new(&cfg)?;
        let start = Instant::now();
        let s = solver.solve(&l.position, &cfg, |_| {})?;
        let seconds = start.elapsed().as_secs_f64();
        let sign = l.position.to_move().sign();
        let score = s.value.filter(|_| s.complete).map(|v| sign * v);
        let (lo, hi) = (sign * s.bounds.0, sign * s.bounds.1);
        let ok = score.is_some()
            && (l.score.is_none() || score == l.score)
            && (l.best_moves.is_empty() || s.best_move.is_some_and(|m| l.best_moves.contains(&m)));
        let r = SuiteResult {
            line: l.line,
            empties: l.position.empties(),
            score,
            bounds: (lo.min(hi), lo.max(hi)),
            expected: l.score,
            best_move: s.best_move.map(|m| l.position.move_name(m)),
            ok,
            nodes: s.stats.nodes(),
            seconds,
        };
        on_line(&r);
        out.push(r);
        if !s.complete {
            break;
        }
    }
    Ok(out)
}

/// The test suites the repository runs (`tests/data/`), by name: no position of theirs may be
/// learned from (`gamesearch learn` excludes them; a test checks it).
pub const TEST_SUITES: &[(&str, &str)] = &[(
    "ffo-40-59",
    include_str!("../../../tests/data/ffo-40-59.txt"),
)];

/// Every position of the [`TEST_SUITES`].
pub fn test_suite_positions() -> Vec<Othello> {
    TEST_SUITES
        .iter()
        .flat_map(|(_, text)| parse(text).expect("the shipped suites parse"))
        .map(|l| l.position)
        .collect()
}
