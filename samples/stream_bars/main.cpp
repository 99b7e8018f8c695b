// A service that turns a live trade stream into one-second bars and serves them: GET /bars on
// 127.0.0.1 answers every bar so far as JSON. The stream client and the HTTP server (Boost.Beast)
// share one thread. With MASSIVE_API_KEY it streams AAPL trades from the real-time feed;
// without, every ticker's trades from massive::mock::stream_server, which speaks the same
// protocol over TLS on loopback.
//
//   stream_bars [--port N]        serve on 127.0.0.1:N (default 8081) until SIGINT/SIGTERM
//   stream_bars --once [TRADES]   serve on an ephemeral port, stream TRADES trades (500 by
//                                 default), ask itself GET /bars, print the answer, check that
//                                 the bars served add up to the trades streamed, and exit
#include <massive/mock/stream_server.hpp>
#include <massive/stream/client.hpp>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

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

std::string to_json(const bars& all, std::size_t streamed) {
  std::string out = "{\"streamed\":" + std::to_string(streamed) + ",\"bars\":[";
  char line[256];
  for (const auto& [key, b] : all) {
    std::snprintf(line, sizeof line,
                  "%s{\"ticker\":\"%s\",\"second\":%lld,\"open\":%.2f,\"high\":%.2f,\"low\":%.2f,"
                  "\"close\":%.2f,\"volume\":%lld,\"trades\":%zu}",
                  out.back() == '[' ? "" : ",", key.first.c_str(), static_cast<long long>(key.second),
                  b.open, b.high, b.low, b.close, static_cast<long long>(b.volume), b.trades);
    out += line;
  }
  return out + "]}";
}

/// The stream, into bars, until `wanted` trades (forever if 0).
asio::awaitable<void> stream_trades(massive::stream::stream_config options, std::string topic,
                                    bars& result, std::size_t& trades, std::size_t wanted) {
  massive::stream::client stream(co_await asio::this_coro::executor, options);
  stream.subscribe({massive::stream::stocks::trades(topic)});
  while (wanted == 0 || trades < wanted) {
    const massive::stream::batch b = co_await stream.next();
    for (const massive::stock_trade_event& t : b.events<massive::stock_trade_event>()) {
      if (trades == wanted && wanted != 0) break;
      add(result, t);
      ++trades;
    }
  }
}

/// One HTTP connection: GET /bars answers the bars so far, anything else 404.
asio::awaitable<void> serve(tcp::socket socket, const bars& result, const std::size_t& trades) {
  boost::beast::flat_buffer buffer;
  http::request<http::empty_body> request;
  co_await http::async_read(socket, buffer, request, asio::use_awaitable);
  const bool found = request.method() == http::verb::get && request.target() == "/bars";
  http::response<http::string_body> response{found ? http::status::ok : http::status::not_found, 11};
  response.set(http::field::content_type, "application/json");
  response.body() = found ? to_json(result, trades) : R"({"error":"the only route is GET /bars"})";
  response.prepare_payload();
  co_await http::async_write(socket, response, asio::use_awaitable);
}

asio::awaitable<void> listen(tcp::acceptor& acceptor, const bars& result, const std::size_t& trades) {
  for (;;) {
    tcp::socket socket = co_await acceptor.async_accept(asio::use_awaitable);
    asio::co_spawn(acceptor.get_executor(), serve(std::move(socket), result, trades), asio::detached);
  }
}

/// --once: GET /bars from the service itself; true when the bars served add up to `streamed`.
asio::awaitable<bool> ask_once(tcp::endpoint at, std::size_t streamed) {
  tcp::socket socket(co_await asio::this_coro::executor);
  co_await socket.async_connect(at, asio::use_awaitable);
  http::request<http::empty_body> request{http::verb::get, "/bars", 11};
  request.set(http::field::host, "127.0.0.1");
  co_await http::async_write(socket, request, asio::use_awaitable);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  co_await http::async_read(socket, buffer, response, asio::use_awaitable);
  const std::string& body = response.body();
  std::printf("GET /bars -> %u %s\n", response.result_int(), body.c_str());
  std::size_t in_bars = 0, count = 0;
  for (auto at = body.find("\"trades\":"); at != std::string::npos; at = body.find("\"trades\":", at + 1)) {
    in_bars += std::strtoull(body.c_str() + at + 9, nullptr, 10);
    ++count;
  }
  std::printf("%zu trades streamed, %zu in the %zu bars served\n", streamed, in_bars, count);
  co_return response.result() == http::status::ok && count > 0 && in_bars == streamed;
}

}  // namespace

int main(int argc, char** argv) try {
  const bool once = argc > 1 && std::string_view(argv[1]) == "--once";
  const bool port_given = argc > 2 && std::string_view(argv[1]) == "--port";
  const std::size_t wanted = once ? (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 500) : 0;
  const auto port = static_cast<unsigned short>(once ? 0 : port_given ? std::atoi(argv[2]) : 8081);

  massive::stream::stream_config options;  // the key comes from MASSIVE_API_KEY when it is set
  std::unique_ptr<massive::mock::stream_server> local;
  std::string topic = "AAPL";
  if (const char* key = std::getenv("MASSIVE_API_KEY"); key == nullptr || *key == '\0') {
    local = std::make_unique<massive::mock::stream_server>();
    options.api_key = "mock-stream-key";
    options.url = local->url("stocks");
    options.tls.ca_pem = local->certificate_pem();
    topic = "*";
  }

  asio::io_context io;
  bars result;
  std::size_t trades = 0;
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), port});
  asio::co_spawn(io, listen(acceptor, result, trades), asio::detached);
  bool ok = true;
  const auto report = [&](std::exception_ptr e) {
    if (!e) return;
    ok = false;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "stream_bars failed: %s\n", failure.what());
    }
    io.stop();
  };
  if (once) {
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
      co_await stream_trades(options, topic, result, trades, wanted);
      ok = co_await ask_once(acceptor.local_endpoint(), trades);
      io.stop();
    }, report);
  } else {
    asio::co_spawn(io, stream_trades(options, topic, result, trades, 0), report);
    std::printf("serving GET http://127.0.0.1:%u/bars from %s\n", acceptor.local_endpoint().port(),
                local ? "the embedded mock stream" : "the real-time feed");
    std::fflush(stdout);
  }
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) { io.stop(); });
  io.run();
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "stream_bars failed: %s\n", e.what());
  return 1;
}
