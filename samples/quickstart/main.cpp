// The quickstart: daily bars and a day of trades for one ticker.
//
// With MASSIVE_API_KEY set it calls the real API. Without it, it starts the embedded mock
// server (massive::mock) on loopback, trusts only that server's freshly made certificate, and
// runs the very same calls against it.
#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>

namespace asio = boost::asio;
using namespace std::chrono;

namespace {

void print_bar(const massive::agg& bar) {
  const year_month_day day{floor<days>(bar.timestamp.to_sys_time())};
  std::printf("  %04d-%02u-%02u  %9.2f %9.2f %9.2f %9.2f %14.0f\n", int{day.year()},
              unsigned{day.month()}, unsigned{day.day()}, bar.open, bar.high, bar.low, bar.close,
              bar.volume);
}

asio::awaitable<void> run(massive::client& client) {
  const auto started = steady_clock::now();

  auto bars = co_await client.stocks().aggregates({.ticker = "AAPL",
                                                   .multiplier = 1,
                                                   .timespan = massive::timespan::day,
                                                   .from = 2024y / January / 2,
                                                   .to = 2024y / January / 12});
  std::printf("AAPL daily bars, %zu rows (request %.*s)\n", bars.size(),
              static_cast<int>(bars.request_id().size()), bars.request_id().data());
  std::printf("  %-10s  %9s %9s %9s %9s %14s\n", "date", "open", "high", "low", "close", "volume");
  for (const massive::agg& bar : bars) print_bar(bar);

  auto trades = client.stocks().trades(
      {.ticker = "AAPL", .timestamp = 2024y / January / 10, .limit = 5'000});
  std::size_t count = 0;
  double notional = 0;
  while (auto page = co_await trades.next()) {
    for (const massive::trade& t : *page) notional += t.price * t.size;
    count += page->size();
  }
  const auto elapsed = duration<double>(steady_clock::now() - started).count();
  std::printf("AAPL trades on 2024-01-10: %zu in %zu pages, notional %.0f\n", count,
              trades.pages(), notional);
  std::printf("done in %.3f s\n", elapsed);
}

}  // namespace

int main() try {
  asio::io_context io;
  massive::client_config options;  // the key comes from MASSIVE_API_KEY when it is set
  // Answers 429 and 5xx are retried three times, with backoff, within each call's deadline
  // (options.retry; `options.retry = {.max_attempts = 1};` turns that off).
  std::optional<massive::mock::market_server> local;
  const char* key = std::getenv("MASSIVE_API_KEY");
  if (key == nullptr || *key == '\0') {
    local.emplace();
    options.api_key = "quickstart-demo-key";
    options.base_url = local->base_url();
    options.tls.ca_pem = local->certificate_pem();
    std::printf("MASSIVE_API_KEY is not set: using the embedded mock server at %s\n",
                options.base_url.c_str());
  }
  massive::client client{io.get_executor(), options};

  std::exception_ptr failure;
  asio::co_spawn(io, run(client), [&](std::exception_ptr e) { failure = e; });
  io.run();
  if (failure) std::rethrow_exception(failure);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "quickstart failed: %s\n", e.what());
  return 1;
}
