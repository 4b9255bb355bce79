#include "objective/regularizer.h"

#include "util/error.h"

namespace cdl {

Regularizer Regularizer::of(RegularizerKind kind, double l1_ratio) {
  switch (kind) {
    case RegularizerKind::kL2:
      return l2_only();
    case RegularizerKind::kL1:
      return l1_only();
    case RegularizerKind::kElasticNet:
      return elastic_net(l1_ratio);
  }
  throw Error("unknown regularizer");
}

const std::vector<RegularizerInfo>& regularizer_table() {
  static const std::vector<RegularizerInfo> table = {
      {"l2", RegularizerKind::kL2, "1/2 ||w||^2, equation (1)"},
      {"l1", RegularizerKind::kL1, "||w||_1"},
      {"elastic", RegularizerKind::kElasticNet, "a ||w||_1 + (1 - a)/2 ||w||^2"},
  };
  return table;
}

const RegularizerInfo& regularizer_info(RegularizerKind kind) {
  for (const auto& info : regularizer_table()) {
    if (info.kind == kind) return info;
  }
  throw Error("unknown regularizer");
}

const RegularizerInfo* find_regularizer(const std::string& name) {
  for (const auto& info : regularizer_table()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

}  // namespace cdl
