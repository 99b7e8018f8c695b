// A traversal of a week of trades, page after page, with a progress line on stderr (pages,
// rows, MB received, MB/s). With prefetch the next page is already being fetched and decoded
// while this one is processed, so the loop's own work overlaps the transfer.
//
// The bytes come from the client's trace hook (one event per request); the rows from the pages.
// Runs against the embedded mock server unless MASSIVE_API_KEY is set. Exits 0 only when every
// trade lies in the range asked for, in ascending time order.
#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>

namespace asio = boost::asio;
using namespace std::chrono;

namespace {

struct progress {
  std::uint64_t bytes = 0;  // body bytes of every page, from the trace hook
  std::size_t pages = 0;
  std::size_t rows = 0;
  steady_clock::time_point started = steady_clock::now();
  bool terminal = isatty(STDERR_FILENO) != 0;

  // On a terminal the line rewrites itself; in a log, one line per page.
  void print() const {
    const double seconds = duration<double>(steady_clock::now() - started).count();
    const double mb = static_cast<double>(bytes) / 1e6;
    std::fprintf(stderr, "%s%zu pages, %zu rows, %.1f MB, %.1f MB/s%s", terminal ? "\r" : "",
                 pages, rows, mb, seconds > 0 ? mb / seconds : 0.0, terminal ? "" : "\n");
  }
};

asio::awaitable<bool> run(massive::client& client, progress& seen) {
  const sys_days first_day = 2024y / January / 8, end_day = 2024y / January / 13;
  auto trades = client.stocks().trades(
      {.ticker = "AAPL",
       .timestamp = massive::gte(year_month_day{first_day}) && massive::lt(year_month_day{end_day}),
       .order = massive::sort_order::asc,
       .limit = 10'000,
       .sort = massive::timestamp_sort::timestamp},
      {.prefetch = true});

  const massive::timestamp_ns first{sys_time<nanoseconds>{first_day}},
      end{sys_time<nanoseconds>{end_day}};
  massive::timestamp_ns previous = first;
  bool in_order = true;
  while (auto page = co_await trades.next()) {
    for (const massive::trade& t : *page) {
      in_order = in_order && t.sip_timestamp >= previous && t.sip_timestamp < end;
      previous = t.sip_timestamp;
    }
    ++seen.pages;
    seen.rows += page->size();
    seen.print();
  }
  if (seen.terminal) std::fputc('\n', stderr);
  std::printf("AAPL trades 2024-01-08..12: %zu rows in %zu pages, %s\n", seen.rows, seen.pages,
              in_order ? "all in range and in time order" : "SOME OUT OF RANGE OR ORDER");
  co_return in_order && seen.rows > 0;
}

}  // namespace

int main() try {
  asio::io_context io;
  // Shared with the trace hook, which the client calls once per request.
  auto seen = std::make_shared<progress>();
  massive::client_config options{.trace = [seen](const massive::trace_event& event) {
    seen->bytes += event.body_bytes;
  }};
  std::optional<massive::mock::market_server> local;
  const char* key = std::getenv("MASSIVE_API_KEY");
  if (key == nullptr || *key == '\0') {
    local.emplace();
    options.api_key = "traversal-demo-key";
    options.base_url = local->base_url();
    options.tls.ca_pem = local->certificate_pem();
  }
  massive::client client{io.get_executor(), options};

  bool ok = false;
  asio::co_spawn(io, run(client, *seen), [&](std::exception_ptr failure, bool good) {
    ok = !failure && good;
    if (failure) std::rethrow_exception(failure);
  });
  io.run();
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "traversal failed: %s\n", e.what());
  return 1;
}
