//! The strong solver (`gamesearch::retrograde`) against a brute force written apart, on
//! thousands of generated games whose positions repeat: random directed graphs with cycles and
//! self-loops, turns that need not alternate, drawn ends. The brute force is the definition,
//! computed the slow way: a position is won in k plies when, after k − 1 rounds, one of its
//! children is won for its mover (the least such k), lost in k when all its children are lost
//! for its mover (the last of them), and whatever no round decides is a draw.
//!
//! The weak solvers on the same graphs (the game says its positions repeat): the exact solver
//! (alpha-beta with its table) and df-pn (binary and multi-valued) give every reachable
//! position the brute force's result and remoteness, with tables of 1 KiB, so that entries are overwritten and
//! found again on other lines: a result stored from one line and read on another (the
//! graph-history interaction) would show as a wrong sign.

use std::sync::Arc;

use gamesearch::retrograde::{
    solve_by_index, solve_strongly, DenseIndex, RetrogradeConfig, Solved, UnMoves,
};
use gamesearch::{solve, Game, Limits, Method, Player, PositionKey, Score, SolveConfig};
use gamesearch::{Error, SolverKnowledge};
use proptest::prelude::*;

/// One position of a generated game: who moves, where each move leads, and the result when
/// there is no move (its sign is what counts; magnitudes up to 3 check that).
#[derive(Clone, Debug)]
struct Node {
    max_moves: bool,
    next: Vec<usize>,
    end: Score,
}

/// A generated game: the graph and the position we are at.
#[derive(Clone, Debug)]
struct Graph {
    nodes: Arc<Vec<Node>>,
    at: usize,
}

impl Game for Graph {
    type Move = usize;
    type Moves = std::ops::Range<usize>;
    fn to_move(&self) -> Player {
        if self.nodes[self.at].max_moves {
            Player::Max
        } else {
            Player::Min
        }
    }
    fn moves(&self) -> Self::Moves {
        0..self.nodes[self.at].next.len()
    }
    fn play(&self, m: usize) -> Self {
        Graph {
            nodes: Arc::clone(&self.nodes),
            at: self.nodes[self.at].next[m],
        }
    }
    fn evaluate(&self) -> Score {
        if self.nodes[self.at].next.is_empty() {
            self.nodes[self.at].end
        } else {
            0
        }
    }
    const REPEATS: bool = true;
}

