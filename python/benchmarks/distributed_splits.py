"""A position solved by gamesearch.distributed at several split depths, on a Ray this script
starts with `--cpus` CPUs, against the one-piece solve with the same table on one thread; one
JSON line per split (jobs, answers asked, root tests, job nodes and core-seconds, wall), then
the per-job seconds of the last split (from its store) for projections.

    python python/benchmarks/distributed_splits.py connect4:7x6 --plies 4 6 8 [--master pn|full]
        [--tt-mb 256] [--cpus 2]

Needs `pip install ray`. Figures: docs/results/distributed.md.
"""

import argparse
import json
import os
import sqlite3
import tempfile
import time

import gamesearch as gs
import gamesearch.distributed as gd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--plies", type=int, nargs="+", required=True)
    ap.add_argument("--master", default="pn", choices=["pn", "full"])
    ap.add_argument("--tt-mb", type=int, default=256)
    ap.add_argument("--cpus", type=int, default=2)
    a = ap.parse_args()
    import ray

    ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    t = time.perf_counter()
    one = gs.solve(a.game, tt_mb=a.tt_mb)
    print(json.dumps(dict(game=a.game, one_piece=dict(value=one.value, best_move=one.best_move,
                                                      nodes=one.stats.nodes, seconds=round(time.perf_counter() - t, 2)))))
    store = None
    for plies in a.plies:
        store = os.path.join(tempfile.mkdtemp(), "jobs.sqlite")
        r = gd.solve(a.game, split_plies=plies, master=a.master, tt_mb=a.tt_mb, store=store, progress=False)
        assert r.value == one.value, (r.value, one.value)
        print(json.dumps(dict(plies=plies, master=a.master, value=r.value, best_move=r.best_move, jobs=r.jobs,
                              answers=r.jobs_solved, tests=r.tests, nodes=r.nodes,
                              job_seconds=round(r.job_seconds, 2), wall=round(r.seconds, 2))), flush=True)
    with sqlite3.connect(store) as db:
        secs = sorted(s for (s,) in db.execute("SELECT seconds FROM jobs"))
    n = len(secs)
    print(json.dumps(dict(plies=a.plies[-1], jobs_answered=n, median=secs[n // 2], p90=secs[int(n * 0.9)],
                          p99=secs[int(n * 0.99)], max=secs[-1], total=round(sum(secs), 2))))


if __name__ == "__main__":
    main()
