"""Every ```python block of python/README.md runs as written (each in a fresh namespace, in a
scratch directory; the repository's `books/` read where the README names them)."""

import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
ROOT = README.parents[1]


def blocks():
    text = README.read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_has_code():
    assert len(blocks()) >= 3


@pytest.mark.parametrize("i", range(len(blocks())))
def test_every_python_block_runs(i, tmp_path, monkeypatch):
    code = blocks()[i].replace('"books/', f'"{ROOT}/books/')
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"python/README.md block {i + 1}", "exec"), {"__name__": "__readme__"})
