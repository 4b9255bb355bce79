#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "data/libsvm_reader.h"
#include "model/model.h"
#include "test_util.h"
#include "util/error.h"

namespace cdl {
namespace {

LinearModel binary_model() {
  LinearModel m;
  m.solver_type = "L2R_L2LOSS_SVC";
  m.labels = {1, -1};
  m.num_features = 3;
  m.w = {0.1, -2.5, 1.0 / 3};
  return m;
}

LinearModel three_class_model() {
  LinearModel m;
  m.solver_type = "L2R_L2LOSS_SVC";
  m.labels = {3, 1, 2};
  m.num_features = 2;
  m.w = {0.1, -0.2, 1e-300, 2.0 / 3, -1e-17, 123456789.125};
  return m;
}

LinearModel biased_model() {
  LinearModel m = binary_model();
  m.bias = 1;
  m.w.push_back(-0.75);
  return m;
}

// Saves `model` into a scratch directory and returns the file's bytes.
std::string saved_bytes(const LinearModel& model, const test::ScratchDir& dir,
                        const std::string& name) {
  const std::string path = dir.file(name);
  save_model(model, path);
  return test::read_file(path);
}

void expect_save_load_save_identical(const LinearModel& model) {
  test::ScratchDir dir;
  const std::string first = saved_bytes(model, dir, "first.model");
  const LinearModel loaded = load_model(dir.file("first.model"));
  EXPECT_EQ(loaded.solver_type, model.solver_type);
  EXPECT_EQ(loaded.labels, model.labels);
  EXPECT_EQ(loaded.num_features, model.num_features);
  EXPECT_EQ(loaded.bias, model.bias);
  EXPECT_EQ(loaded.w, model.w);  // %.17g round-trips exactly
  EXPECT_EQ(saved_bytes(loaded, dir, "second.model"), first);
}

TEST(ModelRoundTrip, BinarySaveLoadSaveIsByteIdentical) {
  expect_save_load_save_identical(binary_model());
}

TEST(ModelRoundTrip, ThreeClassSaveLoadSaveIsByteIdentical) {
  expect_save_load_save_identical(three_class_model());
}

TEST(ModelRoundTrip, BiasSaveLoadSaveIsByteIdentical) {
  expect_save_load_save_identical(biased_model());
}

TEST(ModelRoundTrip, TwoClassCrammerSingerKeepsTwoWeightsPerRow) {
  LinearModel m;
  m.solver_type = "MCSVM_CS";
  m.labels = {1, 2};
  m.num_features = 1;
  m.w = {0.5, -0.5};
  EXPECT_EQ(m.nr_w(), 2u);
  expect_save_load_save_identical(m);
}

TEST(ModelFormat, MatchesLiblinearLayout) {
  LinearModel m = binary_model();
  m.bias = 1;
  m.w.push_back(1e-5);
  EXPECT_EQ(format_model(m),
            "solver_type L2R_L2LOSS_SVC\n"
            "nr_class 2\n"
            "label 1 -1\n"
            "nr_feature 3\n"
            "bias 1\n"
            "w\n"
            "0.10000000000000001 \n"
            "-2.5 \n"
            "0.33333333333333331 \n"
            "1.0000000000000001e-05 \n");
}

TEST(ModelFormat, MultiClassRowsHoldOneWeightPerClass) {
  EXPECT_EQ(format_model(three_class_model()),
            "solver_type L2R_L2LOSS_SVC\n"
            "nr_class 3\n"
            "label 3 1 2\n"
            "nr_feature 2\n"
            "bias -1\n"
            "w\n"
            "0.10000000000000001 -0.20000000000000001 1e-300 \n"
            "0.66666666666666663 -1.0000000000000001e-17 123456789.125 \n");
}

TEST(ModelFormat, WeightsMatchPrintfPercent17g) {
  const std::vector<double> values = {0.1,  -2.5, 1e-300, 5e-324, 1e22,          -0.0,
                                      1e-5, 1e16, 1e17,   0.5,    123456789.125, -1.0 / 7};
  LinearModel m;
  m.solver_type = "L2R_L2LOSS_SVC";
  m.labels = {1, -1};
  m.num_features = values.size();
  m.w = values;
  std::string expected_weights;
  for (double v : values) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g \n", v);
    expected_weights += buffer;
  }
  const std::string text = format_model(m);
  const std::string weights = text.substr(text.find("\nw\n") + 3);
  EXPECT_EQ(weights, expected_weights);
}

// A model of many weight lines (more than a chunk's 32,768, and a partial
// last chunk) written on 1, 2 and 3 threads: the same text as printf's, in
// the same order, whatever the threads.
TEST(ModelFormat, ThreadsWriteTheSameTextAsPrintf) {
  LinearModel m;
  m.solver_type = "L2R_L2LOSS_SVC";
  m.labels = {4, 1, 7};
  m.num_features = 70001;
  for (std::size_t i = 0; i < m.num_features * 3; ++i) {
    m.w.push_back(i % 5 == 0 ? 0.0 : std::sin(static_cast<double>(i)) / (1.0 + double(i % 97)));
  }
  std::string expected_weights;
  for (std::size_t i = 0; i < m.num_features; ++i) {
    for (std::size_t k = 0; k < 3; ++k) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.17g ", m.w[i * 3 + k]);
      expected_weights += buffer;
    }
    expected_weights += '\n';
  }
  for (unsigned threads : {1u, 2u, 3u}) {
    std::string text;
    std::vector<std::string> chunks;
    write_model(
        m,
        [&](const std::string& chunk) {
          text += chunk;
          chunks.push_back(chunk);
        },
        threads);
    EXPECT_EQ(text, format_model(m)) << threads << " threads";
    EXPECT_EQ(text.substr(text.find("\nw\n") + 3), expected_weights) << threads << " threads";
    // The header, then whole lines of at most 2^15 numbers a chunk: 10922
    // lines of 3 numbers, so 70001 lines take 7 chunks, whatever the threads.
    ASSERT_EQ(chunks.size(), 8u) << threads << " threads";
    for (std::size_t c = 1; c < chunks.size(); ++c) {
      const auto lines = std::count(chunks[c].begin(), chunks[c].end(), '\n');
      EXPECT_EQ(chunks[c].back(), '\n') << "chunk " << c;
      EXPECT_EQ(lines, c + 1 < chunks.size() ? 10922 : 70001 - 6 * 10922) << "chunk " << c;
    }
  }
}

