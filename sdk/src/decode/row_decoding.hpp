// What a model's row decoder is written with (sdk/src/models/<model>.cpp, the form the
// generator emits): the batch loop, the field readers, and the errors they raise.
//
// A model decoder walks the object's fields once, in wire order, and dispatches on the raw
// key: a switch on its first byte, then key_is() against each name starting with it (bytes
// and closing quote; unescaped keys are never needed: the API's keys are plain ASCII).
// Every double field goes through one read_double() call site after the switch: with g++ 12,
// get_double() inlined in every case of the switch halved the decoder's speed.
#pragma once

#include "decode/page_builder.hpp"
#include "decode/row_codec.hpp"
#include "massive/decimal.hpp"
#include "massive/error.hpp"
#include "massive/time.hpp"

#include <simdjson.h>

#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string_view>


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
///
/// Every reader is forced inline and hands only plain data (text, numbers, codes) to
/// out-of-line code. Passing a simdjson value, even a copy, to a function that is not inlined,
/// even on an error path or for a rare key, lets the address of the document's iterator
/// escape; GCC then keeps the iterator in memory across the whole field loop, which cost a
/// third to a half of the row rate in measurement.
class row_context {
 public:
  row_context(page_builder& builder, const row_path& path, std::size_t row) noexcept
      : builder_(builder), path_(path), row_(row) {}

  std::size_t row() const noexcept { return row_; }

  // Readers: true when the field was read, false when it is null (treated as absent);
  // anything else that is not the expected type throws decode_error naming the field.

