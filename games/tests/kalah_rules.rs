//! Kalah's two capture rules against a Kalah written apart: a board of plain integers sown one
//! seed at a time and valued by memoised minimax to the end of the game. It shares no code with
//! `gamesearch_games::Kalah` (whose sowing laps the board in bulk and whose text form it only
//! reads in the end, to compare), so a slip in either shows as a difference.

use std::collections::HashMap;

use gamesearch::solver::{solve_alphabeta, SolveConfig};
use gamesearch::Game;
use gamesearch_games::{Kalah, Rule};
use proptest::prelude::*;

/// The oracle's board: `cells[0..m]` South's pits, `cells[m]` South's store, `cells[m+1..2m+1]`
/// North's pits, `cells[2m+1]` North's store; `south` is the side to move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Board {
    cells: Vec<i32>,
    south: bool,
}

/// One rule set of the oracle: does a last seed in an own empty pit opposite an empty pit count?
#[derive(Clone, Copy)]
struct Rules {
    capture_from_empty: bool,
}

impl Board {
    fn start(m: usize, n: i32) -> Board {
        let mut cells = vec![n; 2 * m + 2];
        cells[m] = 0;
        cells[2 * m + 1] = 0;
        Board { cells, south: true }
    }

    fn m(&self) -> usize {
        (self.cells.len() - 2) / 2
    }

    /// The mover's pits as indices into `cells`.
    fn own_pits(&self) -> std::ops::Range<usize> {
        let m = self.m();
        if self.south {
            0..m
        } else {
            m + 1..2 * m + 1
        }
    }

    fn over(&self) -> bool {
        let m = self.m();
        self.cells[..m].iter().all(|&c| c == 0)
            || self.cells[m + 1..2 * m + 1].iter().all(|&c| c == 0)
    }

    /// Legal moves: the mover's non-empty pits, as 0-based pit numbers.
    fn moves(&self) -> Vec<usize> {
        if self.over() {
            return vec![];
        }
        let first = self.own_pits().start;
        self.own_pits()
            .filter(|&i| self.cells[i] > 0)
            .map(|i| i - first)
            .collect()
    }

    fn play(&self, pit: usize, rules: Rules) -> Board {
        let m = self.m();
        let len = 2 * m + 2;
        let (store, other_store) = if self.south {
            (m, 2 * m + 1)
        } else {
            (2 * m + 1, m)
        };
        let mut b = self.clone();
        let mut at = self.own_pits().start + pit;
        let mut hand = b.cells[at];
        b.cells[at] = 0;
        while hand > 0 {
            at = (at + 1) % len;
            if at == other_store {
                continue;
            }
            b.cells[at] += 1;
            hand -= 1;
        }
        if at != store {
            if self.own_pits().contains(&at) && b.cells[at] == 1 {
                let across = 2 * m - at;
                if b.cells[across] > 0 || rules.capture_from_empty {
                    b.cells[store] += 1 + b.cells[across];
                    b.cells[at] = 0;
                    b.cells[across] = 0;
                }
            }
            b.south = !b.south;
        }
        if b.over() {
            for i in 0..m {
                b.cells[m] += b.cells[i];
                b.cells[i] = 0;
                b.cells[2 * m + 1] += b.cells[m + 1 + i];
                b.cells[m + 1 + i] = 0;
            }
        }
        b
    }

    /// South's store minus North's at the end of perfect play.
    fn value(&self, rules: Rules, memo: &mut HashMap<Board, i32>) -> i32 {
        let m = self.m();
        if self.over() {
            return self.cells[m] - self.cells[2 * m + 1];
        }
        if let Some(&v) = memo.get(self) {
            return v;
        }
        let values = self
            .moves()
            .into_iter()
            .map(|p| self.play(p, rules).value(rules, memo));
        let v = if self.south {
            values.max()
        } else {
            values.min()
        }
        .expect("a move");
        memo.insert(self.clone(), v);
        v
    }

