// A consumer of the relay's JetStream stream, with stream::client's reading API: next()
// completes with a massive::stream::batch of typed events, decoded by the same generated
// event decoders from the upstream's own bytes.
//
//   massive::relay::consumer_config config;
//   config.market = massive::stream::market::stocks;
//   config.topics = {massive::stream::stocks::trades("AAPL")};
//   config.durable = "vwap-service";          // resumes where it stopped
//   massive::relay::consumer c(io.get_executor(), config);
//   while (true) {
//     massive::stream::batch b = co_await c.next();
//     for (const auto& t : b.events<massive::stock_trade_event>()) { ... }
//   }
//
// - Subjects: one topic filters exactly on the server (massive.stocks.T.AAPL); several topics
//   read the market's subjects and drop the others by subject before decoding (nats-server
//   2.9 has one filter per consumer).
// - Durable: a named consumer resumes after a restart from its last acknowledged message. A
//   batch is acknowledged when next() is called again (the caller is done with it), the last
//   one by close(): no loss; a batch delivered again after a crash is recognisable by its
//   sequence() (and redelivered()).
// - Replay: a new consumer starts with new events, or every event the stream holds, or those
//   from a time (consumer_config::start).
// - Gaps: batch::gap() is set on the first batch after events may be missing: the relay took
//   over from another, its upstream reconnected, or JetStream did not take a message.
// - Demand: the consumer declares its topics in the demand bucket (refreshed, removed by
//   close()) so that the relay subscribes them upstream. A consumer started before any relay
//   of its market has run waits, its demand declared, until the relay makes the stream.
//
// Threading: as stream::client: one next() at a time, on the executor's threads; the fetches
// from JetStream wait on a private worker thread, never on the executor.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "massive/detail/async_object.hpp"
#include "massive/relay/nats_config.hpp"
#include "massive/stream/batch.hpp"
#include "massive/stream/topic.hpp"

namespace massive::relay {

/// Where a new consumer starts (a durable one that exists resumes where it stopped).
enum class start_at : std::uint8_t {
  new_events,  ///< events published from now on
  all,         ///< every event the stream still holds
  time,        ///< events published from consumer_config::from on
};

/// How a consumer reads; every member has a default but the topics.
struct consumer_config {
  /// Where NATS is.
  nats_config nats{};
  /// The market whose relay stream is read.
  stream::market market = stream::market::stocks;
  /// The topics wanted (massive::stream::stocks::trades("AAPL"), ...("*")), all of `market`.
  std::vector<stream::topic> topics{};
  /// A durable consumer's name (letters, digits, '-', '_'): it resumes after a restart. Empty:
  /// an ephemeral consumer, gone when closed.
  std::string durable{};
  /// Where a new consumer starts.
  start_at start = start_at::new_events;
  /// With start_at::time: the first publication time wanted.
  std::chrono::system_clock::time_point from{};
  /// The relay deployment's group (relay_config::group).
  std::string group = "default";
  /// Put the topics in the demand bucket so that the relay subscribes them.
  bool declare_demand = true;
  /// This consumer's name in the demand bucket; empty: the durable name, else a random one.
  std::string id{};
  /// How long the demand entry lives without a refresh (it is refreshed at a third of it).
  std::chrono::milliseconds demand_ttl{30'000};
  /// Messages fetched from JetStream at once, at most.
  std::size_t fetch_batch = 256;
  /// How long one fetch waits for messages before the consumer refreshes its demand and asks
  /// again.
  std::chrono::milliseconds fetch_wait{500};
  /// Which channels' events the messages carry (as stream_config::channels).
  stream::channel_set channels = stream::channel_set::market;
  /// Ceilings per message (one message decodes as one frame).
  stream::frame_limits limits{};
};

/// See the file comment.
class consumer : public massive::detail::async_object {
 public:
  /// Throws relay_error(invalid_option) for a configuration that cannot work (no topic, a topic
  /// of another market, a durable name a consumer cannot have), relay_error(invalid_ticker)
  /// for a topic no subject can name.
  consumer(boost::asio::any_io_executor executor, consumer_config config);
  ~consumer();

  /// The next batch (one relay message: events of one subject, in the upstream's order).
  /// Completion signature void(std::exception_ptr, batch): relay_error(nats_failed) when NATS
  /// or the consumer cannot be reached at the start or is lost, relay_error(closed) after
  /// close(), decode_error for a message that is not a valid frame (it is acknowledged and
  /// skipped; the next call reads on). Acknowledges the batch before it.
  template <boost::asio::completion_token_for<void(std::exception_ptr, stream::batch)> Token =
                boost::asio::use_awaitable_t<>>
  auto next(Token&& token = {}) { return spawn(next_awaitable(), std::forward<Token>(token)); }

  /// The stream sequence of the last batch's message: increasing; a batch whose sequence is
  /// not above the last one a durable consumer's owner processed is a duplicate.
  std::uint64_t sequence() const noexcept;
  /// The last batch was delivered before (the consumer restarted without acknowledging it).
  bool redelivered() const noexcept;

  /// Acknowledges the last batch, removes the demand entry, closes the subscription (a
  /// durable consumer stays on the server for the next run) and NATS. Completion signature
  /// void(std::exception_ptr).
  template <boost::asio::completion_token_for<void(std::exception_ptr)> Token =
                boost::asio::use_awaitable_t<>>
  auto close(Token&& token = {}) { return spawn(close_awaitable(), std::forward<Token>(token)); }

 private:
  boost::asio::awaitable<stream::batch> next_awaitable();
  boost::asio::awaitable<void> close_awaitable();

  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace massive::relay
