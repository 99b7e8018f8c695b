#include "wire_compare.hpp"

#include <massive/client.hpp>
#include <massive/mock/server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <stdexcept>

namespace massive::test {

namespace {

namespace asio = boost::asio;

/// The keys of the envelope around the rows: what page_envelope keeps.
constexpr std::string_view envelope_keys[] = {"status", "request_id", "next_url", "ticker", "count",
                                               "queryCount", "resultsCount", "adjusted", "results"};

/// Where a comparison stands: the path it names in differences ("[3].day.c") and the same
/// path with every index as `[]` from the body's root ("results[].day.c"), as the audit
/// names undeclared keys.
struct position {
  std::string path;
  std::string generic;

  position key(std::string_view k) const {
    return {path + "." + std::string(k), generic.empty() ? std::string(k) : generic + "." + std::string(k)};
  }
  position index(std::size_t i) const { return {path + "[" + std::to_string(i) + "]", generic + "[]"}; }
};

/// Compares what the generated writer wrote for one value with the same value as sent.
void compare(simdjson::dom::element written, simdjson::dom::element sent, const position& at,
             const undeclared_keys& allowed, std::vector<std::string>& differences) {
  const std::string& path = at.path;
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
  // The models give an absent array as an empty span, and null is absent (docs/guide/decoding.md).
  if (sent.is_null() && written.is_array() && simdjson::dom::array(written).size() == 0) return;
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
      for (std::size_t i = 0; i < a.size(); ++i) compare(a.at(i), b.at(i), at.index(i), allowed, differences);
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
        compare(value, other, at.key(key), allowed, differences);
      }
      // The other way: every key sent came back, unless null (absent) or accepted undeclared.
      // Seen failing with "vw" misspelt "wv" in agg's generated decoder (both its field loop
      // and its wire-order reader): conformance reported stocks.aggregates "page 1 [0].vw:
      // sent, not decoded", and the one-way comparison had let it pass.
      for (auto [key, value] : simdjson::dom::object(sent)) {
        simdjson::dom::element back;
        if (fields[key].get(back) == simdjson::SUCCESS || value.is_null() || allowed.allows(at.generic, key)) continue;
        differences.push_back(at.key(key).path + ": sent, not decoded");
      }
      break;
    }
    default: break;
  }
}

/// The numbers of `text` (one JSON document) in document order, as their raw tokens.
std::vector<std::string_view> number_tokens(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) i += text[i] == '\\' ? 1 : 0;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t end = text.find_first_of(",]} \t\r\n", i);
      out.push_back(text.substr(i, end - i));
      i = end - 1;
    }
  }
  return out;
}

void dom_numbers(simdjson::dom::element e, std::vector<simdjson::dom::element>& out) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
    case T::ARRAY:
      for (auto x : simdjson::dom::array(e)) dom_numbers(x, out);
      break;
    case T::OBJECT:
      for (auto [key, value] : simdjson::dom::object(e)) dom_numbers(value, out);
      break;
    case T::INT64:
    case T::UINT64:
    case T::DOUBLE: out.push_back(e); break;
    default: break;
  }
}

