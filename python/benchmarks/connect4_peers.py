"""Shipped Connect-Four through Python, side by side in one run: gamesearch's Solver in a Python
loop against `gamesearch bench connect4` (the same solver, same table, from the command line),
BitBully 0.0.79 (`mtdf`, no opening book) and connect-four-ai 1.0.0 (no opening book), on the
same positions, one contestant after the other, rounds alternating; medians of each.

    python python/benchmarks/connect4_peers.py [--lines 100] [--rounds 5] [--file F]

Peers are optional: `pip install bitbully==0.0.79`; connect-four-ai 1.0.0 has wheels for Python
3.13 only, so build it from its repository (`pip install crates/python` in its checkout).
Every contestant's scores are checked against the file's.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import gamesearch as gs

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def ours(lines):
    solver = gs.Solver(tt_mb=64, best_move=False, id_depth=0)  # the benchmark's settings
    t = time.perf_counter()
    for moves, score in lines:
        s = solver.solve("connect4:7x6:" + moves)
        side = 1 if len(moves) % 2 == 0 else -1
        assert s.value * side == score, moves
    return time.perf_counter() - t


def cli(path, n):
    exe = os.path.join(ROOT, "target", "release", "gamesearch")
    cmd = [exe] if os.path.exists(exe) else ["cargo", "run", "--release", "-q", "--"]
    out = subprocess.run(cmd + ["bench", "connect4", path, "--limit", str(n), "--json", "-q"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    assert r["mismatches"] == 0 and r["positions"] == n
    return r["mean_time_us"] * n / 1e6


def bitbully(lines):
    import bitbully.bitbully_core as bc

    core = bc.BitBullyCore()  # no book
    assert not core.isBookLoaded()
    t = time.perf_counter()
    for moves, score in lines:
        b = bc.BoardCore()
        assert b.play([int(c) - 1 for c in moves]), moves  # columns from 0
        assert core.mtdf(b, 0) == score, moves
    return time.perf_counter() - t


def connect_four_ai(lines):
    import connect_four_ai as c

    solver = c.Solver()
    solver.load_opening_book("/nonexistent")  # fails: the solver keeps no book
    t = time.perf_counter()
    for moves, score in lines:
        assert solver.solve(c.Position.from_moves(moves)) == score, moves
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default=os.path.join(ROOT, "tests", "data", "connect4", "Test_L1_R2"))
    ap.add_argument("--lines", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    lines = []
    with open(a.file) as f:
        for line in f:
            moves, score = line.split()
            lines.append((moves, int(score)))
    lines = lines[: a.lines]
    contestants = {"gamesearch (Python loop)": ours, "gamesearch bench (CLI)": lambda l: cli(a.file, len(l))}
    for name, f, module in [("BitBully 0.0.79", bitbully, "bitbully"), ("connect-four-ai 1.0.0", connect_four_ai, "connect_four_ai")]:
        try:
            __import__(module)
            contestants[name] = f
        except ImportError:
            print(f"{name}: not installed, left out", file=sys.stderr)
    times = {name: [] for name in contestants}
    print(f"{os.path.basename(a.file)}, first {len(lines)} lines, {a.rounds} rounds", flush=True)
    for r in range(a.rounds):
        for name, f in contestants.items():
            times[name].append(f(lines))
            print(f"  round {r + 1}: {name}: {times[name][-1] / len(lines) * 1e3:.2f} ms a position", file=sys.stderr, flush=True)
    base = statistics.median(times["gamesearch (Python loop)"])
    print(f"{'contestant':<26} {'median ms/position':>18} {'ours / theirs':>14}")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"{name:<26} {m / len(lines) * 1e3:>18.2f} {base / m:>14.3f}")


if __name__ == "__main__":
    main()
