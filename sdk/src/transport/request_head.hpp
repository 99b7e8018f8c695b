// Sans-I/O: the bytes of a GET request head, and the redacted form of its target for traces.
#pragma once

#include "massive/client_options.hpp"

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
};

/// Replaces `out` with the request head, reusing its capacity. Under auth_scheme::query_parameter, every apiKey
/// parameter already in the target is dropped and one apiKey=<key> (percent-encoded) is
/// appended; under bearer_header the key goes in Authorization and the target is sent as is.
void build_request_head(std::string& out, const request_head_input& in);

/// The target with the value of every apiKey query parameter replaced by REDACTED.
std::string redact_target(std::string_view target);

/// `target` without its apiKey query parameters, then with apiKey=<key> appended.
std::string with_api_key_parameter(std::string_view target, std::string_view key);

}  // namespace massive::transport
