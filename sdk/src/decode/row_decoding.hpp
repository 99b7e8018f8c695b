// What a model's row decoder is written with (generated/src/models/<model>_decode.hpp, the
// form the generator emits): the batch loop, the field readers, and the errors they raise.
//
// A model decoder walks the object's fields once, in wire order, and dispatches on the raw
// key: a switch on its first byte, then key_is() against each name starting with it (bytes
// and closing quote; unescaped keys are never needed: the API's keys are plain ASCII).
// Every double field goes through one read_double() call site after the switch: with g++ 12,
// get_double() inlined in every case of the switch halved the decoder's speed.
//
// A model whose rows the server sends with their keys in one order (a `wire` row in the
// generator's map: the aggregates) also gets decode_<model>_wire, which asks find_field for
// each key in that order, the straight-line walk of the whole-buffer ceiling, and takes a
// row only when it is exactly those fields (only_these_fields); decode_rows_in_wire_order
// hands any other row, and the rest of its batch, to the field loop.
#pragma once

#include "decode/page_builder.hpp"
#include "decode/row_codec.hpp"
#include "massive/decimal.hpp"
#include "massive/error.hpp"
#include "massive/json_value.hpp"
#include "massive/time.hpp"

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(__AVX2__)
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
  std::size_t first_row;  // index in the body's array of the batch's first element
  std::size_t skipped_rows = 0;  // elements left out (decode_policy::lenient: not objects, or incomplete)
};

std::string field_path(const row_path& path, std::size_t row, std::string_view key);
/// Appends field_path(path, row, key) to `out`.
void field_path_into(std::string& out, const row_path& path, std::size_t row, std::string_view key);
decode_errc errc_of(simdjson::error_code e) noexcept;

/// What an integer field makes of a number sent in float form (1.0e+03, 3.0), row or
/// envelope alike, judged from its decimal text (`number`, a JSON number): the integer when
/// the text's value is one and within 2^53. Never through a double, which makes
/// 4503599627370497.5 an integer and 9007199254740993.0 its neighbour; and a float form beyond
/// 2^53 was written from a double, whose last digits a nanosecond timestamp cannot trust.
enum class integral : std::uint8_t { exact, fraction, beyond_2_53 };
inline constexpr const char* beyond_2_53_detail = "integer beyond int64, or a float form beyond 2^53";
integral exact_integer(std::string_view number, std::int64_t& out) noexcept;
/// The whole text is a JSON number (no leading zero, no bare '.', no '+').
bool json_number(std::string_view text) noexcept;

/// A blank row, array element or map entry at `out`, in the page's row region or arena.
/// Copied rather than value-initialised in place: for a 160-byte row g++ emitted `rep stos`,
/// whose start-up cost showed in the row rate.
template <class T>
[[gnu::always_inline]] inline T& blank_row_at(void* out) noexcept {
  static_assert(std::is_trivially_copyable_v<T>, "rows are created by copying a blank row");
  static constexpr T blank{};
  std::memcpy(out, &blank, sizeof(T));
  return *std::launder(static_cast<T*>(out));
}

/// One row being decoded, or an object nested in one: knows the row's index and how to name
/// its fields in errors.
///
/// Every reader is forced inline, keeps only the simdjson get_*() call on its hot path, and
/// hands nothing but plain data (the value's raw text, numbers, codes) to out-of-line code.
/// Measured with g++ 12: passing a simdjson value, even a copy, to a function that is not
/// inlined, even on an error path, lets the address of the document's iterator escape, and
/// the iterator then lives in memory across the whole field loop (a third to a half of the
/// row rate lost); and error handling inlined at each read site slowed the loop by a third.
/// The same holds for the decode functions of nested models that read_object() and its
/// relatives call: they must be forced inline like the row decoders.
///
/// A nested object is decoded with a child context (child()), which names its fields below
/// its parent's path: results[3].day.c, results[3].bids[2].p, results[3].tickers.AAPL.c. A
/// child is a few words on the stack pointing at its parent: the path is spelled out only
/// when an error is thrown, so the success path allocates nothing.
///
/// Strings, arrays and JSON texts go to the page's arena. An array whose elements put more
/// into the arena while they are decoded (strings, nested objects) reserves its elements
/// first; an array of scalars is written in place as it is read.
class row_context {
 public:
  static constexpr std::size_t no_index = SIZE_MAX;

  row_context(page_builder& builder, const row_path& path, std::size_t row) noexcept
      : builder_(builder), path_(path), row_(row) {}

