//! Depth-first proof-number search, df-pn (Nagai 2002), over a transposition table of fixed size.
//!
//! PN search keeps its whole tree in memory ([`super::PnTree`]); df-pn keeps none. It runs the
//! same best-first search depth first: at each node it searches the most-proving child (OR: least
//! proof number; AND: least disproof number) with thresholds on both numbers, and returns as soon
//! as the node's proof number reaches its threshold or its disproof number reaches its own — the
//! moment best-first search would have jumped elsewhere. The child's thresholds come from the
//! second-best child: at an OR node `pn_c < min(th_pn, pn_2 + 1)` (with the 1+ε trick of
//! Pawlewicz & Lew 2007, `ceil(pn_2 · (1 + ε))`, so the search stays longer in a subtree) and
//! `dn_c < th_dn − dn + dn_c`; AND nodes the mirror image. What a node learnt is kept only in the
//! table; what was overwritten is simply searched again.
//!
//! **The question** is PN(v) as for the tree search: `V >= v` for the tree cut at a horizon (or
//! played to the end), MAX nodes OR, MIN nodes AND; turns need not alternate. **The table** keeps
//! per position the numbers of the last threshold searched there and, for every threshold, what
//! was proven: a lower bound (`V >= v` proven) and an upper bound (`V < v` proven) on the value.
//! So a multi-valued search ([`Dfpn::value`]: the doubling-then-binary threshold sequence of
//! [`super::pn_value`]) reuses every proof and disproof of earlier thresholds, and a later
//! threshold starts from them. Replacement keeps, of two positions sharing a bucket, the one whose
//! subtree cost more work.
//!
//! **Transpositions** merge in the table: a position reached by two paths is one entry. Summing
//! the disproof numbers (OR) or proof numbers (AND) of children that share descendants counts
//! those twice — numbers on a DAG over-estimate, which can only make the search less eager to
//! enter such a subtree, never wrong: a node is proven or disproven only by its children's
//! proofs. **Cycles** ([`crate::Game::REPEATS`]): the
//! graph-history interaction (Kishimoto & Müller 2004) is that a position's result found on
//! one line (a repetition decided it) is read from the table on another, where it is wrong.
//! Here a node's proof or disproof goes into the table only when no position above the node
//! decided it; one that a repetition above decided is returned to the parent alone, which keeps
//! it among its children's numbers while it searches. Every entry is then the position's own
//! result, and reading it on any line is sound when a repetition is worth what endless play is
//! (see [`crate::solver`]). Proof trees are not given for such games.
//!
//! **Knowledge** ([`crate::SolverKnowledge`], searching to the end only): a win on the spot
//! gives the node's exact value; moves that lose at once are dropped (they are the mover's worst);
//! a position whose every move loses at once takes the game's value for it; the quiet bounds
//! settle a threshold outside them without a search; near the end, the game's own small search
//! ([`crate::SolverKnowledge::endgame_value`]) answers the threshold with a null window, so the
//! last plies are neither expanded nor stored node by node; a child refuted may refute
//! siblings with it ([`crate::SolverKnowledge::prune_by_refutation`]); the symmetric key
//! ([`crate::SolverKnowledge::canonical_key`]) makes a position and its images one entry.

use smallvec::SmallVec;

use super::proof_tree::ProofTree;
use super::{Answer, Initial, Number, PnValue, INFINITE};
use crate::error::Error;
use crate::game::{Game, Player, PositionKey, Score};
use crate::limits::{Budget, Limits};
use crate::solver::{SolverKnowledge, ANY_SUPPORT};
use crate::stats::Stats;

/// How df-pn searches.
///
/// ```
/// use gamesearch::proof_number::dfpn::{Dfpn, DfpnConfig};
/// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
/// let mut d = Dfpn::new(&DfpnConfig { tt_bytes: 1 << 20, ..DfpnConfig::default() }).unwrap();
/// assert_eq!(d.value(&Nim::new(12)).value, Some(-1)); // 12 stones: a multiple of 4, lost
/// ```
#[derive(Clone, Debug)]
pub struct DfpnConfig {
    /// Table size in bytes: all the memory df-pn uses, whatever the length of the run.
    pub tt_bytes: usize,
    /// The horizon (`u32::MAX`: to the end of the game, where the game's knowledge is used).
    pub depth: u32,
    /// The 1+ε trick: ε (0: plain df-pn).
    pub epsilon: f64,
    /// Initial numbers of unsearched nodes.
    pub initial: Initial,
    /// Focused df-pn: `Some(share)` lets a node weigh only its first children in the game's
    /// order ([`crate::SolverKnowledge::order_moves`]) — one plus `share` of those still live —
    /// and reach further only as they are refuted (`focused_width`); `None` or a share of 1:
    /// every child.
    pub focus: Option<f64>,
    /// Node / time / stop-flag budgets.
    pub limits: Limits,
    /// For a game whose positions repeat: keep out of the table the proofs and disproofs a
    /// repetition above the node may have decided (the default, `true`). `false` stores them
    /// as plain df-pn with repetitions seen would: unsound (the graph-history interaction),
    /// kept to measure what the rule costs and what it prevents.
    pub history_safe: bool,
}

impl Default for DfpnConfig {
    fn default() -> Self {
        DfpnConfig {
            tt_bytes: 64 << 20,
            depth: u32::MAX,
            epsilon: 0.25,
            initial: Initial::Unit,
            focus: None,
            limits: Limits::none(),
            history_safe: true,
        }
    }
}

/// One table slot: 32 bytes, two to a cache line.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    /// Numbers for the threshold `v`.
    pn: Number,
    dn: Number,
    v: Score,
    /// Proven bounds on the value, whatever the threshold.
    lo: Score,
    hi: Score,
    /// Nodes searched below (saturating): the replacement priority.
    work: u32,
}

/// A new entry before its first store. (A slot of the table that is all zero bytes is empty
/// too: it has no work, and [`Table::find`] matches only slots with work.)
const EMPTY: Slot = Slot {
    key: 0,
    pn: 1,
    dn: 1,
    v: 0,
    lo: Score::MIN,
    hi: Score::MAX,
    work: 0,
};

