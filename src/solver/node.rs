//! One node of the exact search, its steps numbered in the code (Step 0 … Step 12) as the module
//! doc lists them: a value an endgame database or the game's own small search knows (within the
//! window); an immediate win; moves that lose at once; the position's bounds; a forced move; the table; the children played (forced replies played out), ordered, their buckets
//! prefetched, their static bounds read; enhanced cutoffs; the search; the result stored.

use arrayvec::ArrayVec;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicU64, Ordering};

use super::table::{Entry, TranspositionTable, DRAFT_EXACT, DRAFT_SELECTIVE};
use super::SolverKnowledge;
use super::SELECTIVE_LEVELS;
use crate::game::{relative, Game, Player, PositionKey, Score, INF};
use crate::limits::Budget;
use crate::stats::Stats;

/// How many plies from the root put off the moves another thread is searching (with more than
/// one thread). Measured with two threads on 7x6 after 4444: 12 and 20 plies both 8.6-9.8 s
/// against one thread's 15.9-18.5 s; Lazy SMP with the helpers' root moves rotated: 14.9 s.
const DEFER_PLIES: u32 = 12;

/// The part of the table in use from which a node requests its first child's children's
/// buckets ahead ([`SolverKnowledge::child_key_hints`]): smaller, the table stays in the
/// processor's caches, where the hints cost more than the loads they hide.
const HINT_TABLE_BYTES: usize = 16 << 20;

/// The table key of `p` (shared with its images when the game has symmetries) and the symmetry
/// that maps `p` onto the image the key stands for (0: none; best-move indices are stored in the
/// image's orientation).
#[inline]
pub(super) fn table_key<G: PositionKey + SolverKnowledge>(p: &G) -> (u64, u8) {
    match p.score_so_far() {
        // Without the score: the entry holds values relative to it (see [`score_offset`]).
        Some((_, key)) => (key, 0),
        None => book_key(p),
    }
}

/// The key of `p`'s book entry, whose values are absolute: [`SolverKnowledge::canonical_key`]'s,
/// else [`PositionKey::key`] (the score included).
#[inline]
pub(super) fn book_key<G: PositionKey + SolverKnowledge>(p: &G) -> (u64, u8) {
    p.canonical_key().unwrap_or_else(|| (p.key(), 0))
}

/// The score so far in the mover's view, which a node's table entry is relative to: a game's
/// [`SolverKnowledge::score_so_far`], else 0 (a constant the compiler folds away).
#[inline]
pub(super) fn score_offset<G: SolverKnowledge>(p: &G) -> Score {
    p.score_so_far()
        .map_or(0, |(score, _)| p.to_move().sign() * score)
}

/// A bound moved by `by` (an entry's bounds to or from relative values); no bound stays none.
#[inline]
fn shifted(v: Score, by: Score) -> Score {
    if v.abs() >= INF {
        v
    } else {
        v + by
    }
}

/// An entry's bounds, stored relative to the score so far `offset`, back in the mover's view.
#[inline]
fn absolute(mut e: Entry, offset: Score) -> Entry {
    e.lower = shifted(e.lower, offset);
    e.upper = shifted(e.upper, offset);
    e
}

/// A best-move index read from an entry keyed as [`table_key`] says, in `p`'s order (255: none).
#[inline]
pub(super) fn from_key_orientation<G: SolverKnowledge>(p: &G, symmetry: u8, index: u8) -> u8 {
    if symmetry != 0 && index != 255 {
        p.index_from_key(symmetry, index)
    } else {
        index
    }
}

/// `p`'s best-move index as an entry keyed as [`table_key`] says stores it (255: none).
#[inline]
pub(super) fn to_key_orientation<G: SolverKnowledge>(p: &G, symmetry: u8, index: u8) -> u8 {
    if symmetry != 0 && index != 255 {
        p.index_to_key(symmetry, index)
    } else {
        index
    }
}

