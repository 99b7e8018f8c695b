// Non-2xx answers become api_error; transport failures say what failed; the key goes where
// the auth scheme says and nowhere else.
#include "fixture.hpp"

#include "massive/mock/gzip.hpp"

#include <massive/client.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <doctest/doctest.h>

#include <ctime>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

namespace {

struct api_fixture {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client{io.get_executor(), client_options(s)};

  massive::api_error fail_with(reply r) {
    s.server.enqueue(std::move(r));
    collecting_sink sink;
    const auto o = get(client, io, "/v3/x", sink);
    CHECK(sink.feeds == 0);  // an error body never reaches the sink
    CHECK_FALSE(sink.finished);
    return error_as<massive::api_error>(o);
  }
};

std::string http_date(std::chrono::system_clock::time_point t) {
  const std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

}  // namespace

TEST_CASE_FIXTURE(api_fixture, "429 with Retry-After in seconds") {
  const auto e = fail_with({.status = 429, .headers = {{"Retry-After", "7"}},
                            .body = R"({"status":"ERROR","request_id":"req-429","error":"You've exceeded the maximum requests per minute"})"});
  CHECK(e.status() == 429);
  CHECK(e.retry_after() == 7s);
  CHECK(e.request_id() == "req-429");
  CHECK(e.server_message() == "You've exceeded the maximum requests per minute");
  CHECK(s.server.request_count() == 1);
}

TEST_CASE_FIXTURE(api_fixture, "429 with Retry-After as an HTTP date") {
  const auto e = fail_with({.status = 429, .headers = {{"Retry-After", http_date(std::chrono::system_clock::now() + 120s)}},
                            .body = R"({"error":"slow down"})"});
  REQUIRE(e.retry_after());
  CHECK(*e.retry_after() >= 118s);
  CHECK(*e.retry_after() <= 121s);
}

TEST_CASE_FIXTURE(api_fixture, "5xx with an HTML body gives the status and its first bytes, sanitised") {
  const auto e = fail_with({.status = 502, .headers = {{"Content-Type", "text/html"}},
                            .body = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\x01\xfe</body></html>"});
  CHECK(e.status() == 502);
  CHECK(e.server_message() == "body: <html> <head><title>502 Bad Gateway</title></head> <body>?" "?</body></html>");
  CHECK(std::string(e.what()).starts_with("HTTP 502"));
}

TEST_CASE_FIXTURE(api_fixture, "403 with `message`, 401 with `error`, request ids") {
  const auto e403 = fail_with({.status = 403, .body = R"({"status":"NOT_AUTHORIZED","request_id":"r403","message":"You are not entitled to this data."})"});
  CHECK(e403.server_message() == "You are not entitled to this data.");
  CHECK(e403.request_id() == "r403");
  const auto e401 = fail_with({.status = 401, .headers = {{"X-Request-Id", "hdr-401"}},
                               .body = R"({"status":"ERROR","request_id":"r401","error":"Unknown API Key"})"});
  CHECK(e401.server_message() == "Unknown API Key");
  CHECK(e401.request_id() == "r401");
  const auto fallback = fail_with({.status = 404, .headers = {{"X-Request-Id", "hdr-404"}}, .body = R"({"status":"NOT_FOUND"})"});
  CHECK(fallback.request_id() == "hdr-404");
  const auto gzipped = fail_with({.status = 400, .body = R"({"error":"bad from","request_id":"gz"})", .gzip = true});
  CHECK(gzipped.server_message() == "bad from");
  CHECK(s.server.connections_accepted() == 1);  // complete error answers keep the connection
}

TEST_CASE_FIXTURE(api_fixture, "an error body over the cap is cut; the connection is then closed") {
  const auto e = fail_with({.status = 500, .body = make_body(1'000'000)});
  CHECK(e.status() == 500);
  CHECK(e.server_message().starts_with("body: "));
  collecting_sink sink;
  const auto o = get(client, io, "/next", sink);
  REQUIRE(o.ok());
  CHECK_FALSE(o.info.reused_connection);
}

TEST_CASE("transport failures name what failed") {
  asio::io_context io;
  collecting_sink sink;
  SUBCASE("resolve") {
    massive::detail::http_client client(io.get_executor(), {.api_key = std::string(test_api_key),
                                                    .base_url = "https://nonexistent.invalid"});
    CHECK(transport_code(get(client, io, "/x", sink)) == massive::errc::resolve_failed);
  }
  SUBCASE("connect") {
    std::uint16_t port = 0;
    {
      asio::ip::tcp::acceptor probe(io, {asio::ip::make_address("127.0.0.1"), 0});
      port = probe.local_endpoint().port();
    }
    massive::detail::http_client client(io.get_executor(), {.api_key = std::string(test_api_key),
                                                    .base_url = "https://127.0.0.1:" + std::to_string(port)});
    const auto o = get(client, io, "/x", sink);
    CHECK(transport_code(o) == massive::errc::connect_failed);
    CHECK(std::string(error_as<massive::transport_error>(o).what()).find("127.0.0.1") != std::string::npos);
  }
}

TEST_CASE("a next_url of another origin fails before anything is sent") {
  trusted_server home;
  trusted_server elsewhere;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(home));
  const auto port = std::to_string(home.server.port());
  for (const std::string& url : {elsewhere.server.base_url() + "/v3/trades?cursor=x",
                                "http://127.0.0.1:" + port + "/v3/trades?cursor=x",
                                "https://localhost:" + port + "/v3/trades",
                                "https://127.0.0.1:" + port + ":" + port + "/v3/trades",
                                "https://user@127.0.0.1:" + port + "/v3/trades",
                                "ftp://127.0.0.1:" + port + "/"}) {
    CAPTURE(url);
    collecting_sink sink;
    CHECK(transport_code(get(client, io, url, sink)) == massive::errc::foreign_next_url);
  }
  CHECK(home.server.request_count() == 0);
  CHECK(elsewhere.server.request_count() == 0);
  CHECK(elsewhere.server.connections_accepted() == 0);

  collecting_sink sink;
  REQUIRE(get(client, io, home.server.base_url() + "/v3/trades/AAPL?cursor=abc%2F1&limit=2", sink).ok());
  CHECK(home.server.requests().at(0).target == "/v3/trades/AAPL?cursor=abc%2F1&limit=2");
}

// "//host/path" is a network-path reference: another host under the base's scheme, as a
// next_url means it. Seen failing before it was read so: `GET //localhost:<port>/v3/trades` was
// sent to the base's own host, a path starting with an empty segment.
TEST_CASE("a next_url written as a network-path reference is judged by its authority") {
  trusted_server home;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(home));
  const auto port = std::to_string(home.server.port());
  for (const std::string& url : {"//localhost:" + port + "/v3/trades", std::string("//evil.example/v3/trades?cursor=x"),
                                "//user@127.0.0.1:" + port + "/v3/trades"}) {
    CAPTURE(url);
    collecting_sink sink;
    CHECK(transport_code(get(client, io, url, sink)) == massive::errc::foreign_next_url);
  }
  CHECK(home.server.request_count() == 0);
  collecting_sink sink;
  REQUIRE(get(client, io, "//127.0.0.1:" + port + "/v3/trades?cursor=x", sink).ok());
  REQUIRE(get(client, io, "//127.0.0.1:" + port, sink).ok());
  REQUIRE(home.server.request_count() == 2);
  CHECK(home.server.requests().at(0).target == "/v3/trades?cursor=x");
  CHECK(home.server.requests().at(1).target == "/");
}

TEST_CASE("a relative target that is not origin-form is refused") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  for (const char* bad : {"v3/x", "", "/a b", "/a\r\nX: y", "/x#frag"}) {
    collecting_sink sink;
    const auto o = get(client, io, bad, sink);
    CHECK_THROWS_AS(std::rethrow_exception(o.error), std::invalid_argument);
  }
  CHECK(s.server.request_count() == 0);
}

// A next_url is the server's text: one that is not a URL, or holds a byte no URL holds, is the
// server's fault, refused as one of another origin is (a transport_error) and named by what is
// wrong with it, never quoted (it may carry the key). Seen failing with the former
// resolve_target(), every one of them an std::invalid_argument: "FATAL ERROR: unexpected
// exception: request target must start with '/' or be an absolute URL" (logged: why :=
// contains a fragment ('#')).
TEST_CASE("a next_url that is not a URL is refused naming what is wrong with it") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string base = s.server.base_url() + "/v3/trades?cursor=" + std::string(test_api_key);
  const std::string not_a_url = "is not a URL (neither an absolute URL nor a path starting with '/')";
  const std::pair<std::string, std::string> cases[] = {
      {base + "#x", "contains a fragment ('#')"},
      {base + "\r\nX-Injected: 1", "contains a CR or LF byte"},
      {base + " x", "contains a space"},
      {base + "\x01", "contains a control byte"},
      {base + "\xc3\xa9", "contains a non-ASCII byte"},
      {s.server.base_url() + "/v3\\trades", "contains a backslash"},
      {"12345", not_a_url},
      {"v3/trades?cursor=" + std::string(test_api_key), not_a_url},
  };
  for (const auto& c : cases) {
    const std::string& why = c.second;
    CAPTURE(why);
    collecting_sink sink;
    const auto o = get(client, io, c.first, sink, nullptr, massive::detail::target_kind::next_url);
    const std::string what = error_as<massive::transport_error>(o).what();
    CHECK(transport_code(o) == massive::errc::bad_response);
    CHECK(what.find("refusing a next_url that " + why) != std::string::npos);
  }
  CHECK(s.server.request_count() == 0);
}

// The base URL's path prefix is where the SDK's own paths go; the path of a next_url is the
// server's whole path, as an absolute next_url's is (RFC 3986, 5.2.2: an absolute-path
// reference replaces the base's path). Seen failing with the prefix put before every path:
// "CHECK( r[before + 1].target == "/api/v3/trades/AAPL?cursor=2" ) is NOT correct! values:
// CHECK( /api/api/v3/trades/AAPL?cursor=2 == /api/v3/trades/AAPL?cursor=2 )", with and
// without prefetch.
TEST_CASE("a next_url that is an absolute path replaces the base URL's path prefix") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.base_url += "/api";
  massive::client client{io.get_executor(), opts};
  for (const bool prefetch : {false, true}) {
    CAPTURE(prefetch);
    const auto before = s.server.request_count();
    s.server.enqueue({.body = R"({"status":"OK","results":[],"next_url":"/api/v3/trades/AAPL?cursor=2"})"});
    s.server.enqueue({.body = R"({"status":"OK","results":[]})"});
    std::size_t pages = 0;
    std::exception_ptr failure;
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
      auto trades = client.stocks().trades({.ticker = "AAPL"}, {.prefetch = prefetch});
      while (co_await trades.next()) ++pages;
    }, [&](std::exception_ptr e) { failure = e; });
    io.restart();
    io.run();
    REQUIRE_FALSE(failure);
    CHECK(pages == 2);
    const auto r = s.server.requests();
    REQUIRE(r.size() == before + 2);
    CHECK(r[before].target.starts_with("/api/v3/trades/AAPL"));
    CHECK(r[before + 1].target == "/api/v3/trades/AAPL?cursor=2");
  }
}

