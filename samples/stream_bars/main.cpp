// Turns a live trade stream into one-second bars. With MASSIVE_API_KEY it streams AAPL trades
// from the real-time feed; without, every ticker's trades from massive::mock::stream_server,
// which speaks the same protocol over TLS on loopback.
//
//   stream_bars [trades]   (stops after that many trades, 500 by default, and prints the bars)
#include <massive/mock/stream_server.hpp>
#include <massive/stream_client.hpp>

#include <boost/asio.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace {

struct bar {
  double open = 0, high = 0, low = 0, close = 0;
  std::int64_t volume = 0;
  std::size_t trades = 0;
};

/// Bars by ticker and second (Unix seconds).
using bars = std::map<std::pair<std::string, std::int64_t>, bar>;

void add(bars& out, const massive::stock_trade_event& t) {
  if (!t.price) return;
  const std::int64_t second = t.timestamp.count() / 1000;
  bar& b = out[{std::string(t.ticker), second}];
  if (b.trades++ == 0) b.open = b.high = b.low = *t.price;
  b.high = std::max(b.high, *t.price);
  b.low = std::min(b.low, *t.price);
  b.close = *t.price;
  b.volume += t.size.value_or(0);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t wanted = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 500;
  massive::stream::client_options options;
  std::unique_ptr<massive::mock::stream_server> local;
  std::string topic = "AAPL";
  if (const char* key = std::getenv("MASSIVE_API_KEY"); key == nullptr || *key == '\0') {
    local = std::make_unique<massive::mock::stream_server>();
    options.api_key = "mock-stream-key";
    options.url = local->url("stocks");
    options.ca_pem = local->certificate_pem();
    topic = "*";
  }

  boost::asio::io_context io;
  bars result;
  std::size_t trades = 0;
  int status = 0;
  boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
    massive::stream::client stream(io.get_executor(), options);
    stream.subscribe({massive::stream::stocks::trades(topic)});
    while (trades < wanted) {
      const massive::stream::batch b = co_await stream.next();
      for (const massive::stock_trade_event& t : b.events<massive::stock_trade_event>()) {
        if (trades == wanted) break;
        add(result, t);
        ++trades;
      }
    }
  }, [&](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "stream failed: %s\n", failure.what());
      status = 1;
    }
  });
  io.run();
  for (const auto& [key, b] : result) {
    std::printf("%s %lld  o %.2f h %.2f l %.2f c %.2f  v %lld (%zu trades)\n", key.first.c_str(),
                static_cast<long long>(key.second), b.open, b.high, b.low, b.close, static_cast<long long>(b.volume),
                b.trades);
  }
  std::printf("%zu trades into %zu one-second bars\n", trades, result.size());
  return status;
}
