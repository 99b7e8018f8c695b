// Client options, filled with designated initializers:
//   massive::options{.api_key = key, .request_timeout = std::chrono::seconds{10}}
// Invalid values are rejected when the client is constructed, with
// transport_error(errc::invalid_option) whose message names the option.
#pragma once

#include "massive/rate_limiter.hpp"
#include "massive/retry.hpp"
#include "massive/trace.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace massive {

/// Where the API key goes.
enum class auth_scheme {
  bearer_header,    ///< `Authorization: Bearer <key>` (default)
  query_parameter,  ///< `apiKey=<key>` appended once to every target; it ends up in proxy logs
};

/// How a client reaches the API: key, origin, timeouts, trust, retries and rate limit.
/// Validated when the client is made.
struct options {
  /// Empty: read MASSIVE_API_KEY at construction; still empty is an error. Never printed.
  std::string api_key{};
  /// Scheme, host, optional port and optional path prefix; https, or http for test servers.
  std::string base_url = "https://api.massive.com";
  /// Where the key goes on every request.
  auth_scheme auth = auth_scheme::bearer_header;
  /// Sent as User-Agent; empty sends none.
  std::string user_agent = "massive-cpp/0.1";
  /// Resolve + TCP connect + TLS handshake of one new connection.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Deadline of one call, from its start to its end: queueing, every attempt and backoff.
  std::chrono::milliseconds request_timeout{30'000};
  /// Open connections to the origin at most (in use or idle); further calls queue.
  std::size_t connections_per_origin = 4;
  /// PEM file of trusted certificates.
  std::string ca_file{};
  /// Directory of hashed certificates (c_rehash layout).
  std::string ca_directory{};
  /// Trusted certificates as PEM text, e.g. an embedded server's own (massive::mock). With
  /// ca_file, ca_directory and ca_pem all empty, the system's defaults are trusted.
  std::string ca_pem{};
  /// Verify the server's certificate chain and host name. Turn off only for tests.
  bool verify_peer = true;
  /// Largest body accepted, both as received and after gzip inflation; unlimited if empty.
  std::optional<std::uint64_t> max_body_size{};
  /// Send Accept-Encoding: gzip (bodies are inflated before the sink either way).
  bool gzip = true;
  /// Which failures are retried, how often and with what backoff (default: no retry).
  retry_policy retry{};
  /// A client-side token bucket shared by the client's calls; none when empty.
  std::optional<rate_limit_policy> rate_limit{};
  /// Called once per attempt, from the thread running the call; must be thread-safe when the
  /// executor has several threads. Exceptions it throws are swallowed.
  std::function<void(const trace_event&)> trace{};
};

}  // namespace massive
