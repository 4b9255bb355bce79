// libFuzzer target: the model-file loader.
//
// Any text either fails with a cdl::Error or gives a model whose own
// formatting parses back to the same model, and which predicts a label of its
// own (+1 or -1 for a one-class model) for an instance touching every
// feature (and one beyond).
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_util.h"
#include "model/model.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  cdl::LinearModel model;
  try {
    model = cdl::parse_model(text, "fuzz.model");
  } catch (const cdl::Error&) {
    return 0;
  }
  if (model.w.size() != model.weight_rows() * model.nr_w()) cdl::fuzz::fail("w has wrong size");

  const cdl::LinearModel again = cdl::parse_model(cdl::format_model(model), "again.model");
  if (again.solver_type != model.solver_type || again.labels != model.labels ||
      again.num_features != model.num_features || again.bias != model.bias ||
      again.rho != model.rho || again.w.size() != model.w.size()) {
    cdl::fuzz::fail("formatted model parses differently");
  }
  for (std::size_t k = 0; k < model.w.size(); ++k) {
    const bool both_nan = model.w[k] != model.w[k] && again.w[k] != again.w[k];
    if (!both_nan && again.w[k] != model.w[k]) cdl::fuzz::fail("weight changes in a round trip");
  }

  const std::size_t count = std::min<std::size_t>(model.num_features + 1, 64);
  std::vector<cdl::Index> indices(count);
  std::vector<double> values(count, 1.0);
  for (std::size_t i = 0; i < count; ++i) indices[i] = static_cast<cdl::Index>(i);
  std::vector<double> decision;
  model.decision_values(indices.data(), values.data(), count, decision);
  if (decision.size() != model.nr_w()) cdl::fuzz::fail("wrong number of decision values");
  if (model.task() == cdl::Task::kRegression) return 0;  // its decision value is the prediction
  const int label = model.label_for(decision);
  if (model.task() == cdl::Task::kOneClass) {
    if (label != 1 && label != -1) cdl::fuzz::fail("a one-class model predicted neither +1 nor -1");
  } else if (std::find(model.labels.begin(), model.labels.end(), label) == model.labels.end()) {
    cdl::fuzz::fail("predicted a label the model does not have");
  }
  if (model.has_probabilities()) {
    std::vector<double> probabilities;
    model.probabilities(decision, probabilities);
    if (probabilities.size() != model.nr_class()) cdl::fuzz::fail("wrong number of probabilities");
  }
  return 0;
}
