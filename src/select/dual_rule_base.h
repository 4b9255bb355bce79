// The two shapes of the per-step dual rules (dual_rules.h): a weighted draw
// from a sum-tree, and a greedy pick from an indexed max-heap. Both hand out
// one coordinate per batch (the feedback of a step must be heard before the
// next choice), n per epoch, rebuild all weights at the start of each epoch
// (O(n), from the state's refreshed margins), and after each step update
// only the rows the step changed (O(log n) each). With bounded-staleness
// gaps (solver_dcd_adaptive.cpp) the state lists only the stepped row, and
// refresh_weights() rebuilds all weights every few steps.
#ifndef CDL_SELECT_DUAL_RULE_BASE_H_
#define CDL_SELECT_DUAL_RULE_BASE_H_

#include <cstddef>
#include <functional>
#include <random>
#include <vector>

#include "objective/dual_state.h"
#include "select/max_heap.h"
#include "select/selection_rule.h"
#include "select/sum_tree.h"

namespace cdl {

// Throws ConfigError unless context.dual is set.
const DualState& dual_state_of(const RuleContext& context, const char* rule_name);

// Draws i with probability weight(i) / sum_j weight(j), the weights of the
// current state.
class SumTreeRule : public SelectionRule {
 public:
  using Weight = std::function<double(const DualState&, std::size_t)>;
  SumTreeRule(const DualState& state, std::uint64_t seed, Weight weight);

  CoordinateBatch next_batch() override;
  bool visits_all() const override { return false; }
  bool wants_feedback() const override { return true; }
  void feedback(const StepFeedback& step) override;
  void refresh_weights() override;

  // The probability of i under the current weights (for tests).
  double probability(std::size_t i) const;

 protected:
  void on_start_epoch() override;

 private:
  const DualState& state_;
  std::mt19937_64 rng_;
  Weight weight_;
  SumTree tree_;
  std::size_t drawn_ = 0;
  std::size_t pick_ = 0;
};

// Picks the i of the largest score(i) (ties: the smallest i).
class GreedyRule : public SelectionRule {
 public:
  using Score = std::function<double(const DualState&, std::size_t)>;
  GreedyRule(const DualState& state, Score score);

  CoordinateBatch next_batch() override;
  bool wants_feedback() const override { return true; }
  void feedback(const StepFeedback& step) override;
  void refresh_weights() override;
  double score(std::size_t i) const { return heap_.score(i); }

 protected:
  void on_start_epoch() override;

 private:
  static constexpr std::size_t kMaxRescores = 64;
  void rebuild();

  const DualState& state_;
  Score score_;
  bool stale_ = false;  // refresh_weights() was called: scores may be stale
  IndexedMaxHeap heap_;
  std::size_t picked_ = 0;
  std::size_t pick_ = 0;
};

}  // namespace cdl

#endif  // CDL_SELECT_DUAL_RULE_BASE_H_