/// The fixed-size table (2-way buckets), in zeroed memory mapped from the system: an all-zero
/// slot is an empty one (no work), and the kernel hands out each page when it is first
/// touched, so a short search does not pay for clearing a large table (filling 256 MiB took
/// 100 ms, more than a small Hex solve). No huge pages: the kernel's compaction for them on
/// first touch cost more than their fewer TLB misses saved (a 6x5 Connect-Four solve that
/// touches all of 512 MiB: 3.2 s with them, 2.6 s without).
struct Table {
    map: memmap2::MmapMut,
    /// For games that track supports ([`SolverKnowledge::TRACKS_SUPPORT`]): each slot's, 16
    /// bytes, stored inverted so that the zero bytes of a fresh page read as
    /// [`ANY_SUPPORT`].
    supports: Option<memmap2::MmapMut>,
    len: usize,
    mask: usize,
}

impl Table {
    fn with_bytes(bytes: usize, supports: bool) -> Result<Table, Error> {
        let per = Self::bytes_per_slot(supports);
        let n = (bytes / per).max(2);
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        let requested = n * per;
        crate::memory::check_budget("a df-pn table", requested)?;
        let map_anon = |bytes: usize| {
            memmap2::MmapMut::map_anon(bytes).map_err(|_| Error::OutOfMemory {
                what: "a df-pn table",
                requested,
                available: None,
            })
        };
        let map = map_anon(n * std::mem::size_of::<Slot>())?;
        let supports = if supports {
            Some(map_anon(n * std::mem::size_of::<u128>())?)
        } else {
            None
        };
        // (A mapping starts on a page boundary, more than a slot's alignment.)
        debug_assert_eq!(map.as_ptr() as usize % std::mem::align_of::<Slot>(), 0);
        Ok(Table {
            map,
            supports,
            len: n,
            mask: (n - 1) & !1,
        })
    }

    fn bytes_per_slot(supports: bool) -> usize {
        std::mem::size_of::<Slot>()
            + if supports {
                std::mem::size_of::<u128>()
            } else {
                0
            }
    }

    fn bytes(&self) -> usize {
        self.len * Self::bytes_per_slot(self.supports.is_some())
    }

    /// The supports, inverted, slot by slot.
    #[inline]
    fn supports_mut(&mut self) -> Option<&mut [u128]> {
        let len = self.len;
        // SAFETY: the mapping is `len` u128 long and page-aligned; any bytes are a valid u128,
        // and `&mut self` makes this the only reference.
        self.supports
            .as_mut()
            .map(|m| unsafe { std::slice::from_raw_parts_mut(m.as_mut_ptr().cast::<u128>(), len) })
    }

    /// The support kept with `key`'s slot: [`ANY_SUPPORT`] when none is.
    #[inline]
    fn support(&self, key: u64) -> u128 {
        let (Some(m), Some(i)) = (&self.supports, self.find_at(key)) else {
            return ANY_SUPPORT;
        };
        // SAFETY: as in `supports_mut`, shared.
        let supports = unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<u128>(), self.len) };
        !supports[i]
    }

    #[inline]
    fn slots(&self) -> &[Slot] {
        // SAFETY: the mapping is `len` slots long and aligned for them; a slot is integers
        // only, so any bytes (zero above all) are a valid one.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<Slot>(), self.len) }
    }

    #[inline]
    fn slots_mut(&mut self) -> &mut [Slot] {
        // SAFETY: as in `slots`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<Slot>(), self.len) }
    }

    /// The index of `key`'s slot.
    #[inline]
    fn find_at(&self, key: u64) -> Option<usize> {
        let i = (key as usize ^ (key >> 32) as usize) & self.mask;
        (i..i + 2).find(|&j| {
            let s = &self.slots()[j];
            s.key == key && s.work > 0
        })
    }

    #[inline]
    fn find(&self, key: u64) -> Option<&Slot> {
        self.find_at(key).map(|i| &self.slots()[i])
    }

    /// Stores `s` with its `support` (kept as it was when [`ANY_SUPPORT`] and the slot is the
    /// same position's).
    #[inline]
    fn store(&mut self, s: Slot, support: u128) {
        let i = (s.key as usize ^ (s.key >> 32) as usize) & self.mask;
        let pair = &mut self.slots_mut()[i..i + 2];
        let j = if pair[0].key == s.key || pair[1].key != s.key && pair[0].work <= pair[1].work {
            0
        } else {
            1
        };
        let same = pair[j].key == s.key && pair[j].work > 0;
        pair[j] = s;
        if let Some(supports) = self.supports_mut() {
            if !same || support != ANY_SUPPORT {
                supports[i + j] = !support;
            }
        }
    }
}

/// What PN(v) by df-pn found.
#[derive(Clone, Debug, PartialEq)]
pub struct DfpnResult<M> {
    /// The threshold.
    pub threshold: Score,
    /// Proven (`V >= v`), disproven, or unknown (a budget ran out).
    pub answer: Answer,
    /// The root's proof number at the end.
    pub proof: Number,
    /// The root's disproof number at the end.
    pub disproof: Number,
    /// Proven with MAX to move, or disproven with MIN to move: a root move that does it.
    pub best_move: Option<M>,
    /// Counters of this run (`interior`: nodes searched; `leaves`: evaluations; `tt_hits`:
    /// children settled by the table).
    pub stats: Stats,
}

/// A df-pn searcher: its table survives between thresholds and positions.
pub struct Dfpn<G: Game> {
    table: Table,
    stats: Stats,
    budget: Budget,
    cfg: DfpnConfig,
    /// The threshold being searched.
    v: Score,
    /// With [`Game::REPEATS`]: the keys of the positions on the line being searched.
    line: Vec<u64>,
    /// With [`Game::REPEATS`]: the place on `line` of the highest position the subtree being
    /// searched met again (`usize::MAX`: none).
    repeated: usize,
    _game: std::marker::PhantomData<G>,
}

