// The flat-file CSV engine: complete lines are parsed where they lie in the caller's bytes; only
// a line cut by the end of a piece is copied aside (at most max_line_bytes). Each row is built
// in place at the end of the page's rows region from the schema's blank row, its strings and
// condition lists bumped into the page's arena; a row the filter refuses, or that is dropped,
// is undone by moving both ends back, so it costs nothing beyond its parsing.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>

#include "decode/page_builder.hpp"
#include "massive/files/decoder.hpp"

namespace massive::files::detail {
namespace {

using massive::detail::page_builder;

constexpr std::uint16_t ignored = 0xffff;
/// Row types read at most this many columns.
constexpr std::size_t max_schema_columns = 32;
/// A header shown in an error keeps this much of itself.
constexpr std::size_t shown_header_bytes = 200;

/// Eight ASCII digits, loaded little-endian (the first digit in the lowest byte), or not.
[[gnu::always_inline]] inline bool eight_digits(std::uint64_t w) noexcept {
  // A digit's byte is 0x30..0x39: its high nibble is 3, and stays 3 once 6 is added (0x3A + 6
  // is 0x40). No byte carries into the next: the first test leaves bytes of at most 0x3F.
  constexpr std::uint64_t high_nibbles = 0xF0F0F0F0F0F0F0F0ULL;
  constexpr std::uint64_t threes = 0x3030303030303030ULL;
  return (w & high_nibbles) == threes && ((w + 0x0606060606060606ULL) & high_nibbles) == threes;
}

/// The value of eight digits that eight_digits(w) accepted: pairs, then fours, then all eight,
/// each step one multiplication (no lane exceeds its width: 99, 9999, 99999999).
[[gnu::always_inline]] inline std::uint64_t eight_digit_value(std::uint64_t w) noexcept {
  w -= 0x3030303030303030ULL;
  w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFULL;
  w = ((w * (1 + (100ULL << 16))) >> 16) & 0x0000FFFF0000FFFFULL;
  return (w * (1 + (10000ULL << 32))) >> 32;
}

/// A run of decimal digits and where it stops.
struct digit_run {
  std::uint64_t value;
  const char* stop;
};

/// Reads at most 19 digits from `p` (19 cannot overflow 64 bits), eight at a time while eight
/// are there: a nanosecond timestamp's 19 are two blocks and three bytes.
[[gnu::always_inline]] inline digit_run read_digits(const char* p, const char* end) noexcept {
  const char* const first = p;
  std::uint64_t value = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (int block = 0; block < 2 && end - p >= 8; ++block) {
      std::uint64_t w;
      std::memcpy(&w, p, sizeof w);
      if (!eight_digits(w)) break;
      value = value * 100'000'000 + eight_digit_value(w);
      p += 8;
    }
  }
  for (; p != end && p - first < 19; ++p) {
    const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(*p)) - '0';
    if (digit > 9) break;
    value = value * 10 + digit;
  }
  return {value, p};
}

/// An integer field read where it lies: '-'? and 1 to 19 digits, then `end` or a comma. Returns
/// where it stops, or nullptr for anything else (empty, a stray byte, more digits, beyond
/// int64's range), which the caller reads the general way: the same verdict, more slowly.
[[gnu::always_inline]] inline const char* read_i64(const char* p, const char* end,
                                                   std::int64_t& out) noexcept {
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  const auto [value, stop] = read_digits(p, end);
  if (stop == p || (stop != end && *stop != ',')) return nullptr;
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (value > limit) return nullptr;
  out = negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
  return stop;
}

/// Any length of digits (leading zeros included), each step checked for overflow.
bool parse_i64_checked(std::string_view s, std::int64_t& out) noexcept {
  const bool negative = !s.empty() && s.front() == '-';
  std::size_t i = negative ? 1 : 0;
  if (i == s.size()) return false;
  std::uint64_t value = 0;
  for (; i < s.size(); ++i) {
    const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(s[i])) - '0';
    if (digit > 9) return false;
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (value > limit) return false;
  out = negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
  return true;
}

bool parse_i64(std::string_view s, std::int64_t& out) noexcept {
  if (s.empty()) return false;
  const char* const end = s.data() + s.size();
  return read_i64(s.data(), end, out) == end || parse_i64_checked(s, out);
}

