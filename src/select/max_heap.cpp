#include "select/max_heap.h"

#include <cassert>

namespace cdl {

IndexedMaxHeap::IndexedMaxHeap(std::size_t n) : score_(n, 0.0), heap_(n), pos_(n) {
  for (std::size_t i = 0; i < n; ++i) heap_[i] = pos_[i] = i;
}

bool IndexedMaxHeap::before(std::size_t a, std::size_t b) const {
  return score_[a] > score_[b] || (score_[a] == score_[b] && a < b);
}

void IndexedMaxHeap::place(std::size_t pos, std::size_t index) {
  heap_[pos] = index;
  pos_[index] = pos;
}

void IndexedMaxHeap::sift_up(std::size_t pos) {
  const std::size_t index = heap_[pos];
  while (pos > 0) {
    const std::size_t parent = (pos - 1) / 2;
    if (!before(index, heap_[parent])) break;
    place(pos, heap_[parent]);
    pos = parent;
  }
  place(pos, index);
}

void IndexedMaxHeap::sift_down(std::size_t pos) {
  const std::size_t n = heap_.size();
  const std::size_t index = heap_[pos];
  for (;;) {
    std::size_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
    if (!before(heap_[child], index)) break;
    place(pos, heap_[child]);
    pos = child;
  }
  place(pos, index);
}

void IndexedMaxHeap::assign(const std::vector<double>& scores) {
  assert(scores.size() == score_.size());
  score_ = scores;
  for (std::size_t i = 0; i < heap_.size(); ++i) place(i, i);
  for (std::size_t pos = heap_.size() / 2; pos-- > 0;) sift_down(pos);
}

void IndexedMaxHeap::set(std::size_t i, double score) {
  const double old = score_[i];
  score_[i] = score;
  if (score > old) {
    sift_up(pos_[i]);
  } else if (score < old) {
    sift_down(pos_[i]);
  }
}

}  // namespace cdl
