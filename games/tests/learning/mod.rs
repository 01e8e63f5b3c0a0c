//! What the learned-evaluation tests of every game share: a short learning whose fit must beat
//! the zero evaluation, and a learning that must never see the excluded positions.

use std::collections::HashSet;

use gamesearch::learn::{learn, Features, LearnConfig, Learned};
use gamesearch::{PositionKey, SolverKnowledge};

/// Learns from `start` briefly (2 × 1,500 games, seed 11, two threads) and checks that every
/// stage with at least 200 held-out positions fits them to under 0.8 times the zero
/// evaluation's error.
pub fn learn_briefly<G>(start: &G) -> Learned
where
    G: Features + PositionKey + SolverKnowledge + Send + Sync,
{
    let cfg = LearnConfig {
        games: 1500,
        rounds: 2,
        exact_stages: 3,
        search_depth: 2,
        threads: 2,
        seed: 11,
        ..LearnConfig::default()
    };
    let learned = learn(start, &cfg, &HashSet::new(), |_| {}).unwrap();
    assert!(learned.complete);
    for s in learned.stages.iter().filter(|s| s.held_out >= 200) {
        assert!(
            s.held_out_error < 0.8 * s.held_out_error_of_zero,
            "stage {}: held-out error {:.2}, the zero evaluation's {:.2}",
            s.stage,
            s.held_out_error,
            s.held_out_error_of_zero
        );
    }
    learned
}

/// Learns from `start` in `games` quick games (one round, `exact_stages` exact) with `exclude`
/// kept out, and checks that each game met an excluded position and none was learned from.
pub fn learn_excluding<G>(
    start: &G,
    games: usize,
    exact_stages: usize,
    exclude: &HashSet<u64>,
) -> Learned
where
    G: Features + PositionKey + SolverKnowledge + Send + Sync,
{
    let cfg = LearnConfig {
        games,
        rounds: 1,
        exact_stages,
        search_depth: 1,
        iterations: 2,
        ..LearnConfig::default()
    };
    let learned = learn(start, &cfg, exclude, |_| {}).unwrap();
    assert!(learned.excluded >= games, "{} excluded", learned.excluded);
    for k in exclude {
        assert!(learned.keys.binary_search(k).is_err());
    }
    learned
}
