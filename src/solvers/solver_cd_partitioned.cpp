// Feature-partitioned primal coordinate descent: the CD rows' algorithm
// (solver_cd.cpp, solver_cd_l1.cpp) on -m's threads, for --partitions P > 1
// (the default P = 2 from 10^6 nonzeros, params.h).
//
// Problem: as the CD rows, min_w f(w) = r(w) + sum_j C_j loss_j(w) with
//   r(w) = 1/2 w'w (L2-SVM, logistic regression, the L2-loss SVR, ridge) or
//   ||w||_1 (LIBLINEAR's -s 5, -s 6, the Lasso and the L1 SVR).
//
// Algorithm: Gauss-Seidel inside a block, Jacobi across blocks, with a line
//   search on the combined direction: the scheme of PCDN (Bian, Li, Cao, Li
//   & Yin, "Parallel Coordinate Descent Newton Method for Efficient
//   L1-Regularized Minimization", Algorithm 1, a number not checked
//   against the paper's text: P bundles of coordinates,
//   one Newton direction each, an Armijo search on their sum), with today's
//   serial CD steps inside each block instead of one Newton step per
//   coordinate. Shotgun (Bradley, Kyrola, Bickson & Guestrin 2011) adds P
//   coordinates' steps without a search, safe for P up to about n / rho (rho
//   the spectral radius of X'X); Richtarik & Takac's distributed CD (Hydra)
//   damps each step by a factor beta >= 1 that grows with how many blocks a
//   row touches. Here every row has nonzeros in every block (60-110 a row on
//   the measured files), so both would shrink the steps on every round; the
//   search shrinks the combined step only when it overshoots.
//   - The features are split once into P fixed blocks B_1..B_P: shuffled by a
//     generator seeded with --seed (not the class's seed: every class of
//     one-vs-rest has the same blocks), then cut into P runs of consecutive
//     shuffled features with about equal nonzeros (each feature counts its
//     column's nonzeros plus one; cd_feature_blocks()). The blocks depend on
//     the seed and P only, never on the threads or the ranks.
//   - Round k: each block b draws a permutation pi_b of its active features
//     from derive_seed(derive_seed(seed, k), b) and cuts it into
//     M = kMergesPerRound consecutive runs pi_b^1..pi_b^M of about equal
//     length. Merge t = 1..M, from (w, m), m the cached per-row margins
//     (scores for regression): every block starts from (w, m) and takes the
//     serial step on each coordinate of its run pi_b^t in order: Chang,
//     Hsieh & Lin (2008) Algorithm 2 for r = 1/2 w'w (Newton step (13),
//     line search (12), Theorem 1's lambda_bar (15)), or the CDN step of
//     solver_cd_l1.cpp (the primer's (36), its Armijo-type rule and curvature
//     bound, cd_l1_step.h) for ||w||_1. A block sees only its own margin
//     changes, and ends the run with w_b and its own l-vector m_b.
//   - The runs' changes are disjoint in w: d_i = w_b,i - w_i for i in run
//     pi_b^t; in the margins they add: dm_j = sum_b (m_b,j - m_j), summed in
//     block order for every row. The logistic loss's objective
//     (CachedMarginObjective) also keeps each row's derivative terms: the
//     search computes them at each trial with its loss (one exp a row gives
//     both), and the blocks load them with m instead of each computing them
//     again.
//   - Line search along d: eta = 1, beta, beta^2, ... (--beta) until
//       f(w + eta d) - f(w) <= -sigma eta^2 ||d||^2      (--sigma),
//     the combined analogue of (12), each trial O(l + |d|) from m + eta dm
//     and the changed coordinates' r, its loss summed in fixed chunks of
//     kRowChunk rows (chunked_sum, util/parallel.h: the chunks on the
//     threads, their sums in chunk order, so the bits depend on l only);
//     then w += eta d, m += eta dm. d is a
//     descent direction (each block's steps decrease f from (w, m), f is
//     convex, and f'(w; d) is the sum of the blocks' directional
//     derivatives), so the search ends unless rounding hides the decrease
//     (eta below 1e-12: that merge's changes are dropped, and the run stops,
//     status kLineSearchFailed, unless the round's test passes).
//   M merges a round instead of one: a block's steps are stale for the
//   others only until the next merge, so a round of P = 2 blocks gets about
//   as far as a serial epoch (kMergesPerRound gives the rounds; with M = 1
//   the tall file's default problem took 13 rounds for the serial solver's
//   12, the wide file's 24 for 18, and -s 6 8 and 7 for 5 and 4). A merge
//   costs O(P l + |d|); a round's M merges are O(M P l), small beside the
//   epoch's O(#nz) when #nz / l is large (60-110 on the measured files).
//   Every block's run depends only on (w, m), its features and its
//   permutation, and the sums run in block order, so the model is the same
//   for any number of threads: the threads (a ThreadTeam of
//   thread_count(params)) take whole blocks; a block's state lives in one
//   of min(threads, P) objectives (the solve's own and copies of it) loaded
//   from (w, m) at each merge, where it also collects its part of d, of
//   ||d||^2 and of r's change (BlockChange), added in block order.
//   From a w other than 0 (-i, the warm starts of the folds and of -C), m
//   starts as the blocks' own margins added in block order.
//
// Ranks: with the columns spread over ranks (problem.share, data/row_share.h:
//   every rank holds every row and the columns of a run of blocks), each
//   rank runs its own blocks; per merge the blocks' margin changes are
//   added across ranks in block order (Collective::add_in_order) and the
//   blocks' sums gathered and added in block order, and each round the
//   blocks' weights are gathered. Every rank then holds the (w, m) of one
//   process, bit for bit, and takes the same decisions.
//
// Stopping rule: as the serial rows, with each coordinate's D'_i(0) (or
//   minimum-norm subgradient v_i) taken when its block visits it:
//   r = 1/2 w'w: ||(D'_1(0), ..., D'_n(0))||_2 <= eps ||grad f(0)||_2;
//   r = ||w||_1: ||v||_1 <= eps' ||v_0||_1 with eps' and v_0 as
//   solver_cd_l1.cpp (eps times the minority share for classification, v_0
//   the first round's for L2-SVM), and its shrinking (M from the previous
//   round, every block shrinks its own features by |g| < 1 - M/l; all come
//   back when the test passes on the active ones, and for classification
//   every 10 rounds). A round (every feature visited once) is one outer
//   iteration; max_iter bounds them.
//
// Cost per round: O(#nz) for the blocks' runs (as one serial epoch, split
//   over the threads), and per merge O(P l) to load the blocks' l-vectors
//   and sum them, O(l + |d|) per line-search trial (one trial when eta = 1
//   passes; the first trial also sums dm); O(n) for the permutations and
//   r(w). The loads, dm and each trial's O(l) run on the threads (blocks,
//   and chunks of rows), and so do collecting d and w += eta d (blocks);
//   what stays on one thread is per merge the chunks' and blocks' sums (and
//   r's change along d for a trial eta < 1, O(|d|)), and per round O(n) for
//   r(w). The setup's passes over the matrix (H_i, grad f(0), and
//   for the logistic loss max |x_ji| and the terms) run in column blocks on
//   the threads too (docs/checks.md). On K ranks, a rank's share of the
//   blocks' work is about 1/K, while the O(l) of the merges and the line
//   search runs on every rank; each merge exchanges (P_r + 1) l doubles, P_r
//   the rank's blocks, and each round n doubles (docs/distributed.md).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <type_traits>

