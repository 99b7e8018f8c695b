// Rows for people and for programs. JSON is one array, as the SDK's writers print it; JSON
// Lines one row per line; CSV and the table flatten nested objects into dotted columns
// (`day.close`), write arrays as their elements joined by ", ", and show timestamps as
// ISO 8601 in UTC with the digits of their unit. Every format streams page by page: the
// table's columns and widths are fixed by the first page.
#pragma once

#include "arguments.hpp"

#include <cstddef>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace massive::cli {

/// A column of CSV and the table, flattened (`lastQuote.P`).
struct column {
  std::string name;
  /// For integer timestamps, the digits of their unit (3: ms, 6: us, 9: ns); else 0.
  int timestamp_digits = 0;
};

/// "2024-01-10T14:59:58.830123456Z": `count` units of 10^-digits s (digits 3, 6 or 9) since
/// the Unix epoch, with `digits` fraction digits.
std::string iso8601(long long count, int digits);

/// `text` made safe to write to a terminal: a control character a terminal would act on (C0,
/// DEL, and C1, U+0080 to U+009F, which some terminals read as ESC sequences: U+009B is CSI)
/// is replaced, tab, line feed and carriage return by a space and the others by U+FFFD, as is
/// a byte that is not UTF-8 (a lone 0x9B is CSI to an 8-bit terminal). Longer than `max_bytes`,
/// it is cut at a character and ends with "...". Every text from the wire that CSV, the table
/// and stderr show goes through it; JSON escapes instead.
std::string terminal_safe(std::string_view text, std::size_t max_bytes = std::string_view::npos);

/// The longest error message or leniency path printed on stderr, in bytes: a server's text in
/// it (a key, a path) is cut, never copied whole.
inline constexpr std::size_t max_message_bytes = 1024;
inline constexpr std::size_t max_path_bytes = 256;

/// Rows that cannot be printed: not a JSON array of objects, or (CSV) a column after the header.
class output_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Prints pages of rows (each a JSON array, as json_page::rows_json) in one format.
class row_printer {
 public:
  virtual ~row_printer() = default;
  /// One page's rows. Throws output_error.
  virtual void page(std::string_view rows_json) = 0;
  /// After the last page.
  virtual void finish() = 0;
};

/// A printer of `format` onto `out`. CSV and the table print `columns` (every column the
/// operation's rows can have, in order; the table only those that the first page fills);
/// when `columns` is empty they take the first page's. `raw_times` keeps timestamps as
/// integers.
std::unique_ptr<row_printer> make_printer(output_format format, std::ostream& out, std::vector<column> columns,
                                          bool raw_times);

}  // namespace massive::cli
