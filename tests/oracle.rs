//! Every algorithm against plain minimax, on thousands of generated trees: random (h, d, F) trees
//! (continuous and discrete values, random and ordered, alternating and non-alternating turns,
//! horizons inside the tree) and random explicit trees of irregular shape.

use gamesearch::depth_first::{search_window, DepthFirst};
use gamesearch::exact::{solve, Method};
use gamesearch::trees::ExplicitTree;
use gamesearch::{
    search as search_with, Algorithm, Game, SearchConfig, SolveConfig, INF, VALUE_RANGE,
};
use proptest::prelude::*;

mod common;
use common::{explicit_tree, spec_strategy};

/// Plays `pv` from `root` and returns `f` at its end: the PV must lead to the value.
fn pv_end_value<G: Game>(root: &G, pv: &[G::Move]) -> i32 {
    let mut p = root.clone();
    for &m in pv {
        p = p.play(m);
    }
    p.evaluate()
}

/// Runs every algorithm (NegaScout with and without the refinement) and checks value and PV.
fn check_all<G: Game>(root: &G, depth: u32) -> Result<(), TestCaseError> {
    let cfg = SearchConfig::new(depth);
    let oracle = search_with(root, Algorithm::Minimax, &cfg);
    let v = oracle.value.expect("complete");
    prop_assert_eq!(pv_end_value(root, &oracle.pv), v);
    let mut plain = cfg.clone();
    plain.shallow_refinement = false;
    for algo in Algorithm::ALL {
        for c in [&cfg, &plain] {
            let r = search_with(root, algo, c);
            prop_assert!(r.complete);
            prop_assert_eq!(
                r.value,
                Some(v),
                "{} (refinement {})",
                algo,
                c.shallow_refinement
            );
            if matches!(algo, Algorithm::AlphaBeta | Algorithm::AlphaBetaHard) {
                // Alpha-beta never looks at a leaf twice, so never more than minimax.
                prop_assert!(r.stats.leaves <= oracle.stats.leaves);
            }
            // The PV reaches a node whose value is the root value, and its first move is the
            // best move.
            prop_assert_eq!(r.best_move, r.pv.first().copied());
            if matches!(algo, Algorithm::PnMulti | Algorithm::Cns(_)) {
                // PN and CNS report the best move only: its subtree has the root's value.
                if let Some(m) = r.best_move {
                    let after = search_with(
                        &root.play(m),
                        Algorithm::Minimax,
                        &SearchConfig::new(depth - 1),
                    );
                    prop_assert_eq!(after.value, Some(v), "pn-multi best move {:?}", m);
                }
                continue;
            }
            prop_assert_eq!(pv_end_value(root, &r.pv), v, "{} pv {:?}", algo, r.pv);
        }
    }
    Ok(())
}

/// Fail-soft contracts for every windowed algorithm on a random window and a null window.
fn check_windows<G: Game>(root: &G, depth: u32, a: i32, w: i32) -> Result<(), TestCaseError> {
    let cfg = SearchConfig::new(depth);
    let v = search_with(root, Algorithm::Minimax, &cfg).value.unwrap();
    let (alpha, beta) = (a, a + w);
    for algo in [
        DepthFirst::AlphaBeta,
        DepthFirst::NegaScout,
        DepthFirst::NegaScoutMinimax,
        DepthFirst::Pvs,
    ] {
        let t = search_window(root, algo, alpha, beta, &cfg)
            .unwrap()
            .value
            .unwrap();
        if t <= alpha {
            prop_assert!(
                v <= t,
                "{algo}: fail-low {t} but V = {v} in ({alpha},{beta})"
            );
        } else if t >= beta {
            prop_assert!(
                v >= t,
                "{algo}: fail-high {t} but V = {v} in ({alpha},{beta})"
            );
        } else {
            prop_assert_eq!(v, t, "{} inside ({}, {})", algo, alpha, beta);
        }
        // Null window (m, m + 1) answers TEST(p, m, >).
        let t = search_window(root, algo, alpha, alpha + 1, &cfg)
            .unwrap()
            .value
            .unwrap();
        prop_assert_eq!(t > alpha, v > alpha, "{} null window at {}", algo, alpha);
    }
    let hard = search_window(root, DepthFirst::AlphaBetaHard, alpha, beta, &cfg)
        .unwrap()
        .value
        .unwrap();
    prop_assert_eq!(hard, v.clamp(alpha, beta));
    Ok(())
}

