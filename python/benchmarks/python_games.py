"""A game written in Python, searched by Python libraries and by gamesearch, side by side.

The Connect-Four of python/examples/connect4_in_python.py (written once) is searched to the same
depth from the same positions by easyAI's `Negamax` with its `TranspositionTable` (through a
thin TwoPlayerGame adapter over the same class), by gamesearch through the game protocol (its
`mtdf` keys its table by the class's `key()`, as easyAI's table does), and
— on OpenSpiel's own `connect_four`, since OpenSpiel searches its own states — by OpenSpiel's
`alpha_beta_search`. Scores are +1/0/-1 (0 also at the horizon), so all three values are equal;
easyAI's nodes are the positions it expands or scores, ours the search's nodes.

    python python/benchmarks/python_games.py [--depth 6] [--positions 10] [--rounds 3]

Peers are optional: `pip install easyAI open_spiel`.
"""

import argparse
import os
import statistics
import sys
import time

import gamesearch as gs

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
from connect4_in_python import Connect4  # noqa: E402

ROOT = os.path.join(HERE, "..", "..")


def ours(positions, depth, algo):
    values, nodes = [], 0
    t = time.perf_counter()
    for moves in positions:
        r = gs.search(Connect4.from_moves(moves), algo=algo, depth=depth)
        values.append(r.value)
        nodes += r.stats.nodes
    return time.perf_counter() - t, values, nodes


def easyai(positions, depth):
    from easyAI import Negamax, TranspositionTable, TwoPlayerGame

    counter = [0]

    class Adapter(TwoPlayerGame):
        """easyAI's view of the same Connect4 class: it mutates, so it keeps a stack."""

        def __init__(self, p):
            self.players = [None, None]
            self.current_player = 1
            self.p, self.stack = p, []

        def possible_moves(self):
            return list(self.p.moves())

        def make_move(self, m):
            counter[0] += 1
            self.stack.append(self.p)
            self.p = self.p.play(m)

        def unmake_move(self, m):
            self.p = self.stack.pop()

        def is_over(self):
            return not self.p.moves()

        def scoring(self):  # the side to move's view
            counter[0] += 1
            return self.p.evaluate() * self.p.to_move()

        def ttentry(self):
            return self.p.key()

    values = []
    t = time.perf_counter()
    for moves in positions:
        p = Connect4.from_moves(moves)
        ai = Negamax(depth, tt=TranspositionTable())
        ai(Adapter(p))
        # easyAI scales a score by (1 + depth/1000) to prefer quick wins: round it back.
        values.append(round(ai.alpha) * p.to_move())
    return time.perf_counter() - t, values, counter[0]


def openspiel(positions, depth):
    import pyspiel
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = pyspiel.load_game("connect_four")
    values = []
    t = time.perf_counter()
    for moves in positions:
        state = game.new_initial_state()
        for c in moves:
            state.apply_action(int(c) - 1)
        v, _ = alpha_beta_search(game, state, value_function=lambda s: 0.0, maximum_depth=depth,
                                 maximizing_player_id=0)
        values.append(round(v))
    return time.perf_counter() - t, values, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default=os.path.join(ROOT, "tests", "data", "connect4", "Test_L2_R2"))
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    with open(a.file) as f:
        positions = [line.split()[0] for line in f][: a.positions]
    contestants = {
        "gamesearch alphabeta": lambda: ours(positions, a.depth, "alphabeta"),
        "gamesearch negascout": lambda: ours(positions, a.depth, "negascout"),
        "gamesearch mtdf": lambda: ours(positions, a.depth, "mtdf"),
    }
    for name, module, f in [("easyAI Negamax+TT", "easyAI", lambda: easyai(positions, a.depth)),
                            ("OpenSpiel alpha_beta_search", "pyspiel", lambda: openspiel(positions, a.depth))]:
        try:
            __import__(module)
            contestants[name] = f
        except ImportError:
            print(f"{name}: not installed, left out", file=sys.stderr)
    print(f"{os.path.basename(a.file)}: first {len(positions)} positions, depth {a.depth}, {a.rounds} rounds")
    times, nodes, values = {}, {}, {}
    for _ in range(a.rounds):
        for name, f in contestants.items():
            t, v, n = f()
            times.setdefault(name, []).append(t)
            nodes[name], values[name] = n, v
    want = values["gamesearch alphabeta"]
    for name, v in values.items():
        assert v == want, (name, v, want)
    print(f"values (first player's view), equal for all: {want}")
    base = statistics.median(times["gamesearch alphabeta"])
    print(f"{'contestant':<28} {'median s':>9} {'nodes':>10} {'µs/node':>8} {'time / ours':>12}")
    for name, ts in times.items():
        m = statistics.median(ts)
        n = nodes[name]
        per = f"{m / n * 1e6:.2f}" if n else "-"
        print(f"{name:<28} {m:>9.3f} {n if n is not None else '-':>10} {per:>8} {m / base:>12.2f}")
    best = statistics.median(times["gamesearch mtdf"])
    for name in ("easyAI Negamax+TT", "OpenSpiel alpha_beta_search"):
        if name in times:
            print(f"{name} / gamesearch mtdf: {statistics.median(times[name]) / best:.2f}x the time")


if __name__ == "__main__":
    main()
