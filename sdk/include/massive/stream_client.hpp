// The stream client: one WebSocket connection (Boost.Beast over the REST transport's TLS setup:
// CA, verification, SNI, timeouts) to one market on one feed, on the user's executor.
//
//   massive::stream::client stream{io.get_executor(), {.api_key = key, .market = massive::stream::market::stocks}};
//   stream.subscribe({massive::stream::stocks::trades("AAPL")});
//   while (true) {
//     massive::stream::batch b = co_await stream.next();
//     for (const auto& t : b.events<massive::stock_trade_event>()) { ... }
//   }
//
// The protocol is stream_session's (sans-I/O); this class only moves bytes and waits: next()
// connects, authenticates, replays the subscriptions and reconnects as the session says, and
// reads until a frame with events arrives. Reading is pulled by next(): a consumer slower than
// the feed leaves the frames in the socket (back-pressure), which the server answers with
// `slow_consumer` and a close, after which the client reconnects and marks the gap.
#pragma once

#include "massive/stream_batch.hpp"
#include "massive/stream_session.hpp"
#include "massive/stream_topic.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace massive::stream {

/// One line per connection attempt and per status event, for logs; the key never appears.
struct stream_trace {
  std::string_view what;    ///< "connect", "connected", "status", "disconnected", "backoff"
  std::string_view detail;  ///< the host, the status and message, the reason, the delay
};

struct client_options {
  /// Empty: read MASSIVE_API_KEY. Sent only in the auth frame.
  std::string api_key{};
  stream::market market = stream::market::stocks;
  stream::feed feed = stream::feed::realtime;
  /// Which channels' events the frames carry (the fair market value needs business).
  stream::channel_set channels = stream::channel_set::market;
  /// Any wss:// URL instead of the feed's (tests, the mock): wss://127.0.0.1:port/stocks.
  std::string url{};
  /// TCP connect + TLS + WebSocket handshake, and the wait for `connected` and auth's answer.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Without a frame (or pong) for this long, the connection is stalled: Beast pings at half of
  /// it and closes it when nothing came back; the session reconnects.
  std::chrono::milliseconds idle_timeout{30'000};
  std::string ca_file{};
  std::string ca_pem{};
  bool verify_peer = true;
  reconnect_policy reconnect{};
  frame_limits limits{};
  std::function<void(const stream_trace&)> trace{};
};

/// See the file comment. Not thread-safe: one next() at a time, from the executor's threads.
class client {
 public:
  client(boost::asio::any_io_executor executor, client_options options);
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Adds topics; sent at once when authenticated, else after authentication (and replayed
  /// after every reconnect).
  void subscribe(std::vector<topic> topics);
  void unsubscribe(std::vector<topic> topics);

  /// The next frame with events, in wire order; batch::gap() is set on the first after a
  /// reconnect. Completion signature void(std::exception_ptr, batch): stream_error when the
  /// stream is over (auth_failed, no_stream_access, max_connections, reconnects_exhausted),
  /// decode_error for a frame that is not valid. Cancellation: the terminal cancellation of
  /// the completion token closes the connection.
  template <class Token = boost::asio::use_awaitable_t<>>
  auto next(Token&& token = {}) {
    return boost::asio::co_spawn(executor_, next_awaitable(), std::forward<Token>(token));
  }

  /// Closes the connection; next() then fails.
  void close();

  /// The protocol state (topics, acknowledgements, reconnects).
  const session& state() const noexcept;

 private:
  boost::asio::awaitable<batch> next_awaitable();

  struct impl;
  boost::asio::any_io_executor executor_;
  std::shared_ptr<impl> impl_;
};

}  // namespace massive::stream
