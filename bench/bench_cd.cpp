// Benchmark of the costs docs/benchmarks.md reports for the CD solvers:
//
//   bench_cd read FILE [T]      seconds to read FILE row-wise (CSR, one pass)
//                               and straight into columns (CSC, one pass,
//                               T threads; default one per core)
//   bench_cd objective FILE MODEL [C [P]]
//                               f(w) of equation (1) for a binary model (ours
//                               or LIBLINEAR's; L2-SVM, L1-SVM or LR, L2 or L1
//                               regularized, by its solver_type) or a
//                               regression model (SVR with -p P, default 0.1,
//                               or squared loss) on FILE, or the primal of
//                               Crammer and Singer's multi-class SVM for an
//                               MCSVM_CS model (solver_cs.cpp's header), so
//                               that both tools' models are scored by one
//                               formula
//   bench_cd sweep FILE [--order O] [--epochs N] [--distance D[,D...]]
//                               milliseconds per epoch (median of N, default
//                               7) of the floor of an L2-SVM CD epoch (below)
//                               in cyclic order, in a fresh random permutation
//                               every epoch, and in one with software
//                               prefetching D coordinates ahead; then of one
//                               CDPER outer iteration through the library
//                               (solve_cd), and its ratio to the prefetched
//                               floor. O is all (the default), cyclic, perm,
//                               perm-prefetch, perm-prefetch-signed or cdper.
//                               The variants take turns, one epoch each per
//                               round, so that a busy machine slows them alike.
//                               --huge-pages copies the floors' arrays into
//                               memory advised for 2 MiB pages, to show what
//                               TLB misses cost.
//   bench_cd sweep FILE N       the same as --epochs N
//   bench_cd rows FILE [N]      milliseconds per epoch (median of N, default
//                               7) of a dual CD epoch over the rows (each
//                               row's x_j'w, then w += a_j x_j, in a new
//                               random order every epoch, the rows
//                               prefetched ahead as dcd-svr's), with w in
//                               the file's numbering, in one by decreasing
//                               column count (each row's entries in their
//                               order: the same bits), and in that one with
//                               each row sorted by it (the file written in
//                               it); one epoch each per round
//   bench_cd stream [MB]        the memory bandwidth that bounds a pass over a
//                               matrix, as STREAM measures it: GB/s of a read
//                               of MB megabytes of doubles (default 1024; a
//                               sum, as a dot product with a row reads its
//                               values) and of a triad (a = b + s c: two
//                               reads, one write) on 1, 2, ... threads up to
//                               one per core, best of 5; for the scaling model
//                               of docs/solvers.md
//   bench_cd pages [MB]         what new memory costs before its first use:
//                               seconds to write MB megabytes (default 256)
//                               of fresh pages one page at a time, after
//                               mapping them in one call (util/populate.h),
//                               and again once written (what a buffer that
//                               is reused costs); then seconds to free
//                               256 KiB runs of them one mapping a run, and
//                               eight runs a mapping
//                               (data/pages.h's RunArena), with a second
//                               thread of the process busy on another core (a
//                               free interrupts it to flush its TLB); median
//                               of 5 rounds, the variants in turn
//   bench_cd team               microseconds a pass of a two-thread
//                               ThreadTeam (util/parallel.h) costs beyond its
//                               two tasks' work (each takes one of two empty
//                               tasks): passes back to back, and after 50,
//                               500 and 5,000 us of serial work on the caller
//                               (a helper that waited longer than it checks
//                               for a pass sleeps); median of 5 rounds of
//                               1,000 passes
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "data/libsvm_reader.h"
#include "data/parse_number.h"
#include "data/problem.h"
#include "model/model.h"
#include "objective/evaluate.h"
#include "objective/loss.h"
#include "objective/objective.h"
#include "select/coordinate_order.h"
#include "solvers/params.h"
#include "solvers/solver.h"
#include "train/train.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// GB/s of `kernel(begin, end)` over [0, count) cut into `threads` equal
// ranges, one thread each, best of 5; `bytes_per_element` is what the
// kernel moves per element.
template <class Kernel>
double bandwidth(std::size_t count, unsigned threads, double bytes_per_element, Kernel kernel) {
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    const auto start = Clock::now();
    std::vector<std::thread> team;
    for (unsigned t = 0; t < threads; ++t) {
      team.emplace_back(kernel, count * t / threads, count * (t + 1) / threads);
    }
    for (std::thread& thread : team) thread.join();
    const double seconds = seconds_since(start);
    best = std::max(best, bytes_per_element * static_cast<double>(count) / seconds / 1e9);
  }
  return best;
}

