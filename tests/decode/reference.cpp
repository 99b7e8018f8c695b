#include "reference.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace massive::test {
namespace {

namespace dom = simdjson::dom;

struct mismatch {
  std::string what;
};

[[noreturn]] void differ(std::size_t row, const std::string& field, const std::string& detail = {}) {
  throw mismatch{"row " + std::to_string(row) + " field " + field + (detail.empty() ? "" : ": " + detail)};
}

std::optional<dom::element> member(dom::object o, std::string_view key) {
  dom::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) return std::nullopt;
  return e;
}

double as_double(dom::element e, std::size_t row, const std::string& key) {
  double d = 0;
  if (e.get_double().get(d) != simdjson::SUCCESS) differ(row, key, "not a number in the DOM");
  return d;
}

// The DOM's view of an integer field: an int64, or an integral double within 2^53.
std::int64_t as_integer(dom::element e, std::size_t row, const std::string& key) {
  std::int64_t i = 0;
  if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
  const double d = as_double(e, row, key);
  if (std::trunc(d) != d || std::fabs(d) > 9007199254740992.0) differ(row, key, "not an exact integer");
  return static_cast<std::int64_t>(d);
}

std::vector<std::int32_t> as_int_array(dom::element e, std::size_t row, const std::string& key) {
  std::vector<std::int32_t> out;
  for (dom::element x : dom::array(e)) out.push_back(static_cast<std::int32_t>(as_integer(x, row, key)));
  return out;
}

void expect_double(const std::optional<dom::element>& e, std::optional<double> got, std::size_t row, const char* key) {
  if (e.has_value() != got.has_value()) differ(row, key, "presence");
  // Bitwise: both front ends must round to the same double.
  if (e && as_double(*e, row, key) != *got) differ(row, key);
}
void expect_integer(const std::optional<dom::element>& e, std::optional<std::int64_t> got, std::size_t row,
                    const char* key) {
  if (e.has_value() != got.has_value()) differ(row, key, "presence");
  if (e && as_integer(*e, row, key) != *got) differ(row, key);
}
void expect_ints(const std::optional<dom::element>& e, std::span<const std::int32_t> got, std::size_t row,
                 const char* key) {
  const std::vector<std::int32_t> want = e ? as_int_array(*e, row, key) : std::vector<std::int32_t>{};
  if (!std::equal(want.begin(), want.end(), got.begin(), got.end())) differ(row, key);
}
template <class D>
std::optional<std::int64_t> count_of(const std::optional<unix_time<D>>& t) {
  return t ? std::optional<std::int64_t>(t->count()) : std::nullopt;
}

void check(dom::object o, const agg& r, std::size_t row) {
  expect_double(member(o, "o"), r.open, row, "o");
  expect_double(member(o, "h"), r.high, row, "h");
  expect_double(member(o, "l"), r.low, row, "l");
  expect_double(member(o, "c"), r.close, row, "c");
  expect_double(member(o, "v"), r.volume, row, "v");
  expect_double(member(o, "vw"), r.vwap, row, "vw");
  expect_integer(member(o, "t"), r.timestamp.count(), row, "t");
  expect_integer(member(o, "n"), r.transactions, row, "n");
  const auto otc = member(o, "otc");
  if ((otc && bool(*otc)) != r.otc) differ(row, "otc");
}

