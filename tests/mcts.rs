//! MCTS, MCTS-Solver and PN-MCTS against plain minimax: on thousands of generated trees (random
//! (h, d, F) trees with horizons, random explicit trees with non-alternating turns), MCTS-Solver
//! and PN-MCTS run to the end prove the sign of the minimax value — win, draw or loss — and
//! their move keeps it, with playouts to the end or cut off at a few plies (a cut-off proves
//! nothing), on one thread or several (a tree a thread, or one tree shared); plain UCT's choice
//! converges to a best move on a tree small enough to search many times.

use gamesearch::mcts::{Mcts, MctsConfig, Parallel};
use gamesearch::trees::ExplicitTree;
use gamesearch::{search, Algorithm, Game, Limits, PositionKey, SearchConfig};
use proptest::prelude::*;

mod common;
use common::{explicit_tree, spec_strategy};

/// MCTS-Solver to the end (no budget) proves the sign of minimax's value at `depth`, and its
/// move leads to a child of that sign.
fn solver_proves_minimax<G: PositionKey + Send + Sync + Game<Move: Send + Sync>>(
    root: &G,
    depth: u32,
    seed: u64,
    variant: Variant,
) -> Result<(), TestCaseError> {
    let oracle = search(root, Algorithm::Minimax, &SearchConfig::new(depth));
    let v = oracle.value.expect("complete").signum();
    let cfg = MctsConfig {
        solver: true,
        depth,
        seed,
        pn_constant: variant.pn_constant,
        playout_plies: variant.playout_plies,
        threads: variant.threads,
        parallel: variant.parallel,
        ..MctsConfig::default()
    };
    let r = Mcts::new(&cfg).search(root, &Limits::none()).unwrap();
    prop_assert_eq!(r.proven, Some(v));
    if let Some(m) = r.best_move {
        let after = search(
            &root.play(m),
            Algorithm::Minimax,
            &SearchConfig::new(depth - 1),
        );
        prop_assert_eq!(after.value.unwrap().signum(), v, "move {:?}", m);
    } else {
        prop_assert!(depth == 0 || root.moves().next().is_none());
    }
    Ok(())
}

/// Which Monte-Carlo solver, how far its playouts go, on how many threads.
#[derive(Clone, Copy, Debug)]
struct Variant {
    pn_constant: Option<f64>,
    playout_plies: u32,
    threads: usize,
    parallel: Parallel,
}

fn variant() -> impl Strategy<Value = Variant> {
    (
        prop_oneof![Just(None), Just(Some(1.0)), (0.0..4.0f64).prop_map(Some)],
        prop_oneof![Just(u32::MAX), 0u32..4],
        prop_oneof![2 => Just(1usize), 1 => 2usize..=3],
        prop_oneof![Just(Parallel::Root), Just(Parallel::Tree)],
    )
        .prop_map(|(pn_constant, playout_plies, threads, parallel)| Variant {
            pn_constant,
            playout_plies,
            threads,
            // PN-MCTS's numbers are one thread's: it refuses the shared tree.
            parallel: if pn_constant.is_some() {
                Parallel::Root
            } else {
                parallel
            },
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn mcts_solver_proves_the_minimax_result_on_random_trees(
        (spec, depth) in spec_strategy(), seed in any::<u64>(), v in variant(),
    ) {
        let root = spec.root().unwrap();
        solver_proves_minimax(&root, depth, seed, v)?;
    }

    #[test]
    fn mcts_solver_proves_the_minimax_result_on_explicit_trees(
        text in explicit_tree(5), seed in any::<u64>(), v in variant(),
    ) {
        let tree = ExplicitTree::parse(&text).unwrap();
        let h = tree.height();
        solver_proves_minimax(&tree.root(), h, seed, v)?;
        // A horizon inside the tree: the interior static values are its results.
        solver_proves_minimax(&tree.root(), h / 2, seed, v)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, .. ProptestConfig::default() })]

    /// The trace of MCTS-Solver: a playout step a playout, the root's visits counting them one
    /// by one, its last proof minimax's sign.
    #[test]
    fn the_trace_of_mcts_solver_counts_every_playout_and_ends_in_the_proof(
        (spec, depth) in spec_strategy(), seed in any::<u64>(),
    ) {
        use gamesearch::trace::{search_observed, Recorder, Step};
        let root = spec.root().unwrap();
        let oracle = search(&root, Algorithm::Minimax, &SearchConfig::new(depth));
        let algo = Algorithm::Mcts(gamesearch::MctsParams { solver: true, seed, ..gamesearch::MctsParams::UCT });
        let mut rec = Recorder::new(&root, usize::MAX);
        let out = search_observed(&root, algo, &SearchConfig::new(depth), &mut rec);
        let trace = rec.finish("mcts-solver", &out);
        prop_assert!(!trace.truncated);
        let playouts = trace.steps.iter().filter(|s| matches!(s, Step::Playout { .. })).count() as u64;
        prop_assert_eq!(playouts, out.stats.leaves);
        let root_visits: Vec<(u64, Option<i32>)> = trace.steps.iter().filter_map(|s| match s {
            Step::Visits { node: 0, visits, proven, .. } => Some((*visits, *proven)),
            _ => None,
        }).collect();
        for (i, (v, _)) in root_visits.iter().enumerate() {
            prop_assert_eq!(*v, i as u64 + 1);
        }
        let v = oracle.value.unwrap().signum();
        prop_assert_eq!(root_visits.last().map(|r| r.1), if playouts == 0 { None } else { Some(Some(v)) });
    }
}

