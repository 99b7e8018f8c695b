// A WebSocket server (TLS, 127.0.0.1, ephemeral port, its own thread) that speaks the stream
// protocol as the real server does (API-NOTES.md, "Streams"): `connected`, then auth with the
// key, one `success` acknowledgement per subscribed topic (`*` included; an unknown prefix is
// dropped silently), then events of the subscribed channels, synthesised deterministically
// from the stream description's field types (the catalog). Each connection can be scripted to
// fail. It records every message each connection received, for tests to assert on.
//
//   massive::mock::stream_server server;
//   server.script({{.fault = massive::mock::stream_fault::close, .after_frames = 3}});
//   ... stream client with url = server.url("stocks"), ca_pem = server.certificate_pem()
#pragma once

#include "massive/mock/certificates.hpp"
#include "massive/mock/server.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace massive::mock {

/// The millisecond timestamp of a connection's first event; each event after it is one
/// millisecond later, so a client can tell which events it did not see.
inline constexpr std::int64_t stream_first_timestamp_ms = 1'700'000'000'000;

/// How a scripted connection ends, or what it sends besides its events.
enum class stream_fault {
  none,             ///< streams until the client leaves
  close,            ///< a WebSocket close (normal), after `after_frames` event frames
  reset,            ///< TCP RST, after `after_frames` event frames
  stall,            ///< silence after `after_frames` event frames: no frame, no pong, no close
  slow_consumer,    ///< status slow_consumer, then a close, after `after_frames` event frames
  force_disconnect, ///< status force_disconnect, then a close, after `after_frames` event frames
  max_connections,  ///< status max_connections after authentication, then a close
  auth_failed,      ///< auth_failed "authentication failed", then a TCP close (as the server does)
  no_plan,          ///< auth_failed "Your plan doesn't include websocket access...", then a TCP close
  auth_timeout,     ///< status auth_timeout instead of an answer to auth, then a close
  frame,            ///< stream_script::frame as it is, after `after_frames` event frames; then events
};

/// How a connection opened: what a test checks of a client's TLS and upgrade request.
struct stream_opening {
  std::string server_name;   ///< the TLS server name (SNI) the client sent; "" when none
  recorded_request upgrade;  ///< the WebSocket upgrade request: method, target, headers
};

/// The script of one connection.
struct stream_script {
  stream_fault fault = stream_fault::none;  ///< what the connection suffers
  std::size_t after_frames = 0;             ///< after this many event frames
  std::string frame{};                      ///< stream_fault::frame: the text frame to send
};

/// How the mock stream server behaves; every member has a default.
struct stream_server_options {
  /// The key auth must carry; anything else is auth_failed.
  std::string api_key = "mock-stream-key";
  /// Events per frame (frames mix the subscribed channels).
  std::size_t events_per_frame = 4;
  /// Between event frames; zero: as fast as the client reads.
  std::chrono::microseconds frame_interval{1000};
  /// Event frames per connection at most (then the connection stays open, silent).
  std::size_t max_frames = SIZE_MAX;
  /// Non-zero: every frame is sent as continuation frames of this many bytes (at least 8).
  std::size_t fragment_bytes = 0;
  /// Topic prefixes subscribed to without an acknowledgement and without events, as the real
  /// server treats a channel it does not serve on the connection's feed or plan.
  std::vector<std::string> unserved_prefixes{};
  /// Certificate and key the server presents; default: self-signed for loopback_names().
  std::optional<pem_pair> identity{};
};

/// See the file comment. Destroying it stops it and closes every connection.
class stream_server {
 public:
  /// Starts serving on a free loopback port, on a thread of its own.
  explicit stream_server(stream_server_options options = {});
  ~stream_server();
  stream_server(const stream_server&) = delete;
  stream_server& operator=(const stream_server&) = delete;

  /// "wss://127.0.0.1:<port>/<path>", e.g. path "stocks".
  std::string url(std::string_view path) const;
  /// The loopback port it listens on.
  std::uint16_t port() const noexcept;
  /// The certificate a client should trust.
  const std::string& certificate_pem() const noexcept;
  /// Scripts for the next connections, in order; connections beyond them get none.
  void script(std::vector<stream_script> scripts);
  /// The text messages each connection received, connection by connection.
  std::vector<std::vector<std::string>> received() const;
  /// How each connection opened, in the order of received().
  std::vector<stream_opening> openings() const;
  /// Connections whose WebSocket handshake completed.
  std::size_t connections() const;
  /// Event frames sent, over every connection.
  std::size_t frames_sent() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace massive::mock
