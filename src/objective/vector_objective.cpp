#include "objective/vector_objective.h"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <memory>

#include "objective/evaluate.h"
#include "objective/vector_math.h"
#include "util/error.h"
#include "util/parallel.h"

namespace cdl {
namespace {

// A pass over fewer nonzeros than this runs on the calling thread alone: a
// wake-up of the team (some microseconds) would cost more than the pass
// (heart_scale's 3,500 nonzeros take about 3 us). The same bits either way.
constexpr std::size_t kParallelNonzeros = std::size_t{1} << 16;
// A pass's tasks are blocks of consecutive rows (columns) of about this much
// work, counting a nonzero 1 and a row (column) kLineCost (the loss and its
// derivatives of a row), so that the threads share skewed column lengths.
constexpr std::int64_t kBlockCost = std::int64_t{1} << 16;
constexpr std::int64_t kLineCost = 16;

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

// The products z = X v and X'u of the paper's (27) run on two passes: one over
// the rows of the CSR (z_j = x_j'v, each a dot product), one over the columns
// of the CSC ((X'u)_i = sum_j x_ji u_j, each a dot product in increasing j).
// Every element of an output is computed whole by one thread in a fixed order,
// so the products are the same bits whatever the threads and however the
// blocks fall on them; and the same bits as the serial scatter of u_j x_j in
// row order that runs without a team (times_transpose()). The one scalar sum,
// f, is added on the calling thread in row order.
template <class Loss>
class RowObjective final : public VectorObjective {
 public:
  RowObjective(const Problem& problem, const Regularizer& regularizer, unsigned threads)
      : problem_(problem),
        regularizer_(regularizer),
        rows_(*problem.rows),
        columns_(problem.x),
        row_blocks_(blocks_of(rows_.row_ptr)),
        column_blocks_(blocks_of(columns_.col_ptr)),
        slope_(problem.num_rows()),
        curvature_(problem.num_rows()),
        scratch_(problem.num_rows()) {
    assert(rows_.num_rows == columns_.num_rows && rows_.num_cols == columns_.num_cols);
    if (threads > 1 && columns_.nnz() >= kParallelNonzeros) {
      team_ = std::make_unique<ThreadTeam>(threads);
    }
    gradient_norm_at_zero_ = norm2(cdl::gradient_at_zero<Loss>(problem));
  }

  std::size_t num_features() const override { return problem_.num_features(); }

