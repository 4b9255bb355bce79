// The C interface's models and runs: weights in the model file's layout,
// iterations and objectives, probabilities, progress lines, a warm start,
// cross validation, the C search, the iteration callback and the cancel
// flag, each against what cdtrain and cdpredict print or write.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "c_api_test_util.h"
#include "cdlinear_c.h"
#include "test_util.h"

namespace cdl {
namespace {

using test::DataHandle;
using test::ModelHandle;
using test::OptionsHandle;
using test::weights_in;

// The value after `key` on the model file's line that starts with it.
double value_in(const std::string& model_text, const std::string& key) {
  const std::size_t at = model_text.find("\n" + key + " ");
  return at == std::string::npos ? -12345 : std::stod(model_text.substr(at + key.size() + 2));
}

TEST(CApi, WeightsAreTheModelFilesInItsLayout) {
  test::ScratchDir dir;
  struct Expect {
    std::string file;
    std::string flags;
    std::size_t nr_class;
    std::size_t nr_w;
  };
  for (const Expect& e : {Expect{test::data_path("heart_scale"), "-s 2 -B 1", 2, 1},
                          Expect{test::data_path("dna.scale"), "-s 1", 3, 3},
                          Expect{test::data_path("heart_scale"), "-s 4", 2, 2},
                          Expect{test::fixture_path("diabetes.svm"), "-s 11 -B 2", 2, 1},
                          Expect{test::data_path("heart_scale"), "-s 21", 2, 1}}) {
    SCOPED_TRACE("cdtrain " + e.flags + " " + e.file);
    const std::string path = dir.file("w.model");
    ASSERT_EQ(test::run_tool("cdtrain", "-q " + e.flags + " " + e.file + " " + path).status, 0);
    const std::string text = test::read_file(path);
    ModelHandle model;
    ASSERT_EQ(cdl_model_load(path.c_str(), &model.handle), CDL_OK) << cdl_last_error();
    std::size_t nr_class = 0;
    std::size_t nr_w = 0;
    std::size_t count = 0;
    std::size_t features = 0;
    double bias = 0;
    double rho = -1;
    EXPECT_EQ(cdl_model_nr_class(model.handle, &nr_class), CDL_OK);
    EXPECT_EQ(cdl_model_nr_w(model.handle, &nr_w), CDL_OK);
    EXPECT_EQ(cdl_model_num_weights(model.handle, &count), CDL_OK);
    EXPECT_EQ(cdl_model_num_features(model.handle, &features), CDL_OK);
    EXPECT_EQ(cdl_model_bias(model.handle, &bias), CDL_OK);
    EXPECT_EQ(cdl_model_rho(model.handle, &rho), CDL_OK);
    EXPECT_EQ(nr_class, e.nr_class);
    EXPECT_EQ(nr_w, e.nr_w);
    EXPECT_EQ(static_cast<double>(nr_class), value_in(text, "nr_class"));
    EXPECT_EQ(bias, value_in(text, "bias"));
    const std::size_t rows = features + (bias >= 0 ? 1 : 0);
    EXPECT_EQ(count, rows * nr_w);
    std::vector<double> weights(count);
    ASSERT_EQ(cdl_model_weights(model.handle, weights.data(), count), CDL_OK) << cdl_last_error();
    // The file's numbers, parsed here: the same doubles (written %.17g).
    EXPECT_EQ(weights, weights_in(text));
    EXPECT_EQ(rho, text.find("\nrho ") != std::string::npos ? value_in(text, "rho") : 0.0);
    EXPECT_EQ(cdl_model_weights(model.handle, weights.data(), count - 1), CDL_ERR_INVALID_ARGUMENT);
  }
}

TEST(CApi, IterationsAndObjectivesAreCdtrainsSummaries) {
  test::ScratchDir dir;
  for (const auto& [file, flags] :
       {std::pair{test::data_path("heart_scale"), std::string("-s 2")},
        std::pair{test::data_path("dna.scale"), std::string("-s 0")},
        std::pair{test::data_path("heart_scale"), std::string("-s 3")}}) {
    SCOPED_TRACE("cdtrain " + flags + " " + file);
    const auto r = test::run_tool("cdtrain", flags + " " + file + " " + dir.file("tool.model"));
    ASSERT_EQ(r.status, 0) << r.err;
    // The summary lines: "solver: N outer iterations, f F, ..." (or
    // "iterations" for the CD family), one per problem.
    std::vector<std::int64_t> tool_iterations;
    std::vector<double> tool_objectives;
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t f = line.find(", f ");
      const std::size_t colon = line.find(": ");
      if (f == std::string::npos || colon == std::string::npos || line.find(' ') < colon) continue;
      tool_iterations.push_back(std::stoll(line.substr(colon + 2)));
      tool_objectives.push_back(std::stod(line.substr(f + 4)));
    }
    ASSERT_FALSE(tool_iterations.empty()) << r.err;
    DataHandle data;
    ASSERT_EQ(cdl_data_read(file.c_str(), &data.handle), CDL_OK);
    OptionsHandle options;
    cdl_options_set_solver(options.handle, flags.substr(3).c_str());
    ModelHandle model;
    ASSERT_EQ(cdl_train(data.handle, options.handle, &model.handle), CDL_OK) << cdl_last_error();
    std::size_t problems = 0;
    EXPECT_EQ(cdl_model_num_problems(model.handle, &problems), CDL_OK);
    ASSERT_EQ(problems, tool_iterations.size());
    std::vector<std::int64_t> iterations(problems);
    std::vector<double> objectives(problems);
    EXPECT_EQ(cdl_model_iterations(model.handle, iterations.data(), problems), CDL_OK);
    EXPECT_EQ(cdl_model_objectives(model.handle, objectives.data(), problems), CDL_OK);
    EXPECT_EQ(iterations, tool_iterations);
    for (std::size_t k = 0; k < problems; ++k) {
      // cdtrain prints 11 significant digits.
      EXPECT_NEAR(objectives[k], tool_objectives[k], 1e-10 * std::fabs(tool_objectives[k]));
    }
  }
  // A loaded model has no run.
  ModelHandle loaded;
  ASSERT_EQ(cdl_model_load(dir.file("tool.model").c_str(), &loaded.handle), CDL_OK);
  std::size_t problems = 7;
  EXPECT_EQ(cdl_model_num_problems(loaded.handle, &problems), CDL_OK);
  EXPECT_EQ(problems, 0u);
  EXPECT_EQ(cdl_model_iterations(loaded.handle, nullptr, 0), CDL_OK);
}

TEST(CApi, ProbabilitiesAreCdpredictsB1) {
  test::ScratchDir dir;
  const std::string train_file = test::data_path("dna.scale");
  const std::string test_file = test::data_path("dna.scale.t");
  const std::string path = dir.file("lr.model");
  ASSERT_EQ(test::run_tool("cdtrain", "-q -s 0 " + train_file + " " + path).status, 0);
  const auto r =
      test::run_tool("cdpredict", "-b 1 " + test_file + " " + path + " " + dir.file("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  ModelHandle model;
  ASSERT_EQ(cdl_model_load(path.c_str(), &model.handle), CDL_OK);
  DataHandle data;
  ASSERT_EQ(cdl_data_read(test_file.c_str(), &data.handle), CDL_OK);
  int has = 0;
  EXPECT_EQ(cdl_model_has_probabilities(model.handle, &has), CDL_OK);
  EXPECT_EQ(has, 1);
  std::size_t rows = 0;
  cdl_data_num_rows(data.handle, &rows);
  std::vector<double> probabilities(rows * 3);
  std::vector<double> labels(rows);
  ASSERT_EQ(cdl_model_probabilities(model.handle, data.handle, 2, probabilities.data(),
                                    probabilities.size()),
            CDL_OK)
      << cdl_last_error();
  ASSERT_EQ(cdl_model_predict(model.handle, data.handle, 2, labels.data(), rows), CDL_OK);
  // cdpredict -b 1: a header "labels 3 1 2", then "label p1 p2 p3" per
  // instance, %g.
  std::istringstream lines(test::read_file(dir.file("out")));
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header, "labels 3 1 2");
  for (std::size_t row = 0; row < rows; ++row) {
    double label = 0;
    ASSERT_TRUE(lines >> label);
    EXPECT_EQ(label, labels[row]);
    for (std::size_t k = 0; k < 3; ++k) {
      double p = 0;
      ASSERT_TRUE(lines >> p);
      EXPECT_NEAR(probabilities[row * 3 + k], p, 5e-6 * p + 1e-300) << "instance " << row;
    }
  }
}

void collect_line(const char* line, void* user) {
  static_cast<std::vector<std::string>*>(user)->push_back(line);
}

TEST(CApi, ProgressLinesGoToTheCallbackOnly) {
  DataHandle data;
  ASSERT_EQ(cdl_data_read(test::data_path("dna.scale").c_str(), &data.handle), CDL_OK);
  OptionsHandle options;
  cdl_options_set_solver(options.handle, "2");
  ModelHandle quiet;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &quiet.handle), CDL_OK);
  std::vector<std::string> lines;
  cdl_options_set_progress(options.handle, collect_line, &lines);
  ModelHandle loud;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &loud.handle), CDL_OK);
  // One summary line per class, as cdtrain prints them, and no newline in
  // any line.
  std::size_t summaries = 0;
  for (const std::string& line : lines) {
    EXPECT_EQ(line.find('\n'), std::string::npos);
    summaries +=
        line.rfind("newton: ", 0) == 0 && line.find(" outer iterations, f ") != std::string::npos;
  }
  EXPECT_EQ(summaries, 3u) << ::testing::PrintToString(lines);
  // The same model as without progress.
  test::ScratchDir dir;
  ASSERT_EQ(cdl_model_save(quiet.handle, dir.file("quiet.model").c_str()), CDL_OK);
  ASSERT_EQ(cdl_model_save(loud.handle, dir.file("loud.model").c_str()), CDL_OK);
  EXPECT_EQ(test::read_file(dir.file("quiet.model")), test::read_file(dir.file("loud.model")));
  // Unset: nothing more arrives.
  const std::size_t before = lines.size();
  cdl_options_set_progress(options.handle, nullptr, &lines);
  ModelHandle again;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &again.handle), CDL_OK);
  EXPECT_EQ(lines.size(), before);
}

