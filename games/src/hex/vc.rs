//! Virtual connections by H-search (Anshelevich 2002): for one player, which of its *nodes* —
//! its chains, its two edges, the empty cells — are joined whatever the opponent does.
//!
//! A *full* connection between two nodes holds against any opponent's move, even with the
//! opponent to move; a *semi* connection holds if the owner moves first (at its *key*). Each
//! has a *carrier*: the empty cells it needs (a semi's includes its key). Two rules build
//! them from the adjacent pairs (full, empty carrier):
//!
//! - **AND**: full `x–z` and full `z–y` with disjoint carriers (neither holding `x` or `y`)
//!   give full `x–y` when `z` is the owner's (a chain or an edge), and semi `x–y` keyed `z`
//!   (carrier: both and `z`) when `z` is an empty cell.
//! - **OR**: semis `x–y` whose carriers have no cell in common give full `x–y` (carrier: their
//!   union): whatever the opponent plays, one of them is untouched, and the owner plays its key.
//!
//! A full connection between the owner's edges wins for it whoever is to move; a semi one wins
//! with the owner to move, and the opponent, to move, must play in every such semi's carrier or
//! lose: the *must-play* region. Connections are capped per pair (the smallest kept), so the
//! search may miss one; any it finds is real.

use std::cell::RefCell;

use super::bits::{fill, neighbours, Masks};

/// Full connections kept per pair.
const FULLS: usize = 4;
/// Semi connections kept per pair.
const SEMIS: usize = 8;
/// The largest carrier kept between two empty cells.
const EMPTY_PAIR_CARRIER: u32 = 2;
/// The most nodes: two edges and 121 cells.
const MAX_NODES: usize = 123;

/// Up to `N` carriers, none a superset of another, each with the pass that added it.
#[derive(Clone, Copy)]
struct List<const N: usize> {
    len: u8,
    carriers: [u128; N],
    born: [u16; N],
}

impl<const N: usize> List<N> {
    const EMPTY: Self = List {
        len: 0,
        carriers: [0; N],
        born: [0; N],
    };

    fn items(&self) -> &[u128] {
        &self.carriers[..usize::from(self.len)]
    }

    /// Adds `c` (in pass `pass`) unless a carrier inside it is there; drops those it is
    /// inside. When full, a smaller carrier replaces the largest. Whether the list changed.
    fn add(&mut self, c: u128, pass: u16) -> bool {
        if self.items().iter().any(|&d| d & !c == 0) {
            return false;
        }
        let mut kept = 0;
        for i in 0..usize::from(self.len) {
            let d = self.carriers[i];
            if c & !d != 0 {
                self.carriers[kept] = d;
                self.born[kept] = self.born[i];
                kept += 1;
            }
        }
        self.len = kept as u8;
        if kept < N {
            self.carriers[kept] = c;
            self.born[kept] = pass;
            self.len += 1;
            return true;
        }
        let (worst, size) = (0..N)
            .map(|i| (i, self.carriers[i].count_ones()))
            .max_by_key(|&(_, s)| s)
            .unwrap();
        if c.count_ones() < size {
            self.carriers[worst] = c;
            self.born[worst] = pass;
            return true;
        }
        false
    }
}

