//! An opening book: positions solved once (by a split's jobs and its top tree,
//! [`crate::split::Plan::book`]), kept by the solver's table key with their proven bounds and
//! best move, and read back by any later solve. A position in the book with an exact value is
//! answered at once; otherwise the book's entries are written into the solver's table before the
//! search starts, as bounds proven to the game's end that replacement keeps before all others,
//! so the table's probes find them first (as Pons' and Steininger's solvers use their books).
//!
//! An entry is what the table stores: bounds in the side to move's view and the best move's
//! index in generation order, in the orientation of the key (a position and its images under
//! the game's symmetries share one entry). The book names the rules it was made for
//! (`connect4:7x6`); it is only true for those, and the front doors (`read_book` of the crate
//! `gamesearch-games`) check it.
//!
//! # File format (version 1, little-endian)
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `GSBOOK\0\x01` (the last byte: the version) |
//! | 2 + n | the rules' length, then the rules (UTF-8) |
//! | 2 + n | the source's length, then how the book was made (UTF-8) |
//! | 8 | the number of entries |
//! | 13 each | key (u64), lower (i16), upper (i16), best move index (u8); sorted by key, each key once |
//! | 4 | CRC-32 of everything before it |
//!
//! Bounds are encoded as the table encodes them: `i16::MIN` is no lower bound, `i16::MAX` no
//! upper bound.
//!
//! ```
//! # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
//! use gamesearch::solver::book::Book;
//! use gamesearch::Game;
//!
//! let start = Nim::new(10);
//! let mut b = Book::builder("nim", "by hand");
//! // The first player wins (+1) by taking 2.
//! b.insert(&start, (1, 1), Some(2));
//! let book = Book::from_bytes(&b.build().to_bytes()).unwrap();
//! let answer = book.lookup(&start).unwrap();
//! assert_eq!((answer.value(), answer.best_move), (Some(1), Some(2)));
//! assert!(book.lookup(&start.play(1)).is_none());
//! ```
//!
//! A game with mirror images (a `SolverKnowledge::canonical_key`) is answered for the mirror
//! image with the move mirrored (Connect-Four's, in the crate `gamesearch-games`):
//!
//! ```
//! use gamesearch::solver::book::Book;
//! use gamesearch::{Game, Player, PositionKey, Score, SolverKnowledge};
//! // A row of three cells; a move marks one; mirror images (cell i and 2 - i) share a key.
//! #[derive(Clone, Copy, Debug)]
//! struct Row(u8); // the marked cells, a bit each
//! impl Game for Row {
//!     type Move = u8;
//!     type Moves = std::vec::IntoIter<u8>;
//!     fn to_move(&self) -> Player { if self.0.count_ones() % 2 == 0 { Player::Max } else { Player::Min } }
//!     fn moves(&self) -> Self::Moves { (0..3).filter(|c| self.0 & 1 << c == 0).collect::<Vec<_>>().into_iter() }
//!     fn play(&self, c: u8) -> Self { Row(self.0 | 1 << c) }
//!     fn evaluate(&self) -> Score { 0 }
//! }
//! impl PositionKey for Row { fn key(&self) -> u64 { u64::from(self.0) } }
//! impl SolverKnowledge for Row {
//!     fn canonical_key(&self) -> Option<(u64, u8)> {
//!         let m = (self.0 & 1) << 2 | (self.0 & 2) | (self.0 >> 2 & 1);
//!         Some((u64::from(self.0.min(m)), u8::from(m < self.0)))
//!     }
//!     // Cell c's mirror is 2 - c: in generation order, index i becomes moves - 1 - i (both ways).
//!     fn index_to_key(&self, _: u8, i: u8) -> u8 { self.moves().count() as u8 - 1 - i }
//!     fn index_from_key(&self, _: u8, i: u8) -> u8 { self.moves().count() as u8 - 1 - i }
//! }
//! let mut b = Book::builder("row", "by hand");
//! b.insert(&Row(0b001), (0, 0), Some(1));
//! assert_eq!(b.build().lookup(&Row(0b100)).unwrap().best_move, Some(1));
//! ```

use std::collections::HashMap;
use std::path::Path;

use super::node::{book_key, from_key_orientation, to_key_orientation};
use super::table::{decode_bound, encode_lower, encode_upper, TranspositionTable, DRAFT_EXACT};
use super::SolverKnowledge;
use crate::error::Error;
use crate::game::{Player, PositionKey, Score, INF};

