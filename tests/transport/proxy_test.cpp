// Calls through HTTP CONNECT proxies: Debian's tinyproxy (the tunnels appear in its log,
// the server sees one connection per tunnel, Basic authentication accepts and refuses as
// configured, NO_PROXY bypasses it), and a scripted proxy that misbehaves. The proxy's
// credentials appear in no message, like the key.
#include "fixture.hpp"
#include "proxy_fixture.hpp"

#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/proxy_error.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/co_spawn.hpp>
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

namespace {

const tinyproxy::credentials good{.user = "trader", .password = "Pr0xyPass"};
const tinyproxy::credentials bad{.user = "trader", .password = "WrongPass"};

// Every message a proxied client produced (what() and trace lines), for the credentials check.
struct proxy_messages {
  std::vector<std::string> lines;
  void check_no_credentials() const { check_no_proxy_credentials(lines, {good, bad}); }
};

massive::client_config through(const trusted_server& s, std::string proxy, proxy_messages& messages) {
  auto opts = client_options(s);
  // localhost, not 127.0.0.1: the name must reach the server as SNI through the tunnel.
  opts.base_url = "https://localhost:" + std::to_string(s.server.port());
  opts.proxy.url = std::move(proxy);
  opts.connections_per_origin = 1;
  opts.trace = [&messages](const massive::trace_event& e) {
    messages.lines.push_back(to_string(e));
    message_log::instance().record(messages.lines.back());
  };
  return opts;
}

outcome call(massive::detail::http_client& client, asio::io_context& io, proxy_messages& messages,
             std::string_view target = "/v3/x") {
  collecting_sink sink;
  auto o = get(client, io, target, sink);
  if (o.error) messages.lines.push_back(error_as<massive::transport_error>(o).what());
  return o;
}

massive::proxy_error proxy_failure(const outcome& o) {
  REQUIRE(o.error);
  try {
    std::rethrow_exception(o.error);
  } catch (const massive::proxy_error& e) {
    return e;
  } catch (const std::exception& e) {
    FAIL("not a proxy_error: " << std::string(e.what()));
  }
  throw std::logic_error("unreachable");
}

}  // namespace

// Seen failing with SNI and verification set to the proxy's host (expect_peer given
// proxy->connect_host): "CHECK( s.server.server_names() == std::vector<std::string>{"localhost"} )
// is NOT correct!" (an IP address: no SNI sent).
TEST_CASE("calls go through tinyproxy: one tunnel, reused, TLS to the API inside it") {
  trusted_server s;
  tinyproxy proxy(s.server.port());
  proxy_messages messages;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), through(s, proxy.url(), messages));
  for (int i = 0; i < 3; ++i) {
    s.server.enqueue({.body = "{\"n\":" + std::to_string(i) + "}"});
    collecting_sink sink;
    const auto o = get(client, io, "/v3/x?i=" + std::to_string(i), sink);
    REQUIRE(o.ok());
    CHECK(sink.data == "{\"n\":" + std::to_string(i) + "}");
    CHECK(o.info.reused_connection == (i > 0));
  }
  // One tunnel in tinyproxy's log, one connection at the server carrying all three requests.
  CHECK(proxy.tunnels() == 1);
  CHECK(proxy.log().find("CONNECT localhost:" + std::to_string(s.server.port())) != std::string::npos);
  CHECK(s.server.connections_accepted() == 1);
  const auto requests = s.server.requests();
  REQUIRE(requests.size() == 3);
  for (const auto& r : requests) {
    CHECK(r.connection == 1);
    CHECK(r.header("Authorization") == "Bearer " + std::string(test_api_key));
  }
  // TLS ran end to end with the API's name, verified against the server's certificate.
  CHECK(s.server.tls_handshakes() == 1);
  CHECK(s.server.server_names() == std::vector<std::string>{"localhost"});
  messages.check_no_credentials();
}

// Seen failing with the proxy bypassed (open_connection given no proxy): "CHECK( proxy.tunnels()
// == 2 ) is NOT correct! values: CHECK( 0 == 2 )"; with the pool held to one connection through a
// proxy: "CHECK( proxy.tunnels() == 2 )", "CHECK( s.server.connections_accepted() == 2 )" and
// "CHECK( s.server.max_concurrent_connections() == 2 ) is NOT correct! values: CHECK( 1 == 2 )";
// with the CONNECT not sent (open_tunnel skipped): "CHECK_FALSE( e ) is NOT correct!" twice and
// the three counts "CHECK( 0 == 2 )".
TEST_CASE("concurrent calls through tinyproxy: one tunnel per connection") {
  trusted_server s;
  tinyproxy proxy(s.server.port());
  proxy_messages messages;
  asio::io_context io;
  auto opts = through(s, proxy.url(), messages);
  opts.connections_per_origin = 2;
  massive::detail::http_client client(io.get_executor(), opts);
  s.server.respond_with([](const auto&) { return massive::mock::reply{.body = "{}", .head_delay = 50ms}; });
  collecting_sink a, b;
  int done = 0;
  for (auto* sink : {&a, &b}) {
    client.async_get("/v3/x", *sink, [&](std::exception_ptr e, massive::response_info) {
      CHECK_FALSE(e);
      ++done;
    });
  }
  io.run();
  CHECK(done == 2);
  CHECK(proxy.tunnels() == 2);
  CHECK(s.server.connections_accepted() == 2);
  CHECK(s.server.max_concurrent_connections() == 2);
}