#include "data/row_share.h"
#include "objective/cached_margin_objective.h"
#include "objective/cd_math.h"
#include "objective/evaluate.h"
#include "objective/vector_math.h"
#include "select/random.h"
#include "solvers/cd_l1_step.h"
#include "solvers/progress.h"
#include "solvers/solver.h"
#include "solvers/solver_cd.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace {

// The line search on d gives up below this eta.
constexpr double kMinEta = 1e-12;
// Rows per chunk when the blocks' l-vectors are summed and the line search
// sums the loss: fixed, so the chunked sums' bits do not depend on the
// threads (util/parallel.h's chunked_sum), and small enough that the
// chunks of the wide file's 10^5 rows keep two threads evenly busy.
constexpr std::size_t kRowChunk = 4096;
// Merges per round (the header): each block's permutation is cut into this
// many runs, and the blocks' changes are combined after each. Rounds to -e's
// test at P = 2 on the tall and the wide file (serial epochs in brackets):
// default problem 10 (12) and 17 (18); -s 5 13 (14) and 18 (20); -s 6 5 (5)
// and 5 (4). With 4 merges: 12, 21; 14, 20; 6, 5. With 1: 13, 24; 14, 19;
// 8, 7. With 16: 10, 17; 13, 20; 5, 5, at twice the merges' cost.
constexpr std::size_t kMergesPerRound = 8;
// The stream of --seed that shuffles the features before the cut into
// blocks (cd_feature_blocks()).
constexpr std::uint64_t kBlockStream = 0x626c6f636b73;  // "blocks"

// The per-row terms that an objective keeps beside its l-vector, if it
// keeps any (CachedMarginObjective: the logistic loss's derivatives): the
// line search computes them with the loss, and the blocks load them.
template <class Objective, class = void>
struct RowTermsOf {
  static constexpr bool kKept = false;
  using Vector = std::vector<char>;
};
template <class Objective>
struct RowTermsOf<Objective, std::void_t<decltype(std::declval<const Objective&>().row_terms())>> {
  static constexpr bool kKept = true;
  using Vector = std::decay_t<decltype(std::declval<const Objective&>().row_terms())>;
};

