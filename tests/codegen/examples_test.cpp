// Every example body of the description decodes through its operation's generated model with
// values equal to a DOM parse of the example, except the examples listed below, which
// contradict their own schema (each with its reason).
#include "wire_compare.hpp"

#include <massive/error.hpp>
#include <massive/operation_table.hpp>

#include <doctest/doctest.h>
#include <simdjson.h>

#include <map>
#include <string>
#include <vector>

namespace {

/// Examples that contradict their schema: route -> why.
const std::map<std::string, std::string, std::less<>> contradicting_examples = {
    {"/benzinga/v1/analyst-insights",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/analysts",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/bulls-bears-say",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/consensus-ratings/{ticker}",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/earnings",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/firms",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/guidance",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v1/ratings",
     "its request_id is the number 1; the schema declares a string"},
    {"/benzinga/v2/news",
     "its request_id is the number 1; the schema declares a string"},
    {"/crypto/v1/exchanges",
     "its request_id is the number 1; the schema declares a string"},
    {"/etf-global/v1/analytics",
     "its request_id is the number 1; the schema declares a string"},
    {"/etf-global/v1/constituents",
     "its request_id is the number 1; the schema declares a string"},
    {"/etf-global/v1/fund-flows",
     "its request_id is the number 1; the schema declares a string"},
    {"/etf-global/v1/profiles",
     "its request_id is the number 1; the schema declares a string"},
    {"/etf-global/v1/taxonomies",
     "its request_id is the number 1; the schema declares a string"},
    {"/fed/v1/inflation",
     "its request_id is the number 1; the schema declares a string"},
    {"/fed/v1/inflation-expectations",
     "its request_id is the number 1; the schema declares a string"},
    {"/fed/v1/labor-market",
     "its request_id is the number 1; the schema declares a string"},
    {"/fed/v1/treasury-yields",
     "its request_id is the number 1; the schema declares a string"},
    {"/forex/v1/exchanges",
     "its request_id is the number 1; the schema declares a string"},
    {"/futures/v1/exchanges",
     "its request_id is the number 1; the schema declares a string"},
    {"/futures/v1/snapshot",
     "the example's value contradicts the declared type (wrong type at results[0].details.settlement_date (row 0): expected a date string YYYY-MM-DD)"},
    {"/options/v1/exchanges",
     "its request_id is the number 1; the schema declares a string"},
    {"/stocks/taxonomies/vX/risk-factors",
     "the example's value contradicts the declared type (wrong type at results[0].taxonomy (row 0): expected a number)"},
    {"/stocks/v1/dividends",
     "its request_id is the number 1; the schema declares a string"},
    {"/stocks/v1/exchanges",
     "its request_id is the number 1; the schema declares a string"},
    {"/stocks/v1/short-interest",
     "its request_id is the number 1; the schema declares a string"},
    {"/stocks/v1/short-volume",
     "its request_id is the number 1; the schema declares a string"},
    {"/stocks/v1/splits",
     "its request_id is the number 1; the schema declares a string"},
    {"/stocks/vX/float",
     "its request_id is the number 1; the schema declares a string"},
    {"/tmx/v1/corporate-events",
     "its request_id is the number 1; the schema declares a string"},
    {"/v1/historic/crypto/{from}/{to}/{date}",
     "the example's value contradicts the declared type (wrong type at day (row 0): expected a date string YYYY-MM-DD)"},
    {"/v1/historic/forex/{from}/{to}/{date}",
     "the example's value contradicts the declared type (wrong type at msLatency (row 0): expected a number)"},
    {"/v1/open-close/crypto/{from}/{to}/{date}",
     "the example's value contradicts the declared type (wrong type at day (row 0): expected a date string YYYY-MM-DD)"},
    {"/v1/open-close/{indicesTicker}/{date}",
     "the example's value contradicts the declared type (wrong type at from (row 0): expected a date string YYYY-MM-DD)"},
    {"/v1/open-close/{stocksTicker}/{date}",
     "the example's value contradicts the declared type (wrong type at preMarket (row 0): expected an integer, got a fraction)"},
    {"/v1/reference/ipos",
     "the example's value contradicts the declared type (wrong type at results[0].announced_date (row 0): expected a number)"},
    {"/v2/aggs/grouped/locale/global/market/crypto/{date}",
     "its request_id is a copy of the schema object, not a value"},
    {"/v2/aggs/grouped/locale/global/market/fx/{date}",
     "its request_id is a copy of the schema object, not a value"},
    {"/v2/aggs/grouped/locale/us/market/stocks/{date}",
     "its request_id is a copy of the schema object, not a value"},
    {"/v2/snapshot/locale/global/markets/crypto/tickers",
     "the example's value contradicts the declared type (wrong type at tickers[0].lastTrade.i (row 0): expected a string)"},
};

}  // namespace

TEST_CASE("wire truth: every example body of the description decodes like a DOM parse") {
  simdjson::dom::parser parser;
  simdjson::dom::element spec;
  REQUIRE(parser.load(MASSIVE_SPEC).get(spec) == simdjson::SUCCESS);
  std::size_t examples = 0;
  std::vector<std::string> failures;
  std::vector<std::string> listed_but_passing;
  const simdjson::dom::object paths = spec["paths"].get_object().value_unsafe();
  for (auto [path_key, item] : paths) {
    simdjson::dom::element example;
    if (item["get"]["responses"]["200"]["content"]["application/json"]["example"].get(example) != simdjson::SUCCESS) {
      continue;
    }
    ++examples;
    const std::string path(path_key);
    const massive::operation_entry* entry = nullptr;
    for (const massive::operation_entry& e : massive::operation_table()) {
      if (e.path == path) entry = &e;
    }
    REQUIRE(entry != nullptr);
    std::string problem;
    try {
      const auto differences = massive::test::decode_differences(*entry, massive::test::sample_target(*entry),
                                                                 std::string(simdjson::minify(example)));
      for (const std::string& d : differences) problem += (problem.empty() ? "" : "; ") + d;
    } catch (const std::exception& e) {
      problem = e.what();
    }
    const bool listed = contradicting_examples.count(path) != 0;
    if (!problem.empty() && !listed) failures.push_back("GET " + path + ": " + problem);
    if (problem.empty() && listed) listed_but_passing.push_back("GET " + path);
  }
  std::string list;
  for (const std::string& f : failures) list += f + "\n";
  INFO("examples that do not decode like their DOM parse:\n" << list);
  CHECK(failures.empty());
  std::string stale;
  for (const std::string& f : listed_but_passing) stale += f + "\n";
  INFO("listed as contradicting their schema, yet they decode:\n" << stale);
  CHECK(listed_but_passing.empty());
  CHECK(examples == 135);
}
