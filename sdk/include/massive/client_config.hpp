// Client options, filled with designated initializers:
//   massive::client_config{.api_key = key, .request_timeout = std::chrono::seconds{10}}
// Invalid values are rejected when the client is constructed, with
// transport_error(errc::invalid_option) whose message names the option.
#pragma once

#include "massive/connection_options.hpp"
#include "massive/decode_policy.hpp"
#include "massive/rate_limiter.hpp"
#include "massive/response_info.hpp"
#include "massive/retry.hpp"
#include "massive/trace.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace massive {

/// Where the API key goes.
enum class auth_scheme {
  bearer_header,    ///< `Authorization: Bearer <key>` (default)
  query_parameter,  ///< `apiKey=<key>` appended once to every target; it ends up in proxy logs
};

/// How a client reaches the API: key, origin, timeouts, trust, retries and rate limit.
/// Validated when the client is made.
struct client_config {
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
  /// The certificates trusted (the system's by default) and whether they are verified.
  tls_options tls{};
  /// The HTTP proxy every connection tunnels through; none by default.
  proxy_options proxy{};
  /// Largest body accepted, both as received and after gzip inflation (errc::body_too_large
  /// naming this option); unlimited if empty. The default, 128 MiB, is more than ten times the
  /// largest page the API sends (50,000 trades, or every ticker's snapshot, are about 10 MB).
  std::optional<std::uint64_t> max_body_size = std::uint64_t{128} << 20;
  /// A gzip body that inflates to more than this many times its compressed size is refused
  /// (errc::body_too_large naming this option) once it has inflated past 1 MiB: the API's
  /// JSON compresses about 5 to 20 times; a gzip bomb, up to 1,032 times. Unlimited if empty.
  std::optional<std::uint32_t> max_inflate_ratio = 200;
  /// The most memory one page may take: its rows, and apart from them the strings and arrays
  /// they point to, at most this many bytes each (decode_error too_long naming this option).
  /// With max_body_size this bounds what any body can make a call hold. The client's page
  /// pool reserves regions of this size (page_pool::options::region_bytes).
  std::size_t max_page_bytes = std::size_t{128} << 20;
  /// Send Accept-Encoding: gzip (bodies are inflated before the sink either way).
  bool gzip = true;
  /// Inflate and decode each body on another thread of the executor while its next bytes are
  /// received and decrypted on the call's own. For an executor run by two threads or more (an
  /// asio::thread_pool, an io_context run by several threads) with cores to spare, and large
  /// bodies (pages of thousands of rows): docs/guide/threading-and-cancellation.md says when it
  /// pays. The results, errors, cancellation and memory are those of the default; each
  /// connection holds 1 MiB of receive buffers more. On one thread it only adds hand-offs.
  bool decode_beside_receive = false;
  /// Which failures are retried, how often and with what backoff (default: answers 429 and 5xx
  /// retried three times; `.retry = {.max_attempts = 1}` turns it off).
  retry_policy retry{};
  /// A client-side token bucket shared by the client's calls; none when empty.
  std::optional<rate_limit_policy> rate_limit{};
  /// Headers sent with every request, after the SDK's own. A name must be an HTTP token, a
  /// value free of control characters but tab (no CR or LF); the headers the SDK sets
  /// itself or that frame the message (Host, Authorization, Proxy-Authorization,
  /// Content-Length, Transfer-Encoding, Connection, Keep-Alive, TE, Upgrade, Expect, Accept,
  /// Accept-Encoding, User-Agent) cannot be given. The error names the header.
  std::vector<header_field> headers{};
  /// What decoding does with a value the model did not foresee (docs/guide/decoding.md): coerce or
  /// skip it and count it in page<T>::leniency() (lenient), or fail with decode_error (strict).
  decode_policy decoding = decode_policy::lenient;
  /// Called once per attempt, from the thread running the call; must be thread-safe when the
  /// executor has several threads. Exceptions it throws are swallowed.
  std::function<void(const trace_event&)> trace{};
};

/// What one call (or one traversal, page after page) changes of its client's options: its
/// deadline, its retry policy, headers of its own (after the client's, validated the same
/// way, at the call) and the Launchpad edge headers naming the end user a reseller serves.
///   client.with({.edge_id = user_id, .edge_ip_address = user_ip}).stocks().trades(...)
///   http.async_get(target, sink, massive::call_options{.request_timeout = 2s}, token)
struct call_options {
  /// Overrides client_config::request_timeout.
  std::optional<std::chrono::milliseconds> request_timeout{};
  /// Overrides client_config::retry.
  std::optional<retry_policy> retry{};
  /// Sent after the client's client_config::headers.
  std::vector<header_field> headers{};
  /// X-Massive-Edge-ID: the end user's id; not sent when empty.
  std::string edge_id{};
  /// X-Massive-Edge-IP-Address: the end user's address; not sent when empty.
  std::string edge_ip_address{};
  /// X-Massive-Edge-User-Agent: the end user's user agent; not sent when empty.
  std::string edge_user_agent{};
};

}  // namespace massive
