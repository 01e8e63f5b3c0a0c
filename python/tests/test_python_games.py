"""Games written in Python, driven by the Rust algorithms: every algorithm and solver against a
minimax written here in Python (an oracle that shares no code with the library), the Python
Connect-Four against the shipped one, and bad games raising clear exceptions."""

import hashlib
import os
import sys
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import gamesearch as gs
from gamesearch import GameSearchError

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")
sys.path.insert(0, EXAMPLES)
from connect4_in_python import Connect4  # noqa: E402


# A game tree as nested tuples: a leaf is its value (MAX's view); an interior node is
# (player to move, (children…)). Turns need not alternate, as the protocol allows.
trees = st.recursive(
    st.integers(-20, 20),
    lambda kids: st.tuples(st.sampled_from([1, -1]), st.lists(kids, min_size=1, max_size=4).map(tuple)),
    max_leaves=40,
)


class Tree:
    """The protocol over a nested-tuple tree; `key()` is a digest of the subtree, so equal
    subtrees transpose (they are the same position) and different ones do not. (Not `hash()`:
    CPython hashes -1 and -2 alike, so `(1, (-1,))` and `(1, (-2,))` would share a key and the
    table would take one for the other.)"""

    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node

    def to_move(self):
        return self.node[0] if isinstance(self.node, tuple) else 1

    def moves(self):
        return list(range(len(self.node[1]))) if isinstance(self.node, tuple) else []

    def play(self, i):
        return Tree(self.node[1][i])

    def evaluate(self):
        if isinstance(self.node, tuple):
            return hash(self.node) % 21 - 10  # a heuristic, deterministic per subtree
        return self.node

    def key(self):
        return int.from_bytes(hashlib.blake2b(repr(self.node).encode(), digest_size=8).digest(), "little")


def minimax(node, depth=None):
    """The oracle: plain minimax over the tuples, to `depth` plies (None: to the leaves)."""
    if not isinstance(node, tuple):
        return node
    if depth == 0:
        return Tree(node).evaluate()
    player, kids = node
    values = [minimax(k, None if depth is None else depth - 1) for k in kids]
    return max(values) if player == 1 else min(values)


@settings(max_examples=1000, deadline=None)
@given(trees)
@example((1, ((1, (-2,)), (1, (-1,)))))  # two subtrees whose hash() is the same (see Tree)
def test_every_algorithm_equals_minimax_on_python_trees(node):
    want = minimax(node)
    for algo in gs.algorithms(exact=True):
        r = gs.search(Tree(node), algo=algo)
        assert r.value == want, algo
        assert r.complete
        if isinstance(node, tuple):
            # The best move is a move object of the root, and it achieves the value.
            assert minimax(node[1][r.best_move]) == want, algo


@settings(max_examples=200, deadline=None)
@given(trees, st.integers(1, 4))
def test_depth_limited_searches_equal_minimax(node, depth):
    want = minimax(node, depth)
    for algo in gs.algorithms(exact=True):
        if algo in ("pn-multi", "cns"):
            continue  # proof-number and conspiracy-number search run to the end of the game
        assert gs.search(Tree(node), algo=algo, depth=depth).value == want, algo


class Graph:
    """The protocol over a generated directed acyclic graph: a position is a vertex and the side
    to move, a move follows an edge to one of the next few vertices, and some edges keep the
    turn. One position is so reached by paths of different lengths: transpositions at different
    depths, which a table keyed by position must tell apart in a depth-limited search."""

    __slots__ = ("graph", "vertex", "player")

    def __init__(self, graph, vertex=0, player=1):
        self.graph, self.vertex, self.player = graph, vertex, player

    def edges(self):
        steps, _ = self.graph
        return [(self.vertex + d, keep) for d, keep in steps[self.vertex] if self.vertex + d < len(steps)]

    def to_move(self):
        return self.player

    def moves(self):
        return list(range(len(self.edges())))

    def play(self, i):
        to, keep = self.edges()[i]
        return Graph(self.graph, to, self.player if keep else -self.player)

    def evaluate(self):
        return self.graph[1][self.vertex]

    def key(self):
        return 2 * self.vertex + (self.player == 1)


