//! Othello's learned evaluation: the shipped weights load, no position of a test suite is ever
//! learned from, and a short learning on 6x6 gives weights that beat the zero evaluation (its
//! fit's held-out error below the zero evaluation's, and its one-ply player against a random
//! one).

mod learning;

use std::collections::HashSet;

use gamesearch::learn::{Features, Weights};
use gamesearch::{Game, PositionKey};
use gamesearch_games::othello::suite::{test_suite_positions, TEST_SUITES};
use gamesearch_games::othello::{shipped_weights, Othello};

#[test]
fn the_shipped_weights_are_their_boards_and_load() {
    for (n, other) in [(8, 6), (6, 8)] {
        let start = Othello::new(n).unwrap();
        let w = shipped_weights(n as u8).expect("8x8 and 6x6 ship weights");
        assert_eq!(w.shape(), (start.stages(), start.weights_per_stage()));
        let bytes = w.to_bytes();
        assert!(bytes.len() < 16 << 20, "the file stays under 16 MB");
        // A weights file for another board is refused by name.
        let foreign = Othello::new(other).unwrap().feature_set();
        let e = Weights::from_bytes(&bytes, &foreign, "w").unwrap_err();
        assert!(e.to_string().contains(&start.feature_set()), "{e}");
    }
    assert!(shipped_weights(4).is_none());
}

#[test]
fn no_test_suite_position_is_among_the_training_positions() {
    let start = Othello::new(8).unwrap();
    let suite: Vec<u64> = test_suite_positions().iter().map(|p| p.key()).collect();
    assert_eq!(suite.len(), 20, "{} suites", TEST_SUITES.len());
    // With the four positions after Black's first move: every game reaches one, so the
    // exclusion is seen to work.
    let first: Vec<u64> = start.moves().map(|m| start.play(m).key()).collect();
    let exclude: HashSet<u64> = suite.iter().chain(&first).copied().collect();
    let learned = learning::learn_excluding(&start, 40, 0, &exclude);
    assert!(learned.positions > 1000);
}

/// The margin for `learner` playing Black (or White) against uniformly random moves, one ply
/// ahead by the weights.
fn play_out(w: &Weights, learner_black: bool, seed: u64) -> i32 {
    let mut p = Othello::new(6).unwrap();
    let mut rng = seed;
    loop {
        let moves: Vec<u8> = p.moves().collect();
        if moves.is_empty() {
            return p.final_margin() * if learner_black { 1 } else { -1 };
        }
        let learner = p.black_to_move() == learner_black;
        let mv = if learner {
            *moves
                .iter()
                .max_by_key(|&&m| {
                    let c = p.play(m);
                    let v = if c.moves().next().is_none() {
                        c.final_margin() * 4096 * if p.black_to_move() { 1 } else { -1 }
                    } else {
                        -w.value(&c)
                    };
                    (v, m)
                })
                .unwrap()
        } else {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            moves[((rng >> 33) as usize) % moves.len()]
        };
        p = p.play(mv);
    }
}

#[test]
fn a_short_learning_on_6x6_beats_the_zero_evaluation() {
    let start = Othello::new(6).unwrap();
    let learned = learning::learn_briefly(&start);
    // One ply ahead by the weights against random moves (the zero evaluation's one-ply player),
    // 100 games, colours alternated.
    let won = (0..100u64)
        .filter(|&g| play_out(&learned.weights, g % 2 == 0, g) > 0)
        .count();
    eprintln!("the learned one-ply player won {won} of 100 against random moves");
    assert!(won >= 75, "won {won} of 100");
}
