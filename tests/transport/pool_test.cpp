// Connection pool: reuse, the per-origin bound, and which connections are never reused.
#include "fixture.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <doctest/doctest.h>

#include <thread>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

TEST_CASE("1,000 sequential requests use one connection and one TLS handshake") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.trace = nullptr;  // 1,000 trace lines add nothing here
  massive::detail::http_client client(io.get_executor(), opts);
  std::size_t reused = 0;
  for (int i = 0; i < 1000; ++i) {
    collecting_sink sink;
    const auto o = get(client, io, "/v1/ping?i=" + std::to_string(i), sink);
    REQUIRE(o.ok());
    CHECK(sink.data == "{}");
    if (o.info.reused_connection) ++reused;
  }
  CHECK(s.server.request_count() == 1000);
  CHECK(s.server.tls_handshakes() == 1);
  CHECK(s.server.connections_accepted() == 1);
  CHECK(reused == 999);
  MESSAGE("1,000 sequential requests: " << s.server.tls_handshakes() << " TLS handshake(s), "
                                         << s.server.connections_accepted() << " connection(s)");
}

TEST_CASE("N concurrent requests use at most connections_per_origin connections, the rest queue") {
  trusted_server s;
  s.server.respond_with([](const recorded_request&) { return reply{.body = "{\"ok\":1}", .head_delay = 20ms}; });
  asio::io_context io;
  auto opts = client_options(s);
  opts.connections_per_origin = 3;
  massive::detail::http_client client(io.get_executor(), opts);
  constexpr int n = 12;
  std::vector<collecting_sink> sinks(n);
  int ok = 0;
  for (int i = 0; i < n; ++i) {
    client.async_get("/v1/x", sinks[i], [&](std::exception_ptr e, massive::response_info) {
      if (!e) ++ok;
    });
  }
  io.run();
  CHECK(ok == n);
  CHECK(s.server.request_count() == n);
  CHECK(s.server.max_concurrent_connections() == 3);
  CHECK(s.server.connections_accepted() == 3);
  for (const auto& sink : sinks) CHECK(sink.data == "{\"ok\":1}");
}

// Issue 30: a response pushed onto an idle pooled connection before the next request was
// printed as that request's answer. Seen failing with connection::quiet() returning true:
// second.data was the pushed {"rogue":true}, on the reused connection, one connection accepted.
TEST_CASE("bytes waiting on an idle connection make it unfit: closed, never read as the next answer") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string rogue = "{\"rogue\":true}";
  s.server.enqueue(reply{.body = "{\"first\":1}",
                         .pushed = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(rogue.size()) + "\r\n\r\n" + rogue});
  s.server.enqueue(reply{.body = "{\"second\":2}"});
  collecting_sink first;
  REQUIRE(get(client, io, "/one", first).ok());
  // The server pushes 20 ms after its response; the next request comes well after.
  std::this_thread::sleep_for(200ms);
  collecting_sink second;
  const auto o = get(client, io, "/two", second);
  REQUIRE(o.ok());
  CHECK(second.data == "{\"second\":2}");
  CHECK_FALSE(o.info.reused_connection);
  CHECK(s.server.connections_accepted() == 2);
}

// Issue 30: nginx and HAProxy answer 408 on a connection they found idle, then close it.
// Seen failing with answer_means_stale_connection() returning false: the call failed (408).
TEST_CASE("a 408 on a reused connection is retried once on a fresh one; on a fresh one it is the answer") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink warm;
  REQUIRE(get(client, io, "/warm", warm).ok());
  s.server.enqueue(reply{.status = 408, .body = "idle", .keep_alive = false});
  s.server.enqueue(reply{.body = "{\"after\":408}"});
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  REQUIRE(o.ok());
  CHECK(sink.data == "{\"after\":408}");
  CHECK(s.server.connections_accepted() == 2);
  // A fresh connection's 408 is the server's answer (the default policy retries no 408).
  auto opts = client_options(s);
  massive::detail::http_client fresh(io.get_executor(), opts);
  s.server.enqueue(reply{.status = 408, .body = "slow", .keep_alive = false});
  collecting_sink refused;
  const auto r = get(fresh, io, "/y", refused);
  CHECK(error_as<massive::api_error>(r).status() == 408);
}

