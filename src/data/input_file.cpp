#include "data/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "util/error.h"

namespace cdl {

namespace {

// The pipe buffer asked for (Linux's default limit for unprivileged users,
// /proc/sys/fs/pipe-max-size, is 1 MiB).
constexpr int kPipeBytes = 1 << 20;

// The status of an input path that exists and is not a directory; throws
// IoError naming the path otherwise.
std::filesystem::file_status existing_input_status(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw IoError(path + ": cannot open: " + ec.message());
  }
  if (!std::filesystem::exists(status)) throw IoError(path + ": cannot open: no such file");
  if (std::filesystem::is_directory(status)) throw IoError(path + ": is a directory");
  return status;
}

}  // namespace

void check_input_file(const std::string& path) {
  if (!std::filesystem::is_regular_file(existing_input_status(path))) {
    throw IoError(path + ": not a regular file");
  }
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

std::string input_name(const std::string& path) {
  return path == kStandardInput ? "(standard input)" : path;
}

InputStream::InputStream(const std::string& path) : path_(path), name_(input_name(path)) {
  if (path == kStandardInput) {
    fd_ = STDIN_FILENO;
  } else {
    // The status first, so that a directory or device is named as such and
    // never opened (opening a FIFO blocks until a writer comes, as it should).
    const auto status = existing_input_status(path);
    if (!std::filesystem::is_regular_file(status) && !std::filesystem::is_fifo(status) &&
        !std::filesystem::is_socket(status)) {
      throw IoError(path + ": not a regular file or pipe");
    }
    errno = 0;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw IoError(path + ": cannot open for reading" + system_reason());
    owned_ = true;
  }
  struct stat info {};
  if (::fstat(fd_, &info) == 0 && S_ISREG(info.st_mode)) {
    regular_ = true;
    size_ = static_cast<std::uint64_t>(info.st_size);
    // The kernel may read ahead further; a hint only.
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  } else if (path == kStandardInput && ::fstat(fd_, &info) != 0) {
    throw IoError(name_ + ": cannot read" + system_reason());
  } else if (S_ISFIFO(info.st_mode)) {
    // A larger pipe buffer lets the writer run ahead in bigger steps, so
    // that both sides wake up far less often (64 KiB by default: one wake-up
    // every 64 KiB). A hint only: the system limit may refuse it. A pipe
    // that its writer already made larger is left as it is.
    if (::fcntl(fd_, F_GETPIPE_SZ) < kPipeBytes) ::fcntl(fd_, F_SETPIPE_SZ, kPipeBytes);
  }
}

InputStream::~InputStream() {
  if (owned_) ::close(fd_);
}

std::size_t InputStream::read(char* out, std::size_t size) {
  size = static_cast<std::size_t>(std::min<std::uint64_t>(size, left_));
  if (size == 0) return 0;
  for (;;) {
    errno = 0;
    const ssize_t got = ::read(fd_, out, size);
    if (got >= 0) {
      left_ -= static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    }
    if (errno != EINTR) throw IoError(name_ + ": read error" + system_reason());
  }
}

namespace {

// The first line start at or after `at` in the regular file `fd` of `size`
// bytes: `at` itself if it is 0 or follows a newline, else the byte after
// the next newline, or `size`.
std::uint64_t line_start_from(int fd, std::uint64_t at, std::uint64_t size,
                              const std::string& name) {
  if (at == 0 || at >= size) return std::min(at, size);
  char buffer[1 << 16];
  std::uint64_t position = at - 1;
  while (position < size) {
    errno = 0;
    const ssize_t got = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(position));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw IoError(name + ": read error" + system_reason());
    if (got == 0) break;
    const void* newline = std::memchr(buffer, '\n', static_cast<std::size_t>(got));
    if (newline != nullptr) {
      return position + static_cast<std::uint64_t>(static_cast<const char*>(newline) - buffer) + 1;
    }
    position += static_cast<std::uint64_t>(got);
  }
  return size;
}

}  // namespace

void InputStream::limit_to_lines(std::uint64_t begin, std::uint64_t end) {
  if (!regular_) throw Error(name_ + ": a range of lines needs a regular file, not a pipe");
  const std::uint64_t first = line_start_from(fd_, begin, size_, name_);
  const std::uint64_t stop = std::max(first, line_start_from(fd_, end, size_, name_));
  if (::lseek(fd_, static_cast<off_t>(first), SEEK_SET) < 0) {
    throw IoError(name_ + ": cannot seek" + system_reason());
  }
  size_ = stop - first;
  left_ = size_;
}

const char* compression_format(const char* data, std::size_t size) {
  const auto starts_with = [&](const char* magic, std::size_t length) {
    return size >= length && std::memcmp(data, magic, length) == 0;
  };
  if (starts_with("\x1F\x8B", 2)) return "gzip";
  if (starts_with("\xFD"
                  "7zXZ\x00",
                  6))
    return "xz";
  if (starts_with("BZh", 3) && size >= 4 && data[3] >= '1' && data[3] <= '9') return "bzip2";
  if (starts_with("\x28\xB5\x2F\xFD", 4)) return "zstd";
  return nullptr;
}

const char* decompressor(const char* format) {
  const std::string name = format;
  if (name == "gzip") return "zcat";
  if (name == "xz") return "xzcat";
  if (name == "bzip2") return "bzcat";
  return "zstdcat";
}

}  // namespace cdl