void check(dom::object o, const trade& r, std::size_t row) {
  const auto id = member(o, "id");
  if (!id || std::string_view(*id) != r.id) differ(row, "id");
  expect_ints(member(o, "conditions"), r.conditions, row, "conditions");
  expect_integer(member(o, "correction"), r.correction, row, "correction");
  // A field of the newer descriptions: an older one's trade has no member for it, and its key in
  // a body is then one the model does not declare.
  [&](const auto& newer) {
    if constexpr (requires { newer.decimal_size; }) {
      const auto decimal_size = member(o, "decimal_size");
      if (decimal_size.has_value() != newer.decimal_size.has_value()) differ(row, "decimal_size", "presence");
      // A decimal string must print back exactly as sent; a number must be the same value.
      if (decimal_size && decimal_size->is_string() &&
          std::string_view(*decimal_size) != newer.decimal_size->to_string()) {
        differ(row, "decimal_size");
      }
      if (decimal_size && !decimal_size->is_string() &&
          as_double(*decimal_size, row, "decimal_size") != newer.decimal_size->to_double()) {
        differ(row, "decimal_size");
      }
    }
  }(r);
  expect_integer(member(o, "exchange"), r.exchange, row, "exchange");
  expect_integer(member(o, "participant_timestamp"), r.participant_timestamp.count(), row, "participant_timestamp");
  expect_double(member(o, "price"), r.price, row, "price");
  expect_integer(member(o, "sequence_number"), r.sequence_number, row, "sequence_number");
  expect_integer(member(o, "sip_timestamp"), r.sip_timestamp.count(), row, "sip_timestamp");
  expect_double(member(o, "size"), r.size, row, "size");
  expect_integer(member(o, "tape"), r.tape ? std::optional<std::int64_t>(*r.tape) : std::nullopt, row, "tape");
  expect_integer(member(o, "trf_id"), r.trf_id, row, "trf_id");
  expect_integer(member(o, "trf_timestamp"), count_of(r.trf_timestamp), row, "trf_timestamp");
}

void check(dom::object o, const quote& r, std::size_t row) {
  expect_integer(member(o, "ask_exchange"), r.ask_exchange, row, "ask_exchange");
  expect_double(member(o, "ask_price"), r.ask_price, row, "ask_price");
  expect_double(member(o, "ask_size"), r.ask_size, row, "ask_size");
  expect_integer(member(o, "bid_exchange"), r.bid_exchange, row, "bid_exchange");
  expect_double(member(o, "bid_price"), r.bid_price, row, "bid_price");
  expect_double(member(o, "bid_size"), r.bid_size, row, "bid_size");
  expect_ints(member(o, "conditions"), r.conditions, row, "conditions");
  expect_ints(member(o, "indicators"), r.indicators, row, "indicators");
  expect_integer(member(o, "participant_timestamp"), r.participant_timestamp.count(), row, "participant_timestamp");
  expect_integer(member(o, "sequence_number"), r.sequence_number, row, "sequence_number");
  expect_integer(member(o, "sip_timestamp"), r.sip_timestamp.count(), row, "sip_timestamp");
  expect_integer(member(o, "tape"), r.tape ? std::optional<std::int64_t>(*r.tape) : std::nullopt, row, "tape");
  expect_integer(member(o, "trf_timestamp"), count_of(r.trf_timestamp), row, "trf_timestamp");
}

void check_envelope(dom::object doc, const page_envelope& env) {
  const auto text = [&](const char* key, std::string_view got) {
    const auto e = member(doc, key);
    if ((e ? std::string_view(*e) : std::string_view{}) != got) throw mismatch{std::string("envelope ") + key};
  };
  text("status", env.status);
  text("request_id", env.request_id);
  text("next_url", env.next_url);
  text("ticker", env.ticker);
  const auto integer = [&](const char* key, std::optional<std::int64_t> got) {
    const auto e = member(doc, key);
    if (e.has_value() != got.has_value() || (e && as_integer(*e, 0, key) != *got)) {
      throw mismatch{std::string("envelope ") + key};
    }
  };
  integer("count", env.count);
  integer("queryCount", env.query_count);
  integer("resultsCount", env.results_count);
  const auto adjusted = member(doc, "adjusted");
  if (adjusted.has_value() != env.adjusted.has_value() || (adjusted && bool(*adjusted) != *env.adjusted)) {
    throw mismatch{"envelope adjusted"};
  }
}

