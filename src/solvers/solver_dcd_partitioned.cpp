// Partitioned dual coordinate descent for L2-regularized L1- and L2-loss
// linear SVMs: dual CD on P fixed parts of the instances at once, for -m's
// threads, with the same model for any number of threads.
//
// Problem: the dual of solver_dcd.cpp's problem,
//     min_alpha D(alpha) = 1/2 alpha' Qbar alpha - e'alpha,  0 <= alpha_j <= U_j,
//   Qbar = Q + D, Q_jk = y_j y_k x_j'x_k; U_j = C_j, D_jj = 0 for L1-SVM,
//   U_j = inf, D_jj = 1/(2 C_j) for L2-SVM (Hsieh et al. 2008). Rows held out
//   (C_j = 0) keep alpha_j = 0 and belong to no part.
//
// Algorithm: CoCoA+ (Ma, Smith, Jaggi, Jordan, Richtarik & Takac, "Adding vs.
//   Averaging in Distributed Primal-Dual Optimization", ICML 2015, and
//   "Distributed optimization with arbitrary local solvers", 2017, Algorithm
//   1 and its local subproblem with the parameter sigma') with dual CD as
//   the local solver, and an exact line search along the combined direction;
//   the synchronous parallel CD of the primer of Shi, Tu, Xu & Yin, section
//   5.1.2 ("Synchrony and Asynchrony": partial updates by each core, then a
//   synchronization step). The rows
//   that count are shuffled once (seeded by --seed) and cut into P parts
//   whose sizes differ by at most one; P (--partitions) does not depend on
//   the threads. An epoch draws every part's own random permutation (its own
//   seed) and cuts each into S slices (S from the data's shape and P:
//   nonzeros / (P n), within [1, 8], so that a round's O(P n) copies and
//   combine cost at most about as much as its steps). Each round, from the round's
//   (alpha, w):
//   - every part k takes solver_dcd.cpp's steps (40) over its next slice, on
//     its local copy w + sigma' dw_k: coordinate i's partial gradient is read
//     there and its second derivative is sigma' x_i'x_i + D_ii (CoCoA+'s
//     local subproblem), its step adds sigma' y_i x_i times the change to the
//     copy and y_i x_i times the change to dw_k, giving dalpha_k;
//   - with d = sum_k dalpha_k and u = sum_k dw_k = X'Y d (added in part
//     order, for each feature), the dual along alpha + eta d is a quadratic,
//       D(alpha + eta d) = D(alpha) + eta g'd + eta^2/2 d'Qbar d,
//       g'd = w'u + sum_j D_jj alpha_j d_j - sum_j d_j,
//       d'Qbar d = u'u + sum_j D_jj d_j^2,
//     minimized over [0, 1] by eta = min(max(-g'd / d'Qbar d, 0), 1): alpha
//     and alpha + d are both feasible, so every point between them is, and D
//     never increases from round to round;
//   - alpha += eta d, w += eta u (eta = 1 keeps the parts' alpha exactly, at
//     their bounds where the steps put them);
//   - sigma' for the next round: sigma' 1.25 / (-g'd / d'Qbar d), within
//     [1, P], which puts the unclipped eta near 1.25, so that eta is 1 while
//     the local steps are barely damped (sigma' = 1 is the part's exact
//     dual CD, sigma' = P is CoCoA+'s safe "adding" bound). It starts at 1.
//   Shrinking is solver_dcd.cpp's, with the thresholds Mbar and mbar taken
//   over every part's steps of the previous epoch.
//
// Stopping rule: solver_dcd.cpp's, after each epoch (every part's rows once,
//   in S rounds): the spread max(max PG, 0) - min(min PG, 0) over the
//   epoch's visited coordinates, each PG measured at its part's local point
//   before its step, is <= eps (0 is included because parts that start from
//   the same w can all see the same PG, -1 at alpha = 0); a pass with
//   coordinates shrunk restores them all and goes on. An epoch over every
//   coordinate that passes is checked again with the PGs of every row at
//   the epoch's end point (alpha, w), one O(#nz) pass, since the local PGs
//   miss the other parts' steps of their round (on a wide L1-SVM file they
//   passed 0.1 at f 2.9% above f*); the run stops when that spread is <= eps.
//   Also after --max-iter epochs and, with --gap-tol G, when
//   P(w) - D(alpha) <= G after an epoch. Under LIBLINEAR's -s 2 (wide
//   data) -s 2's own rule on the primal gradient replaces the spread's, as
//   in solver_dcd.cpp (primal_rule.h).
//
// Threads and bits: the parts run on thread_count(params) threads (-m), each
//   part on one thread at a time, writing only its own rows' alpha, its own
//   copy and its own dw_k; the combine adds the dw_k in part order for each
//   feature (features in fixed blocks on the threads) and every scalar sum
//   in block or part order, so the model is the same bits for any -m. Each
//   round is one reduction of per-part results in part order, as a
//   distributed run (parts on ranks, one n-vector exchange per round) needs.
//
// Cost per round: O(nonzeros of the slice's active rows) for the steps (one
//   read per nonzero for the dot product, two writes per nonzero of a row
//   that moves), split among the threads by part; O(P n) for the copies and
//   the combine, split by part and by features; O(l / S) for the line
//   search's row sums. An epoch is S rounds. Memory: two dense n-vectors per
//   part (the copy and dw_k) beside w, u in part 0's dw_k, and per row
//   its place in its part's order (8 bytes) and, for a slice's rows, alpha
//   at the round's start. The gap (--gap-tol, --trace, progress) is
//   O(#nz + l + n) per epoch with the clock stopped, as in
//   solver_dcd.cpp.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>
#include <random>

