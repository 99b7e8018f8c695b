// Rows for people and for programs, printed straight from the typed rows (the reflection
// table's row functions: each row written by its generated JSON writer or visited field by
// field), never written to JSON and parsed again. JSON is one array, JSON Lines one row per
// line; CSV and the table flatten nested objects into dotted columns (`day.close`), write an
// array of scalars as its elements joined by ", " and a map or an array of objects as its
// JSON, and show timestamps as ISO 8601 in UTC with the digits of their unit. Every format
// streams page by page: output is written when a page ends (and in between when it grows),
// the table's columns and widths are fixed by the first page.
#pragma once

#include <cstddef>
#include <massive/reflection/model_table.hpp>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "arguments.hpp"

namespace massive::cli {

/// "2024-01-10T14:59:58.830123456Z": `count` units of 10^-digits s (digits 0, 3, 6 or 9) since
/// the Unix epoch, with `digits` fraction digits. A year outside 0000-9999 (any a 64-bit count
/// reaches) is written as ISO 8601 expands it: "+292278994-08-17T07:12:55.807Z".
std::string iso8601(long long count, int digits);

/// What terminal_safe() does with a tab, a line feed and a carriage return: a space where the
/// text must stay on one line (a table's cell, stderr), kept where the format carries them (a
/// quoted CSV field, RFC 4180).
enum class line_breaks : bool { spaced, kept };

/// `text` made safe to write to a terminal: a control character a terminal would act on (C0,
/// DEL, and C1, U+0080 to U+009F, which some terminals read as ESC sequences: U+009B is CSI)
/// is replaced, tab, line feed and carriage return as `breaks` says and the others by U+FFFD,
/// as is a byte that is not UTF-8 (a lone 0x9B is CSI to an 8-bit terminal). Longer than
/// `max_bytes`, it is cut at a character and ends with "...". Every text from the wire that
/// CSV, the table and stderr show goes through it; JSON escapes instead.
std::string terminal_safe(std::string_view text, std::size_t max_bytes = std::string_view::npos,
                          line_breaks breaks = line_breaks::spaced);

/// The longest error message or leniency path printed on stderr, in bytes: a server's text in
/// it (a key, a path) is cut, never copied whole.
inline constexpr std::size_t max_message_bytes = 1024;
inline constexpr std::size_t max_path_bytes = 256;

/// Rows that cannot be printed: (CSV) a column the header printed before lacks.
class output_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One row to print: row `index` of the array `rows` of the model `functions` describes.
struct printable_row {
  const void* rows = nullptr;
  std::size_t index = 0;
  const reflection::row_functions* functions = nullptr;
  /// A stream event's `ev` (its channel's prefix, "T"), printed first; empty for REST rows.
  std::string_view ev;
  /// CSV and the table: put before each of the row's column names ("T." when a stream's
  /// several event types share the columns, so that no column holds two meanings).
  std::string_view column_prefix;
};

/// Prints rows in one format.
class row_printer {
 public:
  virtual ~row_printer() = default;
  /// One row. Throws output_error.
  virtual void row(const printable_row& r) = 0;
  /// The end of a page (or a stream's batch): what it printed is written out.
  virtual void end_page() = 0;
  /// A page of `count` rows of the model `functions` describes, at `rows`: each row, then
  /// end_page(). The table reads it twice rather than keep its text.
  virtual void page(const void* rows, std::size_t count, const reflection::row_functions& functions) {
    for (std::size_t i = 0; i < count; ++i) row({rows, i, &functions, {}, {}});
    end_page();
  }
  /// After the last page.
  virtual void finish() = 0;
};

/// A printer of `format` onto `out`. CSV and the table print `columns` (every column the rows
/// can have, in order; the table only those that the first page fills). `raw_times` keeps
/// timestamps as integers.
std::unique_ptr<row_printer> make_printer(output_format format, std::ostream& out,
                                          std::vector<std::string> columns, bool raw_times);

/// The columns of a row of the model `functions` describes, flattened as CSV and the table
/// print them, found by visiting `row` (a value of that model): every field it has, and the
/// keys of the nested objects it has.
std::vector<std::string> columns_of(const reflection::row_functions& functions, const void* row);

/// --envelope: each page as the API's object, one per line: the envelope's fields, then the
/// rows where the body has them (`results`, `results.values`, the body itself), and the
/// indicators' `results.underlying` decoded. Returns what decoding the underlying's aggregates
/// left out (nothing when the page carries none), for the caller to report as it reports the
/// page's own.
reflection::underlying_leniency print_envelope(std::ostream& out, const reflection::row_page& page,
                                               payload_shape shape);

}  // namespace massive::cli
