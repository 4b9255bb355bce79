// A main() for the fuzz targets without libFuzzer: runs
// LLVMFuzzerTestOneInput once on every file named on the command line (or
// found in a directory named there). `make asan` builds each target with it,
// under AddressSanitizer and UBSan with g++, and replays the seeds and every
// kept crash reproducer (fuzz/regressions/<target>/), so that they stay
// regression tests on machines without clang.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void replay(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int k = 1; k < argc; ++k) {
    const std::filesystem::path path(argv[k]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        // .gitkeep keeps an empty folder of reproducers in the repository.
        if (entry.is_regular_file() && entry.path().filename() != ".gitkeep") {
          replay(entry.path());
          ++count;
        }
      }
    } else if (std::filesystem::is_regular_file(path)) {
      replay(path);
      ++count;
    } else {
      std::fprintf(stderr, "%s: no such file or directory: %s\n", argv[0], argv[k]);
      return 1;
    }
  }
  std::printf("%s: %zu inputs replayed\n", argv[0], count);
  return 0;
}
