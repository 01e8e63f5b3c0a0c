//! The trace against the statistics and against minimax: for every algorithm, on generated
//! trees, the recorded steps count what the statistics count (leaves, re-searches, expansions,
//! table hits), the depth-first walk is balanced, and every value a node returns is a true
//! bound of that node's minimax value (every TEST answer true).

mod common;

use common::{explicit_tree, spec_strategy};
use gamesearch::trace::{search_observed, Bound, Recorder, Step, Trace, Window};
use gamesearch::trees::ExplicitTree;
use gamesearch::{search, Algorithm, Game, SearchConfig};
use proptest::prelude::*;

fn count(t: &Trace, f: impl Fn(&Step) -> bool) -> u64 {
    t.steps.iter().filter(|s| f(s)).count() as u64
}

fn is_tree_family(algo: Algorithm) -> bool {
    matches!(algo, Algorithm::PnMulti | Algorithm::Cns(_))
}

/// The counts a trace must agree with, for any game.
fn check_counts<G: Game>(root: &G, depth: u32) -> Result<Vec<(Algorithm, Trace)>, TestCaseError> {
    let mut traces = Vec::new();
    for algo in Algorithm::ALL {
        let cfg = SearchConfig::new(depth);
        let mut rec = Recorder::new(root, 1 << 20);
        let out = search_observed(root, algo, &cfg, &mut rec);
        let plain = search(root, algo, &cfg);
        // Observing changes nothing.
        prop_assert_eq!(out.value, plain.value, "{}", algo);
        prop_assert_eq!(out.stats, plain.stats, "{}", algo);
        let t = rec.finish(algo.name(), &out);
        prop_assert!(!t.truncated);
        let s = out.stats;
        prop_assert_eq!(
            count(&t, |e| matches!(e, Step::Leaf { .. })),
            s.leaves,
            "{} leaves",
            algo
        );
        prop_assert_eq!(
            count(&t, |e| matches!(e, Step::ReSearch { .. })),
            s.re_searches,
            "{} re-searches",
            algo
        );
        prop_assert_eq!(
            count(&t, |e| matches!(e, Step::TableHit { .. })),
            s.tt_hits,
            "{} table hits",
            algo
        );
        if is_tree_family(algo) {
            prop_assert_eq!(
                count(&t, |e| matches!(e, Step::Expand { .. })),
                s.interior,
                "{} expansions",
                algo
            );
        } else {
            // Every node visited is entered once per visit and left once.
            let enters = count(&t, |e| matches!(e, Step::Enter { .. }));
            let exits = count(&t, |e| matches!(e, Step::Exit { .. } | Step::Tested { .. }));
            prop_assert_eq!(enters, s.nodes(), "{} enters", algo);
            prop_assert_eq!(exits, enters, "{} exits", algo);
            // The root's last exit is the search's value.
            let last = t.steps.iter().rev().find_map(|e| match e {
                Step::Exit { node: 0, value, .. } => Some(*value),
                _ => None,
            });
            prop_assert_eq!(last, out.value, "{} root exit", algo);
        }
        traces.push((algo, t));
    }
    Ok(traces)
}

/// Whether `v` with `bound` is true of the value `truth`.
fn bounds(truth: i32, v: i32, bound: Bound) -> bool {
    match bound {
        Bound::Exact => truth == v,
        Bound::Lower => truth >= v,
        Bound::Upper => truth <= v,
    }
}

