//! Connect-Four: a board size from the first two bytes (u64 or u128 bitboards) and a move string
//! from the rest; what parses is a legal position (the solver's and minimax's hooks agree on it within a budget).
#![no_main]
use gamesearch_games::{Bitboard, Connect4};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (w, h) = (usize::from(data[0] % 70), usize::from(data[1] % 70));
    let Ok(moves) = std::str::from_utf8(&data[2..]) else {
        return;
    };
    // u64 bitboards where the board fits, u128 past them (as the GAME spec chooses).
    if let Ok(board) = Connect4::new(w, h) {
        check(&board, w, h, moves, |s| match s {
            gamesearch_games::GameSpec::Connect4(q) => Some(q),
            _ => None,
        });
    } else if let Ok(board) = Connect4::<u128>::sized(w, h) {
        check(&board, w, h, moves, |s| match s {
            gamesearch_games::GameSpec::Connect4Wide(q) => Some(q),
            _ => None,
        });
    }
});

fn check<B: Bitboard>(
    board: &Connect4<B>,
    w: usize,
    h: usize,
    moves: &str,
    same: impl Fn(gamesearch_games::GameSpec) -> Option<Connect4<B>>,
) {
    let Ok(p) = board.play_moves(moves) else {
        return;
    };
    assert!(p.moves_played() <= w * h);
    // The same position through the GAME spec, and its text written back.
    let spec = format!("connect4:{w}x{h}:{}", moves.trim());
    if let Ok(q) = spec.parse::<gamesearch_games::GameSpec>() {
        assert_eq!(same(q), Some(p));
    }
    common::exercise(&p);
}
