//! gamesearch's engine against the `minimax` crate's `IterativeSearch` (what Rust users pick
//! today: iterative deepening, a transposition table, a time limit), side by side in one run on
//! Connect-Four 7x6 with the same evaluation (gamesearch's Connect-Four heuristic, given to both)
//! and the same table size:
//!
//! 1. time to a fixed depth and nodes per second, on the same positions (medians of 3 runs);
//! 2. Monte-Carlo tree search: the same number of playouts from the start, one thread, our UCT
//!    against the crate's `MonteCarloTreeSearch` (medians of 3 runs);
//! 3. matches at equal time per move on Connect-Four and Kalah, colours swapped over seeded
//!    openings, until the SPRT (elo0 = 0, elo1 = 50, pentanomial pairs) decides. Our side plays
//!    as `gamesearch play` does: the exact solver in the first half of the move's time, the
//!    engine in the second when the solver does not finish (a table of half the size for each,
//!    so the two sides still hold the same memory).
//!
//! Run: `cargo bench -p gamesearch-cli --bench vs_minimax [-- [--quick] [--matches]]` (`--matches`:
//! part 3 alone). The seed and positions
//! are printed. `minimax` is a dev-dependency of the command-line crate only.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use gamesearch::adapters::WholeTurns;
use gamesearch::engine::{Driver, Engine, EngineConfig, Heuristic};
use gamesearch::mcts::{self, MctsConfig};
use gamesearch::solver::{ExactSolver, SolveConfig};
use gamesearch::{Limits, PositionKey, SolverKnowledge};
use gamesearch_cli::experiments::random_play;
use gamesearch_cli::sprt::{Pentanomial, Sprt, Verdict};
use gamesearch_games::{Connect4, Kalah, TicTacToe};
use minimax::{
    Evaluation, IterativeOptions, IterativeSearch, MCTSOptions, MonteCarloTreeSearch, Strategy,
    Winner,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Any gamesearch game whose turns alternate, for the `minimax` crate: its states are
/// gamesearch positions (copy-make), its hash the position key.
struct Adapted<G>(PhantomData<G>);

impl<G: PositionKey + Heuristic> minimax::Game for Adapted<G> {
    type S = G;
    type M = G::Move;

    fn generate_moves(s: &G, moves: &mut Vec<G::Move>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(s) {
            return Some(w);
        }
        moves.extend(s.moves());
        None
    }

    fn apply(s: &mut G, m: G::Move) -> Option<G> {
        Some(s.play(m))
    }

    fn get_winner(s: &G) -> Option<Winner> {
        if s.moves().next().is_some() {
            return None;
        }
        // f(p) is MAX's view; the side to move now did not make the last move.
        let v = s.to_move().sign() * s.evaluate();
        Some(match v.signum() {
            0 => Winner::Draw,
            1 => Winner::PlayerToMove,
            _ => Winner::PlayerJustMoved,
        })
    }

    fn zobrist_hash(s: &G) -> u64 {
        s.key()
    }
}

/// The same heuristic as gamesearch's engine, from the side to move's view.
struct SameEval<G>(PhantomData<G>);

impl<G: PositionKey + Heuristic> minimax::Evaluator for SameEval<G> {
    type G = Adapted<G>;
    fn evaluate(&self, s: &G) -> Evaluation {
        (s.to_move().sign() * s.heuristic()).clamp(-30_000, 30_000) as Evaluation
    }
}

const TABLE_BYTES: usize = 16 << 20;

fn ours<G: PositionKey + Heuristic>() -> Engine<G> {
    Engine::new(&EngineConfig {
        tt_bytes: TABLE_BYTES,
        driver: Driver::Pvs { aspiration: 16 },
        max_depth: 128,
    })
    .expect("a 16 MiB table")
}

fn theirs<G: PositionKey + Heuristic>() -> IterativeSearch<SameEval<G>> {
    IterativeSearch::new(
        SameEval(PhantomData),
        IterativeOptions::new().with_table_byte_size(TABLE_BYTES),
    )
}

/// Nodes `minimax` explored and the depth it completed, read from its statistics line.
fn their_stats<G: PositionKey + Heuristic>(s: &IterativeSearch<SameEval<G>>, p: &G) -> (u64, u32) {
    let mut q = p.clone();
    let text = s.stats(&mut q);
    let depth = text
        .split("to depth ")
        .nth(1)
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    let explored = text
        .split("Explored ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(0);
    let partial = text
        .split("next depth hit ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or(0);
    (explored + partial, depth)
}

/// Depth reached and nodes per second within `budget` from `p`: (ours, theirs), medians of 3.
fn at_budget<G: PositionKey + Heuristic>(p: &G, budget: Duration) -> ((f64, f64), (f64, f64)) {
    let (mut od, mut on, mut td, mut tn) = (vec![], vec![], vec![], vec![]);
    for _ in 0..3 {
        let mut e = ours::<G>();
        let t = e.think(p, &Limits::none().with_max_time(budget), |_| {});
        od.push(f64::from(t.depth));
        on.push(t.nodes_per_second());
        let mut s = theirs::<G>();
        s.set_timeout(budget);
        let start = Instant::now();
        assert!(s.choose_move(p).is_some());
        let secs = start.elapsed().as_secs_f64();
        let (nodes, depth) = their_stats(&s, p);
        td.push(f64::from(depth));
        tn.push(nodes as f64 / secs);
    }
    ((median(od), median(on)), (median(td), median(tn)))
}

/// Seconds for `n` MCTS playouts from `p`: ours (UCT), then the crate's, three times each;
/// the medians.
fn playouts<G: PositionKey + Heuristic + Send + Sync>(p: &G, n: u32, seed: u64) -> (f64, f64)
where
    G::Move: Send + Sync,
{
    let (mut o, mut t) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let cfg = MctsConfig {
            seed,
            ..MctsConfig::default()
        };
        let start = Instant::now();
        let r = mcts::search(p, &cfg, &Limits::none().with_max_nodes(u64::from(n))).unwrap();
        o.push(start.elapsed().as_secs_f64());
        assert_eq!(r.playouts, u64::from(n));
        let mut theirs: MonteCarloTreeSearch<Adapted<G>> =
            MonteCarloTreeSearch::new(MCTSOptions::default().with_num_threads(1));
        theirs.set_max_rollouts(n);
        let start = Instant::now();
        assert!(theirs.choose_move(p).is_some());
        t.push(start.elapsed().as_secs_f64());
    }
    (median(o), median(t))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Random positions `plies` moves from the start (not over), from `seed`.
fn positions(n: usize, plies: u32, seed: u64) -> Vec<Connect4> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = Connect4::new(7, 6).unwrap();
    let mut out = Vec::new();
    while out.len() < n {
        out.extend(random_play(&start, plies, &mut rng));
    }
    out
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let seed = 1;
    if !std::env::args().any(|a| a == "--matches") {
        speed(quick, seed);
    }
    matches(quick, seed);
}

/// Parts 1 and 2: nodes and playouts per second.
fn speed(quick: bool, seed: u64) {
    println!(
        "From the start, table {} MiB each, same heuristic; medians of 3 runs",
        TABLE_BYTES >> 20
    );
    println!("| game | budget | ours: depth / nodes/s | minimax crate: depth / nodes/s | nodes/s ours/theirs |");
    println!("|---|---:|---:|---:|---:|");
    let budgets: &[f64] = if quick { &[0.1] } else { &[0.1, 1.0] };
    for &b in budgets {
        let budget = Duration::from_secs_f64(b);
        let rows = [
            (
                "Connect-Four 7x6",
                at_budget(&Connect4::new(7, 6).unwrap(), budget),
            ),
            (
                "Kalah(6,4), whole turns",
                at_budget(&WholeTurns::new(Kalah::new(6, 4).unwrap()), budget),
            ),
            ("tic-tac-toe", at_budget(&TicTacToe::new(), budget)),
        ];
        for (name, ((od, on), (td, tn))) in rows {
            println!(
                "| {name} | {b} s | {od} / {:.2} M | {td} / {:.2} M | {:.2} |",
                on / 1e6,
                tn / 1e6,
                on / tn
            );
        }
    }

    let set = positions(if quick { 4 } else { 10 }, 8, seed);
    let depths: &[u32] = if quick { &[8, 10] } else { &[8, 10, 12] };
    println!(
        "Connect-Four 7x6, {} positions of 8 random plies (seed {seed}), table {} MiB each, same heuristic",
        set.len(),
        TABLE_BYTES >> 20
    );
    println!("| depth | ours: time / nodes / nodes/s | minimax crate: time / nodes / nodes/s | time ours/theirs |");
    println!("|---:|---:|---:|---:|");
    for &d in depths {
        let (mut ours_t, mut theirs_t) = (Vec::new(), Vec::new());
        let (mut ours_n, mut theirs_n) = (0, 0);
        for _run in 0..3 {
            // Ours, then theirs, on the same positions; a fresh engine (table) for each,
            // built before the clock starts (allocating 16 MiB is not searching).
            let mut engines: Vec<Engine<Connect4>> = set
                .iter()
                .map(|_| {
                    Engine::new(&EngineConfig {
                        tt_bytes: TABLE_BYTES,
                        driver: Driver::Pvs { aspiration: 16 },
                        max_depth: d,
                    })
                    .unwrap()
                })
                .collect();
            let start = Instant::now();
            let mut nodes = 0;
            for (p, e) in set.iter().zip(&mut engines) {
                let t = e.think(p, &Limits::none(), |_| {});
                assert!(t.depth == d || t.complete);
                nodes += t.stats.nodes();
            }
            ours_t.push(start.elapsed().as_secs_f64());
            ours_n = nodes;
            drop(engines);
            let mut strategies: Vec<IterativeSearch<SameEval<Connect4>>> = set
                .iter()
                .map(|_| {
                    let mut s = theirs();
                    s.set_max_depth(d as u8);
                    s
                })
                .collect();
            let start = Instant::now();
            for (p, s) in set.iter().zip(&mut strategies) {
                assert!(s.choose_move(p).is_some());
            }
            theirs_t.push(start.elapsed().as_secs_f64());
            theirs_n = set
                .iter()
                .zip(&strategies)
                .map(|(p, s)| their_stats(s, p).0)
                .sum();
        }
        let (ot, tt) = (median(ours_t), median(theirs_t));
        println!(
            "| {d} | {:.3} s / {} / {:.2} M | {:.3} s / {} / {:.2} M | {:.2} |",
            ot,
            ours_n,
            ours_n as f64 / ot / 1e6,
            tt,
            theirs_n,
            theirs_n as f64 / tt / 1e6,
            ot / tt
        );
    }

    // MCTS: the same number of playouts from the start, one thread each, medians of 3.
    let rollouts: u32 = if quick { 20_000 } else { 200_000 };
    println!(
        "MCTS, {rollouts} playouts from the start, one thread; medians of 3 (ours: UCT, seed {seed})"
    );
    println!(
        "| game | ours: s / playouts/s | minimax crate: s / playouts/s | playouts/s ours/theirs |"
    );
    println!("|---|---:|---:|---:|");
    let rows = [
        (
            "Connect-Four 7x6",
            playouts(&Connect4::new(7, 6).unwrap(), rollouts, seed),
        ),
        (
            "Kalah(6,4), whole turns",
            playouts(&WholeTurns::new(Kalah::new(6, 4).unwrap()), rollouts, seed),
        ),
        ("tic-tac-toe", playouts(&TicTacToe::new(), rollouts, seed)),
    ];
    for (name, (ot, tt)) in rows {
        let n = f64::from(rollouts);
        println!(
            "| {name} | {ot:.3} s / {:.2} M | {tt:.3} s / {:.2} M | {:.2} |",
            n / ot / 1e6,
            n / tt / 1e6,
            tt / ot
        );
    }
}

/// Part 3: matches at equal time, each opening twice, colours swapped, an SPRT deciding.
fn matches(quick: bool, seed: u64) {
    let per_move = Duration::from_millis(if quick { 5 } else { 20 });
    let max_pairs = if quick { 2 } else { 300 };
    let test: Sprt = "elo0=0,elo1=50".parse().expect("a valid test");
    println!(
        "Matches at {} ms a move, openings of 2 random plies (seed {}), each played twice; SPRT elo0=0 elo1=50 (at most {max_pairs} pairs)",
        per_move.as_millis(),
        seed + 1
    );
    println!("| game | games | ours: wins / draws / losses | score | Elo, 95 % CI | SPRT |");
    println!("|---|---:|---|---:|---|---|");
    let rows = [
        (
            "Connect-Four 7x6",
            sprt_match(
                &Connect4::new(7, 6).unwrap(),
                per_move,
                max_pairs,
                seed + 1,
                &test,
            ),
        ),
        (
            "Kalah(6,4), whole turns",
            sprt_match(
                &WholeTurns::new(Kalah::new(6, 4).unwrap()),
                per_move,
                max_pairs,
                seed + 1,
                &test,
            ),
        ),
    ];
    for (name, (w, d, l, pairs)) in rows {
        let (verdict, llr) = test.verdict(&pairs);
        let (elo, lo, hi) = pairs.elo();
        let n = w + d + l;
        let score = (f64::from(w) + 0.5 * f64::from(d)) / f64::from(n.max(1));
        println!(
            "| {name} | {n} | {w} / {d} / {l} | {score:.3} | {elo:+.0} [{lo:+.0}, {hi:+.0}] | LLR {llr:.2}: {verdict} after {} pairs |",
            pairs.pairs()
        );
    }
}

/// Our move as `gamesearch play` chooses it: the solver's proven best move when it finishes in
/// half of `per_move`, else the engine's after the other half.
fn our_move<G: PositionKey + Heuristic + SolverKnowledge + Sync>(
    solver: &mut ExactSolver<G>,
    engine: &mut Engine<G>,
    p: &G,
    per_move: Duration,
) -> G::Move {
    let half = Limits::none().with_max_time(per_move / 2);
    let cfg = SolveConfig {
        limits: half.clone(),
        threads: 1,
        ..SolveConfig::default()
    };
    if let Ok(s) = solver.solve(p, &cfg, |_| {}) {
        if let (true, Some(m)) = (s.complete, s.best_move) {
            return m;
        }
    }
    engine
        .think(p, &half, |_| {})
        .best_move
        .expect("a move in a live game")
}

/// Our engine against the crate's `IterativeSearch` from `start`: openings of 2 random plies
/// from `seed`, each played twice with the colours swapped, until `test` decides or `max_pairs`
/// pairs. Our wins, draws, losses, and the pairs by our score in them.
fn sprt_match<G: PositionKey + Heuristic + SolverKnowledge + Sync>(
    start: &G,
    per_move: Duration,
    max_pairs: u64,
    seed: u64,
    test: &Sprt,
) -> (u32, u32, u32, Pentanomial) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut pairs = Pentanomial::default();
    while pairs.pairs() < max_pairs && test.verdict(&pairs).0 == Verdict::Continue {
        let Some(opening) = random_play(start, 2, &mut rng) else {
            continue;
        };
        let mut halves = 0;
        for ours_first in [true, false] {
            let mut a = Engine::<G>::new(&EngineConfig {
                tt_bytes: TABLE_BYTES / 2,
                ..EngineConfig::default()
            })
            .expect("an 8 MiB table");
            let mut solver = ExactSolver::<G>::new(&SolveConfig {
                tt_bytes: TABLE_BYTES / 2,
                threads: 1,
                ..SolveConfig::default()
            })
            .expect("an 8 MiB table");
            let mut b = theirs::<G>();
            b.set_timeout(per_move);
            let mut p = opening.clone();
            while p.moves().next().is_some() {
                let ours_turn = (p.to_move() == gamesearch::Player::Max) == ours_first;
                let m = if ours_turn {
                    our_move(&mut solver, &mut a, &p, per_move)
                } else {
                    b.choose_move(&p).expect("a move in a live game")
                };
                p = p.play(m);
            }
            let v = p.evaluate().signum() * if ours_first { 1 } else { -1 };
            match v {
                1 => w += 1,
                -1 => l += 1,
                _ => d += 1,
            }
            halves += (v + 1) as usize;
        }
        pairs.add(halves);
    }
    (w, d, l, pairs)
}
