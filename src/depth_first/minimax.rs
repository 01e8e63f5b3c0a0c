//! Plain minimax: every node of the depth-limited tree, in mini-max form. The oracle every
//! other algorithm is tested against (a horizon makes a finite tree of any game: see [`crate::Game`]).

use super::Ctx;
use crate::game::{Game, Player, Score, INF};
use crate::observe::Observer;

/// The minimax value of `p` searched to `depth`, from MAX's point of view.
pub(crate) fn minimax<G: Game, O: Observer<G::Move>>(
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
        let maximise = p.to_move() == Player::Max;
        let mut best = if maximise { -INF } else { INF };
        for m in moves {
            ctx.descend(m);
            let v = minimax(ctx, &p.play(m), depth - 1, ply + 1);
            if ctx.stopped() {
                return best;
            }
            if (maximise && v > best) || (!maximise && v < best) {
                best = v;
                ctx.set_pv(ply, m, v);
            }
        }
        best
    })
}
