#!/bin/sh
# Runs every fuzz target for SECONDS each (default 60), one after the other, on the nightly
# toolchain, starting from the committed seeds (fuzz/seeds/TARGET) and keeping what it finds
# in fuzz/corpus/TARGET (not committed). A crash stops the script with libFuzzer's report and
# the input under fuzz/artifacts/TARGET.
#   fuzz/run.sh [SECONDS] [TARGET ...]        needs: cargo install cargo-fuzz
# With FUZZ_RUNS=N set, each target runs N inputs from a fixed seed instead (repeatable: what
# .ci/run does, so that CI fails only on a crash anyone can reproduce with the same command).
set -e
cd "$(dirname "$0")"
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"game_spec tree_text kalah_position othello_text domineering_text hex_text dobutsu_text othello_suite connect4_moves tictactoe_cells bench_lines engine_settings book_file tablebase_file gtp_commands match_openings weights_file"}
for t in $targets; do
  mkdir -p "corpus/$t"
  if [ -n "$FUZZ_RUNS" ]; then
    budget="-runs=$FUZZ_RUNS -seed=1"
    echo "fuzz: $t, $FUZZ_RUNS inputs from seed 1" >&2
  else
    budget="-max_total_time=$secs"
    echo "fuzz: $t for $secs s" >&2
  fi
  # shellcheck disable=SC2086
  cargo +nightly fuzz run -O "$t" "corpus/$t" "seeds/$t" -- $budget -rss_limit_mb=4096 -timeout=20 2>&1 \
    | tee "corpus/$t.log" | grep -E "^(#[0-9]+[[:space:]]+DONE|Done|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)" || true
  if grep -q "failed to build\|could not compile" "corpus/$t.log"; then
    echo "fuzz: $t did not build (see fuzz/corpus/$t.log)" >&2
    exit 1
  fi
  if grep -q "Test unit written\|SUMMARY: libFuzzer\|deadly signal" "corpus/$t.log"; then
    echo "fuzz: $t FAILED (see fuzz/corpus/$t.log)" >&2
    exit 1
  fi
done