template <class Objective, class = void>
struct HasPrefetch : std::false_type {};
template <class Objective>
struct HasPrefetch<Objective,
                   std::void_t<decltype(std::declval<const Objective&>().prefetch_rows(0))>>
    : std::true_type {};

// Coordinates are prefetched this far ahead along a block's permutation, as
// solver_cd.cpp does along its batches (its kPrefetchDistance). The hints
// are written in the epoch's loop itself: from a helper function GCC 12
// dropped them (the helper has no effect it must keep), and the epochs ran
// 1.4 times as long as the serial ones.
constexpr std::size_t kPrefetchDistance = 8;

// What the rounds read and never change.
struct Settings {
  Regularizer regularizer;
  bool l1;  // r = ||w||_1 (the CDN step), else r = 1/2 w'w (Algorithm 2)
  double sigma;
  double beta;
  double inv_scale;  // 1 / ||grad f(0)||, for r = 1/2 w'w's sum of squares
};

// What one block's epoch measured and did.
struct BlockStats {
  double squares = 0;        // r = 1/2 w'w: sum of (D'_i(0) inv_scale)^2
  double violation_sum = 0;  // r = ||w||_1: sum of |v_i|
  double max_violation = 0;
  bool failed = false;
  std::size_t shrunk = 0;
  std::int64_t visits = 0;
  std::int64_t full_newton_steps = 0;
  std::int64_t function_evaluations = 0;
};

// One block's changes of w in a merge: the coordinates of its run that
// moved, their new values, and its share of ||d||^2 and of r's change at
// eta = 1, summed in its run's order (so that the merge adds them in block
// order, the same bits for any threads). Collected on the block's thread.
class BlockChange {
 public:
  void reserve(std::size_t run) {
    features_.reserve(run);
    populate_for_writing(features_.data(), run * sizeof(std::uint32_t));
    values_.reserve(run);
    populate_for_writing(values_.data(), run * sizeof(double));
  }
  // The coordinates [first, stop) of the run, from w to `updated`.
  void collect(const std::uint32_t* first, const std::uint32_t* stop, const std::vector<double>& w,
               const std::vector<double>& updated, const Regularizer& regularizer) {
    features_.clear();
    values_.clear();
    squares = 0;
    penalty_at_one = 0;
    for (; first != stop; ++first) {
      const std::uint32_t i = *first;
      const double d = updated[i] - w[i];
      if (d == 0) continue;
      features_.push_back(i);
      values_.push_back(updated[i]);
      squares += d * d;
      penalty_at_one += regularizer.delta(w[i], d);
    }
  }
  // r's change from w along eta d over the block's coordinates.
  double penalty(const std::vector<double>& w, double eta, const Regularizer& regularizer) const {
    double sum = 0;
    for (std::size_t k = 0; k < features_.size(); ++k) {
      const std::uint32_t i = features_[k];
      sum += regularizer.delta(w[i], eta * (values_[k] - w[i]));
    }
    return sum;
  }
  // w += eta d over the block's coordinates.
  void apply(double eta, std::vector<double>& w) const {
    for (std::size_t k = 0; k < features_.size(); ++k) {
      const std::uint32_t i = features_[k];
      w[i] = eta == 1.0 ? values_[k] : w[i] + eta * (values_[k] - w[i]);
    }
  }

  double squares = 0;         // its share of ||d||^2
  double penalty_at_one = 0;  // its share of r(w + d) - r(w)

 private:
  std::vector<std::uint32_t> features_;
  std::vector<double> values_;
};

// Algorithm 2 on coordinate i (solver_cd.cpp's step).
template <class Objective>
void newton_step(Objective& objective, std::size_t i, const Settings& settings, BlockStats& stats) {
  const BoundedDerivs derivs = objective.bounded_derivs(i);
  const double scaled_d1 = derivs.d1 * settings.inv_scale;
  stats.squares += scaled_d1 * scaled_d1;
  ++stats.visits;
  if (derivs.d1 == 0) {
    ++stats.full_newton_steps;
    return;
  }
  const double d = newton_direction(derivs.d1, derivs.d2);
  const double shortcut = lambda_bar(derivs.d2, derivs.bound, settings.sigma);
  if (!(shortcut > 0) || !std::isfinite(d)) {
    stats.failed = true;
    return;
  }
  double lambda = 1.0;
  for (;;) {
    if (lambda <= shortcut) {
      objective.apply(i, lambda * d);
      break;
    }
    ++stats.function_evaluations;
    const double z = lambda * d;
    if (sufficient_decrease(objective.apply_with_delta(i, z), z, settings.sigma)) break;
    objective.undo();
    lambda *= settings.beta;
  }
  if (lambda == 1.0) ++stats.full_newton_steps;
}

