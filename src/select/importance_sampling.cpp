// --select importance: a fixed distribution, n draws per epoch from an alias
// table built once (O(nnz + n), then O(1) a draw).
//   dual CD:   p_i ~ L_i ||x_i|| (Perekrestenko et al. 2017, Section 3.4,
//              kappa_i bounded by 2 L_i, Lemma 2.7; L_i = C_i, see DualState)
//   primal CD: p_j ~ ||column j|| (coordinates are features; the column norm
//              sets the coordinate's curvature, as for importance sampling
//              in Zhao & Zhang 2014)
// Coordinates of weight 0 (empty columns, held-out rows) are never drawn;
// if all are 0, draws are uniform.
#include <cmath>
#include <random>
#include <vector>

#include "objective/dual_state.h"
#include "select/alias_table.h"
#include "select/dual_rules.h"
#include "select/random.h"

namespace cdl {
namespace {

class ImportanceRule final : public SelectionRule {
 public:
  ImportanceRule(const std::vector<double>& weights, std::uint64_t seed)
      : rng_(seed), n_(weights.size()) {
    double sum = 0;
    for (double w : weights) sum += w;
    if (sum > 0) table_ = AliasTable(weights);
  }
  CoordinateBatch next_batch() override {
    if (drawn_ == n_) return {};
    ++drawn_;
    pick_ = table_.size() > 0 ? table_.draw(rng_) : uniform_index(rng_, n_);
    return {&pick_, 1};
  }
  bool visits_all() const override { return false; }

 private:
  void on_start_epoch() override { drawn_ = 0; }

  std::mt19937_64 rng_;
  std::size_t n_;
  AliasTable table_;
  std::size_t drawn_ = 0;
  std::size_t pick_ = 0;
};

}  // namespace

std::unique_ptr<SelectionRule> make_importance_rule(const RuleContext& context) {
  std::vector<double> weights(context.num_coordinates, 0.0);
  if (context.dual != nullptr) {
    const DualState& state = *context.dual;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (state.counts(i)) weights[i] = state.lipschitz(i) * state.row_norm(i);
    }
  } else if (context.x != nullptr) {
    const CscMatrix& x = *context.x;
    for (std::size_t j = 0; j < weights.size() && j < x.num_cols; ++j) {
      double sq = 0;
      for (auto k = x.col_ptr[j]; k < x.col_ptr[j + 1]; ++k) {
        const double v = x.values[static_cast<std::size_t>(k)];
        sq += v * v;
      }
      weights[j] = std::sqrt(sq);
    }
  } else {
    weights.assign(weights.size(), 1.0);
  }
  return std::make_unique<ImportanceRule>(weights, context.seed);
}

}  // namespace cdl
