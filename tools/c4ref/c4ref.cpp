// c4ref — a same-machine yardstick for `gamesearch bench connect4`.
//
// An independent C++ re-implementation, written for this project, of the algorithm that Pascal
// Pons' public Connect-Four solver uses (as his tutorial describes it, final part): 7x6 bitboard,
// negamax alpha-beta with null-window bisection of the score range biased towards 0, the
// "non-losing moves" filter, score bounds from the number of stones, a transposition table of
// 2^24-ish entries (prime size, one entry per slot, always replace, upper or lower bound in 8 bits),
// centre-first ordering by the number of threats a move creates. No opening book.
// It reports the same figures as `gamesearch bench connect4` (mean time, mean nodes per
// position, mismatches), so the two can be run one after the other on the same input.
//
// Build and run: tools/c4ref/run.sh FILE [LIMIT] [--weak] [--keep-table]
//                tools/c4ref/run.sh --position MOVES   ("" is the empty board)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {
constexpr int W = 7, H = 6;
constexpr int MIN_SCORE = -(W * H) / 2 + 3;
constexpr int MAX_SCORE = (W * H + 1) / 2 - 3;

constexpr uint64_t bottom(int w, int h) { return w == 0 ? 0 : bottom(w - 1, h) | 1ULL << ((w - 1) * (h + 1)); }
constexpr uint64_t BOTTOM = bottom(W, H);
constexpr uint64_t BOARD = BOTTOM * ((1ULL << H) - 1);
constexpr uint64_t top_mask(int c) { return 1ULL << (H - 1 + c * (H + 1)); }
constexpr uint64_t bottom_mask(int c) { return 1ULL << (c * (H + 1)); }
constexpr uint64_t column_mask(int c) { return ((1ULL << H) - 1) << (c * (H + 1)); }

struct Position {
  uint64_t current = 0, mask = 0;
  int moves = 0;

  bool can_play(int c) const { return (mask & top_mask(c)) == 0; }
  void play(uint64_t move) { current ^= mask; mask |= move; moves++; }
  void play_col(int c) { play((mask + bottom_mask(c)) & column_mask(c)); }
  bool is_winning_col(int c) const {
    return winning_position() & possible() & column_mask(c);
  }
  // Plays a string of 1-based columns; false if illegal or if a move wins.
  bool play_seq(const std::string &s) {
    for (char ch : s) {
      int c = ch - '1';
      if (c < 0 || c >= W || !can_play(c) || is_winning_col(c)) return false;
      play_col(c);
    }
    return true;
  }
  uint64_t key() const { return current + mask; }
  uint64_t possible() const { return (mask + BOTTOM) & BOARD; }
  static uint64_t winning_cells(uint64_t pos, uint64_t mask) {
    uint64_t r = (pos << 1) & (pos << 2) & (pos << 3);
    for (int d : {H + 1, H, H + 2}) {
      uint64_t p = (pos << d) & (pos << 2 * d);
      r |= p & (pos << 3 * d);
      r |= p & (pos >> d);
      p = (pos >> d) & (pos >> 2 * d);
      r |= p & (pos << d);
      r |= p & (pos >> 3 * d);
    }
    return r & (BOARD ^ mask);
  }
  uint64_t winning_position() const { return winning_cells(current, mask); }
  uint64_t opponent_winning_position() const { return winning_cells(current ^ mask, mask); }
  bool can_win_next() const { return winning_position() & possible(); }
  uint64_t non_losing_moves() const {
    uint64_t possible_mask = possible();
    uint64_t opp = opponent_winning_position();
    uint64_t forced = possible_mask & opp;
    if (forced) {
      if (forced & (forced - 1)) return 0;
      possible_mask = forced;
    }
    return possible_mask & ~(opp >> 1);
  }
  int move_score(uint64_t move) const { return __builtin_popcountll(winning_cells(current | move, mask)); }
};

// One entry per slot, prime number of slots, always replace; key truncated to 32 bits (the
// slot index and the truncated key together identify the 49-bit position key exactly, since
// the table has more than 2^17 slots).
struct Table {
  static constexpr size_t SIZE = 16777259;  // smallest prime >= 2^24
  std::vector<uint32_t> keys;
  std::vector<uint8_t> values;
  Table() : keys(SIZE), values(SIZE) {}
  void reset() { std::memset(keys.data(), 0, SIZE * 4); std::memset(values.data(), 0, SIZE); }
  void put(uint64_t key, uint8_t v) { size_t i = key % SIZE; keys[i] = uint32_t(key); values[i] = v; }
  uint8_t get(uint64_t key) const { size_t i = key % SIZE; return keys[i] == uint32_t(key) ? values[i] : 0; }
};

