//! The library's errors: one enum, every variant a sentence a user can act on.

use thiserror::Error;

/// Everything that can go wrong before a search starts: bad game specs, bad trees, bad names,
/// impossible parameters. Searches themselves do not fail; budgets make them incomplete.
///
/// ```
/// use gamesearch::{trees::ExplicitTree, Algorithm, Error};
/// assert!(matches!(ExplicitTree::parse("(max 1"), Err(Error::TreeParse { .. })));
/// let e = "quantum".parse::<Algorithm>().unwrap_err();
/// assert!(e.to_string().starts_with("unknown algorithm `quantum`; known: minimax, "));
/// ```
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Error {
    /// A `GAME` argument that names no known game (whoever reads the text, e.g. the crate
    /// `gamesearch-games`, says what it expected).
    #[error("unknown game `{game}`: expected {expected}")]
    UnknownGame {
        /// What was asked for.
        game: String,
        /// The forms the reader knows.
        expected: String,
    },
    /// A malformed or out-of-range parameter (of a game or an experiment).
    #[error("bad parameter: {0}")]
    BadParameter(String),
    /// An algorithm name nobody knows.
    #[error("unknown algorithm `{name}`; known: {known}")]
    UnknownAlgorithm {
        /// What was asked for.
        name: String,
        /// The names that exist.
        known: String,
    },
    /// Explicit-tree text that does not parse.
    #[error("tree text, column {column}: {message}")]
    TreeParse {
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// A tree file that cannot be read.
    #[error("cannot read tree file `{path}`: {message}")]
    TreeFile {
        /// The path given.
        path: String,
        /// The OS error.
        message: String,
    },
    /// An opening book that cannot be read or written, or that is not one.
    #[error("book `{path}`: {message}")]
    BookFile {
        /// The path given.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// An endgame database file that cannot be read or written, or that is damaged.
    #[error("tablebase `{path}`: {message}")]
    TablebaseFile {
        /// The path.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A learned evaluation's weights file that cannot be read or written, or that is damaged,
    /// truncated or learned for another game ([`crate::learn::Weights`]).
    #[error("weights file `{path}`: {message}")]
    WeightsFile {
        /// The path.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A table or tree larger than the machine can hold.
    #[error("{what} of {} needs more memory than {}", human_bytes(*requested), available.map_or("the machine can give".to_string(), |a| format!("the machine has ({})", human_bytes(a))))]
    OutOfMemory {
        /// What was being allocated.
        what: &'static str,
        /// Bytes asked for.
        requested: usize,
        /// The machine's physical memory, when known.
        available: Option<usize>,
    },
    /// A search that would never finish.
    #[error("{0}")]
    TooLarge(String),
    /// A line of play deeper than the search can follow, below the position searched: a game
    /// that does not end on some path (its positions repeat), or a horizon deeper than the
    /// thread's stack. The search stopped cleanly instead of overflowing the stack.
    #[error("a line of play went deeper than {limit} below the position searched, the game still not over: does it end on every path? (a game whose positions repeat says so in its rules, `const REPEATS: bool = true`; a search with a horizon, a smaller depth, stays within it)")]
    LineTooDeep {
        /// What it went past, in words: "the search thread's stack allows (8.0 MiB)",
        /// "100000 plies".
        limit: String,
    },
    /// A method that cannot solve a game whose positions repeat ([`crate::Game::REPEATS`]).
    #[error("{method} cannot solve a game whose positions repeat (it keeps no line of play to see a repetition); use {instead}")]
    Repeats {
        /// The method asked for.
        method: &'static str,
        /// The methods that can.
        instead: &'static str,
    },
    /// Threads the system would not start.
    #[error("cannot start {count} solver threads: {message}")]
    Threads {
        /// How many were asked for.
        count: usize,
        /// The system's reason.
        message: String,
    },
}

/// `1.5 GiB`, `64.0 MiB`, `512 B`: sizes as people read them.
///
/// ```
/// assert_eq!(gamesearch::error::human_bytes(3 << 29), "1.5 GiB");
/// assert_eq!(gamesearch::error::human_bytes(100), "100 B");
/// ```
pub fn human_bytes(b: usize) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut v = b as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}
