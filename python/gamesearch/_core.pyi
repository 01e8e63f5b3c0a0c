"""Type stubs of the Rust extension (gamesearch._core)."""

import os
from typing import Any, Optional, Union

class GameSearchError(ValueError):
    """Bad input: an unknown game or algorithm, an illegal move, an impossible parameter."""

class Game:
    """A game position: a GAME spec as the command line takes it ("connect4:7x6:4453",
    "kalah:6,4", "kalah:6,4:standard", "tictactoe", "random:b=4,h=6,seed=1", "tree:(…)") and the moves played."""

    def __init__(self, spec: str) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def history(self) -> list[str]: ...
    @property
    def rules(self) -> Optional[str]: ...
    def moves(self) -> list[str]: ...
    def play(self, move: Union[str, int]) -> "Game": ...
    def to_move(self) -> int: ...
    def is_over(self) -> bool: ...
    def evaluate(self) -> int: ...

class Book:
    """An opening book (`gamesearch combine … --book`, `Split.book`): solved positions by the
    solver's key, with bounds and a best move; read once, shared by `solve`, `Solver` and
    `Engine`."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def exact(self) -> int: ...
    def __len__(self) -> int: ...
    def lookup(self, game: Game) -> Optional[tuple[int, int, Optional[str]]]:
        """(lower, upper, best move) for the game's position, the first player's view; None
        when the book does not have it."""

def search(
    game: Any,
    algo: str = "negascout",
    depth: Optional[int] = None,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    seed: int = 1,
    exploration: float = 1.4142135623730951,
) -> dict[str, Any]:
    """The report as a dict (gamesearch.search wraps it in a SearchResult); `game` is a Game or
    an object of the game protocol (then best_move and pv are the game's move objects)."""

def solve(
    game: Any,
    method: str = "alphabeta-tt",
    tt_mb: int = 64,
    threads: int = 1,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    check: bool = False,
    id_depth: int = 8,
    book: Optional[Book] = None,
) -> dict[str, Any]:
    """The report as a dict (gamesearch.solve wraps it in a Solution); `game` is a Game or an
    object of the game protocol (one thread)."""

def solve_strongly(
    game: Any, max_positions: int = ..., max_time: Optional[float] = None
) -> dict[str, Any]:
    """The root's answer of a strong solve (gamesearch.solve_strongly wraps it)."""

def algorithms(exact: bool = False) -> list[str]:
    """Every algorithm `search()` takes; with exact=True those equal to minimax on every game.

    >>> import gamesearch as gs
    >>> gs.algorithms()[:3], "mcts" in gs.algorithms(), "mcts" in gs.algorithms(exact=True)
    (['minimax', 'alphabeta', 'alphabeta-hard'], True, False)
    """
def methods() -> list[str]: ...
def games() -> list[str]:
    """Every form a game's text may take, e.g. "connect4:WxH[:MOVES]"."""

def trace(
    game: Any, algos: list[str], depth: Optional[int] = None, node_cap: int = 2000
) -> tuple[str, str, list[str]]:
    """(page HTML, trace JSON, one SVG per search); gamesearch.trace wraps them in a Trace."""

class Engine:
    def __init__(
        self,
        game: Any,
        time: Optional[float] = 0.1,
        depth: int = 128,
        tt_mb: int = 64,
        driver: str = "pvs",
        book: Optional[Book] = None,
    ) -> None: ...
    @property
    def game(self) -> Any: ...
    def play(self, move: Any) -> None: ...
    def think(self) -> dict[str, Any]: ...

class Solver:
    def __init__(
        self, tt_mb: int = 64, threads: int = 1, best_move: bool = True, id_depth: int = 8, book: Optional[Book] = None
    ) -> None: ...
    def solve(
        self,
        game: Any,
        max_nodes: Optional[int] = None,
        max_time: Optional[float] = None,
        window: Optional[tuple[int, int]] = None,
    ) -> dict[str, Any]: ...

class Split:
    def __init__(self, game: str, plies: int, max_jobs: int) -> None: ...
    def jobs(self) -> list[tuple[str, str]]: ...
    def top_nodes(self) -> int: ...
    def combine(self, values: dict[str, int]) -> tuple[Optional[int], Optional[str], int]: ...
    def book(
        self, answers: dict[str, tuple[tuple[int, int], Optional[str]]], path: str, source: str
    ) -> tuple[int, int]: ...
    def master(self, guess: int) -> Master: ...

class Master:
    def next_jobs(self, k: int) -> list[tuple[int, int]]: ...
    def record(self, i: int, lower: int, upper: int) -> bool: ...
    def forget(self, i: int) -> None: ...
    def needless(self) -> list[int]: ...
    def state(self) -> tuple[Optional[int], tuple[int, int], int, Optional[str]]: ...

def job_key(game: str) -> str: ...
