//! The engine's node search: fail-soft principal-variation search (nega-max) with the
//! transposition table, the table's move, killers and history for move ordering, and MTD(f)'s
//! null-window driver. Generic over how nodes are keyed ([`Keys`]) and how leaves are scored
//! ([`Scoring`]), so the same code serves the anytime engine (position keys, heuristic leaves,
//! proven wins) and the depth-limited `mtdf` algorithm of [`crate::search()`] (path keys, `f(p)`
//! at every leaf, the exact minimax value).

use super::ordering::MoveOrder;
use super::table::Table;
use crate::game::relative;
use crate::game::{Game, PositionKey, Score, INF};
use crate::limits::Budget;
use crate::observe::{Bound, Event, NoObserver, Observer, Window};
use crate::solver::table::DRAFT_EXACT;
use crate::stats::Stats;

/// The table's best move when there is none, or when its index does not fit in a byte.
const NO_MOVE: u8 = 255;

/// How a node's table key is found.
pub trait Keys<G: Game> {
    /// Whether the key is the position's own ([`PositionKey`]): a position met again on the line
    /// is then known by its key.
    const BY_POSITION: bool = false;
    /// The root's key.
    fn root(p: &G) -> u64;
    /// The key of `child`, the `index`-th move (generation order) of the node keyed `parent`.
    fn child(parent: u64, child: &G, index: usize) -> u64;
}

/// Position keys ([`PositionKey`]): transpositions share an entry.
pub struct ByPosition;

impl<G: PositionKey> Keys<G> for ByPosition {
    const BY_POSITION: bool = true;
    #[inline]
    fn root(p: &G) -> u64 {
        p.key()
    }
    #[inline]
    fn child(_: u64, child: &G, _: usize) -> u64 {
        child.key()
    }
}

/// Path keys (a hash of the moves' indices from the root): any game, no transpositions merged.
pub struct ByPath;

impl<G: Game> Keys<G> for ByPath {
    #[inline]
    fn root(_: &G) -> u64 {
        0x243F_6A88_85A3_08D3
    }
    #[inline]
    fn child(parent: u64, _: &G, index: usize) -> u64 {
        let z = (parent ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)).rotate_left(27);
        z.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (z >> 31)
    }
}

/// How leaves are scored, in MAX's view, and how scores travel through the table.
pub trait Scoring<G: Game> {
    /// Bounds from the table count only at exactly the depth still to search (true for the
    /// exact minimax value of a depth-limited tree), not at any deeper draft (an engine's
    /// custom: deeper is better).
    const SAME_DRAFT_ONLY: bool;
    /// A value found with no horizon below is the game's own and is stored as valid at every
    /// depth — right where a deeper search serves as well as the one asked for (playing), wrong
    /// for the minimax value of a depth-limited tree: the same position reached by a longer
    /// path has less depth left, and may meet a horizon where the first search did not.
    const EXACT_ENTRIES: bool = true;
    /// A position at the horizon scores as it would if the game ended there (`f(p)` either
    /// way), so a leaf at depth 0 is scored without asking whether it has moves — a call that
    /// costs a game written in Python as much as the evaluation. The leaf then always counts as
    /// a horizon, which only a search to one fixed depth can afford: deepening stops when an
    /// iteration meets no horizon.
    const HORIZON_AS_TERMINAL: bool = false;
    /// A position whose game is over, `ply` moves from the root.
    fn terminal(p: &G, ply: usize) -> Score;
    /// A position at the horizon (game not over).
    fn horizon(p: &G) -> Score;
    /// A position whose value is known without a search, `ply` moves from the root, scored as
    /// [`Scoring::terminal`] would score a finished game of that value. Default: none.
    #[inline]
    fn known(_p: &G, _ply: usize) -> Option<Score> {
        None
    }
    /// A position met again on the line searched, in a game whose positions repeat
    /// ([`Game::REPEATS`], keyed by position): its score, or `None` to search on through it.
    /// Default: on through it (the minimax value of a depth-limited tree, which every
    /// algorithm of [`crate::search()`] gives alike).
    #[inline]
    fn repetition(_p: &G, _ply: usize) -> Option<Score> {
        None
    }
    /// A score as stored in the table for a node at `ply` (side to move's view).
    fn to_table(s: Score, _ply: usize) -> Score {
        s
    }
    /// A stored score read back at `ply`.
    fn from_table(s: Score, _ply: usize) -> Score {
        s
    }
}

