"""Matches between players — gamesearch's engines or any Python callable, such as another
library's bot — on a shipped game, scored as `gamesearch play --match` scores them: seeded random
openings, each played twice with the colours swapped (a *pair*), A's Elo with its 95 % interval
from the pairs, and optionally the sequential probability ratio test engine testers use (the
generalised SPRT on normalised Elo over pentanomial pairs), which stops the match as soon as it
decides.

A *player* is a callable that takes a `Game` (the position, with its `history`) and returns its
move's name; `engine_player()` makes one of gamesearch's engines.

>>> import gamesearch as gs
>>> perfect = gs.engine_player(depth=9)
>>> r = gs.match("tictactoe", perfect, gs.engine_player(depth=1), openings=4, seed=1)
>>> r.wins + r.draws + r.losses, r.losses <= r.wins
(8, True)
"""

import random
from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

from gamesearch import _core
from gamesearch._core import Game, GameSearchError

Player = Callable[[Game], str]

@dataclass(frozen=True)
class MatchResult:
    """A's result against B: games won, drawn and lost, the openings' pairs by A's score in them
    (0, 1/2, 1, 3/2, 2), A's score a game, A's Elo with its 95 % interval, and the SPRT's
    log-likelihood ratio and verdict (`"H1"`, `"H0"` or `"continue"`) when one was asked for."""

    wins: int
    draws: int
    losses: int
    pairs: Tuple[int, int, int, int, int]
    score: float
    elo: float
    elo_ci95: Tuple[float, float]
    llr: Optional[float]
    verdict: Optional[str]
    seed: int


def llr(pairs, elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio for normalised Elo `elo1` against `elo0` over pentanomial
    `pairs`: `n * ln((1 + (t - t0)^2) / (1 + (t - t1)^2))`, computed by the same code as `play
    --match --sprt`.

    >>> llr([2, 10, 40, 60, 30], 0, 10) > 2.94
    True
    >>> llr([10, 40, 80, 40, 10], 0, 10) < 0
    True
    """
    return _core.pentanomial(list(pairs), (float(elo0), float(elo1), 0.05, 0.05))[4]


def engine_player(*, time: Optional[float] = None, depth: Optional[int] = None, driver: str = "pvs", seed: int = 1) -> Player:
    """One of gamesearch's engines as a player: the alpha-beta engine (`driver="pvs"` or
    `"mtdf"`, `time` seconds or to `depth` a move), or Monte-Carlo tree search (`"mcts"`,
    `"mcts-solver"`, `"pn-mcts"`: `time` seconds a move, playouts from `seed`)."""
    from gamesearch import Engine, search

    if driver in ("mcts", "mcts-solver", "pn-mcts"):
        if time is None:
            raise GameSearchError(f"driver={driver} needs a time a move")
        return lambda g: search(g, algo=driver, max_time=time, seed=seed).best_move
    if time is None and depth is None:
        time = 0.1
    return lambda g: Engine(g, time=time, depth=depth, driver=driver).best_move()


def _opening(start: Game, plies: int, rng: random.Random) -> Optional[Game]:
    g = start
    for _ in range(plies):
        moves = g.moves()
        if not moves:
            return None
        g = g.play(rng.choice(moves))
    return None if g.is_over() else g


def match(
    game: Any,
    a: Player,
    b: Player,
    *,
    openings: int = 10,
    opening_plies: int = 2,
    seed: int = 1,
    sprt: Optional[Tuple[float, float]] = None,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> MatchResult:
    """A against B on `game` (a GAME spec or `Game`): `openings` seeded openings of
    `opening_plies` random plies, each played twice with the colours swapped; with `sprt=(elo0,
    elo1)` it stops as soon as the test decides. A player that returns a move that is not legal
    raises `GameSearchError`."""
    start = game if isinstance(game, Game) else Game(game)
    if openings < 1 or opening_plies < 0:
        raise GameSearchError("openings must be at least 1 and opening_plies at least 0")
    rng = random.Random(seed)
    wins = draws = losses = 0
    pairs = [0, 0, 0, 0, 0]
    test = None if sprt is None else (float(sprt[0]), float(sprt[1]), float(alpha), float(beta))
    for _ in range(openings):
        opening = None
        for _ in range(10_000):
            opening = _opening(start, opening_plies, rng)
            if opening is not None:
                break
        if opening is None:
            raise GameSearchError(f"no opening of {opening_plies} random plies leaves the game unfinished: lower opening_plies")
        halves = 0
        for a_first in (True, False):
            g = opening
            while not g.is_over():
                first_to_move = g.to_move() == 1
                player = a if first_to_move == a_first else b
                mv = player(g)
                if mv not in g.moves():
                    raise GameSearchError(f"a player chose {mv!r} in {g.spec}, where the legal moves are {' '.join(g.moves())}")
                g = g.play(mv)
            v = (g.evaluate() > 0) - (g.evaluate() < 0)
            v = v if a_first else -v
            wins, draws, losses = wins + (v > 0), draws + (v == 0), losses + (v < 0)
            halves += v + 1
        pairs[halves] += 1
        if test is not None and _core.pentanomial(pairs, test)[5] != "continue":
            break
    # Score, Elo and its interval, the test: the same code as `play --match`.
    score, elo, lo, hi, ratio, verdict = _core.pentanomial(pairs, test)
    return MatchResult(
        wins=wins,
        draws=draws,
        losses=losses,
        pairs=tuple(pairs),
        score=score,
        elo=elo,
        elo_ci95=(lo, hi),
        llr=ratio,
        verdict=None if verdict is None else {"h1": "H1", "h0": "H0"}.get(verdict, verdict),
        seed=seed,
    )
