// Client-side rate limiting: a token bucket with continuous refill. Sans-I/O: every member
// takes the clock reading, so it is tested without sleeping; the transport sleeps for what
// reserve() returns. Off by default (client_config::rate_limit is empty).
#pragma once

#include <chrono>

namespace massive {

/// What a call does when the bucket is empty.
enum class rate_limit_mode {
  queue,      ///< wait for the next token (FIFO order of reservation)
  fail_fast,  ///< fail at once with transport_error(errc::rate_limited)
};

/// A client-side rate limit (client_config::rate_limit): a token bucket shared by every call
/// of the client.
struct rate_limit_policy {
  /// Tokens added per second, continuously (the free tier: 5.0 / 60).
  double requests_per_second = 5.0;
  /// Bucket capacity: how many calls may go back to back after an idle period (>= 1).
  double burst = 1.0;
  /// What a call does when the bucket is empty.
  rate_limit_mode mode = rate_limit_mode::queue;
};

/// Not thread-safe; the transport guards its bucket with a mutex.
class token_bucket {
 public:
  /// The clock every reading comes from.
  using clock = std::chrono::steady_clock;

  /// Starts full.
  token_bucket(double tokens_per_second, double capacity, clock::time_point now) noexcept;

  /// Takes one token now if there is one (returns true), else takes nothing (false).
  bool try_acquire(clock::time_point now) noexcept;

  /// Takes one token, borrowing from the future when the bucket is empty, and returns how
  /// long the caller must wait before using it (zero when a token was available). Later
  /// reservations queue behind earlier ones.
  clock::duration reserve(clock::time_point now) noexcept;

  /// Gives back a token reserved but not used (the caller gave up waiting).
  void cancel_reservation(clock::time_point now) noexcept;

  /// Tokens available at `now` (negative while reservations are outstanding).
  double available(clock::time_point now) noexcept;

 private:
  void refill(clock::time_point now) noexcept;

  double rate_;
  double capacity_;
  double tokens_;
  clock::time_point last_;
};

}  // namespace massive
