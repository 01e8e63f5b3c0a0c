//! df-pn against minimax: binary answers for many thresholds and the multi-valued value on
//! generated trees (with checked proof and disproof trees), on games to their end, with budgets.

use gamesearch::proof_number::dfpn::{Dfpn, DfpnConfig};
use gamesearch::proof_number::{check_proof, Answer, Initial};
use gamesearch::solver::{solve_alphabeta, SolveConfig};
use gamesearch::trees::ExplicitTree;
use gamesearch::{search, Algorithm, Limits, PositionKey, SearchConfig, SolverKnowledge};
use gamesearch_games::{Connect4, Kalah, Othello, TicTacToe};
use proptest::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::{explicit_tree, spec_strategy};

/// For thresholds around the minimax value: the answer is `V >= v`, and the proof or disproof
/// tree passes the independent checker; the multi-valued search returns the value.
fn check<G: PositionKey + SolverKnowledge>(
    root: &G,
    depth: u32,
    tt_bytes: usize,
    epsilon: f64,
    initial: Initial,
    focus: Option<f64>,
) -> Result<(), TestCaseError> {
    let value = search(root, Algorithm::Minimax, &SearchConfig::new(depth))
        .value
        .unwrap();
    let cfg = DfpnConfig {
        tt_bytes,
        depth,
        epsilon,
        initial,
        focus,
        limits: Limits::none(),
        history_safe: true,
    };
    let mut d = Dfpn::new(&cfg).unwrap();
    for v in [value - 2, value - 1, value, value + 1, value + 3] {
        let r = d.prove(root, v);
        let want = if value >= v {
            Answer::Proven
        } else {
            Answer::Disproven
        };
        prop_assert_eq!(r.answer, want, "v = {} V = {}", v, value);
        let proof = r.answer == Answer::Proven;
        let tree = d.proof_tree(root, v, proof);
        prop_assert!(tree.is_some(), "no proof tree at v = {}", v);
        let checked = check_proof(root, &tree.unwrap(), v, depth, proof);
        prop_assert!(checked.is_ok(), "v = {}: {:?}", v, checked);
    }
    let mut fresh = Dfpn::new(&cfg).unwrap();
    let r = fresh.value(root);
    prop_assert_eq!(r.value, Some(value));
    if let Some(m) = r.best_move {
        let after = search(
            &root.play_checked(m),
            Algorithm::Minimax,
            &SearchConfig::new(depth.saturating_sub(1)),
        )
        .value;
        prop_assert_eq!(after, Some(value));
    }
    Ok(())
}

/// Plain df-pn, and focused df-pn from the narrowest share (a node weighs two live children)
/// to one weighing every child.
fn focuses() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        Just(None),
        Just(Some(0.01)),
        Just(Some(0.25)),
        Just(Some(0.5)),
        Just(Some(1.0))
    ]
}

/// `play` for a move known to be legal (a helper so the generic check reads plainly).
trait PlayChecked: gamesearch::Game {
    fn play_checked(&self, m: Self::Move) -> Self {
        assert!(self.moves().any(|x| x == m));
        self.play(m)
    }
}
impl<G: gamesearch::Game> PlayChecked for G {}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Random (h, d, F) trees: a roomy table, and a small one (256 slots: constant overwriting);
    /// plain and focused (a node weighing its first children only).
    #[test]
    fn dfpn_equals_minimax_on_random_trees((spec, depth) in spec_strategy(), tiny in any::<bool>(), eps in prop_oneof![Just(0.0), Just(0.25), Just(1.0)], focus in focuses()) {
        let tt = if tiny { 256 * 32 } else { 1 << 20 };
        check(&spec.root().unwrap(), depth, tt, eps, Initial::Unit, focus)?;
    }

    #[test]
    fn dfpn_equals_minimax_on_explicit_trees(text in explicit_tree(5), mobility in any::<bool>(), focus in focuses()) {
        let tree = ExplicitTree::parse(&text).unwrap();
        let initial = if mobility { Initial::Mobility } else { Initial::Unit };
        check(&tree.root(), tree.height(), 1 << 16, 0.25, initial, focus)?;
    }
}

