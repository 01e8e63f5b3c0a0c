"""The Python package against the Rust library's own answers and independent ones."""

import json
import os
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gamesearch
from gamesearch import Game, GameSearchError


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**63 - 1), st.sampled_from(["", ",values=discrete:3"]))
def test_every_algorithm_equals_minimax_on_random_trees(b, h, seed, values):
    # Every algorithm against minimax (the oracle) on the seeded random trees the CLI takes.
    g = Game(f"random:b={b},h={h},seed={seed}{values}")
    want = gamesearch.search(g, algo="minimax").value
    for algo in gamesearch.algorithms(exact=True):
        r = gamesearch.search(g, algo=algo)
        assert r.value == want, algo
        assert r.complete and r.stats.nodes > 0


def test_solvers_agree_on_small_games():
    # Published values: tic-tac-toe a draw; Connect-Four 4x4 and 5x4 draws (Tromp);
    # Kalah(4,2) +6 (Irving et al.).
    for spec, value in [("tictactoe", 0), ("connect4:4x4", 0), ("kalah:4,2", 6)]:
        for method in gamesearch.methods():
            r = gamesearch.solve(spec, method=method, tt_mb=16)
            assert r.complete, (spec, method)
            outcome = {1: "win", 0: "draw", -1: "loss"}[(value > 0) - (value < 0)]
            assert r.outcome == outcome, (spec, method)
            if method not in ("pn", "dfpn"):
                assert r.value == value, (spec, method)


def test_othello():
    g = gamesearch.Game("othello")
    assert g.moves() == ["d3", "c4", "f5", "e6"]  # square order: a1, b1, …, h8
    assert gamesearch.solve("othello:4x4").value == -10  # 3 discs to 11, two squares empty
    assert gamesearch.Engine("othello:6x6", time=0.05).best_move() in gamesearch.Game("othello:6x6").moves()
    assert "X (Black) to move" in str(g)
    with pytest.raises(GameSearchError, match="not legal"):
        g.play("a1")
    with pytest.raises(GameSearchError, match="4x4, 6x6 or 8x8"):
        gamesearch.Game("othello:10x10")


def test_domineering():
    # Published classes (Lachmann, Moore & Rapaport 2002; Breuker et al. 2000): 5x5 is a
    # second-player win, 4x5 Vertical's whoever starts.
    g = gamesearch.Game("domineering:4x4")
    assert g.moves()[:3] == ["a1a2", "b1b2", "c1c2"]  # Vertical first, places in cell order
    assert gamesearch.solve("domineering:5x5").value == -1
    assert gamesearch.solve("domineering:5x5:h").value == -1
    assert gamesearch.solve("domineering:4x5").value == 1
    assert gamesearch.solve("domineering:4x5:h").value == -1
    assert gamesearch.Engine("domineering:6x6", time=0.05).best_move() in gamesearch.Game("domineering:6x6").moves()
    assert "Vertical to move" in str(g)
    with pytest.raises(GameSearchError, match="not legal"):
        g.play("a1b1")
    with pytest.raises(GameSearchError, match="26 columns"):
        gamesearch.Game("domineering:2x30")


def test_hex():
    # 4x4's winning openings are the short diagonal (d1, c2, b3, a4: Hayward & van Rijswijck
    # 2006); with the swap rule the second player wins any board.
    g = gamesearch.Game("hex:4x4")
    assert g.moves()[:3] == ["a1", "b1", "c1"]
    assert gamesearch.solve("hex:4x4").value == 1
    assert gamesearch.solve("hex:4x4:c2", method="dfpn").value == 1
    assert gamesearch.solve("hex:4x4:a1", method="dfpn").value == -1
    assert gamesearch.solve("hex:3x3:swap").value == -1
    assert gamesearch.Engine("hex:5x5", time=0.05).best_move() in gamesearch.Game("hex:5x5").moves()
    assert "Black to move" in str(g)
    with pytest.raises(GameSearchError, match="not legal"):
        g.play("e5")
    with pytest.raises(GameSearchError, match="11x11"):
        gamesearch.Game("hex:12x12")


