// Partitioned dual coordinate descent for L2-regularized L1- and L2-loss
// linear SVMs: dual CD on P fixed parts of the instances at once, for -m's
// threads and the ranks of cdtrain-mpi, with the same model for any number
// of threads and ranks.
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
//   1, a number not checked against the paper's text, and its local
//   subproblem with the parameter sigma') with dual CD as
//   the local solver, and an exact line search along the combined direction;
//   the synchronous parallel CD of the primer of Shi, Tu, Xu & Yin, section
//   5.1.2 ("Synchrony and Asynchrony": partial updates by each core, then a
//   synchronization step). P (--partitions) does not depend on the
//   threads. Every epoch draws a new cut of the rows that count: they are
//   shuffled in place, epoch after epoch, by one generator (seeded by the
//   problem's seed), and cut into P parts whose sizes differ by at most
//   one, each part's run in its drawn order. With --fixed-parts (and always
//   on ranks, which hold their parts' rows) the parts keep the run's first
//   cut instead: the rows numbered in file order, shuffled once by --seed
//   itself (dcd_part_order(): the same cut for every class), and each part
//   draws its own order every epoch (seeded by the problem's seed and the
//   part). A fixed cut has a slow tail: on a 100,000 x 10^6 text-like
//   file, -s 1 -e 0.001 took 67 epochs on 2 fixed parts, 18 on new cuts and
//   14 serially, and serial dual CD itself, visiting two fixed halves of
//   heart_scale's rows one after the other, each in a new order, was far
//   from its optimum where a whole new order every epoch had reached it.
//   An epoch's parts are cut into S slices (S from the data's shape and P:
//   nonzeros / (P n), within [1, 8], so that a round's O(P n) copies and
//   combine cost at most about as much as its steps). Each round, from the
//   round's (alpha, w):
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
//   part on one thread at a time, writing only the alpha of its epoch's
//   rows, its own copy and its own dw_k; the combine adds the dw_k in part
//   order for each feature (features in fixed blocks on the threads) and
//   every scalar sum in block or part order, so the model is the same bits
//   for any -m. The duality gap and f(w) are summed part by part (each in
//   row order) and the parts' sums added in part order.
//
// Ranks: with the rows spread over ranks (problem.share, data/row_share.h),
//   each rank holds a run of consecutive parts and runs them as above; the
//   parts' dw_k are added in part order across the ranks
//   (Collective::add_in_order(): a reduce-scatter and an all-gather of n
//   doubles per round), and each scalar sum (the line search's, the epoch's
//   stats, the PG range, the gap) is gathered per part and added in part
//   order, so every rank holds the same w, the model of one process, for
//   any number of ranks. A rank without parts joins the exchanges.
//
// Cost per round: O(nonzeros of the slice's active rows) for the steps (one
//   read per nonzero for the dot product, two writes per nonzero of a row
//   that moves), split among the threads by part; O(P n) for the copies and
//   the combine, split by part and by features; O(l / S) for the line
//   search's row sums. An epoch is S rounds. Memory: two dense n-vectors per
//   part (the copy and dw_k) beside w, u in part 0's dw_k, and per row
//   its place in its part's order, in its sorted rows and in the epoch's
//   cut (8 bytes each) and, for a slice's rows, alpha at the round's
//   start. The cut's draw is O(l) on one thread per epoch. The gap
//   (--gap-tol, --trace, progress) is O(#nz + l + n) per epoch with the
//   clock stopped, as in solver_dcd.cpp. On ranks, u takes one n-vector
//   more.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>
#include <random>

#include "data/row_share.h"
#include "objective/evaluate.h"
#include "select/random.h"
#include "solvers/dcd_state.h"
#include "solvers/solver.h"
#include "util/collective.h"
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
// The stream of derive_seed(--seed, .) that cuts the rows into parts: not
// a class's (0, 1, ...), whose streams draw the parts' epochs.
constexpr std::uint64_t kCutStream = 0x7061727473;  // "parts"
// The stream of derive_seed(the problem's seed, .) that draws each epoch's
// cut: the parts' own orders (--fixed-parts) take streams 1 to P.
constexpr std::uint64_t kEpochCutStream = 0;