impl PositionKey for Graph {
    fn key(&self) -> u64 {
        (self.at as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5555
    }
}

impl SolverKnowledge for Graph {}

// The un-moves and a dense index, for `solve_by_index`: a position's number is its node, the
// ends go unnumbered (over), and whether a side wins at once is the library's default (its
// moves looked at).
impl UnMoves for Graph {
    fn position_of(&self, key: u64) -> Option<Self> {
        (0..self.nodes.len())
            .map(|i| at(&self.nodes, i))
            .find(|g| g.key() == key)
    }
    fn unmoves(&self, mut each: impl FnMut(Self)) {
        for (i, node) in self.nodes.iter().enumerate() {
            if node.next.contains(&self.at) {
                each(at(&self.nodes, i));
            }
        }
    }
}

impl DenseIndex for Graph {
    fn index_len(&self) -> u64 {
        self.nodes.len() as u64
    }
    fn index(&self) -> Option<u64> {
        (!self.nodes[self.at].next.is_empty()).then_some(self.at as u64)
    }
    fn position_at(&self, index: u64) -> Option<Self> {
        let i = usize::try_from(index).ok()?;
        (i < self.nodes.len() && !self.nodes[i].next.is_empty()).then(|| at(&self.nodes, i))
    }
    /// Read from the graph: every move to a position with the other side to move.
    fn turn_always_passes(&self) -> bool {
        self.nodes.iter().all(|v| {
            v.next
                .iter()
                .all(|&c| self.nodes[c].max_moves != v.max_moves)
        })
    }
}

/// The definition, round by round (see the file's comment): (value for MAX, remoteness).
fn brute_force(nodes: &[Node]) -> Vec<(Score, Option<u32>)> {
    let n = nodes.len();
    let mut known: Vec<Option<(Score, u32)>> = nodes
        .iter()
        .map(|v| (v.next.is_empty() && v.end != 0).then(|| (v.end.signum(), 0)))
        .collect();
    for round in 1..=n as u32 + 1 {
        let before = known.clone();
        for (p, node) in nodes.iter().enumerate() {
            if before[p].is_some() || node.next.is_empty() {
                continue;
            }
            let mover = if node.max_moves { 1 } else { -1 };
            let won = node
                .next
                .iter()
                .filter_map(|&c| before[c])
                .filter(|&(v, _)| v == mover)
                .map(|(_, r)| r)
                .min();
            let all_lost = node
                .next
                .iter()
                .all(|&c| matches!(before[c], Some((v, _)) if v == -mover));
            if let Some(r) = won {
                known[p] = Some((mover, r + 1));
            } else if all_lost {
                let r = node
                    .next
                    .iter()
                    .map(|&c| before[c].unwrap().1)
                    .max()
                    .unwrap();
                known[p] = Some((-mover, r + 1));
            }
            if let Some((_, r)) = known[p] {
                assert_eq!(r, round, "decided in round {round}");
            }
        }
        if known == before {
            break;
        }
    }
    known
        .into_iter()
        .map(|k| k.map_or((0, None), |(v, r)| (v, Some(r))))
        .collect()
}

/// A graph of 1 to `max` positions, up to 4 moves each, to any position (cycles, self-loops,
/// two moves to one child) or, with `acyclic`, only to later ones.
fn graphs(max: usize, acyclic: bool) -> impl Strategy<Value = Vec<Node>> {
    (1..=max).prop_flat_map(move |n| {
        let node = (any::<bool>(), prop::collection::vec(0..n, 0..=4), -3i32..=3);
        prop::collection::vec(node, n).prop_map(move |raw| {
            raw.into_iter()
                .enumerate()
                .map(|(i, (max_moves, next, end))| {
                    let next = if acyclic {
                        next.into_iter().filter(|&c| c > i).collect()
                    } else {
                        next
                    };
                    Node {
                        max_moves,
                        next,
                        end,
                    }
                })
                .collect()
        })
    })
}

fn at(nodes: &Arc<Vec<Node>>, i: usize) -> Graph {
    Graph {
        nodes: Arc::clone(nodes),
        at: i,
    }
}

/// The positions reachable from 0.
fn reachable(nodes: &[Node]) -> Vec<usize> {
    let mut seen = vec![false; nodes.len()];
    let mut stack = vec![0];
    seen[0] = true;
    let mut out = Vec::new();
    while let Some(p) = stack.pop() {
        out.push(p);
        for &c in &nodes[p].next {
            if !seen[c] {
                seen[c] = true;
                stack.push(c);
            }
        }
    }
    out
}

/// Whether `best`, the best move a solution gives position `p`, keeps the brute force's value
/// (`want`), one ply nearer the end for a win or a loss; none only at an end.
fn keeps_the_value(
    nodes: &[Node],
    want: &[(Score, Option<u32>)],
    p: usize,
    best: Option<usize>,
) -> Result<(), TestCaseError> {
    let (value, remoteness) = want[p];
    match best {
        None => prop_assert!(nodes[p].next.is_empty(), "position {} has moves", p),
        Some(m) => {
            let c = nodes[p].next[m];
            prop_assert_eq!(want[c].0, value, "move {} of {}", m, p);
            if let Some(r) = remoteness {
                prop_assert_eq!(want[c].1, Some(r - 1), "move {} of {}", m, p);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn every_reachable_position_has_the_brute_forces_value_and_remoteness(nodes in graphs(40, false), threads in 1usize..=2) {
        let nodes = Arc::new(nodes);
        let want = brute_force(&nodes);
        let cfg = RetrogradeConfig { threads, ..RetrogradeConfig::default() };
        let s = solve_strongly(&at(&nodes, 0), &cfg).unwrap();
        prop_assert!(s.complete());
        let reach = reachable(&nodes);
        prop_assert_eq!(s.stats().positions as usize, reach.len());
        for &p in &reach {
            let (value, remoteness) = want[p];
            prop_assert_eq!(s.probe(&at(&nodes, p)), Some(Solved { value, remoteness }), "position {}", p);
            // The best move keeps the value, one ply nearer the end for a win or a loss.
            keeps_the_value(&nodes, &want, p, s.best_move(&at(&nodes, p)))?;
        }
        let counted = s.stats().wins + s.stats().draws + s.stats().losses;
        prop_assert_eq!(counted, reach.len() as u64);
    }

    #[test]
    fn the_dense_index_gives_every_position_the_brute_forces_value(nodes in graphs(40, false), threads in 1usize..=2) {
        let nodes = Arc::new(nodes);
        let want = brute_force(&nodes);
        let cfg = RetrogradeConfig { threads, ..RetrogradeConfig::default() };
        let s = solve_by_index(&at(&nodes, 0), &cfg).unwrap();
        prop_assert!(s.complete());
        let numbered = nodes.iter().filter(|v| !v.next.is_empty()).count();
        prop_assert_eq!(s.stats().positions as usize, numbered);
        for (p, &(value, remoteness)) in want.iter().enumerate() {
            prop_assert_eq!(s.probe(&at(&nodes, p)), Some(Solved { value, remoteness }), "position {}", p);
            keeps_the_value(&nodes, &want, p, s.best_move(&at(&nodes, p)))?;
        }
    }

    #[test]
    fn where_the_turn_always_passes_the_dense_index_gives_the_brute_forces_value(nodes in graphs(40, false), threads in 1usize..=2) {
        // The sides alternate: a position's moves go only to positions of the other side.
        let nodes: Vec<Node> = nodes.iter().map(|v| Node {
            next: v.next.iter().copied().filter(|&c| nodes[c].max_moves != v.max_moves).collect(),
            ..v.clone()
        }).collect();
        let nodes = Arc::new(nodes);
        prop_assert!(at(&nodes, 0).turn_always_passes());
        let want = brute_force(&nodes);
        let cfg = RetrogradeConfig { threads, ..RetrogradeConfig::default() };
        let s = solve_by_index(&at(&nodes, 0), &cfg).unwrap();
        prop_assert!(s.complete());
        for (p, &(value, remoteness)) in want.iter().enumerate() {
            prop_assert_eq!(s.probe(&at(&nodes, p)), Some(Solved { value, remoteness }), "position {}", p);
            keeps_the_value(&nodes, &want, p, s.best_move(&at(&nodes, p)))?;
        }
    }

    #[test]
    fn without_cycles_the_exact_solver_agrees(nodes in graphs(30, true)) {
        let nodes = Arc::new(nodes);
        let root = at(&nodes, 0);
        let s = solve_strongly(&root, &RetrogradeConfig::default()).unwrap();
        let exact = solve(&root, Method::AlphaBetaTt, &SolveConfig::default()).unwrap();
        prop_assert_eq!(Some(s.probe(&root).unwrap().value), exact.value.map(Score::signum));
    }
}

/// The solve of `p` by `method` with a 1 KiB table: the result's sign (`None`: not proven) and
/// its remoteness.
fn weakly(p: &Graph, method: Method) -> (Option<Score>, Option<u32>) {
    let cfg = SolveConfig {
        tt_bytes: 1 << 10,
        limits: Limits::none().with_max_nodes(2_000_000),
        ..SolveConfig::default()
    };
    let s = solve(p, method, &cfg).unwrap();
    assert!(s.complete, "{method} stopped by its budget at {}", p.at);
    // (The binary methods prove win, draw or loss: a bound past 0, or 0 itself.)
    let sign = match s.bounds {
        (lo, _) if lo > 0 => Some(1),
        (_, hi) if hi < 0 => Some(-1),
        (0, 0) => Some(0),
        _ => None,
    };
    (sign, s.remoteness)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn with_cycles_the_exact_solver_and_dfpn_agree_with_the_brute_force(nodes in graphs(24, false)) {
        let nodes = Arc::new(nodes);
        let want = brute_force(&nodes);
        for p in reachable(&nodes) {
            let g = at(&nodes, p);
            for method in [Method::AlphaBetaTt, Method::Dfpn, Method::DfpnMulti] {
                prop_assert_eq!(weakly(&g, method), (Some(want[p].0), want[p].1), "{} at position {}", method, p);
            }
        }
    }
}

#[test]
fn the_tree_proof_number_search_refuses_a_game_whose_positions_repeat() {
    let nodes = Arc::new(vec![Node {
        max_moves: true,
        next: vec![0],
        end: 0,
    }]);
    for method in [Method::Pn, Method::PnMulti] {
        let Err(err) = solve(&at(&nodes, 0), method, &SolveConfig::default()) else {
            panic!("{method} should refuse");
        };
        assert!(matches!(err, Error::Repeats { .. }), "{err}");
        assert!(err.to_string().contains("use alphabeta-tt, dfpn"), "{err}");
    }
    // The others: a position that only repeats is a draw.
    for method in [Method::AlphaBetaTt, Method::Dfpn, Method::DfpnMulti] {
        assert_eq!(weakly(&at(&nodes, 0), method), (Some(0), None), "{method}");
    }
}

#[test]
fn a_position_never_reached_is_not_in_the_solution() {
    let nodes = Arc::new(vec![
        Node {
            max_moves: true,
            next: vec![0, 1],
            end: 0,
        },
        Node {
            max_moves: false,
            next: vec![0],
            end: 0,
        },
        Node {
            max_moves: true,
            next: vec![],
            end: 1,
        },
    ]);
    let s = solve_strongly(&at(&nodes, 0), &RetrogradeConfig::default()).unwrap();
    // 0 and 1 move between each other for ever: a draw, with no remoteness.
    let draw = Some(Solved {
        value: 0,
        remoteness: None,
    });
    assert_eq!(s.probe(&at(&nodes, 0)), draw);
    assert_eq!(s.probe(&at(&nodes, 1)), draw);
    assert_eq!(s.probe(&at(&nodes, 2)), None);
    assert_eq!(s.best_move(&at(&nodes, 1)), Some(0));
}

#[test]
fn too_many_positions_is_an_error_and_a_stop_leaves_nothing_claimed() {
    // A ring of 10,000 positions, each a move to the next and one to an end MIN wins.
    let n = 10_000;
    let mut nodes: Vec<Node> = (0..n)
        .map(|i| Node {
            max_moves: i % 2 == 0,
            next: vec![(i + 1) % n, n],
            end: 0,
        })
        .collect();
    nodes.push(Node {
        max_moves: true,
        next: vec![],
        end: -1,
    });
    let nodes = Arc::new(nodes);
    let small = RetrogradeConfig {
        max_positions: 100,
        ..RetrogradeConfig::default()
    };
    let err = solve_strongly(&at(&nodes, 0), &small)
        .err()
        .expect("too many");
    assert!(
        matches!(err, Error::TooLarge(ref m) if m.contains("100")),
        "{err}"
    );
    // Too little memory: refused, saying what it needs.
    let tight = RetrogradeConfig {
        max_bytes: 100_000,
        ..RetrogradeConfig::default()
    };
    let err = solve_strongly(&at(&nodes, 0), &tight)
        .err()
        .expect("too little memory");
    assert!(
        matches!(err, Error::TooLarge(ref m) if m.contains("needs at least") && m.contains("max_bytes")),
        "{err}"
    );
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stopped = RetrogradeConfig {
        limits: Limits::none().with_stop_flag(stop),
        ..RetrogradeConfig::default()
    };
    let s = solve_strongly(&at(&nodes, 0), &stopped).unwrap();
    assert!(!s.complete());
    assert_eq!(
        s.probe(&at(&nodes, 0)),
        None,
        "nothing claimed when stopped"
    );
    // Unstopped: MIN's positions take the end (a win for MIN at once); MAX's must go round.
    let s = solve_strongly(&at(&nodes, 0), &RetrogradeConfig::default()).unwrap();
    assert_eq!(
        s.probe(&at(&nodes, 1)),
        Some(Solved {
            value: -1,
            remoteness: Some(1)
        })
    );
    assert_eq!(
        s.probe(&at(&nodes, 0)),
        Some(Solved {
            value: -1,
            remoteness: Some(2)
        })
    );
    assert_eq!(s.stats().positions, n as u64 + 1);
}

/// A generated game in which endless play is worth `+1` for MAX instead of a draw.
#[derive(Clone, Debug)]
struct EndlessWins(Graph);

impl Game for EndlessWins {
    type Move = usize;
    type Moves = std::ops::Range<usize>;
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn moves(&self) -> Self::Moves {
        self.0.moves()
    }
    fn play(&self, m: usize) -> Self {
        EndlessWins(self.0.play(m))
    }
    fn evaluate(&self) -> Score {
        self.0.evaluate()
    }
    const REPEATS: bool = true;
    fn repetition_value(&self) -> Score {
        1
    }
}

impl PositionKey for EndlessWins {
    fn key(&self) -> u64 {
        self.0.key()
    }
}

impl SolverKnowledge for EndlessWins {}

#[test]
fn a_repetition_worth_a_win_is_read_by_the_weak_solvers_and_refused_by_the_strong_ones() {
    // MAX to move, between a move into a cycle with MIN (0 ↔ 1) and a move to a drawn end (2):
    // with endless play a win for MAX, MAX keeps repeating.
    let nodes = Arc::new(vec![
        Node {
            max_moves: true,
            next: vec![1, 2],
            end: 0,
        },
        Node {
            max_moves: false,
            next: vec![0],
            end: 0,
        },
        Node {
            max_moves: false,
            next: vec![],
            end: 0,
        },
    ]);
    for root in [0, 1] {
        let p = EndlessWins(at(&nodes, root));
        for method in [Method::AlphaBetaTt, Method::Dfpn, Method::DfpnMulti] {
            let s = solve(&p, method, &SolveConfig::default()).unwrap();
            // (df-pn proves a bound: a win is a lower bound past 0.)
            assert!(
                s.complete && s.bounds.0 > 0,
                "{method} from {root}: {:?}",
                s.bounds
            );
            assert_eq!(s.remoteness, None, "{method} from {root}");
        }
        // The same game with repetitions drawn: a draw.
        assert_eq!(weakly(&at(&nodes, root), Method::Dfpn), (Some(0), None));
    }
    let p = EndlessWins(at(&nodes, 0));
    let Err(err) = solve_strongly(&p, &RetrogradeConfig::default()) else {
        panic!("the strong solve values endless play as a draw: it must refuse");
    };
    assert!(err.to_string().contains("not as a draw"), "{err}");
}

mod nim {
    include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs"));
}

/// Remoteness past what a byte holds (124 plies) is kept beside the table, in memory and in
/// the file: Nim's losses from 255 stones last past it.
#[test]
fn the_dense_table_keeps_remoteness_past_a_byte() {
    use gamesearch::retrograde::DenseSolution;
    use nim::Nim;
    let root = Nim::new(255);
    let cfg = RetrogradeConfig::default();
    let by_arrows = solve_strongly(&root, &cfg).unwrap();
    let dense = solve_by_index(&root, &cfg).unwrap();
    let path = std::env::temp_dir().join(format!("nim-far-{}.gssd", std::process::id()));
    dense.write(&path, "nim").unwrap();
    let back = DenseSolution::open(&path, "nim").unwrap();
    std::fs::remove_file(&path).unwrap();
    let mut far = 0;
    for pile in 0..=255u8 {
        for to_move in [Player::Max, Player::Min] {
            let p = Nim { pile, to_move };
            let Some(want) = by_arrows.probe(&p) else {
                continue;
            };
            assert_eq!(dense.probe(&p), Some(want), "{pile}");
            assert_eq!(back.probe(&p), Some(want), "{pile}, read back");
            far += usize::from(want.remoteness.is_some_and(|r| r > 124));
        }
    }
    assert!(far > 10, "{far} positions past a byte");
    // A damaged far list is refused.
    dense.write(&path, "nim").unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 6;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(DenseSolution::open(&path, "nim").is_err());
    bytes.truncate(bytes.len() - 20);
    std::fs::write(&path, &bytes).unwrap();
    let Err(e) = DenseSolution::open(&path, "nim") else {
        panic!("a truncated file was read");
    };
    assert!(e.to_string().contains("truncated"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

/// A game whose root changes its moves after it has been asked for them once: the strong
/// solve's second walk finds a child the first never met.
#[derive(Clone)]
struct Fickle {
    at: u8,
    asked: Arc<std::sync::atomic::AtomicUsize>,
}

impl Game for Fickle {
    type Move = u8;
    type Moves = std::vec::IntoIter<u8>;
    fn to_move(&self) -> Player {
        Player::Max
    }
    fn moves(&self) -> Self::Moves {
        if self.at != 0 {
            return Vec::new().into_iter();
        }
        let first = self
            .asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            == 0;
        if first { vec![1, 2] } else { vec![1, 3] }.into_iter()
    }
    fn play(&self, m: u8) -> Self {
        Fickle {
            at: m,
            asked: self.asked.clone(),
        }
    }
    fn evaluate(&self) -> Score {
        Score::from(self.at)
    }
}

impl PositionKey for Fickle {
    fn key(&self) -> u64 {
        u64::from(self.at)
    }
}

#[test]
fn a_game_whose_moves_change_between_the_walks_is_an_error_not_a_panic() {
    let root = Fickle {
        at: 0,
        asked: Arc::default(),
    };
    let err = solve_strongly(&root, &RetrogradeConfig::default())
        .err()
        .expect("refused");
    assert!(
        matches!(err, Error::BadParameter(ref m) if m.contains("differed between two walks")),
        "{err}"
    );
}
