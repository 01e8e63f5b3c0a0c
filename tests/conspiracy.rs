//! Conspiracy-number search: the worked examples of Cater's slides, incremental bounds sequences
//! against the from-scratch oracle after every expansion, and Upsize/Downsize against the
//! sequences. (CNS with ε = 0 against minimax on 20,000 trees is in `tests/oracle.rs`, where
//! `cns` is one of `Algorithm::ALL`.)

use gamesearch::conspiracy::{cns, downsize, upsize, CnConfig, CnTree};
use gamesearch::trees::{ExplicitTree, RandomTreeSpec, Turns, Values};
use gamesearch::{Game, INF};
use proptest::prelude::*;

mod common;
use common::explicit_tree;

/// Cater, *CN and PN search*, "Conspiracy Numbers - Simple Case": A(max)=4: B(min)=4 {D=7, E=4}, C(min)=2 {F=2,
/// G=3}, D..G unexpanded leaves (written as nodes with static values and a child).
#[test]
fn simple_case_conspiracy_numbers() {
    let t = ExplicitTree::parse(
        "(A max (B min (D max=7 0) (E max=4 0)) (C min (F max=2 0) (G max=3 0)))",
    )
    .unwrap();
    let mut cn = CnTree::new(&t.root(), &CnConfig::new(10));
    for path in [&[][..], &[0], &[1]] {
        assert!(cn.expand_at(path));
    }
    assert_eq!(cn.value(), 4);
    // "For A to get the value 5 6 or 7, just 1 node - E - would have to change."
    for v in 5..=7 {
        assert_eq!(upsize(&cn, &[], v), Some(1));
    }
    // "For A to get the value 8 (… +), requires conspiracy of size 2: D&E, or F&G."
    assert_eq!(upsize(&cn, &[], 8), Some(2));
    assert_eq!(upsize(&cn, &[], 1_000), Some(2));
    // "For A to get the value 4, 0 nodes have to change."
    assert_eq!(upsize(&cn, &[], 4), Some(0));
    assert_eq!(downsize(&cn, &[], 4), Some(0));
    // "For A to get the value 1 (… -), 2 nodes (D or E, & F or G) have to change."
    assert_eq!(downsize(&cn, &[], 1), Some(2));
    assert_eq!(downsize(&cn, &[], 2), Some(1));
    assert_eq!(cn.asc(), [4, 7, INF]);
    assert_eq!(cn.desc(), [4, 2, -INF]);
    assert_eq!(cn.range(Some(0)), (4, 4));
    assert_eq!(cn.range(Some(1)), (2, 7));
    assert_eq!(cn.range(Some(2)), (-INF, INF));
}

/// Cater, *CN and PN search*, "Conspiracies of unlikely size": A = 2 over B = 2 {E 3, F 2, G 4}, C = 0 {H 0, I 2,
/// J 2}, D = 1 {K 1, L 2, M 2}.
#[test]
fn conspiracies_of_unlikely_size() {
    let leaf = |n: &str, v: i32| format!("({n} max={v} 0)");
    let text = format!(
        "(A max (B min {} {} {}) (C min {} {} {}) (D min {} {} {}))",
        leaf("E", 3),
        leaf("F", 2),
        leaf("G", 4),
        leaf("H", 0),
        leaf("I", 2),
        leaf("J", 2),
        leaf("K", 1),
        leaf("L", 2),
        leaf("M", 2)
    );
    let t = ExplicitTree::parse(&text).unwrap();
    let mut cn = CnTree::new(&t.root(), &CnConfig::new(10));
    for path in [&[][..], &[0], &[1], &[2]] {
        assert!(cn.expand_at(path));
    }
    assert_eq!(cn.value(), 2);
    // "Values for A of less than 1, or more than 3, require two or more conspirators."
    assert_eq!(cn.range(Some(1)), (1, 3));
    assert_eq!(downsize(&cn, &[], 0), Some(2));
    assert_eq!(upsize(&cn, &[], 4), Some(2));
    // "Values for A of less than 0, or more than 4, require three or more conspirators."
    assert_eq!(cn.range(Some(2)), (0, 4));
    assert_eq!(downsize(&cn, &[], -1), Some(3));
    assert_eq!(upsize(&cn, &[], 5), Some(3));
}