int bench_stream(std::size_t megabytes) {
  const std::size_t count = (megabytes << 20) / sizeof(double);
  std::vector<double> a(count, 0.0), b(count, 1.0), c(count, 2.0);
  std::vector<double> sums(64, 0.0);  // one per thread, far apart: no false sharing
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("threads  read GB/s  triad GB/s   (%zu MB arrays)\n", megabytes);
  for (unsigned threads = 1; threads <= std::min(cores, 8u); ++threads) {
    const double read =
        bandwidth(count, threads, sizeof(double), [&](std::size_t from, std::size_t to) {
          double part[8] = {0, 0, 0, 0, 0, 0, 0, 0};  // eight chains: bandwidth, not add latency
          std::size_t k = from;
          for (; k + 8 <= to; k += 8) {
            for (std::size_t t = 0; t < 8; ++t) part[t] += b[k + t];
          }
          for (; k < to; ++k) part[0] += b[k];
          const double sum = std::accumulate(part, part + 8, 0.0);
          sums[8 * (from * 8 / count)] += sum;
        });
    const double triad =
        bandwidth(count, threads, 3 * sizeof(double), [&](std::size_t from, std::size_t to) {
          for (std::size_t k = from; k < to; ++k) a[k] = b[k] + 3.0 * c[k];
        });
    std::printf("%7u  %9.2f  %10.2f\n", threads, read, triad);
  }
  double check = std::accumulate(sums.begin(), sums.end(), 0.0) + a[count / 2];
  return check > 0 ? 0 : 1;
}

// Seconds of body() on a fresh anonymous mapping of `bytes`, unmapped after.
template <class Body>
double time_on_fresh_pages(std::size_t bytes, Body body) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
  const auto start = Clock::now();
  body(static_cast<char*>(p));
  const double seconds = seconds_since(start);
  ::munmap(p, bytes);
  return seconds;
}

// Seconds of the second write to every page of a fresh mapping of `bytes`.
double time_second_write(std::size_t bytes, std::size_t page) {
  void* mapping =
      ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) throw std::runtime_error("mmap failed");
  char* const p = static_cast<char*>(mapping);
  for (std::size_t k = 0; k < bytes; k += page) p[k] = 1;
  const auto start = Clock::now();
  for (std::size_t k = 0; k < bytes; k += page) p[k] = 2;
  const double seconds = seconds_since(start);
  ::munmap(mapping, bytes);
  return seconds;
}