def test_kalah_names_its_capture_rule():
    # The two rules are two games: Kalah(2,4) is -12 under Irving et al.'s empty-capture rule and
    # -10 under the standard rule (the oracle written apart is games/tests/kalah_rules.rs).
    assert gamesearch.Game("kalah:2,4").rules.startswith("empty-capture rule")
    assert gamesearch.Game("kalah:2,4:standard").rules.startswith("standard rule")
    assert gamesearch.Game("tictactoe").rules is None
    assert gamesearch.solve("kalah:2,4").value == -12
    assert gamesearch.solve("kalah:2,4:standard").value == -10
    with pytest.raises(gamesearch.GameSearchError, match="no capture rule"):
        gamesearch.Game("kalah:2,4:oware")


def test_odd_board_last_stone_win():
    r = gamesearch.solve("connect4:5x5:23", method="dfpn-multi", check=True)
    assert (r.value, r.outcome) == (1, "win")
    assert r.proof_nodes > 0


def test_values_past_2_pow_29():
    """Issue #58: multi-valued PN and df-pn capped values at 2^29 - 1 and called them exact."""
    for spec, value in [("tree:(max 999999999 5)", 999999999), ("tree:(max 536870912 5)", 536870912)]:
        for method in ["alphabeta-tt", "pn-multi", "dfpn-multi"]:
            assert gamesearch.solve(spec, method=method).value == value, (spec, method)


def test_playing_a_game():
    g = Game("connect4:7x6")
    assert g.moves() == [str(c) for c in range(1, 8)]
    assert g.to_move() == 1
    for m in "445566":
        g = g.play(m)
    assert g.history == list("445566")
    # The first player completes four with 3 or 7.
    best = gamesearch.solve(g).best_move
    assert best in ("3", "7")
    won = g.play(best)
    assert won.is_over() and won.evaluate() > 0
    assert "|" in str(won)  # the board drawn
    assert g.play(4) == g.play("4")


def test_bad_input_raises_value_errors():
    with pytest.raises(ValueError):
        Game("chess")
    with pytest.raises(GameSearchError, match="column 4 is full"):
        Game("connect4:7x6:4444444")
    with pytest.raises(GameSearchError, match="not legal"):
        Game("tictactoe").play("10")
    with pytest.raises(GameSearchError, match="unknown algorithm"):
        gamesearch.search(Game("tictactoe"), algo="quantum")
    with pytest.raises(GameSearchError, match="unknown solver"):
        gamesearch.solve(Game("tictactoe"), method="guess")
    with pytest.raises(GameSearchError, match="horizon"):
        gamesearch.search("kalah:6,4")
    with pytest.raises(GameSearchError):
        gamesearch.search(Game("tictactoe"), max_time=-1)


def test_budgets_stop_cleanly():
    r = gamesearch.solve("connect4:7x6", max_nodes=10_000)
    assert not r.complete
    lo, hi = r.bounds
    assert lo <= 1 <= hi  # the empty 7x6 board is +1
    r = gamesearch.search("random:b=8,h=8,seed=1", algo="alphabeta", max_nodes=5_000)
    assert not r.complete


