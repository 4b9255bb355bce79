#include "atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#include "error.h"

namespace cdl {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

// The temporary files of the writers alive now, for the signal handler. A
// slot is free (0), being filled (1) or holds a path (2); the handler reads
// only full slots, with nothing but async-signal-safe calls.
constexpr std::size_t kMaxPending = 8;
constexpr std::size_t kMaxPendingPath = 4096;
struct PendingFile {
  std::atomic<int> state{0};
  char path[kMaxPendingPath];
};
PendingFile pending_files[kMaxPending];
const char* interrupted_program = "";

int add_pending(const std::string& path) {
  if (path.size() >= kMaxPendingPath) return -1;
  for (std::size_t k = 0; k < kMaxPending; ++k) {
    int expected = 0;
    if (pending_files[k].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(pending_files[k].path, path.c_str(), path.size() + 1);
      pending_files[k].state.store(2);
      return static_cast<int>(k);
    }
  }
  return -1;  // more writers than slots: this one is not removed on a signal
}

void remove_pending(int slot) {
  if (slot >= 0) pending_files[static_cast<std::size_t>(slot)].state.store(0);
}

void write_stderr(const char* text) {
  std::size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t n = ::write(2, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

extern "C" void remove_pending_and_die(int signal_number) {
  for (PendingFile& file : pending_files) {
    if (file.state.load() == 2) ::unlink(file.path);
  }
  write_stderr(interrupted_program);
  write_stderr(": interrupted; no output file was written\n");
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

// The reason of the last failed system call, for messages.
std::string system_reason() {
  return errno != 0 ? std::string(": ") + std::strerror(errno) : std::string();
}

std::string random_suffix() {
  std::random_device device;
  const auto value = (static_cast<unsigned long long>(device()) << 32) ^ device();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ".tmp%016llx", value);
  return buffer;
}

}  // namespace

void check_writable_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw IoError(path + ": is a directory");
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::exists(parent, ec)) {
    throw IoError(path + ": cannot write: directory " + parent.string() + " does not exist");
  }
  if (!fs::is_directory(parent, ec)) {
    throw IoError(path + ": cannot write: " + parent.string() + " is not a directory");
  }
  // The temporary file goes into the directory (devices are written
  // directly, links in their target's directory, checked when opened).
  const auto status = fs::status(path, ec);
  const bool device = fs::exists(status) && !fs::is_regular_file(status);
  errno = 0;
  if (!device && !fs::is_symlink(path, ec) && ::access(parent.c_str(), W_OK) != 0) {
    throw IoError(path + ": cannot write: directory " + parent.string() + " is not writable" +
                  system_reason());
  }
}

void check_not_input(const std::string& output, const std::string& what, const std::string& input) {
  std::error_code ec;
  if (std::filesystem::equivalent(output, input, ec) && !ec) {
    throw ConfigError(what + " '" + output + "' is the input file '" + input +
                      "'; refusing to overwrite it");
  }
}

void remove_temporary_files_on_signals(const char* program) {
  interrupted_program = program;
  struct sigaction action {};
  action.sa_handler = remove_pending_and_die;
  sigemptyset(&action.sa_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    sigaction(signal_number, &action, nullptr);
  }
}

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  check_writable_path(path);
  std::error_code ec;
  // Write through a symbolic link to the file it names, as fopen would.
  if (std::filesystem::is_symlink(path, ec)) {
    const auto target = std::filesystem::weakly_canonical(path, ec);
    if (!ec) target_ = target.string();
  }
  if (target_.empty()) target_ = path;
  const auto status = std::filesystem::status(target_, ec);
  direct_ = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  replacing_ = !ec && std::filesystem::is_regular_file(status);
  if (replacing_) permissions_ = status.permissions();
  temp_path_ = direct_ ? target_ : target_ + random_suffix();
  if (!direct_) pending_slot_ = add_pending(temp_path_);
  errno = 0;
  out_.open(temp_path_, std::ios::binary | (direct_ ? std::ios::out : std::ios::trunc));
  if (!out_) {
    const std::string reason = system_reason();
    remove_pending(pending_slot_);
    throw IoError(path + ": cannot open for writing" + reason);
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_ && !direct_) {
    out_.close();
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
  }
  remove_pending(pending_slot_);
}

void AtomicFileWriter::write(std::string_view text) {
  buffer_.append(text);
  if (buffer_.size() >= kFlushBytes) flush_buffer();
}

void AtomicFileWriter::flush_buffer() {
  errno = 0;
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  if (!out_) throw IoError(path_ + ": write failed" + system_reason());
}

void AtomicFileWriter::finish() {
  if (finished_) return;
  flush_buffer();
  errno = 0;
  out_.flush();
  out_.close();
  if (!out_) throw IoError(path_ + ": write failed" + system_reason());
  finished_ = true;
}

void AtomicFileWriter::commit() {
  finish();
  committed_ = true;
  if (direct_) return;
  std::error_code ec;
  if (replacing_) std::filesystem::permissions(temp_path_, permissions_, ec);
  std::filesystem::rename(temp_path_, target_, ec);
  if (ec) {
    committed_ = false;
    throw IoError(path_ + ": cannot rename temporary file: " + ec.message());
  }
}

}  // namespace cdl
