//! The worked examples of the lectures and papers (REFERENCES.md), and the Knuth–Moore minimal tree, as tests of node behaviour.

use gamesearch::depth_first::scout::{test, Condition};
use gamesearch::search as search_with;
use gamesearch::trees::{ExplicitTree, RandomTreeSpec, TreeOrder, Turns, Values};
use gamesearch::{Algorithm, Game, Limits, Outcome, SearchConfig};

/// Any algorithm (of every family) to `depth` within `limits`.
fn search<G: Game>(g: &G, algo: Algorithm, depth: u32, limits: &Limits) -> Outcome<G::Move> {
    search_with(
        g,
        algo,
        &SearchConfig::new(depth).with_limits(limits.clone()),
    )
}

fn run(tree: &ExplicitTree, algo: Algorithm) -> (i32, Vec<String>) {
    tree.clear_log();
    let r = search(&tree.root(), algo, tree.height(), &Limits::none());
    (r.value.unwrap(), tree.evaluated())
}

/// Cater, *CN and PN search* (slide "Conspiracy Numbers"): A(max): B(min: D=7, E=4), C(min: F=2, G=3); A = 4.
#[test]
fn conspiracy_example_tree_values_and_alpha_beta_cut() {
    let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
    for algo in Algorithm::ALL {
        assert_eq!(run(&tree, algo).0, 4, "{algo}");
    }
    assert_eq!(run(&tree, Algorithm::Minimax).1, ["D", "E", "F", "G"]);
    // F = 2 <= 4 refutes C: G is never looked at.
    assert_eq!(run(&tree, Algorithm::AlphaBeta).1, ["D", "E", "F"]);
    // SCOUT: EVAL(B) looks at D, tests E (< 7: passes) and evaluates it again; TEST(C, 4, >)
    // fails on F.
    assert_eq!(run(&tree, Algorithm::Scout).1, ["D", "E", "E", "F"]);
    let r = search(&tree.root(), Algorithm::NegaScout, 2, &Limits::none());
    assert_eq!(r.pv, [0, 1]); // A -> B -> E
    assert_eq!(r.report(&tree.root(), "negascout", 2, 0.0).pv, ["B", "E"]);
}

/// Hsu's lectures, "Discussions for SCOUT": TEST(p, 5, >) calls TEST(K, 5, >), which skips K's second
/// branch; TEST(p, 5, >) fails on p's third branch, so p is never evaluated — while alpha-beta
/// must visit K's second branch (its window at K is (5, +inf): nothing cuts there). The figure is
/// not in the notes; this tree has exactly the described shape.
#[test]
fn scout_test_skips_a_branch_alpha_beta_must_visit() {
    let tree = ExplicitTree::parse(
        "(R max (A min A1=5 A2=6) (P min (K max K1=8 K2=9) (L max L1=7 L2=1) P3=3))",
    )
    .unwrap();
    let (v, scout) = run(&tree, Algorithm::Scout);
    assert_eq!(v, 5);
    assert_eq!(scout, ["A1", "A2", "K1", "L1", "P3"]);
    let (v, ab) = run(&tree, Algorithm::AlphaBeta);
    assert_eq!(v, 5);
    assert_eq!(ab, ["A1", "A2", "K1", "K2", "L1", "L2", "P3"]);
    assert!(ab.contains(&"K2".to_string()) && !scout.contains(&"K2".to_string()));

    // The TEST on its own: TEST(P, 5, >) is FALSE, after K1, L1, P3.
    let p = tree.root().play(1);
    tree.clear_log();
    let r = test(&p, 5, Condition::Gt, 10, &Limits::none());
    assert_eq!(r.holds, Some(false));
    assert_eq!(tree.evaluated(), ["K1", "L1", "P3"]);
    // TEST(p, v, >) is TRUE ≡ TEST(p, v, <=) is FALSE (Hsu, *Scout, NegaScout and PN search*, "How to TEST — Discussions").
    for v in 0..10 {
        for cond in [Condition::Gt, Condition::Ge, Condition::Lt, Condition::Le] {
            let a = test(&p, v, cond, 10, &Limits::none()).holds.unwrap();
            let b = test(&p, v, cond.negation(), 10, &Limits::none())
                .holds
                .unwrap();
            assert_ne!(a, b, "TEST(P, {v}, {cond:?})");
            assert_eq!(a, cond.holds(3, v), "V(P) = 3");
        }
    }
}