// ---- LIBLINEAR fixtures ----

// One predicted label per line, as cdpredict and LIBLINEAR's predict write them.
std::string predict_file(const LinearModel& model, const std::string& data) {
  LibsvmParser parser(data, {});
  ParsedRow row;
  std::vector<double> decision;
  std::string out;
  while (parser.next(row)) {
    model.decision_values(row.indices.data(), row.values.data(), row.indices.size(), decision);
    out += std::to_string(model.label_for(decision)) + "\n";
  }
  return out;
}

TEST(ModelFixture, HeartScaleLoads) {
  const LinearModel m = load_model(test::fixture_path("heart_scale.liblinear.model"));
  EXPECT_EQ(m.solver_type, "L2R_L2LOSS_SVC");
  EXPECT_EQ(m.labels, (std::vector<int>{1, -1}));
  EXPECT_EQ(m.num_features, 13u);
  EXPECT_EQ(m.bias, -1);
  EXPECT_EQ(m.w.size(), 13u);
  EXPECT_EQ(m.w[0], 0.097652484361144737);
}

TEST(ModelFixture, HeartScalePredictionsMatchLiblinear) {
  const LinearModel m = load_model(test::fixture_path("heart_scale.liblinear.model"));
  EXPECT_EQ(predict_file(m, test::data_path("heart_scale")),
            test::read_file(test::fixture_path("heart_scale.liblinear.predictions")));
}

