//! A learned evaluation's weights file: read back as weights or refused with an error, never a
//! panic. The input is read as it is, and again with its CRC-32 appended, so that the fuzzer
//! reaches past the checksum; weights read for 4x4 Othello's features are then used to evaluate
//! its start (any weights of the right shape are valid).
#![no_main]
use gamesearch::learn::{Features, Weights};
use gamesearch_games::othello::Othello;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    read(bytes);
    let mut sealed = bytes.to_vec();
    sealed.extend_from_slice(&crc32fast::hash(bytes).to_le_bytes());
    read(&sealed);
});

fn read(bytes: &[u8]) {
    let board = Othello::new(4).unwrap();
    if let Ok(w) = Weights::from_bytes(bytes, &board.feature_set(), "fuzz.gsw") {
        if w.check_shape(&board, "fuzz.gsw").is_ok() {
            let _ = w.value(&board);
            let _ = w.score(&board);
        }
        let _ = w.to_bytes();
    }
}
