// cdpredict: predicts the labels of a LIBSVM-format file with a
// LIBLINEAR-format linear model, writing one label per line, and prints the
// accuracy against the file's labels. With a regression model it writes the
// predicted values ("%.17g") and prints the mean squared error and the squared
// correlation coefficient against the file's targets, as LIBLINEAR's predict
// does.
#include <cstdio>
#include <iostream>

#include "cli.h"
#include "data/input_file.h"
#include "data/libsvm_reader.h"
#include "model/model.h"
#include "tool_main.h"
#include "util/atomic_file.h"
#include "util/error.h"

int main(int argc, char** argv) {
  return cdl::run_tool("cdpredict", cdl::predict_usage(), [&] {
    const cdl::PredictCommand command =
        cdl::parse_predict_args(std::vector<std::string>(argv + 1, argv + argc));
    if (command.help) {
      std::cout << cdl::predict_help();
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
