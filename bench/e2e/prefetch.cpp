// Traversal with and without prefetch (traversal_options::prefetch) while the caller spends
// time on each page, against the in-process HTTPS test server (massive::mock::market_server,
// which synthesises each page on its own thread). Prints the median wall time of a traversal
// per setting, and the sum and the maximum of the two parts it is bounded by.
//
//   massive_e2e_prefetch [pages] [rows_per_page] [runs]     (default 20 5000 5)
//
// The caller's work on a page is either a wait (`wait`: a timer, as when each page is written
// to a database or a socket; the client's thread is free meanwhile) or computation on the
// client's own thread (`spin`: the thread is busy, so only the server's side of the next page
// can overlap it).
#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/models/trade.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
using clock_type = std::chrono::steady_clock;

enum class work_kind { wait, spin };

struct setting {
  work_kind kind;
  std::chrono::milliseconds per_page;
  bool prefetch;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t pages = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20;
  const std::int64_t rows = argc > 2 ? std::strtoll(argv[2], nullptr, 10) : 5'000;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 5;

  massive::mock::market_server local({.ticks_per_day = static_cast<std::int64_t>(pages + 1) * rows});
  asio::io_context io;
  massive::client client{io.get_executor(), {.api_key = "bench",
                                             .base_url = local.base_url(),
                                             .tls = {.ca_pem = local.certificate_pem()}}};
  const std::string first = "/v3/trades/AAPL?timestamp=2024-01-10&limit=" + std::to_string(rows);

  std::uint64_t checksum = 0;
  auto traverse = [&](const setting& s) {
    double seconds = 0;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          const auto start = clock_type::now();
          auto cursor = client.traverse<massive::trade>(
              first, massive::payload_shape::results_array,
              {.max_pages = pages, .prefetch = s.prefetch});
          asio::steady_timer timer(io);
          while (auto page = co_await cursor.next()) {
            for (const massive::trade& t : *page) checksum += static_cast<std::uint64_t>(t.size);
            if (s.per_page.count() == 0) continue;
            if (s.kind == work_kind::wait) {
              timer.expires_after(s.per_page);
              co_await timer.async_wait(asio::use_awaitable);
            } else {
              const auto until = clock_type::now() + s.per_page;
              while (clock_type::now() < until) {
              }
            }
          }
          if (cursor.pages() != pages) throw std::runtime_error("traversal ended early");
          seconds = std::chrono::duration<double>(clock_type::now() - start).count();
        },
        [](std::exception_ptr e) {
          if (e) std::rethrow_exception(e);
        });
    io.restart();
    io.run();
    return seconds;
  };

  traverse({work_kind::wait, std::chrono::milliseconds(0), false});  // warm: connection, pool
  const double network = [&] {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) t.push_back(traverse({work_kind::wait, std::chrono::milliseconds(0), false}));
    return median(t);
  }();

  std::printf("pages %zu x %lld trades; median of %d runs; network alone (no work, no prefetch): %.3f s\n",
              pages, static_cast<long long>(rows), runs, network);
  std::printf("%-6s %9s %10s %10s %9s %11s %11s\n", "work", "per page", "off s", "on s", "on/off",
              "sum s", "max s");
  for (const work_kind kind : {work_kind::wait, work_kind::spin}) {
    for (const int ms : {0, 5, 20, 50}) {
      if (kind == work_kind::spin && ms == 0) continue;
      std::vector<double> off, on;
      // Interleaved, so that a load that drifts during the run weighs on both alike.
      for (int i = 0; i < runs; ++i) {
        off.push_back(traverse({kind, std::chrono::milliseconds(ms), false}));
        on.push_back(traverse({kind, std::chrono::milliseconds(ms), true}));
      }
      const double work = static_cast<double>(pages) * ms / 1000.0;
      std::printf("%-6s %6d ms %10.3f %10.3f %9.2f %11.3f %11.3f\n",
                  kind == work_kind::wait ? "wait" : "spin", ms, median(off), median(on),
                  median(on) / median(off), network + work, std::max(network, work));
    }
  }
  std::printf("checksum %llu\n", static_cast<unsigned long long>(checksum));
}
