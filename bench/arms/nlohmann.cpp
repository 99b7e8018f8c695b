// What most C++ users write: parse the buffered body into a nlohmann::json tree, then copy
// the fields into the structs.
#include "arms.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace massive::bench {
namespace {

std::string collect(const body& b) {
  std::string text;
  for (auto c : b.chunks) text.append(c.data(), c.size());
  return text;
}

}  // namespace

owned_rows<agg> nlohmann_arm::aggs(const body& b) {
  const auto doc = nlohmann::json::parse(collect(b));
  if (doc.at("status").get<std::string>() != "OK") throw std::runtime_error("nlohmann: status");
  owned_rows<agg> out;
  for (const auto& row : doc.at("results")) {
    agg a;
    a.volume = row.at("v").get<double>();
    if (auto vw = row.find("vw"); vw != row.end()) a.vwap = vw->get<double>();
    a.open = row.at("o").get<double>();
    a.close = row.at("c").get<double>();
    a.high = row.at("h").get<double>();
    a.low = row.at("l").get<double>();
    a.timestamp = timestamp_ms::from_count(row.at("t").get<std::int64_t>());
    if (auto n = row.find("n"); n != row.end()) a.transactions = n->get<std::int64_t>();
    if (auto otc = row.find("otc"); otc != row.end()) a.otc = otc->get<bool>();
    out.rows.push_back(a);
  }
  return out;
}

owned_rows<trade> nlohmann_arm::trades(const body& b) {
  const auto doc = nlohmann::json::parse(collect(b));
  if (doc.at("status").get<std::string>() != "OK") throw std::runtime_error("nlohmann: status");
  owned_rows<trade> out;
  std::vector<std::int32_t> conditions;
  for (const auto& row : doc.at("results")) {
    trade t;
    t.id = out.arena.copy(row.at("id").get_ref<const std::string&>());
    if (auto c = row.find("conditions"); c != row.end()) {
      conditions.clear();
      for (const auto& code : *c) conditions.push_back(code.get<std::int32_t>());
      t.conditions = out.arena.copy(std::span<const std::int32_t>(conditions));
    }
    t.sip_timestamp = timestamp_ns::from_count(row.at("sip_timestamp").get<std::int64_t>());
    t.participant_timestamp =
        timestamp_ns::from_count(row.at("participant_timestamp").get<std::int64_t>());
    if (auto v = row.find("trf_timestamp"); v != row.end()) {
      t.trf_timestamp = timestamp_ns::from_count(v->get<std::int64_t>());
    }
    t.price = row.at("price").get<double>();
    t.size = row.at("size").get<double>();
    if (auto v = row.find("decimal_size"); v != row.end()) {
      t.decimal_size = decimal::parse(v->get_ref<const std::string&>());
      if (!t.decimal_size) throw std::runtime_error("nlohmann: decimal_size");
    }
    t.exchange = row.at("exchange").get<std::int64_t>();
    t.sequence_number = row.at("sequence_number").get<std::int64_t>();
    if (auto v = row.find("correction"); v != row.end()) t.correction = v->get<std::int64_t>();
    if (auto v = row.find("trf_id"); v != row.end()) t.trf_id = v->get<std::int64_t>();
    if (auto v = row.find("tape"); v != row.end()) t.tape = v->get<std::int32_t>();
    out.rows.push_back(t);
  }
  return out;
}

}  // namespace massive::bench
