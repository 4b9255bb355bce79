#include "data/problem.h"

#include <algorithm>
#include <cassert>
#include <unordered_map>
#include <utility>

namespace cdl {

ClassMap map_classes(const std::vector<double>& labels) {
  ClassMap out;
  out.class_of.reserve(labels.size());
  // With few classes (the common case) a scan of the labels seen is faster
  // than the hash, which is looked up only beyond them.
  constexpr std::size_t kScanned = 8;
  std::unordered_map<int, std::size_t> number_of;  // every label seen
  for (double value : labels) {
    const int label = static_cast<int>(value);
    std::size_t c = 0;
    if (out.labels.size() <= kScanned) {
      c = static_cast<std::size_t>(std::find(out.labels.begin(), out.labels.end(), label) -
                                   out.labels.begin());
    } else {
      const auto it = number_of.find(label);
      c = it != number_of.end() ? it->second : out.labels.size();
    }
    if (c == out.labels.size()) {
      number_of.emplace(label, c);
      out.labels.push_back(label);
    }
    out.class_of.push_back(c);
  }
  if (out.labels.size() == 2 && out.labels[0] == -1 && out.labels[1] == 1) {
    std::swap(out.labels[0], out.labels[1]);
    for (auto& c : out.class_of) c = 1 - c;
  }
  return out;
}

Problem one_vs_rest(const CscMatrix& x, const ClassMap& classes, std::size_t positive, double c_pos,
                    double c_neg, const CsrMatrix* rows,
                    const std::vector<std::uint8_t>* held_out) {
  return one_vs_rest(&x, classes, positive, c_pos, c_neg, rows, held_out);
}

Problem one_vs_rest(const CscMatrix* x, const ClassMap& classes, std::size_t positive, double c_pos,
                    double c_neg, const CsrMatrix* rows,
                    const std::vector<std::uint8_t>* held_out) {
  assert(x != nullptr || rows != nullptr);
  Problem p{nullptr, rows, {}, c_pos, c_neg, Task::kClassification, held_out};
  if (x != nullptr) p.columns = *x;
  assert(classes.class_of.size() == p.num_rows());
  assert(held_out == nullptr || held_out->size() == p.num_rows());
  p.y.reserve(p.num_rows());
  for (std::size_t c : classes.class_of) p.y.push_back(c == positive ? 1.0 : -1.0);
  return p;
}

Problem regression_problem(const CscMatrix& x, std::vector<double> targets, double C,
                           const CsrMatrix* rows) {
  return regression_problem(&x, std::move(targets), C, rows);
}

Problem regression_problem(const CscMatrix* x, std::vector<double> targets, double C,
                           const CsrMatrix* rows) {
  assert(x != nullptr || rows != nullptr);
  Problem p{nullptr, rows, std::move(targets), C, C, Task::kRegression};
  if (x != nullptr) p.columns = *x;
  assert(p.y.size() == p.num_rows());
  return p;
}

}  // namespace cdl
