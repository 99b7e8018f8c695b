// Origins of absolute URLs: the check that keeps the API key on the configured host. A
// next_url is followed only when its scheme, host and port equal the base URL's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace massive::transport {

/// Scheme and host in lower case, port explicit (80 for http, 443 for https when absent).
struct origin {
  /// "http" or "https".
  std::string scheme{};
  /// Host name or IP address, in lower case.
  std::string host{};
  /// Port, explicit even when it is the scheme's default.
  std::uint16_t port = 0;

  /// Same scheme, host and port.
  friend bool operator==(const origin&, const origin&) = default;
};

/// The origin of an absolute http or https URL; nullopt for anything else (relative
/// references, other schemes, user information, an empty host, a malformed or repeated
/// port such as ":443:443").
std::optional<origin> parse_origin(std::string_view absolute_url);

/// True when `absolute_url` parses and has exactly `base`'s origin.
bool same_origin(std::string_view absolute_url, const origin& base);

}  // namespace massive::transport
