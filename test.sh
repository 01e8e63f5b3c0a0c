#!/bin/sh
# Every test of the project: the Rust workspace's (library, command line, doctests), then the
# Python package's, built and installed into a fresh virtual environment as a user would
# (`pip install ./python`: maturin, pytest and hypothesis come from PyPI).
set -e
cd "$(dirname "$0")"
cargo test --release
venv="$(mktemp -d)/venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet ./python pytest hypothesis
# Run from the repository root, so that the installed package is imported, not python/gamesearch.
"$venv/bin/pytest" -q python/tests
