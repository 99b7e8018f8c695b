// The client over real HTTPS: endpoints, traversal rules, and the allocation and memory gates
// of a warm traversal. The server is the in-process test server answering from the mock
// market (or from scripted replies where a test needs a misbehaving server).
#include "allocation_counter.hpp"

#include "client_support.hpp"

#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace std::chrono;
namespace asio = boost::asio;

using massive::test::api_key;
using massive::test::market_server;
using massive::test::run;
using massive::test::transport_errc_of;

}  // namespace

TEST_CASE("aggregates: one page of typed bars") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  run(io, [&]() -> asio::awaitable<void> {
    auto bars = co_await client.stocks().aggregates({.ticker = "AAPL",
                                                     .multiplier = 1,
                                                     .timespan = massive::timespan::day,
                                                     .from = 2024y / January / 2,
                                                     .to = 2024y / January / 12});
    REQUIRE(bars.size() == 9);
    CHECK(bars.envelope().ticker == "AAPL");
    CHECK(bars.envelope().results_count == 9);
    CHECK(bars[0].timestamp.to_sys_time() == sys_days{2024y / January / 2});
    for (const massive::agg& bar : bars) {
      CHECK(bar.low <= bar.high);
      CHECK(bar.volume > 0);
    }
  });
  const auto requests = s.server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].target == "/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-12");
  CHECK(requests[0].header("Authorization") == "Bearer " + std::string(api_key));
}

TEST_CASE("trades: a traversal follows next_url verbatim with the key on every page") {
  market_server s{2'500};
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  std::vector<std::string> next_urls;
  std::size_t rows = 0;
  run(io, [&]() -> asio::awaitable<void> {
    auto trades = client.stocks().trades(
        {.ticker = "AAPL", .timestamp = 2024y / January / 10, .limit = 1000});
    std::int64_t previous = std::numeric_limits<std::int64_t>::max();
    while (auto page = co_await trades.next()) {
      for (const massive::trade& t : *page) {
        CHECK(t.sip_timestamp.count() < previous);  // the API's default order: descending
        previous = t.sip_timestamp.count();
        ++rows;
      }
      next_urls.emplace_back(page->next_url());
    }
    CHECK(trades.done());
    CHECK(trades.pages() == 3);
  });
  CHECK(rows == 2'500);
  const auto requests = s.server.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].target == "/v3/trades/AAPL?timestamp=2024-01-10&limit=1000");
  for (std::size_t i = 1; i < requests.size(); ++i) {
    CHECK(s.server.base_url() + requests[i].target == next_urls[i - 1]);
  }
  for (const auto& r : requests) {
    CHECK(r.header("Authorization") == "Bearer " + std::string(api_key));
  }
  CHECK(next_urls.back().empty());
}

TEST_CASE("under the query scheme the key is appended once per page, never duplicated") {
  market_server s{1'500};
  asio::io_context io;
  auto options = s.options();
  options.auth = massive::auth_scheme::query_parameter;
  massive::client client{io.get_executor(), options};
  run(io, [&]() -> asio::awaitable<void> {
    auto quotes = client.stocks().quotes({.ticker = "AAPL", .limit = 1000});
    while (auto page = co_await quotes.next()) {
    }
  });
  const auto requests = s.server.requests();
  REQUIRE(requests.size() == 2);
  for (const auto& r : requests) {
    const auto first = r.target.find("apiKey=");
    REQUIRE(first != std::string::npos);
    CHECK(r.target.find("apiKey=", first + 1) == std::string::npos);
    CHECK_FALSE(r.has_header("Authorization"));
  }
}

TEST_CASE("a next_url on another origin is refused before anything is sent") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  const std::string port = std::to_string(s.server.port());
  for (const std::string& foreign : std::vector<std::string>{
           "https://evil.example/v3/trades/AAPL?cursor=abc",
        "http://127.0.0.1:" + port + "/v3/trades/AAPL?cursor=abc",
        "https://127.0.0.1:1/v3/trades/AAPL?cursor=abc",
        "https://localhost:" + port + "/v3/trades/AAPL?cursor=abc"}) {
    CAPTURE(foreign);
    const auto before = s.server.request_count();
    s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + foreign + R"("})"});
    auto trades = client.stocks().trades({.ticker = "AAPL"});
    const auto code = transport_errc_of([&] {
      run(io, [&]() -> asio::awaitable<void> {
        auto first = co_await trades.next();
        CHECK(first.has_value());
        co_await trades.next();
      });
    });
    CHECK(code == massive::errc::foreign_next_url);
    CHECK(s.server.request_count() == before + 1);  // only the first page was asked for
  }
}