TEST(ModelFixture, DnaBiasLoads) {
  const LinearModel m = load_model(test::fixture_path("dna_bias.liblinear.model"));
  EXPECT_EQ(m.labels, (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(m.num_features, 180u);
  EXPECT_EQ(m.bias, 1);
  EXPECT_EQ(m.nr_w(), 3u);
  EXPECT_EQ(m.w.size(), 181u * 3u);
}

TEST(ModelFixture, DnaBiasPredictionsMatchLiblinear) {
  const LinearModel m = load_model(test::fixture_path("dna_bias.liblinear.model"));
  EXPECT_EQ(predict_file(m, test::data_path("dna.scale.t")),
            test::read_file(test::fixture_path("dna_bias.liblinear.predictions")));
}

TEST(ModelFixture, ReformattingReproducesLiblinearBytes) {
  for (const char* name : {"heart_scale.liblinear.model", "dna_bias.liblinear.model"}) {
    SCOPED_TRACE(name);
    const std::string path = test::fixture_path(name);
    EXPECT_EQ(format_model(load_model(path)), test::read_file(path));
  }
}

// ---- loader rejections ----

const char* const kHeader =
    "solver_type L2R_L2LOSS_SVC\n"  // line 1
    "nr_class 2\n"                  // line 2
    "label 1 -1\n"                  // line 3
    "nr_feature 2\n"                // line 4
    "bias -1\n"                     // line 5
    "w\n";                          // line 6
const char* const kWeights = "0.5 \n-0.25 \n";

// The message of the ParseError thrown for `text`, or "" if none.
std::string parse_error(const std::string& text) {
  try {
    parse_model(text, "m.model");
  } catch (const ParseError& e) {
    EXPECT_EQ(e.path(), "m.model");
    return e.what();
  }
  return "";
}

// kHeader + kWeights with the first occurrence of `from` replaced by `to`.
std::string valid_with(const std::string& from, const std::string& to) {
  std::string text = std::string(kHeader) + kWeights;
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return text.replace(pos, from.size(), to);
}

TEST(ModelLoad, ValidTextParses) {
  const LinearModel m = parse_model(std::string(kHeader) + kWeights, "m.model");
  EXPECT_EQ(m.w, (std::vector<double>{0.5, -0.25}));
}

TEST(ModelLoad, RejectsEmptyFile) { EXPECT_EQ(parse_error(""), "m.model:1: empty model file"); }

TEST(ModelLoad, RejectsOnlyAWLine) {
  // LIBLINEAR's load_model crashes on this file.
  EXPECT_EQ(parse_error("w\n"), "m.model:1: missing 'solver_type' before 'w'");
}

TEST(ModelLoad, RejectsMissingWLine) {
  EXPECT_EQ(parse_error("solver_type L2R_L2LOSS_SVC\nnr_class 2\n"),
            "m.model:2: missing 'w' line before the weights");
}

TEST(ModelLoad, RejectsEachMissingKey) {
  EXPECT_EQ(parse_error(valid_with("solver_type L2R_L2LOSS_SVC\n", "")),
            "m.model:5: missing 'solver_type' before 'w'");
  // Without nr_class the label line cannot be checked.
  EXPECT_EQ(parse_error(valid_with("nr_class 2\n", "")),
            "m.model:2: 'label' must come after 'nr_class'");
  EXPECT_EQ(parse_error(valid_with("label 1 -1\n", "")), "m.model:5: missing 'label' before 'w'");
  EXPECT_EQ(parse_error(valid_with("nr_feature 2\n", "")),
            "m.model:5: missing 'nr_feature' before 'w'");
  EXPECT_EQ(parse_error(valid_with("bias -1\n", "")), "m.model:5: missing 'bias' before 'w'");
}

TEST(ModelLoad, RejectsUnknownKey) {
  EXPECT_EQ(parse_error(valid_with("bias -1\n", "bias -1\nintercept 0.5\n")),
            "m.model:6: unknown key 'intercept' (expected solver_type, nr_class, label, "
            "nr_feature, bias, rho or w)");
}

// rho is a one-class model's offset only.
TEST(ModelLoad, RejectsRhoOutsideAOneClassModel) {
  EXPECT_EQ(parse_error(valid_with("bias -1\n", "bias -1\nrho 0.5\n")),
            "m.model:6: 'rho' is the offset of a one-class model (ONECLASS_SVM), not of "
            "L2R_L2LOSS_SVC");
  EXPECT_EQ(parse_error("rho 0.5\n" + valid_with("", "")),
            "m.model:1: 'rho' must come after 'solver_type'");
}

TEST(ModelLoad, RejectsDuplicateKey) {
  EXPECT_EQ(parse_error(valid_with("bias -1\n", "bias -1\nbias -1\n")),
            "m.model:6: duplicate key 'bias'");
}

TEST(ModelLoad, RejectsBadNrClass) {
  EXPECT_EQ(parse_error(valid_with("nr_class 2", "nr_class abc")),
            "m.model:2: nr_class: 'abc' is not a valid integer");
  EXPECT_EQ(parse_error(valid_with("nr_class 2", "nr_class 0")),
            "m.model:2: nr_class must be at least 1, got 0");
  EXPECT_EQ(parse_error(valid_with("nr_class 2", "nr_class -1")),
            "m.model:2: nr_class must be at least 1, got -1");
}

TEST(ModelLoad, RejectsLabelCountDifferingFromNrClass) {
  EXPECT_EQ(parse_error(valid_with("label 1 -1", "label 1 -1 2")),
            "m.model:3: 'label' takes 2 values, got 3");
  EXPECT_EQ(parse_error(valid_with("label 1 -1", "label 1")),
            "m.model:3: 'label' takes 2 values, got 1");
}

TEST(ModelLoad, RejectsDuplicateLabels) {
  EXPECT_EQ(parse_error(valid_with("label 1 -1", "label 1 1")), "m.model:3: label 1 appears twice");
}

TEST(ModelLoad, RejectsNonIntegerLabel) {
  EXPECT_EQ(parse_error(valid_with("label 1 -1", "label 1.5 -1")),
            "m.model:3: label: '1.5' is not a valid integer");
}

TEST(ModelLoad, RejectsBadNrFeature) {
  EXPECT_EQ(parse_error(valid_with("nr_feature 2", "nr_feature -1")),
            "m.model:4: nr_feature -1 is out of range");
  EXPECT_EQ(parse_error(valid_with("nr_feature 2", "nr_feature two")),
            "m.model:4: nr_feature: 'two' is not a valid integer");
}

TEST(ModelLoad, RejectsBadBias) {
  EXPECT_EQ(parse_error(valid_with("bias -1", "bias x")),
            "m.model:5: bias: 'x' is not a finite number");
  EXPECT_EQ(parse_error(valid_with("bias -1", "bias nan")),
            "m.model:5: bias: 'nan' is not a finite number");
}

TEST(ModelLoad, RejectsTooFewWeightLines) {
  EXPECT_EQ(parse_error(std::string(kHeader) + "0.5 \n"),
            "m.model:8: the weights end after 1 of 2 lines");
  EXPECT_EQ(parse_error(kHeader), "m.model:7: the weights end after 0 of 2 lines");
}

TEST(ModelLoad, BiasAddsOneWeightLine) {
  // With a bias the two weight lines are one short.
  EXPECT_EQ(parse_error(valid_with("bias -1", "bias 1")),
            "m.model:9: the weights end after 2 of 3 lines");
}

TEST(ModelLoad, RejectsTooManyWeightLines) {
  EXPECT_EQ(parse_error(std::string(kHeader) + kWeights + "0.125 \n"),
            "m.model:9: more weight lines than nr_feature = 2");
  EXPECT_EQ(parse_error(valid_with("bias -1", "bias 1") + "1 \n2 \n"),
            "m.model:10: more weight lines than nr_feature + 1 (bias) = 3");
}

TEST(ModelLoad, AcceptsTrailingEmptyLines) {
  EXPECT_EQ(parse_model(std::string(kHeader) + kWeights + "\n\n", "m.model").w.size(), 2u);
}

TEST(ModelLoad, RejectsWrongNumberOfValuesOnAWeightLine) {
  EXPECT_EQ(parse_error(valid_with("0.5 \n", "0.5 0.25 \n")),
            "m.model:7: expected 1 weight, got 2");
  EXPECT_EQ(parse_error(valid_with("0.5 \n", "\n")), "m.model:7: expected 1 weight, got 0");
}

TEST(ModelLoad, RejectsNonNumericOrNanWeight) {
  EXPECT_EQ(parse_error(valid_with("-0.25 ", "abc ")),
            "m.model:8: weight 'abc' is not a finite number");
  EXPECT_EQ(parse_error(valid_with("-0.25 ", "nan ")),
            "m.model:8: weight 'nan' is not a finite number");
  EXPECT_EQ(parse_error(valid_with("-0.25 ", "0.25x ")),
            "m.model:8: weight '0.25x' is not a finite number");
}

TEST(ModelLoad, RejectsUnknownSolverType) {
  EXPECT_EQ(parse_error(valid_with("L2R_L2LOSS_SVC", "L2R_FOO")),
            "m.model:1: unknown solver_type 'L2R_FOO'");
}

// A one-class model as LIBLINEAR 2.50 writes it: no label line, nr_class 2,
// rho between bias and w.
const char* const kOneClass =
    "solver_type ONECLASS_SVM\n"  // line 1
    "nr_class 2\n"                // line 2
    "nr_feature 2\n"              // line 3
    "bias -1\n"                   // line 4
    "rho 0.75\n"                  // line 5
    "w\n"                         // line 6
    "0.5 \n"                      // line 7
    "-0.25 \n";                   // line 8

std::string one_class_with(const std::string& from, const std::string& to) {
  std::string text = kOneClass;
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return text.replace(pos, from.size(), to);
}

TEST(OneClassModel, ParsesAndPredictsTheSignOfWxMinusRho) {
  const LinearModel m = parse_model(kOneClass, "m.model");
  EXPECT_EQ(m.task(), Task::kOneClass);
  EXPECT_EQ(m.rho, 0.75);
  EXPECT_EQ(m.nr_class(), 2u);
  EXPECT_EQ(m.nr_w(), 1u);
  EXPECT_TRUE(m.labels.empty());
  EXPECT_FALSE(m.has_probabilities());
  // x = (2, 1): w'x = 0.75 = rho, not above it: -1. x = (2, 0): 1 - 0.75 > 0.
  const Index indices[] = {0, 1};
  const double on_rho[] = {2.0, 1.0};
  const double above[] = {2.0, 0.0};
  std::vector<double> decision;
  m.decision_values(indices, on_rho, 2, decision);
  EXPECT_EQ(decision, (std::vector<double>{0.0}));
  EXPECT_EQ(m.label_for(decision), -1);
  m.decision_values(indices, above, 2, decision);
  EXPECT_EQ(decision, (std::vector<double>{0.25}));
  EXPECT_EQ(m.label_for(decision), 1);
  // The whole-matrix predictions subtract rho too.
  const CsrMatrix rows = test::csr_from_dense(2, 2, {2.0, 1.0, 2.0, 0.0});
  EXPECT_EQ(m.predict(rows), (std::vector<int>{-1, 1}));
  EXPECT_EQ(m.predict(to_csc(rows)), (std::vector<int>{-1, 1}));
}

TEST(OneClassModel, SaveLoadSaveIsByteIdenticalAndAsLiblinearWritesIt) {
  const LinearModel m = parse_model(kOneClass, "m.model");
  EXPECT_EQ(format_model(m), kOneClass);
  expect_save_load_save_identical(m);
  const std::string fixture = test::fixture_path("heart_scale_s21_opt.liblinear250.model");
  const LinearModel theirs = load_model(fixture);
  EXPECT_EQ(format_model(theirs), test::read_file(fixture));
}

TEST(OneClassModel, RejectsABadRhoOrHeader) {
  EXPECT_EQ(parse_error(one_class_with("rho 0.75\n", "")), "m.model:5: missing 'rho' before 'w'");
  EXPECT_EQ(parse_error(one_class_with("rho 0.75", "rho abc")),
            "m.model:5: rho: 'abc' is not a finite number");
  EXPECT_EQ(parse_error(one_class_with("rho 0.75", "rho inf")),
            "m.model:5: rho: 'inf' is not a finite number");
  EXPECT_EQ(parse_error(one_class_with("rho 0.75", "rho 1 2")),
            "m.model:5: 'rho' takes 1 value, got 2");
  EXPECT_EQ(parse_error(one_class_with("rho 0.75\n", "rho 0.75\nrho 0.5\n")),
            "m.model:6: duplicate key 'rho'");
  EXPECT_EQ(parse_error(one_class_with("nr_class 2\n", "nr_class 2\nlabel 1 -1\n")),
            "m.model:3: a one-class model (ONECLASS_SVM) has no 'label' line");
  EXPECT_EQ(parse_error(one_class_with("nr_class 2", "nr_class 3")),
            "m.model:6: nr_class of a one-class model is 2, got 3");
}

TEST(OneClassModel, RejectsACorruptWeightBlock) {
  EXPECT_EQ(parse_error(one_class_with("-0.25 \n", "")),
            "m.model:8: the weights end after 1 of 2 lines");
  EXPECT_EQ(parse_error(one_class_with("-0.25 ", "-0.25x ")),
            "m.model:8: weight '-0.25x' is not a finite number");
  EXPECT_EQ(parse_error(one_class_with("0.5 \n", "0.5 1 \n")),
            "m.model:7: expected 1 weight, got 2");
  EXPECT_EQ(parse_error(std::string(kOneClass) + "3 \n"),
            "m.model:9: more weight lines than nr_feature = 2");
}

TEST(ModelLoad, AcceptsCrlfLineEnds) {
  const std::string path = test::fixture_path("dna_bias.liblinear.model");
  const std::string text = test::read_file(path);
  std::string crlf;
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  test::ScratchDir dir;
  const LinearModel m = load_model(dir.write("crlf.model", crlf));
  const LinearModel expected = load_model(path);
  EXPECT_EQ(m.labels, expected.labels);
  EXPECT_EQ(m.bias, expected.bias);
  EXPECT_EQ(m.w, expected.w);
}

TEST(ModelLoad, ErrorsFromAFileNameThePath) {
  test::ScratchDir dir;
  const std::string path = dir.write("bad.model", "w\n");
  try {
    load_model(path);
    FAIL() << "no exception";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()), path + ":1: missing 'solver_type' before 'w'");
  }
}