// Seconds to unmap `runs` runs of 256 KiB, written, `per_mapping` runs to a
// mapping, while another thread spins.
double time_unmapping(std::size_t runs, std::size_t per_mapping) {
  constexpr std::size_t kRun = std::size_t{256} << 10;
  std::vector<char*> mappings;
  for (std::size_t r = 0; r < runs; r += per_mapping) {
    void* p = ::mmap(nullptr, per_mapping * kRun, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    std::memset(p, 1, per_mapping * kRun);
    mappings.push_back(static_cast<char*>(p));
  }
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto start = Clock::now();
  for (char* p : mappings) ::munmap(p, per_mapping * kRun);
  const double seconds = seconds_since(start);
  stop = true;
  spinner.join();
  return seconds;
}

int bench_pages(std::size_t megabytes) {
  const std::size_t bytes = megabytes << 20;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t runs = bytes / (std::size_t{256} << 10);
  std::vector<double> touched, populated, rewritten, one_each, eight_each;
  for (int round = 0; round < 5; ++round) {
    touched.push_back(time_on_fresh_pages(bytes, [&](char* p) {
      for (std::size_t k = 0; k < bytes; k += page) p[k] = 1;
    }));
    populated.push_back(time_on_fresh_pages(bytes, [&](char* p) {
      cdl::populate_for_writing(p, bytes);
      for (std::size_t k = 0; k < bytes; k += page) p[k] = 1;
    }));
    rewritten.push_back(time_second_write(bytes, page));
    one_each.push_back(time_unmapping(runs, 1));
    eight_each.push_back(time_unmapping(runs, 8));
  }
  std::printf("%zu MB of new pages, median of 5 rounds\n", megabytes);
  std::printf("written page by page        %.3f s\n", median(touched));
  std::printf("mapped first, then written  %.3f s\n", median(populated));
  std::printf("written a second time       %.3f s\n", median(rewritten));
  std::printf("%zu runs of 256 KiB freed, another thread busy:\n", runs);
  std::printf("  a mapping each            %.3f s\n", median(one_each));
  std::printf("  eight runs a mapping      %.3f s\n", median(eight_each));
  return 0;
}

int bench_team() {
  cdl::ThreadTeam team(2);
  std::atomic<std::size_t> tasks{0};
  const auto task = [&](std::size_t) { ++tasks; };
  std::printf("a pass of two empty tasks on a team of 2, us beyond the caller's serial work\n");
  for (const int serial_us : {0, 50, 500, 5000}) {
    const auto serial = std::chrono::microseconds(serial_us);
    const int passes = serial_us >= 5000 ? 100 : 1000;
    std::vector<double> costs;
    for (int round = 0; round < 5; ++round) {
      double passing = 0;
      for (int k = 0; k < passes; ++k) {
        const auto busy = Clock::now();
        while (Clock::now() - busy < serial) {
        }
        const auto start = Clock::now();
        team.run(2, task);
        passing += seconds_since(start);
      }
      costs.push_back(1e6 * passing / passes);
    }
    std::printf("after %5d us serial  %7.1f us\n", serial_us, median(costs));
  }
  return tasks.load() > 0 ? 0 : 1;
}

// bench_cd rows: the rows' arrays, as read or renumbered.
struct RowArrays {
  const std::int64_t* row_ptr;
  const cdl::Index* col_idx;
  const double* values;
};

// One epoch of bench_cd rows, w in the arrays' numbering: in `order`,
// step_j = -(x_j'w - y_j) / (1 + ||x_j||^2) and w += step_j x_j, the rows
// prefetched as dcd-svr prefetches them.
void row_epoch(const RowArrays& rows, const std::vector<std::size_t>& order,
               const std::vector<double>& y, const std::vector<double>& qbar,
               std::vector<double>& w) {
  constexpr std::size_t kAhead = 8;
  for (std::size_t s = 0; s < order.size(); ++s) {
    if (s + 2 * kAhead < order.size()) __builtin_prefetch(&rows.row_ptr[order[s + 2 * kAhead]]);
    if (s + kAhead < order.size()) {
      const auto start = static_cast<std::size_t>(rows.row_ptr[order[s + kAhead]]);
      __builtin_prefetch(rows.values + start);
      __builtin_prefetch(rows.col_idx + start);
    }
    const std::size_t j = order[s];
    const auto begin = static_cast<std::size_t>(rows.row_ptr[j]);
    const auto end = static_cast<std::size_t>(rows.row_ptr[j + 1]);
    double dot = 0;
    for (std::size_t t = begin; t < end; ++t) dot += rows.values[t] * w[rows.col_idx[t]];
    const double step = -(dot - y[j]) / qbar[j];
    for (std::size_t t = begin; t < end; ++t) w[rows.col_idx[t]] += step * rows.values[t];
  }
}

int bench_rows(const std::string& path, int epochs) {
  const cdl::LabeledCsr data = cdl::read_libsvm_csr(path);
  const cdl::CsrMatrix& x = data.features;
  const std::size_t n = x.num_cols;
  const std::size_t nnz = x.nnz();
  // The columns numbered by decreasing count, ties in column order.
  std::vector<std::size_t> count(n, 0);
  for (std::size_t t = 0; t < nnz; ++t) ++count[x.col_idx[t]];
  std::vector<cdl::Index> original(n);
  std::iota(original.begin(), original.end(), cdl::Index{0});
  std::stable_sort(original.begin(), original.end(),
                   [&](cdl::Index a, cdl::Index b) { return count[a] > count[b]; });
  std::vector<cdl::Index> renumbered(n);
  for (std::size_t p = 0; p < n; ++p) renumbered[original[p]] = static_cast<cdl::Index>(p);
  std::vector<cdl::Index> new_idx(nnz);
  for (std::size_t t = 0; t < nnz; ++t) new_idx[t] = renumbered[x.col_idx[t]];
  // The same, each row's entries sorted by their new numbers: the rows of
  // the file written in the new numbering.
  std::vector<cdl::Index> sorted_idx(nnz);
  std::vector<double> sorted_values(nnz);
  std::vector<std::pair<cdl::Index, double>> entries;
  for (std::size_t j = 0; j < x.num_rows; ++j) {
    entries.clear();
    for (auto t = x.row_ptr[j]; t < x.row_ptr[j + 1]; ++t) {
      const auto u = static_cast<std::size_t>(t);
      entries.emplace_back(new_idx[u], x.values[u]);
    }
    std::sort(entries.begin(), entries.end());
    auto u = static_cast<std::size_t>(x.row_ptr[j]);
    for (const auto& entry : entries) {
      sorted_idx[u] = entry.first;
      sorted_values[u] = entry.second;
      ++u;
    }
  }
  const RowArrays variants[] = {{x.row_ptr.data(), x.col_idx.data(), x.values.data()},
                                {x.row_ptr.data(), new_idx.data(), x.values.data()},
                                {x.row_ptr.data(), sorted_idx.data(), sorted_values.data()}};
  const char* const names[] = {"rows as read", "renumbered, row order kept",
                               "renumbered, rows sorted"};
  std::vector<double> qbar(x.num_rows);
  for (std::size_t j = 0; j < x.num_rows; ++j) qbar[j] = 1.0 + cdl::row_squared_norm(x, j);
  std::vector<std::vector<double>> w(3, std::vector<double>(n, 0.0));
  std::vector<std::vector<double>> ms(3);
  std::vector<std::size_t> order(x.num_rows);
  std::mt19937_64 rng(1);
  for (int epoch = 0; epoch < epochs; ++epoch) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t v = 0; v < 3; ++v) {
      const auto start = Clock::now();
      row_epoch(variants[v], order, data.labels, qbar, w[v]);
      ms[v].push_back(1e3 * seconds_since(start));
    }
  }
  std::printf("rows %zu  features %zu  nonzeros %zu  epochs %d (medians)\n", x.num_rows, n, nnz,
              epochs);
  for (std::size_t v = 0; v < 3; ++v) {
    std::printf("%-28s %9.2f ms/epoch\n", names[v], median(ms[v]));
  }
  // Row order kept: the same bits as the rows as read; sorted: the same up
  // to rounding.
  bool same = true;
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    same = same && std::memcmp(&w[1][renumbered[i]], &w[0][i], sizeof(double)) == 0;
    diff += (w[2][renumbered[i]] - w[0][i]) * (w[2][renumbered[i]] - w[0][i]);
    norm += w[0][i] * w[0][i];
  }
  std::printf("row order kept, the same w: %s; rows sorted, |w - w_read| / |w_read| %.1e\n",
              same ? "yes" : "NO", std::sqrt(diff / norm));
  return same ? 0 : 1;
}

