//! Connect-Four: the benchmark positions of `tests/data/connect4` solved with the exact
//! expected score (the easy sets here; the others with `gamesearch bench connect4`), weak mode,
//! and small boards.

use gamesearch::adapters::Weak;
use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::solver::{solve_alphabeta, ExactSolver, SolveConfig};
use gamesearch::{Game, Limits, PositionKey, SolverKnowledge};
use gamesearch_games::benchmark::{parse, run, run_on_board, BenchLine, BenchReport};
use gamesearch_games::Connect4;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The lines of `tests/data/connect4/{name}`.
fn file(name: &str) -> Vec<BenchLine> {
    let path = format!(
        "{}/../tests/data/connect4/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap()
}

/// One of Pons' sets: 1000 lines.
fn set(name: &str) -> Vec<BenchLine> {
    let lines = file(name);
    assert_eq!(lines.len(), 1000, "{name}");
    lines
}

/// Every one of the set's 1000 positions got its expected score.
fn assert_all_solved(r: &BenchReport) {
    assert_eq!(
        (r.positions, r.mismatches),
        (1000, 0),
        "mismatches at lines {:?}",
        r.mismatch_lines
    );
}

#[test]
fn end_game_set_l3_r1_exact() {
    let r = run(&set("Test_L3_R1"), false, 16 << 20, &Limits::none(), |_| {}).unwrap();
    assert_all_solved(&r);
}

#[test]
fn middle_game_easy_set_l2_r1_exact_and_weak() {
    let lines = set("Test_L2_R1");
    let r = run(&lines, false, 16 << 20, &Limits::none(), |_| {}).unwrap();
    assert_all_solved(&r);
    let w = run(&lines, true, 16 << 20, &Limits::none(), |_| {}).unwrap();
    assert_all_solved(&w);
    // (Weak is not cheaper here: its two tests around 0 are the hard ones, while the exact
    // solve's first tests — does either side win big? — are cheap and fill the table. The
    // reference solver shows the same: 532 nodes a position weak, 449 exact.)
}

#[test]
fn beginning_easy_set_l1_r1_exact() {
    let r = run(&set("Test_L1_R1"), false, 32 << 20, &Limits::none(), |_| {}).unwrap();
    assert_all_solved(&r);
}

/// The random openings on 9x5 and 10x6 (`tools/c4peer/positions.py`): every score in these
/// files is also Steininger's c4's (built for each board, it answered all 200 lines with 0
/// mismatches: docs/results/connect4.md), so they check the solver on an odd board past the 7x6 files
/// (Pons' scores: a second-player win one less than our value) and on a board past 64 bits.
#[test]
fn random_openings_on_9x5_and_10x6_score_as_the_peer_does() {
    let (on_9x5, on_10x6) = (file("Bench_9x5_17"), file("Bench_10x6_22"));
    assert_eq!((on_9x5.len(), on_10x6.len()), (100, 100));
    // (lines, board, weak): win/draw/loss only compares signs, with no score to convert (a
    // weak −1 is not Pons' 0).
    for (lines, (w, h), weak) in [
        (&on_9x5[..], (9, 5), false),
        (&on_10x6[..12], (10, 6), false),
        (&on_9x5[..], (9, 5), true),
    ] {
        let r = run_on_board(lines, w, h, weak, 64 << 20, &Limits::none(), |_| {}).unwrap();
        let counts = (r.positions, r.mismatches);
        assert_eq!(
            counts,
            (lines.len(), 0),
            "{w}x{h} weak {weak}: {:?}",
            r.mismatch_lines
        );
    }
}

/// The solver's settings for the empty small boards below: a 16 MiB table, no deepening (the
/// tests from bisection, as `experiment boards` runs them).
fn small_board_config() -> SolveConfig {
    SolveConfig {
        tt_bytes: 16 << 20,
        id_depth: 0,
        ..SolveConfig::default()
    }
}

/// John Tromp's table of small boards (width x height; first player's result): 4x4 and 5x4 are
/// draws, 6x4 is a second-player win. The exact margin of 6x4 — the second player wins with
/// its 12th and last stone, 24/2 + 1 - 12 = 1 — is our solver's, checked against the sign.
#[test]
fn small_boards() {
    let cfg = small_board_config();
    for (w, h, sign) in [(4, 4, 0), (5, 4, 0), (6, 4, -1)] {
        let s = solve_alphabeta(&Connect4::new(w, h).unwrap(), &cfg, |_| {}).unwrap();
        assert_eq!(s.value.map(i32::signum), Some(sign), "{w}x{h}");
        let s = solve_alphabeta(&Weak::new(Connect4::new(w, h).unwrap()), &cfg, |_| {}).unwrap();
        assert_eq!(s.value, Some(sign), "{w}x{h} weak");
    }
    let s = solve_alphabeta(&Connect4::new(6, 4).unwrap(), &cfg, |_| {}).unwrap();
    assert_eq!(s.value, Some(-1));
}

/// On boards of even width and height, and of height 4, close games are asked first whether
/// the first player loses (`near_zero_guess`): the second player's wins by its last stone on
/// 6x4, 8x4 and 6x6 are proven without the test of whether the first player wins (which would
/// leave an upper bound of 0), and with 0 asked first the value is the same.
#[test]
fn even_boards_and_height_four_ask_first_whether_the_first_player_loses() {
    let cfg = small_board_config();
    for (w, h) in [(6, 4), (8, 4), (6, 6)] {
        let p = Connect4::new(w, h).unwrap();
        assert_eq!(p.near_zero_guess(), -1);
        let mut uppers = Vec::new();
        let s = solve_alphabeta(&p, &cfg, |r| uppers.push(r.upper)).unwrap();
        assert_eq!(s.value, Some(-1), "{w}x{h}");
        assert!(!uppers.contains(&0), "{w}x{h}: upper bounds {uppers:?}");
        // Asked the other way round (0 first), the upper bound 0 shows.
        let mut other = Vec::new();
        let zero_first = SolveConfig {
            guess: Some(0),
            ..cfg.clone()
        };
        let s = solve_alphabeta(&p, &zero_first, |r| other.push(r.upper)).unwrap();
        assert_eq!(s.value, Some(-1), "{w}x{h}, 0 first");
        assert!(
            other.contains(&0),
            "{w}x{h}, 0 first: upper bounds {other:?}"
        );
    }
    for (w, h) in [(9, 4), (5, 4), (11, 4)] {
        assert_eq!(
            Connect4::new(w, h).unwrap().near_zero_guess(),
            -1,
            "{w}x{h}"
        );
    }
    for (w, h) in [(7, 6), (6, 5), (9, 6), (5, 6), (7, 5)] {
        assert_eq!(Connect4::new(w, h).unwrap().near_zero_guess(), 0, "{w}x{h}");
    }
}

#[test]
fn malformed_bench_lines_are_errors() {
    assert!(parse("4453").is_err());
    assert!(parse("4453 x").is_err());
    assert!(parse("4453 1 2").is_err());
    let lines = parse("4444444 0").unwrap(); // column 4 overflows
    assert!(run(&lines, false, 1 << 20, &Limits::none(), |_| {}).is_err());
}

/// A position of a `w x h` board reached by random moves until at most `empty` cells are left
/// (or the game is over).
fn random_position(w: usize, h: usize, empty: usize, seed: u64) -> Connect4 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Connect4::new(w, h).unwrap();
    while w * h - p.moves_played() > empty {
        let moves: Vec<u8> = p.moves().collect();
        if moves.is_empty() {
            break;
        }
        p = p.play(moves[rng.gen_range(0..moves.len())]);
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// The exact solver with every Connect-Four hook (immediate wins, non-losing moves, quiet
    /// bounds, threat ordering, dead stones in the key) equals plain minimax to the end of the
    /// game — which uses none of them — on boards from 3x3 to 7x6, 6x4 (the first test near 0
    /// at −1), 4x8 and 7x7 (dead stones), 3x10 and 20x2 (more than 16 columns), exact and
    /// weak, with one solver and a tiny table reused across positions (collisions,
    /// replacement).
    #[test]
    fn solver_equals_full_minimax_on_connect4(
        size in 0usize..11, empty in 0usize..=9, seed in any::<u64>(),
    ) {
        let (w, h) = [(3, 3), (4, 4), (5, 4), (4, 5), (6, 3), (7, 6), (20, 2), (4, 8), (3, 10), (7, 7), (6, 4)][size];
        let p = random_position(w, h, empty, seed);
        let mm = search(&p, DepthFirst::Minimax, 100, &Limits::none());
        prop_assert!(mm.complete);
        let cfg = SolveConfig { tt_bytes: 1 << 10, id_depth: 0, ..SolveConfig::default() };
        thread_local! {
            static SOLVER: std::cell::RefCell<Option<ExactSolver<Connect4>>> =
                const { std::cell::RefCell::new(None) };
        }
        let s = SOLVER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let solver = slot.get_or_insert_with(|| ExactSolver::new(&cfg).unwrap());
            solver.solve(&p, &cfg, |_| {}).unwrap()
        });
        prop_assert_eq!(s.value, mm.value, "{:?} seed {}", p, seed);
        if let Some(mv) = s.best_move {
            let after = search(&p.play(mv), DepthFirst::Minimax, 100, &Limits::none()).value;
            prop_assert_eq!(after, s.value, "best move {} of {:?}", mv + 1, p);
        }
        // Two threads sharing a tiny table (torn and lost entries, moves put off while the
        // other thread searches them): the same value, and a best move (tested by both
        // threads too) that keeps it.
        // (These positions have at most 9 cells left: `alone_up_to_plies` 0 makes the helper
        // join all the same.)
        let two = SolveConfig { threads: 2, tt_bytes: 1 << 12, alone_up_to_plies: 0, ..cfg.clone() };
        let by_two = solve_alphabeta(&p, &two, |_| {}).unwrap();
        prop_assert_eq!(by_two.value, mm.value, "two threads");
        if let Some(mv) = by_two.best_move {
            let after = search(&p.play(mv), DepthFirst::Minimax, 100, &Limits::none()).value;
            prop_assert_eq!(after, mm.value, "two threads' best move {} of {:?}", mv + 1, p);
        }
        // Tests starting from a given guess, then galloping: the same value.
        let guessed = SolveConfig { guess: Some((seed % 7) as i32 - 3), ..cfg.clone() };
        prop_assert_eq!(solve_alphabeta(&p, &guessed, |_| {}).unwrap().value, mm.value, "guess");
        let weak = solve_alphabeta(&Weak::new(p), &cfg, |_| {}).unwrap();
        prop_assert_eq!(weak.value, mm.value.map(i32::signum));
    }
}

