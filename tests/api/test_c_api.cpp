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

#include "cdlinear_c.h"
#include "test_util.h"

namespace cdl {
namespace {

// Handles released at the end of a scope, so that a failed ASSERT leaks
// nothing under ASan.
struct DataHandle {
  cdl_data* handle = nullptr;
  ~DataHandle() { cdl_data_free(handle); }
};
struct ModelHandle {
  cdl_model* handle = nullptr;
  ~ModelHandle() { cdl_model_free(handle); }
};
struct OptionsHandle {
  cdl_options* handle = nullptr;
  OptionsHandle() { EXPECT_EQ(cdl_options_create(&handle), CDL_OK); }
  ~OptionsHandle() { cdl_options_free(handle); }
};

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
  EXPECT_EQ(cdl_data_read(empty.c_str(), &data), CDL_ERR_OTHER);
  EXPECT_EQ(std::string(cdl_last_error()).rfind(empty + ": no instances", 0), 0u);

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

// A data file's instances as CSR arrays (0-based columns), parsed here from
// its text, and the same matrix by columns, transposed here.
struct Arrays {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> labels;
  std::vector<std::int32_t> row_ptr{0};
  std::vector<std::int32_t> col_idx;
  std::vector<double> values;
  std::vector<std::int64_t> col_ptr;
  std::vector<std::int32_t> row_idx;
  std::vector<double> col_values;
};

Arrays arrays_of(const std::string& path) {
  Arrays a;
  std::istringstream lines(test::read_file(path));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream tokens(line);
    double label = 0;
    tokens >> label;
    a.labels.push_back(label);
    for (std::string pair; tokens >> pair;) {
      const int column = std::stoi(pair) - 1;
      a.col_idx.push_back(column);
      a.values.push_back(std::stod(pair.substr(pair.find(':') + 1)));
      a.cols = std::max(a.cols, static_cast<std::size_t>(column) + 1);
    }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.col_idx.size()));
  }
  a.rows = a.labels.size();
  a.col_ptr.assign(a.cols + 1, 0);
  for (std::int32_t column : a.col_idx) ++a.col_ptr[static_cast<std::size_t>(column) + 1];
  for (std::size_t c = 0; c < a.cols; ++c) a.col_ptr[c + 1] += a.col_ptr[c];
  std::vector<std::int64_t> next(a.col_ptr.begin(), a.col_ptr.end() - 1);
  a.row_idx.resize(a.col_idx.size());
  a.col_values.resize(a.col_idx.size());
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (auto k = static_cast<std::size_t>(a.row_ptr[r]);
         k < static_cast<std::size_t>(a.row_ptr[r + 1]); ++k) {
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(a.col_idx[k])]++);
      a.row_idx[at] = static_cast<std::int32_t>(r);
      a.col_values[at] = a.values[k];
    }
  }
  return a;
}

int csr_of(const Arrays& a, cdl_data** out) {
  return cdl_data_from_csr(a.rows, a.cols, a.values.size(), a.row_ptr.data(), CDL_INT32,
                           a.col_idx.data(), CDL_INT32, a.values.data(), CDL_FLOAT64,
                           a.labels.data(), a.labels.size(), nullptr, 0, out);
}

int csc_of(const Arrays& a, cdl_data** out) {
  return cdl_data_from_csc(a.rows, a.cols, a.col_values.size(), a.col_ptr.data(), CDL_INT64,
                           a.row_idx.data(), CDL_INT32, a.col_values.data(), CDL_FLOAT64,
                           a.labels.data(), a.labels.size(), nullptr, 0, out);
}

// The model `data` trains to with LIBLINEAR's number `solver`, as text.
std::string model_text(const cdl_data* data, const char* solver, const test::ScratchDir& dir) {
  OptionsHandle options;
  cdl_options_set_solver(options.handle, solver);
  ModelHandle model;
  if (cdl_train(data, options.handle, &model.handle) != CDL_OK) return cdl_last_error();
  const std::string path = dir.file("arrays.model");
  if (cdl_model_save(model.handle, path.c_str()) != CDL_OK) return cdl_last_error();
  return test::read_file(path);
}

