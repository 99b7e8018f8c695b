// The request-target builder: renders a path and a query string from typed values into a
// caller-owned std::string, which keeps its capacity from call to call, so a warm buffer
// builds a target without allocating. Every rule of rendering lives here; generated code
// makes one call per path piece or parameter:
//
//   std::string buffer;                                    // reused across requests
//   massive::target_builder b{buffer};
//   b.path_literal("/v2/aggs/ticker/").path_segment(p.ticker)
//    .path_literal("/range/").path_segment(p.multiplier) ...;
//   b.query("adjusted", p.adjusted).query("timestamp", p.timestamp);
//   send(b.target());
//
// Rules:
// - text is percent-encoded per RFC 3986: the unreserved ALPHA DIGIT - . _ ~ are kept, every
//   other byte (non-ASCII UTF-8 included) becomes %XX in upper-case hex; space is %20, never
//   '+'; '/' in a path segment is %2F. Parameter names are encoded the same way.
// - bool: true/false. Integers: decimal. double: the shortest text that reads back as the
//   same double (std::to_chars), fixed notation for 1e-6 <= |x| < 1e21 and scientific
//   outside, with the thresholds of ECMAScript's Number::toString; the exponent has no '+'
//   (a form-style parser reads '+' as a space) and no leading zeros: 1e21, 1.5e-7. -0.0 is
//   sent as 0. NaN and infinities throw std::invalid_argument.
// - year_month_day: YYYY-MM-DD; outside years 1..9999 or not a calendar date, it throws
//   std::invalid_argument. unix_time<D>: its integer count in D (negative before 1970).
//   date_or_time<D>: whichever it holds. A wire_enum: its to_wire() text, encoded.
// - std::optional: absent means not sent. A range of values (std::vector, std::span, ...):
//   comma-joined, each element encoded and the comma literal; empty means not sent.
// - Filters: name=v, name.gt=, name.gte=, name.lt=, name.lte=, name.any_of=a,b,
//   name.all_of=a,b, in that order; unset comparators are not sent.
// - '?' before the first parameter, '&' between the others.
// - A path segment that is empty, "." or ".." throws std::invalid_argument: each would
//   change the route rather than name a resource. A null const char* throws too.
// Every std::invalid_argument names the path segment or parameter (with its comparator)
// and what was wrong. After a throw the buffer's content is unspecified.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "massive/filter.hpp"

namespace massive::detail {


template <class T>
inline constexpr bool is_filter_v = false;
template <class T>
inline constexpr bool is_filter_v<range_filter<T>> = true;
template <class T>
inline constexpr bool is_filter_v<set_filter<T>> = true;
template <class T>
inline constexpr bool is_filter_v<filter<T>> = true;
template <class T>
inline constexpr bool is_filter_v<array_filter<T>> = true;

template <class R>
concept wire_list = std::ranges::input_range<const R> && !wire_string<R> &&
                    wire_value<std::remove_cvref_t<std::ranges::range_reference_t<const R>>>;

template <class T>
inline constexpr bool renders_as_query = wire_value<T> || wire_list<T> || is_filter_v<T>;
template <class T>
inline constexpr bool renders_as_query<std::optional<T>> = renders_as_query<T>;

template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;

/// What target_builder::query() accepts: a wire_value, a range of wire_values, a filter, or a
/// std::optional of any of these.
template <class T>
concept query_value = renders_as_query<T>;

class target_builder;

/// Builds a target into a fresh std::string with exactly one allocation of exactly its size
/// (none when it fits the small-string buffer): render(b) is called twice, once to measure
/// and once to write, so it must render the same thing both times.
template <class Render>
  requires std::invocable<Render&, target_builder&>
std::string build_target(Render&& render);

/// Renders an origin-form request target into a caller-owned buffer: path literals,
/// percent-encoded path segments, then query parameters (a filter expands to each of its
/// comparators; an empty optional or filter is left out). See the file comment.
class target_builder {
 public:
  /// Builds into buffer, which is cleared first (keeping its capacity). buffer must outlive
  /// the builder and target().
  explicit target_builder(std::string& buffer) noexcept : out_(&buffer) { buffer.clear(); }
  target_builder(const target_builder&) = delete;
  target_builder& operator=(const target_builder&) = delete;

  /// Appends text verbatim: the fixed parts of a route ("/v2/aggs/ticker/"), which the
  /// caller guarantees are valid. Throws std::logic_error once a query parameter was added.
  target_builder& path_literal(std::string_view text);

