# Sourced by run.sh, bench.sh and boards.sh: copies the peer's source (a checkout of Christophe
# Steininger's solver, AGPL, not part of this project) to a temporary directory and sets its
# compile-time thread count and table size there. Nothing of it is kept.
#
#   prepare_peer PEER_SOURCE_DIR THREADS TABLE_MIB   # sets $work and $entries
#   peer_board WIDTH HEIGHT                          # its board size (after prepare_peer)
prepare_peer() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cp -r "$1/src" "$work/src"
    # The peer sizes its table in entries of 8 bytes and needs an odd (ideally prime) count:
    # the next prime after MiB * 2^17.
    entries=$(python3 -c "
n = $3 * (1 << 17) | 1
def prime(k):
    i = 3
    while i * i <= k:
        if k % i == 0: return False
        i += 2
    return True
while not prime(n): n += 2
print(n)")
    sed -i -e "s/NUM_THREADS = [0-9]*;/NUM_THREADS = $2;/" \
           -e "s/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = $entries;/" "$work/src/solver/settings.h"
    # Its clock in microseconds: it keeps each search's time in whole milliseconds and prints the
    # total to two decimals of a second, 10 ms steps that decided the ratio of the boards it
    # solves in under 0.1 s. Only what it reports changes (the same steady clock, read at the
    # same two points); "Time to solve" is then printed to the microsecond.
    sed -i -e "s/duration_cast<std::chrono::milliseconds>(duration)/duration_cast<std::chrono::microseconds>(duration)/" \
           -e 's|<< search_time_ms / 1000.0 << " s"|<< std::setprecision(6) << search_time_ms / 1e6 << std::setprecision(2) << " s"|' \
           "$work/src/solver/util/stats.cpp"
    sed -i -e "s|stats.get_search_time_ms() / 1000.0|stats.get_search_time_ms() / 1e6|" "$work/src/solver/util/progress.cpp"
    sed -i -e "s|num_nodes / std::max(1ULL, search_time_ms)|num_nodes * 1000 / std::max(1ULL, search_time_ms)|" \
        "$work/src/solver/util/stats.h"
    grep -q "microseconds>(duration)" "$work/src/solver/util/stats.cpp" \
        && grep -q "search_time_ms / 1e6" "$work/src/solver/util/stats.cpp" \
        || { echo "peer.sh: the peer's clock was not found where expected" >&2; return 1; }
}

# Sets the prepared copy's board size (a compile-time setting of the peer).
peer_board() {
    sed -i -e "s/BOARD_WIDTH = [0-9]*;/BOARD_WIDTH = $1;/" \
           -e "s/BOARD_HEIGHT = [0-9]*;/BOARD_HEIGHT = $2;/" "$work/src/solver/settings.h"
}

# The peer's compiler flags: its CMake "optimise" preset's (-O3 -flto), plus the instruction
# level gamesearch is built for (.cargo/config.toml: POPCNT on x86-64), so that neither side
# counts bits with an instruction the other may not use.
peer_cxxflags() {
    echo "-std=c++20 -O3 -flto -DNDEBUG -pthread"
    if [ "$(uname -m)" = x86_64 ]; then echo "-mpopcnt"; fi
}
