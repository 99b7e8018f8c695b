// One endpoint, four completion tokens: a coroutine (the default, use_awaitable), a plain
// callback, std::future (use_future) and asio::deferred. Every endpoint of the SDK is an Asio
// asynchronous operation, so the caller picks how to wait for it; the call is the same.
//
// Runs against the embedded mock server (massive::mock), checks that the four answers agree
// row for row, and exits 0 only then.
#include <massive/client.hpp>
#include <massive/mock/market_server.hpp>
#include <massive/stocks.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace asio = boost::asio;
using namespace std::chrono;

namespace {

// Rows are copied out so that the results outlive their pages.
struct result {
  std::string form;
  std::vector<massive::agg> rows;
  std::string failure;
};

result from_page(std::string form, const massive::page<massive::agg>& bars) {
  return {std::move(form), {bars.begin(), bars.end()}, {}};
}

result from_failure(std::string form, const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return {std::move(form), {}, e.what()};
  }
}

bool same_bar(const massive::agg& a, const massive::agg& b) {
  return a.open == b.open && a.high == b.high && a.low == b.low && a.close == b.close &&
         a.volume == b.volume && a.vwap == b.vwap && a.timestamp == b.timestamp &&
         a.transactions == b.transactions && a.otc == b.otc;
}

bool same_rows(const std::vector<massive::agg>& a, const std::vector<massive::agg>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_bar(a[i], b[i])) return false;
  return true;
}

asio::awaitable<massive::page<massive::agg>> with_coroutine(
    massive::client& client, const massive::stocks_aggregates_params& params) {
  massive::page<massive::agg> bars = co_await client.stocks().aggregates(params);
  co_return bars;
}

}  // namespace

int main() try {
  massive::mock::market_server local;
  asio::io_context io;
  massive::client client{io.get_executor(), {.api_key = "completion-tokens-demo-key",
                                             .base_url = local.base_url(),
                                             .tls = {.ca_pem = local.certificate_pem()}}};
  const massive::stocks_aggregates_params params{.ticker = "MSFT",
                                                 .multiplier = 1,
                                                 .timespan = massive::timespan::hour,
                                                 .from = 2024y / March / 4,
                                                 .to = 2024y / March / 8};
  std::vector<result> results;

  // The coroutine, callback and deferred forms run concurrently on this thread's io.run().
  asio::co_spawn(io, with_coroutine(client, params),
                 [&](std::exception_ptr failure, massive::page<massive::agg> bars) {
                   results.push_back(failure ? from_failure("coroutine", failure)
                                             : from_page("coroutine", bars));
                 });

  client.stocks().aggregates(params, [&](std::exception_ptr failure,
                                         massive::page<massive::agg> bars) {
    results.push_back(failure ? from_failure("callback", failure) : from_page("callback", bars));
  });

  auto operation = client.stocks().aggregates(params, asio::deferred);  // nothing sent yet
  std::move(operation)([&](std::exception_ptr failure, massive::page<massive::agg> bars) {
    results.push_back(failure ? from_failure("deferred", failure) : from_page("deferred", bars));
  });

  io.run();

  std::future<massive::page<massive::agg>> pending =
      client.stocks().aggregates(params, asio::use_future);
  io.restart();
  std::thread runner([&io] { io.run(); });  // returns once the call has completed
  runner.join();
  try {
    results.push_back(from_page("future", pending.get()));  // get() rethrows a failure
  } catch (const std::exception&) {
    results.push_back(from_failure("future", std::current_exception()));
  }

  bool agree = results.size() == 4;
  for (const result& r : results) {
    std::printf("%-10s %zu bars%s%s\n", r.form.c_str(), r.rows.size(),
                r.failure.empty() ? "" : ", failed: ", r.failure.c_str());
    agree = agree && r.failure.empty() && !r.rows.empty() && same_rows(r.rows, results[0].rows);
  }
  std::printf(agree ? "all four forms agree\n" : "the forms disagree\n");
  return agree ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "completion_tokens failed: %s\n", e.what());
  return 1;
}
