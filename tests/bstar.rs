//! B* against plain minimax: on thousands of random explicit trees (turns not alternating,
//! static values inside), with every leaf's interval the true minimax value widened by random
//! amounts (some exact, some the whole range), B* separates and the move it proves best is a
//! minimax-best move; its intervals hold the true values. With no budget it always separates.

use gamesearch::bstar::{search as bstar, BStarConfig};
use gamesearch::trees::ExplicitTree;
use gamesearch::{search, Algorithm, Game, Limits, Score, SearchConfig};
use proptest::prelude::*;

mod common;
use common::explicit_tree;

fn minimax<G: Game>(p: &G, depth: u32) -> Score {
    search(p, Algorithm::Minimax, &SearchConfig::new(depth))
        .value
        .expect("complete")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn bstar_proves_a_minimax_best_move(text in explicit_tree(5), seed in any::<u64>()) {
        let tree = ExplicitTree::parse(&text).unwrap();
        let h = tree.height();
        let root = tree.root();
        prop_assume!(root.moves().next().is_some());
        // Intervals around the true value, of random widths (0: exact; 99: the whole range).
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as Score
        };
        let bounds = |p: &_| {
            let v = minimax(p, h);
            let (a, b) = (next() % 5, next() % 5);
            if a == 4 { (-99, 99) } else { (v - a, v + b) }
        };
        let r = bstar(&root, &BStarConfig::default(), bounds, &Limits::none()).unwrap();
        prop_assert!(r.separated);
        let value = minimax(&root, h);
        let best = r.best_move.unwrap();
        let after = minimax(&root.play(best), h);
        prop_assert_eq!(after, value, "{} chose {}", text, root.move_name(best));
        prop_assert!(r.best_range.0 <= after && after <= r.best_range.1);
        prop_assert!(r.root_range.0 <= value && value <= r.root_range.1);
    }
}

#[test]
fn a_budget_stops_it_with_the_most_pessimistically_safe_move() {
    // Whole-range intervals: B* must reach leaves; one expansion cannot separate.
    let t = ExplicitTree::parse("(max (min 2 -5 1) (min 3 4) (min 7 -9))").unwrap();
    let r = bstar(
        &t.root(),
        &BStarConfig::default(),
        |_| (-9, 9),
        &Limits::none().with_max_nodes(1),
    )
    .unwrap();
    assert!(!r.separated);
    assert_eq!(r.expansions, 1);
    assert!(r.best_move.is_some());
    // A reversed interval is an error, not a panic.
    let e = bstar(
        &t.root(),
        &BStarConfig::default(),
        |_| (1, 0),
        &Limits::none(),
    );
    assert!(e.is_err());
}
