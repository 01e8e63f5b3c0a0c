//! Games whose positions repeat, written as a user's crate would, under every algorithm: each
//! search ends with a correct answer or a typed error ([`Error::LineTooDeep`]), within its time
//! limit, never with a stack overflow (issue #77: the process aborted after 0.07 s).
//!
//! The two games race two tokens along a line of five squares, each side its own lane: a move
//! takes one's token a square left or right, and the first token to reach the far end (square 4)
//! wins. MAX, moving first, wins the plain race in 7 plies. In [`Race::PUSH`] a side may instead
//! push the other's token a square back, so that neither side can force the end: the game's
//! value, with a repetition a draw, is 0, which no search proves: the strong solver
//! (`gamesearch::retrograde`, retrograde analysis) does, and every position's distance to the end.

use gamesearch::engine::{Engine, EngineConfig, Heuristic};
use gamesearch::exact::{solve, Method};
use gamesearch::{
    search, trace, Algorithm, Error, Game, Limits, Player, PositionKey, Score, SearchConfig,
    SolveConfig, SolverKnowledge,
};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Race {
    /// MAX's token and MIN's, squares 0..=4.
    tokens: [u8; 2],
    to_move: Player,
    push: bool,
}

const LEFT: u8 = 0;
const RIGHT: u8 = 1;
const PUSH: u8 = 2;

impl Race {
    const PLAIN: Race = Race {
        tokens: [0, 0],
        to_move: Player::Max,
        push: false,
    };
    const PUSH: Race = Race {
        push: true,
        ..Race::PLAIN
    };
    fn side(p: Player) -> usize {
        usize::from(p == Player::Min)
    }
    fn over(&self) -> bool {
        self.tokens.contains(&4)
    }
}

impl Game for Race {
    type Move = u8;
    type Moves = std::iter::Filter<std::ops::Range<u8>, Box<dyn Fn(&u8) -> bool>>;
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn moves(&self) -> Self::Moves {
        let me = self.tokens[Race::side(self.to_move)];
        let them = self.tokens[1 - Race::side(self.to_move)];
        let (over, push) = (self.over(), self.push);
        (0..3).filter(Box::new(move |&m| {
            !over
                && match m {
                    LEFT => me > 0,
                    RIGHT => true,
                    _ => push && them > 0,
                }
        }))
    }
    fn play(&self, m: u8) -> Self {
        let mut next = *self;
        let (me, them) = (Race::side(self.to_move), 1 - Race::side(self.to_move));
        match m {
            LEFT => next.tokens[me] -= 1,
            RIGHT => next.tokens[me] += 1,
            PUSH => next.tokens[them] -= 1,
            _ => unreachable!(),
        }
        next.to_move = self.to_move.opponent();
        next
    }
    fn evaluate(&self) -> Score {
        match self.tokens {
            [4, _] => 1,
            [_, 4] => -1,
            _ => 0,
        }
    }
    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }
}

impl PositionKey for Race {
    fn key(&self) -> u64 {
        u64::from(self.tokens[0]) << 8
            | u64::from(self.tokens[1]) << 1
            | u64::from(self.to_move == Player::Max)
    }
}
impl SolverKnowledge for Race {}
impl Heuristic for Race {}

/// The minimax value of `game` searched to `depth` plies (the horizon's positions valued by
/// `evaluate`): a brute force over every position of the game, depth by depth, written apart
/// from the library's searches. Past the depth at which no value changes any more, every
/// deeper horizon has the same values.
fn horizon_value(game: &Race, depth: u32) -> Score {
    let mut positions = Vec::new();
    for a in 0..5u8 {
        for b in 0..5u8 {
            for to_move in [Player::Max, Player::Min] {
                positions.push(Race {
                    tokens: [a, b],
                    to_move,
                    push: game.push,
                });
            }
        }
    }
    let index = |p: &Race| {
        positions
            .iter()
            .position(|q| q == p)
            .expect("every position listed")
    };
    let mut value: Vec<Score> = positions.iter().map(Race::evaluate).collect();
    for _ in 0..depth {
        let next: Vec<Score> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let children = p.moves().map(|m| value[index(&p.play(m))]);
                match p.to_move {
                    Player::Max => children.max(),
                    Player::Min => children.min(),
                }
                .unwrap_or(value[i])
            })
            .collect();
        if next == value {
            break;
        }
        value = next;
    }
    value[index(game)]
}

