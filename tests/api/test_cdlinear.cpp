// The library interface (cdlinear.h): its models are cdtrain's byte for
// byte, its predictions cdpredict's, its errors the tools' messages as
// cdlinear:: exceptions, and the header stands alone.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cdlinear.h"
#include "test_util.h"

namespace cdl {
namespace {

struct Case {
  const char* name;
  std::string data;                // in data/ or tests/fixtures/
  cdlinear::TrainOptions options;  // the library's
  std::string flags;               // cdtrain's for the same run
};

cdlinear::TrainOptions options(const std::string& solver, const std::string& loss = "",
                               double C = 1, double bias = -1) {
  cdlinear::TrainOptions o;
  o.solver = solver;
  o.loss = loss;
  o.C = C;
  o.bias = bias;
  return o;
}

std::vector<Case> cases() {
  const std::string heart = test::data_path("heart_scale");
  cdlinear::TrainOptions weighted = options("cdper", "lr");
  weighted.class_weights = {{1, 2.0}, {-1, 0.5}};
  cdlinear::TrainOptions l1 = options("cd");
  l1.regularizer = "l1";
  cdlinear::TrainOptions tight = options("tron", "", 4, 1);
  tight.eps = 1e-4;
  tight.threads = 1;
  cdlinear::TrainOptions svr = options("cdper", "svr2", 1, 1);
  svr.svr_epsilon = 0.2;
  cdlinear::TrainOptions instance = options("dcd", "l1svm", 0.5);
  instance.instance_weights.clear();
  for (int j = 0; j < 270; ++j) instance.instance_weights.push_back(((j * 7) % 4) * 0.5);
  cdlinear::TrainOptions seeded = options("online");
  seeded.seed = 7;
  seeded.max_iter = 20;
  return {
      {"default", heart, cdlinear::TrainOptions{}, ""},
      {"liblinear_2", heart, options("2"), "-s 2"},
      {"liblinear_1", heart, options("1"), "-s 1"},
      {"liblinear_5", heart, options("5"), "-s 5"},
      {"tron_bias_eps", heart, tight, "-s tron -c 4 -B 1 -e 1e-4 -m 1"},
      {"dcd_l1svm_bias", heart, options("dcd", "l1svm", 0.5, 1), "-s dcd -l l1svm -c 0.5 -B 1"},
      {"lr_weights", heart, weighted, "-l lr -w1 2 -w-1 0.5"},
      {"instance_weights", heart, instance,
       "-s dcd -l l1svm -c 0.5 -W " + test::fixture_path("heart_scale.weights")},
      {"l1_cd", heart, l1, "-s cd -r l1"},
      {"online_seed", heart, seeded, "-s online --seed 7 --max-iter 20"},
      {"multiclass", test::data_path("dna.scale"), options("2", "", 1, 1), "-s 2 -B 1"},
      {"ridge", test::fixture_path("diabetes.svm"), options("cdper", "sq"), "-l sq"},
      {"svr_bias", test::fixture_path("diabetes.svm"), svr, "-l svr2 -p 0.2 -B 1"},
  };
}

TEST(Library, ModelIsCdtrainsByteForByte) {
  test::ScratchDir dir;
  for (const Case& c : cases()) {
    SCOPED_TRACE(std::string(c.name) + ": cdtrain " + c.flags);
    const std::string tool_model = dir.file(std::string(c.name) + ".tool.model");
    const auto r = test::run_tool("cdtrain", "-q " + c.flags + " " + c.data + " " + tool_model);
    ASSERT_EQ(r.status, 0) << r.err;
    const cdlinear::Data data = cdlinear::Data::read(c.data);
    const cdlinear::Model model = cdlinear::train(data, c.options);
    const std::string library_model = dir.file(std::string(c.name) + ".library.model");
    model.save(library_model);
    const std::string expected = test::read_file(tool_model);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(test::read_file(library_model), expected);
    EXPECT_EQ(model.to_string(), expected);
    EXPECT_EQ(cdlinear::Model::load(library_model).to_string(), expected);
  }
}

TEST(Library, DefaultSolverFollowsTheShapeAsCdtrains) {
  test::ScratchDir dir;
  const std::string wide = dir.write("wide.svm", test::sparse_libsvm_text(200, 5000, 500));
  const auto r = test::run_tool("cdtrain", "-q " + wide + " " + dir.file("tool.model"));
  ASSERT_EQ(r.status, 0) << r.err;
  const cdlinear::Model model = cdlinear::train(cdlinear::Data::read(wide), {});
  EXPECT_EQ(model.solver_type(), "L2R_L2LOSS_SVC_DUAL");
  EXPECT_EQ(model.to_string(), test::read_file(dir.file("tool.model")));
}

TEST(Library, PredictionsAreCdpredicts) {
  test::ScratchDir dir;
  const std::string heart = test::data_path("heart_scale");
  const std::string dna = test::data_path("dna.scale");
  const std::string diabetes = test::fixture_path("diabetes.svm");
  for (const auto& [train_file, test_file, flags] :
       {std::tuple{heart, heart, std::string("-B 1")},
        std::tuple{dna, test::data_path("dna.scale.t"), std::string("-s 2")},
        std::tuple{diabetes, diabetes, std::string("-l svr2")}}) {
    SCOPED_TRACE(flags + " " + train_file);
    const std::string model_path = dir.file("m.model");
    const std::string out = dir.file("m.out");
    ASSERT_EQ(test::run_tool("cdtrain", "-q " + flags + " " + train_file + " " + model_path).status,
              0);
    const auto r = test::run_tool("cdpredict", test_file + " " + model_path + " " + out);
    ASSERT_EQ(r.status, 0) << r.err;
    const cdlinear::Model model = cdlinear::Model::load(model_path);
    const cdlinear::Data data = cdlinear::Data::read(test_file);
    const std::vector<double> predicted = model.predict(data);
    ASSERT_EQ(predicted.size(), data.size());
    std::istringstream lines(test::read_file(out));
    for (std::size_t row = 0; row < predicted.size(); ++row) {
      std::string line;
      ASSERT_TRUE(std::getline(lines, line));
      EXPECT_EQ(std::stod(line), predicted[row]) << "instance " << row + 1;
      // One instance at a time, the same.
      EXPECT_EQ(model.predict(data.instance(row)), predicted[row]);
    }
    if (!model.is_regression()) {
      const double accuracy = cdlinear::accuracy(predicted, data.labels());
      char expected[64];
      std::snprintf(expected, sizeof expected, "Accuracy = %g%%", 100 * accuracy);
      EXPECT_EQ(r.out.rfind(expected, 0), 0u) << r.out;
    }
  }
}

TEST(Library, ModelAndDataDescribeThemselves) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  EXPECT_EQ(data.size(), 270u);
  EXPECT_EQ(data.num_features(), 13u);
  EXPECT_EQ(data.labels().size(), 270u);
  EXPECT_EQ(data.name(), test::data_path("heart_scale"));
  const cdlinear::Instance first = data.instance(0);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.front().index, 1);  // 1-based, as in the file
  EXPECT_EQ(first.front().value, 0.708333);

