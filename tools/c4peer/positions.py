#!/usr/bin/env python3
"""Writes a Connect-Four benchmark file for any board: random openings, each solved by gamesearch.

    tools/c4peer/positions.py WxH COUNT PLIES SEED > FILE

Each line is `<moves> <score>` as in Pons' test sets: MOVES in the board's notation (digits up
to 9 columns, column numbers separated by commas past 9), SCORE for the side to move in Pons'
convention (a win with the winner's last possible stone scores 1, each stone earlier one more; a
loss the negative). An opening is PLIES moves played uniformly at random among the columns with room,
seeded (Python's `random.Random(SEED)`), kept only when nobody has four in a row and the side to
move cannot win at once (a position solved by its first move says nothing about a solver). The
score comes from `gamesearch solve` (built here, 64 MiB table, one thread); the peer solver then
answers the same file (tools/c4peer/bench.sh), which checks every line against it.
"""
import json
import random
import subprocess
import sys
from pathlib import Path


def four(cells, w, h, col, row, who):
    """Whether `who` has four in a row through (col, row)."""
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            c, r = col + s * dc, row + s * dr
            while 0 <= c < w and 0 <= r < h and cells.get((c, r)) == who:
                n += 1
                c, r = c + s * dc, r + s * dr
        if n >= 4:
            return True
    return False


def opening(rng, w, h, plies):
    """PLIES random moves (0-based columns), or None when the game ends on the way or the side
    to move could then win at once."""
    cells, heights, moves = {}, [0] * w, []
    for ply in range(plies):
        col = rng.choice([c for c in range(w) if heights[c] < h])
        who = ply % 2
        cells[(col, heights[col])] = who
        heights[col] += 1
        moves.append(col)
        if four(cells, w, h, col, heights[col] - 1, who):
            return None
    mover = plies % 2
    for c in range(w):
        if heights[c] < h and four(cells, w, h, c, heights[c], mover):
            return None
    return moves


def main():
    board, count, plies, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    w, h = (int(x) for x in board.split("x"))
    here = Path(__file__).resolve().parents[2]
    subprocess.run(["cargo", "build", "--release", "-q", "--manifest-path", str(here / "Cargo.toml")], check=True)
    exe = here / "target" / "release" / "gamesearch"
    rng = random.Random(seed)
    print(f"{board}: {count} openings of {plies} random moves, seed {seed}", file=sys.stderr)
    seen, written = set(), 0
    while written < count:
        moves = opening(rng, w, h, plies)
        if moves is None or tuple(moves) in seen:
            continue
        seen.add(tuple(moves))
        sep = "," if w > 9 else ""
        text = sep.join(str(c + 1) for c in moves)
        out = subprocess.run(
            [str(exe), "solve", f"connect4:{board}:{text}", "--tt-mb", "64", "--threads", "1", "--json", "--quiet"],
            check=True, capture_output=True, text=True,
        )
        value = json.loads(out.stdout)["value"]
        # Pons' convention (gamesearch_games::benchmark::pons_score): on a board with an odd number
        # of cells a second-player win scores one less than gamesearch's value says.
        if (w * h) % 2 == 1 and value < 0:
            value += 1
        # The solver's value is the first player's; the file's score is the side to move's.
        score = value if plies % 2 == 0 else -value
        print(f"{text} {score}", flush=True)
        written += 1


if __name__ == "__main__":
    main()
