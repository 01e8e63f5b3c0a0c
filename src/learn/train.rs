//! Learning the weights: self-play makes the positions, the exact solver and searches label
//! them, least squares fits each stage (see the module's documentation).
//!
//! The steps, each round:
//! 1. **Play** `games` seeded games, each move random in the opening and with a small chance
//!    later, else the best by the weights learned so far (none in the first round: every move
//!    is then random). Every position with a move is kept once (by its key), unless it is
//!    excluded (a test suite's) — in a stage of its own.
//! 2. **Label** the stages from the end: a stage below [`LearnConfig::exact_stages`] by the exact
//!    solver; above, by a nega-max alpha-beta search of at least
//!    [`LearnConfig::search_depth`] plies that goes on until its leaves lie in a stage below,
//!    valued by the weights those stages have learned.
//! 3. **Fit** each stage after labelling it, before the next is labelled: ridge least squares
//!    by conjugate gradients (CGLS), from the stage's weights so far (in the first round, from
//!    the stage below), stopped where the error on the held-out games is least.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use smallvec::SmallVec;

use crate::error::Error;
use crate::game::{Game, PositionKey};
use crate::limits::Limits;
use crate::random::SplitMix;
use crate::solver::{ExactSolver, SolveConfig, SolverKnowledge};

use super::{Features, Weights};

/// How the weights are learned: how much self-play, how the positions are labelled and fitted.
/// Every draw comes from `seed`: the same configuration learns the same weights on any number
/// of threads.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// The seed of every game played (game `i` of round `r` draws from a generator seeded by
    /// `seed`, `r` and `i`).
    pub seed: u64,
    /// Games of self-play a round.
    pub games: usize,
    /// Rounds: the first plays at random, each later one by the weights learned before it (and
    /// the positions of every round are fitted together).
    pub rounds: usize,
    /// Plies from the start played at random, so that the games vary.
    pub opening_random_plies: u32,
    /// After the opening, the chance that a move is random rather than the weights' best.
    pub random_moves: f64,
    /// Longest game played (a game whose positions repeat may not end).
    pub max_plies: u32,
    /// Stages below this are labelled by the exact solver.
    pub exact_stages: usize,
    /// The labelling search's least depth in plies (it goes on until its leaves lie in a stage
    /// below the one it labels).
    pub search_depth: u32,
    /// Most positions kept a stage (the first ones played).
    pub max_per_stage: usize,
    /// The share of games whose positions are held out of the fit, to measure its error.
    pub held_out: f64,
    /// Most conjugate-gradient iterations a stage's fit takes.
    pub iterations: usize,
    /// The fit's ridge: how strongly a weight is held to its start, in positions' worth.
    pub ridge: f64,
    /// Threads playing, labelling and fitting.
    pub threads: usize,
    /// Bytes of each thread's exact-solver table.
    pub tt_bytes: usize,
    /// Time and stop flag: on either, the stages fitted so far are kept and returned,
    /// [`Learned::complete`] false.
    pub limits: Limits,
}

impl Default for LearnConfig {
    fn default() -> Self {
        LearnConfig {
            seed: 1,
            games: 1000,
            rounds: 2,
            opening_random_plies: 6,
            random_moves: 0.1,
            max_plies: 1000,
            exact_stages: 1,
            search_depth: 2,
            max_per_stage: 1_000_000,
            held_out: 0.1,
            iterations: 60,
            ridge: 1.0,
            threads: 1,
            tt_bytes: 16 << 20,
            limits: Limits::none(),
        }
    }
}

/// Where the learning stands, passed to the progress callback as it goes.
#[derive(Clone, Copy, Debug)]
pub struct LearnProgress<'a> {
    /// The round (from 1).
    pub round: usize,
    /// `"playing"`, `"labelling"`, `"fitting"`, or `"fitted"` once after each stage's fit (with
    /// [`LearnProgress::report`]).
    pub phase: &'static str,
    /// The stage labelled or fitted (0 while playing).
    pub stage: usize,
    /// Games played, or positions labelled, or fit iterations, so far in this phase.
    pub done: usize,
    /// Out of how many.
    pub total: usize,
    /// Seconds since the learning began.
    pub seconds: f64,
    /// The stage's fit, once `"fitted"`.
    pub report: Option<&'a StageReport>,
}

