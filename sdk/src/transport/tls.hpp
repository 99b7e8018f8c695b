// TLS trust and peer checks, shared by the REST transport and the stream client so that both
// trust the same certificates the same way.
#pragma once

#include <boost/asio/ssl.hpp>

#include <string>
#include <string_view>

namespace massive::transport {

/// Where trust comes from; `option_prefix` names the options struct in errors ("client_config").
struct tls_trust {
  bool verify_peer = true;
  std::string_view ca_file;
  std::string_view ca_directory;
  std::string_view ca_pem;
  std::string_view option_prefix;
};

/// A TLS 1.2+ client context: verification off, or on with the given CAs (the system's when none
/// is given). Throws transport_error(errc::invalid_option) naming the option that cannot be used.
boost::asio::ssl::context make_tls_context(const tls_trust& trust);

/// Before the handshake: SNI (host names only, RFC 6066) and, when verifying, the host name or IP
/// address the certificate must name. False when OpenSSL refuses to set the name.
bool expect_peer(SSL* ssl, const std::string& host, bool verify);

}  // namespace massive::transport
