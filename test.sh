#!/bin/sh
# Every test of the project: the Rust workspace's (library, command line, doctests), then the
# Python package's, built and installed into a fresh virtual environment as a user would
# (`pip install ./python`: maturin, pytest, hypothesis and ray come from PyPI; the distributed
# tests start a Ray cluster of their own on loopback and stop it).
set -e
cd "$(dirname "$0")"
cargo test --release
venv="$(mktemp -d)/venv"
python3 -m venv "$venv"
# The build is silent: say how long it takes (python/README.md has the measured figure).
echo "building the Python package (pip install ./python: about 5 minutes on 2 cores the first time; it reuses target/)"
"$venv/bin/pip" install --quiet ./python pytest hypothesis ray
# Run from the repository root, so that the installed package is imported, not python/gamesearch.
"$venv/bin/pytest" -q python/tests
