// The end-to-end stream benchmark's client on our side (scripts/bench-stream.sh): a
// massive::stream::client consuming massive_bench_stream_server until it has N trades.
//
//   massive_bench_stream_client --url wss://127.0.0.1:P/stocks --ca FILE --events N
//
// Prints one line of `key value` pairs, the same as bench/stream_e2e/js/client.mjs: events,
// seconds (first batch to last event), events_per_s, cpu_s and cpu_s_per_million (the process's
// user + system time over the same span, so that neither client's start-up counts),
// peak_rss_kib, and the latency from the server's send time (each trade's `q`, CLOCK_MONOTONIC
// ns) to the handler: p50_us, p99_us, p999_us.
#include "latency.hpp"

#include <massive/stream/client.hpp>

#include <boost/asio.hpp>


#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace asio = boost::asio;
namespace ms = massive::stream;

int main(int argc, char** argv) try {
  ms::stream_config options;
  options.api_key = "bench";
  std::uint64_t wanted = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--url") options.url = argv[i + 1];
    else if (flag == "--ca") options.tls.ca_file = argv[i + 1];
    else if (flag == "--events") wanted = std::strtoull(argv[i + 1], nullptr, 10);
    else throw std::invalid_argument("unknown flag " + std::string(flag));
  }
  options.reconnect.max_attempts = 0;  // a benchmark that reconnects measures nothing

  massive::bench::latencies latency;
  std::uint64_t seen = 0;
  std::chrono::steady_clock::time_point first{}, last{};
  double cpu_at_first = 0;
  asio::io_context io;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    ms::client stream(io.get_executor(), options);
    stream.subscribe({ms::stocks::trades("*")});
    while (seen < wanted) {
      const ms::batch b = co_await stream.next();
      const std::int64_t now = massive::bench::monotonic_ns();
      if (seen == 0) {
        first = std::chrono::steady_clock::now();
        cpu_at_first = massive::bench::cpu_seconds();
      }
      for (const massive::stock_trade_event& t : b.events<massive::stock_trade_event>()) {
        latency.add(now - t.sequence_number.value_or(now));
        ++seen;
      }
    }
    last = std::chrono::steady_clock::now();
  }, [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();

  const double cpu = massive::bench::cpu_seconds() - cpu_at_first;
  const double seconds = std::chrono::duration<double>(last - first).count();
  std::printf("client sdk %s %s\n", massive::bench::throughput(seen, seconds, cpu).c_str(),
              latency.summary().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_bench_stream_client: %s\n", e.what());
  return 1;
}