TEST(CApi, CsrAndCscArraysTrainToCdtrainsModelBytes) {
  test::ScratchDir dir;
  for (const auto& [file, solvers] :
       {std::pair{test::data_path("heart_scale"),
                  std::vector<const char*>{"0", "1", "2", "3", "4", "5", "6", "7", "21"}},
        std::pair{test::data_path("dna.scale"), std::vector<const char*>{"4", "2"}},
        std::pair{test::fixture_path("diabetes.svm"),
                  std::vector<const char*>{"11", "12", "13"}}}) {
    const Arrays a = arrays_of(file);
    DataHandle csr;
    DataHandle csc;
    ASSERT_EQ(csr_of(a, &csr.handle), CDL_OK) << cdl_last_error();
    ASSERT_EQ(csc_of(a, &csc.handle), CDL_OK) << cdl_last_error();
    std::size_t rows = 0;
    std::size_t features = 0;
    EXPECT_EQ(cdl_data_num_rows(csc.handle, &rows), CDL_OK);
    EXPECT_EQ(cdl_data_num_features(csc.handle, &features), CDL_OK);
    EXPECT_EQ(rows, a.rows);
    EXPECT_EQ(features, a.cols);
    for (const char* solver : solvers) {
      SCOPED_TRACE(file + " -s " + solver);
      const std::string tool_model = dir.file("tool.model");
      const auto r =
          test::run_tool("cdtrain", "-q -s " + std::string(solver) + " " + file + " " + tool_model);
      ASSERT_EQ(r.status, 0) << r.err;
      const std::string expected = test::read_file(tool_model);
      EXPECT_EQ(model_text(csr.handle, solver, dir), expected);
      EXPECT_EQ(model_text(csc.handle, solver, dir), expected);
    }
  }
}

TEST(CApi, Float32ValuesTrainAsTheirDoubles) {
  test::ScratchDir dir;
  Arrays a = arrays_of(test::data_path("heart_scale"));
  const std::vector<float> narrow(a.values.begin(), a.values.end());
  for (std::size_t k = 0; k < narrow.size(); ++k) a.values[k] = narrow[k];
  DataHandle widened;
  ASSERT_EQ(csr_of(a, &widened.handle), CDL_OK) << cdl_last_error();
  // The same numbers as float32, with 64-bit indices.
  const std::vector<std::int64_t> row_ptr(a.row_ptr.begin(), a.row_ptr.end());
  const std::vector<std::int64_t> col_idx(a.col_idx.begin(), a.col_idx.end());
  DataHandle single;
  ASSERT_EQ(cdl_data_from_csr(a.rows, a.cols, narrow.size(), row_ptr.data(), CDL_INT64,
                              col_idx.data(), CDL_INT64, narrow.data(), CDL_FLOAT32,
                              a.labels.data(), a.labels.size(), nullptr, 0, &single.handle),
            CDL_OK)
      << cdl_last_error();
  const std::string expected = model_text(widened.handle, "2", dir);
  EXPECT_EQ(expected.rfind("solver_type L2R_L2LOSS_SVC\n", 0), 0u) << expected;
  EXPECT_EQ(model_text(single.handle, "2", dir), expected);
}

