//! The Connect-Four benchmark: solve every position of a file of `<moves> <score>` lines (the
//! public solvers' format, score for the side to move) and check the score: 7x6 as those files
//! are, or any board ([`run_on_board`]; moves in its notation, comma-separated past 9 columns).

use std::time::Instant;

use crate::{Bitboard, Connect4};
use gamesearch::adapters::Weak;
use gamesearch::error::Error;
use gamesearch::game::{Game, Score};
use gamesearch::limits::Limits;
use gamesearch::solver::{ExactSolver, SolveConfig};

/// One benchmark line.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// 1-based line number.
    pub line: usize,
    /// The moves played.
    pub moves: String,
    /// The expected score for the side to move.
    pub score: Score,
}

/// Parses a benchmark file's text.
///
/// ```
/// let lines = gamesearch_games::benchmark::parse("4453 2\n\n12 -1\n").unwrap();
/// assert_eq!(lines.len(), 2);
/// assert!(gamesearch_games::benchmark::parse("44x 2").is_ok()); // checked when played
/// assert!(gamesearch_games::benchmark::parse("4453").is_err());
/// ```
pub fn parse(text: &str) -> Result<Vec<BenchLine>, Error> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        let mut parts = l.split_whitespace();
        let moves = parts.next().unwrap_or_default().to_string();
        let score = parts
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|_| parts.next().is_none())
            .ok_or_else(|| {
                Error::BadParameter(format!(
                    "line {}: expected `<moves> <score>`, found `{l}`",
                    i + 1
                ))
            })?;
        out.push(BenchLine {
            line: i + 1,
            moves,
            score,
        });
    }
    Ok(out)
}

/// The benchmark's totals (also passed, running, to the progress callback).
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BenchReport {
    /// Positions solved.
    pub positions: usize,
    /// Positions whose score differed from the expected one (sign only with `weak`).
    pub mismatches: usize,
    /// Line numbers of the first mismatches (at most 20).
    pub mismatch_lines: Vec<usize>,
    /// Mean wall-clock time per position, microseconds.
    pub mean_time_us: f64,
    /// Mean nodes (interior + leaves) per position.
    pub mean_nodes: f64,
    /// Win/draw/loss only.
    pub weak: bool,
    /// True when the stop flag ended the run early: the figures cover the positions solved
    /// before it (the one in progress is dropped).
    pub stopped: bool,
}

/// Solves `lines` on a 7x6 board with one solver whose table (`tt_bytes`) persists across
/// positions, scores only (no best move), as the reference benchmark does. `limits` may carry
/// a stop flag (Ctrl-C): the run then ends with the positions done. `on_line` sees the running
/// report after every position.
pub fn run(
    lines: &[BenchLine],
    weak: bool,
    tt_bytes: usize,
    limits: &Limits,
    on_line: impl FnMut(&BenchReport),
) -> Result<BenchReport, Error> {
    run_on_board(lines, 7, 6, weak, tt_bytes, limits, on_line)
}

/// [`run`] on a `width x height` board: its bitboards in a `u64` where it fits and in a `u128`
/// past it, the moves in its notation (digits, or column numbers separated by commas, the only
/// form past 9 columns), the scores in Pons' convention ([`pons_score`]: a win with the
/// winner's last possible stone scores 1, each stone earlier one more).
///
/// ```
/// use gamesearch_games::benchmark::{parse, run_on_board};
/// use gamesearch::limits::Limits;
/// // 10x6: a win for the mover with its 4th stone in the tenth column, 53 cells left.
/// let lines = parse("10,1,10,1,10,1 27").unwrap();
/// let r = run_on_board(&lines, 10, 6, false, 1 << 20, &Limits::none(), |_| {}).unwrap();
/// assert_eq!((r.positions, r.mismatches), (1, 0));
/// ```
pub fn run_on_board(
    lines: &[BenchLine],
    width: usize,
    height: usize,
    weak: bool,
    tt_bytes: usize,
    limits: &Limits,
    on_line: impl FnMut(&BenchReport),
) -> Result<BenchReport, Error> {
    match Connect4::<u64>::sized(width, height) {
        Ok(board) => run_from(board, lines, weak, tt_bytes, limits, on_line),
        Err(_) => run_from(
            Connect4::<u128>::sized(width, height)?,
            lines,
            weak,
            tt_bytes,
            limits,
            on_line,
        ),
    }
}

