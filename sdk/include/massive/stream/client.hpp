// The stream client: one WebSocket connection (Boost.Beast over the REST transport's TLS setup:
// CA, verification, SNI, timeouts, and its HTTP CONNECT proxies) to one market on one feed, on
// the user's executor.
//
//   massive::stream::client stream{io.get_executor(), {.api_key = key, .market = massive::stream::market::stocks}};
//   stream.subscribe({massive::stream::stocks::trades("AAPL")});
//   while (true) {
//     massive::stream::batch b = co_await stream.next();
//     for (const auto& t : b.events<massive::stock_trade_event>()) { ... }
//   }
//
// The protocol is stream_session's (sans-I/O); this class only moves bytes and waits: it
// connects, authenticates, replays the subscriptions and reconnects as the session says, and
// reads until a frame with events arrives.
//
// Behind a proxy (stream_config::proxy, or the environment when asked, as massive::client_config
// takes them), every connection, reconnects included, is a CONNECT tunnel with TLS to the
// stream server inside it. A proxy's 4xx (407 or tinyproxy's 401 to credentials, 403) ends the
// stream with its proxy_error: another attempt would meet the same answer. Its 5xx (502: it
// could not reach the server), a close, a stall past connect_timeout or a malformed answer is a
// lost connection, retried with the reconnect policy's backoff like a dropped one.
//
// A consumer slower than the feed gets the policy it chose (stream_config::slow_consumer):
// - back_pressure (the default): frames are read only when next() is called. Unread frames wait
//   in the socket, the bounded buffer (the kernel's receive buffer), and the server is slowed
//   down by TCP until it answers with `slow_consumer` and a close, after which the client
//   reconnects and marks the gap. Nothing is lost silently; nothing is read ahead.
// - drop_oldest: frames are read as they arrive, from the first next() on, into a queue of at
//   most `buffered_batches` batches. When the queue is full the oldest batch is dropped, its
//   frame and events counted in dropped() and the batch that follows it marked gap(). The
//   consumer sees the newest events; the server sees a client that reads as fast as it decodes.
#pragma once

#include "massive/connection_options.hpp"
#include "massive/detail/async_object.hpp"
#include "massive/response_info.hpp"
#include "massive/stream/batch.hpp"
#include "massive/stream/session.hpp"
#include "massive/stream/topic.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace massive::stream {

/// One line per connection attempt and per status event, for logs; the key never appears.
struct stream_trace {
  std::string_view what;    ///< "connect", "connected", "status", "disconnected", "backoff", "refused"
  std::string_view detail;  ///< the host (and proxy), the status and message, the reason, the delay
};

/// What the client does with frames the consumer has not taken yet (see the file comment).
enum class slow_consumer_policy : std::uint8_t { back_pressure, drop_oldest };

/// What drop_oldest has dropped since the client was made: frames and the events in them
/// (status events included: the client had applied them). Only ever grows.
struct drop_count {
  std::size_t frames = 0;  ///< frames dropped
  std::size_t events = 0;  ///< the events those frames held
  /// Both counts equal.
  friend bool operator==(const drop_count&, const drop_count&) = default;
};

/// How a stream client connects and behaves; every member has a default but the key.
struct stream_config {
  /// Empty: read MASSIVE_API_KEY. Sent only in the auth frame.
  std::string api_key{};
  /// Which market's stream (one connection carries one market).
  stream::market market = stream::market::stocks;
  /// Which feed's host: real-time, delayed or a business feed (ignored when `url` is set).
  stream::feed feed = stream::feed::realtime;
  /// Which channels' events the frames carry (the fair market value needs business).
  stream::channel_set channels = stream::channel_set::market;
  /// Any wss:// URL instead of the feed's (tests, the mock): wss://127.0.0.1:port/stocks.
  std::string url{};
  /// TCP connect + TLS + WebSocket handshake, and the wait for `connected` and auth's answer:
  /// one deadline for all of it. A connection that passes it is lost and replaced.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Without a whole message (or pong) for this long, the connection is stalled: the client
  /// pings at half of it and closes it when none came back (at most an eighth of it late); the
  /// session reconnects. A message still arriving is none: it must complete within this too.
  std::chrono::milliseconds idle_timeout{30'000};
  /// The certificates trusted (the system's by default) and whether they are verified, as
  /// massive::client_config::tls.
  tls_options tls{};
  /// The HTTP proxy every connection tunnels through, as massive::client_config::proxy; none by
  /// default.
  proxy_options proxy{};
  /// Headers sent on every WebSocket upgrade request (reconnects included), e.g. a reseller's
  /// X-Massive-Edge-ID. Validated at construction as massive::client_config::headers are, the
  /// handshake's own Sec-WebSocket-* refused too; the error names the header, never its value.
  std::vector<header_field> headers{};
  /// When and how often a lost connection is replaced.
  reconnect_policy reconnect{};
  /// Ceilings per frame: its size (larger ones are refused with frame_too_large) and its decode.
  frame_limits limits{};
  /// What happens to frames the consumer has not taken yet (see the file comment).
  slow_consumer_policy slow_consumer = slow_consumer_policy::back_pressure;
  /// drop_oldest: batches read ahead and not yet taken by next(), at most (at least 1). Each
  /// holds one frame's events and its pooled memory.
  std::size_t buffered_batches = 64;
  /// Called for each connection's life events (stream_trace); the key and the proxy's
  /// credentials appear in none. Empty: no trace.
  std::function<void(const stream_trace&)> trace{};
};

/// See the file comment. Not thread-safe: one next() at a time, and every call from the thread
/// that runs the executor (the client's strand of it orders next() with drop_oldest's reading,
/// not with calls from other threads). Destroying it closes the connection.
class client : public massive::detail::async_object {
 public:
  /// Throws transport_error(errc::invalid_option) naming an option that cannot be used (the
  /// key, the proxy, a header), stream_error(protocol_violation) for a url that is not wss://.
  client(boost::asio::any_io_executor executor, stream_config options);
  ~client();

  /// Adds topics; sent when authenticated (and replayed after every reconnect). Topics added
  /// while a read is pending (a next() waiting, or drop_oldest reading ahead) are sent once
  /// that read completes, that is with the next frame.
  void subscribe(std::vector<topic> topics);
  /// Removes topics; sent when authenticated, and no longer replayed after a reconnect. Timing
  /// as subscribe().
  void unsubscribe(std::vector<topic> topics);

  /// The next frame with events, in wire order; batch::gap() is set on the first after a
  /// reconnect or after frames dropped by drop_oldest. Completion signature
  /// void(std::exception_ptr, batch): stream_error when the stream is over (auth_failed,
  /// no_stream_access, max_connections, reconnects_exhausted), massive::proxy_error when the
  /// proxy refused the tunnel for good (see the file comment), decode_error for a frame that
  /// is not valid. With drop_oldest a refused frame's error comes in its place among the
  /// batches, and the error that ends the stream after the batches read before it.
  /// Cancellation: the terminal cancellation of the completion token closes the connection.
  template <boost::asio::completion_token_for<void(std::exception_ptr, batch)> Token =
                boost::asio::use_awaitable_t<>>
  auto next(Token&& token = {}) { return spawn(next_awaitable(), std::forward<Token>(token)); }

  /// Closes the connection; next() then fails.
  void close();

  /// The protocol state (topics, acknowledgements, reconnects).
  const session& state() const noexcept;

  /// What the drop_oldest policy has dropped so far (always zero under back_pressure).
  drop_count dropped() const noexcept;

 private:
  boost::asio::awaitable<batch> next_awaitable();

  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace massive::stream
