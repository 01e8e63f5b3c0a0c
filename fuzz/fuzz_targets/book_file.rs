//! An opening book file: reads as a book or is an error; a book read writes back to the same
//! bytes, answers lookups, and is seeded into a solve (its entries need not be true for the
//! position: the solve may answer anything, but must not panic or hang). The input is read as
//! it is, and again with its CRC-32 appended, so that the fuzzer reaches past the checksum.
#![no_main]
use std::sync::Arc;

use gamesearch_games::Connect4;
use gamesearch::solver::book::Book;
use gamesearch::{Game, Limits, SolveConfig};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    read(bytes);
    let mut sealed = bytes.to_vec();
    sealed.extend_from_slice(&crc32fast::hash(bytes).to_le_bytes());
    read(&sealed);
});

fn read(bytes: &[u8]) {
    let Ok(book) = Book::from_bytes(bytes) else { return };
    assert_eq!(book.to_bytes(), bytes, "a book read writes back as it was");
    let book = Arc::new(book);
    let root = Connect4::new(4, 4).unwrap();
    for p in [root.clone(), root.play(1), root.play(1).play(2)] {
        let _ = book.lookup(&p);
        let cfg = SolveConfig {
            tt_bytes: 1 << 16,
            id_depth: 2,
            threads: 1,
            limits: Limits::none().with_max_nodes(300),
            book: Some(Arc::clone(&book)),
            ..SolveConfig::default()
        };
        let _ = gamesearch::solver::solve_alphabeta(&p, &cfg, |_| {});
    }
}