TEST_CASE("request heads: bearer by default, apiKey once under the query scheme") {
  trusted_server s;
  asio::io_context io;
  const std::string key(test_api_key);
  SUBCASE("bearer") {
    massive::detail::http_client client(io.get_executor(), client_options(s));
    collecting_sink sink;
    REQUIRE(get(client, io, "/v3/x?limit=1", sink).ok());
    const auto r = s.server.requests().at(0);
    CHECK(r.method == "GET");
    CHECK(r.target == "/v3/x?limit=1");
    CHECK(r.header("Authorization") == "Bearer " + key);
    CHECK(r.header("Accept") == "application/json");
    CHECK(r.header("Host") == "127.0.0.1:" + std::to_string(s.server.port()));
    CHECK(r.header("User-Agent").starts_with("massive-cpp/"));
  }
  SUBCASE("query parameter, also on an absolute next_url that already carries one") {
    auto opts = client_options(s);
    opts.auth = massive::auth_scheme::query_parameter;
    massive::detail::http_client client(io.get_executor(), opts);
    collecting_sink a, b;
    REQUIRE(get(client, io, "/v3/x?limit=1", a).ok());
    REQUIRE(get(client, io, s.server.base_url() + "/v3/x?cursor=c&apiKey=stale", b).ok());
    const auto rs = s.server.requests();
    CHECK(rs.at(0).target == "/v3/x?limit=1&apiKey=" + key);
    CHECK(rs.at(1).target == "/v3/x?cursor=c&apiKey=" + key);
    CHECK_FALSE(rs.at(0).has_header("Authorization"));
  }
  SUBCASE("base URL path prefix") {
    auto opts = client_options(s);
    opts.base_url += "/proxy/";
    massive::detail::http_client client(io.get_executor(), opts);
    collecting_sink sink;
    REQUIRE(get(client, io, "/v3/x", sink).ok());
    CHECK(s.server.requests().at(0).target == "/proxy/v3/x");
  }
}

TEST_CASE("a peer that accepts TCP but never answers the TLS handshake: connect_timeout, then the deadline") {
  asio::io_context io;
  // Never accepts: the kernel completes the TCP handshake from the backlog, nobody speaks TLS.
  asio::ip::tcp::acceptor silent(io, {asio::ip::make_address("127.0.0.1"), 0});
  const auto base = "https://127.0.0.1:" + std::to_string(silent.local_endpoint().port());
  collecting_sink sink;
  SUBCASE("connect_timeout first") {
    massive::detail::http_client client(io.get_executor(), {.api_key = std::string(test_api_key), .base_url = base,
                                                    .connect_timeout = 200ms, .request_timeout = 10s});
    const auto o = get(client, io, "/x", sink);
    CHECK(transport_code(o) == massive::errc::connect_failed);
    CHECK(std::string(error_as<massive::transport_error>(o).what()).find("within 200 ms") != std::string::npos);
  }
  SUBCASE("request deadline first") {
    massive::detail::http_client client(io.get_executor(), {.api_key = std::string(test_api_key), .base_url = base,
                                                    .connect_timeout = 10s, .request_timeout = 200ms});
    CHECK(transport_code(get(client, io, "/x", sink)) == massive::errc::deadline_exceeded);
  }
}