  /// The context of the object at `key` of this one, or of element `index` of the array at
  /// `key`. It refers to this context, which must outlive it.
  row_context child(std::string_view key, std::size_t index = no_index) const noexcept {
    return row_context(*this, key, index);
  }

  /// The index of the row (of the outermost object) within the page.
  std::size_t row() const noexcept { return row_; }

  // Readers: true when the field was read, false when it is null (treated as absent; an
  // optional is then reset, a span emptied). A value of another type (a surprise) is, under
  // decode_policy::lenient, coerced when it converts without loss (true) or skipped like a
  // null (false), and counted in the page's page_leniency; under decode_policy::strict it
  // throws decode_error naming the field's full path. Broken JSON always throws. The
  // surprises are handled out of line: the success path is one simdjson get_*() call.

  /// Accepts any JSON number: 135647456, 1748755.0, 1.0e+06; coerces a string holding one.
  [[gnu::always_inline]] bool read_double(od::value v, std::string_view key, double& out) {
    if (v.get_double().get(out) != simdjson::SUCCESS) [[unlikely]] {
      return number_fallback(v.raw_json_token(), key, out);
    }
    return true;
  }
  /// Exact int64. An integral float form (1.0e+03) is accepted within 2^53, judged from its
  /// text (exact_integer), so nanosecond timestamps never pass through a double.
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
  /// A bool the server leaves off when false (a map row's absent=false): null reads as false
  /// too. False only for a value of another type, a surprise: absence means false, so the field
  /// cannot show that it was skipped, and the generated decoder leaves its object out instead.
  [[gnu::always_inline]] bool read_flag(od::value v, std::string_view key, bool& out) {
    if (v.get_bool().get(out) != simdjson::SUCCESS) [[unlikely]] {
      out = false;
      return flag_fallback(v.raw_json_token(), key);
    }
    return true;
  }
  [[gnu::always_inline]] bool read_bool(od::value v, std::string_view key, std::optional<bool>& out) {
    bool b = false;
    if (v.get_bool().get(b) != simdjson::SUCCESS) [[unlikely]] {
      out.reset();
      return absent_or_fail(v.raw_json_token(), key, expected::boolean);
    }
    out = b;
    return true;
  }
  /// The unescaped string, copied into the page's arena. A number, true or false is coerced
  /// to its JSON text.
  [[gnu::always_inline]] bool read_string(od::value v, std::string_view key, std::string_view& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      if (!string_fallback(v.raw_json_token(), key, text)) return false;
    }
    out = builder_.store(text);
    return true;
  }
  [[gnu::always_inline]] bool read_string(od::value v, std::string_view key, std::optional<std::string_view>& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      out.reset();
      if (!string_fallback(v.raw_json_token(), key, text)) return false;
    }
    out = builder_.store(text);
    return true;
  }
  /// A calendar date sent as "YYYY-MM-DD": a real day of years 1..9999. A date-time
  /// ("2024-01-02T15:04:05Z") is coerced to its date.
  [[gnu::always_inline]] bool read_date(od::value v, std::string_view key, std::chrono::year_month_day& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      return absent_or_fail(v.raw_json_token(), key, expected::date);
    }
    return to_date(text, key, out);
  }
  [[gnu::always_inline]] bool read_date(od::value v, std::string_view key,
                                        std::optional<std::chrono::year_month_day>& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      out.reset();
      return absent_or_fail(v.raw_json_token(), key, expected::date);
    }
    std::chrono::year_month_day date{};
    if (!to_date(text, key, date)) [[unlikely]] {
      out.reset();
      return false;
    }
    out = date;
    return true;
  }
  /// Arrays of scalars, written into the page's arena as they are read: read_array.
  [[gnu::always_inline]] bool read_int32_array(od::value v, std::string_view key, std::span<const std::int32_t>& out) {
    return read_array(v, key, out);
  }
  [[gnu::always_inline]] bool read_int64_array(od::value v, std::string_view key, std::span<const std::int64_t>& out) {
    return read_array(v, key, out);
  }
  [[gnu::always_inline]] bool read_double_array(od::value v, std::string_view key, std::span<const double>& out) {
    return read_array(v, key, out);
  }
  [[gnu::always_inline]] bool read_bool_array(od::value v, std::string_view key, std::span<const bool>& out) {
    return read_array(v, key, out);
  }
  [[gnu::always_inline]] bool read_string_array(od::value v, std::string_view key,
                                                std::span<const std::string_view>& out) {
    return read_array(v, key, out);
  }
  /// A decimal string ("100.0"), or a JSON number read exactly from its text.
  [[gnu::always_inline]] bool read_decimal(od::value v, std::string_view key, std::optional<decimal>& out) {
    std::string_view text;
    if (v.get_string().get(text) != simdjson::SUCCESS) [[unlikely]] {
      return decimal_fallback(v.raw_json_token(), key, out);
    }
    out = decimal::parse(text);
    if (!out) [[unlikely]] return decimal_surprise(text, key);
    return true;
  }
  [[gnu::always_inline]] bool read_decimal(od::value v, std::string_view key, decimal& out) {
    std::optional<decimal> read;
    if (!read_decimal(v, key, read)) return false;
    out = *read;
    return true;
  }
  /// A nested object, decoded in place by the nested model's decoder (forced inline, like a
  /// row decoder) with a child context.
  template <class T, void (*Decode)(row_context&, od::object&, T&)>
  [[gnu::always_inline]] bool read_object(od::value v, std::string_view key, T& out) {
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) [[unlikely]] {
      return absent_or_fail(v.raw_json_token(), key, expected::object);
    }
    row_context nested = child(key);
    Decode(nested, object, out);
    return true;
  }
  template <class T, void (*Decode)(row_context&, od::object&, T&)>
  [[gnu::always_inline]] bool read_object(od::value v, std::string_view key, std::optional<T>& out) {
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) [[unlikely]] {
      out.reset();
      return absent_or_fail(v.raw_json_token(), key, expected::object);
    }
    row_context nested = child(key);
    // An optional object that lacks a required field is absent rather than shown with a default.
    if (!decode_complete<T, Decode>(nested, object, out.emplace())) [[unlikely]] out.reset();
    return out.has_value();
  }
  /// An array of nested objects in the page's arena: counted, reserved, then each element
  /// created from a blank T (as decode_rows creates rows) and decoded in place.
  template <class T, void (*Decode)(row_context&, od::object&, T&)>
  [[gnu::always_inline]] bool read_object_array(od::value v, std::string_view key, std::span<const T>& out) {
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) [[unlikely]] {
      out = {};
      return absent_or_fail(v.raw_json_token(), key, expected::object_array);
    }
    T* const first = reserve_counted<T>(array.count_elements(), key);
    std::size_t index = 0;  // of the element on the wire
    std::size_t kept = 0;
    for (auto element : array) {
      od::object object;
      if (const simdjson::error_code e = element.get_object().get(object)) [[unlikely]] {
        skip_element(e, key, index++, expected::object);
        continue;
      }
      row_context nested = child(key, index++);
      // An element that lacks a required field is left out, as an element of the wrong type is.
      if (decode_complete<T, Decode>(nested, object, blank_row_at<T>(first + kept))) [[likely]] ++kept;
    }
    out = {first, kept};
    return true;
  }
  /// An object whose keys are data, each value a nested object: entries in wire order in
  /// the page's arena, reserved first, each value decoded in place like read_object_array's.
  template <class T, void (*Decode)(row_context&, od::object&, T&)>
  [[gnu::always_inline]] bool read_string_map(od::value v, std::string_view key, std::span<const keyed<T>>& out) {
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) [[unlikely]] {
      out = {};
      return absent_or_fail(v.raw_json_token(), key, expected::object);
    }
    keyed<T>* const first = reserve_counted<keyed<T>>(object.count_fields(), key);
    std::size_t index = 0;
    for (auto item : object) {
      od::field field;
      std::string_view name;
      if (simdjson::error_code e = std::move(item).get(field); e || (e = field.unescaped_key().get(name))) [[unlikely]] {
        fail_at(e, key);
      }
      od::object entry_object;
      if (const simdjson::error_code e = field.value().get_object().get(entry_object)) [[unlikely]] {
        skip_entry(e, key, name, expected::object);
        continue;
      }
      keyed<T>& entry = blank_row_at<keyed<T>>(first + index);
      entry.key = builder_.store(name);
      const row_context map = child(key);
      row_context nested = map.child(entry.key);
      // An entry that lacks a required field is left out, as an entry of the wrong type is.
      if (decode_complete<T, Decode>(nested, entry_object, entry.value)) [[likely]] ++index;
    }
    out = {first, index};
    return true;
  }
  /// An object whose keys are data and whose values are numbers.
  [[gnu::always_inline]] bool read_double_map(od::value v, std::string_view key, std::span<const keyed<double>>& out) {
    od::object object;
    if (v.get_object().get(object) != simdjson::SUCCESS) [[unlikely]] {
      out = {};
      return absent_or_fail(v.raw_json_token(), key, expected::object);
    }
    auto* const first = builder_.arena_align<keyed<double>>();
    auto* next = first;
    for (auto item : object) {
      od::field field;
      std::string_view name;
      if (simdjson::error_code e = std::move(item).get(field); e || (e = field.unescaped_key().get(name))) [[unlikely]] {
        fail_at(e, key);
      }
      double x = 0;
      if (const simdjson::error_code e = field.value().get_double().get(x)) [[unlikely]] {
        skip_entry(e, key, name, expected::number);
        continue;
      }
      if (full_at(next)) [[unlikely]] throw_page_full("strings and arrays");
      // The key points into the parser's string buffer until copied below (see read_string_array).
      ::new (static_cast<void*>(next++)) keyed<double>{name, x};
    }
    builder_.commit_arena(reinterpret_cast<char*>(next));
    for (auto* entry = first; entry != next; ++entry) entry->key = builder_.store(entry->key);
    out = {first, static_cast<std::size_t>(next - first)};
    return true;
  }
  /// Any JSON value, kept as its raw text (checked to be well-formed JSON) in the arena.
  [[gnu::always_inline]] bool read_json(od::value v, std::string_view key, json_value& out) {
    std::string_view text;
    od::json_type type{};
    simdjson::error_code e = v.type().get(type);
    if (e == simdjson::SUCCESS) {
      if (type == od::json_type::object) {
        od::object object;
        if ((e = v.get_object().get(object)) == simdjson::SUCCESS) e = object.raw_json().get(text);
      } else if (type == od::json_type::array) {
        od::array array;
        if ((e = v.get_array().get(array)) == simdjson::SUCCESS) e = array.raw_json().get(text);
      } else {
        text = v.raw_json_token();
      }
    }
    if (e != simdjson::SUCCESS) [[unlikely]] fail_at(e, key);
    text = checked_json(text, key);
    if (text.empty()) {
      out = {};
      return false;
    }
    out = json_value(builder_.store(text));
    return true;
  }
  [[gnu::always_inline]] bool read_json(od::value v, std::string_view key, std::optional<json_value>& out) {
    json_value read;
    if (!read_json(v, key, read)) {
      out.reset();
      return false;
    }
    out = read;
    return true;
  }

  /// Stores an int64 in an int32 field (std::int32_t or std::optional<std::int32_t>): false,
  /// and the field left alone, when it does not fit (a surprise).
  template <class Out>
  [[gnu::always_inline]] bool narrow(std::int64_t wide, std::string_view key, Out& out) const {
    if (wide < INT32_MIN || wide > INT32_MAX) [[unlikely]] {
      return surprise(surprise_kind::skipped, decode_errc::out_of_range, key, "integer beyond int32");
    }
    out = static_cast<std::int32_t>(wide);
    return true;
  }

  /// A key the model does not declare, at `raw` (just past its opening quote): counted, the
  /// first one's path kept; under decode_policy::strict, decode_error unknown_key. A key
  /// written with escapes (`"\u006f"`) lands here too, as key_is() reads keys as sent; it may
  /// spell a declared key, so its object is left out (escaped_key). Out of line: the generated
  /// switch calls it from every key test's `else`, and the rows the API sends have no unknown
  /// key (a few a row cost a call each).
  [[gnu::cold, gnu::noinline]] void unknown_key(const char* raw) const;

  /// `key` given a second time in one object: the generated decoder keeps neither value (JSON
  /// parsers disagree on which one counts: simdjson's lookup the first, most clients the
  /// last) and this counts a skipped surprise; under decode_policy::strict, invalid_json.
  [[gnu::cold]] void repeated_key(std::string_view key) const {
    surprise(surprise_kind::skipped, decode_errc::invalid_json, key,
             "duplicate key: neither value is kept");
  }

  /// Required fields whose bits are not in `seen` (absent, null, or a value their type cannot
  /// hold): counted as missing, and the object marked incomplete (page_builder), so that it is
  /// left out instead of shown with a default; under decode_policy::strict, missing_field
  /// naming the first of them.
  [[gnu::cold]] void missing(std::uint64_t seen, std::uint64_t required,
                             std::span<const std::string_view> names) const;
  [[noreturn, gnu::cold]] void fail(decode_errc code, std::string_view key, const char* detail) const;
  /// The full path of `key` in this object, e.g. "results[3].day.c"; "results[3].day" for
  /// an empty key.
  std::string path_of(std::string_view key) const;
  /// Appends path_of(key) to `out`.
  void path_into(std::string& out, std::string_view key) const;

  /// A surprise at key: under decode_policy::strict throws decode_error(code, detail);
  /// otherwise counts it as `kind` (and keeps the first one's path). Returns what the reader
  /// returns: true for a coerced value, false for a skipped or missing one.
  [[gnu::cold]] bool surprise(surprise_kind kind, decode_errc code, std::string_view key, const char* detail) const;

 private:
  enum class expected : std::uint8_t {
    number,
    boolean,
    string,
    integer_array,
    date,
    object,
    number_array,
    boolean_array,
    string_array,
    object_array,
  };

  row_context(const row_context& parent, std::string_view key, std::size_t index) noexcept
      : builder_(parent.builder_), path_(parent.path_), row_(parent.row_), parent_(&parent), key_(key), index_(index) {}

  /// An array of Element (int32, int64, double, bool or string) in the page's arena, written in
  /// place as it is read. An element of another type is coerced as a field of Element would
  /// be, else left out and counted (a null element too: an array has no absent elements);
  /// broken JSON throws naming the element. Strings are read as views into the parser's
  /// buffer, which lasts as long as the document: one pass over the JSON, and the texts are
  /// copied behind the views once the array is complete.
  template <class Element>
  [[gnu::always_inline]] bool read_array(od::value v, std::string_view key, std::span<const Element>& out) {
    od::array array;
    if (v.get_array().get(array) != simdjson::SUCCESS) [[unlikely]] {
      out = {};
      return absent_or_fail(v.raw_json_token(), key, array_of<Element>());
    }
    auto* const first = builder_.arena_align<Element>();
    auto* next = first;
    std::size_t skipped = 0;
    for (auto element : array) {
      Element x{};
      if (const simdjson::error_code e = get_element(element, x)) [[unlikely]] {
        const std::size_t index = static_cast<std::size_t>(next - first) + skipped;
        if (const simdjson::error_code broken = element.error()) fail_element_at(broken, key, index);
        if (!element_fallback(e, element.value_unsafe().raw_json_token(), key, index, x)) {
          ++skipped;
          continue;
        }
      }
      if (full_at(next)) [[unlikely]] throw_page_full("strings and arrays");
      ::new (static_cast<void*>(next++)) Element(x);
    }
    builder_.commit_arena(reinterpret_cast<char*>(next));
    if constexpr (std::is_same_v<Element, std::string_view>) {
      for (auto* s = first; s != next; ++s) *s = builder_.store(*s);
    }
    out = {first, static_cast<std::size_t>(next - first)};
    return true;
  }
  template <class Element>
  static constexpr expected array_of() noexcept {
    if constexpr (std::is_same_v<Element, double>) return expected::number_array;
    else if constexpr (std::is_same_v<Element, bool>) return expected::boolean_array;
    else if constexpr (std::is_same_v<Element, std::string_view>) return expected::string_array;
    else return expected::integer_array;
  }
  // One element's read: simdjson's own, the only call on the hot path.
  template <class Element>
  [[gnu::always_inline]] static simdjson::error_code get_element(auto& element, Element& out) noexcept {
    if constexpr (std::is_same_v<Element, std::int32_t>) {
      std::int64_t wide = 0;
      if (const simdjson::error_code e = element.get_int64().get(wide)) return e;
      if (wide < INT32_MIN || wide > INT32_MAX) return simdjson::NUMBER_OUT_OF_RANGE;
      out = static_cast<std::int32_t>(wide);
      return simdjson::SUCCESS;
    } else if constexpr (std::is_same_v<Element, std::int64_t>) {
      return element.get_int64().get(out);
    } else if constexpr (std::is_same_v<Element, double>) {
      return element.get_double().get(out);
    } else if constexpr (std::is_same_v<Element, bool>) {
      return element.get_bool().get(out);
    } else {
      static_assert(std::is_same_v<Element, std::string_view>, "an array reader for an element type it lacks");
      return element.get_string().get(out);
    }
  }

  /// Decodes a nested object with its own context: whether it held every required field. The
  /// row's incomplete mark is kept aside meanwhile: it belongs to the row, not to the object.
  template <class T, void (*Decode)(row_context&, od::object&, T&)>
  [[gnu::always_inline]] bool decode_complete(row_context& nested, od::object& object, T& out) {
    const bool row_mark = builder_.take_incomplete();
    Decode(nested, object, out);
    const bool incomplete = builder_.take_incomplete();
    builder_.restore_incomplete(row_mark);
    return !incomplete;
  }
  /// There is no room in the arena for one more T at next.
  template <class T>
  [[gnu::always_inline]] bool full_at(const T* next) const noexcept {
    return builder_.arena_limit() - reinterpret_cast<const char*>(next) < static_cast<std::ptrdiff_t>(sizeof(T));
  }
  /// Room for as many T as the container at key holds (its count_elements or count_fields),
  /// at the arena's end, committed (uninitialised).
  template <class T>
  [[gnu::always_inline]] T* reserve_counted(simdjson::simdjson_result<std::size_t> counted, std::string_view key) {
    std::size_t count = 0;
    if (const simdjson::error_code e = std::move(counted).get(count)) [[unlikely]] fail_at(e, key);
    T* const first = builder_.arena_align<T>();
    const auto room = static_cast<std::size_t>(builder_.arena_limit() - reinterpret_cast<char*>(first));
    if (count > room / sizeof(T)) [[unlikely]] throw_page_full("strings and arrays");
    builder_.commit_arena(reinterpret_cast<char*>(first + count));
    return first;
  }
  /// "YYYY-MM-DD" with every digit and separator in place and a real calendar day; anything
  /// else is date_fallback's.
  [[gnu::always_inline]] bool to_date(std::string_view text, std::string_view key,
                                      std::chrono::year_month_day& out) const {
    const std::optional<std::chrono::year_month_day> date = massive::parse_date(text);
    if (!date) [[unlikely]] return date_fallback(text, key, out);
    out = *date;
    return true;
  }

  static const char* expectation(expected what) noexcept;

  /// A read failed: false when the token is null (absent); another JSON type is a skipped
  /// surprise; broken JSON throws.
  [[gnu::cold]] bool absent_or_fail(std::string_view token, std::string_view key, expected what) const;
  /// get_double failed: null is absent; a string holding a number is coerced.
  [[gnu::cold]] bool number_fallback(std::string_view token, std::string_view key, double& out) const;
  /// get_int64 failed: null is absent; an integral float form within 2^53 is the integer; a
  /// string holding an integer is coerced; a fraction or an overflow is a skipped surprise.
  [[gnu::cold]] bool integer_fallback(std::string_view token, std::string_view key, std::int64_t& out) const;
  /// get_string failed: null is absent; a number, true or false is coerced to its text, which
  /// `out` views in the input (the caller stores it).
  [[gnu::cold]] bool string_fallback(std::string_view token, std::string_view key, std::string_view& out) const;
  /// The text is not "YYYY-MM-DD": a date-time is coerced to its date; else a surprise.
  [[gnu::cold]] bool date_fallback(std::string_view text, std::string_view key, std::chrono::year_month_day& out) const;
  /// get_element failed (error e) on element `index` of the array at key: the field readers'
  /// fallback for Element decides, but a null element is a skipped surprise. False when the
  /// element is left out.
  template <class Element>
  [[gnu::cold]] bool element_fallback(simdjson::error_code e, std::string_view token, std::string_view key,
                                      std::size_t index, Element& out) const;
  /// get_string failed: null is absent; a JSON number is read exactly from its text.
  [[gnu::cold]] bool decimal_fallback(std::string_view token, std::string_view key,
                                      std::optional<decimal>& out) const;
  /// A string that is not an exact decimal of at most 18 significant digits: a surprise.
  [[gnu::cold]] bool decimal_surprise(std::string_view text, std::string_view key) const;
  /// Element `index` of the array at key is not `what` the array holds: a skipped surprise
  /// (null included); broken JSON throws.
  [[gnu::cold]] void skip_element(simdjson::error_code e, std::string_view key, std::size_t index,
                                  expected what) const;
  /// The value of entry `name` of the object at key is not what the object holds: a skipped
  /// surprise; broken JSON throws.
  [[gnu::cold]] void skip_entry(simdjson::error_code e, std::string_view key, std::string_view name,
                                expected what) const;
  /// Element `index` of the array at key is broken JSON.
  [[noreturn, gnu::cold]] void fail_element_at(simdjson::error_code e, std::string_view key, std::size_t index) const;
  /// simdjson failed inside the value at key (broken JSON).
  [[noreturn, gnu::cold]] void fail_at(simdjson::error_code e, std::string_view key) const;
  [[gnu::cold, gnu::noinline]] void first_unknown_key(const char* raw) const;
  /// A key written with escapes: a skipped surprise, and the object marked incomplete (left
  /// out, as for a missing required field); under decode_policy::strict, unknown_key.
  [[gnu::cold, gnu::noinline]] void escaped_key(const char* raw) const;
  /// get_bool failed on an absent=false bool: null is false (true: read); another type a surprise.
  [[gnu::cold]] bool flag_fallback(std::string_view token, std::string_view key) const;
  /// The text of one JSON value without trailing whitespace, or empty for null; throws
  /// naming key unless the text is exactly one well-formed JSON value.
  std::string_view checked_json(std::string_view text, std::string_view key) const;

  page_builder& builder_;
  const row_path& path_;
  std::size_t row_;
  const row_context* parent_ = nullptr;  // null for a row
  std::string_view key_;                 // where this object is in its parent
  std::size_t index_ = no_index;         // and at which index of the array there
};