#include "objective/evaluate.h"
#include "select/random.h"
#include "solvers/dcd_state.h"
#include "solvers/solver.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace {

using namespace dcd;

// Features per block of the combine's passes (a fixed cut, so that the
// partial sums are added in the same order for any threads).
constexpr std::size_t kCombineBlock = 8192;
// Below this many nonzeros a round runs on the calling thread: waking the
// team would cost more than the round.
constexpr std::int64_t kParallelNonzeros = 65536;
// sigma' is set so that the line search's unclipped eta comes out about
// this: a little above 1, so that eta = 1 (and the parts' alpha, at their
// bounds, are kept exactly) while the local steps stay nearly undamped.
constexpr double kTargetRatio = 1.25;
// An epoch is cut into rounds (slices of every part's order) so that a
// round's copies and combine, O(P n), cost at most about 1/kSliceCost of its
// local steps, and at most kMaxSlices rounds. Fewer rounds let the parts
// drift further apart: on a 30,000 x 10^6 file of 8.9M nonzeros, L1-SVM at
// P = 2 stopped 2.9% above f* with 1 round per epoch and 1.1% with 4.
constexpr std::int64_t kSliceCost = 1;
constexpr std::int64_t kMaxSlices = 8;
// The default of --partitions (docs/solvers.md has the measurements): the
// serial algorithm below kPartitionedNonzeros nonzeros, where a round's
// threads do not pay, else kDefaultPartitions parts.
constexpr std::int64_t kPartitionedNonzeros = 1000000;
constexpr std::int64_t kDefaultPartitions = 2;

// One part: its rows in this epoch's order, and what its current epoch did.
struct Part {
  // The part's rows, shuffled in place at each epoch's start by `rng`: the
  // order --select perm gives (the permutation shuffled in place, epoch
  // after epoch, by the same generator and swaps), without its index array.
  std::vector<std::size_t> visits;
  std::mt19937_64 rng;
  std::size_t slice_begin = 0;  // the current slice of visits
  std::size_t slice_end = 0;
  std::vector<double> start_alpha;  // alpha before the round, by position in the slice
  std::vector<double> local;        // w + sigma dw_k, size n: what its steps read
  // dw_k, size n, kept apart for an exact combine; 0 between rounds. The
  // combine leaves the round's sum u = sum_k dw_k in part 0's until w has
  // taken it.
  std::vector<double> dw;
  EpochStats stats;        // over the epoch's slices so far
  // The line search's row sums over the slice's rows: sum d_j,
  // sum D_jj alpha_j d_j and sum D_jj d_j^2 (alpha at the round's start).
  double sum_d = 0;
  double sum_dad = 0;
  double sum_ddd = 0;
};

// The rounds of an epoch (kSliceCost): fixed by the data's shape and P.
std::size_t slices_per_epoch(std::int64_t nonzeros, std::size_t partitions, std::size_t num_cols) {
  const auto dense = kSliceCost * static_cast<std::int64_t>(partitions) *
                     std::max<std::int64_t>(1, static_cast<std::int64_t>(num_cols));
  return static_cast<std::size_t>(
      std::min(kMaxSlices, std::max<std::int64_t>(1, nonzeros / dense)));
}

