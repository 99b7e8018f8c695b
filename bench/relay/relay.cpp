// The relay benchmark's relay (scripts/bench-relay.sh): a massive::relay::relay whose upstream
// is massive_bench_stream_server, publishing into a JetStream stream until it has published N
// events, then stopped.
//
//   massive_bench_relay --url wss://127.0.0.1:P/stocks --ca FILE --nats nats://127.0.0.1:Q
//                       --events N [--memory 1]
//
// Prints one line of `key value` pairs: events, seconds (from the first event published to the
// relay's end, which waits for JetStream's acknowledgement of every message), events_per_s,
// messages (JetStream messages: runs of events of one subject), cpu_s and cpu_s_per_million
// (the process's user + system time over the same span: the upstream's TLS and decoding, the
// publishing, nats.c's threads), peak_rss_kib. Then it asks JetStream how many messages the
// stream holds and fails unless that is every message the relay published, none refused.
#include <nats/nats.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <massive/relay/relay.hpp>
#include <massive/relay/subject.hpp>
#include <string>
#include <string_view>

#include "latency.hpp"

namespace asio = boost::asio;

namespace {

/// The number of messages the market's relay stream holds, asked of JetStream itself.
std::uint64_t stream_messages(const std::string& url, const std::string& stream) {
  natsConnection* connection = nullptr;
  if (natsConnection_ConnectTo(&connection, url.c_str()) != NATS_OK)
    throw std::runtime_error("cannot connect to " + url);
  jsCtx* js = nullptr;
  jsStreamInfo* info = nullptr;
  natsStatus s = natsConnection_JetStream(&js, connection, nullptr);
  if (s == NATS_OK) s = js_GetStreamInfo(&info, js, stream.c_str(), nullptr, nullptr);
  const std::uint64_t count = s == NATS_OK ? info->State.Msgs : 0;
  jsStreamInfo_Destroy(info);
  jsCtx_Destroy(js);
  natsConnection_Destroy(connection);
  if (s != NATS_OK)
    throw std::runtime_error("stream info of " + stream + ": " + natsStatus_GetText(s));
  return count;
}

}  // namespace

int main(int argc, char** argv) try {
  massive::relay::relay_config config;
  config.upstream.api_key = "bench";
  config.upstream.market = massive::stream::market::stocks;
  config.upstream.reconnect.max_attempts = 0;  // the server closes after its N events
  config.topics = {"T.*"};
  config.id = "bench";
  std::uint64_t wanted = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--url")
      config.upstream.url = value;
    else if (flag == "--ca")
      config.upstream.tls.ca_file = value;
    else if (flag == "--nats")
      config.nats.servers = value;
    else if (flag == "--events")
      wanted = std::strtoull(value, nullptr, 10);
    else if (flag == "--memory")
      config.memory_storage = std::string_view(value) == "1";
    else
      throw std::invalid_argument("unknown flag " + std::string(flag));
  }
  if (wanted == 0) throw std::invalid_argument("--events N is required");

  asio::io_context io;
  massive::relay::relay relay(io.get_executor(), config);
  std::exception_ptr failure;
  relay.run([&](std::exception_ptr e) { failure = e; });

  // The relay's counters, read every millisecond on the relay's own thread: the first event
  // published starts the clock, the N-th stops the relay.
  std::chrono::steady_clock::time_point first{};
  double cpu_at_first = 0;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        asio::steady_timer tick(io);
        for (;;) {
          tick.expires_after(std::chrono::milliseconds(1));
          co_await tick.async_wait(asio::use_awaitable);
          const massive::relay::relay_stats s = relay.stats();
          if (s.events != 0 && first == std::chrono::steady_clock::time_point{}) {
            first = std::chrono::steady_clock::now();
            cpu_at_first = massive::bench::cpu_seconds();
          }
          if (s.events >= wanted || failure) break;
        }
        relay.stop();
      },
      asio::detached);
  io.run();
  const auto last = std::chrono::steady_clock::now();
  const double cpu = massive::bench::cpu_seconds() - cpu_at_first;

  const massive::relay::relay_stats s = relay.stats();
  // The upstream's end after its N events ends the relay with upstream_failed: expected.
  if (failure && s.events < wanted) std::rethrow_exception(failure);
  const double seconds = std::chrono::duration<double>(last - first).count();
  std::printf("relay %s messages %llu\n", massive::bench::throughput(s.events, seconds, cpu).c_str(),
              static_cast<unsigned long long>(s.messages));
  const std::uint64_t held =
      stream_messages(config.nats.servers, massive::relay::stream_name(config.upstream.market));
  // Seen failing with the stream capped at 1 MB (config.max_bytes): "published 2002 messages,
  // JetStream holds 86, 0 refused", status 1.
  if (s.failed_acks != 0 || held != s.messages) {
    std::fprintf(stderr,
                 "massive_bench_relay: published %llu messages, JetStream holds %llu, %llu "
                 "refused\n",
                 static_cast<unsigned long long>(s.messages), static_cast<unsigned long long>(held),
                 static_cast<unsigned long long>(s.failed_acks));
    return 1;
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_bench_relay: %s\n", e.what());
  return 1;
}