/// One player's connections, made anew for each position (the buffers kept per thread).
struct Search {
    nodes: usize,
    /// Each node's cells: the chain's stones, the empty cell, or (edges) nothing.
    cells: [u128; MAX_NODES],
    /// `fulls[a]`: the nodes `a` has a full connection with, as bits.
    fulls: [u128; MAX_NODES],
    /// The pairs whose full (`new_full`) or semi (`new_semi`) connections changed in this pass,
    /// and in the pass before (`last_full`, `last_semi`), by node as bits: a pass combines only
    /// what the pass before changed.
    new_full: [u128; MAX_NODES],
    last_full: [u128; MAX_NODES],
    new_semi: [u128; MAX_NODES],
    last_semi: [u128; MAX_NODES],
    /// The lists of each pair of nodes, one for both orders ([`Search::at`]).
    full: Vec<List<FULLS>>,
    semi: Vec<List<SEMIS>>,
    /// `within[k][a]`: the nodes `a` has a full connection with whose carrier has at most `k`
    /// cells, for `k` up to the cap between empty cells.
    within: [[u128; MAX_NODES]; EMPTY_PAIR_CARRIER as usize + 1],
    /// The owner's nodes (edges and chains, the first nodes), as bits; the rest are empty
    /// cells.
    owned_bits: u128,
    /// The pass of the rules under way (0: the adjacent pairs).
    pass: u16,
    /// The circuit's matrix and right-hand side, and its links with their conductances
    /// ([`Search::currents`]).
    matrix: Vec<f64>,
    rhs: Vec<f64>,
    links: Vec<(u8, u8, f64)>,
}

/// Answers kept per thread, by a hash of the question: the solver asks about the same
/// position more than once (its bounds, then its moves, and again when df-pn comes back to a
/// node). At most 2^16 entries (22 MiB a thread: on two 6x6 openings the smaller 2^12
/// searched 9 % more positions again, the larger 2^20 2 % fewer), from 2^10 (352 KiB) four
/// times larger each time as many answers were stored as it has entries: filling the whole
/// at once cost a small solve (3x3, 5x5) about 20 ms.
const ANSWERS: usize = 1 << 16;
/// The entries the kept answers start with.
const FIRST_ANSWERS: usize = 1 << 10;

/// One kept answer: the question (the owner's stones, the empty cells, and a tag of the board
/// size and the owner) and what H-search found, with the currents of its circuit by cell.
#[derive(Clone, Copy)]
struct Answer {
    own: u128,
    empty: u128,
    tag: u16,
    found: EdgeConnections,
    currents: Currents,
}

/// The current through each cell of the owner's circuit over its connections
/// ([`connection_currents`]), in 65,535ths of the whole.
pub(crate) type Currents = [u16; 121];

thread_local! {
    /// The kept answers, and how many were stored since their size last changed.
    static ANSWERED: RefCell<(Vec<Answer>, usize)> = const { RefCell::new((Vec::new(), 0)) };
    static SEARCH: RefCell<Search> = RefCell::new(Search {
        nodes: 0,
        cells: [0; MAX_NODES],
        fulls: [0; MAX_NODES],
        new_full: [0; MAX_NODES],
        last_full: [0; MAX_NODES],
        new_semi: [0; MAX_NODES],
        last_semi: [0; MAX_NODES],
        full: vec![List::EMPTY; MAX_NODES * (MAX_NODES - 1) / 2],
        semi: vec![List::EMPTY; MAX_NODES * (MAX_NODES - 1) / 2],
        within: [[0; MAX_NODES]; EMPTY_PAIR_CARRIER as usize + 1],
        owned_bits: 0,
        pass: 0,
        matrix: vec![0.0; MAX_NODES * MAX_NODES],
        rhs: vec![0.0; MAX_NODES],
        links: Vec::with_capacity(MAX_NODES * (MAX_NODES - 1) / 2),
    });
}

/// What H-search found between the owner's two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EdgeConnections {
    /// A full connection: the owner wins whoever is to move.
    pub full: bool,
    /// A semi connection (or a full one): the owner wins if it moves first.
    pub semi: bool,
    /// The cells in every semi connection's carrier (all of them if there is none; none if
    /// there is a full connection): where the opponent, to move, must play.
    pub must_play: u128,
    /// The smallest carrier of a full connection when there is one, else of a semi one (its
    /// key among its cells); none when there is neither: with the owner's stones, all that
    /// its win rests on.
    pub carrier: u128,
    /// What the must-play region rests on: the carriers of the semi connections, smallest
    /// first, that each narrowed it, together.
    pub semis: u128,
}

impl Search {
    /// The index of the pair `a`, `b` (two different nodes, in either order) in the lists.
    #[inline]
    fn at(a: usize, b: usize) -> usize {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        hi * (hi - 1) / 2 + lo
    }

