//! Principal-variation search (Marsland & Campbell 1982), as the Chess Programming Wiki's NegaScout page contrasts it with NegaScout: the first
//! successor with the full window, later ones with a null window `(alpha, alpha + 1)`, and on a
//! fail-high inside the window a re-search with `(alpha, beta)` — the difference from NegaScout,
//! which re-searches with `(t, beta)`. Fail-soft, nega-max form.

use super::Ctx;
use crate::game::relative;
use crate::game::{Game, Score, INF};
use crate::observe::Observer;

/// PVS from the side to move's view.
pub(crate) fn pvs<G: Game, O: Observer<G::Move>>(
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
        let mut best = -INF;
        for (i, mv) in moves.by_ref().enumerate() {
            let child = p.play(mv);
            let same = child.to_move() == me;
            let a = alpha.max(best);
            ctx.descend(mv);
            let t = if i == 0 {
                relative(same, alpha, beta, |x, y| {
                    pvs(ctx, &child, x, y, depth - 1, ply + 1)
                })
            } else {
                if beta - alpha > 1 {
                    ctx.stats.tests += 1;
                }
                let t = relative(same, a, a + 1, |x, y| {
                    pvs(ctx, &child, x, y, depth - 1, ply + 1)
                });
                if t > a && t < beta && !ctx.stopped() {
                    ctx.re_search();
                    ctx.descend(mv);
                    relative(same, a, beta, |x, y| {
                        pvs(ctx, &child, x, y, depth - 1, ply + 1)
                    })
                } else {
                    t
                }
            };
            if ctx.stopped() {
                return best;
            }
            if t > best {
                best = t;
                ctx.set_pv(ply, mv, t);
            }
            if best >= beta {
                break;
            }
        }
        ctx.cutoff(moves);
        best
    })
}
