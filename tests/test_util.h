// Helpers shared by the tests: data paths, scratch files and running the
// command-line tools.
#ifndef CDL_TESTS_TEST_UTIL_H_
#define CDL_TESTS_TEST_UTIL_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "data/sparse_matrix.h"
#include "util/error.h"

namespace cdl::test {

// A data set in the repository's data/ folder (make test sets CDL_DATA_DIR).
inline std::string data_path(const std::string& name) {
  const char* dir = std::getenv("CDL_DATA_DIR");
  return std::string(dir != nullptr ? dir : "data") + "/" + name;
}

// data_path() made absolute, for tools run in another working directory.
inline std::string absolute_data_path(const std::string& name) {
  return std::filesystem::absolute(data_path(name)).string();
}

// The absolute path of a built tool (make test sets CDL_BIN_DIR).
inline std::string tool_path(const std::string& tool) {
  const char* dir = std::getenv("CDL_BIN_DIR");
  return std::filesystem::absolute(std::filesystem::path(dir != nullptr ? dir : ".") / tool)
      .string();
}

// A stored fixture in tests/fixtures.
inline std::string fixture_path(const std::string& name) {
  return std::filesystem::path(data_path("")).parent_path().parent_path().string() +
         "/tests/fixtures/" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The first line of a file, without its newline.
inline std::string first_line_of(const std::string& path) {
  const std::string text = read_file(path);
  return text.substr(0, text.find('\n'));
}

// A fresh directory under the system temp dir, removed with the object.
class ScratchDir {
 public:
  ScratchDir() {
    // A random name per directory, so that concurrent test runs (make test
    // beside make asan) never share or delete each other's directories.
    std::random_device device;
    do {
      path_ = std::filesystem::temp_directory_path() /
              ("cdl_test_" + std::to_string(device()) + "_" + std::to_string(device()));
    } while (!std::filesystem::create_directory(path_));
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `content` to a file in the directory and returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    const std::string path = file(name);
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int status;       // exit status
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs one of the built tools (make test sets CDL_BIN_DIR) with a shell
// argument string, capturing its output.
inline CommandResult run_tool(const std::string& tool, const std::string& args) {
  const char* dir = std::getenv("CDL_BIN_DIR");
  static ScratchDir capture;
  const std::string out = capture.file("stdout");
  const std::string err = capture.file("stderr");
  const std::string command =
      std::string(dir != nullptr ? dir : ".") + "/" + tool + " " + args + " >" + out + " 2>" + err;
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, read_file(out), read_file(err)};
}

// Runs a bash script (with pipefail) in `dir`, with $CDTRAIN and $CDPREDICT
// naming the built tools and $DATA the data/ folder, capturing its output.
inline CommandResult run_script(const ScratchDir& dir, const std::string& script) {
  const std::string file =
      dir.write("script.sh", "set -o pipefail\ncd '" + dir.file("") + "'\nCDTRAIN='" +
                                 tool_path("cdtrain") + "'\nCDPREDICT='" + tool_path("cdpredict") +
                                 "'\nDATA='" + absolute_data_path("") + "'\n" + script + "\n");
  const std::string out = dir.file("stdout");
  const std::string err = dir.file("stderr");
  const int raw = std::system(("bash " + file + " >" + out + " 2>" + err).c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(out), read_file(err)};
}

// The message of the Error (of any subclass) that `run` throws, or
// "(no error)".
template <class Run>
std::string error_message(Run run) {
  try {
    run();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A dense row-major matrix as CSR, zeros dropped; for small fixtures.
inline CsrMatrix csr_from_dense(std::size_t rows, std::size_t cols,
                                const std::vector<double>& dense) {
  CsrMatrix m;
  m.num_rows = rows;
  m.num_cols = cols;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const double v = dense[r * cols + c];
      if (v != 0) {
        m.col_idx.push_back(static_cast<Index>(c));
        m.values.push_back(v);
      }
    }
    m.row_ptr.push_back(static_cast<std::int64_t>(m.values.size()));
  }
  return m;
}

// A LIBSVM text of `rows` instances with `per_row` nonzeros each among
// `features` features (every 1 + k * features / per_row-th, shifted per
// row), values in (0, 1], the label the sign of a fixed linear score of
// +-1 weights (a hash of the feature); from a
// seeded std::mt19937_64, so the same text on every platform.
inline std::string sparse_libsvm_text(std::size_t rows, std::size_t features, std::size_t per_row) {
  std::mt19937_64 random(7);
  const std::size_t stride = features / per_row;
  std::string text;
  for (std::size_t r = 0; r < rows; ++r) {
    std::string line;
    double score = 0;
    const std::size_t shift = static_cast<std::size_t>(random() % stride);
    for (std::size_t k = 0; k < per_row; ++k) {
      const std::size_t feature = 1 + k * stride + shift;
      const double value = static_cast<double>(random() % 1000 + 1) / 1000.0;
      score += (((feature * 2654435761u) >> 11) % 2 == 0 ? -1.0 : 1.0) * value;
      line += " " + std::to_string(feature) + ":" + std::to_string(value);
    }
    text += (score > 0 ? "+1" : "-1") + line + "\n";
  }
  return text;
}

}  // namespace cdl::test

#endif  // CDL_TESTS_TEST_UTIL_H_
