#!/bin/sh
# Empty Connect-Four boards solved by the peer solver and by gamesearch, one after the other,
# same thread count and table size: the peer is built once per board size (its size is a
# compile-time setting), each side runs ROUNDS times alternately, and every run's time and
# nodes are printed (both solve times to the microsecond: peer.sh sets the peer's clock);
# tools/c4peer/medians.py turns them into the table of docs/results/connect4.md.
#
#   tools/c4peer/boards.sh PEER_SOURCE_DIR "7x6 6x6 8x5" [THREADS] [TABLE_MIB] [ROUNDS] \
#       | tee runs.txt | tools/c4peer/medians.py
#
# PEER_SOURCE_DIR is a checkout of Christophe Steininger's solver (github:
# ChristopheSteininger/c4, AGPL), not part of this project: copied to a temporary directory per
# board, its settings set there, built with g++ (-O3 -flto, as its CMake "optimise" preset, and
# -mpopcnt on x86-64, the instruction level ours is built for: peer.sh), run, deleted. Nothing
# of it is kept.
set -eu
peer=${1:?usage: tools/c4peer/boards.sh PEER_SOURCE_DIR "WxH ..." [THREADS] [TABLE_MIB] [ROUNDS]}
boards=${2:?usage: tools/c4peer/boards.sh PEER_SOURCE_DIR "WxH ..." [THREADS] [TABLE_MIB] [ROUNDS]}
threads=${3:-1}
mib=${4:-1024}
rounds=${5:-3}
here=$(cd "$(dirname "$0")/../.." && pwd)
cargo build --release -q --manifest-path "$here/Cargo.toml"
for board in $boards; do
    w=${board%x*}
    h=${board#*x}
    (
        . "$here/tools/c4peer/peer.sh"
        prepare_peer "$peer" "$threads" "$mib"
        peer_board "$w" "$h"
        ${CXX:-g++} $(peer_cxxflags) -o "$work/c4" \
            "$work/src/c4.cpp" $(find "$work/src/solver" -name '*.cpp')
        for r in $(seq "$rounds"); do
            start=$(date +%s.%N)
            # Its closing statistics: the time of the whole solve and the nodes of every search.
            nodes=$("$work/c4" < /dev/null | grep -E "Final|Time to solve|Total" | tr -s ' ' | tr '\n' ';')
            end=$(date +%s.%N)
            echo "$board peer round $r: $(python3 -c "print(f'{$end - $start:.2f}')") s; $nodes"
            start=$(date +%s.%N)
            json=$("$here/target/release/gamesearch" experiment boards --boards "$board" \
                --tt-mb "$mib" --threads "$threads" --json 2>/dev/null)
            end=$(date +%s.%N)
            # (Read once it has exited: a Python starting beside it took a core from its threads.)
            ours=$(echo "$json" | python3 -c "import json,sys; r=json.load(sys.stdin)[0]; print(f\"value {r['value']:+d}, {r['nodes']} nodes, search {r['seconds']:.6f} s\")")
            echo "$board gamesearch round $r: $(python3 -c "print(f'{$end - $start:.2f}')") s; $ours"
        done
    )
done
