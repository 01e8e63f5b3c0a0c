//! Hex against a brute force written apart (a grid of cells, a win found by a flood fill over
//! (row, column) neighbours, a memoised negamax), and against the published openings.

use std::collections::HashMap;

use gamesearch::exact::{solve, Method};
use gamesearch::{Game, SolveConfig, SolverKnowledge, ANY_SUPPORT};
use gamesearch_games::hex::{published, Hex, SWAP};
use proptest::prelude::*;

/// The brute force: cells 0 empty, 1 Black, 2 White, row by row; whose turn; the swap rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Plain {
    n: usize,
    cells: Vec<u8>,
    black_to_move: bool,
    swap_rule: bool,
}

/// The six neighbours of (r, c) in the rhombus: row r+1 sits half a cell to the right.
const AROUND: [(i64, i64); 6] = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)];

impl Plain {
    fn new(n: usize, swap_rule: bool) -> Plain {
        Plain {
            n,
            cells: vec![0; n * n],
            black_to_move: true,
            swap_rule,
        }
    }

    fn from(p: &Hex) -> Plain {
        let n = p.size();
        let cells = (0..n * n)
            .map(|i| {
                if p.black() >> i & 1 == 1 {
                    1
                } else if p.white() >> i & 1 == 1 {
                    2
                } else {
                    0
                }
            })
            .collect();
        Plain {
            n,
            cells,
            black_to_move: p.black_to_move(),
            swap_rule: p.swap_rule(),
        }
    }

    /// Whether `colour`'s stones join its two sides (1: rows 1 and n; 2: columns a and last),
    /// by a flood fill from the first side.
    fn joined(&self, colour: u8) -> bool {
        let n = self.n as i64;
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<(i64, i64)> = (0..n)
            .map(|k| if colour == 1 { (0, k) } else { (k, 0) })
            .filter(|&(r, c)| self.cells[(r * n + c) as usize] == colour)
            .collect();
        while let Some((r, c)) = stack.pop() {
            let i = (r * n + c) as usize;
            if seen[i] {
                continue;
            }
            seen[i] = true;
            if (colour == 1 && r == n - 1) || (colour == 2 && c == n - 1) {
                return true;
            }
            for (dr, dc) in AROUND {
                let (r2, c2) = (r + dr, c + dc);
                if (0..n).contains(&r2)
                    && (0..n).contains(&c2)
                    && self.cells[(r2 * n + c2) as usize] == colour
                {
                    stack.push((r2, c2));
                }
            }
        }
        false
    }

    fn over(&self) -> bool {
        self.joined(1) || self.joined(2)
    }

    fn can_swap(&self) -> bool {
        self.swap_rule
            && !self.black_to_move
            && self.cells.iter().filter(|&&x| x == 1).count() == 1
            && !self.cells.contains(&2)
    }

    /// The moves: empty cells in order, then swap (as `usize::MAX`).
    fn moves(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        let mut out: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i] == 0)
            .collect();
        if self.can_swap() {
            out.push(usize::MAX);
        }
        out
    }

    fn play(&self, m: usize) -> Plain {
        let mut next = self.clone();
        if m == usize::MAX {
            let at = self.cells.iter().position(|&x| x == 1).unwrap();
            let (r, c) = (at / self.n, at % self.n);
            next.cells[at] = 0;
            next.cells[c * self.n + r] = 2;
            next.black_to_move = true;
            return next;
        }
        next.cells[m] = if self.black_to_move { 1 } else { 2 };
        next.black_to_move = !self.black_to_move;
        next
    }

    /// Whether the side to move wins.
    fn mover_wins(&self, memo: &mut HashMap<Plain, bool>) -> bool {
        if let Some(&w) = memo.get(self) {
            return w;
        }
        // The game over: the last mover joined its sides.
        let w = !self.over()
            && self
                .moves()
                .into_iter()
                .any(|m| !self.play(m).mover_wins(memo));
        memo.insert(self.clone(), w);
        w
    }

    /// Black's view: +1 when Black wins.
    fn value(&self, memo: &mut HashMap<Plain, bool>) -> i32 {
        if self.mover_wins(memo) == self.black_to_move {
            1
        } else {
            -1
        }
    }
}

