// One call against the mock, from a project that built the SDK as a part of itself.
#include <massive/mock/market_server.hpp>
#include <massive/indices.hpp>
#include <massive/version.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>

int main() {
  using namespace std::chrono;
  massive::mock::market_server market;
  boost::asio::io_context io;
  massive::client_config options;
  options.api_key = "subproject-key";
  options.base_url = market.base_url();
  options.tls.ca_pem = market.certificate_pem();
  massive::client client{io.get_executor(), options};
  std::size_t rows = 0;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        const auto bars = co_await client.indices().aggregates(
            {.ticker = "I:SPX", .multiplier = 1, .timespan = massive::timespan::day, .from = 2024y / January / 2,
             .to = 2024y / January / 12},
            boost::asio::use_awaitable);
        rows = bars.size();
      },
      boost::asio::detached);
  io.run();
  std::printf("subproject: massive %s, %zu bars\n", massive::version.string, rows);
  return rows > 0 ? 0 : 1;
}