const MAGIC: &[u8; 7] = b"GSBOOK\0";
const VERSION: u8 = 1;
const ENTRY_BYTES: usize = 13;

/// One position's entry, as the table keeps it: bounds in the side to move's view (`-INF`,
/// `INF`: none), the best move's index in the key's orientation (255: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Lower bound, side to move's view.
    pub lower: Score,
    /// Upper bound, side to move's view.
    pub upper: Score,
    /// Index of the best move in generation order, in the orientation of the key; 255: none.
    pub best: u8,
}

/// What the book knows of a position, in MAX's view, with its move named for this position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookAnswer<M> {
    /// Proven bounds on the value (MAX's view); equal when the book has the exact value.
    pub bounds: (Score, Score),
    /// The move the book keeps: with an exact value one that achieves it, else one that
    /// achieves the bound that was proven (the lower one for MAX, the upper for MIN).
    pub best_move: Option<M>,
}

impl<M> BookAnswer<M> {
    /// The exact value, when the book has it.
    pub fn value(&self) -> Option<Score> {
        (self.bounds.0 == self.bounds.1).then_some(self.bounds.0)
    }
}

/// A book: entries by key, sorted, read-only once built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    rules: String,
    source: String,
    keys: Vec<u64>,
    entries: Vec<BookEntry>,
}

/// Collects positions' bounds and moves into a [`Book`].
#[derive(Clone, Debug)]
pub struct BookBuilder {
    rules: String,
    source: String,
    entries: HashMap<u64, BookEntry>,
}

impl BookBuilder {
    /// Adds what is known of `p`: `bounds` in MAX's view, a best move of `p`. A position added
    /// again (or its mirror image) keeps the intersection of the bounds; its move is the one
    /// that came with an exact value, else the first given.
    pub fn insert<G: PositionKey + SolverKnowledge>(
        &mut self,
        p: &G,
        (lo, hi): (Score, Score),
        best: Option<G::Move>,
    ) {
        let (key, symmetry) = book_key(p);
        let (lower, upper) = match p.to_move() {
            Player::Max => (lo, hi),
            Player::Min => (-hi, -lo),
        };
        let index = best
            .and_then(|b| p.moves().position(|m| m == b))
            .map_or(255, |i| i.min(254) as u8);
        let best = to_key_orientation(p, symmetry, index);
        let new = BookEntry { lower, upper, best };
        self.entries
            .entry(key)
            .and_modify(|e| {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                if e.best == 255 || (best != 255 && lower == upper) {
                    e.best = best;
                }
            })
            .or_insert(new);
    }

    /// Positions added so far (mirror images and transpositions counted once).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True before anything is added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book.
    pub fn build(self) -> Book {
        let mut all: Vec<(u64, BookEntry)> = self.entries.into_iter().collect();
        all.sort_unstable_by_key(|&(k, _)| k);
        Book {
            rules: self.rules,
            source: self.source,
            keys: all.iter().map(|&(k, _)| k).collect(),
            entries: all.into_iter().map(|(_, e)| e).collect(),
        }
    }
}

impl Book {
    /// An empty builder for a book of `rules` (`connect4:7x6`); `source` says how it was made.
    pub fn builder(rules: &str, source: &str) -> BookBuilder {
        BookBuilder {
            rules: rules.into(),
            source: source.into(),
            entries: HashMap::new(),
        }
    }

    /// The rules the book is true for.
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// How it was made.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Positions in it.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True for a book with no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Positions with an exact value.
    pub fn exact(&self) -> usize {
        self.entries.iter().filter(|e| e.lower == e.upper).count()
    }

    /// The entry stored under the table key `key`.
    pub fn get(&self, key: u64) -> Option<BookEntry> {
        self.keys.binary_search(&key).ok().map(|i| self.entries[i])
    }

    /// What the book knows of `p`: bounds in MAX's view and its move, named for `p` (turned
    /// back when `p` is keyed by one of its images).
    pub fn lookup<G: PositionKey + SolverKnowledge>(&self, p: &G) -> Option<BookAnswer<G::Move>> {
        let (key, symmetry) = book_key(p);
        let e = self.get(key)?;
        let bounds = match p.to_move() {
            Player::Max => (e.lower, e.upper),
            Player::Min => (-e.upper, -e.lower),
        };
        let best_move = if e.best == 255 {
            None
        } else {
            p.moves()
                .nth(from_key_orientation(p, symmetry, e.best) as usize)
        };
        Some(BookAnswer { bounds, best_move })
    }

