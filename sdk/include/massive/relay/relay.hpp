// The relay: holds the one upstream stream connection a key may have per market (through
// massive::stream::client: reconnects, replay of the subscriptions, gap marking) and publishes
// every event into a JetStream stream, under massive.<market>.<ev>.<ticker>, as the upstream's
// own bytes (docs/maintainers/relay.md; the deployment guide is docs/guide/relay.md).
//
//   massive::relay::relay_config config;
//   config.upstream = {.api_key = key, .market = massive::stream::market::stocks};
//   config.nats.servers = "nats://10.0.0.1:4222,nats://10.0.0.2:4222";
//   config.topics = {"T.*"};
//   massive::relay::relay r(io.get_executor(), config);
//   co_await r.run();   // until stop(), or a failure
//
// Several relays may run for one market and group: exactly one holds the lease (a JetStream
// key-value entry renewed by compare-and-set) and the upstream connection; the others wait and
// take over within the lease's TTL when it dies or is cut off. A relay that loses the lease
// stops publishing and closes the upstream before another can acquire it. Consumers
// (relay/consumer.hpp) declare the topics they want; the relay subscribes the union upstream.
//
// Threading: the relay runs on a strand of the given executor; every NATS request that waits
// for the server runs on a private worker thread, and asynchronous publish acknowledgements
// on nats.c's own threads (counted atomically). Calls to the relay from other threads than
// the executor's are the caller's to order, as for stream::client.
#pragma once

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
#include <string_view>
#include <vector>

#include "massive/detail/async_object.hpp"
#include "massive/relay/nats_config.hpp"
#include "massive/stream/client.hpp"

namespace massive::relay {

/// One line per relay life event (lease, upstream, control messages), for logs. No
/// credential appears in any.
struct relay_trace {
  std::string_view what;    ///< "nats", "lease", "upstream", "control", "demand", "publish"
  std::string_view detail;  ///< what happened
};

/// How a relay runs; every member has a default but the upstream's key.
struct relay_config {
  /// The upstream stream (key, market, feed, url, reconnect policy...). Its `limits` keep the
  /// events' bytes (the relay sets keep_event_text); its `trace` is the upstream's own.
  stream::stream_config upstream{};
  /// Where NATS is.
  nats_config nats{};
  /// Topics held whatever consumers want ("T.*", "Q.AAPL"); consumers add theirs.
  std::vector<std::string> topics{};
  /// Relays and consumers of one group share a lease per market and a demand: two groups are
  /// two independent deployments on one NATS (one per Massive key).
  std::string group = "default";
  /// This relay's name in the lease and the control messages; empty: host name, process id and
  /// a random number.
  std::string id{};
  /// The lease's lifetime: fail-over comes within about 1.25 x ttl plus the upstream's connect.
  std::chrono::milliseconds lease_ttl{3'000};
  /// How often the demand bucket is read.
  std::chrono::milliseconds demand_poll{500};
  /// How long a topic nobody wants any more stays subscribed.
  std::chrono::milliseconds linger{30'000};
  /// How long the stream keeps events (JetStream MaxAge); 0: no age limit.
  std::chrono::seconds retention{3'600};
  /// The stream's size cap in bytes (oldest events go first); -1: none.
  std::int64_t max_bytes = -1;
  /// Memory storage instead of files (faster, lost when the node restarts).
  bool memory_storage = false;
  /// Copies of the stream and buckets: 3 in a three-node cluster.
  int replicas = 1;
  /// Publishes awaiting JetStream's acknowledgement at most; beyond it the relay waits
  /// (back-pressure onto the upstream).
  std::size_t max_pending = 4'096;
  /// Called for each life event; empty: no trace.
  std::function<void(const relay_trace&)> trace{};
};

/// What a relay has done so far (cumulative).
struct relay_stats {
  std::uint64_t messages = 0;      ///< JetStream messages published (runs of events)
  std::uint64_t events = 0;        ///< events published
  std::uint64_t failed_acks = 0;   ///< publishes JetStream did not acknowledge
  std::uint64_t acquisitions = 0;  ///< times this relay acquired the lease
  std::uint64_t losses = 0;        ///< times it lost the lease (not counting a release)
  bool holding = false;            ///< it holds the lease now
};

/// See the file comment.
class relay : public massive::detail::async_object {
 public:
  /// Throws relay_error(invalid_option) for a configuration that cannot work (no market
  /// topics syntax, a group or id a subject token cannot hold).
  relay(boost::asio::any_io_executor executor, relay_config config);
  ~relay();

  /// Runs until stop() (completes without error) or a failure: relay_error(nats_failed) when
  /// NATS cannot be reached at the start, relay_error(upstream_failed) when the upstream ends
  /// for good (auth refused, max_connections). Completion signature void(std::exception_ptr).
  /// Cancellation: the terminal cancellation of the token stops the relay as stop() does.
  template <boost::asio::completion_token_for<void(std::exception_ptr)> Token =
                boost::asio::use_awaitable_t<>>
  auto run(Token&& token = {}) { return spawn(run_awaitable(), std::forward<Token>(token)); }

  /// Stops: releases the lease when held (another relay takes over at once), closes the
  /// upstream and NATS; run() then completes.
  void stop();

  /// What the relay has done so far.
  relay_stats stats() const noexcept;
  /// This relay's id (the configured one, or the one made up).
  const std::string& id() const noexcept;

 private:
  boost::asio::awaitable<void> run_awaitable();

  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace massive::relay
