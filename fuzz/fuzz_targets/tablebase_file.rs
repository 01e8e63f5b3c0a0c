//! A tablebase class file (Kalah with 2 pits, class 3: 20 positions): loads as the class or is
//! an error; a class loaded answers every probe of its positions and serves solves (its values
//! need not be true: the solve may answer anything, but must not panic or hang). The input is
//! read as it is, and again with its CRC-32 appended, so that the fuzzer reaches past the
//! checksum.
#![no_main]
use std::path::PathBuf;
use std::sync::OnceLock;

use gamesearch_games::Kalah;
use gamesearch::tablebase::{class_file, Probed, Tablebase, Tables};
use gamesearch::{Limits, SolveConfig};
use libfuzzer_sys::fuzz_target;

const CLASS: u32 = 3;

fuzz_target!(|bytes: &[u8]| {
    read(bytes);
    let mut sealed = bytes.to_vec();
    sealed.extend_from_slice(&crc32fast::hash(bytes).to_le_bytes());
    read(&sealed);
});

/// A directory of this process's own.
fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("gamesearch-fuzz-tb-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

fn read(bytes: &[u8]) {
    let rules = Kalah::new(2, 1).unwrap();
    std::fs::write(class_file(dir(), &rules.tablebase_rules(), CLASS), bytes).unwrap();
    let mut tables = Tables::new(&rules);
    if tables.load_class(dir(), CLASS).is_err() {
        assert!(!tables.has(CLASS), "a class refused is not kept");
        return;
    }
    let size = rules.class_size(CLASS).unwrap();
    for r in 0..size {
        assert!(tables.probe(&rules.unrank(CLASS, r)).is_some());
    }
    for r in [0, size / 2, size - 1] {
        let p = rules.unrank(CLASS, r);
        let cfg = SolveConfig {
            tt_bytes: 1 << 16,
            threads: 1,
            limits: Limits::none().with_max_nodes(300),
            ..SolveConfig::default()
        };
        let _ = gamesearch::solver::solve_alphabeta(&Probed::new(p, &tables), &cfg, |_| {});
    }
}