/// One thread's search: the shared table, its own counters, budget and move stack. The main
/// thread answers each test; helpers search the same test at the same time, each thread putting
/// off the moves another is searching (see `busy`), and fill the shared table with bounds the
/// main thread then finds.
pub(super) struct Worker<'t, G: Game> {
    pub(super) tt: &'t TranspositionTable,
    pub(super) stats: Stats,
    pub(super) budget: Budget,
    /// The moves of every position on the current path, one run per ply.
    pub(super) move_stack: Vec<G::Move>,
    /// With more than one thread: the positions some thread is searching now, near the root
    /// (simplified ABDADA); empty with one thread.
    pub(super) busy: &'t [AtomicU64],
    /// Nodes on the current path (the root is 1).
    pub(super) ply: u32,
    /// [`SolveConfig::etc_plies`].
    pub(super) etc_plies: u32,
    /// The table entry of the node about to be searched, when its parent already probed it for
    /// an enhanced transposition cutoff (`Some(None)`: probed, not there); the node takes it
    /// instead of probing again.
    pub(super) probed: Option<Option<Entry>>,
    /// The [`SolverKnowledge::static_bounds`] of the node about to be searched, when its parent
    /// computed them; the node takes them instead of its own `quiet_bounds` (the same bounds).
    pub(super) bounded: Option<(Score, Score)>,
    /// The [`table_key`] of the node about to be searched, when its parent computed it (for
    /// its prefetch); the node takes it instead of computing it again.
    pub(super) keyed: Option<(u64, u8)>,
    /// The cut-offs counted in each [`SolverKnowledge::history_slot`] (this worker's, for the
    /// whole solve): among children the game orders alike, those that cut off more come first.
    pub(super) history: Vec<u32>,
    /// The children of a node ordered once played with more than eight of them (Step 9):
    /// each move, its child with the forced replies played and the child's static bounds, in
    /// the list's order; this node's alone, emptied before its children are searched.
    pub(super) wide: Vec<Aside<G>>,
    /// Their order keys, each with its index in `wide` below it.
    pub(super) wide_keys: Vec<u128>,
    /// With [`SolverKnowledge::STATIC_KILLERS`]: the two moves that last ended a node's static
    /// pass at each ply (`2·ply` the latest, `2·ply + 1` the one before).
    pub(super) killers: Vec<Option<G::Move>>,
    /// With [`Game::REPEATS`]: the keys of the positions on the current line, the root first.
    pub(super) line: Vec<u64>,
    /// With [`Game::REPEATS`]: the place on `line` of the highest position that the subtree
    /// being searched met again (`usize::MAX`: none). A node whose subtree met a position above
    /// it has a value that depends on the line and stays out of the table.
    pub(super) repeated: usize,
    /// In a selective pass ([`SolverKnowledge::selective_levels`]), its level: searches to the
    /// end offer each position to [`SolverKnowledge::probable_cut`] and store their bounds with
    /// the level's draft ([`selective_draft`]).
    pub(super) selective: Option<u8>,
    /// How many guesses the selective passes' searches have taken so far: probable cuts, and
    /// table bounds of a selective draft that ended a node. A node of a pass whose subtree
    /// took none has proven its bounds, which it stores as exact.
    pub(super) guesses: u64,
}

impl<'t, G: SolverKnowledge> Worker<'t, G> {
    /// A worker about to search from the root: fresh counters, no node handed anything yet,
    /// an empty history; `move_stack` is reused (the main thread keeps its own between solves).
    pub(super) fn new(
        tt: &'t TranspositionTable,
        budget: Budget,
        move_stack: Vec<G::Move>,
        busy: &'t [AtomicU64],
        etc_plies: u32,
    ) -> Self {
        Worker {
            tt,
            stats: Stats::default(),
            budget,
            move_stack,
            busy,
            ply: 0,
            etc_plies,
            probed: None,
            bounded: None,
            keyed: None,
            history: vec![0; G::HISTORY_SLOTS],
            wide: Vec::new(),
            wide_keys: Vec::new(),
            killers: Vec::new(),
            line: Vec::new(),
            repeated: usize::MAX,
            selective: None,
            guesses: 0,
        }
    }
}