def graph_minimax(p, depth):
    """The oracle for graphs: plain minimax to `depth` plies."""
    edges = p.edges()
    if not edges or depth == 0:
        return p.evaluate()
    values = [graph_minimax(p.play(i), depth - 1) for i in range(len(edges))]
    return max(values) if p.player == 1 else min(values)


# Small graphs, deep searches: a position searched to the end of its game and met again with
# less depth left is what a table entry wrongly stored as exact confuses (about one graph in 130).
graphs = st.integers(2, 15).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(st.tuples(st.integers(1, 4), st.booleans()), min_size=1, max_size=4), min_size=n, max_size=n),
        st.lists(st.integers(-20, 20), min_size=n, max_size=n),
    )
)


@settings(max_examples=1000, deadline=None)
@given(graphs, st.integers(1, 9))
def test_depth_limited_searches_equal_minimax_on_graphs(graph, depth):
    want = graph_minimax(Graph(graph), depth)
    for algo in gs.algorithms(exact=True):
        if algo in ("pn-multi", "cns"):
            continue
        assert gs.search(Graph(graph), algo=algo, depth=depth).value == want, algo


def sign(v):
    return (v > 0) - (v < 0)


@settings(max_examples=300, deadline=None)
@given(trees, st.integers(0, 2**64 - 1), st.sampled_from(["mcts-solver", "pn-mcts"]))
def test_mcts_solver_proves_the_sign_of_minimax_on_python_trees(node, seed, algo):
    # The playouts are the game's own moves() and play(); run to the end, MCTS-Solver and
    # PN-MCTS prove win, draw or loss, and their move keeps it.
    want = sign(minimax(node))
    r = gs.search(Tree(node), algo=algo, seed=seed)
    assert r.complete and r.value == want
    assert 0.0 <= r.mcts_mean <= 1.0
    if isinstance(node, tuple):
        assert sign(minimax(node[1][r.best_move])) == want


def test_plain_mcts_estimates_within_its_playouts():
    r = gs.search(Nim(7), algo="mcts", max_nodes=3000, seed=5)
    assert (r.value, r.complete, r.stats.leaves) == (None, False, 3000)
    assert r.best_move == 3  # take 3, leave a multiple of 4
    again = gs.search(Nim(7), algo="mcts", max_nodes=3000, seed=5)
    assert again.mcts_mean == r.mcts_mean  # the seed decides the playouts
    assert gs.search("connect4:7x6", algo="mcts", max_nodes=500).stats.leaves == 500
    for bad_args in [{"exploration": -1.0}, {"exploration": "x"}, {"seed": -1}, {"threads": 0},
                     {"parallel": "leaf"}]:
        with pytest.raises(GameSearchError):
            gs.search("tictactoe", algo="mcts", **bad_args)
    with pytest.raises(GameSearchError):
        gs.search(Nim(7), algo="mcts", threads=2)  # a Python game's moves run under the GIL
    with pytest.raises(GameSearchError):
        gs.search("tictactoe", algo="pvs", threads=2)  # threads are MCTS's


@pytest.mark.parametrize("parallel", ["root", "tree"])
def test_mcts_threads_share_the_playouts_and_prove(parallel):
    r = gs.search("connect4:7x6", algo="mcts", max_nodes=4000, threads=3, parallel=parallel)
    assert 4000 <= r.stats.leaves < 4000 + 3 * 16
    r = gs.search("tictactoe", algo="mcts-solver", threads=2, parallel=parallel)
    assert (r.value, r.complete) == (0, True)


