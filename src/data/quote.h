// Quoting pieces of user files in messages: printable ASCII as it is, every
// other byte (NUL, control bytes, non-ASCII) as \xNN, and long pieces cut
// after 40 displayed characters with "...", so that a binary file or a line
// of 100 MB gives a short, readable, single-line message.
#ifndef CDL_QUOTE_H_
#define CDL_QUOTE_H_

#include <string>
#include <string_view>

namespace cdl {

// The piece as it is shown, without quotes.
std::string printable(std::string_view text);

// The piece in single quotes: 'abc', '\x7FELF\x02...'.
std::string quoted(std::string_view text);

}  // namespace cdl

#endif  // CDL_QUOTE_H_