// The rows that count, shuffled by `seed` and cut into `count` parts.
std::vector<Part> make_parts(const Problem& problem, std::size_t count, std::size_t slices,
                             std::uint64_t seed) {
  std::vector<std::size_t> rows;
  for (std::size_t j = 0; j < problem.num_rows(); ++j) {
    if (problem.cost(j) > 0) rows.push_back(j);
  }
  std::mt19937_64 rng(derive_seed(seed, 0));
  shuffle(rows, rng);
  std::vector<Part> parts(count);
  for (std::size_t k = 0; k < count; ++k) {
    Part& part = parts[k];
    const std::size_t begin = rows.size() * k / count;
    const std::size_t end = rows.size() * (k + 1) / count;
    part.visits.assign(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                       rows.begin() + static_cast<std::ptrdiff_t>(end));
    part.rng.seed(derive_seed(seed, k + 1));
    part.start_alpha.resize((end - begin + slices - 1) / slices);
  }
  return parts;
}

// Each part's two n-vectors, made on the team: new memory is mapped before
// it is written (util/populate.h), and the parts' pages are mapped at once.
void make_part_vectors(std::vector<Part>& parts, std::size_t num_cols, ThreadTeam& threads) {
  threads.run(parts.size(), [&](std::size_t k) {
    parts[k].local = populated_vector(num_cols, 0.0);
    parts[k].dw = populated_vector(num_cols, 0.0);
  });
}

// Part k's share of a round (the header's first step): slice `slice` of
// `slices` of its epoch's order, solver_dcd.cpp's steps on w + sigma dw_k,
// then its row sums for the line search. Slice 0 draws the epoch's order.
template <LossKind kLoss>
void local_slice(const Problem& problem, const CsrMatrix& x, bool shrink, const ShrinkBounds prev,
                 const std::vector<double>& w, double sigma, std::size_t slice, std::size_t slices,
                 DualRows& dual, Part& part) {
  const ClassBounds bounds = class_bounds<kLoss>(problem);
  DualRow* const row = dual.row.data();
  std::uint8_t* const active = dual.active.data();
  if (slice == 0) {
    shuffle(part.visits, part.rng);
    part.stats = EpochStats{};
  }
  const std::size_t count = part.visits.size();
  part.slice_begin = count * slice / slices;
  part.slice_end = count * (slice + 1) / slices;
  const std::size_t* const visits = part.visits.data();
  double* const start_alpha = part.start_alpha.data() - part.slice_begin;  // by position c
  for (std::size_t c = part.slice_begin; c < part.slice_end; ++c) {
    start_alpha[c] = row[visits[c]].alpha;
  }
  const CoordinateBatch batch{visits + part.slice_begin, part.slice_end - part.slice_begin};
  const auto row_of = [](std::size_t i) { return i; };
  std::copy(w.begin(), w.end(), part.local.begin());
  double* const local = part.local.data();
  double* const dw = part.dw.data();
  EpochStats& stats = part.stats;
  for (std::size_t k = 0; k < batch.size; ++k) {
    prefetch_ahead(x, row, batch, k, row_of);
    const std::size_t i = batch.begin[k];
    if (active[i] == 0) continue;
    const double step =
        visit_row(x, i, local, bounds, sigma, shrink, prev, row[i], active[i], stats);
    if (step == 0) continue;
    const auto begin = static_cast<std::size_t>(x.row_ptr[i]);
    const auto end = static_cast<std::size_t>(x.row_ptr[i + 1]);
    const double move = sigma * step;
    for (std::size_t t = begin; t < end; ++t) {
      const std::size_t j = x.col_idx[t];
      local[j] += move * x.values[t];
      dw[j] += step * x.values[t];
    }
    stats.nnz_ops += static_cast<std::int64_t>(end - begin);
  }
  part.sum_d = part.sum_dad = part.sum_ddd = 0;
  for (std::size_t c = part.slice_begin; c < part.slice_end; ++c) {
    const DualRow& r = row[visits[c]];
    const double d = r.alpha - start_alpha[c];
    if (d == 0) continue;
    const double diag = bounds.diag(r.y() > 0, visits[c]);
    part.sum_d += d;
    part.sum_dad += diag * start_alpha[c] * d;
    part.sum_ddd += diag * d * d;
  }
}

