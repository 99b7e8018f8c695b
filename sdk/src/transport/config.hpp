// Validated, normalised options: what the transport works from.
#pragma once

#include "massive/client_config.hpp"
#include "origin.hpp"

#include "proxy.hpp"
#include "request_signer.hpp"

#include <memory>

#include <optional>

#include <string>

namespace massive::transport {

struct config {
  client_config opts;              ///< api_key resolved
  origin base;      ///< scheme, host (lower case), port
  std::string host_header;   ///< host, or host:port when the port is not the default
  std::string connect_host;  ///< host to resolve (IPv6 without brackets)
  std::string port_text;
  std::string path_prefix;   ///< "" or "/prefix" without a trailing '/'
  bool tls = true;
  std::optional<proxy_endpoint> proxy;  ///< the proxy to tunnel through, after NO_PROXY
  std::string connect_request;          ///< the CONNECT request head when there is a proxy
  std::string header_lines;             ///< options.headers, rendered once
  /// Signs every attempt's head when set (by the owner of the state, after validation).
  std::shared_ptr<const request_signer> signer;
};

/// Throws transport_error(errc::invalid_option) naming the first invalid option. Reads
/// MASSIVE_API_KEY when opts.api_key is empty.
config validate_options(client_config opts);
/// Throws transport_error(errc::invalid_option) naming the first invalid deadline or retry
/// field of `call` (its headers are checked as they are rendered).
void check_call_options(const call_options& call);

/// As above, reading the environment through `getenv` (for tests of the proxy variables).
config validate_options(client_config opts, const environment_reader& getenv);

}  // namespace massive::transport