int bench_read(const std::string& path, unsigned threads) {
  auto start = Clock::now();
  const cdl::LabeledCsr csr = cdl::read_libsvm_csr(path);
  const double csr_seconds = seconds_since(start);
  start = Clock::now();
  cdl::ReadOptions options;
  options.threads = threads;
  const cdl::LabeledCsc csc = cdl::read_libsvm_csc(path, options);
  const double csc_seconds = seconds_since(start);
  std::printf("rows %zu  features %zu  nonzeros %zu\n", csc.features.num_rows,
              csc.features.num_cols, csc.features.nnz());
  std::printf("read CSR (one pass)   %.3f s\n", csr_seconds);
  std::printf("read CSC (one pass) %.3f s\n", csc_seconds);
  return 0;
}

// The floor of a CD epoch: floor_sweep() does, for each coordinate i in the
// order, only what every epoch of primal CD for L2-SVM must do (paper,
// Algorithm 1 with the Newton step of equation 13, b_j = 1 - y_j w'x_j, C = 1):
//   1. read the column pointers col_ptr[i] and col_ptr[i + 1];
//   2. first pass over column i: read each nonzero's row j and value x_ji,
//      gather b_j and the label y_j (a 1-byte array, as the library keeps it),
//      and sum D'_i(0) = w_i - 2 sum_{b_j > 0} y_j x_ji b_j  (9) and
//      D''_i(0) = 1 + 2 sum_{b_j > 0} x_ji^2  (10), with max(b_j, 0) and the
//      indicator as arithmetic, not branches (cdl::keep_if of loss.h);
//   3. z = -D'_i(0) / D''_i(0), w_i += z  (13);
//   4. second pass: b_j -= z y_j x_ji for the column's rows  (17).
// It has no line search, no stopping-rule bookkeeping and no virtual calls.
// "Signed" floors read y_j x_ji from a copy made before timing instead of x_ji
// and y_j, so they read no label at all. Everything the loop computes lands in
// w and b, which the caller turns into f(w) and prints, so the compiler cannot
// drop any of it.
//
// With prefetching, at position t of the order the sweep prefetches the
// column pointers of the coordinate at t + 3d, the first cache lines of the
// row indices and values of the one at t + 2d (its pointers have arrived by
// then), and b_j (and y_j) of the first rows of the one at t + d (its row
// indices have arrived); inside a long column it also prefetches b_j of the
// nonzero kInColumnAhead places ahead. The hardware prefetcher follows the
// rest of a long column's indices and values.
struct SweepArrays {
  const std::int64_t* col_ptr;
  const cdl::Index* rows;
  const double* values;          // x_ji, or y_j x_ji for the signed floors
  const std::uint8_t* positive;  // y_j = +1; unused by the signed floors
  double* w;
  double* b;
};

constexpr std::size_t kCacheLine = 64;
constexpr std::size_t kMaxPrefetchLines = 8;  // per array, for the column at t + 2d
constexpr std::size_t kMaxPrefetchRows = 64;  // b_j of the column at t + d
constexpr std::size_t kInColumnAhead = 32;

// Prefetches every cache line of [first, last), up to kMaxPrefetchLines.
inline void prefetch_range(const void* first, const void* last) {
  auto p = reinterpret_cast<std::uintptr_t>(first) & ~std::uintptr_t{kCacheLine - 1};
  const auto stop =
      std::min(reinterpret_cast<std::uintptr_t>(last), p + kMaxPrefetchLines * kCacheLine);
  for (; p < stop; p += kCacheLine) __builtin_prefetch(reinterpret_cast<const void*>(p));
}

template <bool kSigned>
inline void prefetch_ahead(const SweepArrays& a, const std::size_t* order, std::size_t n,
                           std::size_t t, std::size_t d) {
  if (t + 3 * d < n) __builtin_prefetch(a.col_ptr + order[t + 3 * d]);
  if (t + 2 * d < n) {
    const std::size_t c = order[t + 2 * d];
    const auto begin = static_cast<std::size_t>(a.col_ptr[c]);
    const auto end = static_cast<std::size_t>(a.col_ptr[c + 1]);
    prefetch_range(a.rows + begin, a.rows + end);
    prefetch_range(a.values + begin, a.values + end);
  }
  if (t + d < n) {
    const std::size_t c = order[t + d];
    const auto begin = static_cast<std::size_t>(a.col_ptr[c]);
    const auto end = std::min(static_cast<std::size_t>(a.col_ptr[c + 1]), begin + kMaxPrefetchRows);
    for (std::size_t k = begin; k < end; ++k) {
      __builtin_prefetch(a.b + a.rows[k], 1);
      if constexpr (!kSigned) __builtin_prefetch(a.positive + a.rows[k]);
    }
  }
}

// One epoch over the n coordinates of `order`; prefetch distance d, or none
// if d == 0.
template <bool kSigned, bool kPrefetch>
void floor_sweep(const SweepArrays& a, const std::size_t* order, std::size_t n, std::size_t d) {
  const std::int64_t* col_ptr = a.col_ptr;
  const cdl::Index* rows = a.rows;
  const double* values = a.values;
  const std::uint8_t* positive = a.positive;
  double* w = a.w;
  double* b = a.b;
  const double sign[2] = {-1.0, 1.0};
  for (std::size_t t = 0; t < n; ++t) {
    if constexpr (kPrefetch) prefetch_ahead<kSigned>(a, order, n, t, d);
    const std::size_t i = order[t];
    const auto begin = static_cast<std::size_t>(col_ptr[i]);
    const auto end = static_cast<std::size_t>(col_ptr[i + 1]);
    double g = 0;  // sum_{b_j > 0} y_j x_ji b_j
    double h = 0;  // sum_{b_j > 0} x_ji^2
    for (std::size_t k = begin; k < end; ++k) {
      if constexpr (kPrefetch) {
        if (k + kInColumnAhead < end) __builtin_prefetch(b + rows[k + kInColumnAhead], 1);
      }
      const std::size_t j = rows[k];
      const double x = values[k];
      const double yx = kSigned ? x : sign[positive[j]] * x;
      const double bj = b[j];
      g += yx * (0.5 * bj + 0.5 * std::fabs(bj));
      h += cdl::keep_if(bj > 0, x * x);
    }
    const double d1 = w[i] - 2.0 * g;
    const double d2 = 1.0 + 2.0 * h;
    const double z = -d1 / d2;
    w[i] += z;
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t j = rows[k];
      const double yx = kSigned ? values[k] : sign[positive[j]] * values[k];
      b[j] -= z * yx;
    }
  }
}

