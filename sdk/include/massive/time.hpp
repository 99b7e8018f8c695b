// Time vocabulary. Unix timestamps in a given unit are distinct types: the API mixes
// milliseconds (aggregates) and nanoseconds (trades, quotes), and a silent conversion
// between them is the classic bug, so no implicit conversion exists between units.
// Calendar dates are std::chrono::year_month_day; date_or_time<D> is for the parameters
// that accept either a date or a timestamp.
#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace massive {

/// A Unix timestamp counted in Duration (an int64 count since 1970-01-01T00:00:00Z).
/// Constructible from a std::chrono::sys_time of exactly that unit, or from a raw count;
/// converting to another unit is explicit (to_sys_time() and std::chrono casts).
template <class Duration>
class unix_time {
 public:
  /// The unit: one count on the wire is one Duration.
  using duration = Duration;
  /// The same instant as a std::chrono time point.
  using sys_time = std::chrono::sys_time<Duration>;

  constexpr unix_time() noexcept = default;
  /// From a std::chrono time point of exactly this unit.
  constexpr explicit unix_time(sys_time t) noexcept : time_(t) {}
  /// From the wire's integer count in this unit.
  static constexpr unix_time from_count(std::int64_t count) noexcept {
    return unix_time{sys_time{Duration{count}}};
  }
  // A timestamp of another unit never converts implicitly, even losslessly.
  template <class Other>
    requires(!std::same_as<Other, Duration>)
  unix_time(unix_time<Other>) = delete;
  template <class Other>
    requires(!std::same_as<Other, Duration>)
  unix_time(std::chrono::sys_time<Other>) = delete;

  /// The instant as a std::chrono time point, for calendar arithmetic and printing.
  constexpr sys_time to_sys_time() const noexcept { return time_; }
  /// Counts of Duration since the Unix epoch, as on the wire.
  constexpr std::int64_t count() const noexcept { return time_.time_since_epoch().count(); }

  /// Ordered by instant.
  friend constexpr auto operator<=>(const unix_time&, const unix_time&) noexcept = default;

 private:
  sys_time time_{};
};

/// Unix milliseconds, e.g. the `t` of aggregate bars.
using timestamp_ms = unix_time<std::chrono::milliseconds>;
/// Unix microseconds.
using timestamp_us = unix_time<std::chrono::microseconds>;
/// Unix nanoseconds, e.g. the SIP timestamps of trades and quotes.
using timestamp_ns = unix_time<std::chrono::nanoseconds>;

namespace detail {

/// Why d cannot be sent as YYYY-MM-DD, or nullptr when it can.
constexpr const char* date_problem(const std::chrono::year_month_day& d) noexcept {
  if (d.year() < std::chrono::year{1} || d.year() > std::chrono::year{9999}) {
    return "year outside 1..9999";
  }
  if (!d.ok()) return "not a calendar date";
  return nullptr;
}

inline std::string padded(long value, std::size_t width) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return value < 0 ? "-" + digits : digits;
}

/// "invalid date 2024-02-30: not a calendar date".
inline std::string invalid_date_message(const std::chrono::year_month_day& d, const char* problem) {
  return "invalid date " + padded(int{d.year()}, 4) + "-" + padded(unsigned{d.month()}, 2) + "-" +
         padded(unsigned{d.day()}, 2) + ": " + problem;
}

[[noreturn]] inline void throw_invalid_date(const std::chrono::year_month_day& d,
                                            const char* problem) {
  throw std::invalid_argument("massive: " + invalid_date_message(d, problem));
}

}  // namespace detail

/// True when d is a date the API can be sent: a valid proleptic Gregorian date in years
/// 1..9999, the years that YYYY-MM-DD spells. Dates before 1970 are valid.
constexpr bool is_wire_date(const std::chrono::year_month_day& d) noexcept {
  return detail::date_problem(d) == nullptr;
}

