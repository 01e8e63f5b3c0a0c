#!/bin/bash
# Domineering: our solver beside Obsequi (Bullock 2002; github orangepips/obsequi, GPL: fetched
# and built apart, in /tmp, never copied here), same boards, one thread, same table size
# (Obsequi's 2^24 entries take about 400 MB, ours gets 512 MiB), the two alternated, RUNS times
# each; prints each run and the medians.
# Obsequi builds with: apt-get install protobuf-compiler libprotobuf-dev; cd obsequi; mkdir objs;
#   protoc --cpp_out=. obsequi.proto;
#   make Obsequi CPPFLAGS="-std=c++17 -O3 -march=native -include cstdio -include cstdlib -include cstring"
# Run from the repository root after `cargo build --release`:
#   OBSEQUI=/tmp/obsequi/obsequi/Obsequi tools/domineering_vs_obsequi.sh 7x7 6x8 5x9
B=${B:-target/release/gamesearch}
OBSEQUI=${OBSEQUI:?set OBSEQUI to the Obsequi binary}
RUNS=${RUNS:-3}
LIMIT=${LIMIT:-600}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for board in "${@:-6x6 7x7 6x8 5x9 4x12}"; do
  rows=${board%x*}; cols=${board#*x}
  : > /tmp/dvo-ours; : > /tmp/dvo-theirs
  for run in $(seq "$RUNS"); do
    o=$($B solve "domineering:$board" --threads 1 --tt-mb 512 --json -q --max-time "$LIMIT")
    v=$(echo "$o" | grep -o '"value": [-0-9a-z]*' | grep -o '[-0-9a-z]*$')
    n=$(echo "$o" | tr -d ' \n' | grep -o '"interior":[0-9]*,"leaves":[0-9]*' | grep -o '[0-9]*' | paste -sd+ | bc)
    ms=$(echo "$o" | grep -o '"time_ms": [0-9.]*' | grep -o '[0-9.]*$')
    echo "$ms" >> /tmp/dvo-ours
    t0=$(date +%s.%N)
    w=$(echo "solve rows $rows cols $cols bits 24 V" | "$OBSEQUI" 2>/dev/null | grep '^winner')
    t1=$(date +%s.%N)
    tms=$(echo "($t1 - $t0) * 1000" | bc)
    echo "$tms" >> /tmp/dvo-theirs
    echo "$board run $run: ours value $v nodes $n ms $ms | obsequi $w ms $tms"
  done
  a=$(median < /tmp/dvo-ours); b=$(median < /tmp/dvo-theirs)
  echo "$board medians: ours $a ms, obsequi $b ms, ratio $(echo "scale=1; $a / $b" | bc)"
done
