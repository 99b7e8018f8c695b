// The mock API answers every operation of the description: routes matched against the
// catalog's templates, bodies of each operation's shape, limit and next_url chains, errors in
// the API's envelopes, deterministic bytes; and the server around it: gzip, recorded bodies,
// faults asked for by request headers.
#include "mock_bodies.hpp"
#include "wire_compare.hpp"

#include <massive/mock/api.hpp>
#include <massive/mock/api_server.hpp>
#include <massive/reflection/operation_table.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <doctest/doctest.h>
#include <simdjson.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace http = boost::beast::http;
using massive::test::parse;
using massive::test::target_of;
const std::string& base = massive::test::mock_base;

massive::mock::api make_api(massive::mock::api_options options = {}) {
  options.base_url = base;
  return massive::mock::api{std::move(options)};
}

// The rows of a body of `shape`.
std::size_t row_count(simdjson::dom::element doc, massive::payload_shape shape) {
  switch (shape) {
    case massive::payload_shape::results_array: return simdjson::dom::array(doc["results"]).size();
    case massive::payload_shape::top_level_array: return simdjson::dom::array(doc).size();
    case massive::payload_shape::results_values: return simdjson::dom::array(doc["results"]["values"]).size();
    case massive::payload_shape::results_object: return doc["results"].is_object() ? 1 : 0;
    case massive::payload_shape::document: return doc.is_object() ? 1 : 0;
  }
  return 0;
}

// One GET over plain HTTP with extra header fields; the raw response.
http::response<http::string_body> get(const massive::mock::api_server& local, const std::string& target,
                                      const std::vector<std::pair<std::string, std::string>>& fields) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  const std::string url = local.base_url();
  const auto port = static_cast<unsigned short>(std::stoi(url.substr(url.rfind(':') + 1)));
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1");
  for (const auto& [k, v] : fields) request.set(k, v);
  http::write(socket, request);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  boost::system::error_code ec;
  http::read(socket, buffer, response, ec);
  if (ec) response.result(0);  // the connection failed mid-response (an injected reset)
  return response;
}

}  // namespace

TEST_CASE("every operation's route is answered with 200 and a body of its shape") {
  const auto api = make_api();
  simdjson::dom::parser parser;
  REQUIRE(massive::mock::api::operation_count() == massive::reflection::operation_table().size());
  for (const massive::reflection::operation_entry& entry : massive::reflection::operation_table()) {
    const std::string target = massive::test::sample_target(entry);
    INFO(entry.group << "." << entry.name << ": " << target);
    const auto route = api.route(target);
    REQUIRE(route.has_value());
    CHECK(route->group == entry.group);
    CHECK(route->name == entry.name);
    const auto answer = api.answer(target);
    REQUIRE(answer.status == 200);
    const auto doc = parse(parser, answer.body);
    CHECK(row_count(doc, entry.shape) > 0);
    // (The market's aggregates page by limit, 5000 bars by default: one page here.)
    if (entry.paginated && !(entry.group == "stocks" && entry.name == "aggregates")) {
      CHECK(doc["next_url"].error() == simdjson::SUCCESS);
    }
  }
}

TEST_CASE("limit sets the rows per page; the next_url chain has `pages` pages and ends") {
  simdjson::dom::parser parser;
  for (const int pages : {1, 3, 5}) {
    const auto api = make_api({.pages = pages});
    std::string target = "/v3/reference/tickers?limit=7&market=stocks";
    int seen = 0;
    while (!target.empty()) {
      const auto answer = api.answer(target);
      REQUIRE(answer.status == 200);
      const auto doc = parse(parser, answer.body);
      CHECK(simdjson::dom::array(doc["results"]).size() == 7);
      CHECK(int64_t(doc["count"]) == 7);
      ++seen;
      REQUIRE(seen <= pages);
      std::string_view next;
      if (doc["next_url"].get(next) == simdjson::SUCCESS) {
        target = target_of(next);
        CHECK(target.find("limit") == std::string::npos);  // the opaque cursor carries the query
      } else {
        target.clear();
      }
    }
    CHECK(seen == pages);
  }
  // Without a limit, the configured rows per page.
  const auto doc = parse(parser, make_api({.rows_per_page = 2}).answer("/v3/reference/tickers").body);
  CHECK(simdjson::dom::array(doc["results"]).size() == 2);
}