/// A child of a wide node kept aside until all are ordered: its move, the child with the
/// forced replies played, and its static bounds.
pub(super) type Aside<G> = (<G as Game>::Move, G, Option<(Score, Score)>);

/// A child played ahead of its search: the position, its table key (and the symmetry onto
/// the key's image, as [`table_key`] says) and its static bounds.
pub(super) type Child<G> = (G, (u64, u8), Option<(Score, Score)>);

/// Bounds `(lo, hi)` in MAX's view as the nega-max search of `mover` sees them.
#[inline]
pub(super) fn movers_view(mover: Player, lo: Score, hi: Score) -> (Score, Score) {
    match mover {
        Player::Max => (lo, hi),
        Player::Min => (-hi, -lo),
    }
}

/// Moves `first` (the table's move), if it is among `moves`, to the front; the others keep
/// their order.
#[inline]
pub(super) fn put_first<M: Copy + PartialEq>(moves: &mut [M], first: Option<M>) {
    if let Some(i) = first.and_then(|b| moves.iter().position(|&x| x == b)) {
        moves[..=i].rotate_right(1);
    }
}

/// `depth` as stored in the table.
#[inline]
pub(super) fn draft_of(depth: u32) -> u8 {
    if depth == u32::MAX {
        DRAFT_EXACT
    } else {
        depth.min(u32::from(DRAFT_SELECTIVE) - u32::from(SELECTIVE_LEVELS)) as u8
    }
}

/// The draft of the bounds of the selective pass at `level` ([`SolverKnowledge::selective_levels`]):
/// the stricter the level, the higher, all below [`DRAFT_EXACT`] and above every depth-limited
/// search's — so a pass uses the bounds of its own level and the stricter ones, and the exact
/// tests none.
#[inline]
pub(super) fn selective_draft(level: u8) -> u8 {
    DRAFT_SELECTIVE - (SELECTIVE_LEVELS - 1) + level.min(SELECTIVE_LEVELS - 1)
}

