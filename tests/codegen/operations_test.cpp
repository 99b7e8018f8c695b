// The generated operations against the description and the recorded wire: every operation of
// the description is reachable through the generated table (its typed parameters render its
// route), and the generated decoders decode every recorded response with values equal to a
// DOM parse of the same bytes.
#include "wire_compare.hpp"

#include <massive/mock/api.hpp>
#include <massive/reflection/model_table.hpp>
#include <massive/reflection/operation_table.hpp>

#include <doctest/doctest.h>
#include <simdjson.h>

#include <fstream>
#include <memory>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace {

using massive::reflection::operation_entry;

std::vector<std::string> path_parameters(std::string_view path) {
  std::vector<std::string> out;
  for (std::size_t at = path.find('{'); at != std::string_view::npos; at = path.find('{', at + 1)) {
    out.emplace_back(path.substr(at + 1, path.find('}', at) - at - 1));
  }
  return out;
}

const operation_entry* entry_for_path(std::string_view path) {
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    if (e.path == path) return &e;
  }
  return nullptr;
}

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("coverage: every operation of the description is reachable through the generated table") {
  simdjson::dom::parser parser;
  simdjson::dom::element spec;
  REQUIRE(parser.load(MASSIVE_SPEC).get(spec) == simdjson::SUCCESS);
  std::vector<std::string> unreachable;
  std::size_t operations = 0;
  const simdjson::dom::object paths = spec["paths"].get_object().value_unsafe();
  for (auto [path_key, item] : paths) {
    if (item["get"].error() != simdjson::SUCCESS) continue;
    ++operations;
    const std::string path(path_key);
    const operation_entry* e = entry_for_path(path);
    if (e == nullptr) {
      unreachable.push_back("GET " + path + ": no generated operation");
      continue;
    }
    std::vector<std::string> names = path_parameters(path);
    std::vector<std::string> values;
    std::vector<std::pair<std::string_view, std::string_view>> args;
    values.reserve(names.size());
    std::string expected = path;
    for (const std::string& name : names) {
      values.push_back(massive::test::sample_value(*e, name));
      args.emplace_back(name, values.back());
      // The URI builder percent-encodes the ':' of prefixed tickers (X:BTCUSD) in a segment.
      std::string segment = values.back();
      for (std::size_t colon = segment.find(':'); colon != std::string::npos; colon = segment.find(':', colon)) {
        segment.replace(colon, 1, "%3A");
      }
      expected.replace(expected.find("{" + name + "}"), name.size() + 2, segment);
    }
    try {
      const std::string target = e->target(args);
      if (target.substr(0, target.find('?')) != expected) {
        unreachable.push_back("GET " + path + ": rendered " + target + ", expected " + expected);
      }
    } catch (const std::exception& ex) {
      unreachable.push_back("GET " + path + ": " + ex.what());
    }
  }
  std::string list;
  for (const std::string& u : unreachable) list += u + "\n";
  INFO("unreachable operations:\n" << list);
  CHECK(unreachable.empty());
  // Every operation the description has is in the table (above), and nothing else: the counts are
  // the description's, whichever description generated/ came from.
  CHECK(operations > 0);
  CHECK(massive::reflection::operation_table().size() == operations);
}

TEST_CASE("coverage: bad arguments are refused by name") {
  const operation_entry* trades = massive::reflection::find_operation("stocks", "trades");
  REQUIRE(trades != nullptr);
  const std::pair<std::string_view, std::string_view> unknown_args[] = {{"stockTicker", "AAPL"}, {"nope", "1"}};
  const massive::reflection::argument_list unknown(unknown_args);
  CHECK_THROWS_WITH_AS(trades->target(unknown), doctest::Contains("unknown parameter 'nope'"), std::invalid_argument);
  const std::pair<std::string_view, std::string_view> bad_limit_args[] = {{"stockTicker", "AAPL"}, {"limit", "ten"}};
  const massive::reflection::argument_list bad_limit(bad_limit_args);
  CHECK_THROWS_WITH_AS(trades->target(bad_limit), doctest::Contains("'limit'"), std::invalid_argument);
  // The route's ticker by the description's name (a description may rename it; the former name
  // is taken too, and used above).
  REQUIRE(!trades->parameters.empty());
  const std::string missing = "missing required parameter '" + std::string(trades->parameters[0].wire) + "'";
  CHECK_THROWS_WITH_AS(trades->target({}), doctest::Contains(missing.c_str()), std::invalid_argument);
  const std::pair<std::string_view, std::string_view> range_args[] = {
      {"stockTicker", "AAPL"}, {"timestamp.gte", "2024-01-02"}, {"timestamp.lt", "1704240000000000000"}};
  const massive::reflection::argument_list range(range_args);
  CHECK(trades->target(range) == "/v3/trades/AAPL?timestamp.gte=2024-01-02&timestamp.lt=1704240000000000000");
}