    fn reset(&mut self, nodes: usize) {
        for a in 0..self.nodes.max(nodes) {
            self.fulls[a] = 0;
            self.new_full[a] = 0;
            self.last_full[a] = 0;
            self.new_semi[a] = 0;
            self.last_semi[a] = 0;
            for w in &mut self.within {
                w[a] = 0;
            }
        }
        let used = self.nodes.max(nodes);
        let pairs = used * used.saturating_sub(1) / 2;
        for list in &mut self.full[..pairs] {
            list.len = 0;
        }
        for list in &mut self.semi[..pairs] {
            list.len = 0;
        }
        self.nodes = nodes;
    }

    fn add_full(&mut self, a: usize, b: usize, c: u128) -> bool {
        if !self.full[Self::at(a, b)].add(c, self.pass) {
            return false;
        }
        self.fulls[a] |= 1u128 << b;
        self.fulls[b] |= 1u128 << a;
        for k in (c.count_ones() as usize)..self.within.len() {
            self.within[k][a] |= 1u128 << b;
            self.within[k][b] |= 1u128 << a;
        }
        self.new_full[a] |= 1u128 << b;
        self.new_full[b] |= 1u128 << a;
        true
    }

    fn add_semi(&mut self, a: usize, b: usize, c: u128) -> bool {
        // A semi no smaller than a full one says nothing more.
        if self.full[Self::at(a, b)]
            .items()
            .iter()
            .any(|&d| d & !c == 0)
        {
            return false;
        }
        if !self.semi[Self::at(a, b)].add(c, self.pass) {
            return false;
        }
        self.new_semi[a] |= 1u128 << b;
        self.new_semi[b] |= 1u128 << a;
        true
    }

    /// The AND rule over every middle node, for the pairs of connections one of which changed
    /// in the pass before; whether anything was added.
    fn and_rule(&mut self) -> bool {
        let mut changed = false;
        for z in 0..self.nodes {
            let around = self.fulls[z];
            let hot = self.last_full[z];
            if hot == 0 {
                continue;
            }
            // Between two empty cells, only small carriers (bridges and the like): wider ones
            // cost more than they find. Through an empty z, z itself is one of the cells.
            let between_empty = EMPTY_PAIR_CARRIER - u32::from(!self.owned(z));
            let mut xs = around;
            while xs != 0 {
                let x = xs.trailing_zeros() as usize;
                xs &= xs - 1;
                // Each pair once: y above x; one of the two connections new.
                let above = around & !((2u128 << x) - 1);
                let mut ys = if hot >> x & 1 != 0 {
                    above
                } else {
                    above & hot
                };
                if !self.owned(x) {
                    // For an empty y, y's connection to z must fit in what the smallest of
                    // x's leaves.
                    let left = between_empty as usize;
                    let smallest = (0..=left).find(|&k| self.within[k][z] >> x & 1 != 0);
                    ys &= self.owned_bits | smallest.map_or(0, |k| self.within[left - k][z]);
                }
                // A pair joined with no carrier (adjacent) can gain nothing.
                ys &= !self.within[0][x];
                while ys != 0 {
                    let y = ys.trailing_zeros() as usize;
                    ys &= ys - 1;
                    let ends = self.cells_if_empty(x) | self.cells_if_empty(y);
                    let largest = if self.owned(x) || self.owned(y) {
                        u32::MAX
                    } else {
                        between_empty
                    };
                    // The combined carriers, gathered first and added after (x–y's lists are
                    // neither x–z's nor z–y's).
                    let mut found = [0u128; FULLS * FULLS];
                    let mut count = 0;
                    let (fx, fy) = (&self.full[Self::at(x, z)], &self.full[Self::at(z, y)]);
                    // Only pairs of carriers one of which the pass before added: the others
                    // were combined in an earlier pass.
                    let last = self.pass - 1;
                    for (&c1, &born1) in fx.items().iter().zip(&fx.born) {
                        if c1 & ends != 0 {
                            continue;
                        }
                        for (&c2, &born2) in fy.items().iter().zip(&fy.born) {
                            if born1.max(born2) != last
                                || c1 & c2 != 0
                                || c2 & ends != 0
                                || (c1 | c2).count_ones() > largest
                            {
                                continue;
                            }
                            found[count] = c1 | c2;
                            count += 1;
                        }
                    }
                    for &c in &found[..count] {
                        changed |= if self.owned(z) {
                            self.add_full(x, y, c)
                        } else {
                            self.add_semi(x, y, c | self.cells[z])
                        };
                    }
                }
            }
        }
        changed
    }

