"""Connect-Four written in Python, solved and searched by gamesearch's Rust algorithms.

A game is any object with to_move(), moves(), play(move) and evaluate() (and, for the
transposition table, key()): see gamesearch.PythonGame. This one keeps Pons' two bitboards
(the stones of the side to move, and every stone), one column of H+1 bits per column.

    python python/examples/connect4_in_python.py
"""

import time

import gamesearch as gs


class Connect4:
    """A Connect-Four position on a W x H board. Scores: +1 a first-player win, -1 a loss,
    0 a draw (or, at a search's horizon, not yet known)."""

    __slots__ = ("w", "h", "current", "mask", "plies")
    _centre_first = {}  # width -> the columns, centre first: the move order

    def __init__(self, w=7, h=6, current=0, mask=0, plies=0):
        self.w, self.h, self.current, self.mask, self.plies = w, h, current, mask, plies

    @classmethod
    def from_moves(cls, moves, w=7, h=6):
        """The position after `moves`, columns numbered from 1 ("4453")."""
        p = cls(w, h)
        for c in moves:
            p = p.play(int(c) - 1)
        return p

    def to_move(self):
        return 1 if self.plies % 2 == 0 else -1

    def moves(self):
        if self.plies == self.w * self.h or self.last_mover_won():
            return ()
        order = self._centre_first.get(self.w)
        if order is None:
            order = sorted(range(self.w), key=lambda c: abs(2 * c - (self.w - 1)))
            self._centre_first[self.w] = order
        top, column = self.h - 1, self.h + 1
        return [c for c in order if not self.mask >> (c * column + top) & 1]

    def play(self, c):
        bottom = 1 << c * (self.h + 1)
        # The opponent's stones become the side to move's; the new stone drops onto the column.
        return Connect4(self.w, self.h, self.current ^ self.mask,
                        self.mask | (self.mask + bottom), self.plies + 1)

    def last_mover_won(self):
        stones = self.current ^ self.mask  # the stones of the player who just moved
        for d in (1, self.h + 1, self.h, self.h + 2):  # vertical, horizontal, two diagonals
            m = stones & (stones >> d)
            if m & (m >> 2 * d):
                return True
        return False

    def evaluate(self):
        if self.last_mover_won():
            return -self.to_move()  # the player who just moved won
        return 0

    def key(self):
        return self.current + self.mask  # unique per position (Pons)

    def value_bounds(self):
        return (-1, 1)

    def __str__(self):
        rows = []
        for r in reversed(range(self.h)):
            row = ""
            for c in range(self.w):
                bit = 1 << (c * (self.h + 1) + r)
                if not self.mask & bit:
                    row += "."
                else:
                    mine = bool(self.current & bit)
                    first_to_move = self.plies % 2 == 0
                    row += "X" if mine == first_to_move else "O"
            rows.append(row)
        return "\n".join(rows)


if __name__ == "__main__":
    p = Connect4.from_moves("44444")
    print(p, "\n")
    for algo in ("minimax", "alphabeta", "negascout", "mtdf"):
        t = time.perf_counter()
        r = gs.search(p, algo=algo, depth=6)
        ms = (time.perf_counter() - t) * 1e3
        print(f"{algo:>10}: value {r.value:+d}, best column {r.best_move + 1}, "
              f"{r.stats.nodes:,} nodes, {ms:.0f} ms, {r.stats.nodes / ms * 1e3:,.0f} nodes/s")
    # A small board solved to the end: 4x4 is a draw (Tromp).
    t = time.perf_counter()
    s = gs.solve(Connect4(4, 4))
    print(f"4x4 solved: {s.outcome}, {s.stats.nodes:,} nodes, {(time.perf_counter() - t):.1f} s")
