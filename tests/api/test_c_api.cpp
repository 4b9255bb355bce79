// The C interface (cdlinear_c.h), used as a C program uses it: its models
// are cdtrain's byte for byte, its predictions cdpredict's, every failure a
// status and a message (the tools' own, for data and options), and a NULL
// anywhere a status, never a crash.

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

struct Case {
  const char* name;
  std::string data;
  std::string flags;                  // cdtrain's
  void (*set)(cdl_options* options);  // the same options through the C calls
};

std::vector<Case> cases() {
  const std::string heart = test::data_path("heart_scale");
  const std::string diabetes = test::fixture_path("diabetes.svm");
  return {
      {"default", heart, "", [](cdl_options*) {}},
      {"s2_bias", heart, "-s 2 -B 1",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "2");
         cdl_options_set_bias(o, 1);
       }},
      {"s1_c_eps", heart, "-s 1 -c 4 -e 0.01",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "1");
         cdl_options_set_c(o, 4);
         cdl_options_set_eps(o, 0.01);
       }},
      {"s6", heart, "-s 6", [](cdl_options* o) { cdl_options_set_solver(o, "6"); }},
      {"cd_l1", heart, "-s cd -r l1",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "cd");
         cdl_options_set_regularizer(o, "l1");
       }},
      {"lr_class_weights", heart, "-l lr -w1 2 -w-1 0.5",
       [](cdl_options* o) {
         cdl_options_set_loss(o, "lr");
         cdl_options_set_class_weight(o, 1, 3);  // replaced below
         cdl_options_set_class_weight(o, 1, 2);
         cdl_options_set_class_weight(o, -1, 0.5);
       }},
      {"instance_weights", heart,
       "-s dcd -l l1svm -c 0.5 -W " + test::fixture_path("heart_scale.weights"),
       [](cdl_options* o) {
         cdl_options_set_solver(o, "dcd");
         cdl_options_set_loss(o, "l1svm");
         cdl_options_set_c(o, 0.5);
         std::vector<double> weights;
         for (int j = 0; j < 270; ++j) weights.push_back(((j * 7) % 4) * 0.5);
         cdl_options_set_instance_weights(o, weights.data(), weights.size());
       }},
      {"online_seed_threads", heart, "-s online --seed 7 --max-iter 20 -m 1",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "online");
         cdl_options_set_seed(o, 7);
         cdl_options_set_max_iter(o, 20);
         cdl_options_set_threads(o, 1);
       }},
      {"oneclass_nu", heart, "-s 21 -n 0.1",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "21");
         cdl_options_set_nu(o, 0.1);
       }},
      {"free_bias", heart, "-s 2 -B 1 -R",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "2");
         cdl_options_set_bias(o, 1);
         cdl_options_set_free_bias(o, 1);
       }},
      {"dcd_select_no_shrink", heart, "-s dcd --select ada-gap --no-shrink --exact-gaps",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "dcd");
         cdl_options_set_select(o, "ada-gap");
         cdl_options_set_shrink(o, 0);
         cdl_options_set_exact_gaps(o, 1);
       }},
      {"dcd_fixed_parts", heart, "-s dcd --partitions 2 --fixed-parts --gap-tol 0.01 -m 2",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "dcd");
         cdl_options_set_partitions(o, 2);
         cdl_options_set_fixed_parts(o, 1);
         cdl_options_set_gap_tol(o, 0.01);
         cdl_options_set_threads(o, 2);
       }},
      {"cd_sigma_beta", heart, "-s cd -l lr --sigma 0.1 --beta 0.3",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "cd");
         cdl_options_set_loss(o, "lr");
         cdl_options_set_sigma(o, 0.1);
         cdl_options_set_beta(o, 0.3);
       }},
      {"pegasos_batch", heart, "-s pegasos -k 4 --max-iter 500",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "pegasos");
         cdl_options_set_pegasos_batch(o, 4);
         cdl_options_set_max_iter(o, 500);
       }},
      {"pdcd_steps", heart, "-s pdcd --pd-sigma 2 --tau-factor 0.5",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "pdcd");
         cdl_options_set_pd_sigma(o, 2);
         cdl_options_set_tau_factor(o, 0.5);
       }},
      {"multiclass", test::data_path("dna.scale"), "-s 4",
       [](cdl_options* o) { cdl_options_set_solver(o, "4"); }},
      {"svr", diabetes, "-s 11 -p 0.2 -B 1",
       [](cdl_options* o) {
         cdl_options_set_solver(o, "11");
         cdl_options_set_svr_epsilon(o, 0.2);
         cdl_options_set_bias(o, 1);
       }},
  };
}