/// `th − total + part`, keeping ∞ as ∞.
#[inline]
fn rest(th: Number, total: Number, part: Number) -> Number {
    if th == INFINITE {
        INFINITE
    } else {
        th.saturating_sub(total)
            .saturating_add(part)
            .min(INFINITE - 1)
    }
}

/// What a node's numbers say: proven (pn 0), disproven (dn 0) or not yet known.
#[inline]
fn answer_of(pn: Number, dn: Number) -> Answer {
    match (pn, dn) {
        (0, _) => Answer::Proven,
        (_, 0) => Answer::Disproven,
        _ => Answer::Unknown,
    }
}

/// Whether a child's numbers refute it for the side to move: disproven at an OR node, proven
/// at an AND node.
#[inline]
fn refutes((pn, dn): (Number, Number), or: bool) -> bool {
    if or {
        dn == 0
    } else {
        pn == 0
    }
}

/// Sum capped below ∞ (only a proof or disproof is ∞).
#[inline]
fn add(a: Number, b: Number) -> Number {
    if a == INFINITE || b == INFINITE {
        INFINITE
    } else {
        a.saturating_add(b).min(INFINITE - 1)
    }
}

/// Focused df-pn (Benzene's FDFPN, as Gao, Müller & Hayward 2017 describe it): how many children, in
/// the game's order, a node weighs — the first `1 + ceil(share · live)` of those still *live*
/// (not yet refuted: disproven at an OR node, proven at an AND node), with the refuted ones
/// among them; every child when fewer than two are live. A refuted child adds nothing to the
/// node's sum, so the node is refuted only when every child is, and proven by any child
/// proven: the focus changes which child is searched, never what is proven. A child that
/// already decides the node (read from the table) is always weighed.
fn focused_width(numbers: &[(Number, Number)], or: bool, share: f64) -> usize {
    if share >= 1.0 {
        return numbers.len();
    }
    let refuted = |&n: &(Number, Number)| refutes(n, or);
    let decides = |&(cp, cd): &(Number, Number)| if or { cp == 0 } else { cd == 0 };
    if numbers.iter().any(decides) {
        return numbers.len();
    }
    let live = numbers.iter().filter(|n| !refuted(n)).count();
    if live < 2 {
        return numbers.len();
    }
    let wanted = 1 + (live as f64 * share).ceil() as usize;
    let mut seen = 0;
    for (i, n) in numbers.iter().enumerate() {
        if !refuted(n) {
            seen += 1;
            if seen == wanted {
                return i + 1;
            }
        }
    }
    numbers.len()
}

impl<G: PositionKey + SolverKnowledge> Dfpn<G> {
    /// A searcher with a table of `cfg.tt_bytes`.
    pub fn new(cfg: &DfpnConfig) -> Result<Self, Error> {
        if let Some(share) = cfg.focus {
            if !(share > 0.0 && share.is_finite()) {
                return Err(Error::BadParameter(format!(
                    "focused df-pn's share must be a finite number > 0, not {share}"
                )));
            }
        }
        if !(cfg.epsilon >= 0.0 && cfg.epsilon.is_finite()) {
            return Err(Error::BadParameter(format!(
                "df-pn's epsilon must be a finite number >= 0, not {}",
                cfg.epsilon
            )));
        }
        Ok(Dfpn {
            table: Table::with_bytes(cfg.tt_bytes, G::TRACKS_SUPPORT && !G::REPEATS)?,
            stats: Stats::default(),
            budget: Budget::new(&cfg.limits),
            cfg: cfg.clone(),
            v: 0,
            line: Vec::new(),
            repeated: usize::MAX,
            _game: std::marker::PhantomData,
        })
    }

    /// Bytes of the table (all the memory the search uses).
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Counters since the searcher was made.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The table key of `p` with `depth` to go (depth-limited searches tell depths apart): the
    /// game's symmetric key where it has one, which a position shares with its images (the table
    /// holds numbers and bounds, no moves, so which image does not matter). For a game whose
    /// positions repeat the side to move is mixed in: the bounds are MAX's, and such a game's
    /// key may leave the mover out, as the strong solvers allow (Dōbutsu shōgi's board is kept
    /// from the mover's side, one key for both). (Other games keep their keys as they are, and
    /// their tables the same placement.)
    #[inline]
    fn key(&self, p: &G, depth: u32) -> u64 {
        let mover = if G::REPEATS && p.to_move() == Player::Min {
            0xD1B5_4A32_D192_ED03
        } else {
            0
        };
        let key = p.canonical_key().map_or_else(|| p.key(), |(k, _)| k) ^ mover;
        if depth == u32::MAX {
            key
        } else {
            key ^ u64::from(depth)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(17)
        }
    }

    /// The numbers of a position for the current threshold, from the table, or the initial
    /// guess (`moves`: its move count, for the mobility estimate).
    #[inline]
    fn numbers(&self, p: &G, key: u64) -> (Number, Number, bool) {
        match self.table.find(key) {
            Some(s) if s.lo >= self.v => (0, INFINITE, true),
            Some(s) if s.hi < self.v => (INFINITE, 0, true),
            Some(s) if s.v == self.v => (s.pn, s.dn, false),
            _ => match self.cfg.initial {
                Initial::Unit => (1, 1, false),
                Initial::Mobility => {
                    let n = p.moves().count().max(1) as Number;
                    if p.to_move() == Player::Max {
                        (1, n, false)
                    } else {
                        (n, 1, false)
                    }
                }
            },
        }
    }

