//! The anytime engine: both drivers equal minimax at every iteration on generated trees; it never
//! loses at tic-tac-toe from any reachable position; it wins the Connect-Four end-game set's won
//! positions against a perfect opponent; budgets end it with a legal move.

use std::collections::HashMap;

use gamesearch::engine::{mtdf_to_depth_by_position, Driver, Engine, EngineConfig, PlainEngine};
use gamesearch::solver::{ExactSolver, SolveConfig};
use gamesearch::trees::{ExplicitTree, RandomTreeSpec};
use gamesearch::{search, Algorithm, Game, Limits, PositionKey, SearchConfig};
use gamesearch_games::benchmark::parse;
use gamesearch_games::{Connect4, Kalah, TicTacToe};
use proptest::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::{explicit_tree, reached, spec_strategy};

const DRIVERS: [Driver; 3] = [
    Driver::Pvs { aspiration: 0 },
    Driver::Pvs { aspiration: 1 },
    Driver::Mtdf,
];

/// Every completed iteration of the plain-scoring engine (f(p) at every leaf) has the minimax
/// value of the tree cut at that depth, and its PV is legal and starts with its best move.
fn check_iterations<G: PositionKey>(root: &G, max_depth: u32) -> Result<(), TestCaseError> {
    for driver in DRIVERS {
        let cfg = EngineConfig {
            tt_bytes: 1 << 16,
            driver,
            max_depth: max_depth.max(1),
        };
        let mut engine: PlainEngine<G> = Engine::new(&cfg).unwrap();
        let t = engine.think(root, &Limits::none(), |_| {});
        prop_assert!(t.complete);
        if root.moves().next().is_none() {
            continue;
        }
        prop_assert!(!t.iterations.is_empty());
        for it in &t.iterations {
            let mm = search(root, Algorithm::Minimax, &SearchConfig::new(it.depth)).value;
            prop_assert_eq!(Some(it.value), mm, "{:?} depth {}", driver, it.depth);
            let mut p = root.clone();
            for &m in &it.pv {
                prop_assert!(p.moves().any(|x| x == m), "illegal PV move");
                p = p.play(m);
            }
        }
        prop_assert_eq!(t.best_move, t.pv.first().copied());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn engine_iterations_equal_minimax_on_random_trees((spec, depth) in spec_strategy()) {
        check_iterations(&spec.root().unwrap(), depth)?;
    }

    #[test]
    fn engine_iterations_equal_minimax_on_explicit_trees(text in explicit_tree(5)) {
        let tree = ExplicitTree::parse(&text).unwrap();
        check_iterations(&tree.root(), tree.height())?;
    }
}

/// The game-theoretic value (MAX's view) of every tic-tac-toe position, memoised.
fn ttt_value(p: &TicTacToe, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(&v) = memo.get(&p.key()) {
        return v;
    }
    let children: Vec<i32> = p.moves().map(|m| ttt_value(&p.play(m), memo)).collect();
    let v = match (children.is_empty(), p.to_move()) {
        (true, _) => p.evaluate(),
        (false, gamesearch::Player::Max) => *children.iter().max().unwrap(),
        (false, gamesearch::Player::Min) => *children.iter().min().unwrap(),
    };
    memo.insert(p.key(), v);
    v
}

/// From the start and from every reachable position, with either driver, the engine's move
/// keeps the position's game-theoretic value: it never loses a drawn or won game.
#[test]
fn engine_never_loses_at_tictactoe() {
    let mut memo = HashMap::new();
    let mut reachable = vec![TicTacToe::new()];
    let mut seen = std::collections::HashSet::new();
    let mut i = 0;
    while i < reachable.len() {
        let p = reachable[i];
        i += 1;
        for m in p.moves() {
            let c = p.play(m);
            if seen.insert(c.key()) {
                reachable.push(c);
            }
        }
    }
    let positions: Vec<TicTacToe> = reachable
        .into_iter()
        .filter(|p| p.moves().next().is_some())
        .collect();
    assert_eq!(positions.len(), 4520); // of the 5478 legal positions, those not over
    for driver in [Driver::Pvs { aspiration: 16 }, Driver::Mtdf] {
        let mut engine: Engine<TicTacToe> = Engine::new(&EngineConfig {
            tt_bytes: 1 << 20,
            driver,
            max_depth: 9,
        })
        .unwrap();
        for p in &positions {
            let t = engine.think(p, &Limits::none(), |_| {});
            let m = t.best_move.expect("a move");
            assert_eq!(
                ttt_value(&p.play(m), &mut memo),
                ttt_value(p, &mut memo),
                "{driver:?}: {p:?} played {}",
                m + 1
            );
        }
    }
}

/// Every position of the end-game set whose score says the side to move wins: the engine, with
/// a node budget of 200,000 per move (about 30 ms here, well under the second), plays it
/// to the end against the exact solver's best defence, and wins.
#[test]
fn engine_wins_the_won_connect4_end_games() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/connect4/Test_L3_R1"
    ))
    .unwrap();
    let lines = parse(&text).unwrap();
    let start = Connect4::new(7, 6).unwrap();
    let cfg = SolveConfig {
        tt_bytes: 1 << 24,
        id_depth: 0,
        ..SolveConfig::default()
    };
    let mut solver = ExactSolver::<Connect4>::new(&cfg).unwrap();
    let mut engine: Engine<Connect4> = Engine::new(&EngineConfig::default()).unwrap();
    let budget = Limits::none().with_max_nodes(200_000);
    let mut won = 0;
    for l in lines.iter().filter(|l| l.score > 0) {
        let mut p = start.play_moves(&l.moves).unwrap();
        let me = p.to_move();
        engine.new_game();
        while p.moves().next().is_some() {
            let m = if p.to_move() == me {
                engine.think(&p, &budget, |_| {}).best_move.unwrap()
            } else {
                solver.solve(&p, &cfg, |_| {}).unwrap().best_move.unwrap()
            };
            p = p.play(m);
        }
        assert_eq!(
            p.evaluate().signum(),
            me.sign(),
            "line {}: {} (score {}) not won",
            l.line,
            l.moves,
            l.score
        );
        won += 1;
    }
    assert_eq!(won, 327, "the set's positions with a positive score");
}

