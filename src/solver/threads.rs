//! Threads: each null-window test is searched by the main worker and `threads - 1` helpers at
//! the same time, sharing the table; near the root a thread puts off the moves another is
//! searching (simplified ABDADA), so that the threads spread over the tree. The first thread to
//! finish answers the test and the others stop. (When only the main thread answered, its own
//! search of the window set the pace whatever the helpers had found. Connect-Four, two threads,
//! 1 GiB, two runs before and the median of three after: 6x6 1.39-1.43 → 0.86 s, 5x8 0.97-2.37
//! → 0.75 s, 9x4 5.6-6.2 → 4.5 s, 6x5 0.09 → 0.08 s.)
//!
//! The helpers' threads are started with the solver ([`Helpers`], a thread pool of their own)
//! and kept from one solve to the next; each solve sets them searching (a [`Team`]) and gives
//! them each test in turn, and they keep their move stacks and histories from one test to the
//! next. (Started for each test before: two threads, 1 GiB, medians of runs alternated with
//! that build: 6x4 5.2 → 4.7 ms and 5x6 14.2 → 12.2 ms over 21 rounds, 4x8 33 ms either way;
//! 5x5 7.4 → 5.7 ms and 8x4 0.270 → 0.256 s over 11.)

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::cores::Cores;
use super::node::Worker;
use super::table::TranspositionTable;
use super::SolverKnowledge;
use crate::error::Error;
use crate::game::{PositionKey, Score};
use crate::limits::{Budget, Limits};
use crate::stats::Stats;

/// What the main thread and the helpers of a solve share: the test being searched, the flag
/// that stops it, its answer.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Rung for the helpers when a test is given (or the team breaks up).
    given: Condvar,
    /// Rung for the main thread when the last helper is done with a test.
    finished: Condvar,
    /// Raised by the first thread to finish a test: its answer stands (every thread searches
    /// the same window to the end, so any one's fail-soft value is a true bound) and the others
    /// stop.
    done: Arc<AtomicBool>,
    answer: AtomicI32,
}

#[derive(Default)]
struct State {
    /// The test: the position (the solve's root, or the root after its `i`-th move, as
    /// `Some(i)`) and `m` of its window `(m, m + 1)` in MAX's view.
    test: (Option<usize>, Score),
    /// Tests given so far: a helper searches each new one once.
    given: u64,
    /// Helpers still searching the current test.
    searching: usize,
    /// The counters of the helpers' searches of the current test.
    stats: Stats,
    /// The solve is over: the helpers return.
    over: bool,
    /// A helper panicked (a bug): the main thread, waiting for it, panics too, instead of
    /// waiting for ever.
    broken: bool,
}

