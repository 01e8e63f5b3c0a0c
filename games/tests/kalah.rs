//! Kalah: every algorithm against minimax on thousands of positions, the exact solver against
//! full minimax on endgames and generated trees, and the published first-player margins of
//! Irving, Donkers & Uiterwijk, "Solving Kalah" (ICGA J. 2000), Table 9.

use gamesearch::adapters::{MoveOrder, Ordered, WholeTurns};
use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::search as search_with;
use gamesearch::solver::{solve_alphabeta, SolveConfig};
use gamesearch::trees::{ExplicitTree, RandomTreeSpec};
use gamesearch::{Algorithm, Game, Limits, SearchConfig};
use gamesearch_games::Kalah;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position reached by `plies` random moves from the start of Kalah(m, n).
fn random_position(m: usize, n: u32, plies: u32, seed: u64) -> Kalah {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Kalah::new(m, n).unwrap();
    for _ in 0..plies {
        let moves: Vec<u8> = p.moves().collect();
        if moves.is_empty() {
            break;
        }
        p = p.play(moves[rng.gen_range(0..moves.len())]);
    }
    p
}

fn all_agree<G: Game>(g: &G, depth: u32) -> Result<(), TestCaseError> {
    let cfg = SearchConfig::new(depth);
    let v = search_with(g, Algorithm::Minimax, &cfg).value;
    for algo in Algorithm::ALL {
        let r = search_with(g, algo, &cfg);
        prop_assert_eq!(r.value, v, "{} at depth {}", algo, depth);
    }
    Ok(())
}

/// A case the proptest below once drew: a whole turn of Kalah(6, 4) can be one of more than 256
/// sowing sequences, and MTD(f) keyed its children by a move index that saturated at 255, so
/// the 256th and later children shared one table entry (-15 where minimax gives -17).
#[test]
fn mtdf_on_whole_turns_with_hundreds_of_moves_equals_minimax() {
    let p = WholeTurns::new(random_position(6, 4, 20, 10_893_231_297_984_990_366));
    assert!(
        p.moves().count() > 256,
        "the case needs a node with over 256 moves"
    );
    let cfg = SearchConfig::new(3);
    let minimax = search_with(&p, Algorithm::Minimax, &cfg).value;
    assert_eq!(minimax, Some(-17));
    for algo in Algorithm::ALL {
        assert_eq!(search_with(&p, algo, &cfg).value, minimax, "{algo}");
    }
}

static CHECKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static SKIPPED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Most endgame cases are really checked (not skipped as too big for the oracle).
#[test]
fn endgame_oracle_checks_most_cases() {
    solver_equals_full_minimax_on_kalah_endgames();
    let (checked, skipped) = (
        CHECKED.load(std::sync::atomic::Ordering::Relaxed),
        SKIPPED.load(std::sync::atomic::Ordering::Relaxed),
    );
    // (The proptest may also run on its own in parallel; the share is what matters.)
    assert!(
        checked >= 3 * skipped && checked >= 1000,
        "only {checked} endgames checked ({skipped} too big for minimax)"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Depth-limited search on Kalah (extra moves make turns non-alternating): every algorithm
    /// equals minimax, in generation, random and dynamic order, counting plies or whole turns.
    #[test]
    fn every_algorithm_equals_minimax_on_kalah(
        m in 2usize..=6, n in 1u32..=4, plies in 0u32..40, seed in any::<u64>(), depth in 1u32..=4,
    ) {
        let p = random_position(m, n, plies, seed);
        all_agree(&p, depth)?;
        all_agree(&Ordered::new(p, MoveOrder::Random(seed)), depth)?;
        all_agree(&Ordered::new(p, MoveOrder::Dynamic), depth)?;
        all_agree(&WholeTurns::new(p), depth.min(3))?;
    }

    /// The exact solver equals minimax searched to the end, on Kalah endgames.
    #[test]
    fn solver_equals_full_minimax_on_kalah_endgames(
        m in 2usize..=4, n in 1u32..=3, plies in 6u32..40, seed in any::<u64>(),
    ) {
        let p = random_position(m, n, plies, seed);
        // Full minimax is the oracle; early positions of the larger boards are too big for it, so
        // the random play below is long enough that most positions are endgames.
        let mm = search(&p, DepthFirst::Minimax, 200, &Limits::none().with_max_nodes(2_000_000));
        if !mm.complete {
            SKIPPED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Ok(());
        }
        CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cfg = SolveConfig { tt_bytes: 1 << 16, id_depth: 3, ..SolveConfig::default() };
        let s = solve_alphabeta(&p, &cfg, |_| {}).unwrap();
        prop_assert_eq!(s.value, mm.value, "{}", p);
        // The best move reaches the value.
        if let Some(mv) = s.best_move {
            let after = search(&p.play(mv), DepthFirst::Minimax, 200, &Limits::none()).value;
            prop_assert_eq!(after, s.value);
        }
    }

    /// The solver on random trees (tiny table: collisions and replacement exercised).
    #[test]
    fn solver_equals_minimax_on_random_trees(b in 1u32..=5, h in 0u32..=6, seed in any::<u64>()) {
        let root = RandomTreeSpec::new(b, h, seed).root().unwrap();
        let mm = search(&root, DepthFirst::Minimax, h, &Limits::none());
        let cfg = SolveConfig { tt_bytes: 512, id_depth: 2, ..SolveConfig::default() };
        let s = solve_alphabeta(&root, &cfg, |_| {}).unwrap();
        prop_assert_eq!(s.value, mm.value);
        prop_assert!(s.complete);
    }
}

/// Solves the start of Kalah(m, n) and returns the first player's margin.
fn margin(m: usize, n: u32) -> i32 {
    let cfg = SolveConfig {
        tt_bytes: 128 << 20,
        ..SolveConfig::default()
    };
    let s = solve_alphabeta(&Kalah::new(m, n).unwrap(), &cfg, |_| {}).unwrap();
    assert!(s.complete);
    s.value.unwrap()
}

/// Irving et al., Table 9: Kalah(4, n) for n = 1..6: +2, +6, +8, +2, +2, 0.
#[test]
fn published_margins_kalah_4() {
    for (n, expected) in [(1, 2), (2, 6), (3, 8), (4, 2), (5, 2), (6, 0)] {
        assert_eq!(margin(4, n), expected, "Kalah(4,{n})");
    }
}

/// Kalah(5, n) for n = 1..4: 0, 0, +8, +12 (n = 5, 6: +2, +2 — see `gamesearch solve`).
#[test]
fn published_margins_kalah_5() {
    for (n, expected) in [(1, 0), (2, 0), (3, 8), (4, 12)] {
        assert_eq!(margin(5, n), expected, "Kalah(5,{n})");
    }
}

/// Kalah(6, n) for n = 1..3: +2, +10, +2 (n = 4, 5: +10, +12 — see `gamesearch solve`).
#[test]
fn published_margins_kalah_6() {
    for (n, expected) in [(1, 2), (2, 10), (3, 2)] {
        assert_eq!(margin(6, n), expected, "Kalah(6,{n})");
    }
}

/// A node budget ends the solve with true bounds and no value.
#[test]
fn solver_budget_returns_true_bounds() {
    let cfg = SolveConfig {
        tt_bytes: 1 << 20,
        id_depth: 4,
        limits: Limits::none().with_max_nodes(20_000),
        ..SolveConfig::default()
    };
    let s = solve_alphabeta(&Kalah::new(5, 3).unwrap(), &cfg, |_| {}).unwrap();
    assert!(!s.complete);
    assert!(s.stats.nodes() <= 20_001);
    assert!(s.bounds.0 <= 8 && 8 <= s.bounds.1, "{:?}", s.bounds);
}

/// Explicit trees solve too (a node is its own hash).
#[test]
fn solver_on_the_conspiracy_example() {
    let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
    let s = solve_alphabeta(&tree.root(), &SolveConfig::default(), |_| {}).unwrap();
    assert_eq!(s.value, Some(4));
    assert_eq!(s.best_move, Some(0));
}

/// The solver with two threads equals one thread (and the published values) on Kalah boards,
/// whose turns do not alternate.
#[test]
fn two_threads_solve_kalah_as_one_does() {
    for (m, n) in [(3, 3), (4, 3), (5, 2), (6, 2)] {
        let k = Kalah::new(m, n).unwrap();
        let one = solve_alphabeta(
            &k,
            &SolveConfig {
                tt_bytes: 1 << 20,
                ..SolveConfig::default()
            },
            |_| {},
        )
        .unwrap();
        let two = solve_alphabeta(
            &k,
            &SolveConfig {
                tt_bytes: 1 << 20,
                threads: 2,
                ..SolveConfig::default()
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(one.value, two.value, "Kalah({m},{n})");
        assert!(two.complete && two.best_move.is_some());
    }
}

/// Enhanced transposition cutoffs at every ply (a side may move twice in a row, so a child's
/// bound is read from either side's view) give the same values as none, on small tables.
#[test]
fn enhanced_cutoffs_solve_kalah_as_without() {
    for (m, n) in [(3, 3), (4, 2), (4, 3), (5, 2), (6, 2)] {
        let k = Kalah::new(m, n).unwrap();
        let value = |etc| {
            let cfg = SolveConfig {
                tt_bytes: 1 << 14,
                etc_plies: Some(etc),
                ..SolveConfig::default()
            };
            solve_alphabeta(&k, &cfg, |_| {}).unwrap().value
        };
        assert_eq!(value(0), value(200), "Kalah({m},{n})");
        assert!(value(200).is_some());
    }
}