#[test]
fn uct_finds_the_only_winning_move() {
    // MAX wins only by the third move (each of MIN's replies there loses for MIN); the others
    // lose at once or after one reply. Plain UCT, no proofs, must come to prefer it.
    let t = ExplicitTree::parse("(max (min -1 1) -1 (min 1 1 1) (min 1 -1 -1))").unwrap();
    for seed in 1..=20 {
        let cfg = MctsConfig {
            seed,
            ..MctsConfig::default()
        };
        let mut m = Mcts::new(&cfg);
        let r = m
            .search(&t.root(), &Limits::none().with_max_nodes(2000))
            .unwrap();
        assert_eq!(r.proven, None, "plain UCT proves nothing");
        let best = r.best_move.unwrap();
        assert_eq!(t.root().move_name(best), "3", "seed {seed}: {r:?}");
        assert!(r.mean > 0.8, "{r:?}");
        assert_eq!(r.playouts, 2000);
    }
}

#[test]
fn the_tree_is_kept_between_searches() {
    let t = ExplicitTree::parse("(max (min (max 1 -1) (max -1 -1)) (min (max 1 1) (max 1 -1)))")
        .unwrap();
    let mut m = Mcts::new(&MctsConfig::default());
    let root = t.root();
    let first = m
        .search(&root, &Limits::none().with_max_nodes(500))
        .unwrap();
    assert_eq!(first.root_visits, 500);
    // Two plies down: the subtree's visits are kept.
    let below = root.play(first.best_move.unwrap());
    let below = below.play(below.moves().next().unwrap());
    let again = m
        .search(&below, &Limits::none().with_max_nodes(10))
        .unwrap();
    assert!(again.root_visits > 10, "{again:?}");
    assert_eq!(again.playouts, 10);
}

#[test]
fn bad_parameters_are_errors() {
    let t = ExplicitTree::parse("(max 1 2)").unwrap();
    for cfg in [
        MctsConfig {
            exploration: f64::NAN,
            ..MctsConfig::default()
        },
        MctsConfig {
            exploration: -1.0,
            ..MctsConfig::default()
        },
        MctsConfig {
            max_tree_nodes: 0,
            ..MctsConfig::default()
        },
        MctsConfig {
            threads: 0,
            ..MctsConfig::default()
        },
        MctsConfig {
            pn_constant: Some(1.0),
            threads: 2,
            parallel: Parallel::Tree,
            ..MctsConfig::default()
        },
    ] {
        assert!(Mcts::new(&cfg).search(&t.root(), &Limits::none()).is_err());
    }
}

#[test]
fn the_threads_share_the_budget_and_sum_their_statistics() {
    let t = ExplicitTree::parse("(max (min -1 1) -1 (min 1 1 1) (min 1 -1 -1))").unwrap();
    for parallel in [Parallel::Root, Parallel::Tree] {
        let cfg = MctsConfig {
            threads: 3,
            parallel,
            ..MctsConfig::default()
        };
        let r = Mcts::new(&cfg)
            .search(&t.root(), &Limits::none().with_max_nodes(3000))
            .unwrap();
        // Each thread stops within its 16-playout tally of the shared budget.
        assert!((3000..3000 + 3 * 16).contains(&r.playouts), "{r:?}");
        assert_eq!(r.root_visits, r.playouts, "{parallel:?}");
        let children: u64 = r.children.iter().map(|c| c.1).sum();
        assert_eq!(children, r.playouts, "{parallel:?}");
        assert_eq!(
            t.root().move_name(r.best_move.unwrap()),
            "3",
            "{parallel:?}"
        );
    }
    // A full tree ends the search, on every thread, in both modes.
    let big = gamesearch::trees::RandomTreeSpec::new(4, 8, 1)
        .root()
        .unwrap();
    for parallel in [Parallel::Root, Parallel::Tree] {
        let cfg = MctsConfig {
            threads: 3,
            parallel,
            max_tree_nodes: 40,
            ..MctsConfig::default()
        };
        let r = Mcts::new(&cfg)
            .search(&big, &Limits::none().with_max_nodes(100_000))
            .unwrap();
        assert!(
            r.playouts < 1000 && r.best_move.is_some(),
            "{parallel:?}: {r:?}"
        );
        // The cap is looked at before each iteration, which may add one node's children (4).
        assert!(r.tree_nodes <= 40 + 3 * 4, "{parallel:?}: {r:?}");
    }
    // The single-thread search refuses threads it cannot run.
    let cfg = MctsConfig {
        threads: 2,
        ..MctsConfig::default()
    };
    assert!(gamesearch::mcts::search(&t.root(), &cfg, &Limits::none()).is_err());
}