TEST(CApi, InitialModelIsCdtrainsI) {
  test::ScratchDir dir;
  const std::string file = test::data_path("dna.scale");
  const std::string loose = dir.file("loose.model");
  const std::string tool = dir.file("tool.model");
  ASSERT_EQ(test::run_tool("cdtrain", "-q -s cdper -B 1 -e 0.5 " + file + " " + loose).status, 0);
  const auto r =
      test::run_tool("cdtrain", "-q -s cdper -B 1 -i " + loose + " " + file + " " + tool);
  ASSERT_EQ(r.status, 0) << r.err;
  ModelHandle start;
  ASSERT_EQ(cdl_model_load(loose.c_str(), &start.handle), CDL_OK) << cdl_last_error();
  DataHandle data;
  ASSERT_EQ(cdl_data_read(file.c_str(), &data.handle), CDL_OK);
  OptionsHandle options;
  cdl_options_set_solver(options.handle, "cdper");
  cdl_options_set_bias(options.handle, 1);
  ASSERT_EQ(cdl_options_set_initial_model(options.handle, start.handle), CDL_OK);
  ModelHandle model;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &model.handle), CDL_OK) << cdl_last_error();
  ASSERT_EQ(cdl_model_save(model.handle, dir.file("c.model").c_str()), CDL_OK);
  EXPECT_EQ(test::read_file(dir.file("c.model")), test::read_file(tool));
  // Unset: from 0 again, cdtrain's model without -i.
  ASSERT_EQ(cdl_options_set_initial_model(options.handle, nullptr), CDL_OK);
  ModelHandle from_zero;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &from_zero.handle), CDL_OK);
  ASSERT_EQ(cdl_model_save(from_zero.handle, dir.file("zero.model").c_str()), CDL_OK);
  ASSERT_EQ(test::run_tool("cdtrain", "-q -s cdper -B 1 " + file + " " + tool).status, 0);
  EXPECT_EQ(test::read_file(dir.file("zero.model")), test::read_file(tool));
  // A dual solver refuses it.
  cdl_options_set_solver(options.handle, "dcd");
  cdl_options_set_initial_model(options.handle, start.handle);
  cdl_model* refused = nullptr;
  EXPECT_EQ(cdl_train(data.handle, options.handle, &refused), CDL_ERR_CONFIG);
  EXPECT_EQ(refused, nullptr);
}

