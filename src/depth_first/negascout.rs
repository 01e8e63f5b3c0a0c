//! NegaScout (Reinefeld 1983), in the two forms of Hsu's lectures: nega-max F4 and mini-max
//! F4'/G4'. Both are fail-soft, search the first successor with the full window and every later
//! one with a null window, and re-search on a fail-high.
//!
//! Three points where the code differs from the slides' text, all for soundness:
//! - **Turns that do not alternate.** The `depth < 3` refinement (line 11) trusts a null-window
//!   fail-high as exact because, two plies from the horizon, the opponent's node below can only
//!   fail high by looking at all its leaves. That holds when the child is a leaf or the opponent
//!   moves there; when the same side moves again the child may have cut off, so the re-search is
//!   kept. With alternating turns this is exactly the slides' rule.
//! - **F4 line 10** reads `t > m`. When `alpha > m` a null-window result with `m < t <= alpha`
//!   is a fail-*low* (an upper bound), and re-searching it with `(t, beta)` may return a bound
//!   below a sibling's, breaking the fail-soft contract. We re-search only on a true fail-high,
//!   `t > max(alpha, m)`, as Reinefeld's own code does (`t > a`, Reinefeld 1983); otherwise `m := t`.
//! - **F4'/G4' line 9** null-window at `(m, m + 1)` (resp. `(m - 1, m)`), ignoring `alpha`
//!   (`beta`). Inside a null-window subtree that tests the wrong value: after a first child below
//!   `alpha`, later children are asked "better than m?" instead of "better than alpha?", fail
//!   high for nothing and get re-searched (measured: 2.8x alpha-beta's leaves on
//!   `random:b=8,h=8,seed=1`). We centre the null window on `max(alpha, m)` (`min(beta, m)`),
//!   as F4's line 9 does in the same lecture, so the two forms search the same tree.

use super::Ctx;
use crate::game::relative;
use crate::game::{Game, Player, Score, INF};
use crate::observe::{Bound, Event, Observer, Window};

/// Whether a null-window fail-high from `child`, searched from a node at `depth` whose mover is
/// `me`, is exact without a re-search (Hsu, *Scout and NegaScout*, line 11, `depth < 3`; see the module doc).
#[inline]
fn shallow_exact<G: Game, O: Observer<G::Move>>(
    ctx: &Ctx<G::Move, O>,
    child: &G,
    me: Player,
    depth: u32,
) -> bool {
    ctx.shallow_refinement && depth < 3 && (depth == 1 || child.to_move() != me)
}

/// Algorithm F4 (Hsu, *Scout and NegaScout*, "The NegaScout Algorithm"), nega-max form; values from the side to
/// move's view. Line numbers in comments are the slide's.
pub(crate) fn f4<G: Game, O: Observer<G::Move>>(
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
            return p.to_move().sign() * ctx.leaf(p, ply); // h(p)
        }
        if ctx.interior(ply) {
            return 0; // unwinding after a stop: the value is unused
        }
        let me = p.to_move();
        let max_possible = ctx.max_possible(me.sign());
        let mut m = -INF; // the current lower bound; fail soft
        let mut n = beta; // the current upper bound
        while let Some(mv) = moves.next() {
            let child = p.play(mv);
            let same = child.to_move() == me;
            let lo = alpha.max(m);
            if n != beta && beta - alpha > 1 {
                ctx.stats.tests += 1; // a null-window search (n = max(alpha, m) + 1)
            }
            // 9: t := -F4(p_i, -n, -max{alpha, m}, depth - 1)
            ctx.descend(mv);
            let t = relative(same, lo, n, |a, b| {
                f4(ctx, &child, a, b, depth - 1, ply + 1)
            });
            if ctx.stopped() {
                return m;
            }
            if t > m {
                // 10
                if n == beta || t >= beta || t <= lo || shallow_exact(ctx, &child, me, depth) {
                    m = t; // 12
                } else {
                    // 13: re-search with (t, beta)
                    ctx.re_search();
                    ctx.descend(mv);
                    let r = relative(same, t, beta, |a, b| {
                        f4(ctx, &child, a, b, depth - 1, ply + 1)
                    });
                    if ctx.stopped() {
                        return m;
                    }
                    m = r;
                }
                ctx.set_pv(ply, mv, m);
            }
            if m >= max_possible || m >= beta {
                ctx.cutoff(moves);
                return m; // 14: cut off
            }
            n = alpha.max(m) + 1; // 15: set up a null window
        }
        m
    })
}

