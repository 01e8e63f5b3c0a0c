"""Opening books from Python: `Split.book` writes one from solved jobs, `Book` reads it, and
`solve`, `Solver` and `Engine` answer the positions in it without a search (mirror images too)
and search the others with it, to the values a solve without it finds; the ways it goes wrong
raise GameSearchError."""

import itertools

import pytest

import gamesearch as gs


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    s = gs.split("connect4:5x4", 2)
    solver = gs.Solver(tt_mb=16)
    return s.book([gs.solve_job(j, solver=solver) for j in s.jobs], tmp_path_factory.mktemp("b") / "5x4.book")


def test_a_book_of_solved_jobs_answers_every_position_above_them(book):
    assert (book.rules, len(book), book.exact) == ("connect4:5x4", 17, 17)
    assert book.source == "connect4:5x4 split at ply 2"
    for moves in itertools.chain([""], "12345", map("".join, itertools.product("12345", repeat=2))):
        game = "connect4:5x4" + (":" + moves if moves else "")
        plain = gs.solve(game, tt_mb=16)
        lo, hi, best = book.lookup(gs.Game(game))
        assert lo == hi == plain.value
        s = gs.solve(game, tt_mb=16, book=book)
        assert s.from_book and s.value == plain.value and s.stats.nodes == 0
        assert gs.solve(gs.Game(game).play(s.best_move), tt_mb=16).value == plain.value


def test_below_the_book_the_search_uses_it(book):
    solver = gs.Solver(tt_mb=16, book=book.path)  # a path: read once
    for moves in ["123", "3333", "25314"]:
        game = f"connect4:5x4:{moves}"
        assert book.lookup(gs.Game(game)) is None
        s = solver.solve(game)
        assert not s.from_book and s.value == gs.solve(game, tt_mb=16).value


def test_the_engine_plays_the_books_move(book):
    e = gs.Engine("connect4:5x4", time=0.05, book=book)
    t = e.think()
    assert t.book_value == 0 and t.nodes == 0 and t.best_move in gs.Game("connect4:5x4").moves()
    e.play("1")
    e.play("2")
    e.play("3")
    t = e.think()  # below the book: thinks
    assert t.book_value is None and t.nodes > 0


def test_wrong_books_raise(book, tmp_path):
    with pytest.raises(gs.GameSearchError, match="a book of connect4:5x4"):
        gs.solve("connect4:6x4", book=book)
    with pytest.raises(gs.GameSearchError, match="alpha-beta"):
        gs.solve("connect4:5x4", method="pn", book=book)
    with pytest.raises(gs.GameSearchError, match="a book of connect4:5x4"):
        gs.Engine("kalah:4,2", book=book)
    (tmp_path / "x").write_text("not a book")
    with pytest.raises(gs.GameSearchError, match="not a gamesearch book"):
        gs.Book(tmp_path / "x")
    with pytest.raises(gs.GameSearchError, match="No such file"):
        gs.Book(tmp_path / "none")
    with pytest.raises(gs.GameSearchError, match="not a game written in Python"):
        gs.Solver(book=book).solve(_Nim(3))


class _Nim:
    def __init__(self, n, player=1):
        self.n, self.player = n, player

    def to_move(self):
        return self.player

    def moves(self):
        return [m for m in (1, 2) if m <= self.n]

    def play(self, m):
        return _Nim(self.n - m, -self.player)

    def evaluate(self):
        return -self.player if self.n == 0 else 0
