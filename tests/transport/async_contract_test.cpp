// Completion tokens, cancellation, and several threads.
#include "fixture.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <latch>
#include <thread>

using namespace std::chrono_literals;
namespace asio = boost::asio;
using namespace massive::test;

TEST_CASE("use_awaitable: results and exceptions in a coroutine") {
  trusted_server s;
  s.server.enqueue({.body = R"({"v":1})"});
  s.server.enqueue({.status = 404, .body = R"({"error":"nope"})"});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  int status = 0;
  int error_status = 0;
  collecting_sink a, b;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    const auto info = co_await client.async_get("/ok", a, asio::use_awaitable);
    status = info.status;
    try {
      co_await client.async_get("/missing", b, asio::use_awaitable);
    } catch (const massive::api_error& e) {
      error_status = e.status();
    }
  }, asio::detached);
  io.run();
  CHECK(status == 200);
  CHECK(a.data == R"({"v":1})");
  CHECK(error_status == 404);
}

TEST_CASE("deferred: nothing is sent until the operation is started") {
  trusted_server s;
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  std::string target = "/deferred?x=1";
  auto op = client.async_get(target, sink, asio::deferred);
  target = "/changed";  // the target was copied when the operation was made
  io.run();
  CHECK(s.server.request_count() == 0);
  int status = 0;
  std::move(op)([&](std::exception_ptr e, massive::response_info info) {
    CHECK_FALSE(e);
    status = info.status;
  });
  io.restart();
  io.run();
  CHECK(status == 200);
  REQUIRE(s.server.request_count() == 1);
  CHECK(s.server.requests()[0].target == "/deferred?x=1");
}

TEST_CASE("use_future with the io_context on another thread" * doctest::test_suite("threads")) {
  trusted_server s;
  s.server.enqueue({.body = "[1,2,3]"});
  s.server.enqueue({.status = 500, .body = "oops"});
  asio::io_context io;
  auto guard = asio::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink a, b;
  auto ok = client.async_get("/f", a, asio::use_future);
  CHECK(ok.get().status == 200);
  CHECK(a.data == "[1,2,3]");
  auto bad = client.async_get("/f", b, asio::use_future);
  CHECK_THROWS_AS(bad.get(), massive::api_error);
  guard.reset();
  runner.join();
}

TEST_CASE("terminal cancellation while queued for a connection") {
  trusted_server s;
  s.server.enqueue({.body = "{}", .head_delay = 500ms});
  asio::io_context io;
  auto opts = client_options(s);
  opts.connections_per_origin = 1;
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink first, second;
  std::exception_ptr first_error = std::make_exception_ptr(0), second_error;
  client.async_get("/slow", first, [&](std::exception_ptr e, massive::response_info) { first_error = e; });
  asio::cancellation_signal signal;
  client.async_get("/queued", second, asio::bind_cancellation_slot(signal.slot(), [&](std::exception_ptr e, massive::response_info) {
                     second_error = e;
                   }));
  asio::steady_timer timer(io, 50ms);
  timer.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
  io.run();
  CHECK_FALSE(first_error);
  CHECK(transport_code({second_error, {}}) == massive::errc::cancelled);
  CHECK(s.server.request_count() == 1);
}

TEST_CASE("terminal cancellation while backing off before a retry") {
  trusted_server s;
  s.server.enqueue({.status = 503, .headers = {{"Retry-After", "5"}}});
  asio::io_context io;
  auto opts = client_options(s);
  opts.retry = {.max_attempts = 3, .initial_backoff = 1ms, .max_backoff = 10s};
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink sink;
  asio::cancellation_signal signal;
  std::exception_ptr error;
  client.async_get("/x", sink, asio::bind_cancellation_slot(signal.slot(), [&](std::exception_ptr e, massive::response_info) {
                     error = e;
                   }));
  asio::steady_timer timer(io, 200ms);
  timer.async_wait([&](boost::system::error_code) { signal.emit(asio::cancellation_type::terminal); });
  io.run();  // returns well before the 5 s Retry-After
  CHECK(transport_code({error, {}}) == massive::errc::cancelled);
  CHECK(s.server.request_count() == 1);
}

