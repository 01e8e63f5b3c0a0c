//! Empty Connect-Four boards solved one after another (`gamesearch experiment boards`): the
//! value, the nodes, the time and the move on which the game ends with perfect play — the table
//! John Tromp and Christophe Steininger publish for the boards they solved, made by one command.

use std::time::Instant;

use gamesearch::{ExactSolver, Limits, PositionKey, Score, SolveConfig, SolverKnowledge};
use gamesearch_games::GameSpec;
use serde::Serialize;

/// The published results (Steininger's c4 readme, which extends John Tromp's table of every
/// board with width + height <= 15 to every board with width + height = 16 and some beyond):
/// per board, the outcome for the first player (`+` a win, `=` a draw, `-` a loss) and the ply
/// on which the game ends with perfect play. Rows by height from 4, entries by width from 4.
const PUBLISHED: [&str; 10] = [
    "=16 =20 -24 =28 -32 -36 -40 -44 -48", // height 4
    "=20 =25 =30 =35 +39 +41 +47 +51",     // height 5
    "=24 =30 -36 +41 -48 -52 +59",         // height 6
    "=28 =35 +41 =49 +53 +55",             // height 7
    "=32 =40 -48 +55 -62",                 // height 8
    "=36 =45 +53 =63 +?",                  // height 9 (8x9: outcome only)
    "=40 =50 -60 +69",                     // height 10
    "=44 =55 +63",                         // height 11
    "=48 =60 -72",                         // height 12
    "=52 =65",                             // height 13
];

/// The published outcome (`'+'`, `'='`, `'-'` for the first player) and last ply of the empty
/// `width x height` board, where the tables have them.
///
/// ```
/// use gamesearch_cli::experiments::boards::published;
/// assert_eq!(published(7, 6), Some(('+', Some(41))));
/// assert_eq!(published(6, 6), Some(('-', Some(36))));
/// assert_eq!(published(8, 9), Some(('+', None)));
/// assert_eq!(published(3, 6), None);
/// ```
pub fn published(width: usize, height: usize) -> Option<(char, Option<u32>)> {
    let row = PUBLISHED.get(height.checked_sub(4)?)?;
    let entry = row.split_whitespace().nth(width.checked_sub(4)?)?;
    let (sign, ply) = entry.split_at(1);
    Some((sign.chars().next()?, ply.parse().ok()))
}

/// One board solved (or stopped by its budget).
#[derive(Clone, Debug, Serialize)]
pub struct BoardRow {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The first player's score (Pons' convention, `(cells + 1)/2 + 1 - stones` of the winner),
    /// `None` when stopped.
    pub value: Option<Score>,
    /// Proven bounds on it.
    pub bounds: (Score, Score),
    /// `win`, `draw` or `loss` for the first player, `unknown` when stopped.
    pub outcome: &'static str,
    /// The ply (1-based) on which the game ends with perfect play: the winner's last stone, or
    /// the board's last cell for a draw.
    pub ends_at: Option<u32>,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Wall-clock seconds of the search (the table allocated before).
    pub seconds: f64,
    /// The published outcome and last ply ([`published`]), where known.
    pub published: Option<(char, Option<u32>)>,
    /// The outcome and the last ply agree with the published ones (`None`: nothing published,
    /// or not solved).
    pub agrees: Option<bool>,
}

/// The ply on which a game of `cells` cells with the first player's score `v` ends.
///
/// ```
/// use gamesearch_cli::experiments::boards::ends_at;
/// assert_eq!(ends_at(42, 1), 41); // 7x6: the first player wins with its 21st stone
/// assert_eq!(ends_at(24, -1), 24); // 6x4: the second player with its 12th, the last
/// assert_eq!(ends_at(16, 0), 16); // 4x4: a draw fills the board
/// ```
pub fn ends_at(cells: u32, v: Score) -> u32 {
    let half = (cells as Score + 1) / 2 + 1;
    match v.signum() {
        1 => (2 * (half - v) - 1) as u32,
        -1 => (2 * (half + v)) as u32,
        _ => cells,
    }
}

