// The generated operations against the description and the recorded wire: every operation of
// the description is reachable through the generated table (its typed parameters render its
// route), and the generated decoders decode every recorded response with values equal to a
// DOM parse of the same bytes.
#include <massive/client.hpp>
#include <massive/mock/server.hpp>
#include <massive/operation_table.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <doctest/doctest.h>
#include <simdjson.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
using massive::operation_entry;

/// A value a path parameter of this name accepts, and how it appears in the path.
std::string sample_value(std::string_view name) {
  if (name == "multiplier") return "1";
  if (name == "timespan") return "day";
  if (name == "from" || name == "to" || name == "date") return "2024-01-02";
  if (name == "direction") return "gainers";
  return "X1";
}

std::vector<std::string> path_parameters(std::string_view path) {
  std::vector<std::string> out;
  for (std::size_t at = path.find('{'); at != std::string_view::npos; at = path.find('{', at + 1)) {
    out.emplace_back(path.substr(at + 1, path.find('}', at) - at - 1));
  }
  return out;
}

const operation_entry* entry_for_path(std::string_view path) {
  for (const operation_entry& e : massive::operation_table()) {
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
      values.push_back(sample_value(name));
      args.emplace_back(name, values.back());
      expected.replace(expected.find("{" + name + "}"), name.size() + 2, values.back());
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
  CHECK(operations == 142);
  CHECK(massive::operation_table().size() == operations);
}

TEST_CASE("coverage: bad arguments are refused by name") {
  const operation_entry* trades = massive::find_operation("stocks", "trades");
  REQUIRE(trades != nullptr);
  const std::pair<std::string_view, std::string_view> unknown_args[] = {{"stockTicker", "AAPL"}, {"nope", "1"}};
  const massive::argument_list unknown(unknown_args);
  CHECK_THROWS_WITH_AS(trades->target(unknown), doctest::Contains("unknown parameter 'nope'"), std::invalid_argument);
  const std::pair<std::string_view, std::string_view> bad_limit_args[] = {{"stockTicker", "AAPL"}, {"limit", "ten"}};
  const massive::argument_list bad_limit(bad_limit_args);
  CHECK_THROWS_WITH_AS(trades->target(bad_limit), doctest::Contains("'limit'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(trades->target({}), doctest::Contains("missing required parameter 'stockTicker'"),
                       std::invalid_argument);
  const std::pair<std::string_view, std::string_view> range_args[] = {
      {"stockTicker", "AAPL"}, {"timestamp.gte", "2024-01-02"}, {"timestamp.lt", "1704240000000000000"}};
  const massive::argument_list range(range_args);
  CHECK(trades->target(range) == "/v3/trades/AAPL?timestamp.gte=2024-01-02&timestamp.lt=1704240000000000000");
}

namespace {

/// Compares what the generated writer wrote for one value with the same value as sent.
void compare(simdjson::dom::element written, simdjson::dom::element sent, const std::string& path,
             std::vector<std::string>& differences) {
  using T = simdjson::dom::element_type;
  const auto numeric = [](T t) { return t == T::INT64 || t == T::UINT64 || t == T::DOUBLE; };
  if (numeric(written.type()) && numeric(sent.type())) {
    std::int64_t a = 0, b = 0;
    if (written.get_int64().get(a) == simdjson::SUCCESS && sent.get_int64().get(b) == simdjson::SUCCESS) {
      if (a != b) differences.push_back(path + ": " + std::to_string(a) + " != " + std::to_string(b));
      return;
    }
    if (double(written) != double(sent)) differences.push_back(path + ": numbers differ");
    return;
  }
  if (written.type() == T::STRING && numeric(sent.type())) {
    // A decimal is written as its exact text; the wire may send it as a number.
    if (std::string_view(written) != simdjson::minify(sent)) differences.push_back(path + ": decimal text differs");
    return;
  }
  if (written.type() != sent.type()) {
    differences.push_back(path + ": type differs");
    return;
  }
  switch (written.type()) {
    case T::STRING:
      if (std::string_view(written) != std::string_view(sent)) differences.push_back(path + ": strings differ");
      break;
    case T::BOOL:
      if (bool(written) != bool(sent)) differences.push_back(path + ": booleans differ");
      break;
    case T::ARRAY: {
      simdjson::dom::array a = written, b = sent;
      if (a.size() != b.size()) {
        differences.push_back(path + ": array sizes differ");
        break;
      }
      for (std::size_t i = 0; i < a.size(); ++i) compare(a.at(i), b.at(i), path + "[" + std::to_string(i) + "]", differences);
      break;
    }
    case T::OBJECT: {
      const simdjson::dom::object fields = written;
      for (auto [key, value] : fields) {
        simdjson::dom::element other;
        if (sent[key].get(other) != simdjson::SUCCESS) {
          // The models give absent spans as empty and absent=false booleans as false.
          const bool empty_array = value.is_array() && simdjson::dom::array(value).size() == 0;
          const bool plain_false = value.is_bool() && !bool(value);
          if (empty_array || plain_false) continue;
          differences.push_back(path + "." + std::string(key) + ": written but not sent");
          continue;
        }
        compare(value, other, path + "." + std::string(key), differences);
      }
      break;
    }
    default: break;
  }
}

}  // namespace

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
    for (const operation_entry& e : massive::operation_table()) {
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
    massive::mock::server server;
    server.respond_with([&](const auto&) { return massive::mock::reply{.body = body}; });
    asio::io_context io;
    massive::client client{io.get_executor(), massive::options{.api_key = "k", .base_url = server.base_url(),
                                                               .ca_pem = server.certificate_pem()}};
    std::string written;
    std::size_t rows = 0;
    auto done = asio::co_spawn(io, entry->run(client, request, entry->shape, entry->paginated, {},
                                             [&](const massive::json_page& p) {
                                               written = std::string(p.rows_json);
                                               rows = p.rows;
                                             }),
                               asio::use_future);
    io.run();
    REQUIRE_NOTHROW(done.get());
    simdjson::dom::parser sent_parser, written_parser;
    simdjson::dom::element sent, out;
    REQUIRE(sent_parser.parse(body).get(sent) == simdjson::SUCCESS);
    REQUIRE(written_parser.parse(written).get(out) == simdjson::SUCCESS);
    std::vector<simdjson::dom::element> sent_rows;
    switch (entry->shape) {
      case massive::payload_shape::results_array:
        if (simdjson::dom::array list; sent["results"].get(list) == simdjson::SUCCESS) {
          for (auto r : list) sent_rows.push_back(r);
        }
        break;
      case massive::payload_shape::results_object: sent_rows.push_back(sent["results"].value_unsafe()); break;
      case massive::payload_shape::document: sent_rows.push_back(sent); break;
      case massive::payload_shape::top_level_array: {
        const simdjson::dom::array list = sent.get_array().value_unsafe();
        for (auto r : list) sent_rows.push_back(r);
        break;
      }
      case massive::payload_shape::results_values: {
        const simdjson::dom::array list = sent["results"]["values"].get_array().value_unsafe();
        for (auto r : list) sent_rows.push_back(r);
        break;
      }
    }
    simdjson::dom::array written_rows = out;
    REQUIRE(rows == sent_rows.size());
    REQUIRE(written_rows.size() == sent_rows.size());
    std::vector<std::string> differences;
    for (std::size_t i = 0; i < rows; ++i) {
      compare(written_rows.at(i), sent_rows[i], "[" + std::to_string(i) + "]", differences);
    }
    std::string list;
    for (const std::string& d : differences) list += d + "\n";
    INFO("differences:\n" << list);
    CHECK(differences.empty());
    ++samples;
  }
  CHECK(samples == 19);
}
