//! Connect-Four: a board size from the first two bytes and a move string from the rest; what
//! parses is a legal position (the solver's and minimax's hooks agree on it within a budget).
#![no_main]
use gamesearch::games::Connect4;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (w, h) = (usize::from(data[0] % 70), usize::from(data[1] % 70));
    let Ok(board) = Connect4::new(w, h) else {
        return;
    };
    let Ok(moves) = std::str::from_utf8(&data[2..]) else {
        return;
    };
    let Ok(p) = board.play_moves(moves) else {
        return;
    };
    assert!(p.moves_played() <= w * h);
    // The same position through the GAME spec.
    let spec = format!("connect4:{w}x{h}:{}", moves.trim());
    if let Ok(gamesearch::GameSpec::Connect4(q)) = spec.parse::<gamesearch::GameSpec>() {
        assert_eq!(q, p);
    }
    common::exercise(&p);
});