/// Cater, *CN and PN search*, "Tree Growth example: ε=0 NT=2". The slides give each node's value, its static
/// value in brackets and the ranges; this tree carries those static values, and the growth
/// procedure expands the nodes in the slides' order with the slides' values and ranges: A (A = 1),
/// B (A = 0), C and D (A's range [-1, +1], a tie, so Vmin is ruled out next), E (E = 3, A = 1,
/// range [-1, 3]), F (F = 2), G (G = 1, range [0, 3]).
#[test]
fn tree_growth_example() {
    let t = ExplicitTree::parse(
        "(A max=0 (B min=1 (E max=0 (O max=3 0) (P max=0 0) (Q max=0 0)) \
                           (F max=1 (R max=2 0) (S max=1 0) (T max=1 0)) \
                           (G max=1 (U max=1 0) (V max=1 0) (W max=1 0))) \
                  (C min=0 (H max=-1 0) (J max=0 0) (K max=0 0)) \
                  (D min=0 (L max=0 0) (M max=0 0) (N max=0 0)))",
    )
    .unwrap();
    let root = t.root();
    let mut cn = CnTree::new(&root, &CnConfig::new(10));
    let nt = Some(2);
    let expected: [(&[&str], i32, (i32, i32)); 7] = [
        (&["B", "C", "D"], 1, (0, INF)),
        (&["E", "F", "G"], 0, (0, INF)),
        (&["H", "J", "K"], 0, (-1, INF)),
        (&["L", "M", "N"], 0, (-1, 1)),
        (&["O", "P", "Q"], 1, (-1, 3)),
        (&["R", "S", "T"], 1, (-1, 3)),
        (&["U", "V", "W"], 1, (0, 3)),
    ];
    for (children, value, range) in expected {
        let leaf = cn.next_leaf(0, nt).expect("range not yet within ε");
        t.clear_log();
        assert!(cn.expand(leaf));
        assert_eq!(t.evaluated(), children);
        assert_eq!(
            cn.value(),
            value,
            "after expanding the parent of {children:?}"
        );
        assert_eq!(
            cn.range(nt),
            range,
            "after expanding the parent of {children:?}"
        );
    }
    assert_eq!(cn.node_at(&[0, 0]).unwrap().0, 3, "E 3 (0)");
    assert_eq!(cn.node_at(&[0, 1]).unwrap().0, 2, "F 2 (1)");
    assert_eq!(cn.node_at(&[1]).unwrap().0, -1, "C -1 (0)");
    let _ = root.to_move();
}

/// Grows a tree with the real procedure and, after every expansion, checks the incremental
/// sequences against the from-scratch ones, and Upsize/Downsize (the slides' recursion) against
/// the root's sequences.
fn grow_and_check<G: Game>(
    g: &G,
    depth: u32,
    eps: i32,
    nt: Option<usize>,
) -> Result<(), TestCaseError> {
    let mut cn = CnTree::new(g, &CnConfig::new(depth));
    for _ in 0..200 {
        let Some(leaf) = cn.next_leaf(eps, nt) else {
            break;
        };
        prop_assert!(cn.expand(leaf));
        let incremental = cn.snapshot();
        cn.recompute_all();
        prop_assert_eq!(&incremental, &cn.snapshot());
        let (v, asc, desc) = (cn.value(), cn.asc().to_vec(), cn.desc().to_vec());
        for t in [v - 3, v - 1, v, v + 1, v + 2, v + 5] {
            let up = upsize(&cn, &[], t).unwrap();
            let from_seq = asc.iter().position(|&x| x >= t).unwrap_or(usize::MAX);
            prop_assert_eq!(up, from_seq, "upsize({}) asc {:?}", t, asc);
            let down = downsize(&cn, &[], t).unwrap();
            let from_seq = desc.iter().position(|&x| x <= t).unwrap_or(usize::MAX);
            prop_assert_eq!(down, from_seq, "downsize({}) desc {:?}", t, desc);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn incremental_sequences_equal_from_scratch_on_random_trees(
        b in 1u32..=4, h in 0u32..=5, seed in any::<u64>(), m in 2u32..=6,
        random_turns in any::<bool>(), eps in 0i32..=2, nt in prop::option::of(0usize..=4),
    ) {
        let spec = RandomTreeSpec {
            values: Values::Discrete(m),
            turns: if random_turns { Turns::Random } else { Turns::Alternate },
            ..RandomTreeSpec::new(b, h, seed)
        };
        grow_and_check(&spec.root().unwrap(), h, eps, nt)?;
    }

    #[test]
    fn incremental_sequences_equal_from_scratch_on_explicit_trees(
        text in explicit_tree(5), eps in 0i32..=2, nt in prop::option::of(0usize..=4),
    ) {
        let t = ExplicitTree::parse(&text).unwrap();
        grow_and_check(&t.root(), t.height(), eps, nt)?;
    }

    /// With a finite threshold the search stops with a range of width <= ε that contains its value.
    #[test]
    fn finite_threshold_stops_within_accuracy(
        b in 2u32..=4, h in 1u32..=5, seed in any::<u64>(), eps in 0i32..=3, nt in 1usize..=3,
    ) {
        let spec = RandomTreeSpec { values: Values::Discrete(8), ..RandomTreeSpec::new(b, h, seed) };
        let mut cfg = CnConfig::new(h);
        cfg.accuracy = eps;
        cfg.threshold = Some(nt);
        let r = cns(&spec.root().unwrap(), &cfg);
        prop_assert!(r.complete);
        prop_assert!(r.range.1 - r.range.0 <= eps);
        prop_assert!(r.range.0 <= r.value && r.value <= r.range.1);
    }
}