/// Every returned value is a true bound of its node's minimax value (explicit trees: a node's
/// label is its move index + 1, so a node's path can be replayed).
fn check_bounds(tree: &ExplicitTree, depth: u32) -> Result<(), TestCaseError> {
    let root = tree.root();
    for (algo, t) in check_counts(&root, depth)? {
        let position = |id: u32| {
            let mut path = Vec::new();
            let mut n = &t.nodes[id as usize];
            while let Some(p) = n.parent {
                path.push(n.label.parse::<u32>().unwrap() - 1);
                n = &t.nodes[p as usize];
            }
            path.iter().rev().fold(root, |p, &m| p.play(m))
        };
        let value = |id: u32| {
            let d = depth - t.nodes[id as usize].ply;
            search(&position(id), Algorithm::Minimax, &SearchConfig::new(d))
                .value
                .unwrap()
        };
        let mut windows = Vec::new();
        for step in &t.steps {
            match *step {
                Step::Enter { window, .. } => windows.push(window),
                Step::Exit {
                    node,
                    value: v,
                    bound,
                } => {
                    windows.pop();
                    let truth = value(node);
                    prop_assert!(
                        bounds(truth, v, bound),
                        "{algo}: node {node} returned {v} ({bound:?}), minimax {truth}"
                    );
                }
                Step::Tested { node, holds } => {
                    let Some(Window::Test { v, cond }) = windows.pop() else {
                        return Err(TestCaseError::fail("TEST exit without a TEST window"));
                    };
                    prop_assert_eq!(holds, cond.holds(value(node), v), "{} TEST", algo);
                }
                Step::TableHit {
                    node,
                    value: v,
                    bound,
                } => {
                    let truth = value(node);
                    prop_assert!(
                        bounds(truth, v, bound),
                        "{algo}: table hit at {node}: {v} ({bound:?}), minimax {truth}"
                    );
                }
                _ => {}
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Random (h, d, F) trees of every kind: the counts.
    #[test]
    fn trace_counts_equal_statistics_on_random_trees((spec, depth) in spec_strategy()) {
        let root = spec.root().unwrap();
        check_counts(&root, depth)?;
    }

    /// Explicit trees (irregular, turns free): counts, and every value and TEST answer checked
    /// against minimax.
    #[test]
    fn traced_values_are_true_bounds_on_explicit_trees(text in explicit_tree(4)) {
        let tree = ExplicitTree::parse(&text).unwrap();
        check_bounds(&tree, tree.height())?;
    }
}

/// Past the node cap the recording stops and says so; the search runs to its end.
#[test]
fn the_node_cap_truncates_the_trace_not_the_search() {
    let root = gamesearch::trees::RandomTreeSpec::new(4, 6, 1)
        .root()
        .unwrap();
    let cfg = SearchConfig::new(6);
    let mut rec = Recorder::new(&root, 100);
    let out = search_observed(&root, Algorithm::AlphaBeta, &cfg, &mut rec);
    let t = rec.finish("alphabeta", &out);
    assert!(t.truncated);
    assert_eq!(t.nodes.len(), 100);
    assert_eq!(out.value, search(&root, Algorithm::Minimax, &cfg).value);
}

/// The lecture tree: alpha-beta enters A, B, D, E, C, F and cuts G off at C.
#[test]
fn alpha_beta_on_the_conspiracy_example() {
    let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
    let mut rec = Recorder::new(&tree.root(), 100).root_label("A");
    let out = search_observed(
        &tree.root(),
        Algorithm::AlphaBeta,
        &SearchConfig::new(2),
        &mut rec,
    );
    let t = rec.finish("alphabeta", &out);
    let name = |id: u32| t.nodes[id as usize].label.as_str();
    let entered: Vec<&str> = t
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Enter { node, .. } => Some(name(*node)),
            _ => None,
        })
        .collect();
    assert_eq!(entered, ["A", "B", "D", "E", "C", "F"]);
    let cut: Vec<(&str, Vec<&str>)> = t
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::Cutoff { node, pruned } => {
                Some((name(*node), pruned.iter().map(|&p| name(p)).collect()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(cut, [("C", vec!["G"])]);
    // C is searched with (4, +inf) and fails low with 2: V(C) <= 2.
    assert!(t.steps.contains(&Step::Exit {
        node: 5,
        value: 2,
        bound: Bound::Upper
    }));
}
