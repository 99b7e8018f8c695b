// Headers from the caller: the client's (client_config::headers) on every request, a call's own
// (call_options) and the Launchpad edge fields on that call only, validated with errors that
// name the header; a call's deadline and retry policy. The test server records what arrives.
#include "fixture.hpp"

#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <doctest/doctest.h>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

namespace {

outcome get_with(massive::detail::http_client& client, asio::io_context& io, std::string_view target,
                 const massive::call_options& call) {
  collecting_sink sink;
  return get(client, io, target, sink, &call);
}

std::string invalid_option_message(const outcome& o) {
  CHECK(transport_code(o) == massive::errc::invalid_option);
  return error_as<massive::transport_error>(o).what();
}

}  // namespace

// Seen failing with the client's lines left out of the head (build_request_head given no
// client_headers): "CHECK( req.header("X-Tenant") == "acme" ) is NOT correct! values: CHECK(  ==
// acme )" and the same for X-Feature, on each request; with the edge fields skipped by
// render_call_headers: "CHECK( r[1].header("X-Massive-Edge-ID") == "user-42" ) is NOT correct!",
// the same for the IP address, the user agent and r[3]'s "deferred-user"; with the call's lines not
// cleared before a call without options (prepare_request): "CHECK_FALSE( r[2].has_header(name) ) is
// NOT correct! values: CHECK_FALSE( true )" for each of the four names.
TEST_CASE("the client's headers go on every request, a call's and the edge fields on that call") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.headers = {{"X-Tenant", "acme"}, {"X-Feature", "a=1; b=2\t(tab kept)"}};
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink sink;
  REQUIRE(get(client, io, "/v3/a", sink).ok());
  REQUIRE(get_with(client, io, "/v3/b", {.headers = {{"X-Trace", "t-1"}}, .edge_id = "user-42",
                                         .edge_ip_address = "203.0.113.7", .edge_user_agent = "Browser/1.0 (X11)"}).ok());
  REQUIRE(get(client, io, "/v3/c", sink).ok());
  // async_get copies the options: a deferred call starts after the caller's struct is gone.
  auto deferred = client.async_get("/v3/d", sink, massive::call_options{.edge_id = "deferred-user"}, asio::deferred);
  std::exception_ptr deferred_failure = std::make_exception_ptr(std::logic_error("never completed"));
  std::move(deferred)([&](std::exception_ptr e, massive::response_info) { deferred_failure = e; });
  io.restart();
  io.run();
  CHECK_FALSE(deferred_failure);
  const auto r = s.server.requests();
  REQUIRE(r.size() == 4);
  CHECK(r[3].header("X-Massive-Edge-ID") == "deferred-user");
  for (const auto& req : r) {
    CHECK(req.header("X-Tenant") == "acme");
    CHECK(req.header("X-Feature") == "a=1; b=2\t(tab kept)");
    CHECK(req.header("Authorization") == "Bearer " + std::string(test_api_key));
  }
  CHECK(r[1].header("X-Trace") == "t-1");
  CHECK(r[1].header("X-Massive-Edge-ID") == "user-42");
  CHECK(r[1].header("X-Massive-Edge-IP-Address") == "203.0.113.7");
  CHECK(r[1].header("X-Massive-Edge-User-Agent") == "Browser/1.0 (X11)");
  // The call's headers stay with the call: the next one reuses the buffer, not the lines.
  for (const auto* name : {"X-Trace", "X-Massive-Edge-ID", "X-Massive-Edge-IP-Address", "X-Massive-Edge-User-Agent"}) {
    CHECK_FALSE(r[0].has_header(name));
    CHECK_FALSE(r[2].has_header(name));
  }
}

