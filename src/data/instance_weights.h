// Instance weights (cdtrain -W, LIBLINEAR's "weights" extension): a text
// file with one number >= 0 per line, line j the weight s_j of instance j of
// the training file, which multiplies that instance's C (Problem::weights).
// The file is read on its own at each run (it is not part of the --cache
// cache), strictly: each line (CRLF ends accepted, spaces and tabs around
// the number ignored) must be a whole finite number >= 0, and the file must
// have exactly one line per instance.
#ifndef CDL_INSTANCE_WEIGHTS_H_
#define CDL_INSTANCE_WEIGHTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cdl {

// Parses `text`, the contents of the file `name` (for messages), for `rows`
// instances. Throws ParseError "name:line: reason" for a line that is not a
// finite number >= 0 (an empty line included), for a count of lines other
// than `rows`, and (naming the last line) when every weight is 0.
std::vector<double> parse_instance_weights(std::string_view text, const std::string& name,
                                           std::size_t rows);

// Reads the file (or pipe; "-" is standard input) and parses it. Throws
// IoError if it cannot be read.
std::vector<double> read_instance_weights(const std::string& path, std::size_t rows);

}  // namespace cdl

#endif  // CDL_INSTANCE_WEIGHTS_H_