// The CDN step on coordinate i (solver_cd_l1.cpp's), with its shrinking
// test; `active` is the block's flag of i.
template <class Objective>
void l1_step(Objective& objective, std::size_t i, const Settings& settings, double shrink_below,
             char& active, BlockStats& stats) {
  const Regularizer& r = settings.regularizer;
  const BoundedDerivs derivs = objective.bounded_derivs(i);
  const double wi = objective.w()[i];
  const double g = derivs.d1 - r.l2 * wi;
  const double h = std::max(derivs.d2 - r.l2, kMinSecondDerivative);
  ++stats.visits;
  if (wi == 0 && std::fabs(g) < shrink_below) {
    active = 0;
    ++stats.shrunk;
    return;
  }
  const double v = std::fabs(r.min_norm_subgradient(wi, derivs.d1));
  stats.violation_sum += v;
  stats.max_violation = std::max(stats.max_violation, v);
  const double d = r.prox_step(wi, g, h);
  if (d == 0) {
    ++stats.full_newton_steps;
    return;
  }
  if (!std::isfinite(d)) {
    stats.failed = true;
    return;
  }
  const double model = g * d + r.delta(wi, d);
  if (!(model < 0)) return;
  const double lambda = l1_line_search(objective, r, i, derivs, wi, g, d, model, settings.sigma,
                                       settings.beta, stats.function_evaluations);
  if (lambda == 1.0) ++stats.full_newton_steps;
}

// The objectives that the threads share: a block takes one, loads (w, m)
// into it, and gives it back. The first is the solve's own objective, whose
// state the loop reads before its first merge and never after, so that `count`
// objectives take count - 1 copies.
template <class Objective>
class CopyPool {
 public:
  // The copies are made on the team, each by a thread of its own: an
  // objective holds n- and l-vectors, and their first writes (the pages'
  // faults) then run side by side instead of one after another.
  CopyPool(Objective& first, std::size_t count, ThreadTeam& team) : copies_(count - 1) {
    team.run(count - 1, [&](std::size_t k) { copies_[k] = std::make_unique<Objective>(first); });
    free_.push_back(&first);
    for (auto& copy : copies_) free_.push_back(copy.get());
  }
  Objective* take() {
    std::lock_guard<std::mutex> lock(mutex_);
    Objective* out = free_.back();
    free_.pop_back();
    return out;
  }
  void give_back(Objective* copy) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(copy);
  }

 private:
  std::vector<std::unique_ptr<Objective>> copies_;
  std::vector<Objective*> free_;
  std::mutex mutex_;
};

// What the loop needs besides the objective.
struct RunSetup {
  std::size_t partitions;
  std::uint64_t seed;      // the rounds' permutations: the problem's seed
  std::uint64_t cut_seed;  // the blocks: --seed, the same for every class
  LossKind loss;
  double eps;                  // scaled as the serial rows scale it
  std::size_t counted_rows;    // the l of the shrinking threshold
  std::int64_t restore_every;  // kClassificationRestoreEvery or 0
  bool first_sweep_base;       // L1 L2-SVM: v_0 from the first round
};

// A block's stats and its change's sums in one merge, as the merge adds
// them; packed into kBlockSumsFields doubles to cross ranks (the counts are
// far below 2^53, so they cross exactly).
struct BlockSums {
  BlockStats stats;
  double squares = 0;
  double penalty_at_one = 0;
};
constexpr std::size_t kBlockSumsFields = 10;

// Every block's sums in block order, from this process's blocks `mine`:
// they are every block on one process; with the columns spread over ranks,
// which hold consecutive blocks in rank order, each rank's gathered.
std::vector<BlockSums> all_block_sums(const std::vector<BlockSums>& mine, Collective* ranks) {
  if (ranks == nullptr) return mine;
  std::vector<double> packed;
  packed.reserve(mine.size() * kBlockSumsFields);
  for (const BlockSums& block : mine) {
    const BlockStats& s = block.stats;
    packed.insert(packed.end(), {s.squares, s.violation_sum, s.max_violation, s.failed ? 1.0 : 0.0,
                                 static_cast<double>(s.shrunk), static_cast<double>(s.visits),
                                 static_cast<double>(s.full_newton_steps),
                                 static_cast<double>(s.function_evaluations), block.squares,
                                 block.penalty_at_one});
  }
  const std::vector<double> all = ranks->gather_all(packed);
  std::vector<BlockSums> out(all.size() / kBlockSumsFields);
  for (std::size_t b = 0; b < out.size(); ++b) {
    const double* f = all.data() + b * kBlockSumsFields;
    BlockStats& s = out[b].stats;
    s.squares = f[0];
    s.violation_sum = f[1];
    s.max_violation = f[2];
    s.failed = f[3] != 0;
    s.shrunk = static_cast<std::size_t>(f[4]);
    s.visits = static_cast<std::int64_t>(f[5]);
    s.full_newton_steps = static_cast<std::int64_t>(f[6]);
    s.function_evaluations = static_cast<std::int64_t>(f[7]);
    out[b].squares = f[8];
    out[b].penalty_at_one = f[9];
  }
  return out;
}