/// The raw key (as sent, just past its opening quote) is exactly `name`: its bytes and then
/// the closing quote. Reading past a short key is safe: the batch is padded. An escaped key
/// never matches (the API sends none); it is then skipped like any unknown key.
template <std::size_t N>
[[gnu::always_inline]] inline bool key_is(const char* raw, const char (&name)[N]) noexcept {
  return std::memcmp(raw, name, N - 1) == 0 && raw[N - 1] == '"';
}

/// An element of an array of objects is not an object: throws naming the row.
[[noreturn, gnu::cold]] void fail_element(const batch& b, std::size_t row, simdjson::error_code e,
                                         std::string_view token);
/// An element of the rows array is not an object: under decode_policy::lenient a skipped
/// surprise (the row is left out, counted in b.skipped_rows); else, or when it is broken JSON
/// or a stray comma, throws naming the row.
[[gnu::cold]] void skip_element_row(batch& b, std::size_t row, simdjson::error_code e, std::string_view token);
/// A row that lacks a required field (its fields already counted missing) was left out: counted
/// in page_leniency::dropped_rows and b.skipped_rows.
[[gnu::cold]] void drop_incomplete_row(batch& b) noexcept;
[[noreturn, gnu::cold]] void fail_batch(const batch& b, simdjson::error_code e);
[[noreturn, gnu::cold]] void fail_field_iteration(const row_context& ctx, simdjson::error_code e);

