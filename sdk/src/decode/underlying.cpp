// Finds results.underlying's members in the raw JSON the decoder kept beside an indicator's
// rows. The text is small (the decoder copied it, bounded by decode_limits::max_element_bytes)
// and read once, on request: On Demand over a padded copy is plenty.
#include "massive/underlying.hpp"

#include <simdjson.h>

#include <utility>

namespace massive::detail {

namespace {

[[noreturn]] void wrong_type(const std::string& path, std::string_view expected) {
  throw decode_error(decode_errc::wrong_type, path, std::nullopt, "expected " + std::string(expected));
}

// A member written twice: parsers disagree on which one counts (the first, the last), so
// neither is shown, as for the envelope's own members.
[[noreturn]] void duplicate(const std::string& path) {
  throw decode_error(decode_errc::invalid_json, path, std::nullopt, "duplicate key: which one counts cannot be told");
}

// The members of results.underlying this SDK reads.
underlying_json read_members(simdjson::ondemand::object& members) {
  underlying_json out;
  bool url_met = false;
  bool aggregates_met = false;
  for (auto member : members) {
    std::string_view key;
    if (member.unescaped_key().get(key)) wrong_type("results.underlying", "an object");
    if (key == "url") {
      if (std::exchange(url_met, true)) duplicate("results.underlying.url");
      std::string_view url;
      if (member.value().get_string().get(url)) wrong_type("results.underlying.url", "a string");
      out.url = url;
    } else if (key == "aggregates") {
      if (std::exchange(aggregates_met, true)) duplicate("results.underlying.aggregates");
      simdjson::ondemand::array rows;
      std::string_view json;
      if (member.value().get_array().get(rows) || rows.raw_json().get(json)) {
        wrong_type("results.underlying.aggregates", "an array");
      }
      out.aggregates = json;
    }
    // Other members are skipped: results_extra_json keeps them for whoever wants them.
  }
  return out;
}

}  // namespace

std::optional<underlying_json> split_underlying(std::string_view results_extra_json) {
  if (results_extra_json.empty()) return std::nullopt;
  const simdjson::padded_string text(results_extra_json);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::object results;
  if (parser.iterate(text).get(doc) || doc.get_object().get(results)) wrong_type("results", "an object");
  std::optional<underlying_json> out;
  for (auto field : results) {
    std::string_view key;
    if (field.unescaped_key().get(key)) wrong_type("results", "an object");
    if (key != "underlying") continue;
    if (out) duplicate("results.underlying");
    simdjson::ondemand::object members;
    if (field.value().get_object().get(members)) wrong_type("results.underlying", "an object");
    out = read_members(members);
  }
  return out;
}

void rethrow_underlying(const decode_error& e) {
  // Its detail is what follows what() without one: "<the same prefix>: <detail>".
  const std::string_view what = e.what();
  const std::size_t prefix = std::string_view(decode_error(e.code(), e.field_path(), e.row(), "").what()).size();
  const std::string detail(what.size() > prefix + 2 ? what.substr(prefix + 2) : std::string_view());
  throw decode_error(e.code(), "results.underlying.aggregates" + e.field_path(), e.row(), detail);
}

}  // namespace massive::detail