/// What a run may end with: the typed error, no claim, or the value of the depth-limited game.
fn acceptable(
    game: &Race,
    depth: u32,
    value: Option<Score>,
    error: Option<&Error>,
    complete: bool,
) -> bool {
    match (error, value) {
        (Some(Error::LineTooDeep { .. }), _) => true,
        (Some(_), _) => false,
        (None, Some(v)) if complete => v == horizon_value(game, depth),
        // Stopped by the time limit with the best found so far, or no value claimed.
        (None, _) => true,
    }
}

const TIME: Duration = Duration::from_secs(1);

fn limits() -> Limits {
    Limits::none().with_max_time(TIME)
}

/// Runs `f` on a thread with a small stack (256 KiB: the guard must work on whatever stack the
/// caller has) and checks that it ended within `slack` times its time limit.
fn on_small_stack<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    within(3, what, f)
}

fn within<T: Send + 'static>(slack: u32, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let start = Instant::now();
    let t = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|_| panic!("{what} panicked"));
    assert!(
        start.elapsed() < TIME * slack,
        "{what} took {:?}, past its time limit",
        start.elapsed()
    );
    t
}

#[test]
fn every_search_ends_with_a_value_or_a_typed_error() {
    for game in [Race::PLAIN, Race::PUSH] {
        for algo in Algorithm::NAMED {
            for depth in [20, 20_000, 100_000, u32::MAX] {
                let what = format!("{algo} at depth {depth}, push {}", game.push);
                let r = on_small_stack(&what, move || {
                    search(&game, algo, &SearchConfig::new(depth).with_limits(limits()))
                });
                assert!(
                    acceptable(&game, depth, r.value, r.error.as_ref(), r.complete),
                    "{what}: {:?} complete {} error {:?}",
                    r.value,
                    r.complete,
                    r.error
                );
                if depth == 20 {
                    // A horizon inside the game: a plain search with a value.
                    assert!(r.error.is_none(), "{what}: {:?}", r.error);
                }
            }
        }
    }
}

#[test]
fn every_traced_search_ends_with_a_value_or_a_typed_error() {
    for game in [Race::PLAIN, Race::PUSH] {
        for algo in Algorithm::NAMED {
            let what = format!("traced {algo}, push {}", game.push);
            // An observer's work per node is not what the budget's clock counts: proof-number
            // search reports every ancestor's numbers, a line as long as the tree is deep.
            let r = within(20, &what, move || {
                let mut recorder = trace::Recorder::new(&game, 10_000);
                let out = trace::search_observed(
                    &game,
                    algo,
                    &SearchConfig::new(100_000).with_limits(limits()),
                    &mut recorder,
                );
                let _ = recorder.finish(&algo.to_string(), &out);
                out
            });
            assert!(
                acceptable(&game, 100_000, r.value, r.error.as_ref(), r.complete),
                "{what}: {:?} error {:?}",
                r.value,
                r.error
            );
        }
    }
}

#[test]
fn every_exact_solver_ends_with_a_value_or_a_typed_error() {
    for game in [Race::PLAIN, Race::PUSH] {
        for method in Method::ALL {
            for threads in [1, 2] {
                let what = format!("{method} on {threads} threads, push {}", game.push);
                let r = on_small_stack(&what, move || {
                    let cfg = SolveConfig {
                        tt_bytes: 1 << 16,
                        limits: limits(),
                        threads,
                        ..SolveConfig::default()
                    };
                    solve(&game, method, &cfg)
                });
                match r {
                    Ok(s) => assert!(
                        acceptable(&game, u32::MAX, s.value, None, s.complete)
                            || (!game.push && s.bounds.0 == 1),
                        "{what}: {:?} {:?} complete {}",
                        s.value,
                        s.bounds,
                        s.complete
                    ),
                    Err(e) => assert!(matches!(e, Error::LineTooDeep { .. }), "{what}: {e}"),
                }
            }
        }
    }
}