// Issue 30: a 100 Continue or 103 Early Hints before the 200 failed the call. Seen failing
// with skip_interim_response() returning false: the first call failed.
TEST_CASE("interim 1xx responses are skipped; 101 and endless interim responses are refused") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  s.server.enqueue(reply{.body = "{\"final\":1}",
                         .interim = {"HTTP/1.1 100 Continue\r\n\r\n",
                                     "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n",
                                     "HTTP/1.1 102 Processing\r\n\r\n"}});
  collecting_sink sink;
  const auto o = get(client, io, "/hints", sink);
  REQUIRE(o.ok());
  CHECK(o.info.status == 200);
  CHECK(sink.data == "{\"final\":1}");
  s.server.enqueue(reply{.body = "{}", .interim = {"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n"}});
  collecting_sink upgraded;
  CHECK(transport_code(get(client, io, "/up", upgraded)) == massive::errc::bad_response);
  s.server.enqueue(reply{.body = "{}", .interim = std::vector<std::string>(9, "HTTP/1.1 100 Continue\r\n\r\n")});
  collecting_sink endless;
  const auto e = get(client, io, "/endless", endless);
  CHECK(transport_code(e) == massive::errc::bad_response);
  CHECK(error_as<massive::transport_error>(e).what() == doctest::Contains("interim (1xx)"));
}

TEST_CASE("a connection that timed out is closed, never reused") {
  trusted_server s;
  s.server.enqueue(reply{.body = make_body(1000), .stall_after = 10});
  asio::io_context io;
  auto opts = client_options(s);
  opts.request_timeout = 300ms;
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink first;
  CHECK(transport_code(get(client, io, "/stall", first)) == massive::errc::deadline_exceeded);
  CHECK_FALSE(first.finished);
  collecting_sink second;
  const auto o = get(client, io, "/next", second);
  REQUIRE(o.ok());
  CHECK_FALSE(o.info.reused_connection);
  CHECK(s.server.connections_accepted() == 2);
  CHECK(s.server.tls_handshakes() == 2);
}

namespace {

// Emits terminal cancellation from inside the call (on its strand) at the first chunk.
class cancelling_sink : public collecting_sink {
 public:
  explicit cancelling_sink(asio::cancellation_signal& signal) : signal_(signal) {}
  void feed(std::span<const char> chunk) override {
    collecting_sink::feed(chunk);
    if (feeds == 1) signal_.emit(asio::cancellation_type::terminal);
  }

 private:
  asio::cancellation_signal& signal_;
};

}  // namespace