namespace {

/// The group of the operation the mock routes `target` to, "" when it routes it nowhere.
std::string group_of(const massive::mock::api& api, std::string_view target) {
  const auto route = api.route(target);
  return route ? std::string(route->group) : std::string();
}

}  // namespace

TEST_CASE("values are typed and plausible") {
  simdjson::dom::parser parser;
  const auto api = make_api();
  // A crypto trade (the x-polygon-ignore variant of /v3/trades, chosen by the X: prefix), where
  // the description has the variants (the JVM client's copy drops them).
  if (massive::reflection::find_operation("crypto", "trades") != nullptr) {
    CHECK(group_of(api, "/v3/trades/X:BTCUSD") == "crypto");
    CHECK(group_of(api, "/v3/trades/O:AAPL250117C00150000") == "options");
  }
  REQUIRE(group_of(api, "/v3/trades/AAPL") == "stocks");
  const auto doc = parse(parser, api.answer("/v3/reference/tickers/AAPL").body);
  CHECK(std::string_view(doc["results"]["ticker"]) == "AAPL");  // the path's ticker
  // A list's tickers are symbols (not the route's "tickers" segment); dates are ISO dates.
  const auto list = parse(parser, api.answer("/v3/reference/tickers?limit=5").body);
  for (auto row : simdjson::dom::array(list["results"])) {
    const std::string_view ticker = row["ticker"];
    CHECK(!ticker.empty());
    CHECK(ticker.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string_view::npos);
    const std::string_view updated = row["last_updated_utc"];
    CHECK(updated.size() == 20);  // 2024-01-12T15:10:00Z
    CHECK(updated.back() == 'Z');
  }
  const auto trades = parse(parser, api.answer("/v3/trades/X:BTCUSD?limit=3").body);
  for (auto trade : simdjson::dom::array(trades["results"])) {
    const double price = trade["price"];
    CHECK(price > 0);
    CHECK(price * 100 == doctest::Approx(double(std::int64_t(price * 100 + 0.5))));  // cents
    const std::int64_t ns = trade["participant_timestamp"];
    CHECK(ns >= 1705069800000000000);  // 2024-01-12 14:30 UTC ...
    CHECK(ns < 1705093200000000000);   // ... to 21:00
  }
}

TEST_CASE("every market's custom bars: their number follows the range and the timespan") {
  simdjson::dom::parser parser;
  const auto api = make_api();
  for (const std::string ticker : {"AAPL", "O:AAPL250117C00150000", "X:BTCUSD", "C:EURUSD", "I:SPX"}) {
    INFO(ticker);
    const std::string range = "/v2/aggs/ticker/" + ticker + "/range/";
    // January 2024 has 23 weekdays; its first week 5; the mock's bars exist on weekdays.
    const auto month = parse(parser, api.answer(range + "1/day/2024-01-01/2024-01-31").body);
    CHECK(simdjson::dom::array(month["results"]).size() == 23);
    const auto week = parse(parser, api.answer(range + "1/day/2024-01-01/2024-01-07").body);
    CHECK(simdjson::dom::array(week["results"]).size() == 5);
    const auto weekly = parse(parser, api.answer(range + "1/week/2024-01-01/2024-01-31").body);
    CHECK(simdjson::dom::array(weekly["results"]).size() == 5);  // Mondays 1, 8, 15, 22, 29
  }
}