TEST(CApi, ModelIsCdtrainsByteForByte) {
  test::ScratchDir dir;
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(c.name) + ": cdtrain " + c.flags);
    const std::string tool_model = dir.file(std::string(c.name) + ".tool.model");
    const auto r = test::run_tool("cdtrain", "-q " + c.flags + " " + c.data + " " + tool_model);
    ASSERT_EQ(r.status, 0) << r.err;
    DataHandle data;
    ASSERT_EQ(cdl_data_read(c.data.c_str(), &data.handle), CDL_OK) << cdl_last_error();
    OptionsHandle options;
    c.set(options.handle);
    ModelHandle model;
    ASSERT_EQ(cdl_train(data.handle, options.handle, &model.handle), CDL_OK) << cdl_last_error();
    const std::string saved = dir.file(std::string(c.name) + ".c.model");
    ASSERT_EQ(cdl_model_save(model.handle, saved.c_str()), CDL_OK) << cdl_last_error();
    const std::string expected = test::read_file(tool_model);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(test::read_file(saved), expected);
    // Loaded and saved again: the same bytes.
    ModelHandle loaded;
    ASSERT_EQ(cdl_model_load(saved.c_str(), &loaded.handle), CDL_OK) << cdl_last_error();
    const std::string again = dir.file(std::string(c.name) + ".again.model");
    ASSERT_EQ(cdl_model_save(loaded.handle, again.c_str()), CDL_OK) << cdl_last_error();
    EXPECT_EQ(test::read_file(again), expected);
  }
}