// The number after `key` in cdtrain's output, or NaN.
double number_after(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  return at == std::string::npos ? std::nan("") : std::stod(text.substr(at + key.size()));
}

TEST(CApi, CrossValidationIsCdtrainsV) {
  DataHandle heart;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &heart.handle), CDL_OK);
  const auto r = test::run_tool("cdtrain", "-v 5 " + test::data_path("heart_scale"));
  ASSERT_EQ(r.status, 0) << r.err;
  double accuracy = -1;
  double mse = 0;
  std::vector<double> predictions(270);
  ASSERT_EQ(cdl_cross_validate(heart.handle, nullptr, 5, &accuracy, &mse, nullptr,
                               predictions.data(), predictions.size()),
            CDL_OK)
      << cdl_last_error();
  // cdtrain prints %g of the percentage.
  EXPECT_NEAR(100 * accuracy, number_after(r.out, "Accuracy = "), 5e-5);
  EXPECT_TRUE(std::isnan(mse));
  std::vector<double> labels(270);
  cdl_data_labels(heart.handle, labels.data(), labels.size());
  std::size_t right = 0;
  for (std::size_t j = 0; j < labels.size(); ++j) right += predictions[j] == labels[j];
  EXPECT_EQ(static_cast<double>(right) / 270, accuracy);
  // A buffer too small: a status, and no output written.
  accuracy = -1;
  EXPECT_EQ(cdl_cross_validate(heart.handle, nullptr, 5, &accuracy, nullptr, nullptr,
                               predictions.data(), 269),
            CDL_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(accuracy, -1);
  EXPECT_EQ(cdl_cross_validate(heart.handle, nullptr, 1, &accuracy, nullptr, nullptr, nullptr, 0),
            CDL_ERR_CONFIG);

  // A regression: cdtrain's mean squared error and squared correlation.
  const std::string diabetes = test::fixture_path("diabetes.svm");
  const auto sq = test::run_tool("cdtrain", "-v 4 -l sq " + diabetes);
  ASSERT_EQ(sq.status, 0) << sq.err;
  DataHandle data;
  ASSERT_EQ(cdl_data_read(diabetes.c_str(), &data.handle), CDL_OK);
  OptionsHandle options;
  cdl_options_set_loss(options.handle, "sq");
  double correlation = 0;
  ASSERT_EQ(
      cdl_cross_validate(data.handle, options.handle, 4, &accuracy, &mse, &correlation, nullptr, 0),
      CDL_OK)
      << cdl_last_error();
  EXPECT_TRUE(std::isnan(accuracy));
  const double tool_mse = number_after(sq.out, "Mean squared error = ");
  EXPECT_NEAR(mse, tool_mse, 5e-6 * tool_mse);
  EXPECT_NEAR(correlation, number_after(sq.out, "Squared correlation coefficient = "), 5e-6);
}