fn small_table() -> SolveConfig {
    SolveConfig {
        tt_bytes: 1 << 22,
        threads: 1,
        ..SolveConfig::default()
    }
}

const METHODS: [Method; 4] = [
    Method::AlphaBetaTt,
    Method::Pn,
    Method::Dfpn,
    Method::DfpnMulti,
];

/// Solves `p` with every method; each value must be `want`, each best move must keep it.
fn check_solvers(p: &Hex, want: i32, memo: &mut HashMap<Plain, bool>) {
    for method in METHODS {
        let s = solve(p, method, &small_table()).unwrap();
        assert_eq!(s.value, Some(want), "{method:?} on {}", p.notation());
        if let Some(m) = s.best_move {
            assert_eq!(
                Plain::from(&p.play(m)).value(memo),
                want,
                "{method:?}'s move {} on {}",
                p.move_name(m),
                p.notation()
            );
        }
    }
}

/// Every position of the boards up to 3x3 (with and without the swap rule), and every
/// opening of 4x4: every solver agrees with the brute force.
#[test]
fn small_boards_agree_with_the_brute_force() {
    let mut memo = HashMap::new();
    for swap in [false, true] {
        for n in 1..=3 {
            // Every position reachable from the start.
            let mut stack = vec![Hex::new(n, swap).unwrap()];
            let mut seen = std::collections::HashSet::new();
            while let Some(p) = stack.pop() {
                if !seen.insert(p.notation()) {
                    continue;
                }
                let want = Plain::from(&p).value(&mut memo);
                check_solvers(&p, want, &mut memo);
                stack.extend(p.moves().map(|m| p.play(m)));
            }
        }
    }
    let start = Hex::new(4, false).unwrap();
    let plain = Plain::new(4, false);
    assert_eq!(plain, Plain::from(&start));
    assert_eq!(plain.value(&mut memo), 1, "the first player wins 4x4");
    for m in start.moves() {
        let p = start.play(m);
        let want = plain.play(m as usize).value(&mut memo);
        check_solvers(&p, want, &mut memo);
    }
}