TEST_CASE("a path parameter the description renamed is still taken by its former name") {
  using massive::reflection::parameter_info;
  using massive::reflection::parameter_type;
  using massive::reflection::parameter_filter;
  const parameter_info known[] = {
      {.wire = "ticker", .type = parameter_type::string, .in_path = true, .required = true,
       .filter = parameter_filter::none, .values = {}, .default_value = "", .example = "", .description = "",
       .former = "stockTicker"},
      {.wire = "limit", .type = parameter_type::integer, .in_path = false, .required = false,
       .filter = parameter_filter::none, .values = {}, .default_value = "", .example = "", .description = ""},
  };
  const std::pair<std::string_view, std::string_view> given[] = {{"stockTicker", "AAPL"}, {"limit", "5"}};
  const auto current = massive::reflection::detail::current_names(given, known);
  REQUIRE(current.size() == 2);
  CHECK(current[0] == std::pair<std::string_view, std::string_view>{"ticker", "AAPL"});
  CHECK(current[1] == std::pair<std::string_view, std::string_view>{"limit", "5"});
  CHECK_NOTHROW(massive::reflection::detail::check_arguments(current, known));
  // The current name passes as it is; a name no parameter ever had is still refused.
  const std::pair<std::string_view, std::string_view> now[] = {{"ticker", "AAPL"}};
  CHECK(massive::reflection::detail::current_names(now, known)[0].first == "ticker");
  const std::pair<std::string_view, std::string_view> unknown[] = {{"stockticker", "AAPL"}};
  CHECK_THROWS_WITH_AS(massive::reflection::detail::check_arguments(
                           massive::reflection::detail::current_names(unknown, known), known),
                       doctest::Contains("unknown parameter 'stockticker' (did you mean 'stockTicker'?)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(massive::reflection::detail::check_arguments({}, known),
                       "missing required parameter 'ticker' (formerly stockTicker)", std::invalid_argument);
}

TEST_CASE("decode only: every operation's rows decode through the model table, in any chunking") {
  // The model table is the operations' decoders without the transport (the fuzzer's way in):
  // it must hold exactly the operations' row models (and indicator_bar, the rows of the
  // indicators' results.underlying.aggregates, read with massive::underlying), and decode what the mock API serves for
  // each operation like a DOM parse of those bytes, the same whether the body comes whole or
  // in 7-byte chunks.
  std::set<std::string_view> used, listed;
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) used.insert(e.model);
  used.insert("indicator_bar");
  for (const massive::reflection::model_entry& m : massive::reflection::model_table()) CHECK(listed.insert(m.name).second);
  CHECK(listed == used);

  const massive::mock::api api(massive::mock::api_options{.base_url = "https://api.example", .rows_per_page = 4});
  const auto pool = massive::make_page_pool();
  for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
    INFO("operation " << e.group << "." << e.name << " (model " << e.model << ")");
    const massive::reflection::model_entry* model = massive::reflection::find_model(e.model);
    REQUIRE(model != nullptr);
    const massive::mock::response sent = api.answer(massive::test::sample_target(e, "4"));
    REQUIRE(sent.status == 200);
    const auto decode = [&](std::span<const std::span<const char>> chunks) {
      std::string json;
      std::size_t rows = 0;
      model->decode(pool, chunks, e.shape, {}, [&](const massive::reflection::row_page& p) {
        json = p.rows_json();
        rows = p.rows;
      });
      return std::pair(json, rows);
    };
    const std::span<const char> whole_body(sent.body);
    const auto [whole, rows] = decode(std::span(&whole_body, 1));
    std::vector<std::span<const char>> chunks;
    for (std::size_t at = 0; at < sent.body.size(); at += 7) {
      chunks.push_back(whole_body.subspan(at, std::min<std::size_t>(7, sent.body.size() - at)));
    }
    CHECK(decode(chunks).first == whole);
    CHECK(rows > 0);
    std::string differences;
    for (const std::string& d : massive::test::row_differences(e.shape, whole, rows, sent.body)) {
      differences += d + "\n";
    }
    INFO("differences:\n" << differences);
    CHECK(differences.empty());
  }
}

TEST_CASE("wire truth: the generated decoders decode every recorded response like a DOM parse") {
  const std::string dir = MASSIVE_WIRE_SAMPLES;
  std::ifstream manifest(dir + "/MANIFEST.tsv");
  REQUIRE(manifest);
  std::string line;
  std::getline(manifest, line);  // header
  std::size_t samples = 0;
  while (std::getline(manifest, line)) {
    const std::string file = line.substr(0, line.find('\t'));
    const std::string request = line.substr(line.find('\t') + 1);
    const std::string path = request.substr(0, request.find('?'));
    // The operation whose route matches; among variants of one route, the stocks/reference one.
    const operation_entry* entry = nullptr;
    for (const massive::reflection::operation_entry& e : massive::reflection::operation_table()) {
      std::string_view t = e.path;
      std::string_view p = path;
      bool match = true;
      while (match && !t.empty()) {
        if (t.front() == '{') {
          const std::size_t close = t.find('}');
          const std::size_t slash = p.find('/');
          t.remove_prefix(close + 1);
          p.remove_prefix(slash == std::string_view::npos ? p.size() : slash);
        } else if (!p.empty() && p.front() == t.front()) {
          t.remove_prefix(1), p.remove_prefix(1);
        } else {
          match = false;
        }
      }
      if (!match || !p.empty()) continue;
      if (entry == nullptr || e.group == "stocks" || e.group == "reference") entry = &e;
    }
    INFO("sample " << file << " (" << request << ")");
    REQUIRE(entry != nullptr);
    const std::string body = read_text(dir + "/" + file);
    std::vector<std::string> differences;
    REQUIRE_NOTHROW(differences = massive::test::decode_differences(*entry, request, body));
    std::string list;
    for (const std::string& d : differences) list += d + "\n";
    INFO("differences:\n" << list);
    CHECK(differences.empty());
    ++samples;
  }
  CHECK(samples == 19);
}
