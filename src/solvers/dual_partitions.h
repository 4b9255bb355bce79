// The rounds of the partitioned dual CD solvers (solver_dcd_partitioned.cpp
// for the SVM, solver_svr_dual_partitioned.cpp for the SVR): P fixed parts
// of the instances, each taking dual CD steps over a slice of its own order
// on its own copy of w, then one combine of their changes of w in part order.
// What the two share is here: the parts and their slices, the copies, the
// sum u = sum_k dw_k with u'u and w'u, w += eta u, and the rule for the next
// round's sigma'. Each solver keeps its own steps, line search and
// stopping rule (their headers give the algorithm, after CoCoA+).
//
// Threads and bits: a part runs on one thread at a time and writes only its
// own rows, copy and dw_k; u is added in part order for each feature, its
// sums in fixed blocks of features added in block order, so the bits do not
// depend on the threads.
#ifndef CDL_SOLVERS_DUAL_PARTITIONS_H_
#define CDL_SOLVERS_DUAL_PARTITIONS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "data/problem.h"
#include "data/sparse_matrix.h"
#include "select/random.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace dual_partitions {

// Features per block of the combine's passes (a fixed cut, so that the
// partial sums are added in the same order for any threads).
constexpr std::size_t kCombineBlock = 8192;
// Below this many nonzeros a round runs on the calling thread: waking the
// team would cost more than the round.
constexpr std::int64_t kParallelNonzeros = 65536;
// sigma' is set so that the line search's unclipped eta comes out about
// this: a little above 1, so that eta = 1 (and the parts' variables, at
// their bounds, are kept exactly) while the local steps stay nearly
// undamped.
constexpr double kTargetRatio = 1.25;
// An epoch is cut into rounds (slices of every part's order) so that a
// round's copies and combine, O(P n), cost at most about 1/kSliceCost of its
// local steps, and at most kMaxSlices rounds. Fewer rounds let the parts
// drift further apart: on a 30,000 x 10^6 file of 8.9M nonzeros, L1-SVM at
// P = 2 stopped 2.9% above f* with 1 round per epoch and 1.1% with 4.
constexpr std::int64_t kSliceCost = 1;
constexpr std::int64_t kMaxSlices = 8;

// One part: its rows in this epoch's order, its slice, its copy of w and its
// change of w; Stats is what the solver measures over an epoch.
template <class Stats>
struct Part {
  // The part's rows, shuffled in place at each epoch's start by `rng`: the
  // order --select perm gives (the permutation shuffled in place, epoch
  // after epoch, by the same generator and swaps), without its index array.
  std::vector<std::size_t> visits;
  std::mt19937_64 rng;
  std::size_t slice_begin = 0;  // the current slice of visits
  std::size_t slice_end = 0;
  std::vector<double> start;  // the variables before the round, by position in the slice
  std::vector<double> local;  // w + sigma dw_k, size n: what its steps read
  // dw_k, size n, kept apart for an exact combine; 0 between rounds. The
  // combine leaves the round's sum u = sum_k dw_k in part 0's until w has
  // taken it.
  std::vector<double> dw;
  Stats stats;  // over the epoch's slices so far

  // The variable at slice position c before the round.
  double start_of(std::size_t c) const { return start[c - slice_begin]; }
};

// The rounds of an epoch (kSliceCost): fixed by the data's shape and P.
inline std::size_t slices_per_epoch(std::int64_t nonzeros, std::size_t partitions,
                                    std::size_t num_cols) {
  const auto dense = kSliceCost * static_cast<std::int64_t>(partitions) *
                     std::max<std::int64_t>(1, static_cast<std::int64_t>(num_cols));
  return static_cast<std::size_t>(
      std::min(kMaxSlices, std::max<std::int64_t>(1, nonzeros / dense)));
}

// The rows that count (C_j > 0), shuffled by `seed` and cut into `count`
// parts whose sizes differ by at most one; their n-vectors are made later,
// on the team (make_part_vectors()).
template <class Stats>
std::vector<Part<Stats>> make_parts(const Problem& problem, std::size_t count, std::size_t slices,
                                    std::uint64_t seed) {
  std::vector<std::size_t> rows;
  for (std::size_t j = 0; j < problem.num_rows(); ++j) {
    if (problem.cost(j) > 0) rows.push_back(j);
  }
  std::mt19937_64 rng(derive_seed(seed, 0));
  shuffle(rows, rng);
  std::vector<Part<Stats>> parts(count);
  for (std::size_t k = 0; k < count; ++k) {
    Part<Stats>& part = parts[k];
    const std::size_t begin = rows.size() * k / count;
    const std::size_t end = rows.size() * (k + 1) / count;
    part.visits.assign(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                       rows.begin() + static_cast<std::ptrdiff_t>(end));
    part.rng.seed(derive_seed(seed, k + 1));
    part.start.resize((end - begin + slices - 1) / slices);
  }
  return parts;
}

// The threads of a round: a team, or none (every pass on this thread).
class RoundThreads {
 public:
  explicit RoundThreads(unsigned threads) {
    if (threads > 1) team_ = std::make_unique<ThreadTeam>(threads);
  }
  void run(std::size_t count, const std::function<void(std::size_t)>& task) {
    if (team_ != nullptr) {
      team_->run(count, task);
    } else {
      for (std::size_t k = 0; k < count; ++k) task(k);
    }
  }