/// `f(p)` at every leaf: the search returns the minimax value of the depth-limited tree.
pub struct Plain;

impl<G: Game> Scoring<G> for Plain {
    const SAME_DRAFT_ONLY: bool = true;
    const EXACT_ENTRIES: bool = false;
    #[inline]
    fn terminal(p: &G, _: usize) -> Score {
        p.evaluate()
    }
    #[inline]
    fn horizon(p: &G) -> Score {
        p.evaluate()
    }
}

/// The score of a win found `plies` moves from the root is `WIN - plies` (side to move's
/// view): quicker wins score higher, and any score beyond [`PROVEN`] is a proven result, never
/// a heuristic guess.
pub const WIN: Score = 32_000;
/// Scores at or beyond this (in absolute value) are proven wins or losses.
pub const PROVEN: Score = WIN - 1_000;
/// Heuristic values are clamped to `±HEURISTIC_MAX`, below every proven score.
pub const HEURISTIC_MAX: Score = PROVEN - 1_000;

/// [`Plain`] for one search to a fixed depth (the `mtdf` algorithm of [`crate::search()`]):
/// see [`Scoring::HORIZON_AS_TERMINAL`].
pub(crate) struct PlainToDepth;

impl<G: Game> Scoring<G> for PlainToDepth {
    const SAME_DRAFT_ONLY: bool = true;
    const EXACT_ENTRIES: bool = false;
    const HORIZON_AS_TERMINAL: bool = true;
    #[inline]
    fn terminal(p: &G, _: usize) -> Score {
        p.evaluate()
    }
    #[inline]
    fn horizon(p: &G) -> Score {
        p.evaluate()
    }
}

/// For playing: a finished game is a proven win (`WIN - ply`), loss or draw (0); a horizon
/// position gets the game's heuristic ([`super::Heuristic`]).
pub struct Playing;

impl<G: super::Heuristic> Scoring<G> for Playing {
    const SAME_DRAFT_ONLY: bool = false;
    #[inline]
    fn terminal(p: &G, ply: usize) -> Score {
        proven(p.evaluate(), ply)
    }
    #[inline]
    fn horizon(p: &G) -> Score {
        p.heuristic().clamp(-HEURISTIC_MAX, HEURISTIC_MAX)
    }
    #[inline]
    fn known(p: &G, ply: usize) -> Option<Score> {
        p.proven_value().map(|v| proven(v, ply))
    }
    /// The game's value of a repetition (a draw by default): a line that comes back is not
    /// searched round again.
    #[inline]
    fn repetition(p: &G, ply: usize) -> Option<Score> {
        Some(proven(p.repetition_value(), ply))
    }
    #[inline]
    fn to_table(s: Score, ply: usize) -> Score {
        // Proven scores are stored as the distance from this node, not from the root.
        shift_proven(s, ply as Score)
    }
    #[inline]
    fn from_table(s: Score, ply: usize) -> Score {
        shift_proven(s, -(ply as Score))
    }
}

/// A game's value `v` (MAX's view), proven `ply` moves from the root, as the engine scores it:
/// a win `WIN - ply`, a loss `-(WIN - ply)`, a draw 0.
#[inline]
fn proven(v: Score, ply: usize) -> Score {
    let ply = ply as Score;
    match v.signum() {
        1 => WIN - ply,
        -1 => -(WIN - ply),
        _ => 0,
    }
}

/// Moves a proven score `plies` further from its win or loss (back towards it when negative);
/// heuristic scores stay as they are.
#[inline]
fn shift_proven(s: Score, plies: Score) -> Score {
    if s >= PROVEN {
        s + plies
    } else if s <= -PROVEN {
        s - plies
    } else {
        s
    }
}

