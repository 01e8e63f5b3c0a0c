"""Monte-Carlo tree search playouts a second: gamesearch against OpenSpiel's `MCTSBot`.

From the empty Connect-Four 7x6 board, each searcher runs UCT with random playouts to the end of
the game (exploration constant sqrt(2), one rollout a leaf, one thread) for the same number of
playouts, and the playouts a second are compared:

- gamesearch on the Connect-Four of python/examples/connect4_in_python.py, a game written in
  Python and played out through the game protocol (its own `moves()` and `play()`);
- gamesearch on its shipped `connect4:7x6` (Rust, for scale);
- OpenSpiel's `MCTSBot` (Python) with a `RandomRolloutEvaluator` on OpenSpiel's own
  `connect_four` (C++ states through pybind11) — how OpenSpiel's MCTS is used from Python.

Rounds alternate the searchers; the medians are printed with the seed. With `--match N`, then a
match through `gamesearch.match` (N openings of 2 random plies, each played twice, an SPRT
(0, 50) stopping it): gamesearch's UCT on its shipped Connect-Four against OpenSpiel's
`MCTSBot` — a player of another library — at equal time a move, OpenSpiel's simulations a move
set from its rate measured above.

    python python/benchmarks/mcts_peers.py [--playouts 20000] [--rounds 3] [--seed 1] [--match 20 --time 0.05]

The peer is optional: `pip install open_spiel`.
"""

import argparse
import math
import os
import statistics
import sys
import time

import gamesearch as gs

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
from connect4_in_python import Connect4  # noqa: E402


def ours(game, playouts, seed):
    t = time.perf_counter()
    r = gs.search(game, algo="mcts", max_nodes=playouts, seed=seed)
    secs = time.perf_counter() - t
    assert r.stats.leaves == playouts, r.stats
    return secs


def openspiel(playouts, seed):
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=math.sqrt(2),
        max_simulations=playouts,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        solve=False,
        random_state=rng,
    )
    state = game.new_initial_state()
    t = time.perf_counter()
    bot.step(state)
    return time.perf_counter() - t


def openspiel_player(simulations, seed):
    """OpenSpiel's MCTSBot as a gamesearch match player: the position replayed from the game's
    history (Connect-Four columns 1-7 are OpenSpiel's actions 0-6)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("connect_four")
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, uct_c=math.sqrt(2), max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       solve=False, random_state=rng)

    def play(g):
        state = game.new_initial_state()
        for m in g.history:
            state.apply_action(int(m) - 1)
        return str(bot.step(state) + 1)

    return play


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--playouts", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--match", type=int, default=0, help="openings of a match against MCTSBot (0: none)")
    ap.add_argument("--time", type=float, default=0.05, help="seconds a move in the match")
    a = ap.parse_args()
    try:
        import pyspiel  # noqa: F401

        have_peer = True
    except ImportError:
        have_peer = False
        print("OpenSpiel is not installed (pip install open_spiel): measuring gamesearch alone")
    runs = [
        ("gamesearch, Connect-Four written in Python", lambda: ours(Connect4(), a.playouts, a.seed)),
        ("gamesearch, connect4:7x6 (Rust)", lambda: ours("connect4:7x6", a.playouts, a.seed)),
    ]
    if have_peer:
        runs.append(("OpenSpiel MCTSBot, its connect_four", lambda: openspiel(a.playouts, a.seed)))
    times = {name: [] for name, _ in runs}
    for _ in range(a.rounds):
        for name, run in runs:
            times[name].append(run())
    print(f"UCT from the empty 7x6 board, {a.playouts} playouts to the end, C = sqrt(2), one thread, "
          f"seed {a.seed}, medians of {a.rounds} rounds")
    print("| searcher | seconds | playouts/s |")
    print("|---|---:|---:|")
    medians = {name: statistics.median(t) for name, t in times.items()}
    for name, secs in medians.items():
        print(f"| {name} | {secs:.3f} | {a.playouts / secs:,.0f} |")
    if have_peer:
        ratio = medians["OpenSpiel MCTSBot, its connect_four"] / medians["gamesearch, Connect-Four written in Python"]
        print(f"gamesearch on the Python game / OpenSpiel: {ratio:.2f}x the playouts a second")
    if have_peer and a.match:
        sims = max(1, round(a.playouts / medians["OpenSpiel MCTSBot, its connect_four"] * a.time))
        ours_player = gs.engine_player(time=a.time, driver="mcts", seed=a.seed)
        r = gs.match("connect4:7x6", ours_player, openspiel_player(sims, a.seed), openings=a.match,
                     seed=a.seed, sprt=(0, 50))
        print(f"match, Connect-Four 7x6, {a.time} s a move (OpenSpiel: {sims} simulations a move), "
              f"{a.match} openings at most, seed {a.seed}: gamesearch UCT wins {r.wins}, draws {r.draws}, "
              f"loses {r.losses}; score {r.score:.3f}, Elo {r.elo:+.0f} [{r.elo_ci95[0]:+.0f}, {r.elo_ci95[1]:+.0f}], "
              f"SPRT(0, 50) LLR {r.llr:.2f}: {r.verdict}")


if __name__ == "__main__":
    main()