// Seen failing with the reserved-name test removed (append_header): "ERROR: accepted" then "CHECK(
// what.find("client_config.headers") == 0 ) is NOT correct!" for each reserved name and "CHECK(
// invalid_option_message(... {{"Host", "evil.example"}} ...) THREW exception"; with the control-
// character test removed: "accepted" for both X-Evil values, the edge_id's check threw, and "CHECK(
// s.server.request_count() == 0 ) is NOT correct! values: CHECK( 2 == 0 )"; with the token test
// removed: "accepted" for 'X Bad' and 'X-Bad:'; with the empty-name test removed: "accepted" for "";
// with the value appended to the reserved-name refusal: "CHECK( construction_error({"Authorization",
// "Bearer s3cret-value"}).find("s3cret-value") == std::string::npos ) is NOT correct!"; with
// check_call_options not called: "CHECK( transport_code(o) == massive::errc::invalid_option ) is NOT
// correct! values: CHECK( massive:6 == 12 )" (the 0 ms deadline expired), the retry's check threw
// and "CHECK( s.server.request_count() == 0 )" got 1.
TEST_CASE("invalid headers are refused, naming the header: the client's at construction, a call's at the call") {
  trusted_server s;
  asio::io_context io;
  const auto construction_error = [&](massive::header_field h) -> std::string {
    auto opts = client_options(s);
    opts.headers = {{"X-Fine", "1"}, std::move(h)};
    try {
      massive::detail::http_client client(io.get_executor(), opts);
    } catch (const massive::transport_error& e) {
      CHECK(e.code() == massive::errc::invalid_option);
      return e.what();
    }
    FAIL_CHECK("accepted");
    return {};
  };
  for (std::string reserved : {"Host", "authorization", "CONTENT-LENGTH", "Transfer-Encoding", "Connection"}) {
    CAPTURE(reserved);
    const auto what = construction_error({reserved, "x"});
    CHECK(what.find("client_config.headers") == 0);
    CHECK(what.find("'" + reserved + "'") != std::string::npos);
  }
  CHECK(construction_error({"X-Evil", "a\r\nHost: evil.example"}).find("value of the header 'X-Evil' contains CR, LF") !=
        std::string::npos);
  CHECK(construction_error({"X-Evil", "a\nb"}).find("'X-Evil'") != std::string::npos);
  CHECK(construction_error({"X Bad", "1"}).find("'X Bad' is not an HTTP token") != std::string::npos);
  CHECK(construction_error({"X-Bad:", "1"}).find("not an HTTP token") != std::string::npos);
  CHECK(construction_error({"", "1"}).find("empty name") != std::string::npos);
  // The value, which may be a secret, is never quoted.
  CHECK(construction_error({"Authorization", "Bearer s3cret-value"}).find("s3cret-value") == std::string::npos);

  massive::detail::http_client client(io.get_executor(), client_options(s));
  CHECK(invalid_option_message(get_with(client, io, "/v3/x", {.headers = {{"Host", "evil.example"}}}))
            .find("call_options.headers: the header 'Host'") == 0);
  CHECK(invalid_option_message(get_with(client, io, "/v3/x", {.edge_id = "u\r\nX-Injected: 1"}))
            .find("call_options.edge_id: the value of the header 'X-Massive-Edge-ID'") == 0);
  CHECK(invalid_option_message(get_with(client, io, "/v3/x", {.request_timeout = 0ms}))
            .find("call_options.request_timeout") == 0);
  CHECK(invalid_option_message(get_with(client, io, "/v3/x", {.retry = massive::retry_policy{.max_attempts = 0}}))
            .find("call_options.retry.max_attempts") == 0);
  CHECK(s.server.request_count() == 0);  // nothing was sent for a refused call
}