/// Every number of the body read again by std::from_chars from its own text and compared with
/// simdjson's reading (the DOM's, which the rows were compared with, and the decoder's): an
/// independent reference for the one number parser both sides share.
void cross_check_numbers(std::string_view body, simdjson::dom::element sent, std::vector<std::string>& differences) {
  const std::vector<std::string_view> tokens = number_tokens(body);
  std::vector<simdjson::dom::element> parsed;
  dom_numbers(sent, parsed);
  if (tokens.size() != parsed.size()) {
    differences.push_back("from_chars: " + std::to_string(tokens.size()) + " numbers in the text, " +
                          std::to_string(parsed.size()) + " parsed");
    return;
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view t = tokens[i];
    const char* const end = t.data() + t.size();
    bool same = false;
    if (std::int64_t a = 0, b = 0; parsed[i].get_int64().get(b) == simdjson::SUCCESS) {
      const auto r = std::from_chars(t.data(), end, a);
      same = r.ec == std::errc{} && r.ptr == end && a == b;
    } else if (std::uint64_t c = 0, d = 0; parsed[i].get_uint64().get(d) == simdjson::SUCCESS) {
      const auto r = std::from_chars(t.data(), end, c);
      same = r.ec == std::errc{} && r.ptr == end && c == d;
    } else {
      double x = 0;
      const auto r = std::from_chars(t.data(), end, x);
      same = r.ec == std::errc{} && r.ptr == end && x == double(parsed[i]);
    }
    if (!same) differences.push_back("from_chars: number " + std::to_string(i) + " (" + std::string(t) + ") read differently");
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> audit_rows(std::string_view kind) {
  std::ifstream in(MASSIVE_AUDIT);
  if (!in) throw std::runtime_error("cannot read the evidence audit " MASSIVE_AUDIT);
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string line; std::getline(in, line);) {
    const std::size_t tab = line.find('\t');
    if (line.empty() || line.front() == '#' || line.compare(0, tab, kind) != 0) continue;
    const std::size_t next = line.find('\t', tab + 1);
    out.emplace_back(line.substr(tab + 1, next - tab - 1), line.substr(next + 1));
  }
  return out;
}

bool undeclared_keys::allows(std::string_view path, std::string_view key) const {
  // An injected key, or anything below one (a map keeps an injected key as an entry, whose
  // value then holds keys its model does not declare).
  if (!injected_prefix.empty() &&
      (key.substr(0, injected_prefix.size()) == injected_prefix || path.find(injected_prefix) != std::string_view::npos)) {
    return true;
  }
  const std::string full = path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
  return std::find(paths.begin(), paths.end(), full) != paths.end();
}

undeclared_keys audited_undeclared(const massive::reflection::operation_entry& entry) {
  const std::string prefix = std::string(entry.group) + "." + std::string(entry.name) + ":";
  undeclared_keys out;
  for (const auto& [subject, rest] : audit_rows("undeclared")) {
    if (subject.compare(0, prefix.size(), prefix) == 0) out.paths.push_back(subject.substr(prefix.size()));
  }
  return out;
}

namespace {

/// A ticker as the API spells `market`'s (a group), so that the mock routes a shared route's
/// variants (x-polygon-ignore) to the operation named; a stock's for any other group.
std::string market_ticker(std::string_view market) {
  if (market == "crypto") return "X:BTCUSD";
  if (market == "forex") return "C:EURUSD";
  if (market == "indices") return "I:SPX";
  if (market == "options") return "O:AAPL250117C00150000";
  return "AAPL";
}

}  // namespace

std::string sample_value(const massive::reflection::operation_entry& entry, std::string_view name) {
  if (name == "multiplier") return "1";
  if (name == "timespan") return "day";
  if (name == "from" || name == "date") return "2024-01-02";
  if (name == "to") return "2024-01-12";
  if (name == "direction") return "gainers";
  if (name == "cryptoTicker") return market_ticker("crypto");
  if (name == "fxTicker" || name == "forexTicker") return market_ticker("forex");
  if (name == "indicesTicker") return market_ticker("indices");
  if (name == "optionsTicker" || name == "optionContract") return market_ticker("options");
  if (name == "stocksTicker" || name == "stockTicker" || name == "ticker" || name == "underlyingAsset") return "AAPL";
  // A name the descriptions so far do not give (a regeneration renamed it): by its type, and a
  // ticker by its operation's market.
  using massive::reflection::parameter_type;
  bool earlier_date = false;
  for (const massive::reflection::parameter_info& p : entry.parameters) {
    const bool date = p.type == parameter_type::date || p.type == parameter_type::date_or_ms ||
                      p.type == parameter_type::date_or_ns;
    if (p.wire != name) {
      earlier_date = earlier_date || (date && p.in_path);
      continue;
    }
    if (date) return earlier_date ? "2024-01-12" : "2024-01-02";
    if (p.type == parameter_type::integer) return "1";
    if (p.type == parameter_type::enumeration && !p.values.empty()) return std::string(p.values.front());
    if (name.find("icker") != std::string_view::npos) return market_ticker(entry.group);
  }
  return "X1";
}

std::string sample_target(const massive::reflection::operation_entry& entry, std::string_view limit) {
  std::vector<std::string> values;
  std::vector<std::pair<std::string_view, std::string_view>> args;
  const std::string_view path = entry.path;
  values.reserve(8);
  for (std::size_t at = path.find('{'); at != std::string_view::npos; at = path.find('{', at + 1)) {
    const std::string_view name = path.substr(at + 1, path.find('}', at) - at - 1);
    values.push_back(sample_value(entry, name));
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

std::vector<std::string> decode_differences(const massive::reflection::operation_entry& entry, const std::string& target,
                                            const std::string& body, const undeclared_keys& extra) {
  massive::mock::server server;
  server.respond_with([&](const auto&) { return massive::mock::reply{.body = body}; });
  asio::io_context io;
  massive::client client{io.get_executor(), massive::client_config{.api_key = "k", .base_url = server.base_url(),
                                                             .tls = {.ca_pem = server.certificate_pem()}}};
  std::string written;
  std::size_t rows = 0;
  auto done = asio::co_spawn(io, entry.run(client, target, entry.shape, entry.paginated, {},
                                          [&](const massive::reflection::row_page& p) {
                                            written = std::string(p.rows_json());
                                            rows = p.rows;
                                          }),
                             asio::use_future);
  io.run();
  done.get();
  undeclared_keys allowed = audited_undeclared(entry);
  allowed.paths.insert(allowed.paths.end(), extra.paths.begin(), extra.paths.end());
  allowed.injected_prefix = extra.injected_prefix;
  return row_differences(entry.shape, written, rows, body, allowed);
}

std::vector<std::string> row_differences(payload_shape shape, std::string_view rows_json, std::size_t rows,
                                         const std::string& body, const undeclared_keys& allowed) {
  simdjson::dom::parser sent_parser, written_parser;
  simdjson::dom::element sent, out;
  if (sent_parser.parse(body).get(sent) != simdjson::SUCCESS) throw std::runtime_error("the body is not JSON");
  if (written_parser.parse(rows_json.data(), rows_json.size()).get(out) != simdjson::SUCCESS) {
    throw std::runtime_error("the writer wrote bad JSON");
  }
  std::vector<simdjson::dom::element> sent_rows;
  std::string root;  // where the rows are, as the audit names paths
  switch (shape) {
    case massive::payload_shape::results_array:
      if (simdjson::dom::array list; sent["results"].get(list) == simdjson::SUCCESS) {
        for (auto r : list) sent_rows.push_back(r);
      }
      root = "results[]";
      break;
    case massive::payload_shape::results_object:
      sent_rows.push_back(sent["results"].value_unsafe());
      root = "results";
      break;
    case massive::payload_shape::document: sent_rows.push_back(sent); break;
    case massive::payload_shape::top_level_array: {
      const simdjson::dom::array list = sent.get_array().value_unsafe();
      for (auto r : list) sent_rows.push_back(r);
      root = "[]";
      break;
    }
    case massive::payload_shape::results_values: {
      const simdjson::dom::array list = sent["results"]["values"].get_array().value_unsafe();
      for (auto r : list) sent_rows.push_back(r);
      root = "results.values[]";
      break;
    }
  }
  std::vector<std::string> differences;
  cross_check_numbers(body, sent, differences);
  // Around the rows: every key is one the page's envelope keeps, or accepted undeclared.
  if (shape != massive::payload_shape::document && shape != massive::payload_shape::top_level_array) {
    simdjson::dom::object around;
    if (sent.get_object().get(around) != simdjson::SUCCESS) throw std::runtime_error("the body is not an object");
    for (auto [key, value] : around) {
      const bool kept = std::find(std::begin(envelope_keys), std::end(envelope_keys), key) != std::end(envelope_keys);
      if (!kept && !value.is_null() && !allowed.allows("", key)) differences.push_back(std::string(key) + ": sent, not decoded");
    }
  }
  const simdjson::dom::array written_rows = out;
  if (rows != sent_rows.size() || written_rows.size() != sent_rows.size()) {
    differences.push_back(std::to_string(rows) + " rows decoded, " + std::to_string(sent_rows.size()) + " sent");
    return differences;
  }
  for (std::size_t i = 0; i < rows; ++i) {
    compare(written_rows.at(i), sent_rows[i], {"[" + std::to_string(i) + "]", root}, allowed, differences);
  }
  return differences;
}

}  // namespace massive::test
