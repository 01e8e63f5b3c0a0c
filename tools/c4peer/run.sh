#!/bin/sh
# Solves the empty 7x6 Connect-Four board with a peer solver and with gamesearch, one after the
# other, same thread count, about the same table size, and prints both times.
#
#   tools/c4peer/run.sh PEER_SOURCE_DIR [THREADS] [TABLE_MIB]
#
# PEER_SOURCE_DIR is a checkout of Christophe Steininger's solver (github: ChristopheSteininger/c4,
# AGPL). It is not part of this project: this script copies it to a temporary directory, sets its
# compile-time settings (threads, table entries), builds its `c4` program with g++ (-O3 -flto, as
# its CMake "optimise" preset, and -mpopcnt on x86-64 as ours: peer.sh), and runs it. Nothing of
# it is kept. THREADS defaults to 1, TABLE_MIB to 1024 (the peer sizes its table in entries of 8
# bytes: a prime near TABLE_MIB MiB).
set -eu
peer=${1:?usage: tools/c4peer/run.sh PEER_SOURCE_DIR [THREADS] [TABLE_MIB]}
threads=${2:-1}
mib=${3:-1024}
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/tools/c4peer/peer.sh"
prepare_peer "$peer" "$threads" "$mib"
echo "peer: $threads thread(s), $entries table entries; building in $work"
${CXX:-g++} $(peer_cxxflags) -o "$work/c4" \
    "$work/src/c4.cpp" $(find "$work/src/solver" -name '*.cpp')
start=$(date +%s.%N)
"$work/c4" < /dev/null | grep -E "Final|nodes|Nodes" | head -5
end=$(date +%s.%N)
echo "peer time: $(python3 -c "print(round($end - $start, 1))") s"
cargo build --release -q --manifest-path "$here/Cargo.toml"
start=$(date +%s.%N)
"$here/target/release/gamesearch" solve connect4:7x6 --tt-mb "$mib" --threads "$threads" --id-depth 0 --quiet \
    | grep -E "value|stats"
end=$(date +%s.%N)
echo "gamesearch time: $(python3 -c "print(round($end - $start, 1))") s"
