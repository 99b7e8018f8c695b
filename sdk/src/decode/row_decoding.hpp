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
#include <type_traits>


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
/// Every reader is forced inline, keeps only the simdjson get_*() call on its hot path, and
/// hands nothing but plain data (the value's raw text, numbers, codes) to out-of-line code.
/// Measured with g++ 12: passing a simdjson value, even a copy, to a function that is not
/// inlined, even on an error path, lets the address of the document's iterator escape, and
/// the iterator then lives in memory across the whole field loop (a third to a half of the
/// row rate lost); and error handling inlined at each read site slowed the loop by a third.
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
      return absent_or_fail(v.raw_json_token(), key, expected::number);
    }
    return true;
  }
  /// Exact int64. An integral float form (1.0e+03) is accepted only while a double holds
  /// it exactly (|x| <= 2^53), so nanosecond timestamps never pass through a double.
  [[gnu::always_inline]] bool read_int64(od::value v, std::string_view key, std::int64_t& out) {
    if (v.get_int64().get(out) != simdjson::SUCCESS) [[unlikely]] {
      return integer_fallback(v.raw_json_token(), key, out);
    }
    return true;
  }
  [[gnu::always_inline]] bool read_bool(od::value v, std::string_view key, bool& out) {
    if (v.get_bool().get(out) != simdjson::SUCCESS) [[unlikely]] {
      return absent_or_fail(v.raw_json_token(), key, expected::boolean);
    }
    return true;
  }
  /// The unescaped string, copied into the page's arena.
  [[gnu::always_inline]] bool read_string(od::value v, std::string_view key, std::string_view& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      return absent_or_fail(v.raw_json_token(), key, expected::string);
    }
    out = builder_.store(text);
    return true;
  }
  /// An array of int32 codes, copied into the page's arena.
  [[gnu::always_inline]] bool read_int32_array(od::value v, std::string_view key,
                                               std::span<const std::int32_t>& out) {
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) [[unlikely]] {
      return absent_or_fail(v.raw_json_token(), key, expected::integer_array);
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
  /// A decimal string ("100.0"), or a JSON number read exactly from its text.
  [[gnu::always_inline]] bool read_decimal(od::value v, std::string_view key, std::optional<decimal>& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      return decimal_fallback(v.raw_json_token(), key, out);
    }
    out = to_decimal(text, key);
    return true;
  }

  /// An int64 that must fit an int32 field.
  [[gnu::always_inline]] std::int32_t narrow(std::int64_t wide, std::string_view key) const {
    if (wide < INT32_MIN || wide > INT32_MAX) [[unlikely]] fail(decode_errc::out_of_range, key, "integer beyond int32");
    return static_cast<std::int32_t>(wide);
  }

  /// Throws missing_field naming the first required field whose bit is not in `seen`.
  [[noreturn, gnu::cold]] void missing(std::uint64_t seen, std::uint64_t required,
                                       std::span<const std::string_view> names) const;
  [[noreturn, gnu::cold]] void fail(decode_errc code, std::string_view key, const char* detail) const;

 private:
  enum class expected : std::uint8_t { number, boolean, string, integer_array };

  /// A read failed: false when the token is null (absent); throws otherwise.
  [[gnu::cold]] bool absent_or_fail(std::string_view token, std::string_view key, expected what) const;
  /// get_int64 failed: null is absent; an integral float form within 2^53 is accepted.
  [[gnu::cold]] bool integer_fallback(std::string_view token, std::string_view key, std::int64_t& out) const;
  /// get_string failed: null is absent; a JSON number is read exactly from its text.
  [[gnu::cold]] bool decimal_fallback(std::string_view token, std::string_view key,
                                      std::optional<decimal>& out) const;
  [[noreturn, gnu::cold]] void fail_element_of(simdjson::error_code e, std::string_view key) const;
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

[[noreturn, gnu::cold]] void fail_element(const batch& b, std::size_t row, simdjson::error_code e,
                                         std::string_view token);
[[noreturn, gnu::cold]] void fail_batch(const batch& b, simdjson::error_code e);
[[noreturn, gnu::cold]] void fail_field_iteration(const row_context& ctx, simdjson::error_code e);

/// The batch loop shared by every model: one row per array element, created in place in the
/// page's row region (a blank row, then filled by Decode).
template <class T, void (*Decode)(row_context&, od::object&, T&)>
void decode_rows(batch& b) {
  static_assert(std::is_trivially_copyable_v<T>, "rows are created by copying a blank row");
  od::document doc;
  if (auto e = b.parser.iterate(b.json, b.length, b.capacity).get(doc)) fail_batch(b, e);
  od::array elements;
  if (auto e = doc.get_array().get(elements)) fail_batch(b, e);
  std::byte* out = b.builder.row_end();
  std::byte* const limit = b.builder.row_limit();
  std::size_t row = b.first_row;
  for (auto element : elements) {
    od::object object;
    if (auto e = element.get_object().get(object)) [[unlikely]] {
      // Only the element's text leaves this function (see row_context).
      fail_element(b, row, e, e == simdjson::INCORRECT_TYPE ? element.value_unsafe().raw_json_token() : "");
    }
    if (out == limit) throw_page_full("rows");
    // Copying a blank row rather than value-initialising in place: for a 160-byte row g++
    // emitted `rep stos`, whose start-up cost showed in the row rate.
    static constexpr T blank{};
    std::memcpy(out, &blank, sizeof(T));
    T* target = std::launder(reinterpret_cast<T*>(out));
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
