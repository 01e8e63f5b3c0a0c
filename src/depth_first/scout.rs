//! Pearl's SCOUT (Pearl 1980, section II; Hsu's lectures, "How to TEST", "Main SCOUT procedure").
//!
//! EVAL evaluates the first successor exactly, then *scouts* each later successor with TEST: at a
//! MAX node `S_k` is exempted unless `V(S_k) > v`; at a MIN node exempted unless `V(S_k) < v`
//! (that is, `V(S_k) >= v` exempts). A successor that passes is evaluated exactly (a
//! re-search) and its value becomes `v`. Values are from MAX's point of view throughout.

use super::{Ctx, SearchConfig};
use crate::game::{Game, Player, Score};
use crate::limits::Limits;
use crate::observe::{Event, Observer, Window};
use crate::stats::Stats;

pub use crate::observe::Condition;

/// TEST(p, v, cond) to `depth` (Hsu, *Scout, NegaScout and PN search* "How to TEST > v" / "How to TEST < v"): successors are
/// tested left to right and the answer returned as soon as it is known — at a MAX node TRUE on
/// the first successor with `V > v` (for `>`), at a MIN node FALSE on the first with `V <= v`.
pub(crate) fn test_node<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    v: Score,
    cond: Condition,
    depth: u32,
    ply: usize,
) -> bool {
    ctx.observed(
        || Window::Test { v, cond },
        |ctx| {
            let mut moves = p.moves().peekable();
            if depth == 0 || moves.peek().is_none() {
                return cond.holds(ctx.leaf(p, ply), v);
            }
            if ctx.interior(ply) {
                return false; // unwinding after a stop: the value is unused
            }
            // The node succeeds as soon as one successor does ("any") or fails as soon as one fails.
            let any = cond.upward() == (p.to_move() == Player::Max);
            while let Some(m) = moves.next() {
                ctx.descend(m);
                let r = test_node(ctx, &p.play(m), v, cond, depth - 1, ply + 1);
                if ctx.stopped() {
                    return false;
                }
                if r == any {
                    ctx.cutoff(moves);
                    return any;
                }
            }
            !any
        },
        |holds| Event::Tested { holds },
    )
}

/// EVAL(p) to `depth` (Pearl 1980 "Procedure: EVAL"; Hsu, *Scout, NegaScout and PN search* "Main SCOUT procedure").
pub(crate) fn eval<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    depth: u32,
    ply: usize,
) -> Score {
    ctx.exact_node(|ctx| {
        let mut moves = p.moves().peekable();
        if depth == 0 || moves.peek().is_none() {
            return ctx.leaf(p, ply);
        }
        if ctx.interior(ply) {
            return 0; // unwinding after a stop: the value is unused
        }
        let cond = match p.to_move() {
            Player::Max => Condition::Gt,
            Player::Min => Condition::Lt,
        };
        let first = moves.next().expect("peeked");
        ctx.descend(first);
        let mut v = eval(ctx, &p.play(first), depth - 1, ply + 1); // SCOUT the first branch
        if ctx.stopped() {
            return v;
        }
        ctx.set_pv(ply, first, v);
        for m in moves {
            let child = p.play(m);
            ctx.stats.tests += 1;
            ctx.descend(m);
            let passes = test_node(ctx, &child, v, cond, depth - 1, ply + 1);
            if ctx.stopped() {
                return v;
            }
            if passes {
                ctx.re_search();
                ctx.descend(m);
                let value = eval(ctx, &child, depth - 1, ply + 1);
                if ctx.stopped() {
                    return v;
                }
                v = value;
                ctx.set_pv(ply, m, v);
            }
        }
        v
    })
}

/// The answer of a standalone TEST: `Some(true/false)`, or `None` when a budget stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TestOutcome {
    /// Whether `V(p) cond v` holds (None: stopped before an answer).
    pub holds: Option<bool>,
    /// What the test did.
    pub stats: Stats,
}

/// TEST(p, v, cond) on its own, to `depth`, within `limits`.
///
/// ```
/// use gamesearch::depth_first::scout::{test, Condition};
/// use gamesearch::{trees::ExplicitTree, Limits};
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let r = test(&tree.root(), 4, Condition::Ge, 10, &Limits::none());
/// assert_eq!(r.holds, Some(true));
/// let r = test(&tree.root(), 4, Condition::Gt, 10, &Limits::none());
/// assert_eq!(r.holds, Some(false));
/// ```
pub fn test<G: Game>(p: &G, v: Score, cond: Condition, depth: u32, limits: &Limits) -> TestOutcome {
    let mut cfg = SearchConfig::new(depth);
    cfg.limits = limits.clone();
    let mut ctx = Ctx::new(p, &cfg);
    ctx.stats.tests += 1;
    let r = test_node(&mut ctx, p, v, cond, depth, 0);
    TestOutcome {
        holds: if ctx.stopped() { None } else { Some(r) },
        stats: ctx.stats,
    }
}