// Seen failing with the call's request_timeout and retry ignored (prepare_request): "CHECK(
// transport_code(late) == massive::errc::deadline_exceeded ) is NOT correct! values: CHECK( system:0
// == 6 )", "CHECK( retried.ok() ) is NOT correct!" and "CHECK( retried.info.attempts == 3 ) is NOT
// correct!"; with the call's retry policy written into the client's options: "CHECK(
// error_as<massive::api_error>(get(client, io, "/v3/flaky", sink)).status() == 503 ) THREW
// exception" (the 503 was retried, the next reply succeeded).
TEST_CASE("a call's deadline and retry policy override the client's for that call only") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);  // 10 s deadline, no retry
  massive::detail::http_client client(io.get_executor(), opts);

  s.server.enqueue({.body = "{}", .head_delay = 2'000ms});
  const auto late = get_with(client, io, "/v3/slow", {.request_timeout = 100ms});
  CHECK(transport_code(late) == massive::errc::deadline_exceeded);
  CHECK(std::string(error_as<massive::transport_error>(late).what()).find("within 100 ms") != std::string::npos);

  const massive::retry_policy three{.max_attempts = 3, .initial_backoff = 1ms, .max_backoff = 2ms};
  s.server.enqueue({.status = 503});
  s.server.enqueue({.status = 503});
  const auto retried = get_with(client, io, "/v3/flaky", {.retry = three});
  CHECK(retried.ok());
  CHECK(retried.info.attempts == 3);
  // The client's own policy still applies to the next call: no retry.
  s.server.enqueue({.status = 503});
  collecting_sink sink;
  CHECK(error_as<massive::api_error>(get(client, io, "/v3/flaky", sink)).status() == 503);
}

// Seen failing with the cursor dropping its call options after the first page (call_.reset() in
// start_next's continuation): "CHECK( r[i].header("X-Massive-Edge-ID") == "user-42" ) is NOT
// correct! values: CHECK(  == user-42 )" and the same for "App/2", on pages 2 and 3; with the edge
// fields skipped: the same on every page and for "user-7"; with the client's lines left out:
// "CHECK( req.header("X-Tenant") == "acme" )" on all five; with the call's lines not cleared: "CHECK_FALSE(
// r[4].has_header("X-Massive-Edge-ID") ) is NOT correct!".
TEST_CASE("client.with(...) carries a call's options through a traversal, page after page") {
  massive::mock::market_server market({.ticks_per_day = 2'500});
  asio::io_context io;
  massive::client client{io.get_executor(), {.api_key = std::string(test_api_key), .base_url = market.base_url(),
                                             .tls = {.ca_pem = market.certificate_pem()},
                                             .headers = {{"X-Tenant", "acme"}}}};
  std::size_t rows = 0;
  std::exception_ptr failure;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    using namespace std::chrono;
    // The view is a temporary: the cursor keeps what it needs.
    auto trades = client.with({.edge_id = "user-42", .edge_user_agent = "App/2"})
                      .stocks()
                      .trades({.ticker = "AAPL", .timestamp = 2024y / January / 10, .limit = 1000});
    while (auto page = co_await trades.next()) rows += page->size();
    // A one-page fetch through a view that is gone before the call starts (under ASan, a
    // fetch that kept the view's `this` fails here), then one through the client itself.
    const massive::stocks_aggregates_params bars{.ticker = "AAPL", .multiplier = 1, .timespan = massive::timespan::day,
                                                 .from = 2024y / January / 2, .to = 2024y / January / 12};
    auto later = client.with({.edge_id = "user-7"}).stocks().aggregates(bars);
    CHECK((co_await std::move(later)).size() == 9);
    co_await client.stocks().aggregates(bars);
  }, [&](std::exception_ptr e) { failure = e; });
  io.run();
  REQUIRE_FALSE(failure);
  CHECK(rows == 2'500);
  const auto r = market.server().requests();
  REQUIRE(r.size() == 5);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(r[i].header("X-Massive-Edge-ID") == "user-42");
    CHECK(r[i].header("X-Massive-Edge-User-Agent") == "App/2");
  }
  CHECK(r[3].header("X-Massive-Edge-ID") == "user-7");
  CHECK_FALSE(r[4].has_header("X-Massive-Edge-ID"));
  for (const auto& req : r) CHECK(req.header("X-Tenant") == "acme");
}
