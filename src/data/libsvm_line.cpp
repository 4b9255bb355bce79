#include "data/libsvm_line.h"

#include <charconv>
#include <system_error>

#include "data/input_file.h"
#include "util/error.h"

namespace cdl {
namespace detail {
namespace {

std::string quoted(const char* first, const char* last) {
  return cdl::quoted(std::string_view(first, static_cast<std::size_t>(last - first)));
}

// Why [first, last) is not a finite double, for the error message.
std::string bad_number_reason(const char* first, const char* last) {
  if (first == last) return "is empty";
  const char* digits = (*first == '+' || *first == '-') ? first + 1 : first;
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits, last, value, std::chars_format::general);
  const bool parsed = ec == std::errc() || ec == std::errc::result_out_of_range;
  if (parsed && ptr != last) return "has trailing characters";
  if (ec == std::errc::result_out_of_range) return "is out of the range of a double";
  if (ec == std::errc() && !std::isfinite(value)) return "is not a finite number";
  return "is not a number";
}

// Files saved by some Windows editors start with a byte order mark, which is
// worth naming rather than quoting as a bad label.
void check_byte_order_mark(const LineContext& context, const char* first, const char* last) {
  const auto starts_with = [&](const char* mark, std::size_t size) {
    return static_cast<std::size_t>(last - first) >= size && std::memcmp(first, mark, size) == 0;
  };
  if (starts_with("\xEF\xBB\xBF", 3)) {
    fail_at(context, first, first,
            "the file starts with a UTF-8 byte order mark (EF BB BF); save it without one");
  }
  if (starts_with("\xFF\xFE", 2) || starts_with("\xFE\xFF", 2)) {
    fail_at(context, first, first,
            "the file is UTF-16 text (it starts with a byte order mark); save it as "
            "ASCII or UTF-8");
  }
}

}  // namespace

void throw_no_instances(const std::string& name) {
  throw DataError(name + ": no instances (the file is empty or holds only comments)");
}

void check_not_compressed(const std::string& name, const ReadOptions& options, const char* data,
                          std::size_t size) {
  const char* format = compression_format(data, size);
  if (format == nullptr) return;
  const std::string command = options.pipe_command.empty() ? "" : " | " + options.pipe_command;
  if (name == input_name(kStandardInput)) {
    throw DataError(name + ": the data are " + format +
                    "-compressed; decompress them in the pipe: ... | " + decompressor(format) +
                    command);
  }
  throw DataError(name + ": the data are " + format + "-compressed; decompress them into a pipe: " +
                  decompressor(format) + " " + name + command);
}

void fail_at(const LineContext& context, const char* line_start, const char* at,
             const std::string& reason) {
  throw ParseError(context.name, context.line,
                   reason + " (column " + std::to_string(at - line_start + 1) + ")");
}

void fail_label(const LineContext& context, const char* line_start, const char* last, const char* p,
                const char* token_end) {
  if (std::memchr(p, ':', static_cast<std::size_t>(token_end - p)) != nullptr) {
    fail_at(context, line_start, p,
            "missing label: line starts with feature " + quoted(p, token_end));
  }
  if (context.at_input_start && context.line == 1) check_byte_order_mark(context, line_start, last);
  fail_at(context, line_start, p,
          "label " + quoted(p, token_end) + " " + bad_number_reason(p, token_end));
}

void fail_order(const LineContext& context, const char* line_start, const char* p,
                std::uint64_t index, std::uint64_t previous) {
  fail_at(context, line_start, p,
          index == previous ? "duplicate feature index " + std::to_string(index)
                            : "feature index " + std::to_string(index) +
                                  " not greater than previous index " + std::to_string(previous));
}

void parse_pair_general(const LineContext& context, const char* line_start, const char* p,
                        const char* token_end, const char* last, std::uint64_t& index,
                        double& value) {
  const char* colon =
      static_cast<const char*>(std::memchr(p, ':', static_cast<std::size_t>(token_end - p)));
  if (colon == nullptr) {
    std::string reason = "expected index:value, got " + quoted(p, token_end);
    if (token_end != last && token_end + 1 != last && token_end[1] == ':') {
      reason += " (no spaces are allowed around ':')";
    }
    fail_at(context, line_start, p, reason);
  }
  if (colon == p) {
    fail_at(context, line_start, p, "missing feature index before ':' in " + quoted(p, token_end));
  }
  auto [ptr, ec] = std::from_chars(p, colon, index, 10);
  if (ec != std::errc() || ptr != colon) {
    if (*p == '-') {
      fail_at(context, line_start, p,
              "negative feature index " + quoted(p, colon) + ": indices are 1-based");
    }
    if (ec == std::errc::result_out_of_range) {
      fail_at(context, line_start, p, "feature index " + quoted(p, colon) + " exceeds 2147483647");
    }
    fail_at(context, line_start, p, "feature index " + quoted(p, colon) + " is not an integer");
  }
  if (index == 0) fail_at(context, line_start, p, "feature index 0: indices are 1-based");
  if (index > kMaxDimension) {
    fail_at(context, line_start, p, "feature index " + quoted(p, colon) + " exceeds 2147483647");
  }
  if (!parse_double(colon + 1, token_end, value)) {
    if (colon + 1 == token_end) {
      // "3: 0.5": the next token is a value, not a comment or another pair.
      bool space_then_value = token_end != last && is_blank(*token_end);
      if (space_then_value) {
        const char* next = token_end;
        while (next != last && is_blank(*next)) ++next;
        const char* next_end = next;
        while (next_end != last && !is_blank(*next_end)) ++next_end;
        space_then_value =
            next != last && *next != '#' &&
            std::memchr(next, ':', static_cast<std::size_t>(next_end - next)) == nullptr;
      }
      fail_at(context, line_start, colon + 1,
              "missing value after " + quoted(p, token_end) +
                  (space_then_value ? " (no spaces are allowed around ':')" : ""));
    }
    fail_at(context, line_start, colon + 1,
            "value " + quoted(colon + 1, token_end) + " of feature " + std::to_string(index) + " " +
                bad_number_reason(colon + 1, token_end));
  }
}

}  // namespace detail
}  // namespace cdl
