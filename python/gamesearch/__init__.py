"""gamesearch: two-player game-tree search in Rust, for Python.

Every algorithm of the Rust library — minimax, alpha-beta, SCOUT, NegaScout, PVS, MTD(f),
proof-number and conspiracy-number search — and its exact solvers (alpha-beta with a table,
tree PN, df-pn), on the games the command line knows. Long calls release the GIL; Ctrl-C stops
them cleanly and raises KeyboardInterrupt with the result so far as its second argument.

>>> import gamesearch as gs
>>> gs.solve("connect4:5x5:23").value      # a first-player win with the board's last stone
1
>>> gs.search("random:b=3,h=4,seed=7", algo="scout").value == gs.search("random:b=3,h=4,seed=7", algo="minimax").value
True
"""

import html as _html
import json as _json
import os as _os
from dataclasses import dataclass
from typing import Any, List, Optional, Protocol, Sequence, Tuple, Union, runtime_checkable

from gamesearch import _core
from gamesearch._core import Book, Game, GameSearchError, algorithms, games, methods

__all__ = [
    "Book",
    "Combined",
    "Engine",
    "Game",
    "GameSearchError",
    "Job",
    "JobResult",
    "PythonGame",
    "SearchResult",
    "Solution",
    "StrongSolution",
    "Solver",
    "Split",
    "Stats",
    "Thought",
    "Trace",
    "algorithms",
    "games",
    "methods",
    "search",
    "solve",
    "solve_job",
    "solve_strongly",
    "split",
    "trace",
]


@runtime_checkable
class PythonGame(Protocol):
    """A game written in Python: `search`, `solve`, `trace` and `Engine` take any object with these
    methods, and the Rust algorithms call them — each at most once per position.

    - `to_move()`: +1 when MAX (the first player) moves, -1 for MIN; turns need not alternate.
    - `moves()`: the legal moves, a list or tuple of any objects (empty: the game is over).
    - `play(move)`: the position after `move`, a new object (this one must stay as it was).
    - `evaluate()`: an int, MAX's view: the final score where there is no move, else a heuristic.
    - optional `key()`: an int of 64 bits, equal for equal positions and different for
      different ones (the table takes it for the position): it lets the transposition table
      find transpositions (the solvers' and `mtdf`'s, which then searches a position reached by
      two orders of moves once a pass); without it every position is new. `hash(...)` of the
      state will do for most states, but CPython hashes -1 and -2 alike, so states that differ
      only there collide; a digest such as `hashlib.blake2b(repr(state).encode(),
      digest_size=8)` does not.
    - optional `score_so_far()`, with `key()`: for a game whose state carries a running score
      that the rest of the game only adds to (points won, seeds banked), that score (an int,
      MAX's view), and `key()` leaves it out. The solver's table then holds values relative to
      it, so a position reached by two lines that scored differently is searched once (the
      other algorithms key by `key()` and the score together). The rest of the game must not
      depend on the score so far.
    - optional `value_bounds()`: `(lo, hi)` bounding every `evaluate()` (NegaScout and the
      multi-valued solvers use it).
    - optional `repeats = True` (an attribute), with `key()`: positions can come back. `solve`
      (alphabeta-tt, dfpn, dfpn-multi) then treats a position met again on the line as a draw
      (or as the optional int attribute `repetition_value`, MAX's view) and gives a won or lost
      answer's `remoteness`; `solve_strongly` solves every position (where a repetition is a
      draw).

    A move in a result (`best_move`, `pv`) is the object `moves()` returned.
    """

    def to_move(self) -> int: ...

    def moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> "PythonGame": ...

    def evaluate(self) -> int: ...


@dataclass(frozen=True)
class Stats:
    """What a search did: leaves evaluated, interior nodes, null-window tests, re-searches and
    table hits."""

    leaves: int
    interior: int
    tests: int
    re_searches: int
    tt_hits: int

    @property
    def nodes(self) -> int:
        """Leaves and interior nodes."""
        return self.leaves + self.interior


