// gamesearch's driver for the peer solver's benchmark runs (tools/c4peer/bench.sh). Our code:
// it only calls the peer's public Solver/Position API, and is compiled against the peer's
// source in a temporary directory, outside the project.
//
// Reads Pascal Pons' benchmark lines "<moves> <score>" (1-based columns, the score from the
// side to move's view) on stdin, solves the first LIMIT strongly, and prints the positions,
// mismatches, mean nodes and mean time per position.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "solver/position.h"
#include "solver/solver.h"

int main(int argc, char **argv) {
    long limit = argc > 1 ? std::atol(argv[1]) : 1000000;
    Solver solver{};
    std::string line;
    long count = 0, mismatches = 0;
    unsigned long long nodes = 0, previous = 0;
    double seconds = 0;
    while (count < limit && std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string moves;
        int expected;
        if (!(in >> moves >> expected)) continue;
        Position pos{};
        // Digits, or column numbers separated by commas (the only form past 9 columns).
        if (moves.find(',') == std::string::npos) {
            for (char c : moves) pos.move(c - '1');
        } else {
            std::istringstream columns(moves);
            std::string column;
            while (std::getline(columns, column, ',')) pos.move(std::stoi(column) - 1);
        }
        auto start = std::chrono::steady_clock::now();
        int score = solver.solve_strong(pos);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        unsigned long long now = solver.get_merged_stats().get_num_nodes();
        nodes += now >= previous ? now - previous : now;
        previous = now;
        if (score != expected) mismatches++;
        count++;
    }
    std::cout << "positions   " << count << "\n"
              << "mismatches  " << mismatches << "\n"
              << "mean time   " << (count ? seconds / count * 1e6 : 0) << " us\n"
              << "mean nodes  " << (count ? nodes / count : 0) << "\n";
    return mismatches == 0 ? 0 : 1;
}
