// The relay benchmark's consumer (scripts/bench-relay.sh): a massive::relay::consumer of every
// stock trade (T.*) reading the relay's JetStream stream from its first message until it has N
// trades. The script starts one to sixteen of them, each its own process, as services would.
//
//   massive_bench_relay_consumer --nats nats://127.0.0.1:Q --events N [--ready FILE]
//
// With --ready, the consumer is started before the relay: it makes the relay's stream as the
// relay would (the relay leaves an existing one as it is), names its consumer bench_<pid>,
// and writes FILE once JetStream has that consumer, so that the script starts the upstream and
// the relay only when every trade they publish goes straight to a waiting fetch.
//
// Prints the line of bench/stream_e2e/sdk_client.cpp with `client relay`: events, seconds
// (first batch to last event), events_per_s, cpu_s and cpu_s_per_million (the process's user +
// system time over the same span), peak_rss_kib, the latency from the upstream server's send
// time (each trade's `q`, CLOCK_MONOTONIC ns) to the handler, p50_us p99_us p999_us (read it
// when the consumer was --ready before the relay started and the server paced its trades;
// otherwise it counts the time trades waited in the stream), and first_ns last_ns
// (CLOCK_MONOTONIC of the first batch and of the last event, from which the script adds up
// concurrent consumers).
#include <nats/nats.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <massive/relay/consumer.hpp>
#include <massive/relay/subject.hpp>
#include <string>
#include <string_view>
#include <thread>

#include "latency.hpp"

namespace asio = boost::asio;
namespace ms = massive::stream;

namespace {

/// Makes the relay's stream of the market as the relay does (file storage, an hour's retention)
/// unless it exists, then waits until JetStream has the consumer `durable` and writes `ready`.
/// On its own connection and thread: the consumer's first next() makes that consumer.
void signal_ready(const std::string& url, ms::market m, const std::string& durable,
                  const std::string& ready) {
  natsConnection* connection = nullptr;
  if (natsConnection_ConnectTo(&connection, url.c_str()) != NATS_OK)
    throw std::runtime_error("cannot connect to " + url);
  jsCtx* js = nullptr;
  natsStatus s = natsConnection_JetStream(&js, connection, nullptr);
  const std::string stream = massive::relay::stream_name(m);
  const std::string subjects = massive::relay::market_filter(m);
  const char* subject = subjects.c_str();
  jsStreamConfig c;
  jsStreamConfig_Init(&c);
  c.Name = stream.c_str();
  c.Subjects = &subject;
  c.SubjectsLen = 1;
  c.MaxAge = std::int64_t{3'600} * 1'000'000'000;
  c.Storage = js_FileStorage;
  jsErrCode code = static_cast<jsErrCode>(0);
  if (s == NATS_OK && js_AddStream(nullptr, js, &c, nullptr, &code) != NATS_OK &&
      code != JSStreamNameExistErr) {
    s = NATS_ERR;
  }
  for (int attempt = 0; s == NATS_OK; ++attempt) {
    jsConsumerInfo* info = nullptr;
    if (js_GetConsumerInfo(&info, js, stream.c_str(), durable.c_str(), nullptr, &code) == NATS_OK) {
      jsConsumerInfo_Destroy(info);
      std::ofstream(ready) << "ready\n";
      break;
    }
    if (attempt == 5'000) s = NATS_TIMEOUT;  // 10 s
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  jsCtx_Destroy(js);
  natsConnection_Destroy(connection);
  if (s != NATS_OK) throw std::runtime_error("the consumer did not appear on " + stream);
}

}  // namespace

int main(int argc, char** argv) try {
  massive::relay::consumer_config config;
  config.market = ms::market::stocks;
  config.topics = {ms::stocks::trades("*")};
  config.start = massive::relay::start_at::all;
  std::uint64_t wanted = 0;
  std::string ready;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--nats")
      config.nats.servers = value;
    else if (flag == "--events")
      wanted = std::strtoull(value, nullptr, 10);
    else if (flag == "--ready")
      ready = value;
    else
      throw std::invalid_argument("unknown flag " + std::string(flag));
  }
  if (wanted == 0) throw std::invalid_argument("--events N is required");
  std::thread signaller;
  if (!ready.empty()) {
    config.durable = "bench_" + std::to_string(getpid());
    signaller = std::thread([&] {
      try {
        signal_ready(config.nats.servers, config.market, config.durable, ready);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "massive_bench_relay_consumer: %s\n", e.what());
        std::_Exit(1);
      }
    });
  }

  massive::bench::latencies latency;
  std::uint64_t seen = 0;
  std::int64_t first_ns = 0, last_ns = 0;
  double cpu_at_first = 0, cpu_at_last = 0;
  asio::io_context io;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        massive::relay::consumer c(io.get_executor(), config);
        while (seen < wanted) {
          const ms::batch b = co_await c.next();
          const std::int64_t now = massive::bench::monotonic_ns();
          if (seen == 0) {
            first_ns = now;
            cpu_at_first = massive::bench::cpu_seconds();
          }
          for (const massive::stock_trade_event& t : b.events<massive::stock_trade_event>()) {
            latency.add(now - t.sequence_number.value_or(now));
            ++seen;
          }
        }
        last_ns = massive::bench::monotonic_ns();
        cpu_at_last = massive::bench::cpu_seconds();
        co_await c.close();
      },
      [](std::exception_ptr e) {
        if (e) std::rethrow_exception(e);
      });
  io.run();
  if (signaller.joinable()) signaller.join();

  const double cpu = cpu_at_last - cpu_at_first;
  const double seconds = static_cast<double>(last_ns - first_ns) / 1e9;
  std::printf("client relay %s %s first_ns %lld last_ns %lld\n",
              massive::bench::throughput(seen, seconds, cpu).c_str(), latency.summary().c_str(),
              static_cast<long long>(first_ns), static_cast<long long>(last_ns));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_bench_relay_consumer: %s\n", e.what());
  return 1;
}
