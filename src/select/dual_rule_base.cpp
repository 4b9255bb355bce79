#include "select/dual_rule_base.h"

#include <string>

#include "select/random.h"
#include "util/error.h"

namespace cdl {

const DualState& dual_state_of(const RuleContext& context, const char* rule_name) {
  if (context.dual == nullptr) {
    throw ConfigError(std::string("--select ") + rule_name +
                      " picks instances of the SVM dual: use it with dual CD");
  }
  return *context.dual;
}

SumTreeRule::SumTreeRule(const DualState& state, std::uint64_t seed, Weight weight)
    : state_(state), rng_(seed), weight_(std::move(weight)), tree_(state.size()) {
  on_start_epoch();
}

void SumTreeRule::on_start_epoch() {
  drawn_ = 0;
  refresh_weights();
}

void SumTreeRule::refresh_weights() {
  std::vector<double> w(state_.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = state_.counts(i) ? weight_(state_, i) : 0.0;
  tree_.assign(w);
}

CoordinateBatch SumTreeRule::next_batch() {
  if (drawn_ == state_.size()) return {};
  ++drawn_;
  pick_ = tree_.total() > 0 ? tree_.draw(rng_) : uniform_index(rng_, state_.size());
  return {&pick_, 1};
}

void SumTreeRule::feedback(const StepFeedback& /*step*/) {
  for (std::size_t j : state_.changed_rows()) {
    tree_.set(j, state_.counts(j) ? weight_(state_, j) : 0.0);
  }
}

double SumTreeRule::probability(std::size_t i) const {
  return tree_.total() > 0 ? tree_.weight(i) / tree_.total()
                           : 1.0 / static_cast<double>(state_.size());
}

GreedyRule::GreedyRule(const DualState& state, Score score)
    : state_(state), score_(std::move(score)), heap_(state.size()) {
  on_start_epoch();
}

void GreedyRule::on_start_epoch() {
  picked_ = 0;
  rebuild();
}

void GreedyRule::refresh_weights() {
  stale_ = true;
  rebuild();
}

void GreedyRule::rebuild() {
  std::vector<double> s(state_.size());
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = state_.counts(i) ? score_(state_, i) : -1.0;
  heap_.assign(s);
}

CoordinateBatch GreedyRule::next_batch() {
  if (picked_ == state_.size() || state_.size() == 0) return {};
  ++picked_;
  pick_ = heap_.top();
  // Stale scores: re-score the top until it holds (its fresh score is
  // still the largest stored one), so the pick is exact against the
  // stored bounds (lazy greedy). O(nnz of the row) per re-score.
  for (std::size_t tries = 0; stale_ && tries < kMaxRescores; ++tries) {
    const double fresh = state_.counts(pick_) ? score_(state_, pick_) : -1.0;
    if (fresh >= heap_.score(pick_)) break;
    heap_.set(pick_, fresh);
    pick_ = heap_.top();
  }
  return {&pick_, 1};
}

void GreedyRule::feedback(const StepFeedback& step) {
  // A zero step lists no rows, but the pick's score must still fall
  // (to its true value, which is then 0), or the heap would repeat it.
  if (state_.changed_rows().empty() && step.coordinate < state_.size()) {
    heap_.set(step.coordinate,
              state_.counts(step.coordinate) ? score_(state_, step.coordinate) : -1.0);
  }
  for (std::size_t j : state_.changed_rows()) {
    heap_.set(j, state_.counts(j) ? score_(state_, j) : -1.0);
  }
}

}  // namespace cdl
