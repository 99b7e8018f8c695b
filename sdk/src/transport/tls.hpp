// TLS trust and peer checks, shared by the REST transport and the stream client so that both
// trust the same certificates the same way.
#pragma once

#include "massive/connection_options.hpp"

#include <boost/asio/ssl.hpp>

#include <string>
#include <string_view>

namespace massive::transport {

/// A TLS 1.2+ client context: verification off, or on with the given CAs (the system's when none
/// is given). Throws transport_error(errc::invalid_option) naming the option that cannot be used,
/// after `option_prefix` ("client_config.tls").
boost::asio::ssl::context make_tls_context(const tls_options& trust, std::string_view option_prefix);

/// Before the handshake: SNI (host names only, RFC 6066) and, when verifying, the host name or IP
/// address the certificate must name. False when OpenSSL refuses to set the name.
bool expect_peer(SSL* ssl, const std::string& host, bool verify);

}  // namespace massive::transport