/// One search's state: the table (borrowed, kept between searches), counters, budget, move
/// ordering memory, the moves of every ply in one reused stack, the triangular PV, the observer.
pub(crate) struct Searcher<'t, G: Game, T: Table, O = NoObserver> {
    pub(crate) tt: &'t mut T,
    pub(crate) order: &'t mut MoveOrder<G::Move>,
    pub(crate) stats: Stats,
    pub(crate) budget: Budget,
    /// Moves with their index in generation order: what a path key is made of, so it must not
    /// saturate (a whole turn of Kalah can be one of hundreds of moves), and what the table
    /// stores as the best move where it fits in a byte.
    move_stack: Vec<(G::Move, u32)>,
    pv: Vec<Vec<G::Move>>,
    /// At the root: the best move among those searched to the end in this pass, with its value
    /// (a lower bound, or exact) — what a stopped iteration can still report.
    pub(crate) root_best: Option<(G::Move, Score)>,
    /// With [`Game::REPEATS`] and position keys: the keys of the positions on the line being
    /// searched, the root first.
    line: Vec<u64>,
    /// Leaves at the horizon (not a finished game) and table entries that rest on one, met so
    /// far: a node below which none was met has its exact game value (stored as such, valid at
    /// any depth), and an iteration that met none cannot be changed by a deeper one.
    pub(crate) horizon_hits: u64,
    obs: O,
    /// The move to the child about to be entered; `quiet` silences the observer (the PV
    /// extraction, which the statistics do not count either).
    pending: Option<G::Move>,
    quiet: bool,
}

impl<'t, G: Game, T: Table> Searcher<'t, G, T> {
    pub(crate) fn new(tt: &'t mut T, order: &'t mut MoveOrder<G::Move>, budget: Budget) -> Self {
        Searcher::with_observer(tt, order, budget, NoObserver)
    }
}

impl<'t, G: Game, T: Table, O: Observer<G::Move>> Searcher<'t, G, T, O> {
    pub(crate) fn with_observer(
        tt: &'t mut T,
        order: &'t mut MoveOrder<G::Move>,
        budget: Budget,
        obs: O,
    ) -> Self {
        Searcher {
            tt,
            order,
            stats: Stats::default(),
            budget,
            move_stack: Vec::with_capacity(256),
            line: Vec::new(),
            pv: Vec::new(),
            root_best: None,
            horizon_hits: 0,
            obs,
            pending: None,
            quiet: false,
        }
    }

    /// Reports `event` (built only when an observer listens).
    #[inline(always)]
    fn emit(&mut self, event: impl FnOnce() -> Event<G::Move>) {
        if O::ACTIVE && !self.quiet && !self.budget.stopped {
            self.obs.event(event());
        }
    }

    /// The next node searched is the child reached by `mv`.
    #[inline(always)]
    fn descend(&mut self, mv: G::Move) {
        if O::ACTIVE {
            self.pending = Some(mv);
        }
    }

    /// The principal variation of the last full-window search from the root.
    pub(crate) fn pv(&self) -> &[G::Move] {
        self.pv.first().map_or(&[], |v| v.as_slice())
    }

    /// The node search: fail-soft PVS, `depth` plies to go, `ply` from the root, values in the
    /// side to move's view. Returns a true bound when it fails (`<= alpha` or `>= beta`).
    pub(crate) fn node<K: Keys<G>, S: Scoring<G>>(
        &mut self,
        p: &G,
        key: u64,
        alpha: Score,
        beta: Score,
        depth: u32,
        ply: usize,
    ) -> Score {
        let me = p.to_move();
        let mv = if O::ACTIVE { self.pending.take() } else { None };
        self.emit(|| Event::Enter {
            mv,
            window: Window::negamax(me, alpha, beta),
        });
        let t = self.node_body::<K, S>(p, key, alpha, beta, depth, ply);
        self.emit(|| {
            let (value, bound) = Bound::negamax(me, t, alpha, beta);
            Event::Exit { value, bound }
        });
        t
    }

