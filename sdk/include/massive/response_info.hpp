// What an HTTP response said besides its body: the transport's completion value, and what
// every page keeps of the response it came in (page<T>::response()).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace massive {

/// A request or response header: name and value.
using header_field = std::pair<std::string, std::string>;

/// What a successful call (2xx, body delivered, sink finished) reports. A page keeps its
/// response's (page<T>::response()); a page decoded without the transport has status 0.
struct response_info {
  int status = 0;                   ///< the HTTP status (2xx)
  std::string request_id{};         ///< X-Request-Id header, when sent
  std::string content_encoding{};   ///< as sent by the server ("gzip" or empty)
  /// Rate-limit headers as sent (any whose name holds "RateLimit" or "Rate-Limit", e.g.
  /// X-RateLimit-Remaining, RateLimit-Policy), sanitised; empty, allocating nothing, when the
  /// server sent none.
  std::vector<header_field> rate_limit{};
  std::uint64_t wire_bytes = 0;   ///< body bytes received (before inflation)
  std::uint64_t body_bytes = 0;   ///< body bytes handed to the sink
  unsigned attempts = 0;          ///< requests sent, stale-connection retry included
  bool reused_connection = false;  ///< the final attempt ran on a pooled connection
  std::chrono::nanoseconds wait_time{};       ///< rate limiter + pool queue, all attempts
  std::chrono::nanoseconds connect_time{};    ///< of the final attempt; 0 when reused
  std::chrono::nanoseconds time_to_headers{};  ///< of the final attempt
  std::chrono::nanoseconds total_time{};      ///< the whole call
};

}  // namespace massive