// Seen failing with a proxied connection never reused (held->reusable false through a proxy):
// "CHECK( market.server().connections_accepted() == 1 )" and "CHECK( proxy.tunnels() == 1 ) is NOT
// correct! values: CHECK( 3 == 1 )"; with the proxy bypassed: "CHECK( 0 == 1 )" (tunnels); with the
// CONNECT not sent: "REQUIRE_FALSE( failure ) is NOT correct!".
TEST_CASE("a traversal goes through tinyproxy on one tunnel") {
  massive::mock::market_server market({.ticks_per_day = 2'500});
  tinyproxy proxy(market.server().port());
  asio::io_context io;
  massive::client client{io.get_executor(), {.api_key = std::string(test_api_key), .base_url = market.base_url(),
                                             .connections_per_origin = 1, .tls = {.ca_pem = market.certificate_pem()},
                                             .proxy = {.url = proxy.url()}}};
  std::size_t rows = 0;
  std::exception_ptr failure;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    using namespace std::chrono;
    auto trades = client.stocks().trades({.ticker = "AAPL", .timestamp = 2024y / January / 10, .limit = 1000});
    while (auto page = co_await trades.next()) rows += page->size();
  }, [&](std::exception_ptr e) { failure = e; });
  io.run();
  REQUIRE_FALSE(failure);
  CHECK(rows == 2'500);
  CHECK(market.server().request_count() == 3);
  CHECK(market.server().connections_accepted() == 1);
  CHECK(proxy.tunnels() == 1);
}

// Seen failing with render_connect_request's credentials test inverted: "CHECK( call(client, io,
// messages).ok() ) is NOT correct!", "values: CHECK( 401 == 407 )", "CHECK( 0 == 2 )" (requests at
// the server); and with the proxy's refusal thrown as an api_error (open_tunnel): "FATAL ERROR:
// unexpected exception".
TEST_CASE("tinyproxy's Basic authentication: accepted, missing, wrong") {
  trusted_server s;
  tinyproxy proxy(s.server.port(), good);
  proxy_messages messages;
  asio::io_context io;
  {
    massive::detail::http_client client(io.get_executor(), through(s, proxy.url(good), messages));
    CHECK(call(client, io, messages).ok());
    CHECK(call(client, io, messages).ok());
  }
  {
    massive::detail::http_client client(io.get_executor(), through(s, proxy.url(), messages));
    const auto e = proxy_failure(call(client, io, messages));
    CHECK(e.code() == massive::proxy_errc::auth_required);
    CHECK(e.status() == 407);
    CHECK(e.proxy() == "127.0.0.1:" + std::to_string(proxy.port()));
  }
  {
    massive::detail::http_client client(io.get_executor(), through(s, proxy.url(bad), messages));
    const auto e = proxy_failure(call(client, io, messages));
    CHECK(e.code() == massive::proxy_errc::auth_failed);
    CHECK(e.status() == 401);  // tinyproxy 1.11 answers wrong credentials with 401, not 407
  }
  // Only the accepted client reached the server; the refused ones sent it nothing.
  CHECK(s.server.request_count() == 2);
  CHECK(s.server.connections_accepted() == 1);
  CHECK(proxy.tunnels() == 3);
  messages.check_no_credentials();
}

// Seen failing with the proxy's refusal thrown as an api_error (open_tunnel): "FATAL ERROR:
// unexpected exception" (the fixture printed the exception's address then; now its message).
TEST_CASE("tinyproxy refusing a port is a proxy_error with its 403, not an api_error") {
  trusted_server s;
  tinyproxy proxy(static_cast<std::uint16_t>(s.server.port() == 1 ? 2 : 1));  // allows another port only
  proxy_messages messages;
  asio::io_context io;
  auto opts = through(s, proxy.url(), messages);
  opts.retry = {.max_attempts = 3, .initial_backoff = 1ms, .max_backoff = 1ms};
  massive::detail::http_client client(io.get_executor(), opts);
  const auto e = proxy_failure(call(client, io, messages));
  CHECK(e.code() == massive::proxy_errc::refused);
  CHECK(e.status() == 403);
  // A refusal of the proxy is not the API's 5xx or 403: the retry policy does not repeat it.
  CHECK(proxy.tunnels() == 1);
  CHECK(s.server.connections_accepted() == 0);
}

// Seen failing with NO_PROXY ignored by choose_proxy: "CHECK( proxy.tunnels() == 1 ) is NOT
// correct! values: CHECK( 2 == 1 )".
TEST_CASE("the environment opt-in finds tinyproxy, and NO_PROXY bypasses it") {
  trusted_server s;
  tinyproxy proxy(s.server.port());
  proxy_messages messages;
  asio::io_context io;
  environment_guard env;
  env.set("HTTPS_PROXY", proxy.url());
  for (const char* name : {"https_proxy", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"}) env.unset(name);
  auto opts = through(s, "", messages);
  {
    // Without the opt-in, the environment is ignored.
    massive::detail::http_client client(io.get_executor(), opts);
    CHECK(call(client, io, messages).ok());
    CHECK(proxy.tunnels() == 0);
  }
  opts.proxy.from_environment = true;
  {
    massive::detail::http_client client(io.get_executor(), opts);
    CHECK(call(client, io, messages).ok());
    CHECK(proxy.tunnels() == 1);
  }
  env.set("NO_PROXY", "example.org, .localhost");
  {
    massive::detail::http_client client(io.get_executor(), opts);
    CHECK(call(client, io, messages).ok());
    CHECK(proxy.tunnels() == 1);  // unchanged: straight to the server
  }
  CHECK(s.server.connections_accepted() == 3);
  CHECK(s.server.request_count() == 3);
}

// Seen failing with SNI and verification set to the proxy's host: "CHECK( ...what()).find(
// "hostname mismatch") != std::string::npos ) is NOT correct!" (127.0.0.1 was checked instead).
TEST_CASE("the API's certificate is verified inside the tunnel against the API's name") {
  // The server presents a certificate for another name: the proxy's success changes nothing.
  trusted_server s({.identity = massive::mock::make_self_signed({.dns = {"other.example"}, .ip = {}})});
  tinyproxy proxy(s.server.port());
  proxy_messages messages;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), through(s, proxy.url(), messages));
  const auto o = call(client, io, messages);
  CHECK(transport_code(o) == massive::errc::tls_handshake_failed);
  CHECK(std::string(error_as<massive::transport_error>(o).what()).find("hostname mismatch") != std::string::npos);
  CHECK(proxy.tunnels() == 1);
}

TEST_CASE("a scripted proxy: the CONNECT it receives, and each way it can fail") {
  trusted_server s;
  scripted_proxy proxy(s.server.port());
  proxy_messages messages;
  asio::io_context io;
  const auto client_for = [&](std::string url, std::chrono::milliseconds connect_timeout = 5s) {
    auto opts = through(s, std::move(url), messages);
    opts.connect_timeout = connect_timeout;
    return std::make_unique<massive::detail::http_client>(io.get_executor(), opts);
  };
  using action = proxy_script::action;
  const std::string authority = "localhost:" + std::to_string(s.server.port());

  // Seen failing with render_connect_request's credentials test inverted: "CHECK( heads[0].find(
  // "\r\nProxy-Authorization: Basic dHJhZGVyOlByMHh5UGFzcw==\r\n") != std::string::npos ) is NOT correct!".
  SUBCASE("a well-behaved tunnel gets the API's authority and the Basic credentials") {
    auto client = client_for(proxy.url("trader:Pr0xyPass"));
    CHECK(call(*client, io, messages).ok());
    CHECK(call(*client, io, messages).ok());
    const auto heads = proxy.heads();
    REQUIRE(heads.size() == 1);
    CHECK(heads[0].starts_with("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n"));
    CHECK(heads[0].find("\r\nProxy-Authorization: Basic dHJhZGVyOlByMHh5UGFzcw==\r\n") != std::string::npos);
    CHECK(s.server.request_count() == 2);
  }
  // Seen failing with the status line checked only once the head ended (tunnel.cpp): "CHECK(
  // std::string(e.what()).find("not HTTP/1.x") != std::string::npos ) is NOT correct! ... logged:
  // proxy 127.0.0.1:44739 closed the connection before the tunnel to localhost:39815 was established
  // (End of file)"; with a malformed answer typed as a refusal (tunnel_failure): "CHECK( e.code() ==
  // massive::proxy_errc::failed ) is NOT correct! values: CHECK( massive.proxy:3 == 4 )".
  SUBCASE("a wrong status line") {
    proxy.enqueue({.what = action::answer_then_close, .answer = "SSH-2.0-OpenSSH_9.2\r\n"});
    const auto e = proxy_failure(call(*client_for(proxy.url()), io, messages));
    CHECK(e.code() == massive::proxy_errc::failed);
    CHECK_MESSAGE(std::string(e.what()).find("not HTTP/1.x") != std::string::npos, std::string(e.what()));
  }
  // Seen failing with the head-size cap removed (parse_tunnel_response): "CHECK( std::string(e.what(
  // )).find("exceeds") != std::string::npos ) is NOT correct! ... logged: no tunnel through proxy
  // 127.0.0.1:35543 to localhost:37049 within 5000 ms"; with a malformed answer typed as a refusal:
  // "CHECK( e.code() == massive::proxy_errc::failed ) is NOT correct!".
  SUBCASE("an oversized head") {
    proxy.enqueue({.what = action::answer_then_stall,
                   .answer = "HTTP/1.1 200 OK\r\nX-Pad: " + std::string(20'000, 'a') + "\r\n\r\n"});
    const auto e = proxy_failure(call(*client_for(proxy.url()), io, messages));
    CHECK(e.code() == massive::proxy_errc::failed);
    CHECK_MESSAGE(std::string(e.what()).find("exceeds") != std::string::npos, std::string(e.what()));
  }
  // Seen failing with the connect deadline lifted once TCP to the proxy was up (the request's armed
  // before open_tunnel): "FATAL ERROR: not a proxy_error: request did not complete within 10000 ms";
  // with proxy_errors passed on without asking the abort's reason (open_connection and the call
  // loop): "CHECK( std::string(e.what()).find("no tunnel through proxy") ...) is NOT correct! ...
  // logged: proxy 127.0.0.1:34895 closed the connection before the tunnel to localhost:34767 was
  // established (Operation canceled)"; with the connect timeout typed as a refusal (aborted_error):
  // "CHECK( e.code() == massive::proxy_errc::failed ) is NOT correct! values: CHECK( massive.proxy:3 == 4 )".
  SUBCASE("a stall before the answer ends at connect_timeout") {
    proxy.enqueue({.what = action::answer_then_stall, .answer = "HTTP/1.1 200 OK\r\n"});
    const auto e = proxy_failure(call(*client_for(proxy.url(), 200ms), io, messages));
    CHECK(e.code() == massive::proxy_errc::failed);
    CHECK_MESSAGE(std::string(e.what()).find("no tunnel through proxy") != std::string::npos, std::string(e.what()));
  }
  // Seen failing with the close thrown as a transport_error (open_tunnel): "FATAL ERROR: not a
  // proxy_error: reading the proxy answer: End of file: connection reset by peer"; with it typed as a
  // refusal (tunnel_failure): "CHECK( e.code() == massive::proxy_errc::failed ) is NOT correct!";
  // with it reported as a malformed answer: "CHECK( std::string(e.what()).find("closed the
  // connection before the tunnel") ...) is NOT correct! ... logged: proxy 127.0.0.1:39663 answered
  // CONNECT malformed: truncated".
  SUBCASE("a close before the tunnel is up") {
    proxy.enqueue({.what = action::answer_then_close, .answer = "HTTP/1.1 200 Conn"});
    const auto e = proxy_failure(call(*client_for(proxy.url()), io, messages));
    CHECK(e.code() == massive::proxy_errc::failed);
    CHECK_MESSAGE(std::string(e.what()).find("closed the connection before the tunnel") != std::string::npos, std::string(e.what()));
  }
  // Seen failing with the proxy's refusal thrown as an api_error: "FATAL ERROR: unexpected exception".
  SUBCASE("a 502 from the proxy, apart from the API's 502") {
    proxy.enqueue({.what = action::answer_then_close, .answer = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"});
    const auto e = proxy_failure(call(*client_for(proxy.url()), io, messages));
    CHECK(e.code() == massive::proxy_errc::refused);
    CHECK(e.status() == 502);
  }
  // The reset may discard the head before it was read, so it ends the head's read or the body's.
  // Seen failing with a reset typed as a truncation (fail_read): "CHECK( transport_code(o) ==
  // massive::errc::connection_reset ) is NOT correct! values: CHECK( massive:5 == 4 ) logged: reading
  // the response body: Connection reset by peer: response body truncated" (the former check took
  // truncated_body too); with the CONNECT not sent: "values: CHECK( massive.proxy:4 == 4 )" and
  // "CHECK( s.server.request_count() == 1 ) is NOT correct! values: CHECK( 0 == 1 )".
  SUBCASE("a reset mid-tunnel is the connection's failure, not the proxy's") {
    proxy.enqueue({.what = action::tunnel, .answer = {}, .reset_after = 20'000});
    s.server.enqueue({.body = make_body(200'000)});
    const auto o = call(*client_for(proxy.url()), io, messages);
    CHECK_MESSAGE(transport_code(o) == massive::errc::connection_reset, messages.lines.back());
    CHECK(s.server.request_count() == 1);
  }
  messages.check_no_credentials();
}