    /// Writes every entry into `tt` as bounds proven to the game's end, with the highest
    /// replacement priority (a search's own entries are replaced before them).
    pub fn seed(&self, tt: &TranspositionTable) {
        for (&key, e) in self.keys.iter().zip(&self.entries) {
            tt.store(key, e.lower, e.upper, e.best, DRAFT_EXACT, u8::MAX);
        }
    }

    /// The book as its file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(32 + self.rules.len() + self.source.len() + 13 * self.len());
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        for text in [&self.rules, &self.source] {
            let bytes = &text.as_bytes()[..text.len().min(u16::MAX as usize)];
            out.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        out.extend_from_slice(&(self.len() as u64).to_le_bytes());
        for (&key, e) in self.keys.iter().zip(&self.entries) {
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&encode_lower(e.lower).to_le_bytes());
            out.extend_from_slice(&encode_upper(e.upper).to_le_bytes());
            out.push(e.best);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A book from its file's bytes; a message saying what is wrong with them otherwise.
    ///
    /// ```
    /// use gamesearch::solver::book::Book;
    /// let mut bytes = Book::builder("tictactoe", "").build().to_bytes();
    /// assert!(Book::from_bytes(&bytes).is_ok());
    /// bytes[10] ^= 1;
    /// assert!(Book::from_bytes(&bytes).unwrap_err().contains("checksum"));
    /// assert!(Book::from_bytes(b"{\"key\": 1}").unwrap_err().contains("not a gamesearch book"));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() < MAGIC.len() + 1 || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a gamesearch book (it does not start with GSBOOK)".into());
        }
        if bytes[MAGIC.len()] != VERSION {
            return Err(format!(
                "book version {} (this gamesearch reads version {VERSION})",
                bytes[MAGIC.len()]
            ));
        }
        if bytes.len() < MAGIC.len() + 1 + 4 {
            return Err("the file ends early".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return Err("its checksum does not match: the file is damaged or truncated".into());
        }
        let mut at = MAGIC.len() + 1;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let s = body.get(at..at + n).ok_or("the file ends early")?;
            at += n;
            Ok(s)
        };
        let mut text = || -> Result<String, String> {
            let n = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes")) as usize;
            String::from_utf8(take(n)?.to_vec()).map_err(|_| "a header text is not UTF-8".into())
        };
        let rules = text()?;
        let source = text()?;
        let n = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let left = body.len() - at;
        if n.checked_mul(ENTRY_BYTES as u64) != Some(left as u64) {
            return Err(format!(
                "it says {n} entries but holds {left} bytes of them ({ENTRY_BYTES} each)"
            ));
        }
        let mut keys = Vec::with_capacity(n as usize);
        let mut entries = Vec::with_capacity(n as usize);
        for chunk in body[at..].chunks_exact(ENTRY_BYTES) {
            let key = u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes"));
            let lower = decode_bound(i16::from_le_bytes([chunk[8], chunk[9]]));
            let upper = decode_bound(i16::from_le_bytes([chunk[10], chunk[11]]));
            if keys.last().is_some_and(|&k| k >= key) {
                return Err("its keys are not sorted and distinct".into());
            }
            if lower > upper || lower == INF || upper == -INF {
                return Err(format!("the entry {key:016x} has bounds that cannot hold"));
            }
            keys.push(key);
            entries.push(BookEntry {
                lower,
                upper,
                best: chunk[12],
            });
        }
        Ok(Book {
            rules,
            source,
            keys,
            entries,
        })
    }

    /// Reads a book file.
    pub fn read(path: impl AsRef<Path>) -> Result<Book, Error> {
        let path = path.as_ref();
        let fail = |message: String| Error::BookFile {
            path: path.display().to_string(),
            message,
        };
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        Book::from_bytes(&bytes).map_err(fail)
    }

    /// Writes the book to `path` whole or not at all: to a file beside it, then renamed over it.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        let fail = |e: std::io::Error| Error::BookFile {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        std::fs::write(&partial, self.to_bytes()).map_err(fail)?;
        std::fs::rename(&partial, path).map_err(fail)
    }
}