#[test]
fn the_engine_ends_with_a_move_or_a_typed_error() {
    for game in [Race::PLAIN, Race::PUSH] {
        let what = format!("the engine, push {}", game.push);
        let t = on_small_stack(&what, move || {
            let mut engine: Engine<Race> = Engine::new(&EngineConfig::default()).unwrap();
            engine.think(&game, &limits(), |_| {})
        });
        match t.error {
            Some(e) => assert!(matches!(e, Error::LineTooDeep { .. }), "{what}: {e}"),
            None => assert!(t.best_move.is_some(), "{what}: no move"),
        }
    }
}

/// Retrograde analysis solves both races, every position: a win or a loss in exactly the plies
/// the brute force's horizon needs to see it (and not one fewer), and a draw where no horizon
/// ever sees an end forced. The push race's start, beyond every search above, is a draw.
#[test]
fn the_strong_solver_solves_both_races_with_their_distances() {
    use gamesearch::retrograde::{solve_strongly, RetrogradeConfig, Solved};
    for root in [Race::PLAIN, Race::PUSH] {
        let s = solve_strongly(&root, &RetrogradeConfig::default()).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![root];
        while let Some(p) = stack.pop() {
            if !seen.insert(p) {
                continue;
            }
            let solved = s.probe(&p).expect("every reachable position");
            match solved.remoteness {
                Some(r) => {
                    assert_eq!(horizon_value(&p, r), solved.value, "{p:?}");
                    if r > 0 {
                        assert_eq!(horizon_value(&p, r - 1), 0, "{p:?}: sooner than {r}");
                    }
                }
                None => assert_eq!((solved.value, horizon_value(&p, 200)), (0, 0), "{p:?}"),
            }
            stack.extend(p.moves().map(|m| p.play(m)));
        }
        assert_eq!(s.stats().positions, seen.len() as u64);
    }
    let plain = solve_strongly(&Race::PLAIN, &RetrogradeConfig::default()).unwrap();
    assert_eq!(
        plain.probe(&Race::PLAIN),
        Some(Solved {
            value: 1,
            remoteness: Some(7)
        })
    );
    let push = solve_strongly(&Race::PUSH, &RetrogradeConfig::default()).unwrap();
    assert_eq!(
        push.probe(&Race::PUSH),
        Some(Solved {
            value: 0,
            remoteness: None
        })
    );
}

/// A cycle that MIN holds: at A (MAX to move) the one move goes to B; at B MIN goes back to A
/// or ends the game, lost. The game declares that positions repeat, a repetition a draw, and
/// scores every unfinished position +50 for MAX.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Loop {
    A,
    B,
    End,
}

impl Game for Loop {
    type Move = Loop;
    type Moves = std::vec::IntoIter<Loop>;
    fn to_move(&self) -> Player {
        if *self == Loop::B {
            Player::Min
        } else {
            Player::Max
        }
    }
    fn moves(&self) -> Self::Moves {
        match self {
            Loop::A => vec![Loop::B],
            Loop::B => vec![Loop::End, Loop::A],
            Loop::End => vec![],
        }
        .into_iter()
    }
    fn play(&self, m: Loop) -> Self {
        m
    }
    fn evaluate(&self) -> Score {
        if *self == Loop::End {
            1 // MIN, to move, has lost
        } else {
            50
        }
    }
    const REPEATS: bool = true;
}

impl PositionKey for Loop {
    fn key(&self) -> u64 {
        *self as u64
    }
}
impl Heuristic for Loop {}

#[test]
fn the_engine_values_a_repetition_on_its_line_as_the_game_does() {
    let cfg = EngineConfig {
        max_depth: 12,
        ..EngineConfig::default()
    };
    let mut engine: Engine<Loop> = Engine::new(&cfg).unwrap();
    let limits = Limits::none();
    // From A, MIN comes back to A rather than lose: a draw, not the +50 of the horizon the
    // cycle would reach if it were searched round and round.
    let t = engine.think(&Loop::A, &limits, |_| {});
    assert_eq!(t.value, Some(0), "{t:?}");
    let t = engine.think(&Loop::B, &limits, |_| {});
    assert_eq!((t.value, t.best_move), (Some(0), Some(Loop::A)), "{t:?}");
    // The depth-limited minimax value of `search` still searches through the cycle, where
    // ending the game (+1 by f) is MIN's best against the +50 of the horizon; a repetition
    // valued as a draw would have made it 0.
    let r = search(&Loop::A, Algorithm::Mtdf, &SearchConfig::new(4));
    assert_eq!(r.value, Some(1));
}
