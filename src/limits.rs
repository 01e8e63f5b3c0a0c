//! Budgets for long searches: nodes, time and a stop flag (Ctrl-C). A search that hits one stops
//! cleanly and returns its best result so far, marked incomplete.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits on one search. [`Limits::none`] searches to the end.
///
/// ```
/// use gamesearch::Limits;
/// let l = Limits::none().with_max_nodes(1_000);
/// assert_eq!(l.max_nodes, Some(1_000));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many visited nodes (leaves + interior).
    pub max_nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub max_time: Option<Duration>,
    /// Stop when this flag becomes true (set it from a Ctrl-C handler).
    pub stop: Option<Arc<AtomicBool>>,
    /// Where the search publishes its node count as it runs (every 1024 nodes), so that another
    /// thread can show progress. Costs nothing between those updates.
    pub node_counter: Option<Arc<AtomicU64>>,
    /// Raised by a search whose line of play went deeper than it can follow (the thread's
    /// stack, or a playout's length): the front doors ([`crate::search()`],
    /// [`crate::solve()`], the engine) attach one and answer [`crate::Error::LineTooDeep`].
    pub line_watch: Option<Arc<LineWatch>>,
}

/// Where a search says that a line of play went deeper than it can follow — a game that does
/// not end on some path (its positions repeat), or a horizon deeper than the thread's stack.
/// Every search on every thread given the same [`Limits`] raises the same watch.
///
/// ```
/// use gamesearch::{limits::LineWatch, Error};
/// let w = LineWatch::default();
/// assert!(w.error().is_none());
/// w.raise("100000 plies".to_string());
/// assert!(matches!(w.error(), Some(Error::LineTooDeep { .. })));
/// ```
#[derive(Debug, Default)]
pub struct LineWatch(std::sync::OnceLock<String>);

impl LineWatch {
    /// Says that a line went past `limit` (words: "100000 plies"); the first limit raised stays.
    pub fn raise(&self, limit: String) {
        let _ = self.0.set(limit);
    }
    /// The error to answer, once raised.
    pub fn error(&self) -> Option<crate::Error> {
        self.0.get().map(|limit| crate::Error::LineTooDeep {
            limit: limit.clone(),
        })
    }
}

impl Limits {
    /// No limits.
    pub fn none() -> Self {
        Self::default()
    }
    /// Adds a node budget.
    pub fn with_max_nodes(mut self, n: u64) -> Self {
        self.max_nodes = Some(n);
        self
    }
    /// Adds a time budget.
    pub fn with_max_time(mut self, t: Duration) -> Self {
        self.max_time = Some(t);
        self
    }
    /// Adds a stop flag.
    pub fn with_stop_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Adds a counter the search keeps up to date with its node count.
    ///
    /// ```
    /// use gamesearch::{trees::RandomTreeSpec, search, Algorithm, Limits, SearchConfig};
    /// use std::sync::{atomic::{AtomicU64, Ordering}, Arc};
    /// let nodes = Arc::new(AtomicU64::new(0));
    /// let cfg = SearchConfig::new(6).with_limits(Limits::none().with_node_counter(nodes.clone()));
    /// let r = search(&RandomTreeSpec::new(4, 6, 1).root().unwrap(), Algorithm::Minimax, &cfg);
    /// assert!(nodes.load(Ordering::Relaxed) > 0);
    /// assert!(nodes.load(Ordering::Relaxed) <= r.stats.nodes());
    /// ```
    pub fn with_node_counter(mut self, counter: Arc<AtomicU64>) -> Self {
        self.node_counter = Some(counter);
        self
    }

    /// The same limits with a fresh [`LineWatch`], and the watch: what a front door does
    /// before it searches.
    ///
    /// ```
    /// use gamesearch::Limits;
    /// let (limits, watch) = Limits::none().watched();
    /// assert!(limits.line_watch.is_some() && watch.error().is_none());
    /// ```
    pub fn watched(&self) -> (Limits, Arc<LineWatch>) {
        let watch = Arc::new(LineWatch::default());
        let mut limits = self.clone();
        limits.line_watch = Some(watch.clone());
        (limits, watch)
    }