/// 10^k for k = 0..22: each exactly a double.
constexpr double exact_powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// A plain decimal field read where it lies, by Clinger's fast path as fast_float (behind
/// from_chars) takes it: digits and at most one dot, then `end` or a comma, whose digits make an
/// integer below 2^53 (at most 15 digits), is that integer divided by an exact power of ten, one
/// correctly rounded IEEE division, the same double from_chars returns. Returns where it stops,
/// or nullptr for anything else, which the caller gives to from_chars.
[[gnu::always_inline]] inline const char* read_f64(const char* p, const char* end,
                                                   double& out) noexcept {
  std::uint64_t mantissa = 0;
  std::size_t digits = 0;
  const char* dot = nullptr;
  for (; p != end; ++p) {
    const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(*p)) - '0';
    if (digit <= 9) {
      mantissa = mantissa * 10 + digit;
      ++digits;
    } else if (*p == '.' && dot == nullptr) {
      dot = p;
    } else {
      break;
    }
  }
  if ((p != end && *p != ',') || digits == 0 || digits > 15) return nullptr;
  const std::size_t fraction = dot == nullptr ? 0 : static_cast<std::size_t>(p - dot - 1);
  out = static_cast<double>(mantissa) / exact_powers_of_ten[fraction];
  return p;
}

bool parse_f64(std::string_view s, double& out) noexcept {
  if (s.empty()) return false;
  const char* first = s.data();
  if (read_f64(first, first + s.size(), out) == first + s.size()) return true;
  // from_chars takes no leading '+', which some writers emit in exponents only; a leading one
  // is not a number a file of prices writes.
  const auto [end, ec] = std::from_chars(first, first + s.size(), out, std::chars_format::general);
  return ec == std::errc{} && end == first + s.size() && std::isfinite(out);
}

template <class T>
void put(std::byte* row, std::uint32_t offset, const T& value) noexcept {
  std::memcpy(row + offset, &value, sizeof(T));
}

/// Stores a decimal into a column of kind f64 or opt_f64.
[[gnu::always_inline]] inline void put_decimal(const column& c, double v, std::byte* row) noexcept {
  if (c.kind == column_kind::f64) {
    put(row, c.offset, v);
  } else {
    put(row, c.offset, std::optional<double>(v));
  }
}

/// Stores an integer into a column of an integer or time kind; false when it does not fit.
[[gnu::always_inline]] inline bool put_integer(const column& c, std::int64_t v,
                                               std::byte* row) noexcept {
  switch (c.kind) {
    case column_kind::i64:
      put(row, c.offset, v);
      return true;
    case column_kind::opt_i64:
      put(row, c.offset, std::optional<std::int64_t>(v));
      return true;
    case column_kind::opt_i32:
      if (v < std::numeric_limits<std::int32_t>::min() ||
          v > std::numeric_limits<std::int32_t>::max()) {
        return false;
      }
      put(row, c.offset, std::optional<std::int32_t>(static_cast<std::int32_t>(v)));
      return true;
    case column_kind::ns:
      put(row, c.offset, timestamp_ns::from_count(v));
      return true;
    default:
      put(row, c.offset, std::optional<timestamp_ns>(timestamp_ns::from_count(v)));
      return true;
  }
}

/// A row lacking a value of this kind is malformed (the other kinds read an empty field as absent).
bool needs_value(column_kind kind) noexcept {
  return kind == column_kind::ticker || kind == column_kind::f64 || kind == column_kind::i64 ||
         kind == column_kind::ns;
}

/// An unquoted field read and stored where it lies, in the one pass that finds its end: a plain
/// number of the column's kind, or an empty field where the blank row's absent value stays.
/// Returns that end, or nullptr for anything else (text, quoted, a stray byte, out of range, an
/// empty needed value), which the caller then scans and stores the general way.
[[gnu::always_inline]] inline const char* store_in_place(const column& c, const char* first,
                                                         const char* end, std::byte* row) noexcept {
  if (first == end || *first == ',') return needs_value(c.kind) ? nullptr : first;
  switch (c.kind) {
    case column_kind::f64:
    case column_kind::opt_f64: {
      double v;
      const char* const stop = read_f64(first, end, v);
      if (stop != nullptr) put_decimal(c, v, row);
      return stop;
    }
    case column_kind::i64:
    case column_kind::opt_i64:
    case column_kind::opt_i32:
    case column_kind::ns:
    case column_kind::opt_ns: {
      std::int64_t v;
      const char* const stop = read_i64(first, end, v);
      return stop != nullptr && put_integer(c, v, row) ? stop : nullptr;
    }
    default:
      return nullptr;
  }
}