// f(w) = 1/2 w'w + sum_j max(b_j, 0)^2 (C = 1) of the floor's state.
double floor_objective(const std::vector<double>& w, const std::vector<double>& b) {
  double f = 0;
  for (double wi : w) f += 0.5 * wi * wi;
  for (double bj : b) f += bj > 0 ? bj * bj : 0.0;
  return f;
}

class TimingReporter : public cdl::Reporter {
 public:
  TimingReporter() : Reporter(sink_, Level::kQuiet) {}
  void iteration(const cdl::IterationInfo& info) override { seconds.push_back(info.seconds); }
  std::vector<double> seconds;

 private:
  std::ostringstream sink_;
};

// Crammer and Singer's primal 1/2 sum_m ||w_m||^2 + C sum_i (max_m (w_m'x_i
// + [m != y_i]) - w_{y_i}'x_i) of an MCSVM_CS model on `data_path`; a label
// the model lacks, or a feature beyond its nr_feature, is an error.
double crammer_singer_primal(const std::string& data_path, const cdl::LinearModel& model,
                             double cost) {
  cdl::ReadOptions options;
  options.integer_labels = true;
  options.bias = model.bias;
  const cdl::LabeledCsc data = cdl::read_libsvm_csc(data_path, options);
  const std::size_t k = model.nr_w();
  const std::size_t columns = model.num_features + (model.bias >= 0 ? 1 : 0);
  if (data.features.num_cols > columns) {
    throw cdl::Error(data_path + ": more features than the model");
  }
  const cdl::CsrMatrix x = cdl::to_csr(data.features);
  double value = 0;
  for (double v : model.w) value += 0.5 * v * v;
  std::vector<double> scores;
  for (std::size_t i = 0; i < x.num_rows; ++i) {
    const auto label =
        std::find(model.labels.begin(), model.labels.end(), static_cast<int>(data.labels[i]));
    if (label == model.labels.end()) throw cdl::Error(data_path + ": a label the model lacks");
    const auto y = static_cast<std::size_t>(label - model.labels.begin());
    scores.assign(k, 0.0);
    for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
      const auto s = static_cast<std::size_t>(t);
      // The bias column is the model's last weight row.
      const std::size_t row = x.col_idx[s] < data.features.num_cols - (model.bias >= 0 ? 1 : 0)
                                  ? x.col_idx[s]
                                  : model.num_features;
      for (std::size_t m = 0; m < k; ++m) scores[m] += model.w[row * k + m] * x.values[s];
    }
    double largest = scores[y];
    for (std::size_t m = 0; m < k; ++m) {
      if (m != y) largest = std::max(largest, scores[m] + 1.0);
    }
    value += cost * (largest - scores[y]);
  }
  return value;
}

