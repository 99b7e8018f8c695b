// The flat-file decoder: the bytes of a CSV file (already inflated), fed in pieces of any size,
// into pages of typed rows drawn from a page_pool, as REST bodies are decoded. Columns are
// mapped by the header's names; rows a filter does not want are never materialised.
//
// Memory: one line in progress (at most decode_options::max_line_bytes) and the page being
// filled (at most decode_options::rows_per_page rows and what they point to), whatever the
// file's size. Nothing is allocated per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "massive/decode_policy.hpp"
#include "massive/files/error.hpp"
#include "massive/files/rows.hpp"
#include "massive/page.hpp"
#include "massive/time.hpp"

namespace massive::files {

/// Which rows a decoder keeps; the others are skipped while parsing, never stored.
struct row_filter {
  /// Keep only these tickers (exact match); empty keeps every ticker.
  std::vector<std::string> tickers;
  /// Keep rows at or after this time (trades and quotes: sip_timestamp where the file has it,
  /// else participant_timestamp; aggregates: window_start).
  std::optional<timestamp_ns> from;
  /// Keep rows before this time.
  std::optional<timestamp_ns> to;
};

/// How a decoder pages, bounds and filters.
struct decode_options {
  /// A page is handed out when it holds this many rows (the last page of a file may hold fewer).
  std::size_t rows_per_page = 16384;
  /// A longer line is files_error(line_too_long): the memory a hostile file can make the decoder
  /// hold.
  std::size_t max_line_bytes = 64 * 1024;
  /// What to keep.
  row_filter filter;
  /// lenient (the default): a row whose needed field is empty or does not parse is left out and
  /// counted (row_page::dropped_rows()); strict: it is files_error(malformed_row) naming the line
  /// and column.
  decode_policy policy = decode_policy::lenient;
};

/// What a page's rows came from and what was left out of them.
struct page_stats {
  /// The file's line of the page's first row (1 is the header).
  std::uint64_t first_line = 0;
  /// Lines read for this page, header and filtered rows included.
  std::uint64_t lines = 0;
  /// Rows the filter did not want.
  std::uint64_t filtered_rows = 0;
  /// Rows left out under decode_policy::lenient: a needed field empty or not parsing.
  std::uint64_t dropped_rows = 0;
  /// The first dropped row's line, when there is one.
  std::optional<std::uint64_t> first_dropped_line;
};

namespace detail {

/// A column's type in a row: how the decoder parses and stores it.
enum class column_kind : std::uint8_t {
  text,      ///< std::string_view (empty: absent)
  opt_text,  ///< std::optional<std::string_view>
  ticker,    ///< std::string_view, equal consecutive values share one copy
  f64,       ///< double, needed
  opt_f64,   ///< std::optional<double>
  i64,       ///< std::int64_t, needed
  opt_i64,   ///< std::optional<std::int64_t>
  opt_i32,   ///< std::optional<std::int32_t>
  ns,        ///< timestamp_ns, needed
  opt_ns,    ///< std::optional<timestamp_ns>
  i32_list,  ///< std::span<const std::int32_t>: "12,37", 12 or empty
  /// A member of a type no kind above holds (a regeneration from another description typed it
  /// so): a file whose header has the column is refused, naming it.
  unreadable,
};

/// One column a row type reads.
struct column {
  std::string_view name;
  column_kind kind;
  std::uint32_t offset;   ///< of the field in the row
  bool needed_in_header;  ///< a file without the column is files_error(missing_column)
};

/// How a row type is read from a file: its columns, the column the time window applies to
/// (a list, the first the header has), and a default-constructed row.
struct row_schema {
  std::string_view name;  ///< e.g. "stock_trade", in error messages
  std::span<const column> columns;
  std::span<const std::string_view> time_columns;
  std::size_t row_size;
  const void* blank_row;
};

/// Every row type a decoder reads: the generated ones (rows.hpp), then aggregate.
template <class... Rows>
auto with_aggregate(row_type_list<Rows...>) -> row_type_list<Rows..., aggregate>;
using decodable_rows = decltype(with_aggregate(tick_row_types{}));

/// The schema of the row type at `index` of decodable_rows.
const row_schema& schema_at(std::size_t index) noexcept;

/// What the engine hands to a row_page.
struct csv_page_parts {
  massive::detail::page_parts parts;
  page_stats stats;
};

/// The row-type-independent engine behind row_decoder<T> (sdk/src/files/csv_decoder.cpp).
class csv_core {
 public:
  csv_core(std::shared_ptr<page_pool> pool, const row_schema& schema, decode_options options);
  csv_core(csv_core&&) noexcept;
  csv_core& operator=(csv_core&&) noexcept;
  ~csv_core();

