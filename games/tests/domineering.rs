//! Domineering against a brute force written apart (a grid of booleans, moves found by
//! scanning it, a memoised negamax), and against the published outcome classes.

use std::collections::HashMap;

use gamesearch::exact::{solve, Method};
use gamesearch::{Game, SolveConfig, SolverKnowledge};
use gamesearch_games::domineering::published::{boards, Outcome};
use gamesearch_games::Domineering;
use proptest::prelude::*;

/// The brute force: the board as a grid of booleans (true: empty), whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Plain {
    rows: usize,
    cols: usize,
    empty: Vec<bool>,
    vertical_to_move: bool,
}

impl Plain {
    fn new(rows: usize, cols: usize, vertical_first: bool) -> Plain {
        Plain {
            rows,
            cols,
            empty: vec![true; rows * cols],
            vertical_to_move: vertical_first,
        }
    }

    fn from(p: &Domineering) -> Plain {
        let (rows, cols) = (p.rows(), p.cols());
        let empty = (0..rows * cols).map(|i| p.empty() >> i & 1 == 1).collect();
        Plain {
            rows,
            cols,
            empty,
            vertical_to_move: p.vertical_to_move(),
        }
    }

    fn free(&self, r: usize, c: usize) -> bool {
        r < self.rows && c < self.cols && self.empty[r * self.cols + c]
    }

