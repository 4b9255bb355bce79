// An indexed max-heap of n scores, for the greedy (Gauss-Southwell) rules:
// the index of the largest score in O(1), a change of one score in
// O(log n) (sift up or down from the index's known position). Ties go to
// the smaller index, so the order is fully deterministic.
#ifndef CDL_SELECT_MAX_HEAP_H_
#define CDL_SELECT_MAX_HEAP_H_

#include <cstddef>
#include <vector>

namespace cdl {

class IndexedMaxHeap {
 public:
  explicit IndexedMaxHeap(std::size_t n = 0);

  std::size_t size() const { return score_.size(); }
  // Sets all scores. O(n).
  void assign(const std::vector<double>& scores);
  // Sets the score of i. O(log n).
  void set(std::size_t i, double score);
  double score(std::size_t i) const { return score_[i]; }
  // The index of the largest score (size() > 0).
  std::size_t top() const { return heap_[0]; }

 private:
  bool before(std::size_t a, std::size_t b) const;  // a above b in the heap
  void sift_up(std::size_t pos);
  void sift_down(std::size_t pos);
  void place(std::size_t pos, std::size_t index);

  std::vector<double> score_;      // by index
  std::vector<std::size_t> heap_;  // heap position -> index
  std::vector<std::size_t> pos_;   // index -> heap position
};

}  // namespace cdl

#endif  // CDL_SELECT_MAX_HEAP_H_