    /// Stores what the search of a node found: numbers for the threshold and the bound they
    /// prove, or its exact value (`exact`; the numbers are then ignored), with the support of
    /// what it proved ([`Dfpn::keyed_support`]'s; [`ANY_SUPPORT`] for none).
    fn store(
        &mut self,
        key: u64,
        pn: Number,
        dn: Number,
        work: u64,
        exact: Option<Score>,
        support: u128,
    ) {
        let mut s = *self.table.find(key).unwrap_or(&Slot { key, ..EMPTY });
        s.key = key;
        let (pn, dn) = match exact {
            Some(x) => {
                s.lo = x;
                s.hi = x;
                self.settled(x)
            }
            None => {
                if pn == 0 {
                    s.lo = s.lo.max(self.v);
                }
                if dn == 0 {
                    s.hi = s.hi.min(self.v - 1);
                }
                (pn, dn)
            }
        };
        s.v = self.v;
        s.pn = pn;
        s.dn = dn;
        s.work = s
            .work
            .saturating_add(work.min(u64::from(u32::MAX)) as u32)
            .max(1);
        self.table.store(s, support);
    }

    /// Stores bounds on a position's value that hold whatever the threshold (`work`: what
    /// finding them cost), with their support as in [`Dfpn::store`].
    fn store_bounds(&mut self, key: u64, lo: Score, hi: Score, work: u64, support: u128) {
        let mut s = *self.table.find(key).unwrap_or(&Slot { key, ..EMPTY });
        s.key = key;
        s.lo = s.lo.max(lo);
        s.hi = s.hi.min(hi);
        s.work = s.work.max(work.min(u64::from(u32::MAX)) as u32).max(1);
        self.table.store(s, support);
    }

    /// `support`, of `p`'s cells, as the table keeps it: read in the image of `p` that its
    /// canonical key is ([`SolverKnowledge::support_image`]).
    #[inline]
    fn keyed_support(p: &G, support: u128) -> u128 {
        match p.canonical_key() {
            Some((_, symmetry)) if symmetry != 0 && support != ANY_SUPPORT => {
                p.support_image(symmetry, support, true)
            }
            _ => support,
        }
    }

    /// The support the table keeps for `p` (at `key`), of `p`'s own cells.
    #[inline]
    fn support_of(&self, p: &G, key: u64) -> u128 {
        let support = self.table.support(key);
        match p.canonical_key() {
            Some((_, symmetry)) if symmetry != 0 && support != ANY_SUPPORT => {
                p.support_image(symmetry, support, false)
            }
            _ => support,
        }
    }

    /// The numbers of a position whose value is known exactly.
    #[inline]
    fn settled(&self, value: Score) -> (Number, Number) {
        if value >= self.v {
            (0, INFINITE)
        } else {
            (INFINITE, 0)
        }
    }

