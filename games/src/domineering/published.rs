//! The published outcome classes of empty rectangular boards, to check the solver against.
//!
//! Sources: Lachmann, Moore & Rapaport (2002), "Who wins Domineering on rectangular boards?"
//! (every board 2, 3, 5 or 7 wide, as far as stated here); Breuker, Uiterwijk & van den Herik
//! (2000), "Solving 8×8 Domineering" (m × n for m from 2 to 8, n from m to 9); both reviewed in
//! Drummond-Cole (2014), "An update on Domineering on rectangular boards". The list below is
//! as Bullock's Obsequi (2002) checks itself against (its `Check` script), every entry of which
//! is one of those published results; 1 × n and n × 1 follow from the rules.

use std::fmt;

/// Who wins a board, whoever starts: the outcome class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Vertical wins, moving first or second.
    Vertical,
    /// Horizontal wins, moving first or second.
    Horizontal,
    /// The first player wins (N, written `1` in the tables).
    First,
    /// The second player wins (P, written `2`).
    Second,
}

impl Outcome {
    /// The class from the two games' results: whether Vertical wins moving first, and whether
    /// Vertical wins moving second (Horizontal first).
    pub fn from_results(vertical_wins_first: bool, vertical_wins_second: bool) -> Outcome {
        match (vertical_wins_first, vertical_wins_second) {
            (true, true) => Outcome::Vertical,
            (false, false) => Outcome::Horizontal,
            (true, false) => Outcome::First,
            (false, true) => Outcome::Second,
        }
    }

    /// The class of the board turned a quarter (rows and columns swapped): Vertical and
    /// Horizontal swap places.
    pub fn transposed(self) -> Outcome {
        match self {
            Outcome::Vertical => Outcome::Horizontal,
            Outcome::Horizontal => Outcome::Vertical,
            other => other,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Vertical => "V",
            Outcome::Horizontal => "H",
            Outcome::First => "1",
            Outcome::Second => "2",
        })
    }
}

/// `ROWSxCOLS CLASS` for the boards with at most as many rows as columns (the others are
/// these turned a quarter).
const TABLE: &str = "
2x2 1  2x3 1  2x4 H  2x5 V  2x6 1  2x7 1  2x8 H  2x9 V  2x10 1  2x11 1  2x12 H  2x13 2  2x14 1  2x15 1
3x3 1  3x4 H  3x5 H  3x6 H  3x7 H  3x8 H  3x9 H  3x10 H  3x11 H  3x12 H  3x13 H
4x4 1  4x5 V  4x6 1  4x7 V  4x8 H  4x9 V  4x10 H  4x11 V  4x12 H
5x5 2  5x6 H  5x7 H  5x8 H  5x9 H  5x10 H
6x6 1  6x7 V  6x8 H
7x7 1  7x8 H
8x8 1
";

/// The published class of the empty `rows`×`cols` board, where there is one (every board of
/// one row or one column follows from the rules).
///
/// ```
/// use gamesearch_games::domineering::published::{published, Outcome};
/// assert_eq!(published(8, 8), Some(Outcome::First));
/// assert_eq!(published(5, 5), Some(Outcome::Second));
/// assert_eq!(published(5, 4), Some(Outcome::Horizontal)); // 4x5 is Vertical's
/// assert_eq!(published(1, 7), Some(Outcome::Horizontal));
/// assert_eq!(published(9, 9), None);
/// ```
pub fn published(rows: usize, cols: usize) -> Option<Outcome> {
    if rows == 1 || cols == 1 {
        return Some(match (rows, cols) {
            (1, 1) => Outcome::Second,
            (1, _) => Outcome::Horizontal,
            _ => Outcome::Vertical,
        });
    }
    let (m, n) = (rows.min(cols), rows.max(cols));
    let key = format!("{m}x{n}");
    let mut words = TABLE.split_whitespace();
    while let Some(board) = words.next() {
        let class = words.next()?;
        if board == key {
            let o = match class {
                "V" => Outcome::Vertical,
                "H" => Outcome::Horizontal,
                "1" => Outcome::First,
                _ => Outcome::Second,
            };
            return Some(if rows <= cols { o } else { o.transposed() });
        }
    }
    None
}

/// Every board of the table with at most `max_cells` cells, both ways round (rows ≤ columns
/// first), with its class.
pub fn boards(max_cells: usize) -> Vec<(usize, usize, Outcome)> {
    let mut out = Vec::new();
    for m in 1..=max_cells {
        for n in m..=max_cells / m {
            for (r, c) in [(m, n), (n, m)] {
                if r == c && out.iter().any(|&(a, b, _)| (a, b) == (r, c)) {
                    continue;
                }
                if let Some(o) = published(r, c) {
                    out.push((r, c, o));
                }
            }
        }
    }
    out
}
