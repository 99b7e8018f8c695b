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
  /// HTTP status code.
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers{};  ///< added as given
  /// The body, before gzip and chunk framing.
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
  /// What happens to the connection once this response is written.
  after_response after = after_response::keep_open;
  std::optional<std::string> raw{};       ///< sent verbatim instead of a response, then close
  /// Interim responses sent verbatim before the head, each a whole head ("HTTP/1.1 100
  /// Continue\r\n\r\n"), as a server does before its final answer.
  std::vector<std::string> interim{};
  /// Sent verbatim on the idle connection 20 ms after the response, unasked (a stale or
  /// hostile server's bytes); the connection then waits for the next request.
  std::optional<std::string> pushed{};
  /// The answer to a HEAD: the head (Content-Length is the body's) without the body.
  bool head_only = false;
};

/// A request the server received, as it arrived.
struct recorded_request {
  /// The method, e.g. "GET".
  std::string method{};
  /// The request target as sent, e.g. "/v3/trades/AAPL?limit=10".
  std::string target{};
  /// Header fields in arrival order, names as sent.
  std::vector<std::pair<std::string, std::string>> headers;
  std::size_t connection = 0;  ///< 1-based id of the connection it arrived on
  /// The status the server answered with (queued reply or responder; 0 before it answered).
  int response_status = 0;
  /// The body the server answered with, before gzip and chunk framing: what a test compares
  /// a client's decoded values with.
  std::string response_body{};

  /// First value of the header `name` (case-insensitive); empty when absent.
  std::string header(std::string_view name) const;
  /// True when the header `name` (case-insensitive) was sent.
  bool has_header(std::string_view name) const;
};

/// How the server listens and what it presents.
struct server_options {
  /// HTTPS when true, plain HTTP when false.
  bool tls = true;
  /// Certificate and key the server presents; default: self-signed for loopback_names().
  std::optional<pem_pair> identity{};
  /// Keep every request for requests(). False for long runs (the soak program): requests()
  /// is then empty and only request_count() counts, so that memory stays flat.
  bool record_requests = true;
};

/// A scriptable HTTP/1.1 server on 127.0.0.1 and an ephemeral port, on its own thread (see
/// the file comment). Destroying it stops it and closes every connection.
class server {
 public:
  /// Makes the reply to a request for which no reply is queued.
  using responder = std::function<reply(const recorded_request&)>;

  /// Starts listening at once.
  explicit server(server_options options = {});
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  /// Stops answering: the server's thread is joined when this returns, so nothing it answers
  /// from (a responder's captures) is touched afterwards. Idempotent; the destructor calls it.
  /// The recorded figures stay readable.
  void stop();

  /// The port it listens on.
  std::uint16_t port() const noexcept;
  /// "https://127.0.0.1:<port>" (or http://).
  std::string base_url() const;
  /// The certificate a client should trust to reach this server.
  const std::string& certificate_pem() const noexcept;

  /// Answers requests for which no reply is queued (default: 200 with body "{}").
  void respond_with(responder r);
  /// Queues a reply for the next request (FIFO); queued replies go before the responder.
  void enqueue(reply r);

  /// Every request received so far, in order (none when server_options::record_requests is off).
  std::vector<recorded_request> requests() const;
  /// How many requests were received so far.
  std::size_t request_count() const;
  /// TLS handshakes completed so far.
  std::size_t tls_handshakes() const;
  /// The SNI host name of each completed handshake, in order ("" when none was sent).
  std::vector<std::string> server_names() const;
  /// TCP connections accepted so far.
  std::size_t connections_accepted() const;
  /// The most connections that were open at the same time.
  std::size_t max_concurrent_connections() const;
  /// Connections open now.
  std::size_t open_connections() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace massive::mock