  const cdlinear::Model model = cdlinear::train(data, options("2", "", 1, 1));
  EXPECT_EQ(model.solver_type(), "L2R_L2LOSS_SVC");
  EXPECT_FALSE(model.is_regression());
  EXPECT_EQ(model.labels(), (std::vector<int>{1, -1}));
  EXPECT_EQ(model.num_features(), 13u);
  EXPECT_EQ(model.bias(), 1);
  const std::vector<double> decision = model.decision_values(first);
  ASSERT_EQ(decision.size(), 1u);
  EXPECT_EQ(model.predict(first), decision[0] > 0 ? 1 : -1);
  // Features beyond the model's are ignored, as LIBLINEAR ignores them.
  cdlinear::Instance longer = first;
  longer.push_back({99, 5.0});
  EXPECT_EQ(model.decision_values(longer), decision);

  const cdlinear::Model multi =
      cdlinear::train(cdlinear::Data::read(test::data_path("dna.scale")), options("2"));
  EXPECT_EQ(multi.labels().size(), 3u);
  EXPECT_EQ(multi.decision_values(first).size(), 3u);

  const cdlinear::Model ridge = cdlinear::train(
      cdlinear::Data::read(test::fixture_path("diabetes.svm")), options("cd", "sq"));
  EXPECT_TRUE(ridge.is_regression());
  EXPECT_TRUE(ridge.labels().empty());
  EXPECT_EQ(ridge.solver_type(), "L2R_SQUARED_LOSS");
}

TEST(Library, ProgressGoesToTheGivenStreamOnly) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  std::ostringstream progress;
  cdlinear::TrainOptions o;
  o.progress = &progress;
  const cdlinear::Model model = cdlinear::train(data, o);
  EXPECT_NE(progress.str().find("cdper:"), std::string::npos) << progress.str();
  // The same model as without progress.
  EXPECT_EQ(model.to_string(), cdlinear::train(data).to_string());
}