/// One stage's fit, in the last round.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StageReport {
    /// The stage.
    pub stage: usize,
    /// Positions fitted.
    pub positions: usize,
    /// Positions held out.
    pub held_out: usize,
    /// Whether the labels are exact (else searched).
    pub exact: bool,
    /// Root mean square error of the fit on its positions, in the game's value units.
    pub train_error: f64,
    /// The same on the held-out positions (`NaN` when none).
    pub held_out_error: f64,
    /// The held-out error of the zero evaluation, for comparison (`NaN` when none).
    pub held_out_error_of_zero: f64,
    /// Seconds spent labelling, and fitting.
    pub label_seconds: f64,
    /// Seconds spent fitting.
    pub fit_seconds: f64,
    /// Conjugate-gradient iterations kept.
    pub iterations: usize,
}

/// What [`learn`] returns.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The weights.
    pub weights: Weights,
    /// Each stage's fit in the last round (the stages fitted, when stopped early).
    pub stages: Vec<StageReport>,
    /// Games played, all rounds.
    pub games: usize,
    /// Distinct positions kept, all rounds.
    pub positions: usize,
    /// Positions played but excluded (their keys were in the exclusion set).
    pub excluded: usize,
    /// Positions labelled, all rounds (a position is labelled again each round).
    pub labelled: usize,
    /// Seconds playing, labelling and fitting.
    pub seconds: (f64, f64, f64),
    /// The keys of the positions kept (the training and held-out positions), sorted.
    pub keys: Vec<u64>,
    /// False when the stop flag or the time limit ended the learning first.
    pub complete: bool,
}

/// A position kept for the fit.
#[derive(Clone)]
struct Sample<G> {
    game: G,
    held: bool,
    /// Its exact label once solved (kept across rounds).
    exact: Option<f32>,
}

/// Learns weights for the game of `start` from self-play (see the module's documentation):
/// no position whose key is in `exclude` is kept. `progress` is called on the calling thread
/// as the work goes.
///
/// Errors: a configuration that cannot learn ([`Error::BadParameter`]), an exact-solver table
/// the machine cannot give ([`Error::OutOfMemory`]).
pub fn learn<G>(
    start: &G,
    cfg: &LearnConfig,
    exclude: &HashSet<u64>,
    mut progress: impl FnMut(&LearnProgress),
) -> Result<Learned, Error>
where
    G: Features + PositionKey + SolverKnowledge + Send + Sync,
{
    check(start, cfg)?;
    let clock = Instant::now();
    let (stages, per_stage) = (start.stages().max(1), start.weights_per_stage());
    let mut w = vec![0f32; stages * per_stage];
    let mut samples: Vec<Vec<Sample<G>>> = (0..stages).map(|_| Vec::new()).collect();
    let mut seen: HashSet<u64> = HashSet::new();
    let (mut excluded, mut labelled, mut games) = (0, 0, 0);
    let mut seconds = (0.0, 0.0, 0.0);
    let mut reports = Vec::new();
    let mut complete = true;
    // What the progress callback is told, at each step.
    let mut tell = |round, phase, stage, (done, total), report: Option<&StageReport>| {
        progress(&LearnProgress {
            round,
            phase,
            stage,
            done,
            total,
            seconds: clock.elapsed().as_secs_f64(),
            report,
        })
    };
    'rounds: for round in 1..=cfg.rounds {
        // 1. Play.
        let t = Instant::now();
        let played = parallel(
            cfg,
            cfg.games,
            &mut |done| tell(round, "playing", 0, (done, cfg.games), None),
            || (),
            |_, i| self_play(start, cfg, round, i, &w, round > 1),
        );
        seconds.0 += t.elapsed().as_secs_f64();
        let quota = cfg.max_per_stage.div_ceil(cfg.rounds);
        let mut added = vec![0usize; stages];
        for (i, line) in played.into_iter().enumerate() {
            let Some(line) = line else {
                complete = false;
                continue;
            };
            games += 1;
            let held = is_held(cfg, round, i);
            for game in line {
                let key = game.key();
                if exclude.contains(&key) {
                    excluded += 1;
                    continue;
                }
                let s = game.stage().min(stages - 1);
                if added[s] >= quota || !seen.insert(key) {
                    continue;
                }
                added[s] += 1;
                samples[s].push(Sample {
                    game,
                    held,
                    exact: None,
                });
            }
        }
        if !complete {
            break 'rounds;
        }
        // 2 and 3. Label and fit, stage by stage from the end.
        reports.clear();
        for stage in 0..stages {
            if samples[stage].is_empty() {
                continue;
            }
            let t = Instant::now();
            let exact = stage < cfg.exact_stages;
            let labels = label(
                cfg,
                stage,
                exact,
                &mut samples[stage],
                &w,
                per_stage,
                &mut |done, total| tell(round, "labelling", stage, (done, total), None),
            )?;
            let label_seconds = t.elapsed().as_secs_f64();
            seconds.1 += label_seconds;
            let Some(labels) = labels else {
                complete = false;
                break 'rounds;
            };
            labelled += labels.len();
            let t = Instant::now();
            if round == 1 && stage > 0 {
                let (below, this) = w.split_at_mut(stage * per_stage);
                this[..per_stage].copy_from_slice(&below[(stage - 1) * per_stage..]);
            }
            let table = &mut w[stage * per_stage..(stage + 1) * per_stage];
            let mut report = fit(cfg, &samples[stage], &labels, table, &mut |done| {
                tell(round, "fitting", stage, (done, cfg.iterations), None)
            });
            report.stage = stage;
            report.exact = exact;
            report.label_seconds = label_seconds;
            report.fit_seconds = t.elapsed().as_secs_f64();
            seconds.2 += report.fit_seconds;
            let done = (report.iterations, cfg.iterations);
            tell(round, "fitted", stage, done, Some(&report));
            reports.push(report);
            if stopped(cfg, clock) {
                complete = false;
                break 'rounds;
            }
        }
    }
    Ok(Learned {
        weights: Weights::from_f32(&start.feature_set(), stages, per_stage, &w, cfg.seed),
        stages: reports,
        games,
        positions: samples.iter().map(Vec::len).sum(),
        keys: {
            let mut keys: Vec<u64> = seen.into_iter().collect();
            keys.sort_unstable();
            keys
        },
        excluded,
        labelled,
        seconds,
        complete,
    })
}

