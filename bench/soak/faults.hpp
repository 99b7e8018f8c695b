// The soak's random faults: which fault, if any, a response of the mock market gets, drawn from
// a seeded generator and counted by kind. Sans-I/O: it rewrites a mock::reply, the server sends
// it.
#pragma once

#include <massive/mock/server.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <random>
#include <string_view>

namespace massive::soak {

enum class fault : std::size_t {
  none,
  reset,        ///< TCP RST somewhere in the body
  truncation,   ///< TCP close without close_notify somewhere in the body
  stall,        ///< silence somewhere in the body until the client gives up
  rate_limited, ///< 429 with Retry-After 0 or 1 (seconds)
  server_error, ///< 500, 502, 503 or 504 with the API's error envelope
  slow_body,    ///< the body in 512-byte pieces a few milliseconds apart
  count_,
};
inline constexpr std::size_t fault_kinds = static_cast<std::size_t>(fault::count_);

std::string_view name(fault f) noexcept;

/// Draws the faults; thread-safe (the server answers on one thread, but counts are read from
/// another).
class fault_plan {
 public:
  /// `rate`: the share of responses that get a fault. Stalls are drawn five times less often
  /// than the other kinds: each holds a connection until the client's deadline.
  fault_plan(double rate, std::uint64_t seed);

  /// `r` as the market wrote it, with the fault drawn for it.
  mock::reply apply(mock::reply r);

  /// Responses given each kind so far (fault::none included).
  std::array<std::size_t, fault_kinds> counts() const;

 private:
  fault draw();

  double rate_;
  mutable std::mutex mutex_;
  std::mt19937_64 random_;
  std::array<std::size_t, fault_kinds> counts_{};
};

}  // namespace massive::soak
