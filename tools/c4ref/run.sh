#!/bin/sh
# Builds tools/c4ref (the same-machine yardstick for `gamesearch bench connect4`) and runs it:
#   tools/c4ref/run.sh FILE [LIMIT] [--weak] [--keep-table]
set -e
dir=$(dirname "$0")
out=${CARGO_TARGET_DIR:-$dir/../../target}/c4ref
if [ ! -x "$out" ] || [ "$dir/c4ref.cpp" -nt "$out" ]; then
  ${CXX:-g++} -O3 -DNDEBUG -std=c++17 -o "$out" "$dir/c4ref.cpp"
fi
exec "$out" "$@"
