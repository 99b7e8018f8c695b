// The Massive API offline: the mock market behind a loopback HTTPS server.
//
//   massive::mock::market_server local;                    // HTTPS on 127.0.0.1, fresh cert
//   massive::client client{io.get_executor(), {.api_key = "any", .base_url = local.base_url(),
//                                              .tls = {.ca_pem = local.certificate_pem()}}};
//
// Faults are scripted on the server underneath: local.server().enqueue({.status = 429, ...}).
#pragma once

#include "massive/mock/market.hpp"
#include "massive/mock/server.hpp"

#include <string>

namespace massive::mock {

/// The mock market behind a loopback HTTPS server on its own thread: what the quickstart,
/// the samples and users' tests point a client at (see the file comment).
class market_server {
 public:
  /// market.base_url is ignored: next_url points at this server.
  explicit market_server(market_options market = {}, server_options options = {});
  /// Stops the server (its thread answers from the market) before the market goes.
  ~market_server();
  market_server(const market_server&) = delete;
  market_server& operator=(const market_server&) = delete;

  /// "https://127.0.0.1:<port>": the client's client_config::base_url.
  std::string base_url() const { return server_.base_url(); }
  /// The server's certificate: the client's client_config::ca_pem.
  const std::string& certificate_pem() const noexcept { return server_.certificate_pem(); }
  /// The server underneath: recorded requests, queued (faulty) replies.
  mock::server& server() noexcept { return server_; }

 private:
  // Made first (the market's next_url points at it) and stopped first, by the destructor:
  // members are destroyed in reverse order, which would free the market under the server's
  // thread (ThreadSanitizer reported it in client_prefetch).
  mock::server server_;
  mock::market market_;
};

}  // namespace massive::mock