  /// Appends one path segment, rendered and percent-encoded ('/' becomes %2F). Throws
  /// std::logic_error once a query parameter was added, and std::invalid_argument for an
  /// empty, "." or ".." segment or an invalid value.
  template <wire_value T>
  target_builder& path_segment(const T& value) {
    begin_segment();
    if constexpr (wire_string<T>) {
      put_segment_text(text_of(value));
    } else if constexpr (wire_enum<T>) {
      put_segment_text(std::string_view(to_wire(value)));
    } else {
      put_value(value);
    }
    return *this;
  }

  /// Appends `name=value` (or, for a filter, one parameter per comparator set; for an
  /// absent optional or an empty range, nothing).
  template <query_value T>
  target_builder& query(std::string_view name, const T& value) {
    if constexpr (detail::is_optional_v<T>) {
      if (value) query(name, *value);
    } else if constexpr (detail::is_filter_v<T>) {
      put_filter(name, value);
    } else if constexpr (wire_value<T>) {
      begin_param(name, {});
      put_value(value);
    } else {
      put_list(name, {}, value);
    }
    return *this;
  }

  /// The target built so far: path and query.
  std::string_view target() const noexcept { return out_ ? std::string_view(*out_) : ""; }
  /// Its length in bytes.
  std::size_t size() const noexcept { return size_; }

 private:
  template <class Render>
    requires std::invocable<Render&, target_builder&>
  friend std::string build_target(Render&& render);

  struct measure_only {};
  explicit target_builder(measure_only) noexcept : out_(nullptr) {}

  void put_raw(std::string_view text) {
    if (out_) out_->append(text);
    size_ += text.size();
  }
  void put_escaped(std::string_view text);
  void put_segment_text(std::string_view text);
  void put_integer(std::int64_t value);
  void put_unsigned(std::uint64_t value);
  void put_double(double value);
  void put_date(const std::chrono::year_month_day& date);
  void begin_segment();
  void begin_param(std::string_view name, std::string_view comparator);
  [[noreturn]] void fail(std::string_view problem) const;

  template <class T>
  std::string_view text_of(const T& value) const {
    if constexpr (std::is_pointer_v<T>) {
      if (value == nullptr) fail("null text");
    }
    return std::string_view(value);
  }

  template <class T>
  void put_value(const T& value) {
    if constexpr (wire_string<T>) {
      put_escaped(text_of(value));
    } else if constexpr (std::same_as<T, bool>) {
      put_raw(value ? "true" : "false");
    } else if constexpr (wire_enum<T>) {
      put_escaped(std::string_view(to_wire(value)));
    } else if constexpr (std::signed_integral<T>) {
      put_integer(value);
    } else if constexpr (std::unsigned_integral<T>) {
      put_unsigned(value);
    } else if constexpr (std::same_as<T, double>) {
      put_double(value);
    } else if constexpr (std::same_as<T, std::chrono::year_month_day>) {
      put_date(value);
    } else if constexpr (detail::is_unix_time_v<T>) {
      put_integer(value.count());
    } else {
      static_assert(detail::is_date_or_time_v<T>);
      if (const auto date = value.date()) {
        put_date(*date);
      } else {
        put_integer(value.timestamp()->count());
      }
    }
  }

  template <class R>
  void put_list(std::string_view name, std::string_view comparator, const R& values) {
    auto it = std::ranges::begin(values);
    const auto end = std::ranges::end(values);
    if (it == end) return;
    begin_param(name, comparator);
    put_value(*it);
    for (++it; it != end; ++it) {
      put_raw(",");
      put_value(*it);
    }
  }

  template <class T>
  void put_slot(std::string_view name, std::string_view comparator, const std::optional<T>& value) {
    if (!value) return;
    begin_param(name, comparator);
    put_value(*value);
  }

  template <class F>
  void put_filter(std::string_view name, const F& f) {
    put_slot(name, "", f.eq());
    if constexpr (requires { f.gt(); }) {
      put_slot(name, ".gt", f.gt());
      put_slot(name, ".gte", f.gte());
      put_slot(name, ".lt", f.lt());
      put_slot(name, ".lte", f.lte());
    }
    if constexpr (requires { f.any_of(); }) put_list(name, ".any_of", f.any_of());
    if constexpr (requires { f.all_of(); }) put_list(name, ".all_of", f.all_of());
  }

  std::string* out_;
  std::size_t size_ = 0;
  bool in_query_ = false;
  // The parameter being rendered, for error messages (a path segment while !in_query_).
  std::string_view context_name_;
  std::string_view context_comparator_;
};

template <class Render>
  requires std::invocable<Render&, target_builder&>
std::string build_target(Render&& render) {
  target_builder measure{target_builder::measure_only{}};
  render(measure);
  std::string out;
  out.reserve(measure.size());
  target_builder write{out};
  render(write);
  return out;
}

}  // namespace massive::detail