/// Commas in [p, p + n), p within a batch. Reads 128 bytes from p, and whole 32-byte blocks up
/// to p + n: the decoder's window has 128 bytes of padding past any batch (decoder.cpp).
[[gnu::always_inline]] inline std::size_t commas_in(const char* p, std::size_t n) noexcept {
#if defined(__AVX2__)
  const __m256i comma = _mm256_set1_epi8(',');
  const auto bits = [&](std::size_t at) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + at));
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, comma)));
  };
  const auto below = [](std::size_t k) { return k >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1; };
  // Up to 128 bytes (a row of numbers) without a loop whose trip count varies from row to row.
  const std::uint64_t low = (bits(0) | std::uint64_t{bits(32)} << 32) & below(n);
  const std::uint64_t high = (bits(64) | std::uint64_t{bits(96)} << 32) & below(n < 64 ? 0 : n - 64);
  auto count = static_cast<std::size_t>(std::popcount(low) + std::popcount(high));
  for (std::size_t at = 128; at < n; at += 32) {
    count += static_cast<std::size_t>(std::popcount(bits(at) & static_cast<std::uint32_t>(below(n - at))));
  }
  return count;
#else
  return static_cast<std::size_t>(std::count(p, p + n, ','));
#endif
}

/// After a wire-order read of `fields` number fields (a model's decode_<model>_wire): whether
/// the row holds those fields and nothing else. It does when the first value comes right
/// after `opening` (`{"<first key>":`), the last value is followed by the row's '}', and the
/// bytes from the first value to that '}' hold fields - 1 commas: numbers hold none, and any
/// other field, a repeated key or an unknown one, would add one.
[[gnu::always_inline]] inline bool only_these_fields(const char* first_value, std::string_view opening,
                                                     std::string_view last_value, std::size_t fields) noexcept {
  // A number's raw token runs to the next structural character.
  const char* const end = last_value.data() + last_value.size();
  if (*end != '}') return false;
  // Byte by byte: g++ 12 calls the library for a memcmp of 5 bytes, even of a constant.
  const char* const start = first_value - opening.size();
  for (std::size_t i = 0; i < opening.size(); ++i) {
    if (start[i] != opening[i]) return false;
  }
  return commas_in(first_value, static_cast<std::size_t>(end - first_value)) == fields - 1;
}

