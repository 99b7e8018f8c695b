// What a model's row decoder is written with (sdk/src/models/<model>.cpp, the form the
// generator emits): the batch loop, the field readers, and the errors they raise.
//
// A model decoder walks the object's fields once, in wire order, and dispatches on the raw
// key (its bytes up to the closing quote, unescaped keys are never needed: the API's keys are
// plain ASCII, and an escaped key simply matches nothing and is skipped). Every double field
// goes through one read_double() call site after the switch: with g++ 12, inlining
// get_double() in every case of the switch halved the decoder's speed.
#pragma once

#include "decode/page_builder.hpp"
#include "decode/row_codec.hpp"
#include "massive/decimal.hpp"
#include "massive/error.hpp"
#include "massive/time.hpp"

#include <simdjson.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string_view>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace massive::detail {

namespace od = simdjson::ondemand;

/// How errors name the rows of a batch: prefix[row].key, or prefix.key for a single row.
struct row_path {
  std::string_view prefix;  // "results", "results.values" or "" (top level)
  bool indexed;             // rows are array elements
};

/// A run of complete elements, `[` + elements + `]`, in place in the decoder's padded window.
class batch {
 public:
  od::parser& parser;
  const char* json;
  std::size_t length;
  std::size_t capacity;  // readable bytes from json: at least length + SIMDJSON_PADDING
  page_builder& builder;
  row_path path;
  std::size_t first_row;  // page index of the batch's first element
};

std::string field_path(const row_path& path, std::size_t row, std::string_view key);
decode_errc errc_of(simdjson::error_code e) noexcept;

/// One row being decoded: knows its index and how to name its fields in errors.
class row_context {
 public:
  row_context(page_builder& builder, const row_path& path, std::size_t row) noexcept
      : builder_(builder), path_(path), row_(row) {}

  std::size_t row() const noexcept { return row_; }

  // Readers: true when the field was read, false when it is null (treated as absent);
  // anything else that is not the expected type throws decode_error naming the field.

  /// Accepts any JSON number: 135647456, 1748755.0, 1.0e+06.
  bool read_double(od::value& v, std::string_view key, double& out) {
    if (v.get_double().get(out) != simdjson::SUCCESS) [[unlikely]] {
      return null_or_fail(v, key, "a number", true);
    }
    return true;
  }
  /// Exact int64. An integral float form (1.0e+03) is accepted only while a double holds
  /// it exactly (|x| <= 2^53), so nanosecond timestamps never pass through a double.
  bool read_int64(od::value& v, std::string_view key, std::int64_t& out) {
    if (v.get_int64().get(out) != simdjson::SUCCESS) [[unlikely]] return read_integral_slow(v, key, out);
    return true;
  }
  bool read_int32(od::value& v, std::string_view key, std::int32_t& out);
  /// A Unix timestamp: an exact integer count of Duration.
  template <class Duration>
  bool read_time(od::value& v, std::string_view key, unix_time<Duration>& out) {
    std::int64_t count = 0;
    if (!read_int64(v, key, count)) return false;
    out = unix_time<Duration>::from_count(count);
    return true;
  }
  bool read_bool(od::value& v, std::string_view key, bool& out);
  /// The unescaped string, copied into the page's arena.
  bool read_string(od::value& v, std::string_view key, std::string_view& out);
  /// An array of int32 codes, copied into the page's arena.
  bool read_int32_array(od::value& v, std::string_view key, std::span<const std::int32_t>& out);
  /// A decimal string ("100.0") or number, read exactly from its text.
  bool read_decimal(od::value& v, std::string_view key, decimal& out);

  template <class T>
  bool read_optional(od::value& v, std::string_view key, std::optional<T>& out) {
    T value{};
    if (!read(v, key, value)) return false;
    out = value;
    return true;
  }

  /// Throws missing_field naming the first required field whose bit is not in `seen`.
  [[noreturn]] void missing(std::uint64_t seen, std::uint64_t required,
                            std::span<const std::string_view> names) const;
  [[noreturn]] void fail(decode_errc code, std::string_view key, const char* detail) const;

 private:
  bool read(od::value& v, std::string_view key, std::int64_t& out) { return read_int64(v, key, out); }
  bool read(od::value& v, std::string_view key, std::int32_t& out) { return read_int32(v, key, out); }
  bool read(od::value& v, std::string_view key, decimal& out) { return read_decimal(v, key, out); }
  bool read(od::value& v, std::string_view key, double& out) { return read_double(v, key, out); }
  template <class Duration>
  bool read(od::value& v, std::string_view key, unix_time<Duration>& out) {
    return read_time(v, key, out);
  }

  bool null_or_fail(od::value& v, std::string_view key, const char* expected,
                    bool expects_number = false);
  bool read_integral_slow(od::value& v, std::string_view key, std::int64_t& out);

  page_builder& builder_;
  const row_path& path_;
  std::size_t row_;
};

/// The key's raw bytes, up to its closing quote. Reads past it: the batch is padded.
inline std::string_view raw_key(od::field& field) noexcept {
  const char* key = field.key().raw();
#if defined(__SSE2__)
  for (std::size_t at = 0;; at += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key + at));
    const auto quotes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'))));
    if (quotes != 0) return {key, at + static_cast<unsigned>(std::countr_zero(quotes))};
  }
#else
  return {key, static_cast<std::size_t>(static_cast<const char*>(std::memchr(key, '"', SIZE_MAX >> 1)) - key)};
#endif
}

[[noreturn]] void fail_element(const batch& b, std::size_t row, simdjson::error_code e);
[[noreturn]] void fail_batch(const batch& b, simdjson::error_code e);
[[noreturn]] void fail_field_iteration(const row_context& ctx, simdjson::error_code e);

/// The batch loop shared by every model: one row per array element, constructed in place in
/// the page's row region (value-initialised, then filled by Decode).
template <class T, void (*Decode)(row_context&, od::object&, T&)>
void decode_rows(batch& b) {
  od::document doc;
  if (auto e = b.parser.iterate(b.json, b.length, b.capacity).get(doc)) fail_batch(b, e);
  od::array elements;
  if (auto e = doc.get_array().get(elements)) fail_batch(b, e);
  std::byte* out = b.builder.row_end();
  std::byte* const limit = b.builder.row_limit();
  std::size_t row = b.first_row;
  for (auto element : elements) {
    od::object object;
    if (auto e = element.get_object().get(object)) fail_element(b, row, e);
    if (out == limit) throw_page_full("rows");
    T* target = ::new (static_cast<void*>(out)) T{};
    row_context ctx(b.builder, b.path, row);
    Decode(ctx, object, *target);
    out += sizeof(T);
    ++row;
  }
  b.builder.commit_rows(out);
}

template <class T, void (*Decode)(row_context&, od::object&, T&)>
constexpr row_codec make_row_codec() noexcept {
  return row_codec{sizeof(T), alignof(T), &decode_rows<T, Decode>};
}

}  // namespace massive::detail
