//! A match's openings file (`play --match N --openings FILE`): read or an error naming the line;
//! every opening read is its moves played from the start, and leaves a game to play.
#![no_main]
use gamesearch::{Game, PositionKey};
use gamesearch_cli::play::{read_openings, Board};
use gamesearch_games::{Connect4, Othello};
use libfuzzer_sys::fuzz_target;

fn check<G: Board>(start: &G, s: &str) {
    let Ok(openings) = read_openings(start, s) else {
        return;
    };
    assert!(!openings.is_empty());
    for (p, moves) in openings {
        let mut q = start.clone();
        for m in moves {
            q = q.play(m);
        }
        assert_eq!(q.key(), p.key());
        assert!(p.moves().next().is_some());
    }
}

fuzz_target!(|s: &str| {
    check(&Connect4::new(7, 6).unwrap(), s);
    check(&Othello::new(8).unwrap(), s);
});