def test_mcts_threads_default_to_the_shared_tree_but_pn_mcts_to_a_tree_each():
    for algo in ("mcts-solver", "pn-mcts"):
        assert gs.search("tictactoe", algo=algo, threads=2).value == 0
    with pytest.raises(GameSearchError):
        gs.search("tictactoe", algo="pn-mcts", threads=2, parallel="tree")


@settings(max_examples=500, deadline=None)
@given(trees)
def test_every_solver_equals_minimax_on_python_trees(node):
    want = minimax(node)
    outcome = {1: "win", 0: "draw", -1: "loss"}[(want > 0) - (want < 0)]
    for method in gs.methods():
        s = gs.solve(Tree(node), method=method, tt_mb=1)
        assert s.complete and s.outcome == outcome, method
        if method not in ("pn", "dfpn"):  # the binary solvers prove win or not-win only
            assert s.value == want, method


def test_the_shipped_random_trees_agree_through_python():
    # The same shapes as the Rust tests' random trees, read through the protocol: a Python game
    # that replays a shipped game's moves by name.
    class Shipped:
        def __init__(self, game):
            self.game = game

        def to_move(self):
            return self.game.to_move()

        def moves(self):
            return self.game.moves()

        def play(self, m):
            return Shipped(self.game.play(m))

        def evaluate(self):
            return self.game.evaluate()

    for seed in range(20):
        g = gs.Game(f"random:b=3,h=4,seed={seed}")
        assert gs.search(Shipped(g), algo="alphabeta").value == gs.search(g, algo="minimax").value


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(4, 4), (5, 4), (4, 5)]), st.lists(st.integers(0, 4), min_size=3, max_size=10))
def test_python_connect4_equals_the_shipped_one(size, columns):
    # Two Connect-Fours written apart (Rust bitboards with Pons' scores; Python bitboards with
    # +1/0/-1): the same win/draw/loss from every position.
    w, h = size
    ours, shipped = Connect4(w, h), gs.Game(f"connect4:{w}x{h}")
    for c in columns:
        c %= w
        if c not in ours.moves():
            continue
        ours, shipped = ours.play(c), shipped.play(str(c + 1))
    assert sorted(ours.moves()) == sorted(int(m) - 1 for m in shipped.moves())
    if not ours.moves():
        return
    a = gs.solve(ours, method="alphabeta-tt", tt_mb=4)
    b = gs.solve(shipped, method="alphabeta-tt", tt_mb=4)
    assert a.outcome == b.outcome, (w, h, columns)
    assert gs.solve(ours, method="dfpn-multi", tt_mb=4).value == a.value


def test_best_move_and_pv_are_the_games_objects():
    p = Connect4.from_moves("445566")
    # Only columns 3 and 7 (counted from 0: 2 and 6) win at once.
    r = gs.search(p, algo="negascout", depth=1)
    assert r.value == 1 and r.best_move in (2, 6)
    r = gs.search(p, algo="pvs", depth=5)
    assert r.pv[0] == r.best_move and len(r.pv) >= 1 and all(isinstance(m, int) for m in r.pv)
    assert gs.solve(p).best_move in (2, 6)


def test_trace_of_a_python_game(tmp_path):
    t = gs.trace(Tree((1, (3, (-1, (5, 1)), 2))), ["minimax", "alphabeta"])
    assert [x["value"] for x in t.data] == [3, 3]
    t.save(tmp_path / "t.html")
    assert "alphabeta" in (tmp_path / "t.html").read_text()


class Nim:
    """Take one, two or three; who takes the last stone wins."""

    def __init__(self, pile, player=1):
        self.pile, self.player = pile, player

    def to_move(self):
        return self.player

    def moves(self):
        return [n for n in (1, 2, 3) if n <= self.pile]

    def play(self, n):
        return type(self)(self.pile - n, -self.player)

    def evaluate(self):
        return -self.player if self.pile == 0 else 0


class KeyedNim(Nim):
    def key(self):
        return self.pile * 2 + (self.player == 1)