/// With two threads, a root with at most `alone_up_to_plies` cells left is solved on one:
/// the same nodes as one thread (the helpers' nodes are counted with the main thread's).
#[test]
fn small_roots_are_solved_alone() {
    let one = SolveConfig {
        tt_bytes: 1 << 20,
        id_depth: 0,
        ..SolveConfig::default()
    };
    let two = SolveConfig {
        threads: 2,
        ..one.clone()
    };
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        let p = Connect4::new(w, h).unwrap();
        let a = solve_alphabeta(&p, &one, |_| {}).unwrap();
        let b = solve_alphabeta(&p, &two, |_| {}).unwrap();
        assert_eq!(
            (a.value, a.stats.nodes()),
            (b.value, b.stats.nodes()),
            "{w}x{h}"
        );
    }
}

/// With several threads the first to finish a test answers it, helpers included: positions
/// big enough that the helpers often finish first (four threads on two cores), solved as one
/// thread solves them. (A helper answer off by one fails this within a few positions.)
#[test]
fn helpers_answer_tests_as_the_main_thread_would() {
    let one = SolveConfig {
        tt_bytes: 1 << 16,
        id_depth: 0,
        threads: 1,
        ..SolveConfig::default()
    };
    let four = SolveConfig {
        threads: 4,
        ..one.clone()
    };
    for seed in 0..60u64 {
        let (w, h) = [(5, 4), (6, 4), (5, 5), (7, 4)][seed as usize % 4];
        let p = random_position(w, h, 22, seed);
        let a = solve_alphabeta(&p, &one, |_| {}).unwrap();
        let b = solve_alphabeta(&p, &four, |_| {}).unwrap();
        assert_eq!(a.value, b.value, "{p:?} seed {seed}");
        assert!(b.complete);
        // (Its best move, found with tests of four threads as well, keeps the value.)
        let mv = b.best_move.expect("a move: the position is not over");
        let after = solve_alphabeta(&p.play(mv), &one, |_| {}).unwrap();
        assert_eq!(after.value, a.value, "best move {} of {p:?}", mv + 1);
    }
}

