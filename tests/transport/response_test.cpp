// What came back besides the body: status, X-Request-Id, Content-Encoding, the rate-limit
// headers present, the bytes on the wire, in the transport's completion and in every page;
// and redirects, which are never followed.
#include "fixture.hpp"

#include <massive/client.hpp>
#include <massive/models/agg.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

TEST_CASE("response_info: status, request id, encoding, rate-limit headers and wire bytes") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  const std::string body = make_body(20'000) + std::string(20'000, 'a');
  s.server.enqueue({.status = 203,
                    .headers = {{"X-Request-Id", "req-1"}, {"X-RateLimit-Remaining", "41"},
                                {"RateLimit-Policy", "100;w=60"}, {"X-Rate-Limit-Reset", "30"}, {"X-Other", "1"}},
                    .body = body,
                    .gzip = true});
  collecting_sink sink;
  const auto o = get(client, io, "/v3/x", sink);
  REQUIRE(o.ok());
  CHECK(o.info.status == 203);
  CHECK(o.info.request_id == "req-1");
  CHECK(o.info.content_encoding == "gzip");
  CHECK(o.info.body_bytes == body.size());
  CHECK(o.info.wire_bytes < body.size());  // compressed on the wire
  CHECK(o.info.wire_bytes > 0);
  CHECK(o.info.rate_limit == std::vector<massive::header_field>{
                                 {"X-RateLimit-Remaining", "41"}, {"RateLimit-Policy", "100;w=60"}, {"X-Rate-Limit-Reset", "30"}});
  // None sent: none reported.
  s.server.enqueue({.body = "{}"});
  const auto plain = get(client, io, "/v3/y", sink);
  REQUIRE(plain.ok());
  CHECK(plain.info.rate_limit.empty());
  CHECK(plain.info.content_encoding.empty());
  CHECK(plain.info.wire_bytes == 2);
}

TEST_CASE("a redirect is an api_error: no Location is requested, same origin or not") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.retry = {.max_attempts = 3, .initial_backoff = 1ms, .max_backoff = 1ms};
  massive::detail::http_client client(io.get_executor(), opts);
  for (const std::string& location : {s.server.base_url() + "/v3/elsewhere", std::string("https://evil.example/v3/x"),
                                     std::string("/v3/relative")}) {
    CAPTURE(location);
    const auto before = s.server.request_count();
    s.server.enqueue({.status = 302, .headers = {{"Location", location}}});
    collecting_sink sink;
    const auto e = error_as<massive::api_error>(get(client, io, "/v3/x", sink));
    CHECK(e.status() == 302);
    CHECK(s.server.request_count() == before + 1);  // neither followed nor retried
    // Said as what it is: seen failing without explain_final's 3xx reason, "HTTP 302" alone (a
    // probe's S3 server: "massive files: HTTP 307").
    CHECK(std::string(e.what()).find("a redirect, which the client does not follow") != std::string::npos);
  }
}

TEST_CASE("a page keeps its response: one call, a traversal, and a traversal with prefetch") {
  trusted_server s;
  asio::io_context io;
  massive::client client(io.get_executor(), client_options(s));
  const std::string row = R"({"o":1,"h":2,"l":0.5,"c":1.5,"v":10,"t":1704067200000})";
  const auto enqueue_pages = [&](std::string_view id) {
    s.server.enqueue({.headers = {{"X-Request-Id", std::string(id) + "-1"}, {"X-RateLimit-Remaining", "9"}},
                      .body = R"({"results":[)" + row + R"(],"next_url":")" + s.server.base_url() + R"(/v2/p2"})",
                      .gzip = true});
    s.server.enqueue({.headers = {{"X-Request-Id", std::string(id) + "-2"}}, .body = R"({"results":[)" + row + "]}"});
  };
  const auto check_pages = [](const std::vector<massive::response_info>& seen, std::string_view id) {
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].status == 200);
    CHECK(seen[0].request_id == std::string(id) + "-1");
    CHECK(seen[0].content_encoding == "gzip");
    CHECK(seen[0].rate_limit == std::vector<massive::header_field>{{"X-RateLimit-Remaining", "9"}});
    CHECK(seen[0].wire_bytes > 0);
    CHECK(seen[1].request_id == std::string(id) + "-2");
    CHECK(seen[1].content_encoding.empty());
    CHECK(seen[1].wire_bytes == seen[1].body_bytes);
  };
  // Seen failing with take_page() not moving the response in (cursor.hpp): "CHECK( 0 == 200 )"
  // for seen[0].status, an empty request_id, content_encoding and rate_limit, wire_bytes 0.
  for (const bool prefetch : {false, true}) {
    CAPTURE(prefetch);
    const std::string id = prefetch ? "prefetched" : "plain";
    enqueue_pages(id);
    std::vector<massive::response_info> seen;
    auto done = asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          auto pages = client.traverse<massive::agg>("/v2/p1", massive::payload_shape::results_array,
                                                     {.prefetch = prefetch});
          while (auto page = co_await pages.next()) seen.push_back(page->response());
        },
        asio::use_future);
    io.run();
    io.restart();
    done.get();
    check_pages(seen, id);
  }
  s.server.enqueue({.headers = {{"X-Request-Id", "one"}}, .body = R"({"results":[)" + row + "]}"});
  auto one = asio::co_spawn(
      io, client.fetch<massive::agg>("/v2/one", massive::payload_shape::results_array, asio::use_awaitable),
      asio::use_future);
  io.run();
  const massive::page<massive::agg> page = one.get();
  CHECK(page.size() == 1);
  CHECK(page.response().status == 200);
  CHECK(page.response().request_id == "one");
  // A page a page_decoder made alone came through no transport.
  CHECK(massive::page<massive::agg>{}.response().status == 0);
}
