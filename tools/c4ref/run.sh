#!/bin/sh
# Builds tools/c4ref (the same-machine yardstick for `gamesearch bench connect4`) and runs it:
#   tools/c4ref/run.sh FILE [LIMIT] [--weak] [--keep-table]
set -e
dir=$(dirname "$0")
out=${CARGO_TARGET_DIR:-$dir/../../target}/c4ref
if [ ! -x "$out" ] || [ "$dir/c4ref.cpp" -nt "$out" ]; then
  ${CXX:-g++} -O3 -DNDEBUG -std=c++17 -o "$out" "$dir/c4ref.cpp"
fi
if [ "$1" = "--position" ] && [ -z "$2" ]; then
  # The empty board is a long solve for this plain re-implementation: say so before it starts.
  echo "c4ref: solving the empty 7x6 board; this takes several minutes (about 5 to 15 here)" >&2
fi
exec "$out" "$@"
