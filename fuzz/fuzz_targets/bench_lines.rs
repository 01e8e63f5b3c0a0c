//! Benchmark files (`<moves> <score>` lines): parse or error; the first lines that parse are
//! solved within a node budget (an illegal move is an error, never a panic).
#![no_main]
use gamesearch::Limits;
use gamesearch_games::benchmark;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    let Ok(mut lines) = benchmark::parse(s) else {
        return;
    };
    lines.truncate(4);
    let limits = Limits::none().with_max_nodes(500);
    let _ = benchmark::run(&lines, false, 1 << 16, &limits, |_| {});
    let _ = benchmark::run(&lines, true, 1 << 16, &limits, |_| {});
});