TEST_CASE("partial or total cancellation alone is ignored") {
  trusted_server s;
  s.server.enqueue({.body = "{}", .head_delay = 100ms});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  asio::cancellation_signal signal;
  std::exception_ptr error = std::make_exception_ptr(0);
  client.async_get("/x", sink, asio::bind_cancellation_slot(signal.slot(), [&](std::exception_ptr e, massive::response_info) {
                     error = e;
                   }));
  asio::steady_timer timer(io, 20ms);
  timer.async_wait([&](boost::system::error_code) {
    signal.emit(asio::cancellation_type::partial | asio::cancellation_type::total);
  });
  io.run();
  CHECK_FALSE(error);
  CHECK(sink.finished);
}

TEST_CASE("cancellation through awaitable operators: a timer beats a stalled call") {
  using namespace asio::experimental::awaitable_operators;
  trusted_server s;
  s.server.enqueue({.body = make_body(1000), .stall_after = 10});
  asio::io_context io;
  massive::detail::http_client client(io.get_executor(), client_options(s));
  collecting_sink sink;
  int winner = -1;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    asio::steady_timer timer(co_await asio::this_coro::executor, 200ms);
    auto result = co_await (client.async_get("/stall", sink, asio::use_awaitable) || timer.async_wait(asio::use_awaitable));
    winner = static_cast<int>(result.index());
  }, asio::detached);
  io.run();
  CHECK(winner == 1);
  CHECK_FALSE(sink.finished);
  collecting_sink next;
  const auto o = get(client, io, "/next", next);
  REQUIRE(o.ok());
  CHECK_FALSE(o.info.reused_connection);
}

TEST_CASE("a thread_pool with several threads: concurrent calls from several threads" * doctest::test_suite("threads")) {
  trusted_server s;
  s.server.respond_with([](const recorded_request& r) {
    return reply{.body = "{\"target\":\"" + r.target + "\"}", .chunks = {7}};
  });
  asio::thread_pool pool(4);
  auto opts = client_options(s);
  opts.connections_per_origin = 3;
  std::atomic<int> traces{0};
  opts.trace = [&traces](const massive::trace_event& e) {
    ++traces;
    message_log::instance().record(to_string(e));
  };
  massive::detail::http_client client(pool.get_executor(), opts);
  constexpr int threads = 4, per_thread = 25;
  std::vector<collecting_sink> sinks(threads * per_thread);
  std::atomic<int> ok{0}, failed{0};
  std::latch done(threads * per_thread);
  std::vector<std::thread> callers;
  for (int t = 0; t < threads; ++t) {
    callers.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        const int n = t * per_thread + i;
        client.async_get("/n/" + std::to_string(n), sinks[n], [&](std::exception_ptr e, massive::response_info) {
          (e ? failed : ok)++;
          done.count_down();
        });
      }
    });
  }
  for (auto& c : callers) c.join();
  done.wait();
  CHECK(ok == threads * per_thread);
  CHECK(failed == 0);
  CHECK(traces == threads * per_thread);
  for (int n = 0; n < threads * per_thread; ++n) {
    CHECK(sinks[n].data == "{\"target\":\"/n/" + std::to_string(n) + "\"}");
  }
  CHECK(s.server.request_count() == threads * per_thread);
  CHECK(s.server.max_concurrent_connections() <= 3);
  CHECK(s.server.connections_accepted() <= 3);
  pool.join();
}

TEST_CASE("a trace hook that throws does not fail the call") {
  trusted_server s;
  asio::io_context io;
  auto opts = client_options(s);
  int calls = 0;
  opts.trace = [&calls](const massive::trace_event&) {
    ++calls;
    throw std::runtime_error("logger down");
  };
  massive::detail::http_client client(io.get_executor(), opts);
  collecting_sink sink;
  CHECK(get(client, io, "/x", sink).ok());
  CHECK(calls == 1);
}