def cli(*args):
    """The command line's JSON answer: the binary `cargo test --release` built (./test.sh runs
    it first), else `cargo run` builds it (pytest runs from the repository root)."""
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    exe = os.path.join(root, "target", "release", "gamesearch")
    cmd = [exe] if os.path.exists(exe) else ["cargo", "run", "--release", "-q", "--"]
    out = subprocess.run(cmd + list(args) + ["--json"], cwd=root, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_cli_and_the_package_agree():
    # Kalah and Connect-Four positions solved by the command line and by Python: the same
    # values, bounds and outcomes, with every method.
    specs = ["kalah:4,3", "kalah:3,3,3,3/3,3,3,3/0,0/S", "kalah:4,2", "connect4:5x4:33", "connect4:6x4",
             "connect4:7x6:4455443", "connect4:5x5:23"]
    for spec in specs:
        for method in ["alphabeta-tt", "pn-multi", "dfpn", "dfpn-multi"]:
            if method == "pn-multi" and spec.startswith("connect4") and spec != "connect4:5x4:33":
                continue  # tree PN holds its whole tree in memory: gigabytes on these
            theirs = cli("solve", spec, "--algo", method)
            ours = gamesearch.solve(spec, method=method)
            assert ours.complete and theirs["complete"], (spec, method)
            assert (ours.value, list(ours.bounds), ours.outcome) == (
                theirs["value"], theirs["bounds"], theirs["outcome"]), (spec, method)


def test_ctrl_c_stops_a_long_solve_with_its_result(interrupt):
    import time

    code = (
        "import gamesearch as gs, sys\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    gs.solve('connect4:7x6', tt_mb=16)\n"
        "except KeyboardInterrupt as e:\n"
        "    s = e.args[1]\n"
        "    print('interrupted', s.complete, s.bounds[0] <= 1 <= s.bounds[1], flush=True)\n"
    )
    p, sent = interrupt(code)  # the empty 7x6 board takes half a minute: the signal lands mid-solve
    out, _ = p.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert out.strip() == "interrupted False True", out


def test_docstring_examples():
    import doctest

    failures, _ = doctest.testmod(gamesearch)
    assert failures == 0
    failures, _ = doctest.testmod(gamesearch.matches)
    assert failures == 0


def test_a_match_against_a_python_player_scores_pairs_and_decides():
    import random

    # A player of another kind: a plain Python function choosing uniformly at random.
    rng = random.Random(7)

    def random_player(g):
        return rng.choice(g.moves())

    perfect = gamesearch.engine_player(depth=9)
    r = gamesearch.match("tictactoe", perfect, random_player, openings=50, opening_plies=1, seed=3, sprt=(0, 100))
    # The perfect player never loses from one random ply (every one-ply opening is a draw).
    assert r.losses == 0 and r.wins > 0, r
    assert r.verdict == "H1" and r.llr >= 2.94, r
    assert sum(r.pairs) * 2 == r.wins + r.draws + r.losses < 100  # stopped early
    assert r.elo_ci95[0] > 0 < r.elo
    # The same seed, the same openings; MCTS as a side.
    again = gamesearch.match("tictactoe", gamesearch.engine_player(time=0.01, driver="mcts-solver"), perfect, openings=2, seed=3)
    assert again.wins + again.draws + again.losses == 4 and sum(again.pairs) == 2
    assert again.llr is None and again.verdict is None
    with pytest.raises(gamesearch.GameSearchError, match="legal moves"):
        gamesearch.match("tictactoe", lambda g: "z9", perfect, openings=1)
    with pytest.raises(gamesearch.GameSearchError):
        gamesearch.match("tictactoe", perfect, perfect, openings=0)
    with pytest.raises(gamesearch.GameSearchError, match="elo0 < elo1"):
        gamesearch.match("tictactoe", perfect, perfect, openings=1, sprt=(10, 0))
    # The statistics are the command line's (cli/src/sprt.rs), not a copy: its doctest's pairs.
    assert gamesearch.matches.llr([2, 10, 40, 60, 30], 0, 10) > 2.94


def test_the_readmes_python_blocks_run(tmp_path, monkeypatch):
    """Every ```python block of README.md, python/README.md and the guide's your-own-game.md, and the one-liners they show
    after `pip install ./python`, run as written."""
    import pathlib
    import re

    monkeypatch.chdir(tmp_path)  # what they write lands here

    root = pathlib.Path(__file__).resolve().parents[2]
    (tmp_path / "books").symlink_to(root / "books")  # the shipped book, as from the root
    readmes = [root / "README.md", root / "python" / "README.md", root / "docs" / "guide" / "your-own-game.md"]
    texts = {r: r.read_text() for r in readmes}
    blocks = [(r, b) for r, t in texts.items() for b in re.findall(r"```python\n(.*?)```", t, re.S)]
    assert len(blocks) >= 4, "the READMEs show Python"
    for r, code in blocks:
        exec(compile(code, str(r), "exec"), {})
    one_liners = [
        (r, c) for r, t in texts.items() for c in re.findall(r'^v/bin/python -c "(.*)"$', t, re.M)
    ]
    assert one_liners
    for r, code in one_liners:
        exec(compile(code, str(r), "exec"), {})


def test_trace_writes_the_viewer(tmp_path):
    t = gamesearch.trace("connect4:4x4", ["alphabeta", "pn-multi"], depth=4)
    assert [x["algorithm"] for x in t.data] == ["alphabeta", "pn-multi"]
    assert t.data[0]["value"] == t.data[1]["value"]
    for ext in (".html", ".json", ".svg"):
        t.save(tmp_path / f"t{ext}")
        assert (tmp_path / f"t{ext}").stat().st_size > 100
    assert "<script" in t.html and "<iframe" in t._repr_html_()
    with pytest.raises(GameSearchError):
        t.save(tmp_path / "t.png")
    with pytest.raises(GameSearchError, match="unknown algorithm"):
        gamesearch.trace("tictactoe", ["quantum"])


def test_trace_shows_mcts_growing_its_tree():
    # Each playout: its selection, the child added, the result, the visits up the path.
    (t,) = gamesearch.trace("tictactoe", ["mcts-solver"], node_cap=200).data
    kinds = [s["type"] for s in t["steps"]]
    assert kinds[:3] == ["select", "expand", "playout"] and "visits" in kinds
    root = [s for s in t["steps"] if s["type"] == "visits" and s["node"] == 0]
    assert root[-1]["visits"] == len(root) == kinds.count("playout")
    assert 0.0 <= root[-1]["mean"] <= 1.0


def test_the_engine_plays_tictactoe_without_losing():
    # Engine against engine at depth 9 (perfect play): every game a draw; it follows the game.
    x = gamesearch.Engine("tictactoe", time=None, depth=9)
    o = gamesearch.Engine("tictactoe", time=None, depth=9)
    g = Game("tictactoe")
    while not g.is_over():
        side = x if g.to_move() == 1 else o
        t = side.think()
        assert t.iterations and t.best_move in g.moves()
        g = g.play(t.best_move)
        x.play(t.best_move)
        o.play(t.best_move)
    assert g.evaluate() == 0 and x.game == g
    with pytest.raises(GameSearchError, match="not random or explicit trees"):
        gamesearch.Engine("random:b=2,h=3,seed=1")
    with pytest.raises(GameSearchError):
        gamesearch.Engine("tictactoe", time=None)
    # A proven win is reported as one.
    t = gamesearch.Engine("connect4:7x6:445566", time=0.05).think()
    assert t.mate == 1 and t.best_move in ("3", "7")


def test_ctrl_c_leaves_pythons_handlers_as_they_were(interrupt):
    # A solve on the main thread catches SIGINT itself for its duration: afterwards Python's
    # handler is back, a solve on another thread works, and a handler the user set is kept.
    import signal
    import time

    code = (
        "import gamesearch as gs, time, threading, signal\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    gs.solve('connect4:7x6', tt_mb=16)\n"
        "except KeyboardInterrupt as e:\n"
        "    print('first', e.args[1].complete, flush=True)\n"
        "try:\n"
        "    time.sleep(20)\n"
        "except KeyboardInterrupt:\n"
        "    print('python handler back', flush=True)\n"
        "r = []\n"
        "t = threading.Thread(target=lambda: r.append(gs.solve('kalah:4,2').value)); t.start(); t.join()\n"
        "print('thread', r, flush=True)\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "print('user handler kept', gs.solve('connect4:7x6:4455').value, signal.getsignal(signal.SIGINT) == signal.SIG_IGN, flush=True)\n"
    )
    p, _ = interrupt(code)
    assert p.stdout.readline().strip() == "first False"
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert out.splitlines() == ["python handler back", "thread [6]", "user handler kept 18 True"], out


def _exhaustive(g):
    """Every line played out through the Game API: the first player's value."""
    if g.is_over():
        return g.evaluate()
    values = [_exhaustive(g.play(m)) for m in g.moves()]
    return max(values) if g.to_move() == 1 else min(values)


@pytest.mark.parametrize(
    "spec",
    [
        # Past 64 bits (u128 bitboards) and wider than 9 columns (moves separated by commas).
        "connect4:10x6:9,8,4,5,10,1,1,6,6,1,1,4,9,3,1,2,3,1,2,2,7,9,2,8,2,3,5,10,10,7,4,4,6,9,6,2,7,7,10,5,5,7,4,3,10,4,5,9,9,7,5,6,6,10",
        "connect4:8x8:1,1,5,4,4,5,7,6,8,6,3,7,3,3,1,2,6,6,8,7,7,2,4,2,4,3,7,5,6,6,2,8,8,3,7,7,2,2,3,6,2,1,2,3,6,8,1,5,5,1,5,3,1,5,1,5,8,7",
        "connect4:12x4:4,10,9,3,6,10,8,11,11,2,11,1,9,5,10,4,4,12,9,9,12,8,4,3,2,3,6,10,1,2,2,12,12,1,5,1,6,8,8,11,5,7",
    ],
)
def test_boards_past_64_bits_and_9_columns(spec):
    g = Game(spec)
    assert len(g.moves()) > 0 and not g.is_over()
    assert gamesearch.solve(g).value == _exhaustive(g)
    if "12x4" in spec:
        # Columns past 9 are named by their numbers.
        assert Game("connect4:12x4").play("12").moves()[-3:] == ["10", "11", "12"]


def test_numbers_out_of_range_are_game_search_errors():
    """Issue #58: `depth=-1` raised OverflowError (everything else raises GameSearchError)."""
    bad = [
        lambda: gamesearch.search("tictactoe", depth=-1),
        lambda: gamesearch.search("tictactoe", depth=2**40),
        lambda: gamesearch.search("tictactoe", max_nodes=-5),
        lambda: gamesearch.solve("tictactoe", tt_mb=-1),
        lambda: gamesearch.solve("tictactoe", threads=-2),
        lambda: gamesearch.solve("tictactoe", id_depth=1.5),
        lambda: gamesearch.Solver(tt_mb=-1),
        lambda: gamesearch.trace("tictactoe", "alphabeta", depth=-3),
        lambda: gamesearch.Engine("tictactoe", depth=-1),
        lambda: gamesearch.split("tictactoe", -1),
    ]
    for call in bad:
        with pytest.raises(GameSearchError):
            call()


def test_an_unfinished_cns_has_no_value():
    """Issue #58: an unfinished `cns` returned value=0 where every other unfinished search
    returns None."""
    r = gamesearch.search("random:b=8,h=8,seed=1", algo="cns", depth=8, max_nodes=2000)
    assert not r.complete
    assert r.value is None
    other = gamesearch.search("random:b=8,h=8,seed=1", algo="pn-multi", depth=8, max_nodes=2000)
    assert (other.complete, other.value) == (False, None)


def test_algorithms_lists_every_name_search_takes():
    # Issue #77 item 10: algorithms() left out mcts, mcts-solver, pn-mcts and bstar.
    names = gamesearch.algorithms()
    for name in ("mcts", "mcts-solver", "pn-mcts", "bstar"):
        assert name in names
        assert name not in gamesearch.algorithms(exact=True)
    for name in names:
        r = gamesearch.search("tictactoe", algo=name, depth=3, max_nodes=2000)
        assert r.algo == name
    assert set(gamesearch.algorithms(exact=True)) < set(names)


def test_games_lists_every_game_the_registry_knows():
    forms = gamesearch.games()
    for kind in ("connect4", "kalah", "tictactoe", "othello", "domineering", "hex", "random", "tree"):
        assert any(f.startswith(kind) for f in forms), kind
        assert kind in open(_readme()).read(), kind


def _readme():
    import pathlib

    return pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_a_binary_solver_says_why_it_has_no_value():
    # Issue #77 item 10: method="pn" and "dfpn" give value None; the result says why.
    # Kalah(4,2): +6 (Irving et al.), a win the binary solvers prove without its margin.
    for method in ("pn", "dfpn"):
        s = gamesearch.solve("kalah:4,2", method=method)
        assert s.value is None and s.outcome == "win" and s.bounds[0] >= 1
        assert "win, draw or loss" in s.note and f"{method}-multi" in s.note
    assert gamesearch.solve("kalah:4,2", method="pn-multi").note is None


def test_the_reference_shows_every_public_name_and_its_examples_run(monkeypatch, tmp_path):
    """python/README.md's reference: a doctest example for every name of `gamesearch.__all__`,
    each run here as written."""
    import doctest
    import pathlib
    import re

    monkeypatch.chdir(tmp_path)
    readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
    failures, tried = doctest.testfile(str(readme), module_relative=False)
    assert failures == 0 and tried >= 40
    examples = "\n".join(re.findall(r"```pycon\n(.*?)```", readme.read_text(), re.S))
    missing = [n for n in gamesearch.__all__ if not re.search(rf"\bgs\.{n}\b|\b{n}\(", examples)]
    assert not missing, f"no example in python/README.md for {missing}"
