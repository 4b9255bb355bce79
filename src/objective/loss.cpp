// The -l table (loss.h).
#include "objective/loss.h"

#include "util/error.h"

namespace cdl {

const std::vector<LossInfo>& loss_table() {
  static const std::vector<LossInfo> table = {
      {"l2svm", LossKind::kL2Svm, "squared hinge max(0, 1 - y w'x)^2, equation (3)"},
      {"l1svm", LossKind::kL1Svm, "hinge max(0, 1 - y w'x), equation (2)"},
      {"lr", LossKind::kLogistic, "logistic log(1 + exp(-y w'x)), equation (4)", 1.0},
      {"sq", LossKind::kSquared, "regression: squared error (y - w'x)^2 (no 1/2)"},
      {"svr2", LossKind::kSvrL2,
       "regression: L2-loss SVR max(0, |y - w'x| - p)^2, LIBLINEAR's -s 11 and -s 12 loss"},
      {"svr1", LossKind::kSvrL1,
       "regression: L1-loss SVR max(0, |y - w'x| - p), LIBLINEAR's -s 13 loss"},
      {"oneclass", LossKind::kOneClass,
       "one-class SVM: max(0, rho - w'x) with the offset rho fitted, labels ignored; "
       "LIBLINEAR's -s 21 loss"},
      {"mchinge", LossKind::kMultiHinge,
       "multi-class hinge max_m (w_m'x + [m != y]) - w_y'x (Crammer & Singer), "
       "LIBLINEAR's -s 4 loss"},
      {"softmax", LossKind::kSoftmax,
       "multinomial logistic log sum_m exp(w_m'x) - w_y'x, one model over all classes"},
  };
  return table;
}

const LossInfo& loss_info(LossKind kind) {
  for (const auto& info : loss_table()) {
    if (info.kind == kind) return info;
  }
  throw Error("unknown loss kind");
}

const LossInfo* find_loss(const std::string& name) {
  for (const auto& info : loss_table()) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

}  // namespace cdl
