// Retry policy: which failures are retried, and after how long. Sans-I/O: the caller passes
// the clock reading and the random draw, so every decision is a pure function, unit-tested
// without sockets; the transport only sleeps for what these functions return.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace massive {

/// Retry of 429/500/502/503/504 answers and of connections closed or reset before any byte of
/// an answer: on by default, three retries (four attempts, as the official Python client does),
/// always within the call's deadline; `max_attempts = 1` turns it off. Every REST call is a
/// GET, so a retry never repeats a side effect. Independently of this policy, a request that
/// failed because the server had closed an idle pooled connection is retried once at once on a
/// fresh connection (see retry_on_fresh_connection). A connection lost mid-body is not retried:
/// part of the body has reached the caller's decoder.
struct retry_policy {
  /// Attempts in total, the first included; 1 disables retry.
  unsigned max_attempts = 4;
  /// Backoff before the second attempt; doubled for each attempt after it.
  std::chrono::milliseconds initial_backoff{250};
  /// Cap of the backoff. A Retry-After longer than this is not waited for: the error
  /// surfaces at once, with api_error::retry_after() set.
  std::chrono::milliseconds max_backoff{8'000};
};

/// True for the statuses worth retrying: 429, 500, 502, 503, 504. Never 4xx other than 429.
bool is_retryable_status(int status) noexcept;

/// Equal-jitter exponential backoff after `attempts_made` failed attempts (>= 1):
/// b = min(max_backoff, initial_backoff * 2^(attempts_made - 1)), delay = b/2 + jitter * b/2.
/// `jitter` is a uniform draw in [0, 1); values outside are clamped.
std::chrono::milliseconds backoff_delay(const retry_policy& policy, unsigned attempts_made,
                                        double jitter) noexcept;

/// What to do after an attempt answered with a non-2xx status.
struct retry_decision {
  /// The decision, and why there is no retry when there is none.
  enum class outcome {
    retry,                  ///< wait `delay`, then try again
    not_retryable,          ///< the status is never retried
    attempts_exhausted,     ///< max_attempts reached (or retry disabled)
    retry_after_too_long,   ///< Retry-After exceeds max_backoff: surface now
  };
  /// What to do.
  outcome what = outcome::not_retryable;
  /// How long to wait before the next attempt; zero unless `what` is outcome::retry.
  std::chrono::milliseconds delay{0};
  /// True when another attempt is to be made.
  bool retry() const noexcept { return what == outcome::retry; }
};

/// Decides after `attempts_made` attempts (>= 1) whose last answered `status`.
/// Retry-After, when present and within max_backoff, is the delay (it wins over backoff).
retry_decision decide_retry(const retry_policy& policy, int status, unsigned attempts_made,
                            std::optional<std::chrono::seconds> retry_after,
                            double jitter) noexcept;

/// Decides after `attempts_made` attempts (>= 1) whose last lost its connection before any byte
/// of an answer (closed or reset by the peer, after the transparent retry below if there was
/// one): retried with backoff, as a 503 without Retry-After is.
retry_decision decide_reset_retry(const retry_policy& policy, unsigned attempts_made, double jitter) noexcept;

/// The transparent stale-connection retry: true when the attempt ran on a connection reused
/// from the pool, failed because the peer had closed it before any response byte arrived,
/// and no such retry was made yet for this call.
bool retry_on_fresh_connection(bool reused_connection, bool response_bytes_received,
                               bool already_retried) noexcept;

/// A 408 (Request Timeout) on a connection reused from the pool is the server closing a
/// connection it found idle (nginx, HAProxy), not an answer to the request: the request is
/// retried once on a fresh connection, as for a reset (Go's net/http does the same). On a
/// fresh connection a 408 is the server's answer.
bool answer_means_stale_connection(int status, bool reused_connection) noexcept;

/// How many interim (1xx) responses a call skips before its final response; more are a
/// malformed response (a server that never answers must not hold the call forever).
inline constexpr unsigned max_interim_responses = 8;
/// An interim response is skipped (RFC 9110 15.2): 100 Continue, 102, 103 Early Hints and any
/// other 1xx but 101 Switching Protocols, which a request that asked for no upgrade cannot get.
bool skip_interim_response(int status) noexcept;

/// Parses a Retry-After value: delta-seconds ("120") or an HTTP-date (IMF-fixdate
/// "Sun, 06 Nov 1994 08:49:37 GMT", and the obsolete RFC 850 and asctime forms), relative to
/// `now`. A date in the past gives 0 s. Anything else gives nullopt. Values are capped at
/// one day so that a hostile header cannot overflow arithmetic.
std::optional<std::chrono::seconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now) noexcept;

}  // namespace massive