    /// The mover's dominoes as (first cell, second cell), row by row.
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                let (r2, c2) = if self.vertical_to_move {
                    (r + 1, c)
                } else {
                    (r, c + 1)
                };
                if self.free(r, c) && self.free(r2, c2) {
                    out.push((r * self.cols + c, r2 * self.cols + c2));
                }
            }
        }
        out
    }

    /// Whether the mover's domino is safe: the other side can cover neither of its cells (each
    /// has no empty neighbour across the domino's direction).
    fn is_safe(&self, (a, b): (usize, usize)) -> bool {
        let dead = |i: usize| {
            let (r, c) = (i / self.cols, i % self.cols);
            if self.vertical_to_move {
                !((c > 0 && self.free(r, c - 1)) || self.free(r, c + 1))
            } else {
                !((r > 0 && self.free(r - 1, c)) || self.free(r + 1, c))
            }
        };
        dead(a) && dead(b)
    }

    fn play(&self, (a, b): (usize, usize)) -> Plain {
        let mut next = self.clone();
        next.empty[a] = false;
        next.empty[b] = false;
        next.vertical_to_move = !self.vertical_to_move;
        next
    }

    /// Whether the side to move wins.
    fn mover_wins(&self, memo: &mut HashMap<Plain, bool>) -> bool {
        if let Some(&w) = memo.get(self) {
            return w;
        }
        let w = self
            .moves()
            .into_iter()
            .any(|m| !self.play(m).mover_wins(memo));
        memo.insert(self.clone(), w);
        w
    }

    /// The value from the first player's view (MAX, given by `max_vertical`).
    fn value(&self, max_vertical: bool, memo: &mut HashMap<Plain, bool>) -> i32 {
        let mover_is_max = self.vertical_to_move == max_vertical;
        if self.mover_wins(memo) == mover_is_max {
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

/// Every board of at most 20 cells (4x5 and 5x4 included), each player first: the rules and
/// every exact solver agree with the brute force.
#[test]
fn every_small_board_agrees_with_the_brute_force() {
    let cfg = small_table();
    for rows in 1..=20 {
        for cols in 1..=(20 / rows).min(26) {
            for vertical_first in [true, false] {
                let p = Domineering::new(rows, cols, vertical_first).unwrap();
                let plain = Plain::new(rows, cols, vertical_first);
                let want = plain.value(vertical_first, &mut HashMap::new());
                for method in [
                    Method::AlphaBetaTt,
                    Method::Pn,
                    Method::Dfpn,
                    Method::DfpnMulti,
                ] {
                    let s = solve(&p, method, &cfg).unwrap();
                    assert_eq!(
                        s.value,
                        Some(want),
                        "{method:?} on {rows}x{cols}, V first {vertical_first}"
                    );
                    if let Some(m) = s.best_move {
                        let after = Plain::from(&p.play(m));
                        assert_eq!(
                            after.value(vertical_first, &mut HashMap::new()),
                            want,
                            "{method:?}'s move on {rows}x{cols}"
                        );
                    }
                }
            }
        }
    }
}

/// A position after `plies` random moves on a `rows`×`cols` board (fewer if the game ends).
fn random_position(
    rows: usize,
    cols: usize,
    vertical_first: bool,
    plies: usize,
    seed: u64,
) -> Domineering {
    let mut p = Domineering::new(rows, cols, vertical_first).unwrap();
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

    /// Random positions of boards up to 128 cells: the moves, the position after each, and the
    /// game's end are the brute force's.
    #[test]
    fn the_rules_are_the_brute_forces(rows in 1usize..12, cols in 1usize..27, first in any::<bool>(), plies in 0usize..40, seed in any::<u64>()) {
        prop_assume!(rows * cols <= 128);
        let p = random_position(rows, cols, first, plies, seed);
        let plain = Plain::from(&p);
        let ours: Vec<(usize, usize)> = p.moves().map(|m| {
            let q = p.play(m);
            let gone: Vec<usize> = (0..rows * cols).filter(|&i| p.empty() >> i & 1 == 1 && q.empty() >> i & 1 == 0).collect();
            (gone[0], gone[1])
        }).collect();
        prop_assert_eq!(&ours, &plain.moves());
        prop_assert_eq!(p.is_over(), ours.is_empty());
        for (m, pair) in p.moves().zip(&ours) {
            prop_assert_eq!(Plain::from(&p.play(m)), plain.play(*pair));
            // The name reads back as the move.
            prop_assert_eq!(p.parse_move(&p.move_name(m)), Ok(m));
        }
        // The text form reads back as the position.
        prop_assert_eq!(p.notation().parse::<Domineering>().unwrap(), p);
    }

    /// The hooks the solver orders by: ordering the children by `child_order` gives
    /// `order_moves`' order (the solver uses one or the other depending on the node), and
    /// `child_order_and_bounds` is `child_order` and the child's `static_bounds` at once.
    #[test]
    fn child_order_agrees_with_the_move_hooks(rows in 1usize..12, cols in 1usize..27, first in any::<bool>(), plies in 0usize..40, seed in any::<u64>()) {
        prop_assume!(rows * cols <= 128);
        let p = random_position(rows, cols, first, plies, seed);
        let mut ordered: Vec<u8> = p.moves().collect();
        p.order_moves(&mut ordered);
        let mut by_child: Vec<u8> = p.moves().collect();
        by_child.sort_by_key(|&m| std::cmp::Reverse(p.child_order(m, &p.play(m))));
        prop_assert_eq!(&ordered, &by_child, "{}", p.notation());
        for m in p.moves() {
            let child = p.play(m);
            prop_assert_eq!(p.child_order_and_bounds(m, &child), (p.child_order(m, &child), child.static_bounds()), "{}", p.notation());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Random positions of boards up to 8x8 with at most 20 empty cells: the counted bounds
    /// hold, and every solver finds the brute force's value and a move that keeps it.
    #[test]
    fn the_solvers_agree_with_the_brute_force(rows in 2usize..9, cols in 2usize..9, first in any::<bool>(), seed in any::<u64>()) {
        let cells = rows * cols;
        let plies = cells.saturating_sub(20).div_ceil(2);
        let p = random_position(rows, cols, first, plies, seed);
        let plain = Plain::from(&p);
        let mut memo = HashMap::new();
        let want = plain.value(first, &mut memo);
        if let Some(v) = p.counted_value() {
            prop_assert_eq!(v, want, "counted value of {}", p.notation());
        }
        let (lo, hi) = p.quiet_bounds().unwrap();
        prop_assert!(lo <= want && want <= hi);
        for method in [Method::AlphaBetaTt, Method::Pn, Method::Dfpn, Method::DfpnMulti] {
            let s = solve(&p, method, &small_table()).unwrap();
            prop_assert_eq!(s.value, Some(want), "{:?} on {}", method, p.notation());
            if let Some(m) = s.best_move {
                prop_assert_eq!(Plain::from(&p.play(m)).value(first, &mut memo), want, "{:?}'s move on {}", method, p.notation());
            }
        }
    }

    /// The reflections: a position's images share its canonical key and value, and a move's
    /// index maps to the image's move and back.
    #[test]
    fn images_share_keys_and_moves(rows in 1usize..9, cols in 1usize..9, first in any::<bool>(), plies in 0usize..8, seed in any::<u64>()) {
        let p = random_position(rows, cols, first, plies, seed);
        let Some((key, _)) = p.canonical_key() else { return Ok(()) };
        let plain = Plain::from(&p);
        for flip in 1..4u8 {
            let mut image = plain.clone();
            for r in 0..rows {
                for c in 0..cols {
                    let (r2, c2) = (if flip & 2 != 0 { rows - 1 - r } else { r }, if flip & 1 != 0 { cols - 1 - c } else { c });
                    image.empty[r2 * cols + c2] = plain.empty[r * cols + c];
                }
            }
            let bits = image.empty.iter().enumerate().fold(0u128, |b, (i, &e)| b | (e as u128) << i);
            let q = Domineering::from_cells(rows, cols, bits, first, p.vertical_to_move()).unwrap();
            let (qkey, qsym) = q.canonical_key().unwrap();
            prop_assert_eq!(qkey, key);
            let (_, sym) = p.canonical_key().unwrap();
            let n = p.moves().count();
            for i in 0..n as u8 {
                let stored = p.index_to_key(sym, i);
                prop_assert_eq!(p.index_from_key(sym, stored), i);
                // The stored move read from the image leads to an image of the same child.
                let back = q.index_from_key(qsym, stored) as usize;
                let child = |g: &Domineering, m: u8| g.play(m).canonical_key().map(|k| k.0);
                let pm = p.moves().nth(i as usize).unwrap();
                let qm = q.moves().nth(back).unwrap();
                if child(&p, pm).is_some() {
                    prop_assert_eq!(child(&q, qm), child(&p, pm));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// A side that wins and has a move other than a safe one wins with one of those (Bullock
    /// 2002): random positions of boards up to 8x8 with at most 22 empty cells.
    #[test]
    fn a_winner_never_needs_a_safe_move(rows in 2usize..9, cols in 2usize..9, first in any::<bool>(), seed in any::<u64>()) {
        let cells = rows * cols;
        let plies = cells.saturating_sub(22).div_ceil(2);
        let p = random_position(rows, cols, first, plies, seed);
        let plain = Plain::from(&p);
        let mut memo = HashMap::new();
        let moves = plain.moves();
        let others: Vec<_> = moves.iter().copied().filter(|&m| !plain.is_safe(m)).collect();
        if others.is_empty() || !plain.mover_wins(&mut memo) {
            return Ok(());
        }
        prop_assert!(others.iter().any(|&m| !plain.play(m).mover_wins(&mut memo)), "{}", p.notation());
    }
}

/// The published classes of every board of the table up to 30 cells: both games solved, the
/// class compared (`gamesearch experiment domineering` prints the whole table).
#[test]
fn the_published_classes_up_to_30_cells() {
    let cfg = small_table();
    let mut checked = 0;
    for (rows, cols, want) in boards(30) {
        let Ok(v_first) = Domineering::new(rows, cols, true) else {
            continue;
        };
        let h_first = Domineering::new(rows, cols, false).unwrap();
        let a = solve(&v_first, Method::AlphaBetaTt, &cfg)
            .unwrap()
            .value
            .unwrap();
        let b = solve(&h_first, Method::AlphaBetaTt, &cfg)
            .unwrap()
            .value
            .unwrap();
        // b is Horizontal's view (first player's): Vertical wins second when it is −1.
        let got = Outcome::from_results(a == 1, b == -1);
        assert_eq!(got, want, "{rows}x{cols}");
        checked += 1;
    }
    assert!(checked >= 60, "{checked} boards");
}

#[test]
fn bad_text_is_an_error() {
    for bad in [
        "",
        "8",
        "x8",
        "0x5",
        "5x0",
        "27x1x",
        "1x27",
        "12x12",
        "8x8:q",
        "8x8:a1b1",
        "8x8:a1a3",
        "8x8:a1a2a1a2",
        "8x8:h:a1a2",
        "8x8:a9a10",
        "8x8:board=--/V",
        "2x2:board=----/X",
        "2x2:board=--?-/V",
        "2x2:v:board=----",
        "8x8:a1a2,",
        "8x8:a1a2b",
    ] {
        if bad == "8x8:a1a2," {
            // A trailing separator is allowed.
            assert!(bad.parse::<Domineering>().is_ok());
            continue;
        }
        let e = bad.parse::<Domineering>();
        assert!(e.is_err(), "{bad}");
        assert!(e.unwrap_err().to_string().contains("Domineering"), "{bad}");
    }
    assert!("domineering:26x4"
        .parse::<gamesearch_games::GameSpec>()
        .is_ok());
    let wide = Domineering::new(4, 27, true).unwrap_err().to_string();
    assert!(wide.contains("27x4"), "{wide}");
}

/// Every position the brute force meets on every board of at most 30 cells, each player first
/// (2.9 M positions): where the counts settle a position they give the brute force's value;
/// and a side that wins with a safe move and has another move wins with one of those too, so
/// the solver may drop safe moves.
#[test]
fn every_position_of_the_small_boards_counted_and_without_safe_moves() {
    let (mut needing, mut counted, mut wrong) = (0, 0, 0);
    for rows in 1..=30usize {
        for cols in 1..=(30 / rows).min(26) {
            for vertical_first in [true, false] {
                let mut memo = HashMap::new();
                Plain::new(rows, cols, vertical_first).mover_wins(&mut memo);
                let seen: Vec<(Plain, bool)> = memo.iter().map(|(q, &w)| (q.clone(), w)).collect();
                for (q, wins) in seen {
                    let bits = q
                        .empty
                        .iter()
                        .enumerate()
                        .fold(0u128, |b, (i, &e)| b | (e as u128) << i);
                    let p = Domineering::from_cells(
                        rows,
                        cols,
                        bits,
                        vertical_first,
                        q.vertical_to_move,
                    )
                    .unwrap();
                    if let Some(v) = p.counted_value() {
                        counted += 1;
                        let mover_is_max = q.vertical_to_move == vertical_first;
                        if (v == 1) != (wins == mover_is_max) {
                            wrong += 1;
                        }
                    }
                    if !wins {
                        continue;
                    }
                    let others: Vec<_> = q.moves().into_iter().filter(|&m| !q.is_safe(m)).collect();
                    if !others.is_empty()
                        && !others.iter().any(|&m| !q.play(m).mover_wins(&mut memo))
                    {
                        needing += 1;
                    }
                }
            }
        }
    }
    assert_eq!((needing, wrong), (0, 0));
    // The counts settle most of them (2.8 M; a test that settles none checks nothing).
    assert!(counted > 2_000_000, "{counted}");
}