    /// MID: searches `p` until its proof number reaches `th_pn` or its disproof number `th_dn`.
    fn mid(
        &mut self,
        p: &G,
        key: u64,
        depth: u32,
        th_pn: Number,
        th_dn: Number,
    ) -> (Number, Number) {
        let start = self.stats.nodes();
        // 1. The table may already know.
        let (pn, dn, known) = self.numbers(p, key);
        if known {
            self.stats.tt_hits += 1;
        }
        if known || pn >= th_pn || dn >= th_dn {
            return (pn, dn);
        }
        // 2. Near the game's end, the game's own small search answers the threshold's question
        //    with the null window (v - 1, v): a value >= v proves it, one below disproves it.
        if depth == u32::MAX {
            let mut small = 0;
            if let Some(f) = p.endgame_value(self.v - 1, self.v, &mut small) {
                self.stats.leaves += small.max(1);
                self.budget.exhausted(self.stats.nodes());
                let (lo, hi) = if f >= self.v {
                    (f, Score::MAX)
                } else {
                    (Score::MIN, f)
                };
                self.store_bounds(key, lo, hi, small, ANY_SUPPORT);
                return self.settled(f);
            }
        }
        // 3. A leaf: the horizon or the end of the game.
        let mut moves: SmallVec<[G::Move; 16]> = if depth == 0 {
            SmallVec::new()
        } else {
            p.moves().collect()
        };
        // (Supports, for a game that tracks them, playing to the end.)
        let tracking = G::TRACKS_SUPPORT && !G::REPEATS && depth == u32::MAX;
        let settled_support = |p: &G| {
            if tracking {
                Self::keyed_support(p, p.settled_support())
            } else {
                ANY_SUPPORT
            }
        };
        if moves.is_empty() {
            self.stats.leaves += 1;
            self.budget.exhausted(self.stats.nodes());
            let f = p.evaluate();
            self.store(key, 0, 0, 1, Some(f), settled_support(p));
            return self.settled(f);
        }
        self.stats.interior += 1;
        if self.budget.exhausted(self.stats.nodes()) {
            return (pn, dn);
        }
        // 4. The game's knowledge, playing to the end.
        if depth == u32::MAX {
            if let Some(win) = p.immediate_win() {
                let f = p.play(win).evaluate();
                self.store(key, 0, 0, 1, Some(f), settled_support(p));
                return self.settled(f);
            }
            let kept = p.non_losing_moves(&mut moves);
            if kept == 0 {
                if let Some(f) = p.forced_loss_value() {
                    let support = if tracking {
                        Self::keyed_support(p, p.support_of_loss())
                    } else {
                        ANY_SUPPORT
                    };
                    self.store(key, 0, 0, 1, Some(f), support);
                    return self.settled(f);
                }
                moves.truncate(1);
            } else {
                moves.truncate(kept);
                if let Some((lo, hi)) = p.quiet_bounds() {
                    if lo >= self.v || hi < self.v {
                        let (pn, dn) = self.settled(if lo >= self.v { lo } else { hi });
                        // The bounds themselves are worth keeping.
                        self.store_bounds(key, lo, hi, 1, settled_support(p));
                        return (pn, dn);
                    }
                }
            }
            let mut ordering = 0;
            p.order_moves_counting(&mut moves, &mut ordering);
            self.stats.leaves += ordering;
        }
        // 5. The children, searched most-proving first until a threshold is reached.
        let child_depth = if depth == u32::MAX { depth } else { depth - 1 };
        // (A game whose positions repeat: this position joins the line, and a child already on
        // it is a leaf worth the repetition's value. Whether the subtree met a position above
        // this node decides whether its result may be stored, at the end.)
        let above = self.repeated;
        if G::REPEATS {
            self.line.push(p.key());
            self.repeated = usize::MAX;
        }
        // Leaf children are valued here once and never stored: the table is for interior nodes,
        // whose work is worth keeping.
        let children: SmallVec<[(G, u64, Option<Score>); 16]> = moves
            .iter()
            .map(|&m| {
                let c = p.play(m);
                let k = self.key(&c, child_depth);
                let again = if G::REPEATS {
                    let ck = c.key();
                    self.line.iter().rposition(|&x| x == ck)
                } else {
                    None
                };
                let leaf = if let Some(at) = again {
                    self.repeated = self.repeated.min(at);
                    self.stats.leaves += 1;
                    Some(c.repetition_value())
                } else {
                    (child_depth == 0 || c.moves().next().is_none()).then(|| {
                        self.stats.leaves += 1;
                        c.evaluate()
                    })
                };
                (c, k, leaf)
            })
            .collect();
        let or = p.to_move() == Player::Max;
        // The children's numbers, read from the table once and then kept up to date from what
        // each search of a child returns: the loop does not depend on the child's entry
        // surviving in the table (a lost entry would read as (1, 1) again and again).
        let mut numbers: SmallVec<[(Number, Number); 16]> = children
            .iter()
            .map(|(c, k, leaf)| match leaf {
                Some(f) => self.settled(*f),
                None => {
                    let (cp, cd, _) = self.numbers(c, *k);
                    (cp, cd)
                }
            })
            .collect();
        // A child refuted may show siblings no better, which are refuted with it unsearched
        // (the game's proof-set pruning): those the table or the leaves refute now, then each
        // the search refutes. (Not where positions repeat: a refutation may be the line's.)
        let prunes = G::PRUNES_BY_REFUTATION && !G::REPEATS && depth == u32::MAX;
        // Each settled child's support (none kept when the game tracks none; a child dropped
        // by another's refutation adds nothing: that child's support covers it).
        let mut supports: SmallVec<[u128; 16]> = SmallVec::new();
        if tracking {
            supports.extend(
                children
                    .iter()
                    .zip(&numbers)
                    .map(|((c, k, leaf), &n)| match leaf {
                        Some(_) => c.settled_support(),
                        None if n.0 == 0 || n.1 == 0 => self.support_of(c, *k),
                        None => ANY_SUPPORT,
                    }),
            );
        }
        if prunes {
            let refuted: SmallVec<[usize; 16]> = (0..numbers.len())
                .filter(|&i| refutes(numbers[i], or))
                .collect();
            for i in refuted {
                self.prune_by_refutation(p, &moves, &children, &mut numbers, &mut supports, i, or);
            }
        }
        let (mut pn, mut dn);
        loop {
            // This node's numbers from its children's (the focused ones'), and the best two.
            pn = if or { INFINITE } else { 0 };
            dn = if or { 0 } else { INFINITE };
            let (mut best, mut best_n, mut second_n) = (0, INFINITE, INFINITE);
            let mut best_other = 0;
            let width = match self.cfg.focus {
                Some(share) => focused_width(&numbers, or, share),
                None => numbers.len(),
            };
            for (i, &(cp, cd)) in numbers[..width].iter().enumerate() {
                let (mine, other) = if or { (cp, cd) } else { (cd, cp) };
                if or {
                    pn = pn.min(cp);
                    dn = add(dn, cd);
                } else {
                    pn = add(pn, cp);
                    dn = dn.min(cd);
                }
                if mine < best_n {
                    second_n = best_n;
                    best_n = mine;
                    best = i;
                    best_other = other;
                } else if mine < second_n {
                    second_n = mine;
                }
            }
            if pn >= th_pn || dn >= th_dn || self.budget.stopped {
                break;
            }
            // The child's thresholds: stay while it is the most proving (with 1+ε slack).
            let widened = if self.cfg.epsilon > 0.0 && second_n != INFINITE {
                ((f64::from(second_n) * (1.0 + self.cfg.epsilon)).ceil() as u64)
                    .min(u64::from(INFINITE - 1)) as Number
            } else {
                second_n.saturating_add(1)
            };
            let (c, k, _) = &children[best];
            let (tp, td) = if or {
                (
                    th_pn.min(widened.max(best_n + 1)),
                    rest(th_dn, dn, best_other),
                )
            } else {
                (
                    rest(th_pn, pn, best_other),
                    th_dn.min(widened.max(best_n + 1)),
                )
            };
            numbers[best] = self.mid(c, *k, child_depth, tp, td);
            let (cp, cd) = numbers[best];
            if tracking && (cp == 0 || cd == 0) {
                supports[best] = self.support_of(c, *k);
            }
            if prunes && refutes(numbers[best], or) {
                self.prune_by_refutation(
                    p,
                    &moves,
                    &children,
                    &mut numbers,
                    &mut supports,
                    best,
                    or,
                );
            }
        }
        let work = self.stats.nodes() - start;
        if G::REPEATS {
            self.line.pop();
            // A proof or disproof that a repetition above this node may have decided holds on
            // this line only: it goes back to the parent (which keeps it among its children's
            // numbers for as long as it searches) but not into the table, where another line
            // would read it. A repetition can decide only one of the two: a proof of `V >= v`
            // when it is worth at least v, a disproof when it is worth less.
            let on_line = self.repeated < self.line.len();
            self.repeated = self.repeated.min(above);
            let repetition_proves = p.repetition_value() >= self.v;
            if on_line
                && self.cfg.history_safe
                && ((pn == 0 && repetition_proves) || (dn == 0 && !repetition_proves))
            {
                return (pn, dn);
            }
        }
        let support = if tracking && (pn == 0 || dn == 0) {
            // The mover's win rests on its winning move's; its loss on every move's, and on
            // what dropped the others.
            let mover_wins = if or { pn == 0 } else { dn == 0 };
            let support = if mover_wins {
                let decides = |&(cp, cd): &(Number, Number)| if or { cp == 0 } else { cd == 0 };
                numbers
                    .iter()
                    .position(decides)
                    .map_or(ANY_SUPPORT, |i| p.support_of_win(moves[i], supports[i]))
            } else {
                supports.iter().fold(p.support_of_loss(), |all, &s| all | s)
            };
            Self::keyed_support(p, support)
        } else {
            ANY_SUPPORT
        };
        self.store(key, pn, dn, work, None, support);
        (pn, dn)
    }