TEST(CApi, NullOptionsAreTheDefaults) {
  test::ScratchDir dir;
  DataHandle data;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &data.handle), CDL_OK);
  ModelHandle model;
  ASSERT_EQ(cdl_train(data.handle, nullptr, &model.handle), CDL_OK) << cdl_last_error();
  ASSERT_EQ(cdl_model_save(model.handle, dir.file("c.model").c_str()), CDL_OK);
  const auto r = test::run_tool(
      "cdtrain", "-q " + test::data_path("heart_scale") + " " + dir.file("tool.model"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(test::read_file(dir.file("c.model")), test::read_file(dir.file("tool.model")));
}

TEST(CApi, PredictionsAreCdpredicts) {
  test::ScratchDir dir;
  const std::string dna = test::data_path("dna.scale");
  const std::string model_path = dir.file("m.model");
  ASSERT_EQ(test::run_tool("cdtrain", "-q -s 2 " + dna + " " + model_path).status, 0);
  const std::string test_file = test::data_path("dna.scale.t");
  const auto r = test::run_tool("cdpredict", test_file + " " + model_path + " " + dir.file("out"));
  ASSERT_EQ(r.status, 0) << r.err;
  ModelHandle model;
  ASSERT_EQ(cdl_model_load(model_path.c_str(), &model.handle), CDL_OK) << cdl_last_error();
  DataHandle data;
  ASSERT_EQ(cdl_data_read(test_file.c_str(), &data.handle), CDL_OK) << cdl_last_error();
  std::size_t rows = 0;
  ASSERT_EQ(cdl_data_num_rows(data.handle, &rows), CDL_OK);
  std::vector<double> predicted(rows);
  ASSERT_EQ(cdl_model_predict(model.handle, data.handle, 0, predicted.data(), rows), CDL_OK)
      << cdl_last_error();
  std::istringstream lines(test::read_file(dir.file("out")));
  std::size_t row = 0;
  for (std::string line; std::getline(lines, line); ++row) {
    ASSERT_LT(row, rows);
    EXPECT_EQ(std::stod(line), predicted[row]) << "instance " << row + 1;
  }
  EXPECT_EQ(row, rows);
  // A buffer one short: a status, and nothing written.
  std::vector<double> short_buffer(rows - 1, -7.0);
  EXPECT_EQ(cdl_model_predict(model.handle, data.handle, 1, short_buffer.data(), rows - 1),
            CDL_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(cdl_last_error()), "cdl_model_predict: the buffer holds " +
                                               std::to_string(rows - 1) + " values, " +
                                               std::to_string(rows) + " needed");
  for (double value : short_buffer) EXPECT_EQ(value, -7.0);
}

TEST(CApi, DataAndModelDescribeThemselves) {
  // A file written here, whose numbers the test knows.
  test::ScratchDir dir;
  const std::string path = dir.write("small.svm", "3 1:1 4:2\n-1 2:0.5\n3 7:1\n5 1:-1\n");
  DataHandle data;
  ASSERT_EQ(cdl_data_read(path.c_str(), &data.handle), CDL_OK) << cdl_last_error();
  std::size_t rows = 0;
  std::size_t features = 0;
  EXPECT_EQ(cdl_data_num_rows(data.handle, &rows), CDL_OK);
  EXPECT_EQ(cdl_data_num_features(data.handle, &features), CDL_OK);
  EXPECT_EQ(rows, 4u);
  EXPECT_EQ(features, 7u);
  std::vector<double> labels(4);
  EXPECT_EQ(cdl_data_labels(data.handle, labels.data(), labels.size()), CDL_OK);
  EXPECT_EQ(labels, (std::vector<double>{3, -1, 3, 5}));

  OptionsHandle options;
  cdl_options_set_solver(options.handle, "2");
  cdl_options_set_bias(options.handle, 0.5);
  ModelHandle model;
  ASSERT_EQ(cdl_train(data.handle, options.handle, &model.handle), CDL_OK) << cdl_last_error();
  int regression = -1;
  std::size_t classes = 0;
  std::size_t model_features = 0;
  double bias = 0;
  const char* solver_type = nullptr;
  EXPECT_EQ(cdl_model_is_regression(model.handle, &regression), CDL_OK);
  EXPECT_EQ(cdl_model_num_labels(model.handle, &classes), CDL_OK);
  EXPECT_EQ(cdl_model_num_features(model.handle, &model_features), CDL_OK);
  EXPECT_EQ(cdl_model_bias(model.handle, &bias), CDL_OK);
  EXPECT_EQ(cdl_model_solver_type(model.handle, &solver_type), CDL_OK);
  EXPECT_EQ(regression, 0);
  EXPECT_EQ(classes, 3u);
  EXPECT_EQ(model_features, 7u);
  EXPECT_EQ(bias, 0.5);
  ASSERT_NE(solver_type, nullptr);
  EXPECT_EQ(std::string(solver_type), "L2R_L2LOSS_SVC");
  std::vector<int> model_labels(3);
  EXPECT_EQ(cdl_model_labels(model.handle, model_labels.data(), 3), CDL_OK);
  EXPECT_EQ(model_labels, (std::vector<int>{3, -1, 5}));  // in order of appearance
  EXPECT_EQ(cdl_model_labels(model.handle, model_labels.data(), 2), CDL_ERR_INVALID_ARGUMENT);

  ModelHandle ridge;
  cdl_options_set_solver(options.handle, "11");
  ASSERT_EQ(cdl_train(data.handle, options.handle, &ridge.handle), CDL_OK) << cdl_last_error();
  EXPECT_EQ(cdl_model_is_regression(ridge.handle, &regression), CDL_OK);
  EXPECT_EQ(cdl_model_num_labels(ridge.handle, &classes), CDL_OK);
  EXPECT_EQ(regression, 1);
  EXPECT_EQ(classes, 0u);
  EXPECT_EQ(cdl_model_nr_class(ridge.handle, &classes), CDL_OK);
  EXPECT_EQ(classes, 2u);  // LIBLINEAR's nr_class of a regression
  // No labels to give: a NULL buffer of capacity 0 is fine.
  EXPECT_EQ(cdl_model_labels(ridge.handle, nullptr, 0), CDL_OK);
}

TEST(CApi, FailuresAreStatusesWithTheToolsMessages) {
  test::ScratchDir dir;
  // Malformed data: CDL_ERR_DATA with cdtrain's message, and no handle.
  const std::string bad = dir.write("bad.svm", "+1 1:0.5 2:1\n-1 3:0.25 2:1\n");
  cdl_data* data = reinterpret_cast<cdl_data*>(&dir);  // not NULL: the call must reset it
  EXPECT_EQ(cdl_data_read(bad.c_str(), &data), CDL_ERR_DATA);
  EXPECT_EQ(data, nullptr);
  const std::string message = cdl_last_error();
  EXPECT_EQ(message.rfind(bad + ":2: ", 0), 0u) << message;
  const auto r = test::run_tool("cdtrain", bad + " " + dir.file("m"));
  EXPECT_EQ(r.err, "cdtrain: error: " + message + "\n");
  // A file that is not there, and one with no instance.
  EXPECT_EQ(cdl_data_read(dir.file("absent.svm").c_str(), &data), CDL_ERR_IO);
  EXPECT_NE(std::string(cdl_last_error()).find("absent.svm"), std::string::npos);
  const std::string empty = dir.write("empty.svm", "");
  EXPECT_EQ(cdl_data_read(empty.c_str(), &data), CDL_ERR_DATA);
  EXPECT_EQ(std::string(cdl_last_error()).rfind(empty + ": no instances", 0), 0u);
  const std::string gzipped = dir.write("gzipped.svm", std::string("\x1f\x8b\x08\x00", 4));
  EXPECT_EQ(cdl_data_read(gzipped.c_str(), &data), CDL_ERR_DATA);
  EXPECT_NE(std::string(cdl_last_error()).find("compressed"), std::string::npos)
      << cdl_last_error();

  // Labels that are not integers cannot train a classifier.
  DataHandle real;
  ASSERT_EQ(cdl_data_read(dir.write("real.svm", "1 1:1\n2.5 1:2\n").c_str(), &real.handle), CDL_OK);
  cdl_model* model = nullptr;
  EXPECT_EQ(cdl_train(real.handle, nullptr, &model), CDL_ERR_DATA);
  EXPECT_EQ(model, nullptr);
  EXPECT_NE(std::string(cdl_last_error()).find(":2: label 2.5 is not an integer"),
            std::string::npos)
      << cdl_last_error();

  // Options that cannot train: CDL_ERR_CONFIG.
  DataHandle heart;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &heart.handle), CDL_OK);
  const auto config_error = [&](void (*set)(cdl_options*)) {
    OptionsHandle options;
    set(options.handle);
    cdl_model* m = nullptr;
    const int status = cdl_train(heart.handle, options.handle, &m);
    cdl_model_free(m);
    EXPECT_EQ(status, CDL_ERR_CONFIG);
    return std::string(cdl_last_error());
  };
  EXPECT_EQ(config_error([](cdl_options* o) {
              cdl_options_set_solver(o, "lbfgs");
            }).rfind("solver: expected a LIBLINEAR number", 0),
            0u);
  EXPECT_EQ(config_error([](cdl_options* o) { cdl_options_set_c(o, -1); }), "C must be positive");
  EXPECT_EQ(config_error([](cdl_options* o) { cdl_options_set_loss(o, "hinge2"); }),
            "loss: unknown loss 'hinge2'");
  EXPECT_EQ(
      config_error([](cdl_options* o) {
        const double weights[2] = {1, 2};
        cdl_options_set_instance_weights(o, weights, 2);
      }),
      "instance_weights: 2 weights for the 270 instances of " + test::data_path("heart_scale"));

  // A model that cannot be written: CDL_ERR_IO, and no file.
  ModelHandle trained;
  ASSERT_EQ(cdl_train(heart.handle, nullptr, &trained.handle), CDL_OK);
  const std::string unwritable = dir.file("no/such/dir/m.model");
  EXPECT_EQ(cdl_model_save(trained.handle, unwritable.c_str()), CDL_ERR_IO);
  EXPECT_FALSE(std::filesystem::exists(unwritable));
  // A malformed model: CDL_ERR_DATA naming its line.
  const std::string bad_model =
      dir.write("bad.model", "solver_type L2R_L2LOSS_SVC\nnr_class two\nlabel 1 -1\n");
  EXPECT_EQ(cdl_model_load(bad_model.c_str(), &model), CDL_ERR_DATA);
  EXPECT_EQ(std::string(cdl_last_error()).rfind(bad_model + ":2: ", 0), 0u) << cdl_last_error();
  EXPECT_EQ(cdl_model_load(dir.file("absent.model").c_str(), &model), CDL_ERR_IO);
}

