//! A strong solution kept and probed: every position's key, sorted, beside its code (the value
//! for the side to move and the remoteness), in memory or memory-mapped from its file.
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `GSSS\0\0\0` and the format version ([`FILE_VERSION`]) |
//! | 2 + n | the game's length, then the game (`dobutsu`: what the solution is of) |
//! | 8 | the number of positions `n` |
//! | 1 | whether the solve was complete (every position settled) |
//! | 8 × 7 | the counts of [`RetrogradeStats`] (positions, arrows, ends, wins, draws, losses for the side to move, milliseconds) |
//! | pad | zeros to a multiple of 8 |
//! | 8 n | the keys, ascending (little-endian `u64`) |
//! | 2 n | the codes (little-endian `u16`) |
//! | 4 | CRC-32 of everything before it |
//!
//! A file is checked whole when it is opened (its checksum, its game against the one asked for,
//! its length, its keys ascending): a damaged or foreign one is refused, never read as values.

use std::path::Path;

use memmap2::Mmap;

use super::{RetrogradeStats, Solved};
use crate::error::Error;
use crate::game::{Game, PositionKey};

const MAGIC: &[u8; 7] = b"GSSS\0\0\0";
/// The version of the strong-solution file this library writes and reads.
pub const FILE_VERSION: u8 = 1;

/// A position not settled (the solve was stopped before it was).
pub(super) const UNKNOWN: u16 = 0xFFFF;
/// A draw: no side can force an end.
pub(super) const DRAW: u16 = 0xFFFE;
/// Set on the code of a position won for the side to move; the low 15 bits are the
/// remoteness.
pub(super) const WIN: u16 = 0x8000;
/// The largest remoteness a code holds.
pub(super) const MAX_REMOTENESS: u32 = 0x7FFD;

/// The code of a position settled at `remoteness`, won or lost for its mover.
pub(super) fn code(won: bool, remoteness: u32) -> u16 {
    debug_assert!(remoteness <= MAX_REMOTENESS);
    if won {
        WIN | remoteness as u16
    } else {
        remoteness as u16
    }
}

enum Table {
    Owned { keys: Vec<u64>, codes: Vec<u16> },
    Mapped { map: Mmap, keys_at: usize, n: usize },
}

/// Every reachable position's [`Solved`], looked up by its key: what
/// [`solve_strongly`](super::solve_strongly) and [`solve_by_unmoves`](super::solve_by_unmoves)
/// return, and what [`StrongSolution::open`] reads back from a file.
pub struct StrongSolution {
    table: Table,
    complete: bool,
    stats: RetrogradeStats,
}

impl StrongSolution {
    /// A solution from its keys (ascending, distinct) and codes.
    pub(super) fn new(
        keys: Vec<u64>,
        codes: Vec<u16>,
        complete: bool,
        stats: RetrogradeStats,
    ) -> Self {
        debug_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        StrongSolution {
            table: Table::Owned { keys, codes },
            complete,
            stats,
        }
    }

    fn len(&self) -> usize {
        match &self.table {
            Table::Owned { keys, .. } => keys.len(),
            Table::Mapped { n, .. } => *n,
        }
    }

    fn key_at(&self, i: usize) -> u64 {
        match &self.table {
            Table::Owned { keys, .. } => keys[i],
            Table::Mapped { map, keys_at, .. } => {
                let at = keys_at + 8 * i;
                u64::from_le_bytes(map[at..at + 8].try_into().expect("8 bytes"))
            }
        }
    }

    fn code_at(&self, i: usize) -> u16 {
        match &self.table {
            Table::Owned { codes, .. } => codes[i],
            Table::Mapped { map, keys_at, n } => {
                let at = keys_at + 8 * n + 2 * i;
                u16::from_le_bytes([map[at], map[at + 1]])
            }
        }
    }

