// The end-to-end stream benchmark's server (scripts/bench-stream.sh): one WebSocket connection
// over TLS on 127.0.0.1 that speaks the stream protocol's handshake (connected, auth, one
// acknowledgement per topic) and then pushes stock trades, as fast as the socket takes them or
// at a fixed rate, and closes.
//
//   massive_bench_stream_server --events N [--per-frame K] [--rate EVENTS_PER_S] [--tickers T]
//                               --cert FILE
//
// Writes its self-signed certificate (127.0.0.1) to FILE, prints "port <P>" once listening and,
// at the end, "cpu_s <S>": its user + system time from the first frame to the close.
// Every trade's `q` is the time its frame was written, CLOCK_MONOTONIC nanoseconds, which the
// clients subtract from the time their handler sees it (the same clock across processes); its
// `i` is the event's number, from 0. Every trade is AAPL's; with --tickers T (2 or more) the
// n-th is T<n mod T>'s instead, so that no two trades in a row share a ticker.
#include "latency.hpp"

#include <massive/mock/certificates.hpp>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace asio = boost::asio;
namespace websocket = boost::beast::websocket;
using tcp = asio::ip::tcp;

namespace {

struct settings {
  std::uint64_t events = 1'000'000;
  std::uint64_t per_frame = 100;
  std::uint64_t rate = 0;  // events per second; 0: as fast as possible
  std::uint64_t tickers = 1;
  std::string cert;
};

/// A frame of `count` trades numbered from `first`, stamped now.
void write_frame(std::string& out, std::uint64_t first, std::uint64_t count,
                 std::uint64_t tickers) {
  out.clear();
  out += '[';
  const std::string sent = std::to_string(massive::bench::monotonic_ns());
  char event[256];
  char ticker[32] = "AAPL";
  for (std::uint64_t n = first; n < first + count; ++n) {
    if (tickers > 1)
      std::snprintf(ticker, sizeof ticker, "T%llu", static_cast<unsigned long long>(n % tickers));
    const int size = std::snprintf(
        event, sizeof event,
        R"(%s{"ev":"T","sym":"%s","i":"%llu","x":4,"p":%llu.%02llu,"s":100,"c":[14,41],)"
        R"("t":%llu,"q":%s,"z":3})",
        n == first ? "" : ",", ticker, static_cast<unsigned long long>(n),
        static_cast<unsigned long long>(150 + n % 50), static_cast<unsigned long long>(n % 100),
        static_cast<unsigned long long>(1'700'000'000'000 + n / 1000), sent.c_str());
    out.append(event, static_cast<std::size_t>(size));
  }
  out += ']';
}

asio::awaitable<void> serve(tcp::acceptor& acceptor, asio::ssl::context& tls, const settings& s,
                            double& cpu_at_first) {
  websocket::stream<asio::ssl::stream<tcp::socket>> ws(co_await acceptor.async_accept(asio::use_awaitable), tls);
  acceptor.close();
  ws.next_layer().next_layer().set_option(tcp::no_delay(true));  // each frame leaves when written
  co_await ws.next_layer().async_handshake(asio::ssl::stream_base::server, asio::use_awaitable);
  co_await ws.async_accept(asio::use_awaitable);
  ws.text(true);
  boost::beast::flat_buffer in;
  std::string out = R"([{"ev":"status","status":"connected","message":"Connected Successfully"}])";
  co_await ws.async_write(asio::buffer(out), asio::use_awaitable);
  co_await ws.async_read(in, asio::use_awaitable);  // auth: any key
  out = R"([{"ev":"status","status":"auth_success","message":"authenticated"}])";
  co_await ws.async_write(asio::buffer(out), asio::use_awaitable);
  in.clear();
  co_await ws.async_read(in, asio::use_awaitable);  // subscribe: T.* (every trade is AAPL's)
  out = R"([{"ev":"status","status":"success","message":"subscribed to: T.*"}])";
  co_await ws.async_write(asio::buffer(out), asio::use_awaitable);

  asio::steady_timer pace(co_await asio::this_coro::executor);
  const auto start = std::chrono::steady_clock::now();
  cpu_at_first = massive::bench::cpu_seconds();
  for (std::uint64_t sent = 0; sent < s.events;) {
    const std::uint64_t count = std::min(s.per_frame, s.events - sent);
    if (s.rate != 0) {
      pace.expires_at(start + std::chrono::nanoseconds(sent * 1'000'000'000 / s.rate));
      co_await pace.async_wait(asio::use_awaitable);
    }
    write_frame(out, sent, count, s.tickers);
    co_await ws.async_write(asio::buffer(out), asio::use_awaitable);
    sent += count;
  }
  // A client that has its N events may leave without waiting for the close: not a failure.
  co_await ws.async_close(websocket::close_code::normal, asio::as_tuple(asio::use_awaitable));
}

}  // namespace

int main(int argc, char** argv) try {
  settings s;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--events") s.events = std::strtoull(value, nullptr, 10);
    else if (flag == "--per-frame") s.per_frame = std::max<std::uint64_t>(1, std::strtoull(value, nullptr, 10));
    else if (flag == "--rate") s.rate = std::strtoull(value, nullptr, 10);
    else if (flag == "--tickers") s.tickers = std::strtoull(value, nullptr, 10);
    else if (flag == "--cert") s.cert = value;
    else throw std::invalid_argument("unknown flag " + std::string(flag));
  }
  if (s.cert.empty()) throw std::invalid_argument("--cert FILE is required");
  const massive::mock::pem_pair identity = massive::mock::make_self_signed(massive::mock::loopback_names());
  std::ofstream(s.cert) << identity.certificate;
  asio::ssl::context tls(asio::ssl::context::tls_server);
  tls.use_certificate_chain(asio::buffer(identity.certificate));
  tls.use_private_key(asio::buffer(identity.private_key), asio::ssl::context::pem);

  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::address_v4::loopback(), 0});
  std::printf("port %u\n", acceptor.local_endpoint().port());
  std::fflush(stdout);
  int status = 0;
  double cpu_at_first = 0;
  asio::co_spawn(io, serve(acceptor, tls, s, cpu_at_first), [&](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "massive_bench_stream_server: %s\n", failure.what());
      status = 1;
    }
  });
  io.run();
  std::printf("cpu_s %.3f\n", massive::bench::cpu_seconds() - cpu_at_first);
  return status;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_bench_stream_server: %s\n", e.what());
  return 2;
}
