// The floor of the end-to-end stream benchmark (scripts/bench-stream.sh): the same TLS WebSocket
// conversation as massive_bench_stream_client, with Beast and OpenSSL directly, every data frame
// received whole and discarded, nothing decoded. What any client of this server must spend.
//
//   massive_bench_stream_floor --port P --ca FILE --events N [--per-frame K]
//
// Knows the server's frames hold K events (default 100, the server's) and stops after the
// frames that make N. The latency is the first event's: the server stamps every event of a frame
// with the same `q`, found by a search of the frame's first bytes, counted once per event. Prints
// the line of sdk_client.cpp with `client floor`.

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "latency.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// The send time the server wrote into the frame's first event, or -1.
std::int64_t first_send_time(std::string_view frame) {
  const std::string_view head = frame.substr(0, 512);
  const auto at = head.find("\"q\":");
  if (at == std::string_view::npos) return -1;
  return std::strtoll(head.data() + at + 4, nullptr, 10);
}

}  // namespace

int main(int argc, char** argv) try {
  std::string port, ca;
  std::uint64_t wanted = 0, per_frame = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--port")
      port = argv[i + 1];
    else if (flag == "--ca")
      ca = argv[i + 1];
    else if (flag == "--events")
      wanted = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--per-frame")
      per_frame = std::strtoull(argv[i + 1], nullptr, 10);
    else
      throw std::invalid_argument("unknown flag " + std::string(flag));
  }
  asio::io_context io;
  asio::ssl::context tls(asio::ssl::context::tls_client);
  tls.load_verify_file(ca);
  tls.set_verify_mode(asio::ssl::verify_peer);
  websocket::stream<asio::ssl::stream<tcp::socket>> ws(io, tls);
  tcp::resolver resolver(io);
  asio::connect(ws.next_layer().next_layer(), resolver.resolve("127.0.0.1", port));
  ws.next_layer().handshake(asio::ssl::stream_base::client);
  ws.handshake("127.0.0.1:" + port, "/stocks");
  ws.text(true);
  beast::flat_buffer in;
  ws.read(in);  // connected
  in.clear();
  ws.write(asio::buffer(std::string_view(R"({"action":"auth","params":"bench"})")));
  ws.read(in);  // auth_success
  in.clear();
  ws.write(asio::buffer(std::string_view(R"({"action":"subscribe","params":"T.*"})")));

  massive::bench::latencies latency;
  std::uint64_t seen = 0;
  std::chrono::steady_clock::time_point first{};
  double cpu_at_first = 0;
  while (seen < wanted) {
    ws.read(in);
    const std::int64_t now = massive::bench::monotonic_ns();
    const std::string_view frame(static_cast<const char*>(in.data().data()), in.size());
    if (frame.starts_with(R"([{"ev":"T")")) {
      if (seen == 0) {
        first = std::chrono::steady_clock::now();
        cpu_at_first = massive::bench::cpu_seconds();
      }
      const std::uint64_t events = std::min(per_frame, wanted - seen);
      const std::int64_t sent = first_send_time(frame);
      for (std::uint64_t i = 0; i < events; ++i) latency.add(sent < 0 ? 0 : now - sent);
      seen += events;
    }
    in.consume(in.size());
  }
  const auto last = std::chrono::steady_clock::now();
  const double cpu = massive::bench::cpu_seconds() - cpu_at_first;
  const double seconds = std::chrono::duration<double>(last - first).count();
  std::printf("client floor %s %s\n", massive::bench::throughput(seen, seconds, cpu).c_str(),
              latency.summary().c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "massive_bench_stream_floor: %s\n", e.what());
  return 1;
}
