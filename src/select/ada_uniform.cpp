// --select ada-uniform, Perekrestenko et al. (2017), (18) with sigma = 1/2:
// p_i = sigma / m_t [kappa_i != 0] + (1 - sigma) |kappa_i| ||x_i|| / sum_j
// |kappa_j| ||x_j||. Drawn exactly as the mixture: a coin of bias sigma picks
// the support-uniform tree or the adaptive tree, each a sum-tree updated
// after every step.
#include <cmath>
#include <random>

#include "select/dual_rule_base.h"
#include "select/dual_rules.h"
#include "select/random.h"

namespace cdl {
namespace {

constexpr double kSigma = 0.5;

class AdaUniformRule final : public SelectionRule {
 public:
  AdaUniformRule(const DualState& state, std::uint64_t seed)
      : state_(state), rng_(seed), support_(state.size()), adaptive_(state.size()) {
    on_start_epoch();
  }
  CoordinateBatch next_batch() override {
    if (drawn_ == state_.size()) return {};
    ++drawn_;
    const bool uniform_part = uniform_real(rng_) < kSigma;
    const SumTree& tree = uniform_part ? support_ : adaptive_;
    if (tree.total() > 0) {
      pick_ = tree.draw(rng_);
    } else if (support_.total() > 0) {  // kappa != 0 only on empty rows
      pick_ = support_.draw(rng_);
    } else {
      pick_ = uniform_index(rng_, state_.size());
    }
    return {&pick_, 1};
  }
  bool visits_all() const override { return false; }
  bool wants_feedback() const override { return true; }
  void feedback(const StepFeedback& /*step*/) override {
    for (std::size_t j : state_.changed_rows()) update(j);
  }
  void refresh_weights() override {
    for (std::size_t i = 0; i < state_.size(); ++i) update(i);
  }

 private:
  void on_start_epoch() override {
    drawn_ = 0;
    refresh_weights();
  }
  void update(std::size_t i) {
    const double kappa = state_.counts(i) ? std::fabs(state_.residue(i)) : 0.0;
    support_.set(i, kappa != 0 ? 1.0 : 0.0);
    adaptive_.set(i, kappa * state_.row_norm(i));
  }

  const DualState& state_;
  std::mt19937_64 rng_;
  SumTree support_;
  SumTree adaptive_;
  std::size_t drawn_ = 0;
  std::size_t pick_ = 0;
};

}  // namespace

std::unique_ptr<SelectionRule> make_ada_uniform_rule(const RuleContext& context) {
  return std::make_unique<AdaUniformRule>(dual_state_of(context, "ada-uniform"), context.seed);
}

}  // namespace cdl
