// The trace hook's event: one per attempt, after it ends. Safe to log: the API key never
// appears in it (REDACTED stands for it wherever the target holds it, in the apiKey query
// parameter or anywhere a server put it in a next_url; headers are not shown).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace massive {

/// One attempt of a call, passed to client_config::trace when the attempt ends. Views are valid
/// only during the hook's call.
struct trace_event {
  std::string_view method{};                ///< "GET"
  std::string_view target{};                ///< origin-form target, key redacted
  std::string_view host{};                  ///< host[:port] the request went to
  unsigned attempt = 1;                   ///< 1-based, every request sent counts
  /// The attempt ran on a keep-alive connection taken from the pool.
  bool reused_connection = false;
  int status = 0;                         ///< 0 when no response head arrived
  std::string_view request_id{};            ///< X-Request-Id, when sent
  std::uint64_t body_bytes = 0;           ///< bytes handed to the sink (or error body bytes)
  std::chrono::nanoseconds wait_time{};   ///< rate limiter and pool queue
  std::chrono::nanoseconds connect_time{};  ///< resolve + connect + TLS handshake (new connections)
  std::chrono::nanoseconds time_to_headers{};  ///< request written to response head parsed
  std::chrono::nanoseconds total_time{};   ///< the attempt, start to end
  std::string_view error{};                 ///< what() of the failure; empty on success
  std::optional<std::chrono::milliseconds> retry_in{};  ///< set when another attempt follows
};

/// One line: "GET /v2/... -> 200 (attempt 1, reused, 1234 bytes, headers 1.2 ms, total 3.4 ms)".
std::string to_string(const trace_event& event);

}  // namespace massive
