//! Connect-Four on boards with an odd number of cells, against a brute force written separately
//! from `games::connect4` (a grid of columns, four found by walking the four directions, no
//! bitboards, no bounds, no table): every solver's value equals the brute force's, and a
//! first-player win with the board's last stone is a win (score 1), never 0 — the defect of
//! `width*height/2 + 1 - stones`, which scored it as a draw.

use gamesearch::proof_number::dfpn::{self, DfpnConfig};
use gamesearch::proof_number::{self, PnConfig};
use gamesearch::solver::{solve_alphabeta, SolveConfig};
use gamesearch::Game;
use gamesearch_games::Connect4;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A board as columns of stones bottom-up (1: first player, 2: second).
#[derive(Clone)]
struct Grid {
    w: usize,
    h: usize,
    cols: Vec<Vec<u8>>,
    stones: usize,
}

impl Grid {
    fn new(w: usize, h: usize) -> Self {
        Grid {
            w,
            h,
            cols: vec![Vec::new(); w],
            stones: 0,
        }
    }

    fn at(&self, c: isize, r: isize) -> u8 {
        if c < 0 || r < 0 || c >= self.w as isize || r >= self.h as isize {
            return 0;
        }
        self.cols[c as usize].get(r as usize).copied().unwrap_or(0)
    }