TEST(CApi, NullHandlesAndPointersAreStatusesNotCrashes) {
  DataHandle data;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &data.handle), CDL_OK);
  ModelHandle model;
  ASSERT_EQ(cdl_train(data.handle, nullptr, &model.handle), CDL_OK);
  std::size_t size = 0;
  double number = 0;
  int integer = 0;
  const char* text = nullptr;
  std::vector<double> doubles(270);
  cdl_data* no_data = nullptr;
  cdl_model* no_model = nullptr;
  cdl_options* no_options = nullptr;
  const auto invalid = [](int status, const std::string& expected) {
    EXPECT_EQ(status, CDL_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(cdl_last_error()), expected);
  };
  invalid(cdl_data_read(nullptr, &no_data), "cdl_data_read: path is NULL");
  invalid(cdl_data_read("x", nullptr), "cdl_data_read: out is NULL");
  invalid(cdl_data_num_rows(nullptr, &size), "cdl_data_num_rows: data is NULL");
  invalid(cdl_data_num_rows(data.handle, nullptr), "cdl_data_num_rows: out is NULL");
  invalid(cdl_data_num_features(nullptr, &size), "cdl_data_num_features: data is NULL");
  invalid(cdl_data_borrowed(nullptr, &integer), "cdl_data_borrowed: data is NULL");
  invalid(cdl_data_borrowed(data.handle, nullptr), "cdl_data_borrowed: out is NULL");
  integer = 1;
  EXPECT_EQ(cdl_data_borrowed(data.handle, &integer), CDL_OK);
  EXPECT_EQ(integer, 0);  // read from a file
  invalid(cdl_data_labels(nullptr, doubles.data(), 270), "cdl_data_labels: data is NULL");
  invalid(cdl_data_labels(data.handle, nullptr, 270), "cdl_data_labels: out is NULL");
  invalid(cdl_options_create(nullptr), "cdl_options_create: out is NULL");
  invalid(cdl_options_set_solver(no_options, "2"), "cdl_options_set_solver: options is NULL");
  invalid(cdl_options_set_loss(no_options, "lr"), "cdl_options_set_loss: options is NULL");
  invalid(cdl_options_set_regularizer(no_options, "l1"),
          "cdl_options_set_regularizer: options is NULL");
  invalid(cdl_options_set_c(no_options, 1), "cdl_options_set_c: options is NULL");
  invalid(cdl_options_set_eps(no_options, 1), "cdl_options_set_eps: options is NULL");
  invalid(cdl_options_set_bias(no_options, 1), "cdl_options_set_bias: options is NULL");
  invalid(cdl_options_set_class_weight(no_options, 1, 1),
          "cdl_options_set_class_weight: options is NULL");
  invalid(cdl_options_set_instance_weights(no_options, doubles.data(), 1),
          "cdl_options_set_instance_weights: options is NULL");
  invalid(cdl_options_set_threads(no_options, 1), "cdl_options_set_threads: options is NULL");
  invalid(cdl_options_set_seed(no_options, 1), "cdl_options_set_seed: options is NULL");
  invalid(cdl_options_set_max_iter(no_options, 1), "cdl_options_set_max_iter: options is NULL");
  invalid(cdl_options_set_svr_epsilon(no_options, 1),
          "cdl_options_set_svr_epsilon: options is NULL");
  {
    OptionsHandle options;
    invalid(cdl_options_set_instance_weights(options.handle, nullptr, 3),
            "cdl_options_set_instance_weights: weights is NULL");
  }
  invalid(cdl_train(nullptr, nullptr, &no_model), "cdl_train: data is NULL");
  invalid(cdl_train(data.handle, nullptr, nullptr), "cdl_train: out is NULL");
  invalid(cdl_model_load(nullptr, &no_model), "cdl_model_load: path is NULL");
  invalid(cdl_model_load("x", nullptr), "cdl_model_load: out is NULL");
  invalid(cdl_model_save(nullptr, "x"), "cdl_model_save: model is NULL");
  invalid(cdl_model_save(model.handle, nullptr), "cdl_model_save: path is NULL");
  invalid(cdl_model_is_regression(nullptr, &integer), "cdl_model_is_regression: model is NULL");
  invalid(cdl_model_num_labels(nullptr, &size), "cdl_model_num_labels: model is NULL");
  invalid(cdl_model_nr_class(nullptr, &size), "cdl_model_nr_class: model is NULL");
  invalid(cdl_model_nr_w(nullptr, &size), "cdl_model_nr_w: model is NULL");
  invalid(cdl_model_num_weights(nullptr, &size), "cdl_model_num_weights: model is NULL");
  invalid(cdl_model_weights(nullptr, doubles.data(), 270), "cdl_model_weights: model is NULL");
  invalid(cdl_model_weights(model.handle, nullptr, 270), "cdl_model_weights: out is NULL");
  invalid(cdl_model_rho(nullptr, &number), "cdl_model_rho: model is NULL");
  invalid(cdl_model_num_problems(nullptr, &size), "cdl_model_num_problems: model is NULL");
  std::int64_t iterations = 0;
  invalid(cdl_model_iterations(nullptr, &iterations, 1), "cdl_model_iterations: model is NULL");
  invalid(cdl_model_iterations(model.handle, nullptr, 1), "cdl_model_iterations: out is NULL");
  invalid(cdl_model_objectives(nullptr, &number, 1), "cdl_model_objectives: model is NULL");
  invalid(cdl_model_has_probabilities(nullptr, &integer),
          "cdl_model_has_probabilities: model is NULL");
  invalid(cdl_model_decision_values(nullptr, data.handle, 0, doubles.data(), 270),
          "cdl_model_decision_values: model is NULL");
  invalid(cdl_model_probabilities(model.handle, nullptr, 0, doubles.data(), 270),
          "cdl_model_probabilities: data is NULL");
  invalid(cdl_options_set_nu(no_options, 0.5), "cdl_options_set_nu: options is NULL");
  invalid(cdl_options_set_free_bias(no_options, 1), "cdl_options_set_free_bias: options is NULL");
  invalid(cdl_options_set_select(no_options, "perm"), "cdl_options_set_select: options is NULL");
  invalid(cdl_options_set_partitions(no_options, 2), "cdl_options_set_partitions: options is NULL");
  invalid(cdl_options_set_fixed_parts(no_options, 1),
          "cdl_options_set_fixed_parts: options is NULL");
  invalid(cdl_options_set_shrink(no_options, 0), "cdl_options_set_shrink: options is NULL");
  invalid(cdl_options_set_exact_gaps(no_options, 1), "cdl_options_set_exact_gaps: options is NULL");
  invalid(cdl_options_set_gap_tol(no_options, 1), "cdl_options_set_gap_tol: options is NULL");
  invalid(cdl_options_set_sigma(no_options, 0.1), "cdl_options_set_sigma: options is NULL");
  invalid(cdl_options_set_beta(no_options, 0.5), "cdl_options_set_beta: options is NULL");
  invalid(cdl_options_set_pd_sigma(no_options, 1), "cdl_options_set_pd_sigma: options is NULL");
  invalid(cdl_options_set_tau_factor(no_options, 0.5),
          "cdl_options_set_tau_factor: options is NULL");
  invalid(cdl_options_set_pegasos_batch(no_options, 2),
          "cdl_options_set_pegasos_batch: options is NULL");
  invalid(cdl_options_set_stratified(no_options, 1), "cdl_options_set_stratified: options is NULL");
  invalid(cdl_options_set_initial_model(no_options, model.handle),
          "cdl_options_set_initial_model: options is NULL");
  invalid(cdl_options_set_progress(no_options, nullptr, nullptr),
          "cdl_options_set_progress: options is NULL");
  invalid(cdl_model_labels(nullptr, &integer, 1), "cdl_model_labels: model is NULL");
  invalid(cdl_model_num_features(nullptr, &size), "cdl_model_num_features: model is NULL");
  invalid(cdl_model_bias(nullptr, &number), "cdl_model_bias: model is NULL");
  invalid(cdl_model_bias(model.handle, nullptr), "cdl_model_bias: out is NULL");
  invalid(cdl_model_solver_type(nullptr, &text), "cdl_model_solver_type: model is NULL");
  invalid(cdl_model_predict(nullptr, data.handle, 0, doubles.data(), 270),
          "cdl_model_predict: model is NULL");
  invalid(cdl_model_predict(model.handle, nullptr, 0, doubles.data(), 270),
          "cdl_model_predict: data is NULL");
  invalid(cdl_model_predict(model.handle, data.handle, 0, nullptr, 270),
          "cdl_model_predict: out is NULL");
  // Freeing NULL does nothing, as free() does.
  EXPECT_EQ(cdl_data_free(nullptr), CDL_OK);
  EXPECT_EQ(cdl_model_free(nullptr), CDL_OK);
  EXPECT_EQ(cdl_options_free(nullptr), CDL_OK);
}