TEST(CApi, SearchIsCdtrainsC) {
  const std::string file = test::data_path("heart_scale");
  const auto r = test::run_tool("cdtrain", "-C -v 3 -c 0.25 " + file);
  ASSERT_EQ(r.status, 0) << r.err;
  DataHandle data;
  ASSERT_EQ(cdl_data_read(file.c_str(), &data.handle), CDL_OK);
  cdl_search* search = nullptr;
  ASSERT_EQ(cdl_search_c(data.handle, nullptr, 3, 0.25, &search), CDL_OK) << cdl_last_error();
  std::size_t steps = 0;
  EXPECT_EQ(cdl_search_num_steps(search, &steps), CDL_OK);
  // cdtrain's "log2c= L\trate=R" lines, one a step.
  std::istringstream lines(r.out);
  std::size_t k = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("log2c=", 0) != 0) continue;
    double c = 0;
    double p = 0;
    double score = 0;
    ASSERT_EQ(cdl_search_step(search, k, &c, &p, &score), CDL_OK) << line;
    EXPECT_EQ(std::log2(c), number_after(line, "log2c="));
    EXPECT_NEAR(100 * score, number_after(line, "rate="), 5e-5) << line;
    EXPECT_EQ(p, -1);
    ++k;
  }
  EXPECT_EQ(k, steps);
  EXPECT_EQ(cdl_search_step(search, steps, nullptr, nullptr, nullptr), CDL_ERR_INVALID_ARGUMENT);
  double best_c = 0;
  double best_score = 0;
  EXPECT_EQ(cdl_search_best(search, &best_c, nullptr, &best_score), CDL_OK);
  EXPECT_NEAR(best_c, number_after(r.out, "Best C = "), 5e-6 * best_c);
  EXPECT_NEAR(100 * best_score, number_after(r.out, "CV accuracy = "), 5e-5);
  EXPECT_EQ(cdl_search_free(search), CDL_OK);
  // A NULL out, and a search with no search handle.
  EXPECT_EQ(cdl_search_c(data.handle, nullptr, 3, 0, nullptr), CDL_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cdl_search_num_steps(nullptr, &steps), CDL_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(cdl_last_error()), "cdl_search_num_steps: search is NULL");
}