TEST(ModelLoad, DirectoryIsAnIoError) {
  test::ScratchDir dir;
  EXPECT_THROW(load_model(dir.file("")), IoError);
}

TEST(ModelLoad, MissingFileIsAnIoError) {
  test::ScratchDir dir;
  EXPECT_THROW(load_model(dir.file("nonexistent.model")), IoError);
}

// ---- prediction ----

TEST(ModelPredict, DecisionValuesIgnoreFeaturesBeyondNrFeature) {
  LinearModel m = binary_model();  // w = {0.1, -2.5, 1/3}
  m.w = {1, 2, 4};
  const std::vector<Index> idx = {0, 2, 3, 1000};
  const std::vector<double> val = {3, 0.5, 100, 100};
  std::vector<double> out;
  m.decision_values(idx.data(), val.data(), idx.size(), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], 3 + 2);
}

TEST(ModelPredict, DecisionValuesAddTheBiasRow) {
  LinearModel m;
  m.solver_type = "L2R_L2LOSS_SVC";
  m.labels = {1, -1};
  m.num_features = 2;
  m.bias = 0.5;
  m.w = {1, 2, 10};                       // the last row weighs the bias feature
  const std::vector<Index> idx = {1, 2};  // index 2 is past nr_feature: ignored
  const std::vector<double> val = {3, 100};
  std::vector<double> out;
  m.decision_values(idx.data(), val.data(), idx.size(), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], 6 + 5);
}