TEST(CApi, InstanceWeightsOfArraysAreCdtrainsW) {
  test::ScratchDir dir;
  const Arrays a = arrays_of(test::data_path("heart_scale"));
  std::vector<double> weights;
  for (std::size_t j = 0; j < a.rows; ++j)
    weights.push_back(static_cast<double>((j * 7) % 4) * 0.5);
  DataHandle data;
  ASSERT_EQ(
      cdl_data_from_csr(a.rows, a.cols, a.values.size(), a.row_ptr.data(), CDL_INT32,
                        a.col_idx.data(), CDL_INT32, a.values.data(), CDL_FLOAT64, a.labels.data(),
                        a.labels.size(), weights.data(), weights.size(), &data.handle),
      CDL_OK)
      << cdl_last_error();
  const auto r =
      test::run_tool("cdtrain", "-q -s 3 -W " + test::fixture_path("heart_scale.weights") + " " +
                                    test::data_path("heart_scale") + " " + dir.file("tool.model"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(model_text(data.handle, "3", dir), test::read_file(dir.file("tool.model")));
}

// Three rows, four columns: row 0 has columns 0 and 2, row 1 none, row 2
// columns 1 and 3.
struct Tiny {
  std::vector<std::int64_t> indptr{0, 2, 2, 4};
  std::vector<std::int32_t> indices{0, 2, 1, 3};
  std::vector<double> values{1, 2, 3, 4};
  std::vector<double> labels{1, -1, 1};
  std::vector<double> weights;

  // cdl_data_from_csr's status; its message is cdl_last_error().
  int status() const {
    cdl_data* data = reinterpret_cast<cdl_data*>(const_cast<Tiny*>(this));
    const int result = cdl_data_from_csr(
        3, 4, values.size(), indptr.data(), CDL_INT64, indices.data(), CDL_INT32, values.data(),
        CDL_FLOAT64, labels.data(), labels.size(), weights.data(), weights.size(), &data);
    EXPECT_TRUE(result == CDL_OK || data == nullptr) << "a failed call left a handle";
    cdl_data_free(data);
    return result;
  }
};

TEST(CApi, MalformedArraysAreDataErrorsNamingRowAndEntry) {
  const double nan = std::nan("");
  const auto refused = [](const Tiny& t, const std::string& message) {
    EXPECT_EQ(t.status(), CDL_ERR_DATA);
    EXPECT_EQ(std::string(cdl_last_error()), message);
  };
  EXPECT_EQ(Tiny{}.status(), CDL_OK) << cdl_last_error();
  Tiny t;
  t.indptr[0] = 1;
  refused(t, "CSR: indptr[0] is 1, not 0");
  t = Tiny{};
  t.indptr[2] = 1;
  refused(t, "CSR row 1: indptr[2] = 1 is less than indptr[1] = 2");
  t = Tiny{};
  t.indices[3] = 4;
  refused(t, "CSR row 2, entry 1: column index 4 is not below the 4 columns");
  t = Tiny{};
  t.indices[1] = -1;
  refused(t, "CSR row 0, entry 1: column index -1 is negative");
  t = Tiny{};
  t.indices = {2, 0, 1, 3};
  refused(t, "CSR row 0, entry 1: column index 0 not greater than the previous index 2");
  t = Tiny{};
  t.indices = {0, 0, 1, 3};
  refused(t, "CSR row 0, entry 1: column index 0 not greater than the previous index 0");
  t = Tiny{};
  t.values[2] = nan;
  refused(t, "CSR row 2, entry 0: value nan is not finite");
  t = Tiny{};
  t.values[1] = HUGE_VAL;
  refused(t, "CSR row 0, entry 1: value inf is not finite");
  t = Tiny{};
  t.labels.pop_back();
  refused(t, "CSR: 2 labels for 3 rows");
  t = Tiny{};
  t.weights = {1, -0.5, 1};
  refused(t, "array row 1: instance weight -0.5 is not a finite number >= 0");
  t = Tiny{};
  t.weights = {1, 1};
  refused(t, "CSR: 2 instance weights for 3 rows");

  // A label that is not an integer: refused by a classification, as the
  // row's error.
  t = Tiny{};
  t.labels[2] = 0.5;
  DataHandle data;
  ASSERT_EQ(
      cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                        t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data.handle),
      CDL_OK);
  cdl_model* model = nullptr;
  EXPECT_EQ(cdl_train(data.handle, nullptr, &model), CDL_ERR_DATA);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(std::string(cdl_last_error()), "array row 2: label 0.5 is not an integer class label");

  // CSC names the column.
  const std::vector<std::int32_t> col_ptr{0, 1, 2, 3, 4};
  const std::vector<std::int64_t> row_idx{0, 3, 0, 2};
  DataHandle csc;
  EXPECT_EQ(
      cdl_data_from_csc(3, 4, 4, col_ptr.data(), CDL_INT32, row_idx.data(), CDL_INT64,
                        t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &csc.handle),
      CDL_ERR_DATA);
  EXPECT_EQ(csc.handle, nullptr);
  EXPECT_EQ(std::string(cdl_last_error()),
            "CSC column 1, entry 0: row index 3 is not below the 3 rows");
}

TEST(CApi, ArraysThatAreNullOrOfUnknownTypeAreInvalidArguments) {
  const Tiny t;
  cdl_data* data = nullptr;
  const auto invalid = [&](int status, const std::string& message) {
    EXPECT_EQ(status, CDL_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(cdl_last_error()), message);
    EXPECT_EQ(data, nullptr);
  };
  invalid(cdl_data_from_csr(3, 4, 4, nullptr, CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indptr is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, nullptr, CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indices is NULL");
  invalid(cdl_data_from_csc(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            nullptr, CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csc: values is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, nullptr, 3, nullptr, 0, &data),
          "cdl_data_from_csr: labels is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 3, &data),
          "cdl_data_from_csr: instance_weights is NULL");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), 2, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indptr_type 2 is neither CDL_INT32 nor CDL_INT64");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), -1,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: indices_type -1 is neither CDL_INT32 nor CDL_INT64");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), 7, t.labels.data(), 3, nullptr, 0, &data),
          "cdl_data_from_csr: value_type 7 is neither CDL_FLOAT64 nor CDL_FLOAT32");
  invalid(cdl_data_from_csr(3, 4, 4, t.indptr.data(), CDL_INT64, t.indices.data(), CDL_INT32,
                            t.values.data(), CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, nullptr),
          "cdl_data_from_csr: out is NULL");
  // No nonzero: NULL indices and values are fine.
  const std::vector<std::int64_t> empty_rows{0, 0, 0, 0};
  DataHandle empty;
  EXPECT_EQ(cdl_data_from_csr(3, 4, 0, empty_rows.data(), CDL_INT64, nullptr, CDL_INT32, nullptr,
                              CDL_FLOAT64, t.labels.data(), 3, nullptr, 0, &empty.handle),
            CDL_OK)
      << cdl_last_error();
}

