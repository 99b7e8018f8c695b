// Every operation of the Massive API offline: the mock API (api.hpp) behind a loopback HTTPS
// server on its own thread.
//
//   massive::mock::api_server local;                       // HTTPS on 127.0.0.1, fresh cert
//   massive::client client{io.get_executor(), {.api_key = "any", .base_url = local.base_url(),
//                                              .tls = {.ca_pem = local.certificate_pem()}}};
//
// Replies are gzip-compressed when the request sends Accept-Encoding: gzip. Every request is
// recorded with the body it got (before gzip): local.server().requests()[i].response_body.
//
// Faults, two ways:
//   - through the API: local.server().enqueue({.status = 429, .headers = {{"Retry-After", "1"}}})
//     answers the next request with that reply (any mock::reply: resets, truncation, stalls,
//     chunking, delays), before the API is consulted; queued replies go first, in order;
//   - through request headers, so a client under test can ask for them itself:
//       X-Mock-Status: 503        answer with this status and the API's error envelope
//       X-Mock-Retry-After: 2     add Retry-After: 2 (with X-Mock-Status)
//       X-Mock-Delay-Ms: 50       wait this long before the response head
//       X-Mock-Reset-After: 100   send this many body bytes (after gzip), then TCP RST
#pragma once

#include "massive/mock/api.hpp"
#include "massive/mock/server.hpp"

#include <string>

namespace massive::mock {

/// The mock API behind a loopback HTTPS server (see the file comment).
class api_server {
 public:
  /// api.base_url is ignored: next_url points at this server.
  explicit api_server(api_options api = {}, server_options options = {});

  /// "https://127.0.0.1:<port>": the client's client_config::base_url.
  std::string base_url() const { return server_.base_url(); }
  /// The server's certificate: the client's client_config::ca_pem.
  const std::string& certificate_pem() const noexcept { return server_.certificate_pem(); }
  /// The server underneath: recorded requests and bodies, queued (faulty) replies.
  mock::server& server() noexcept { return server_; }
  /// The API it serves.
  const mock::api& api() const noexcept { return api_; }

 private:
  mock::server server_;
  mock::api api_;
};

}  // namespace massive::mock
