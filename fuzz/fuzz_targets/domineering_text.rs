//! Domineering's text (`MxN[:v|:h]`, then `:MOVES` or `:board=CELLS/SIDE`): parses or is an
//! error, prints back to the board form that parses to the same position, each move's name
//! reads back as the move, the counted bounds are ±1, and the position is searched.
#![no_main]
use gamesearch::Game;
use gamesearch_games::Domineering;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    if s.len() > 4096 {
        return;
    }
    let Ok(p) = s.parse::<Domineering>() else { return };
    let again: Domineering = p.notation().parse().expect("the board form parses");
    assert_eq!(again, p);
    for m in p.moves() {
        assert_eq!(p.parse_move(&p.move_name(m)), Ok(m));
    }
    if let Some(v) = p.counted_value() {
        assert!(v == 1 || v == -1);
    }
    common::exercise(&p);
});
