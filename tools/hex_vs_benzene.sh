#!/bin/bash
# Hex: our df-pn beside Benzene's (Arneson, Hayward & Henderson; github cgao3/benzene-vanilla-cmake,
# LGPL: fetched and built apart, in /tmp, never copied here) on the openings of an n×n board,
# one thread each, one after the other opening by opening: ours, Benzene as it ships (its
# virtual-connection engine and inferior-cell analysis on), and Benzene with both off
# (`param_solver_board use_vcs 0`, `use_ice 0`, `use_decompositions 0`). Prints each opening
# and the totals. Benzene's time is its df-pn's own ("Elapsed Time" in its log: no start-up,
# no pattern loading); ours is the solve's (the table made before it).
# Benzene builds with: apt-get install cmake libboost-all-dev libdb-dev libdb++-dev;
#   mkdir build && cd build && cmake .. && make mohex
# Run from the repository root after `cargo build --release`, with the size and optionally
# the openings (default: every one):
#   BENZENE=/tmp/benzene/build/src/mohex/mohex tools/hex_vs_benzene.sh 5
#   BENZENE=… tools/hex_vs_benzene.sh 6 a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3
# WITHOUT=0 leaves out Benzene without its knowledge (which takes over 900 s on some 6x6
# openings).
B=${B:-target/release/gamesearch}
BENZENE=${BENZENE:?set BENZENE to the mohex binary}
LIMIT=${LIMIT:-600}
TT_MB=${TT_MB:-256}
WITHOUT=${WITHOUT:-1}
n=${1:-5}
shift
cells=("$@")
if [ ${#cells[@]} -eq 0 ]; then
  for r in $(seq 1 "$n"); do
    for c in $(echo abcdefghijk | cut -c1-"$n" | grep -o .); do cells+=("$c$r"); done
  done
fi
OFF=$'param_solver_board use_vcs 0\nparam_solver_board use_ice 0\nparam_solver_board use_decompositions 0'
benzene() { # params cell -> "winner MIDs ms"
  local log
  log=$(printf 'boardsize %s %s\n%s\nplay b %s\ndfpn-solve-state white\nquit\n' "$n" "$n" "$1" "$2" \
    | "$BENZENE" --use-logfile 0 2>&1)
  echo "$(echo "$log" | grep -o '^= \(black\|white\)' | tail -1 | cut -c3-)" \
    "$(echo "$log" | grep '^MID calls' | tail -1 | awk '{print $3}')" \
    "$(echo "$log" | grep '^Elapsed Time' | tail -1 | awk '{print $3 * 1000}')"
}
tot=(0 0 0 0 0 0)
for cell in "${cells[@]}"; do
  o=$($B solve "hex:${n}x$n:$cell" --algo dfpn --threads 1 --tt-mb "$TT_MB" --json -q --max-time "$LIMIT")
  v=$(echo "$o" | grep -o '"value": [-0-9a-z]*' | grep -o '[-0-9a-z]*$')
  nodes=$(echo "$o" | tr -d ' \n' | grep -o '"interior":[0-9]*,"leaves":[0-9]*' | grep -o '[0-9]*' | paste -sd+ | bc)
  ms=$(echo "$o" | grep -o '"time_ms": [0-9.]*' | grep -o '[0-9.]*$')
  read -r w1 m1 t1 <<< "$(benzene "" "$cell")"
  if [ "$WITHOUT" = 0 ]; then
    w2=- m2=0 t2=0
  else
    read -r w2 m2 t2 <<< "$(benzene "$OFF" "$cell")"
  fi
  printf '%s: ours %s %s nodes %.0f ms | benzene %s %s MIDs %s ms | without VCs and ICE %s %s MIDs %s ms\n' \
    "$cell" "$v" "$nodes" "$ms" "$w1" "$m1" "$t1" "$w2" "$m2" "$t2"
  tot=($(echo "${tot[0]} + ${nodes:-0}; ${tot[1]} + ${ms:-0}; ${tot[2]} + ${m1:-0}; ${tot[3]} + ${t1:-0}; ${tot[4]} + ${m2:-0}; ${tot[5]} + ${t2:-0}" | bc))
done
ratio() { if [ "$(echo "$2 > 0" | bc)" = 1 ]; then printf '%.2f' "$(echo "$1 / $2" | bc -l)"; else echo -; fi; }
printf '%sx%s, %s openings: ours %s nodes %.0f ms | benzene %s MIDs %.0f ms (ratio %s) | without VCs and ICE %s MIDs %.0f ms (ratio %s)\n' \
  "$n" "$n" "${#cells[@]}" "${tot[0]}" "${tot[1]}" "${tot[2]}" "${tot[3]}" "$(ratio "${tot[1]}" "${tot[3]}")" \
  "${tot[4]}" "${tot[5]}" "$(ratio "${tot[1]}" "${tot[5]}")"