/// A helper's nodes and table hits added to `to` (its searches are the main thread's test, not
/// tests of their own).
fn add_nodes(to: &mut Stats, from: &Stats) {
    to.leaves += from.leaves;
    to.interior += from.interior;
    to.tt_hits += from.tt_hits;
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        // (A helper that panicked while holding the lock left nothing half-written: every
        // field is set whole.)
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Slots of the set of positions being searched near the root, which the threads share to put
/// off each other's moves (a power of two: a position's slot is its key's low bits).
const BUSY_SLOTS: usize = 1 << 14;

/// A solver's helper threads, started with it and kept between its solves, and the set of
/// positions being searched that they share with the main thread.
///
/// Started inside each solve before, a helper came up a test late: a new thread waited on the
/// main thread's core, where Linux had put it, and on 4x6 at two threads one run in four or
/// five searched on one core (26,207 nodes in 4.2 ms against 30 k in 2.4-2.9 ms when the
/// helper ran beside it). c4 too starts its threads with its solver, before its clock. A
/// helper woken from its sleep could still land on the main thread's core (the pool alone:
/// 4x6 2.77 → 2.99 ms, 6x4 3.75 → 3.98 ms), so each test wakes them off it: [`Cores`].
pub(super) struct Helpers {
    pool: rayon::ThreadPool,
    busy: Box<[AtomicU64]>,
    cores: Arc<Cores>,
}

impl Helpers {
    /// `count` helper threads (at least one), waiting for a solve.
    pub(super) fn start(count: usize) -> Result<Helpers, Error> {
        let cores = Arc::new(Cores::new());
        let registry = Arc::clone(&cores);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(count.max(1))
            .thread_name(|i| format!("gamesearch-solver-helper-{i}"))
            .start_handler(move |_| registry.register_this_thread())
            .build()
            .map_err(|e| Error::Threads {
                count,
                message: e.to_string(),
            })?;
        // (Every helper has started, and told `cores` its id, when this returns.)
        pool.broadcast(|_| ());
        let busy = (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect();
        Ok(Helpers { pool, busy, cores })
    }

    /// How many helper threads there are.
    pub(super) fn count(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `search` on the calling thread with the helpers set searching `root`'s tests with
    /// it (the [`Team`] it is given); returns once they are done.
    pub(super) fn team_up<G: PositionKey + SolverKnowledge + Sync, R>(
        &self,
        root: &G,
        tt: &TranspositionTable,
        etc_plies: u32,
        search: impl FnOnce(Team<'_>, &[AtomicU64]) -> R,
    ) -> R {
        let shared = Shared::default();
        let (busy, cores) = (&self.busy[..], &*self.cores);
        // (The pool wakes its threads for these jobs as each test wakes them for itself.)
        cores.keep_off_this_core();
        self.pool.in_place_scope(|scope| {
            for _ in 0..self.count() {
                scope.spawn(|_| help(&shared, cores, root, (tt, busy, etc_plies)));
            }
            // (The team, dropped when `search` returns, sends the helpers home; the scope then
            // waits for them.)
            search(
                Team {
                    shared: &shared,
                    cores,
                    helpers: self.count(),
                },
                busy,
            )
        })
    }
}

impl std::fmt::Debug for Helpers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} helper threads", self.count())
    }
}

/// A helper's part in a solve of `root`: each test the main thread gives, searched over `tt`
/// and the set of positions being searched `busy`, until the solve is over.
fn help<G: PositionKey + SolverKnowledge + Sync>(
    shared: &Shared,
    cores: &Cores,
    root: &G,
    (tt, busy, etc_plies): (&TranspositionTable, &[AtomicU64], u32),
) {
    let _unwinding = Unwinding(shared);
    let limits = Limits::none().with_stop_flag(shared.done.clone());
    let mut w: Worker<G> = Worker::new(tt, Budget::new(&limits), Vec::new(), busy, etc_plies);
    let mut searched = 0;
    loop {
        let (position, m) = {
            let mut s = shared.state();
            while s.given == searched && !s.over {
                s = shared.given.wait(s).unwrap_or_else(PoisonError::into_inner);
            }
            if s.over {
                return;
            }
            searched = s.given;
            s.test
        };
        cores.free_this_thread();
        w.budget = Budget::new(&limits);
        w.stats = Stats::default();
        let p = match position {
            None => Some(root.clone()),
            Some(i) => root.moves().nth(i).map(|mv| root.play(mv)),
        };
        // (The main thread names one of the root's moves: a helper that could not find it
        // would search nothing and answer nothing.)
        if let Some(p) = p {
            let t = w.root(&p, m, m + 1, u32::MAX);
            if !w.budget.stopped && !shared.done.swap(true, Ordering::AcqRel) {
                shared.answer.store(t, Ordering::Release);
            }
        }
        let mut s = shared.state();
        add_nodes(&mut s.stats, &w.stats);
        s.searching -= 1;
        if s.searching == 0 {
            shared.finished.notify_one();
        }
    }
}

/// The helpers of one solve, searching with the main thread ([`Worker::test`]); when dropped
/// they return.
pub(super) struct Team<'a> {
    shared: &'a Shared,
    cores: &'a Cores,
    helpers: usize,
}

/// Held by a helper: if it panics, the main thread is told rather than left waiting for it.
struct Unwinding<'a>(&'a Shared);

impl Drop for Unwinding<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut s = self.0.state();
            s.broken = true;
            s.searching = s.searching.saturating_sub(1);
            self.0.finished.notify_one();
        }
    }
}

impl Drop for Team<'_> {
    fn drop(&mut self) {
        // (Between tests no helper is searching; should the main thread unwind during one,
        // the raised flag stops them before the scope waits for them.)
        self.shared.done.store(true, Ordering::Release);
        self.shared.state().over = true;
        self.shared.given.notify_all();
    }
}

impl<G: PositionKey + SolverKnowledge + Sync> Worker<'_, G> {
    /// TEST(p, m, >) to the end of the game: the null-window search `(m, m + 1)` in MAX's
    /// view, by this (main) thread with the `team`'s helpers (none: this thread alone) searching
    /// the same window at the same time, spread by deferring each other's moves; whichever
    /// thread finishes first answers, the others stop, and the helpers' nodes are added to the
    /// main thread's counters. `p` is the solve's root, or the root after its `position`-th
    /// move, which is how the helpers find it.
    pub(super) fn test(
        &mut self,
        p: &G,
        position: Option<usize>,
        m: Score,
        team: Option<&Team>,
    ) -> Score {
        let Some(team) = team.filter(|t| t.helpers > 0) else {
            return self.root(p, m, m + 1, u32::MAX);
        };
        let shared = team.shared;
        {
            let mut s = shared.state();
            shared.done.store(false, Ordering::Release);
            s.test = (position, m);
            s.given += 1;
            s.searching = team.helpers;
            s.stats = Stats::default();
        }
        team.cores.keep_off_this_core();
        shared.given.notify_all();
        self.budget.yield_to(shared.done.clone());
        let mut t = self.root(p, m, m + 1, u32::MAX);
        let stopped = self.budget.stopped;
        if !stopped && !shared.done.swap(true, Ordering::AcqRel) {
            shared.answer.store(t, Ordering::Release);
        }
        // (A stop of the caller's own also ends the helpers.)
        shared.done.store(true, Ordering::Release);
        {
            let mut s = shared.state();
            while s.searching > 0 && !s.broken {
                s = shared
                    .finished
                    .wait(s)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            assert!(!s.broken, "a helper thread of the solver panicked");
            add_nodes(&mut self.stats, &s.stats);
        }
        self.budget.resume(self.stats.nodes());
        if stopped && !self.budget.stopped {
            // A helper answered first.
            t = shared.answer.load(Ordering::Acquire);
        }
        t
    }
}
