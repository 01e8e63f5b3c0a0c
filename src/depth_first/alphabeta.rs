//! Alpha-beta in nega-max form: fail-hard (F2) and fail-soft (F3), as in Hsu, *Scout and NegaScout* ("Alpha-beta
//! revisited": "the above argument works for … general fail hard (F2) and general fail soft (F3)").
//!
//! Values are from the side to move's view (`h(p)` of Hsu, *Scout, NegaScout and PN search*); a child's value is negated only
//! when the side to move changes.

use super::Ctx;
use crate::game::relative;
use crate::game::{Game, Score, INF};
use crate::observe::Observer;

/// F3, fail-soft: the result `t` of a search with window `(alpha, beta)` satisfies
/// `t <= alpha ⇒ V <= t`, `t >= beta ⇒ V >= t`, and `alpha < t < beta ⇒ V = t`.
pub(crate) fn fail_soft<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    alpha: Score,
    beta: Score,
    depth: u32,
    ply: usize,
) -> Score {
    ctx.negamax_node(p.to_move(), alpha, beta, |ctx| {
        let mut moves = p.moves().peekable();
        if depth == 0 || moves.peek().is_none() {
            return p.to_move().sign() * ctx.leaf(p, ply);
        }
        if ctx.interior(ply) {
            return 0; // unwinding after a stop: the value is unused
        }
        let me = p.to_move();
        let mut m = -INF;
        for mv in moves.by_ref() {
            let child = p.play(mv);
            let same = child.to_move() == me;
            ctx.descend(mv);
            let t = relative(same, alpha.max(m), beta, |a, b| {
                fail_soft(ctx, &child, a, b, depth - 1, ply + 1)
            });
            if ctx.stopped() {
                return m;
            }
            if t > m {
                m = t;
                ctx.set_pv(ply, mv, t);
            }
            if m >= beta {
                break; // beta cut-off
            }
        }
        ctx.cutoff(moves);
        m
    })
}

/// F2, fail-hard: the result is clamped to `[alpha, beta]`.
pub(crate) fn fail_hard<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    alpha: Score,
    beta: Score,
    depth: u32,
    ply: usize,
) -> Score {
    ctx.negamax_node(p.to_move(), alpha, beta, |ctx| {
        let mut alpha = alpha;
        let mut moves = p.moves().peekable();
        if depth == 0 || moves.peek().is_none() {
            let h = p.to_move().sign() * ctx.leaf(p, ply);
            return h.clamp(alpha, beta);
        }
        if ctx.interior(ply) {
            return 0; // unwinding after a stop: the value is unused
        }
        let me = p.to_move();
        while let Some(mv) = moves.next() {
            let child = p.play(mv);
            let same = child.to_move() == me;
            ctx.descend(mv);
            let t = relative(same, alpha, beta, |a, b| {
                fail_hard(ctx, &child, a, b, depth - 1, ply + 1)
            });
            if ctx.stopped() {
                return alpha;
            }
            if t >= beta {
                ctx.cutoff(moves);
                return beta; // beta cut-off
            }
            if t > alpha {
                alpha = t;
                ctx.set_pv(ply, mv, t);
            }
        }
        alpha
    })
}

/// A plain null-window search `(m, m + 1)` with F3. Its answer is TEST(p, m, >) (Hsu, *Scout and NegaScout*,
/// "Alpha-beta revisited"): the result `t` satisfies `t > m ⇔ V(p) > m`, and `t` is a true bound
/// (`V >= t` when it fails high, `V <= t` when it fails low). `m` and the result are from MAX's
/// point of view.
///
/// ```
/// use gamesearch::{depth_first::alphabeta::null_window, trees::ExplicitTree, Limits};
/// let tree = ExplicitTree::parse("(A max (B min D=7 E=4) (C min F=2 G=3))").unwrap();
/// let (t, _stats) = null_window(&tree.root(), 3, 10, &Limits::none());
/// assert!(t.unwrap() > 3); // V(A) = 4 > 3
/// let (t, _stats) = null_window(&tree.root(), 4, 10, &Limits::none());
/// assert!(t.unwrap() <= 4); // V(A) = 4 is not > 4
/// ```
pub fn null_window<G: Game>(
    p: &G,
    m: Score,
    depth: u32,
    limits: &crate::Limits,
) -> (Option<Score>, crate::Stats) {
    let mut cfg = super::SearchConfig::new(depth);
    cfg.limits = limits.clone();
    let mut ctx = Ctx::new(p, &cfg);
    ctx.stats.tests += 1;
    let t = relative(p.to_move() == crate::Player::Max, m, m + 1, |a, b| {
        fail_soft(&mut ctx, p, a, b, depth, 0)
    });
    let stopped = ctx.stopped();
    (if stopped { None } else { Some(t) }, ctx.stats)
}
