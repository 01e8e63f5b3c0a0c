//! What the u128 bitboards cost on boards that fit in 64 bits: the same positions solved as
//! `Connect4` (u64) and as `Connect4<u128>`, alternately, several rounds; the nodes must be the
//! same (the solver sees the same positions and keys), the times are compared by their medians.
//!
//! ```text
//! cargo run --release --example bitboard_cost -- [ROUNDS] [POSITIONS]
//! ```
//!
//! Positions: the first POSITIONS lines of Pons' Test_L2_R1 (7x6, 10-16 plies in, solved to
//! the exact score), then the empty 6x5 and 7x4 boards. One 64 MiB table kept across the
//! positions (as `gamesearch bench connect4` keeps it), one thread.

use std::time::Instant;

use gamesearch::{ExactSolver, Game, SolveConfig};
use gamesearch_games::{Bitboard, Connect4};

fn solve_all<B: Bitboard>(positions: &[(usize, usize, Vec<u8>)], cfg: &SolveConfig) -> (f64, u64) {
    let mut solver = ExactSolver::<Connect4<B>>::new(cfg).expect("a 64 MiB table");
    let start = Instant::now();
    let mut nodes = 0;
    for (w, h, line) in positions {
        let p = line
            .iter()
            .fold(Connect4::<B>::sized(*w, *h).unwrap(), |p, &c| p.play(c));
        let s = solver.solve(&p, cfg, |_| {}).unwrap();
        nodes += s.stats.nodes();
    }
    (start.elapsed().as_secs_f64(), nodes)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(5, |a| a.parse().expect("ROUNDS"));
    let count: usize = args.next().map_or(200, |a| a.parse().expect("POSITIONS"));
    let text = include_str!("../../tests/data/connect4/Test_L2_R1");
    let mut positions: Vec<(usize, usize, Vec<u8>)> = text
        .lines()
        .take(count)
        .map(|l| {
            let moves = l.split_whitespace().next().unwrap();
            (7, 6, moves.bytes().map(|b| b - b'1').collect())
        })
        .collect();
    positions.push((6, 5, Vec::new()));
    positions.push((7, 4, Vec::new()));
    let cfg = SolveConfig {
        tt_bytes: 64 << 20,
        id_depth: 0,
        threads: 1,
        ..SolveConfig::default()
    };
    println!(
        "{} positions (Test_L2_R1's first {count}, empty 6x5 and 7x4), {rounds} rounds, u64 and u128 alternately",
        positions.len()
    );
    let (mut narrow, mut wide) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let (t64, n64) = solve_all::<u64>(&positions, &cfg);
        let (t128, n128) = solve_all::<u128>(&positions, &cfg);
        assert_eq!(n64, n128, "the same positions, the same nodes");
        println!(
            "round {}: u64 {t64:.2} s, u128 {t128:.2} s, {n64} nodes each",
            round + 1
        );
        narrow.push(t64);
        wide.push(t128);
    }
    let (a, b) = (median(narrow), median(wide));
    println!(
        "median: u64 {a:.2} s, u128 {b:.2} s: u128 / u64 = {:.2}",
        b / a
    );
}