/// The batch's elements: a fresh iteration of its text, which is one JSON array.
[[gnu::always_inline]] inline simdjson::error_code iterate_elements(batch& b, od::document& doc,
                                                                     od::array& elements) noexcept {
  if (auto e = b.parser.iterate(b.json, b.length, b.capacity).get(doc)) return e;
  return doc.get_array().get(elements);
}

/// The batch loop shared by every model: one row per array element, created in place in the
/// page's row region (a blank row, then filled by Decode), from element `first` of the batch
/// on (the elements before it are already rows: decode_rows_in_wire_order).
template <class T, void (*Decode)(row_context&, od::object&, T&)>
[[gnu::noinline]] void decode_rows_from(batch& b, std::size_t first) {
  od::document doc;
  od::array elements;
  if (auto e = iterate_elements(b, doc, elements)) fail_batch(b, e);
  std::byte* out = b.builder.row_end();
  std::byte* const limit = b.builder.row_limit();
  std::size_t row = b.first_row + first;
  std::size_t skip = first;
  for (auto element : elements) {
    if (skip != 0) {
      --skip;  // left unread, the element is skipped by the array's iterator
      continue;
    }
    od::object object;
    if (auto e = element.get_object().get(object)) [[unlikely]] {
      // Only the element's text leaves this function (see row_context).
      skip_element_row(b, row, e, e == simdjson::INCORRECT_TYPE ? element.value_unsafe().raw_json_token() : "");
      ++row;
      continue;
    }
    if (out == limit) throw_page_full("rows");
    row_context ctx(b.builder, b.path, row);
    Decode(ctx, object, blank_row_at<T>(out));
    ++row;
    // A row without a true value for a required field is left out (the slot is reused).
    if (b.builder.take_incomplete()) [[unlikely]] {
      drop_incomplete_row(b);
      continue;
    }
    out += sizeof(T);
  }
  b.builder.commit_rows(out);
}

