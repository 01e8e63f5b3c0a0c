//! Proof-number search: binary PN against minimax for many thresholds on generated trees (with
//! checked proof and disproof trees), Cater's AND/OR example, budgets, and solved games.
//! (Multi-valued PN against minimax on 20,000 trees is part of `tests/oracle.rs`, where
//! `pn-multi` is one of `Algorithm::ALL`.)

use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::proof_number::{
    check_proof, pn_search, pn_search_tree, pn_value, Answer, Initial, PnConfig, PnTree, INFINITE,
};
use gamesearch::solver::{solve_alphabeta, SolveConfig};
use gamesearch::trees::{ExplicitTree, RandomTreeSpec, Turns, Values};
use gamesearch::{Game, Limits};
use gamesearch_games::{Connect4, Kalah, TicTacToe};
use proptest::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::explicit_tree;

/// PN(v) for thresholds around the value: the answer is right and its proof checks.
fn check_thresholds<G: Game>(
    g: &G,
    depth: u32,
    extra: i32,
    initial: Initial,
) -> Result<(), TestCaseError> {
    let v = search(g, DepthFirst::Minimax, depth, &Limits::none())
        .value
        .unwrap();
    let mut cfg = PnConfig::new(depth);
    cfg.initial = initial;
    for t in [v - 1, v, v + 1, v.saturating_add(extra)] {
        let (r, tree) = pn_search_tree(g, t, &cfg);
        let expected = if v >= t {
            Answer::Proven
        } else {
            Answer::Disproven
        };
        prop_assert_eq!(r.answer, expected, "threshold {} value {}", t, v);
        let proof = tree.proof_tree().expect("solved");
        let checked = check_proof(g, &proof, t, depth, expected == Answer::Proven);
        prop_assert!(checked.is_ok(), "{:?}", checked);
        // Solved numbers are exactly (0, inf) or (inf, 0).
        prop_assert!(matches!(
            (r.proof, r.disproof),
            (0, INFINITE) | (INFINITE, 0)
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn pn_answers_thresholds_on_random_trees(
        b in 1u32..=4, h in 0u32..=6, seed in any::<u64>(), discrete in any::<bool>(),
        random_turns in any::<bool>(), extra in -3i32..=3, mobility in any::<bool>(),
    ) {
        let spec = RandomTreeSpec {
            values: if discrete { Values::Discrete(4) } else { Values::Continuous },
            turns: if random_turns { Turns::Random } else { Turns::Alternate },
            ..RandomTreeSpec::new(b, h, seed)
        };
        let init = if mobility { Initial::Mobility } else { Initial::Unit };
        check_thresholds(&spec.root().unwrap(), h, extra, init)?;
    }

    #[test]
    fn pn_answers_thresholds_on_explicit_trees(text in explicit_tree(5), extra in -3i32..=3) {
        let tree = ExplicitTree::parse(&text).unwrap();
        check_thresholds(&tree.root(), tree.height(), extra, Initial::Unit)?;
        check_thresholds(&tree.root(), tree.height() / 2, extra, Initial::Mobility)?;
    }
}

/// Cater, *CN and PN search*, "And/Or Tree - Simple Case" (the figure is not in the slides' text; this tree has the
/// listed nodes and values): A(or) T, B(and) T, C(and) ?, D T, E(or) T, F T, G(or) ?, H(and) F,
/// I T, J F, K ? (unexpanded). True is f = 1, false f = 0, threshold v = 1.
#[test]
fn seed_and_or_example_numbers() {
    let text = "(A max (B min D=1 (E max (H min J=0) I=1)) (C min F=1 (G max (K max 0 1))))";
    let t = ExplicitTree::parse(text).unwrap();
    let root = t.root();
    let mut cfg = PnConfig::new(10);
    cfg.initial = Initial::Unit;
    let mut tree = PnTree::new(&root, &cfg);
    tree.set_threshold(1);
    assert_eq!(tree.root_numbers(), (1, 1), "an unexpanded root is 1/1");
    // Expand everything but K: A, B, E, H, C, G.
    for path in [&[][..], &[0], &[0, 1], &[0, 1, 0], &[1], &[1, 1]] {
        assert!(tree.expand_at(path), "{path:?}");
    }
    let inf = INFINITE;
    let expect: [(&[u32], (u32, u32)); 11] = [
        (&[], (0, inf)),           // A (or): min P, sum D
        (&[0], (0, inf)),          // B (and): sum P, min D
        (&[0, 0], (0, inf)),       // D true
        (&[0, 1], (0, inf)),       // E (or)
        (&[0, 1, 0], (inf, 0)),    // H (and) false
        (&[0, 1, 0, 0], (inf, 0)), // J false
        (&[0, 1, 1], (0, inf)),    // I true
        (&[1], (1, 1)),            // C (and): P = 0 + 1, D = min(inf, 1)
        (&[1, 0], (0, inf)),       // F true
        (&[1, 1], (1, 1)),         // G (or) over K
        (&[1, 1, 0], (1, 1)),      // K unknown
    ];
    for (path, numbers) in expect {
        assert_eq!(tree.numbers_at(path), Some(numbers), "{path:?}");
    }
    // Binary search would stop here (A is proven); the full search agrees.
    assert_eq!(pn_search(&root, 1, &cfg).answer, Answer::Proven);
}

/// Proof numbers count leaves: the conspiracy example at every threshold.
#[test]
fn proof_numbers_of_the_conspiracy_example() {
    let t = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
    let cfg = PnConfig::new(2);
    let mut tree = PnTree::new(&t.root(), &cfg);
    assert!(tree.expand_at(&[]));
    tree.set_threshold(5);
    // Two unexpanded children, 1/1 each: proof_5(A) = min(1, 1) = 1, disproof_5(A) = 1 + 1 = 2.
    assert_eq!(tree.root_numbers(), (1, 2));
    assert!(tree.expand_at(&[0]) && tree.expand_at(&[1]));
    // B: D=7 >= 5 proven, E=4 disproven ⇒ B (0+inf, min(inf, 0)) = (inf, 0); C likewise.
    assert_eq!(tree.root_numbers(), (INFINITE, 0));
    tree.set_threshold(4); // the tree is kept; numbers recomputed
    assert_eq!(tree.numbers_at(&[0]), Some((0, INFINITE)));
    assert_eq!(tree.root_numbers(), (0, INFINITE));
}

#[test]
fn node_budget_gives_unknown_with_finite_numbers() {
    let root = RandomTreeSpec::new(6, 10, 5).root().unwrap();
    let mut cfg = PnConfig::new(10);
    cfg.limits = Limits::none().with_max_nodes(500);
    let r = pn_search(&root, 0, &cfg);
    assert_eq!(r.answer, Answer::Unknown);
    assert!(r.proof > 0 && r.proof < INFINITE && r.disproof > 0 && r.disproof < INFINITE);
    assert!(r.stats.interior <= 500);
    let v = pn_value(&root, &cfg);
    assert!(!v.complete && v.value.is_none());
}

#[test]
fn memory_budget_is_respected() {
    let root = RandomTreeSpec::new(6, 10, 5).root().unwrap();
    for budget in [4_096usize, 100_000, 1 << 20] {
        let mut cfg = PnConfig::new(10);
        cfg.max_memory = Some(budget);
        let r = pn_search(&root, 0, &cfg);
        assert_eq!(r.answer, Answer::Unknown);
        assert!(
            r.peak_bytes <= budget,
            "peak {} > budget {budget}",
            r.peak_bytes
        );
        assert!(r.peak_bytes + 6 * PnTree::<gamesearch::trees::RandomTree>::NODE_BYTES > budget);
    }
}

#[test]
fn tic_tac_toe_is_a_draw() {
    let p = TicTacToe::new();
    let cfg = PnConfig::new(u32::MAX);
    assert_eq!(pn_search(&p, 1, &cfg).answer, Answer::Disproven); // X cannot win
    assert_eq!(pn_search(&p, 0, &cfg).answer, Answer::Proven); // X does not lose
    assert_eq!(pn_value(&p, &cfg).value, Some(0));
    assert_eq!(
        solve_alphabeta(&p, &SolveConfig::default(), |_| {})
            .unwrap()
            .value,
        Some(0)
    );
    // A position where X wins: X to move with two open threats.
    let w: TicTacToe = "x.x.o.o..".parse().unwrap();
    assert_eq!(pn_value(&w, &cfg).value, Some(1));
}

/// Connect-Four 4x4 is a draw (John Tromp's table of small boards; issue #6 quotes 4x4 and 5x4 as
/// draws): both solvers agree.
#[test]
fn connect4_4x4_is_a_draw() {
    let p = Connect4::new(4, 4).unwrap();
    let cfg = PnConfig::new(u32::MAX);
    assert_eq!(pn_value(&p, &cfg).value, Some(0));
    assert_eq!(
        solve_alphabeta(&p, &SolveConfig::default(), |_| {})
            .unwrap()
            .value,
        Some(0)
    );
}

/// Small Kalah by multi-valued PN agrees with the alpha-beta solver and Irving et al.
#[test]
fn small_kalah_by_pn_multi() {
    for (m, n, expected) in [(3usize, 2u32, 4), (4, 1, 2), (4, 2, 6)] {
        let k = Kalah::new(m, n).unwrap();
        assert_eq!(
            pn_value(&k, &PnConfig::new(u32::MAX)).value,
            Some(expected),
            "Kalah({m},{n})"
        );
    }
}
