// cdpredict: predicts the labels of a LIBSVM-format file with a
// LIBLINEAR-format linear model, writing one label per line, and prints the
// accuracy against the file's labels. With a regression model it writes the
// predicted values ("%.17g") and prints the mean squared error and the squared
// correlation coefficient against the file's targets, as LIBLINEAR's predict
// does. With a one-class model it writes +1 (w'x - rho > 0) or -1 and prints
// the accuracy of those against the file's labels, as LIBLINEAR 2.50's does.
#include <cstdio>
#include <iostream>

#include "cli.h"
#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "model/model.h"
#include "tool_main.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace {

// --info: what the model is, one "key: value" line each.
void print_info(const std::string& path, const cdl::LinearModel& model) {
  const cdl::Task task = model.task();
  const bool regression = task == cdl::Task::kRegression;
  std::size_t nonzero = 0;
  for (double w : model.w) nonzero += w != 0;
  std::string labels;
  for (int label : model.labels) labels += " " + std::to_string(label);
  std::printf("model: %s\n", path.c_str());
  std::printf("solver_type: %s (%s)\n", model.solver_type.c_str(),
              regression                     ? "regression"
              : task == cdl::Task::kOneClass ? "one-class: +1 typical, -1 outlier"
                                             : "classification");
  if (task == cdl::Task::kClassification) {
    std::printf("classes: %zu (labels%s)\n", model.labels.size(), labels.c_str());
  }
  if (task == cdl::Task::kOneClass) std::printf("rho: %.17g\n", model.rho);
  std::printf("features: %zu\n", model.num_features);
  if (model.bias >= 0) {
    std::printf("bias: %g (one more weight per class vector)\n", model.bias);
  } else {
    std::printf("bias: none\n");
  }
  std::printf("weight vectors: %zu\n", model.nr_w());
  std::printf("nonzero weights: %zu of %zu\n", nonzero, model.w.size());
}

}  // namespace

int main(int argc, char** argv) {
  return cdl::run_tool("cdpredict", cdl::predict_usage(), [&] {
    const cdl::PredictCommand command =
        cdl::parse_predict_args(std::vector<std::string>(argv + 1, argv + argc));
    if (command.help) {
      std::cout << cdl::predict_help();
      return 0;
    }
    if (command.version) {
      std::cout << cdl::version_text("cdpredict");
      return 0;
    }
    if (!command.info_model.empty()) {
      print_info(command.info_model, cdl::load_model(command.info_model));
      return 0;
    }
    if (command.test_path != cdl::kStandardInput) {
      cdl::check_not_input(command.output_path, "output_file", command.test_path);
    }
    cdl::check_not_input(command.output_path, "output_file", command.model_path);
    const cdl::LinearModel model = cdl::load_model(command.model_path);
    if (command.probability && !model.has_probabilities()) {
      throw cdl::Error(command.model_path + ": probability output (-b 1) needs a logistic " +
                       "regression model (train with -l lr); this one is " + model.solver_type);
    }
    cdl::ReadOptions options;
    options.pipe_command =
        "cdpredict [options] - " + command.model_path + " " + command.output_path;
    cdl::LibsvmParser parser(command.test_path, options);
    cdl::AtomicFileWriter output(command.output_path);
    if (command.probability) {
      output.write("labels");
      for (int label : model.labels) output.write(" " + std::to_string(label));
      output.write("\n");
    }
    cdl::ParsedRow row;
    std::vector<double> decision;
    std::vector<double> probabilities;
    std::int64_t total = 0;
    std::int64_t correct = 0;
    cdl::RegressionScore score;
    const bool regression = model.task() == cdl::Task::kRegression;
    while (parser.next(row)) {
      model.decision_values(row.indices.data(), row.values.data(), row.indices.size(), decision);
      if (regression) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.17g\n", decision[0]);
        output.write(buffer);
        score.add(decision[0], row.label);
        ++total;
        continue;
      }
      const int label = model.label_for(decision);
      output.write(std::to_string(label));
      if (command.probability) {
        model.probabilities(decision, probabilities);
        for (double p : probabilities) {
          char buffer[32];
          std::snprintf(buffer, sizeof buffer, " %g", p);
          output.write(buffer);
        }
      }
      output.write("\n");
      correct += label == row.label;
      ++total;
    }
    output.commit();
    if (!command.quiet && regression) {
      std::printf("Mean squared error = %g (regression)\n", score.mean_squared_error());
      std::printf("Squared correlation coefficient = %g (regression)\n",
                  score.squared_correlation());
    } else if (!command.quiet) {
      std::printf("Accuracy = %g%% (%lld/%lld)\n",
                  100.0 * static_cast<double>(correct) / static_cast<double>(total),
                  static_cast<long long>(correct), static_cast<long long>(total));
    }
    return 0;
  });
}
