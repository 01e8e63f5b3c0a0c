//! Splitting a solve into jobs: the jobs' exact values, backed up the top tree, give the root's
//! value and a move that achieves it — on generated positions of every splittable game, at every
//! split depth; every job's text reads back as its position; the keys are stable and merge
//! mirror images; bad splits are errors.

use std::collections::HashSet;

use gamesearch::split::{split, Splittable};
use gamesearch::{solver::solve_alphabeta, Error, Game, PositionKey, SolveConfig, SolverKnowledge};
use gamesearch_games::GameSpec;
use gamesearch_games::{Connect4, Kalah, TicTacToe};
use proptest::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::reached;

fn cfg() -> SolveConfig {
    SolveConfig {
        tt_bytes: 1 << 20,
        threads: 1,
        ..SolveConfig::default()
    }
}

/// Solves each job on its own, combines, and checks the root's value and best move against
/// the one-piece solve.
fn check<G: Splittable + Send + Sync>(root: &G, plies: u32) -> Result<(), TestCaseError> {
    let plan = split(root, plies, 100_000).unwrap();
    let values: Vec<i32> = plan
        .jobs()
        .iter()
        .map(|j| {
            solve_alphabeta(&j.position, &cfg(), |_| {})
                .unwrap()
                .value
                .unwrap()
        })
        .collect();
    let c = plan.combine(|i| Some(values[i]));
    let whole = solve_alphabeta(root, &cfg(), |_| {}).unwrap();
    prop_assert_eq!(c.value, whole.value);
    prop_assert_eq!(c.missing, 0);
    if let Some(m) = c.best_move {
        let after = solve_alphabeta(&root.play(m), &cfg(), |_| {})
            .unwrap()
            .value;
        prop_assert_eq!(after, whole.value, "the best move keeps the value");
    } else {
        prop_assert!(plies == 0 || root.moves().next().is_none());
    }
    // Keys are distinct (merged by the solver's key) and each job's path reaches it.
    let keys: HashSet<u64> = plan.jobs().iter().map(|j| j.key).collect();
    prop_assert_eq!(keys.len(), plan.jobs().len());
    for j in plan.jobs() {
        let mut p = root.clone();
        for &m in &j.path {
            p = p.play(m);
        }
        prop_assert_eq!(p.key(), j.position.key());
    }
    // Without one job's value, the root's value is unknown unless that job did not matter.
    if !plan.jobs().is_empty() {
        let partial = plan.combine(|i| (i > 0).then(|| values[i]));
        prop_assert!(partial.missing >= 1);
        prop_assert_eq!(partial.value, None);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn combined_jobs_give_the_solved_value(
        game in 0..5usize,
        choices in proptest::collection::vec(any::<u8>(), 0..10),
        plies in 0..5u32,
    ) {
        match game {
            0 => check(&reached(&TicTacToe::new(), &choices), plies)?,
            1 => check(&reached(&Connect4::new(4, 4).unwrap(), &choices), plies)?,
            2 => check(&reached(&Connect4::new(5, 4).unwrap(), &choices), plies)?,
            3 => check(&reached(&Kalah::new(3, 2).unwrap(), &choices), plies)?,
            _ => check(&reached(&Kalah::new(4, 2).unwrap(), &choices), plies)?,
        }
    }
}

/// The whole boards the issue names, split at several plies.
#[test]
fn small_boards_split_at_several_plies() {
    for plies in [1, 2, 4, 6] {
        check(&Connect4::new(5, 4).unwrap(), plies).unwrap();
        check(&Kalah::new(4, 2).unwrap(), plies).unwrap();
    }
    check(&TicTacToe::new(), 3).unwrap();
}

/// Every job's `GAME` text parses back to its position, from a root with moves of its own too.
#[test]
fn job_texts_read_back() {
    fn back<G: Splittable>(root: &G, root_text: &str, plies: u32, from: impl Fn(GameSpec) -> G) {
        let plan = split(root, plies, 100_000).unwrap();
        assert!(!plan.jobs().is_empty());
        for j in plan.jobs() {
            let text = plan.job_text(j, root_text);
            let p = from(text.parse::<GameSpec>().unwrap());
            assert_eq!(p.key(), j.position.key(), "{text}");
        }
    }
    let c4 = |s| match s {
        GameSpec::Connect4(p) => p,
        _ => panic!("not connect4"),
    };
    back(&Connect4::new(7, 6).unwrap(), "connect4:7x6", 3, c4);
    back(
        &Connect4::new(7, 6).unwrap().play_moves("44").unwrap(),
        "connect4:7x6:44",
        2,
        c4,
    );
    let kalah = |s| match s {
        GameSpec::Kalah(p) => p,
        _ => panic!("not kalah"),
    };
    back(&Kalah::new(6, 4).unwrap(), "kalah:6,4", 2, kalah);
    let ttt = |s| match s {
        GameSpec::TicTacToe(p) => p,
        _ => panic!("not tictactoe"),
    };
    back(&TicTacToe::new(), "tictactoe", 3, ttt);
}

/// Keys name the rules and are the same however the position was reached or mirrored: the
/// empty 7x6 board at ply 2 has 49 positions, 25 up to mirror images (first stone in columns
/// 1-3, any second: 21; first in 4: the second in 1-4, 4).
#[test]
fn keys_are_stable_and_merge_mirrors() {
    let root = Connect4::new(7, 6).unwrap();
    let plan = split(&root, 2, 1000).unwrap();
    assert_eq!(plan.jobs().len(), 25);
    let a = split(&root, 2, 1000).unwrap();
    let keys = |p: &gamesearch::split::Plan<Connect4>| {
        p.jobs().iter().map(|j| p.job_key(j)).collect::<Vec<_>>()
    };
    assert_eq!(keys(&plan), keys(&a));
    assert!(keys(&plan)[0].starts_with("connect4:7x6/"));
    // "12" and "76" are mirror images: one job.
    let (x, y) = (
        root.play_moves("12").unwrap(),
        root.play_moves("76").unwrap(),
    );
    assert_eq!(x.canonical_key().unwrap().0, y.canonical_key().unwrap().0);
}

/// Too many jobs, and a game that repeats a position, are errors, not a run out of memory or
/// a loop.
#[test]
fn bad_splits_are_errors() {
    let e = split(&Connect4::new(7, 6).unwrap(), 8, 1000).unwrap_err();
    assert!(matches!(e, Error::BadParameter(_)), "{e}");
    assert!(e.to_string().contains("more than 1000 jobs"), "{e}");

    /// Two positions that lead to each other.
    #[derive(Clone, Copy, Debug)]
    struct Loop(bool);
    impl Game for Loop {
        type Move = u8;
        type Moves = std::ops::Range<u8>;
        fn to_move(&self) -> gamesearch::Player {
            gamesearch::Player::Max
        }
        fn moves(&self) -> Self::Moves {
            0..1
        }
        fn play(&self, _: u8) -> Self {
            Loop(!self.0)
        }
        fn evaluate(&self) -> i32 {
            0
        }
    }
    impl PositionKey for Loop {
        fn key(&self) -> u64 {
            self.0.into()
        }
    }
    impl SolverKnowledge for Loop {}
    impl Splittable for Loop {
        fn rules(&self) -> String {
            "loop".into()
        }
        fn game_text(&self, root: &str, _: &[u8]) -> String {
            root.into()
        }
    }
    let e = split(&Loop(false), 4, 1000).unwrap_err();
    assert!(e.to_string().contains("repeats a position"), "{e}");
}

/// A solve within a window `[a, b]`: exact inside, a bound at an edge (`a`: at most `a`, `b`: at
/// least `b`, or tighter), the bounds always true — what a job asked "value ≥ v?" returns with `(v-1, v)`.
fn check_window<G: Splittable + Send + Sync>(
    p: &G,
    a: i32,
    width: i32,
) -> Result<(), TestCaseError> {
    let v = solve_alphabeta(p, &cfg(), |_| {}).unwrap().value.unwrap();
    let (a, b) = (v + a, v + a + width.max(1));
    let c = SolveConfig {
        window: Some((a, b)),
        ..cfg()
    };
    let s = solve_alphabeta(p, &c, |_| {}).unwrap();
    prop_assert!(
        s.bounds.0 <= v && v <= s.bounds.1,
        "bounds {:?} exclude {}",
        s.bounds,
        v
    );
    prop_assert!(s.complete, "no budget: the question is answered");
    // A value, when given, is the value (never a window's edge taken for it).
    prop_assert!(s.value.is_none() || s.value == Some(v));
    if a < v && v < b {
        prop_assert_eq!(s.value, Some(v));
    } else if v <= a {
        prop_assert!(s.bounds.1 <= a, "{:?}", s.bounds); // at most a (fail-soft: maybe less)
    } else {
        prop_assert!(s.bounds.0 >= b, "{:?}", s.bounds);
    }
    if let (Some(m), Some(_)) = (s.best_move, s.value) {
        prop_assert_eq!(
            solve_alphabeta(&p.play(m), &cfg(), |_| {}).unwrap().value,
            Some(v)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn window_solves_are_exact_inside_and_bounds_at_the_edges(
        game in 0..4usize,
        choices in proptest::collection::vec(any::<u8>(), 0..10),
        a in -4..3i32,
        width in 1..4i32,
    ) {
        match game {
            0 => check_window(&reached(&TicTacToe::new(), &choices), a, width)?,
            1 => check_window(&reached(&Connect4::new(4, 4).unwrap(), &choices), a, width)?,
            2 => check_window(&reached(&Connect4::new(5, 4).unwrap(), &choices), a, width)?,
            _ => check_window(&reached(&Kalah::new(4, 2).unwrap(), &choices), a, width)?,
        }
    }
}

#[test]
fn an_empty_window_is_an_error() {
    let c = SolveConfig {
        window: Some((2, 2)),
        ..cfg()
    };
    let e = solve_alphabeta(&TicTacToe::new(), &c, |_| {}).unwrap_err();
    assert!(e.to_string().contains("a < b"), "{e}");
}

/// Job-level proof-number search: `workers` jobs out at a time, answered in a shuffled order
/// (a later answer may come first), some cancelled as needless; the value and best move equal
/// the one-piece solve's, and no job is asked twice at one test value.
fn check_master<G: Splittable + Send + Sync>(
    root: &G,
    plies: u32,
    workers: usize,
    guess: i32,
    seed: u64,
) -> Result<(), TestCaseError> {
    use gamesearch::split::Master;
    let plan = split(root, plies, 100_000).unwrap();
    let whole = solve_alphabeta(root, &cfg(), |_| {}).unwrap();
    let mut m = Master::new(plan.clone(), guess);
    let mut out: Vec<(usize, i32)> = Vec::new();
    let mut asked = HashSet::new();
    let mut rng = seed;
    let mut steps = 0;
    while m.value().is_none() {
        steps += 1;
        prop_assert!(steps < 100_000, "the master does not end");
        let new = m.next_jobs(workers - out.len().min(workers));
        for &(j, v) in &new {
            prop_assert!(asked.insert((j, v)), "job {} asked twice at {}", j, v);
        }
        out.extend(new);
        prop_assert!(
            !out.is_empty(),
            "no job to ask, the value unknown: {:?}",
            m.bounds()
        );
        // Answer one job out, chosen by a generator.
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (j, v) = out.swap_remove((rng >> 33) as usize % out.len());
        let c = SolveConfig {
            window: Some((v - 1, v)),
            ..cfg()
        };
        let s = solve_alphabeta(&plan.jobs()[j].position, &c, |_| {}).unwrap();
        m.record(j, s.bounds);
        let needless = m.needless();
        out.retain(|(j, _)| !needless.contains(j));
    }
    prop_assert_eq!(m.value(), whole.value);
    if plies > 0 && root.moves().next().is_some() {
        let best = m.best_move().expect("a best move");
        prop_assert_eq!(
            solve_alphabeta(&root.play(best), &cfg(), |_| {})
                .unwrap()
                .value,
            whole.value
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn the_master_finds_the_solved_value(
        game in 0..4usize,
        choices in proptest::collection::vec(any::<u8>(), 0..8),
        plies in 0..5u32,
        workers in 1..5usize,
        guess in -3..3i32,
        seed in any::<u64>(),
    ) {
        match game {
            0 => check_master(&reached(&TicTacToe::new(), &choices), plies, workers, guess, seed)?,
            1 => check_master(&reached(&Connect4::new(4, 4).unwrap(), &choices), plies, workers, guess, seed)?,
            2 => check_master(&reached(&Connect4::new(5, 4).unwrap(), &choices), plies, workers, guess, seed)?,
            _ => check_master(&reached(&Kalah::new(4, 2).unwrap(), &choices), plies, workers, guess, seed)?,
        }
    }
}
