// libFuzzer target: end to end on tiny fuzzed data. The first byte picks the
// solver, loss and C; the rest is a LIBSVM file, read as cdtrain reads it
// (integer labels, a bias column), trained for 2 outer iterations (Pegasos: 2
// passes), and predicted. A file the reader refuses ends the input (that is
// fuzz_reader's business). Training may refuse only values too large to
// train on (InstanceError); any other error, a weight that is not finite, a
// model that does not survive its file format or a prediction of a label the
// model lacks stops the fuzzer. One-class data trains too.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "data/libsvm_reader.h"
#include "data/problem.h"
#include "fuzz_util.h"
#include "model/model.h"
#include "solvers/report.h"
#include "train/train.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  const cdl::fuzz::ScratchFile scratch(data + 1, size - 1);
  const std::string& path = scratch.path();

  // Every valid (solver, classification loss) pair, one per choice.
  std::vector<std::pair<const cdl::SolverInfo*, cdl::LossKind>> pairs;
  for (const cdl::SolverInfo& info : cdl::solver_table()) {
    for (cdl::LossKind loss : info.losses) {
      if (cdl::has_classes(loss)) pairs.emplace_back(&info, loss);
    }
  }
  cdl::Params params;
  params.solver = pairs[choice % pairs.size()].first->kind;
  params.loss = pairs[choice % pairs.size()].second;
  static const double kCosts[] = {1.0, 1e-6, 1e6, 0.5};
  params.C = kCosts[(choice / 16) % 4];
  params.bias = (choice & 64) != 0 ? 1.0 : -1.0;
  params.quiet = true;

  cdl::LabeledCsc read;
  try {
    cdl::ReadOptions options;
    options.integer_labels = true;
    options.bias = params.bias;
    options.column_memory_limit = cdl::fuzz::kColumnMemoryLimit;
    read = cdl::read_libsvm_csc(path, options);
  } catch (const cdl::Error&) {
    return 0;
  }
  params.max_iter = params.solver == cdl::SolverKind::kPegasos
                        ? 2 * static_cast<std::int64_t>(read.labels.size())
                        : 2;
  try {
    params = cdl::resolve_defaults(params);
    cdl::validate(params);
  } catch (const cdl::ConfigError&) {
    return 0;  // a combination cdtrain refuses as a usage error (pdcd with -B)
  }
  try {
    const cdl::ClassMap classes = cdl::map_classes(read.labels);
    std::ostringstream log;
    cdl::Reporter reporter(log, cdl::Reporter::Level::kQuiet);
    const cdl::LinearModel model = cdl::train(read.features, classes, params, reporter);
    for (double w : model.w) {
      if (!std::isfinite(w)) cdl::fuzz::fail("a weight is not finite");
    }
    const cdl::LinearModel again = cdl::parse_model(cdl::format_model(model), "again.model");
    if (again.w != model.w || again.labels != model.labels) cdl::fuzz::fail("round trip differs");
    for (int label : model.predict(read.features)) {
      if (std::find(model.labels.begin(), model.labels.end(), label) == model.labels.end()) {
        cdl::fuzz::fail("predicted a label the model does not have");
      }
    }
  } catch (const cdl::InstanceError&) {
  } catch (const std::exception& e) {
    cdl::fuzz::fail(std::string("training failed: ") + e.what());
  }
  return 0;
}