TEST_CASE("a cursor that repeats is refused; an empty page does not end a traversal") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  const std::string again = s.server.base_url() + "/v3/trades/AAPL?cursor=again";
  s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + again + R"("})"});
  s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + again + R"("})"});
  auto trades = client.stocks().trades({.ticker = "AAPL"});
  const auto code = transport_errc_of([&] {
    run(io, [&]() -> asio::awaitable<void> {
      CHECK((co_await trades.next()).has_value());  // empty, but next_url goes on
      CHECK((co_await trades.next()).has_value());  // empty again, next_url = its own URL
      co_await trades.next();
    });
  });
  CHECK(code == massive::errc::repeated_cursor);
  CHECK(s.server.request_count() == 2);
}

// Issue 30, kind 3, through a cursor. Seen failing with cursor_core passing no max_empty_pages
// to its rules: the thirteenth page was asked for (the mock's "HTTP 400: malformed cursor");
// with both cycle tests removed from traversal::advance: 23 requests, the mock's 400 again.
TEST_CASE("a cursor refuses a cycle of next_urls and a run of empty pages, each with its errc") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  const std::string a = s.server.base_url() + "/v3/trades/AAPL?cursor=a";
  const std::string b = s.server.base_url() + "/v3/trades/AAPL?cursor=b";
  s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + a + R"("})"});
  s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + b + R"("})"});
  s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + a + R"("})"});
  auto trades = client.stocks().trades({.ticker = "AAPL"});
  const auto cycle = transport_errc_of([&] {
    run(io, [&]() -> asio::awaitable<void> {
      while (co_await trades.next()) {
      }
    });
  });
  CHECK(cycle == massive::errc::repeated_cursor);
  CHECK(s.server.request_count() == 3);

  const std::size_t before = s.server.request_count();
  for (int i = 0; i < 12; ++i) {
    const std::string next = s.server.base_url() + "/v3/trades/AAPL?cursor=e" + std::to_string(i);
    s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":")" + next + R"("})"});
  }
  auto empty = client.stocks().trades({.ticker = "AAPL"}, {.max_empty_pages = 10});
  const auto code = transport_errc_of([&] {
    run(io, [&]() -> asio::awaitable<void> {
      while (co_await empty.next()) {
      }
    });
  });
  CHECK(code == massive::errc::empty_pages);
  CHECK(s.server.request_count() - before == 10);
}

// Issue 30, kind 1, through a cursor. Seen failing with rules_.advance() given no leniency in
// cursor_core::take_page: every total 0; with mark_incomplete() removed: 4 rows, 1 dropped.
TEST_CASE("a cursor sums what its pages left out, for a caller who reads no page's leniency") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  const std::string next = s.server.base_url() + "/v3/trades/AAPL?cursor=2";
  const std::string row = R"({"exchange":1,"id":"1","participant_timestamp":1,"price":1,"sequence_number":1,"sip_timestamp":1,"size":1})";
  s.server.enqueue({.body = R"({"status":"OK","results":[)" + row + R"(,null,{"id":"2"}],"next_url":")" + next + R"("})"});
  s.server.enqueue({.body = R"({"status":"OK","results":[)" + row + "," + row + "]}"});
  auto trades = client.stocks().trades({.ticker = "AAPL"});
  std::size_t rows = 0;
  run(io, [&]() -> asio::awaitable<void> {
    while (auto page = co_await trades.next()) rows += page->size();
  });
  CHECK(rows == 3);
  CHECK(trades.leniency().dropped_rows == 2);
  CHECK(trades.leniency().lossy_pages == 1);
  CHECK(trades.leniency().missing == 6);
}

