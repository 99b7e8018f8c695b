// A real HTTP/1.1 server (TLS or plain) on 127.0.0.1 and an ephemeral port, on its own thread,
// for the quickstart, the SDK's tests and users' own tests. Each response is scripted: status, headers, body, gzip,
// chunk sizes, delays, and faults (reset, TLS truncation, stall, closes). It records every
// request it receives and counts TLS handshakes and connections.
//
//   massive::mock::server server;                    // HTTPS, self-signed for 127.0.0.1
//   server.enqueue({.status = 429, .headers = {{"Retry-After", "1"}}});
//   server.respond_with([](const auto& req) { return massive::mock::reply{.body = "{}"}; });
//   ... client with base_url = server.base_url(), ca_file = <server.certificate_pem()>
#pragma once

#include "massive/mock/certificates.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace massive::mock {

/// What the server does with a keep-alive connection once the response is written.
enum class after_response {
  keep_open,  ///< wait for the next request
  close,      ///< TLS close_notify (when TLS), then TCP FIN: an idle connection closed by the server
  reset,      ///< TCP RST
};

/// One scripted response. Byte counts of faults are of the wire body (after gzip and chunk
/// framing), counted from the first byte after the head.
struct reply {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers{};  ///< added as given
  std::string body{};
  bool gzip = false;                    ///< compress and send Content-Encoding: gzip
  std::vector<std::size_t> chunks{};      ///< chunked, with these chunk sizes (the last repeats)
  bool close_delimited = false;         ///< no length: the body ends when the server closes
  std::size_t write_size = 0;           ///< write the wire body in pieces of this size
  std::chrono::milliseconds head_delay{0};   ///< before the head
  std::chrono::milliseconds write_delay{0};  ///< between pieces
  std::optional<std::size_t> reset_after{};     ///< then TCP RST
  std::optional<std::size_t> truncate_after{};  ///< then TCP close without TLS close_notify
  std::optional<std::size_t> stall_after{};     ///< then silence until the client leaves
  bool keep_alive = true;               ///< false: Connection: close, then close
  after_response after = after_response::keep_open;
  std::optional<std::string> raw{};       ///< sent verbatim instead of a response, then close
};

struct recorded_request {
  std::string method{};
  std::string target{};
  std::vector<std::pair<std::string, std::string>> headers;
  std::size_t connection = 0;  ///< 1-based id of the connection it arrived on

  /// First value of the header `name` (case-insensitive); empty when absent.
  std::string header(std::string_view name) const;
  bool has_header(std::string_view name) const;
};

struct server_options {
  bool tls = true;
  /// Certificate and key the server presents; default: self-signed for loopback_names().
  std::optional<pem_pair> identity{};
};

class server {
 public:
  using responder = std::function<reply(const recorded_request&)>;

  explicit server(server_options options = {});
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  std::uint16_t port() const noexcept;
  /// "https://127.0.0.1:<port>" (or http://).
  std::string base_url() const;
  /// The certificate a client should trust to reach this server.
  const std::string& certificate_pem() const noexcept;

  /// Answers requests for which no reply is queued (default: 200 with body "{}").
  void respond_with(responder r);
  /// Queues a reply for the next request (FIFO); queued replies go before the responder.
  void enqueue(reply r);

  std::vector<recorded_request> requests() const;
  std::size_t request_count() const;
  std::size_t tls_handshakes() const;
  /// The SNI host name of each completed handshake, in order ("" when none was sent).
  std::vector<std::string> server_names() const;
  std::size_t connections_accepted() const;
  std::size_t max_concurrent_connections() const;
  std::size_t open_connections() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace massive::mock
