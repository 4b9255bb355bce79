// cdtrain: trains a linear classifier from a LIBSVM-format file and writes a
// LIBLINEAR-format model; or runs cross validation (-v) or the search for C
// (-C) and prints the accuracies. The arguments become a RunRequest, which
// the library's driver runs on the file (train/driver.h, file_source.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli.h"
#include "tool_main.h"
#include "train/driver.h"
#include "train/file_source.h"

int main(int argc, char** argv) {
  return cdl::run_tool("cdtrain", cdl::train_usage(), [&] {
    const cdl::RunRequest request =
        cdl::parse_train_args(std::vector<std::string>(argv + 1, argv + argc));
    if (request.help) {
      std::cout << cdl::train_help();
      return 0;
    }
    if (request.version) {
      std::cout << cdl::version_text("cdtrain");
      return 0;
    }
    const std::unique_ptr<cdl::RunSource> source = cdl::file_source("cdtrain");
    cdl::run_request(request, *source, std::cerr);
    return 0;
  });
}
