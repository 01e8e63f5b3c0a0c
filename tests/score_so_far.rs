//! `SolverKnowledge::score_so_far`: a game whose positions carry a running score keeps its
//! transpositions in the solver's table, and every solver still gives the true value; and
//! `SolverKnowledge::endgame_value`: a game's own search over its last plies, within the solver's
//! window, gives the solver the true value too — both checked against the coins-in-a-row game's
//! own recurrence, written apart.

use gamesearch::exact::{solve, Method};
use gamesearch::{Game, Player, PositionKey, Score, SolveConfig, SolverKnowledge};
use proptest::prelude::*;

/// Coins in a row; each side in turn takes the coin at either end; the value is MAX's coins
/// less MIN's. Taking left then right reaches the same coins as right then left, with another
/// score: transpositions that only a table keyed without the score finds.
///
/// `STEP`: the game's [`SolverKnowledge::VALUE_STEP`] (rows of multiples of it only).
#[derive(Clone, Debug)]
struct Coins<const STEP: Score = 1> {
    row: std::sync::Arc<Vec<Score>>,
    from: usize,
    to: usize,
    banked: Score,
    max_moves: bool,
    /// Whether the game reports its score so far to the solver.
    reports: bool,
    /// Coins left at or below which the game searches the rest itself (0: never).
    small: usize,
}

impl<const STEP: Score> Game for Coins<STEP> {
    /// `true`: the left end.
    type Move = bool;
    type Moves = std::iter::Take<std::array::IntoIter<bool, 2>>;