/// Nodes with more than 256 children: the algorithms that key their table by the path (MTD(f)
/// to a depth) must tell every child apart, not only the first 256 (a saturated index once merged
/// the rest into one entry, wrong on seed 6).
#[test]
fn wide_trees_every_algorithm_equals_minimax() {
    for seed in 1..=8 {
        let spec = gamesearch::trees::RandomTreeSpec::new(300, 2, seed);
        let root = spec.root().unwrap();
        check_all(&root, 2).unwrap_or_else(|e| panic!("b = 300, h = 2, seed {seed}: {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn random_trees_every_algorithm_equals_minimax((spec, depth) in spec_strategy()) {
        let root = spec.root().unwrap();
        check_all(&root, depth)?;
    }

    #[test]
    fn explicit_trees_every_algorithm_equals_minimax(text in explicit_tree(5)) {
        let tree = ExplicitTree::parse(&text).unwrap();
        let h = tree.height();
        check_all(&tree.root(), h)?;
        // And with a horizon inside the tree (interior static values used).
        check_all(&tree.root(), h / 2)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]

    /// Fewer but larger trees: b up to 8, h up to 8 (up to 16.7 million leaves for minimax is too
    /// many for CI, so b^h is capped near 300k).
    #[test]
    fn larger_random_trees_every_algorithm_equals_minimax(
        (spec, depth) in spec_strategy(), b in 2u32..=8, h in 4u32..=8,
    ) {
        let mut spec = spec;
        spec.b = b;
        spec.h = h;
        while u64::from(spec.b).pow(spec.h) > 300_000 { spec.h -= 1; }
        let root = spec.root().unwrap();
        check_all(&root, depth.max(spec.h).min(spec.h))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn fail_soft_bounds_are_true_bounds_on_random_trees(
        (spec, depth) in spec_strategy(), a in -8i32..8, w in 1i32..6,
    ) {
        let root = spec.root().unwrap();
        // Centre the window on the tree's value scale.
        let (lo, hi) = root.value_bounds().unwrap();
        let scale = ((hi - lo) / 16).max(1);
        let centre = lo / 2 + hi / 2;
        let alpha = centre + a * scale;
        check_windows(&root, depth, alpha.clamp(-INF + 1, INF - 10), w * scale)?;
    }

    #[test]
    fn fail_soft_bounds_are_true_bounds_on_explicit_trees(
        text in explicit_tree(4), a in -6i32..6, w in 1i32..4,
    ) {
        let tree = ExplicitTree::parse(&text).unwrap();
        check_windows(&tree.root(), tree.height(), a, w)?;
    }
}

/// A leaf or static value anywhere in [`VALUE_RANGE`], its two ends often.
fn any_value() -> impl Strategy<Value = i32> {
    let (lo, hi) = VALUE_RANGE;
    prop_oneof![
        Just(lo),
        Just(hi),
        Just(lo + 1),
        Just(hi - 1),
        -3i32..=3,
        lo..=hi,
    ]
}

/// Random explicit trees (irregular branching, free turns) whose values span the whole range a
/// game may return.
fn wide_tree(depth: u32) -> impl Strategy<Value = String> {
    let leaf = any_value().prop_map(|v| v.to_string());
    leaf.prop_recursive(depth, 64, 3, |inner| {
        (
            any::<bool>(),
            any_value(),
            prop::collection::vec(inner, 1..=3),
        )
            .prop_map(|(max, f, kids)| {
                let side = if max { "max" } else { "min" };
                format!("({side}={f} {})", kids.join(" "))
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Every search algorithm and every exact solver gives minimax's value over the whole range
    /// the `Game` trait allows (multi-valued PN and df-pn once stopped at ±2^29 and reported the
    /// capped value as exact); the binary solvers' bounds hold it.
    #[test]
    fn every_solver_answers_over_the_whole_value_range(text in wide_tree(4)) {
        let tree = ExplicitTree::parse(&text).unwrap();
        let root = tree.root();
        let depth = tree.height();
        let v = search_with(&root, Algorithm::Minimax, &SearchConfig::new(depth)).value.unwrap();
        for algo in Algorithm::ALL {
            let r = search_with(&root, algo, &SearchConfig::new(depth));
            prop_assert_eq!(r.value, Some(v), "{}", algo);
        }
        let cfg = SolveConfig { tt_bytes: 1 << 20, ..SolveConfig::default() };
        for method in Method::ALL {
            let s = solve(&root, method, &cfg).unwrap();
            prop_assert!(s.complete, "{}", method);
            prop_assert!(s.bounds.0 <= v && v <= s.bounds.1, "{} bounds {:?} exclude {}", method, s.bounds, v);
            if let Some(x) = s.value {
                prop_assert_eq!(x, v, "{}", method);
            }
        }
    }
}
