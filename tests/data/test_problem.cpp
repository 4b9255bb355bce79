// map_classes(): class numbers in order of first appearance (LIBLINEAR's
// order, +1 before -1 for a -1/+1 problem), for few labels (scanned) and for
// many (hashed beyond the first eight), checked against a plain map.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <vector>

#include "data/problem.h"

namespace cdl {
namespace {

// The classes by a std::map of first appearances.
ClassMap expected_classes(const std::vector<double>& labels) {
  ClassMap out;
  std::map<int, std::size_t> seen;
  for (double value : labels) {
    const int label = static_cast<int>(value);
    const auto [it, inserted] = seen.emplace(label, out.labels.size());
    if (inserted) out.labels.push_back(label);
    out.class_of.push_back(it->second);
  }
  return out;
}

TEST(MapClasses, FirstAppearanceOrder) {
  const std::vector<double> labels = {3, 1, 3, 2, 1, 1, 2, 3};
  const ClassMap classes = map_classes(labels);
  EXPECT_EQ(classes.labels, (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(classes.class_of, (std::vector<std::size_t>{0, 1, 0, 2, 1, 1, 2, 0}));
}

TEST(MapClasses, MinusOneFirstIsSwapped) {
  const ClassMap classes = map_classes({-1, 1, 1, -1});
  EXPECT_EQ(classes.labels, (std::vector<int>{1, -1}));
  EXPECT_EQ(classes.class_of, (std::vector<std::size_t>{1, 0, 0, 1}));
}

TEST(MapClasses, ManyClassesAgreeWithAMap) {
  // 40 labels, each first seen at a different point, then repeated in a
  // scrambled order: the scan covers the first eight, the hash the rest.
  std::vector<double> labels;
  for (int k = 0; k < 40; ++k) labels.push_back(static_cast<double>(100 - 3 * k));
  for (int r = 0; r < 400; ++r) labels.push_back(static_cast<double>(100 - 3 * ((r * 17) % 40)));
  const ClassMap classes = map_classes(labels);
  const ClassMap expected = expected_classes(labels);
  EXPECT_EQ(classes.labels, expected.labels);
  EXPECT_EQ(classes.class_of, expected.class_of);
  EXPECT_EQ(classes.labels.size(), 40u);
}

}  // namespace
}  // namespace cdl