std::string shown(std::string_view header) {
  if (header.size() <= shown_header_bytes) return std::string(header);
  return std::string(header.substr(0, shown_header_bytes)) + "...";
}

}  // namespace

/// One column of the file: what it feeds, if anything.
struct file_column {
  std::uint16_t column = ignored;                          // index into the schema's columns
  const massive::files::detail::column* target = nullptr;  // that column, or none
};

/// What became of a field, and so of its row.
enum class field_verdict : std::uint8_t { keep, filtered, bad };

struct csv_core::impl {
  impl(std::shared_ptr<page_pool> p, const row_schema& s, decode_options o)
      : pool(std::move(p)), schema(s), options(std::move(o)) {
    if (schema.columns.size() > max_schema_columns)
      throw std::logic_error("massive::files: a row schema of too many columns");
    if (options.rows_per_page == 0) options.rows_per_page = 1;
    has_window = options.filter.from.has_value() || options.filter.to.has_value();
    tickers.reserve(options.filter.tickers.size());
    for (const std::string& t : options.filter.tickers) tickers.push_back(t);
    std::sort(tickers.begin(), tickers.end());
    tickers.erase(std::unique(tickers.begin(), tickers.end()), tickers.end());
  }

  std::shared_ptr<page_pool> pool;
  const row_schema& schema;
  decode_options options;
  std::vector<std::string_view> tickers;  // sorted views of options.filter.tickers

  page_builder builder;
  std::vector<file_column> slots;     // by the file's column index
  std::size_t needed_fields = 0;      // a row with fewer fields lacks a needed column
  std::size_t time_column = ignored;  // file column the time window applies to
  bool has_window = false;
  bool header_done = false;
  std::string carry;  // a line cut by the end of a piece
  std::uint64_t line = 0;
  page_stats stats;
  std::string_view last_ticker;  // in the current page's arena
  bool ready = false;
  bool done = false;
  std::exception_ptr failure;

  void fail_if_failed() const {
    if (failure) std::rethrow_exception(failure);
  }

  /// The line being read is longer than max_line_bytes (it is counted, for the message).
  [[noreturn]] void fail_too_long() {
    ++line;
    fail(files_errc::line_too_long, "line " + std::to_string(line) +
                                        " is longer than max_line_bytes (" +
                                        std::to_string(options.max_line_bytes) + ")");
  }

  [[noreturn]] void fail(files_errc code, const std::string& detail) {
    files_error e(code, detail, line);
    failure = std::make_exception_ptr(e);
    throw e;
  }

  void parse_header(std::string_view text);
  void parse_row(std::string_view text);
  field_verdict store(const column& c, std::string_view field, bool escaped, std::byte* row);
  const char* store_list_in_place(const column& c, const char* p, const char* end, std::byte* row);
  void line_done(std::string_view text);
  void finish_page();
};

void csv_core::impl::parse_header(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);  // a UTF-8 BOM
  if (text.empty())
    fail(files_errc::malformed_header, "the file's first line is empty; expected the column names");
  slots.clear();
  std::array<bool, max_schema_columns> taken{};
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    std::string_view name =
        text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
      name = name.substr(1, name.size() - 2);
    file_column s;
    for (std::size_t c = 0; c < schema.columns.size(); ++c) {
      if (schema.columns[c].name != name) continue;
      if (!taken[c]) {  // a repeated name: its first column
        s.column = static_cast<std::uint16_t>(c);
        s.target = &schema.columns[c];
      }
      taken[c] = true;
      break;
    }
    slots.push_back(s);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  needed_fields = 0;
  for (std::size_t c = 0; c < schema.columns.size(); ++c) {
    const auto at = std::find_if(slots.begin(), slots.end(),
                                 [&](const file_column& s) { return s.column == c; });
    if (at == slots.end()) {
      if (schema.columns[c].needed_in_header) {
        fail(files_errc::missing_column, "a " + std::string(schema.name) +
                                             " file needs the column '" +
                                             std::string(schema.columns[c].name) +
                                             "', which its header lacks (" + shown(text) + ")");
      }
      continue;
    }
    const column_kind kind = schema.columns[c].kind;
    if (kind == column_kind::unreadable) {
      fail(files_errc::missing_column, "a " + std::string(schema.name) + " file's column '" +
                                           std::string(schema.columns[c].name) +
                                           "' cannot be read: the row's member of that name has a "
                                           "type no flat-file column holds");
    }
    if (needs_value(kind))
      needed_fields = std::max(needed_fields, static_cast<std::size_t>(at - slots.begin()) + 1);
  }
  time_column = ignored;
  for (std::string_view name : schema.time_columns) {
    for (std::size_t i = 0; i < slots.size() && time_column == ignored; ++i) {
      if (slots[i].column != ignored && schema.columns[slots[i].column].name == name)
        time_column = i;
    }
    if (time_column != ignored) break;
  }
  if (has_window && time_column == ignored) {
    fail(files_errc::missing_column, "a time window needs a time column (" +
                                         std::string(schema.time_columns.front()) +
                                         "), which the header lacks (" + shown(text) + ")");
  }
  header_done = true;
}

