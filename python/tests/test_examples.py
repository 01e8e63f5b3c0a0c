"""Every script in python/examples runs, and prints what it says it does."""

import os
import pathlib
import re
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def run(name, *args, cwd=None):
    out = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                         text=True, cwd=cwd, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_solve_connect4():
    out = run("solve_connect4.py", "3344", "5x4")
    assert "alphabeta-tt:" in out and "dfpn-multi:" in out and "the engine against itself" in out
    # 7x6 after 4455 is a first-player win (+18, Pons' solver).
    assert "win (+18), best move 3" in run("solve_connect4.py")


def test_compare_algorithms():
    out = run("compare_algorithms.py", "random:b=4,h=4,seed=2")
    rows = [line.split() for line in out.splitlines()[3:] if line.strip()]
    assert len(rows) == 10
    assert len({r[1] for r in rows}) == 1  # every algorithm the same value


def test_connect4_in_python():
    out = run("connect4_in_python.py")
    assert "4x4 solved: draw" in out  # Tromp: 4x4 is a draw


def test_trace_page(tmp_path):
    out = run("trace_page.py", "t.html", cwd=tmp_path)
    assert "wrote t.html" in out and (tmp_path / "t.html").stat().st_size > 10_000


def test_nim_is_the_readmes():
    readme = (EXAMPLES.parents[0] / "README.md").read_text()
    nim = (EXAMPLES / "nim.py").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "class Nim" in b)
    assert block in nim  # the README shows the file, whole
    assert run("nim.py").splitlines()[0] == "win 1"
