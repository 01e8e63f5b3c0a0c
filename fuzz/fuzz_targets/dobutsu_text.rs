//! Dōbutsu shōgi's text (`dobutsu`, `dobutsu:MOVES`, `dobutsu:board=RANKS/SIDE[/HANDS]`): parses
//! or is an error, prints back to the board form that parses to the same position, each move's
//! name reads back as the move, the key reads back, every un-move leads back, and the position
//! is searched.
#![no_main]
use gamesearch::retrograde::UnMoves;
use gamesearch::{Game, PositionKey};
use gamesearch_games::Dobutsu;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    if s.len() > 4096 {
        return;
    }
    let Ok(p) = s.parse::<Dobutsu>() else { return };
    let again: Dobutsu = format!("dobutsu:board={p}").parse().expect("the board form parses");
    assert_eq!(again, p);
    for m in p.moves() {
        assert_eq!(p.parse_move(&p.move_name(m)), Ok(m));
    }
    assert_eq!(p.position_of(p.key()).map(|q| q.key()), Some(p.key()));
    p.unmoves(|u| {
        if u.moves().next().is_some() {
            assert!(u.moves().any(|m| u.play(m).key() == p.key()), "{u} does not lead to {p}");
        }
    });
    common::exercise(&p);
});
