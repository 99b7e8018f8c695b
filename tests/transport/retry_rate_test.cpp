// The retry policy and the rate limiter over the server: counts of attempts as received.
#include "fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

namespace {

struct retry_fixture {
  trusted_server s;
  asio::io_context io;
  std::vector<massive::trace_event> events;
  std::vector<std::string> owned;  // keeps the events' views alive

  massive::detail::http_client make(massive::retry_policy policy) {
    auto opts = client_options(s);
    opts.retry = policy;
    opts.trace = [this](const massive::trace_event& e) {
      message_log::instance().record(to_string(e));
      events.push_back(e);
      events.back().target = events.back().host = events.back().error = events.back().request_id = {};
    };
    return massive::detail::http_client(io.get_executor(), opts);
  }
};

const massive::retry_policy fast{.max_attempts = 3, .initial_backoff = 1ms, .max_backoff = 2000ms};

}  // namespace

TEST_CASE_FIXTURE(retry_fixture, "503, 503, 200 succeeds on the third attempt") {
  auto client = make(fast);
  s.server.enqueue({.status = 503, .body = "busy"});
  s.server.enqueue({.status = 503, .body = "busy"});
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  REQUIRE(o.ok());
  CHECK(o.info.attempts == 3);
  CHECK(s.server.request_count() == 3);
  CHECK(sink.data == "{}");
  REQUIRE(events.size() == 3);
  CHECK(events[0].retry_in.has_value());
  CHECK(events[1].retry_in.has_value());
  CHECK_FALSE(events[2].retry_in.has_value());
}

TEST_CASE_FIXTURE(retry_fixture, "each retryable status is retried until max_attempts, then surfaces") {
  auto client = make(fast);
  for (int status : {429, 500, 502, 503, 504}) {
    CAPTURE(status);
    const auto before = s.server.request_count();
    s.server.respond_with([status](const recorded_request&) { return reply{.status = status, .body = R"({"error":"no"})"}; });
    collecting_sink sink;
    const auto e = error_as<massive::api_error>(get(client, io, "/x", sink));
    CHECK(e.status() == status);
    CHECK(s.server.request_count() - before == 3);
  }
}

TEST_CASE_FIXTURE(retry_fixture, "400, 401, 403, 404 are never retried") {
  auto client = make(fast);
  for (int status : {400, 401, 403, 404}) {
    CAPTURE(status);
    const auto before = s.server.request_count();
    s.server.enqueue({.status = status, .headers = {{"Retry-After", "0"}}, .body = R"({"error":"no"})"});
    collecting_sink sink;
    CHECK(error_as<massive::api_error>(get(client, io, "/x", sink)).status() == status);
    CHECK(s.server.request_count() - before == 1);
  }
}

TEST_CASE_FIXTURE(retry_fixture, "by default, 429 and 5xx are retried three times, Retry-After honoured") {
  // Seen failing with retry_policy::max_attempts defaulting to 1 (as it did before): "CHECK(
  // o.ok() )" false, the first 503 surfacing.
  auto client = make(massive::retry_policy{});
  s.server.enqueue({.status = 503, .body = "busy"});
  s.server.enqueue({.status = 429, .headers = {{"Retry-After", "1"}}});
  s.server.enqueue({.status = 502});
  const auto start = std::chrono::steady_clock::now();
  collecting_sink sink;
  const auto o = get(client, io, "/x", sink);
  CHECK(o.ok());
  CHECK(s.server.request_count() == 4);
  CHECK(std::chrono::steady_clock::now() - start >= 1s);  // the Retry-After was waited for
  // Four failures in a row: the fourth surfaces, four attempts in all.
  for (int i = 0; i < 4; ++i) s.server.enqueue({.status = 503, .body = "busy"});
  CHECK(error_as<massive::api_error>(get(client, io, "/y", sink)).status() == 503);
  CHECK(s.server.request_count() == 8);
}

TEST_CASE_FIXTURE(retry_fixture, "max_attempts = 1 turns retry off") {
  auto client = make({.max_attempts = 1});
  s.server.enqueue({.status = 503});
  collecting_sink sink;
  CHECK(error_as<massive::api_error>(get(client, io, "/x", sink)).status() == 503);
  CHECK(s.server.request_count() == 1);
}

TEST_CASE_FIXTURE(retry_fixture, "Retry-After wins over the backoff") {
  auto client = make(fast);
  s.server.enqueue({.status = 429, .headers = {{"Retry-After", "1"}}});
  s.server.enqueue({.status = 503, .headers = {{"Retry-After", "0"}}});
  collecting_sink sink;
  REQUIRE(get(client, io, "/x", sink).ok());
  CHECK(s.server.request_count() == 3);
  REQUIRE(events.size() == 3);
  CHECK(events[0].retry_in == 1000ms);
  CHECK(events[1].retry_in == 0ms);
}

TEST_CASE_FIXTURE(retry_fixture, "Retry-After beyond max_backoff surfaces at once with retry_after set") {
  auto client = make(fast);
  s.server.enqueue({.status = 429, .headers = {{"Retry-After", "120"}}, .body = R"({"error":"wait"})"});
  collecting_sink sink;
  const auto e = error_as<massive::api_error>(get(client, io, "/x", sink));
  CHECK(e.retry_after() == 120s);
  CHECK(s.server.request_count() == 1);
}

