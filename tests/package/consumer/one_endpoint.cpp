// A service's file that calls one endpoint: compiled by the package test (it must keep
// compiling against the installed headers) and timed by scripts/build-times.sh.
#include <massive/stocks.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstddef>

boost::asio::awaitable<std::size_t> january_bars(massive::client& client) {
  using namespace std::chrono;
  const massive::page<massive::agg> bars = co_await client.stocks().aggregates(
      {.ticker = "AAPL", .multiplier = 1, .timespan = massive::timespan::day, .from = 2024y / January / 2,
       .to = 2024y / January / 31},
      boost::asio::use_awaitable);
  co_return bars.size();
}
