//! The strong solver on a shipped game: every position of tic-tac-toe reachable from the start
//! (5,478, the known count), each with the exact solver's value (alpha-beta with its table, which
//! shares no code with retrograde analysis), its best move keeping that value, and the start a
//! draw.

use gamesearch::retrograde::{solve_strongly, RetrogradeConfig};
use gamesearch::{solve, Game, Method, SolveConfig};
use gamesearch_games::tictactoe::TicTacToe;

#[test]
fn every_tictactoe_position_has_the_exact_solvers_value() {
    let start = TicTacToe::new();
    let s = solve_strongly(&start, &RetrogradeConfig::default()).unwrap();
    assert!(s.complete());
    assert_eq!(s.stats().positions, 5478);
    assert_eq!(s.probe(&start).unwrap().value, 0);
    // Every reachable position, depth first.
    let mut stack = vec![start];
    let mut seen = std::collections::HashSet::new();
    let mut checked = 0;
    while let Some(p) = stack.pop() {
        if !seen.insert(gamesearch::PositionKey::key(&p)) {
            continue;
        }
        let strong = s.probe(&p).expect("reachable");
        let exact = solve(&p, Method::AlphaBetaTt, &SolveConfig::default()).unwrap();
        assert_eq!(Some(strong.value), exact.value.map(i32::signum), "{p:?}");
        if let Some(m) = s.best_move(&p) {
            assert_eq!(s.probe(&p.play(m)).unwrap().value, strong.value, "{p:?}");
        }
        checked += 1;
        stack.extend(p.moves().map(|m| p.play(m)));
    }
    assert_eq!(checked, 5478);
}
