"""How fast a book answers: every move sequence of `--plies` moves or fewer from GAME, each asked
of `gamesearch solve GAME:MOVES --book BOOK` in its own process (the wall time of the whole
command: start, reading the book, the answer) and of `gamesearch.solve(..., book=)` in this
process. Checks that each is answered from the book with the value the book's own lookup gives;
prints the median, p99 and max milliseconds of both.

    python python/benchmarks/book_answers.py connect4:7x6 --plies 4 --book books/connect4-7x6-ply4.book
        [--gamesearch target/release/gamesearch]
"""

import argparse
import json
import statistics
import subprocess
import time

import gamesearch as gs


def sequences(game: str, plies: int):
    """Every move sequence (as the spec's move string) of `plies` moves or fewer."""
    level = [""]
    for _ in range(plies + 1):
        yield from level
        level = [s + m for s in level for m in gs.Game(game + (":" + s if s else "")).moves()]


def summary(ms):
    ms = sorted(ms)
    return dict(
        median_ms=round(statistics.median(ms), 3),
        p99_ms=round(ms[int(0.99 * (len(ms) - 1))], 3),
        max_ms=round(ms[-1], 3),
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--plies", type=int, required=True)
    ap.add_argument("--book", required=True)
    ap.add_argument("--gamesearch", default="target/release/gamesearch")
    a = ap.parse_args()
    book = gs.Book(a.book)
    print(json.dumps(dict(game=a.game, plies=a.plies, book=repr(book))))
    cli, py = [], []
    n = 0
    for moves in sequences(a.game, a.plies):
        spec = a.game + (":" + moves if moves else "")
        lo, hi, best = book.lookup(gs.Game(spec))
        t = time.perf_counter()
        out = subprocess.run(
            [a.gamesearch, "solve", spec, "--book", a.book, "--json", "-q"], capture_output=True, text=True, check=True
        ).stdout
        cli.append((time.perf_counter() - t) * 1e3)
        r = json.loads(out)
        assert r.get("from_book") and r["value"] == lo == hi, (spec, r)
        t = time.perf_counter()
        s = gs.solve(spec, book=book)
        py.append((time.perf_counter() - t) * 1e3)
        assert s.from_book and s.value == lo, (spec, s)
        n += 1
    print(json.dumps(dict(positions=n, all_from_book=True, cli_process=summary(cli), python_call=summary(py))))


if __name__ == "__main__":
    main()
