// The digest of rows decoded into the SDK's models, shared by every client that fills them.
#pragma once

#include "digest.hpp"

#include <massive/models/agg.hpp>
#include <massive/models/trade.hpp>

#include <cmath>
#include <span>

namespace massive::bench::e2e {

inline void add_rows(digest& d, std::span<const agg> rows) noexcept {
  for (const agg& a : rows) {
    d.add(agg_row(a.volume, a.vwap.value_or(NAN), a.open, a.close, a.high, a.low,
                  a.timestamp.count(), a.transactions.value_or(-1)));
  }
}

inline void add_rows(digest& d, std::span<const trade> rows) noexcept {
  for (const trade& t : rows) {
    auto h = trade_row(t.exchange, t.id, t.participant_timestamp.count(), t.price,
                       t.sequence_number, t.sip_timestamp.count(), t.size, t.tape.value_or(-1));
    d.add(add_conditions(h, t.conditions));
  }
}

}  // namespace massive::bench::e2e