/// Played to the end with the games' knowledge: tic-tac-toe, small Kalah and Connect-Four boards
/// against the alpha-beta solver.
#[test]
fn dfpn_solves_games_as_the_alpha_beta_solver_does() {
    let ab = SolveConfig {
        tt_bytes: 16 << 20,
        ..SolveConfig::default()
    };
    let cfg = DfpnConfig {
        tt_bytes: 32 << 20,
        ..DfpnConfig::default()
    };
    for focus in [None, Some(0.25)] {
        let cfg = DfpnConfig {
            focus,
            ..cfg.clone()
        };
        let t = TicTacToe::new();
        assert_eq!(Dfpn::new(&cfg).unwrap().value(&t).value, Some(0));
        for (m, n) in [(3, 1), (3, 2), (4, 1), (4, 2), (5, 1)] {
            let k = Kalah::new(m, n).unwrap();
            let want = solve_alphabeta(&k, &ab, |_| {}).unwrap().value;
            assert_eq!(
                Dfpn::new(&cfg).unwrap().value(&k).value,
                want,
                "Kalah({m},{n}), focus {focus:?}"
            );
        }
        for (w, h) in [(4, 4), (5, 4), (4, 5), (6, 3), (3, 6)] {
            let c = Connect4::new(w, h).unwrap();
            let want = solve_alphabeta(&c, &ab, |_| {}).unwrap().value;
            let r = Dfpn::new(&cfg).unwrap().value(&c);
            assert_eq!(r.value, want, "Connect-Four {w}x{h}, focus {focus:?}");
            assert!(r.complete);
        }
    }
}

/// Proofs of real games check too (knowledge drops moves; the extracted proof covers them).
#[test]
fn dfpn_proofs_of_games_pass_the_checker() {
    let cfg = DfpnConfig {
        tt_bytes: 16 << 20,
        ..DfpnConfig::default()
    };
    let c = Connect4::new(4, 4).unwrap();
    let mut d = Dfpn::new(&cfg).unwrap();
    for (v, proof) in [(0, true), (1, false)] {
        assert_eq!(
            d.prove(&c, v).answer,
            if proof {
                Answer::Proven
            } else {
                Answer::Disproven
            }
        );
        let tree = d.proof_tree(&c, v, proof).expect("a tree");
        assert!(
            check_proof(&c, &tree, v, u32::MAX, proof).is_ok(),
            "v = {v}"
        );
    }
    let k = Kalah::new(4, 2).unwrap();
    let mut d = Dfpn::new(&cfg).unwrap();
    assert_eq!(d.prove(&k, 6).answer, Answer::Proven);
    let tree = d.proof_tree(&k, 6, true).unwrap();
    assert!(check_proof(&k, &tree, 6, u32::MAX, true).is_ok());
    // Othello 4x4: its last seven plies answered by the game's own search, its positions keyed
    // by their eight images; the proof and the disproof of its value still check node by node.
    let o = Othello::new(4).unwrap();
    let ab = SolveConfig {
        tt_bytes: 16 << 20,
        ..SolveConfig::default()
    };
    let v = solve_alphabeta(&o, &ab, |_| {}).unwrap().value.unwrap();
    let mut d = Dfpn::new(&cfg).unwrap();
    for (threshold, proof) in [(v, true), (v + 1, false)] {
        let r = d.prove(&o, threshold);
        assert_eq!(r.answer == Answer::Proven, proof, "V >= {threshold}?");
        let tree = d.proof_tree(&o, threshold, proof).expect("a tree");
        assert!(check_proof(&o, &tree, threshold, u32::MAX, proof).is_ok());
    }
}

/// A node budget stops df-pn with "unknown"; a table smaller than a bucket is still a table.
#[test]
fn dfpn_budgets_and_small_tables() {
    let cfg = DfpnConfig {
        tt_bytes: 1 << 20,
        limits: Limits::none().with_max_nodes(500),
        ..DfpnConfig::default()
    };
    let mut d = Dfpn::new(&cfg).unwrap();
    let r = d.prove(&Connect4::new(7, 6).unwrap(), 1);
    assert_eq!(r.answer, Answer::Unknown);
    assert!(r.proof > 0 && r.disproof > 0);
    assert!(r.stats.nodes() <= 520);
    let v = d.value(&Connect4::new(7, 6).unwrap());
    assert!(!v.complete && v.value.is_none());
    // A table far smaller than the tree (64 slots): slower, still right.
    let tiny = DfpnConfig {
        tt_bytes: 64 * 32,
        ..DfpnConfig::default()
    };
    let p: TicTacToe = "xo.x.o...".parse().unwrap();
    let want = search(&p, Algorithm::Minimax, &SearchConfig::new(9)).value;
    assert_eq!(Dfpn::new(&tiny).unwrap().value(&p).value, want);
    let bad = DfpnConfig {
        epsilon: -1.0,
        ..DfpnConfig::default()
    };
    assert!(Dfpn::<TicTacToe>::new(&bad).is_err());
    for share in [0.0, -0.5, f64::NAN, f64::INFINITY] {
        let bad = DfpnConfig {
            focus: Some(share),
            ..DfpnConfig::default()
        };
        assert!(Dfpn::<TicTacToe>::new(&bad).is_err(), "focus {share}");
    }
}