    /// Marks refuted the open siblings of the refuted child `i` that the game shows no better
    /// ([`SolverKnowledge::prune_by_refutation`]), with no support of their own (`supports`:
    /// the children's, when the game tracks them, else empty).
    #[allow(clippy::too_many_arguments)]
    fn prune_by_refutation(
        &mut self,
        p: &G,
        moves: &[G::Move],
        children: &[(G, u64, Option<Score>)],
        numbers: &mut [(Number, Number)],
        supports: &mut [u128],
        i: usize,
        or: bool,
    ) {
        let mut open: SmallVec<[G::Move; 32]> = moves
            .iter()
            .zip(numbers.iter())
            .filter(|&(_, &n)| !refutes(n, or))
            .map(|(&m, _)| m)
            .collect();
        let support = supports.get(i).copied().unwrap_or(ANY_SUPPORT);
        let kept = p.prune_by_refutation(moves[i], &children[i].0, support, &mut open);
        let dropped = &open[kept.min(open.len())..];
        if dropped.is_empty() {
            return;
        }
        for (j, m) in moves.iter().enumerate() {
            if dropped.contains(m) {
                numbers[j] = if or { (INFINITE, 0) } else { (0, INFINITE) };
                if let Some(s) = supports.get_mut(j) {
                    *s = 0;
                }
            }
        }
    }

    /// PN(v): whether `V(root) >= v`, within the budgets.
    ///
    /// ```
    /// use gamesearch::proof_number::{dfpn::{Dfpn, DfpnConfig}, Answer};
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// let mut d = Dfpn::new(&DfpnConfig { tt_bytes: 16 << 20, ..DfpnConfig::default() }).unwrap();
    /// let p = Nim::new(10); // won for the first player: take 2
    /// assert_eq!(d.prove(&p, 1).answer, Answer::Proven);
    /// assert_eq!(d.prove(&Nim::new(8), 0).answer, Answer::Disproven);
    /// ```
    pub fn prove(&mut self, root: &G, v: Score) -> DfpnResult<G::Move> {
        self.prove_deciding(root, v, true)
    }

    /// [`Dfpn::prove`], finding the deciding root move only when `with_move` asks for it (a
    /// threshold on the way to a value needs none; finding one may search children).
    fn prove_deciding(&mut self, root: &G, v: Score, with_move: bool) -> DfpnResult<G::Move> {
        let before = self.stats;
        self.v = v;
        self.stats.tests += 1;
        let key = self.key(root, self.cfg.depth);
        let (pn, dn) = self.mid(root, key, self.cfg.depth, INFINITE, INFINITE);
        let answer = answer_of(pn, dn);
        let best_move = if with_move {
            self.deciding_move(root, answer)
        } else {
            None
        };
        let stats = self.stats.since(&before);
        DfpnResult {
            threshold: v,
            answer,
            proof: pn,
            disproof: dn,
            best_move,
            stats,
        }
    }

    /// The status of `p` for the current threshold: `Some(true)` proven, `Some(false)`
    /// disproven — searching it if the table does not know (a budget may leave it `None`).
    fn status(&mut self, p: &G, depth: u32) -> Option<bool> {
        let key = self.key(p, depth);
        let (pn, dn) = self.mid(p, key, depth, INFINITE, INFINITE);
        match answer_of(pn, dn) {
            Answer::Proven => Some(true),
            Answer::Disproven => Some(false),
            Answer::Unknown => None,
        }
    }

    /// The root move that decides a proven (MAX to move) or disproven (MIN to move) root.
    fn deciding_move(&mut self, root: &G, answer: Answer) -> Option<G::Move> {
        let want = match (answer, root.to_move()) {
            (Answer::Proven, Player::Max) => true,
            (Answer::Disproven, Player::Min) => false,
            _ => return None,
        };
        let depth = self.cfg.depth;
        if depth == 0 {
            return None;
        }
        let child_depth = if depth == u32::MAX { depth } else { depth - 1 };
        let all: SmallVec<[G::Move; 16]> = root.moves().collect();
        // The candidates, likeliest first: playing to the end, a win with the next move, then
        // the moves the game's knowledge keeps in its order, then the rest (a root settled by
        // its bounds was never expanded, and a losing child tried first is solved in full).
        let moves = if depth == u32::MAX {
            let mut kept = all.clone();
            let n = root.non_losing_moves(&mut kept);
            kept.truncate(n);
            root.order_moves(&mut kept);
            let mut moves: SmallVec<[G::Move; 16]> = root.immediate_win().into_iter().collect();
            for &m in kept.iter().chain(&all) {
                if !moves.contains(&m) {
                    moves.push(m);
                }
            }
            moves
        } else {
            all
        };
        // The children searched side by side (a loss tried first would otherwise be solved in
        // full before a win after it is looked at): each in turn until its number in the
        // wanted direction (the proof number for a proof) reaches a threshold that doubles each
        // round, the table keeping the work. The first round, at 1, only reads the table; a
        // child settled the wrong way is dropped.
        let mut candidates: SmallVec<[(G, u64, G::Move); 16]> = moves
            .iter()
            .map(|&m| {
                let c = root.play(m);
                let k = self.key(&c, child_depth);
                (c, k, m)
            })
            .collect();
        let mut threshold: Number = 1;
        while !candidates.is_empty() && !self.budget.stopped {
            let mut i = 0;
            while i < candidates.len() && !self.budget.stopped {
                let (c, k, m) = &candidates[i];
                let (k, m) = (*k, *m);
                let (th_pn, th_dn) = if want {
                    (threshold, INFINITE)
                } else {
                    (INFINITE, threshold)
                };
                let (pn, dn) = self.mid(c, k, child_depth, th_pn, th_dn);
                match answer_of(pn, dn) {
                    Answer::Unknown => i += 1,
                    Answer::Proven if want => return Some(m),
                    Answer::Disproven if !want => return Some(m),
                    _ => {
                        candidates.remove(i);
                    }
                }
            }
            if threshold == INFINITE {
                break;
            }
            // (Up to INFINITE, the last round: every child searched to its end.)
            threshold = threshold.saturating_mul(2);
        }
        None
    }

