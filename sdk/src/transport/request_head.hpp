// Sans-I/O: the bytes of a GET request head, the redacted form of its target for traces, and
// what a response's head is held to (its rate-limit fields picked, a 206's Content-Range
// against the request's Range).
#pragma once

#include "massive/client_config.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace massive::transport {

struct request_head_input {
  std::string_view host{};        ///< Host header value: host, or host:port when not default
  std::string_view target{};      ///< origin-form, already percent-encoded
  std::string_view target_prefix{};  ///< sent before `target` (the base URL's path prefix)
  std::string_view api_key{};
  auth_scheme auth = auth_scheme::bearer_header;
  std::string_view user_agent{};  ///< empty: no User-Agent header
  bool gzip = true;
  std::string_view client_headers{};  ///< from render_headers: the client's own lines
  std::string_view call_headers{};    ///< from render_call_headers: the call's lines
};

/// Appends "\r\n<name>: <value>" once the header is known to be sendable: the name an HTTP
/// token (RFC 9110) the SDK does not set itself nor that frames the message, the value
/// without control characters but tab. Otherwise throws transport_error(errc::invalid_option)
/// naming `where` and the header (never its value, which may be a secret).
void append_header(std::string& out, std::string_view name, std::string_view value, std::string_view where);

/// append_header for each of `headers`, in order.
void render_headers(std::string& out, std::span<const header_field> headers, std::string_view where);

/// Replaces `out` with the lines of a call: its headers, then the Launchpad edge headers
/// that are not empty. Reuses `out`'s capacity.
void render_call_headers(std::string& out, const call_options& call);

/// Replaces `out` with the request head, reusing its capacity. Under auth_scheme::query_parameter, every apiKey
/// parameter already in the target is dropped and one apiKey=<key> (percent-encoded) is
/// appended; under bearer_header the key goes in Authorization and the target is sent as is.
void build_request_head(std::string& out, const request_head_input& in);

/// True for a response header that reports a rate limit: its name holds "ratelimit" or
/// "rate-limit" in any case (X-RateLimit-Remaining, RateLimit-Policy, X-Rate-Limit-Reset).
bool is_rate_limit_header(std::string_view name);

/// The first byte a request head asks for with a `Range: bytes=<first>-[<last>]` line (one
/// range, as the SDK's callers send), or nullopt when it asks for the whole body.
std::optional<std::uint64_t> requested_range_start(std::string_view head);

/// What is wrong with the Content-Range of a 206 answer to a request for the bytes from
/// `first`: empty when it is `bytes <first>-<last>/<size or *>` (last not before first, nor at
/// or past a given size); otherwise the problem in words, the server's text sanitised.
std::string content_range_problem(std::string_view content_range, std::uint64_t first);

/// The target with the value of every apiKey query parameter, and every occurrence of `key`
/// (redact()), replaced by REDACTED.
std::string redact_target(std::string_view target, std::string_view key);

/// `target` without its apiKey query parameters, then with apiKey=<key> appended.
std::string with_api_key_parameter(std::string_view target, std::string_view key);

}  // namespace massive::transport
