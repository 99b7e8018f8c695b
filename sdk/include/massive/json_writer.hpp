// Compact JSON text from rows: the generated models' write_json() functions are written with
// this, and tools use it to print rows.
#pragma once

#include "massive/decimal.hpp"
#include "massive/json_value.hpp"
#include "massive/time.hpp"

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace massive {

class json_writer;

namespace detail {

template <class T>
struct is_keyed : std::false_type {};
template <class T>
struct is_keyed<keyed<T>> : std::true_type {};

/// A model with a write_json(json_writer&, const T&) found by argument-dependent lookup.
template <class T>
concept writable_model = std::is_class_v<T> && requires(json_writer& w, const T& v) { write_json(w, v); };

}  // namespace detail

/// Appends compact JSON (no whitespace) to a std::string owned by the caller, which must
/// outlive the writer. The writer puts in the commas and checks the nesting: a key outside an
/// object, a value in an object without its key, or an end without its begin throws
/// std::logic_error; nesting deeper than max_depth throws std::length_error.
///
/// Values: numbers (a double as the shortest text that reads back to the same double, a
/// non-finite one as null), booleans, strings (escaped per RFC 8259; bytes are copied as they
/// are, so the text should be UTF-8), timestamps (their integer count, as the API sends them),
/// dates ("YYYY-MM-DD"), decimals (their exact text as a string, "100.0", as the API sends
/// them), json_value (its raw text; an empty one is
/// null), optionals (null when absent), spans (arrays; a span of keyed<T> is an object), and any
/// class with a write_json(json_writer&, const T&) found by argument-dependent lookup, which
/// is how generated models write themselves and their nested models.
class json_writer {
 public:
  /// Nesting deeper than this throws std::length_error (a guard against cyclic writers).
  static constexpr int max_depth = 64;

  /// Appends to `out`, which must outlive the writer.
  explicit json_writer(std::string& out) noexcept : out_(out) {}
  json_writer(const json_writer&) = delete;
  json_writer& operator=(const json_writer&) = delete;

  // Objects and arrays open and close in matching pairs; a key comes before each value of an
  // object.
  void begin_object() { open('{', true); }  ///< `{`
  void end_object() { close('}', true); }   ///< `}`
  void begin_array() { open('[', false); }  ///< `[`
  void end_array() { close(']', false); }   ///< `]`
  /// The key of the next value of the current object.
  void key(std::string_view name);

  /// @name Values
  ///@{
  /// The next array element, or the value of the last key (see the class comment).
  void value(double v);
  void value(std::int64_t v);
  void value(std::int32_t v);
  void value(bool v);
  void value(std::string_view v);
  /// A null pointer writes null.
  void value(const char* v);
  void value(std::nullptr_t);
  void value(const std::chrono::year_month_day& v);
  void value(const decimal& v);
  void value(const json_value& v);
  template <class Duration>
  void value(const unix_time<Duration>& v) {
    value(static_cast<std::int64_t>(v.count()));
  }
  template <class T>
  void value(const std::optional<T>& v) {
    if (v) {
      value(*v);
    } else {
      value(nullptr);
    }
  }
  template <class T, std::size_t N>
  void value(std::span<T, N> items) {
    if constexpr (detail::is_keyed<std::remove_cv_t<T>>::value) {
      begin_object();
      for (const auto& entry : items) {
        key(entry.key);
        value(entry.value);
      }
      end_object();
    } else {
      begin_array();
      for (const auto& item : items) value(item);
      end_array();
    }
  }
  template <detail::writable_model T>
  void value(const T& model) {
    write_json(*this, model);
  }
  ///@}

  /// The key, then the value; nothing at all when v is absent.
  template <class T>
  void field(std::string_view name, const std::optional<T>& v) {
    if (v) {
      key(name);
      value(*v);
    }
  }
  /// The key, then the value.
  template <class T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

  /// The text so far.
  const std::string& text() const noexcept { return out_; }
  /// Every object and array begun has ended, and a value was written.
  bool complete() const noexcept { return depth_ == 0 && wrote_ && !after_key_; }

 private:
  void open(char bracket, bool object);
  void close(char bracket, bool object);
  /// The comma or nothing before a value, after checking a value may come here.
  void before_value();
  void escaped(std::string_view s);

  std::string& out_;
  // One bit per open level: 1 for an object, and 1 once the level holds an item.
  std::uint64_t objects_ = 0;
  std::uint64_t nonempty_ = 0;
  int depth_ = 0;
  bool after_key_ = false;
  bool wrote_ = false;
};

/// v as compact JSON.
template <class T>
std::string to_json(const T& v) {
  std::string out;
  json_writer writer(out);
  writer.value(v);
  return out;
}

}  // namespace massive