    /// The proof (`proof`: of `V >= v`) or disproof tree of `root` for threshold `v`, after
    /// [`Dfpn::prove`] answered it: read from the table, re-searching what was overwritten.
    /// `None` if a budget stops the re-searches. Check it with [`super::check_proof`].
    ///
    /// ```
    /// use gamesearch::proof_number::{check_proof, dfpn::{Dfpn, DfpnConfig}};
    /// # mod nim { include!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nim.rs")); } use nim::Nim;
    /// let mut d = Dfpn::new(&DfpnConfig { tt_bytes: 1 << 20, ..DfpnConfig::default() }).unwrap();
    /// let p = Nim::new(9);
    /// d.prove(&p, 0);
    /// let t = d.proof_tree(&p, 0, true).unwrap();
    /// assert!(check_proof(&p, &t, 0, u32::MAX, true).is_ok());
    /// ```
    pub fn proof_tree(&mut self, root: &G, v: Score, proof: bool) -> Option<ProofTree<G::Move>> {
        // (A game whose positions repeat: a proof may rest on a repetition, which a proof tree
        // cannot show; none is given.)
        if G::REPEATS {
            return None;
        }
        self.v = v;
        let depth = self.cfg.depth;
        if self.status(root, depth) != Some(proof) {
            return None;
        }
        self.extract(root, None, depth, proof)
    }

    fn extract(
        &mut self,
        p: &G,
        mv: Option<G::Move>,
        depth: u32,
        proof: bool,
    ) -> Option<ProofTree<G::Move>> {
        let moves: SmallVec<[G::Move; 16]> = if depth == 0 {
            SmallVec::new()
        } else {
            p.moves().collect()
        };
        if moves.is_empty() {
            return Some(ProofTree {
                mv,
                children: Vec::new(),
            });
        }
        let child_depth = if depth == u32::MAX { depth } else { depth - 1 };
        let chooser = (p.to_move() == Player::Max) == proof;
        let mut children = Vec::new();
        if chooser {
            let m = moves
                .into_iter()
                .find(|&m| self.status(&p.play(m), child_depth) == Some(proof))?;
            children.push(self.extract(&p.play(m), Some(m), child_depth, proof)?);
        } else {
            for m in moves {
                let c = p.play(m);
                if self.status(&c, child_depth) != Some(proof) {
                    return None;
                }
                children.push(self.extract(&c, Some(m), child_depth, proof)?);
            }
        }
        Some(ProofTree { mv, children })
    }

    /// Multi-valued df-pn: the value of `root` (cut at the horizon) by PN(v) for the doubling-
    /// then-binary threshold sequence of [`super::pn_value`], one table for all thresholds.
    ///
    /// ```
    /// use gamesearch::proof_number::dfpn::{Dfpn, DfpnConfig};
    /// use gamesearch::trees::ExplicitTree;
    /// let mut d = Dfpn::new(&DfpnConfig { tt_bytes: 16 << 20, ..DfpnConfig::default() }).unwrap();
    /// let t = ExplicitTree::parse("(max (min 3 -5) (min 6 9) (min -2 7))").unwrap();
    /// assert_eq!(d.value(&t.root()).value, Some(6));
    /// ```
    pub fn value(&mut self, root: &G) -> PnValue<G::Move> {
        self.value_with(root, |_| {})
    }

    /// [`Dfpn::value`], calling `on_run` with each threshold's result as it comes (without a
    /// best move: the deciding move is found once, for the final answer).
    pub fn value_with(
        &mut self,
        root: &G,
        mut on_run: impl FnMut(&DfpnResult<G::Move>),
    ) -> PnValue<G::Move> {
        let before = self.stats;
        let mut runs = Vec::new();
        let best_move;
        let bounds = root.value_bounds();
        let search = super::value_by_thresholds(bounds, |v| {
            // In a game without draws, "V >= 0?" is "V >= 1?" (answered from the table when asked
            // before).
            let v = if !G::DRAWS && v == 0 { 1 } else { v };
            // (The deciding move is found once, for the final answer below.)
            let r = self.prove_deciding(root, v, false);
            runs.push((v, r.answer));
            on_run(&r);
            match r.answer {
                Answer::Proven => Some(true),
                Answer::Disproven => Some(false),
                Answer::Unknown => None,
            }
        });
        let solved = search.solved();
        if solved {
            // The deciding move of the final answer: MAX proves V >= lo, MIN disproves V >= hi.
            let v = if root.to_move() == Player::Max {
                search.lo
            } else {
                search.hi
            };
            let r = self.prove(root, v);
            best_move = r.best_move;
            runs.push((v, r.answer));
        } else {
            best_move = None;
        }
        let stats = self.stats.since(&before);
        PnValue {
            value: solved.then_some(search.lo),
            bounds: (search.lo, search.hi - 1),
            best_move,
            complete: solved,
            stats,
            runs,
            peak_bytes: self.table.bytes(),
        }
    }
}

/// What [`solve`] found: the value (or bounds) with its move and counters, the proof's size when
/// it was checked, the root's numbers after the last threshold, the table's size.
#[derive(Clone, Debug)]
pub struct DfpnSolution<M> {
    /// Value, bounds, best move, complete, stats, thresholds run.
    pub value: PnValue<M>,
    /// Nodes of the proof (or disproof) tree that passed the independent checker.
    pub proof_nodes: Option<usize>,
    /// The root's proof and disproof numbers after the last threshold (∞ = `u32::MAX`).
    pub root_numbers: Option<(Number, Number)>,
    /// Bytes of the table.
    pub tt_bytes: usize,
}