    fn to_move(&self) -> Player {
        if self.max_moves {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn moves(&self) -> Self::Moves {
        [true, false].into_iter().take((self.to - self.from).min(2))
    }

    fn play(&self, left: bool) -> Self {
        let (coin, from, to) = if left {
            (self.row[self.from], self.from + 1, self.to)
        } else {
            (self.row[self.to - 1], self.from, self.to - 1)
        };
        Coins {
            row: self.row.clone(),
            from,
            to,
            banked: self.banked + self.to_move().sign() * coin,
            max_moves: !self.max_moves,
            reports: self.reports,
            small: self.small,
        }
    }

    fn evaluate(&self) -> Score {
        self.banked
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        let left: Score = self.row[self.from..self.to].iter().map(|c| c.abs()).sum();
        Some((self.banked - left, self.banked + left))
    }
}

impl<const STEP: Score> Coins<STEP> {
    fn new(row: Vec<Score>, reports: bool) -> Self {
        Coins {
            to: row.len(),
            row: std::sync::Arc::new(row),
            from: 0,
            banked: 0,
            max_moves: true,
            reports,
            small: 0,
        }
    }

    /// Fail-soft alpha-beta over the rest of the row, MAX's view, within `(alpha, beta)`.
    fn small_search(&self, alpha: Score, beta: Score, nodes: &mut u64) -> Score {
        *nodes += 1;
        if self.from == self.to {
            return self.banked;
        }
        let max = self.max_moves;
        let mut best = if max { -Score::MAX } else { Score::MAX };
        for mv in self.moves() {
            let (a, b) = if max {
                (alpha.max(best), beta)
            } else {
                (alpha, beta.min(best))
            };
            let v = self.play(mv).small_search(a, b, nodes);
            best = if max { best.max(v) } else { best.min(v) };
            if (max && best >= beta) || (!max && best <= alpha) {
                break;
            }
        }
        best
    }

    /// The coins left and the mover.
    fn board_key(&self) -> u64 {
        (self.from as u64) << 33 | (self.to as u64) << 1 | u64::from(self.max_moves)
    }
}

impl<const STEP: Score> PositionKey for Coins<STEP> {
    /// The whole position, the score included (the key every algorithm but the solver's table
    /// uses).
    fn key(&self) -> u64 {
        (self.board_key() ^ (self.banked as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }
}

impl<const STEP: Score> SolverKnowledge for Coins<STEP> {
    const VALUE_STEP: Score = STEP;

    fn score_so_far(&self) -> Option<(Score, u64)> {
        self.reports.then(|| (self.banked, self.board_key()))
    }

    fn endgame_value(&self, alpha: Score, beta: Score, nodes: &mut u64) -> Option<Score> {
        (self.to - self.from <= self.small).then(|| self.small_search(alpha, beta, nodes))
    }
}

/// The oracle: the mover's best margin on coins `i..j`, by the game's recurrence (each end
/// taken, the opponent's best margin on the rest subtracted), bottom up.
fn best_margin(row: &[Score]) -> Score {
    let n = row.len();
    let mut m = vec![vec![0; n + 1]; n + 1];
    for len in 1..=n {
        for i in 0..=n - len {
            let j = i + len;
            m[i][j] = (row[i] - m[i + 1][j]).max(row[j - 1] - m[i][j - 1]);
        }
    }
    m[0][n]
}

/// The mover's margin when it takes the left end (`true`) or the right one and both sides play
/// best after: the coin taken less the opponent's best margin on the rest.
fn margin_after(row: &[Score], left: bool) -> Score {
    let (taken, rest) = if left {
        (row[0], &row[1..])
    } else {
        (row[row.len() - 1], &row[..row.len() - 1])
    };
    taken - best_margin(rest)
}

fn cfg(threads: usize) -> SolveConfig {
    SolveConfig {
        tt_bytes: 1 << 20,
        threads,
        ..SolveConfig::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, .. ProptestConfig::default() })]

    /// Every solver, reporting the score or not, on one or two threads: the recurrence's value.
    #[test]
    fn every_solver_gives_the_true_value(row in prop::collection::vec(-30i32..=30, 1..=12)) {
        let want = best_margin(&row);
        for reports in [false, true] {
            let g = Coins::<1>::new(row.clone(), reports);
            for method in [Method::AlphaBetaTt, Method::PnMulti, Method::DfpnMulti] {
                let s = solve(&g, method, &cfg(1)).unwrap();
                prop_assert_eq!(s.value, Some(want), "{:?} reports {}", method, reports);
            }
            // Enhanced transposition cut-offs read the children's entries, relative to theirs.
            let etc = SolveConfig { etc_plies: Some(64), ..cfg(1) };
            prop_assert_eq!(solve(&g, Method::AlphaBetaTt, &etc).unwrap().value, Some(want));
            let s = solve(&g, Method::AlphaBetaTt, &cfg(2)).unwrap();
            prop_assert_eq!(s.value, Some(want), "two threads, reports {}", reports);
            // The best move reaches the value.
            let mv = s.best_move.expect("a move");
            prop_assert_eq!(margin_after(&row, mv), want);
        }
    }
}

/// Reporting the score lets the table find the transpositions: on 24 coins, a seventh of the
/// nodes (2,430 against 16,763 when written).
#[test]
fn the_score_so_far_keeps_transpositions() {
    let row: Vec<Score> = (0..24).map(|i| (i * 7919 % 41) - 20).collect();
    let nodes = |reports| {
        let s = solve(
            &Coins::<1>::new(row.clone(), reports),
            Method::AlphaBetaTt,
            &cfg(1),
        )
        .unwrap();
        assert_eq!(s.value, Some(best_margin(&row)));
        s.stats.nodes()
    };
    let (without, with) = (nodes(false), nodes(true));
    assert!(
        with * 4 < without,
        "nodes with the score reported {with}, without {without}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, .. ProptestConfig::default() })]

    /// A game that searches its last coins itself, within the solver's window: the recurrence's
    /// value, on one and two threads, with the score reported or not, and a best move that
    /// reaches it.
    #[test]
    fn the_games_own_endgame_search_gives_the_true_value(
        row in prop::collection::vec(-30i32..=30, 1..=12),
        small in 1usize..=6,
    ) {
        let want = best_margin(&row);
        for reports in [false, true] {
            let g = Coins { small, ..Coins::<1>::new(row.clone(), reports) };
            for threads in [1, 2] {
                let s = solve(&g, Method::AlphaBetaTt, &cfg(threads)).unwrap();
                prop_assert_eq!(s.value, Some(want), "threads {} reports {}", threads, reports);
                let mv = s.best_move.expect("a move");
                prop_assert_eq!(margin_after(&row, mv), want);
            }
        }
    }
}

/// The solver asks the hook and counts its positions: a row searched by the game alone from the
/// root takes one node of the solver's and every node of the game's search.
#[test]
fn the_endgame_search_is_asked_and_counted() {
    let row: Vec<Score> = (0..10).map(|i| (i * 7919 % 41) - 20).collect();
    let g = Coins {
        small: 10,
        ..Coins::<1>::new(row.clone(), false)
    };
    let mut nodes = 0;
    let whole = g.small_search(-Score::MAX, Score::MAX, &mut nodes);
    assert_eq!(whole, best_margin(&row));
    let s = solve(&g, Method::AlphaBetaTt, &cfg(1)).unwrap();
    assert_eq!(s.value, Some(best_margin(&row)));
    assert_eq!(s.stats.interior, 0, "the root is the game's to search");
    assert!(
        s.stats.leaves > 10,
        "the game's nodes are counted: {}",
        s.stats.leaves
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]

    /// A game whose every value is a multiple of 3 and says so (`VALUE_STEP`): the solver's tests
    /// ask only between multiples of 3, and the value and best move are still the recurrence's,
    /// on one and two threads, with the score reported or not, and within a window.
    #[test]
    fn tests_between_multiples_of_the_value_step_give_the_true_value(
        thirds in prop::collection::vec(-10i32..=10, 1..=12),
    ) {
        let row: Vec<Score> = thirds.iter().map(|c| 3 * c).collect();
        let want = best_margin(&row);
        for reports in [false, true] {
            let g = Coins::<3>::new(row.clone(), reports);
            for threads in [1, 2] {
                let s = solve(&g, Method::AlphaBetaTt, &cfg(threads)).unwrap();
                prop_assert_eq!(s.value, Some(want), "threads {} reports {}", threads, reports);
                prop_assert_eq!(margin_after(&row, s.best_move.expect("a move")), want);
            }
            // A window whose edges are no multiples of 3: the value clamped to it.
            for (a, b) in [(-4, 5), (-1, 1), (2, 7)] {
                let w = SolveConfig { window: Some((a, b)), ..cfg(1) };
                let s = solve(&g, Method::AlphaBetaTt, &w).unwrap();
                let (lo, hi) = s.bounds;
                prop_assert!(lo <= want && want <= hi, "window ({}, {}): {:?}", a, b, s.bounds);
                if (a + 1..b).contains(&want) {
                    prop_assert_eq!(s.value, Some(want), "window ({}, {})", a, b);
                }
            }
        }
    }
}
