// Writing a file so that it appears whole or not at all.
//
// The content goes to a temporary file in the target's directory, which
// commit() flushes, checks and renames over the target. If commit() is never
// reached (an exception, a failed write), the destructor removes the temporary
// file and the target, if it existed, is untouched.
//
// A target that exists and is not a regular file (/dev/stdout, a FIFO) cannot
// be replaced by a rename; it is written directly, and commit() only flushes.
// A symbolic link is written through: the file it names is replaced, keeping
// its permissions, and the link stays. After
// remove_temporary_files_on_signals(), SIGINT, SIGTERM and SIGHUP remove the
// temporary files of the live writers before the process dies of the signal.
// Other fatal signals (SIGKILL, SIGQUIT, SIGSEGV) can leave a
// "<target>.tmp<hex>" file, as can a writer beyond the eighth alive at once.
#ifndef CDL_ATOMIC_FILE_H_
#define CDL_ATOMIC_FILE_H_

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace cdl {

class AtomicFileWriter {
 public:
  // Throws IoError if the temporary file cannot be created.
  explicit AtomicFileWriter(const std::string& path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // Appends to an internal buffer, flushed to disk in large blocks.
  void write(std::string_view text);
  // Flushes and closes the file, so that every write error shows here;
  // throws IoError. Lets a caller finish several files before renaming any.
  void finish();
  // finish() if not done yet, then renames; throws IoError on any failure.
  void commit();

 private:
  void flush_buffer();

  std::string path_;
  std::string target_;  // path_, or the file a symbolic link path_ names
  std::string temp_path_;
  std::filesystem::perms permissions_ = std::filesystem::perms::none;
  bool replacing_ = false;  // target_ exists as a regular file
  std::ofstream out_;
  std::string buffer_;
  bool direct_ = false;  // writing straight to a device or FIFO
  bool finished_ = false;
  bool committed_ = false;
  int pending_slot_ = -1;  // this writer's entry in the signal handler's list
};

// Throws IoError unless `path` could be created as a file: its directory
// exists and it is not itself a directory. Lets a tool fail before a long
// training run rather than after it.
void check_writable_path(const std::string& path);

// Whether the two paths name one file: the same existing file (also through
// links), or, for files that do not exist yet, the same absolute path.
bool same_file(const std::string& a, const std::string& b);

// Throws ConfigError "<what> 'output' is the input file 'input'" if writing
// `output` would replace the existing file `input` (by the same name, or
// another name or link to it), so that no tool ever overwrites its own
// input.
void check_not_input(const std::string& output, const std::string& what, const std::string& input);

// Installs handlers for SIGINT, SIGTERM and SIGHUP (unless the process
// inherited them ignored) that remove every live writer's temporary file,
// print "<program>: interrupted; no output file was written" and then end
// the process by the same signal; one for SIGBUS that, for a page of a
// mapped file that cannot be read (a cache truncated under the run, see
// util/file_pages.h, or an I/O error), removes them, prints "<program>:
// error: a page of a file mapped into memory could not be read (...); no
// output file was written" and exits with status 1; and ignores SIGXFSZ, so that a write
// beyond the file size limit fails like one to a full disk. For main().
void remove_temporary_files_on_signals(const char* program);

// Holds SIGINT, SIGTERM and SIGHUP back while it lives (in this thread), so
// that several files can be renamed into place all or none.
class DeferredSignals {
 public:
  DeferredSignals();
  ~DeferredSignals();
  DeferredSignals(const DeferredSignals&) = delete;
  DeferredSignals& operator=(const DeferredSignals&) = delete;

 private:
  sigset_t saved_;
};

}  // namespace cdl

#endif  // CDL_ATOMIC_FILE_H_
