"""Solve a Connect-Four position exactly, watch the bounds close, then let the engine play it.

    python python/examples/solve_connect4.py            # 7x6 after 4455
    python python/examples/solve_connect4.py 3344 5x4     # any moves, any board
"""

import sys

import gamesearch as gs

moves = sys.argv[1] if len(sys.argv) > 1 else "4455"
board = sys.argv[2] if len(sys.argv) > 2 else "7x6"
game = gs.Game(f"connect4:{board}:{moves}")
print(game, "\n")

for method in ("alphabeta-tt", "dfpn-multi"):
    s = gs.solve(game, method=method, tt_mb=64)
    # Pons' score: +n means the side that moved first wins with n stones to spare.
    print(f"{method:>12}: {s.outcome} ({s.value:+d}), best move {s.best_move}, "
          f"{s.stats.nodes:,} nodes in {s.time_ms:,.0f} ms")

# The engine follows the game from here to its end, a tenth of a second a move.
engine = gs.Engine(game, time=0.1)
while not engine.game.is_over():
    engine.play(engine.best_move())
print("\nthe engine against itself:", " ".join(engine.game.history))
print(engine.game)