/// Throws std::invalid_argument naming d and what is wrong with it unless is_wire_date(d).
/// Invalid request values are the caller's mistake, so the SDK reports every one of them
/// (dates, filters, numbers) as std::invalid_argument, before anything is sent.
constexpr void require_wire_date(const std::chrono::year_month_day& d) {
  if (const char* problem = detail::date_problem(d)) detail::throw_invalid_date(d, problem);
}

/// The date `text` spells as YYYY-MM-DD, or nullopt. Strict, so that a value the API or a
/// user sends is never half-read: exactly ten characters, every digit present (2024-01-05,
/// not 2024-1-5), nothing after the day (not a date-time), and a day that exists in years
/// 1..9999 (no 2023-02-29, month 13, day 0 or year 0000): what is_wire_date() accepts.
/// Inline and allocation-free: the decoder reads every date field of a body with it.
constexpr std::optional<std::chrono::year_month_day> parse_date(std::string_view text) noexcept {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  unsigned digits[8]{};
  std::size_t n = 0;
  for (const std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u}) {
    // Unsigned wrap-around sends every byte below '0' above 9 as well.
    digits[n] = static_cast<unsigned>(static_cast<unsigned char>(text[i])) - '0';
    if (digits[n++] > 9) return std::nullopt;
  }
  const std::chrono::year_month_day date{
      std::chrono::year{static_cast<int>(digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3])},
      std::chrono::month{digits[4] * 10 + digits[5]}, std::chrono::day{digits[6] * 10 + digits[7]}};
  if (!is_wire_date(date)) return std::nullopt;
  return date;
}

/// A parameter that takes either a calendar date (sent as YYYY-MM-DD) or a Unix timestamp in
/// Duration (sent as its integer count; negative before 1970). Implicit from a
/// year_month_day (validated here: throws std::invalid_argument outside years 1..9999 or for
/// a date such as Feb 30) and from unix_time<Duration>; a timestamp of another unit or a raw
/// sys_time does not convert, so the wrong unit never reaches the wire.
template <class Duration>
class date_or_time {
 public:
  /// The timestamp alternative, in this unit only.
  using timestamp_type = unix_time<Duration>;

  /// A calendar date, sent as YYYY-MM-DD. Throws std::invalid_argument for a date that
  /// is not one (Feb 30) or a year outside 1..9999.
  constexpr date_or_time(std::chrono::year_month_day date) : date_(date), is_date_(true) {
    require_wire_date(date);
  }
  /// A timestamp, sent as its integer count.
  constexpr date_or_time(timestamp_type timestamp) noexcept : timestamp_(timestamp) {}
  template <class Other>
    requires(!std::same_as<Other, Duration>)
  date_or_time(unix_time<Other>) = delete;
  // A sys_days would otherwise become a date through year_month_day's own implicit
  // conversion, and a sys_time of this unit is one explicit step away from a timestamp;
  // both are ambiguous about which of the two the caller means.
  template <class D>
  date_or_time(std::chrono::sys_time<D>) = delete;

  /// True when this holds a date, false when a timestamp.
  constexpr bool is_date() const noexcept { return is_date_; }
  /// The date, when this holds one.
  constexpr std::optional<std::chrono::year_month_day> date() const noexcept {
    if (is_date_) return date_;
    return std::nullopt;
  }
  /// The timestamp, when this holds one.
  constexpr std::optional<timestamp_type> timestamp() const noexcept {
    if (is_date_) return std::nullopt;
    return timestamp_;
  }

  /// Equal when both hold the same alternative with the same value.
  friend constexpr bool operator==(const date_or_time&, const date_or_time&) noexcept = default;

 private:
  std::chrono::year_month_day date_{};
  timestamp_type timestamp_{};
  bool is_date_ = false;
};

/// A calendar date or a Unix millisecond timestamp (e.g. aggregates' `from` and `to`).
using date_or_ms = date_or_time<std::chrono::milliseconds>;
/// A calendar date or a Unix microsecond timestamp.
using date_or_us = date_or_time<std::chrono::microseconds>;
/// A calendar date or a Unix nanosecond timestamp (e.g. trades' `timestamp`).
using date_or_ns = date_or_time<std::chrono::nanoseconds>;

}  // namespace massive
