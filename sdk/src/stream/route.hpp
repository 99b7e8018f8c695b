// Sans-I/O: how a stream client reaches its server, from its options, computed once per
// client: the WebSocket URL's host, port and path, the proxy it tunnels through (chosen as
// the REST transport chooses it, transport/proxy.hpp) with its CONNECT request, and the
// caller's headers for the upgrade request, validated.
#pragma once

#include "massive/stream/client.hpp"
#include "transport/proxy.hpp"

#include <optional>
#include <string>
#include <vector>

namespace massive::stream::detail {

struct route {
  std::string host;         ///< to resolve, for SNI and to verify (IPv6 without brackets)
  std::string port = "443";
  std::string path;
  std::string host_header;  ///< the upgrade's Host: host, or host:port when not 443
  std::string authority;    ///< host:port, CONNECT's target (IPv6 in brackets)
  std::optional<transport::proxy_endpoint> proxy;  ///< after NO_PROXY
  std::string connect_request;                     ///< the CONNECT head when there is a proxy
  std::vector<header_field> headers;               ///< options.headers, validated
};

/// Throws stream_error(protocol_violation) for a url that is not wss://, and
/// transport_error(errc::invalid_option) naming a proxy option or a header that cannot be used
/// (never the proxy's credentials nor a header's value). The environment is read through
/// `getenv` only when options.proxy.from_environment.
route route_of(const stream_config& options, const transport::environment_reader& getenv);

}  // namespace massive::stream::detail
