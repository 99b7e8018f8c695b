// What every connection the SDK opens is set up with, whatever it carries (REST calls, a stream,
// flat files): the certificates it trusts and the HTTP proxy it tunnels through. The same two
// groups sit in massive::client_config and massive::stream::stream_config:
//   massive::client_config{.api_key = key, .tls = {.ca_pem = server.certificate_pem()}}
//   config.proxy.url = "http://user:secret@proxy.internal:3128";
#pragma once

#include <string>

namespace massive {

/// The certificates a connection trusts, and whether it checks them. With ca_file,
/// ca_directory and ca_pem all empty, the system's defaults are trusted.
struct tls_options {
  /// PEM file of trusted certificates.
  std::string ca_file{};
  /// Directory of hashed certificates (c_rehash layout).
  std::string ca_directory{};
  /// Trusted certificates as PEM text, e.g. an embedded server's own (massive::mock).
  std::string ca_pem{};
  /// Verify the server's certificate chain and host name. Turn off only for tests.
  bool verify_peer = true;
};

/// The HTTP proxy that every connection tunnels through (CONNECT), TLS to the server running
/// inside the tunnel. The credentials appear in no message.
struct proxy_options {
  /// "http://[user:password@]host:port" (no scheme means http://, no port 1080, as in curl;
  /// user and password percent-encoded, sent as Basic authentication). Empty: no proxy, unless
  /// from_environment.
  std::string url{};
  /// Hosts reached without the proxy, in curl's NO_PROXY syntax ("*", or names and addresses
  /// separated by commas: "localhost,.internal.example,10.0.0.0/8").
  std::string no_proxy{};
  /// When `url` is empty, take it from the environment as curl does: https_proxy or
  /// HTTPS_PROXY (http_proxy for a REST client whose base URL is http://; a stream's wss:// is
  /// TLS like https://), then all_proxy or ALL_PROXY; and, when `no_proxy` is empty, no_proxy
  /// or NO_PROXY. Off by default: an SDK should not be rerouted by its process's environment
  /// unless asked.
  bool from_environment = false;
};

}  // namespace massive
