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
// its permissions, and the link stays. Signals are not handled here: a
// process killed before commit() can leave the temporary file behind.
#ifndef CDL_ATOMIC_FILE_H_
#define CDL_ATOMIC_FILE_H_

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
  // Flushes, closes and renames; throws IoError on any failure.
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
  bool committed_ = false;
};

// Throws IoError unless `path` could be created as a file: its directory
// exists and it is not itself a directory. Lets a tool fail before a long
// training run rather than after it.
void check_writable_path(const std::string& path);

}  // namespace cdl

#endif  // CDL_ATOMIC_FILE_H_