field_verdict csv_core::impl::store(const column& c, std::string_view field, bool escaped,
                                    std::byte* row) {
  switch (c.kind) {
    case column_kind::ticker: {
      if (field.empty()) return field_verdict::bad;
      if (!tickers.empty() && !std::binary_search(tickers.begin(), tickers.end(), field))
        return field_verdict::filtered;
      if (field != last_ticker) last_ticker = builder.store(field);
      put(row, c.offset, last_ticker);
      return field_verdict::keep;
    }
    case column_kind::text:
    case column_kind::opt_text: {
      if (field.empty()) return field_verdict::keep;  // the blank row's empty view or nullopt
      std::string_view kept;
      if (!escaped) {
        kept = builder.store(field);
      } else {
        // A quoted field's "" is one quote: copied collapsed.
        if (field.size() > static_cast<std::size_t>(builder.arena_limit() - builder.arena_end())) {
          massive::detail::throw_page_full("strings");
        }
        char* at = builder.arena_end();
        std::size_t n = 0;
        for (std::size_t i = 0; i < field.size(); ++i) {
          at[n++] = field[i];
          if (field[i] == '"') ++i;
        }
        builder.commit_arena(at + n);
        kept = {at, n};
      }
      if (c.kind == column_kind::text) {
        put(row, c.offset, kept);
      } else {
        put(row, c.offset, std::optional<std::string_view>(kept));
      }
      return field_verdict::keep;
    }
    case column_kind::f64:
    case column_kind::opt_f64: {
      if (field.empty()) return needs_value(c.kind) ? field_verdict::bad : field_verdict::keep;
      double v;
      if (!parse_f64(field, v)) return field_verdict::bad;
      put_decimal(c, v, row);
      return field_verdict::keep;
    }
    case column_kind::i64:
    case column_kind::opt_i64:
    case column_kind::opt_i32:
    case column_kind::ns:
    case column_kind::opt_ns: {
      if (field.empty()) return needs_value(c.kind) ? field_verdict::bad : field_verdict::keep;
      std::int64_t v;
      if (!parse_i64(field, v) || !put_integer(c, v, row)) return field_verdict::bad;
      return field_verdict::keep;
    }
    case column_kind::i32_list: {
      if (field.empty()) return field_verdict::keep;
      const std::size_t count =
          static_cast<std::size_t>(std::count(field.begin(), field.end(), ',')) + 1;
      auto* values = builder.arena_align<std::int32_t>();
      if (count * sizeof(std::int32_t) >
          static_cast<std::size_t>(builder.arena_limit() - builder.arena_end())) {
        massive::detail::throw_page_full("condition lists");
      }
      std::size_t n = 0;
      std::size_t pos = 0;
      for (;;) {
        const std::size_t comma = field.find(',', pos);
        std::string_view item = field.substr(
            pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        std::int64_t v;
        if (!parse_i64(item, v) || v < std::numeric_limits<std::int32_t>::min() ||
            v > std::numeric_limits<std::int32_t>::max()) {
          return field_verdict::bad;
        }
        values[n++] = static_cast<std::int32_t>(v);
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
      }
      builder.commit_arena(reinterpret_cast<char*>(values + n));
      put(row, c.offset, std::span<const std::int32_t>(values, n));
      return field_verdict::keep;
    }
    case column_kind::unreadable:  // refused with the header
      break;
  }
  return field_verdict::bad;
}

/// A condition list read and stored where it lies, in the pass that finds its end: empty, 12,
/// or "12,37" (digits and commas only), then the line's end or a comma. Returns that end, or
/// nullptr for anything else (spaces, a sign, a doubled quote, beyond int32), which the caller
/// then scans and stores the general way, with the same verdict.
const char* csv_core::impl::store_list_in_place(const column& c, const char* p, const char* end,
                                                std::byte* row) {
  if (p == end || *p == ',') return p;  // the blank row's empty span stays
  const bool quoted = *p == '"';
  if (quoted) ++p;
  auto* const values = builder.arena_align<std::int32_t>();
  const std::ptrdiff_t bytes = builder.arena_limit() - reinterpret_cast<char*>(values);
  const std::ptrdiff_t room = bytes / std::ptrdiff_t{sizeof(std::int32_t)};
  std::ptrdiff_t n = 0;
  for (;;) {
    const auto [value, stop] = read_digits(p, end);
    if (stop == p || value > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()) ||
        n >= room) {
      return nullptr;
    }
    values[n++] = static_cast<std::int32_t>(value);
    p = stop;
    if (!quoted || p == end || *p != ',') break;
    ++p;
  }
  if (quoted) {
    if (p == end || *p != '"') return nullptr;
    ++p;
  }
  if (p != end && *p != ',') return nullptr;
  builder.commit_arena(reinterpret_cast<char*>(values + n));
  put(row, c.offset, std::span<const std::int32_t>(values, static_cast<std::size_t>(n)));
  return p;
}