/// Pearl 1980: at a MIN node `V(S_k) >= v` exempts S_k — a tie is not evaluated; at a MAX node
/// `V(S_k) <= v` exempts.
#[test]
fn scout_ties_are_exempt() {
    let tree = ExplicitTree::parse("(R min (A max A1=3) (B max B1=3) (C max C1=3))").unwrap();
    let (v, log) = run(&tree, Algorithm::Scout);
    assert_eq!(v, 3);
    assert_eq!(log, ["A1", "B1", "C1"]); // each tested once, none re-evaluated
    let tree = ExplicitTree::parse("(R max (A min A1=3) (B min B1=3))").unwrap();
    assert_eq!(run(&tree, Algorithm::Scout).1, ["A1", "B1"]);
}

/// Reinefeld's smallest uniform tree on which NegaScout beats alpha-beta (Reinefeld 1983; the figure
/// is an image not in the notes). Exhaustive search (`cargo run --example
/// smallest_negascout_tree`) finds none with b=2,h=2 or b=3,h=2 and 4224 of the 40320
/// distinct-valued b=2,h=3 trees; this is the first of them. At C, alpha-beta's window is
/// (4, +inf) so C1 = max(7, 8) needs both leaves; NegaScout's null window (4, 5) cuts C1 after 7.
#[test]
fn reinefeld_smallest_tree_negascout_beats_alpha_beta() {
    let tree = ExplicitTree::parse(
        "(R max (A min (A1 max a=1 b=4) (A2 max c=5 d=6)) (C min (C1 max e=7 f=8) (C2 max g=3 h=2)))",
    )
    .unwrap();
    let (v, ab) = run(&tree, Algorithm::AlphaBeta);
    assert_eq!(v, 4);
    assert_eq!(ab, ["a", "b", "c", "e", "f", "g", "h"]);
    let (v, ns) = run(&tree, Algorithm::NegaScout);
    assert_eq!(v, 4);
    assert_eq!(ns, ["a", "b", "c", "e", "g", "h"]);
    // PVS has no depth < 3 refinement: its null window on leaf b fails high and b is
    // re-searched, which costs back the leaf saved at C.
    assert_eq!(
        run(&tree, Algorithm::Pvs).1,
        ["a", "b", "b", "c", "e", "g", "h"]
    );
    assert_eq!(run(&tree, Algorithm::NegaScoutMinimax).1, ns);
}

/// No uniform tree smaller than b=2, h=3 lets NegaScout beat alpha-beta (values 0..4).
#[test]
fn no_smaller_uniform_tree_lets_negascout_win() {
    for (b, h) in [(2u32, 1u32), (3, 1), (2, 2), (3, 2)] {
        let n = b.pow(h);
        for code in 0..4u64.pow(n) {
            let mut c = code;
            let mut vals = (0..n).map(|_| {
                let x = c % 4;
                c /= 4;
                x
            });
            let text = uniform_text(b, h, true, &mut vals);
            let t = ExplicitTree::parse(&text).unwrap();
            let ab = search(&t.root(), Algorithm::AlphaBeta, h, &Limits::none());
            let ns = search(&t.root(), Algorithm::NegaScout, h, &Limits::none());
            assert!(ns.stats.leaves >= ab.stats.leaves, "{text}");
        }
    }
}

fn uniform_text(b: u32, h: u32, max: bool, vals: &mut impl Iterator<Item = u64>) -> String {
    if h == 0 {
        return vals.next().unwrap().to_string();
    }
    let kids: Vec<String> = (0..b).map(|_| uniform_text(b, h - 1, !max, vals)).collect();
    format!("({} {})", if max { "max" } else { "min" }, kids.join(" "))
}

