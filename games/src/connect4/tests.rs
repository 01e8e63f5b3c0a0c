//! Connect-Four's rules, notation and knowledge against brute forces and published values.

use super::knowledge::{aligned_h, dead_stones_h, follower_first_h};
use super::*;
use gamesearch::SolverKnowledge;

/// The boards of the rule tests below: even and odd heights.
const RULE_SIZES: [(usize, usize); 9] = [
    (4, 4),
    (5, 4),
    (6, 4),
    (7, 4),
    (4, 6),
    (4, 5),
    (5, 5),
    (6, 5),
    (4, 7),
];

/// A random quiet position from `seed`: one of `sizes`, `2k + odd` empty cells (k from 2
/// to 6), reached by moves that neither end the game nor leave a win on the spot, and with
/// none for its mover; None when the walk gets stuck first.
fn quiet_position(seed: u64, sizes: &[(usize, usize)], odd: usize) -> Option<Connect4> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (w, h) = sizes[rng.gen_range(0..sizes.len())];
    let empty = 2 * rng.gen_range(2..=6usize) + odd;
    let mut p = Connect4::new(w, h).unwrap();
    while w * h - p.moves_played() > empty {
        let quiet: Vec<u8> = p
            .moves()
            .filter(|&c| {
                let q = p.play(c);
                !q.is_over() && q.immediate_win().is_none()
            })
            .collect();
        if quiet.is_empty() {
            break;
        }
        p = p.play(quiet[rng.gen_range(0..quiet.len())]);
    }
    (w * h - p.moves_played() == empty && p.immediate_win().is_none()).then_some(p)
}

/// `p`, which a rule says its mover loses: alpha-beta (which knows no rule) agrees, and
/// the quiet bounds give the mover −1 at best.
fn assert_mover_loses(seed: u64, p: &Connect4) {
    use gamesearch::depth_first::{search, DepthFirst};
    use gamesearch::Limits;
    let v = search(p, DepthFirst::AlphaBeta, 100, &Limits::none())
        .value
        .unwrap();
    let mover = if p.to_move() == Player::Max { v } else { -v };
    assert!(
        mover < 0,
        "seed {seed}: {p:?} is worth {mover} to the mover"
    );
    let (lo, hi) = p.quiet_bounds().unwrap();
    let most = if p.to_move() == Player::Max { hi } else { -lo };
    assert_eq!(most, -1, "seed {seed}: the bound that decides");
}

/// Where every four the mover could make lies above one of the follower's (Claimeven), the
/// mover loses: checked by alpha-beta on the random quiet positions of boards of even and
/// odd height where the rule decides (and only it: the mover can still make four), hundreds
/// of them.
#[test]
fn a_follower_four_below_every_four_of_the_movers_wins() {
    let mut decided = 0;
    for seed in 0..40_000u64 {
        let Some(p) = quiet_position(seed, &RULE_SIZES, 0) else {
            continue;
        };
        let (mine, theirs) = p.claimeven_cells();
        let (hh, b) = (u32::from(p.height), p.board_mask());
        if !aligned_h(mine, hh) || !follower_first_h(mine, theirs, p.bottom(), b, hh) {
            continue;
        }
        decided += 1;
        assert_mover_loses(seed, &p);
    }
    assert!(
        decided > 200,
        "only {decided} positions decided by the rule"
    );
}

/// Where the follower has a threat of the other parity than the top row in a column with
/// an odd number of empty cells, and the mover cannot make four from what is left to it,
/// the mover loses: checked by alpha-beta on random quiet positions (an odd number of
/// cells left) of boards of even and odd height where the rule decides, hundreds of them.
#[test]
fn a_follower_threat_in_an_odd_column_wins() {
    let mut sizes = RULE_SIZES.to_vec();
    sizes.insert(5, (5, 6));
    let mut decided = 0;
    for seed in 0..40_000u64 {
        let Some(p) = quiet_position(seed, &sizes, 1) else {
            continue;
        };
        if !p.follower_threat_wins_h(u32::from(p.height)) {
            continue;
        }
        decided += 1;
        assert_mover_loses(seed, &p);
    }
    assert!(
        decided > 200,
        "only {decided} positions decided by the rule"
    );
}

/// A position on `w x h` with the mover's stones `current` and all stones `mask` (no four
/// on the board), its derived fields computed as `play` keeps them.
fn from_boards(w: usize, h: usize, current: u64, mask: u64, moves: u8) -> Connect4 {
    let mut p = Connect4::new(w, h).unwrap();
    let reflect = |x: u64| {
        (0..w).fold(0u64, |m, c| {
            let column = (x >> (c * (h + 1))) & ((1 << (h + 1)) - 1);
            m | column << ((w - 1 - c) * (h + 1))
        })
    };
    p.current = current;
    p.mask = mask;
    p.moves = moves;
    p.mirror_current = reflect(current);
    p.mirror_mask = reflect(mask);
    p.threats = p.winning_cells(current ^ mask);
    p
}