def test_nim_is_lost_on_multiples_of_four():
    for pile in range(1, 60):
        for game in [KeyedNim(pile)] + ([Nim(pile)] if pile < 12 else []):
            s = gs.solve(game)
            assert s.outcome == ("loss" if pile % 4 == 0 else "win"), pile
            if pile % 4:
                assert s.best_move == pile % 4


def bad(cls, method_name, body):
    return type(cls.__name__ + "_" + method_name, (cls,), {method_name: body})


@pytest.mark.parametrize(
    "game, message",
    [
        (bad(Nim, "moves", lambda self: 1 / 0)(5), r"moves\(\) raised ZeroDivisionError"),
        (bad(Nim, "moves", lambda self: 3)(5), r"moves\(\) must return a sequence.*3 \(int\)"),
        (bad(Nim, "moves", lambda self: "abc")(5), r"moves\(\) must return a sequence"),
        (bad(Nim, "play", lambda self, n: None)(5), r"play\(1\) returned None"),
        (bad(Nim, "play", lambda self, n: self)(5), r"play\(1\) returned the same object"),
        (bad(Nim, "to_move", lambda self: 0)(5), r"to_move\(\) must return \+1 .* or -1"),
        (bad(Nim, "evaluate", lambda self: 0.5)(5), r"evaluate\(\) must return an int.*0.5 \(float\)"),
        (bad(Nim, "evaluate", lambda self: 10**12)(5), r"evaluate\(\) must return an int"),
        (bad(Nim, "key", lambda self: "k")(5), r"key\(\) must return an int"),
        (bad(Nim, "value_bounds", lambda self: (1, -1))(5), r"value_bounds\(\) must return"),
        (bad(Nim, "moves", lambda self: [0])(5), r"more than 10000 plies"),
    ],
)
def test_bad_games_raise_clear_errors(game, message):
    calls = [gs.solve, lambda g: gs.solve(g, method="dfpn-multi")]
    if "key" not in message:  # searches without a table never ask for keys
        calls.append(gs.search)
    for call in calls:
        with pytest.raises(GameSearchError, match=message):
            call(game)


def test_a_callbacks_exception_is_the_cause():
    with pytest.raises(GameSearchError) as e:
        gs.search(bad(Nim, "moves", lambda self: 1 / 0)(5))
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_the_engine_plays_a_python_game_within_a_time_budget():
    # Issue #58: Engine(python_game) was a TypeError, and a fixed-depth search with max_time
    # could end with no move. The engine always has one, and on Nim it is the proven one
    # (leave a multiple of four), checked against the rule, not against the engine.
    for pile in (5, 6, 7, 13, 30):
        e = gs.Engine(KeyedNim(pile), time=0.05)
        t = e.think()
        assert t.best_move == pile % 4, pile
        assert t.pv[0] == t.best_move
        e.play(t.best_move)
        assert e.game.pile == pile - pile % 4
    # Without key() too, and on a game too deep to finish: a move within the budget.
    assert gs.Engine(Nim(9), time=0.05).best_move() == 1
    t = gs.Engine(Connect4(), time=0.2).think()
    assert not t.complete and t.best_move in Connect4().moves() and t.depth >= 1
    e = gs.Engine(KeyedNim(5), time=0.05)
    with pytest.raises(GameSearchError, match="not legal"):
        e.play(7)
    with pytest.raises(GameSearchError, match="book"):
        gs.Engine(KeyedNim(5), book=os.path.join(EXAMPLES, "..", "..", "books", "connect4-7x6-ply4.book"))