/// Any budget returns a legal move with its line, for every shipped game; a stop flag already
/// raised still gives one (the first move generated).
#[test]
fn every_budget_gives_a_legal_move() {
    fn check<G: gamesearch::engine::Heuristic + PositionKey>(p: &G) {
        let mut engine: Engine<G> = Engine::new(&EngineConfig::default()).unwrap();
        // Budgets too small for one iteration still give a legal move.
        for limits in [
            Limits::none().with_max_nodes(1),
            Limits::none().with_stop_flag(std::sync::Arc::new(true.into())),
        ] {
            let t = engine.think(p, &limits, |_| {});
            let m = t.best_move.expect("a move");
            assert!(p.moves().any(|x| x == m));
            assert!(t.pv.is_empty() || t.pv[0] == m);
        }
        // From 1 ms (time is looked at every 1024 nodes, so the first iteration always ends) or
        // a thousand nodes: a completed iteration, its move and its line.
        for limits in [
            Limits::none().with_max_nodes(1000),
            Limits::none().with_max_time(std::time::Duration::from_millis(1)),
        ] {
            let t = engine.think(p, &limits, |_| {});
            let m = t.best_move.expect("a move");
            assert!(t.depth >= 1 && !t.pv.is_empty() && t.pv[0] == m);
            let mut q = p.clone();
            for &mv in &t.pv {
                assert!(q.moves().any(|x| x == mv), "a legal line");
                q = q.play(mv);
            }
        }
    }
    check(&Connect4::new(7, 6).unwrap());
    check(&Kalah::new(6, 4).unwrap());
    check(&TicTacToe::new());
    check(&RandomTreeSpec::new(8, 10, 1).root().unwrap());
}

/// A win the search proves ends the deepening and is reported as "win in N plies".
#[test]
fn proven_wins_are_reported_and_end_the_search() {
    let p = Connect4::new(7, 6).unwrap().play_moves("4455").unwrap();
    // X to move with 4 and 5 on the bottom row, both ends open: X wins with its next-but-one
    // stone at the latest (3 plies).
    let mut engine: Engine<Connect4> = Engine::new(&EngineConfig::default()).unwrap();
    let t = engine.think(&p, &Limits::none(), |_| {});
    assert!(t.complete);
    assert_eq!(t.mate, Some(3));
    assert!(t.depth <= 4);
}