TEST_CASE("the same request gets the same bytes; another seed other bytes") {
  const auto a = make_api();
  const std::string target = "/v3/reference/tickers?limit=5";
  CHECK(a.answer(target).body == a.answer(target).body);
  CHECK(make_api().answer(target).body == a.answer(target).body);
  CHECK(make_api({.seed = 7}).answer(target).body != a.answer(target).body);
  CHECK(a.answer("/v3/reference/tickers?limit=5").body != a.answer("/v3/reference/tickers?limit=6").body);
}

TEST_CASE("errors come in the API's envelopes") {
  simdjson::dom::parser parser;
  const auto api = make_api();
  const auto missing = api.answer("/v9/nothing/here");
  CHECK(missing.status == 404);
  const auto doc = parse(parser, missing.body);
  CHECK(std::string_view(doc["status"]) == "NOT_FOUND");
  CHECK(std::string_view(doc["request_id"]).size() == 32);
  CHECK(std::string_view(doc["message"]).size() > 0);
  CHECK_FALSE(api.route("/v9/nothing/here").has_value());
  CHECK(api.answer("/v3/reference/tickers?limit=0").status == 400);
  CHECK(api.answer("/v3/reference/tickers?cursor=%%%").status == 400);
  // The market's own routes keep their behaviour (and their 400s).
  CHECK(api.answer("/v2/aggs/ticker/AAPL/range/1/fortnight/2024-01-02/2024-01-12").status == 400);
  CHECK_THROWS_AS(make_api({.pages = 0}), std::invalid_argument);
}

TEST_CASE("the server gzips on request and records the body it sent") {
  massive::mock::api_server local{{}, {.tls = false}};
  const auto plain = get(local, "/v3/reference/exchanges", {});
  const auto zipped = get(local, "/v3/reference/exchanges", {{"Accept-Encoding", "gzip"}});
  REQUIRE(plain.result_int() == 200);
  REQUIRE(zipped.result_int() == 200);
  CHECK(plain[http::field::content_encoding] == "");
  CHECK(zipped[http::field::content_encoding] == "gzip");
  REQUIRE(zipped.body().size() > 2);
  CHECK(static_cast<unsigned char>(zipped.body()[0]) == 0x1f);
  const auto requests = local.server().requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].response_status == 200);
  CHECK(requests[0].response_body == plain.body());
  CHECK(requests[1].response_body == plain.body());  // before gzip
}

TEST_CASE("faults asked for by request headers") {
  massive::mock::api_server local{{}, {.tls = false}};
  simdjson::dom::parser parser;
  const auto unavailable = get(local, "/v3/reference/tickers", {{"X-Mock-Status", "503"}, {"X-Mock-Retry-After", "2"}});
  CHECK(unavailable.result_int() == 503);
  CHECK(unavailable[http::field::retry_after] == "2");
  CHECK(std::string_view(parse(parser, unavailable.body())["status"]) == "ERROR");

  const auto missing = get(local, "/v3/reference/tickers", {{"X-Mock-Status", "404"}});
  CHECK(missing.result_int() == 404);
  CHECK(std::string_view(parse(parser, missing.body())["status"]) == "NOT_FOUND");

  const auto start = std::chrono::steady_clock::now();
  const auto delayed = get(local, "/v3/reference/tickers", {{"X-Mock-Delay-Ms", "50"}});
  CHECK(delayed.result_int() == 200);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(50));  // a lower bound only

  const auto reset = get(local, "/v3/reference/tickers", {{"X-Mock-Reset-After", "100"}});
  CHECK(reset.result_int() == 0);  // the body never completed
  CHECK(local.server().requests().back().response_body.size() > 100);

  // Faults scripted through the API go first.
  local.server().enqueue({.status = 429, .headers = {{"Retry-After", "1"}}, .body = "{}"});
  CHECK(get(local, "/v3/reference/tickers", {}).result_int() == 429);
  CHECK(get(local, "/v3/reference/tickers", {}).result_int() == 200);
}
