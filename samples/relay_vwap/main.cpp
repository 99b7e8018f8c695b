// One upstream stream shared through NATS JetStream: a relay holds the connection and
// publishes its events; a consumer (in a real deployment, another process on another machine)
// reads AAPL trades through it with the stream client's API and prints their VWAP.
//
//   nats-server -js &                 # or a cluster: docs/guide/relay.md
//   NATS_URL=nats://127.0.0.1:4222 ./relay_vwap
//
// Without MASSIVE_API_KEY the upstream is the mock stream server.
#include <boost/asio.hpp>
#include <cstdlib>
#include <iostream>
#include <massive/mock/stream_server.hpp>
#include <massive/relay/consumer.hpp>
#include <massive/relay/relay.hpp>
#include <memory>

namespace asio = boost::asio;

int main() {
  const char* nats_url = std::getenv("NATS_URL");
  massive::relay::relay_config config;
  config.nats.servers = nats_url != nullptr ? nats_url : "nats://127.0.0.1:4222";
  config.upstream.market = massive::stream::market::stocks;
  config.topics = {"T.*"};
  std::unique_ptr<massive::mock::stream_server> local;
  if (const char* key = std::getenv("MASSIVE_API_KEY"); key == nullptr || *key == '\0') {
    local = std::make_unique<massive::mock::stream_server>();
    config.upstream.api_key = "mock-stream-key";
    config.upstream.url = local->url("stocks");
    config.upstream.tls.ca_pem = local->certificate_pem();
  }

  asio::io_context io;
  massive::relay::relay relay(io.get_executor(), config);
  relay.run(asio::detached);

  massive::relay::consumer_config wanted;
  wanted.nats.servers = config.nats.servers;
  wanted.market = massive::stream::market::stocks;
  wanted.topics = {massive::stream::stocks::trades("AAPL")};
  wanted.durable = "relay-vwap-sample";  // a restart resumes after the last batch read
  massive::relay::consumer trades(io.get_executor(), wanted);

  int status = 1;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        double notional = 0;
        double volume = 0;
        int seen = 0;
        while (seen < 100) {
          const massive::stream::batch b = co_await trades.next();
          if (b.gap())
            std::cout << "(events may be missing here: the relay reconnected or failed over)\n";
          for (const massive::stock_trade_event& t : b.events<massive::stock_trade_event>()) {
            notional += t.price.value_or(0) * static_cast<double>(t.size.value_or(0));
            volume += static_cast<double>(t.size.value_or(0));
            ++seen;
          }
        }
        co_await trades.close();
        std::cout << seen << " AAPL trades through the relay, VWAP " << notional / volume << "\n";
        status = 0;
        relay.stop();
      },
      [&](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& failure) {
          std::cerr << "relay_vwap: " << failure.what() << "\n";
        }
        relay.stop();
      });
  io.run();
  return status;
}