class CoinRow:
    """Coins in a row; each side in turn takes the coin at either end; the value is MAX's coins
    less MIN's."""

    def __init__(self, row, lo=0, hi=None, banked=0, player=1):
        self.row, self.lo, self.hi = row, lo, len(row) if hi is None else hi
        self.banked, self.player = banked, player

    def to_move(self):
        return self.player

    def moves(self):
        return ["left", "right"][: min(2, self.hi - self.lo)]

    def play(self, end):
        coin = self.row[self.lo] if end == "left" else self.row[self.hi - 1]
        lo, hi = (self.lo + 1, self.hi) if end == "left" else (self.lo, self.hi - 1)
        return type(self)(self.row, lo, hi, self.banked + self.player * coin, -self.player)

    def evaluate(self):
        return self.banked


class Coins(CoinRow):
    """With score_so_far(): key() is the coins left and the mover alone."""

    def key(self):
        return self.lo * 1000 + self.hi * 2 + (self.player == 1)

    def score_so_far(self):
        return self.banked


class CoinsScoreInKey(CoinRow):
    """The same game as a user had to write it before score_so_far(): the score in the key."""

    def key(self):
        return (self.banked * 100_000 + self.lo * 1000 + self.hi * 2 + (self.player == 1)) & (2**63 - 1)


def coins_margin(row):
    # The mover's best margin on coins i..j by the game's recurrence, written apart.
    n = len(row)
    m = [[0] * (n + 1) for _ in range(n + 1)]
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            m[i][j] = max(row[i] - m[i + 1][j], row[j - 1] - m[i][j - 1])
    return m[0][n]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=10))
def test_a_score_game_keeps_its_transpositions(row):
    # Issue #58: a score-keeping game had to put its score in key() and lost its transpositions.
    want = coins_margin(row)
    for method in ("alphabeta-tt", "pn-multi", "dfpn-multi"):
        assert gs.solve(Coins(row), method=method, tt_mb=4).value == want, method
    assert gs.Solver(tt_mb=4).solve(Coins(row)).value == want


def test_the_score_so_far_saves_nodes():
    row = [(i * 7919 % 41) - 20 for i in range(18)]
    with_score = gs.solve(Coins(row), tt_mb=4)
    in_key = gs.solve(CoinsScoreInKey(row), tt_mb=4)
    assert with_score.value == in_key.value == coins_margin(row)
    assert with_score.stats.nodes * 3 < in_key.stats.nodes, (with_score.stats.nodes, in_key.stats.nodes)
    with pytest.raises(GameSearchError, match="score_so_far"):
        gs.solve(type("BadScore", (Coins,), {"score_so_far": lambda self: "many"})([1, 2]))


def test_not_a_game():
    with pytest.raises(TypeError, match=r"has no to_move\(\), play\(\), evaluate\(\)"):
        gs.search(type("Half", (), {"moves": lambda self: []})())
    with pytest.raises(TypeError):
        gs.solve(42)
    with pytest.raises(GameSearchError, match="one thread"):
        gs.solve(Nim(5), threads=2)


def test_budgets_stop_a_python_game():
    r = gs.search(Connect4(), algo="minimax", depth=8, max_nodes=2_000)
    assert not r.complete
    s = gs.solve(Connect4(), max_nodes=2_000)
    assert not s.complete and s.bounds[0] <= 1 <= s.bounds[1]


def test_ctrl_c_stops_a_python_game(interrupt):
    code = (
        f"import sys; sys.path.insert(0, {EXAMPLES!r})\n"
        "from connect4_in_python import Connect4\n"
        "import gamesearch as gs\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    gs.solve(Connect4())\n"
        "except KeyboardInterrupt as e:\n"
        "    s = e.args[1]\n"
        "    print('interrupted', s.complete, s.stats.nodes > 0, flush=True)\n"
    )
    p, sent = interrupt(code)  # the empty 7x6 board in Python takes hours: mid-solve
    out, _ = p.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert out.strip() == "interrupted False True", out