// f(w) of equation (1) for a binary model, with the loss and regularizer its
// solver_type names (L2-SVM, L1-SVM or logistic regression; L2 or L1), or of
// a regression model (SVR with tube width p, squared loss) on its targets,
// or Crammer and Singer's primal for an MCSVM_CS model.
int bench_objective(const std::string& data_path, const std::string& model_path, double cost,
                    double svr_epsilon) {
  const cdl::LinearModel model = cdl::load_model(model_path);
  if (model.solver_type == "MCSVM_CS") {
    std::printf("%.12g\n", crammer_singer_primal(data_path, model, cost));
    return 0;
  }
  if (model.nr_w() != 1) throw cdl::Error(model_path + ": objective needs a binary model");
  const std::string& type = model.solver_type;
  cdl::LossKind loss = cdl::LossKind::kL2Svm;
  cdl::Regularizer regularizer = cdl::Regularizer::l2_only();
  if (type.compare(0, 4, "L1R_") == 0) regularizer = cdl::Regularizer::l1_only();
  if (type == "L2R_L1LOSS_SVC_DUAL") {
    loss = cdl::LossKind::kL1Svm;
  } else if (type == "L2R_LR" || type == "L2R_LR_DUAL" || type == "L1R_LR") {
    loss = cdl::LossKind::kLogistic;
  } else if (type == "L2R_L2LOSS_SVR" || type == "L2R_L2LOSS_SVR_DUAL" ||
             type == "L1R_L2LOSS_SVR") {
    loss = cdl::LossKind::kSvrL2;
  } else if (type == "L2R_L1LOSS_SVR_DUAL") {
    loss = cdl::LossKind::kSvrL1;
  } else if (type == "L2R_SQUARED_LOSS" || type == "L1R_SQUARED_LOSS") {
    loss = cdl::LossKind::kSquared;
  } else if (type != "L2R_L2LOSS_SVC" && type != "L2R_L2LOSS_SVC_DUAL" &&
             type != "L1R_L2LOSS_SVC") {
    throw cdl::Error(model_path + ": no objective for " + type);
  }
  cdl::ReadOptions options;
  options.integer_labels = !cdl::is_regression(loss);
  options.bias = model.bias;
  const cdl::LabeledCsc data = cdl::read_libsvm_csc(data_path, options);
  if (cdl::is_regression(loss)) {
    std::vector<double> w(data.features.num_cols, 0.0);
    const std::size_t own = data.features.num_cols - (model.bias >= 0 ? 1 : 0);
    for (std::size_t i = 0; i < std::min(own, model.num_features); ++i) w[i] = model.w[i];
    if (model.bias >= 0) w[own] = model.w[model.num_features];
    const cdl::Problem problem = cdl::regression_problem(data.features, data.labels, cost);
    std::printf("%.12g\n", cdl::evaluate(problem, loss, w, regularizer, svr_epsilon).objective);
    return 0;
  }
  // The model's first label is the positive class; every other label negative.
  cdl::ClassMap classes{model.labels, {}};
  for (double label : data.labels) {
    classes.class_of.push_back(static_cast<int>(label) == model.labels[0] ? 0 : 1);
  }
  const std::vector<double> w =
      cdl::initial_weights(model, classes, data.features.num_cols, model.bias)[0];
  const cdl::Problem problem = cdl::one_vs_rest(data.features, classes, 0, cost, cost);
  std::printf("%.12g\n", cdl::evaluate(problem, loss, w, regularizer).objective);
  return 0;
}

// Prefetch distance in coordinates, chosen by measurement (docs/benchmarks.md).
constexpr std::size_t kDefaultDistance = 8;

struct SweepOptions {
  std::string order = "all";  // all, cyclic, perm, perm-prefetch, perm-prefetch-signed, cdper
  int epochs = 7;
  bool huge_pages = false;
  std::vector<std::size_t> distances{kDefaultDistance};
};

// Which floor to time.
struct FloorKind {
  std::string name;
  bool permuted;
  bool prefetch;
  bool is_signed;
  std::size_t distance;
};

// A copy of an array in memory that the kernel is asked to back with 2 MiB
// pages (madvise MADV_HUGEPAGE), so that the floors can show what the TLB
// misses of 4 KiB pages cost (--huge-pages).
template <class T>
class HugePageCopy {
 public:
  HugePageCopy(const T* data, std::size_t n) {
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    const std::size_t bytes = std::max<std::size_t>(1, (n * sizeof(T) + kHuge - 1) / kHuge) * kHuge;
    memory_ = static_cast<T*>(std::aligned_alloc(kHuge, bytes));
    if (memory_ == nullptr) throw std::bad_alloc();
    madvise(memory_, bytes, MADV_HUGEPAGE);
    std::copy(data, data + n, memory_);
  }
  HugePageCopy(const HugePageCopy&) = delete;
  HugePageCopy& operator=(const HugePageCopy&) = delete;
  ~HugePageCopy() { std::free(memory_); }
  T* get() const { return memory_; }

 private:
  T* memory_ = nullptr;
};

// The kernel's count of anonymous memory in huge pages, in MiB, or -1.
long anon_huge_mib() {
  std::ifstream in("/proc/self/smaps_rollup");
  std::string key;
  long kib = 0;
  while (in >> key) {
    if (key == "AnonHugePages:" && in >> kib) return kib / 1024;
    in.ignore(1 << 20, '\n');
  }
  return -1;
}

// One floor with its own w, b and order, timed one epoch at a time, so that
// the floors and the CDPER epoch can take turns: on a shared machine, noise
// then hits all of them alike.
class FloorRun {
 public:
  FloorRun(const FloorKind& kind, const cdl::CscMatrix& x,
           const std::vector<std::uint8_t>& positive, const std::vector<double>& signed_values,
           bool huge_pages)
      : kind_(kind), w_(x.num_cols, 0.0), b_(positive.size(), 1.0), order_(x.num_cols), rng_(1) {
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    const double* values = kind.is_signed ? signed_values.data() : x.values.data();
    arrays_ = {x.col_ptr.data(), x.row_idx.data(), values, positive.data(), w_.data(), b_.data()};
    if (huge_pages) {
      huge_ptr_ = std::make_unique<HugePageCopy<std::int64_t>>(x.col_ptr.data(), x.num_cols + 1);
      huge_rows_ = std::make_unique<HugePageCopy<cdl::Index>>(x.row_idx.data(), x.nnz());
      huge_values_ = std::make_unique<HugePageCopy<double>>(values, x.nnz());
      huge_b_ = std::make_unique<HugePageCopy<double>>(b_.data(), b_.size());
      arrays_.col_ptr = huge_ptr_->get();
      arrays_.rows = huge_rows_->get();
      arrays_.values = huge_values_->get();
      arrays_.b = huge_b_->get();
    }
  }