struct Sorter {
  uint64_t move[W];
  int score[W];
  int size = 0;
  void add(uint64_t m, int s) {
    int pos = size++;
    for (; pos && score[pos - 1] > s; --pos) { move[pos] = move[pos - 1]; score[pos] = score[pos - 1]; }
    move[pos] = m; score[pos] = s;
  }
  uint64_t next() { return size ? move[--size] : 0; }
};

struct Solver {
  Table table;
  uint64_t nodes = 0;
  int order[W];
  Solver() { for (int i = 0; i < W; i++) order[i] = W / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2; }

  int negamax(const Position &p, int alpha, int beta) {
    nodes++;
    uint64_t next = p.non_losing_moves();
    if (!next) return -(W * H - p.moves) / 2;
    if (p.moves >= W * H - 2) return 0;
    int min = -(W * H - 2 - p.moves) / 2;
    if (alpha < min) { alpha = min; if (alpha >= beta) return alpha; }
    int max = (W * H - 1 - p.moves) / 2;
    if (beta > max) { beta = max; if (alpha >= beta) return beta; }
    uint64_t key = p.key();
    if (int v = table.get(key)) {
      if (v > MAX_SCORE - MIN_SCORE + 1) {
        min = v + 2 * MIN_SCORE - MAX_SCORE - 2;
        if (alpha < min) { alpha = min; if (alpha >= beta) return alpha; }
      } else {
        max = v + MIN_SCORE - 1;
        if (beta > max) { beta = max; if (alpha >= beta) return beta; }
      }
    }
    Sorter moves;
    for (int i = W; i--;)
      if (uint64_t m = next & column_mask(order[i])) moves.add(m, p.move_score(m));
    while (uint64_t m = moves.next()) {
      Position c(p);
      c.play(m);
      int score = -negamax(c, -beta, -alpha);
      if (score >= beta) { table.put(key, score + MAX_SCORE - 2 * MIN_SCORE + 2); return score; }
      if (score > alpha) alpha = score;
    }
    table.put(key, alpha - MIN_SCORE + 1);
    return alpha;
  }

  int solve(const Position &p, bool weak) {
    if (p.can_win_next()) return (W * H + 1 - p.moves) / 2;
    int min = -(W * H - p.moves) / 2, max = (W * H + 1 - p.moves) / 2;
    if (weak) { min = -1; max = 1; }
    while (min < max) {
      int med = min + (max - min) / 2;
      if (med <= 0 && min / 2 < med) med = min / 2;
      else if (med >= 0 && max / 2 > med) med = max / 2;
      int r = negamax(p, med, med + 1);
      if (r <= med) max = r; else min = r;
    }
    return min;
  }
};
}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: c4ref FILE [LIMIT] [--weak] [--keep-table] | c4ref --position MOVES\n";
    return 2;
  }
  static Solver solver;
  if (std::string(argv[1]) == "--position") {  // one position, e.g. "" for the empty board
    Position p;
    if (!p.play_seq(argc > 2 ? argv[2] : "")) { std::cerr << "c4ref: bad position\n"; return 2; }
    auto t0 = std::chrono::steady_clock::now();
    int score = solver.solve(p, false);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"score\":%d,\"nodes\":%llu,\"time_s\":%.3f}\n", score,
                (unsigned long long)solver.nodes, s);
    return 0;
  }
  std::ifstream in(argv[1]);
  if (!in) { std::cerr << "c4ref: cannot read " << argv[1] << "\n"; return 2; }
  long limit = -1;
  bool weak = false, keep = false;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--weak") weak = true;
    else if (a == "--keep-table") keep = true;
    else limit = std::stol(a);
  }
  std::string moves;
  int want;
  long n = 0, mismatches = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  while (in >> moves >> want && (limit < 0 || n < limit)) {
    Position p;
    if (!p.play_seq(moves)) { std::cerr << "c4ref: bad line " << n + 1 << "\n"; return 2; }
    if (!keep) solver.table.reset();  // outside the clock, as the reference benchmark does
    solver.nodes = 0;
    auto t0 = std::chrono::steady_clock::now();
    int got = solver.solve(p, weak);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    nodes += solver.nodes;
    if (weak) { got = (got > 0) - (got < 0); want = (want > 0) - (want < 0); }
    if (got != want) mismatches++;
    n++;
  }
  std::printf("{\"positions\":%ld,\"mismatches\":%ld,\"mean_time_us\":%.3f,\"mean_nodes\":%.1f,\"weak\":%s}\n",
              n, mismatches, n ? seconds * 1e6 / n : 0.0, n ? double(nodes) / n : 0.0, weak ? "true" : "false");
  return 0;
}