template <class T, void (*Decode)(row_context&, od::object&, T&)>
void decode_rows(batch& b) {
  decode_rows_from<T, Decode>(b, 0);
}

/// Thrown by decode_wire_rows at the first row Wire does not take, caught by
/// decode_rows_in_wire_order: the rows before it are in the page.
struct wire_miss {
  std::size_t read;  // rows of the batch read
};
[[noreturn, gnu::cold, gnu::noinline]] void throw_wire_miss(page_builder& builder, std::byte* out, std::size_t read);

/// The rows of a batch read by Wire (decode_<model>_wire: find_field in the order the server
/// sends the keys, the whole-buffer ceiling's straight-line walk), throwing wire_miss at the
/// first row it does not take.
template <class T, bool (*Wire)(od::object&, T&)>
[[gnu::noinline]] void decode_wire_rows(batch& b) {
  od::document doc;
  od::array elements;
  if (iterate_elements(b, doc, elements)) throw_wire_miss(b.builder, b.builder.row_end(), 0);
  std::byte* out = b.builder.row_end();
  std::byte* const limit = b.builder.row_limit();
  std::size_t read = 0;
  for (auto element : elements) {
    od::object object;
    if (out == limit || element.get_object().get(object)) [[unlikely]] throw_wire_miss(b.builder, out, read);
    if (!Wire(object, blank_row_at<T>(out))) [[unlikely]] throw_wire_miss(b.builder, out, read);
    out += sizeof(T);
    ++read;
  }
  b.builder.commit_rows(out);
}