// With the columns spread over ranks: every feature's v_i from the rank
// whose blocks [first, end) hold it (on each rank, v is right on its own
// blocks' features), the same bits on every rank.
void gather_features(const std::vector<std::vector<std::uint32_t>>& blocks, std::size_t first,
                     std::size_t end, Collective& ranks, std::vector<double>& v) {
  std::vector<double> mine;
  for (std::size_t b = first; b < end; ++b) {
    for (std::uint32_t i : blocks[b]) mine.push_back(v[i]);
  }
  const std::vector<double> all = ranks.gather_all(mine);
  std::size_t k = 0;
  for (const auto& block : blocks) {
    for (std::uint32_t i : block) v[i] = all[k++];
  }
}

template <class Objective>
SolveResult partitioned_loop(Objective& objective, const Problem& problem,
                             const Regularizer& regularizer, const Params& params,
                             const RunSetup& setup, Reporter& reporter) {
  const CscMatrix& x = problem.x();
  // With the columns spread over ranks (data/row_share.h), this rank holds
  // every row and the columns of its blocks alone; the blocks' sums cross
  // ranks where one process adds them, in block order.
  const RowShare* const share = problem.share;
  Collective* const ranks = share != nullptr ? share->collective : nullptr;
  const std::size_t n = objective.num_features();
  const std::size_t parts = setup.partitions;
  std::vector<std::vector<std::uint32_t>> cut;
  if (share == nullptr) {
    cut = cd_feature_blocks(
        n,
        [&x](std::size_t i) { return static_cast<std::uint64_t>(x.col_ptr[i + 1] - x.col_ptr[i]); },
        parts, setup.cut_seed);
  }
  const std::vector<std::vector<std::uint32_t>>& blocks =
      share != nullptr ? share->feature_blocks : cut;
  // This process's blocks, first + k for k < own: every block, or its rank's.
  const std::size_t first = share != nullptr ? share->first_part : 0;
  const std::size_t own = (share != nullptr ? share->end_part : parts) - first;
  const std::size_t workers =
      std::max<std::size_t>(1, std::min<std::size_t>(thread_count(params), own));
  ThreadTeam team(static_cast<unsigned>(workers));
  CopyPool<Objective> pool(objective, workers, team);

  // The n- and l-vectors in memory mapped before they are written
  // (util/populate.h): on the wide file their first writes were over a
  // fifth of the setup.
  std::vector<double> w = populated_copy(objective.w());
  std::vector<double> m = populated_copy(objective.row_state());
  const std::size_t l = m.size();
  std::vector<std::vector<double>> block_state(own);
  std::size_t longest_run = 0;
  for (std::size_t k = 0; k < own; ++k) {
    longest_run =
        std::max(longest_run, (blocks[first + k].size() + kMergesPerRound - 1) / kMergesPerRound);
  }
  // Each block's changes of w over its current run, in its own buffers (the
  // threads' blocks interleave in w, and one array would share cache lines).
  std::vector<BlockChange> block_changes(own);
  team.run(own, [&](std::size_t k) { block_changes[k].reserve(longest_run); });
  std::vector<BlockSums> block_sums(own);
  std::vector<double> dm = populated_vector(l, 0.0);
  std::vector<double> trial = populated_vector(l, 0.0);
  std::vector<double> chunk_sums;
  // The terms at m, and at the trial (written by the trials' chunks).
  using RowTerms = RowTermsOf<Objective>;
  typename RowTerms::Vector terms;
  typename RowTerms::Vector trial_terms;
  if constexpr (RowTerms::kKept) {
    terms = objective.row_terms();
    trial_terms.resize(l);
  }
  // sum_j C_j loss(state_j) over rows [first, stop), and their terms.
  const auto rows_loss = [&](const std::vector<double>& state, std::size_t first_row,
                             std::size_t stop) {
    if constexpr (RowTerms::kKept) {
      return objective.loss_sum(state, first_row, stop, trial_terms);
    } else {
      return objective.loss_sum(state, first_row, stop);
    }
  };
  const auto load = [&](Objective& into, const std::vector<double>& state) {
    if constexpr (RowTerms::kKept) {
      into.load_row_state(state, terms);
    } else {
      into.load_row_state(state);
    }
  };

  // From a w other than 0 (-i, and the warm starts of the folds and of -C):
  // m is the blocks' own margins added in block order, which ranks that
  // hold the blocks' columns add alike (objective.reset() adds every
  // feature's in index order).
  const bool at_zero = std::all_of(w.begin(), w.end(), [](double wi) { return wi == 0; });
  if (!at_zero) {
    std::fill(trial.begin(), trial.end(), 0.0);
    team.run(own, [&](std::size_t k) {
      Objective* copy = pool.take();
      load(*copy, trial);
      for (std::uint32_t i : blocks[first + k]) {
        copy->set_weight(i, 0.0);
        if (w[i] != 0) copy->apply(i, w[i]);
      }
      block_state[k] = copy->row_state();
      pool.give_back(copy);
    });
    if (ranks != nullptr) {
      std::vector<const std::vector<double>*> mine;
      for (const auto& state : block_state) mine.push_back(&state);
      ranks->add_in_order(mine, l, m);
    } else {
      for (std::size_t j = 0; j < l; ++j) {
        double sum = block_state[0][j];
        for (std::size_t b = 1; b < parts; ++b) sum += block_state[b][j];
        m[j] = sum;
      }
    }
  }
  double loss = chunked_sum(
      team, l, kRowChunk, chunk_sums,
      [&](std::size_t first_row, std::size_t stop) { return rows_loss(m, first_row, stop); });
  if constexpr (RowTerms::kKept) {
    if (!at_zero) terms = trial_terms;
  }
  // The gradient at (w, m), every feature's.
  const auto gradient = [&] {
    load(objective, m);
    std::vector<double> g = objective.gradient();
    if (ranks != nullptr) gather_features(blocks, first, first + own, *ranks, g);
    return g;
  };

  const bool l1 = !regularizer.smooth();
  SolveResult result;
  double stop_norm = 0;
  double inv_scale = 1.0;
  if (l1) {
    std::vector<double> v = gradient();
    for (std::size_t i = 0; i < n; ++i) v[i] = regularizer.min_norm_subgradient(w[i], v[i]);
    double norm = 0;
    for (double vi : v) norm += std::fabs(vi);
    result.grad_norm = norm;
    stop_norm = setup.eps * norm;
  } else {
    double scale = objective.gradient_norm_at_zero();
    if (ranks != nullptr) {
      std::vector<double> g = gradient_at_zero(problem, setup.loss);
      gather_features(blocks, first, first + own, *ranks, g);
      scale = norm2(g);
    }
    stop_norm = setup.eps * scale;
    inv_scale = scale > 0 && std::isfinite(1.0 / scale) ? 1.0 / scale : 1.0;
    result.grad_norm = at_zero ? scale : norm2(gradient());
  }
  const LineSearchOptions& search = params.own<LineSearchOptions>();
  const Settings settings{regularizer, l1, search.sigma, search.beta, inv_scale};
  const double rows = static_cast<double>(std::max<std::size_t>(setup.counted_rows, 1));
  L1Shrinking shrinking(l1 ? n : 0);
  bool converged = result.grad_norm <= stop_norm;
  bool failed = false;
  double f = regularizer.value(w) + loss;

  Progress progress(reporter);
  std::vector<std::vector<std::uint32_t>> orders(own);
  // Run `merge` of block first + k's permutation: [begin, stop).
  const auto run_of = [&](std::size_t k, std::size_t merge) {
    const std::size_t size = orders[k].size();
    return std::make_pair(size * merge / kMergesPerRound, size * (merge + 1) / kMergesPerRound);
  };
  while (!converged && !failed && result.iterations < params.max_iter.value()) {
    const std::uint64_t round_seed =
        derive_seed(setup.seed, static_cast<std::uint64_t>(result.iterations));
    const double shrink_below = l1 ? regularizer.l1 - shrinking.max_violation_old / rows : -1.0;
    team.run(own, [&](std::size_t k) {
      orders[k].clear();
      for (std::uint32_t i : blocks[first + k]) {
        if (!l1 || shrinking.active[i]) orders[k].push_back(i);
      }
      std::mt19937_64 rng(derive_seed(round_seed, first + k));
      shuffle(orders[k], rng);
    });
    BlockStats round;
    bool search_failed = false;
    for (std::size_t merge = 0; merge < kMergesPerRound && !round.failed; ++merge) {
      team.run(own, [&](std::size_t k) {
        Objective* copy = pool.take();
        load(*copy, m);
        const std::vector<std::uint32_t>& order = orders[k];
        const auto [begin, stop] = run_of(k, merge);
        for (std::size_t t = begin; t < stop; ++t) copy->set_weight(order[t], w[order[t]]);
        BlockStats stats;
        for (std::size_t t = begin; t < stop; ++t) {
          if constexpr (HasPrefetch<Objective>::value) {
            constexpr std::size_t d = kPrefetchDistance;
            if (t + 3 * d < stop) copy->prefetch_coordinate(order[t + 3 * d]);
            if (t + 2 * d < stop) copy->prefetch_column(order[t + 2 * d]);
            if (t + d < stop) copy->prefetch_rows(order[t + d]);
          }
          const std::size_t i = order[t];
          if (l1) {
            l1_step(*copy, i, settings, shrink_below, shrinking.active[i], stats);
          } else {
            newton_step(*copy, i, settings, stats);
          }
          if (stats.failed) break;
        }
        block_state[k] = copy->row_state();
        BlockChange& change = block_changes[k];
        change.collect(order.data() + begin, order.data() + stop, w, copy->w(), regularizer);
        block_sums[k] = {stats, change.squares, change.penalty_at_one};
        pool.give_back(copy);
      });
      // ||d||^2 and, for eta = 1, the change of r: the blocks' sums, in
      // block order.
      double d_squares = 0;
      double penalty_at_one = 0;
      for (const BlockSums& block : all_block_sums(block_sums, ranks)) {
        const BlockStats& stats = block.stats;
        round.squares += stats.squares;
        round.violation_sum += stats.violation_sum;
        round.max_violation = std::max(round.max_violation, stats.max_violation);
        round.failed = round.failed || stats.failed;
        round.shrunk += stats.shrunk;
        result.inner_iterations += stats.visits;
        result.full_newton_steps += stats.full_newton_steps;
        result.function_evaluations += stats.function_evaluations;
        d_squares += block.squares;
        penalty_at_one += block.penalty_at_one;
      }
      if (round.failed) break;
      // dm, the blocks' margin changes added in block order for every row:
      // on ranks, added across them here; on one process, by the first
      // trial's chunks below.
      if (ranks != nullptr) {
        team.run(own, [&](std::size_t k) {
          std::vector<double>& state = block_state[k];
          for (std::size_t j = 0; j < l; ++j) state[j] -= m[j];
        });
        std::vector<const std::vector<double>*> mine;
        for (const auto& state : block_state) mine.push_back(&state);
        ranks->add_in_order(mine, l, dm);
      }
      // The line search on d. Each trial's loss is summed in fixed chunks of
      // rows on the team.
      double eta = 1.0;
      const auto trial_chunk = [&](std::size_t first_row, std::size_t stop) {
        for (std::size_t j = first_row; j < stop; ++j) {
          if (eta == 1.0) {
            if (ranks == nullptr) {
              double sum = block_state[0][j] - m[j];
              for (std::size_t b = 1; b < parts; ++b) sum += block_state[b][j] - m[j];
              dm[j] = sum;
            }
            trial[j] = m[j] + dm[j];
          } else {
            trial[j] = m[j] + eta * dm[j];
          }
        }
        return rows_loss(trial, first_row, stop);
      };
      bool accepted = false;
      double trial_loss = loss;
      while (eta >= kMinEta) {
        trial_loss = chunked_sum(team, l, kRowChunk, chunk_sums, trial_chunk);
        double change = trial_loss - loss;
        if (eta == 1.0) {
          change += penalty_at_one;
        } else {
          std::vector<double> penalties(own);
          for (std::size_t k = 0; k < own; ++k) {
            penalties[k] = block_changes[k].penalty(w, eta, regularizer);
          }
          if (ranks != nullptr) penalties = ranks->gather_all(penalties);
          for (double penalty : penalties) change += penalty;
        }
        if (change <= -settings.sigma * eta * eta * d_squares) {
          accepted = true;
          break;
        }
        ++result.function_evaluations;
        eta *= settings.beta;
      }
      if (accepted) {
        team.run(own, [&](std::size_t k) { block_changes[k].apply(eta, w); });
        m.swap(trial);
        if constexpr (RowTerms::kKept) terms.swap(trial_terms);
        loss = trial_loss;
      } else {
        search_failed = true;
      }
    }
    failed = round.failed;
    shrinking.inactive += round.shrunk;
    if (l1) {
      if (setup.first_sweep_base && result.iterations == 0) {
        stop_norm = setup.eps * round.violation_sum;
      }
      result.grad_norm = round.violation_sum;
      if (round.max_violation > 0) shrinking.max_violation_old = round.max_violation;
    } else {
      result.grad_norm = std::sqrt(round.squares) / inv_scale;
    }
    converged = result.grad_norm <= stop_norm;
    // Rounding hid a merge's decrease (its runs' changes were dropped): the
    // run ends unless the round's test passed.
    if (search_failed && !converged) failed = true;
    // Every rank's blocks' w, for r(w), the progress and the model.
    if (ranks != nullptr) gather_features(blocks, first, first + own, *ranks, w);
    f = regularizer.value(w) + loss;
    ++result.iterations;
    progress.pause();
    progress.report(result.iterations, f, result.grad_norm, &w);
    if (l1 && !failed && shrinking.restore_if_due(converged, setup.restore_every)) {
      converged = false;
    }
  }
  result.status = failed      ? Status::kLineSearchFailed
                  : converged ? Status::kConverged
                              : Status::kMaxIter;
  result.objective = f;
  result.w = std::move(w);
  result.seconds = progress.seconds();
  return result;
}

}  // namespace