  // One epoch, the shuffle of a permuted order included.
  void epoch() {
    const std::size_t n = order_.size();
    const auto start = Clock::now();
    if (kind_.permuted) cdl::shuffle(order_, rng_);
    const auto shuffled = Clock::now();
    if (!kind_.prefetch) {
      if (kind_.is_signed) {
        floor_sweep<true, false>(arrays_, order_.data(), n, 0);
      } else {
        floor_sweep<false, false>(arrays_, order_.data(), n, 0);
      }
    } else if (kind_.is_signed) {
      floor_sweep<true, true>(arrays_, order_.data(), n, kind_.distance);
    } else {
      floor_sweep<false, true>(arrays_, order_.data(), n, kind_.distance);
    }
    ms_.push_back(1e3 * seconds_since(start));
    shuffle_ms_.push_back(1e3 * std::chrono::duration<double>(shuffled - start).count());
  }

  // f(w) of the state the epochs left, which uses every result of the loop.
  double objective() const {
    const std::vector<double> b(arrays_.b, arrays_.b + b_.size());
    return floor_objective(w_, b);
  }

  const FloorKind& kind() const { return kind_; }
  const std::vector<double>& ms() const { return ms_; }
  const std::vector<double>& shuffle_ms() const { return shuffle_ms_; }

 private:
  FloorKind kind_;
  std::vector<double> w_;
  std::vector<double> b_;
  std::vector<std::size_t> order_;
  std::mt19937_64 rng_;
  SweepArrays arrays_{};
  std::unique_ptr<HugePageCopy<std::int64_t>> huge_ptr_;
  std::unique_ptr<HugePageCopy<cdl::Index>> huge_rows_;
  std::unique_ptr<HugePageCopy<double>> huge_values_;
  std::unique_ptr<HugePageCopy<double>> huge_b_;
  std::vector<double> ms_;
  std::vector<double> shuffle_ms_;
};

void print_times(const std::string& name, const std::vector<double>& ms) {
  std::printf("%-26s %9.2f ms/epoch  (min %.2f, max %.2f)\n", name.c_str(), median(ms),
              *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()));
}

// Prints one line per timed variant: its name, the median ms per epoch and
// the spread; then the CDPER epoch against the prefetched floor. Each round
// runs one epoch of every variant in turn, the CDPER epoch last.
int bench_sweep(const std::string& path, const SweepOptions& options) {
  cdl::ReadOptions read_options;
  read_options.integer_labels = true;
  const cdl::LabeledCsc data = cdl::read_libsvm_csc(path, read_options);
  const cdl::ClassMap classes = cdl::map_classes(data.labels);
  const cdl::Problem problem = cdl::one_vs_rest(data.features, classes, 0, 1.0, 1.0);
  const cdl::CscMatrix& x = data.features;
  std::printf(
      "rows %zu  features %zu  nonzeros %zu  epochs %d  (medians; C = 1, class %d "
      "against the rest)\n",
      x.num_rows, x.num_cols, x.nnz(), options.epochs, classes.labels[0]);

  const bool all = options.order == "all";
  std::vector<FloorKind> kinds;
  if (all || options.order == "cyclic") kinds.push_back({"cyclic", false, false, false, 0});
  if (all || options.order == "perm") kinds.push_back({"perm", true, false, false, 0});
  for (const bool is_signed : {false, true}) {
    const std::string name = is_signed ? "perm-prefetch-signed" : "perm-prefetch";
    if (!all && options.order != name) continue;
    for (std::size_t d : options.distances) {
      kinds.push_back({options.distances.size() > 1 ? name + "(d=" + std::to_string(d) + ")" : name,
                       true, true, is_signed, d});
    }
  }
  std::vector<std::uint8_t> positive(problem.num_rows());
  for (std::size_t j = 0; j < positive.size(); ++j) positive[j] = problem.y[j] > 0;
  std::vector<double> signed_values;
  if (std::any_of(kinds.begin(), kinds.end(), [](const FloorKind& k) { return k.is_signed; })) {
    signed_values.resize(x.nnz());
    for (std::size_t i = 0; i < x.num_cols; ++i) {
      for (auto k = x.col_ptr[i]; k < x.col_ptr[i + 1]; ++k) {
        const auto t = static_cast<std::size_t>(k);
        signed_values[t] = problem.y[x.row_idx[t]] * x.values[t];
      }
    }
  }
  std::vector<std::unique_ptr<FloorRun>> runs;
  for (const FloorKind& kind : kinds) {
    runs.push_back(
        std::make_unique<FloorRun>(kind, x, positive, signed_values, options.huge_pages));
  }
  if (options.huge_pages) std::printf("%-26s %9ld MiB\n", "in huge pages", anon_huge_mib());

  // The library's CDPER, one outer iteration per solve_cd() call: it goes on
  // from the last call's w (reset() outside the timing), with the same
  // PermutationOrder, and its reporter's seconds are those of the iteration
  // alone. The objective is the concrete type that cdtrain's entry point runs.
  const bool cdper = all || options.order == "cdper";
  std::optional<cdl::MarginObjective<cdl::L2SvmLoss>> objective;
  if (cdper) objective.emplace(problem, cdl::Regularizer::l2_only());
  cdl::PermutationOrder order(problem.num_features(), 1, true);
  cdl::Params params;
  params.eps = 1e-12;
  params.max_iter = 1;
  std::vector<double> cdper_ms;
  cdl::SolveResult totals;
  for (int e = 0; e < options.epochs; ++e) {
    for (auto& run : runs) run->epoch();
    if (!cdper) continue;
    TimingReporter reporter;
    const cdl::SolveResult result = cdl::solve_cd(*objective, order, params, reporter);
    objective->reset(result.w);  // solve_cd() handed w over to its result
    cdper_ms.push_back(1e3 * result.seconds);
    totals.inner_iterations += result.inner_iterations;
    totals.full_newton_steps += result.full_newton_steps;
    totals.function_evaluations += result.function_evaluations;
  }

  double checksum = 0;
  double prefetched = 0;
  for (const auto& run : runs) {
    print_times(run->kind().name, run->ms());
    if (run->kind().name == "perm") {
      std::printf("%-26s %9.2f ms/epoch\n", "  of which the shuffle", median(run->shuffle_ms()));
    }
    if (run->kind().prefetch && !run->kind().is_signed &&
        (prefetched == 0 || median(run->ms()) < prefetched)) {
      prefetched = median(run->ms());
    }
    checksum += run->objective();
  }
  if (!runs.empty()) std::printf("%-26s %.9g\n", "f of the floors' states", checksum);
  if (!cdper) return 0;
  print_times("cdper", cdper_ms);
  std::printf("CDPER full Newton steps %.3f%%, D evaluations per inner iteration %.3f\n",
              100.0 * static_cast<double>(totals.full_newton_steps) /
                  static_cast<double>(totals.inner_iterations),
              static_cast<double>(totals.function_evaluations) /
                  static_cast<double>(totals.inner_iterations));
  if (prefetched > 0) {
    std::printf("%-26s %9.2f\n", "cdper / perm-prefetch", median(cdper_ms) / prefetched);
  }
  return 0;
}