/// A Connect-Four value (the first player's, [`Connect4`]'s scale) in Pons' convention, the
/// benchmark files' and the peer solvers': a win scores 1 plus the winner's stones left after
/// its winning one, `1 + (cells - stones played)/2` rounded down. The two agree but for a win of
/// the second player on a board with an odd number of cells, which Pons scores one less (the
/// second player has one stone fewer to place): on 9x5 a second-player win with its 22nd and
/// last possible stone is our −2 and Pons' −1.
///
/// ```
/// use gamesearch_games::benchmark::pons_score;
/// assert_eq!(pons_score(-2, 45), -1);
/// assert_eq!(pons_score(-2, 42), -2);
/// assert_eq!((pons_score(0, 45), pons_score(3, 45)), (0, 3));
/// ```
pub fn pons_score(value: Score, cells: usize) -> Score {
    if cells % 2 == 1 && value < 0 {
        value + 1
    } else {
        value
    }
}

/// [`run_on_board`] from the empty `start_board`.
fn run_from<B: Bitboard>(
    start_board: Connect4<B>,
    lines: &[BenchLine],
    weak: bool,
    tt_bytes: usize,
    limits: &Limits,
    mut on_line: impl FnMut(&BenchReport),
) -> Result<BenchReport, Error> {
    let cfg = SolveConfig {
        tt_bytes,
        id_depth: 0,
        limits: limits.clone(),
        best_move: false,
        threads: 1,
        ..SolveConfig::default()
    };
    let cells = start_board.width() * start_board.height();
    let positions: Vec<Connect4<B>> = lines
        .iter()
        .map(|l| {
            start_board.play_moves(&l.moves).map_err(|e| {
                let why = match e {
                    Error::BadParameter(m) => m,
                    other => other.to_string(),
                };
                Error::BadParameter(format!("line {}: {why}", l.line))
            })
        })
        .collect::<Result<_, _>>()?;
    // One solver, of the kind asked for: only its table is allocated.
    let mut exact = (!weak)
        .then(|| ExactSolver::<Connect4<B>>::new(&cfg))
        .transpose()?;
    let mut weak_solver = weak
        .then(|| ExactSolver::<Weak<Connect4<B>>>::new(&cfg))
        .transpose()?;
    let mut report = BenchReport {
        positions: 0,
        mismatches: 0,
        mismatch_lines: Vec::new(),
        mean_time_us: 0.0,
        mean_nodes: 0.0,
        weak,
        stopped: false,
    };
    let mut nodes = 0u64;
    let start = Instant::now();
    for (p, l) in positions.iter().zip(lines) {
        if limits.stop_requested() {
            report.stopped = true;
            break;
        }
        let sign = p.to_move().sign();
        let (value, n, complete) = match (&mut exact, &mut weak_solver) {
            (Some(solver), _) => {
                let s = solver.solve(p, &cfg, |_| {})?;
                (s.value, s.stats.nodes(), s.complete)
            }
            (None, Some(solver)) => {
                let s = solver.solve(&Weak::new(*p), &cfg, |_| {})?;
                (s.value, s.stats.nodes(), s.complete)
            }
            (None, None) => unreachable!("one solver is built"),
        };
        if !complete {
            report.stopped = true;
            break;
        }
        nodes += n;
        // (A weak solve's −1/0/+1 is a sign already: no scale to convert.)
        let got = value.map(|v| sign * if weak { v } else { pons_score(v, cells) });
        let want = if weak { l.score.signum() } else { l.score };
        if got != Some(want) {
            report.mismatches += 1;
            if report.mismatch_lines.len() < 20 {
                report.mismatch_lines.push(l.line);
            }
        }
        report.positions += 1;
        let done = report.positions as f64;
        report.mean_time_us = start.elapsed().as_secs_f64() * 1e6 / done;
        report.mean_nodes = nodes as f64 / done;
        on_line(&report);
    }
    Ok(report)
}
