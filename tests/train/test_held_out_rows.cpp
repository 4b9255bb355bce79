// Cross-validation's folds share the matrix: a problem that holds rows out
// (C_j = 0) trains the same model, bit for bit, as the copy without them, for
// every solver.
#include <gtest/gtest.h>

#include <cmath>

#include "solver_test_util.h"
#include "train/train.h"
#include "train/train_regression.h"

namespace cdl {
namespace {

TEST(HeldOutRows, SameModelAsTrainingOnTheCopyWithoutThem) {
  for (const char* name : {"heart_scale", "dna.scale"}) {
    const test::Data& data = test::load(name);
    const CscMatrix& x = data.file.features;
    const std::size_t l = x.num_rows;
    std::vector<std::uint8_t> held_out(l);
    std::vector<std::size_t> kept;
    for (std::size_t r = 0; r < l; ++r) {
      held_out[r] = r % 5 == 2 || r % 7 == 0;
      if (!held_out[r]) kept.push_back(r);
    }
    const CscMatrix copy = select_rows(x, kept);
    ClassMap copy_classes{data.classes.labels, {}};
    for (std::size_t r : kept) copy_classes.class_of.push_back(data.classes.class_of[r]);

    std::vector<double> copy_targets;
    for (std::size_t r : kept) copy_targets.push_back(data.file.labels[r]);
    for (const SolverInfo& solver : solver_table()) {
      for (LossKind loss : solver.losses) {
        SCOPED_TRACE(std::string(name) + " " + solver.name + " " + loss_info(loss).name);
        if (!has_classes(loss)) {
          // The labels as real targets (ignored by the one-class SVM), with
          // both regularizers (on heart_scale only: dna.scale's 180 sparse
          // columns take long).
          if (std::string(name) != "heart_scale") continue;
          for (RegularizerKind regularizer : solver.regularizers) {
            Params params;
            params.solver = solver.kind;
            params.loss = loss;
            params.regularizer = regularizer;
            params.C = 0.5;
            params = resolve_defaults(params);
            test::RecordingReporter a;
            test::RecordingReporter b;
            const LinearModel shared =
                train_regression(x, data.file.labels, params, a, nullptr, &held_out);
            const LinearModel copied = train_regression(copy, copy_targets, params, b);
            EXPECT_EQ(shared.w, copied.w);
            ASSERT_EQ(a.iterations.size(), b.iterations.size());
          }
          continue;
        }
        Params params;
        params.solver = solver.kind;
        params.loss = loss;
        params.C = 0.5;
        params.class_weights = {{data.classes.labels[0], 2.0}};
        params.threads = 1;
        if (solver.default_max_iter == 0) params.max_iter = 2000;  // Pegasos's updates
        params = resolve_defaults(params);
        test::RecordingReporter a;
        test::RecordingReporter b;
        const LinearModel shared = train(x, data.classes, params, a, nullptr, &held_out);
        const LinearModel copied = train(copy, copy_classes, params, b);
        EXPECT_EQ(shared.w, copied.w);
        ASSERT_EQ(a.iterations.size(), b.iterations.size());
        for (std::size_t k = 0; k < a.iterations.size(); ++k) {
          // (dcd reports NaN without a trace: the same NaN in both.)
          const double fa = a.iterations[k].objective, fb = b.iterations[k].objective;
          EXPECT_TRUE(fa == fb || (std::isnan(fa) && std::isnan(fb))) << k;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cdl
