//! Dōbutsu shōgi: the rules turned round (every un-move is a move played backwards, and back),
//! the text, and the strong solution made from un-moves against the one made from kept arrows
//! (`solve_strongly`, checked against a brute force in the library's tests) on endgames small
//! enough for the test command; the weak solvers (the exact solver, df-pn) against the strong
//! solution on thousands of positions of an endgame, with small tables. The full solve (the
//! start lost in 78 plies, as Tanaka found) is the ignored test at the end.

use gamesearch::retrograde::{
    solve_by_index, solve_by_unmoves, solve_strongly, DenseIndex, RetrogradeConfig, UnMoves,
};
use gamesearch::{solve, Game, Limits, Method, PositionKey, SolveConfig};
use gamesearch_games::Dobutsu;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Positions met on seeded random games from `root` (every position of each game, until it
/// ends or runs `plies` long).
fn positions_met(root: Dobutsu, seed: u64, games: usize, plies: usize) -> Vec<Dobutsu> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = root;
        for _ in 0..plies {
            out.push(p);
            let moves: Vec<_> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
    out
}

#[test]
fn every_unmove_is_a_move_played_backwards_and_every_move_has_its_unmove() {
    let seed = 74;
    println!("seed {seed}");
    let mut checked = 0;
    for p in positions_met(Dobutsu::start(), seed, 3000, 120) {
        // Each move p → c is found among the un-moves of c's key (its mirror image may be what
        // the key reads back: then p's mirror image is what is found, with p's key).
        for m in p.moves() {
            let c = p.position_of(p.play(m).key()).unwrap();
            let mut back = false;
            c.unmoves(|u| back |= u.key() == p.key());
            assert!(back, "{p} → {c}");
        }
        // Each un-move of p that is not over leads to p's key by a move.
        p.unmoves(|u| {
            assert_ne!(u.to_move(), p.to_move(), "{u} before {p}");
            if u.moves().next().is_some() {
                assert!(u.moves().any(|m| u.play(m).key() == p.key()), "{u} → {p}");
            }
        });
        assert_eq!(p.position_of(p.key()).unwrap().key(), p.key());
        checked += 1;
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn the_text_reads_back_every_position_and_move() {
    for p in positions_met(Dobutsu::start(), 7, 50, 80) {
        let text = p.to_string();
        let back: Dobutsu = format!("dobutsu:board={text}").parse().unwrap();
        assert_eq!(back, p, "{text}");
        for m in p.moves() {
            assert_eq!(p.parse_move(&p.move_name(m)).unwrap(), m, "{text}");
        }
    }
}

#[test]
fn the_ends_follow_the_rules() {
    // Sente's chick takes Gote's; Gote's lion takes it back: nothing is over.
    let p = Dobutsu::start().play_moves("b3b2,b1b2").unwrap();
    assert!(p.moves().next().is_some());
    // Sente's lion reaches Gote's home rank where nothing of Gote's attacks it: Gote has lost.
    let tried: Dobutsu = "dobutsu:board=L../..l/.../.../g".parse().unwrap();
    assert_eq!((tried.moves().count(), tried.evaluate()), (0, 1));
    // The same square attacked by Gote's lion: Gote takes it, and wins.
    let attacked: Dobutsu = "dobutsu:board=Ll./.../.../.../g".parse().unwrap();
    let take = attacked.parse_move("b1a1").unwrap();
    assert_eq!(attacked.play(take).evaluate(), -1);
    // A chick that steps onto the far rank is promoted; one dropped there is not.
    let p: Dobutsu = "dobutsu:board=..l/C../.../..L/s".parse().unwrap();
    assert_eq!(
        p.play(p.parse_move("a2a1").unwrap()).to_string(),
        "H.l/.../.../..L/g"
    );
    let p: Dobutsu = "dobutsu:board=..l/.../.../..L/s/C".parse().unwrap();
    assert_eq!(
        p.play(p.parse_move("C*a1").unwrap()).to_string(),
        "C.l/.../.../..L/g"
    );
}

/// Every position the two solves share, compared (and they must share all).
fn agree(root: &str) -> u64 {
    let root: Dobutsu = root.parse().unwrap();
    let cfg = RetrogradeConfig {
        threads: 2,
        ..RetrogradeConfig::default()
    };
    let by_arrows = solve_strongly(&root, &cfg).unwrap();
    let by_unmoves = solve_by_unmoves(&root, &cfg).unwrap();
    assert_eq!(by_arrows.stats().positions, by_unmoves.stats().positions);
    for p in positions_met(root, 3, 2000, 60) {
        assert_eq!(by_arrows.probe(&p), by_unmoves.probe(&p), "{p}");
        assert!(by_unmoves.probe(&p).is_some(), "{p}");
    }
    let (a, b) = (by_arrows.stats(), by_unmoves.stats());
    assert_eq!((a.wins, a.draws, a.losses), (b.wins, b.draws, b.losses));
    println!(
        "{root}: {} positions, {} won, {} drawn, {} lost for the mover",
        b.positions, b.wins, b.draws, b.losses
    );
    b.positions
}

#[test]
fn endgames_solved_from_unmoves_agree_with_the_arrows() {
    // Lions and chicks; then an elephant more.
    assert!(agree("dobutsu:board=.l./.c./.C./.L./s") > 10_000);
    assert!(agree("dobutsu:board=.l./.c./.C./EL./s") > 100_000);
}

#[test]
fn the_weak_solvers_agree_with_the_strong_solution_where_positions_repeat() {
    let root: Dobutsu = "dobutsu:board=.l./.c./.C./.L./s".parse().unwrap();
    let strong = solve_by_unmoves(&root, &RetrogradeConfig::default()).unwrap();
    // Small tables: entries overwritten and met again on other lines. df-pn solves every
    // position; the exact solver, which searches again every value a repetition decided, is
    // given 100,000 nodes a position, and what it finishes must be right.
    let cfg = |nodes| SolveConfig {
        tt_bytes: 64 << 10,
        limits: Limits::none().with_max_nodes(nodes),
        ..SolveConfig::default()
    };
    let seed = 75;
    println!("seed {seed}");
    let (mut checked, mut by_alphabeta) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    for p in positions_met(root, seed, 1000, 40) {
        if !seen.insert(p.key()) {
            continue;
        }
        let want = strong.probe(&p).unwrap().value;
        for method in [Method::Dfpn, Method::DfpnMulti] {
            let s = solve(&p, method, &cfg(20_000_000)).unwrap();
            assert!(s.complete, "{method} at {p}: budget");
            assert_eq!(s.value, Some(want), "{method} at {p}");
        }
        let s = solve(&p, Method::AlphaBetaTt, &cfg(100_000)).unwrap();
        if s.complete {
            assert_eq!(s.value, Some(want), "alphabeta-tt at {p}");
            by_alphabeta += 1;
        }
        checked += 1;
    }
    println!("{checked} positions, {by_alphabeta} of them finished by alpha-beta");
    assert!(checked >= 1000, "{checked}");
    assert!(by_alphabeta * 2 >= checked, "{by_alphabeta} of {checked}");
}

/// Tanaka's way of counting, written apart on the positions' text: breadth first from the
/// root, a position is not looked past when the side to move can take the opponent's lion, or
/// when the opponent's lion stands on the mover's home rank (the game is over there); a position
/// and its mirror image are one. The strong solution's positions with both lions must be those.
#[test]
fn the_positions_with_both_lions_are_counted_as_tanaka_counts() {
    fn count_as_tanaka(root: Dobutsu) -> u64 {
        let ranks =
            |p: &Dobutsu| -> Vec<String> { p.to_string().split('/').map(String::from).collect() };
        let over = |p: &Dobutsu| {
            let r = ranks(p);
            let (home, their_lion) = if r[4] == "s" {
                (&r[3], 'l')
            } else {
                (&r[0], 'L')
            };
            let takes_lion = p
                .moves()
                .any(|m| !ranks(&p.play(m))[..4].concat().contains(their_lion));
            home.contains(their_lion) || takes_lion
        };
        let mut seen = std::collections::HashSet::from([root.key()]);
        let mut frontier = vec![root];
        while let Some(p) = frontier.pop() {
            if over(&p) {
                continue;
            }
            for m in p.moves() {
                let c = p.play(m);
                if seen.insert(c.key()) {
                    frontier.push(c);
                }
            }
        }
        seen.len() as u64
    }
    for root in [
        "dobutsu:board=.l./.c./.C./.L./s",
        "dobutsu:board=.l./.c./.C./EL./s",
    ] {
        let root: Dobutsu = root.parse().unwrap();
        let s = solve_by_unmoves(&root, &RetrogradeConfig::default()).unwrap();
        let want = count_as_tanaka(root);
        println!(
            "{root}: {want} positions with both lions, of {}",
            s.stats().positions
        );
        assert_eq!(Dobutsu::with_both_lions(&s), want, "{root}");
        let stop = std::sync::atomic::AtomicBool::new(false);
        assert_eq!(root.count_with_both_lions(&stop), Some(want), "{root}");
        assert!(want < s.stats().positions, "{root}");
    }
}

/// The full solve: `cargo test --release -p gamesearch-games --test dobutsu -- --ignored
/// --nocapture` (11 minutes and 8.5 GiB on two cores; the command line's `tablebase build
/// dobutsu` is the same solve). Both figures are Tanaka's (2009): the start lost for Sente in
/// The byte-a-number table against the keys' solution, on every position the keys' solve
/// reached (and their best moves keep the value as fast or as slow).
#[test]
fn endgames_solved_over_the_dense_index_agree_with_the_unmoves() {
    for root in [
        "dobutsu:board=.l./.c./.C./.L./s",
        "dobutsu:board=.l./.c./.C./EL./s",
        "dobutsu:board=gl./.../.../.LG/s",
    ] {
        let root: Dobutsu = root.parse().unwrap();
        let cfg = RetrogradeConfig {
            threads: 2,
            ..RetrogradeConfig::default()
        };
        let by_keys = solve_by_unmoves(&root, &cfg).unwrap();
        let dense = solve_by_index(&root, &cfg).unwrap();
        assert!(dense.complete());
        let mut compared = 0;
        for key in by_keys.keys() {
            let p = root.position_of(key).unwrap();
            let want = by_keys.probe(&p);
            assert!(want.is_some(), "{p}");
            assert_eq!(dense.probe(&p), want, "{p}");
            if let Some(m) = dense.best_move(&p) {
                let (a, b) = (dense.probe(&p.play(m)), by_keys.probe(&p.play(m)));
                assert_eq!(a, b, "{p}: {m:?}");
            }
            compared += 1;
        }
        println!(
            "{root}: {compared} positions agree; {} numbers",
            root.index_len()
        );
        assert!(compared > 5_000);
    }
}

/// 78 plies, and 246,803,167 positions reachable before a lion is taken (the side to move and
/// mirror images merged; docs/results/cycles.md).
#[test]
#[ignore]
fn the_start_is_lost_in_78_plies() {
    let cfg = RetrogradeConfig {
        threads: 2,
        max_positions: 1 << 30,
        ..RetrogradeConfig::default()
    };
    let s = solve_by_unmoves(&Dobutsu::start(), &cfg).unwrap();
    let st = s.stats();
    println!("{st:?}");
    let start = s.probe(&Dobutsu::start()).unwrap();
    println!("start: {start:?}");
    assert_eq!((start.value, start.remoteness), (-1, Some(78)));
    assert_eq!(Dobutsu::with_both_lions(&s), 246_803_167);
}

/// The same over the dense index (docs/results/cycles.md: its time and memory beside
/// clausecker/dobutsu's).
#[test]
#[ignore]
fn the_start_is_lost_in_78_plies_over_the_dense_index() {
    let cfg = RetrogradeConfig {
        threads: 2,
        ..RetrogradeConfig::default()
    };
    let s = solve_by_index(&Dobutsu::start(), &cfg).unwrap();
    println!("{:?}", s.stats());
    let start = s.probe(&Dobutsu::start()).unwrap();
    assert_eq!((start.value, start.remoteness), (-1, Some(78)));
}

#[test]
fn a_stopped_solve_claims_nothing_it_has_not_settled() {
    use gamesearch::Limits;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let cfg = RetrogradeConfig {
        limits: Limits::none().with_stop_flag(stop),
        ..RetrogradeConfig::default()
    };
    let s = solve_by_unmoves(&Dobutsu::start(), &cfg).unwrap();
    assert!(!s.complete());
    assert_eq!(s.probe(&Dobutsu::start()), None);
}