template <class T>
std::string diff(std::string_view body, const page<T>& p, payload_shape shape) {
  dom::parser parser;
  dom::element doc;
  if (auto e = parser.parse(simdjson::padded_string(body)).get(doc)) {
    return std::string("DOM parse failed: ") + simdjson::error_message(e);
  }
  try {
    std::vector<dom::element> rows;
    switch (shape) {
      case payload_shape::results_array:
        if (auto r = member(dom::object(doc), "results")) {
          for (dom::element e : dom::array(*r)) rows.push_back(e);
        }
        check_envelope(dom::object(doc), p.envelope());
        break;
      case payload_shape::results_object:
        if (auto r = member(dom::object(doc), "results")) rows.push_back(*r);
        check_envelope(dom::object(doc), p.envelope());
        break;
      case payload_shape::document: rows.push_back(doc); break;
      case payload_shape::top_level_array:
        for (dom::element e : dom::array(doc)) rows.push_back(e);
        break;
      case payload_shape::results_values:
        if (auto r = member(dom::object(doc), "results")) {
          if (auto v = member(dom::object(*r), "values")) {
            for (dom::element e : dom::array(*v)) rows.push_back(e);
          }
        }
        check_envelope(dom::object(doc), p.envelope());
        break;
    }
    if (rows.size() != p.size()) {
      return "row count: DOM " + std::to_string(rows.size()) + ", decoder " + std::to_string(p.size());
    }
    for (std::size_t i = 0; i < rows.size(); ++i) check(dom::object(rows[i]), p[i], i);
  } catch (const mismatch& m) {
    return m.what;
  } catch (const simdjson::simdjson_error& e) {
    return std::string("DOM access failed: ") + e.what();
  }
  return {};
}

template <class T>
bool same_optional(const std::optional<T>& a, const std::optional<T>& b) {
  return a.has_value() == b.has_value() && (!a || *a == *b);
}

bool same_ints(std::span<const std::int32_t> a, std::span<const std::int32_t> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace

std::string dom_diff(std::string_view body, const page<agg>& p, payload_shape shape) { return diff(body, p, shape); }
std::string dom_diff(std::string_view body, const page<trade>& p, payload_shape shape) { return diff(body, p, shape); }
std::string dom_diff(std::string_view body, const page<quote>& p, payload_shape shape) { return diff(body, p, shape); }

bool same_row(const agg& a, const agg& b) {
  return a.open == b.open && a.high == b.high && a.low == b.low && a.close == b.close && a.volume == b.volume &&
         same_optional(a.vwap, b.vwap) && a.timestamp == b.timestamp && same_optional(a.transactions, b.transactions) &&
         a.otc == b.otc;
}

/// Whether two trades have the same decimal_size, written out alike; true where the description
/// gave trades no such field (an older one).
template <class Trade>
bool same_decimal_size(const Trade& a, const Trade& b) {
  if constexpr (requires { a.decimal_size; }) {
    return same_optional(a.decimal_size, b.decimal_size) &&
           (!a.decimal_size || a.decimal_size->to_string() == b.decimal_size->to_string());
  } else {
    return true;
  }
}

bool same_row(const trade& a, const trade& b) {
  return a.id == b.id && same_ints(a.conditions, b.conditions) && a.sip_timestamp == b.sip_timestamp &&
         a.participant_timestamp == b.participant_timestamp && same_optional(a.trf_timestamp, b.trf_timestamp) &&
         a.price == b.price && a.size == b.size && same_decimal_size(a, b) && a.exchange == b.exchange &&
         a.sequence_number == b.sequence_number && same_optional(a.correction, b.correction) &&
         same_optional(a.trf_id, b.trf_id) && same_optional(a.tape, b.tape);
}

bool same_row(const quote& a, const quote& b) {
  return same_ints(a.conditions, b.conditions) && same_ints(a.indicators, b.indicators) &&
         a.sip_timestamp == b.sip_timestamp && a.participant_timestamp == b.participant_timestamp &&
         same_optional(a.trf_timestamp, b.trf_timestamp) && a.sequence_number == b.sequence_number &&
         same_optional(a.ask_price, b.ask_price) && same_optional(a.ask_size, b.ask_size) &&
         same_optional(a.bid_price, b.bid_price) && same_optional(a.bid_size, b.bid_size) &&
         same_optional(a.ask_exchange, b.ask_exchange) && same_optional(a.bid_exchange, b.bid_exchange) &&
         same_optional(a.tape, b.tape);
}

bool same_envelope(const page_envelope& a, const page_envelope& b) {
  return a.status == b.status && a.request_id == b.request_id && a.next_url == b.next_url && a.ticker == b.ticker &&
         a.count == b.count && a.query_count == b.query_count && a.results_count == b.results_count &&
         a.adjusted == b.adjusted && a.results_extra_json == b.results_extra_json;
}

}  // namespace massive::test