TEST_CASE("a connection cancelled mid-body is closed, never reused") {
  trusted_server s;
  s.server.enqueue(reply{.body = make_body(200'000), .write_size = 1000, .write_delay = 5ms});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  asio::cancellation_signal signal;
  cancelling_sink sink(signal);
  std::exception_ptr error;
  client.async_get("/big", sink, asio::bind_cancellation_slot(signal.slot(), [&](std::exception_ptr e, massive::response_info) {
                     error = e;
                   }));
  io.run();
  outcome o{error, {}};
  CHECK(transport_code(o) == massive::errc::cancelled);
  message_log::instance().record(error_as<massive::transport_error>(o).what());
  CHECK(sink.feeds >= 1);
  CHECK(sink.data.size() < 200'000);
  CHECK_FALSE(sink.finished);
  collecting_sink next;
  const auto second = get(client, io, "/next", next);
  REQUIRE(second.ok());
  CHECK_FALSE(second.info.reused_connection);
  CHECK(s.server.connections_accepted() == 2);
}

TEST_CASE("a response without keep-alive closes its connection") {
  trusted_server s;
  s.server.enqueue(reply{.body = "{\"a\":1}", .keep_alive = false});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink a, b;
  REQUIRE(get(client, io, "/one", a).ok());
  CHECK(a.data == "{\"a\":1}");
  const auto o = get(client, io, "/two", b);
  REQUIRE(o.ok());
  CHECK_FALSE(o.info.reused_connection);
  CHECK(s.server.connections_accepted() == 2);
}

TEST_CASE("an idle connection the server closed or reset is not taken: the request goes on a fresh one") {
  // Before issue 30 the request went out on it first and came back through the stale retry
  // (attempts 2); connection::quiet() now sees the close before anything is sent. Seen failing
  // with quiet() returning true: attempts 2.
  for (auto after : {after_response::close, after_response::reset}) {
    for (bool tls : {true, false}) {
      CAPTURE(tls);
      CAPTURE(after == after_response::close);
      trusted_server s(server_options{.tls = tls});
      s.server.enqueue(reply{.body = "{\"first\":1}", .after = after});
      asio::io_context io;
      massive::detail::http_client client(io.get_executor(), client_options(s));
      collecting_sink a;
      REQUIRE(get(client, io, "/first", a).ok());
      // Let the server's close reach the client's idle connection (on a loaded machine, 50 ms
      // was seen too short for the TLS close_notify).
      std::this_thread::sleep_for(300ms);
      collecting_sink b;
      const auto o = get(client, io, "/second", b);
      REQUIRE(o.ok());
      CHECK(b.data == "{}");
      CHECK(o.info.attempts == 1);
      CHECK_FALSE(o.info.reused_connection);
      CHECK(s.server.connections_accepted() == 2);
      CHECK(s.server.request_count() == 2);
    }
  }
}

TEST_CASE("a pooled connection closed when the request arrives is retried once on a fresh one, transparently") {
  // The close races the request (the server reads it, then closes without a byte): the
  // stale-connection rule, as before issue 30.
  for (bool tls : {true, false}) {
    CAPTURE(tls);
    trusted_server s(server_options{.tls = tls});
    s.server.enqueue(reply{.body = "{\"first\":1}"});
    s.server.enqueue(reply{.raw = std::string()});
    asio::io_context io;
    massive::detail::http_client client(io.get_executor(), client_options(s));
    collecting_sink a;
    REQUIRE(get(client, io, "/first", a).ok());
    collecting_sink b;
    const auto o = get(client, io, "/second", b);
    REQUIRE(o.ok());
    CHECK(b.data == "{}");
    CHECK(o.info.attempts == 2);
    CHECK_FALSE(o.info.reused_connection);
    CHECK(s.server.connections_accepted() == 2);
    CHECK(s.server.request_count() == 3);
  }
}

TEST_CASE("a fresh connection closed before any response byte is retried by the policy, not without one") {
  // Nothing of an answer reached the sink and every call is a GET: the retry policy retries it,
  // with backoff. Seen failing with call_fsm's reset retry removed: connection_reset, one request.
  {
    trusted_server s;
    s.server.enqueue(reply{.raw = std::string()});
    asio::io_context io;
    auto config = client_options(s);
    config.retry = {.max_attempts = 3, .initial_backoff = 10ms};
    massive::detail::http_client client(io.get_executor(), config);
    collecting_sink sink;
    const auto o = get(client, io, "/x", sink);
    CAPTURE(transport_code(o).message());
    REQUIRE(o.ok());
    CHECK(sink.data == "{}");
    CHECK(o.info.attempts == 2);
    CHECK(s.server.request_count() == 2);
  }
  // The fixture's clients retry nothing (max_attempts = 1): the reset surfaces.
  trusted_server s;
  s.server.enqueue(reply{.raw = std::string()});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  CHECK(transport_code(o) == massive::errc::connection_reset);
  CHECK(s.server.request_count() == 1);
}
