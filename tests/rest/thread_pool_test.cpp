// The SDK on a multi-threaded executor: one client shared by calls and traversals (with and
// without prefetch) started from the pool's threads and from threads outside it, while stream
// sessions read on the same pool, all at once. Its point is the ThreadSanitizer build (label
// `tsan`, scripts/test.sh): every result is checked here, and TSan checks every access made on
// the way. No time is asserted.
//
// Its deliberate regression: the lock of client_state::take_control removed
// (sdk/src/transport/call_state.hpp, `std::lock_guard lock(controls_mutex)` before
// `idle_controls.back()`), which races with client_state::recycle on the idle call controls.
// Seen failing under TSan: "WARNING: ThreadSanitizer: data race" in
// std::vector<std::unique_ptr<call_control>>::push_back from client_state::recycle.
#include "client_support.hpp"

#include <massive/client.hpp>
#include <massive/mock/stream_server.hpp>
#include <massive/stocks.hpp>
#include <massive/stream/events.hpp>
#include <massive/stream/client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <latch>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono;
namespace asio = boost::asio;
namespace ms = massive::stream;

using massive::test::market_server;

constexpr int pool_threads = 4;
constexpr int calls_in_pool = 24, calls_outside = 24, outside_threads = 2;
constexpr int traversals = 12;  // half of them with prefetch
constexpr int sessions = 4;
constexpr std::size_t events_per_session = 40;
constexpr std::int64_t ticks_per_day = 2'500;  // three pages of 1,000 trades

const std::vector<std::string> tickers = {"AAPL", "MSFT", "NVDA", "AMZN", "GOOG", "META"};

massive::stocks_aggregates_params bars_of(int n) {
  return {.ticker = tickers[static_cast<std::size_t>(n) % tickers.size()],
          .multiplier = 1,
          .timespan = massive::timespan::day,
          .from = 2024y / January / 2,
          .to = 2024y / January / 12};
}

// What one task ended with; each task writes only its own slot, read after the latch (doctest's
// assertions stay on the test's thread).
struct result {
  std::size_t rows = 0;
  std::size_t pages = 0;
  std::size_t wrong = 0;  // stream events of a ticker the session did not subscribe to
  std::exception_ptr failure;
};

}  // namespace

TEST_CASE("a 4-thread pool: calls, traversals and stream sessions at once, from inside and outside the pool") {
  market_server rest{ticks_per_day};
  massive::mock::stream_server stream_server;
  // A session reset after a few frames reconnects while the others read.
  stream_server.script({{massive::mock::stream_fault::reset, 5}});

  asio::thread_pool pool(pool_threads);
  auto options = rest.options();
  options.connections_per_origin = 3;  // calls queue for connections
  // The limiter's bucket is shared by every call; generous, so that it never refuses.
  options.rate_limit = massive::rate_limit_policy{.requests_per_second = 100'000, .burst = 1'000};
  std::atomic<int> traces{0};
  options.trace = [&traces](const massive::trace_event&) { ++traces; };
  massive::client client{pool.get_executor(), options};

  std::vector<result> calls(calls_in_pool + calls_outside), walks(traversals), streams(sessions);
  std::latch done(static_cast<std::ptrdiff_t>(calls.size() + walks.size() + streams.size()));
  const auto finish = [&done](result& r) {
    return [&r, &done](std::exception_ptr e) {
      r.failure = e;
      done.count_down();
    };
  };

  for (int s = 0; s < sessions; ++s) {
    asio::co_spawn(pool, [&, s]() -> asio::awaitable<void> {
      ms::stream_config o;
      o.api_key = "mock-stream-key";
      o.url = stream_server.url("stocks");
      o.tls.ca_pem = stream_server.certificate_pem();
      o.reconnect.initial_backoff = milliseconds(1);
      o.reconnect.max_backoff = milliseconds(5);
      ms::client stream(co_await asio::this_coro::executor, o);
      stream.subscribe({ms::stocks::trades(tickers[static_cast<std::size_t>(s)])});
      while (streams[s].rows < events_per_session) {
        const ms::batch b = co_await stream.next();
        for (const massive::stock_trade_event& t : b.events<massive::stock_trade_event>()) {
          if (t.ticker != tickers[static_cast<std::size_t>(s)]) ++streams[s].wrong;
          ++streams[s].rows;
        }
        ++streams[s].pages;
      }
    }, finish(streams[s]));
  }
  for (int t = 0; t < traversals; ++t) {
    asio::co_spawn(pool, [&, t]() -> asio::awaitable<void> {
      auto trades = client.stocks().trades(
          {.ticker = tickers[static_cast<std::size_t>(t) % tickers.size()], .timestamp = 2024y / January / 10, .limit = 1000},
          {.prefetch = t % 2 == 0});
      while (auto page = co_await trades.next()) {
        walks[t].rows += page->size();
        ++walks[t].pages;
      }
    }, finish(walks[t]));
  }
  for (int n = 0; n < calls_in_pool; ++n) {
    asio::co_spawn(pool, [&, n]() -> asio::awaitable<void> {
      const auto bars = co_await client.stocks().aggregates(bars_of(n));
      calls[n].rows = bars.size();
    }, finish(calls[n]));
  }
  std::vector<std::thread> callers;
  for (int t = 0; t < outside_threads; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; i < calls_outside / outside_threads; ++i) {
        const int n = calls_in_pool + t * (calls_outside / outside_threads) + i;
        client.stocks().aggregates(bars_of(n), [&, n](std::exception_ptr e, massive::page<massive::agg> bars) {
          calls[n].rows = bars.size();
          finish(calls[n])(e);
        });
      }
    });
  }
  for (auto& c : callers) c.join();
  done.wait();
  pool.join();

  for (const result& r : calls) {
    CHECK_FALSE(r.failure);
    CHECK(r.rows == 9);  // the trading days from 2 to 12 January 2024
  }
  for (const result& r : walks) {
    CHECK_FALSE(r.failure);
    CHECK(r.rows == static_cast<std::size_t>(ticks_per_day));
    CHECK(r.pages == 3);
  }
  for (const result& r : streams) {
    CHECK_FALSE(r.failure);
    CHECK(r.rows >= events_per_session);
    CHECK(r.wrong == 0);
  }
  const std::size_t requests = calls.size() + walks.size() * 3;
  CHECK(rest.server.request_count() == requests);
  CHECK(traces == static_cast<int>(requests));
  CHECK(rest.server.max_concurrent_connections() <= 3);
  CHECK(stream_server.connections() == static_cast<std::size_t>(sessions) + 1);  // the reset session's second connection
}
