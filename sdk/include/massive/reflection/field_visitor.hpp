// A row's fields one by one, typed, for tools that print rows in their own format (the
// command-line tool's CSV and table) without writing them to JSON and parsing that again. Each
// generated model has `visit_fields(field_visitor&, const Model&)`, which hands every field to
// field() with its wire key, in the model's order, as its write_json() writes them.
#pragma once

#include <chrono>
#include <concepts>
#include <cstdint>
#include <optional>
#include <ratio>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "massive/decimal.hpp"
#include "massive/json_value.hpp"
#include "massive/json_writer.hpp"
#include "massive/time.hpp"

namespace massive::reflection {

class field_visitor;

/// A model with a visit_fields(field_visitor&, const T&) found by argument-dependent lookup.
template <class T>
concept visitable_model = std::is_class_v<T> && requires(field_visitor& v, const T& row) {
  visit_fields(v, row);
};

/// One scalar value of a field, as a printer needs it.
struct field_value {
  /// Which member holds the value.
  enum class kind : std::uint8_t {
    integer,  ///< `integer`
    number,   ///< `number`
    boolean,  ///< `integer`: 0 or 1
    text,     ///< `text`: the string as sent (not escaped, not checked)
    time,     ///< `integer`: a Unix timestamp's count of 10^-time_digits s
    date,     ///< `date`
    exact,    ///< `exact`: a decimal's exact value
    json,     ///< `text`: compact JSON (a map, an array of objects, a free-form value)
  };
  kind type = kind::integer;           ///< which member holds the value
  int time_digits = 0;                 ///< time: 0 (seconds), 3, 6 or 9
  std::int64_t integer = 0;            ///< integer, boolean, time
  double number = 0;                   ///< number
  std::string_view text;               ///< text, json
  std::chrono::year_month_day date{};  ///< date
  massive::decimal exact{};            ///< exact
};

/// Receives a row's fields (see the file comment). field() turns each C++ type into a few
/// calls a printer implements: a scalar is one on_value(); an optional without a value is
/// on_absent(); a nested model is on_begin_object(), its fields, on_end_object(); an array of
/// scalars is on_begin_list(), one on_value() per element, on_end_list(); a map, an array of
/// objects and a free-form JSON value are one on_value() of kind json.
class field_visitor {
 public:
  virtual ~field_visitor() = default;

  /// Hands the field `key` with value `v` to the printer.
  template <class T>
  void field(std::string_view key, const T& v) {
    if constexpr (is_optional<T>::value) {
      if (v) {
        field(key, *v);
      } else {
        on_absent(key);
      }
    } else if constexpr (is_span<T>::value) {
      using element = std::remove_cv_t<typename T::element_type>;
      if constexpr (std::is_class_v<element> && !std::is_same_v<element, std::string_view> &&
                    !std::is_same_v<element, json_value> && !std::is_same_v<element, decimal> &&
                    !is_time<element>::value) {
        json_text(key, v);  // a map (keyed<T>) or an array of objects
      } else {
        on_begin_list(key);
        for (const element& item : v) on_value(key, scalar(item));
        on_end_list();
      }
    } else if constexpr (std::is_same_v<T, json_value>) {
      if (v.empty()) {
        on_absent(key);
      } else {
        field_value out;
        out.type = field_value::kind::json;
        out.text = v.text();
        on_value(key, out);
      }
    } else if constexpr (visitable_model<T>) {
      on_begin_object(key);
      visit_fields(*this, v);
      on_end_object();
    } else {
      on_value(key, scalar(v));
    }
  }

 protected:
  /// A scalar field, or one element of an array of scalars (between on_begin_list and
  /// on_end_list, with the array's key).
  virtual void on_value(std::string_view key, const field_value& v) = 0;
  /// A field the row does not have.
  virtual void on_absent(std::string_view key) = 0;
  /// A nested object `key`: its fields follow, then on_end_object().
  virtual void on_begin_object(std::string_view key) = 0;
  /// The end of the nested object begun last.
  virtual void on_end_object() = 0;
  /// An array of scalars `key`: its elements follow, then on_end_list().
  virtual void on_begin_list(std::string_view key) = 0;
  /// The end of the array begun last.
  virtual void on_end_list() = 0;

 private:
  template <class T>
  struct is_optional : std::false_type {};
  template <class T>
  struct is_optional<std::optional<T>> : std::true_type {};
  template <class T>
  struct is_span : std::false_type {};
  template <class T, std::size_t N>
  struct is_span<std::span<T, N>> : std::true_type {};
  template <class T>
  struct is_time : std::false_type {};
  template <class D>
  struct is_time<unix_time<D>> : std::true_type {};

  template <class T>
  static field_value scalar(const T& v) {
    field_value out;
    if constexpr (std::is_same_v<T, bool>) {
      out.type = field_value::kind::boolean;
      out.integer = v ? 1 : 0;
    } else if constexpr (std::is_integral_v<T>) {
      out.type = field_value::kind::integer;
      out.integer = static_cast<std::int64_t>(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      out.type = field_value::kind::number;
      out.number = static_cast<double>(v);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      out.type = field_value::kind::text;
      out.text = v;
    } else if constexpr (std::is_same_v<T, std::chrono::year_month_day>) {
      out.type = field_value::kind::date;
      out.date = v;
    } else if constexpr (std::is_same_v<T, decimal>) {
      out.type = field_value::kind::exact;
      out.exact = v;
    } else if constexpr (std::is_same_v<T, json_value>) {
      out.type = field_value::kind::json;
      out.text = v.text();
    } else {
      static_assert(is_time<T>::value, "a field type without a printed form");
      using period = typename T::duration::period;
      out.type = field_value::kind::time;
      out.integer = static_cast<std::int64_t>(v.count());
      out.time_digits = std::is_same_v<period, std::milli>   ? 3
                        : std::is_same_v<period, std::micro> ? 6
                        : std::is_same_v<period, std::nano>  ? 9
                                                             : 0;
    }
    return out;
  }

  template <class Span>
  void json_text(std::string_view key, const Span& items) {
    json_.clear();
    json_writer w(json_);
    w.value(items);
    field_value out;
    out.type = field_value::kind::json;
    out.text = json_;
    on_value(key, out);
  }

  std::string json_;  // the JSON text of the last map or array of objects
};

}  // namespace massive::reflection
