#include "data/input_file.h"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "util/error.h"

namespace cdl {

void check_input_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw IoError(path + ": cannot open: " + ec.message());
  }
  if (!std::filesystem::exists(status)) throw IoError(path + ": cannot open: no such file");
  if (std::filesystem::is_directory(status)) throw IoError(path + ": is a directory");
  if (!std::filesystem::is_regular_file(status)) throw IoError(path + ": not a regular file");
}

std::ifstream open_input_file(const std::string& path) {
  check_input_file(path);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw IoError(path + ": cannot open for reading" + system_reason());
  }
  return in;
}

}  // namespace cdl