    /// The code of `key`, if the solution has it.
    fn code_of(&self, key: u64) -> Option<u16> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.key_at(mid).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(self.code_at(mid)),
            }
        }
        None
    }

    /// The position's solution, `value` from MAX's view; `None` for a position not reachable
    /// from the root, or not settled when the solve was stopped before its end.
    pub fn probe<G: PositionKey>(&self, p: &G) -> Option<Solved> {
        let c = self.code_of(p.key())?;
        let mover = p.to_move().sign();
        match c {
            UNKNOWN => None,
            DRAW => Some(Solved {
                value: 0,
                remoteness: None,
            }),
            _ => Some(Solved {
                value: if c & WIN != 0 { mover } else { -mover },
                remoteness: Some(u32::from(c & !WIN)),
            }),
        }
    }

    /// A move that keeps the position's value: the fastest win, the slowest loss, or a move
    /// to a draw; `None` at the end of the game or for a position the solution lacks.
    pub fn best_move<G: Game + PositionKey>(&self, p: &G) -> Option<G::Move> {
        super::best_move_by(p, |q| self.probe(q))
    }

    /// Whether every position was settled (false when a stop flag or the time limit ended the
    /// solve: then only the positions settled so far answer [`probe`](Self::probe)).
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The counts of the solve.
    pub fn stats(&self) -> RetrogradeStats {
        self.stats
    }

    /// The keys of the positions solved, ascending: for counting them as a publication counts
    /// (which positions, which images as one).
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::retrograde::{solve_strongly, RetrogradeConfig};
    /// let s = solve_strongly(&Nim::new(9), &RetrogradeConfig::default()).unwrap();
    /// assert_eq!(s.keys().count() as u64, s.stats().positions);
    /// assert!(s.keys().zip(s.keys().skip(1)).all(|(a, b)| a < b));
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len()).map(|i| self.key_at(i))
    }

    /// Writes the solution to `path`, whole or not at all (to a file beside it, then renamed);
    /// `game` names what it solves (the game's text, rules included), checked by
    /// [`open`](Self::open).
    ///
    /// ```
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// use gamesearch::retrograde::{solve_strongly, RetrogradeConfig, StrongSolution};
    /// let s = solve_strongly(&Nim::new(9), &RetrogradeConfig::default()).unwrap();
    /// let path = std::env::temp_dir().join(format!("nim-{}.gsss", std::process::id()));
    /// s.write(&path, "nim:9").unwrap();
    /// let back = StrongSolution::open(&path, "nim:9").unwrap();
    /// assert_eq!(back.probe(&Nim::new(9)), s.probe(&Nim::new(9)));
    /// // Another game's file is refused.
    /// assert!(StrongSolution::open(&path, "nim:10").is_err());
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn write(&self, path: &Path, game: &str) -> Result<(), Error> {
        let n = self.len();
        let mut head = header(MAGIC, FILE_VERSION, game, n, self.complete, &self.stats);
        while head.len() % 8 != 0 {
            head.push(0);
        }
        write_checksummed(path, |put| {
            put(&head)?;
            let mut chunk = Vec::with_capacity(1 << 16);
            for i in 0..n {
                chunk.extend_from_slice(&self.key_at(i).to_le_bytes());
                if chunk.len() >= 1 << 16 {
                    put(&chunk)?;
                    chunk.clear();
                }
            }
            for i in 0..n {
                chunk.extend_from_slice(&self.code_at(i).to_le_bytes());
                if chunk.len() >= 1 << 16 {
                    put(&chunk)?;
                    chunk.clear();
                }
            }
            put(&chunk)
        })
    }

    /// Reads a solution written by [`write`](Self::write) (memory-mapped, checked whole): an
    /// error, never values, for a file of another game, a truncated or damaged one.
    pub fn open(path: &Path, game: &str) -> Result<StrongSolution, Error> {
        let map = map(path)?;
        let (keys_at, n, complete, stats) = check(&map, game).map_err(|m| bad(path, m))?;
        Ok(StrongSolution {
            table: Table::Mapped { map, keys_at, n },
            complete,
            stats,
        })
    }
}