// The round's combine (the header's second and third steps): u = sum_k dw_k
// in part order, kept in part 0's dw (the others' back to 0), the line
// search's eta, then alpha and w (part 0's dw back to 0). Returns
// -g'd / d'Qbar d, eta before its clipping (0 when d = 0).
double combine(std::vector<Part>& parts, DualRows& dual, std::vector<double>& w,
               ThreadTeam& threads) {
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
      for (Part& part : parts) {
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
  double uu = 0;
  double wu = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    uu += block_uu[b];
    wu += block_wu[b];
  }
  double sum_d = 0;
  double sum_dad = 0;
  double sum_ddd = 0;
  for (const Part& part : parts) {
    sum_d += part.sum_d;
    sum_dad += part.sum_dad;
    sum_ddd += part.sum_ddd;
  }
  const double curvature = uu + sum_ddd;      // d'Qbar d
  const double slope = wu + sum_dad - sum_d;  // g'd
  const double ratio = curvature > 0 ? -slope / curvature : 0.0;
  const double eta = std::min(std::max(ratio, 0.0), 1.0);
  if (eta == 1) {
    threads.run(blocks, [&](std::size_t b) {
      const std::size_t end = std::min(n, (b + 1) * kCombineBlock);
      for (std::size_t j = b * kCombineBlock; j < end; ++j) {
        w[j] += u[j];
        u[j] = 0;
      }
    });
    return ratio;
  }
  threads.run(parts.size(), [&](std::size_t k) {
    Part& part = parts[k];
    const double* const start_alpha = part.start_alpha.data();
    for (std::size_t c = part.slice_begin; c < part.slice_end; ++c) {
      DualRow& r = dual.row[part.visits[c]];
      const double start = start_alpha[c - part.slice_begin];
      r.alpha = start + eta * (r.alpha - start);
    }
  });
  threads.run(blocks, [&](std::size_t b) {
    const std::size_t end = std::min(n, (b + 1) * kCombineBlock);
    for (std::size_t j = b * kCombineBlock; j < end; ++j) {
      w[j] += eta * u[j];
      u[j] = 0;
    }
  });
  return ratio;
}

// The epoch's measurements: the parts' stats merged in part order. The PG
// range is widened to include 0: the parts' first steps all see the
// round's w, so their PGs can be equal (all -1 at alpha = 0) far from the
// optimum, where a spread of the PGs alone would be 0; max(M, 0) - min(m, 0)
// is 0 only where every PG is.
EpochStats merge_stats(const std::vector<Part>& parts) {
  EpochStats round;
  for (const Part& part : parts) {
    round.max_pg = std::max(round.max_pg, part.stats.max_pg);
    round.min_pg = std::min(round.min_pg, part.stats.min_pg);
    round.shrunk += part.stats.shrunk;
    round.visits += part.stats.visits;
    round.nnz_ops += part.stats.nnz_ops;
  }
  round.max_pg = std::max(round.max_pg, 0.0);
  round.min_pg = std::min(round.min_pg, 0.0);
  return round;
}

// The PG range at the current (alpha, w) over every part's rows (with 0, as
// merge_stats()), for the stopping test: the epoch's PGs were read at the
// parts' local points, which miss the other parts' steps of their round.
// O(#nz), split among the threads by part.
template <LossKind kLoss>
void pg_range_at_end(const Problem& problem, const CsrMatrix& x, const DualRows& dual,
                     const std::vector<double>& w, std::vector<Part>& parts, ThreadTeam& threads,
                     EpochStats& epoch) {
  const ClassBounds bounds = class_bounds<kLoss>(problem);
  std::vector<EpochStats> ranges(parts.size());
  threads.run(parts.size(), [&](std::size_t k) {
    EpochStats& range = ranges[k];
    for (std::size_t i : parts[k].visits) {
      const DualRow& r = dual.row[i];
      double dot = 0;
      for (auto t = x.row_ptr[i]; t < x.row_ptr[i + 1]; ++t) {
        const auto at = static_cast<std::size_t>(t);
        dot += x.values[at] * w[x.col_idx[at]];
      }
      const bool positive = r.y() > 0;
      const double upper = bounds.upper(positive, i);
      const double G = r.y() * dot - 1.0 + bounds.diag(positive, i) * r.alpha;
      const double pg = r.alpha == 0 ? std::min(G, 0.0) : r.alpha == upper ? std::max(G, 0.0) : G;
      range.max_pg = std::max(range.max_pg, pg);
      range.min_pg = std::min(range.min_pg, pg);
    }
  });
  epoch.max_pg = 0;
  epoch.min_pg = 0;
  for (const EpochStats& range : ranges) {
    epoch.max_pg = std::max(epoch.max_pg, range.max_pg);
    epoch.min_pg = std::min(epoch.min_pg, range.min_pg);
  }
}