SolveResult solve_cd_partitioned(const SolverInput& input) {
  const Params& params = input.params;
  const Regularizer regularizer = Regularizer::of(params.regularizer);
  const LossKind loss = params.loss.value();
  const Problem& problem = input.problem;
  RunSetup setup{cd_partitions(params, problem),
                 input.seed,
                 params.seed,
                 loss,
                 params.eps.value(),
                 problem.num_rows(),
                 0,
                 false};
  if (problem.share != nullptr && !has_classes(loss)) {
    throw ConfigError("the partitioned CD runs on ranks for classification only");
  }
  if (!regularizer.smooth()) {
    const L1RowCounts counts = l1_row_counts(problem);
    setup.counted_rows = counts.counted;
    if (problem.task == Task::kClassification) {
      setup.eps *= counts.minority_share;
      setup.restore_every = kClassificationRestoreEvery;
    }
    setup.first_sweep_base = loss == LossKind::kL2Svm;
  }
  const auto run = [&](auto& objective) {
    if (input.w0 != nullptr) objective.reset(*input.w0);
    return partitioned_loop(objective, problem, regularizer, params, setup, input.reporter);
  };
  if (is_regression(loss)) {
    return with_regression_objective(loss, problem, regularizer,
                                     params.svr_epsilon.value_or(kDefaultSvrEpsilon), run);
  }
  if (loss == LossKind::kLogistic && !regularizer.smooth()) {
    CachedMarginObjective<LogisticLoss> objective(problem, regularizer, thread_count(params));
    return run(objective);
  }
  if (loss == LossKind::kL2Svm) {
    MarginObjective<L2SvmLoss> objective(problem, regularizer, thread_count(params));
    return run(objective);
  }
  if (loss == LossKind::kLogistic) {
    MarginObjective<LogisticLoss> objective(problem, regularizer, thread_count(params));
    return run(objective);
  }
  throw ConfigError(std::string("the CD solvers do not train loss ") + loss_info(loss).name);
}

