//! GTP commands (`gamesearch gtp`, any text a client may send): every line is answered `= …` or
//! `? …`, the session ends at `quit` or the end of the input, and nothing panics.
#![no_main]
use gamesearch_cli::gtp;
use gamesearch_cli::play::{ContenderSettings, EngineSpec};
use gamesearch_games::Othello;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    // The match side as typed (`--b gtp:COMMAND` or engine settings) parses or is an error.
    let _ = s.parse::<ContenderSettings>();
    let engine: EngineSpec = "depth=1,tt=1".parse().unwrap();
    let mut out = Vec::new();
    gtp::serve(&Othello::new(4).unwrap(), &engine, s.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    for answer in out.split("\n\n").filter(|a| !a.is_empty()) {
        assert!(answer.starts_with('=') || answer.starts_with('?'), "{answer:?}");
    }
});