    /// Whether node `a` is the owner's (an edge or a chain), not an empty cell.
    #[inline]
    fn owned(&self, a: usize) -> bool {
        self.owned_bits >> a & 1 != 0
    }

    /// An empty cell node's cell; nothing for the owner's nodes.
    #[inline]
    fn cells_if_empty(&self, a: usize) -> u128 {
        if self.owned(a) {
            0
        } else {
            self.cells[a]
        }
    }

    /// The OR rule over every pair with two or more semis, one of them new; whether anything
    /// was added.
    fn or_rule(&mut self) -> bool {
        let mut changed = false;
        for x in 0..self.nodes {
            let mut ys = (self.last_semi[x] | self.new_semi[x]) & !((2u128 << x) - 1);
            while ys != 0 {
                let y = ys.trailing_zeros() as usize;
                ys &= ys - 1;
                // (Most pairs have fewer than two semis. The others' carriers are copied out
                // of the list because `add_full` borrows the whole search.)
                let list = &self.semi[Self::at(x, y)];
                let count = usize::from(list.len);
                if count < 2 {
                    continue;
                }
                let mut carriers = [0u128; SEMIS];
                carriers[..count].copy_from_slice(list.items());
                let s = &carriers[..count];
                // From each semi, the others folded in while they shrink the intersection.
                for first in 0..s.len() {
                    let (mut both, mut any) = (s[first], s[first]);
                    for (k, &c) in s.iter().enumerate() {
                        if k != first && both & c != both {
                            both &= c;
                            any |= c;
                            if both == 0 {
                                break;
                            }
                        }
                    }
                    if both == 0 {
                        changed |= self.add_full(x, y, any);
                    }
                }
            }
        }
        changed
    }