template <LossKind kLoss>
SolveResult partitioned_loop(const Problem& problem, const CsrMatrix& x, std::size_t partitions,
                             std::uint64_t seed, unsigned threads, const Params& params,
                             Reporter& reporter) {
  const std::int64_t max_iter = params.max_iter.value();
  const bool shrink = params.shrink.value_or(true);
  assert(x.num_rows == problem.num_rows());
  DualRows dual = start_dual<kLoss>(problem, x);
  std::vector<double> w = populated_vector(x.num_cols, 0.0);
  const auto nonzeros = static_cast<std::int64_t>(x.row_ptr[x.num_rows]);
  const std::size_t slices = slices_per_epoch(nonzeros, partitions, x.num_cols);
  std::vector<Part> parts = make_parts(problem, partitions, slices, seed);
  const unsigned round_threads =
      nonzeros >= kParallelNonzeros
          ? static_cast<unsigned>(std::min<std::size_t>(threads, partitions))
          : 1;

  SolveResult result;
  EpochLoop loop(problem, params, threads, reporter);
  Progress progress(reporter);
  // A team of one has no helpers: its passes run on this thread.
  ThreadTeam team(round_threads);
  make_part_vectors(parts, x.num_cols, team);
  const double max_sigma = static_cast<double>(partitions);
  double sigma = 1;
  while (!loop.converged && result.iterations < max_iter) {
    const ShrinkBounds prev = loop.shrink_bounds;
    for (std::size_t slice = 0; slice < slices; ++slice) {
      team.run(parts.size(), [&](std::size_t k) {
        local_slice<kLoss>(problem, x, shrink, prev, w, sigma, slice, slices, dual, parts[k]);
      });
      const double ratio = combine(parts, dual, w, team);
      // The next round's sigma': the one that would have put this round's
      // unclipped eta at kTargetRatio, within [1, P].
      if (ratio > 0) sigma = std::min(max_sigma, std::max(1.0, sigma * kTargetRatio / ratio));
    }
    EpochStats epoch = merge_stats(parts);
    // An epoch over every coordinate that passes is checked again at its end
    // point, where the stopping rule then applies.
    if (!loop.primal && epoch.spread() <= params.eps.value() &&
        dual.active_count == dual.countable && epoch.shrunk == 0) {
      pg_range_at_end<kLoss>(problem, x, dual, w, parts, team, epoch);
    }
    end_epoch<kLoss>(epoch, problem, params, dual, w, loop, result, progress);
  }
  // The parts' n-vectors go before f(w)'s margins are made.
  parts = std::vector<Part>();
  finish_run<kLoss>(problem, loop, dual, std::move(w), progress, result);
  return result;
}

}  // namespace

SolveResult solve_dcd_partitioned(const Problem& problem, LossKind loss, std::size_t partitions,
                                  std::uint64_t seed, unsigned threads, const Params& params,
                                  Reporter& reporter) {
  assert(partitions >= 1);
  std::optional<CsrMatrix> own_rows;
  const CsrMatrix& x = rows_of(problem, own_rows);
  switch (loss) {
    case LossKind::kL1Svm:
      return partitioned_loop<LossKind::kL1Svm>(problem, x, partitions, seed, threads, params,
                                                reporter);
    case LossKind::kL2Svm:
      return partitioned_loop<LossKind::kL2Svm>(problem, x, partitions, seed, threads, params,
                                                reporter);
    default:
      break;
  }
  throw Error(std::string("dual coordinate descent does not train loss ") + loss_info(loss).name);
}

std::size_t dcd_partitions(const Params& params, std::size_t nonzeros,
                           std::size_t rows_that_count) {
  if (params.select && *params.select != "perm") return 1;
  std::int64_t wanted = 1;
  if (params.partitions) {
    wanted = *params.partitions;
  } else if (static_cast<std::int64_t>(nonzeros) >= kPartitionedNonzeros) {
    wanted = kDefaultPartitions;
  }
  return std::max<std::size_t>(1, std::min(static_cast<std::size_t>(wanted), rows_that_count));
}

std::size_t dcd_partitions(const Params& params, const Problem& problem) {
  std::size_t countable = 0;
  for (std::size_t j = 0; j < problem.num_rows(); ++j) countable += problem.cost(j) > 0;
  return dcd_partitions(params, problem.nnz(), countable);
}

std::string dcd_partitions_default_text() {
  return "1 below " + std::to_string(kPartitionedNonzeros) + " nonzeros, else " +
         std::to_string(kDefaultPartitions);
}

}  // namespace cdl