// The message of the cdlinear::Error that `run` throws, or "(no error)".
template <class Run>
std::string library_error(Run run) {
  try {
    run();
  } catch (const cdlinear::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Library, MalformedDataIsAParseErrorWithCdtrainsMessage) {
  test::ScratchDir dir;
  const std::string bad = dir.write("bad.svm", "+1 1:0.5 2:1\n-1 3:0.25 2:1\n");
  try {
    cdlinear::Data::read(bad);
    FAIL() << "no error";
  } catch (const cdlinear::ParseError& e) {
    EXPECT_EQ(e.path(), bad);
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(std::string(e.what()), bad + ":2: " + e.reason());
    const auto r = test::run_tool("cdtrain", bad + " " + dir.file("m"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, std::string("cdtrain: error: ") + e.what() + "\n");
  }
  // No instances, and a file that is not there: Error and IoError.
  const std::string empty = dir.write("empty.svm", "");
  EXPECT_EQ(library_error([&] { cdlinear::Data::read(empty); }),
            empty + ": no instances (the file is empty or holds only comments)");
  EXPECT_THROW(cdlinear::Data::read(dir.file("absent.svm")), cdlinear::IoError);
}

TEST(Library, LabelsThatAreNotIntegersCannotTrainAClassifier) {
  test::ScratchDir dir;
  const std::string path = dir.write("real.svm", "1 1:1\n# comment\n2.5 1:2\n");
  const cdlinear::Data data = cdlinear::Data::read(path);
  try {
    cdlinear::train(data);
    FAIL() << "no error";
  } catch (const cdlinear::ParseError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.reason(), "label 2.5 is not an integer class label");
  }
  EXPECT_NO_THROW(cdlinear::train(data, options("cdper", "sq")));  // a regression reads them
}

TEST(Library, ValuesTooLargeToTrainOnNameTheirLine) {
  test::ScratchDir dir;
  const std::string path = dir.write("huge.svm", "+1 1:1\n-1 1:1e200\n");
  const std::string message = library_error([&] { cdlinear::train(cdlinear::Data::read(path)); });
  EXPECT_EQ(message.rfind(path + ":2: ", 0), 0u) << message;
  const auto r = test::run_tool("cdtrain", path + " " + dir.file("m"));
  EXPECT_EQ(r.err, "cdtrain: error: " + message + "\n");
}

TEST(Library, OptionsThatCannotTrainAreConfigErrors) {
  const cdlinear::Data data = cdlinear::Data::read(test::data_path("heart_scale"));
  const auto config_error = [&](const cdlinear::TrainOptions& o) {
    try {
      cdlinear::train(data, o);
    } catch (const cdlinear::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no ConfigError)");
  };
  EXPECT_EQ(config_error(options("lbfgs")).rfind("solver: expected a LIBLINEAR number", 0), 0u);
  EXPECT_NE(config_error(options("99")).find("99"), std::string::npos);
  EXPECT_EQ(config_error(options("cdper", "hinge2")), "loss: unknown loss 'hinge2'");
  EXPECT_NE(config_error(options("2", "lr")).find("whose loss is l2svm"), std::string::npos);
  EXPECT_EQ(config_error(options("cdper", "", -1)), "C must be positive");
  EXPECT_NE(config_error(options("tron", "l1svm")).find("does not train loss l1svm"),
            std::string::npos);
  cdlinear::TrainOptions weights = options("cdper", "sq");
  weights.class_weights = {{1, 2.0}};
  EXPECT_NE(config_error(weights).find("regression"), std::string::npos);
  weights = options("cdper");
  weights.class_weights = {{1, 0.0}};
  EXPECT_NE(config_error(weights).find("class weight of label 1"), std::string::npos);
  weights = options("cdper");
  weights.instance_weights = {1.0, 2.0};
  EXPECT_EQ(config_error(weights), "instance_weights: 2 weights for the 270 instances of " +
                                       test::data_path("heart_scale"));
  weights.instance_weights.assign(270, 1.0);
  weights.instance_weights[4] = -1;
  EXPECT_EQ(config_error(weights),
            "instance_weights: weight 5: expected a finite number >= 0, got -1");
  weights.instance_weights.assign(270, 0.0);
  EXPECT_EQ(config_error(weights), "instance_weights: every weight is 0");
  cdlinear::TrainOptions regularizer = options("cdper");
  regularizer.regularizer = "l3";
  EXPECT_EQ(config_error(regularizer), "regularizer: expected l2 or l1, got 'l3'");
  // An index below 1 when predicting.
  const cdlinear::Model model = cdlinear::train(data);
  EXPECT_THROW(model.predict(cdlinear::Instance{{0, 1.0}}), cdlinear::ConfigError);
}

TEST(Library, MalformedModelIsAParseErrorWithItsLine) {
  test::ScratchDir dir;
  const std::string path =
      dir.write("bad.model", "solver_type L2R_L2LOSS_SVC\nnr_class two\nlabel 1 -1\n");
  try {
    cdlinear::Model::load(path);
    FAIL() << "no error";
  } catch (const cdlinear::ParseError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(e.line(), 2);
  }
  EXPECT_THROW(cdlinear::Model::load(dir.file("absent.model")), cdlinear::Error);
  const cdlinear::Model model =
      cdlinear::train(cdlinear::Data::read(test::data_path("heart_scale")));
  EXPECT_THROW(model.save(dir.file("no/such/dir/m.model")), cdlinear::IoError);
}

// The header is installed alone: it may include the standard library only.
TEST(Library, PublicHeaderIncludesOnlyTheStandardLibrary) {
  const std::string header =
      std::filesystem::path(test::absolute_data_path("")).parent_path().parent_path().string() +
      "/src/cdlinear.h";
  std::istringstream lines(test::read_file(header));
  std::string line;
  int includes = 0;
  const std::regex standard("#include <[a-z_]+>");
  while (std::getline(lines, line)) {
    if (line.rfind("#include", 0) != 0) continue;
    ++includes;
    EXPECT_TRUE(std::regex_match(line, standard)) << header << ": " << line;
  }
  EXPECT_GT(includes, 0) << header;
}

}  // namespace
}  // namespace cdl