TEST(ModelPredict, MultiClassDecisionValuesPerClass) {
  const LinearModel m = [] {
    LinearModel x = three_class_model();
    x.w = {1, 2, 3, 10, 20, 30};
    x.bias = 1;
    x.w.insert(x.w.end(), {100, 200, 300});
    return x;
  }();
  const std::vector<Index> idx = {0, 1};
  const std::vector<double> val = {1, 2};
  std::vector<double> out;
  m.decision_values(idx.data(), val.data(), idx.size(), out);
  EXPECT_EQ(out, (std::vector<double>{121, 242, 363}));
}

TEST(ModelPredict, EmptyInstanceScoresOnlyTheBias) {
  const LinearModel m = biased_model();  // bias 1, bias weight -0.75
  std::vector<double> out;
  m.decision_values(nullptr, nullptr, 0, out);
  EXPECT_EQ(out, (std::vector<double>{-0.75}));
  EXPECT_EQ(m.label_for(out), -1);
}

TEST(ModelPredict, BinaryLabelForUsesTheSignWithZeroGoingToTheSecondLabel) {
  LinearModel m = binary_model();
  m.labels = {7, 3};
  EXPECT_EQ(m.label_for({0.5}), 7);
  EXPECT_EQ(m.label_for({0.0}), 3);
  EXPECT_EQ(m.label_for({-0.5}), 3);
}

