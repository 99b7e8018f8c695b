// Time vocabulary. Unix timestamps in a given unit are distinct types: the API mixes
// milliseconds (aggregates) and nanoseconds (trades, quotes), and a silent conversion
// between them is the classic bug, so no implicit conversion exists between units.
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>

namespace massive {

/// A Unix timestamp counted in Duration (an int64 count since 1970-01-01T00:00:00Z).
/// Constructible from a std::chrono::sys_time of exactly that unit, or from a raw count;
/// converting to another unit is explicit (to_sys_time() and std::chrono casts).
template <class Duration>
class unix_time {
 public:
  using duration = Duration;
  using sys_time = std::chrono::sys_time<Duration>;

  constexpr unix_time() noexcept = default;
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

  constexpr sys_time to_sys_time() const noexcept { return time_; }
  constexpr std::int64_t count() const noexcept { return time_.time_since_epoch().count(); }

  friend constexpr auto operator<=>(const unix_time&, const unix_time&) noexcept = default;

 private:
  sys_time time_{};
};

using timestamp_ms = unix_time<std::chrono::milliseconds>;
using timestamp_us = unix_time<std::chrono::microseconds>;
using timestamp_ns = unix_time<std::chrono::nanoseconds>;

}  // namespace massive
