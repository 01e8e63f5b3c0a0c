"""Every search algorithm on the same random tree, as a table: the value they agree on, and the
nodes, null-window tests and re-searches each needed (what `gamesearch compare` prints).

    python python/examples/compare_algorithms.py                       # b=6, h=6, seed=1
    python python/examples/compare_algorithms.py "random:b=8,h=6,seed=3"
"""

import sys

import gamesearch as gs

spec = sys.argv[1] if len(sys.argv) > 1 else "random:b=6,h=6,seed=1"
print(f"{spec}\n")
print(f"{'algorithm':<18} {'value':>12} {'nodes':>9} {'leaves':>9} {'tests':>7} {'re-searches':>11} {'ms':>8}")
baseline = None
for algo in gs.algorithms(exact=True):
    r = gs.search(spec, algo=algo)
    baseline = baseline or r.stats.nodes
    print(f"{algo:<18} {r.value:>12,} {r.stats.nodes:>9,} {r.stats.leaves:>9,} {r.stats.tests:>7,} "
          f"{r.stats.re_searches:>11,} {r.time_ms:>8.1f}")