// A Retry-After the policy does not wait for ends the call at once; the error says why, and so
// does the attempt's trace, or it reads as a retry that never came. Seen failing without the
// reason: "CHECK( std::string(e.what()) == expected ) is NOT correct! values: CHECK( HTTP 429:
// wait == HTTP 429: wait; Retry-After 86400 s exceeds retry_policy.max_backoff (8 s): not
// retried )", the same for the trace (traced_errors[0]) and for the 503.
TEST_CASE("Retry-After beyond max_backoff: the error and the trace say why it was not retried") {
  struct scenario {
    int status;
    std::chrono::milliseconds max_backoff;
    std::string reason;
  };
  for (const scenario& c :
       {scenario{429, 8s, "Retry-After 86400 s exceeds retry_policy.max_backoff (8 s): not retried"},
        scenario{503, 2500ms, "Retry-After 3 s exceeds retry_policy.max_backoff (2500 ms): not retried"}}) {
    CAPTURE(c.status);
    trusted_server s;
    asio::io_context io;
    auto opts = client_options(s);
    opts.retry = {.max_attempts = 4, .initial_backoff = 1ms, .max_backoff = c.max_backoff};
    std::vector<std::string> traced_errors;
    opts.trace = [&traced_errors](const massive::trace_event& e) {
      message_log::instance().record(to_string(e));
      traced_errors.emplace_back(e.error);
    };
    massive::detail::http_client client(io.get_executor(), opts);
    const std::string after = c.status == 429 ? "86400" : "3";
    s.server.enqueue({.status = c.status, .headers = {{"Retry-After", after}}, .body = R"({"error":"wait"})"});
    collecting_sink sink;
    const auto e = error_as<massive::api_error>(get(client, io, "/x", sink));
    const std::string expected = "HTTP " + std::to_string(c.status) + ": wait; " + c.reason;
    CHECK(std::string(e.what()) == expected);
    CHECK(e.server_message() == "wait");
    CHECK(e.retry_after() == std::chrono::seconds(std::stoi(after)));
    CHECK(s.server.request_count() == 1);
    REQUIRE(traced_errors.size() == 1);
    CHECK(traced_errors[0] == expected);
  }
}

TEST_CASE_FIXTURE(retry_fixture, "a retry that cannot finish before the deadline is not started") {
  auto policy = fast;
  policy.max_backoff = 5s;
  trusted_server& srv = s;
  auto opts = client_options(srv);
  opts.retry = policy;
  opts.request_timeout = 500ms;
  massive::detail::http_client client(io.get_executor(), opts);
  s.server.enqueue({.status = 503, .headers = {{"Retry-After", "2"}}});
  collecting_sink sink;
  CHECK(error_as<massive::api_error>(get(client, io, "/x", sink)).retry_after() == 2s);
  CHECK(s.server.request_count() == 1);
}

TEST_CASE("the rate limiter queues calls at its rate") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.rate_limit = massive::rate_limit_policy{.requests_per_second = 10, .burst = 1};
  massive::detail::http_client client(io.get_executor(), opts);
  // Started together: the first takes the one token, the others reserve the next ones.
  std::vector<collecting_sink> sinks(3);
  std::vector<massive::response_info> infos(3);
  int ok = 0;
  for (int i = 0; i < 3; ++i) {
    client.async_get("/x", sinks[i], [&, i](std::exception_ptr e, massive::response_info info) {
      if (!e) ++ok;
      infos[i] = std::move(info);
    });
  }
  io.run();
  CHECK(ok == 3);
  CHECK(s.server.request_count() == 3);
  std::vector<std::chrono::nanoseconds> waits;
  for (const auto& info : infos) waits.push_back(info.wait_time);
  std::sort(waits.begin(), waits.end());
  // The limiter made two calls wait: one for the second token, one for the third.
  CHECK(waits[1] > std::chrono::nanoseconds::zero());
  CHECK(waits[2] > waits[1]);
}

TEST_CASE("the rate limiter fails fast when asked to") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.rate_limit = massive::rate_limit_policy{.requests_per_second = 0.01, .burst = 2,
                                               .mode = massive::rate_limit_mode::fail_fast};
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink a, b, c;
  CHECK(get(client, io, "/1", a).ok());
  CHECK(get(client, io, "/2", b).ok());
  CHECK(transport_code(get(client, io, "/3", c)) == massive::errc::rate_limited);
  CHECK(s.server.request_count() == 2);
}

TEST_CASE("a queue wait longer than the deadline fails at once with rate_limited") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  opts.request_timeout = 200ms;
  opts.rate_limit = massive::rate_limit_policy{.requests_per_second = 0.01, .burst = 1};
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink a, b;
  CHECK(get(client, io, "/1", a).ok());
  CHECK(transport_code(get(client, io, "/2", b)) == massive::errc::rate_limited);
  CHECK(s.server.request_count() == 1);
}