/// A solver keeps its helper threads between solves: made for one thread, then asked for two,
/// four and one (the helpers started by the first solve that asks for them, started again for
/// another number, kept otherwise), it solves each position as a fresh solver of one thread
/// does.
#[test]
fn a_solver_keeps_its_helpers_between_solves() {
    let one = SolveConfig {
        tt_bytes: 1 << 16,
        id_depth: 0,
        alone_up_to_plies: 0,
        ..SolveConfig::default()
    };
    let mut kept = ExactSolver::<Connect4>::new(&one).unwrap();
    for seed in 0..48u64 {
        let p = random_position(6, 4, 18, seed);
        let threads = [2, 2, 4, 1][seed as usize % 4];
        let a = solve_alphabeta(&p, &one, |_| {}).unwrap();
        let b = kept
            .solve(
                &p,
                &SolveConfig {
                    threads,
                    ..one.clone()
                },
                |_| {},
            )
            .unwrap();
        assert_eq!(a.value, b.value, "{p:?} seed {seed}, {threads} threads");
        assert!(b.complete);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// The symmetry hooks: a position and its mirror image share a canonical key (one of their
    /// own keys), and `mirror_index` maps the mirror's move order onto this position's. (On
    /// boards four columns wide of 32 cells or more (4x8 here) or of 48 cells or more (8x6), a
    /// position with dead stones is keyed by its own code with those stones recoloured, without
    /// its mirror, and not flagged mirrored; the rule, cautious where a shift runs over the top
    /// of a column, may find dead stones in a position and not in its mirror image.)
    #[test]
    fn mirrored_key_and_move_index_match_the_mirror_image(
        size in 0usize..6, plies in 0usize..48, seed in any::<u64>(),
    ) {
        let (w, h) = [(7, 6), (4, 4), (5, 4), (20, 2), (8, 6), (4, 8)][size];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut p, mut q) = (Connect4::new(w, h).unwrap(), Connect4::new(w, h).unwrap());
        for _ in 0..plies {
            let moves: Vec<u8> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            let c = moves[rng.gen_range(0..moves.len())];
            p = p.play(c);
            q = q.play(w as u8 - 1 - c);
        }
        // One key for both; the mirror flag set on exactly one side unless they are equal.
        let (kp, mp) = p.canonical_key().unwrap();
        let (kq, mq) = q.canonical_key().unwrap();
        prop_assert!(mp <= 1 && mq <= 1, "one symmetry: the mirror");
        let (mp, mq) = (mp == 1, mq == 1);
        if kp != kq || (kp != p.key() && kp != q.key()) {
            prop_assert!((w <= 4 && w * h >= 32) || w * h >= 48, "{:?} and {:?}", p, q);
            // A key that is neither code's is a dead-stone key, never flagged mirrored.
            let own = |k: u64| k == p.key() || k == q.key();
            prop_assert!(own(kp) || !mp, "{:?}", p);
            prop_assert!(own(kq) || !mq, "{:?}", q);
        } else {
            prop_assert_eq!(mp, kp != p.key());
            prop_assert_eq!(mq, kq != q.key());
            if p.key() == q.key() {
                prop_assert!(!mp && !mq);
            }
        }
        let (pm, qm): (Vec<u8>, Vec<u8>) = (p.moves().collect(), q.moves().collect());
        for (i, &c) in qm.iter().enumerate() {
            prop_assert_eq!(pm[p.mirror_index(i as u8) as usize], w as u8 - 1 - c);
        }
    }
}

