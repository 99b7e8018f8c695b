// What a careful user writes who decodes many bodies: one std::string that collects every
// body's chunks (cleared, so its capacity is kept from the largest body so far), simdjson On
// Demand with a long-lived parser, rows into one std::vector reused across bodies, and one
// pass over each row's fields dispatching on the raw key (field_loops.hpp), so that a key a
// row lacks is never looked up. The result is valid until the next call, as padded_whole's.
#include "arms.hpp"
#include "arms/field_loops.hpp"

#include <stdexcept>
#include <string_view>

namespace massive::bench {
namespace {
namespace od = simdjson::ondemand;
}  // namespace

simdjson::padded_string_view buffered_reused_arm::collect(const body& b) {
  text_.clear();
  for (auto c : b.chunks) text_.append(c.data(), c.size());
  const std::size_t length = text_.size();
  text_.resize(length + simdjson::SIMDJSON_PADDING);  // a no-op on capacity once warm
  return simdjson::padded_string_view(text_.data(), length, text_.size());
}

std::span<const agg> buffered_reused_arm::aggs(const body& b) {
  od::document doc = parser_.iterate(collect(b));
  aggs_.clear();
  for (od::object row : doc["results"].get_array()) read_agg_fields(row, aggs_.emplace_back());
  if (std::string_view(doc["status"]) != "OK") throw std::runtime_error("buffered_reused: status");
  return aggs_;
}

std::span<const trade> buffered_reused_arm::trades(const body& b) {
  od::document doc = parser_.iterate(collect(b));
  trades_.clear();
  arena_.clear();
  for (od::object row : doc["results"].get_array()) {
    read_trade_fields(row, trades_.emplace_back(), arena_, conditions_);
  }
  if (std::string_view(doc["status"]) != "OK") throw std::runtime_error("buffered_reused: status");
  return trades_;
}

}  // namespace massive::bench
