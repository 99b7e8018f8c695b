// The decisions of one call, sans-I/O: which step comes next, when a connection the server
// closed is retried on a fresh one, when the retry policy retries and after how long, whether
// the deadline leaves room for it, and which attempt ends in a trace. The Asio driver
// (call_driver.cpp) executes each action and resumes the machine with what came of it, as
// Boost.Redis's exec_fsm does. Plain values only: resuming never allocates.
#pragma once

#include "massive/retry.hpp"

#include <chrono>
#include <optional>

namespace massive::transport {

/// What the driver does next.
enum class call_step {
  wait_rate_limit,     ///< take a token from the client's rate limiter (may wait)
  take_connection,     ///< wait for a pool permit, with an idle connection if one is there
  connect,             ///< open a new connection under the permit held
  exchange,            ///< send the request and read the response on the connection held
  sleep_before_retry,  ///< give the connection back, then sleep `delay`
  done,                ///< give the connection back; the call ends with `result`
};

/// How a call ends.
enum class call_result {
  ok,                 ///< the 2xx response was delivered
  failed,             ///< a step failed: the error the driver caught
  api_error,          ///< the last response's status is final: its api_error
  stale_connection,   ///< the server closed the connection before answering, retries spent
  deadline_exceeded,  ///< the deadline passed while waiting to retry
};

/// The trace the driver emits for the attempt that just ended, before it executes the action.
enum class attempt_trace { none, success, failure, stale, api_failure };

struct call_action {
  call_step step = call_step::done;
  call_result result = call_result::ok;  ///< with call_step::done
  std::chrono::milliseconds delay{};     ///< with call_step::sleep_before_retry
  attempt_trace trace = attempt_trace::none;
  /// The trace's retry_in: when the next attempt starts, if there is one.
  std::optional<std::chrono::milliseconds> retry_in;
  /// With call_result::api_error: the retry policy's answer to the last attempt, which the
  /// driver's error tells when it is not the status's own (outcome::retry: the deadline left
  /// no room for the wait).
  retry_decision::outcome decision = retry_decision::outcome::not_retryable;
};

/// What came of the last action.
struct call_event {
  enum class kind {
    start,               ///< the call begins
    rate_limit_granted,  ///< wait_rate_limit: a token was taken
    connection_taken,    ///< take_connection: a permit, with an idle connection when `reused`
    connected,           ///< connect: a new connection is ready
    exchanged,           ///< exchange: a response, or the connection closed before one
    slept,               ///< sleep_before_retry: the wait is over
    failed,              ///< the action threw: the driver holds the error
  };
  /// What the exchange found.
  enum class response { success, stale, api_failure };

  kind what = kind::start;
  bool reused = false;                              ///< connection_taken
  response outcome = response::success;             ///< exchanged
  int status = 0;                                   ///< exchanged: the status of a non-2xx response
  std::optional<std::chrono::seconds> retry_after;  ///< exchanged: its Retry-After
  double jitter = 0;  ///< exchanged (api_failure, stale): a uniform draw in [0, 1) for the backoff
};

class call_fsm {
 public:
  using clock_type = std::chrono::steady_clock;

  call_fsm(const retry_policy& policy, clock_type::time_point deadline) noexcept
      : policy_(policy), deadline_(deadline) {}

  /// The next action after `event`, at the clock reading `now`.
  call_action resume(const call_event& event, clock_type::time_point now) noexcept;

 private:
  enum class state { idle, rate_limit, taking, connecting, exchanging, sleeping, finished };

  call_action after_exchange(const call_event& event, clock_type::time_point now) noexcept;

  retry_policy policy_;
  clock_type::time_point deadline_;
  state state_ = state::idle;
  bool reused_ = false;           // the connection held came from the pool
  bool stale_retried_ = false;    // the one retry on a fresh connection was made
  unsigned policy_attempts_ = 0;  // attempts answered with a non-2xx status or none
};

}  // namespace massive::transport
