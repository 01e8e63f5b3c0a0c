//! Empty Domineering boards solved with each player first (`gamesearch experiment
//! domineering`): the outcome class of each board beside the published one.

use std::time::Instant;

use gamesearch::{ExactSolver, Limits, SolveConfig};
use gamesearch_games::domineering::published::{boards, Outcome};
use gamesearch_games::Domineering;
use serde::Serialize;

/// One board: both games solved (or stopped by the budget).
#[derive(Clone, Debug, Serialize)]
pub struct DomineeringRow {
    /// Rows (Vertical's dominoes run along them).
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Whether Vertical wins moving first, and moving second; `None` where stopped.
    pub vertical_wins: (Option<bool>, Option<bool>),
    /// The class, `V`, `H`, `1` (the first player wins) or `2`; `None` where a game was
    /// stopped.
    pub class: Option<String>,
    /// The published class.
    pub published: String,
    /// The class agrees with the published one (`None`: not solved).
    pub agrees: Option<bool>,
    /// Nodes of both solves.
    pub nodes: u64,
    /// Wall-clock seconds of both solves (the tables made before each).
    pub seconds: f64,
}

/// The solver's settings: the table, the threads, the budget per game, the value only.
pub fn config(tt_mb: usize, threads: usize, limits: Limits) -> SolveConfig {
    SolveConfig {
        tt_bytes: tt_mb << 20,
        threads,
        best_move: false,
        limits,
        ..SolveConfig::default()
    }
}

/// The boards of the published table with at most `max_cells` cells that the game takes
/// (at most 26 columns), smallest first.
///
/// ```
/// use gamesearch_cli::experiments::domineering::board_list;
/// let b = board_list(4);
/// assert_eq!(b.first().map(|&(r, c, _)| (r, c)), Some((1, 1)));
/// assert!(b.iter().any(|&(r, c, _)| (r, c) == (2, 2)));
/// ```
pub fn board_list(max_cells: usize) -> Vec<(usize, usize, Outcome)> {
    let mut list: Vec<_> = boards(max_cells)
        .into_iter()
        .filter(|&(r, c, _)| Domineering::new(r, c, true).is_ok())
        .collect();
    list.sort_by_key(|&(r, c, _)| (r * c, r.max(c), c));
    list
}

/// Solves the `rows`×`cols` board with each player first.
pub fn solve_board(
    rows: usize,
    cols: usize,
    published: Outcome,
    cfg: &SolveConfig,
) -> Result<DomineeringRow, gamesearch::Error> {
    let mut nodes = 0;
    let mut seconds = 0.0;
    let mut wins = [None, None];
    for (i, vertical_first) in [true, false].into_iter().enumerate() {
        let p = Domineering::new(rows, cols, vertical_first)?;
        let mut solver = ExactSolver::<Domineering>::new(cfg)?;
        let start = Instant::now();
        let s = solver.solve(&p, cfg, |_| {})?;
        seconds += start.elapsed().as_secs_f64();
        nodes += s.stats.nodes();
        // The value is the first player's: Vertical's in the first game, Horizontal's in the
        // second.
        wins[i] = s.value.map(|v| (v == 1) == vertical_first);
    }
    let class = match wins {
        [Some(a), Some(b)] => Some(Outcome::from_results(a, b)),
        _ => None,
    };
    Ok(DomineeringRow {
        rows,
        cols,
        vertical_wins: (wins[0], wins[1]),
        class: class.map(|c| c.to_string()),
        published: published.to_string(),
        agrees: class.map(|c| c == published),
        nodes,
        seconds,
    })
}

/// The rows as a table.
pub fn table(rows: &[DomineeringRow]) -> String {
    let mut out =
        String::from("board  V first  H first  class  published  agrees        nodes       time\n");
    let win = |w: Option<bool>| match w {
        Some(true) => "V wins",
        Some(false) => "H wins",
        None => "?",
    };
    for r in rows {
        out.push_str(&format!(
            "{:<6} {:<7}  {:<7}  {:>5}  {:>9}  {:<6} {:>12} {:>8.2} s\n",
            format!("{}x{}", r.rows, r.cols),
            win(r.vertical_wins.0),
            win(r.vertical_wins.1),
            r.class.as_deref().unwrap_or("?"),
            r.published,
            match r.agrees {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "-",
            },
            r.nodes,
            r.seconds
        ));
    }
    out
}
