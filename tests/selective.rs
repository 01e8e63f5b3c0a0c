//! The solver's selective passes ([`SolverKnowledge::selective_levels`] and
//! [`SolverKnowledge::probable_cut`], ProbCut as Buro 1995 and Edax use it) against a plain
//! minimax written apart: whatever the game's probable cuts say — true, false or random — the
//! solver's value and move are exact, since the passes' bounds are kept apart from the proven
//! ones. With no passes asked for, a game's cuts are never asked and the search is the same,
//! node for node.
//!
//! The game: players pick in turn one of [`ITEMS`] items until [`PICKS`] are taken; the final
//! value is a hash of who took what (so orders of the same picks transpose, which the table
//! meets), between −20 and 20.

use gamesearch::exact::{solve, solve_with, Method};
use gamesearch::{Game, Player, PositionKey, Score, SolveConfig, SolverKnowledge};
use proptest::prelude::*;
use std::cell::Cell;

const ITEMS: u32 = 7;
const PICKS: u32 = 6;

/// What the game's probable cut answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cuts {
    /// No selective pass (`selective_levels` 0); asking the cut panics.
    Off,
    /// `levels` passes, each cut a coin toss: at beta, at alpha, or none.
    Random { levels: u8 },
    /// `levels` passes, each cut the truth where the minimax lies outside the window.
    True { levels: u8 },
}

#[derive(Clone, Debug)]
struct Picks {
    seed: u64,
    max_taken: u32,
    min_taken: u32,
    to_move: Player,
    cuts: Cuts,
}

thread_local! {
    /// How often this thread asked the game's probable cut (one thread searches the passes).
    static ASKED: Cell<u64> = const { Cell::new(0) };
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Picks {
    fn new(seed: u64, cuts: Cuts) -> Picks {
        Picks {
            seed,
            max_taken: 0,
            min_taken: 0,
            to_move: Player::Max,
            cuts,
        }
    }
    fn taken(&self) -> u32 {
        self.max_taken | self.min_taken
    }
    fn position_hash(&self) -> u64 {
        mix(self.seed ^ u64::from(self.max_taken) << 8 ^ u64::from(self.min_taken) << 20)
    }
}

impl Game for Picks {
    type Move = u32;
    type Moves = FreeItems;
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn moves(&self) -> FreeItems {
        if self.taken().count_ones() >= PICKS {
            FreeItems(0)
        } else {
            FreeItems(!self.taken() & ((1 << ITEMS) - 1))
        }
    }
    fn play(&self, item: u32) -> Picks {
        let mut next = self.clone();
        match self.to_move {
            Player::Max => next.max_taken |= 1 << item,
            Player::Min => next.min_taken |= 1 << item,
        }
        next.to_move = self.to_move.opponent();
        next
    }
    fn evaluate(&self) -> Score {
        (self.position_hash() % 41) as Score - 20
    }
    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-20, 20))
    }
}

/// The items not yet taken, lowest first.
struct FreeItems(u32);

impl Iterator for FreeItems {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        (self.0 != 0).then(|| {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            i
        })
    }
}

impl PositionKey for Picks {
    fn key(&self) -> u64 {
        u64::from(self.max_taken) | u64::from(self.min_taken) << 8
    }
}

impl SolverKnowledge for Picks {
    fn selective_levels(&self) -> u8 {
        match self.cuts {
            Cuts::Off => 0,
            Cuts::Random { levels } | Cuts::True { levels } => levels,
        }
    }
    fn probable_cut(&self, level: u8, alpha: Score, beta: Score, nodes: &mut u64) -> Option<Score> {
        ASKED.with(|a| a.set(a.get() + 1));
        *nodes += 1;
        match self.cuts {
            Cuts::Off => panic!("a probable cut asked with no selective pass"),
            Cuts::Random { .. } => {
                match mix(self.position_hash() ^ u64::from(level) ^ (alpha as u64) << 40) % 3 {
                    0 => Some(beta.min(20)),
                    1 => Some(alpha.max(-20)),
                    _ => None,
                }
            }
            Cuts::True { .. } => {
                let v = minimax(self);
                (v >= beta || v <= alpha).then_some(v)
            }
        }
    }
}

/// The plain minimax of every line, no table, no pruning.
fn minimax(p: &Picks) -> Score {
    let values = p.moves().map(|m| minimax(&p.play(m)));
    match p.to_move {
        Player::Max => values.max(),
        Player::Min => values.min(),
    }
    .unwrap_or_else(|| p.evaluate())
}

fn config(threads: usize) -> SolveConfig {
    SolveConfig {
        threads,
        tt_bytes: 1 << 20,
        ..SolveConfig::default()
    }
}

/// The solver's value is the minimax, and its move keeps it.
fn check(game: &Picks, threads: usize) -> Result<(), TestCaseError> {
    let want = minimax(game);
    let s = solve(game, Method::AlphaBetaTt, &config(threads)).unwrap();
    prop_assert!(s.complete);
    prop_assert_eq!(s.value, Some(want), "seed {} {:?}", game.seed, game.cuts);
    let best = s.best_move.expect("a best move");
    prop_assert_eq!(
        minimax(&game.play(best)),
        want,
        "seed {} move {}",
        game.seed,
        best
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Cuts at random, one to four passes: still the minimax.
    #[test]
    fn random_probable_cuts_never_change_the_value(seed in any::<u64>(), levels in 1u8..=4) {
        check(&Picks::new(seed, Cuts::Random { levels }), 1)?;
    }

    /// Cuts that are true: the minimax.
    #[test]
    fn true_probable_cuts_give_the_value(seed in any::<u64>(), levels in 1u8..=4) {
        check(&Picks::new(seed, Cuts::True { levels }), 1)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// With helper threads (who search no pass): the minimax.
    #[test]
    fn random_probable_cuts_with_two_threads(seed in any::<u64>(), levels in 1u8..=4) {
        check(&Picks::new(seed, Cuts::Random { levels }), 2)?;
    }
}

/// The passes run where asked for, and report their phase; with none asked for, the cuts are
/// never asked (`Cuts::Off` panics if they are).
#[test]
fn passes_run_only_where_the_game_asks() {
    let mut with_passes = 0;
    for seed in 0..200u64 {
        let mut phases = Vec::new();
        let before = ASKED.with(Cell::get);
        let on = Picks::new(seed, Cuts::Random { levels: 2 });
        let s = solve_with(&on, Method::AlphaBetaTt, &config(1), |p| {
            phases.push(p.phase)
        })
        .unwrap();
        assert_eq!(s.value, Some(minimax(&on)), "seed {seed}");
        if phases.contains(&"selective") {
            assert!(
                ASKED.with(Cell::get) > before,
                "seed {seed}: a pass that asked no cut"
            );
            with_passes += 1;
        }
        let off = Picks::new(seed, Cuts::Off);
        let s = solve_with(&off, Method::AlphaBetaTt, &config(1), |p| {
            assert_ne!(p.phase, "selective")
        })
        .unwrap();
        assert_eq!(s.value, Some(minimax(&off)), "seed {seed}");
    }
    assert!(with_passes > 150, "passes on {with_passes} of 200 roots");
}
