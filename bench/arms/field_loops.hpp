// One pass over a row's fields, dispatching on the raw key as sent (no unescaping, no lookup
// of a key the row lacks): the way to decode a row of unknown key order with On Demand, shared
// by the baselines padded_whole (trades) and buffered_reused (both models). Defined here,
// inline, so that each arm's loop compiles into the arm as if written there.
#pragma once

#include "arms.hpp"

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace massive::bench {
namespace field_loop_detail {

enum class trade_key {
  unknown,
  conditions,
  correction,
  decimal_size,
  exchange,
  id,
  participant_timestamp,
  price,
  sequence_number,
  sip_timestamp,
  size,
  tape,
  trf_id,
  trf_timestamp,
};

// `raw` is the key as sent, just past its opening quote; the padding makes reading a few
// bytes past a short key safe. Matching the closing quote too rejects longer keys.
template <std::size_t N>
inline bool is(const char* raw, const char (&key)[N]) {
  return std::memcmp(raw, key, N - 1) == 0 && raw[N - 1] == '"';
}

inline trade_key classify(const char* k) {
  switch (k[0]) {
    case 'c':
      if (is(k, "conditions")) return trade_key::conditions;
      if (is(k, "correction")) return trade_key::correction;
      break;
    case 'd':
      if (is(k, "decimal_size")) return trade_key::decimal_size;
      break;
    case 'e':
      if (is(k, "exchange")) return trade_key::exchange;
      break;
    case 'i':
      if (is(k, "id")) return trade_key::id;
      break;
    case 'p':
      if (is(k, "price")) return trade_key::price;
      if (is(k, "participant_timestamp")) return trade_key::participant_timestamp;
      break;
    case 's':
      if (is(k, "size")) return trade_key::size;
      if (is(k, "sip_timestamp")) return trade_key::sip_timestamp;
      if (is(k, "sequence_number")) return trade_key::sequence_number;
      break;
    case 't':
      if (is(k, "tape")) return trade_key::tape;
      if (is(k, "trf_id")) return trade_key::trf_id;
      if (is(k, "trf_timestamp")) return trade_key::trf_timestamp;
      break;
    default:
      break;
  }
  return trade_key::unknown;
}

inline void store(trade& t, trade_key k, std::int64_t v) {
  switch (k) {
    case trade_key::correction: t.correction = v; break;
    case trade_key::exchange: t.exchange = v; break;
    case trade_key::participant_timestamp: t.participant_timestamp = timestamp_ns::from_count(v); break;
    case trade_key::sequence_number: t.sequence_number = v; break;
    case trade_key::sip_timestamp: t.sip_timestamp = timestamp_ns::from_count(v); break;
    case trade_key::tape: t.tape = static_cast<std::int32_t>(v); break;
    case trade_key::trf_id: t.trf_id = v; break;
    case trade_key::trf_timestamp: t.trf_timestamp = timestamp_ns::from_count(v); break;
    default: break;
  }
}

enum class agg_key { unknown, v, vw, o, c, h, l, t, n, otc };

inline agg_key classify_agg(const char* k) {
  switch (k[0]) {
    case 'v':
      if (k[1] == '"') return agg_key::v;
      if (is(k, "vw")) return agg_key::vw;
      break;
    case 'o':
      if (k[1] == '"') return agg_key::o;
      if (is(k, "otc")) return agg_key::otc;
      break;
    case 'c': if (k[1] == '"') return agg_key::c; break;
    case 'h': if (k[1] == '"') return agg_key::h; break;
    case 'l': if (k[1] == '"') return agg_key::l; break;
    case 't': if (k[1] == '"') return agg_key::t; break;
    case 'n': if (k[1] == '"') return agg_key::n; break;
    default: break;
  }
  return agg_key::unknown;
}

}  // namespace field_loop_detail

/// Decodes the fields of `row` into `a`; unknown keys are skipped.
inline void read_agg_fields(simdjson::ondemand::object row, agg& a) {
  using namespace field_loop_detail;
  for (simdjson::ondemand::field f : row) {
    switch (classify_agg(f.key().raw())) {
      case agg_key::v: a.volume = double(f.value()); break;
      case agg_key::vw: a.vwap = double(f.value()); break;
      case agg_key::o: a.open = double(f.value()); break;
      case agg_key::c: a.close = double(f.value()); break;
      case agg_key::h: a.high = double(f.value()); break;
      case agg_key::l: a.low = double(f.value()); break;
      case agg_key::t: a.timestamp = timestamp_ms::from_count(std::int64_t(f.value())); break;
      case agg_key::n: a.transactions = std::int64_t(f.value()); break;
      case agg_key::otc: a.otc = bool(f.value()); break;
      case agg_key::unknown: break;
    }
  }
}

/// Decodes the fields of `row` into `t`; its id and conditions are copied into `arena`
/// (`conditions` is scratch, reused across rows). Unknown keys are skipped.
inline void read_trade_fields(simdjson::ondemand::object row, trade& t, bump_arena& arena,
                              std::vector<std::int32_t>& conditions) {
  using namespace field_loop_detail;
  for (simdjson::ondemand::field f : row) {
    const trade_key k = classify(f.key().raw());
    switch (k) {
      case trade_key::price:
      case trade_key::size: {
        const double v = double(f.value());
        (k == trade_key::price ? t.price : t.size) = v;
        break;
      }
      case trade_key::id:
      case trade_key::decimal_size: {
        const std::string_view v = f.value().get_string();
        if (k == trade_key::id) {
          t.id = arena.copy(v);
        } else if (!(t.decimal_size = decimal::parse(v))) {
          throw std::runtime_error("field loop: decimal_size");
        }
        break;
      }
      case trade_key::conditions:
        conditions.clear();
        for (std::int64_t c : f.value().get_array()) conditions.push_back(static_cast<std::int32_t>(c));
        t.conditions = arena.copy(std::span<const std::int32_t>(conditions));
        break;
      case trade_key::unknown:
        break;
      default:
        store(t, k, std::int64_t(f.value()));
        break;
    }
  }
}

}  // namespace massive::bench
