#include "transport/tls.hpp"

#include "massive/error.hpp"

#include <boost/asio/ip/address.hpp>

namespace massive::transport {

namespace asio = boost::asio;

asio::ssl::context make_tls_context(const tls_options& trust, std::string_view option_prefix) {
  asio::ssl::context ctx(asio::ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(ctx.native_handle(), TLS1_2_VERSION);
  if (!trust.verify_peer) {
    ctx.set_verify_mode(asio::ssl::verify_none);
    return ctx;
  }
  ctx.set_verify_mode(asio::ssl::verify_peer);
  const std::string prefix(option_prefix);
  boost::system::error_code ec;
  if (!trust.ca_file.empty() && ctx.load_verify_file(trust.ca_file, ec)) {
    throw transport_error(errc::invalid_option,
                          prefix + ".ca_file: cannot load '" + trust.ca_file + "': " + ec.message());
  }
  if (!trust.ca_directory.empty() && ctx.add_verify_path(trust.ca_directory, ec)) {
    throw transport_error(errc::invalid_option, prefix + ".ca_directory: cannot use '" +
                                                    trust.ca_directory + "': " + ec.message());
  }
  if (!trust.ca_pem.empty() && ctx.add_certificate_authority(asio::buffer(trust.ca_pem), ec)) {
    throw transport_error(errc::invalid_option, prefix + ".ca_pem: not a PEM certificate: " + ec.message());
  }
  if (trust.ca_file.empty() && trust.ca_directory.empty() && trust.ca_pem.empty() && ctx.set_default_verify_paths(ec)) {
    throw transport_error(errc::invalid_option, prefix + ".verify_peer: no system trust store: " + ec.message());
  }
  return ctx;
}

bool expect_peer(SSL* ssl, const std::string& host, bool verify) {
  boost::system::error_code not_ip;
  asio::ip::make_address(host, not_ip);
  // SNI carries host names only (RFC 6066); an IP literal is checked against IP SANs.
  if (not_ip) SSL_set_tlsext_host_name(ssl, host.c_str());
  if (!verify) return true;
  // OpenSSL's own check (not asio::ssl::host_name_verification): on a mismatch it records
  // X509_V_ERR_HOSTNAME_MISMATCH, so the error can say why.
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  return (not_ip ? X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0)
                 : X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str())) == 1;
}

}  // namespace massive::transport