/// Knuth & Moore: on a perfectly ordered uniform tree alpha-beta evaluates exactly
/// `b^ceil(h/2) + b^floor(h/2) - 1` leaves (Hsu, *Scout and NegaScout*, "Number of nodes visited"); so do NegaScout
/// and PVS, whose null windows all fail the right way.
#[test]
fn perfectly_ordered_trees_visit_exactly_the_minimal_tree() {
    for (b, h) in [
        (2u32, 2u32),
        (2, 5),
        (2, 10),
        (3, 3),
        (3, 6),
        (4, 4),
        (5, 5),
        (8, 4),
        (8, 5),
        (20, 3),
        (40, 3),
    ] {
        let minimal = b.pow(h.div_ceil(2)) + b.pow(h / 2) - 1;
        for seed in 0..3 {
            let spec = RandomTreeSpec {
                order: TreeOrder::Perfect,
                ..RandomTreeSpec::new(b, h, seed)
            };
            let root = spec.root().unwrap();
            for algo in [
                Algorithm::AlphaBeta,
                Algorithm::AlphaBetaHard,
                Algorithm::NegaScout,
                Algorithm::NegaScoutMinimax,
                Algorithm::Pvs,
            ] {
                let r = search(&root, algo, h, &Limits::none());
                assert_eq!(
                    r.stats.leaves,
                    u64::from(minimal),
                    "{algo} b={b} h={h} seed={seed}"
                );
                assert_eq!(r.stats.re_searches, 0, "{algo}: no null window fails high");
            }
            let mm = search(&root, Algorithm::Minimax, h, &Limits::none());
            assert_eq!(mm.stats.leaves, u64::from(b).pow(h));
        }
    }
}

/// The "m is max possible" cut (Hsu, *Scout and NegaScout*, F4 line 14): on a discrete tree NegaScout stops a MAX
/// node as soon as it finds the top value; alpha-beta has no such cut.
#[test]
fn max_possible_cut_saves_leaves_on_discrete_trees() {
    let mut ns_total = 0;
    let mut ab_total = 0;
    for seed in 0..50 {
        let spec = RandomTreeSpec {
            values: Values::Discrete(2),
            ..RandomTreeSpec::new(4, 6, seed)
        };
        let root = spec.root().unwrap();
        let ab = search(&root, Algorithm::AlphaBeta, 6, &Limits::none());
        let ns = search(&root, Algorithm::NegaScout, 6, &Limits::none());
        assert_eq!(ab.value, ns.value);
        ab_total += ab.stats.leaves;
        ns_total += ns.stats.leaves;
    }
    assert!(
        ns_total < ab_total,
        "NegaScout {ns_total} vs alpha-beta {ab_total}"
    );
}

/// The depth < 3 refinement saves re-searches and never changes the value.
#[test]
fn shallow_refinement_saves_re_searches() {
    let mut with = 0;
    let mut without = 0;
    for seed in 0..30 {
        let root = RandomTreeSpec::new(6, 5, seed).root().unwrap();
        let mut cfg = SearchConfig::new(5);
        let a = search_with(&root, Algorithm::NegaScout, &cfg);
        cfg.shallow_refinement = false;
        let b = search_with(&root, Algorithm::NegaScout, &cfg);
        assert_eq!(a.value, b.value);
        with += a.stats.re_searches;
        without += b.stats.re_searches;
    }
    assert!(with < without, "{with} vs {without}");
}

/// A node budget stops every algorithm cleanly, marked incomplete, within the budget.
#[test]
fn node_budget_stops_cleanly() {
    let spec = RandomTreeSpec {
        turns: Turns::Random,
        ..RandomTreeSpec::new(8, 8, 3)
    };
    let root = spec.root().unwrap();
    for algo in Algorithm::ALL {
        let r = search(&root, algo, 8, &Limits::none().with_max_nodes(5_000));
        assert!(!r.complete, "{algo}");
        assert!(r.stats.nodes() <= 5_000, "{algo}: {}", r.stats.nodes());
        // What it reports is the best root move among children searched to the end, with its
        // value; CNS, a best-first search, reports its current best child and, like every
        // unfinished search, no value (its range so far is in the details).
        if let Some(m) = r.best_move {
            assert!(m < 8);
            assert_eq!(
                r.value.is_some(),
                !matches!(algo, Algorithm::Cns(_)),
                "{algo}"
            );
        }
    }
    let r = search(
        &root,
        Algorithm::AlphaBeta,
        8,
        &Limits::none().with_max_nodes(1_000_000_000),
    );
    assert!(r.complete);
}
