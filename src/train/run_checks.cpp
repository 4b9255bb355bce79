#include "train/run_checks.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "train/cross_validation.h"
#include "train/train_regression.h"

namespace cdl {

namespace {

std::string label_list(const std::vector<int>& labels) {
  std::string out;
  for (int label : labels) out += (out.empty() ? "" : " ") + std::to_string(label);
  return out;
}

}  // namespace

double check_values(const DataMatrix& x, const ClassMap& classes, const Params& params, bool search,
                    double largest_magnitude, const NameRow& name_row) {
  Params at = params;
  if (search) {
    const bool regression = is_regression(params.loss.value());
    at.C = std::max(params.C, regression ? kLargestRegressionSearchC : kLargestSearchC);
  }
  try {
    check_magnitudes(x, classes, at, largest_magnitude);
  } catch (const InstanceError& e) {
    if (name_row) name_row(e);
    throw;
  }
  return largest_cost(classes, at, x.weights);
}

InitialWeights initial_class_weights(const LinearModel& model, const ClassMap& classes,
                                     std::size_t num_cols, double bias, const std::string& source,
                                     const std::string& bias_option) {
  std::vector<int> theirs = model.labels;
  std::vector<int> ours = classes.labels;
  std::sort(theirs.begin(), theirs.end());
  std::sort(ours.begin(), ours.end());
  if (model.task() == Task::kRegression) {
    throw ConfigError(source + ": a regression model (" + model.solver_type +
                      ") cannot start a classifier");
  }
  if (theirs.size() != ours.size()) {
    throw ConfigError(source + ": the model has " + std::to_string(theirs.size()) + " classes (" +
                      label_list(theirs) + "), the training data " + std::to_string(ours.size()) +
                      " (" + label_list(ours) + ")");
  }
  if (theirs != ours) {
    throw ConfigError(source + ": the model's labels are " + label_list(theirs) +
                      ", the training data's " + label_list(ours));
  }
  if ((model.bias >= 0) != (bias >= 0) || (model.bias >= 0 && model.bias != bias)) {
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, ": the model has bias %g, this run %s %g", model.bias,
                  bias_option.c_str(), bias);
    throw ConfigError(source + buffer + "; train with the model's " + bias_option);
  }
  return initial_weights(model, classes, num_cols, bias);
}

}  // namespace cdl
