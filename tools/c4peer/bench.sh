#!/bin/sh
# Runs a Connect-Four benchmark file (Pons' "<moves> <score>" lines) with the peer solver and
# with gamesearch, one after the other, same table size, one thread each, and prints both
# reports (positions, mismatches, mean time and nodes per position).
#
#   tools/c4peer/bench.sh PEER_SOURCE_DIR FILE [LIMIT] [TABLE_MIB] [BOARD]
#
# PEER_SOURCE_DIR is a checkout of Christophe Steininger's solver (github:
# ChristopheSteininger/c4, AGPL), not part of this project: it is copied to a temporary
# directory, set to one thread and the table size, and built there with our driver
# (tools/c4peer/bench.cpp, which only calls its Solver API). Nothing of it is kept.
# LIMIT defaults to 200 positions, TABLE_MIB to 64, BOARD (WxH, the peer's compile-time size)
# to 7x6.
set -eu
peer=${1:?usage: tools/c4peer/bench.sh PEER_SOURCE_DIR FILE [LIMIT] [TABLE_MIB]}
file=${2:?usage: tools/c4peer/bench.sh PEER_SOURCE_DIR FILE [LIMIT] [TABLE_MIB]}
limit=${3:-200}
mib=${4:-64}
board=${5:-7x6}
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/tools/c4peer/peer.sh"
prepare_peer "$peer" 1 "$mib"
peer_board "${board%x*}" "${board#*x}"
${CXX:-g++} $(peer_cxxflags) -I"$work/src" -o "$work/bench" \
    "$here/tools/c4peer/bench.cpp" $(find "$work/src/solver" -name '*.cpp')
echo "== peer ($board, $entries entries of 8 bytes, 1 thread): first $limit of $file"
head -n "$limit" "$file" | "$work/bench" "$limit" | grep -v "^$" || true
cargo build --release -q --manifest-path "$here/Cargo.toml"
echo "== gamesearch ($board, $mib MiB, 1 thread)"
"$here/target/release/gamesearch" bench connect4 "$file" --board "$board" --limit "$limit" --tt-mb "$mib" --quiet \
    | grep -E "positions|mismatches|mean"