/// MTD(f) with a table keyed by position, where transpositions share an entry (reached at
/// other depths, too): the minimax value of the depth-limited tree and a legal PV that starts
/// with its best move — on positions of three games full of transpositions.
fn check_by_position<G: PositionKey>(p: &G, depth: u32) -> Result<(), TestCaseError> {
    let by_position = mtdf_to_depth_by_position(p, depth, &Limits::none());
    let mm = search(p, Algorithm::Minimax, &SearchConfig::new(depth));
    prop_assert_eq!(by_position.value, mm.value);
    prop_assert!(by_position.complete);
    let mut q = p.clone();
    for &m in &by_position.pv {
        prop_assert!(q.moves().any(|x| x == m), "illegal PV move");
        q = q.play(m);
    }
    prop_assert_eq!(by_position.best_move, by_position.pv.first().copied());
    if p.moves().next().is_some() {
        prop_assert!(by_position.best_move.is_some());
    }
    Ok(())
}

/// A game on a generated directed acyclic graph: a position is a vertex and the side to move;
/// a move follows an edge, and some edges keep the turn. So one position is reached by paths
/// of different lengths and turn orders — transpositions at different depths, which a table
/// keyed by position must not confuse. `f(p)` is the vertex's value at every position.
#[derive(Clone)]
struct Dag {
    graph: std::rc::Rc<Graph>,
    vertex: u16,
    to_move: gamesearch::Player,
}

/// Each vertex's edges (the vertex reached, whether the turn stays) and value.
struct Graph {
    edges: Vec<Vec<(u16, bool)>>,
    values: Vec<i32>,
}

impl Dag {
    fn generate(seed: u64, vertices: u16) -> Dag {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let edges = (0..vertices)
            .map(|v| {
                // Edges to the next few vertices: many paths of many lengths meet.
                let reach = (vertices - v - 1).min(4);
                let n = if reach == 0 {
                    0
                } else {
                    rng.gen_range(1..=reach)
                };
                (0..n)
                    .map(|_| (v + rng.gen_range(1..=reach), rng.gen_bool(0.5)))
                    .collect()
            })
            .collect();
        let values = (0..vertices).map(|_| rng.gen_range(-20..=20)).collect();
        Dag {
            graph: std::rc::Rc::new(Graph { edges, values }),
            vertex: 0,
            to_move: gamesearch::Player::Max,
        }
    }
}

impl Game for Dag {
    type Move = u16;
    type Moves = std::ops::Range<u16>;
    fn to_move(&self) -> gamesearch::Player {
        self.to_move
    }
    fn moves(&self) -> Self::Moves {
        0..self.graph.edges[self.vertex as usize].len() as u16
    }
    fn play(&self, m: u16) -> Self {
        let (to, keep_turn) = self.graph.edges[self.vertex as usize][m as usize];
        Dag {
            graph: self.graph.clone(),
            vertex: to,
            to_move: if keep_turn {
                self.to_move
            } else {
                self.to_move.opponent()
            },
        }
    }
    fn evaluate(&self) -> gamesearch::Score {
        self.graph.values[self.vertex as usize]
    }
}

impl PositionKey for Dag {
    fn key(&self) -> u64 {
        u64::from(self.vertex) * 2 + u64::from(self.to_move == gamesearch::Player::Max)
    }
}

// Small graphs, deep searches: a position searched to the end of its game and met again with
// less depth left is what an entry wrongly stored as exact confuses (about one graph in 130).
proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn engine_iterations_equal_minimax_on_graphs(seed in any::<u64>(), vertices in 2..16u16, depth in 1..10u32) {
        check_iterations(&Dag::generate(seed, vertices), depth)?;
    }

    #[test]
    fn mtdf_by_position_equals_minimax_on_graphs(seed in any::<u64>(), vertices in 2..16u16, depth in 1..10u32) {
        check_by_position(&Dag::generate(seed, vertices), depth)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn mtdf_by_position_equals_minimax(
        game in 0..5usize,
        choices in proptest::collection::vec(any::<u8>(), 0..12),
        depth in 1..8u32,
    ) {
        match game {
            0 => check_by_position(&reached(&TicTacToe::new(), &choices), depth)?,
            1 => check_by_position(&reached(&Connect4::new(4, 4).unwrap(), &choices), depth)?,
            2 => check_by_position(&reached(&Connect4::new(5, 4).unwrap(), &choices), depth)?,
            3 => check_by_position(&reached(&Kalah::new(3, 2).unwrap(), &choices), depth)?,
            _ => check_by_position(&reached(&Kalah::new(4, 3).unwrap(), &choices), depth)?,
        }
    }
}