    /// The circuit's currents by empty cell ([`connection_currents`]), from the full
    /// connections found.
    fn currents(&mut self) -> Currents {
        let nodes = self.nodes;
        // 1. Each node's place in the circuit: the owner's nodes adjacent to an edge are that
        //    edge (0: potential 1, 1: potential 0); the others are unknowns, numbered.
        const SOURCE: usize = usize::MAX;
        const SINK: usize = usize::MAX - 1;
        let mut place = [0usize; MAX_NODES];
        let mut unknowns = 0;
        for (a, place) in place.iter_mut().enumerate().take(nodes) {
            let (to_first, to_second) = (
                a == 0 || self.owned(a) && self.adjacent(0, a),
                a == 1 || self.owned(a) && self.adjacent(1, a),
            );
            *place = match (to_first, to_second) {
                (true, true) => return [0; 121],
                (true, false) => SOURCE,
                (false, true) => SINK,
                (false, false) => {
                    unknowns += 1;
                    unknowns - 1
                }
            };
        }
        let k = unknowns;
        let (a_mat, b) = (&mut self.matrix, &mut self.rhs);
        a_mat[..k * k].fill(0.0);
        b[..k].fill(0.0);
        // 2. The links: each pair with a full connection, but two of the owner's nodes.
        let conductance = |s: &Search, x: usize, y: usize| -> f64 {
            let list = &s.full[Search::at(x, y)];
            if list.len == 0 || s.owned(x) && s.owned(y) {
                return 0.0;
            }
            let shared = list.items().iter().fold(u128::MAX, |acc, &c| acc & c);
            let base = if s.owned(x) || s.owned(y) { 2.0 } else { 1.0 };
            base / f64::from(1 + shared.count_ones())
        };
        let mut links = std::mem::take(&mut self.links);
        links.clear();
        for x in 0..nodes {
            let mut ys = self.fulls[x] & !((2u128 << x) - 1);
            while ys != 0 {
                let y = ys.trailing_zeros() as usize;
                ys &= ys - 1;
                let g = conductance(self, x, y);
                if g == 0.0 {
                    continue;
                }
                links.push((x as u8, y as u8, g));
                let (a_mat, b) = (&mut self.matrix, &mut self.rhs);
                match (place[x], place[y]) {
                    (p, q) if p < SINK && q < SINK => {
                        a_mat[p * k + p] += g;
                        a_mat[q * k + q] += g;
                        a_mat[p * k + q] -= g;
                        a_mat[q * k + p] -= g;
                    }
                    (p, fixed) | (fixed, p) if p < SINK => {
                        a_mat[p * k + p] += g;
                        if fixed == SOURCE {
                            b[p] += g;
                        }
                    }
                    _ => {}
                }
            }
        }
        let (a_mat, b) = (&mut self.matrix, &mut self.rhs);
        // 3. The potentials by Gaussian elimination (symmetric, diagonally dominant; a node
        //    cut off from both edges is held at 0 by a tiny leak).
        for i in 0..k {
            a_mat[i * k + i] += 1e-9;
        }
        for p in 0..k {
            let pivot = a_mat[p * k + p];
            for i in p + 1..k {
                let f = a_mat[i * k + p] / pivot;
                if f != 0.0 {
                    for j in p..k {
                        a_mat[i * k + j] -= f * a_mat[p * k + j];
                    }
                    b[i] -= f * b[p];
                }
            }
        }
        for i in (0..k).rev() {
            let mut x = b[i];
            for j in i + 1..k {
                x -= a_mat[i * k + j] * b[j];
            }
            b[i] = x / a_mat[i * k + i];
        }
        let potential = |p: usize| match p {
            SOURCE => 1.0,
            SINK => 0.0,
            i => self.rhs[i],
        };
        // 4. Through each empty cell, half of what flows along its links; the whole, what
        //    leaves the source.
        let mut through = [0.0f64; MAX_NODES];
        let mut total = 0.0;
        for &(x, y, g) in &links {
            let (x, y) = (usize::from(x), usize::from(y));
            let flow = g * (potential(place[x]) - potential(place[y])).abs();
            through[x] += flow;
            through[y] += flow;
            if (place[x] == SOURCE) != (place[y] == SOURCE) {
                total += flow;
            }
        }
        self.links = links;
        let mut out = [0u16; 121];
        if total > 0.0 {
            for (x, &flow) in through.iter().enumerate().take(nodes) {
                if !self.owned(x) {
                    let cell = self.cells[x].trailing_zeros() as usize;
                    let share = (flow / (2.0 * total)).min(1.0);
                    out[cell] = (share * 65_535.0) as u16;
                }
            }
        }
        out
    }

    /// Whether nodes `a` and `b` touch (a full connection with no carrier).
    #[inline]
    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.within[0][a] >> b & 1 != 0
    }
}

/// H-search for the player with stones `own` and edges `from` and `to` (rows or columns),
/// `empty` the empty cells: what joins its edges.
pub(crate) fn edge_connections(
    own: u128,
    empty: u128,
    from: u128,
    to: u128,
    n: u8,
    m: &Masks,
) -> EdgeConnections {
    answer(own, empty, from, to, n, m, |a| a.found)
}