@dataclass(frozen=True)
class SearchResult:
    """What `search` found: the value (first player's view), the best move and principal
    variation (by name; for a game written in Python, the move objects), whether it finished
    within its budgets, and its counters."""

    algo: str
    depth: int
    value: Optional[int]
    best_move: Any
    pv: Tuple[Any, ...]
    complete: bool
    stats: Stats
    time_ms: float
    range: Optional[Tuple[int, int]] = None
    mcts_mean: Optional[float] = None


@dataclass(frozen=True)
class Solution:
    """What `solve` found: the exact value (or the bounds proven so far), win/draw/loss, a best
    move, whether it finished, the proof's size when df-pn's proof was checked, and counters."""

    method: str
    value: Optional[int]
    bounds: Tuple[int, int]
    outcome: Optional[str]
    best_move: Any
    complete: bool
    stats: Stats
    time_ms: float
    proof_nodes: Optional[int] = None
    from_book: bool = False
    #: Why `value` is None when the search finished: the binary solvers (pn, dfpn) prove win,
    #: draw or loss (`outcome`, `bounds`), not the exact value.
    note: Optional[str] = None
    #: A game whose positions repeat, won or lost: plies to the end under perfect play (the
    #: winner's shortest, the loser's longest); None otherwise.
    remoteness: Optional[int] = None


#: The binary solvers, which prove win, draw or loss rather than the exact value.
_BINARY = ("pn", "dfpn")


def _game(game: Any) -> Any:
    """A spec string as a Game; a Game or a game written in Python as it is (the extension tells
    them apart)."""
    return Game(game) if isinstance(game, str) else game


def _book(book: Any) -> Optional[Book]:
    """A book given as a path (str or PathLike) read once; a Book as it is."""
    if book is None or isinstance(book, Book):
        return book
    return Book(_os.fspath(book))


def _search_result(d: dict) -> SearchResult:
    return SearchResult(
        algo=d["algo"],
        depth=d["depth"],
        value=d["value"],
        best_move=d["best_move"],
        pv=tuple(d["pv"]),
        complete=d["complete"],
        stats=Stats(**d["stats"]),
        time_ms=d["time_ms"],
        range=tuple(d["range"]) if d.get("range") else None,
        mcts_mean=d.get("mcts_mean"),
    )


def _solution(d: dict) -> Solution:
    return Solution(
        method=d["algo"],
        value=d["value"],
        bounds=tuple(d["bounds"]),
        outcome=d["outcome"],
        best_move=d["best_move"],
        complete=d["complete"],
        stats=Stats(**d["stats"]),
        time_ms=d["time_ms"],
        proof_nodes=d.get("proof_nodes"),
        from_book=d.get("from_book", False),
        remoteness=d.get("remoteness"),
        note=(
            f"{d['algo']} proves win, draw or loss (see outcome and bounds), not the exact "
            f"value: method=\"{d['algo']}-multi\" finds the value"
            if d["value"] is None and d["algo"] in _BINARY and d["outcome"] is not None
            else None
        ),
    )


def _partial(e: KeyboardInterrupt, convert):
    """Ctrl-C: the same KeyboardInterrupt, its result converted."""
    if len(e.args) == 2 and isinstance(e.args[1], dict):
        return KeyboardInterrupt(e.args[0], convert(e.args[1]))
    return e



_U32 = 2**32 - 1
_U64 = 2**64 - 1


