// libFuzzer target: the command-line option parsers of cdtrain and
// cdpredict. The input is split at NUL bytes into arguments. Parsing either
// fails with a ConfigError (exit status 2 in the tools) or gives a command
// whose parameters pass or fail validate() with a ConfigError; nothing else
// may escape.
#include <string>
#include <vector>

#include "cli.h"
#include "fuzz_util.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\0') {
      args.emplace_back();
    } else {
      args.back().push_back(static_cast<char>(data[i]));
    }
  }
  try {
    const cdl::RunRequest command = cdl::parse_train_args(args);
    if (!command.help && !command.version) {
      // -v and -C write no model: from standard input they have no model path.
      if (command.training_path.empty() ||
          (command.model_path.empty() && command.params.cv_folds == 0)) {
        cdl::fuzz::fail("a train command without a training or model path");
      }
      cdl::validate(cdl::resolve_defaults(command.params));
    }
  } catch (const cdl::ConfigError&) {
  }
  try {
    const cdl::PredictCommand command = cdl::parse_predict_args(args);
    // --info MODEL describes a model: it has that path alone.
    if (!command.help && !command.version && command.info_model.empty() &&
        (command.test_path.empty() || command.model_path.empty() || command.output_path.empty())) {
      cdl::fuzz::fail("a predict command without its three paths");
    }
  } catch (const cdl::ConfigError&) {
  }
  return 0;
}
