//! What every target does with a game that parsed: a short search with each family, so that a
//! position read from text must be legal for the rules (a move that cannot be played, a value
//! out of range or a count that wraps shows up as a panic here).

use gamesearch::{search, Algorithm, Limits, PositionKey, SearchConfig, SolverKnowledge};

/// A few hundred nodes of alpha-beta, NegaScout, PN and the exact solver; every move played.
pub fn exercise<G: PositionKey + SolverKnowledge + Sync>(g: &G) {
    for m in g.moves().take(16) {
        let _ = g.play(m).evaluate();
    }
    let limits = Limits::none().with_max_nodes(300);
    let cfg = SearchConfig::new(4).with_limits(limits.clone());
    let a = search(g, Algorithm::AlphaBeta, &cfg);
    let b = search(g, Algorithm::NegaScout, &cfg);
    if a.complete && b.complete {
        assert_eq!(a.value, b.value, "alpha-beta and NegaScout disagree");
    }
    let _ = search(g, Algorithm::PnMulti, &cfg);
    let solve = gamesearch::SolveConfig {
        tt_bytes: 1 << 16,
        id_depth: 2,
        threads: 1,
        limits,
        ..gamesearch::SolveConfig::default()
    };
    let _ = gamesearch::solver::solve_alphabeta(g, &solve, |_| {});
}

/// Whether the spec would read the file system (a tree file): kept out of the fuzzer, which
/// must not open `/dev/zero` or wander the disk. The library's own rule decides.
#[allow(dead_code)] // not every target reads GAME specs
pub fn reads_files(s: &str) -> bool {
    gamesearch_games::GameSpec::tree_file(s).is_some()
}
