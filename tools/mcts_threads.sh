#!/bin/bash
# MCTS threads: playouts per second by threads and by root / tree
# parallelisation, then matches at 20 ms a move.
# Run from the repository root after `cargo build --release` (or set B to a gamesearch binary).
B=${B:-target/release/gamesearch}
OUT=${OUT:-/tmp/mcts-threads}; mkdir -p "$OUT"
nproc; grep -m1 "model name" /proc/cpuinfo
echo "== playouts per second, 1 s a search from the start (rate = playouts / time)"
for g in connect4:7x6 othello; do
  for p in root tree; do
    for t in 1 2 4 8 16; do
      o=$($B search $g --algo mcts --max-time 1 --threads $t --parallel $p --json)
      n=$(echo "$o" | grep -o '"leaves": [0-9]*' | grep -o '[0-9]*$')
      ms=$(echo "$o" | grep -o '"time_ms": [0-9.]*' | grep -o '[0-9.]*$')
      echo "$g $p threads $t playouts $n ms $ms rate $(awk "BEGIN{printf \"%.0f\", $n/$ms*1000}")"
    done
  done
done
echo "== matches, connect4:7x6, 20 ms a move, seed 1"
m() { $B play connect4:7x6 --match $1 --a "$2" --b "$3" --json > $OUT/$4.json 2> $OUT/$4.err; echo "$4: $(tr -d '\n ' < $OUT/$4.json | cut -c1-400)"; }
m 30 time=0.02,driver=mcts,threads=16 time=0.02,driver=mcts root16-vs-1
m 30 time=0.02,driver=mcts,threads=16,parallel=tree time=0.02,driver=mcts tree16-vs-1
m 40 time=0.02,driver=mcts,threads=16 time=0.02,driver=mcts,threads=16,parallel=tree root16-vs-tree16
echo done
