"""What a book of bounds saves inside a search: GAME solved on a local Ray by the job-level PN
master (`gamesearch.distributed`, a store), the store exported as a book (mostly bounds: the
master asks null-window questions), then every move sequence of fewer than `--plies` moves
solved with the book and without it, one table size for both; prints the summed nodes and
seconds of each, and how many positions the book answered outright.

    python python/benchmarks/book_in_search.py connect4:7x5 --plies 4 [--tt-mb 64]
"""

import argparse
import json
import os
import tempfile

import gamesearch as gs
import gamesearch.distributed as gd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--plies", type=int, required=True)
    ap.add_argument("--tt-mb", type=int, default=64)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        store, path = os.path.join(d, "store.sqlite"), os.path.join(d, "b.book")
        r = gd.solve(a.game, split_plies=a.plies, store=store, tt_mb=a.tt_mb, progress=False)
        book = gd.export_book(path, game=a.game, split_plies=a.plies, store=store)
        print(json.dumps(dict(game=a.game, plies=a.plies, value=r.value, answers=r.jobs_solved, jobs=r.jobs, book=repr(book))))
        level, positions = [""], []
        for _ in range(a.plies):
            positions += level
            level = [s + m for s in level for m in gs.Game(a.game + (":" + s if s else "")).moves()]
        totals = {"without": [0, 0.0], "with": [0, 0.0]}
        outright = 0
        for moves in positions:
            spec = a.game + (":" + moves if moves else "")
            plain = gs.solve(spec, tt_mb=a.tt_mb)
            booked = gs.solve(spec, tt_mb=a.tt_mb, book=book)
            assert booked.value == plain.value, spec
            outright += booked.from_book
            for k, s in (("without", plain), ("with", booked)):
                totals[k][0] += s.stats.nodes
                totals[k][1] += s.time_ms / 1e3
        print(json.dumps(dict(positions=len(positions), answered_outright=outright,
                              nodes_without=totals["without"][0], nodes_with=totals["with"][0],
                              seconds_without=round(totals["without"][1], 2), seconds_with=round(totals["with"][1], 2))))


if __name__ == "__main__":
    main()
