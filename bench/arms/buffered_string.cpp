// What a careful user writes without the SDK: collect the chunks into a std::string (no
// reserve: the length is unknown until the body ends), add simdjson's padding, and walk the
// document with a long-lived parser, looking fields up by name in the order the server
// sends them. The optional fields are looked up too, as they must be: a missing `otc` costs
// simdjson one scan of the row's fields. Trades, whose optional fields interleave, are
// walked field by field with a comparison of each unescaped key.
#include "arms.hpp"

#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace massive::bench {
namespace {

namespace od = simdjson::ondemand;

std::string collect(const body& b) {
  std::string text;
  for (auto c : b.chunks) text.append(c.data(), c.size());
  text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  return text;
}

}  // namespace

owned_rows<agg> buffered_string_arm::aggs(const body& b) {
  std::string text = collect(b);
  owned_rows<agg> out;
  od::document doc = parser_.iterate(text);
  for (od::object row : doc["results"].get_array()) {
    agg a;
    a.volume = double(row["v"]);
    if (double vw; row["vw"].get_double().get(vw) == simdjson::SUCCESS) a.vwap = vw;
    a.open = double(row["o"]);
    a.close = double(row["c"]);
    a.high = double(row["h"]);
    a.low = double(row["l"]);
    a.timestamp = timestamp_ms::from_count(std::int64_t(row["t"]));
    if (std::int64_t n; row["n"].get_int64().get(n) == simdjson::SUCCESS) a.transactions = n;
    if (bool otc; row["otc"].get_bool().get(otc) == simdjson::SUCCESS) a.otc = otc;
    out.rows.push_back(a);
  }
  if (std::string_view(doc["status"]) != "OK") throw std::runtime_error("buffered_string: status");
  return out;
}

owned_rows<trade> buffered_string_arm::trades(const body& b) {
  std::string text = collect(b);
  owned_rows<trade> out;
  std::vector<std::int32_t> conditions;
  od::document doc = parser_.iterate(text);
  for (od::object row : doc["results"].get_array()) {
    trade t;
    for (auto field : row) {
      const std::string_view key = field.unescaped_key();
      od::value value = field.value();
      if (key == "conditions") {
        conditions.clear();
        for (std::int64_t c : value.get_array()) conditions.push_back(static_cast<std::int32_t>(c));
        t.conditions = out.arena.copy(std::span<const std::int32_t>(conditions));
      } else if (key == "correction") {
        t.correction = std::int64_t(value);
      } else if (key == "decimal_size") {
        t.decimal_size = decimal::parse(std::string_view(value));
        if (!t.decimal_size) throw std::runtime_error("buffered_string: decimal_size");
      } else if (key == "exchange") {
        t.exchange = std::int64_t(value);
      } else if (key == "id") {
        t.id = out.arena.copy(std::string_view(value));
      } else if (key == "participant_timestamp") {
        t.participant_timestamp = timestamp_ns::from_count(std::int64_t(value));
      } else if (key == "price") {
        t.price = double(value);
      } else if (key == "sequence_number") {
        t.sequence_number = std::int64_t(value);
      } else if (key == "sip_timestamp") {
        t.sip_timestamp = timestamp_ns::from_count(std::int64_t(value));
      } else if (key == "size") {
        t.size = double(value);
      } else if (key == "tape") {
        t.tape = static_cast<std::int32_t>(std::int64_t(value));
      } else if (key == "trf_id") {
        t.trf_id = std::int64_t(value);
      } else if (key == "trf_timestamp") {
        t.trf_timestamp = timestamp_ns::from_count(std::int64_t(value));
      }
    }
    out.rows.push_back(t);
  }
  if (std::string_view(doc["status"]) != "OK") throw std::runtime_error("buffered_string: status");
  return out;
}

}  // namespace massive::bench
