//! The `GAME` argument: any text either parses or is an error, and a game that parses survives
//! a short search.
#![no_main]
use gamesearch_games::GameSpec;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    if s.len() > 4096 || common::reads_files(s) {
        return;
    }
    let Ok(spec) = s.parse::<GameSpec>() else {
        return;
    };
    let _ = spec.max_nodes(6);
    let _ = spec.max_plies();
    match &spec {
        GameSpec::Random(r) => {
            // Big trees are fine to describe, not to build in a fuzzer.
            if r.b <= 8 && r.h <= 8 {
                if let Ok(root) = r.root() {
                    common::exercise(&root);
                }
            }
        }
        GameSpec::Tree(t) => common::exercise(&t.root()),
        GameSpec::Kalah(k) => common::exercise(k),
        GameSpec::TicTacToe(p) => common::exercise(p),
        GameSpec::Connect4(p) => common::exercise(p),
        GameSpec::Connect4Wide(p) => common::exercise(p),
        GameSpec::Othello(p) => common::exercise(p),
        GameSpec::Domineering(p) => common::exercise(p),
        // (Boards up to 5x5 only, as in the Hex target: past them the search is slow under the
        // sanitizer.)
        GameSpec::Hex(p) if p.size() <= 5 => common::exercise(p),
        GameSpec::Hex(_) => {}
        GameSpec::Dobutsu(p) => common::exercise(p),
    }
});
