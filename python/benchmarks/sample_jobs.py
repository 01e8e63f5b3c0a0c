"""The cost of a split's jobs, from a random sample: each sampled job is asked the pn master's
first question ("is your value at least V?", the window (V-1, V)) by one solver kept across the
sample; prints each answer and the mean, median and max seconds. For projecting a split too big
to run here (docs/results/distributed.md, "One size up").

    python python/benchmarks/sample_jobs.py connect4:8x6 --plies 8 [--n 40] [--seed 1] [--v 0]
        [--tt-mb 256] [--max-time 30]
"""

import argparse
import json
import random
import statistics
import time

import gamesearch as gs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--plies", type=int, required=True)
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--v", type=int, default=0)
    ap.add_argument("--tt-mb", type=int, default=256)
    ap.add_argument("--max-time", type=float, default=30)
    a = ap.parse_args()
    s = gs.split(a.game, a.plies)
    print(json.dumps(dict(game=a.game, plies=a.plies, jobs=len(s.jobs), top_nodes=s.top_nodes, seed=a.seed)))
    solver = gs.Solver(tt_mb=a.tt_mb)
    secs = []
    for j in random.Random(a.seed).sample(s.jobs, min(a.n, len(s.jobs))):
        t = time.perf_counter()
        r = solver.solve(j.game, window=(a.v - 1, a.v), max_time=a.max_time)
        secs.append(time.perf_counter() - t)
        print(json.dumps(dict(game=j.game, complete=r.complete, bounds=r.bounds, nodes=r.stats.nodes,
                              seconds=round(secs[-1], 3))), flush=True)
    print(json.dumps(dict(n=len(secs), mean=round(statistics.mean(secs), 3),
                          median=round(statistics.median(secs), 3), max=round(max(secs), 3))))


if __name__ == "__main__":
    main()
