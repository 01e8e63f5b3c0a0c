//! Threads: each null-window test is searched by the main worker and `threads - 1` helpers at
//! the same time, sharing the table; near the root a thread puts off the moves another is
//! searching (simplified ABDADA), so that the threads spread over the tree. The first thread to
//! finish answers the test and the others stop. (When only the main thread answered, its own
//! search of the window set the pace whatever the helpers had found. Connect-Four, two threads,
//! 1 GiB, two runs before and the median of three after: 6x6 1.39-1.43 → 0.86 s, 5x8 0.97-2.37
//! → 0.75 s, 9x4 5.6-6.2 → 4.5 s, 6x5 0.09 → 0.08 s.)

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use super::node::Worker;
use super::SolverKnowledge;
use crate::game::{PositionKey, Score};
use crate::limits::{Budget, Limits};

/// How many plies from the root put off the moves another thread is searching (with more than
/// one thread). Measured with two threads on 7x6 after 4444: 12 and 20 plies both 8.6-9.8 s
/// against one thread's 15.9-18.5 s; Lazy SMP with the helpers' root moves rotated: 14.9 s.
pub(super) const DEFER_PLIES: u32 = 12;

impl<G: PositionKey + SolverKnowledge + Sync> Worker<'_, G> {
    /// TEST(root, m, >) to the end of the game: the null-window search `(m, m + 1)` in MAX's
    /// view, by this (main) thread with `threads - 1` helpers searching the same window at the
    /// same time, spread by deferring each other's moves; whichever thread finishes first
    /// answers, the others stop, and the helpers' nodes are added to the main thread's
    /// counters.
    pub(super) fn test(&mut self, p: &G, m: Score, threads: usize) -> Score {
        if threads <= 1 {
            return self.root(p, m, m + 1, u32::MAX);
        }
        // Raised by the first thread to finish: its answer stands (every thread searches the
        // same window to the end, so any one's fail-soft value is a true bound) and the
        // others stop.
        let done = Arc::new(AtomicBool::new(false));
        let answer = AtomicI32::new(0);
        let (tt, etc_plies, busy) = (self.tt, self.etc_plies, self.busy);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let limits = Limits::none().with_stop_flag(done.clone());
                    let (done, answer) = (&done, &answer);
                    scope.spawn(move || {
                        let mut w: Worker<G> =
                            Worker::new(tt, Budget::new(&limits), Vec::new(), busy, etc_plies);
                        let t = w.root(p, m, m + 1, u32::MAX);
                        if !w.budget.stopped && !done.swap(true, Ordering::AcqRel) {
                            answer.store(t, Ordering::Release);
                        }
                        w.stats
                    })
                })
                .collect();
            self.budget.yield_to(done.clone());
            let mut t = self.root(p, m, m + 1, u32::MAX);
            let stopped = self.budget.stopped;
            if !stopped && !done.swap(true, Ordering::AcqRel) {
                answer.store(t, Ordering::Release);
            }
            // (A stop of the caller's own also ends the helpers.)
            done.store(true, Ordering::Release);
            for h in helpers {
                if let Ok(st) = h.join() {
                    self.stats.leaves += st.leaves;
                    self.stats.interior += st.interior;
                    self.stats.tt_hits += st.tt_hits;
                }
            }
            self.budget.resume(self.stats.nodes());
            if stopped && !self.budget.stopped {
                // A helper answered first.
                t = answer.load(Ordering::Acquire);
            }
            t
        })
    }
}