/// The error for the strong-solution file at `path`.
pub(super) fn bad(path: &Path, message: impl Into<String>) -> Error {
    Error::TablebaseFile {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// The file at `path`, memory-mapped.
pub(super) fn map(path: &Path) -> Result<Mmap, Error> {
    let f = std::fs::File::open(path).map_err(|e| bad(path, e.to_string()))?;
    // SAFETY: the file is only read; a file changed under the mapping while in use is the
    // one way to break it, as with any mapped file (the checksum is verified when opened).
    unsafe { Mmap::map(&f) }.map_err(|e| bad(path, e.to_string()))
}

/// The header both kinds of strong-solution file begin with: the magic and the format
/// version, the game's length and the game, the count `n`, whether the solve was complete,
/// the seven counts of [`RetrogradeStats`].
pub(super) fn header(
    magic: &[u8; 7],
    version: u8,
    game: &str,
    n: usize,
    complete: bool,
    s: &RetrogradeStats,
) -> Vec<u8> {
    let mut head = Vec::with_capacity(128);
    head.extend_from_slice(magic);
    head.push(version);
    head.extend_from_slice(&(game.len() as u16).to_le_bytes());
    head.extend_from_slice(game.as_bytes());
    head.extend_from_slice(&(n as u64).to_le_bytes());
    head.push(u8::from(complete));
    for v in [
        s.positions,
        s.arrows,
        s.ends,
        s.wins,
        s.draws,
        s.losses,
        (s.seconds * 1000.0) as u64,
    ] {
        head.extend_from_slice(&v.to_le_bytes());
    }
    head
}

/// Writes `path` whole or not at all: what `body` puts (through the function it is given),
/// then the CRC-32 of it, to a file beside `path` that is then renamed.
pub(super) fn write_checksummed(
    path: &Path,
    body: impl FnOnce(&mut dyn FnMut(&[u8]) -> Result<(), Error>) -> Result<(), Error>,
) -> Result<(), Error> {
    let io = |e: std::io::Error| bad(path, e.to_string());
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let file = std::fs::File::create(&partial).map_err(io)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut crc = crc32fast::Hasher::new();
    body(&mut |bytes: &[u8]| {
        crc.update(bytes);
        std::io::Write::write_all(&mut out, bytes).map_err(io)
    })?;
    std::io::Write::write_all(&mut out, &crc.finalize().to_le_bytes()).map_err(io)?;
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    std::fs::rename(&partial, path).map_err(io)
}

/// Reads and checks the [`header`] of a file that should be `what` (its magic and version)
/// of `game`: where the header ends, the count `n`, whether complete, the counts.
pub(super) fn read_header(
    map: &[u8],
    magic: &[u8; 7],
    version: u8,
    what: &str,
    game: &str,
) -> Result<(usize, u64, bool, RetrogradeStats), String> {
    let truncated = || "the file is truncated (rebuild it)".to_string();
    if map.len() < 8 || &map[..7] != magic {
        return Err(format!("not {what} written by gamesearch"));
    }
    if map[7] != version {
        return Err(format!(
            "format version {} (this gamesearch reads {version}): rebuild it",
            map[7]
        ));
    }
    let u64_at = |at: usize| -> Result<u64, String> {
        map.get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .ok_or_else(truncated)
    };
    let name_len = usize::from(u16::from_le_bytes(
        map.get(8..10)
            .ok_or_else(truncated)?
            .try_into()
            .expect("2 bytes"),
    ));
    let name = map.get(10..10 + name_len).ok_or_else(truncated)?;
    let name = String::from_utf8_lossy(name);
    if name != game {
        return Err(format!("it solves `{name}`, not `{game}`"));
    }
    let mut at = 10 + name_len;
    let n = u64_at(at)?;
    at += 8;
    let complete = *map.get(at).ok_or_else(truncated)? == 1;
    at += 1;
    let mut counts = [0u64; 7];
    for c in &mut counts {
        *c = u64_at(at)?;
        at += 8;
    }
    let stats = RetrogradeStats {
        positions: counts[0],
        arrows: counts[1],
        ends: counts[2],
        wins: counts[3],
        draws: counts[4],
        losses: counts[5],
        seconds: counts[6] as f64 / 1000.0,
    };
    Ok((at, n, complete, stats))
}

/// Whether the file's last four bytes are the CRC-32 of the rest (its length checked first).
pub(super) fn checksum_matches(map: &[u8]) -> Result<(), String> {
    let body = map.len() - 4;
    let stored = u32::from_le_bytes(map[body..].try_into().expect("4 bytes"));
    if crc32fast::hash(&map[..body]) != stored {
        return Err("its checksum does not match: the file is damaged (rebuild it)".into());
    }
    Ok(())
}

/// The header's facts, after checking the file whole.
fn check(map: &[u8], game: &str) -> Result<(usize, usize, bool, RetrogradeStats), String> {
    let (at, n, complete, stats) =
        read_header(map, MAGIC, FILE_VERSION, "a strong solution", game)?;
    let truncated = || "the file is truncated (rebuild it)".to_string();
    let keys_at = at.next_multiple_of(8);
    let n_bytes = n.checked_mul(10).and_then(|b| usize::try_from(b).ok());
    let want = n_bytes.and_then(|b| b.checked_add(keys_at + 4));
    match want {
        Some(w) if w == map.len() => {}
        Some(w) if w > map.len() => return Err(truncated()),
        _ => return Err("its length does not match its header (rebuild it)".into()),
    }
    let n = n as usize;
    checksum_matches(map)?;
    let key = |i: usize| {
        u64::from_le_bytes(
            map[keys_at + 8 * i..keys_at + 8 * i + 8]
                .try_into()
                .expect("8 bytes"),
        )
    };
    if (1..n).any(|i| key(i - 1) >= key(i)) {
        return Err("its keys are out of order (rebuild it)".into());
    }
    Ok((keys_at, n, complete, stats))
}