/// A position after `plies` random moves (fewer if the game ends).
fn random_position(n: usize, swap: bool, plies: usize, seed: u64) -> Hex {
    let mut p = Hex::new(n, swap).unwrap();
    let mut s = seed | 1;
    for _ in 0..plies {
        let moves: Vec<u8> = p.moves().collect();
        if moves.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        p = p.play(moves[(s % moves.len() as u64) as usize]);
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Random positions of every size: the moves, the position after each, the end of the
    /// game and its winner are the brute force's; names and text read back.
    #[test]
    fn the_rules_are_the_brute_forces(n in 1usize..12, swap in any::<bool>(), plies in 0usize..121, seed in any::<u64>()) {
        let p = random_position(n, swap, plies, seed);
        let plain = Plain::from(&p);
        let ours: Vec<usize> = p.moves().map(|m| if m == SWAP { usize::MAX } else { m as usize }).collect();
        prop_assert_eq!(&ours, &plain.moves());
        prop_assert_eq!(p.is_over(), plain.over());
        if p.is_over() {
            // The last mover won.
            let winner = if p.black_to_move() { 2 } else { 1 };
            prop_assert!(plain.joined(winner) && !plain.joined(3 - winner));
            prop_assert_eq!(p.evaluate(), if winner == 1 { 1 } else { -1 });
        } else {
            prop_assert_eq!(p.evaluate(), 0);
        }
        for (m, &pm) in p.moves().zip(&ours) {
            prop_assert_eq!(Plain::from(&p.play(m)), plain.play(pm));
            prop_assert_eq!(p.parse_move(&p.move_name(m)), Ok(m));
        }
        prop_assert_eq!(p.notation().parse::<Hex>().unwrap(), p);
        // The winning cells are the brute force's.
        if !p.is_over() {
            for black in [true, false] {
                let colour = if black { 1 } else { 2 };
                let want: u128 = (0..n * n).filter(|&i| plain.cells[i] == 0 && {
                    let mut q = plain.clone();
                    q.cells[i] = colour;
                    q.joined(colour)
                }).fold(0, |b, i| b | 1 << i);
                prop_assert_eq!(p.winning_cells(black), want);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Random positions of 4x4 to 11x11 with at most 10 empty cells: the knowledge holds
    /// (a virtual connection's owner wins; a dead cell's colour changes no value) and every
    /// solver finds the brute force's value and a move that keeps it.
    #[test]
    fn the_solvers_agree_with_the_brute_force(n in 4usize..12, swap in any::<bool>(), empties in 1usize..11, seed in any::<u64>()) {
        let p = random_position(n, swap, n * n - empties, seed);
        prop_assume!(!p.is_over());
        let plain = Plain::from(&p);
        let mut memo = HashMap::new();
        let want = plain.value(&mut memo);
        for black in [true, false] {
            if p.virtually_joined(black) {
                prop_assert_eq!(want, if black { 1 } else { -1 }, "{} joined on {}", black, p.notation());
            }
        }
        let (lo, hi) = p.quiet_bounds().unwrap();
        prop_assert!(lo <= want && want <= hi, "quiet bounds ({}, {}) of {}", lo, hi, p.notation());
        let dead = p.dead_cells();
        for i in (0..n * n).filter(|&i| dead >> i & 1 == 1) {
            for colour in [1, 2] {
                let mut q = plain.clone();
                q.cells[i] = colour;
                prop_assert_eq!(q.value(&mut memo), want, "dead {} filled with {} on {}", i, colour, p.notation());
            }
        }
        // Inferior-cell fill-in changes no value.
        let (black, white) = p.filled_in();
        prop_assert_eq!(black & p.black(), p.black());
        prop_assert_eq!(white & p.white(), p.white());
        prop_assert_eq!(black & white, 0);
        let mut filled = plain.clone();
        for i in 0..n * n {
            if black >> i & 1 == 1 {
                filled.cells[i] = 1;
            } else if white >> i & 1 == 1 {
                filled.cells[i] = 2;
            }
        }
        // (The fill may join a player's edges: that player has won, whoever is to move.)
        let filled_value = if filled.joined(1) {
            1
        } else if filled.joined(2) {
            -1
        } else {
            filled.value(&mut memo)
        };
        prop_assert_eq!(filled_value, want, "filled in on {}", p.notation());
        check_solvers(&p, want, &mut memo);
    }
}

/// A root that the connections settle names its winning move after a handful of nodes:
/// White, after Black's a1 on 5x5, has a semi connection between its edges, so df-pn proves
/// the root without a child; its deciding move is then looked for among the moves the
/// knowledge keeps, in its order, side by side (in the cells' order, each losing move first
/// solved in full, it took 173 nodes).
#[test]
fn a_root_settled_by_its_connections_finds_its_winning_move_at_once() {
    let p = Hex::new(5, false).unwrap().play_moves("a1").unwrap();
    for method in [Method::Dfpn, Method::DfpnMulti] {
        let s = solve(&p, method, &small_table()).unwrap();
        assert_eq!(s.value, Some(-1), "{method:?}: White wins");
        let m = s.best_move.expect("a winning move");
        let after = solve(&p.play(m), Method::AlphaBetaTt, &small_table()).unwrap();
        assert_eq!(
            after.value,
            Some(-1),
            "{method:?}'s {} wins",
            p.move_name(m)
        );
        assert!(
            s.stats.nodes() <= 20,
            "{method:?}: {} nodes",
            s.stats.nodes()
        );
    }
}

/// The published 6x6 results of every opening (Benzene's regression file): solved by df-pn.
#[test]
#[ignore = "minutes: `cargo test --release -p gamesearch-games --test hex -- --ignored`"]
fn every_6x6_opening_is_the_published_result() {
    let table = published::openings(6).unwrap();
    let start = Hex::new(6, false).unwrap();
    for m in start.moves() {
        let (r, c) = (m as usize / 6, m as usize % 6);
        let want = if table[r].as_bytes()[c] == b'B' {
            1
        } else {
            -1
        };
        let s = solve(
            &start.play(m),
            Method::Dfpn,
            &SolveConfig {
                tt_bytes: 1 << 28,
                ..small_table()
            },
        )
        .unwrap();
        assert_eq!(s.value, Some(want), "opening {}", start.move_name(m));
    }
}

#[test]
fn bad_text_is_an_error() {
    for bad in [
        "",
        "5",
        "x5",
        "0x0",
        "12x12",
        "5x6",
        "5x5:q",
        "5x5:a6",
        "5x5:f1",
        "5x5:a1a1",
        "5x5:swap:a1,a1",
        "5x5:a1,swap",
        "5x5:swap:swap",
        "5x5:board=--/B",
        "2x2:board=BBBB/W",
        "2x2:board=B---/B",
        "2x2:board=BW--/W",
        "2x2:board=----/Q",
        "2x2:board=B-B-/W",
        "2x2:board=--Z-/B",
        "1x1:a1,a1",
        // A character of more than one byte where a move starts (once a panic: the fuzzer's).
        "5x5:c3ex:\u{1c7}>",
        "5x5:sw\u{e4}p",
        "5x5:\u{e9}1",
    ] {
        assert!(bad.parse::<Hex>().is_err(), "{bad}");
    }
}

/// Inferior-cell fill-in against the brute force on 10,000 seeded positions of 3x3 to 7x7 with
/// at most 11 empty cells (6,686 not over, 4,683 of them with a cell to fill): the filled position has the same value, and when the side to move
/// wins, one of the moves the knowledge keeps wins (a pruned move is never the only win). The
/// positions where something was filled are counted (at least half), so that the check cannot
/// pass empty.
#[test]
fn inferior_cell_fill_in_changes_no_value() {
    let mut memo = HashMap::new();
    let (mut filled_some, mut checked) = (0, 0);
    for seed in 0..10000u64 {
        let n = 3 + (seed % 5) as usize;
        let empties = 1 + (seed / 5 % 11) as usize;
        let p = random_position(n, seed % 7 == 0, n * n - empties.min(n * n), seed + 1);
        if p.is_over() {
            continue;
        }
        checked += 1;
        let plain = Plain::from(&p);
        let want = plain.value(&mut memo);
        let (black, white) = p.filled_in();
        if (black | white) != (p.black() | p.white()) {
            filled_some += 1;
        }
        let mut filled = plain.clone();
        for i in 0..n * n {
            if black >> i & 1 == 1 {
                filled.cells[i] = 1;
            } else if white >> i & 1 == 1 {
                filled.cells[i] = 2;
            }
        }
        let filled_value = if filled.joined(1) {
            1
        } else if filled.joined(2) {
            -1
        } else {
            filled.value(&mut memo)
        };
        assert_eq!(filled_value, want, "filled in on {}", p.notation());
        let mover = if p.black_to_move() { 1 } else { -1 };
        if want == mover {
            let mut moves: Vec<u8> = p.moves().collect();
            let kept = p.non_losing_moves(&mut moves);
            // (The solver takes a win on the spot before it asks for the kept moves.)
            let winning_kept = p.immediate_win().is_some()
                || moves[..kept].iter().any(|&m| {
                    let mv = if m == SWAP { usize::MAX } else { m as usize };
                    plain.play(mv).value(&mut memo) == mover
                });
            assert!(winning_kept, "no kept move wins on {}", p.notation());
        }
    }
    assert!(
        filled_some * 2 >= checked,
        "only {filled_some} of {checked} positions had a cell to fill"
    );
}

/// Pruning by refutation ([`SolverKnowledge::prune_by_refutation`]) against the brute force on
/// 4,000 seeded positions of 3x3 to 6x6 with 2 to 10 empty cells: for every move that loses,
/// each sibling the knowledge then drops loses too. The dropped moves are counted (48,567 after
/// 12,858 losing moves), so that the check cannot pass empty.
#[test]
fn a_move_dropped_by_a_refutation_loses_too() {
    let mut memo = HashMap::new();
    let (mut refuted, mut dropped) = (0, 0);
    for seed in 0..4000u64 {
        let n = 3 + (seed % 4) as usize;
        let empties = 2 + (seed / 4 % 9) as usize;
        let p = random_position(n, seed % 7 == 0, n * n - empties.min(n * n), seed + 1);
        if p.is_over() {
            continue;
        }
        let plain = Plain::from(&p);
        let mover = if p.black_to_move() { 1 } else { -1 };
        let mut value_after = |m: u8| {
            let mv = if m == SWAP { usize::MAX } else { m as usize };
            plain.play(mv).value(&mut memo)
        };
        let moves: Vec<u8> = p.moves().collect();
        for &m in &moves {
            if value_after(m) == mover {
                continue;
            }
            refuted += 1;
            let mut open: Vec<u8> = moves.iter().copied().filter(|&o| o != m).collect();
            let kept = p.prune_by_refutation(m, &p.play(m), ANY_SUPPORT, &mut open);
            for &o in &open[kept..] {
                dropped += 1;
                assert_ne!(
                    value_after(o),
                    mover,
                    "{} dropped after {} on {}",
                    p.move_name(o),
                    p.move_name(m),
                    p.notation()
                );
            }
        }
    }
    assert!(
        dropped >= 2 * refuted,
        "only {dropped} moves dropped after {refuted} refuted"
    );
}

/// The supports df-pn keeps of positions the knowledge settles ([`SolverKnowledge::settled_support`],
/// and [`SolverKnowledge::support_of_loss`] where every move is dropped) against the brute force
/// on 4,000 seeded positions of 3x3 to 6x6 with 2 to 10 empty cells: the winner still wins
/// with every empty cell outside the support given to the loser. Counted (2,952 settled), so
/// that the check cannot pass empty; a support without the connection's carrier fails it.
#[test]
fn a_settled_positions_support_is_all_its_winner_needs() {
    let mut memo = HashMap::new();
    let mut checked = 0;
    for seed in 0..4000u64 {
        let n = 3 + (seed % 4) as usize;
        let empties = 2 + (seed / 4 % 9) as usize;
        let p = random_position(n, false, n * n - empties.min(n * n), seed + 7);
        if p.is_over() {
            continue;
        }
        let mut moves: Vec<u8> = p.moves().collect();
        let support = if p.immediate_win().is_none() && p.non_losing_moves(&mut moves) == 0 {
            p.support_of_loss()
        } else {
            p.settled_support()
        };
        if support == ANY_SUPPORT {
            continue;
        }
        let plain = Plain::from(&p);
        let want = plain.value(&mut memo);
        // The loser takes every empty cell outside the support.
        let mut given = plain.clone();
        for (i, cell) in given.cells.iter_mut().enumerate() {
            if *cell == 0 && support >> i & 1 == 0 {
                *cell = if want == 1 { 2 } else { 1 };
            }
        }
        let value = if given.joined(1) {
            1
        } else if given.joined(2) {
            -1
        } else {
            given.value(&mut memo)
        };
        assert_eq!(value, want, "support {support:#x} of {}", p.notation());
        checked += 1;
    }
    assert!(checked >= 2000, "only {checked} positions settled");
}
