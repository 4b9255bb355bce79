// A binary cache of a parsed data file, in the spirit of Vowpal Wabbit's
// cache: the matrix read_libsvm_csc() built, stored so that a later run
// loads it at the speed of memory instead of parsing the text again.
//
// The cache records what it was made from: the text file's size,
// modification time (nanoseconds) and a checksum of its first MiB, the
// reader options that shape the matrix (the bias and integer labels), and
// the format version. A cache that does not match all of them is stale: it
// is rebuilt from the text, never trusted. A cache that matches but is
// truncated, fails its checksums or holds an inconsistent matrix is corrupt:
// an Error "cache_path: reason" that says to delete it (a corrupt cache
// points at a disk or a tool fault worth knowing about, and a file that is
// not a cache at all, named by mistake, must not be overwritten).
//
// Layout (native byte order, checked by a tag): a 128-byte header, then
// labels (8 bytes per row), col_ptr (8 per column + 8), row_idx (4 per
// nonzero), values (8 per nonzero) and the line map (16 per entry). row_idx
// and values each start at a multiple of 64 KiB, after zero bytes, so that
// the loader can map them (util/file_pages.h) rather than copy them. It maps
// the values (two thirds of the matrix) and reads the row numbers, which
// must stay as checked.
// The header and the payload each carry a 64-bit checksum, and the loader
// reads the payload whole to check it.
#ifndef CDL_CACHE_H_
#define CDL_CACHE_H_

#include <optional>
#include <string>

#include "data/libsvm_reader.h"

namespace cdl {

// FILE.cdcache beside the text file FILE.
std::string default_cache_path(const std::string& data_path);

// Writes `data`, read from `data_path` with `options`, to `cache_path`
// atomically (a temporary file renamed into place). `data_path` is stat'ed
// and its head checksummed now: call it with the stat taken before reading
// (see read_with_cache), or right after. Throws IoError on failure.
void write_cache(const std::string& cache_path, const std::string& data_path,
                 const ReadOptions& options, const LabeledCsc& data);

// Loads the cache if it matches `data_path` and `options`; nothing if it is
// stale or does not exist. Throws Error "cache_path: reason" if it is
// corrupt or truncated, or not a cache.
std::optional<LabeledCsc> load_cache(const std::string& cache_path, const std::string& data_path,
                                     const ReadOptions& options);

struct CacheUse {
  bool loaded = false;   // the matrix came from the cache
  bool written = false;  // the cache was (re)built
  std::string warning;   // why it could not be written, if so
};

// read_libsvm_csc(data_path, options) through the cache at `cache_path`:
// loads it when it matches, else parses the text and writes the cache. A
// cache that cannot be written is reported in `use.warning` and the data are
// returned anyway. `data_path` must be a regular file (not standard input).
LabeledCsc read_with_cache(const std::string& data_path, const ReadOptions& options,
                           const std::string& cache_path, CacheUse& use);

}  // namespace cdl

#endif  // CDL_CACHE_H_
