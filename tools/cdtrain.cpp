// cdtrain: trains a linear classifier from a LIBSVM-format file and writes a
// LIBLINEAR-format model, or runs cross validation with -v.
#include <cstdio>
#include <iostream>

#include "atomic_file.h"
#include "cli.h"
#include "libsvm_reader.h"
#include "model.h"
#include "problem.h"
#include "tool_main.h"
#include "train.h"

int main(int argc, char** argv) {
  return cdl::run_tool("cdtrain", cdl::train_usage(), [&] {
    const cdl::TrainCommand command =
        cdl::parse_train_args(std::vector<std::string>(argv + 1, argv + argc));
    if (command.help) {
      std::cout << cdl::train_help();
      return 0;
    }
    const cdl::Params params = cdl::resolve_defaults(command.params);
    cdl::validate(params);
    if (params.cv_folds == 0) cdl::check_writable_path(command.model_path);

    cdl::ReadOptions options;
    options.integer_labels = true;
    options.bias = params.bias;
    const cdl::LabeledCsc data = cdl::read_libsvm_csc(command.training_path, options);
    const cdl::ClassMap classes = cdl::map_classes(data.labels);
    if (classes.labels.size() < 2) {
      throw cdl::Error(command.training_path + ": only one class (label " +
                       std::to_string(classes.labels[0]) + "); a classifier needs two or more");
    }
    cdl::Reporter reporter(
        std::cerr, params.quiet ? cdl::Reporter::Level::kQuiet : cdl::Reporter::Level::kNormal);
    if (params.cv_folds > 0) {
      const double accuracy = cdl::cross_validate(data.features, classes, params, reporter);
      std::printf("Cross Validation Accuracy = %g%%\n", 100.0 * accuracy);
      return 0;
    }
    const cdl::LinearModel model = cdl::train(data.features, classes, params, reporter);
    cdl::save_model(model, command.model_path);
    return 0;
  });
}
