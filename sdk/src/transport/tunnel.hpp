// Sans-I/O: the CONNECT exchange that opens a tunnel through an HTTP proxy. The request is
// rendered once per client; the proxy's answer is parsed from the bytes received so far.
#pragma once

#include "proxy.hpp"

#include "massive/proxy_error.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace massive::transport {

/// The bytes of "CONNECT <authority> HTTP/1.1", with Host, Proxy-Authorization when the
/// proxy has credentials, and User-Agent when `user_agent` is not empty.
std::string render_connect_request(const proxy_endpoint& proxy, std::string_view authority,
                                   std::string_view user_agent);

/// Bytes of a proxy's answer head read at most before it is refused as oversized.
inline constexpr std::size_t max_tunnel_response_head = 16 * 1024;

/// The proxy's answer to CONNECT, as far as it has arrived.
struct tunnel_response {
  enum class kind {
    incomplete,   ///< the head has not ended yet: read more
    established,  ///< a 2xx: the bytes after the head are the tunnel's
    refused,      ///< a complete head with another status
    malformed,    ///< not an HTTP/1.x status line, oversized, or bytes after a 2xx head
  } what = kind::incomplete;
  int status = 0;
  std::string reason;  ///< the reason phrase, sanitised; for malformed: what was wrong
};

/// Parses `received`, everything the proxy has sent so far. A 2xx's Content-Length or
/// Transfer-Encoding is ignored (RFC 9110, 9.3.6); bytes after a 2xx head are malformed,
/// since the API speaks only after the client's first bytes through the tunnel.
tunnel_response parse_tunnel_response(std::string_view received);

/// The error for a tunnel that was not established: a refusal, a malformed answer, or
/// (`response` incomplete) a connection that ended, with `cause`, before the head did.
/// `sent_credentials` tells a 407 for missing credentials from one for wrong ones; a 401 to
/// credentials (tinyproxy's answer) counts as a 407.
proxy_error tunnel_failure(const tunnel_response& response, const proxy_endpoint& proxy,
                           std::string_view authority, bool sent_credentials,
                           std::string_view cause = {});

/// Whether asking the proxy again is pointless: its 4xx to CONNECT (407, or 401 to the
/// credentials; 403 to the destination) is its policy and will be answered the same way. Its
/// 5xx (502: it could not reach the API) and a failure before any answer (a close, a stall, a
/// malformed answer) may pass on another attempt.
bool tunnel_refusal_is_final(const proxy_error& e) noexcept;

}  // namespace massive::transport
