#!/bin/bash
# Hex: our df-pn beside Benzene's (Arneson, Hayward & Henderson; github cgao3/benzene-vanilla-cmake,
# LGPL: fetched and built apart, in /tmp, never copied here) on every opening of an n×n board,
# one thread each, the two alternated opening by opening; prints each opening and the totals.
# Benzene's time is its df-pn's own ("Elapsed Time" in its log: no start-up, no pattern
# loading); ours is the solve's (the table made before it). BENZENE_PARAMS adds commands before
# the solves, e.g. "param_solver_board use_vcs 0".
# Benzene builds with: apt-get install cmake libboost-all-dev libdb-dev libdb++-dev;
#   mkdir build && cd build && cmake .. && make mohex
# Run from the repository root after `cargo build --release`:
#   BENZENE=/tmp/benzene/build/src/mohex/mohex tools/hex_vs_benzene.sh 6
B=${B:-target/release/gamesearch}
BENZENE=${BENZENE:?set BENZENE to the mohex binary}
LIMIT=${LIMIT:-600}
TT_MB=${TT_MB:-256}
n=${1:-5}
cols=$(echo abcdefghijk | cut -c1-"$n" | grep -o .)
ours_total=0; theirs_total=0; ours_nodes=0; theirs_nodes=0
for r in $(seq 1 "$n"); do
  for c in $cols; do
    cell=$c$r
    o=$($B solve "hex:${n}x$n:$cell" --algo dfpn --threads 1 --tt-mb "$TT_MB" --json -q --max-time "$LIMIT")
    v=$(echo "$o" | grep -o '"value": [-0-9a-z]*' | grep -o '[-0-9a-z]*$')
    nodes=$(echo "$o" | tr -d ' \n' | grep -o '"interior":[0-9]*,"leaves":[0-9]*' | grep -o '[0-9]*' | paste -sd+ | bc)
    ms=$(echo "$o" | grep -o '"time_ms": [0-9.]*' | grep -o '[0-9.]*$')
    log=$(printf 'boardsize %s %s\n%s\nplay b %s\ndfpn-solve-state white\nquit\n' "$n" "$n" "${BENZENE_PARAMS:-}" "$cell" \
      | "$BENZENE" --use-logfile 0 2>&1)
    winner=$(echo "$log" | grep -o '^= \(black\|white\)' | tail -1 | cut -c3-)
    tms=$(echo "$log" | grep '^Elapsed Time' | tail -1 | awk '{print $3 * 1000}')
    mids=$(echo "$log" | grep '^MID calls' | tail -1 | awk '{print $3}')
    echo "$cell: ours value $v nodes $nodes ms $ms | benzene winner $winner MIDs $mids ms $tms"
    ours_total=$(echo "$ours_total + ${ms:-0}" | bc); theirs_total=$(echo "$theirs_total + ${tms:-0}" | bc)
    ours_nodes=$((ours_nodes + ${nodes:-0})); theirs_nodes=$((theirs_nodes + ${mids:-0}))
  done
done
echo "${n}x$n totals: ours $ours_nodes nodes $ours_total ms, benzene $theirs_nodes MIDs $theirs_total ms, time ratio $(echo "scale=2; $ours_total / $theirs_total" | bc)"
