//! Othello's text (`NxN`, `NxN:MOVES`, `NxN:board=CELLS/SIDE`): parses or is an error, prints
//! back to the board form that parses to the same position, and is searched.
#![no_main]
use gamesearch_games::Othello;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    let Ok(p) = s.parse::<Othello>() else { return };
    let again: Othello = p.notation().parse().expect("the board form parses");
    assert_eq!(again, p);
    common::exercise(&p);
});
