//! Counters every algorithm fills, kept beside the search (Stockfish style).

/// What a search did. All algorithms fill the same counters so that they compare directly.
///
/// ```
/// let s = gamesearch::Stats::default();
/// assert_eq!(s.nodes(), 0);
/// ```
///
/// ```
/// use gamesearch::{trees::RandomTreeSpec, search, Algorithm, SearchConfig};
/// let root = RandomTreeSpec::new(2, 3, 1).root().unwrap();
/// let s = search(&root, Algorithm::Minimax, &SearchConfig::new(3)).stats;
/// assert_eq!((s.leaves, s.interior, s.nodes()), (8, 7, 15));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Stats {
    /// Static evaluations `f(p)` at leaves (horizon or game end): Pearl's "node inspections".
    pub leaves: u64,
    /// Interior nodes expanded (successors generated and at least one searched).
    pub interior: u64,
    /// TEST calls issued by SCOUT's EVAL, or null-window searches issued by NegaScout/PVS from a
    /// node whose own window is wider than null (each counted once, where it is started; the
    /// searches inside a null-window subtree are part of that one test).
    pub tests: u64,
    /// Re-searches: a child searched again after its test or null-window search failed high
    /// (for SCOUT: an EVAL after a passed TEST).
    pub re_searches: u64,
    /// Transposition-table probes that ended a node or narrowed its window (solver only).
    pub tt_hits: u64,
}

impl Stats {
    /// Leaves plus interior nodes: every node the search visited (a node visited twice counts
    /// twice).
    pub fn nodes(&self) -> u64 {
        self.leaves + self.interior
    }

    /// What was counted since `before` (a snapshot of the same counters), for a searcher
    /// whose counters run across several searches.
    ///
    /// ```
    /// use gamesearch::Stats;
    /// let before = Stats { leaves: 5, interior: 2, ..Stats::default() };
    /// let now = Stats { leaves: 9, interior: 3, tests: 1, ..Stats::default() };
    /// assert_eq!(now.since(&before), Stats { leaves: 4, interior: 1, tests: 1, ..Stats::default() });
    /// ```
    pub fn since(&self, before: &Stats) -> Stats {
        Stats {
            leaves: self.leaves - before.leaves,
            interior: self.interior - before.interior,
            tests: self.tests - before.tests,
            re_searches: self.re_searches - before.re_searches,
            tt_hits: self.tt_hits - before.tt_hits,
        }
    }
}