    /// Whether the stop flag is raised.
    ///
    /// ```
    /// use gamesearch::Limits;
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// let flag = Arc::new(AtomicBool::new(true));
    /// assert!(Limits::none().with_stop_flag(flag).stop_requested());
    /// assert!(!Limits::none().stop_requested());
    /// ```
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// The running check a search performs at every node. The flags are looked at every 64 nodes,
/// the clock (and the node counter) every 1024, so the check costs one comparison on the hot
/// path.
#[derive(Debug)]
pub(crate) struct Budget {
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    node_counter: Option<Arc<AtomicU64>>,
    /// The node count at which the flags are next looked at.
    next_poll: u64,
    /// The node count at which the clock is next read and the counter next set.
    next_clock: u64,
    pub(crate) stopped: bool,
    /// Another thread's flag that ends this search early without ending the budget
    /// ([`Budget::yield_to`]).
    yield_flag: Option<Arc<AtomicBool>>,
    /// The lowest stack address the search may reach on this thread ([`crate::stack`]).
    stack_floor: usize,
    /// The size of the stack it protects, for the error's words.
    stack_size: usize,
    line_watch: Option<Arc<LineWatch>>,
}

const POLL_EVERY: u64 = 1024;

/// Nodes between two looks at the stop flags: a thread whose test another has answered stops
/// within about ten microseconds, not 1024 nodes later. (The solver's threads wait for each
/// other at the end of every test; at 1024 that wait cost the smallest boards at two threads
/// more than their search.)
const FLAG_POLL_EVERY: u64 = 64;

impl Budget {
    /// A budget for a search on the calling thread (its stack's floor is this thread's).
    pub(crate) fn new(limits: &Limits) -> Self {
        let (stack_floor, stack_size) = crate::stack::floor();
        Budget {
            stack_floor,
            stack_size,
            line_watch: limits.line_watch.clone(),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            deadline: limits.max_time.map(|t| Instant::now() + t),
            stop: limits.stop.clone(),
            node_counter: limits.node_counter.clone(),
            next_poll: FLAG_POLL_EVERY,
            next_clock: POLL_EVERY,
            stopped: false,
            yield_flag: None,
        }
    }

    /// Until [`Budget::resume`], the search also stops when `flag` is raised: another thread
    /// has the answer this one is searching for.
    pub(crate) fn yield_to(&mut self, flag: Arc<AtomicBool>) {
        self.yield_flag = Some(flag);
    }

    /// Forgets the flag given to [`Budget::yield_to`]; a stop it caused is undone, one of the
    /// budget's own (nodes, time, the caller's stop flag) stays.
    pub(crate) fn resume(&mut self, nodes: u64) {
        if self.yield_flag.take().is_some() && self.stopped {
            self.stopped = false;
            self.next_poll = nodes;
            self.exhausted(nodes);
        }
    }

    /// Called with the running node count; returns true when the search must stop.
    #[inline]
    pub(crate) fn exhausted(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if crate::stack::pointer() < self.stack_floor {
            self.line_too_deep();
            return true;
        }
        if nodes >= self.max_nodes {
            self.stopped = true;
        } else if nodes >= self.next_poll {
            self.next_poll = nodes + FLAG_POLL_EVERY;
            let mut timed_out = false;
            if nodes >= self.next_clock {
                self.next_clock = nodes + POLL_EVERY;
                if let Some(c) = &self.node_counter {
                    c.store(nodes, Ordering::Relaxed);
                }
                timed_out = self.deadline.is_some_and(|d| Instant::now() >= d);
            }
            let flagged = self
                .stop
                .iter()
                .chain(&self.yield_flag)
                .any(|f| f.load(Ordering::Relaxed));
            self.stopped = timed_out || flagged;
        }
        self.stopped
    }
}

impl Budget {
    /// The line being searched reached the stack's floor: the search stops and says why.
    #[cold]
    #[inline(never)]
    fn line_too_deep(&mut self) {
        self.stopped = true;
        if let Some(w) = &self.line_watch {
            let size = if self.stack_size == usize::MAX {
                String::new()
            } else {
                format!(" ({})", crate::error::human_bytes(self.stack_size))
            };
            w.raise(format!("the search thread's stack allows{size}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another thread's flag stops a search without ending its budget: `resume` undoes that
    /// stop, but not one of the budget's own.
    #[test]
    fn a_yield_stops_the_search_but_not_the_budget() {
        let flag = Arc::new(AtomicBool::new(false));
        let mut b = Budget::new(&Limits::none().with_max_nodes(10 * POLL_EVERY));
        b.yield_to(flag.clone());
        assert!(!b.exhausted(POLL_EVERY));
        flag.store(true, Ordering::Relaxed);
        assert!(
            b.exhausted(2 * POLL_EVERY),
            "the raised flag stops the search"
        );
        b.resume(2 * POLL_EVERY);
        assert!(!b.stopped, "the budget goes on after the yield");
        assert!(
            !b.exhausted(3 * POLL_EVERY),
            "and the flag no longer counts"
        );

        // A stop of the budget's own (here its nodes) stays after resume.
        b.yield_to(flag.clone());
        assert!(b.exhausted(10 * POLL_EVERY));
        b.resume(10 * POLL_EVERY);
        assert!(b.stopped, "out of nodes");

        // So does the caller's stop flag.
        let user = Arc::new(AtomicBool::new(false));
        let mut b = Budget::new(&Limits::none().with_stop_flag(user.clone()));
        b.yield_to(flag.clone());
        user.store(true, Ordering::Relaxed);
        assert!(b.exhausted(POLL_EVERY));
        b.resume(POLL_EVERY);
        assert!(b.stopped, "Ctrl-C");
    }
}