// The numbers after "w" in a model file: the weights, row after row.
std::vector<double> weights_in(const std::string& model_text) {
  std::istringstream in(model_text.substr(model_text.find("\nw\n") + 3));
  std::vector<double> out;
  for (double w; in >> w;) out.push_back(w);
  return out;
}

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

TEST(CApi, DecisionValuesAreWeightsTimesFeaturesOnAnyThreads) {
  test::ScratchDir dir;
  const std::string file = test::data_path("dna.scale.t");
  const Arrays a = arrays_of(file);
  DataHandle data;
  ASSERT_EQ(csr_of(a, &data.handle), CDL_OK) << cdl_last_error();
  const std::string path = dir.file("dna.model");
  ASSERT_EQ(
      test::run_tool("cdtrain", "-q -s 2 -B 1 " + test::data_path("dna.scale") + " " + path).status,
      0);
  ModelHandle model;
  ASSERT_EQ(cdl_model_load(path.c_str(), &model.handle), CDL_OK);
  const std::vector<double> w = weights_in(test::read_file(path));
  const std::size_t nr_w = 3;
  const std::size_t features = w.size() / nr_w - 1;  // the last row is the bias's
  std::vector<double> one(a.rows * nr_w);
  std::vector<double> two(a.rows * nr_w);
  ASSERT_EQ(cdl_model_decision_values(model.handle, data.handle, 1, one.data(), one.size()), CDL_OK)
      << cdl_last_error();
  ASSERT_EQ(cdl_model_decision_values(model.handle, data.handle, 2, two.data(), two.size()),
            CDL_OK);
  EXPECT_EQ(one, two);
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (std::size_t k = 0; k < nr_w; ++k) {
      double expected = w[features * nr_w + k];  // bias 1
      for (auto t = static_cast<std::size_t>(a.row_ptr[r]);
           t < static_cast<std::size_t>(a.row_ptr[r + 1]); ++t) {
        const auto column = static_cast<std::size_t>(a.col_idx[t]);
        if (column < features) expected += w[column * nr_w + k] * a.values[t];
      }
      EXPECT_NEAR(one[r * nr_w + k], expected, 1e-12 * (1 + std::fabs(expected)))
          << "instance " << r << ", class " << k;
    }
  }
  // No probabilities for an SVM.
  int has = -1;
  EXPECT_EQ(cdl_model_has_probabilities(model.handle, &has), CDL_OK);
  EXPECT_EQ(has, 0);
  EXPECT_EQ(cdl_model_probabilities(model.handle, data.handle, 0, one.data(), one.size()),
            CDL_ERR_CONFIG);
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
