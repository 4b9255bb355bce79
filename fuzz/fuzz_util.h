// Helpers shared by the libFuzzer targets.
#ifndef CDL_FUZZ_FUZZ_UTIL_H_
#define CDL_FUZZ_FUZZ_UTIL_H_

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cdl::fuzz {

// The reader's column arrays may take this much, well inside libFuzzer's
// memory limit; a larger index must be refused, not allocated.
constexpr std::uint64_t kColumnMemoryLimit = std::uint64_t{16} << 20;

// The readers take paths, so each input is written to one scratch file per
// process (in /dev/shm when there is one), read back from there, and
// removed when the process exits normally.
inline const std::string& write_scratch_file(const std::uint8_t* data, std::size_t size,
                                             const char* suffix) {
  static const std::string path = [suffix] {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/cdl_fuzz_" + std::to_string(getpid()) + suffix;
  }();
  static const bool removed_at_exit = [] {
    return std::atexit([] { std::remove(path.c_str()); }) == 0;
  }();
  (void)removed_at_exit;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) {
    std::perror(path.c_str());
    std::abort();
  }
  return path;
}

// Stops the fuzzer with a message: a broken invariant, not a rejected input.
[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "invariant broken: %s\n", message.c_str());
  std::abort();
}

}  // namespace cdl::fuzz

#endif  // CDL_FUZZ_FUZZ_UTIL_H_
