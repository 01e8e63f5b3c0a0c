//! Tic-tac-toe positions from text: parse or error, and search what parses.
#![no_main]
use gamesearch_games::TicTacToe;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    let Ok(p) = s.parse::<TicTacToe>() else {
        return;
    };
    common::exercise(&p);
});