/// An error for a configuration that cannot learn.
fn check<G: Features>(start: &G, cfg: &LearnConfig) -> Result<(), Error> {
    let bad = |m: &str| Err(Error::BadParameter(m.to_string()));
    if cfg.games == 0 || cfg.rounds == 0 {
        return bad("learning needs at least one game and one round");
    }
    if !(0.0..1.0).contains(&cfg.held_out) || !(0.0..=1.0).contains(&cfg.random_moves) {
        return bad(
            "the held-out share must lie in [0, 1) and the chance of a random move in [0, 1]",
        );
    }
    if cfg.threads == 0 || cfg.threads > 1024 {
        return bad("threads must lie in 1..=1024");
    }
    if start.weights_per_stage() == 0 || start.weights_per_stage() > u32::MAX as usize {
        return bad("the game's features give no weights to learn");
    }
    if cfg.ridge.is_nan() || cfg.ridge < 0.0 {
        return bad("the ridge must be at least 0");
    }
    Ok(())
}

/// Whether the stop flag or the time limit has ended the learning.
fn stopped(cfg: &LearnConfig, clock: Instant) -> bool {
    cfg.limits.stop_requested() || cfg.limits.max_time.is_some_and(|t| clock.elapsed() >= t)
}

/// Whether game `i` of `round` is held out of the fit.
fn is_held(cfg: &LearnConfig, round: usize, i: usize) -> bool {
    SplitMix(cfg.seed ^ 0xA5A5_5A5A_0F0F_F0F0 ^ (round as u64) << 48 ^ i as u64).unit()
        < cfg.held_out
}

