//! Threads: each null-window test is searched by the main worker and `threads - 1` helpers at
//! the same time, sharing the table; near the root a thread puts off the moves another is
//! searching (simplified ABDADA), so that the threads spread over the tree.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::node::Worker;
use super::SolverKnowledge;
use crate::game::{PositionKey, Score};
use crate::limits::{Budget, Limits};
use crate::stats::Stats;

/// How many plies from the root put off the moves another thread is searching (with more than
/// one thread). Measured with two threads on 7x6 after 4444: 12 and 20 plies both 8.6-9.8 s
/// against one thread's 15.9-18.5 s; Lazy SMP with the helpers' root moves rotated: 14.9 s.
pub(super) const DEFER_PLIES: u32 = 12;

impl<G: PositionKey + SolverKnowledge + Sync> Worker<'_, G> {
    /// TEST(root, m, >) to the end of the game: the null-window search `(m, m + 1)` in MAX's
    /// view, by this (main) thread with `threads - 1` helpers searching the same window at the
    /// same time, spread by deferring each other's moves; the helpers stop when the main thread
    /// has its answer, and their nodes are added to its counters.
    pub(super) fn test(&mut self, p: &G, m: Score, threads: usize) -> Score {
        if threads <= 1 {
            return self.root(p, m, m + 1, u32::MAX);
        }
        let done = Arc::new(AtomicBool::new(false));
        let (tt, etc_plies, busy) = (self.tt, self.etc_plies, self.busy);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let limits = Limits::none().with_stop_flag(done.clone());
                    scope.spawn(move || {
                        let mut w: Worker<G> = Worker {
                            tt,
                            stats: Stats::default(),
                            budget: Budget::new(&limits),
                            move_stack: Vec::new(),
                            busy,
                            ply: 0,
                            etc_plies,
                            probed: None,
                            bounded: None,
                        };
                        w.root(p, m, m + 1, u32::MAX);
                        w.stats
                    })
                })
                .collect();
            let t = self.root(p, m, m + 1, u32::MAX);
            done.store(true, Ordering::Relaxed);
            for h in helpers {
                if let Ok(st) = h.join() {
                    self.stats.leaves += st.leaves;
                    self.stats.interior += st.interior;
                    self.stats.tt_hits += st.tt_hits;
                }
            }
            t
        })
    }
}