std::size_t cd_partitions(const Params& params, const Problem& problem) {
  // Spread over ranks: the blocks the columns were spread by.
  if (problem.share != nullptr) return problem.share->parts;
  return static_cast<std::size_t>(cd_partitions(params, problem.nnz()));
}

std::vector<std::vector<std::uint32_t>> cd_feature_blocks(
    std::size_t n, const std::function<std::uint64_t(std::size_t)>& nonzeros, std::size_t parts,
    std::uint64_t seed) {
  // A pass in index order over each feature's block number builds the
  // blocks in index order, in O(n) where sorting them took O(n log n).
  std::vector<std::uint32_t> order = populated_vector<std::uint32_t>(n, 0);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(derive_seed(seed, kBlockStream));
  shuffle(order, rng);
  // Each feature's weight (its column's nonzeros plus one, at most 2^31 as
  // a column has at most 2^31 - 1 rows), read once in index order into
  // block_of, which the pass in the shuffled order then reads and
  // overwrites with the feature's block: an array read instead of a call of
  // `nonzeros` at random features, in no more memory.
  std::vector<std::uint32_t> block_of = populated_vector<std::uint32_t>(n, 0);
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t weight = nonzeros(i) + 1;
    assert(weight <= std::numeric_limits<std::uint32_t>::max());
    block_of[i] = static_cast<std::uint32_t>(weight);
    total += static_cast<double>(weight);
  }
  std::vector<std::size_t> sizes(parts, 0);
  double seen = 0;
  for (std::uint32_t i : order) {
    const auto weight = static_cast<double>(block_of[i]);
    auto b = static_cast<std::size_t>((seen + weight / 2) / total * static_cast<double>(parts));
    b = std::min(b, parts - 1);
    block_of[i] = static_cast<std::uint32_t>(b);
    ++sizes[b];
    seen += weight;
  }
  std::vector<std::vector<std::uint32_t>> blocks(parts);
  for (std::size_t b = 0; b < parts; ++b) {
    blocks[b].reserve(sizes[b]);
    populate_for_writing(blocks[b].data(), sizes[b] * sizeof(std::uint32_t));
  }
  for (std::uint32_t i = 0; i < n; ++i) blocks[block_of[i]].push_back(i);
  return blocks;
}

}  // namespace cdl