/// A raised stop flag (Ctrl-C in the CLI) ends the benchmark with the positions done.
#[test]
fn stop_flag_ends_the_benchmark_with_the_positions_done() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let limits = Limits::none().with_stop_flag(flag.clone());
    let lines = set("Test_L2_R1");
    let r = run(&lines, false, 1 << 20, &limits, |r| {
        if r.positions == 5 {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .unwrap();
    assert!(r.stopped);
    assert_eq!((r.positions, r.mismatches), (5, 0));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// The solver's static cut-offs trust `static_bounds` (every reply loses at once, the
    /// empty-cell bounds, Claimeven): on positions whose mover has no immediate win, the
    /// exact value always lies within them, on boards of even and of odd height.
    #[test]
    fn static_bounds_contain_the_minimax_value(
        size in 0usize..9, empty in 0usize..=9, seed in any::<u64>(),
    ) {
        let (w, h) = [(4, 4), (5, 4), (6, 4), (7, 6), (4, 6), (5, 5), (4, 5), (6, 5), (4, 7)][size];
        // Random moves that neither end the game nor leave a win on the spot (the positions
        // the solver asks about), until `empty` cells are left.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut p = Connect4::new(w, h).unwrap();
        while w * h - p.moves_played() > empty.max(1) {
            let quiet = |c: &u8| {
                let q = p.play(*c);
                !q.is_over() && q.immediate_win().is_none()
            };
            let mut moves: Vec<u8> = p.moves().filter(quiet).collect();
            if moves.is_empty() {
                moves = p.moves().filter(|&c| !p.play(c).is_over()).collect();
            }
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.gen_range(0..moves.len())]);
        }
        prop_assume!(p.immediate_win().is_none() && w * h - p.moves_played() <= empty.max(1));
        let (lo, hi) = p.static_bounds().unwrap();
        // Alpha-beta (itself checked against minimax above and in tests/oracle.rs): minimax
        // alone is too slow on quiet positions with nine empty cells.
        let v = search(&p, DepthFirst::AlphaBeta, 100, &Limits::none()).value.unwrap();
        prop_assert!(lo <= v && v <= hi, "{:?}: {} not in [{}, {}]", p, v, lo, hi);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// The hooks the solver's static pass relies on: `forced_move` is the one move
    /// `non_losing_moves` keeps, exactly when it keeps one (the solver plays it out in the
    /// child's place), and ordering the children by `child_order` gives `order_moves`' order
    /// (the solver uses one or the other depending on the node).
    #[test]
    fn forced_move_and_child_order_agree_with_the_move_hooks(
        size in 0usize..5, plies in 0usize..40, seed in any::<u64>(),
    ) {
        let (w, h) = [(4, 4), (5, 4), (7, 6), (6, 5), (9, 6)][size];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut p = Connect4::new(w, h).unwrap();
        for _ in 0..plies {
            let moves: Vec<u8> = p.moves().collect();
            if moves.is_empty() || p.immediate_win().is_some() {
                break;
            }
            p = p.play(moves[rng.gen_range(0..moves.len())]);
        }
        if p.moves().next().is_some() && p.immediate_win().is_none() {
            let mut moves: Vec<u8> = p.moves().collect();
            let kept = p.non_losing_moves(&mut moves);
            let forced = (kept == 1).then(|| moves[0]);
            prop_assert_eq!(p.forced_move(), forced, "{:?}", p);
        }
        let mut ordered: Vec<u8> = p.moves().collect();
        p.order_moves(&mut ordered);
        let mut by_child: Vec<u8> = p.moves().collect();
        by_child.sort_by_key(|&m| std::cmp::Reverse(p.child_order(m, &p.play(m))));
        prop_assert_eq!(ordered, by_child, "{:?}", p);
    }
}