    fn node_body<K: Keys<G>, S: Scoring<G>>(
        &mut self,
        p: &G,
        key: u64,
        mut alpha: Score,
        mut beta: Score,
        depth: u32,
        ply: usize,
    ) -> Score {
        if self.pv.len() <= ply + 1 {
            self.pv.resize_with(ply + 2, Vec::new);
        }
        self.pv[ply].clear();
        // 1. Budget.
        if self.budget.exhausted(self.stats.nodes()) {
            return 0; // unwinding: the value is never used
        }
        let me = p.to_move();
        let sign = me.sign();
        // 2. Leaves: below the root, a position whose value is known without a search (an
        //    endgame database's); a finished game, or the horizon (where only whether a move
        //    exists matters: no moves are generated — nor even that, where both score alike).
        if ply > 0 {
            if let Some(v) = S::known(p, ply) {
                self.stats.leaves += 1;
                self.emit(|| Event::Leaf { value: v });
                return sign * v;
            }
        }
        //    A position met again on this line, where the scoring values a repetition: a leaf.
        //    Its value is the line's, not the position's, so like a horizon it keeps what rests
        //    on it out of the table's exact entries (the table may still hold it as a bound of
        //    its depth, as engines do).
        let repeats = G::REPEATS && K::BY_POSITION;
        if repeats && ply > 0 && self.line.contains(&key) {
            if let Some(v) = S::repetition(p, ply) {
                self.stats.leaves += 1;
                self.horizon_hits += 1;
                self.emit(|| Event::Leaf { value: v });
                return sign * v;
            }
        }
        if depth == 0 && (S::HORIZON_AS_TERMINAL || p.moves().next().is_some()) {
            self.stats.leaves += 1;
            self.horizon_hits += 1;
            let h = S::horizon(p);
            self.emit(|| Event::Leaf { value: h });
            return sign * h;
        }
        let base = self.move_stack.len();
        self.move_stack
            .extend(p.moves().enumerate().map(|(i, m)| (m, i as u32)));
        let n = self.move_stack.len() - base;
        if n == 0 {
            self.stats.leaves += 1;
            let v = S::terminal(p, ply);
            self.emit(|| Event::Leaf { value: v });
            return sign * v;
        }
        self.stats.interior += 1;
        // 3. The table: bounds that settle the node or narrow the window (below the root); its
        //    best move.
        let draft = depth.min(254) as u8;
        let horizon_before = self.horizon_hits;
        let mut table_move = None;
        if let Some(e) = self.tt.probe(key) {
            let exact = e.draft == DRAFT_EXACT;
            let usable = exact
                || if S::SAME_DRAFT_ONLY {
                    e.draft == draft
                } else {
                    e.draft >= draft
                };
            // Not at the root: a bound from the table would settle (or narrow) the root's value
            // without saying which move reaches it.
            if usable && ply > 0 {
                let lower = if e.lower == -INF {
                    -INF
                } else {
                    S::from_table(e.lower, ply)
                };
                let upper = if e.upper == INF {
                    INF
                } else {
                    S::from_table(e.upper, ply)
                };
                if !exact {
                    // Whatever it settles rests on some horizon.
                    self.horizon_hits += 1;
                }
                if lower >= beta || upper <= alpha || lower == upper {
                    self.stats.tt_hits += 1;
                    self.move_stack.truncate(base);
                    let t = if upper <= alpha { upper } else { lower };
                    self.emit(|| {
                        let bound = if lower == upper {
                            Bound::Exact
                        } else if upper <= alpha {
                            Bound::Upper
                        } else {
                            Bound::Lower
                        };
                        let (value, bound) = match me {
                            crate::Player::Max => (t, bound),
                            crate::Player::Min => (-t, bound.flip()),
                        };
                        Event::TableHit { value, bound }
                    });
                    return t;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            if e.best != NO_MOVE && usize::from(e.best) < n {
                table_move = Some(self.move_stack[base + e.best as usize].0);
            }
        }
        // 4. Move order: the table's move, the killers, then by history.
        self.order
            .sort(&mut self.move_stack[base..], table_move, ply, me);
        // 5. The children: the first with the full window, the others with a null window,
        //    re-searched when they fail high inside it.
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_index = self.move_stack[base].1;
        if repeats {
            self.line.push(key);
        }
        for i in 0..n {
            let (mv, index) = self.move_stack[base + i];
            let child = p.play(mv);
            let child_key = K::child(key, &child, index as usize);
            let same = child.to_move() == me;
            let floor = alpha.max(best);
            self.descend(mv);
            let t = if i == 0 || floor + 1 >= beta {
                // The first child, or any child inside a null window: one search.
                relative(same, floor, beta, |a, b| {
                    self.node::<K, S>(&child, child_key, a, b, depth - 1, ply + 1)
                })
            } else {
                self.stats.tests += 1;
                let t = relative(same, floor, floor + 1, |a, b| {
                    self.node::<K, S>(&child, child_key, a, b, depth - 1, ply + 1)
                });
                if t > floor && t < beta && !self.budget.stopped {
                    self.stats.re_searches += 1;
                    self.emit(|| Event::ReSearch);
                    self.descend(mv);
                    relative(same, t, beta, |a, b| {
                        self.node::<K, S>(&child, child_key, a, b, depth - 1, ply + 1)
                    })
                } else {
                    t
                }
            };
            if self.budget.stopped {
                self.move_stack.truncate(base);
                if repeats {
                    self.line.pop();
                }
                return best.max(-INF + 1);
            }
            if ply == 0 && (t > best || self.root_best.is_none()) {
                self.root_best = Some((mv, t));
            }
            if t > best {
                best = t;
                best_index = index;
                if t > alpha {
                    // Exact inside the window: this move and the child's line.
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                }
            }
            if best >= beta {
                self.order.cutoff(mv, ply, me, depth);
                if O::ACTIVE && i + 1 < n {
                    let pruned = self.move_stack[base + i + 1..base + n]
                        .iter()
                        .map(|&(m, _)| m)
                        .collect();
                    self.emit(|| Event::Cutoff { pruned });
                }
                break;
            }
        }
        self.move_stack.truncate(base);
        if repeats {
            self.line.pop();
        }
        // 6. Store the result with its kind of bound.
        let (lower, upper) = if best <= alpha0 {
            (-INF, S::to_table(best, ply))
        } else if best >= beta {
            (S::to_table(best, ply), INF)
        } else {
            let v = S::to_table(best, ply);
            (v, v)
        };
        // No horizon below: the game's own value, true at every depth (where that is enough).
        let draft = if S::EXACT_ENTRIES && self.horizon_hits == horizon_before {
            DRAFT_EXACT
        } else {
            draft
        };
        let best_move = u8::try_from(best_index).unwrap_or(NO_MOVE); // index 255 reads as none
        self.tt.store(key, lower, upper, best_move, draft);
        best
    }

    /// MTD(f) (Plaat et al. 1996): null-window searches from the guess `g` until the bounds
    /// meet; the value in the root mover's view. Each pass is one test.
    pub(crate) fn mtdf<K: Keys<G>, S: Scoring<G>>(
        &mut self,
        root: &G,
        g: Score,
        depth: u32,
    ) -> Score {
        let key = K::root(root);
        let (mut lo, mut hi) = (-INF, INF);
        let mut g = g.clamp(-INF + 1, INF - 1);
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            self.stats.tests += 1;
            self.root_best = None;
            let t = self.node::<K, S>(root, key, beta - 1, beta, depth, 0);
            if self.budget.stopped {
                break;
            }
            if t < beta {
                hi = t;
            } else {
                lo = t;
            }
            g = t;
        }
        g
    }

    /// A principal variation for the value `v` (root mover's view) after MTD(f): at each node the
    /// first child (table move first) whose value reaches the node's, found with one null-window
    /// test each — mostly table hits. Its nodes are not counted in the statistics.
    pub(crate) fn pv_by_tests<K: Keys<G>, S: Scoring<G>>(
        &mut self,
        root: &G,
        mut v: Score,
        depth: u32,
    ) -> Vec<G::Move> {
        let saved = self.stats;
        self.quiet = true;
        let mut line = Vec::new();
        let mut p = root.clone();
        let mut key = K::root(root);
        for d in (1..=depth).rev() {
            let moves: Vec<G::Move> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            let first = self
                .tt
                .probe(key)
                .filter(|e| e.best != NO_MOVE)
                .and_then(|e| moves.get(usize::from(e.best)).copied());
            let order = first
                .into_iter()
                .chain(moves.iter().copied().filter(|&m| Some(m) != first));
            let me = p.to_move();
            let mut next = None;
            for mv in order {
                let child = p.play(mv);
                let index = moves.iter().position(|&m| m == mv).unwrap_or(0);
                let ck = K::child(key, &child, index);
                let same = child.to_move() == me;
                let t = relative(same, v - 1, v, |a, b| {
                    self.node::<K, S>(&child, ck, a, b, d - 1, line.len() + 1)
                });
                if self.budget.stopped {
                    self.stats = saved;
                    self.quiet = false;
                    return line;
                }
                if t >= v {
                    let child_v = if same { v } else { -v };
                    next = Some((mv, child, ck, child_v));
                    break;
                }
            }
            match next {
                Some((mv, child, ck, child_v)) => {
                    line.push(mv);
                    p = child;
                    key = ck;
                    v = child_v;
                }
                None => break,
            }
        }
        self.stats = saved;
        self.quiet = false;
        line
    }
}