TEST(CApi, LastErrorIsPerThread) {
  cdl_data* data = nullptr;
  ASSERT_EQ(cdl_data_read(nullptr, &data), CDL_ERR_INVALID_ARGUMENT);
  std::string other_before;
  std::string other_after;
  std::thread other([&] {
    other_before = cdl_last_error();
    cdl_model* model = nullptr;
    EXPECT_EQ(cdl_model_load(nullptr, &model), CDL_ERR_INVALID_ARGUMENT);
    other_after = cdl_last_error();
  });
  other.join();
  EXPECT_EQ(other_before, "");
  EXPECT_EQ(other_after, "cdl_model_load: path is NULL");
  EXPECT_EQ(std::string(cdl_last_error()), "cdl_data_read: path is NULL");
  // A call that succeeds leaves the message.
  std::size_t rows = 0;
  cdl_data* heart = nullptr;
  ASSERT_EQ(cdl_data_read(test::data_path("heart_scale").c_str(), &heart), CDL_OK);
  EXPECT_EQ(cdl_data_num_rows(heart, &rows), CDL_OK);
  cdl_data_free(heart);
  EXPECT_EQ(std::string(cdl_last_error()), "cdl_data_read: path is NULL");
}

// The header is installed alone and read by C compilers: it may include
// <stddef.h> and <stdint.h> only, and holds no C++ comment.
TEST(CApi, HeaderIncludesOnlyStddefAndStdint) {
  const std::string header =
      std::filesystem::path(test::absolute_data_path("")).parent_path().parent_path().string() +
      "/src/cdlinear_c.h";
  const std::string text = test::read_file(header);
  ASSERT_FALSE(text.empty()) << header;
  std::istringstream lines(text);
  int includes = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("#include", 0) == 0) {
      ++includes;
      EXPECT_TRUE(line == "#include <stddef.h>" || line == "#include <stdint.h>") << line;
    }
  }
  EXPECT_EQ(includes, 2);
  EXPECT_EQ(text.find("//"), std::string::npos);
}

}  // namespace
}  // namespace cdl