TEST_CASE("a blank next_url ends the traversal") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":""})"});
  auto trades = client.stocks().trades({.ticker = "AAPL"});
  run(io, [&]() -> asio::awaitable<void> {
    CHECK((co_await trades.next()).has_value());
    CHECK_FALSE((co_await trades.next()).has_value());
  });
  CHECK(trades.done());
  CHECK(s.server.request_count() == 1);
}

TEST_CASE("a page cap stops an endless traversal and says so") {
  market_server s{50'000};
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  auto trades = client.stocks().trades({.ticker = "AAPL", .limit = 10}, {.max_pages = 4});
  std::size_t pages = 0;
  run(io, [&]() -> asio::awaitable<void> {
    while (auto page = co_await trades.next()) ++pages;
  });
  CHECK(pages == 4);
  CHECK(trades.reached_page_cap());
  CHECK(s.server.request_count() == 4);
}

TEST_CASE("stopping between pages sends nothing further; cancelling a pending page fails it") {
  market_server s{5'000};
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  {
    auto trades = client.stocks().trades({.ticker = "AAPL", .limit = 100});
    run(io, [&]() -> asio::awaitable<void> { co_await trades.next(); });
  }
  io.restart();
  io.run_for(milliseconds(50));
  CHECK(s.server.request_count() == 1);

  s.server.enqueue({.body = R"({"status":"OK","results":[]})", .head_delay = milliseconds(2'000)});
  auto trades = client.stocks().trades({.ticker = "AAPL"});
  asio::cancellation_signal cancel;
  std::exception_ptr failure;
  bool completed = false;
  trades.next(asio::bind_cancellation_slot(
      cancel.slot(), [&](std::exception_ptr e, std::optional<massive::page<massive::trade>> page) {
        failure = e;
        completed = true;
        CHECK_FALSE(page.has_value());
      }));
  io.restart();
  io.run_for(milliseconds(100));
  cancel.emit(asio::cancellation_type::terminal);
  io.run_for(milliseconds(1'000));
  REQUIRE(completed);
  REQUIRE(failure);
  CHECK_THROWS_AS(std::rethrow_exception(failure), massive::transport_error);
}

TEST_CASE("completion tokens: callback and future") {
  market_server s;
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  const massive::stocks_aggregates_params params{.ticker = "MSFT",
                                                 .multiplier = 1,
                                                 .timespan = massive::timespan::day,
                                                 .from = 2024y / January / 2,
                                                 .to = 2024y / January / 5};
  std::size_t bars = 0;
  client.stocks().aggregates(params, [&](std::exception_ptr e, massive::page<massive::agg> p) {
    CHECK_FALSE(e);
    bars = p.size();
  });
  io.run();
  CHECK(bars == 4);

  auto future = client.stocks().aggregates(params, asio::use_future);
  io.restart();
  io.run();
  CHECK(future.get().size() == 4);
}

TEST_CASE("group navigation allocates nothing") {
  if (!massive::test::counting_enabled) return;
  asio::io_context io;
  massive::client client{io.get_executor(), {.api_key = std::string(api_key)}};
  // Seen failing when stocks_group held a std::string of a base URL: 2 calls > 0.
  massive::test::allocation_scope scope;
  auto stocks = client.stocks();
  auto again = client.stocks();
  CHECK(scope.calls() == 0);
  CHECK(scope.bytes() == 0);
  (void)stocks;
  (void)again;
}

// What a traversal of `pages` pages of `rows_per_page` trades costs on this thread: operator
// new bytes plus pool memory touched, once warm.
struct traversal_cost {
  std::uint64_t bytes = 0;       // operator new bytes and pool memory touched, whole traversal
  std::uint64_t heap_bytes = 0;  // operator new bytes alone
  std::uint64_t calls = 0;       // operator new calls
  std::uint64_t retained_after = 0;  // pool memory still committed once every page is gone
  // Not bounded here (docs/maintainers/design.md, "What the memory gates count"): the C allocator's
  // calls and bytes, which OpenSSL makes for its records over TLS.
  std::uint64_t c_bytes = 0;
  std::uint64_t c_calls = 0;
};

traversal_cost measure_traversal(market_server& s, std::size_t pages, std::int64_t rows_per_page) {
  asio::io_context io;
  massive::client client{io.get_executor(), s.options()};
  auto traverse = [&](std::size_t page_count) {
    auto trades = client.stocks().trades({.ticker = "AAPL", .limit = rows_per_page},
                                         {.max_pages = page_count});
    std::size_t seen = 0;
    run(io, [&]() -> asio::awaitable<void> {
      while (auto page = co_await trades.next()) {
        CHECK(page->size() == static_cast<std::size_t>(rows_per_page));
        ++seen;
      }
    });
    CHECK(seen == page_count);
  };
  traverse(2);  // warm: connection, pool regions, Asio's recycled frames, the call's state
  const auto touched_before = client.pool()->stats().bytes_touched;
  massive::test::allocation_scope scope;
  traverse(pages);
  const auto touched = client.pool()->stats().bytes_touched - touched_before;
  const auto stats = client.pool()->stats();
  const auto cxx = scope.operator_new();
  return {cxx.bytes + touched, cxx.bytes, cxx.calls, stats.bytes_touched - stats.bytes_released,
          scope.c_allocator().bytes, scope.c_allocator().calls};
}

TEST_CASE("gate: a warm traversal allocates at most 1 KiB per page") {
  if (!massive::test::counting_enabled) return;
  market_server s{50'000};
  const auto twenty = measure_traversal(s, 20, 1'000);
  const auto forty = measure_traversal(s, 40, 1'000);
  MESSAGE("warm traversal of 20 pages: " << twenty.bytes << " bytes (" << twenty.bytes / 20
                                         << " per page), " << twenty.calls << " operator new calls; of 40 pages: "
                                         << forty.bytes << " bytes, " << forty.calls << " calls; "
                                         << "C allocator (not bounded): 20 pages " << twenty.c_bytes << " bytes in "
                                         << twenty.c_calls << " calls, 40 pages " << forty.c_bytes << " bytes in "
                                         << forty.c_calls << " calls");
  // The issue's target is 1 KiB per page (goal 0). Nothing is allocated per page any more:
  // the call's state (timer, signal, request head) is recycled by the client, the response's
  // header fields go to an arena in the connection, the target is read in place, and the
  // completion runs on an executor taken before type erasure. What remains is per traversal:
  // the cursor's two URL strings growing to the length of a next_url (two growths each, about
  // 460 bytes) and this test's own coroutine and target (about 560 bytes); with the API's
  // X-Request-Id header, response_info's copy of it would add one allocation per page.
  // Measured: 1,028 bytes in 7 calls for 20 pages, the same for 40. Seen failing when the
  // request head was built into a fresh std::string per call instead of the recycled one:
  // 10,519 bytes > 2,560 for 20 pages, and 46 calls for 40 pages against 26 for 20.
  CHECK(twenty.bytes <= 20 * 128);
  CHECK(forty.calls == twenty.calls);  // pages 21 to 40: not one operator new call
}

TEST_CASE("gate: memory retained after a traversal does not grow with its pages") {
  market_server s{200'000};
  const auto ten = measure_traversal(s, 10, 1'000);
  const auto hundred = measure_traversal(s, 100, 1'000);
  MESSAGE("retained after 10 pages: " << ten.retained_after
                                      << " bytes; after 100: " << hundred.retained_after);
  // Later pages differ by a few bytes (longer trade ids), which may touch one more 4 KiB
  // page of an arena region: 16 KiB of slack, where growth per page would add 90 x its size.
  // Seen failing when a dropped page did not give its regions back to the pool (the release
  // in page_memory::reset removed): 17,551,360 bytes after 100 pages > 2,080,768.
  CHECK(hundred.retained_after <= ten.retained_after + 16 * 1024);
}