void csv_core::impl::parse_row(std::string_view text) {
  if (!builder.started()) {
    builder.start(pool, schema.row_size);
    last_ticker = {};
  }
  if (stats.first_line == 0) stats.first_line = line;
  std::byte* row = builder.row_end();
  if (static_cast<std::size_t>(builder.row_limit() - row) < schema.row_size)
    massive::detail::throw_page_full("rows");
  std::memcpy(row, schema.blank_row, schema.row_size);
  char* const arena_mark = builder.arena_end();
  const std::string_view ticker_mark = last_ticker;

  field_verdict outcome = field_verdict::keep;
  std::string_view bad_column;
  std::size_t fields = 0;
  std::size_t pos = 0;
  for (;;) {
    std::string_view field;
    bool escaped = false;
    bool stored = false;
    std::size_t next;  // where the field's separator is (or text.size())
    const column* const target = fields < slots.size() ? slots[fields].target : nullptr;
    const char* const end = text.data() + text.size();
    const char* const list_stop = target != nullptr && target->kind == column_kind::i32_list
                                      ? store_list_in_place(*target, text.data() + pos, end, row)
                                      : nullptr;
    if (list_stop != nullptr) {
      stored = true;
      next = static_cast<std::size_t>(list_stop - text.data());
      field = text.substr(pos, next - pos);
    } else if (pos < text.size() && text[pos] == '"') {
      std::size_t q = pos + 1;
      for (;;) {
        q = text.find('"', q);
        if (q == std::string_view::npos) break;
        if (q + 1 < text.size() && text[q + 1] == '"') {
          escaped = true;
          q += 2;
          continue;
        }
        break;
      }
      if (q == std::string_view::npos || (q + 1 < text.size() && text[q + 1] != ',')) {
        outcome = field_verdict::bad;
        bad_column = target != nullptr ? target->name : std::string_view("(a quoted field)");
        break;
      }
      field = text.substr(pos + 1, q - pos - 1);
      next = q + 1;
    } else {
      const char* const stop =
          target != nullptr ? store_in_place(*target, text.data() + pos, end, row) : nullptr;
      if (stop != nullptr) {
        stored = true;
        next = static_cast<std::size_t>(stop - text.data());
      } else {
        // Fields are a few bytes: a loop beats a call to memchr for each.
        next = pos;
        while (next < text.size() && text[next] != ',') ++next;
      }
      field = text.substr(pos, next - pos);
    }
    if (target != nullptr) {
      const column& c = *target;
      outcome = stored ? field_verdict::keep : store(c, field, escaped, row);
      if (outcome == field_verdict::keep && fields == time_column && has_window) {
        std::int64_t t;
        if (!parse_i64(field, t) || (options.filter.from && t < options.filter.from->count()) ||
            (options.filter.to && t >= options.filter.to->count())) {
          outcome = field_verdict::filtered;
        }
      }
      if (outcome != field_verdict::keep) {
        bad_column = c.name;
        break;
      }
    }
    ++fields;
    if (next >= text.size()) break;
    pos = next + 1;
  }
  if (outcome == field_verdict::keep && fields < needed_fields) {
    outcome = field_verdict::bad;
    bad_column = "(fewer fields than the header's columns)";
  }
  if (outcome != field_verdict::keep) {
    builder.commit_arena(arena_mark);
    last_ticker = ticker_mark;
    if (outcome == field_verdict::filtered) {
      ++stats.filtered_rows;
      return;
    }
    if (options.policy == decode_policy::strict) {
      fail(files_errc::malformed_row, "line " + std::to_string(line) + ", column " +
                                          std::string(bad_column) +
                                          ": an empty or malformed value where the " +
                                          std::string(schema.name) + " row needs one");
    }
    ++stats.dropped_rows;
    if (!stats.first_dropped_line) stats.first_dropped_line = line;
    return;
  }
  builder.commit_rows(row + schema.row_size);
  if (builder.row_count() >= options.rows_per_page) ready = true;
}