// One part: its rows in this epoch's order, and what its current epoch did.
struct Part {
  // The epoch's rows in their order: its run of the epoch's cut (EpochCut);
  // with --fixed-parts, the first cut's rows shuffled in place at each
  // epoch's start by `rng`, the order --select perm gives (the permutation
  // shuffled in place, epoch after epoch, by the same generator and swaps),
  // without its index array.
  std::vector<std::size_t> visits;
  // The first cut's rows in increasing order, for the passes over every row
  // (the PG range, the gap): in memory order, where the steps' order jumps.
  std::vector<std::size_t> rows;
  std::mt19937_64 rng;
  std::size_t slice_begin = 0;  // the current slice of visits
  std::size_t slice_end = 0;
  std::vector<double> start_alpha;  // alpha before the round, by position in the slice
  std::vector<double> local;        // w + sigma dw_k, size n: what its steps read
  // dw_k, size n, kept apart for an exact combine; 0 between rounds. The
  // combine leaves the round's sum u = sum_k dw_k in part 0's until w has
  // taken it.
  std::vector<double> dw;
  EpochStats stats;  // over the epoch's slices so far
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

// This process's parts of `count` (its rank's run with problem.share, else
// all of them): the rows that count, numbered in file order, cut by the
// run's seed (dcd_part_order()), each part's epochs seeded by `seed` and
// its number.
std::vector<Part> make_parts(const Problem& problem, std::size_t count, std::size_t slices,
                             std::uint64_t run_seed, std::uint64_t seed) {
  const RowShare* const share = problem.share;
  // The row numbered c among the whole data's rows that count: on one
  // process the c-th row that counts; on a rank, whose rows are those of
  // its parts (all counting, in order), the one whose number is c.
  std::vector<std::size_t> local;
  if (share == nullptr) {
    for (std::size_t j = 0; j < problem.num_rows(); ++j) {
      if (problem.cost(j) > 0) local.push_back(j);
    }
  }
  const std::size_t total =
      share != nullptr ? static_cast<std::size_t>(share->total_counted) : local.size();
  const auto row_numbered = [&](std::size_t c) {
    if (share == nullptr) return local[c];
    const auto at = std::lower_bound(share->counted.begin(), share->counted.end(), c);
    assert(at != share->counted.end() && *at == c);
    return static_cast<std::size_t>(at - share->counted.begin());
  };
  const std::size_t first = share != nullptr ? share->first_part : 0;
  const std::size_t end = share != nullptr ? share->end_part : count;
  const std::vector<std::size_t> order = dcd_part_order(total, run_seed);
  std::vector<Part> parts(end - first);
  for (std::size_t k = first; k < end; ++k) {
    Part& part = parts[k - first];
    const std::size_t begin = first_of_run(total, k, count);
    const std::size_t stop = first_of_run(total, k + 1, count);
    part.visits.reserve(stop - begin);
    for (std::size_t p = begin; p < stop; ++p) part.visits.push_back(row_numbered(order[p]));
    part.rows = part.visits;
    std::sort(part.rows.begin(), part.rows.end());
    part.rng.seed(derive_seed(seed, k + 1));
    part.start_alpha.resize((stop - begin + slices - 1) / slices);
  }
  return parts;
}

// Every part's record (a few doubles each), in part order: this process's
// parts' records (`mine`) with the other ranks' (one gather) when the rows
// are spread over ranks.
std::vector<double> all_parts(Collective* ranks, std::vector<double> mine) {
  return ranks == nullptr ? mine : ranks->gather_all(mine);
}

// Each part's two n-vectors, made on the team: new memory is mapped before
// it is written (util/populate.h), and the parts' pages are mapped at once.
void make_part_vectors(std::vector<Part>& parts, std::size_t num_cols, ThreadTeam& threads) {
  threads.run(parts.size(), [&](std::size_t k) {
    parts[k].local = populated_vector(num_cols, 0.0);
    parts[k].dw = populated_vector(num_cols, 0.0);
  });
}

// Each epoch's new cut (the header): the rows that count, shuffled in place
// epoch after epoch by one generator, and cut into the parts' runs of
// visits in part order (each part keeps its size). O(l) on one thread.
struct EpochCut {
  std::vector<std::size_t> order;
  std::mt19937_64 rng;

