//! The command line's engine settings (`--engine`, `--a`, `--b`: `time=…,depth=…,driver=…,tt=…`):
//! parse or error; what parses describes itself in words and builds an engine (a table too large
//! for the machine is an error, not an abort).
#![no_main]
use gamesearch_games::TicTacToe;
use gamesearch_cli::play::{EngineSettings, EngineSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    let Ok(e) = s.parse::<EngineSettings>() else {
        return;
    };
    let spec = e.over(EngineSpec::default());
    assert!(!spec.to_string().is_empty());
    if spec.tt_mb <= 16 {
        let _ = spec.build::<TicTacToe>();
    }
});