/// `f(state, i)` for `i` in `0..n` on `cfg.threads` threads (the caller's one of them), each
/// with its own state from `init`; `tick(done)` is called on the calling thread every so often.
/// `None` for the items a stop left undone.
fn parallel<S, T: Send>(
    cfg: &LearnConfig,
    n: usize,
    tick: &mut dyn FnMut(usize),
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> T + Sync,
) -> Vec<Option<T>> {
    let clock = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    let work = |main: bool, tick: &mut dyn FnMut(usize)| {
        let mut state = init();
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n || stopped(cfg, clock) {
                break;
            }
            mine.push((i, f(&mut state, i)));
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if main && d % 64 == 0 {
                tick(d);
            }
            if mine.len() >= 256 {
                let mut r = results.lock().unwrap();
                for (i, t) in mine.drain(..) {
                    r[i] = Some(t);
                }
            }
        }
        let mut r = results.lock().unwrap();
        for (i, t) in mine {
            r[i] = Some(t);
        }
    };
    std::thread::scope(|s| {
        for _ in 1..cfg.threads {
            s.spawn(|| work(false, &mut |_| {}));
        }
        work(true, tick);
    });
    tick(done.load(Ordering::Relaxed));
    results.into_inner().unwrap()
}

/// The weights' sum at `game`'s features, the mover's view, in the game's units.
#[inline]
fn value_of<G: Features>(game: &G, w: &[f32], per_stage: usize) -> f32 {
    let stages = w.len() / per_stage;
    let at = game.stage().min(stages - 1) * per_stage;
    let table = &w[at..at + per_stage];
    let mut sum = 0f32;
    game.features(&mut |i| sum += table[i as usize]);
    sum
}

/// A finished game's value, the mover's view.
#[inline]
fn final_value<G: Game>(game: &G) -> f32 {
    (game.evaluate() * game.to_move().sign()) as f32
}

/// `child`'s value (its mover's view) in the view of the side that moved to it.
#[inline]
fn from_parent<G: Game>(parent: &G, child: &G, v: f32) -> f32 {
    if child.to_move() == parent.to_move() {
        v
    } else {
        -v
    }
}

/// Game `i` of `round`: the positions with a move, in order.
fn self_play<G: Features>(
    start: &G,
    cfg: &LearnConfig,
    round: usize,
    i: usize,
    w: &[f32],
    by_weights: bool,
) -> Vec<G> {
    let per_stage = start.weights_per_stage();
    let mut rng = SplitMix(
        cfg.seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add((round as u64) << 40)
            .wrapping_add(i as u64),
    );
    let mut line = Vec::new();
    let mut game = start.clone();
    let mut moves: SmallVec<[G::Move; 64]> = SmallVec::new();
    for ply in 0..cfg.max_plies {
        moves.clear();
        moves.extend(game.moves());
        if moves.is_empty() {
            break;
        }
        line.push(game.clone());
        let random = !by_weights || ply < cfg.opening_random_plies || rng.unit() < cfg.random_moves;
        let mv = if random {
            moves[rng.below(moves.len())]
        } else {
            // The best child by the weights; ties broken at random.
            let (mut best, mut best_value, mut ties) = (0, f32::NEG_INFINITY, 0);
            for (k, m) in moves.iter().enumerate() {
                let child = game.play(*m);
                let v = if child.moves().next().is_none() {
                    final_value(&child)
                } else {
                    value_of(&child, w, per_stage)
                };
                let v = from_parent(&game, &child, v);
                if v > best_value {
                    (best, best_value, ties) = (k, v, 1);
                } else if v == best_value {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        best = k;
                    }
                }
            }
            moves[best]
        };
        game = game.play(mv);
    }
    line
}