  /// Accepts any JSON number: 135647456, 1748755.0, 1.0e+06.
  [[gnu::always_inline]] bool read_double(od::value v, std::string_view key, double& out) {
    if (v.get_double().get(out) != simdjson::SUCCESS) [[unlikely]] {
      return null_or_fail(v, key, "a number", true);
    }
    return true;
  }
  /// Exact int64. An integral float form (1.0e+03) is accepted only while a double holds
  /// it exactly (|x| <= 2^53), so nanosecond timestamps never pass through a double.
  [[gnu::always_inline]] bool read_int64(od::value v, std::string_view key, std::int64_t& out) {
    const simdjson::error_code e = v.get_int64().get(out);
    if (e != simdjson::SUCCESS) [[unlikely]] {
      if (e == simdjson::NUMBER_OUT_OF_RANGE) fail(decode_errc::out_of_range, key, "integer beyond int64");
      double d = 0;
      if (v.get_double().get(d) != simdjson::SUCCESS) return null_or_fail(v, key, "an integer", true);
      out = integral(d, key);
    }
    return true;
  }
  [[gnu::always_inline]] bool read_int32(od::value v, std::string_view key, std::int32_t& out) {
    std::int64_t wide = 0;
    if (!read_int64(v, key, wide)) return false;
    out = narrow(wide, key);
    return true;
  }
  /// A Unix timestamp: an exact integer count of Duration.
  template <class Duration>
  [[gnu::always_inline]] bool read_time(od::value v, std::string_view key, unix_time<Duration>& out) {
    std::int64_t count = 0;
    if (!read_int64(v, key, count)) return false;
    out = unix_time<Duration>::from_count(count);
    return true;
  }
  [[gnu::always_inline]] bool read_bool(od::value v, std::string_view key, bool& out) {
    if (v.get_bool().get(out) != simdjson::SUCCESS) [[unlikely]] return null_or_fail(v, key, "true or false");
    return true;
  }
  /// The unescaped string, copied into the page's arena.
  [[gnu::always_inline]] bool read_string(od::value v, std::string_view key, std::string_view& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] return null_or_fail(v, key, "a string");
    out = builder_.store(text);
    return true;
  }
  /// An array of int32 codes, copied into the page's arena.
  [[gnu::always_inline]] bool read_int32_array(od::value v, std::string_view key,
                                               std::span<const std::int32_t>& out) {
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) [[unlikely]] {
      return null_or_fail(v, key, "an array of integers");
    }
    auto* const first = builder_.arena_align<std::int32_t>();
    auto* next = first;
    auto* const limit = reinterpret_cast<std::int32_t*>(builder_.arena_limit());
    for (auto element : array) {
      std::int64_t wide = 0;
      if (const simdjson::error_code e = element.get_int64().get(wide)) [[unlikely]] fail_element_of(e, key);
      if (next == limit) [[unlikely]] throw_page_full("strings and arrays");
      *next++ = narrow(wide, key);
    }
    builder_.commit_arena(reinterpret_cast<char*>(next));
    out = {first, static_cast<std::size_t>(next - first)};
    return true;
  }
  /// A decimal string ("100.0") or a JSON number, read exactly from its text.
  [[gnu::always_inline]] bool read_decimal(od::value v, std::string_view key, decimal& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) {
      od::number_type kind{};
      if (v.get_number_type().get(kind) != simdjson::SUCCESS) return null_or_fail(v, key, "a decimal string", true);
      text = v.raw_json_token();
    }
    out = to_decimal(text, key);
    return true;
  }

  template <class T>
  [[gnu::always_inline]] bool read_optional(od::value v, std::string_view key, std::optional<T>& out) {
    T value{};
    if (!read(v, key, value)) return false;
    out = value;
    return true;
  }

  /// Throws missing_field naming the first required field whose bit is not in `seen`.
  [[noreturn, gnu::cold]] void missing(std::uint64_t seen, std::uint64_t required,
                                       std::span<const std::string_view> names) const;
  [[noreturn, gnu::cold]] void fail(decode_errc code, std::string_view key, const char* detail) const;

 private:
  [[gnu::always_inline]] bool read(od::value v, std::string_view key, std::int64_t& out) {
    return read_int64(v, key, out);
  }
  [[gnu::always_inline]] bool read(od::value v, std::string_view key, std::int32_t& out) {
    return read_int32(v, key, out);
  }
  [[gnu::always_inline]] bool read(od::value v, std::string_view key, decimal& out) {
    return read_decimal(v, key, out);
  }
  [[gnu::always_inline]] bool read(od::value v, std::string_view key, double& out) {
    return read_double(v, key, out);
  }
  template <class Duration>
  [[gnu::always_inline]] bool read(od::value v, std::string_view key, unix_time<Duration>& out) {
    return read_time(v, key, out);
  }

  // A failed read: null means absent, anything else throws.
  [[gnu::always_inline]] bool null_or_fail(od::value& v, std::string_view key, const char* expected,
                                           bool expects_number = false) {
    bool is_null = false;
    if (v.is_null().get(is_null) == simdjson::SUCCESS && is_null) return false;
    fail_value(v.raw_json_token(), key, expected, expects_number);
  }
  [[gnu::always_inline]] std::int32_t narrow(std::int64_t wide, std::string_view key) const {
    if (wide < INT32_MIN || wide > INT32_MAX) [[unlikely]] fail(decode_errc::out_of_range, key, "integer beyond int32");
    return static_cast<std::int32_t>(wide);
  }
  [[noreturn, gnu::cold]] void fail_value(std::string_view token, std::string_view key, const char* expected,
                                          bool expects_number) const;
  [[noreturn, gnu::cold]] void fail_element_of(simdjson::error_code e, std::string_view key) const;
  /// An integral double within 2^53 as int64; throws otherwise.
  std::int64_t integral(double d, std::string_view key) const;
  /// decimal::parse, throwing when the text is not an exact decimal.
  decimal to_decimal(std::string_view text, std::string_view key) const;

  page_builder& builder_;
  const row_path& path_;
  std::size_t row_;
};

/// The raw key (as sent, just past its opening quote) is exactly `name`: its bytes and then
/// the closing quote. Reading past a short key is safe: the batch is padded. An escaped key
/// never matches (the API sends none); it is then skipped like any unknown key.
template <std::size_t N>
[[gnu::always_inline]] inline bool key_is(const char* raw, const char (&name)[N]) noexcept {
  return std::memcmp(raw, name, N - 1) == 0 && raw[N - 1] == '"';
}

[[noreturn, gnu::cold]] void fail_element(const batch& b, std::size_t row, simdjson::error_code e);
[[noreturn, gnu::cold]] void fail_batch(const batch& b, simdjson::error_code e);
[[noreturn, gnu::cold]] void fail_field_iteration(const row_context& ctx, simdjson::error_code e);

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
