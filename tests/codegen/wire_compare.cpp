#include "wire_compare.hpp"

#include <massive/client.hpp>
#include <massive/mock/server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <simdjson.h>

#include <stdexcept>

namespace massive::test {

namespace {

namespace asio = boost::asio;

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

std::string sample_value(std::string_view name) {
  if (name == "multiplier") return "1";
  if (name == "timespan") return "day";
  if (name == "from" || name == "date") return "2024-01-02";
  if (name == "to") return "2024-01-12";
  if (name == "direction") return "gainers";
  // Tickers as the API spells each market's, so that the mock routes a shared route's
  // variants (x-polygon-ignore) to the operation named.
  if (name == "cryptoTicker") return "X:BTCUSD";
  if (name == "fxTicker" || name == "forexTicker") return "C:EURUSD";
  if (name == "indicesTicker") return "I:SPX";
  if (name == "optionsTicker" || name == "optionContract") return "O:AAPL250117C00150000";
  if (name == "stocksTicker" || name == "stockTicker" || name == "ticker" || name == "underlyingAsset") return "AAPL";
  return "X1";
}

std::string sample_target(const operation_entry& entry, std::string_view limit) {
  std::vector<std::string> values;
  std::vector<std::pair<std::string_view, std::string_view>> args;
  const std::string_view path = entry.path;
  values.reserve(8);
  for (std::size_t at = path.find('{'); at != std::string_view::npos; at = path.find('{', at + 1)) {
    const std::string_view name = path.substr(at + 1, path.find('}', at) - at - 1);
    values.push_back(sample_value(name));
    args.emplace_back(name, values.back());
  }
  if (!limit.empty()) {
    args.emplace_back("limit", limit);
    try {
      return entry.target(args);
    } catch (const std::invalid_argument&) {  // the operation takes no limit
      args.pop_back();
    }
  }
  return entry.target(args);
}

std::vector<std::string> decode_differences(const operation_entry& entry, const std::string& target,
                                            const std::string& body) {
  massive::mock::server server;
  server.respond_with([&](const auto&) { return massive::mock::reply{.body = body}; });
  asio::io_context io;
  massive::client client{io.get_executor(), massive::options{.api_key = "k", .base_url = server.base_url(),
                                                             .ca_pem = server.certificate_pem()}};
  std::string written;
  std::size_t rows = 0;
  auto done = asio::co_spawn(io, entry.run(client, target, entry.shape, entry.paginated, {},
                                          [&](const massive::json_page& p) {
                                            written = std::string(p.rows_json);
                                            rows = p.rows;
                                          }),
                             asio::use_future);
  io.run();
  done.get();
  return row_differences(entry.shape, written, rows, body);
}

std::vector<std::string> row_differences(payload_shape shape, std::string_view rows_json, std::size_t rows,
                                         const std::string& body) {
  simdjson::dom::parser sent_parser, written_parser;
  simdjson::dom::element sent, out;
  if (sent_parser.parse(body).get(sent) != simdjson::SUCCESS) throw std::runtime_error("the body is not JSON");
  if (written_parser.parse(rows_json.data(), rows_json.size()).get(out) != simdjson::SUCCESS) {
    throw std::runtime_error("the writer wrote bad JSON");
  }
  std::vector<simdjson::dom::element> sent_rows;
  switch (shape) {
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
  const simdjson::dom::array written_rows = out;
  std::vector<std::string> differences;
  if (rows != sent_rows.size() || written_rows.size() != sent_rows.size()) {
    differences.push_back(std::to_string(rows) + " rows decoded, " + std::to_string(sent_rows.size()) + " sent");
    return differences;
  }
  for (std::size_t i = 0; i < rows; ++i) {
    compare(written_rows.at(i), sent_rows[i], "[" + std::to_string(i) + "]", differences);
  }
  return differences;
}

}  // namespace massive::test
