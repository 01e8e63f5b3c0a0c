//! The Connect-Four benchmark: solve every position of a file of `<moves> <score>` lines (the
//! public solvers' format, 7x6, score for the side to move) and check the score.

use std::time::Instant;

use serde::Serialize;

use crate::depth_first::solve::{ExactSolver, SolveConfig};
use crate::error::Error;
use crate::game::{Game, Score};
use crate::games::{Connect4, Weak};

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
/// let lines = gamesearch::experiments::connect4_bench::parse("4453 2\n\n12 -1\n").unwrap();
/// assert_eq!(lines.len(), 2);
/// assert!(gamesearch::experiments::connect4_bench::parse("44x 2").is_ok()); // checked when played
/// assert!(gamesearch::experiments::connect4_bench::parse("4453").is_err());
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

/// The benchmark's totals.
#[derive(Clone, Debug, Serialize)]
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
}

/// Solves `lines` on a 7x6 board with one solver whose table (`tt_bytes`) persists across
/// positions, as the reference solver's does.
pub fn run(
    lines: &[BenchLine],
    weak: bool,
    tt_bytes: usize,
    mut on_line: impl FnMut(usize),
) -> Result<BenchReport, Error> {
    let cfg = SolveConfig {
        tt_bytes,
        id_depth: 0,
        best_move: false, // scores only, as the reference computes
        ..SolveConfig::default()
    };
    let start_board = Connect4::new(7, 6)?;
    let positions: Vec<Connect4> = lines
        .iter()
        .map(|l| {
            start_board
                .play_moves(&l.moves)
                .map_err(|e| Error::BadParameter(format!("line {}: {e}", l.line)))
        })
        .collect::<Result<_, _>>()?;
    // One solver, of the kind asked for: only its table is allocated.
    let mut exact = (!weak).then(|| ExactSolver::<Connect4>::new(&cfg));
    let mut weak_solver = weak.then(|| ExactSolver::<Weak<Connect4>>::new(&cfg));
    let (mut nodes, mut mismatches, mut mismatch_lines) = (0u64, 0, Vec::new());
    let start = Instant::now();
    for (i, (p, l)) in positions.iter().zip(lines).enumerate() {
        let sign = p.to_move().sign();
        let (value, n) = match (&mut exact, &mut weak_solver) {
            (Some(solver), _) => {
                let s = solver.solve(p, &cfg, |_| {})?;
                (s.value, s.stats.nodes())
            }
            (None, Some(solver)) => {
                let s = solver.solve(&Weak::new(*p), &cfg, |_| {})?;
                (s.value, s.stats.nodes())
            }
            (None, None) => unreachable!("one solver is built"),
        };
        nodes += n;
        let got = value.map(|v| sign * v);
        let want = if weak { l.score.signum() } else { l.score };
        if got != Some(want) {
            mismatches += 1;
            if mismatch_lines.len() < 20 {
                mismatch_lines.push(l.line);
            }
        }
        on_line(i + 1);
    }
    let n = positions.len().max(1) as f64;
    Ok(BenchReport {
        positions: positions.len(),
        mismatches,
        mismatch_lines,
        mean_time_us: start.elapsed().as_secs_f64() * 1e6 / n,
        mean_nodes: nodes as f64 / n,
        weak,
    })
}