  std::size_t feed(std::span<const char> bytes);
  void finish();
  bool page_ready() const noexcept;
  bool finished() const noexcept;
  csv_page_parts take();
  void reset() noexcept;
  std::uint64_t line() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace detail

template <class Row>
class row_decoder;

/// Rows of one file, in file order, in one contiguous array; strings and condition arrays in the
/// page's arena. Move-only; rows are valid while the page lives (the lifetime rule of
/// massive::page: its memory goes back to the pool when it is destroyed).
template <class Row>
class row_page : public massive::detail::pooled_rows<Row> {
 public:
  /// An empty page holding no memory.
  row_page() noexcept = default;
  /// Takes the rows and their memory; `other` becomes empty.
  row_page(row_page&& other) noexcept
      : massive::detail::pooled_rows<Row>(std::move(other)),
        stats_(std::exchange(other.stats_, {})) {}
  /// Returns this page's memory to its pool, then takes `other`'s.
  row_page& operator=(row_page&& other) noexcept {
    if (this != &other) {
      massive::detail::pooled_rows<Row>::operator=(std::move(other));
      stats_ = std::exchange(other.stats_, {});
    }
    return *this;
  }

  /// Where the rows came from in the file and what was left out.
  const page_stats& stats() const noexcept { return stats_; }

 private:
  friend class row_decoder<Row>;
  explicit row_page(detail::csv_page_parts&& parts) noexcept
      : massive::detail::pooled_rows<Row>(parts.parts), stats_(parts.stats) {}

  page_stats stats_;
};

/// Decodes one CSV file at a time into row_pages of Row (stock_trade, stock_quote,
/// option_trade, option_quote, crypto_trade, forex_quote, aggregate). Sans-I/O: bytes in, pages
/// out; not thread-safe (the pool is). The first line must be the header.
///
/// feed() consumes bytes until a page is full and returns how many it took: take() the page,
/// then feed the rest. finish() ends the file (a last line without a newline counts) and makes
/// the last page, possibly empty, ready. feed() and finish() throw files_error (missing_column,
/// malformed_header, line_too_long, malformed_row under strict); after one, reset() before the
/// next file.
template <class Row>
class row_decoder {
  static constexpr std::size_t schema_index = detail::decodable_rows::index_of<Row>();
  static_assert(schema_index < detail::decodable_rows::size, "not a flat-file row type");

 public:
  /// Pages come from `pool`.
  explicit row_decoder(std::shared_ptr<page_pool> pool, decode_options options = {})
      : core_(std::move(pool), detail::schema_at(schema_index), std::move(options)) {}

  /// Takes bytes of the file until a page is full; returns how many it took (all of them
  /// unless page_ready()).
  std::size_t feed(std::span<const char> bytes) { return core_.feed(bytes); }
  /// The file is complete: the last page becomes ready.
  void finish() { core_.finish(); }
  /// A page is full (or the file finished) and waits for take().
  bool page_ready() const noexcept { return core_.page_ready(); }
  /// finish() was called and the last page was taken (or is ready).
  bool finished() const noexcept { return core_.finished(); }
  /// The ready page. Throws std::logic_error when none is.
  row_page<Row> take() { return row_page<Row>(core_.take()); }
  /// Forgets the current file (its page goes back to the pool), for the next file.
  void reset() noexcept { core_.reset(); }
  /// Lines read so far (1 after the header).
  std::uint64_t line() const noexcept { return core_.line(); }

 private:
  detail::csv_core core_;
};

}  // namespace massive::files