TEST(ModelPredict, TwoClassCrammerSingerLabelForFollowsLiblinear) {
  // LIBLINEAR's predict_values decides every two-class classifier by
  // dec_values[0] > 0, also for MCSVM_CS, whose rows hold two weights. An
  // instance with no known features scores {0, 0} and gets labels[1].
  LinearModel m;
  m.solver_type = "MCSVM_CS";
  m.labels = {1, 2};
  m.num_features = 1;
  m.w = {0.5, -0.5};
  EXPECT_EQ(m.label_for({0.0, 0.0}), 2);
  EXPECT_EQ(m.label_for({0.25, -0.25}), 1);
  EXPECT_EQ(m.label_for({-0.25, 0.25}), 2);
  EXPECT_EQ(m.label_for({0.25, 0.5}), 1);
}

TEST(ModelPredict, MultiClassLabelForTakesTheFirstMaximum) {
  const LinearModel m = three_class_model();  // labels 3 1 2
  EXPECT_EQ(m.label_for({-1, -2, -3}), 3);
  EXPECT_EQ(m.label_for({1, 5, 5}), 1);
  EXPECT_EQ(m.label_for({0, 0, 0}), 3);
  EXPECT_EQ(m.label_for({0, 0, 0.1}), 2);
}

// ---- saving ----