void csv_core::impl::line_done(std::string_view text) {
  if (text.size() > options.max_line_bytes) fail_too_long();
  ++line;
  ++stats.lines;
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (!header_done) {
    parse_header(text);
    return;
  }
  if (text.empty()) return;
  parse_row(text);
}

void csv_core::impl::finish_page() {
  if (!builder.started()) {
    builder.start(pool, schema.row_size);
    last_ticker = {};
  }
  ready = true;
}

csv_core::csv_core(std::shared_ptr<page_pool> pool, const row_schema& schema,
                   decode_options options)
    : impl_(std::make_unique<impl>(std::move(pool), schema, std::move(options))) {}
csv_core::csv_core(csv_core&&) noexcept = default;
csv_core& csv_core::operator=(csv_core&&) noexcept = default;
csv_core::~csv_core() = default;

std::size_t csv_core::feed(std::span<const char> bytes) {
  impl& s = *impl_;
  s.fail_if_failed();
  if (s.done)
    throw std::logic_error("massive::files::row_decoder: feed() after finish(); reset() first");
  if (s.ready) return 0;
  const char* const begin = bytes.data();
  const char* const end = begin + bytes.size();
  const char* at = begin;
  try {
    if (!s.carry.empty() && at != end) {
      const char* nl =
          static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
      const char* upto = nl != nullptr ? nl : end;
      if (s.carry.size() + static_cast<std::size_t>(upto - at) > s.options.max_line_bytes)
        s.fail_too_long();
      s.carry.append(at, upto);
      if (nl == nullptr) return bytes.size();
      at = nl + 1;
      s.line_done(s.carry);
      s.carry.clear();
    }
    while (at != end && !s.ready) {
      const char* nl =
          static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
      if (nl == nullptr) {
        if (static_cast<std::size_t>(end - at) > s.options.max_line_bytes) s.fail_too_long();
        if (s.carry.capacity() < s.options.max_line_bytes)
          s.carry.reserve(s.options.max_line_bytes);
        s.carry.assign(at, end);
        at = end;
        break;
      }
      s.line_done(std::string_view(at, static_cast<std::size_t>(nl - at)));
      at = nl + 1;
    }
  } catch (const files_error&) {
    throw;
  } catch (...) {
    s.failure = std::current_exception();
    throw;
  }
  return static_cast<std::size_t>(at - begin);
}

void csv_core::finish() {
  impl& s = *impl_;
  s.fail_if_failed();
  if (s.done) return;
  if (s.ready)
    throw std::logic_error(
        "massive::files::row_decoder: finish() while a page waits; take() it first");
  try {
    if (!s.carry.empty()) {
      s.line_done(s.carry);
      s.carry.clear();
    }
    if (!s.header_done) s.fail(files_errc::malformed_header, "the file is empty: no header line");
    s.finish_page();
    s.done = true;
  } catch (const files_error&) {
    throw;
  } catch (...) {
    s.failure = std::current_exception();
    throw;
  }
}

bool csv_core::page_ready() const noexcept { return impl_->ready; }
bool csv_core::finished() const noexcept { return impl_->done; }
std::uint64_t csv_core::line() const noexcept { return impl_->line; }

csv_page_parts csv_core::take() {
  impl& s = *impl_;
  if (!s.ready) throw std::logic_error("massive::files::row_decoder: take() without a ready page");
  csv_page_parts out{s.builder.finish(), s.stats};
  s.stats = {};
  s.last_ticker = {};
  s.ready = false;
  return out;
}

void csv_core::reset() noexcept {
  impl& s = *impl_;
  s.builder.abandon();
  s.slots.clear();
  s.header_done = false;
  s.carry.clear();
  s.line = 0;
  s.stats = {};
  s.last_ticker = {};
  s.ready = false;
  s.done = false;
  s.failure = nullptr;
}

}  // namespace massive::files::detail