 private:
  std::unique_ptr<ThreadTeam> team_;
};

// The threads of the rounds: min(threads, P) from kParallelNonzeros
// nonzeros, else 1.
inline unsigned round_threads(std::int64_t nonzeros, unsigned threads, std::size_t partitions) {
  return nonzeros >= kParallelNonzeros
             ? static_cast<unsigned>(std::min<std::size_t>(threads, partitions))
             : 1;
}

// Each part's two n-vectors, made on the team: new memory is mapped before
// it is written (util/populate.h), and the parts' pages are mapped at once.
template <class Stats>
void make_part_vectors(std::vector<Part<Stats>>& parts, std::size_t num_cols,
                       RoundThreads& threads) {
  threads.run(parts.size(), [&](std::size_t k) {
    parts[k].local = populated_vector(num_cols, 0.0);
    parts[k].dw = populated_vector(num_cols, 0.0);
  });
}

// The start of part k's share of a round: slice `slice` of `slices` of its
// epoch's order (slice 0 draws the order and clears the stats), the
// variables of its rows before the round (value(row)), and its copy of w.
template <class Stats, class Value>
void begin_slice(std::size_t slice, std::size_t slices, const std::vector<double>& w,
                 const Value& value, Part<Stats>& part) {
  if (slice == 0) {
    shuffle(part.visits, part.rng);
    part.stats = Stats{};
  }
  const std::size_t count = part.visits.size();
  part.slice_begin = count * slice / slices;
  part.slice_end = count * (slice + 1) / slices;
  for (std::size_t c = part.slice_begin; c < part.slice_end; ++c) {
    part.start[c - part.slice_begin] = value(part.visits[c]);
  }
  std::copy(w.begin(), w.end(), part.local.begin());
}

// A step's change `step` of row i's variable times x_i: sigma times it to
// the part's copy, itself to dw_k.
inline void scatter_step(const CsrMatrix& x, std::size_t i, double step, double sigma,
                         double* local, double* dw) {
  const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
  const auto end = static_cast<std::size_t>(x.row_ptr[i + 1]);
  const double move = sigma * step;
  for (std::size_t t = begin; t < end; ++t) {
    const std::size_t j = x.col_idx[t];
    local[j] += move * x.values[t];
    dw[j] += step * x.values[t];
  }
}

// u'u and w'u of the round's u = sum_k dw_k.
struct Update {
  double uu = 0;
  double wu = 0;
};

// The combine's sum: u = sum_k dw_k in part order for each feature, left in
// part 0's dw (the others' back to 0), with u'u and w'u.
template <class Stats>
Update sum_updates(std::vector<Part<Stats>>& parts, const std::vector<double>& w,
                   RoundThreads& threads) {
  const std::size_t n = w.size();
  double* const u = parts[0].dw.data();
  const std::size_t blocks = (n + kCombineBlock - 1) / kCombineBlock;
  std::vector<double> block_uu(blocks, 0.0);
  std::vector<double> block_wu(blocks, 0.0);
  threads.run(blocks, [&](std::size_t b) {
    const std::size_t begin = b * kCombineBlock;
    const std::size_t end = std::min(n, begin + kCombineBlock);
    double uu = 0;
    double wu = 0;
    for (std::size_t j = begin; j < end; ++j) {
      double sum = 0;
      for (Part<Stats>& part : parts) {
        sum += part.dw[j];
        part.dw[j] = 0;
      }
      u[j] = sum;
      uu += sum * sum;
      wu += w[j] * sum;
    }
    block_uu[b] = uu;
    block_wu[b] = wu;
  });
  Update update;
  for (std::size_t b = 0; b < blocks; ++b) {
    update.uu += block_uu[b];
    update.wu += block_wu[b];
  }
  return update;
}

// w += eta u, with u (part 0's dw) back to 0.
template <class Stats>
void add_update(double eta, std::vector<Part<Stats>>& parts, std::vector<double>& w,
                RoundThreads& threads) {
  const std::size_t n = w.size();
  double* const u = parts[0].dw.data();
  const std::size_t blocks = (n + kCombineBlock - 1) / kCombineBlock;
  threads.run(blocks, [&](std::size_t b) {
    const std::size_t end = std::min(n, (b + 1) * kCombineBlock);
    if (eta == 1) {
      for (std::size_t j = b * kCombineBlock; j < end; ++j) {
        w[j] += u[j];
        u[j] = 0;
      }
    } else {
      for (std::size_t j = b * kCombineBlock; j < end; ++j) {
        w[j] += eta * u[j];
        u[j] = 0;
      }
    }
  });
}

// The next round's sigma': the one that would have put this round's
// unclipped eta (`ratio`, when positive) at kTargetRatio, within [1, P].
inline double next_sigma(double sigma, double ratio, std::size_t partitions) {
  if (!(ratio > 0)) return sigma;
  return std::min(static_cast<double>(partitions), std::max(1.0, sigma * kTargetRatio / ratio));
}

}  // namespace dual_partitions
}  // namespace cdl

#endif  // CDL_SOLVERS_DUAL_PARTITIONS_H_
