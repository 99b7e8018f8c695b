// Every field of a flat-file row as text, absent ones as "-", for comparing decodes (the suite's
// splits, the fuzz target's chunked and whole decodes).
#pragma once

#include <cstdint>
#include <massive/files/rows.hpp>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

namespace massive::files::test {

class row_text {
 public:
  row_text() { out_.precision(17); }

  template <class T>
  row_text& operator<<(const T& v) {
    out_ << v << '|';
    return *this;
  }
  row_text& operator<<(timestamp_ns t) { return *this << t.count(); }
  row_text& operator<<(std::span<const std::int32_t> list) {
    for (const std::int32_t c : list) out_ << c << ';';
    out_ << '|';
    return *this;
  }
  template <class T>
  row_text& operator<<(const std::optional<T>& v) {
    if (v) return *this << *v;
    out_ << "-|";
    return *this;
  }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

/// A row of a tick dataset (a REST model with its ticker): the ticker, then every column flat
/// files carry that the row's model has a member for, in alphabetical order. A column an older
/// description gave the model no member for (sequence_number of its options_trade) is not shown:
/// the decoder has nowhere to put it.
template <class Row>
  requires requires { typename Row::model_type; }
std::string text_of(const Row& r) {
  row_text t;
  t << r.ticker;
  // clang-format off
  if constexpr (requires { r.ask_exchange; }) t << r.ask_exchange;
  if constexpr (requires { r.ask_price; }) t << r.ask_price;
  if constexpr (requires { r.ask_size; }) t << r.ask_size;
  if constexpr (requires { r.bid_exchange; }) t << r.bid_exchange;
  if constexpr (requires { r.bid_price; }) t << r.bid_price;
  if constexpr (requires { r.bid_size; }) t << r.bid_size;
  if constexpr (requires { r.conditions; }) t << r.conditions;
  if constexpr (requires { r.correction; }) t << r.correction;
  if constexpr (requires { r.exchange; }) t << r.exchange;
  if constexpr (requires { r.id; }) t << r.id;
  if constexpr (requires { r.indicators; }) t << r.indicators;
  if constexpr (requires { r.participant_timestamp; }) t << r.participant_timestamp;
  if constexpr (requires { r.price; }) t << r.price;
  if constexpr (requires { r.received_timestamp; }) t << r.received_timestamp;
  if constexpr (requires { r.sequence_number; }) t << r.sequence_number;
  if constexpr (requires { r.sip_timestamp; }) t << r.sip_timestamp;
  if constexpr (requires { r.size; }) t << r.size;
  if constexpr (requires { r.tape; }) t << r.tape;
  if constexpr (requires { r.trf_id; }) t << r.trf_id;
  if constexpr (requires { r.trf_timestamp; }) t << r.trf_timestamp;
  // clang-format on
  return t.str();
}
inline std::string text_of(const aggregate& r) {
  return (row_text() << r.ticker << r.volume << r.open << r.close << r.high << r.low
                     << r.window_start << r.transactions)
      .str();
}

}  // namespace massive::files::test
