//! What the graph-history rule of df-pn (`DfpnConfig::history_safe`) prevents and what it
//! costs: positions of a Dōbutsu shōgi endgame, met on seeded random games, solved by df-pn
//! with the rule and without it (a result a repetition decided stored like any other), each
//! checked against the strong solution (retrograde analysis), tables small enough to be
//! overwritten. Prints the seed, the wrong answers and the nodes of each.
//!
//! ```text
//! cargo run --release -p gamesearch-games --example ghi -- [SEED] [GAMES] [TABLE_KIB]
//! ```
//!
//! Defaults: seed 75, 1,000 games of up to 40 plies from `.l./.c./.C./.L./s` (lions and
//! chicks, 28,891 positions), a 64 KiB table; every distinct position met is solved.

use std::collections::HashSet;
use std::time::Instant;

use gamesearch::proof_number::dfpn::{Dfpn, DfpnConfig};
use gamesearch::retrograde::{solve_by_unmoves, RetrogradeConfig};
use gamesearch::{Game, PositionKey};
use gamesearch_games::Dobutsu;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (seed, games, kib) = (arg(1, 75), arg(2, 1000), arg(3, 64));
    println!("seed {seed}, {games} games, a {kib} KiB table");
    let root: Dobutsu = "dobutsu:board=.l./.c./.C./.L./s".parse().unwrap();
    let strong = solve_by_unmoves(&root, &RetrogradeConfig::default()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut p = root;
        for _ in 0..40 {
            if seen.insert(p.key()) {
                positions.push(p);
            }
            let moves: Vec<_> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
    for history_safe in [true, false] {
        let cfg = DfpnConfig {
            tt_bytes: (kib as usize) << 10,
            history_safe,
            ..DfpnConfig::default()
        };
        let (mut wrong, mut unknown, mut nodes) = (0, 0, 0);
        let start = Instant::now();
        for p in &positions {
            // A fresh searcher a position: nothing carried from one to the next.
            let mut d = Dfpn::new(&cfg).unwrap();
            let r = d.value(p);
            nodes += d.stats().nodes();
            match r.value {
                None => unknown += 1,
                Some(v) if v != strong.probe(p).unwrap().value => wrong += 1,
                Some(_) => {}
            }
        }
        println!(
            "history_safe {history_safe}: {} positions, {wrong} wrong, {unknown} unsolved, {nodes} nodes, {:.2} s",
            positions.len(),
            start.elapsed().as_secs_f64()
        );
    }
}
