// Finds results.underlying's members in the raw JSON the decoder kept beside an indicator's
// rows. The text is small (the decoder copied it, bounded by decode_limits::max_element_bytes)
// and read once, on request: On Demand over a padded copy is plenty.
#include "massive/underlying.hpp"

#include <simdjson.h>

namespace massive::detail {

namespace {

[[noreturn]] void wrong_type(const std::string& path, std::string_view expected) {
  throw decode_error(decode_errc::wrong_type, path, std::nullopt, "expected " + std::string(expected));
}

}  // namespace

std::optional<underlying_json> split_underlying(std::string_view results_extra_json) {
  if (results_extra_json.empty()) return std::nullopt;
  const simdjson::padded_string text(results_extra_json);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::object results;
  if (parser.iterate(text).get(doc) || doc.get_object().get(results)) wrong_type("results", "an object");
  simdjson::ondemand::value value;
  const simdjson::error_code found = results.find_field_unordered("underlying").get(value);
  if (found == simdjson::NO_SUCH_FIELD) return std::nullopt;
  simdjson::ondemand::object members;
  if (found || value.get_object().get(members)) wrong_type("results.underlying", "an object");
  underlying_json out;
  for (auto member : members) {
    std::string_view key;
    if (member.unescaped_key().get(key)) wrong_type("results.underlying", "an object");
    if (key == "url") {
      std::string_view url;
      if (member.value().get_string().get(url)) wrong_type("results.underlying.url", "a string");
      out.url = url;
    } else if (key == "aggregates") {
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

void rethrow_underlying(const decode_error& e) {
  // Its detail is what follows what() without one: "<the same prefix>: <detail>".
  const std::string_view what = e.what();
  const std::size_t prefix = std::string_view(decode_error(e.code(), e.field_path(), e.row(), "").what()).size();
  const std::string detail(what.size() > prefix + 2 ? what.substr(prefix + 2) : std::string_view());
  throw decode_error(e.code(), "results.underlying.aggregates" + e.field_path(), e.row(), detail);
}

}  // namespace massive::detail