impl<G: PositionKey + SolverKnowledge + Sync> Worker<'_, G> {
    /// Fail-soft nega-max alpha-beta with the table; `depth == u32::MAX` searches to the end.
    /// `no_win_now`: the parent already knows the side to move has no immediate win
    /// ([`SolverKnowledge::NON_LOSING_PREVENTS_IMMEDIATE_WIN`]).
    pub(super) fn search(
        &mut self,
        p: &G,
        alpha: Score,
        beta: Score,
        depth: u32,
        no_win_now: bool,
    ) -> Score {
        // (A game whose positions repeat: a position already on the line is a leaf; any
        // other joins the line while it is searched, see [`Self::met_again`].)
        let mut above = usize::MAX;
        if G::REPEATS {
            if let Some(v) = self.met_again(p) {
                return v;
            }
            above = std::mem::replace(&mut self.repeated, usize::MAX);
        }
        let base = self.move_stack.len();
        self.ply += 1;
        let v = self.search_node(p, alpha, beta, depth, no_win_now, base);
        self.ply -= 1;
        self.move_stack.truncate(base);
        if G::REPEATS {
            self.line.pop();
            self.repeated = self.repeated.min(above);
        }
        v
    }

    /// For a game whose positions repeat ([`Game::REPEATS`]): a position already on the line is
    /// a leaf worth [`Game::repetition_value`] (returned, and `repeated` notes how high on the
    /// line it is); any other joins the line (`None`), and its search then notes in `repeated`
    /// how high above it its subtree met the line again (the module's documentation says why
    /// that decides what is stored).
    fn met_again(&mut self, p: &G) -> Option<Score> {
        let key = p.key();
        let Some(at) = self.line.iter().rposition(|&k| k == key) else {
            self.line.push(key);
            return None;
        };
        self.repeated = self.repeated.min(at);
        self.stats.leaves += 1;
        self.budget.exhausted(self.stats.nodes());
        self.probed = None;
        self.bounded = None;
        self.keyed = None;
        Some(p.to_move().sign() * p.repetition_value())
    }

    /// A stored bound of `draft` settled a position (a node, or a child by an enhanced
    /// cutoff): a table hit, and a guess unless the bound was proven ([`Self::guesses`]).
    #[inline]
    fn ended_by_table(&mut self, draft: u8) {
        self.stats.tt_hits += 1;
        self.guesses += u64::from(draft < DRAFT_EXACT);
    }

    /// The part of a node's bounds `(lower, upper)` (mover's view) that holds whatever the
    /// line, in a game whose positions repeat: both when its subtree met no position above it
    /// on the line; else a lower bound above the repetition's value (the subtree that proves it
    /// has no repetition among its leaves, which are all at least as good) and an upper bound
    /// below it (the same for the other side). A bound that does not hold is `∓INF`.
    #[inline]
    fn bounds_off_the_line(&self, p: &G, lower: Score, upper: Score) -> (Score, Score) {
        if self.repeated >= self.line.len() - 1 {
            return (lower, upper);
        }
        let r = p.to_move().sign() * p.repetition_value();
        (
            if lower > r { lower } else { -INF },
            if upper < r { upper } else { INF },
        )
    }

    /// [`Self::search`] with this node's moves kept in `move_stack[base..]`.
    fn search_node(
        &mut self,
        p: &G,
        mut alpha: Score,
        mut beta: Score,
        depth: u32,
        no_win_now: bool,
        base: usize,
    ) -> Score {
        let probed = self.probed.take();
        let bounded = self.bounded.take();
        let keyed = self.keyed.take();
        // Step 0. A value an endgame database knows is a leaf.
        if let Some(v) = p.exact_value() {
            self.stats.leaves += 1;
            self.budget.exhausted(self.stats.nodes());
            return p.to_move().sign() * v;
        }
        // ... and so is one near enough the end for the game's own small search.
        let (lo, hi) = movers_view(p.to_move(), alpha, beta);
        let mut small = 0;
        if let Some(v) = p.endgame_value(lo, hi, &mut small) {
            self.stats.leaves += small.max(1);
            self.budget.exhausted(self.stats.nodes());
            return p.to_move().sign() * v;
        }
        // Step 1. A win on the spot is the best the mover can do: no need to generate anything else.
        if depth > 0 && !no_win_now {
            if let Some(win) = p.immediate_win() {
                self.stats.leaves += 1;
                self.budget.exhausted(self.stats.nodes());
                return p.to_move().sign() * p.play(win).evaluate();
            }
        }
        self.move_stack.extend(p.moves());
        if self.move_stack.len() == base || depth == 0 {
            self.stats.leaves += 1;
            self.budget.exhausted(self.stats.nodes());
            return p.to_move().sign() * p.evaluate();
        }
        self.stats.interior += 1;
        if self.budget.exhausted(self.stats.nodes()) {
            return 0;
        }
        let exact = depth == u32::MAX;
        // Step 2. Moves that lose at once go; if all do, the game may know the value, else one of them
        // is searched to find it.
        let kept = p.non_losing_moves(&mut self.move_stack[base..]);
        if kept == 0 {
            if let Some(v) = p.forced_loss_value() {
                return p.to_move().sign() * v;
            }
        }
        // Step 3. The position's own bounds narrow the window ("m is max possible"): to the end of the
        // game with no win on the spot and a move that does not lose at once, the game may know
        // tighter ones.
        let bounds = if exact && kept > 0 {
            bounded.or_else(|| p.quiet_bounds())
        } else {
            p.value_bounds()
        };
        if let Some((lo, hi)) = bounds {
            let (min, max) = movers_view(p.to_move(), lo, hi);
            if max <= alpha || min == max {
                return max;
            }
            if min >= beta {
                return min;
            }
            alpha = alpha.max(min - 1);
            beta = beta.min(max + 1);
        }
        // Step 4. A forced move (the only one that does not lose at once): its child's search is this
        // node's, so the table is neither asked nor written here — a forced-move chain costs
        // one table probe at its end instead of one per move (Connect-Four: L1_R2 −7 to −9 %
        // time for +2.5 % nodes, 7x5 −14 to −20 % time).
        if exact && kept == 1 {
            let child = p.play(self.move_stack[base]);
            let same = child.to_move() == p.to_move();
            let no_win = G::NON_LOSING_PREVENTS_IMMEDIATE_WIN;
            return relative(same, alpha, beta, |a, b| {
                self.search(&child, a, b, u32::MAX, no_win)
            });
        }
        // Step 5. The table: a stored bound deep enough cuts or narrows the window, and its
        // move is tried first.
        let (key, symmetry) = keyed.unwrap_or_else(|| table_key(p));
        let offset = score_offset(p);
        let guesses = self.guesses;
        let draft = match self.selective {
            Some(level) if exact => selective_draft(level),
            _ => draft_of(depth),
        };
        let mut table_move = None;
        let entry = match probed {
            Some(e) => e,
            None => self.tt.probe(key),
        }
        .map(|e| absolute(e, offset));
        if let Some(e) = entry {
            if e.draft >= draft {
                if e.lower >= beta || e.upper <= alpha || e.lower == e.upper {
                    self.ended_by_table(e.draft);
                    return if e.upper <= alpha { e.upper } else { e.lower };
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
            table_move = p
                .moves()
                .nth(from_key_orientation(p, symmetry, e.best) as usize);
        }
        // Step 5a. In the selective pass, the game's probable cut (ProbCut): a shallow search
        // far enough outside the window ends the node there, unstored (a guess, and cheap to
        // make again).
        if let Some(level) = self.selective.filter(|_| exact) {
            let (lo, hi) = movers_view(p.to_move(), alpha, beta);
            let mut shallow = 0;
            if let Some(v) = p.probable_cut(level, lo, hi, &mut shallow) {
                self.guesses += 1;
                self.stats.leaves += shallow.max(1);
                self.budget.exhausted(self.stats.nodes());
                return p.to_move().sign() * v;
            }
            self.stats.leaves += shallow;
        }
        self.move_stack.truncate(base + kept.max(1));
        let me = p.to_move();
        let mut m = -INF;
        let n = self.move_stack.len() - base;
        let child_no_win = G::NON_LOSING_PREVENTS_IMMEDIATE_WIN && kept > 0;
        // (Only kept moves leave a child with no win on the spot, which the bounds assume.)
        let statics = exact && child_no_win;
        // (Whether this position's children are ordered, and their cut-offs counted, by the
        // history.)
        let history_here = G::HISTORY_SLOTS > 0 && p.keeps_history();
        // Step 6. Children ordered once played (their static bounds need them played anyway), when the
        // game can order them so: up to eight, all of them kept below; more (`wide`), each kept
        // aside until all are ordered, and the first eight of the order kept below.
        let by_child = statics && G::ORDERS_BY_CHILD;
        let wide = by_child && n > 8;
        if !by_child {
            let moves = &mut self.move_stack[base..];
            // (The positions the game's order searches count as this search's own.)
            let mut ordering = 0;
            p.order_moves_counting(moves, &mut ordering);
            self.stats.leaves += ordering;
            put_first(moves, table_move);
        }
        let child_depth = if depth == u32::MAX {
            u32::MAX
        } else {
            depth - 1
        };
        let start_nodes = self.stats.nodes();
        // Step 7. The children, with their table buckets requested at once: the loads overlap instead
        // of each child waiting for its own when it probes. The first eight are kept (inline,
        // nothing allocated), with their table keys, which the cut-offs and the threads' set
        // below use again; any others are played when their turn comes.
        //
        // Step 8. Static cut-offs: every child's static bounds are looked at before any child is
        // searched. One whose lower bound reaches beta settles this node, wherever it stands in
        // the order; one whose upper bound cannot rise above alpha is not searched (its bound
        // stands for it, and its move leaves the list); the others take their bounds with them,
        // instead of computing them again. (Connect-Four, one thread: empty 7x6 336 M → 255 M
        // nodes but only 91.3 → 86.9 s, medians of four, as the checks cost per node what they
        // save; 7x6 after `4444` −20 % nodes, 7x5 −12 %, 6x6 −6 %, L1_R2 −24 %.)
        let mut children: ArrayVec<Child<G>, 8> = ArrayVec::new();
        let mut order = [0u64; 8];
        let upto = if statics { n } else { n.min(8) };
        let mut left = 0; // moves still to search, moved to the front of the list
        if wide {
            self.wide.clear();
            self.wide_keys.clear();
        }
        // (The moves that last ended a static pass at this ply looked at first: a move that
        // settles one position as a win often settles its cousins too.)
        let ply = self.ply as usize;
        let killers = G::STATIC_KILLERS && statics;
        if killers {
            if self.killers.len() < 2 * ply + 2 {
                self.killers.resize(2 * ply + 2, None);
            }
            let mut front = 0;
            for k in [self.killers[2 * ply], self.killers[2 * ply + 1]]
                .into_iter()
                .flatten()
            {
                let moves = &mut self.move_stack[base + front..base + upto];
                if let Some(i) = moves.iter().position(|&x| x == k) {
                    moves.swap(0, i);
                    front += 1;
                }
            }
        }
        for j in 0..upto {
            let mv = self.move_stack[base + j];
            let mut child = p.play(mv);
            let mut bounded = None;
            let mut rank = 0;
            if statics {
                // Forced replies played out: the position after them has the child's value.
                // (The move's order is read off its own child, before any forced reply: after
                // one, the position keeps the other side's threats.)
                match child.forced_move() {
                    None if by_child => (rank, bounded) = p.child_order_and_bounds(mv, &child),
                    first => {
                        if by_child {
                            rank = p.child_order(mv, &child);
                        }
                        let mut next = first;
                        while let Some(f) = next {
                            child = child.play(f);
                            next = child.forced_move();
                        }
                        bounded = child.static_bounds();
                    }
                }
                if let Some((lo, hi)) = bounded {
                    let (lo, hi) = movers_view(me, lo, hi);
                    if lo >= beta {
                        if killers && self.killers[2 * ply] != Some(mv) {
                            self.killers[2 * ply + 1] = self.killers[2 * ply];
                            self.killers[2 * ply] = Some(mv);
                        }
                        return lo;
                    }
                    if hi <= alpha {
                        m = m.max(hi);
                        continue;
                    }
                }
                self.move_stack[base + left] = mv;
            }
            let rank = if by_child {
                let history = if history_here {
                    self.history[p.history_slot(mv) % G::HISTORY_SLOTS]
                } else {
                    0
                };
                u64::from(rank) << 32 | u64::from(history)
            } else {
                0
            };
            if wide {
                // Best first, equal keys in generation order.
                self.wide_keys
                    .push(u128::from(rank) << 64 | u128::from(u64::MAX - left as u64));
                self.wide.push((mv, child, bounded));
                left += 1;
                continue;
            }
            left += 1;
            if children.len() < 8 {
                if by_child {
                    order[children.len()] = rank;
                }
                let key = table_key(&child);
                self.tt.prefetch(key.0);
                children.push((child, key, bounded));
            }
        }
        let n = if statics { left } else { n };
        self.move_stack.truncate(base + n);
        if wide {
            // The list rewritten in the order, the table's move first, and the first eight
            // children kept below.
            self.wide_keys.sort_unstable_by(|a, b| b.cmp(a));
            let index = |k: u128| (u64::MAX - k as u64) as usize;
            if let Some(t) = table_move.and_then(|b| {
                self.wide_keys
                    .iter()
                    .position(|&k| self.wide[index(k)].0 == b)
            }) {
                self.wide_keys[..=t].rotate_right(1);
            }
            for (i, &k) in self.wide_keys.iter().enumerate() {
                let (mv, child, bounded) = &self.wide[index(k)];
                self.move_stack[base + i] = *mv;
                if i < 8 {
                    let key = table_key(child);
                    self.tt.prefetch(key.0);
                    children.push((child.clone(), key, *bounded));
                }
            }
        }
        // Step 9. The search order: `perm[i]` is the index (in the list and among the children) of the
        // `i`-th move to search; past eight, the list's order.
        let mut perm: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        if by_child && !wide {
            // Best first by the game's key, then by the history of cut-offs (Step 11), equal
            // keys in generation order (the indices sorted by their keys), the table's move
            // before all.
            crate::sort::by_key_descending(&mut perm[..n], &mut order[..n]);
            let moves = &self.move_stack[base..];
            if let Some(t) =
                table_move.and_then(|b| perm[..n].iter().position(|&c| moves[c as usize] == b))
            {
                perm[..=t].rotate_right(1);
            }
        }
        let at = |i: usize| if i < 8 { perm[i] as usize } else { i };
        let mut best_mv = None;
        // Step 10. Enhanced transposition cutoffs, up to the game's depth, where a node's subtree is large
        // enough to pay for waiting on the children's loads: a child whose stored exact bound
        // already reaches beta settles this node without a search; one whose bound cannot rise
        // above alpha is not searched (`settled`: its bound stands for it, as a static one
        // does). Each other child's entry is handed to it when it is searched, so it does not
        // probe again.
        let mut entries: ArrayVec<Option<Entry>, 8> = ArrayVec::new();
        let mut settled = 0u8;
        let etc = exact && self.ply <= self.etc_plies;
        // (Before they are probed, which waits on their loads, the buckets of the first child's
        // children are requested too, from the keys the game guesses cheaply: when that child
        // probes them for its own cut-offs they have had this node's wait to arrive. Only once the
        // part of the table in use has outgrown the processor's caches, where a load waits long
        // enough to pay for the guesses. One thread, 1 GiB, same nodes, medians alternated, the
        // time against none: with the table at 64 MiB 9x4 −3 to −7 %, 6x7 −5 %, 7x6 −3 %; at 16
        // MiB, 6x6 −7 % (12 rounds) when this machine's memory was slow, +1 % when it was quick; at
        // 8 MiB or less, hinted anyway, 8x4 +6 %, 6x5 +4 %, 7x5 +2 %. Hinting the next child's
        // children too, before each child is searched: no better. The grandchildren played and
        // keyed in full instead of guessed: 9 % slower than none.)
        if etc && self.ply < self.etc_plies && self.tt.used_bytes() >= HINT_TABLE_BYTES {
            if let Some((first, _, _)) = children.get(at(0)) {
                first.child_key_hints(|k| self.tt.prefetch(k));
            }
        }
        if etc {
            for (c, (child, key, _)) in children.iter().enumerate() {
                let e = self.tt.probe(key.0);
                if let Some(e) = e
                    .map(|e| absolute(e, score_offset(child)))
                    .filter(|e| e.draft >= draft)
                {
                    let (lower, upper) = if child.to_move() == me {
                        (e.lower, e.upper)
                    } else {
                        (-e.upper, -e.lower)
                    };
                    if lower >= beta {
                        self.ended_by_table(e.draft);
                        return lower;
                    }
                    if upper <= alpha {
                        self.ended_by_table(e.draft);
                        settled |= 1 << c;
                        m = m.max(upper);
                    }
                }
                entries.push(e);
            }
        }
        // Step 11. The children searched, best first. With several threads, near the root: a
        // move (but the first) whose position another
        // thread is searching is put off until the others are done, so that the threads spread
        // over the siblings, and by then its bound is likely in the table (Weill's ABDADA, in
        // the simplified form of a shared set of positions being searched).
        let share = !self.busy.is_empty() && exact && self.ply <= DEFER_PLIES && n > 1;
        let mut deferred: SmallVec<[usize; 8]> = SmallVec::new();
        let mut k = 0;
        loop {
            let i = if k < n {
                k
            } else if let Some(&d) = deferred.get(k - n) {
                d
            } else {
                break;
            };
            let first_pass = k < n;
            k += 1;
            let c = at(i);
            if c < 8 && settled & (1 << c) != 0 {
                continue;
            }
            let mv = self.move_stack[base + c];
            let played;
            let (child, key, bounded) = match children.get(c) {
                Some((c, key, b)) => (c, Some(*key), *b),
                None => {
                    played = p.play(mv);
                    (&played, None, None)
                }
            };
            let mut slot = None;
            if share {
                let key = key.map_or_else(|| table_key(child).0, |k| k.0) | 1;
                let s = &self.busy[key as usize & (self.busy.len() - 1)];
                if first_pass && i > 0 && s.load(Ordering::Relaxed) == key {
                    deferred.push(i);
                    continue;
                }
                s.store(key, Ordering::Relaxed);
                slot = Some((s, key));
            }
            let same = child.to_move() == me;
            // A put-off child is probed again: the other thread has likely stored it since.
            self.probed = if first_pass {
                entries.get(c).copied()
            } else {
                None
            };
            self.bounded = bounded;
            self.keyed = key;
            let t = relative(same, alpha.max(m), beta, |a, b| {
                self.search(child, a, b, child_depth, child_no_win)
            });
            if let Some((s, key)) = slot {
                let _ = s.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
            }
            if self.budget.stopped {
                return m;
            }
            if t > m {
                m = t;
                best_mv = Some(mv);
            }
            if m >= beta {
                // The cut-off counted in the move's history slot, which orders the children
                // the game's key leaves tied (Step 9).
                if history_here {
                    // (The square of the cutter's place in the order: a cut-off that the order
                    // found late counts most.)
                    let place = k as u32;
                    let s = &mut self.history[p.history_slot(mv) % G::HISTORY_SLOTS];
                    *s = s.saturating_add(place * place);
                }
                break;
            }
        }
        // Step 12. The result stored: an upper bound (failed low), a lower bound (failed high)
        // or the exact value, with the best move and the work it took.
        let (lower, upper) = if m <= alpha {
            (-INF, m)
        } else if m >= beta {
            (m, INF)
        } else {
            (m, m)
        };
        let best_index = best_mv
            .and_then(|b| p.moves().position(|x| x == b))
            .map_or(255, |i| i.min(255) as u8);
        let best_index = to_key_orientation(p, symmetry, best_index);
        let work = (64 - (self.stats.nodes() - start_nodes).leading_zeros()) as u8;
        let (lower, upper) = if G::REPEATS {
            self.bounds_off_the_line(p, lower, upper)
        } else {
            (lower, upper)
        };
        // (A selective pass's node whose subtree took no guess has proven its bounds.)
        let draft = if self.selective.is_some() && exact && self.guesses == guesses {
            DRAFT_EXACT
        } else {
            draft
        };
        if lower > -INF || upper < INF {
            let (lower, upper) = (shifted(lower, -offset), shifted(upper, -offset));
            self.tt.store(key, lower, upper, best_index, draft, work);
        }
        m
    }
}

impl<G: PositionKey + SolverKnowledge + Sync> Worker<'_, G> {
    /// The value of `p` searched with the window `(alpha, beta)` in MAX's view.
    pub(super) fn root(&mut self, p: &G, alpha: Score, beta: Score, depth: u32) -> Score {
        relative(p.to_move() == Player::Max, alpha, beta, |a, b| {
            self.search(p, a, b, depth, false)
        })
    }
}
