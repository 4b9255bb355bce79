// Opening input files.
//
// Model files are read with open_input_file(), which accepts regular files
// only: a directory, a FIFO or a device is refused with a message (a model is
// small and always a file).
//
// Data files are read through an InputStream, which also takes standard input
// ("-") and non-seekable inputs: pipes, named FIFOs, process substitution
// (<(zcat f.gz)) and /dev/stdin. Those are read once, front to back, as any
// Unix filter reads them; a FIFO that never delivers blocks, as it does for
// cat. Directories and devices other than standard input are still refused
// (reading a device such as /dev/zero would never end).
#ifndef CDL_INPUT_FILE_H_
#define CDL_INPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

namespace cdl {

// Throws IoError "path: reason" unless `path` names a regular file.
void check_input_file(const std::string& path);

// check_input_file(), then opens the file for binary reading; throws IoError
// with the system's reason ("Permission denied") if it cannot.
std::ifstream open_input_file(const std::string& path);

// The name that stands for standard input on the command line.
inline constexpr const char* kStandardInput = "-";

// How messages name an input: "(standard input)" for "-", else the path.
std::string input_name(const std::string& path);

// A data file, a pipe or standard input, read front to back with read(2).
// Owns its file descriptor (standard input is never closed). Not copyable.
class InputStream {
 public:
  // Throws IoError "path: cannot open: no such file", "path: is a
  // directory", "path: not a regular file or pipe" (a device) or "path:
  // cannot open for reading: <reason>".
  explicit InputStream(const std::string& path);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  // Reads up to `size` bytes into `out` (one system call; a pipe may give
  // fewer). Returns 0 only at the end. Throws IoError on a read error.
  std::size_t read(char* out, std::size_t size);

  // The path as given, and the name for messages (input_name()).
  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }
  // A regular file, whose size is known: size() bytes when it was opened
  // (after limit_to_lines(), the range's).
  bool regular() const { return regular_; }
  std::uint64_t size() const { return size_; }
  // Makes a regular file, not yet read, read as the lines that start in its
  // bytes [begin, end) alone: from the first line start at or after `begin`
  // to the end of the line that holds byte end - 1 (a line starts at byte 0
  // and after each newline), so that the ranges of consecutive [begin, end)
  // cover every line once. Throws Error for a pipe or standard input.
  void limit_to_lines(std::uint64_t begin, std::uint64_t end);

 private:
  std::string path_;
  std::string name_;
  int fd_ = -1;
  bool owned_ = false;
  bool regular_ = false;
  std::uint64_t size_ = 0;
  std::uint64_t left_ = UINT64_MAX;  // the bytes read() may still give
};

// The compression format whose magic bytes start [data, data + size)
// ("gzip", "xz", "bzip2" or "zstd"), or nullptr. No LIBSVM file starts so.
const char* compression_format(const char* data, std::size_t size);

// The usual command that decompresses `format` to standard output ("zcat").
const char* decompressor(const char* format);

}  // namespace cdl

#endif  // CDL_INPUT_FILE_H_