// Parses "sweep FILE" and its options into `options`; false on a usage error.
bool parse_sweep_args(const std::vector<std::string>& args, SweepOptions& options) {
  if (args.size() == 3 && cdl::parse_integer(args[2], options.epochs)) return options.epochs > 0;
  for (std::size_t a = 2; a < args.size(); a += 2) {
    if (args[a] == "--huge-pages") {
      options.huge_pages = true;
      --a;
      continue;
    }
    if (a + 1 >= args.size()) return false;
    const std::string& value = args[a + 1];
    if (args[a] == "--order") {
      static const char* const kOrders[] = {
          "all", "cyclic", "perm", "perm-prefetch", "perm-prefetch-signed", "cdper"};
      if (std::find(std::begin(kOrders), std::end(kOrders), value) == std::end(kOrders)) {
        return false;
      }
      options.order = value;
    } else if (args[a] == "--epochs") {
      if (!cdl::parse_integer(value, options.epochs) || options.epochs <= 0) return false;
    } else if (args[a] == "--distance") {
      options.distances.clear();
      std::size_t from = 0;
      for (;;) {
        const std::size_t comma = std::min(value.find(',', from), value.size());
        std::size_t d = 0;
        if (!cdl::parse_integer(value.substr(from, comma - from), d) || d == 0) return false;
        options.distances.push_back(d);
        if (comma == value.size()) break;
        from = comma + 1;
      }
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    unsigned threads = 0;
    double cost = 1.0;
    double svr_epsilon = 0.1;
    SweepOptions sweep;
    if ((args.size() == 2 || (args.size() == 3 && cdl::parse_integer(args[2], threads))) &&
        args[0] == "read") {
      return bench_read(args[1], threads);
    }
    if ((args.size() == 3 || (args.size() == 4 && cdl::parse_double(args[3], cost)) ||
         (args.size() == 5 && cdl::parse_double(args[3], cost) &&
          cdl::parse_double(args[4], svr_epsilon))) &&
        args[0] == "objective") {
      return bench_objective(args[1], args[2], cost, svr_epsilon);
    }
    std::size_t megabytes = 1024;
    if ((args.size() == 1 || (args.size() == 2 && cdl::parse_integer(args[1], megabytes) &&
                              megabytes > 0 && megabytes <= (std::size_t{1} << 16))) &&
        args[0] == "stream") {
      return bench_stream(megabytes);
    }
    megabytes = 256;
    if ((args.size() == 1 || (args.size() == 2 && cdl::parse_integer(args[1], megabytes) &&
                              megabytes > 0 && megabytes <= (std::size_t{1} << 16))) &&
        args[0] == "pages") {
      return bench_pages(megabytes);
    }
    if (args.size() == 1 && args[0] == "team") return bench_team();
    int epochs = 7;
    if ((args.size() == 2 ||
         (args.size() == 3 && cdl::parse_integer(args[2], epochs) && epochs > 0)) &&
        args[0] == "rows") {
      return bench_rows(args[1], epochs);
    }
    if (args.size() >= 2 && args[0] == "sweep" && parse_sweep_args(args, sweep)) {
      return bench_sweep(args[1], sweep);
    }
    std::cerr << "usage: bench_cd read FILE [threads] | bench_cd objective FILE MODEL [C [P]] |\n"
                 "       bench_cd rows FILE [N] | bench_cd stream [MB] | bench_cd pages [MB] |\n"
                 "       bench_cd team |\n"
                 "       bench_cd sweep FILE [--order all|cyclic|perm|perm-prefetch|\n"
                 "         perm-prefetch-signed|cdper] [--epochs N] [--distance D[,D...]]\n"
                 "         [--huge-pages]\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "bench_cd: error: " << e.what() << '\n';
    return 1;
  }
}
