//! Connect-Four: the benchmark positions of `../shared/data/connect4` solved with the exact
//! expected score (the easy sets here; the others with `gamesearch bench connect4`), weak mode,
//! and small boards.

use gamesearch::depth_first::solve::{solve, SolveConfig};
use gamesearch::experiments::connect4_bench::{parse, run, BenchReport};
use gamesearch::games::{Connect4, Weak};

fn set(name: &str) -> Vec<gamesearch::experiments::connect4_bench::BenchLine> {
    let path = format!(
        "{}/../shared/data/connect4/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (shared/ must sit beside the repository)"));
    let lines = parse(&text).unwrap();
    assert_eq!(lines.len(), 1000, "{name}");
    lines
}

/// Every one of the set's 1000 positions got its expected score.
fn assert_all_solved(r: &BenchReport) {
    assert_eq!(
        (r.positions, r.mismatches),
        (1000, 0),
        "mismatches at lines {:?}",
        r.mismatch_lines
    );
}

#[test]
fn end_game_set_l3_r1_exact() {
    let r = run(&set("Test_L3_R1"), false, 16 << 20, |_| {}).unwrap();
    assert_all_solved(&r);
}

#[test]
fn middle_game_easy_set_l2_r1_exact_and_weak() {
    let lines = set("Test_L2_R1");
    let r = run(&lines, false, 16 << 20, |_| {}).unwrap();
    assert_all_solved(&r);
    let w = run(&lines, true, 16 << 20, |_| {}).unwrap();
    assert_all_solved(&w);
    assert!(w.mean_nodes <= r.mean_nodes, "the weak solve proves less");
}

#[test]
fn beginning_easy_set_l1_r1_exact() {
    let r = run(&set("Test_L1_R1"), false, 32 << 20, |_| {}).unwrap();
    assert_all_solved(&r);
}

/// John Tromp's table of small boards: 4x4 and 5x4 (width x height) are draws.
#[test]
fn small_boards() {
    let cfg = SolveConfig {
        tt_bytes: 16 << 20,
        id_depth: 0,
        ..SolveConfig::default()
    };
    for (w, h) in [(4, 4), (5, 4)] {
        let s = solve(&Connect4::new(w, h).unwrap(), &cfg, |_| {}).unwrap();
        assert_eq!(s.value, Some(0), "{w}x{h}");
        let s = solve(&Weak::new(Connect4::new(w, h).unwrap()), &cfg, |_| {}).unwrap();
        assert_eq!(s.value, Some(0), "{w}x{h} weak");
    }
}

#[test]
fn malformed_bench_lines_are_errors() {
    assert!(parse("4453").is_err());
    assert!(parse("4453 x").is_err());
    assert!(parse("4453 1 2").is_err());
    let lines = parse("4444444 0").unwrap(); // column 4 overflows
    assert!(run(&lines, false, 1 << 20, |_| {}).is_err());
}