/// The labels of a stage's positions (mover's view): exact (each position solved once over all
/// rounds) or searched. `None` when a stop cut the labelling short.
fn label<G>(
    cfg: &LearnConfig,
    stage: usize,
    exact: bool,
    samples: &mut [Sample<G>],
    w: &[f32],
    per_stage: usize,
    tick: &mut dyn FnMut(usize, usize),
) -> Result<Option<Vec<f32>>, Error>
where
    G: Features + PositionKey + SolverKnowledge + Send + Sync,
{
    let n = samples.len();
    let solve_cfg = SolveConfig {
        tt_bytes: cfg.tt_bytes,
        id_depth: 0,
        best_move: false,
        threads: 1,
        limits: cfg.limits.clone(),
        ..SolveConfig::default()
    };
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let samples_ro: &[Sample<G>] = samples;
    let labels = parallel(
        cfg,
        n,
        &mut |done| tick(done, n),
        || {
            if exact {
                match ExactSolver::<G>::new(&solve_cfg) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        *failed.lock().unwrap() = Some(e);
                        None
                    }
                }
            } else {
                None
            }
        },
        |solver, i| {
            let s = &samples_ro[i];
            if let Some(v) = s.exact {
                return Some(v);
            }
            if exact {
                let solution = solver.as_mut()?.solve(&s.game, &solve_cfg, |_| {}).ok()?;
                let v = solution.value?;
                Some((v * s.game.to_move().sign()) as f32)
            } else {
                let mut nodes = 0u64;
                Some(searched_value(
                    &s.game,
                    w,
                    per_stage,
                    stage,
                    cfg.search_depth as i32,
                    f32::NEG_INFINITY,
                    f32::INFINITY,
                    &mut nodes,
                ))
            }
        },
    );
    if let Some(e) = failed.into_inner().unwrap() {
        return Err(e);
    }
    let mut out = Vec::with_capacity(n);
    for (s, l) in samples.iter_mut().zip(labels) {
        match l.flatten() {
            Some(v) => {
                if exact {
                    s.exact = Some(v);
                }
                out.push(v);
            }
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Plies past the least depth that the labelling search follows a line still in the stage it
/// labels (a pass, or a game whose stages are wider than the search) before it takes the
/// weights at the leaf anyway.
const PAST_DEPTH: i32 = 8;

/// Nega-max alpha-beta to at least `depth` plies and until the position lies below `stage`,
/// valued by the weights at the leaves and exactly at finished games: the mover's view. Moves
/// more than one ply from the leaves are tried best first by the weights.
#[allow(clippy::too_many_arguments)]
fn searched_value<G: Features>(
    game: &G,
    w: &[f32],
    per_stage: usize,
    stage: usize,
    depth: i32,
    mut alpha: f32,
    beta: f32,
    nodes: &mut u64,
) -> f32 {
    *nodes += 1;
    let mut moves: SmallVec<[(f32, G::Move); 32]> = game.moves().map(|m| (0.0, m)).collect();
    if moves.is_empty() {
        return final_value(game);
    }
    if (depth <= 0 && game.stage() < stage) || depth <= -PAST_DEPTH {
        return value_of(game, w, per_stage);
    }
    if depth >= 2 {
        for (key, m) in moves.iter_mut() {
            let child = game.play(*m);
            *key = -from_parent(game, &child, value_of(&child, w, per_stage));
        }
        moves.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut best = f32::NEG_INFINITY;
    for (_, m) in moves {
        let child = game.play(m);
        let same = child.to_move() == game.to_move();
        let v = if same {
            searched_value(&child, w, per_stage, stage, depth - 1, alpha, beta, nodes)
        } else {
            -searched_value(&child, w, per_stage, stage, depth - 1, -beta, -alpha, nodes)
        };
        if v > best {
            best = v;
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

/// A stage's positions as a sparse matrix: each row's feature indices.
struct Rows {
    starts: Vec<usize>,
    features: Vec<u32>,
}

impl Rows {
    fn row(&self, i: usize) -> &[u32] {
        &self.features[self.starts[i]..self.starts[i + 1]]
    }
}

/// Ridge least squares for one stage's `table` (changed in place) by CGLS, stopped at the least
/// held-out error.
fn fit<G: Features>(
    cfg: &LearnConfig,
    samples: &[Sample<G>],
    labels: &[f32],
    table: &mut [f32],
    tick: &mut dyn FnMut(usize),
) -> StageReport {
    let rows_of = |held: bool| {
        let mut rows = Rows {
            starts: vec![0],
            features: Vec::new(),
        };
        let mut y = Vec::new();
        for (s, &l) in samples.iter().zip(labels) {
            if s.held == held {
                s.game.features(&mut |i| rows.features.push(i));
                rows.starts.push(rows.features.len());
                y.push(l);
            }
        }
        (rows, y)
    };
    let (train, y) = rows_of(false);
    let (held, y_held) = rows_of(true);
    let threads = cfg.threads;
    let m = table.len();
    let lambda = cfg.ridge as f32;
    // x: the change from the start; residual r = y - A(w0 + x).
    let w0: Vec<f32> = table.to_vec();
    let mut x = vec![0f32; m];
    let mut r = residuals(&train, &y, &w0, threads);
    let rms = |r: &[f32]| {
        if r.is_empty() {
            f64::NAN
        } else {
            (squared(r) / r.len() as f64).sqrt()
        }
    };
    let held_error = |w: &[f32]| rms(&residuals(&held, &y_held, w, threads));
    let zero_error = rms(&y_held);
    let mut best = (held_error(&w0), 0usize, x.clone());
    let mut s = transpose_times(&train, &r, m, threads);
    let mut p = s.clone();
    let mut gamma = squared(&s);
    for it in 1..=cfg.iterations {
        if gamma == 0.0 {
            break;
        }
        let q = times(&train, &p, threads);
        let qq = squared(&q);
        let pp = squared(&p);
        let alpha = (gamma / (qq + f64::from(lambda) * pp)) as f32;
        if !alpha.is_finite() {
            break;
        }
        for (xi, pi) in x.iter_mut().zip(&p) {
            *xi += alpha * pi;
        }
        for (ri, qi) in r.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        s = transpose_times(&train, &r, m, threads);
        for (si, xi) in s.iter_mut().zip(&x) {
            *si -= lambda * xi;
        }
        let gamma_next = squared(&s);
        let beta = (gamma_next / gamma) as f32;
        gamma = gamma_next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
        let w: Vec<f32> = w0.iter().zip(&x).map(|(a, b)| a + b).collect();
        let e = held_error(&w);
        if y_held.is_empty() || e < best.0 {
            best = (e, it, x.clone());
        }
        tick(it);
        if it >= best.1 + 8 && !y_held.is_empty() {
            break; // the held-out error has not improved for eight iterations
        }
    }
    for ((t, a), b) in table.iter_mut().zip(&w0).zip(&best.2) {
        *t = a + b;
    }
    let train_error = rms(&residuals(&train, &y, table, threads));
    StageReport {
        stage: 0,
        positions: y.len(),
        held_out: y_held.len(),
        exact: false,
        train_error,
        held_out_error: best.0,
        held_out_error_of_zero: zero_error,
        label_seconds: 0.0,
        fit_seconds: 0.0,
        iterations: best.1,
    }
}

/// The sum of the squares of `v`, in double precision.
fn squared(v: &[f32]) -> f64 {
    v.iter().map(|&x| f64::from(x) * f64::from(x)).sum()
}

/// `y - A w`, rows in parallel.
fn residuals(rows: &Rows, y: &[f32], w: &[f32], threads: usize) -> Vec<f32> {
    let mut out = times(rows, w, threads);
    for (o, yi) in out.iter_mut().zip(y) {
        *o = yi - *o;
    }
    out
}

/// `A v`, rows in parallel.
fn times(rows: &Rows, v: &[f32], threads: usize) -> Vec<f32> {
    let n = rows.starts.len() - 1;
    let mut out = vec![0f32; n];
    let chunk = n.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for (c, part) in out.chunks_mut(chunk).enumerate() {
            s.spawn(move || {
                for (k, o) in part.iter_mut().enumerate() {
                    *o = rows.row(c * chunk + k).iter().map(|&j| v[j as usize]).sum();
                }
            });
        }
    });
    out
}

/// Rows a part of [`transpose_times`] sums: fixed, so that the sum's order (and so the weights,
/// to the last bit) does not depend on the number of threads.
const ROWS_A_PART: usize = 1 << 14;

/// `Aᵀ r`: parts of [`ROWS_A_PART`] rows summed on the threads, the parts added in order.
fn transpose_times(rows: &Rows, r: &[f32], m: usize, threads: usize) -> Vec<f32> {
    let n = rows.starts.len() - 1;
    let count = n.div_ceil(ROWS_A_PART);
    let next = AtomicUsize::new(0);
    let parts: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; count]);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            s.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= count {
                    break;
                }
                let mut acc = vec![0f32; m];
                let first = c * ROWS_A_PART;
                let last = ((c + 1) * ROWS_A_PART).min(n);
                for (i, &ri) in r[first..last].iter().enumerate() {
                    for &j in rows.row(first + i) {
                        acc[j as usize] += ri;
                    }
                }
                parts.lock().unwrap()[c] = Some(acc);
            });
        }
    });
    let mut out = vec![0f32; m];
    for part in parts.into_inner().unwrap().into_iter().flatten() {
        for (o, p) in out.iter_mut().zip(part) {
            *o += p;
        }
    }
    out
}
