// Cross validation and the search stop inside their folds, as training
// does: the library's on_iteration callback hears every fold's iterations,
// and its false or the cancel flag ends the run with Cancelled (the C
// interface's CDL_ERR_CANCELLED), leaving nothing behind that changes the
// next run or the caller's outputs.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "c_api_test_util.h"
#include "cdlinear.h"
#include "cdlinear_c.h"
#include "test_util.h"

namespace cdl {
namespace {

constexpr int kFolds = 5;

struct Case {
  std::string loss;  // "": the default classifier
  unsigned threads;
};

std::vector<Case> cases() { return {{"", 1}, {"", 2}, {"sq", 1}, {"sq", 2}, {"lr", 2}}; }

cdlinear::TrainOptions options_of(const Case& c) {
  cdlinear::TrainOptions options;
  options.loss = c.loss;
  options.threads = c.threads;
  return options;
}

void expect_same(const cdlinear::CrossValidation& a, const cdlinear::CrossValidation& b) {
  EXPECT_EQ(a.predictions, b.predictions);
  if (std::isnan(a.accuracy)) {
    EXPECT_EQ(a.mean_squared_error, b.mean_squared_error);
  } else {
    EXPECT_EQ(a.accuracy, b.accuracy);
  }
}

TEST(FoldCancel, TheCallbackHearsEveryFoldAndStopsCrossValidation) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  for (const Case& c : cases()) {
    SCOPED_TRACE("loss '" + c.loss + "', threads " + std::to_string(c.threads));
    const cdlinear::CrossValidation reference =
        cdlinear::cross_validate(data, kFolds, options_of(c));
    // Heard: every fold, and the result is the same.
    std::atomic<int> calls{0};
    std::set<std::size_t> folds;
    cdlinear::TrainOptions options = options_of(c);
    options.on_iteration = [&](const cdlinear::IterationProgress& p) {
      ++calls;
      folds.insert(p.problem);  // one call at a time
      EXPECT_GE(p.iteration, 1);
      return true;
    };
    expect_same(cdlinear::cross_validate(data, kFolds, options), reference);
    EXPECT_EQ(folds, (std::set<std::size_t>{0, 1, 2, 3, 4}));
    const int whole = calls.load();
    ASSERT_GT(whole, 3);
    // False at the third call: Cancelled, and no call after it.
    calls = 0;
    options.on_iteration = [&](const cdlinear::IterationProgress&) { return ++calls < 3; };
    EXPECT_THROW(cdlinear::cross_validate(data, kFolds, options), cdlinear::Cancelled);
    EXPECT_EQ(calls.load(), 3);
    // The flag, set at the third call: each fold in progress stops within
    // an iteration, far short of the whole run.
    std::atomic<bool> cancel{false};
    calls = 0;
    options.cancel = &cancel;
    options.on_iteration = [&](const cdlinear::IterationProgress&) {
      if (++calls == 3) cancel = true;
      return true;
    };
    EXPECT_THROW(cdlinear::cross_validate(data, kFolds, options), cdlinear::Cancelled);
    EXPECT_GE(calls.load(), 3);
    EXPECT_LE(calls.load(), 3 + static_cast<int>(c.threads));
    EXPECT_LT(calls.load(), whole);
    // Nothing left behind: the next run is the first's.
    expect_same(cdlinear::cross_validate(data, kFolds, options_of(c)), reference);
  }
}

TEST(FoldCancel, TheSearchStopsInItsFirstStep) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  for (const Case& c : cases()) {
    SCOPED_TRACE("loss '" + c.loss + "', threads " + std::to_string(c.threads));
    int calls = 0;
    cdlinear::TrainOptions options = options_of(c);
    options.on_iteration = [&](const cdlinear::IterationProgress&) { return ++calls < 3; };
    std::string message = "(not cancelled)";
    try {
      cdlinear::search_C(data, kFolds, options, 0.25);
    } catch (const cdlinear::Cancelled& e) {
      message = e.what();
    }
    EXPECT_EQ(message, "search cancelled in its first step");
    EXPECT_EQ(calls, 3);
  }
}

int stop_at_third(std::size_t, std::int64_t, double, double, double, void* user) {
  int& calls = *static_cast<int*>(user);
  return ++calls >= 3 ? 1 : 0;
}

TEST(FoldCancel, TheCInterfaceSaysCancelledAndWritesNothing) {
  test::DataHandle data;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &data.handle), CDL_OK);
  test::OptionsHandle options;
  std::size_t rows = 0;
  ASSERT_EQ(cdl_data_num_rows(data.handle, &rows), CDL_OK);
  std::vector<double> reference(rows, -7);
  double reference_accuracy = -7;
  ASSERT_EQ(cdl_cross_validate(data.handle, options.handle, kFolds, &reference_accuracy, nullptr,
                               nullptr, reference.data(), reference.size()),
            CDL_OK)
      << cdl_last_error();
  int calls = 0;
  ASSERT_EQ(cdl_options_set_iteration_callback(options.handle, stop_at_third, &calls), CDL_OK);
  std::vector<double> predictions(rows, -7);
  double accuracy = -7;
  EXPECT_EQ(cdl_cross_validate(data.handle, options.handle, kFolds, &accuracy, nullptr, nullptr,
                               predictions.data(), predictions.size()),
            CDL_ERR_CANCELLED);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(std::string(cdl_last_error()).rfind("training cancelled", 0), 0u) << cdl_last_error();
  EXPECT_EQ(accuracy, -7);
  EXPECT_EQ(predictions, std::vector<double>(rows, -7));
  // Without the callback, the same options give the first run's result.
  ASSERT_EQ(cdl_options_set_iteration_callback(options.handle, nullptr, nullptr), CDL_OK);
  ASSERT_EQ(cdl_cross_validate(data.handle, options.handle, kFolds, &accuracy, nullptr, nullptr,
                               predictions.data(), predictions.size()),
            CDL_OK);
  EXPECT_EQ(accuracy, reference_accuracy);
  EXPECT_EQ(predictions, reference);
}

}  // namespace
}  // namespace cdl
