//! The Connect-Four benchmark: solve every position of a file of `<moves> <score>` lines (the
//! public solvers' format, 7x6, score for the side to move) and check the score.

use std::time::Instant;

use crate::error::Error;
use crate::game::{Game, Score};
use crate::games::{Connect4, Weak};
use crate::limits::Limits;
use crate::solver::{ExactSolver, SolveConfig};

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
/// let lines = gamesearch::benchmark::parse("4453 2\n\n12 -1\n").unwrap();
/// assert_eq!(lines.len(), 2);
/// assert!(gamesearch::benchmark::parse("44x 2").is_ok()); // checked when played
/// assert!(gamesearch::benchmark::parse("4453").is_err());
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
    let start_board = Connect4::new(7, 6)?;
    let positions: Vec<Connect4> = lines
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
        .then(|| ExactSolver::<Connect4>::new(&cfg))
        .transpose()?;
    let mut weak_solver = weak
        .then(|| ExactSolver::<Weak<Connect4>>::new(&cfg))
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
        let got = value.map(|v| sign * v);
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
