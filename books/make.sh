#!/usr/bin/env bash
# Makes an opening book: every job of `gamesearch split GAME --plies PLIES` solved exactly, one
# process per job and as many at once as the machine has cores (the Slurm array form of the
# README, on one machine), then `gamesearch combine --book OUT`.
#
#   books/make.sh GAME PLIES OUT        e.g. books/make.sh connect4:7x6 4 books/connect4-7x6-ply4.book
#
# Resumable: each result line is appended to OUT.results as its job finishes, and a job already
# there is not solved again, so a run stopped (Ctrl-C, a reboot) goes on where it stopped.
# Environment: GAMESEARCH (the binary; default target/release/gamesearch, built if missing),
# JOBS (processes at once; default: the cores), TT_MB (each job's table; default 256).
set -euo pipefail
if [ $# -ne 3 ]; then
    echo "usage: books/make.sh GAME PLIES OUT" >&2
    exit 2
fi
game=$1 plies=$2 out=$3
gs=${GAMESEARCH:-target/release/gamesearch}
if [ ! -x "$gs" ]; then
    cargo build --release -q
fi
results="$out.results"
touch "$results"
jobs=$(mktemp)
done_keys=$(mktemp)
trap 'rm -f "$jobs" "$done_keys"' EXIT
"$gs" split "$game" --plies "$plies" -q >"$jobs"
sed -n 's/^{"key":"\([^"]*\)".*/\1/p' "$results" >"$done_keys"
total=$(wc -l <"$jobs")
left=$(grep -c -v -F -f "$done_keys" "$jobs" || true)
[ -s "$done_keys" ] || left=$total
echo "$game split at ply $plies: $total jobs, $left to solve (results in $results)" >&2
start=$(date +%s)
if [ -s "$done_keys" ]; then grep -v -F -f "$done_keys" "$jobs" || true; else cat "$jobs"; fi |
    xargs -d '\n' -r -P "${JOBS:-$(nproc)}" -I{} \
        "$gs" solve -q --threads 1 --tt-mb "${TT_MB:-256}" --job {} >>"$results"
echo "solved in $(($(date +%s) - start)) s" >&2
"$gs" combine "$game" --plies "$plies" "$results" --book "$out"