/// The batch loop of a model whose rows come with their keys in a known order (a `wire` row
/// in the generator's map): Wire reads the rows; from the first row it does not take (a key
/// missing, moved, repeated or unknown, a value null or of another type, an error) the field
/// loop reads the rest of the batch, iterating it afresh and skipping the rows already read,
/// and names any error. So a body in another order costs at most one more iteration of each
/// batch, and an exception. Measured with g++ 12: the straight-line walk loses most of its
/// gain when the field loop, or a way out of its loop other than a call that does not
/// return, is in the same function.
template <class T, bool (*Wire)(od::object&, T&), void (*Decode)(row_context&, od::object&, T&)>
void decode_rows_in_wire_order(batch& b) {
  try {
    decode_wire_rows<T, Wire>(b);
  } catch (const wire_miss& miss) {
    decode_rows_from<T, Decode>(b, miss.read);
  }
}

template <class T, void (*Decode)(row_context&, od::object&, T&)>
constexpr row_codec make_row_codec() noexcept {
  return row_codec{sizeof(T), alignof(T), &decode_rows<T, Decode>};
}

template <class T, void (*Decode)(row_context&, od::object&, T&), bool (*Wire)(od::object&, T&)>
constexpr row_codec make_wire_row_codec() noexcept {
  return row_codec{sizeof(T), alignof(T), &decode_rows_in_wire_order<T, Wire, Decode>};
}

}  // namespace massive::detail
