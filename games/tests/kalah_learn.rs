//! Kalah's learned evaluation: the shipped weights load, the features see the position from the
//! side to move (a position and its mirror image value alike), the starts the tests check are
//! never learned from, and a short learning gives weights that beat the zero evaluation (its
//! fit's held-out error, and a one-ply player against random moves).

mod learning;

use std::collections::HashSet;

use gamesearch::learn::{Features, Weights};
use gamesearch::{Game, Player, PositionKey};
use gamesearch_games::kalah::{shipped_weights, test_suite_positions};
use gamesearch_games::{Kalah, Rule};

/// A small generator for the tests' random moves.
fn next(rng: &mut u64) -> u64 {
    *rng = rng
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *rng >> 33
}

#[test]
fn the_shipped_weights_are_kalah_6s_and_load() {
    let start = Kalah::new(6, 4).unwrap();
    let w = shipped_weights(6, Rule::EmptyCapture).expect("six pits ship weights");
    assert_eq!(w.shape(), (start.stages(), start.weights_per_stage()));
    assert!(w.to_bytes().len() < 1 << 20);
    // Not for five pits, nor for the standard rule.
    for other in [Kalah::new(5, 4).unwrap(), start.with_rule(Rule::Standard)] {
        let e = Weights::from_bytes(&w.to_bytes(), &other.feature_set(), "w").unwrap_err();
        assert!(e.to_string().contains("kalah-6-pits-1"), "{e}");
    }
}

/// The text form with South and North swapped: the same position seen from the other side.
fn mirror(p: &Kalah) -> Kalah {
    let (s, n) = p.stores();
    let list = |pits: &[u8]| {
        pits.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mover = if p.to_move() == Player::Max { "N" } else { "S" };
    format!("{}/{}/{n},{s}/{mover}", list(p.north()), list(p.south()))
        .parse()
        .unwrap()
}

#[test]
fn a_position_and_its_mirror_image_have_one_value_and_the_stage_never_rises() {
    let w = shipped_weights(6, Rule::EmptyCapture).unwrap();
    let mut rng = 5;
    for game in 0..300 {
        let mut p = Kalah::new(6, 1 + game % 6).unwrap();
        while p.moves().next().is_some() {
            let m = mirror(&p);
            assert_eq!(w.value(&p), w.value(&m), "{p} and {m}");
            assert_eq!(p.stage(), m.stage());
            let mut seen = 0;
            p.features(&mut |i| {
                assert!((i as usize) < p.weights_per_stage());
                seen += 1;
            });
            // Three a pit (its seeds, the other side's pit, the pair), the constant, the bits.
            assert!(seen > 3 * 6, "{p}: {seen} features");
            let moves: Vec<u8> = p.moves().collect();
            let q = p.play(moves[next(&mut rng) as usize % moves.len()]);
            assert!(q.stage() <= p.stage(), "{p} to {q}");
            p = q;
        }
    }
}

#[test]
fn the_starts_the_tests_check_are_never_learned_from() {
    let start = Kalah::new(6, 3).unwrap();
    let suite = test_suite_positions(6, Rule::EmptyCapture);
    assert_eq!(suite.len(), 6);
    assert!(suite.contains(&start), "Kalah(6,3)'s start is among them");
    let exclude: HashSet<u64> = suite.iter().map(|p| p.key()).collect();
    let learned = learning::learn_excluding(&start, 30, 1, &exclude);
    assert!(learned.positions > 300);
}

/// The margin (seeds) for `learner` moving first or second against random moves, choosing one
/// move ahead by the weights (a move that keeps the turn is valued from the mover's view).
fn play_out(w: &Weights, learner_first: bool, seed: u64) -> i32 {
    let mut p = Kalah::new(6, 3).unwrap();
    let mut rng = seed;
    let learner = if learner_first {
        Player::Max
    } else {
        Player::Min
    };
    while p.moves().next().is_some() {
        let moves: Vec<u8> = p.moves().collect();
        let mv = if p.to_move() == learner {
            *moves
                .iter()
                .max_by_key(|&&m| {
                    let c = p.play(m);
                    let v = if c.moves().next().is_none() {
                        c.evaluate() * p.to_move().sign() * 4096
                    } else if c.to_move() == p.to_move() {
                        w.value(&c)
                    } else {
                        -w.value(&c)
                    };
                    (v, m)
                })
                .unwrap()
        } else {
            moves[next(&mut rng) as usize % moves.len()]
        };
        p = p.play(mv);
    }
    p.evaluate() * learner.sign()
}

#[test]
fn a_short_learning_beats_the_zero_evaluation() {
    let start = Kalah::new(6, 3).unwrap();
    let learned = learning::learn_briefly(&start);
    // One ply ahead against random moves, 200 games, turns alternated: the learned weights
    // against the zero evaluation's (which takes the last pit with seeds, nearest the store).
    let margin = |w: &Weights| -> i32 { (0..200u64).map(|g| play_out(w, g % 2 == 0, g)).sum() };
    let (ours, zero) = (margin(&learned.weights), margin(&Weights::zero(&start)));
    eprintln!("one-ply players against random moves, total margin over 200 games: learned {ours}, zero {zero}");
    assert!(ours > zero + 400, "learned {ours}, zero {zero}");
}
