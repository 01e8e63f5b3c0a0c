//! Every opening of an n×n Hex board solved (`gamesearch experiment hex --size N`): the board
//! of winning and losing first moves, as the published diagrams draw it, beside the published
//! one where there is one.

use std::time::Instant;

use gamesearch::exact::{solve, Method};
use gamesearch::{Game, SolveConfig};
use gamesearch_games::hex::published::openings;
use gamesearch_games::Hex;
use serde::Serialize;

/// One opening: Black's first stone, solved (or stopped by the budget).
#[derive(Clone, Debug, Serialize)]
pub struct OpeningRow {
    /// The cell (`c3`).
    pub cell: String,
    /// Whether Black wins after it; `None` where stopped.
    pub black_wins: Option<bool>,
    /// The published result, where there is one.
    pub published: Option<bool>,
    /// The same as the published one (`None`: not solved, or none published).
    pub agrees: Option<bool>,
    /// The opening it was read from: itself, or its half turn's (which keeps both players'
    /// edges, so the result is the same), solved first.
    pub solved_as: String,
    /// Nodes of the solve (0 for a half turn's copy).
    pub nodes: u64,
    /// Wall-clock seconds of the solve (the table made before it), 0 for a copy.
    pub seconds: f64,
}

/// The solver's settings: the table, the threads, the budget per opening, the value only
/// (as `experiment domineering`'s).
pub use super::domineering::config;

/// Solves every opening of the `size`×`size` board with `method`, in cell order, each cell
/// whose half turn was solved before read from it; `each` sees every row as it is found
/// (and may stop the run by returning false).
pub fn solve_openings(
    size: usize,
    method: Method,
    cfg: &SolveConfig,
    mut each: impl FnMut(&OpeningRow) -> bool,
) -> Result<Vec<OpeningRow>, gamesearch::Error> {
    let start = Hex::new(size, false)?;
    let table = openings(size);
    let mut rows: Vec<OpeningRow> = Vec::new();
    for m in start.moves() {
        let cell = start.move_name(m);
        let turned = (size * size - 1 - usize::from(m)) as u8;
        let published =
            table.map(|t| t[usize::from(m) / size].as_bytes()[usize::from(m) % size] == b'B');
        let mut row = if let Some(twin) = rows.iter().find(|r| r.cell == start.move_name(turned)) {
            OpeningRow {
                cell,
                black_wins: twin.black_wins,
                published,
                agrees: None,
                solved_as: twin.cell.clone(),
                nodes: 0,
                seconds: 0.0,
            }
        } else {
            let clock = Instant::now();
            let s = solve(&start.play(m), method, cfg)?;
            OpeningRow {
                solved_as: cell.clone(),
                cell,
                black_wins: s.value.map(|v| v == 1),
                published,
                agrees: None,
                nodes: s.stats.nodes(),
                seconds: clock.elapsed().as_secs_f64(),
            }
        };
        row.agrees = row.black_wins.zip(published).map(|(a, b)| a == b);
        let go_on = each(&row);
        rows.push(row);
        if !go_on {
            break;
        }
    }
    Ok(rows)
}

/// The openings drawn as the rhombus: `B` where Black's first stone there wins, `W` where it
/// loses, `?` where it was not solved; the published board beside it where there is one.
pub fn board(size: usize, rows: &[OpeningRow]) -> String {
    let table = openings(size);
    // One rhombus's lines: the column letters, then each row shifted half a cell further.
    let rhombus = |mark: &dyn Fn(usize, usize) -> char| -> Vec<String> {
        let mut lines = vec![format!(
            "    {}",
            (0..size)
                .map(|c| format!(" {}", (b'a' + c as u8) as char))
                .collect::<String>()
        )];
        for r in 0..size {
            let cells: String = (0..size).map(|c| format!(" {}", mark(r, c))).collect();
            lines.push(format!("{}{:>3} {cells}", " ".repeat(r), r + 1));
        }
        lines
    };
    let ours = rhombus(
        &|r, c| match rows.get(r * size + c).and_then(|row| row.black_wins) {
            Some(true) => 'B',
            Some(false) => 'W',
            None => '?',
        },
    );
    let width = 4 + 3 * size + 2;
    let mut out = String::new();
    match table {
        Some(t) => {
            let published = rhombus(&|r, c| t[r].as_bytes()[c] as char);
            out.push_str(&format!("{:<width$}   published\n", "solved here"));
            for (a, b) in ours.iter().zip(&published) {
                out.push_str(&format!("{a:<width$}   {b}\n"));
            }
        }
        None => {
            for line in ours {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}
