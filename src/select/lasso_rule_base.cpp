#include "select/lasso_rule_base.h"

#include <string>

#include "select/random.h"
#include "util/error.h"

namespace cdl {

const Problem& lasso_problem_of(const RuleContext& context, const char* rule_name) {
  if (context.lasso == nullptr) {
    throw ConfigError(
        std::string("--select ") + rule_name +
        " on primal CD weighs features by the Lasso's state: use it with -r l1 -l sq");
  }
  if (context.lasso_free_bias) {
    throw ConfigError(std::string("--select ") + rule_name +
                      " weighs every weight by its l1 term, and -R leaves the bias without one: "
                      "drop -R, or use --select cyclic, perm, perm-once, uniform or importance");
  }
  return *context.lasso;
}

LassoSumTreeRule::LassoSumTreeRule(const RuleContext& context, const char* rule_name, Weight weight,
                                   Weight second, double mix)
    : LassoStateRule(context, rule_name, true),
      rng_(context.seed),
      weight_(std::move(weight)),
      second_(std::move(second)),
      mix_(second_ ? mix : 0.0),
      tree_(state_.size()),
      second_tree_(second_ ? state_.size() : 0) {
  on_start_epoch();
}

void LassoSumTreeRule::update(std::size_t i) {
  tree_.set(i, weight_(state_, i));
  if (second_) second_tree_.set(i, second_(state_, i));
}

void LassoSumTreeRule::on_start_epoch() {
  drawn_ = 0;
  state_.refresh();
  tree_.assign(values_of(weight_));
  if (second_) second_tree_.assign(values_of(second_));
}

CoordinateBatch LassoSumTreeRule::next_batch() {
  if (drawn_ == state_.size()) return {};
  ++drawn_;
  const bool use_second = mix_ > 0 && uniform_real(rng_) < mix_;
  const SumTree& first = use_second ? second_tree_ : tree_;
  const SumTree& other = use_second ? tree_ : second_tree_;
  if (first.total() > 0) {
    pick_ = first.draw(rng_);
  } else if (second_ && other.total() > 0) {
    pick_ = other.draw(rng_);
  } else {
    pick_ = uniform_index(rng_, state_.size());
  }
  return {&pick_, 1};
}

void LassoSumTreeRule::feedback(const StepFeedback& step) {
  state_.step(step.coordinate, step.step);
  for (std::size_t k : state_.changed()) update(k);
}

double LassoSumTreeRule::probability(std::size_t i) const {
  const auto share = [&](const SumTree& tree) { return tree.weight(i) / tree.total(); };
  const double uniform = 1.0 / static_cast<double>(state_.size());
  if (!second_) return tree_.total() > 0 ? share(tree_) : uniform;
  const bool a = tree_.total() > 0;
  const bool b = second_tree_.total() > 0;
  if (a && b) return (1 - mix_) * share(tree_) + mix_ * share(second_tree_);
  if (a) return share(tree_);
  if (b) return share(second_tree_);
  return uniform;
}

LassoGreedyRule::LassoGreedyRule(const RuleContext& context, const char* rule_name, Score score)
    : LassoStateRule(context, rule_name, true), score_(std::move(score)), heap_(state_.size()) {
  on_start_epoch();
}

void LassoGreedyRule::on_start_epoch() {
  picked_ = 0;
  state_.refresh();
  heap_.assign(values_of(score_));
}

CoordinateBatch LassoGreedyRule::next_batch() {
  if (picked_ == state_.size() || state_.size() == 0) return {};
  ++picked_;
  pick_ = heap_.top();
  return {&pick_, 1};
}

void LassoGreedyRule::feedback(const StepFeedback& step) {
  state_.step(step.coordinate, step.step);
  if (step.step == 0) {
    heap_.set(step.coordinate, 0.0);
    return;
  }
  for (std::size_t k : state_.changed()) heap_.set(k, score_(state_, k));
}

}  // namespace cdl