/// The resistance evaluation over H-search's connections (Shannon's Hex machine and
/// Anshelevich 2002, with the virtual connections in the circuit as Benzene has them): the
/// owner's circuit between its edges (first at potential 1, second at 0), whose nodes are its
/// chains (a chain touching an edge is that edge) and the empty cells, and whose links are
/// the full connections — a conductance of 1 between two empty cells, 2 between an empty cell
/// and the owner's node, divided by one plus the cells every carrier of the pair shares (an
/// adjacent pair: none); two of the owner's nodes meet only through the cells between them.
/// The current through each empty cell, as a share of all that flows, by cell; none when the
/// edges are joined or cut apart.
pub(crate) fn connection_currents(
    own: u128,
    empty: u128,
    from: u128,
    to: u128,
    n: u8,
    m: &Masks,
) -> Currents {
    answer(own, empty, from, to, n, m, |a| a.currents)
}

/// The kept answer to the question, or H-search's new one, read by `read`.
fn answer<T>(
    own: u128,
    empty: u128,
    from: u128,
    to: u128,
    n: u8,
    m: &Masks,
    read: impl Fn(&Answer) -> T,
) -> T {
    // The first edge tells the owner: Black's is the top row.
    let tag = u16::from(n) << 1 | u16::from(from == m.top);
    let mixed = own.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)
        ^ empty.wrapping_mul(0xD6E8_FEB8_6659_FD93_A5A3_5625_9E4A_A9D1)
        ^ u128::from(tag);
    let hash = ((mixed >> 64) as u64 ^ mixed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // The question's slot in a table of `entries` (a power of two).
    let slot = |entries: usize| (hash >> (64 - entries.trailing_zeros())) as usize;
    let kept = ANSWERED.with(|a| {
        let a = a.borrow();
        if a.0.is_empty() {
            return None;
        }
        a.0.get(slot(a.0.len()))
            .filter(|e| e.own == own && e.empty == empty && e.tag == tag)
            .map(&read)
    });
    if let Some(kept) = kept {
        return kept;
    }
    let (found, currents) = search(own, empty, from, to, n, m);
    let new = Answer {
        own,
        empty,
        tag,
        found,
        currents,
    };
    ANSWERED.with(|a| {
        let (answers, stored) = &mut *a.borrow_mut();
        if answers.is_empty() || (answers.len() < ANSWERS && *stored >= answers.len()) {
            // Empty cells are never all zero with a tag of 0: no slot matches before a store.
            let none = Answer {
                own: 0,
                empty: 0,
                tag: 0,
                found: EdgeConnections {
                    full: false,
                    semi: false,
                    must_play: 0,
                    carrier: 0,
                    semis: 0,
                },
                currents: [0; 121],
            };
            let entries = (answers.len() * 4).clamp(FIRST_ANSWERS, ANSWERS);
            answers.clear();
            answers.resize(entries, none);
            *stored = 0;
        }
        let at = slot(answers.len());
        answers[at] = new;
        *stored += 1;
    });
    read(&new)
}