def _whole(name: str, value: Optional[int], low: int = 0, high: int = _U32) -> Optional[int]:
    """`value` when it is a whole number in [low, high] (or None); else `GameSearchError` naming
    the parameter (not the `OverflowError` or `TypeError` of the conversion to Rust)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameSearchError(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise GameSearchError(f"{name} must be between {low} and {high}, not {value}")
    return value

def search(
    game: Union[str, Game, PythonGame],
    algo: str = "negascout",
    *,
    depth: Optional[int] = None,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    seed: int = 1,
    exploration: float = 2**0.5,
    threads: int = 1,
    parallel: Optional[str] = None,
) -> SearchResult:
    """Searches `game` (a Game, a GAME spec, or a game written in Python: see `PythonGame`) with
    `algo` (see `algorithms()`) to `depth` (the whole tree where it is finite; real games need
    one), within the budgets.

    `algo="mcts"` (UCT), `"mcts-solver"` (MCTS-Solver) and `"pn-mcts"` (PN-MCTS: MCTS-Solver
    steered by proof numbers, C_pn = 1) are Monte-Carlo tree search: random
    playouts from `seed` to the end of the game (a Python game's own `moves()` and `play()`),
    UCT's constant `exploration`, `max_nodes` counting playouts; `mcts_mean` is the root's mean
    reward for the first player, and `value` the proven result (+1, 0, -1) when MCTS-Solver
    proves it. On a built-in game `threads` threads share MCTS's work: `parallel="tree"` (the
    default, but for PN-MCTS) grows one tree in every thread at once (atomic statistics, no lock,
    virtual loss), `"root"` grows a tree a thread and sums their root statistics (a game written
    in Python runs one thread).

    >>> search("tictactoe", algo="pvs").value
    0
    >>> search("tictactoe", algo="mcts-solver").value
    0
    >>> search("tictactoe", algo="mcts-solver", threads=2).value
    0
    """
    if isinstance(exploration, bool) or not isinstance(exploration, (int, float)):
        raise GameSearchError(f"exploration must be a number, not {exploration!r}")
    try:
        d = _core.search(
            _game(game),
            algo,
            _whole("depth", depth),
            _whole("max_nodes", max_nodes, high=_U64),
            max_time,
            _whole("seed", seed, low=0, high=_U64),
            float(exploration),
            _whole("threads", threads, low=1, high=1024),
            None if parallel is None else str(parallel),
        )
    except KeyboardInterrupt as e:
        raise _partial(e, _search_result) from None
    return _search_result(d)


def solve(
    game: Union[str, Game, PythonGame],
    method: str = "alphabeta-tt",
    *,
    tt_mb: int = 64,
    threads: int = 1,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    check: bool = False,
    id_depth: int = 8,
    book: Union[None, str, "_os.PathLike[str]", Book] = None,
) -> Solution:
    """Solves `game` (a Game, a GAME spec or a game written in Python, on one thread) exactly
    with `method` (see `methods()`): to the end of the game, no horizon. `check` verifies
    df-pn's proof with the independent checker; `id_depth` is alpha-beta's deepest
    iterative-deepening pass before the exact search (0: none), as `--id-depth`. `book` (a
    path or a `Book`, alpha-beta only): a position the book has exactly is answered at once
    (`.from_book`), and the search reads the book's entries first.

    >>> solve("kalah:4,2", method="pn-multi").value   # Irving et al.: +6
    6
    """
    try:
        d = _core.solve(
            _game(game),
            method,
            _whole("tt_mb", tt_mb, high=_U64),
            _whole("threads", threads),
            _whole("max_nodes", max_nodes, high=_U64),
            max_time,
            check,
            _whole("id_depth", id_depth),
            _book(book),
        )
    except KeyboardInterrupt as e:
        raise _partial(e, _solution) from None
    return _solution(d)


@dataclass(frozen=True)
class StrongSolution:
    """What `solve_strongly` found for the root: `value` (+1, 0 or -1, MAX's view; None when
    stopped before the root was settled), `remoteness` (plies to the end; None for a draw), a
    `best_move` that keeps the value (the fastest win, the slowest loss), the `positions`
    reachable, and whether every one was settled."""

    value: Optional[int]
    remoteness: Optional[int]
    best_move: Any
    positions: int
    complete: bool
    time_ms: float


def solve_strongly(
    game: PythonGame, *, max_positions: int = 1 << 26, max_time: Optional[float] = None
) -> StrongSolution:
    """Solves a game written in Python (with `key()`; positions may repeat) strongly: every
    position reachable from `game` by retrograde analysis, a repetition that neither side can
    leave a draw; returns the root's answer. Past `max_positions` it raises GameSearchError.

    >>> class Shuttle:   # a token on 0..3; MAX moves it left or right, MIN too; 3 ends, MAX wins
    ...     repeats = True
    ...     def __init__(s, at=0, mover=1): s.at, s.mover = at, mover
    ...     def to_move(s): return s.mover
    ...     def moves(s): return [] if s.at == 3 else [m for m in (-1, 1) if 0 <= s.at + m]
    ...     def play(s, m): return Shuttle(s.at + m, -s.mover)
    ...     def evaluate(s): return 1 if s.at == 3 else 0
    ...     def key(s): return s.at * 2 + (s.mover == 1)
    >>> r = solve_strongly(Shuttle())
    >>> r.value, r.remoteness   # MIN steps back each time: a draw
    (0, None)
    """
    try:
        d = _core.solve_strongly(game, _whole("max_positions", max_positions, high=_U64), max_time)
    except KeyboardInterrupt as e:
        raise _partial(e, _strong) from None
    return _strong(d)


def _strong(d: dict) -> StrongSolution:
    return StrongSolution(
        value=d["value"],
        remoteness=d["remoteness"],
        best_move=d["best_move"],
        positions=d["positions"],
        complete=d["complete"],
        time_ms=d["time_ms"],
    )


class Solver:
    """The alpha-beta solver (`alphabeta-tt`) with its transposition table kept from one
    position to the next, as `gamesearch bench` keeps it: for loops over many positions of one
    game. (A new table is made when the rules change — another board size, another class of
    Python game; random and explicit trees get a fresh one each time.)

    >>> s = Solver(tt_mb=16)
    >>> [s.solve(f"connect4:7x6:{m}").value for m in ("4455", "444444")]
    [18, 1]
    """

    def __init__(
        self,
        *,
        tt_mb: int = 64,
        threads: int = 1,
        best_move: bool = True,
        id_depth: int = 8,
        book: Union[None, str, "_os.PathLike[str]", Book] = None,
    ):
        self._s = _core.Solver(
            _whole("tt_mb", tt_mb, high=_U64),
            _whole("threads", threads),
            best_move,
            _whole("id_depth", id_depth),
            _book(book),
        )

    def solve(
        self,
        game: Union[str, Game, PythonGame],
        *,
        max_nodes: Optional[int] = None,
        max_time: Optional[float] = None,
        window: Optional[Tuple[int, int]] = None,
    ) -> Solution:
        """Solves `game` exactly, as `solve(game)` does, with the kept table. `window=(a, b)`
        solves within it only: a value inside is exact, one at an edge a bound (`.bounds`,
        `.value` None); `(v - 1, v)` asks "is the value at least v?" with one null-window test."""
        try:
            nodes = _whole("max_nodes", max_nodes, high=_U64)
            d = self._s.solve(_game(game), nodes, max_time, window)
        except KeyboardInterrupt as e:
            raise _partial(e, _solution) from None
        return _solution(d)

    def __repr__(self) -> str:
        return repr(self._s)


class Trace:
    """Searches recorded step by step (`trace()`): `.html` is the self-contained step-through
    page, `.steps` the recorded data, `.svg` each search's tree; `.save(path)` writes one by the
    path's extension; in Jupyter the page shows itself."""

    def __init__(self, page: str, data: str, svgs: List[str]):
        self.html = page
        self.data = _json.loads(data)
        self.svg = svgs

    def save(self, path: Union[str, "_os.PathLike[str]"]) -> None:
        """Writes `.html` (the page), `.json` (the trace) or `.svg` (the first search's tree)."""
        ext = _os.path.splitext(_os.fspath(path))[1]
        text = {".html": self.html, ".json": _json.dumps(self.data, indent=1), ".svg": self.svg[0]}.get(ext)
        if text is None:
            raise GameSearchError(f"{path}: the extension must be .html, .json or .svg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def _repr_html_(self) -> str:
        return (
            '<iframe style="width:100%;height:640px;border:0" srcdoc="'
            + _html.escape(self.html, quote=True)
            + '"></iframe>'
        )

    def __repr__(self) -> str:
        names = ", ".join(t["algorithm"] for t in self.data)
        return f"Trace({names}; {sum(len(t['steps']) for t in self.data)} steps)"


def trace(
    game: Union[str, Game, PythonGame],
    algos: Sequence[str] = ("alphabeta",),
    *,
    depth: Optional[int] = None,
    node_cap: int = 2000,
) -> Trace:
    """Records `algos` searching `game` step by step, side by side (what `gamesearch trace`
    draws); past `node_cap` nodes the recording stops while the search runs to its end.

    >>> t = trace("tree:(A max (B min D=7 E=4) (C min F=2 G=3))", ["alphabeta", "scout"])
    >>> [x["value"] for x in t.data]
    [4, 4]
    """
    if isinstance(algos, str):
        algos = [algos]
    page, data, svgs = _core.trace(
        _game(game), list(algos), _whole("depth", depth), _whole("node_cap", node_cap, high=_U64)
    )
    return Trace(page, data, svgs)


@dataclass(frozen=True)
class Iteration:
    """One completed iteration of the engine's deepening."""

    depth: int
    value: int
    mate: Optional[int]
    pv: Tuple[str, ...]
    nodes: int
    time_ms: float


@dataclass(frozen=True)
class Thought:
    """What the engine found: the best move, its value for the side to move (`mate`: a proven
    win in that many plies, negative for a loss), the PV and every iteration. When the opening
    book answered, no search ran: `book_value` is the book's exact value (the solver's score,
    the first player's view) and `value` is None."""

    best_move: Optional[Any]
    value: Optional[int]
    mate: Optional[int]
    pv: Tuple[Any, ...]
    depth: int
    complete: bool
    nodes: int
    time_ms: float
    iterations: Tuple[Iteration, ...]
    book_value: Optional[int] = None


def _thought(d: dict) -> Thought:
    its = tuple(Iteration(**{**i, "pv": tuple(i["pv"])}) for i in d["iterations"])
    return Thought(**{**d, "pv": tuple(d["pv"]), "iterations": its})


class Engine:
    """The anytime engine (iterative deepening with a table, PVS or MTD(f)) on Connect-Four,
    Kalah, tic-tac-toe or a game written in Python (`PythonGame`: its `evaluate()` is the
    heuristic, and with `key()` the table finds transpositions): `think()` within `time` seconds
    (or to `depth`) — it always has a move, the best of the deepest iteration finished —
    `best_move()`, `play(move)` to follow the game; its table persists from move to move. With a
    `book`, a position the book has exactly is answered with the book's move, without a search.
    For a game written in Python, `best_move()` and the PV are the objects its `moves()` gave.

    >>> e = Engine("connect4:7x6:445566", time=0.05)
    >>> e.best_move() in ("3", "7")
    True
    """

    def __init__(
        self,
        game: Union[str, Game, PythonGame],
        *,
        time: Optional[float] = 0.1,
        depth: Optional[int] = None,
        tt_mb: int = 64,
        driver: str = "pvs",
        book: Union[None, str, "_os.PathLike[str]", Book] = None,
    ):
        if time is None and depth is None:
            raise GameSearchError("give the engine a time or a depth")
        self._e = _core.Engine(
            _game(game),
            time,
            _whole("depth", depth) or 128,
            _whole("tt_mb", tt_mb, high=_U64),
            driver,
            _book(book),
        )

    @property
    def game(self) -> Union[Game, PythonGame]:
        """The position the engine is at (a game written in Python: its object)."""
        return self._e.game

    def think(self) -> Thought:
        """Deepens from the current position until the budget; Ctrl-C stops it and raises
        KeyboardInterrupt with the thought so far."""
        try:
            return _thought(self._e.think())
        except KeyboardInterrupt as e:
            raise _partial(e, _thought) from None

    def best_move(self) -> Optional[Any]:
        """The move `think()` chooses: its name, or a game written in Python's move object."""
        return self.think().best_move

    def play(self, move: Any) -> None:
        """Follows the game: the engine is now at the position after `move` (a name, or a game
        written in Python's move object)."""
        self._e.play(move)

    def __repr__(self) -> str:
        return f"Engine({self._e.game!r})"


@dataclass(frozen=True)
class Job:
    """One job of a split: its stable key (the rules and the solver's key of its position, the
    same in every process) and its position as a GAME spec any process can solve."""

    key: str
    game: str


@dataclass(frozen=True)
class JobResult:
    """A solved job: its exact value (MAX's view; None when it was asked a window and lies at an
    edge), its proven bounds, a best move of its position, nodes and seconds."""

    key: str
    value: Optional[int]
    lower: int
    upper: int
    best_move: Optional[str]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Combined:
    """The root's value and best move backed up from the jobs' values; `value` is None while
    `missing` jobs it waits for have none."""

    value: Optional[int]
    best_move: Optional[str]
    missing: int


class Split:
    """A position's exact solve as independent jobs (`split()`): `.jobs`, and `.combine(values)`
    to back their values up the top tree by minimax."""

    def __init__(self, game: str, plies: int, max_jobs: int):
        self._s = _core.Split(game, _whole("plies", plies), _whole("max_jobs", max_jobs, high=_U64))
        self.game, self.plies = game, plies
        self.jobs: List[Job] = [Job(k, g) for k, g in self._s.jobs()]

    @property
    def top_nodes(self) -> int:
        """Positions above the frontier (merged like the jobs)."""
        return self._s.top_nodes()

    def combine(self, values: Any) -> Combined:
        """The root's value and best move from the jobs' values: a mapping of key to value, or
        an iterable of `JobResult`."""
        if not hasattr(values, "items"):
            values = {r.key: r.value for r in values if r.value is not None}
        value, best, missing = self._s.combine(dict(values))
        return Combined(value, best, missing)

    def book(self, results: Any, path: Union[str, "_os.PathLike[str]"], *, source: Optional[str] = None) -> Book:
        """Writes the opening book of this split to `path` and returns it: every job with a
        result (an iterable of `JobResult`, or a mapping of key to (lower, upper, best move))
        and every position above them whose value the results prove or bound. As `gamesearch
        combine --book`."""
        if hasattr(results, "items"):
            answers = {k: ((lo, hi), best) for k, (lo, hi, best) in results.items()}
        else:
            answers = {r.key: ((r.lower, r.upper), r.best_move if r.value is not None else None) for r in results}
        source = source or f"{self.game} split at ply {self.plies}"
        self._s.book(answers, _os.fspath(path), source)
        return Book(_os.fspath(path))

    def __len__(self) -> int:
        return len(self.jobs)

    def __repr__(self) -> str:
        return f"Split({self.game!r}, plies={self.plies}: {len(self.jobs)} jobs)"


def split(game: str, plies: int, *, max_jobs: int = 10_000_000) -> Split:
    """Splits the solve of `game` (a Connect-Four, Kalah or tic-tac-toe spec) at `plies`: the
    positions that many moves below, merged by the solver's key (transpositions, mirror images),
    become jobs; a finished game or a win at once needs none. As `gamesearch split`.

    >>> s = split("connect4:5x4", 2)
    >>> len(s.jobs), s.jobs[0].game
    (13, 'connect4:5x4:11')
    >>> solver = Solver(tt_mb=16)
    >>> s.combine([solve_job(j, solver=solver) for j in s.jobs]).value == solve("connect4:5x4").value
    True
    """
    return Split(game, plies, max_jobs)


def solve_job(
    job: Job,
    *,
    solver: Optional[Solver] = None,
    tt_mb: int = 64,
    threads: int = 1,
    window: Optional[Tuple[int, int]] = None,
) -> JobResult:
    """Solves one job exactly, or within `window` (see `Solver.solve`), with `solver`'s kept
    table if given. A job whose key is not its position's raises GameSearchError; an unfinished
    solve (a budget, Ctrl-C) raises too."""
    key = _core.job_key(job.game)
    if key != job.key:
        raise GameSearchError(f"job {job.key}: its game {job.game!r} has the key {key}")
    solver = solver or Solver(tt_mb=tt_mb, threads=threads)
    s = solver.solve(job.game, window=window)
    if not s.complete:
        raise GameSearchError(f"job {job.key}: the solve did not finish")
    lower, upper = s.bounds
    return JobResult(job.key, s.value, lower, upper, s.best_move, s.stats.nodes, s.time_ms / 1e3)


from gamesearch.matches import MatchResult, engine_player, match  # noqa: E402

__all__ += ["MatchResult", "engine_player", "match"]