/// Dead stones ([`dead_stones_h`]) are sound: on random late positions of boards from 1 to
/// 7 columns wide, giving every dead stone to the mover, every one to the opponent, or each
/// to a random side leaves the value alpha-beta (which knows nothing of keys) finds, and on
/// the boards that use them (up to four columns wide of 32 cells or more, any of 48 cells or
/// more) the position and its recoloured copies share one table key. Thousands of
/// positions, hundreds with dead stones on each kind of board.
#[test]
fn recolouring_dead_stones_keeps_the_value_and_the_key() {
    use gamesearch::depth_first::{search, DepthFirst};
    use gamesearch::Limits;
    use rand::{Rng, SeedableRng};
    let sizes = [
        (4, 4),
        (4, 6),
        (4, 8),
        (4, 9),
        (3, 9),
        (1, 20),
        (5, 5),
        (6, 5),
        (7, 6),
        (6, 8),
    ];
    let mut with_dead = [0usize; 10];
    for seed in 0..8_000u64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let size = seed as usize % sizes.len();
        let (w, h) = sizes[size];
        let empty = rng.gen_range(4..=9usize);
        let mut p = Connect4::new(w, h).unwrap();
        while w * h - p.moves_played() > empty {
            let moves: Vec<u8> = p.moves().filter(|&c| !p.play(c).is_over()).collect();
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.gen_range(0..moves.len())]);
        }
        if p.is_over() || w * h - p.moves_played() != empty {
            continue;
        }
        let dead = dead_stones_h(p.current, p.mask, p.board_mask(), h as u32);
        assert_eq!(dead & !p.mask, 0, "{p:?}: a dead stone on an empty cell");
        if dead == 0 {
            continue;
        }
        with_dead[size] += 1;
        let value = |q: &Connect4| search(q, DepthFirst::AlphaBeta, 100, &Limits::none()).value;
        let v = value(&p);
        let mut random = 0;
        for cell in 0..64 {
            if dead >> cell & 1 == 1 && rng.gen_bool(0.5) {
                random |= 1 << cell;
            }
        }
        for mine in [dead, 0, random] {
            let current = (p.current & !dead) | mine;
            let q = from_boards(w, h, current, p.mask, p.moves);
            assert_eq!(value(&q), v, "seed {seed}: {p:?} recoloured {q:?}");
            if p.keys_dead_stones() {
                assert_eq!(q.canonical_key().unwrap().0, p.canonical_key().unwrap().0);
            }
        }
    }
    for (size, n) in with_dead.iter().enumerate() {
        assert!(
            *n > 100,
            "{:?}: {n} positions with dead stones",
            sizes[size]
        );
    }
}

/// The children's key hints are the keys of the children the moves that do not lose at
/// once make (before any forced reply), in column order, at every position of random
/// games on boards of both words; none where keys give dead stones to the mover.
#[test]
fn child_key_hints_are_the_keys_of_the_non_losing_children() {
    use rand::{Rng, SeedableRng};
    fn check<B: Bitboard>(mut p: Connect4<B>, rng: &mut rand_chacha::ChaCha8Rng) -> usize {
        let mut checked = 0;
        loop {
            let mut hints = Vec::new();
            p.child_key_hints(|k| hints.push(k));
            let mut moves: Vec<u8> = p.moves().collect();
            let kept = p.non_losing_moves(&mut moves);
            moves.truncate(kept);
            moves.sort_unstable();
            let keys: Vec<u64> = if p.keys_dead_stones() {
                Vec::new()
            } else {
                moves
                    .iter()
                    .map(|&c| p.play(c).canonical_key().unwrap().0)
                    .collect()
            };
            assert_eq!(hints, keys, "{p:?}");
            checked += usize::from(!keys.is_empty());
            let all: Vec<u8> = p.moves().collect();
            if all.is_empty() {
                return checked;
            }
            p = p.play(all[rng.gen_range(0..all.len())]);
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut checked = 0;
    for _ in 0..300 {
        for (w, h) in [(6, 6), (7, 6), (5, 4), (9, 4), (4, 6), (8, 6)] {
            checked += check(Connect4::<u64>::sized(w, h).unwrap(), &mut rng);
        }
        checked += check(Connect4::<u128>::sized(22, 2).unwrap(), &mut rng);
        checked += check(Connect4::<u128>::sized(10, 6).unwrap(), &mut rng);
    }
    assert!(checked > 10_000, "only {checked} positions with hints");
}

#[test]
fn column_mul_divides_every_bit_index_by_every_column_height() {
    for h in 1..64u32 {
        for bit in 0..64u32 {
            assert_eq!(
                (bit * COLUMN_MUL[h as usize]) >> 16,
                bit / (h + 1),
                "h {h} bit {bit}"
            );
        }
    }
}

#[test]
fn vertical_horizontal_and_diagonal_wins() {
    let c = Connect4::new(7, 6).unwrap();
    let v = c.play_moves("1212121").unwrap(); // four in column 1
    assert!(v.is_over() && v.evaluate() == 22 - 4);
    let h = c.play_moves("1122334").unwrap();
    assert_eq!(h.evaluate(), 18);
    let d = c.play_moves("12233434474").unwrap(); // X: c1r1, c2r2, c3r3, c4r4
    assert!(d.is_over(), "diagonal");
    assert!(d.evaluate() > 0);
    let o = c.play_moves("71212121").unwrap(); // O connects in column 1
    assert_eq!(o.evaluate(), -(22 - 4));
    assert!(c.play_moves("12121212").is_err(), "moves after the end");
    assert!(c.play_moves("8").is_err() && c.play_moves("0").is_err() && c.play_moves("a").is_err());
    assert!(Connect4::new(9, 7).is_err());
    assert!(Connect4::new(8, 7).is_ok());
}

#[test]
fn full_board_is_a_draw() {
    let p = Connect4::new(2, 2).unwrap().play_moves("1122").unwrap();
    assert!(p.is_over());
    assert_eq!(p.evaluate(), 0);
    assert_eq!(p.moves().count(), 0);
}
