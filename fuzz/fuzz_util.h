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

// The readers take paths, so each input is written to a scratch file of
// this process (in /dev/shm when there is one) and read back from there. The
// file is removed when the input is done: libFuzzer ends a timed run without
// running atexit handlers.
class ScratchFile {
 public:
  ScratchFile(const std::uint8_t* data, std::size_t size) {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    path_ = std::string(dir) + "/cdl_fuzz_" + std::to_string(getpid()) + ".svm";
    std::FILE* file = std::fopen(path_.c_str(), "wb");
    if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) {
      std::perror(path_.c_str());
      std::abort();
    }
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Stops the fuzzer with a message: a broken invariant, not a rejected input.
[[noreturn]] inline void fail(const std::string& message) {
  std::fprintf(stderr, "invariant broken: %s\n", message.c_str());
  std::abort();
}

}  // namespace cdl::fuzz

#endif  // CDL_FUZZ_FUZZ_UTIL_H_