/// Dispatches to F4' at a MAX node and G4' at a MIN node (values from MAX's view).
pub(crate) fn minimax_form<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    alpha: Score,
    beta: Score,
    depth: u32,
    ply: usize,
) -> Score {
    ctx.observed(
        || Window::Range { alpha, beta },
        |ctx| match p.to_move() {
            Player::Max => f4_prime(ctx, p, alpha, beta, depth, ply),
            Player::Min => g4_prime(ctx, p, alpha, beta, depth, ply),
        },
        |t| Event::Exit {
            value: t,
            bound: Bound::of(t, alpha, beta),
        },
    )
}

/// Algorithm F4' (Hsu, *Scout and NegaScout*, "The NegaScout Algorithm – Mini-Max (1/2)"), a MAX node.
fn f4_prime<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    alpha: Score,
    beta: Score,
    depth: u32,
    ply: usize,
) -> Score {
    let mut moves = p.moves().peekable();
    if depth == 0 || moves.peek().is_none() {
        return ctx.leaf(p, ply);
    }
    if ctx.interior(ply) {
        return 0; // unwinding after a stop: the value is unused
    }
    let max_possible = ctx.max_possible(1);
    let first = moves.next().expect("peeked");
    // m := max{-inf, G4'(p_1, alpha, beta, depth - 1)}: the first branch
    ctx.descend(first);
    let mut m = minimax_form(ctx, &p.play(first), alpha, beta, depth - 1, ply + 1);
    if ctx.stopped() {
        return m;
    }
    ctx.set_pv(ply, first, m);
    if m >= beta {
        ctx.cutoff(moves);
        return m; // beta cut off
    }
    while let Some(mv) = moves.next() {
        let child = p.play(mv);
        let lo = alpha.max(m);
        if beta - alpha > 1 {
            ctx.stats.tests += 1;
        }
        ctx.descend(mv);
        let t = minimax_form(ctx, &child, lo, lo + 1, depth - 1, ply + 1); // 9: null window
        if ctx.stopped() {
            return m;
        }
        if t > m {
            // 10: failed high (t > lo), or a fail-low that still improves the bound
            if t <= lo || shallow_exact(ctx, &child, Player::Max, depth) || t >= beta {
                m = t; // 12
            } else {
                ctx.re_search();
                ctx.descend(mv);
                let r = minimax_form(ctx, &child, t, beta, depth - 1, ply + 1); // 13: re-search
                if ctx.stopped() {
                    return m;
                }
                m = r;
            }
            ctx.set_pv(ply, mv, m);
        }
        if m >= max_possible || m >= beta {
            ctx.cutoff(moves);
            return m; // 14: beta cut off
        }
    }
    m
}

/// Algorithm G4' (Hsu, *Scout and NegaScout*, "The NegaScout Algorithm – Mini-Max (2/2)"), a MIN node.
fn g4_prime<G: Game, O: Observer<G::Move>>(
    ctx: &mut Ctx<G::Move, O>,
    p: &G,
    alpha: Score,
    beta: Score,
    depth: u32,
    ply: usize,
) -> Score {
    let mut moves = p.moves().peekable();
    if depth == 0 || moves.peek().is_none() {
        return ctx.leaf(p, ply);
    }
    if ctx.interior(ply) {
        return 0; // unwinding after a stop: the value is unused
    }
    let min_possible = -ctx.max_possible(-1);
    let first = moves.next().expect("peeked");
    // m := min{inf, F4'(p_1, alpha, beta, depth - 1)}: the first branch
    ctx.descend(first);
    let mut m = minimax_form(ctx, &p.play(first), alpha, beta, depth - 1, ply + 1);
    if ctx.stopped() {
        return m;
    }
    ctx.set_pv(ply, first, m);
    if m <= alpha {
        ctx.cutoff(moves);
        return m; // alpha cut off
    }
    while let Some(mv) = moves.next() {
        let child = p.play(mv);
        let hi = beta.min(m);
        if beta - alpha > 1 {
            ctx.stats.tests += 1;
        }
        ctx.descend(mv);
        let t = minimax_form(ctx, &child, hi - 1, hi, depth - 1, ply + 1); // 9: null window
        if ctx.stopped() {
            return m;
        }
        if t < m {
            // 10: failed low (t < hi), or a fail-high that still improves the bound
            if t >= hi || shallow_exact(ctx, &child, Player::Min, depth) || t <= alpha {
                m = t; // 12
            } else {
                ctx.re_search();
                ctx.descend(mv);
                let r = minimax_form(ctx, &child, alpha, t, depth - 1, ply + 1); // 13: re-search
                if ctx.stopped() {
                    return m;
                }
                m = r;
            }
            ctx.set_pv(ply, mv, m);
        }
        if m <= min_possible || m <= alpha {
            ctx.cutoff(moves);
            return m; // 14: alpha cut off
        }
    }
    m
}
