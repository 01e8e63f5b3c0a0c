//! Othello suites in the obf text (`CELLS SIDE; MOVE:SCORE; …` per line): parse or are an
//! error; what parses names legal best moves and scores in the board's range.
#![no_main]
use gamesearch::Game;
use gamesearch_games::othello::suite;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    let Ok(lines) = suite::parse(s) else { return };
    for l in lines {
        for &m in &l.best_moves {
            assert!(l.position.moves().any(|x| x == m));
        }
        assert!(l.score.map_or(true, |v| v.abs() <= 64));
        assert_eq!(l.score.is_some(), !l.best_moves.is_empty());
    }
});
