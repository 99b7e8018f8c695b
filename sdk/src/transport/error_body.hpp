// Sans-I/O: turning a non-2xx answer into an api_error.
#pragma once

#include "massive/error.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace massive::transport {

/// Bytes of an error body read at most; the rest is not read (the connection is closed).
inline constexpr std::size_t error_body_cap = 64 * 1024;
/// Characters of a server message kept in api_error.
inline constexpr std::size_t message_cap = 512;
/// Characters of a non-JSON body quoted in api_error.
inline constexpr std::size_t raw_body_quote_cap = 160;

/// Printable ASCII only: other bytes become '?', runs of whitespace one space, trimmed,
/// cut to `cap` characters (with "..." when cut).
std::string sanitize(std::string_view text, std::size_t cap);

/// `text` with every occurrence of `key` replaced by REDACTED.
std::string redact(std::string_view text, std::string_view key);

/// Adds `reason` (why the client made no further attempt) to what() of `e`; server_message()
/// stays the server's own text.
void add_reason(api_error& e, std::string_view reason);

/// Builds the api_error of an answer: message from the JSON `error` field, else `message`;
/// request_id from the JSON `request_id`, else the X-Request-Id header. A body that is not
/// a JSON object with one of those fields gives its first bytes, sanitised. Every occurrence
/// of `api_key` in server-supplied text is replaced by REDACTED before it is kept.
api_error make_api_error(int status, std::string_view body, std::string_view x_request_id,
                         std::optional<std::chrono::seconds> retry_after,
                         std::string_view api_key);

}  // namespace massive::transport