/// [`edge_connections`]'s and [`connection_currents`]'s work.
fn search(
    own: u128,
    empty: u128,
    from: u128,
    to: u128,
    n: u8,
    m: &Masks,
) -> (EdgeConnections, Currents) {
    SEARCH.with(|s| {
        let mut s = s.borrow_mut();
        // The nodes: the two edges, the chains, the empty cells.
        let mut cells: [u128; MAX_NODES] = [0; MAX_NODES];
        let mut nodes = 2;
        let mut stones = own;
        while stones != 0 {
            let chain = fill(stones & stones.wrapping_neg(), own, n, m);
            stones &= !chain;
            cells[nodes] = chain;
            nodes += 1;
        }
        let owned_bits = (1u128 << nodes) - 1;
        let mut free = empty;
        while free != 0 {
            cells[nodes] = free & free.wrapping_neg();
            free &= free - 1;
            nodes += 1;
        }
        s.reset(nodes);
        s.pass = 0;
        s.cells[..nodes].copy_from_slice(&cells[..nodes]);
        s.owned_bits = owned_bits;
        // Adjacent nodes: a full connection with an empty carrier.
        for a in 2..nodes {
            if cells[a] & from != 0 {
                s.add_full(0, a, 0);
            }
            if cells[a] & to != 0 {
                s.add_full(1, a, 0);
            }
            let around = neighbours(cells[a], n, m);
            for (b, &other) in cells.iter().enumerate().take(nodes).skip(a + 1) {
                if around & other != 0 {
                    s.add_full(a, b, 0);
                }
            }
        }
        // The first pass combines everything.
        s.last_full = s.new_full;
        s.new_full = [0; MAX_NODES];
        // Until nothing changes, or the edges are joined (all the answer needs).
        let joined = |s: &Search| s.full[Search::at(0, 1)].len > 0;
        loop {
            s.pass += 1;
            let a = s.and_rule();
            if joined(&s) {
                break;
            }
            let b = s.or_rule();
            if !a && !b || joined(&s) {
                break;
            }
            s.last_full = s.new_full;
            s.last_semi = s.new_semi;
            s.new_full = [0; MAX_NODES];
            s.new_semi = [0; MAX_NODES];
        }
        let fulls = s.full[Search::at(0, 1)];
        let full = fulls.len > 0;
        let semis = s.semi[Search::at(0, 1)];
        let smallest = |carriers: &[u128]| {
            carriers
                .iter()
                .copied()
                .min_by_key(|c| c.count_ones())
                .unwrap_or(0)
        };
        let carrier = if full {
            smallest(fulls.items())
        } else {
            smallest(semis.items())
        };
        let must_play = if full {
            0
        } else {
            semis.items().iter().fold(m.board, |acc, &c| acc & c)
        };
        let currents = if full { [0; 121] } else { s.currents() };
        (
            EdgeConnections {
                full,
                semi: full || semis.len > 0,
                must_play,
                carrier,
                semis: must_play_support(semis.items()),
            },
            currents,
        )
    })
}

/// The union of the carriers, smallest first, that narrow the intersection of those before
/// them: their intersection is everyone's (a carrier left out held all of the intersection
/// when it came, and so still does).
fn must_play_support(carriers: &[u128]) -> u128 {
    let mut sorted = [0u128; SEMIS];
    let sorted = &mut sorted[..carriers.len()];
    sorted.copy_from_slice(carriers);
    sorted.sort_unstable_by_key(|c| c.count_ones());
    let (mut all, mut both) = (0, u128::MAX);
    for &c in sorted.iter() {
        if both & c != both {
            both &= c;
            all |= c;
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::super::bits::masks;
    use super::connection_currents;

    #[test]
    fn a_corridor_carries_the_whole_current() {
        // 3x3, White on every cell but the middle column: Black's current runs through all
        // three cells, and through no other.
        let m = masks(3);
        let column: u128 = 1 << 1 | 1 << 4 | 1 << 7;
        let currents = connection_currents(0, column, m.top, m.bottom, 3, m);
        for (cell, &c) in currents.iter().enumerate() {
            let want = if column >> cell & 1 != 0 { 65_535 } else { 0 };
            assert!((i32::from(c) - want).abs() <= 2, "cell {cell}: {c}");
        }
    }

    #[test]
    fn two_equal_corridors_share_the_current_and_a_joined_player_has_none() {
        // 3x3, White down the middle column: Black's columns a and c each carry half.
        let m = masks(3);
        let middle: u128 = 1 << 1 | 1 << 4 | 1 << 7;
        let currents = connection_currents(0, m.board & !middle, m.top, m.bottom, 3, m);
        for (cell, &c) in currents.iter().enumerate().take(9) {
            let want = if middle >> cell & 1 != 0 { 0 } else { 32_767 };
            assert!((i32::from(c) - want).abs() <= 2, "cell {cell}: {c}");
        }
        // A column of Black stones joins its edges: no current is asked for.
        let currents = connection_currents(middle, m.board & !middle, m.top, m.bottom, 3, m);
        assert!(currents.iter().all(|&c| c == 0));
    }

    #[test]
    fn an_answer_takes_the_bytes_its_doc_says() {
        assert_eq!(std::mem::size_of::<super::Answer>(), 352);
    }
}