std::set<std::string> directory_entries(const test::ScratchDir& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.file(""))) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

TEST(ModelSave, WritesThroughASymbolicLinkKeepingThePermissions) {
  test::ScratchDir dir;
  std::filesystem::create_directory(dir.file("models"));
  const std::string real = dir.write("models/real.model", "old\n");
  std::filesystem::permissions(
      real, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  std::filesystem::create_symlink("models/real.model", dir.file("link.model"));
  const LinearModel model = three_class_model();
  save_model(model, dir.file("link.model"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.model")));
  EXPECT_EQ(test::read_file(real), format_model(model));
  EXPECT_EQ(std::filesystem::status(real).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.file("models")),
                          std::filesystem::directory_iterator()),
            1);
}

TEST(ModelSave, LeavesNoTemporaryFileBehind) {
  test::ScratchDir dir;
  save_model(three_class_model(), dir.file("out.model"));
  EXPECT_EQ(directory_entries(dir), (std::set<std::string>{"out.model"}));
}

TEST(ModelSave, ReplacesAnExistingFile) {
  test::ScratchDir dir;
  const std::string path = dir.write("out.model", "old contents\n");
  save_model(binary_model(), path);
  EXPECT_EQ(test::read_file(path), format_model(binary_model()));
  EXPECT_EQ(directory_entries(dir), (std::set<std::string>{"out.model"}));
}

TEST(ModelSave, DirectoryPathIsAnIoError) {
  test::ScratchDir dir;
  std::filesystem::create_directory(dir.file("sub"));
  EXPECT_THROW(save_model(binary_model(), dir.file("sub")), IoError);
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("sub")));
  EXPECT_EQ(directory_entries(dir), (std::set<std::string>{"sub"}));
}

TEST(ModelSave, MissingDirectoryIsAnIoError) {
  test::ScratchDir dir;
  EXPECT_THROW(save_model(binary_model(), dir.file("missing/out.model")), IoError);
  EXPECT_TRUE(directory_entries(dir).empty());
}

// Makes writes to regular files beyond `bytes` fail with EFBIG (SIGXFSZ is
// ignored) until destroyed. Unlike a read-only directory this also stops
// root, and unlike /dev/full it does not depend on a device: saving to
// /dev/full itself must not be tried, since the writer would create its
// temporary file in /dev and, as root, rename it over the device node.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    active_ = setrlimit(RLIMIT_FSIZE, &limit) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;
  bool active() const { return active_; }

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = SIG_DFL;
  bool active_ = false;
};

TEST(ModelSave, FailedWriteIsAnIoErrorAndKeepsTheOldFile) {
  test::ScratchDir dir;
  const std::string path = dir.write("out.model", "sentinel\n");
  LinearModel big = three_class_model();
  big.num_features = 200;
  big.w.assign(200 * 3, 1.0 / 3);  // about 12 kB of text
  bool threw_io_error = false;
  {
    FileSizeLimit limit(1000);
    ASSERT_TRUE(limit.active()) << "cannot lower RLIMIT_FSIZE";
    try {
      save_model(big, path);
    } catch (const IoError&) {
      threw_io_error = true;
    }
  }
  EXPECT_TRUE(threw_io_error);
  EXPECT_EQ(test::read_file(path), "sentinel\n");
  EXPECT_EQ(directory_entries(dir), (std::set<std::string>{"out.model"}));
}

}  // namespace
}  // namespace cdl
