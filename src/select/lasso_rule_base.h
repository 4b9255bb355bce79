// The two shapes of the per-step Lasso rules (lasso_rules.h): a weighted
// draw from a sum-tree (optionally a mixture of two), and a greedy pick from
// an indexed max-heap. Both own a LassoState that tracks the gradients, step
// it with the solver's feedback, hand out one feature per batch and n per
// epoch, rebuild all weights at the start of each epoch (after a refresh of
// the state, O(nnz + n)), and after each step update only the features whose
// gradient it changed (O(log n) each).
#ifndef CDL_SELECT_LASSO_RULE_BASE_H_
#define CDL_SELECT_LASSO_RULE_BASE_H_

#include <cstddef>
#include <functional>
#include <random>
#include <vector>

#include "objective/lasso_state.h"
#include "select/max_heap.h"
#include "select/selection_rule.h"
#include "select/sum_tree.h"

namespace cdl {

// Throws ConfigError unless context.lasso is set.
const Problem& lasso_problem_of(const RuleContext& context, const char* rule_name);

// What every Lasso rule shares: a LassoState that the solver's feedback
// steps (tracking the gradients, or only the residual), one feature per
// batch, and no shrinking (the weights follow the state).
class LassoStateRule : public SelectionRule {
 public:
  bool visits_all() const override { return false; }
  bool wants_feedback() const override { return true; }
  bool solver_may_shrink() const override { return false; }
  const LassoState& state() const { return state_; }

 protected:
  LassoStateRule(const RuleContext& context, const char* rule_name, bool track_gradients)
      : state_(lasso_problem_of(context, rule_name), context.w0, track_gradients) {}
  // value(state, i) for every feature i, at the current state. O(n) calls.
  template <class Value>
  std::vector<double> values_of(const Value& value) const {
    std::vector<double> out(state_.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = value(state_, i);
    return out;
  }

  LassoState state_;
};

// Draws i with probability weight(i) / sum_k weight(k) under the current
// state; with a second weight and mix > 0, draws from the second
// distribution with probability mix instead (an exact mixture). When every
// weight of the chosen distribution is 0, draws from the other one, and when
// both are all 0 (the state is optimal), uniformly.
class LassoSumTreeRule : public LassoStateRule {
 public:
  using Weight = std::function<double(const LassoState&, std::size_t)>;
  LassoSumTreeRule(const RuleContext& context, const char* rule_name, Weight weight,
                   Weight second = nullptr, double mix = 0.0);

  CoordinateBatch next_batch() override;
  void feedback(const StepFeedback& step) override;

  // The probability that the next draw is i (for tests).
  double probability(std::size_t i) const;

 protected:
  void on_start_epoch() override;

 private:
  void update(std::size_t i);

  std::mt19937_64 rng_;
  Weight weight_;
  Weight second_;
  double mix_;
  SumTree tree_;
  SumTree second_tree_;
  std::size_t drawn_ = 0;
  std::size_t pick_ = 0;
};

// Picks the i of the largest score(i) (ties: the smallest i). A step of 0
// (the solver found no decrease along i, which rounding can cause where the
// state's score is tiny but positive) sets i's score to 0 until a later step
// or epoch re-scores it, so the rule never picks the same stuck feature
// again and again.
class LassoGreedyRule : public LassoStateRule {
 public:
  using Score = std::function<double(const LassoState&, std::size_t)>;
  LassoGreedyRule(const RuleContext& context, const char* rule_name, Score score);

  CoordinateBatch next_batch() override;
  void feedback(const StepFeedback& step) override;

  double score(std::size_t i) const { return heap_.score(i); }

 protected:
  void on_start_epoch() override;

 private:
  Score score_;
  IndexedMaxHeap heap_;
  std::size_t picked_ = 0;
  std::size_t pick_ = 0;
};

}  // namespace cdl

#endif  // CDL_SELECT_LASSO_RULE_BASE_H_
