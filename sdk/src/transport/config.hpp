// Validated, normalised options: what the transport works from.
#pragma once

#include "massive/client_options.hpp"
#include "massive/url.hpp"

#include <string>

namespace massive::transport {

struct config {
  options opts;              ///< api_key resolved
  massive::origin base;      ///< scheme, host (lower case), port
  std::string host_header;   ///< host, or host:port when the port is not the default
  std::string connect_host;  ///< host to resolve (IPv6 without brackets)
  std::string port_text;
  std::string path_prefix;   ///< "" or "/prefix" without a trailing '/'
  bool tls = true;
};

/// Throws transport_error(errc::invalid_option) naming the first invalid option. Reads
/// MASSIVE_API_KEY when opts.api_key is empty.
config validate_options(options opts);

}  // namespace massive::transport