/// Every board of at least 4x4 with `width + height <= max_sum`, smallest first.
///
/// ```
/// use gamesearch_cli::experiments::boards::up_to;
/// assert_eq!(up_to(9), vec![(4, 4), (4, 5), (5, 4)]);
/// ```
pub fn up_to(max_sum: usize) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = (4..=max_sum.saturating_sub(4))
        .flat_map(|w| (4..=max_sum - w).map(move |h| (w, h)))
        .collect();
    v.sort_by_key(|&(w, h)| (w * h, w + h, w));
    v
}

fn row<G: PositionKey + SolverKnowledge + Sync>(
    g: &G,
    width: usize,
    height: usize,
    cfg: &SolveConfig,
) -> Result<BoardRow, gamesearch::Error> {
    // The table is mapped before the clock starts, and the part a search starts in zeroed
    // (c4 clears its whole table before its clock); the pages of the rest are zeroed as the
    // search first touches them, inside the time.
    let mut solver = ExactSolver::<G>::new(cfg)?;
    let start = Instant::now();
    let s = solver.solve(g, cfg, |_| {})?;
    let seconds = start.elapsed().as_secs_f64();
    let outcome = match s.value.map(Score::signum) {
        Some(1) => "win",
        Some(0) => "draw",
        Some(_) => "loss",
        None => "unknown",
    };
    let ends = s.value.map(|v| ends_at((width * height) as u32, v));
    let published = published(width, height);
    let agrees = match (s.value, published) {
        (Some(v), Some((sign, ply))) => {
            let sign_ok = sign == ['-', '=', '+'][(v.signum() + 1) as usize];
            Some(sign_ok && ply.is_none_or(|p| Some(p) == ends))
        }
        _ => None,
    };
    Ok(BoardRow {
        width,
        height,
        value: s.value,
        bounds: s.bounds,
        outcome,
        ends_at: ends,
        nodes: s.stats.nodes(),
        seconds,
        published,
        agrees,
    })
}

/// Solves the empty `width x height` board with `cfg` (its limits: the budget per board).
pub fn solve_board(width: usize, height: usize, cfg: &SolveConfig) -> anyhow::Result<BoardRow> {
    Ok(match format!("connect4:{width}x{height}").parse()? {
        GameSpec::Connect4(p) => row(&p, width, height, cfg)?,
        GameSpec::Connect4Wide(p) => row(&p, width, height, cfg)?,
        _ => unreachable!("a connect4 spec"),
    })
}

/// The solver's settings for a board: the table, the threads, the budget; the value only, as
/// the published tables and c4 give it (a row has no best move: looking for one cost 4x8 at two
/// threads up to 62 k nodes more, a sixth of its solve, when the table's move at the root was
/// not one that reaches the value).
pub fn config(tt_mb: usize, threads: usize, limits: Limits) -> SolveConfig {
    SolveConfig {
        tt_bytes: tt_mb << 20,
        threads,
        id_depth: 0,
        best_move: false,
        limits,
        ..SolveConfig::default()
    }
}

/// The rows as a table.
pub fn table(rows: &[BoardRow]) -> String {
    let mut out = String::from(
        "board  value  outcome  ends at ply        nodes       time  published  agrees\n",
    );
    for r in rows {
        let value = r
            .value
            .map_or(format!("[{}, {}]", r.bounds.0, r.bounds.1), |v| {
                format!("{v:+}")
            });
        let published = r.published.map_or("-".into(), |(sign, ply)| {
            format!("{sign} {}", ply.map_or("?".into(), |p| p.to_string()))
        });
        let agrees = match r.agrees {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        out.push_str(&format!(
            "{:<6} {:>5}  {:<7}  {:>11}  {:>11}  {:>8.2} s  {:>9}  {agrees}\n",
            format!("{}x{}", r.width, r.height),
            value,
            r.outcome,
            r.ends_at.map_or("-".into(), |p| p.to_string()),
            r.nodes,
            r.seconds,
            published
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_boards_are_tromps() {
        // Tromp's table (width x height): 4x4 and 5x4 draws, 6x4 a second-player win.
        let cfg = config(16, 1, Limits::none());
        for (w, h, outcome) in [
            (4, 4, "draw"),
            (5, 4, "draw"),
            (4, 5, "draw"),
            (6, 4, "loss"),
        ] {
            let r = solve_board(w, h, &cfg).unwrap();
            assert_eq!(r.outcome, outcome, "{w}x{h}");
        }
        assert_eq!(solve_board(6, 4, &cfg).unwrap().ends_at, Some(24));
    }
}