// Counts the calls; stops (nonzero) at call `stop_at`, or cancels the
// options there if `cancel` is set.
struct Listener {
  int calls = 0;
  int stop_at = 0;
  cdl_options* cancel = nullptr;
  std::vector<std::int64_t> iterations;
};

int listen(std::size_t problem, std::int64_t iteration, double, double, double, void* user) {
  auto& listener = *static_cast<Listener*>(user);
  ++listener.calls;
  if (problem == 0) listener.iterations.push_back(iteration);
  if (listener.calls != listener.stop_at) return 0;
  if (listener.cancel == nullptr) return 1;
  cdl_options_cancel(listener.cancel);
  return 0;
}

TEST(CApi, IterationCallbackAndCancelStopTraining) {
  DataHandle data;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &data.handle), CDL_OK);
  OptionsHandle options;
  cdl_options_set_solver(options.handle, "2");
  cdl_options_set_threads(options.handle, 1);
  // Heard every iteration of a whole run.
  Listener all;
  cdl_options_set_iteration_callback(options.handle, listen, &all);
  ModelHandle model;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &model.handle), CDL_OK) << cdl_last_error();
  std::int64_t iterations = 0;
  ASSERT_EQ(cdl_model_iterations(model.handle, &iterations, 1), CDL_OK);
  ASSERT_GE(iterations, 2);
  EXPECT_EQ(all.iterations.size(), static_cast<std::size_t>(iterations));
  for (std::size_t i = 0; i < all.iterations.size(); ++i) {
    EXPECT_EQ(all.iterations[i], static_cast<std::int64_t>(i + 1));
  }
  // Nonzero from the callback: cancelled at once, and no model.
  Listener stop;
  stop.stop_at = 1;
  cdl_options_set_iteration_callback(options.handle, listen, &stop);
  cdl_model* stopped = nullptr;
  EXPECT_EQ(cdl_train(data.handle, options.handle, &stopped), CDL_ERR_CANCELLED);
  EXPECT_EQ(stopped, nullptr);
  EXPECT_EQ(stop.calls, 1);
  // The cancel flag, set during the run: stopped after that iteration.
  Listener cancel;
  cancel.stop_at = 1;
  cancel.cancel = options.handle;
  cdl_options_set_iteration_callback(options.handle, listen, &cancel);
  EXPECT_EQ(cdl_train(data.handle, options.handle, &stopped), CDL_ERR_CANCELLED);
  EXPECT_EQ(cancel.calls, 1);
  // It stays set, for the search too, until reset.
  cdl_options_set_iteration_callback(options.handle, nullptr, nullptr);
  EXPECT_EQ(cdl_train(data.handle, options.handle, &stopped), CDL_ERR_CANCELLED);
  cdl_search* search = nullptr;
  EXPECT_EQ(cdl_search_c(data.handle, options.handle, 3, 0, &search), CDL_ERR_CANCELLED);
  EXPECT_EQ(search, nullptr);
  EXPECT_EQ(cdl_options_reset_cancel(options.handle), CDL_OK);
  ModelHandle again;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &again.handle), CDL_OK) << cdl_last_error();
  test::ScratchDir dir;
  ASSERT_EQ(cdl_model_save(model.handle, dir.file("first.model").c_str()), CDL_OK);
  ASSERT_EQ(cdl_model_save(again.handle, dir.file("again.model").c_str()), CDL_OK);
  EXPECT_EQ(test::read_file(dir.file("first.model")), test::read_file(dir.file("again.model")));
  EXPECT_EQ(cdl_options_cancel(nullptr), CDL_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(cdl_options_set_iteration_callback(nullptr, listen, nullptr), CDL_ERR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace cdl