  double evaluate(const std::vector<double>& w) override {
    assert(w.size() == num_features());
    w_ = w;
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) {
        const double m = problem_.y[j] * row_dot(rows_, j, w);
        const double cost = problem_.cost(j);
        slope_[j] = problem_.y[j] * cost * Loss::d1(m);
        curvature_[j] = cost * Loss::d2(m);
        scratch_[j] = cost * Loss::value(m);
      }
    });
    evaluated_ = true;
    // r(w), then C_j loss(m_j) in row order, as objective_value() adds them.
    double f = regularizer_.value(w);
    for (std::size_t j = 0; j < scratch_.size(); ++j) f += scratch_[j];
    return f;
  }

  // g = l2 w + X'(y C loss'(m)).
  void gradient(std::vector<double>& g) const override {
    assert(evaluated_);
    g.resize(w_.size());
    times_transpose(w_, slope_, g);
  }

  // Hs = l2 s + X'(D (X s)), the rows with D_jj = 0 skipped in X s.
  void hess_vec(const std::vector<double>& s, std::vector<double>& hs) const override {
    assert(evaluated_);
    assert(s.size() == num_features() && &s != &hs);
    if (team_ == nullptr) {
      // Alone, each active row's dot product and then its scatter, while the
      // row is in cache (LIBLINEAR's loop): the terms of times_transpose()'s
      // scatter in the same order, so the same bits, for one read of the row.
      hs.resize(s.size());
      for (std::size_t i = 0; i < s.size(); ++i) hs[i] = regularized(s[i]);
      for (std::size_t j = 0; j < curvature_.size(); ++j) {
        if (curvature_[j] == 0) continue;
        const double u = curvature_[j] * row_dot(rows_, j, s);
        if (u != 0) add_row(rows_, j, u, hs);
      }
      return;
    }
    for_blocks(row_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) {
        scratch_[j] = curvature_[j] != 0 ? curvature_[j] * row_dot(rows_, j, s) : 0.0;
      }
    });
    hs.resize(s.size());
    times_transpose(s, scratch_, hs);
  }

  double gradient_norm_at_zero() const override { return gradient_norm_at_zero_; }

 private:
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

  // l2 v_i + 0: where a component of l2 v + X'u starts, never -0 (see
  // times_transpose()).
  double regularized(double v_i) const {
    return (regularizer_.l2 != 1.0 ? v_i * regularizer_.l2 : v_i) + 0.0;
  }

  // out = l2 v + X'u. On the team, column by column: out_i = (l2 v_i + 0)
  // + u_0 x_0i + u_1 x_1i + ... in row order, each out_i by one thread. Alone,
  // by scattering u_j x_j in row order over the rows with u_j != 0 only (for
  // L2-SVM's Hs, the active rows; the serial loop of LIBLINEAR). Both add the
  // same terms in the same order but for the zeros the scatter skips, from a
  // start that is not -0 (the "+ 0"); a sum that starts there is never -0, and
  // adding a zero to it changes no bit. So the two ways give the same bits.
  // `out` has the size of v; it may be v.
  void times_transpose(const std::vector<double>& v, const std::vector<double>& u,
                       std::vector<double>& out) const {
    if (team_ == nullptr) {
      for (std::size_t i = 0; i < v.size(); ++i) out[i] = regularized(v[i]);
      for (std::size_t j = 0; j < u.size(); ++j) {
        if (u[j] != 0) add_row(rows_, j, u[j], out);
      }
      return;
    }
    for_blocks(column_blocks_, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        double sum = regularized(v[i]);
        for (auto k = columns_.col_ptr[i]; k < columns_.col_ptr[i + 1]; ++k) {
          const auto t = static_cast<std::size_t>(k);
          sum += u[columns_.row_idx[t]] * columns_.values[t];
        }
        out[i] = sum;
      }
    });
  }

  const Problem& problem_;
  const Regularizer regularizer_;
  const CsrMatrix& rows_;
  const CscMatrix& columns_;
  const std::vector<std::size_t> row_blocks_;
  const std::vector<std::size_t> column_blocks_;
  std::unique_ptr<ThreadTeam> team_;  // null: every pass on the calling thread
  std::vector<double> w_;
  std::vector<double> slope_;      // y_j C_j loss'(m_j), the gradient's u
  std::vector<double> curvature_;  // D_jj = C_j loss''(m_j)
  // evaluate(): the terms C_j loss(m_j); hess_vec(): D X s.
  mutable std::vector<double> scratch_;
  double gradient_norm_at_zero_ = 0;
  bool evaluated_ = false;
};

}  // namespace

std::unique_ptr<VectorObjective> make_vector_objective(LossKind loss, const Problem& problem,
                                                       const Regularizer& regularizer,
                                                       unsigned threads) {
  if (problem.rows == nullptr) throw Error("the whole-vector objective needs the rows");
  if (!regularizer.smooth()) throw ConfigError("a Newton method needs a smooth regularizer");
  switch (loss) {
    case LossKind::kL2Svm:
      return std::make_unique<RowObjective<L2SvmLoss>>(problem, regularizer, threads);
    case LossKind::kLogistic:
      return std::make_unique<RowObjective<LogisticLoss>>(problem, regularizer, threads);
    case LossKind::kL1Svm:
      throw ConfigError("l1svm has no second derivative for a Newton method");
    case LossKind::kSquared:
    case LossKind::kSvrL2:
    case LossKind::kSvrL1:
      break;
  }
  throw ConfigError("the whole-vector objective is for classification losses");
}

}  // namespace cdl