  EpochCut(const std::vector<Part>& parts, std::uint64_t seed)
      : rng(derive_seed(seed, kEpochCutStream)) {
    for (const Part& part : parts) order.insert(order.end(), part.rows.begin(), part.rows.end());
  }
  void draw(std::vector<Part>& parts) {
    shuffle(order, rng);
    auto next = order.begin();
    for (Part& part : parts) {
      const auto end = next + static_cast<std::ptrdiff_t>(part.visits.size());
      std::copy(next, end, part.visits.begin());
      next = end;
    }
  }
};

// Part k's share of a round (the header's first step): slice `slice` of
// `slices` of its epoch's order (drawn before slice 0), solver_dcd.cpp's
// steps on w + sigma dw_k, then its row sums for the line search. Slice 0
// starts the epoch's stats.
template <LossKind kLoss>
void local_slice(const Problem& problem, const CsrMatrix& x, bool shrink, const ShrinkBounds prev,
                 const std::vector<double>& w, double sigma, std::size_t slice, std::size_t slices,
                 DualRows& dual, Part& part) {
  const ClassBounds bounds = class_bounds<kLoss>(problem);
  DualRow* const row = dual.row.data();
  std::uint8_t* const active = dual.active.data();
  if (slice == 0) part.stats = EpochStats{};
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
// in part order (the dw_k back to 0), the line search's eta, then alpha and
// w. On one process u is kept in part 0's dw; with the rows spread over
// `ranks`, in `shared_u`, where the ranks add their parts' dw_k in part
// order (Collective::add_in_order()). Returns -g'd / d'Qbar d, eta before
// its clipping (0 when d = 0).
double combine(std::vector<Part>& parts, Collective* ranks, std::vector<double>& shared_u,
               DualRows& dual, std::vector<double>& w, ThreadTeam& threads) {
  const std::size_t n = w.size();
  const std::size_t blocks = (n + kCombineBlock - 1) / kCombineBlock;
  std::vector<double> block_uu(blocks, 0.0);
  std::vector<double> block_wu(blocks, 0.0);
  // u'u and w'u over block b, from u_j for each j of it.
  const auto block_products = [&](std::size_t b, const auto& u_of) {
    const std::size_t end = std::min(n, (b + 1) * kCombineBlock);
    double uu = 0;
    double wu = 0;
    for (std::size_t j = b * kCombineBlock; j < end; ++j) {
      const double sum = u_of(j);
      uu += sum * sum;
      wu += w[j] * sum;
    }
    block_uu[b] = uu;
    block_wu[b] = wu;
  };
  double* u = nullptr;
  if (ranks == nullptr) {
    u = parts[0].dw.data();
    threads.run(blocks, [&](std::size_t b) {
      block_products(b, [&](std::size_t j) {
        double sum = u[j];
        for (std::size_t k = 1; k < parts.size(); ++k) {
          sum += parts[k].dw[j];
          parts[k].dw[j] = 0;
        }
        u[j] = sum;
        return sum;
      });
    });
  } else {
    std::vector<const std::vector<double>*> mine;
    for (const Part& part : parts) mine.push_back(&part.dw);
    ranks->add_in_order(mine, n, shared_u);
    u = shared_u.data();
    threads.run(parts.size(),
                [&](std::size_t k) { std::fill(parts[k].dw.begin(), parts[k].dw.end(), 0.0); });
    threads.run(blocks,
                [&](std::size_t b) { block_products(b, [&](std::size_t j) { return u[j]; }); });
  }
  double uu = 0;
  double wu = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    uu += block_uu[b];
    wu += block_wu[b];
  }
  std::vector<double> mine;
  for (const Part& part : parts) mine.insert(mine.end(), {part.sum_d, part.sum_dad, part.sum_ddd});
  double sum_d = 0;
  double sum_dad = 0;
  double sum_ddd = 0;
  const std::vector<double> sums = all_parts(ranks, std::move(mine));
  for (std::size_t k = 0; k < sums.size(); k += 3) {
    sum_d += sums[k];
    sum_dad += sums[k + 1];
    sum_ddd += sums[k + 2];
  }
  const double curvature = uu + sum_ddd;      // d'Qbar d
  const double slope = wu + sum_dad - sum_d;  // g'd
  const double ratio = curvature > 0 ? -slope / curvature : 0.0;
  const double eta = std::min(std::max(ratio, 0.0), 1.0);
  if (eta != 1) {
    threads.run(parts.size(), [&](std::size_t k) {
      Part& part = parts[k];
      const double* const start_alpha = part.start_alpha.data();
      for (std::size_t c = part.slice_begin; c < part.slice_end; ++c) {
        DualRow& r = dual.row[part.visits[c]];
        const double start = start_alpha[c - part.slice_begin];
        r.alpha = start + eta * (r.alpha - start);
      }
    });
  }
  threads.run(blocks, [&](std::size_t b) {
    const std::size_t end = std::min(n, (b + 1) * kCombineBlock);
    for (std::size_t j = b * kCombineBlock; j < end; ++j) {
      w[j] += eta * u[j];
      u[j] = 0;
    }
  });
  return ratio;
}

// The epoch's measurements: every part's stats merged in part order (this
// process's and, spread over ranks, the others'). The PG range is widened
// to include 0: the parts' first steps all see the round's w, so their PGs
// can be equal (all -1 at alpha = 0) far from the optimum, where a spread
// of the PGs alone would be 0; max(M, 0) - min(m, 0) is 0 only where every
// PG is.
EpochStats merge_stats(const std::vector<EpochStats>& stats, Collective* ranks) {
  std::vector<double> mine;
  for (const EpochStats& s : stats) {
    mine.insert(mine.end(), {s.max_pg, s.min_pg, static_cast<double>(s.shrunk),
                             static_cast<double>(s.visits), static_cast<double>(s.nnz_ops)});
  }
  const std::vector<double> all = all_parts(ranks, std::move(mine));
  EpochStats round;
  for (std::size_t k = 0; k < all.size(); k += 5) {
    round.max_pg = std::max(round.max_pg, all[k]);
    round.min_pg = std::min(round.min_pg, all[k + 1]);
    round.shrunk += static_cast<std::size_t>(all[k + 2]);
    round.visits += static_cast<std::int64_t>(all[k + 3]);
    round.nnz_ops += static_cast<std::int64_t>(all[k + 4]);
  }
  round.max_pg = std::max(round.max_pg, 0.0);
  round.min_pg = std::min(round.min_pg, 0.0);
  return round;
}

EpochStats merge_stats(const std::vector<Part>& parts, Collective* ranks) {
  std::vector<EpochStats> stats;
  for (const Part& part : parts) stats.push_back(part.stats);
  return merge_stats(stats, ranks);
}

// The PG range at the current (alpha, w) over every part's rows (with 0, as
// merge_stats()), for the stopping test: the epoch's PGs were read at the
// parts' local points, which miss the other parts' steps of their round.
// O(#nz), split among the threads by part.
template <LossKind kLoss>
void pg_range_at_end(const Problem& problem, const CsrMatrix& x, const DualRows& dual,
                     const std::vector<double>& w, std::vector<Part>& parts, Collective* ranks,
                     ThreadTeam& threads, EpochStats& epoch) {
  const ClassBounds bounds = class_bounds<kLoss>(problem);
  std::vector<EpochStats> ranges(parts.size());
  threads.run(parts.size(), [&](std::size_t k) {
    EpochStats& range = ranges[k];
    for (std::size_t i : parts[k].rows) {
      const DualRow& r = dual.row[i];
      const bool positive = r.y() > 0;
      const double upper = bounds.upper(positive, i);
      const double G = r.y() * row_dot(x, i, w) - 1.0 + bounds.diag(positive, i) * r.alpha;
      const double pg = r.alpha == 0 ? std::min(G, 0.0) : r.alpha == upper ? std::max(G, 0.0) : G;
      range.max_pg = std::max(range.max_pg, pg);
      range.min_pg = std::min(range.min_pg, pg);
    }
  });
  const EpochStats all = merge_stats(ranges, ranks);
  epoch.max_pg = all.max_pg;
  epoch.min_pg = all.min_pg;
}

// P(w), D(alpha) and their gap (objective/dual_gap.h), their sums over rows
// taken part by part (each in row order) and added in part order,
// so that they are the same bits for any threads and ranks. O(#nz + n),
// split among the threads by part.
template <LossKind kLoss>
DualGap parts_gap(const Problem& problem, const CsrMatrix& x, const DualRows& dual,
                  const std::vector<double>& w, const std::vector<Part>& parts, Collective* ranks,
                  ThreadTeam& threads) {
  std::vector<double> mine(4 * parts.size(), 0.0);
  threads.run(parts.size(), [&](std::size_t k) {
    double loss = 0;      // sum_j C_j loss(m_j)
    double alphas = 0;    // sum_j alpha_j
    double diagonal = 0;  // 1/2 sum_j D_jj alpha_j^2
    double gap = 0;       // sum_j G_j
    for (std::size_t i : parts[k].rows) {
      const DualRow& r = dual.row[i];
      const double C = problem.cost(i);
      const double m = r.y() * row_dot(x, i, w);
      const double hinge = std::max(1.0 - m, 0.0);
      loss += kLoss == LossKind::kL1Svm ? C * hinge : C * hinge * hinge;
      alphas += r.alpha;
      if (kLoss == LossKind::kL2Svm) diagonal += r.alpha * r.alpha / (4.0 * C);
      gap += coordinate_gap(kLoss, C, r.alpha, m);
    }
    double* const out = &mine[4 * k];
    out[0] = loss;
    out[1] = alphas;
    out[2] = diagonal;
    out[3] = gap;
  });
  const std::vector<double> all = all_parts(ranks, std::move(mine));
  double loss = 0;
  double alphas = 0;
  double diagonal = 0;
  double gap = 0;
  for (std::size_t k = 0; k < all.size(); k += 4) {
    loss += all[k];
    alphas += all[k + 1];
    diagonal += all[k + 2];
    gap += all[k + 3];
  }
  double ww = 0;
  for (double v : w) ww += v * v;
  return DualGap{0.5 * ww + loss, alphas - 0.5 * ww - diagonal, gap};
}

template <LossKind kLoss>
SolveResult partitioned_loop(const Problem& problem, const CsrMatrix& x, std::size_t partitions,
                             std::uint64_t seed, unsigned threads, const Params& params,
                             Reporter& reporter) {
  const std::int64_t max_iter = params.max_iter.value();
  const bool shrink = params.own<DualOptions>().shrink.value_or(true);
  assert(x.num_rows == problem.num_rows());
  Collective* const ranks = problem.share != nullptr ? problem.share->collective : nullptr;
  DualRows dual = start_dual<kLoss>(problem, x);
  std::vector<double> w = populated_vector(x.num_cols, 0.0);
  auto nonzeros = static_cast<std::int64_t>(x.row_ptr[x.num_rows]);
  if (ranks != nullptr) {
    // The whole data's: the counts of the stopping test and the shape of
    // the rounds.
    const std::vector<std::uint64_t> all = ranks->gather_all(std::vector<std::uint64_t>{
        static_cast<std::uint64_t>(nonzeros), static_cast<std::uint64_t>(dual.countable)});
    nonzeros = 0;
    dual.countable = 0;
    for (std::size_t r = 0; r < all.size(); r += 2) {
      nonzeros += static_cast<std::int64_t>(all[r]);
      dual.countable += static_cast<std::size_t>(all[r + 1]);
    }
    dual.active_count = dual.countable;
  }
  const std::size_t slices = slices_per_epoch(nonzeros, partitions, x.num_cols);
  std::vector<Part> parts = make_parts(problem, partitions, slices, params.seed, seed);
  const unsigned round_threads = nonzeros >= kParallelNonzeros
                                     ? static_cast<unsigned>(std::min<std::size_t>(
                                           threads, std::max<std::size_t>(parts.size(), 1)))
                                     : 1;

  SolveResult result;
  EpochLoop loop(problem, params, threads, reporter);
  if (loop.primal && ranks != nullptr) {
    throw Error("the primal rule of -s 2 on wide data does not run on rows spread over ranks");
  }
  // Ranks hold their parts' rows: a new cut every epoch would move them.
  if (ranks != nullptr && !params.own<DualOptions>().fixed_parts) {
    throw Error("dual CD on rows spread over ranks runs with --fixed-parts");
  }
  std::optional<EpochCut> cut;
  if (!params.own<DualOptions>().fixed_parts) cut.emplace(parts, seed);
  Progress progress(reporter);
  // A team of one has no helpers: its passes run on this thread.
  ThreadTeam team(round_threads);
  make_part_vectors(parts, x.num_cols, team);
  std::vector<double> shared_u;  // u, with the rows spread over ranks
  if (ranks != nullptr) {
    // Every rank computes the gap if one wants it: its exchanges are every
    // rank's.
    const std::vector<std::uint64_t> wants =
        ranks->gather_all(std::vector<std::uint64_t>{loop.wants_gap ? 1u : 0u});
    loop.wants_gap = std::find(wants.begin(), wants.end(), 1u) != wants.end();
  }
  loop.gap = [&](const std::vector<double>& at) {
    return parts_gap<kLoss>(problem, x, dual, at, parts, ranks, team);
  };
  const double max_sigma = static_cast<double>(partitions);
  double sigma = 1;
  while (!loop.converged && result.iterations < max_iter) {
    const ShrinkBounds prev = loop.shrink_bounds;
    // The epoch's order: a new cut, or each fixed part's rows shuffled anew.
    if (cut) {
      cut->draw(parts);
    } else {
      team.run(parts.size(), [&](std::size_t k) { shuffle(parts[k].visits, parts[k].rng); });
    }
    for (std::size_t slice = 0; slice < slices; ++slice) {
      team.run(parts.size(), [&](std::size_t k) {
        local_slice<kLoss>(problem, x, shrink, prev, w, sigma, slice, slices, dual, parts[k]);
      });
      const double ratio = combine(parts, ranks, shared_u, dual, w, team);
      // The next round's sigma': the one that would have put this round's
      // unclipped eta at kTargetRatio, within [1, P].
      if (ratio > 0) sigma = std::min(max_sigma, std::max(1.0, sigma * kTargetRatio / ratio));
    }
    EpochStats epoch = merge_stats(parts, ranks);
    // An epoch over every coordinate that passes is checked again at its end
    // point, where the stopping rule then applies.
    if (!loop.primal && epoch.spread() <= params.eps.value() &&
        dual.active_count == dual.countable && epoch.shrunk == 0) {
      pg_range_at_end<kLoss>(problem, x, dual, w, parts, ranks, team, epoch);
    }
    end_epoch<kLoss>(epoch, problem, params, dual, w, loop, result, progress);
  }
  // The parts' n-vectors go before f(w) is computed.
  for (Part& part : parts) {
    part.local = std::vector<double>();
    part.dw = std::vector<double>();
  }
  shared_u = std::vector<double>();
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
  const auto& rule = params.own<SelectOptions>().rule;
  if (rule && *rule != "perm") return 1;
  const auto& given = params.own<PartitionOptions>().count;
  std::int64_t wanted = 1;
  if (given) {
    wanted = *given;
  } else if (static_cast<std::int64_t>(nonzeros) >= kPartitionedNonzeros) {
    wanted = kDefaultPartitions;
  }
  return std::max<std::size_t>(1, std::min(static_cast<std::size_t>(wanted), rows_that_count));
}

std::size_t dcd_partitions(const Params& params, const Problem& problem) {
  // Spread over ranks: the parts the rows were moved by.
  if (problem.share != nullptr) return problem.share->parts;
  std::size_t countable = 0;
  for (std::size_t j = 0; j < problem.num_rows(); ++j) countable += problem.cost(j) > 0;
  return dcd_partitions(params, problem.nnz(), countable);
}

std::vector<std::size_t> dcd_part_order(std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> order(count);
  for (std::size_t c = 0; c < count; ++c) order[c] = c;
  std::mt19937_64 rng(derive_seed(seed, kCutStream));
  shuffle(order, rng);
  return order;
}

std::string dcd_partitions_default_text() {
  return "1 below " + std::to_string(kPartitionedNonzeros) + " nonzeros, else " +
         std::to_string(kDefaultPartitions);
}

}  // namespace cdl