    /// Drops a stone of `who` in column `c`; true if it makes four.
    fn drop(&mut self, c: usize, who: u8) -> bool {
        self.cols[c].push(who);
        self.stones += 1;
        let (c, r) = (c as isize, self.cols[c].len() as isize - 1);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |s: isize| {
                (1..4)
                    .take_while(|&k| self.at(c + s * k * dc, r + s * k * dr) == who)
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    fn undo(&mut self, c: usize) {
        self.cols[c].pop();
        self.stones -= 1;
    }

    fn to_move(&self) -> u8 {
        if self.stones % 2 == 0 {
            1
        } else {
            2
        }
    }

    /// The side to move's best result: 0 for a draw, otherwise the winner's score, positive
    /// for the mover: a win with one's `s`-th stone scores `ceil(cells / 2) + 1 - s`.
    fn negamax(&mut self) -> i32 {
        let cells = (self.w * self.h) as i32;
        let who = self.to_move();
        let mut best: Option<i32> = None;
        for c in 0..self.w {
            if self.cols[c].len() == self.h {
                continue;
            }
            let won = self.drop(c, who);
            let v = if won {
                let mine = (self.stones as i32 + 1) / 2; // the mover's stones, this one in
                (cells + 1) / 2 + 1 - mine
            } else if self.stones == self.w * self.h {
                0
            } else {
                -self.negamax()
            };
            self.undo(c);
            best = Some(best.map_or(v, |b| b.max(v)));
        }
        best.unwrap_or(0)
    }
}

/// Random moves from the empty board until at most `empty` cells are left, the game ending
/// never (a winning move is not played): the same position as a grid and as `Connect4`.
fn random_position(w: usize, h: usize, empty: usize, seed: u64) -> Option<(Grid, Connect4)> {
    random_line(w, h, empty, seed).map(|(g, p, _)| (g, p))
}

/// [`random_position`] with the columns played (0-based).
fn random_line(w: usize, h: usize, empty: usize, seed: u64) -> Option<(Grid, Connect4, Vec<u8>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Grid::new(w, h);
    let mut p = Connect4::new(w, h).unwrap();
    let mut line = Vec::new();
    let mut tries = 0;
    while w * h - g.stones > empty {
        tries += 1;
        if tries > 10_000 {
            return None;
        }
        let c = rng.gen_range(0..w);
        if g.cols[c].len() == h {
            continue;
        }
        let mut probe = g.clone();
        if probe.drop(c, g.to_move()) {
            // A winning move would end the game: try another column; a position where every
            // move wins is abandoned.
            let open = (0..w).filter(|&k| g.cols[k].len() < h).collect::<Vec<_>>();
            if open.iter().all(|&k| g.clone().drop(k, g.to_move())) {
                return None;
            }
            continue;
        }
        g.drop(c, g.to_move());
        p = p.play(c as u8);
        line.push(c as u8);
    }
    Some((g, p, line))
}

/// Every board with an odd number of cells the position type holds, on which four fits.
fn odd_boards() -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for w in (1..=63).step_by(2) {
        for h in (1..=63).step_by(2) {
            if (h + 1) * w <= 64 && (w >= 4 || h >= 4) {
                v.push((w, h));
            }
        }
    }
    v
}

/// The brute force's value from the first player's view.
fn truth(g: &mut Grid) -> i32 {
    let v = g.negamax();
    if g.to_move() == 1 {
        v
    } else {
        -v
    }
}

#[test]
fn the_issues_two_positions_are_first_player_wins_with_the_last_stone() {
    // 5x5: 25 cells, the first player's 13th stone is the last; 13 + 1 - 13 = 1.
    for moves in ["23", "5145"] {
        let p = Connect4::new(5, 5).unwrap().play_moves(moves).unwrap();
        let cfg = SolveConfig {
            tt_bytes: 16 << 20,
            ..SolveConfig::default()
        };
        let s = solve_alphabeta(&p, &cfg, |_| {}).unwrap();
        assert_eq!(s.value, Some(1), "alphabeta-tt, 5x5:{moves}");
        let d = DfpnConfig {
            tt_bytes: 64 << 20,
            ..DfpnConfig::default()
        };
        for multi in [false, true] {
            let r = dfpn::solve_report(&p, &d, multi, false, |_| {}).unwrap();
            assert_eq!(r.outcome, Some("win"), "dfpn multi={multi}, 5x5:{moves}");
            if multi {
                assert_eq!(r.value, Some(1), "dfpn-multi, 5x5:{moves}");
            }
        }
    }
}

#[test]
fn every_odd_board_size_is_covered() {
    let boards = odd_boards();
    assert!(boards.contains(&(5, 5)) && boards.contains(&(9, 5)) && boards.contains(&(7, 7)));
    assert!(boards.len() >= 20, "{boards:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, .. ProptestConfig::default() })]

    /// On every odd board: the exact solver, df-pn (multi-valued) and tree PN (multi-valued)
    /// give the brute force's value; binary df-pn and PN its outcome; a win is never 0.
    #[test]
    fn odd_boards_agree_with_an_independent_brute_force(
        board in 0usize..1000, empty in 0usize..=8, seed in any::<u64>(),
    ) {
        let boards = odd_boards();
        let (w, h) = boards[board % boards.len()];
        let Some((mut g, p)) = random_position(w, h, empty, seed) else { return Ok(()) };
        let want = truth(&mut g);
        let cfg = SolveConfig { tt_bytes: 1 << 16, id_depth: 0, ..SolveConfig::default() };
        let s = solve_alphabeta(&p, &cfg, |_| {}).unwrap();
        prop_assert_eq!(s.value, Some(want), "alphabeta-tt {}x{}:{:?}", w, h, p);
        prop_assert_eq!(
            gamesearch::search(&p, gamesearch::Algorithm::Minimax, &gamesearch::SearchConfig::new(64)).value,
            Some(want), "minimax"
        );
        let d = DfpnConfig { tt_bytes: 1 << 20, ..DfpnConfig::default() };
        let outcome = match want.signum() { 1 => "win", 0 => "draw", _ => "loss" };
        let r = dfpn::solve_report(&p, &d, true, false, |_| {}).unwrap();
        prop_assert_eq!(r.value, Some(want), "dfpn-multi");
        let r = dfpn::solve_report(&p, &d, false, false, |_| {}).unwrap();
        prop_assert_eq!(r.outcome, Some(outcome), "dfpn");
        let pn = PnConfig::new(u32::MAX);
        let r = proof_number::solve_report(&p, &pn, true);
        prop_assert_eq!(r.value, Some(want), "pn-multi");
        let r = proof_number::solve_report(&p, &pn, false);
        prop_assert_eq!(r.outcome, Some(outcome), "pn");
        // The last stone of an odd board is the first player's: its win there scores 1.
        if p.moves_played() + 1 == w * h && want != 0 {
            prop_assert_eq!(want, 1);
        }
        prop_assert!(p.is_over() || p.moves().count() > 0);
    }
}

/// Every board wider than 9 columns the position type holds (any parity), on which four fits.
fn wide_boards() -> Vec<(usize, usize)> {
    (10..=63)
        .flat_map(|w| (1..=63).map(move |h| (w, h)))
        .filter(|&(w, h)| (h + 1) * w <= 64)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Boards wider than 9 (10x4, 10x5, 12x4, 16x3, 21x2, 32x1, …): a position written in the
    /// comma notation (`connect4:12x4:12,1,10`) reads back as the same position, writes back as
    /// the same text, and solves to the value of the brute force written apart.
    #[test]
    fn wide_boards_round_trip_and_agree_with_an_independent_brute_force(
        board in 0usize..1000, empty in 0usize..=8, seed in any::<u64>(),
    ) {
        let boards = wide_boards();
        let (w, h) = boards[board % boards.len()];
        let Some((mut g, p, line)) = random_line(w, h, empty, seed) else { return Ok(()) };
        let moves: Vec<String> = line.iter().map(|c| (c + 1).to_string()).collect();
        let text = format!("connect4:{w}x{h}:{}", moves.join(","));
        let gamesearch_games::GameSpec::Connect4(q) = text.parse().unwrap() else { unreachable!() };
        prop_assert_eq!(q, p, "{}", text);
        let empty_board = Connect4::new(w, h).unwrap();
        prop_assert_eq!(empty_board.notation_after(&format!("connect4:{w}x{h}"), &line), text.clone());
        // Digits alone are refused past 9 columns once a move is two digits or more than one.
        if line.len() > 1 {
            let digits: String = moves.concat();
            prop_assert!(!matches!(empty_board.play_moves(&digits), Ok(d) if d == p), "{}", digits);
        }
        let want = truth(&mut g);
        let cfg = SolveConfig { tt_bytes: 1 << 16, id_depth: 0, ..SolveConfig::default() };
        prop_assert_eq!(solve_alphabeta(&q, &cfg, |_| {}).unwrap().value, Some(want), "{}", text);
    }
}

/// Every board past 64 bits the u128 position holds (`64 < (h + 1) * w <= 128`).
fn boards_past_64_bits() -> Vec<(usize, usize)> {
    (1..=64)
        .flat_map(|w| (1..=127).map(move |h| (w, h)))
        .filter(|&(w, h)| (h + 1) * w > 64 && (h + 1) * w <= 128 && (w >= 4 || h >= 4))
        .collect()
}

/// The same moves on `Connect4<u128>`.
fn wide(w: usize, h: usize, line: &[u8]) -> Connect4<u128> {
    line.iter()
        .fold(Connect4::<u128>::sized(w, h).unwrap(), |p, &c| p.play(c))
}

#[test]
fn the_boards_people_ask_for_are_past_64_bits_and_parse() {
    let boards = boards_past_64_bits();
    for b in [(10, 6), (9, 7), (8, 8), (7, 9), (11, 5), (6, 12), (7, 10)] {
        assert!(boards.contains(&b), "{b:?}");
        let text = format!("connect4:{}x{}", b.0, b.1);
        assert!(
            matches!(
                text.parse(),
                Ok(gamesearch_games::GameSpec::Connect4Wide(_))
            ),
            "{text}"
        );
    }
    assert!(matches!(
        "connect4:7x6".parse(),
        Ok(gamesearch_games::GameSpec::Connect4(_))
    ));
    let e = "connect4:12x10"
        .parse::<gamesearch_games::GameSpec>()
        .unwrap_err();
    assert!(e.to_string().contains("<= 128"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, .. ProptestConfig::default() })]

    /// Boards past 64 bits (10x6, 9x7, 8x8, 7x9, 11x5, 6x12, …): positions with a few empty
    /// cells, written in the notation and parsed, solve to the brute force's value (the solver,
    /// minimax and df-pn on u128 bitboards).
    #[test]
    fn boards_past_64_bits_agree_with_an_independent_brute_force(
        board in 0usize..1000, empty in 0usize..=8, seed in any::<u64>(),
    ) {
        // Half the cases on the boards people solve, half on any board past 64 bits.
        let named = [(10, 6), (9, 7), (8, 8), (7, 9), (11, 5), (6, 12), (7, 10), (13, 4)];
        let boards = boards_past_64_bits();
        let (w, h) = if board % 2 == 0 {
            named[board / 2 % named.len()]
        } else {
            boards[board / 2 % boards.len()]
        };
        let Some((mut g, _, line)) = random_line_wide(w, h, empty, seed) else { return Ok(()) };
        let moves: Vec<String> = line.iter().map(|c| (c + 1).to_string()).collect();
        let text = format!("connect4:{w}x{h}:{}", moves.join(","));
        let gamesearch_games::GameSpec::Connect4Wide(p) = text.parse().unwrap() else {
            panic!("{text} is not a u128 board")
        };
        prop_assert_eq!(p, wide(w, h, &line));
        let want = truth(&mut g);
        let cfg = SolveConfig { tt_bytes: 1 << 16, id_depth: 0, ..SolveConfig::default() };
        prop_assert_eq!(solve_alphabeta(&p, &cfg, |_| {}).unwrap().value, Some(want), "{}", text);
        prop_assert_eq!(
            gamesearch::search(&p, gamesearch::Algorithm::Minimax, &gamesearch::SearchConfig::new(64)).value,
            Some(want), "minimax {}", text
        );
        let d = DfpnConfig { tt_bytes: 1 << 20, ..DfpnConfig::default() };
        prop_assert_eq!(dfpn::solve_report(&p, &d, true, false, |_| {}).unwrap().value, Some(want), "dfpn-multi {}", text);
    }

    /// A board that fits 64 bits gives the same value and visits the same nodes in u128
    /// bitboards as in u64 (the key of a position whose high half is empty is the same).
    #[test]
    fn u128_positions_search_as_u64_ones(
        board in 0usize..1000, empty in 4usize..=14, seed in any::<u64>(),
    ) {
        searches_alike_in_u64_and_u128(board, empty, seed)?;
    }
}

/// [`u128_positions_search_as_u64_ones`] for one case.
fn searches_alike_in_u64_and_u128(
    board: usize,
    empty: usize,
    seed: u64,
) -> Result<(), TestCaseError> {
    let boards: Vec<(usize, usize)> = (4..=9)
        .flat_map(|w| (4..=7).map(move |h| (w, h)))
        .filter(|&(w, h)| (h + 1) * w <= 64)
        .collect();
    let (w, h) = boards[board % boards.len()];
    let Some((_, p, line)) = random_line(w, h, empty, seed) else {
        return Ok(());
    };
    let q = wide(w, h, &line);
    let cfg = SolveConfig {
        tt_bytes: 1 << 18,
        id_depth: 0,
        ..SolveConfig::default()
    };
    let (a, b) = (
        solve_alphabeta(&p, &cfg, |_| {}).unwrap(),
        solve_alphabeta(&q, &cfg, |_| {}).unwrap(),
    );
    prop_assert_eq!(a.value, b.value);
    prop_assert_eq!(a.stats, b.stats);
    prop_assert_eq!(a.best_move, b.best_move);
    Ok(())
}

/// A case the property found (7x7, 35 stones): stones in the two columns on the right, whose
/// neighbourhood reaches past the 64th bit, were never found dead in u64 bitboards (bits shifted
/// in from past the word read as empty cells) but were in u128 ones (where those bits are past
/// the last column: filled), so the two keyed the same position apart.
#[test]
fn dead_stones_by_the_right_edge_are_the_same_in_u64_and_u128() {
    searches_alike_in_u64_and_u128(705, 14, 85670059131940586).unwrap();
}

/// [`random_line`] on any board the brute force plays (the position type is unused there).
fn random_line_wide(w: usize, h: usize, empty: usize, seed: u64) -> Option<(Grid, (), Vec<u8>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Grid::new(w, h);
    let mut line = Vec::new();
    let mut tries = 0;
    while w * h - g.stones > empty {
        tries += 1;
        if tries > 100_000 {
            return None;
        }
        let c = rng.gen_range(0..w);
        if g.cols[c].len() == h {
            continue;
        }
        if g.clone().drop(c, g.to_move()) {
            let open = (0..w).filter(|&k| g.cols[k].len() < h).collect::<Vec<_>>();
            if open.iter().all(|&k| g.clone().drop(k, g.to_move())) {
                return None;
            }
            continue;
        }
        g.drop(c, g.to_move());
        line.push(c as u8);
    }
    Some((g, (), line))
}
