"""Nim written in Python and solved by gamesearch: the protocol a game needs, whole.

    python python/examples/nim.py
"""

import gamesearch as gs

class Nim:
    """Take 1, 2 or 3 stones; who takes the last stone wins."""

    def __init__(self, pile, player=1):
        self.pile, self.player = pile, player

    def to_move(self):
        return self.player

    def moves(self):
        return [n for n in (1, 2, 3) if n <= self.pile]

    def play(self, n):
        return Nim(self.pile - n, -self.player)

    def evaluate(self):  # MAX's view: at the end, who took the last stone won
        return -self.player if self.pile == 0 else 0

    def key(self):
        return 2 * self.pile + (self.player == 1)

s = gs.solve(Nim(21))
print(s.outcome, s.best_move)                             # win 1: leave a multiple of four
print(gs.search(Nim(10), algo="negascout").pv)            # the moves, as Nim's own objects
print(gs.Engine(Nim(30), time=0.1).best_move())           # 2: within a time budget, always a move
