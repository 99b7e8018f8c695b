// What came back besides the body: status, X-Request-Id, Content-Encoding, the rate-limit
// headers present, the bytes on the wire; and redirects, which are never followed.
#include "fixture.hpp"

#include <doctest/doctest.h>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

TEST_CASE("response_info: status, request id, encoding, rate-limit headers and wire bytes") {
  trusted_server s;
  asio::io_context io;
  massive::http_client client(io.get_executor(), client_options(s));
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
  massive::http_client client(io.get_executor(), opts);
  for (const std::string& location : {s.server.base_url() + "/v3/elsewhere", std::string("https://evil.example/v3/x"),
                                     std::string("/v3/relative")}) {
    CAPTURE(location);
    const auto before = s.server.request_count();
    s.server.enqueue({.status = 302, .headers = {{"Location", location}}});
    collecting_sink sink;
    const auto e = error_as<massive::api_error>(get(client, io, "/v3/x", sink));
    CHECK(e.status() == 302);
    CHECK(s.server.request_count() == before + 1);  // neither followed nor retried
  }
}