impl<M> DfpnSolution<M> {
    /// The exact solvers' common result, with df-pn's table, proof size and root numbers.
    pub fn into_solution(self) -> crate::solver::Solution<M> {
        crate::solver::Solution {
            tt_bytes: self.tt_bytes,
            proof_nodes: self.proof_nodes,
            root_numbers: self.root_numbers,
            ..self.value.into_solution()
        }
    }
}

/// Solves `game` to the end with df-pn: `multi`, the exact value by thresholds over one table;
/// otherwise win, draw or loss. With `check`, the proof (or disproof) tree of the last answer is
/// extracted and verified by the independent checker; a failed check is an error. `on_run` sees
/// every threshold's result as it comes.
///
/// ```
/// use gamesearch::proof_number::dfpn::{solve, DfpnConfig};
/// use gamesearch::trees::ExplicitTree;
/// let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
/// let cfg = DfpnConfig { tt_bytes: 16 << 20, ..DfpnConfig::default() };
/// let r = solve(&t.root(), &cfg, true, true, |_| {}).unwrap();
/// assert_eq!(r.value.value, Some(0)); // a draw
/// assert!(r.proof_nodes.unwrap() > 0);
/// ```
pub fn solve<G: PositionKey + SolverKnowledge>(
    game: &G,
    cfg: &DfpnConfig,
    multi: bool,
    check: bool,
    mut on_run: impl FnMut(&DfpnResult<G::Move>),
) -> Result<DfpnSolution<G::Move>, Error> {
    let mut cfg = cfg.clone();
    cfg.depth = u32::MAX;
    let mut d = Dfpn::new(&cfg)?;
    let mut last: Option<(Score, Answer)> = None;
    let mut numbers = None;
    let mut value = if multi {
        d.value_with(game, |r| {
            last = Some((r.threshold, r.answer));
            numbers = Some((r.proof, r.disproof));
            on_run(r);
        })
    } else {
        let range = game.value_bounds().unwrap_or(crate::game::VALUE_RANGE);
        let mut runs = Vec::new();
        let (bounds, best_move, complete) = super::win_draw_loss(range, |v| {
            let r = d.prove(game, v);
            last = Some((v, r.answer));
            numbers = Some((r.proof, r.disproof));
            runs.push((v, r.answer));
            on_run(&r);
            (r.answer, r.best_move)
        });
        PnValue {
            value: (bounds.0 == bounds.1).then_some(bounds.0),
            bounds,
            best_move,
            complete,
            stats: Stats::default(),
            runs,
            peak_bytes: 0,
        }
    };
    value.stats = d.stats();
    let proof_nodes = match last {
        // (A game whose positions repeat has no proof tree to check: an error, not a silence.)
        Some(_) if check && G::REPEATS => {
            return Err(Error::BadParameter(
                "a proof of a game whose positions repeat cannot be checked as a tree: solve without the check".into(),
            ))
        }
        Some((v, answer)) if check && answer != Answer::Unknown => {
            let proof = answer == Answer::Proven;
            let tree = d.proof_tree(game, v, proof).ok_or_else(|| {
                Error::BadParameter("the proof could not be extracted within the budget".into())
            })?;
            super::check_proof(game, &tree, v, u32::MAX, proof)
                .map_err(|e| Error::BadParameter(format!("df-pn's proof failed the check: {e}")))?;
            Some(tree.size())
        }
        _ => None,
    };
    Ok(DfpnSolution {
        value,
        proof_nodes,
        root_numbers: numbers,
        tt_bytes: d.table_bytes(),
    })
}

/// [`solve`] with its moves named (what `gamesearch solve --algo dfpn|dfpn-multi` prints).
///
/// ```
/// use gamesearch::proof_number::dfpn::{solve_report, DfpnConfig};
/// use gamesearch::trees::ExplicitTree;
/// let t = ExplicitTree::parse("(max (min 1 0) (min 0 -1) (min -1 1))").unwrap();
/// let cfg = DfpnConfig { tt_bytes: 16 << 20, ..DfpnConfig::default() };
/// let r = solve_report(&t.root(), &cfg, true, true, |_| {}).unwrap();
/// assert_eq!((r.value, r.outcome), (Some(0), Some("draw")));
/// assert!(r.proof_nodes.unwrap() > 0);
/// ```
pub fn solve_report<G: PositionKey + SolverKnowledge>(
    game: &G,
    cfg: &DfpnConfig,
    multi: bool,
    check: bool,
    on_run: impl FnMut(&DfpnResult<G::Move>),
) -> Result<crate::report::SolveReport, Error> {
    let start = std::time::Instant::now();
    let s = solve(game, cfg, multi, check, on_run)?.into_solution();
    let algo = if multi { "dfpn-multi" } else { "dfpn" };
    Ok(s.report(game, algo, start.elapsed().as_secs_f64() * 1e3))
}

#[cfg(test)]
mod tests {
    use super::{focused_width, INFINITE};

    #[test]
    fn the_focus_reaches_past_refuted_children_and_takes_every_child_when_one_decides() {
        let open = (1, 1);
        let disproven = (INFINITE, 0);
        let proven = (0, INFINITE);
        // OR node, four live children: 1 + ceil(0.25 · 4) = 2 live ones, past the disproven.
        let numbers = [open, disproven, open, open, open];
        assert_eq!(focused_width(&numbers, true, 0.25), 3);
        // Share 1: every child.
        assert_eq!(focused_width(&numbers, true, 1.0), 5);
        // Fewer than two live: every child (so that a disproof needs them all).
        assert_eq!(focused_width(&[disproven, open, disproven], true, 0.25), 3);
        // A proven child decides an OR node wherever it stands.
        assert_eq!(
            focused_width(&[open, open, open, open, proven], true, 0.25),
            5
        );
        // AND node: the proven children are the refuted ones.
        assert_eq!(focused_width(&[proven, open, open, open], false, 0.25), 3);
    }
}
