#include "objective/vector_objective.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>

#include "data/row_share.h"
#include "objective/evaluate.h"
#include "objective/transpose_blocks.h"
#include "objective/vector_math.h"
#include "util/error.h"
#include "util/parallel.h"
#include "util/populate.h"

namespace cdl {
namespace {

// A pass over fewer nonzeros than this runs on the calling thread alone: a
// wake-up of the team would cost more than the pass (heart_scale's 3,500
// nonzeros, say). The same bits either way.
constexpr std::size_t kParallelNonzeros = std::size_t{1} << 16;
// A pass's tasks are blocks of consecutive rows (columns) of about this much
// work, counting a nonzero 1 and a row (column) kLineCost (the loss and its
// derivatives of a row), so that the threads share skewed column lengths.
constexpr std::int64_t kBlockCost = std::int64_t{1} << 16;
constexpr std::int64_t kLineCost = 16;
// The features of one task of the blocks' sum.
constexpr std::size_t kSumFeatures = std::size_t{1} << 12;

// The bounds 0 = b_0 < b_1 < ... < b_B = #lines of blocks of consecutive
// lines (rows of a CSR, columns of a CSC, by their offsets `ptr`) of about
// kBlockCost each. O(#lines).
std::vector<std::size_t> blocks_of(const std::vector<std::int64_t>& ptr) {
  const std::size_t lines = ptr.size() - 1;
  std::vector<std::size_t> bounds{0};
  std::int64_t block_start = 0;
  for (std::size_t e = 1; e <= lines; ++e) {
    const std::int64_t cost = ptr[e] + kLineCost * static_cast<std::int64_t>(e);
    if (cost - block_start >= kBlockCost || e == lines) {
      bounds.push_back(e);
      block_start = cost;
    }
  }
  return bounds;
}

// The blocks of rows of X'u (transpose_blocks.h) on one process, `given`
// of them (--partitions) or 0 for the data's count: X'u's n-vectors, one
// per block but the first, then take at most 2 bytes per nonzero beside the
// matrix's 12 (one block per 4n nonzeros).
std::vector<std::size_t> transpose_blocks(const Problem& problem, std::size_t given) {
  const CsrMatrix& rows = *problem.rows;
  const auto counted = [&](std::size_t j) {
    return problem.counts(j) ? static_cast<std::uint64_t>(rows.row_ptr[j + 1] - rows.row_ptr[j])
                             : 0;
  };
  std::uint64_t nnz = 0;
  for (std::size_t j = 0; j < rows.num_rows; ++j) nnz += counted(j);
  const std::size_t count = given > 0 ? given : transpose_block_count(nnz, rows.num_cols);
  std::vector<std::size_t> bounds{0};
  for (std::size_t start :
       transpose_block_starts(rows.num_rows, 0, nnz, count, counted,
                              [&](std::size_t j) { return problem.counts(j); })) {
    bounds.push_back(start);
  }
  bounds.push_back(rows.num_rows);
  return bounds;
}

// This rank's blocks of a RowShare, in its own rows' numbers.
std::vector<std::size_t> shared_blocks(const RowShare& share) {
  std::vector<std::size_t> bounds;
  for (std::size_t b = share.first_block; b <= share.end_block; ++b) {
    bounds.push_back(share.block_bounds[b] - share.first_row());
  }
  return bounds;
}

// The products z = X v and X'u of the paper's (27) run on the rows of the
// CSR alone. X v: z_j = x_j'v, each a dot product computed whole by one
// thread. X'u: a fixed number B of blocks of consecutive rows (by
// transpose_blocks(), from l, n and the nonzeros, never from the threads);
// block 0 scatters u_j x_j in row order into the output, which starts at
// l2 v, and each other block into an n-vector of its own, which starts at 0;
// then each component adds the other blocks' vectors in block order,
// features split among the threads. Every element of an output is thus
// computed in a fixed order whatever the threads and however the blocks
// fall on them; with B = 1 it is the serial scatter of LIBLINEAR. The one
// scalar sum, f, is added on the calling thread: r and block 0's terms in
// row order, then each other block's sum of its terms in block order (with
// B = 1, r + t_1 + t_2 + ... as objective_value() adds them).
//
// With a RowShare (the rows spread over ranks, data/row_share.h), the
// Problem holds this rank's blocks alone; each of them, block 0 too,
// scatters into an n-vector of its own, and Collective::add_in_order()
// adds every rank's vectors in block order, as the single process adds
// them; f's block sums are gathered and added in the same order. So the
// model is the same bits for any number of ranks, and a single process's.
//
// `Terms` gives row j's C_j loss, its slope (the u_j of the gradient's X'u)
// and its curvature D_jj from x_j'w: MarginTerms for a classification loss
// of the margin, ScoreTerms for a regression loss of (score, target).
template <class Terms>
class RowObjective final : public VectorObjective {
 public:
  RowObjective(const Problem& problem, const Regularizer& regularizer, unsigned threads,
               std::size_t blocks, Terms terms)
      : problem_(problem),
        terms_(terms),
        regularizer_(regularizer),
        rows_(*problem.rows),
        row_blocks_(blocks_of(rows_.row_ptr)),
        share_(problem.share),
        transpose_blocks_(share_ != nullptr ? shared_blocks(*share_)
                                            : transpose_blocks(problem, blocks)),
        partial_(share_ != nullptr
                     ? transpose_blocks_.size() - 1
                     : std::min(transpose_blocks_.size() - 2,
                                std::max<std::size_t>(kMaxTransposeBlocks - 1, threads))),
        score_(populated_vector(problem.num_rows(), 0.0)),
        slope_(populated_vector(problem.num_rows(), 0.0)),
        curvature_(populated_vector(problem.num_rows(), 0.0)),
        scratch_(populated_vector(problem.num_rows(), 0.0)) {
    if (threads > 1 && rows_.nnz() >= kParallelNonzeros) {
      team_ = std::make_unique<ThreadTeam>(threads);
    }
    // The blocks' n-vectors, each mapped and zeroed by a thread of the team.
    run_on_team(partial_.size(),
                [&](std::size_t b) { partial_[b] = populated_vector(rows_.num_cols, 0.0); });
    // grad f(0) = X'(the slopes at x_j'w = 0), by the blocks' products.
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) {
        terms_(problem_.y[j], problem_.cost(j), 0.0, scratch_[j], slope_[j], curvature_[j]);
      }
    });
    std::vector<double> g = populated_vector(rows_.num_cols, 0.0);
    times_transpose([](std::size_t) { return 0.0; }, [&](std::size_t j) { return slope_[j]; }, g);
    gradient_norm_at_zero_ = norm2(g);
  }

  std::size_t num_features() const override { return problem_.num_features(); }

  double evaluate(const std::vector<double>& w) override {
    assert(w.size() == num_features());
    w_ = w;
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) {
        score_[j] = row_dot(rows_, j, w);
        terms_(problem_.y[j], problem_.cost(j), score_[j], scratch_[j], slope_[j], curvature_[j]);
      }
    });
    evaluated_ = true;
    return plus_loss_terms(regularizer_.value(w));
  }

  // g = l2 w + X'(y C loss'(m)).
  void gradient(std::vector<double>& g) const override {
    assert(evaluated_);
    resize_for_writing(g, w_.size());
    times_transpose([&](std::size_t i) { return regularized(i, w_[i]); },
                    [&](std::size_t j) { return slope_[j]; }, g);
  }

  // Hs = l2 s + X'(D (X s)), the rows with D_jj = 0 skipped in X s. Each
  // active row's dot product and then its scatter, while the row is in cache
  // (LIBLINEAR's loop), one read of the row.
  void hess_vec(const std::vector<double>& s, std::vector<double>& hs) const override {
    assert(evaluated_);
    assert(s.size() == num_features() && &s != &hs);
    resize_for_writing(hs, s.size());
    times_transpose([&](std::size_t i) { return regularized(i, s[i]); },
                    [&](std::size_t j) {
                      return curvature_[j] != 0 ? curvature_[j] * row_dot(rows_, j, s) : 0.0;
                    },
                    hs);
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

  // d = l2 + X.^2'(D), the scatter of D_jj x_ji^2 by the same blocks as X'u.
  void hess_diag(std::vector<double>& d) const override {
    assert(evaluated_);
    resize_for_writing(d, w_.size());
    times_transpose([&](std::size_t i) { return regularized(i, 1.0); },
                    [&](std::size_t j) { return curvature_[j]; }, d, kSquares);
  }

  void begin_line(const std::vector<double>& s) override {
    assert(evaluated_ && s.size() == w_.size());
    resize_for_writing(line_, score_.size());  // on first use: TRON never needs it
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) line_[j] = row_dot(rows_, j, s);
    });
    // The squares r sums, in index order, without the unregularized one.
    ww_ = ws_ = ss_ = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (i == regularizer_.unregularized) continue;
      ww_ += w_[i] * w_[i];
      ws_ += w_[i] * s[i];
      ss_ += s[i] * s[i];
    }
  }

  double line_value(double alpha) override {
    assert(evaluated_);
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      double slope = 0, curvature = 0;
      for (std::size_t j = begin; j < end; ++j) {
        terms_(problem_.y[j], problem_.cost(j), score_[j] + alpha * line_[j], scratch_[j], slope,
               curvature);
      }
    });
    const double r = 0.5 * regularizer_.l2 * (ww_ + alpha * (2 * ws_ + alpha * ss_));
    return plus_loss_terms(r);
  }

  double take_line_step(double alpha, const std::vector<double>& s) override {
    assert(evaluated_ && s.size() == w_.size());
    axpy(alpha, s, w_);
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) {
        score_[j] += alpha * line_[j];
        terms_(problem_.y[j], problem_.cost(j), score_[j], scratch_[j], slope_[j], curvature_[j]);
      }
    });
    return plus_loss_terms(regularizer_.value(w_));
  }

 private:
  // task(0), ..., task(count - 1) on the team, or on this thread without one.
  void run_on_team(std::size_t count, const std::function<void(std::size_t)>& task) const {
    if (team_ == nullptr) {
      for (std::size_t k = 0; k < count; ++k) task(k);
    } else {
      team_->run(count, task);
    }
  }

  // body(begin, end) for the blocks of `bounds`, on the team if there is one.
  template <class Body>
  void for_blocks(const std::vector<std::size_t>& bounds, Body body) const {
    const std::size_t blocks = bounds.size() - 1;
    if (blocks == 0) return;
    if (team_ == nullptr) {
      body(bounds.front(), bounds.back());
      return;
    }
    team_->run(blocks, [&](std::size_t b) { body(bounds[b], bounds[b + 1]); });
  }

  // r + the C_j loss terms of scratch_ on this thread, by the blocks of
  // X'u (the class comment): r and block 0's terms one by one in row order,
  // then each other block's sum, from 0 in row order, in block order.
  double plus_loss_terms(double r) const {
    std::vector<double> sums;
    for (std::size_t b = 0; b + 1 < transpose_blocks_.size(); ++b) {
      double sum = b == 0 && holds_block_zero() ? r : 0.0;
      for (std::size_t j = transpose_blocks_[b]; j < transpose_blocks_[b + 1]; ++j) {
        sum += scratch_[j];
      }
      sums.push_back(sum);
    }
    if (share_ != nullptr) sums = share_->collective->gather_all(sums);
    double f = sums.front();
    for (std::size_t b = 1; b < sums.size(); ++b) f += sums[b];
    return f;
  }

  // Whether this process holds block 0 (whose vector starts at l2 v and
  // whose f starts at r): always without a RowShare.
  bool holds_block_zero() const {
    return share_ == nullptr || (share_->first_block == 0 && share_->end_block > 0);
  }

  // l2 v_i + 0: where a component of l2 v + X'u starts, never -0 (see
  // times_transpose()); 0 for the unregularized coordinate (-R's bias).
  double regularized(std::size_t i, double v_i) const {
    if (i == regularizer_.unregularized) return 0.0;
    return (regularizer_.l2 != 1.0 ? v_i * regularizer_.l2 : v_i) + 0.0;
  }

  // out = start + X'u (with kSquares: + X.^2'u, x_ji^2 for x_ji), start_i =
  // start_of(i), u_j = u_of(j), by the blocks of the class comment: block 0
  // into out from start_i (l2 v_i + 0, never -0), block b > 0 into
  // a vector of partial_ from 0, each over its rows with u_j != 0 in row
  // order; then out_i += partial_0,i + partial_1,i + ... in block order
  // (more blocks than vectors: a group at a time, in order). With a
  // RowShare, this rank's block b into partial_[b] (from start_i if it is
  // block 0), and the ranks' vectors added by add_in_order(). Skipping a
  // zero term changes no bit, as a sum that starts at +0 or at (l2 v_i + 0)
  // is never -0. `out` has n elements; start_of(i) may read out_i.
  template <class StartOf, class UOf>
  void times_transpose(StartOf start_of, UOf u_of, std::vector<double>& out,
                       bool squares = false) const {
    const std::size_t blocks = transpose_blocks_.size() - 1;
    // Block b into `target`, from start_i for block 0, else from 0.
    const auto scatter_block = [&](std::size_t b, std::vector<double>& target) {
      if (b == 0 && holds_block_zero()) {
        for (std::size_t i = 0; i < target.size(); ++i) target[i] = start_of(i);
      } else {
        std::fill(target.begin(), target.end(), 0.0);
      }
      for (std::size_t j = transpose_blocks_[b]; j < transpose_blocks_[b + 1]; ++j) {
        const double u = u_of(j);
        if (u == 0) continue;
        if (squares) {
          add_row_squares(j, u, target);
        } else {
          add_row(rows_, j, u, target);
        }
      }
    };
    if (share_ != nullptr) {
      run_on_team(blocks, [&](std::size_t b) { scatter_block(b, partial_[b]); });
      std::vector<const std::vector<double>*> mine;
      for (const std::vector<double>& part : partial_) mine.push_back(&part);
      share_->collective->add_in_order(mine, out.size(), out);
      return;
    }
    // Block 0 into out, and blocks 1, 2, ... into the vectors of partial_,
    // as many at a time as there are vectors, each group added into out in
    // block order (block 0 on the team beside the first group).
    const std::size_t group = partial_.size();
    if (group == 0) {
      scatter_block(0, out);
      return;
    }
    for (std::size_t first = 1; first < blocks; first += group) {
      const std::size_t count = std::min(group, blocks - first);
      const std::size_t tasks = count + (first == 1 ? 1 : 0);
      run_on_team(tasks, [&](std::size_t k) {
        if (k == count) {
          scatter_block(0, out);
        } else {
          scatter_block(first + k, partial_[k]);
        }
      });
      const auto sum_features = [&](std::size_t task) {
        const std::size_t begin = task * kSumFeatures;
        const std::size_t end = std::min(out.size(), begin + kSumFeatures);
        for (std::size_t k = 0; k < count; ++k) {
          const std::vector<double>& part = partial_[k];
          for (std::size_t i = begin; i < end; ++i) out[i] += part[i];
        }
      };
      run_on_team((out.size() + kSumFeatures - 1) / kSumFeatures, sum_features);
    }
  }

  // out += scale * x_j.^2 (each x_ji squared) for row j.
  void add_row_squares(std::size_t j, double scale, std::vector<double>& out) const {
    for (auto k = rows_.row_ptr[j]; k < rows_.row_ptr[j + 1]; ++k) {
      const auto t = static_cast<std::size_t>(k);
      out[rows_.col_idx[t]] += scale * (rows_.values[t] * rows_.values[t]);
    }
  }

  static constexpr bool kSquares = true;

  const Problem& problem_;
  const Terms terms_;
  const Regularizer regularizer_;
  const CsrMatrix& rows_;
  const std::vector<std::size_t> row_blocks_;
  const RowShare* share_;  // null: every row is here
  // X'u's blocks of rows, and the n-vectors of all but the first (of all
  // with a RowShare).
  const std::vector<std::size_t> transpose_blocks_;
  mutable std::vector<std::vector<double>> partial_;
  std::unique_ptr<ThreadTeam> team_;  // null: every pass on the calling thread
  std::vector<double> w_;
  std::vector<double> score_;        // x_j'w
  std::vector<double> line_;         // x_j's of begin_line()'s s
  double ww_ = 0, ws_ = 0, ss_ = 0;  // w'w, w's, s's without the unregularized i
  std::vector<double> slope_;        // y_j C_j loss'(m_j), the gradient's u
  std::vector<double> curvature_;    // D_jj = C_j loss''(m_j)
  // evaluate(): the terms C_j loss(m_j).
  mutable std::vector<double> scratch_;
  double gradient_norm_at_zero_ = 0;
  bool evaluated_ = false;
};

