"""gamesearch: two-player game-tree search in Rust, for Python.

Every algorithm of the Rust library — minimax, alpha-beta, SCOUT, NegaScout, PVS, MTD(f),
proof-number and conspiracy-number search — and its exact solvers (alpha-beta with a table,
tree PN, df-pn), on the games the command line knows. Long calls release the GIL.

>>> import gamesearch
>>> g = gamesearch.Game("connect4:5x5:23")
>>> gamesearch.solve(g)["value"]     # a first-player win with the board's last stone
1
>>> r = gamesearch.search(gamesearch.Game("random:b=3,h=4,seed=7"), algo="scout")
>>> r["value"] == gamesearch.search(gamesearch.Game("random:b=3,h=4,seed=7"), algo="minimax")["value"]
True
"""

from gamesearch._core import (
    Game,
    GameSearchError,
    algorithms,
    methods,
    search,
    solve,
)

__all__ = ["Game", "GameSearchError", "algorithms", "methods", "search", "solve"]
