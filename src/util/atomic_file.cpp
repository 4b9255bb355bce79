#include "util/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#include "util/error.h"

namespace cdl {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

// The temporary files of the writers alive now, for the signal handler. The
// handler reads only ready slots, with nothing but async-signal-safe calls.
constexpr int kFree = 0;
constexpr int kFilling = 1;
constexpr int kReady = 2;
constexpr std::size_t kMaxPending = 8;
constexpr std::size_t kMaxPendingPath = 4096;
struct PendingFile {
  std::atomic<int> state{kFree};
  char path[kMaxPendingPath];
};
PendingFile pending_files[kMaxPending];
const char* interrupted_program = "";
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

int add_pending(const std::string& path) {
  if (path.size() >= kMaxPendingPath) return -1;
  for (std::size_t k = 0; k < kMaxPending; ++k) {
    int expected = kFree;
    if (pending_files[k].state.compare_exchange_strong(expected, kFilling)) {
      std::memcpy(pending_files[k].path, path.c_str(), path.size() + 1);
      pending_files[k].state.store(kReady);
      return static_cast<int>(k);
    }
  }
  return -1;  // more writers than slots: this one is not removed on a signal
}

void remove_pending(int slot) {
  if (slot >= 0) pending_files[static_cast<std::size_t>(slot)].state.store(kFree);
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

// For the handlers below: removes the live writers' temporary files and
// prints "<program><message>".
void remove_pending_and_say(const char* message) {
  for (PendingFile& file : pending_files) {
    if (file.state.load() == kReady) ::unlink(file.path);
  }
  write_stderr(interrupted_program);
  write_stderr(message);
}

// Installed with SA_RESETHAND and every signal blocked: it runs once, and the
// signal raised at its end ends the process as soon as it returns.
extern "C" void remove_pending_and_die(int signal_number) {
  remove_pending_and_say(": interrupted; no output file was written\n");
  ::raise(signal_number);
}

// SIGBUS for a page of a mapped file that cannot be read: beyond the end of
// the data cache's values (util/file_pages.h) truncated under the run, or an
// I/O error. An I/O error, so the temporary files go and the process exits
// with status 1. Any other SIGBUS takes its default action.
extern "C" void remove_pending_and_fail(int signal_number, siginfo_t* info, void*) {
  if (info == nullptr || info->si_code != BUS_ADRERR) {
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
    return;
  }
  remove_pending_and_say(
      ": error: a page of a file mapped into memory could not be read (a --cache file truncated "
      "while in use, or an I/O error); no output file was written\n");
  ::_exit(1);
}

std::string random_suffix() {
  std::random_device device;
  const auto value = (static_cast<unsigned long long>(device()) << 32) ^ device();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ".tmp%016llx", value);
  return buffer;
}

// The file a write to `path` replaces: the file a symbolic link names (as
// fopen would write through it), else `path` itself.
std::string write_target(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_symlink(path, ec)) return path;
  const auto target = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : target.string();
}

}  // namespace

void check_writable_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw IoError(path + ": is a directory");
  // The temporary file goes beside the target.
  const fs::path target = write_target(path);
  fs::path parent = target.parent_path();
  if (parent.empty()) parent = ".";
  const auto parent_status = fs::status(parent, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw IoError(path + ": cannot write: directory " + parent.string() + ": " + ec.message());
  }
  if (!fs::exists(parent_status)) {
    throw IoError(path + ": cannot write: directory " + parent.string() + " does not exist");
  }
  if (!fs::is_directory(parent_status)) {
    throw IoError(path + ": cannot write: " + parent.string() + " is not a directory");
  }
  // Devices and FIFOs are written directly; anything else needs the
  // directory for its temporary file.
  const auto status = fs::status(target, ec);
  const bool device = fs::exists(status) && !fs::is_regular_file(status);
  errno = 0;
  if (!device && ::access(parent.c_str(), W_OK) != 0) {
    throw IoError(path + ": cannot write: directory " + parent.string() + " is not writable" +
                  system_reason());
  }
}

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::equivalent(a, b, ec) && !ec) return true;
  const fs::path canonical_a = fs::weakly_canonical(a, ec);
  if (ec) return a == b;
  const fs::path canonical_b = fs::weakly_canonical(b, ec);
  return ec ? a == b : canonical_a == canonical_b;
}

void check_not_input(const std::string& output, const std::string& what, const std::string& input) {
  if (same_file(output, input)) {
    throw ConfigError(what + " '" + output + "' is the input file '" + input +
                      "'; refusing to overwrite it");
  }
}

void remove_temporary_files_on_signals(const char* program) {
  interrupted_program = program;
  struct sigaction action {};
  action.sa_handler = remove_pending_and_die;
  action.sa_flags = static_cast<int>(SA_RESETHAND);  // an unsigned constant in glibc
  sigfillset(&action.sa_mask);
  for (int signal_number : kCleanupSignals) {
    // A signal the caller ignores (nohup, a background job) stays ignored.
    struct sigaction old {};
    if (sigaction(signal_number, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(signal_number, &action, nullptr);
  }
  struct sigaction bus {};
  bus.sa_sigaction = remove_pending_and_fail;
  bus.sa_flags = SA_SIGINFO;
  sigfillset(&bus.sa_mask);
  sigaction(SIGBUS, &bus, nullptr);
  // Beyond the file size limit a write fails with EFBIG, reported and cleaned
  // up like a full disk, instead of killing the process mid-file.
  ::signal(SIGXFSZ, SIG_IGN);
}

DeferredSignals::DeferredSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal_number : kCleanupSignals) sigaddset(&set, signal_number);
  pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

DeferredSignals::~DeferredSignals() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

AtomicFileWriter::AtomicFileWriter(const std::string& path)
    : path_(path), target_(write_target(path)) {
  check_writable_path(path);
  std::error_code ec;
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
