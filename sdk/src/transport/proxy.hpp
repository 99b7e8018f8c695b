// Sans-I/O: which HTTP proxy a client tunnels through. Parses the proxy URL, reads the
// proxy environment variables and matches NO_PROXY the way curl does.
#pragma once

#include "massive/connection_options.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

namespace massive::transport {

/// A proxy to send CONNECT to. Only `authorization` holds the credentials: every message
/// names the proxy by `name`.
struct proxy_endpoint {
  std::string connect_host;   ///< host to resolve (IPv6 without brackets)
  std::string port_text;      ///< port, as digits
  std::string name;           ///< host:port, for messages; never the credentials
  std::string authorization;  ///< "Basic <base64>" when the URL has user information, else empty
  /// The password and the Basic token: texts no message may hold, whatever a proxy echoes.
  std::vector<std::string> secrets;
};

/// Parses "http://[user[:password]@]host[:port][/]" (no scheme means http, no port means
/// 1080, as in curl); user and password are percent-decoded. Throws
/// transport_error(errc::invalid_option) naming `source` (e.g. "client_config.proxy.url") and the
/// fault, never the URL itself: it may hold a password.
proxy_endpoint parse_proxy_url(std::string_view url, std::string_view source);

/// True when `host` (a base URL's host, lower case, IPv6 in brackets) is excluded from
/// proxying by `no_proxy`, as curl 7.88 matches NO_PROXY: "*" alone matches every host;
/// otherwise a list separated by commas or white space, where a name matches the host
/// itself and its subdomains (a leading or trailing dot ignored, case-insensitive), and an
/// IPv4 or IPv6 address matches that address, or its network with a /bits suffix. Ports
/// are not part of the match.
bool no_proxy_matches(std::string_view no_proxy, std::string_view host);

/// Reads an environment variable; null when unset.
using environment_reader = std::function<const char*(const char*)>;

/// A proxy URL taken from the environment and the variable it came from.
struct environment_proxy {
  std::string url;
  std::string variable;
  std::string no_proxy;  ///< no_proxy, else NO_PROXY; empty when neither is set
};

/// What curl reads for a URL of `scheme`: https_proxy then HTTPS_PROXY for https, http_proxy
/// (lower case only) for http, then all_proxy and ALL_PROXY. An empty value counts as
/// unset. nullopt when none is set.
std::optional<environment_proxy> proxy_from_environment(std::string_view scheme,
                                                        const environment_reader& getenv);

/// The proxy a connection of `scheme` to `host` (lower case, IPv6 in brackets) tunnels
/// through; nullopt when there is none or NO_PROXY excludes `host`. A malformed proxy URL
/// throws (parse_proxy_url) even when NO_PROXY excludes the host.
/// `option_prefix` names the options in errors: "client_config.proxy", "stream_config.proxy".
std::optional<proxy_endpoint> choose_proxy(const proxy_options& settings, std::string_view option_prefix,
                                           std::string_view scheme, std::string_view host,
                                           const environment_reader& getenv);

}  // namespace massive::transport