// A classification loss of the margin m_j = y_j x_j'w.
template <class Loss>
struct MarginTerms {
  void operator()(double y, double cost, double xw, double& value, double& slope,
                  double& curvature) const {
    const double m = y * xw;
    slope = y * cost * Loss::d1(m);
    curvature = cost * Loss::d2(m);
    value = cost * Loss::value(m);
  }
};

// A regression loss of the score x_j'w and the target t_j = problem.y[j]:
// for the L2-loss SVR, D_jj = 2 C_j on the rows outside the tube,
// |x_j'w - t_j| > epsilon, and 0 inside (the generalized Hessian, as for
// the L2-SVM).
template <class Loss>
struct ScoreTerms {
  Loss loss;
  void operator()(double target, double cost, double score, double& value, double& slope,
                  double& curvature) const {
    slope = cost * loss.d1(score, target);
    curvature = cost * loss.d2(score, target);
    value = cost * loss.value(score, target);
  }
};

template <class Terms>
std::unique_ptr<VectorObjective> row_objective(const Problem& problem,
                                               const Regularizer& regularizer, unsigned threads,
                                               std::size_t blocks, Terms terms) {
  return std::make_unique<RowObjective<Terms>>(problem, regularizer, threads, blocks, terms);
}

}  // namespace

std::unique_ptr<VectorObjective> make_vector_objective(LossKind loss, const Problem& problem,
                                                       const Regularizer& regularizer,
                                                       unsigned threads, double svr_epsilon,
                                                       std::size_t blocks) {
  if (problem.rows == nullptr) throw Error("the whole-vector objective needs the rows");
  if (!regularizer.smooth()) throw ConfigError("a Newton method needs a smooth regularizer");
  switch (loss) {
    case LossKind::kL2Svm:
      return row_objective(problem, regularizer, threads, blocks, MarginTerms<L2SvmLoss>{});
    case LossKind::kLogistic:
      return row_objective(problem, regularizer, threads, blocks, MarginTerms<LogisticLoss>{});
    case LossKind::kSvrL2:
      return row_objective(problem, regularizer, threads, blocks,
                           ScoreTerms<SvrL2Loss>{{svr_epsilon}});
    case LossKind::kL1Svm:
      throw ConfigError("l1svm has no second derivative for a Newton method");
    case LossKind::kSvrL1:
      throw ConfigError("svr1 has no second derivative for a Newton method");
    default:  // the other losses, of no margin or vector form here
      break;
  }
  throw ConfigError("the whole-vector objective takes l2svm, lr and svr2");
}

}  // namespace cdl
