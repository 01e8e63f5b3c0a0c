//! Hex's text (`NxN[:swap]`, then `:MOVES` or `:board=CELLS/SIDE`): parses or is an error,
//! prints back to the board form that parses to the same position, each move's name reads
//! back as the move, the knowledge's bounds are ±1, and the position is searched.
#![no_main]
use gamesearch::{Game, SolverKnowledge};
use gamesearch_games::Hex;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    if s.len() > 4096 {
        return;
    }
    let Ok(p) = s.parse::<Hex>() else { return };
    let again: Hex = p.notation().parse().expect("the board form parses");
    assert_eq!(again, p);
    for m in p.moves() {
        assert_eq!(p.parse_move(&p.move_name(m)), Ok(m));
    }
    if let Some((lo, hi)) = p.quiet_bounds() {
        assert!(-1 <= lo && lo <= hi && hi <= 1);
    }
    // (A short search on boards up to 5x5: past them each node's connection search, under the
    // sanitizer, made the target run at 40 inputs a second instead of thousands.)
    if p.size() <= SEARCHED_UP_TO {
        common::exercise(&p);
    }
});

/// The largest board searched (the text and the knowledge of every size are checked).
const SEARCHED_UP_TO: usize = 5;