# Games whose positions repeat: a directed graph with cycles, each position's mover and moves
# drawn by hypothesis, ends worth -1, 0 or +1. The oracle is the definition, round by round,
# written here: won in k plies when a child is won for the mover after k - 1 rounds (the least
# such k), lost in k when every child is lost for the mover (the last of them); what no round
# decides is a draw.
cyclic_graphs = st.integers(1, 12).flatmap(
    lambda n: st.lists(
        st.tuples(st.sampled_from([1, -1]), st.lists(st.integers(0, n - 1), max_size=3), st.integers(-1, 1)),
        min_size=n,
        max_size=n,
    )
)


class Cyclic:
    """The protocol over such a graph: `repeats = True`, the position's index as its key."""

    repeats = True
    __slots__ = ("graph", "at")

    def __init__(self, graph, at=0):
        self.graph, self.at = graph, at

    def to_move(self):
        return self.graph[self.at][0]

    def moves(self):
        return list(range(len(self.graph[self.at][1])))

    def play(self, m):
        return Cyclic(self.graph, self.graph[self.at][1][m])

    def evaluate(self):
        mover, nxt, end = self.graph[self.at]
        return end if not nxt else 0

    def key(self):
        return self.at


def by_rounds(graph):
    """(value for MAX, remoteness or None) of every position, by the definition."""
    known = [(end, 0) if not nxt and end != 0 else None for _, nxt, end in graph]
    for _ in range(len(graph) + 1):
        before = list(known)
        for p, (mover, nxt, _) in enumerate(graph):
            if before[p] is not None or not nxt:
                continue
            won = [before[c][1] for c in nxt if before[c] is not None and before[c][0] == mover]
            if won:
                known[p] = (mover, min(won) + 1)
            elif all(before[c] is not None and before[c][0] == -mover for c in nxt):
                known[p] = (-mover, max(before[c][1] for c in nxt) + 1)
        if known == before:
            break
    return [k if k is not None else (0, None) for k in known]


@settings(max_examples=300, deadline=None)
@given(cyclic_graphs)
def test_a_python_game_whose_positions_repeat_is_solved_weakly_and_strongly(graph):
    want = by_rounds(graph)
    value, remoteness = want[0]
    strong = gs.solve_strongly(Cyclic(graph))
    assert strong.complete
    assert (strong.value, strong.remoteness) == (value, remoteness)
    for method in ("alphabeta-tt", "dfpn", "dfpn-multi"):
        s = gs.solve(Cyclic(graph), method, tt_mb=1)
        assert s.complete, method
        assert s.outcome == {1: "win", 0: "draw", -1: "loss"}[value], method
        assert s.remoteness == remoteness, method
    # The tree proof-number search keeps no line: a clear error.
    with pytest.raises(GameSearchError, match="positions repeat"):
        gs.solve(Cyclic(graph), "pn")


def test_a_repetition_worth_a_win_is_read_by_solve_and_refused_by_solve_strongly():
    # MAX to move: into a cycle with MIN (0 <-> 1), or to a drawn end (2).
    graph = [(1, [1, 2], 0), (-1, [0], 0), (-1, [], 0)]

    class EndlessWins(Cyclic):
        repetition_value = 1

        def play(self, m):
            return EndlessWins(self.graph, self.graph[self.at][1][m])

    for method in ("alphabeta-tt", "dfpn", "dfpn-multi"):
        assert gs.solve(EndlessWins(graph), method).outcome == "win", method
        assert gs.solve(Cyclic(graph), method).outcome == "draw", method
    with pytest.raises(GameSearchError, match="not as a draw"):
        gs.solve_strongly(EndlessWins(graph))

    class Vague(Cyclic):
        repetition_value = "a draw"

    with pytest.raises(GameSearchError, match="repetition_value must be an int"):
        gs.solve(Vague(graph), "dfpn")


def test_a_game_that_repeats_needs_a_key():
    class Keyless:
        repeats = True

        def to_move(self):
            return 1

        def moves(self):
            return [0]

        def play(self, m):
            return self

        def evaluate(self):
            return 0

    with pytest.raises(TypeError, match="needs key"):
        gs.solve(Keyless())