    /// The library's text form of this board, to compare positions.
    fn text(&self, rule: Rule) -> String {
        let m = self.m();
        let list = |c: &[i32]| c.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
        let suffix = match rule {
            Rule::EmptyCapture => "",
            Rule::Standard => ":standard",
        };
        format!(
            "{}/{}/{},{}/{}{suffix}",
            list(&self.cells[..m]),
            list(&self.cells[m + 1..2 * m + 1]),
            self.cells[m],
            self.cells[2 * m + 1],
            if self.south { 'S' } else { 'N' }
        )
    }
}

fn oracle_rules(rule: Rule) -> Rules {
    Rules {
        capture_from_empty: rule == Rule::EmptyCapture,
    }
}

fn solve(k: &Kalah) -> i32 {
    let cfg = SolveConfig {
        tt_bytes: 1 << 20,
        ..SolveConfig::default()
    };
    solve_alphabeta(k, &cfg, |_| {})
        .unwrap()
        .value
        .expect("solved")
}

/// Every small board from its start, both rules: the solver's value is the oracle's.
#[test]
fn both_rules_equal_the_oracle_on_every_small_board() {
    let mut differ = vec![];
    for m in 1..=4usize {
        for n in 1..=4i32 {
            if m * n as usize > 12 {
                continue; // past the oracle's patience
            }
            let mut values = vec![];
            for rule in [Rule::EmptyCapture, Rule::Standard] {
                let k = Kalah::new(m, n as u32).unwrap().with_rule(rule);
                let want = Board::start(m, n).value(oracle_rules(rule), &mut HashMap::new());
                assert_eq!(solve(&k), want, "Kalah({m},{n}) under {}", rule.name());
                values.push(want);
            }
            if values[0] != values[1] {
                differ.push((m, n, values[0], values[1]));
            }
        }
    }
    // The two rules are two games: on Kalah(2,4) already their values differ.
    assert!(
        differ.iter().any(|&(m, n, ..)| (m, n) == (2, 4)),
        "{differ:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Random games under either rule: after every move the library's position is the oracle's,
    /// and the library's moves are the oracle's.
    #[test]
    fn every_move_lands_where_the_oracle_sows(
        m in 1usize..=6, n in 1i32..=6, standard in any::<bool>(), picks in prop::collection::vec(any::<u16>(), 0..60),
    ) {
        let rule = if standard { Rule::Standard } else { Rule::EmptyCapture };
        let rules = oracle_rules(rule);
        let mut k = Kalah::new(m, n as u32).unwrap().with_rule(rule);
        let mut b = Board::start(m, n);
        for pick in picks {
            let moves = b.moves();
            prop_assert_eq!(k.moves().map(usize::from).collect::<Vec<_>>(), moves.clone());
            if moves.is_empty() {
                break;
            }
            let pit = moves[pick as usize % moves.len()];
            k = k.play(pit as u8);
            b = b.play(pit, rules);
            prop_assert_eq!(k.to_string(), b.text(rule));
            prop_assert_eq!(k.to_string().parse::<Kalah>().unwrap(), k);
        }
    }

    /// Endgames of either rule: the solver's value is the oracle's minimax to the end.
    #[test]
    fn endgames_equal_the_oracle(
        m in 2usize..=5, n in 1i32..=4, standard in any::<bool>(), plies in 4usize..40, seed in any::<u64>(),
    ) {
        let rule = if standard { Rule::Standard } else { Rule::EmptyCapture };
        let rules = oracle_rules(rule);
        let mut k = Kalah::new(m, n as u32).unwrap().with_rule(rule);
        let mut b = Board::start(m, n);
        let mut state = seed | 1;
        for _ in 0..plies {
            let moves = b.moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pit = moves[(state % moves.len() as u64) as usize];
            k = k.play(pit as u8);
            b = b.play(pit, rules);
        }
        // Positions with many seeds left are past the oracle's patience.
        let left: i32 = (0..m).map(|i| b.cells[i] + b.cells[m + 1 + i]).sum();
        prop_assume!(left <= 14);
        prop_assert_eq!(solve(&k), b.value(rules, &mut HashMap::new()), "{}", k);
    }
}
