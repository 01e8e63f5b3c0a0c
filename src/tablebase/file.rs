//! A class's table as a file, one per class, memory-mapped when read.
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `GSTB\0\0\0` and the format version ([`FILE_VERSION`]) |
//! | 2 + n | the rules' length, then the rules (`kalah:6`) |
//! | 4 | the class |
//! | 8 | the number of positions |
//! | 1 each | the positions' relative values (`i8`), by rank |
//! | 4 | CRC-32 of everything before it |
//!
//! A file is checked whole when it is loaded (its checksum, its header against the rules and
//! class asked for, its length against the class's size, no position left without a value): a
//! damaged one is refused, never read as values.

use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::{Tablebase, Tables, Values};
use crate::error::Error;

const MAGIC: &[u8; 7] = b"GSTB\0\0\0";
/// The version of the file format this library writes and reads.
pub const FILE_VERSION: u8 = 1;

/// The file of `class` for `rules` in `dir`: `kalah-6.c20.gstb`.
pub fn class_file(dir: &Path, rules: &str, class: u32) -> PathBuf {
    let name: String = rules
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    dir.join(format!("{name}.c{class}.gstb"))
}

/// A class read from its file: the mapping and where its values lie in it.
#[derive(Debug)]
pub(super) struct MappedClass {
    map: Mmap,
    start: usize,
    len: usize,
}

impl MappedClass {
    pub(super) fn values(&self) -> &[u8] {
        &self.map[self.start..self.start + self.len]
    }
}

fn bad(path: &Path, message: impl Into<String>) -> Error {
    Error::TablebaseFile {
        path: path.display().to_string(),
        message: message.into(),
    }
}

impl<G: Tablebase + Sync> Tables<G> {
    /// Writes `class` (built or loaded) to its file in `dir`, whole or not at all (to a file
    /// beside it, then renamed).
    pub fn write_class(&self, dir: &Path, class: u32) -> Result<PathBuf, Error> {
        let values = self
            .classes
            .get(class as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| Error::BadParameter(format!("class {class} is not built")))?;
        let path = class_file(dir, &self.rules, class);
        let mut out = Vec::with_capacity(32 + self.rules.len() + values.bytes().len());
        out.extend_from_slice(MAGIC);
        out.push(FILE_VERSION);
        out.extend_from_slice(&(self.rules.len() as u16).to_le_bytes());
        out.extend_from_slice(self.rules.as_bytes());
        out.extend_from_slice(&class.to_le_bytes());
        out.extend_from_slice(&(values.bytes().len() as u64).to_le_bytes());
        out.extend_from_slice(values.bytes());
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let io = |e: std::io::Error| bad(&path, e.to_string());
        std::fs::create_dir_all(dir).map_err(io)?;
        std::fs::write(&partial, out).map_err(io)?;
        std::fs::rename(&partial, &path).map_err(io)?;
        Ok(path)
    }

    /// Reads `class` from its file in `dir` (memory-mapped, checked whole) and keeps it.
    pub fn load_class(&mut self, dir: &Path, class: u32) -> Result<(), Error> {
        let path = class_file(dir, &self.rules, class);
        let f = std::fs::File::open(&path).map_err(|e| bad(&path, e.to_string()))?;
        // SAFETY: the file is only read; a file changed under the mapping while in use is the
        // one way to break it, as with any mapped file (the checksum is verified on load).
        let map = unsafe { Mmap::map(&f) }.map_err(|e| bad(&path, e.to_string()))?;
        let size = self.class_size(class)?;
        let start = check(&map, &self.rules, class, size).map_err(|m| bad(&path, m))?;
        self.insert(
            class,
            Values::Mapped(MappedClass {
                map,
                start,
                len: size as usize,
            }),
        );
        Ok(())
    }

    /// Loads every class of these rules found in `dir` from 0 up, stopping at the first
    /// missing one (a class needs those below it only to be built, but a solve reads any).
    /// Returns the classes loaded.
    pub fn load_dir(&mut self, dir: &Path) -> Result<Vec<u32>, Error> {
        let mut loaded = Vec::new();
        for class in 0.. {
            if !class_file(dir, &self.rules, class).exists() {
                break;
            }
            self.load_class(dir, class)?;
            loaded.push(class);
        }
        Ok(loaded)
    }
}

/// Checks a class file's bytes: returns where its values start, or what is wrong.
fn check(bytes: &[u8], rules: &str, class: u32, size: u64) -> Result<usize, String> {
    if bytes.len() < 8 || &bytes[..7] != MAGIC {
        return Err("not a gamesearch tablebase file (it does not start with GSTB)".into());
    }
    if bytes[7] != FILE_VERSION {
        return Err(format!(
            "tablebase format version {} (this gamesearch reads version {FILE_VERSION})",
            bytes[7]
        ));
    }
    if bytes.len() < 8 + 2 + 4 + 8 + 4 {
        return Err("the file ends early".into());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
    if crc32fast::hash(body) != stored {
        return Err("its checksum does not match: the file is damaged or truncated".into());
    }
    let n = u16::from_le_bytes([body[8], body[9]]) as usize;
    let text = body.get(10..10 + n).ok_or("the file ends early")?;
    if text != rules.as_bytes() {
        return Err(format!(
            "it is a table of {}, not of {rules}",
            String::from_utf8_lossy(text)
        ));
    }
    let at = 10 + n;
    let head = body.get(at..at + 12).ok_or("the file ends early")?;
    let c = u32::from_le_bytes(head[..4].try_into().expect("4 bytes"));
    let count = u64::from_le_bytes(head[4..].try_into().expect("8 bytes"));
    if c != class {
        return Err(format!("it holds class {c}, not class {class}"));
    }
    if count != size || (body.len() - at - 12) as u64 != size {
        return Err(format!(
            "class {class} has {size} positions; the file says {count} and holds {}",
            body.len() - at - 12
        ));
    }
    let values = &body[at + 12..];
    if let Some(r) = values.iter().position(|&v| v as i8 == super::UNKNOWN) {
        return Err(format!(
            "position {r} of class {class} has no value (the byte that marks one not built yet)"
        ));
    }
    Ok(at + 12)
}
